#!/bin/sh
# qemu/hostile-guest.sh - the guest side of tests/q50-qemu-hostile.sh: an
# unprivileged user, racing readers, a CPU taken offline, a CPU silent
# for seconds, a restarted trace.  Installed as /ltt/guest-test.sh by
# qemu/run.sh (GUEST_SCRIPT=...).
#
# Leaves in $R (the 9p share): results ("step status" lines), what each
# tool printed (*.txt: the kernel's answers, "name ERRNO"), the traces
# lttd wrote, and, from /init, guest.log and dmesg.txt.  The host judges.
R=/mnt/host
T=/mnt/relayfs/ltt
res() { echo "$1 $2" >>$R/results; echo "== $1: $2"; }
# a user and its group, with no privilege left (qemu/ltt-runas.c checks);
# the guest boots with ltt_user.gid=1001: user 1000 is let in as a member
# of group 1001 (AS_MEMBER), and not without it (AS_USER)
AS_USER="ltt-runas 1000 1000"
AS_MEMBER="ltt-runas 1000 1000,1001"
GATE=/sys/module/ltt_user/parameters/gid
# a user_generic event "mark TEXT UPTIME" written on CPU 1: read and printf
# are builtins, so the event follows the reading of the clock closely
MARK1='read -r u _ </proc/uptime; printf "mark %s %s" "$0" "$u" >/proc/ltt_user_generic'
lttd_wait() { # PID: lttd drains the channels after the stop, then exits
	n=0
	while kill -0 "$1" 2>/dev/null && [ $n -lt 600 ]; do sleep 0.1; n=$((n + 1)); done
	! kill -0 "$1" 2>/dev/null
}
SMALL="--subbuf-size-high 4k --subbuf-num-high 2 --subbuf-size-med 4k --subbuf-num-med 2"
: >$R/results

mount -t relayfs relayfs /mnt/relayfs; res mount_relayfs $?
P=/sys/module/ltt_probes/parameters/enable
[ -e $P ] || P=/sys/module/ltt_core/parameters/enable	# the modules (kernel/modules)
if [ -e $P ]; then echo 0 >$P; res probes_off $?; fi

# -- the helper drops privileges for real -----------------------------------
$AS_USER id -u >$R/runas-id.txt 2>&1; res runas $?
$AS_USER cat /proc/self/status >$R/runas-status.txt 2>&1

# -- errnos of an unprivileged user (the user-space gate closed) -------------
[ -e $GATE ] && cat $GATE >$R/gate.txt
$AS_USER ltt-hostile-tool nlcreate nonroot >$R/nonroot-nl.txt 2>&1
test ! -e $T/nonroot; res nonroot_no_trace $?
lttctl -n errs -c $SMALL; res errs_create $?
$AS_USER ltt-hostile-tool open $T/errs/cpu_0 >$R/nonroot-open.txt 2>&1
ltt-hostile-tool open $T/errs/cpu_0 >$R/root-open.txt 2>&1
lttctl -n errs -s; res errs_start $?
ls -ln /proc/ltt_user_generic >$R/proc-mode.txt 2>&1
$AS_USER ltt-hostile-tool procwrite nonroot >$R/nonroot-proc.txt 2>&1
$AS_USER ltt-hostile-tool register nonroot 1 4 >$R/nonroot-reg.txt 2>&1
lttctl -n errs -r; res errs_destroy $?

# -- a channel opened, mapped, read and closed while the trace comes and goes --
RACE_SECS=${RACE_SECS:-60}
(
	end=$(($(date +%s) + RACE_SECS)); n=0
	while [ "$(date +%s)" -lt $end ]; do
		lttctl -n race -c $SMALL --subbuf-size-low 4k >/dev/null 2>&1 && n=$((n + 1))
		lttctl -n race -r >/dev/null 2>&1
	done
	echo "cycles $n" >$R/race-cycles.txt
) &
RC=$!
# (the readers lower their own priority: the control loop gets its share)
taskset -c 0 ltt-hostile-tool openrace $T/race $RACE_SECS >$R/openrace0.txt 2>&1 &
R0=$!
taskset -c 1 ltt-hostile-tool openrace $T/race $RACE_SECS >$R/openrace1.txt 2>&1 &
R1=$!
wait $RC && wait $R0 && wait $R1; res race $?
test ! -e $T/race; res race_gone $?

# -- a user event of exactly 65535 bytes, and forged events in a payload ------
lttctl -n big -c --subbuf-size-high 128k --subbuf-num-high 2; res big_create $?
lttd -t $T/big -d $R/big >$R/lttd-big.log 2>&1 &
LB=$!
sleep 1
lttctl -n big -s; res big_start $?
ltt-hostile-tool big 65535 >$R/big65535.txt 2>&1
ltt-hostile-tool big 65534 >$R/big65534.txt 2>&1
lttctl -n big -q; res big_stop $?
lttd_wait $LB; res big_lttd $?
lttctl -n big -r; res big_destroy $?

# -- a member of the gate's group: per-user quotas ---------------------------
$AS_MEMBER ltt-hostile-tool procwrite member >$R/member-proc.txt 2>&1
# eight processes of one user try for 32 facilities each, and keep them
i=0
while [ $i -lt 8 ]; do
	$AS_MEMBER ltt-hostile-tool exhaust 32 40 >$R/exhaust$i.txt 2>&1 &
	i=$((i + 1))
done
n=0
while [ "$(cat $R/exhaust*.txt 2>/dev/null | grep -c '^exhaust ok')" -lt 8 ] && [ $n -lt 600 ]; do
	sleep 0.1; n=$((n + 1))
done
ltt-hostile-tool register rootfac 0x1234 4 >$R/exhaust-root.txt 2>&1
# a name held by one user with other type sizes; a kernel facility's name
$AS_MEMBER ltt-hostile-tool register squat 0x42 2 20 >$R/squat1.txt 2>&1 &
sleep 1
ltt-runas 1001 1001 ltt-hostile-tool register squat 0x42 4 >$R/squat2.txt 2>&1
$AS_MEMBER ltt-hostile-tool register kernel 0x42 4 >$R/squat-kernel.txt 2>&1
$AS_MEMBER ltt-hostile-tool register core 0x42 4 >$R/squat-core.txt 2>&1
for p in $(pidof ltt-hostile-tool); do kill "$p"; done
sleep 1
# -- a member floods the processes channel with high-priority events ----------
# hybrid mode never overwrites that channel: the kernel's process.* events
# must keep their room (the user is refused, EAGAIN, past half of it)
echo 1 >$P
lttctl -n prio -c -m hybrid --subbuf-size-med 128k --subbuf-num-med 4; res prio_create $?
lttd -t $T/prio -d $R/prio >$R/lttd-prio.log 2>&1 &
LP=$!
sleep 1
lttctl -n prio -s; res prio_start $?
$AS_MEMBER ltt-hostile-tool priflood 300 65000 >$R/priflood.txt 2>&1 &
PF=$!
i=0
while [ $i -lt 100 ]; do busybox true; i=$((i + 1)); done
wait $PF; res prio_flood $?
lttctl -n prio -q; res prio_stop $?
lttd_wait $LP; res prio_lttd $?
lttctl -n prio -r; res prio_destroy $?
echo 0 >$P

# the facility table does not survive execve()
$AS_MEMBER ltt-hostile-tool execkeep >$R/exec.txt 2>&1

# -- a fork loop floods the facilities channel; root's facility must be there --
lttctl -n flood -c $SMALL --subbuf-size-low 4k --subbuf-num-low 2; res flood_create $?
lttctl -n flood -s; res flood_start $?
$AS_MEMBER ltt-hostile-tool flood 300 >$R/flood.txt 2>&1
ltt-hostile-tool register rootflood 0x5678 4 >$R/flood-root.txt 2>&1
lttctl -n flood -q; res flood_stop $?
lttd -t $T/flood -d $R/flood >$R/lttd-flood.log 2>&1; res flood_lttd $?
lttctl -n flood -r; res flood_destroy $?

# -- a writer blocked on CPU 0 is not woken by CPU 1's reader ----------------
lttctl -n wake -c $SMALL; res wake_create $?
lttctl -n wake -s; res wake_start $?
ltt-hostile-tool wakeups wake 20 >$R/wakeups.txt 2>&1; res wakeups $?
lttctl -n wake -r; res wake_destroy $?

# -- a trace stopped and started again ----------------------------------------
lttctl -n restart -c; res restart_create $?
lttctl -n restart -s; res restart_start1 $?
taskset -c 0 sh -c 'printf "run 1" >/proc/ltt_user_generic'
lttctl -n restart -q; res restart_stop1 $?
lttctl -n restart -s; res restart_start2 $?
taskset -c 0 sh -c 'printf "run 2" >/proc/ltt_user_generic'
lttctl -n restart -q; res restart_stop2 $?
lttd -t $T/restart -d $R/restart >$R/lttd-restart.log 2>&1; res restart_lttd $?
lttctl -n restart -r; res restart_destroy $?

# -- CPU 1 offline for 8 s between two marks written on it ---------------------
lttctl -n hotplug -c; res hp_create $?
lttd -t $T/hotplug -d $R/hotplug >$R/lttd-hotplug.log 2>&1 &
LH=$!
sleep 1
lttctl -n hotplug -s; res hp_start $?
taskset -c 1 sh -c "$MARK1" before
echo 0 >/sys/devices/system/cpu/cpu1/online; res hp_offline $?
sleep 8
echo 1 >/sys/devices/system/cpu/cpu1/online; res hp_online $?
sleep 1
taskset -c 1 sh -c "$MARK1" after
lttctl -n hotplug -q; res hp_stop $?
lttd_wait $LH; res hp_lttd $?
lttctl -n hotplug -r; res hp_destroy $?

# -- traces created while CPU 1 comes online: each gets CPU 1's files ---------
# (relay makes the buffers of the CPUs online when a channel is opened, and
# a CPU's own in its prepare step once the channel is on relay's list: a
# trace created between the two left that CPU without buffers, nor files,
# until its next bring-up: so each trace's files are listed as soon as its
# create and the bring-up are done, before the next)
# ltt-slow-online.ko sleeps 200 ms in each bring-up after relay's step, and
# the create starts 50 ms into it: without the tracer's hotplug lock it
# lands in the window every time, with the lock it waits for the CPU
[ -e /lib/ltt-slow-online.ko ] && insmod /lib/ltt-slow-online.ko delay_ms=200
n=0 bad=0
while [ $n -lt 20 ]; do
	echo 0 >/sys/devices/system/cpu/cpu1/online
	echo 1 >/sys/devices/system/cpu/cpu1/online &
	sleep 0.05
	lttctl -n hpc$n -c $SMALL --subbuf-size-low 4k --subbuf-num-low 2 >/dev/null 2>&1 || bad=1
	wait
	# the channel files of CPU 0 and of CPU 1
	ls $T/hpc$n $T/hpc$n/control >$R/hpc-ls.txt
	echo "hpc$n $(grep -c '_0$' $R/hpc-ls.txt) $(grep -c '_1$' $R/hpc-ls.txt)" >>$R/hpc-files.txt
	n=$((n + 1))
done
cat /sys/devices/system/cpu/cpu1/online >$R/hpc-online.txt
S=/sys/module/ltt_slow_online/parameters
cat $S/slept >$R/hpc-slept.txt 2>&1
echo 0 >$S/delay_ms 2>/dev/null
res hpc_create $bad
n=0 bad=0
while [ $n -lt 20 ]; do lttctl -n hpc$n -r >/dev/null 2>&1 || bad=1; n=$((n + 1)); done
res hpc_destroy $bad

# -- CPU 1 silent for 2 x 2^32 + 12345 cycles between two marks written on it --
# (interrupts off in ltt-gap-test.ko: no heartbeat, no event, as when a
# heartbeat is starved or the host does not run the virtual CPU), in a
# normal trace and a flight recorder at once
GAP=$((2 * 4294967296 + 12345))
if [ -e /lib/ltt-gap-test.ko ]; then
	insmod /lib/ltt-gap-test.ko; res gap_insmod $?
	lttctl -n gap -c; res gap_create $?
	lttctl -n gapf -c -m flight; res gapf_create $?
	lttd -t $T/gap -d $R/gap >$R/lttd-gap.log 2>&1 &
	LG=$!
	sleep 1
	lttctl -n gap -s; res gap_start $?
	lttctl -n gapf -s; res gapf_start $?
	ltt-hostile-tool gap /sys/module/ltt_gap_test/parameters/spin $GAP >$R/gap.txt 2>&1; res gap_spin $?
	cat /sys/module/ltt_gap_test/parameters/last >$R/gap-last.txt
	lttctl -n gap -q; res gap_stop $?
	lttctl -n gapf -q; res gapf_stop $?
	lttd_wait $LG; res gap_lttd $?
	lttd -t $T/gapf -d $R/gapf >$R/lttd-gapf.log 2>&1; res gapf_lttd $?
	lttctl -n gap -r; res gap_destroy $?
	lttctl -n gapf -r; res gapf_destroy $?
fi

# -- more buffer memory than the machine should give -----------------------
lttctl -n huge -c --subbuf-size-high 64M --subbuf-num-high 4 >$R/huge.txt 2>&1
echo "rc $?" >>$R/huge.txt
lttctl -n huge -r >/dev/null 2>&1

# -- a writer nested between a reservation and its push (flight mode) -----
# (last: the test kernel cannot unload the module, whose kprobe stays)
if [ -e /lib/ltt-nest-test.ko ]; then
	lttctl -n nest -c -m flight --subbuf-size-high 4k --subbuf-num-high 4; res nest_create $?
	lttctl -n nest -s; res nest_start $?
	insmod /lib/ltt-nest-test.ko count=40 len=2500; res nest_insmod $?
	taskset -c 1 ltt-hostile-tool bigload 200 2000 >$R/nest-load.txt 2>&1; res nest_load $?
	cat /sys/module/ltt_nest_test/parameters/done >$R/nest-done.txt
	lttctl -n nest -q; res nest_stop $?
	lttd -t $T/nest -d $R/nest >$R/lttd-nest.log 2>&1; res nest_lttd $?
	lttctl -n nest -r; res nest_destroy $?
	# the whole buffer wrapped by a nested writer while the writer it
	# interrupted still owns its slot: a buffer filled first, then one
	# hit of 4 events of 3000 bytes (a sub-buffer each) in the push of
	# the next event, then the stop, so that the dump holds the wrap
	W=/sys/module/ltt_nest_test/parameters
	lttctl -n wrap -c -m flight --subbuf-size-high 4k --subbuf-num-high 4; res wrap_create $?
	lttctl -n wrap -s; res wrap_start $?
	echo 3000 >$W/len && echo 4 >$W/burst; res wrap_set $?
	taskset -c 1 ltt-hostile-tool bigload 20 2000 >$R/wrap-fill.txt 2>&1; res wrap_fill $?
	before=$(cat $W/done)
	echo 1 >$W/arm; res wrap_arm $?
	taskset -c 1 ltt-hostile-tool bigload 2 2000 >$R/wrap-load.txt 2>&1; res wrap_load $?
	echo $(($(cat $W/done) - before)) >$R/wrap-done.txt
	lttctl -n wrap -q; res wrap_stop $?
	lttd -t $T/wrap -d $R/wrap >$R/lttd-wrap.log 2>&1; res wrap_lttd $?
	lttctl -n wrap -r; res wrap_destroy $?
fi

# nothing of ours left in relayfs once every trace is gone, not even "ltt"
ls -A /mnt/relayfs >$R/ltt-left.txt 2>&1
exit 0
