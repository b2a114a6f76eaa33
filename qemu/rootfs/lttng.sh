#!/bin/sh
# qemu/rootfs/lttng.sh start OUT_DIR | stop - LTTng 2.13's kernel session
# beside ours in the field guest (issue 28, item 4), run by
# qemu/rootfs/field-run.sh in the Debian root, where lttng-tools is
# installed and qemu/rootfs/field-guest.sh put the modules of
# qemu/lttng-modules.sh into /lib/modules. The events are those the
# matcher (qemu/rootfs/match-lttng.py) compares with ours: the scheduler's
# switch, fork, exec and exit, every system call's entry and exit, the
# interrupt handlers and the local APIC timer (ours writes it as irq 236),
# softirqs. One channel, 8 sub-buffers of 2 MiB per CPU (the default is
# 4 of 1 MiB): a loss in LTTng would hide events the comparison wants; a
# loss would still show, as babeltrace2's discarded events. LTTNG_SUBBUF
# and LTTNG_NSUBBUF change them (field-run.sh: to make LTTng lose events
# on purpose, and see the matcher find the gaps where LTTng says).
set -eu
export HOME=/root LTTNG_HOME=/root
case ${1:-} in
start)
	out=${2:?usage: lttng.sh start OUT_DIR}
	mkdir -p /root	# /dev/shm: qemu/rootfs/field-guest.sh
	lttng-sessiond --background
	lttng create field --output="$out"
	lttng enable-channel -k --subbuf-size="${LTTNG_SUBBUF:-2M}" --num-subbuf="${LTTNG_NSUBBUF:-8}" kchan
	lttng enable-event -k -c kchan \
		sched_switch,sched_process_fork,sched_process_exec,sched_process_exit,irq_handler_entry,irq_handler_exit,irq_softirq_entry,irq_softirq_exit,x86_irq_vectors_local_timer_entry,x86_irq_vectors_local_timer_exit
	lttng enable-event -k -c kchan --syscall -a
	lttng start ;;
stop)
	lttng stop
	lttng destroy
	# the daemon holds the chroot's files: end it before the unmounts
	p=$(pidof lttng-sessiond || true)
	[ -z "$p" ] || kill $p
	n=0
	while pidof lttng-sessiond >/dev/null && [ $n -lt 100 ]; do sleep 0.1; n=$((n + 1)); done
	! pidof lttng-sessiond >/dev/null ;;
*)
	echo "usage: lttng.sh start OUT_DIR | stop" >&2
	exit 2 ;;
esac
