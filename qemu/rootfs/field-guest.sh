#!/bin/sh
# qemu/rootfs/field-guest.sh - the busybox side of the field guest
# (qemu/field-boot.sh installs it as /ltt/guest-test.sh): /init has loaded
# Debian's virtio, 9p, virtio_blk and ext4 modules and ours and mounted the
# share on /mnt/host. Mount the Debian root (the image of
# qemu/rootfs/build-rootfs.sh, written to a throw-away snapshot), put our
# static lttctl, lttd, the facilities and the field scripts into it, and
# run qemu/rootfs/field-run.sh there (chroot).
R=/mnt/host
N=/newroot
res() { echo "$1 $2" >>$R/results; echo "== $1: $2"; }
: >$R/results
mkdir -p $N
n=0  # virtio_blk probes asynchronously
while [ ! -b /dev/vda ] && [ $n -lt 100 ]; do sleep 0.1; n=$((n + 1)); done
mount -t ext4 /dev/vda $N; res mount_root $?
for d in proc sys dev tmp mnt/host mnt/relayfs usr/local/bin ltt usr/share/ltt/facilities; do
	mkdir -p $N/$d
done
mount -t proc proc $N/proc && mount -t sysfs sysfs $N/sys && mount -o bind /dev $N/dev &&
	mount -t tmpfs tmpfs $N/tmp && mount -o bind $R $N/mnt/host &&
	mount -t relayfs relayfs $N/mnt/relayfs
res mounts $?
# for lttng.sh and ftrace.sh: the Debian root has no mount(8) (not
# Essential), so busybox mounts what they need before the chroot
mkdir -p $N/dev/shm && mount -t tmpfs tmpfs $N/dev/shm &&
	mount -t tracefs nodev $N/sys/kernel/tracing
res mounts_others $?
cp /usr/bin/lttctl /usr/bin/lttd $N/usr/local/bin/ && cp /usr/share/ltt/facilities/*.xml $N/usr/share/ltt/facilities/ &&
	cp /ltt/field/* $N/ltt/
res install $?
# LTTng's modules (qemu/field-boot.sh, FIELD_LTTNG=1), where the chroot's
# lttng-sessiond looks for them
k=/lib/modules/$(uname -r)
if [ -d $k/extra ]; then
	mkdir -p $N$k && cp -a $k/. $N$k/
	res install_lttng $?
fi
ip link set lo up; res loopback $?
cat /proc/cpuinfo | grep -c ^processor >$R/cpus
chroot $N /bin/sh /ltt/field-run.sh >$R/field-run.log 2>&1; res field_run $?
umount $N/sys/kernel/tracing $N/dev/shm $N/mnt/relayfs $N/mnt/host $N/tmp $N/dev $N/sys $N/proc
umount $N; res umount_root $?
exit 0
