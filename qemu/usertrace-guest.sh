#!/bin/sh
# qemu/usertrace-guest.sh - the guest side of tests/q30-qemu-usertrace.sh:
# user-space tracing through ltt_register_generic / ltt_trace_generic
# (kernel patch 0009) with libltt-usertrace's example and test tool.
# Installed as /ltt/guest-test.sh by qemu/run.sh (GUEST_SCRIPT=...).
#
# Leaves in $R (the 9p share): results ("step status" lines), the tools'
# outputs (*.txt), the traces user/, drop/, block/ (lttd), and, from
# /init, guest.log and dmesg.txt.
R=/mnt/host
T=/mnt/relayfs/ltt
res() { echo "$1 $2" >>$R/results; echo "== $1: $2"; }
lttd_wait() { # lttd drains the channels after the stop, then exits
	n=0
	while pidof lttd >/dev/null && [ $n -lt 300 ]; do sleep 0.1; n=$((n + 1)); done
	! pidof lttd >/dev/null
}
: >$R/results
mount -t relayfs relayfs /mnt/relayfs; res mount_relayfs $?
# only user-space events: the kernel's would fill the small buffers
P=/sys/module/ltt_probes/parameters/enable
[ -e $P ] || P=/sys/module/ltt_core/parameters/enable	# the modules (kernel/modules)
if [ -e $P ]; then echo 0 >$P; res probes_off $?; fi

# -- the example, hostile arguments, fork and exit --------------------------
# the per-process limit first, with no trace: 31 facilities without XML
ltt-usertrace-tool limits >$R/limits.txt 2>&1; res u_limits $?
# cpu channel: 4 KiB sub-buffers (an 8 KiB event does not fit)
lttctl -n user -d -t $R/user -l $T --subbuf-size-high 4k --subbuf-num-high 4 \
	>$R/lttctl-user.log 2>&1
res u_start $?
usertrace-example 3 >$R/example.txt 2>&1; res u_example $?
ltt-usertrace-tool errnos >$R/errnos.txt 2>&1; res u_errnos $?
ltt-usertrace-tool inherit >$R/inherit.txt 2>&1; res u_inherit $?
ltt-usertrace-tool hold 3 >$R/hold.txt 2>&1 &
H=$!
sleep 1
id=$(sed -n 's/^id \([0-9]*\) OK$/\1/p' $R/hold.txt)
ltt-usertrace-tool write "$id" >$R/write-held.txt 2>&1; res u_write_held $?
wait $H; res u_hold $?
ltt-usertrace-tool write "$id" >$R/write-after.txt 2>&1; res u_write_after $?
lttctl -n user -q; res u_stop $?
lttd_wait; res u_lttd $?
lttctl -n user -r; res u_destroy $?

# -- losing and blocking: a writer much faster than lttd's wake-ups ----------
N=3000
for m in drop block; do
	lttctl -n $m -d -t $R/$m -l $T --subbuf-size-high 4k --subbuf-num-high 2 \
		>$R/lttctl-$m.log 2>&1
	res ${m}_start $?
	taskset -c 1 ltt-usertrace-tool flood $N $m >$R/flood-$m.txt 2>&1; res ${m}_flood $?
	lttctl -n $m -q; res ${m}_stop $?
	lttd_wait; res ${m}_lttd $?
	lttctl -n $m -r; res ${m}_destroy $?
done
exit 0
