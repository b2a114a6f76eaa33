#!/bin/sh
# In the guest of tests/lttng-kernel/record.sh (installed as
# /ltt/guest-test.sh; qemu/init.sh runs it as root with the host's folder
# on /mnt/host): record an LTTng kernel session around a short workload of
# two CPUs' worth of processes (fork, exec, exit, file I/O, pipes, sleeps)
# and leave the trace in /mnt/host/trace.  `lttng_rounds=N` on the kernel's
# command line (record.sh's LTTNG_ROUNDS) adds N rounds of a busier load
# after it, for a trace big enough to time (bench/decode.py --lttng-kernel).
set -eu
rounds=$(sed -n 's/.*lttng_rounds=\([0-9]*\).*/\1/p' /proc/cmdline)
rounds=${rounds:-0}
export LD_LIBRARY_PATH=/usr/lib/x86_64-linux-gnu HOME=/root LTTNG_HOME=/root
mkdir -p /root /dev/shm /var/run /run
mount -t tmpfs tmpfs /dev/shm
echo "modules: $(ls /lib/modules/*/extra | wc -l) LTTng modules for $(uname -r)"
# the session daemon's own words, on failure (guest.log)
trap 'cp /tmp/sessiond.log /mnt/host/ 2>/dev/null || true' EXIT
lttng-sessiond --background -vv >/tmp/sessiond.log 2>&1
sleep 1
lttng create k --output=/tmp/trace
# small sub-buffers: a stream of a few packets, not one mostly empty 1 MiB one;
# for the busy rounds big ones, so that the consumer keeps up under TCG
if [ "$rounds" -gt 0 ]; then
	lttng enable-channel -k --subbuf-size=1M --num-subbuf=16 kchan
else
	lttng enable-channel -k --subbuf-size=64k --num-subbuf=16 kchan
fi
lttng enable-event -k -c kchan \
	sched_switch,sched_waking,sched_wakeup,sched_wakeup_new,sched_process_fork,sched_process_exec,sched_process_exit,sched_process_free,sched_process_wait
lttng enable-event -k -c kchan irq_handler_entry,irq_handler_exit,irq_softirq_entry,irq_softirq_exit,irq_softirq_raise
lttng enable-event -k -c kchan 'lttng_statedump_*'
# a few system calls, not all 700 declarations (the metadata stays small)
lttng enable-event -k -c kchan --syscall \
	openat,read,write,close,execve,clone,wait4,exit_group,pipe2,dup2,nanosleep,clock_nanosleep,newfstatat,getdents64,mmap,brk
lttng add-context -k -c kchan -t pid -t tid -t procname
lttng start
# the workload: a directory walk, a file written and read, a pipe, two busy
# shells on the two CPUs, sleeps
ls -lR /lib /usr >/tmp/ls.out
dd if=/dev/zero of=/tmp/zero bs=4096 count=64 2>/dev/null
cat /tmp/zero | wc -c >/dev/null
sh -c 'i=0; while [ $i -lt 3000 ]; do i=$((i + 1)); done' &
sh -c 'i=0; while [ $i -lt 3000 ]; do i=$((i + 1)); done' &
sleep 0.2
wait
for i in 1 2 3; do /bin/true; done
# the busy rounds: small reads and writes on both CPUs (a read and a write
# system call per 64 bytes, each an entry and an exit), a directory walk,
# a pipe, processes started and ended
r=0
while [ "$r" -lt "$rounds" ]; do
	r=$((r + 1))
	dd if=/dev/zero of=/dev/null bs=64 count=20000 2>/dev/null &
	dd if=/dev/zero bs=64 count=20000 2>/dev/null | cat >/dev/null &
	ls -lR /lib /usr >/dev/null
	for i in 1 2 3 4 5; do /bin/true; done
	wait
done
lttng stop
lttng destroy
cp -r /tmp/trace /mnt/host/trace
ls -lR /mnt/host/trace
echo "rounds: $rounds"
