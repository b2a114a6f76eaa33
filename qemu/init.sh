#!/bin/sh
# /init of the QEMU test guest: mount what the test needs, run it, hand
# the results to the host over 9p, power off.
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mkdir -p /tmp /mnt/host /mnt/relayfs
mount -t tmpfs tmpfs /tmp
# a kernel without the tracer built in (qemu/modules-boot.sh): the modules
# of 9p (Debian's kernel) and of the tracer
if [ -r /ltt/modules.sh ]; then
	. /ltt/modules.sh >/tmp/modules.log 2>&1
fi
if ! mount -t 9p -o trans=virtio,version=9p2000.L hostshare /mnt/host; then
	echo "GUEST: cannot mount the 9p share" >/dev/console
	poweroff -f
fi
export PATH=/bin:/sbin:/usr/bin:/usr/sbin
sh /ltt/guest-test.sh >/mnt/host/guest.log 2>&1
echo $? >/mnt/host/guest.rc
dmesg >/mnt/host/dmesg.txt
sync
umount /mnt/host
poweroff -f
