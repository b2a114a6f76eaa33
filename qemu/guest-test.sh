#!/bin/sh
# The scenario run inside the QEMU guest (see tests/q10-qemu-trace.sh for
# what the host checks afterwards).  Each step appends "name exit-status"
# to $R/results; traces are written under $R by lttd.
R=/mnt/host
T=/mnt/relayfs/ltt
res() { echo "$1 $2" >>$R/results; echo "== $1: $2"; }
uptime_s() { cut -d' ' -f1 /proc/uptime; }
: >$R/results
grep -m 1 'cpu MHz' /proc/cpuinfo >$R/cpuinfo.txt

mount -t relayfs relayfs /mnt/relayfs; res mount_relayfs $?
# only the events this test writes: the kernel's own events (kernel patch
# 0007) would fill the small buffers and upset the loss accounting below
P=/sys/module/ltt_probes/parameters/enable
[ -e $P ] || P=/sys/module/ltt_core/parameters/enable	# the modules (kernel/modules)
if [ -e $P ]; then echo 0 >$P; res probes_off $?; fi

# -- control: not root, bad messages ------------------------------------
# (ltt-runas drops every privilege and checks it did: busybox's setpriv
# has no --reuid)
ltt-runas 1000 1000 lttctl -n nonroot -c >$R/nonroot-create.txt 2>&1
res nonroot_create $?
test ! -e $T/nonroot; res nonroot_no_trace $?
ltt-guest-tool badmsg >$R/badmsg.txt 2>&1; res badmsg $?

# -- trace1: normal mode, lttd running, light load -----------------------
lttctl -n trace1 -c -m normal; res t1_create $?
ls -lR $T/trace1 >$R/trace1-files.txt 2>&1
ltt-guest-tool open2 $T/trace1/cpu_0 >>$R/tool.txt 2>&1; res open2 $?
ltt-guest-tool ioctls $T/trace1/cpu_1 >>$R/tool.txt 2>&1; res ioctls $?
ltt-runas 1000 1000 ltt-hostile-tool open $T/trace1/cpu_0 >$R/nonroot-read.txt 2>&1
res nonroot_read $?
lttd -t $T/trace1 -d $R/trace1 >$R/lttd1.log 2>&1 &
L1=$!
sleep 1
echo "$(uptime_s) $(date +%s)" >$R/t1_start
lttctl -n trace1 -s; res t1_start $?
# the guest clock, written into the trace: read and echo are shell builtins,
# so the event follows the reading of /proc/uptime by microseconds
mark() { read -r u _ </proc/uptime; printf "mark %s" "$u" >/proc/ltt_user_generic; }
mark
taskset -c 0 ltt-guest-tool load 100 40; res t1_load0 $?
taskset -c 1 ltt-guest-tool load 100 40; res t1_load1 $?

# -- trace2 while trace1 runs ------------------------------------------------
lttctl -n trace2 -c; res t2_create $?
lttd -t $T/trace2 -d $R/trace2 >$R/lttd2.log 2>&1 &
L2=$!
sleep 1
lttctl -n trace2 -s; res t2_start $?
ltt-guest-tool load 50 40; res t2_load $?
sleep 1
lttctl -n trace2 -q; res t2_stop $?
lttctl -n trace2 -r; res t2_destroy $?
wait $L2; res t2_lttd $?
test ! -e $T/trace2; res t2_gone $?

sleep 2
mark
lttctl -n trace1 -q; res t1_stop $?
echo "$(uptime_s) $(date +%s)" >$R/t1_stop
lttctl -n trace1 -r; res t1_destroy $?
wait $L1; res t1_lttd $?

# -- flight1: flight recorder, small buffers wrapped many times -----------
lttctl -n flight1 -c -m flight --subbuf-size-high 4096 --subbuf-num-high 4
res f1_create $?
ls -lR $T/flight1 >$R/flight1-files.txt 2>&1
lttctl -n flight1 -s; res f1_start $?
taskset -c 1 ltt-guest-tool load 3000 100; res f1_load $?
lttctl -n flight1 -q; res f1_stop $?
lttd -t $T/flight1 -d $R/flight1 >$R/lttdf.log 2>&1; res f1_lttd $?
lttctl -n flight1 -r; res f1_destroy $?

# -- poll1: poll, GET/PUT, mmap, ENODATA step by step ------------------------
lttctl -n poll1 -c --subbuf-size-high 4096 --subbuf-num-high 2; res p1_create $?
ltt-guest-tool polltest poll1 1 >$R/polltest.txt 2>&1; res p1_polltest $?
lttctl -n poll1 -r; res p1_destroy $?
# -- poll4: the same with 4 sub-buffers: POLLIN alone until the last free one
lttctl -n poll4 -c --subbuf-size-high 4096 --subbuf-num-high 4; res p4_create $?
ltt-guest-tool pollstates poll4 1 >$R/pollstates.txt 2>&1; res p4_pollstates $?
lttctl -n poll4 -r; res p4_destroy $?

# -- hybrid1: only the cpu channel overwrites -----------------------------
lttctl -n hybrid1 -c -m hybrid; res h1_create $?
ls -lR $T/hybrid1 >$R/hybrid1-files.txt 2>&1
lttctl -n hybrid1 -r; res h1_destroy $?

# -- flight2: a reader pushed by the writer gets EIO from PUT_SUBBUF ------
lttctl -n flight2 -c -m flight --subbuf-size-high 4096 --subbuf-num-high 4
res f2_create $?
lttctl -n flight2 -s; res f2_start $?
ltt-guest-tool pushtest $T/flight2/flight-cpu_1 1 >>$R/tool.txt 2>&1; res f2_pushtest $?
lttctl -n flight2 -q; res f2_stop $?
ltt-guest-tool flightpoll $T/flight2/flight-cpu_1 >$R/flightpoll.txt 2>&1; res f2_flightpoll $?
lttctl -n flight2 -r; res f2_destroy $?

# -- losses: normal mode, tiny buffers, no reader at first ----------------
lttctl -n lossy -c --subbuf-size-high 4096 --subbuf-num-high 2; res l_create $?
lttctl -n lossy -s; res l_start $?
taskset -c 0 ltt-guest-tool load 500 100; res l_load $?
lttd -t $T/lossy -d $R/lossy >$R/lttdl.log 2>&1 &
LL=$!
sleep 1
taskset -c 0 ltt-guest-tool load 10 100; res l_load2 $?
sleep 1
lttctl -n lossy -q; res l_stop $?
lttctl -n lossy -r; res l_destroy $?
wait $LL; res l_lttd $?

# -- lossy2: still full when stopped: the last losses must reach the trace --
lttctl -n lossy2 -c --subbuf-size-high 4096 --subbuf-num-high 2; res l2_create $?
lttctl -n lossy2 -s; res l2_start $?
taskset -c 1 ltt-guest-tool load 300 100; res l2_load $?
lttctl -n lossy2 -q; res l2_stop $?
lttd -t $T/lossy2 -d $R/lossy2 >$R/lttdl2.log 2>&1; res l2_lttd $?
lttctl -n lossy2 -r; res l2_destroy $?

# -- toobig: an event larger than a sub-buffer is lost, and counted --------
lttctl -n toobig -c --subbuf-size-high 4096 --subbuf-num-high 2; res tb_create $?
lttd -t $T/toobig -d $R/toobig >$R/lttdtb.log 2>&1 &
LT=$!
lttctl -n toobig -s; res tb_start $?
taskset -c 1 ltt-guest-tool load 3 40; res tb_load $?
taskset -c 1 ltt-guest-tool big 5000; res tb_big $?
taskset -c 1 ltt-guest-tool load 3 40; res tb_load2 $?
lttctl -n toobig -q; res tb_stop $?
lttctl -n toobig -r; res tb_destroy $?
wait $LT; res tb_lttd $?

# -- stress: two writers per CPU, lttd reading at the same time -------------
lttctl -n stress -c --subbuf-size-high 16384 --subbuf-num-high 4; res s_create $?
lttd -t $T/stress -d $R/stress >$R/lttds.log 2>&1 &
LS=$!
sleep 1
lttctl -n stress -s; res s_start $?
taskset -c 0 ltt-guest-tool load 2000 100 & P1=$!
taskset -c 0 ltt-guest-tool load 2000 60 & P2=$!
taskset -c 1 ltt-guest-tool load 2000 100 & P3=$!
taskset -c 1 ltt-guest-tool load 2000 60 & P4=$!
wait $P1 && wait $P2 && wait $P3 && wait $P4; res s_load $?
lttctl -n stress -q; res s_stop $?
lttctl -n stress -r; res s_destroy $?
wait $LS; res s_lttd $?

# nothing of ours left in relayfs once every trace is gone, not even "ltt"
ls -A /mnt/relayfs >$R/ltt-left.txt 2>&1
exit 0
