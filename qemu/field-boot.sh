#!/bin/sh
# qemu/field-boot.sh OUT_DIR - the field guest (issue 28): Debian's own
# unmodified kernel (qemu/modules-boot.sh, stock) with our modules, on a
# Debian 12 root file system built from Debian's packages
# (qemu/rootfs/build-rootfs.sh, cached), which runs a real workload
# (qemu/rootfs/workload.sh) traced by our modules and lttd with default
# settings, and the kernel's books around it (qemu/rootfs/books.py).
# Leaves in OUT_DIR: field/ (the trace), books.json, results, stamps (the
# uptime at each session's start and stop), the logs.
# The root image is attached as a virtio disk with snapshot=on: the guest
# writes to a throw-away overlay, the cached image stays as built.
# Exit 2 when the root file system cannot be built (its reason said).
# tsc=reliable: under TCG the kernel finds the virtual CPUs' TSCs
# unsynchronized at boot, marks the TSC unstable and so never refines its
# first calibration; on a loaded host that calibration can be wrong (PIT
# against HPET: 729 MHz found for 2445, once in four boots here), and the
# tracer's timestamps, which count TSC cycles at tsc_khz, ran 3.35 times
# too fast while the kernel's own clocks (HPET) stayed right. With it the
# kernel refines tsc_khz against HPET a few seconds after boot, before the
# trace starts. (books-compare.py checks the trace's clock.)
# Environment: QEMU_TIMEOUT (1500 s), FIELD_SCALE (1: the workload's loop
# counts; 0: its short run, qemu/rootfs/workload.sh), FIELD_JOBS (2: its make -j), FIELD_LTTNG=1 (LTTng 2.13's kernel
# session beside ours: its modules from qemu/lttng-modules.sh, into
# OUT_DIR/lttng; exit 2 when they cannot be built), FIELD_LTTNG_SUBBUF_KB
# and FIELD_LTTNG_NSUBBUF (its sub-buffers, 2048 and 8: smaller ones make
# it lose events), FIELD_FTRACE=1 (ftrace too, OUT_DIR/ftrace), and those
# of qemu/modules-boot.sh.
set -eu
OUT=${1:?usage: qemu/field-boot.sh OUT_DIR}
BUILD=${BUILD:-build}
img=$(BUILD=$BUILD qemu/rootfs/build-rootfs.sh) || exit $?
W=$OUT.field
rm -rf "$W"
mkdir -p "$W"
list=$W/field.list
{
	echo "dir /ltt/field 0755 0 0"
	for f in field-run.sh workload.sh books.py lttng.sh ftrace.sh; do
		echo "file /ltt/field/$f qemu/rootfs/$f 0755 0 0"
	done
} >"$list"
if [ "${FIELD_LTTNG:-0}" = 1 ]; then
	mods=$(BUILD=$BUILD qemu/lttng-modules.sh) || exit $?
	{
		(cd "$mods" && find lib/modules -type d | sed 's|^|dir /|; s|$| 0755 0 0|')
		(cd "$mods" && find lib/modules -type f) | while read -r f; do
			echo "file /$f $mods/$f 0644 0 0"
		done
	} >>"$list"
fi
exec env BUILD="$BUILD" LTT_MODULES_KERNEL=stock GUEST_SCRIPT=qemu/rootfs/field-guest.sh \
	INITRAMFS_EXTRA="$list" LTT_STOCK_MODULES_EXTRA="virtio_blk ext4" \
	QEMU_EXTRA="-drive file=$img,format=raw,if=virtio,snapshot=on" \
	QEMU_APPEND="tsc=reliable ltt_field_scale=${FIELD_SCALE:-1} ltt_field_jobs=${FIELD_JOBS:-2} ltt_field_lttng=${FIELD_LTTNG:-0} ltt_field_ftrace=${FIELD_FTRACE:-0}${FIELD_LTTNG_SUBBUF_KB:+ ltt_field_lttng_subbuf_kb=$FIELD_LTTNG_SUBBUF_KB}${FIELD_LTTNG_NSUBBUF:+ ltt_field_lttng_nsubbuf=$FIELD_LTTNG_NSUBBUF}" \
	QEMU_MEM="${QEMU_MEM:-2048}" QEMU_TIMEOUT="${QEMU_TIMEOUT:-1500}" qemu/modules-boot.sh "$OUT"
