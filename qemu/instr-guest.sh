#!/bin/sh
# qemu/instr-guest.sh - the guest side of tests/q20-qemu-instrumentation.sh
# and of qemu/record-traces.sh: a small busybox session traced with the
# kernel's own events (patch 0007), then the cost of an active event.
# Installed as /ltt/guest-test.sh by qemu/run.sh (GUEST_SCRIPT=...).
#
# Leaves in $R (the 9p share): results ("step status" lines), pids (the
# pids of the known commands), busybox/ (the trace, with its eventdefs),
# bench.txt (getpid timings), cross/ and ftrace.txt (a second trace taken
# beside ftrace's sched_switch), and, from /init, guest.log and dmesg.txt.
R=/mnt/host
T=/mnt/relayfs/ltt
U=/proc/ltt_user_generic
res() { echo "$1 $2" >>$R/results; echo "== $1: $2"; }
lttd_wait() { # lttd drains the channels after the stop, then exits
	n=0
	while pidof lttd >/dev/null && [ $n -lt 300 ]; do sleep 0.1; n=$((n + 1)); done
	! pidof lttd >/dev/null
}
: >$R/results
: >$R/pids

mount -t relayfs relayfs /mnt/relayfs; res mount_relayfs $?

# -- the busybox session --------------------------------------------------------
# Small sub-buffers: the trace is committed under traces/.
lttctl -n busybox -d -t $R/busybox -l $T \
	--subbuf-size-low 4k --subbuf-num-low 4 \
	--subbuf-size-med 16k --subbuf-num-med 8 \
	--subbuf-size-high 32k --subbuf-num-high 16 >$R/lttctl-busybox.log 2>&1
res b_start $?
echo "shell $$" >>$R/pids
echo "session: begin" >$U
# Commands by their path: busybox's shell runs an applet named without a
# path by executing /proc/self/exe, and the trace would call them all "exe".
i=0
while [ $i -lt 3 ]; do
	i=$((i + 1))
	echo "loop $i" >$U
	/bin/ls /usr/share/ltt/facilities | /bin/cat >/tmp/ls.$i
done
echo "pipe: $(/bin/cat /tmp/ls.1 | /bin/wc -l) facilities" >$U
# a known command with a known pid: fork, exec, exit, on CPU 1
taskset -c 1 /bin/sh -c 'echo "cat $$" >>/mnt/host/pids; exec /bin/cat /usr/share/ltt/facilities/fs.xml' >/tmp/fs.xml
res b_cat $?
/bin/sleep 0.2 &
P=$!
echo "sleep $P" >>$R/pids
wait $P; res b_sleep $?
taskset -c 0 /bin/sh -c 'echo "cpu 0 says hello" >/proc/ltt_user_generic'
taskset -c 1 /bin/sh -c 'echo "cpu 1 says hello" >/proc/ltt_user_generic'
echo "session: end" >$U
lttctl -n busybox -q; res b_stop $?
lttd_wait; res b_lttd $?
lttctl -n busybox -r; res b_destroy $?

# -- ftrace beside us: its sched_switch events and our schedchange, same boot --
# ftrace is on before our trace starts and off after it stops, so each of
# our CPUs' switches is a contiguous run of ftrace's (tests/q20 compares
# them, state included: the state __schedule() saw, not one read later).
F=/sys/kernel/tracing
mount -t tracefs nodev $F && echo 0 >$F/tracing_on && echo >$F/trace &&
	echo 1 >$F/events/sched/sched_switch/enable && echo 1 >$F/tracing_on
res x_ftrace_on $?
lttctl -n cross -d -t $R/cross -l $T \
	--subbuf-size-low 64k --subbuf-num-low 4 --subbuf-size-med 256k --subbuf-num-med 4 \
	--subbuf-size-high 1M --subbuf-num-high 8 >$R/lttctl-cross.log 2>&1
res x_start $?
i=0
while [ $i -lt 5 ]; do
	i=$((i + 1))
	/bin/ls /usr/share/ltt/facilities | /bin/cat >/dev/null
	taskset -c 1 /bin/sleep 0.02
	taskset -c 0 /bin/sh -c '/bin/sleep 0.01 & wait'
done
ltt-instr-tool pingpong 1500 >$R/pingpong.txt; res x_pingpong $?
lttctl -n cross -q; res x_stop $?
echo 0 >$F/tracing_on
lttd_wait; res x_lttd $?
lttctl -n cross -r
cat $F/trace >$R/ftrace.txt && cat $F/per_cpu/cpu0/stats $F/per_cpu/cpu1/stats >$R/ftrace-stats.txt
res x_ftrace $?

# -- the cost of an active event: N getpid() with and without a trace -----------
N=200000
for k in 1 2 3; do ltt-instr-tool getpid $N >>$R/bench-off.txt; done
res bench_off $?
lttctl -n bench -d -t /tmp/bench -l $T --subbuf-size-high 1M --subbuf-num-high 4 \
	>$R/lttctl-bench.log 2>&1
res bench_trace $?
for k in 1 2 3; do taskset -c 0 ltt-instr-tool getpid $N >>$R/bench-on.txt; done
res bench_on $?
lttctl -n bench -q; res bench_stop $?
lttd_wait; res bench_lttd $?
lttctl -n bench -r
du -sk /tmp/bench >$R/bench-size.txt 2>&1
rm -rf /tmp/bench
exit 0
