#!/bin/sh
# bench/tracer-guest.sh - the guest side of bench/tracer.py (installed as
# /ltt/guest-test.sh by qemu/run.sh): the cost of our tracer against
# ftrace's on the same work, in one boot.
#
# Reads /ltt/params (shell assignments: RUNS, NUSER, SIZE, NGETPID, NPIPE,
# NALT, ALTBATCH, NALTK, ALTGETPID, ALTPIPE, PERF, LTTNG, CHECKSUM: that
# of the facility ltt-bench-tool generic registers).  Every load runs pinned on CPU 0
# (taskset), the control commands on CPU 1, so that the events counted on
# CPU 0 are the load's.  Writes:
#   $R/times     "TRACER LOAD RUN WHAT N TOTAL_NS NS_PER_OP FAILED"
#   $R/counts    "ftrace LOAD RUN EVENTS OVERRUN BYTES" (CPU 0 entries +
#                overrun; the bytes its ring buffer holds on CPU 0)
#   $R/ours-LOAD-RUN/   our trace of that run (the host counts its events)
#   $R/generic-user-RUN/   the same for the ltt_trace_generic system call
#   $R/lttng-LOAD-RUN/   LTTng 2.13's kernel trace of that run (LTTNG=1:
#                its modules and tools in the initramfs, Debian's stock kernel)
#   $R/ust-user-RUN/   LTTng-UST's trace of ltt-ust-bench's events (LTTNG=1)
#   $R/alternate, $R/ours-alternate/   ltt-bench-tool alternate's lines and
#                our trace of them (NALT > 0)
#   $R/alternate-kernel   the kernel loads' interleaved batches (NALTK > 0)
#   $R/results   "step status" lines; $R/versions
# Run 0 of each is a warm-up.
# Our traces are flight recorders (no reader while the load runs, like
# ftrace's ring buffer without trace-cmd), big enough to overwrite nothing.
R=/mnt/host
T=/mnt/relayfs/ltt
F=/sys/kernel/tracing
P=/sys/module/ltt_probes/parameters/enable
[ -e $P ] || P=/sys/module/ltt_core/parameters/enable	# the modules (kernel/modules)
res() { echo "$1 $2" >>$R/results; }
: >$R/results
: >$R/times
: >$R/counts
. /ltt/params
export LD_LIBRARY_PATH=/lib/x86_64-linux-gnu:/usr/lib/x86_64-linux-gnu

mount -t relayfs relayfs /mnt/relayfs; res mount_relayfs $?
mount -t tracefs nodev $F; res mount_tracefs $?
uname -r >$R/versions
# the clocks the tracers read (bench/guest.py: tsc=reliable on every
# kernel, which switches to the TSC once it has refined its frequency, a
# few seconds after boot: waited for, up to 20 s)
cs=/sys/devices/system/clocksource/clocksource0/current_clocksource
if grep -q tsc=reliable /proc/cmdline; then
	i=0
	while [ "$(cat $cs)" != tsc ] && [ $i -lt 100 ]; do sleep 0.2; i=$((i + 1)); done
fi
echo "clocks: clock source $(cat $cs)," \
	"ftrace's trace_clock $(sed 's/.*\[\(.*\)\].*/\1/' $F/trace_clock)" >>$R/versions
echo 0 >$F/tracing_on
echo 32768 >$F/buffer_size_kb; res ftrace_buffer $?
echo "ftrace buffer_size_kb $(cat $F/buffer_size_kb)" >>$R/versions

# The ftrace events that match our probes (kernel/ltt/ltt-probes.c).
EVENTS="raw_syscalls/sys_enter raw_syscalls/sys_exit sched/sched_switch
	sched/sched_waking sched/sched_wakeup_new sched/sched_process_fork
	sched/sched_process_exit sched/sched_process_free sched/sched_process_wait
	sched/sched_process_exec irq/irq_handler_entry irq/irq_handler_exit
	irq/softirq_entry irq/softirq_exit irq/tasklet_entry irq/tasklet_exit
	irq_vectors/local_timer_entry irq_vectors/local_timer_exit
	exceptions/page_fault_user exceptions/page_fault_kernel"
: >$R/ftrace-events
for e in $EVENTS; do
	if [ -e $F/events/$e/enable ]; then
		EVENTS_ON="${EVENTS_ON:-} $e"; echo $e >>$R/ftrace-events
	else
		echo "missing $e" >>$R/ftrace-events
	fi
done

tool() { # the load on CPU 0: ltt-bench-tool's, or "ust N SIZE": ltt-ust-bench's
	if [ "$1" = ust ]; then
		shift; taskset -c 0 ltt-ust-bench "$@"
	else
		taskset -c 0 ltt-bench-tool "$@"
	fi
}
ours_start() { # NAME PROBES(0/1) [SUBBUF]: a flight trace of 4 sub-buffers
	# of SUBBUF (8M: 32 MiB) per CPU and channel
	echo $2 >$P
	sb=${3:-8M}
	taskset -c 1 lttctl -n $1 -c -m flight --subbuf-size-high $sb --subbuf-num-high 4 \
		--subbuf-size-med $sb --subbuf-num-med 4 --subbuf-size-low $sb --subbuf-num-low 4 \
		>/dev/null &&
		taskset -c 1 lttctl -n $1 -s >/dev/null
}
ours_stop() { # NAME [OUT]: stop, dump the flight buffers to OUT, destroy
	taskset -c 1 lttctl -n $1 -q >/dev/null
	rc=$?
	if [ -n "${2:-}" ]; then
		mkdir -p $2/eventdefs && cp /usr/share/ltt/facilities/*.xml $2/eventdefs/ &&
			taskset -c 1 lttd -t $T/$1 -d $2 >$2.lttd.log 2>&1 || rc=1
	fi
	taskset -c 1 lttctl -n $1 -r >/dev/null || rc=1
	return $rc
}
ftrace_start() { # EVENT...: empty buffer, those events on, tracing on
	echo 0 >$F/tracing_on
	echo >$F/trace
	for e in "$@"; do echo 1 >$F/events/$e/enable || return 1; done
	echo 1 >$F/tracing_on
}
ftrace_stop() { # LOAD RUN: tracing off, CPU 0's count, events off
	echo 0 >$F/tracing_on
	n=$(sed -n 's/^entries: //p' $F/per_cpu/cpu0/stats)
	o=$(sed -n 's/^overrun: //p' $F/per_cpu/cpu0/stats)
	by=$(sed -n "s/^bytes: //p" $F/per_cpu/cpu0/stats)
	echo "ftrace $1 $2 $((n + o)) $o $by" >>$R/counts
	echo 0 >$F/events/enable
}
# LTTng 2.13 (LTTNG=1): a snapshot session, so that no consumer reads while
# the load runs (like ours and ftrace: the tracers only write), one kernel
# channel of 4 sub-buffers of 8 MiB per CPU (as ours), the events of
# LTTng's probes that match ftrace's list above (lttng-events says which
# were found), every system call's entry and exit; after the run a
# snapshot is written out and copied to the host.
LTTNG_EVENTS="sched_switch sched_waking sched_wakeup_new sched_process_fork
	sched_process_exit sched_process_free sched_process_wait sched_process_exec
	irq_handler_entry irq_handler_exit irq_softirq_entry irq_softirq_exit
	irq_tasklet_entry irq_tasklet_exit
	x86_irq_vectors_local_timer_entry x86_irq_vectors_local_timer_exit
	x86_exceptions_page_fault_user x86_exceptions_page_fault_kernel"
lttng_start() { # NAME
	taskset -c 1 lttng create $1 --snapshot --output=/tmp/lttng-$1 >/dev/null &&
		taskset -c 1 lttng enable-channel -k --subbuf-size=8M --num-subbuf=4 kchan >/dev/null &&
		taskset -c 1 lttng enable-event -k -c kchan $LTTNG_ON >/dev/null &&
		taskset -c 1 lttng enable-event -k -c kchan --syscall -a >/dev/null &&
		taskset -c 1 lttng start >/dev/null
}
ust_start() { # NAME: the same for LTTng-UST, ltt-ust-bench's event alone
	taskset -c 1 lttng create $1 --snapshot --output=/tmp/lttng-$1 >/dev/null &&
		taskset -c 1 lttng enable-channel -u --subbuf-size=8M --num-subbuf=4 uchan >/dev/null &&
		taskset -c 1 lttng enable-event -u -c uchan ltt_bench:tick >/dev/null &&
		taskset -c 1 lttng start >/dev/null
}
lttng_stop() { # NAME OUT: stop, snapshot, its trace (kernel or user) into OUT, destroy
	taskset -c 1 lttng stop >/dev/null
	rc=$?
	taskset -c 1 lttng snapshot record >/dev/null || rc=1
	taskset -c 1 lttng destroy >/dev/null || rc=1
	meta=$(find /tmp/lttng-$1 -name metadata | head -n 1)
	if [ -n "$meta" ]; then
		kdir=$(dirname $meta)
		mkdir -p $2 && cp $kdir/metadata $kdir/*chan_* $2/ || rc=1
	else
		rc=1
	fi
	rm -rf /tmp/lttng-$1
	return $rc
}
if [ "${LTTNG:-0}" = 1 ]; then
	export HOME=/root LTTNG_HOME=/root
	mkdir -p /root /dev/shm /var/run /run
	mount -t tmpfs tmpfs /dev/shm
	# on CPU 1 with the control commands, as its consumer daemon
	taskset -c 1 lttng-sessiond --background >/tmp/sessiond.log 2>&1; res lttng_sessiond $?
	sleep 1
	# which of the events LTTng's probes have (lttng list -k: one a line)
	lttng list -k >/tmp/lttng-list 2>&1; res lttng_list $?
	: >$R/lttng-events
	for e in $LTTNG_EVENTS; do
		if grep -q "^ *$e " /tmp/lttng-list; then
			LTTNG_ON="${LTTNG_ON:+$LTTNG_ON,}$e"; echo $e >>$R/lttng-events
		else
			echo "missing $e" >>$R/lttng-events
		fi
	done
	echo "syscalls (all, entry and exit)" >>$R/lttng-events
	lttng --version | head -n 1 >>$R/versions
fi

t() { # TRACER LOAD RUN, then the tool's arguments
	a=$1; b=$2; c=$3; shift 3
	line=$(tool "$@") || { res "tool_${a}_${b}_${c}" 1; return 1; }
	echo "$a $b $c $line" >>$R/times
}

# The probes: only attached while a trace with enable=1 is active.
echo 0 >$P
# Run 0 is a warm-up the host ignores: TCG translates each code path the
# first time it runs, which would be charged to whichever load came first.
k=-1
while [ $k -lt "$RUNS" ]; do
	k=$((k + 1))
	# -- (a) user-space events ------------------------------------------------
	t none user $k write /dev/null $NUSER $SIZE
	t ltt-off user $k write /proc/ltt_user_generic $NUSER $SIZE
	ours_start u$k 0 && t ours user $k write /proc/ltt_user_generic $NUSER $SIZE
	ours_stop u$k $R/ours-user-$k; res ours_user_$k $?
	t generic-off user $k generic $NUSER $SIZE $CHECKSUM
	ours_start g$k 0 && t generic user $k generic $NUSER $SIZE $CHECKSUM
	ours_stop g$k $R/generic-user-$k; res generic_user_$k $?
	t ftrace-off user $k write $F/trace_marker $NUSER $SIZE
	ftrace_start && t ftrace user $k write $F/trace_marker $NUSER $SIZE
	ftrace_stop user $k; res ftrace_user_$k $?
	if [ "${LTTNG:-0}" = 1 ]; then
		t ust-off user $k ust $NUSER $SIZE
		ust_start u$k && t ust user $k ust $NUSER $SIZE
		lttng_stop u$k $R/ust-user-$k; res ust_user_$k $?
	fi
	# -- (b) system calls and context switches ---------------------------------
	for load in getpid pipe; do
		case $load in getpid) ops=$NGETPID ;; pipe) ops=$NPIPE ;; esac
		t none $load $k $load $ops
		ours_start k$k 1 && t ours $load $k $load $ops
		ours_stop k$k $R/ours-$load-$k; res ours_${load}_$k $?
		echo 0 >$P
		ftrace_start $EVENTS_ON && t ftrace $load $k $load $ops
		ftrace_stop $load $k; res ftrace_${load}_$k $?
		if [ "${LTTNG:-0}" = 1 ]; then
			lttng_start l$load$k && t lttng $load $k $load $ops
			lttng_stop l$load$k $R/lttng-$load-$k; res lttng_${load}_$k $?
		fi
	done
done

# -- (a2) the user events in interleaved batches (NALT rounds of ALTBATCH
# calls each): our trace (probes off) and ftrace (no event on) active at
# once, so that one process alternates between the bare write, both of our
# doors and trace_marker a millisecond apart; a whole run's drift no longer
# lands on one side of a difference ------------------------------------------
if [ "${NALT:-0}" -gt 0 ]; then
	ours_start alt 0 && ftrace_start &&
		taskset -c 0 ltt-bench-tool alternate $NALT $ALTBATCH $SIZE $CHECKSUM \
			/dev/null /proc/ltt_user_generic generic $F/trace_marker >$R/alternate
	res alternate $?
	ftrace_stop alternate 0
	ours_stop alt $R/ours-alternate; res ours_alternate $?
fi

# -- (b2) the kernel loads in interleaved batches (NALTK rounds of
# ALTGETPID getpid() calls and ALTPIPE round trips): untraced, under ours
# and under ftrace, the order rotated every round.  Each tracer is started
# before its batches and stopped after them, outside the times the tool
# measures; ours is a small flight trace (probes on), ftrace's buffer is
# emptied at each start.  Lines "ROUND TRACER LOAD NS_PER_OP" -------------
if [ "${NALTK:-0}" -gt 0 ]; then
	: >$R/alternate-kernel
	r=0
	bad=0	# not rc: ours_stop sets that one
	while [ $r -lt "$NALTK" ] && [ $bad = 0 ]; do
		case $((r % 3)) in
		0) order="none ours ftrace" ;;
		1) order="ours ftrace none" ;;
		*) order="ftrace none ours" ;;
		esac
		for w in $order; do
			case $w in
			ours) ours_start b$r 1 256K || bad=1 ;;
			ftrace) ftrace_start $EVENTS_ON || bad=1 ;;
			esac
			for load in getpid pipe; do
				case $load in getpid) ops=$ALTGETPID ;; pipe) ops=$ALTPIPE ;; esac
				line=$(tool $load $ops) || bad=1
				echo "$r $w $load $(echo "$line" | cut -d' ' -f4)" >>$R/alternate-kernel
			done
			case $w in
			ours) ours_stop b$r || bad=1 ;;
			ftrace) echo 0 >$F/tracing_on; echo 0 >$F/events/enable ;;
			esac
		done
		r=$((r + 1))
	done
	echo 0 >$P
	res alternate_kernel $bad
fi

# -- profiles (PERF=1): where each tracer spends its time (10 x the user
# events: perf's cpu-clock samples are sparse under TCG) --------------------
prof() { # NAME, then the load's arguments: perf-NAME.txt, the top symbols
	name=$1; shift
	perf record -e cpu-clock -C 0 -o /tmp/perf.data taskset -c 0 ltt-bench-tool "$@" \
		>/dev/null 2>$R/perf-$name.log
	perf report -i /tmp/perf.data --no-children --sort symbol --stdio 2>>$R/perf-$name.log |
		grep -E '^# Samples|^[^#]' | grep -v "^$" | head -n 120 >$R/perf-$name.txt
	# every sample's address, for a per-instruction histogram on the host
	# (bench/perf-lines.py, against build-kernel-bench's vmlinux)
	perf script -i /tmp/perf.data -F ip 2>>$R/perf-$name.log >$R/perf-$name.ips
	rm -f /tmp/perf.data
}
if [ "${PERF:-0}" = 1 ]; then
	ours_start pu 0
	prof ours-user write /proc/ltt_user_generic $((NUSER * 10)) $SIZE
	ours_stop pu
	ours_start pg 0
	prof generic-user generic $((NUSER * 10)) $SIZE $CHECKSUM
	ours_stop pg
	ftrace_start
	prof ftrace-user write $F/trace_marker $((NUSER * 10)) $SIZE
	ftrace_stop perf 0
	ours_start pk 1
	prof ours-pipe pipe $NPIPE
	ours_stop pk; echo 0 >$P
	ftrace_start $EVENTS_ON
	prof ftrace-pipe pipe $NPIPE
	ftrace_stop perf 0
	ours_start pp 1
	prof ours-getpid getpid $NGETPID
	ours_stop pp; echo 0 >$P
	ftrace_start $EVENTS_ON
	prof ftrace-getpid getpid $NGETPID
	ftrace_stop perf 0
	res perf 0
fi
exit 0
