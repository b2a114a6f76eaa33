#!/bin/sh
# bench/lttd-guest.sh - the guest side of bench/lttd.py (installed as
# /ltt/guest-test.sh by qemu/run.sh): user events written at a given rate
# on CPU 0, recorded by lttd (ours), by `trace-cmd record` draining
# ftrace's trace_pipe_raw (ftrace, on the bench kernel) or by an LTTng 2.13
# kernel session whose lttng-consumerd records /proc/lttng-logger's
# lttng_logger events (lttng, on Debian's kernel), every reader on CPU 1,
# every one writing to tmpfs.  The host counts what arrived.
#
# Reads /ltt/params: TRACERS ("ours ftrace" or "ours lttng"), CONFIGS
# (of "default large timer"; timer: LTTng's default channel with
# TIMER_LTTNG, ours and ftrace as default), RUNS, RATES (events/s; 0 = as fast as
# possible, max2 = as fast as possible from a writer on each CPU, the
# readers' too), SECS (seconds per run), MAXN (events of a run at 0, per
# writer at max2), SIZES (bytes per event), LARGE_OURS (lttctl options),
# LARGE_FTRACE (trace-cmd -b KiB), LARGE_LTTNG (lttng enable-channel options).
# Writes $R/times "TRACER SIZE-CONFIG RATE RUN write N TOTAL_NS NS_PER_OP FAILED",
# $R/ours-SIZE-CONFIG-RATE-RUN/ (the trace), $R/ftrace-SIZE-CONFIG-RATE-RUN.dat and
# .log (trace-cmd's data and its report), $R/lttng-SIZE-CONFIG-RATE-RUN/ (its
# metadata and streams) and .list (`lttng list` of the stopped session: its
# discarded events), $R/results, $R/versions.
R=/mnt/host
T=/mnt/relayfs/ltt
F=/sys/kernel/tracing
P=/sys/module/ltt_probes/parameters/enable
[ -e $P ] || P=/sys/module/ltt_core/parameters/enable	# the modules (kernel/modules)
res() { echo "$1 $2" >>$R/results; }
lttd_wait() { # lttd drains the channels after the stop, then exits
	w=0
	while pidof lttd >/dev/null && [ $w -lt 600 ]; do sleep 0.1; w=$((w + 1)); done
	! pidof lttd >/dev/null
}
: >$R/results
: >$R/times
. /ltt/params
export LD_LIBRARY_PATH=/lib/x86_64-linux-gnu:/usr/lib/x86_64-linux-gnu

mount -t relayfs relayfs /mnt/relayfs; res mount_relayfs $?
mount -t tracefs nodev $F; res mount_tracefs $?
uname -r >$R/versions
case " $TRACERS " in *" ftrace "*)
	trace-cmd --version 2>&1 | grep -m1 version >>$R/versions
	# "7 (expanded: 1408)" until first used: the size it will have is 1408
	DEFAULT_KB=$(sed 's/.*expanded: \([0-9]*\)).*/\1/' $F/buffer_size_kb)
	echo "ftrace default buffer_size_kb $DEFAULT_KB" >>$R/versions ;;
esac
case " $TRACERS " in *" lttng "*)
	export HOME=/root LTTNG_HOME=/root
	mkdir -p /root /dev/shm /var/run /run
	mount -t tmpfs tmpfs /dev/shm
	# on CPU 1, as lttd: the consumer daemon it starts inherits the CPU
	taskset -c 1 lttng-sessiond --background >/tmp/sessiond.log 2>&1; res lttng_sessiond $?
	sleep 1
	# lttng-tracer, which the daemon loads, makes /proc/lttng-logger
	[ -w /proc/lttng-logger ]; res lttng_logger $?
	lttng --version | head -n 1 >>$R/versions ;;
esac
# only the user events: our kernel probes stay detached
echo 0 >$P

# load FILE: the writer on CPU 0 at $rate, or (max2) one unpaced writer on
# each CPU, reported as one line: both counts, the longer time.
load() {
	if [ "$rate" != max2 ]; then
		taskset -c 0 ltt-bench-tool write $1 $n $size $rate
		return
	fi
	taskset -c 0 ltt-bench-tool write $1 $n $size 0 >/tmp/load0 &
	p0=$!
	taskset -c 1 ltt-bench-tool write $1 $n $size 0 >/tmp/load1 || return 1
	wait $p0 || return 1
	cat /tmp/load0 /tmp/load1 | awk '{ n += $2; if ($3 > t) t = $3; f += $5 }
		END { printf "write %d %.0f %.1f %d\n", n, t, t / n, f }'
}

# -- ours: lttctl -d starts lttd (on CPU 1, like lttctl) --
run_ours() {
	if [ $cfg = large ]; then opts=$LARGE_OURS; else opts=; fi
	rm -rf /tmp/ours
	taskset -c 1 lttctl -n b -d -t /tmp/ours $opts >$R/lttctl-$id.log 2>&1
	rc=$?
	line=$(load /proc/ltt_user_generic) || rc=1
	echo "ours $size-$cfg $rate $k $line" >>$R/times
	taskset -c 1 lttctl -n b -q >/dev/null || rc=1
	lttd_wait || rc=1
	taskset -c 1 lttctl -n b -r >/dev/null || rc=1
	cp -r /tmp/ours $R/ours-$id || rc=1
	rm -rf /tmp/ours
	res ours_$id $rc
}

# -- ftrace: trace-cmd record on CPU 1, started before the load and
# stopped by SIGINT after it, like lttd --
run_ftrace() {
	if [ $cfg = large ]; then kb=$LARGE_FTRACE; else kb=$DEFAULT_KB; fi
	rm -f /tmp/tc.dat
	echo 0 >$F/tracing_on
	taskset -c 1 trace-cmd record -p nop -b $kb -o /tmp/tc.dat >$R/ftrace-$id.log 2>&1 &
	TC=$!
	n2=0	# recording: trace-cmd turns tracing on once its readers run
	while [ "$(cat $F/tracing_on)" != 1 ] && [ $n2 -lt 300 ]; do sleep 0.1; n2=$((n2 + 1)); done
	sleep 0.5
	line=$(load $F/trace_marker)
	rc=$?
	echo "ftrace $size-$cfg $rate $k $line" >>$R/times
	kill -INT $TC; wait $TC || rc=1
	for c in 0 1; do
		echo "cpu$c $(tr '\n' ' ' <$F/per_cpu/cpu$c/stats)" >>$R/ftrace-$id.log
	done
	cp /tmp/tc.dat $R/ftrace-$id.dat || rc=1
	rm -f /tmp/tc.dat
	res ftrace_$id $rc
}

# -- lttng: a normal (not snapshot) kernel session, its lttng_logger event
# alone, in the channel enable-event makes with the defaults (or one with
# LARGE_LTTNG); lttng-consumerd writes it to tmpfs while the load runs.
# `lttng stop` waits until the consumer has written out what was recorded;
# `lttng list` of the stopped session says what the channel discarded --
run_lttng() {
	rm -rf /tmp/lttng-b
	taskset -c 1 lttng create b --output=/tmp/lttng-b >$R/lttng-$id.log 2>&1
	rc=$?
	case $cfg in
	large) opts=$LARGE_LTTNG ;;
	timer) opts=$TIMER_LTTNG ;;
	*) opts= ;;
	esac
	if [ -n "$opts" ]; then
		# shellcheck disable=SC2086 # options
		taskset -c 1 lttng enable-channel -k $opts channel0 >>$R/lttng-$id.log 2>&1 || rc=1
	fi
	taskset -c 1 lttng enable-event -k -c channel0 lttng_logger >>$R/lttng-$id.log 2>&1 &&
		taskset -c 1 lttng start >>$R/lttng-$id.log 2>&1 || rc=1
	line=$(load /proc/lttng-logger) || rc=1
	echo "lttng $size-$cfg $rate $k $line" >>$R/times
	taskset -c 1 lttng stop >>$R/lttng-$id.log 2>&1 || rc=1
	taskset -c 1 lttng list b >$R/lttng-$id.list 2>&1 || rc=1
	taskset -c 1 lttng destroy b >>$R/lttng-$id.log 2>&1 || rc=1
	meta=$(find /tmp/lttng-b -name metadata | head -n 1)
	if [ -n "$meta" ]; then
		kdir=$(dirname $meta)
		mkdir -p $R/lttng-$id && cp $kdir/metadata $kdir/channel0_* $R/lttng-$id/ || rc=1
	else
		rc=1
	fi
	rm -rf /tmp/lttng-b
	res lttng_$id $rc
}

k=0
while [ $k -lt "$RUNS" ]; do
	k=$((k + 1))
	for size in $SIZES; do
	for cfg in $CONFIGS; do
		for rate in $RATES; do
			case $rate in 0|max2) n=$MAXN ;; *) n=$((rate * SECS)) ;; esac
			id=$size-$cfg-$rate-$k
			for tracer in $TRACERS; do
				run_$tracer
			done
		done
	done
	done
done
exit 0
