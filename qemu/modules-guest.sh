#!/bin/sh
# qemu/modules-guest.sh - the guest side of the modules' life cycle in
# tests/q60 (Debian's kernel) and tests/q61 (the debug kernel): /init has
# loaded them (qemu/modules-boot.sh); here they are unloaded and loaded again in
# every order their dependencies allow or refuse, an unload is tried while
# a trace exists and while lttd holds its files, and N cycles of load,
# trace, unload run with the memory counted before and after (N is
# ltt_cycles= on the kernel command line, 100 by default).  Installed
# as /ltt/guest-test.sh.  Leaves results ("step status"), meminfo-q*.txt
# and slabinfo-q*.txt (at each quarter of the cycles), kmemleak.txt (debug
# kernel), and, from /init, guest.log and dmesg.txt.
R=/mnt/host
T=/mnt/relayfs/ltt
M=/lib/modules/ltt
res() { echo "$1 $2" >>$R/results; echo "== $1: $2"; }
ours() { lsmod | grep -Ec '^(relayfs|ltt_core|ltt_relay|ltt_control|ltt_user) '; }
load_all() {
	for m in relayfs ltt_core ltt_relay ltt_control ltt_user; do
		insmod $M/$m.ko || return 1
	done
}
unload_all() {
	for m in ltt_user ltt_control ltt_relay ltt_core relayfs; do
		rmmod $m || return 1
	done
}
: >$R/results
cp /tmp/modules.log $R/modules-load.txt 2>/dev/null
test "$(ours)" = 5; res loaded_at_boot $?

# -- orders the dependencies refuse, then allow ---------------------------------
rmmod ltt_core 2>$R/rmmod-core.txt; test $? != 0; res rmmod_core_in_use_refused $?
rmmod relayfs 2>$R/rmmod-relayfs.txt; test $? != 0; res rmmod_relayfs_in_use_refused $?
unload_all; res unload_all $?
test "$(ours)" = 0; res none_left $?
insmod $M/ltt_relay.ko 2>$R/insmod-relay-first.txt; test $? != 0; res relay_before_core_refused $?
test "$(ours)" = 0; res still_none $?
# ltt_core alone first, relayfs after it: both orders work
insmod $M/ltt_core.ko && insmod $M/relayfs.ko && insmod $M/ltt_user.ko &&
	insmod $M/ltt_control.ko && insmod $M/ltt_relay.ko; res load_other_order $?
test "$(ours)" = 5; res five_loaded $?

# -- an unload while a trace exists ------------------------------------------
mount -t relayfs relayfs /mnt/relayfs; res mount_relayfs $?
lttctl -n held -c; res held_create $?
rmmod ltt_relay 2>$R/rmmod-relay-trace.txt; test $? != 0; res rmmod_relay_with_trace_refused $?
lttctl -n held -s; res held_start $?
echo "held" >/proc/ltt_user_generic; res held_write $?
lttd -t $T/held -d $R/held >$R/lttd-held.log 2>&1 &
L=$!
sleep 1
lttctl -n held -q; res held_stop $?
lttctl -n held -r; res held_destroy $?
wait $L; res held_lttd $?
# the door open across the unload of ltt_user: procfs cuts it off
exec 7>/proc/ltt_user_generic
rmmod ltt_user; res rmmod_user_door_open $?
echo "after" >&7 2>$R/door-after.txt; test $? != 0; res door_closed_after_unload $?
exec 7>&-
insmod $M/ltt_user.ko; res reload_user $?
umount /mnt/relayfs; res umount $?
unload_all; res unload_again $?

# -- N cycles: load, trace a little, unload ----------------------------------------
cycle() {
	load_all || return 1
	mount -t relayfs relayfs /mnt/relayfs || return 1
	lttctl -n cyc -c >/dev/null || return 1
	lttctl -n cyc -s >/dev/null || return 1
	echo "cycle $1" >/proc/ltt_user_generic || return 1
	lttctl -n cyc -q >/dev/null || return 1
	lttctl -n cyc -r >/dev/null || return 1
	umount /mnt/relayfs || return 1
	unload_all
}
# one cycle first: what stays allocated once (caches, kmemleak's own) is
# counted before the 100
cycle 0; res cycle_0 $?
# the slab is read at every quarter of the cycles (tests/modules-suite.sh
# judges)
snapshot() {
	sync; echo 3 >/proc/sys/vm/drop_caches
	cat /proc/meminfo >$R/meminfo-$1.txt
	cat /proc/slabinfo >$R/slabinfo-$1.txt
}
snapshot q0
# the caches the kernel may shrink (dentries, inodes): not leaks
for f in /sys/kernel/slab/*/reclaim_account; do
	[ "$(cat "$f")" = 1 ] && basename "${f%/reclaim_account}"
done >$R/slab-reclaimable.txt 2>/dev/null
n=$(sed -n 's/.*ltt_cycles=\([0-9]*\).*/\1/p' /proc/cmdline)
n=${n:-100}
echo "$n" >$R/cycles
i=1; rc=0
while [ $i -le "$n" ]; do
	cycle $i || { rc=$i; break; }
	q=$((4 * i / n))
	[ $((q * n)) = $((4 * i)) ] && snapshot q$q
	i=$((i + 1))
done
res cycles_all $rc
test "$(ours)" = 0; res none_after_cycles $?
if [ -e /sys/kernel/debug/kmemleak ] || mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null; then
	if [ -e /sys/kernel/debug/kmemleak ]; then
		echo scan >/sys/kernel/debug/kmemleak
		sleep 6
		echo scan >/sys/kernel/debug/kmemleak
		cat /sys/kernel/debug/kmemleak >$R/kmemleak.txt
		res kmemleak_scanned $?
	fi
fi

# -- a module built for another kernel -------------------------------------------
if [ -r /lib/modules/foreign/ltt_core.ko ]; then
	insmod /lib/modules/foreign/ltt_core.ko 2>$R/insmod-foreign.txt
	test $? != 0; res foreign_refused $?
fi
load_all; res load_at_end $?
