#!/bin/sh
# qemu/rootfs/field-run.sh (in the field guest, chrooted into the Debian
# root by qemu/rootfs/field-guest.sh): our modules are loaded and relayfs
# mounted; record the workload with lttd's default settings into
# /mnt/host/field, the kernel's books around it (books.py). With
# ltt_field_lttng=1 and ltt_field_ftrace=1 on the kernel's command line
# (qemu/field-boot.sh's FIELD_LTTNG, FIELD_FTRACE), LTTng's kernel session
# (lttng.sh, into /mnt/host/lttng) and ftrace (ftrace.sh, /mnt/host/ftrace)
# record the same run: started before ours and stopped after it, so that
# our window lies inside theirs (qemu/rootfs/match-lttng.py relies on it).
R=/mnt/host
export PATH=/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin
# FIELD_SCALE of qemu/field-boot.sh, on the kernel's command line
arg() { sed -n "s/.*ltt_field_$1=\([0-9][0-9]*\).*/\1/p" /proc/cmdline; }
scale=$(arg scale)
scale=${scale:-1}
jobs=$(arg jobs)
lttng=$(arg lttng)
ftrace=$(arg ftrace)
res() { echo "$1 $2" >>$R/results; echo "== $1: $2"; }
stamp() { echo "$1 $(cut -d' ' -f1 /proc/uptime)" >>$R/stamps; }
lttd_wait() {
	n=0
	while pidof lttd >/dev/null && [ $n -lt 3000 ]; do sleep 0.1; n=$((n + 1)); done
	! pidof lttd >/dev/null
}
if [ "$ftrace" = 1 ]; then
	sh /ltt/ftrace.sh start >$R/ftrace.log 2>&1; res ftrace_start $?
	stamp ftrace_start
fi
if [ "$lttng" = 1 ]; then
	kb=$(arg lttng_subbuf_kb)
	LTTNG_SUBBUF=${kb:+${kb}k} LTTNG_NSUBBUF=$(arg lttng_nsubbuf) \
		sh /ltt/lttng.sh start $R/lttng >$R/lttng.log 2>&1
	res lttng_start $?
	stamp lttng_start
fi
lttctl -n field -d -t $R/field -l /mnt/relayfs/ltt -F /usr/share/ltt/facilities \
	>$R/lttctl-field.log 2>&1
res start $?
stamp ours_start
python3 /ltt/books.py $R -- sh /ltt/workload.sh /var/tmp/field "$scale" "${jobs:-2}" >$R/workload.log 2>&1
res workload $?
lttctl -n field -q; res stop $?
stamp ours_stop
lttd_wait; res lttd $?
lttctl -n field -r; res destroy $?
if [ "$lttng" = 1 ]; then
	stamp lttng_stop
	sh /ltt/lttng.sh stop >>$R/lttng.log 2>&1; res lttng_stop $?
fi
if [ "$ftrace" = 1 ]; then
	stamp ftrace_stop
	sh /ltt/ftrace.sh stop $R/ftrace >>$R/ftrace.log 2>&1; res ftrace_stop $?
fi
