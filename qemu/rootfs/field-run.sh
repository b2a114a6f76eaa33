#!/bin/sh
# qemu/rootfs/field-run.sh (in the field guest, chrooted into the Debian
# root by qemu/rootfs/field-guest.sh): our modules are loaded and relayfs
# mounted; record the workload with lttd's default settings into
# /mnt/host/field, the kernel's books around it (books.py).
R=/mnt/host
export PATH=/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin
# FIELD_SCALE of qemu/field-boot.sh, on the kernel's command line
scale=$(sed -n 's/.*ltt_field_scale=\([0-9][0-9]*\).*/\1/p' /proc/cmdline)
scale=${scale:-1}
res() { echo "$1 $2" >>$R/results; echo "== $1: $2"; }
lttd_wait() {
	n=0
	while pidof lttd >/dev/null && [ $n -lt 3000 ]; do sleep 0.1; n=$((n + 1)); done
	! pidof lttd >/dev/null
}
lttctl -n field -d -t $R/field -l /mnt/relayfs/ltt -F /usr/share/ltt/facilities \
	>$R/lttctl-field.log 2>&1
res start $?
python3 /ltt/books.py $R -- sh /ltt/workload.sh /var/tmp/field "$scale" >$R/workload.log 2>&1
res workload $?
lttctl -n field -q; res stop $?
lttd_wait; res lttd $?
lttctl -n field -r; res destroy $?
