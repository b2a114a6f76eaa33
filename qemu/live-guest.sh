#!/bin/sh
# qemu/live-guest.sh - the guest side of `make demo-live`: trace a busy
# little workload for a few seconds with lttd writing into the 9p share,
# small sub-buffers so that the host sees the trace grow as it is written.
# Installed as /ltt/guest-test.sh by qemu/run.sh (GUEST_SCRIPT=...).
# Leaves in $R: live/ (the trace), results, and from /init guest.log.
R=/mnt/host
T=/mnt/relayfs/ltt
SECONDS_OF_WORK=${LIVE_SECONDS:-8}
res() { echo "$1 $2" >>$R/results; echo "== $1: $2"; }
: >$R/results
mount -t relayfs relayfs /mnt/relayfs; res mount_relayfs $?
P=/sys/module/ltt_probes/parameters/enable
[ -e $P ] || P=/sys/module/ltt_core/parameters/enable	# the modules (kernel/modules)
if [ -e $P ]; then echo 1 >$P; fi
lttctl -n live -d -t $R/live -l $T \
	--subbuf-size-low 4k --subbuf-num-low 4 \
	--subbuf-size-med 4k --subbuf-num-med 8 \
	--subbuf-size-high 4k --subbuf-num-high 16 >$R/lttctl.log 2>&1
res start $?
# the workload: pipes, forks, short sleeps, file reads, on both CPUs
end=$(( $(date +%s) + SECONDS_OF_WORK ))
i=0
while [ "$(date +%s)" -lt $end ]; do
	i=$((i + 1))
	/bin/ls /usr/share/ltt/facilities | /bin/cat >/tmp/ls.out
	/bin/cat /usr/share/ltt/facilities/kernel.xml >/dev/null
	taskset -c $((i % 2)) /bin/sh -c '/bin/echo work >/tmp/w; /bin/sleep 0.05'
done
res rounds $i
lttctl -n live -q; res stop $?
n=0
while pidof lttd >/dev/null && [ $n -lt 300 ]; do sleep 0.1; n=$((n + 1)); done
lttctl -n live -r; res destroy $?
