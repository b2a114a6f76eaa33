#!/bin/sh
# qemu/rootfs/ftrace.sh start | stop OUT_DIR - the kernel's own tracer,
# ftrace, as the third opinion in the field guest (issue 28, item 4), run
# by qemu/rootfs/field-run.sh in the Debian root: the same events as
# qemu/rootfs/lttng.sh (raw_syscalls for the system calls) into the
# kernel's ring buffer, FTRACE_MB MiB a CPU (160), stopping rather than
# overwriting when full (the drop is counted in per_cpu/cpuN/stats); at
# stop, each CPU's buffer as text, OUT_DIR/cpuN, and its stats,
# OUT_DIR/cpuN.stats (read by qemu/rootfs/match-lttng.py).
set -eu
T=/sys/kernel/tracing
case ${1:-} in
start)
	# tracefs: qemu/rootfs/field-guest.sh mounts it
	[ -e $T/trace ] || { echo "ftrace.sh: no tracefs on $T" >&2; exit 1; }
	echo 0 >$T/tracing_on
	echo >$T/set_event
	echo nop >$T/current_tracer
	echo 0 >$T/options/overwrite
	echo $((${FTRACE_MB:-160} * 1024)) >$T/buffer_size_kb
	for e in sched:sched_switch sched:sched_process_fork sched:sched_process_exec sched:sched_process_exit \
		irq:irq_handler_entry irq:irq_handler_exit irq:softirq_entry irq:softirq_exit \
		irq_vectors:local_timer_entry irq_vectors:local_timer_exit \
		raw_syscalls:sys_enter raw_syscalls:sys_exit; do
		echo "$e" >>$T/set_event
	done
	echo >$T/trace
	echo 1 >$T/tracing_on ;;
stop)
	out=${2:?usage: ftrace.sh stop OUT_DIR}
	echo 0 >$T/tracing_on
	mkdir -p "$out"
	for c in $T/per_cpu/cpu*; do
		n=${c##*/}
		cat "$c/stats" >"$out/$n.stats"
		cat "$c/trace" >"$out/$n"
	done
	echo >$T/set_event
	echo 1408 >$T/buffer_size_kb ;;
*)
	echo "usage: ftrace.sh start | stop OUT_DIR" >&2
	exit 2 ;;
esac
