#!/bin/sh
# qemu/usertrace-record-guest.sh - the guest side of `make record-traces`
# for traces/qemu-usertrace: a short busybox session and the user-space
# tracing example (libltt-usertrace, kernel patch 0009) in one trace, the
# kernel's own events on so that the viewers know every process.
# Installed as /ltt/guest-test.sh by qemu/run.sh (GUEST_SCRIPT=...).
#
# Leaves in $R (the 9p share): results ("step status" lines), pids (the
# pids of the known commands), example.txt (the example's output),
# usertrace/ (the trace, with its eventdefs), and, from /init, guest.log
# and dmesg.txt.
R=/mnt/host
T=/mnt/relayfs/ltt
U=/proc/ltt_user_generic
F=/tmp/facilities
res() { echo "$1 $2" >>$R/results; echo "== $1: $2"; }
lttd_wait() { # lttd drains the channels after the stop, then exits
	n=0
	while pidof lttd >/dev/null && [ $n -lt 300 ]; do sleep 0.1; n=$((n + 1)); done
	! pidof lttd >/dev/null
}
: >$R/results
: >$R/pids

mount -t relayfs relayfs /mnt/relayfs; res mount_relayfs $?
# the kernel's events on (the default; say so in case a boot changed it)
P=/sys/module/ltt_probes/parameters/enable
[ -e $P ] || P=/sys/module/ltt_core/parameters/enable	# the modules (kernel/modules)
if [ -e $P ]; then echo 1 >$P; res probes_on $?; fi

# The trace's eventdefs/: the kernel's facilities and the example's, so
# that the trace decodes without -f.
mkdir -p $F && cp /usr/share/ltt/facilities/*.xml /usr/share/ltt/examples/*.xml $F/
res facilities $?

# Small sub-buffers: the trace is committed under traces/.
lttctl -n usertrace -d -t $R/usertrace -l $T -F $F \
	--subbuf-size-low 4k --subbuf-num-low 4 \
	--subbuf-size-med 16k --subbuf-num-med 8 \
	--subbuf-size-high 32k --subbuf-num-high 16 >$R/lttctl-usertrace.log 2>&1
res u_start $?
echo "shell $$" >>$R/pids
echo "usertrace: begin" >$U
# Commands by their path (busybox would run a bare applet name through
# /proc/self/exe, and the trace would call them all "exe").
i=0
while [ $i -lt 2 ]; do
	i=$((i + 1))
	echo "loop $i" >$U
	/bin/ls /usr/share/ltt | /bin/cat >/tmp/ls.$i
done
/bin/sleep 0.1; res u_sleep $?
# the example: three typed events through ltt_trace_generic
/usr/bin/usertrace-example 3 >$R/example.txt 2>&1 &
X=$!
echo "example $X" >>$R/pids
wait $X; res u_example $?
echo "usertrace: end" >$U
lttctl -n usertrace -q; res u_stop $?
lttd_wait; res u_lttd $?
lttctl -n usertrace -r; res u_destroy $?
exit 0
