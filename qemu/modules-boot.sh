#!/bin/sh
# qemu/modules-boot.sh OUT_DIR - qemu/run.sh on a kernel without the tracer
# built in, with the LTT modules (kernel/modules/) loaded by the guest's
# /init before the test runs:
#   LTT_MODULES_KERNEL=stock (default): Debian's own vmlinuz, unmodified,
#     from the image package scripts/install-deps.sh kernel downloaded
#     (unpacked once per ABI into $BUILD/stock/KVER by qemu/stock-image.sh), with the stock modules
#     9p needs taken from it, and ours built against its headers
#     (`make stock-modules`);
#   LTT_MODULES_KERNEL=modtest: the debug kernel of `make modtest-kernel`
#     (lockdep, KASAN, full preemption, kmemleak; 9p built in), with ours
#     built against its tree (`make modtest-modules`).
# The ltt_core.ko built for the other kernel, when there is one, goes in
# too, as /lib/modules/foreign/ltt_core.ko (qemu/modules-guest.sh tries it).
# Same environment as run.sh (GUEST_SCRIPT, QEMU_TIMEOUT, ...), plus
# LTT_STOCK_KVER (default: the ABI in /var/cache/ltt/stock-kver) and
# LTT_STOCK_MODULES_EXTRA (more of the stock image's modules for /init to
# load, with their dependencies: qemu/field-boot.sh's "virtio_blk ext4").
set -eu
OUT=${1:?usage: qemu/modules-boot.sh OUT_DIR}
BUILD=${BUILD:-build}
cache=${LTT_STOCK_CACHE:-/var/cache/ltt}
die() { echo "qemu/modules-boot.sh: $*" >&2; exit 1; }
KVER=${LTT_STOCK_KVER:-$(cat "$cache/stock-kver" 2>/dev/null || true)}
stock_mods=$BUILD/stock-modules/$KVER
modtest_mods=$BUILD/modtest-modules
case ${LTT_MODULES_KERNEL:-stock} in
stock)
	[ -n "$KVER" ] || die "no stock kernel chosen (scripts/install-deps.sh kernel)"
	img=$(BUILD=$BUILD qemu/stock-image.sh "$KVER") || exit 1
	make --no-print-directory BUILD="$BUILD" LTT_STOCK_KVER="$KVER" stock-modules >/dev/null ||
		die "the modules do not build against linux-headers-$KVER"
	kernel=$img/boot/vmlinuz-$KVER
	mods=$stock_mods
	foreign=$modtest_mods/ltt_core.ko
	accel=tcg,thread=single	# see below
	mem=1024 ;;
modtest)
	make --no-print-directory BUILD="$BUILD" modtest-modules >/dev/null ||
		die "the modules do not build against the modtest kernel (make modtest-kernel)"
	kernel=build-kernel-modtest/linux-source-6.1/arch/x86/boot/bzImage
	mods=$modtest_mods
	foreign=$stock_mods/ltt_core.ko
	img=
	accel=tcg
	mem=1536 ;;
*) die "LTT_MODULES_KERNEL is stock or modtest" ;;
esac

W=$OUT.modules
rm -rf "$W"
mkdir -p "$W"
list=$W/initramfs-extra.list
load=$W/modules.sh
{
	echo "dir /lib 0755 0 0"
	echo "dir /lib/modules 0755 0 0"
	echo "dir /lib/modules/stock 0755 0 0"
	echo "dir /lib/modules/ltt 0755 0 0"
	echo "file /ltt/modules.sh $load 0644 0 0"
} >"$list"
{
	echo "# written by qemu/modules-boot.sh: the stock modules 9p needs, then ours"
} >"$load"
if [ -n "$img" ]; then
	# shellcheck disable=SC2086 # a list of module names
	qemu/stock-modules.sh "$img" "$KVER" "$list" "$load" \
		9pnet_virtio virtio_pci 9p ${LTT_STOCK_MODULES_EXTRA:-}
fi
# ours, in the order of their dependencies (kernel/modules/modules.list),
# each with its parameters from the kernel command line (ltt_user.gid=N),
# as modprobe gives them; busybox's insmod does not read it
printf '%s\n' 'ltt_args() { tr " " "\n" </proc/cmdline | sed -n "s/^$1\\.//p"; }' >>"$load"
for m in relayfs ltt_core ltt_relay ltt_control ltt_user; do
	[ -r "$mods/$m.ko" ] || die "no $mods/$m.ko"
	echo "file /lib/modules/ltt/$m.ko $mods/$m.ko 0644 0 0" >>"$list"
	echo "insmod /lib/modules/ltt/$m.ko \$(ltt_args $m) || echo \"GUEST: insmod $m failed\" >/dev/console" >>"$load"
done

if [ -r "$foreign" ]; then
	echo "dir /lib/modules/foreign 0755 0 0" >>"$list"
	echo "file /lib/modules/foreign/ltt_core.ko $foreign 0644 0 0" >>"$list"
fi

# the caller's own additions (bench/guest.py's tools)
[ -z "${INITRAMFS_EXTRA:-}" ] || cat "$INITRAMFS_EXTRA" >>"$list"

# Debian's kernel runs with one host thread for both vCPUs (QEMU_ACCEL,
# qemu/run.sh).  The modules attach to tracepoints, and every attach and
# detach patches kernel text (jump labels, static calls) with
# text_poke_bp while the other CPU runs.  QEMU 7.2's multi-threaded TCG
# sometimes keeps executing a stale translation of the int3 written
# there: memory holds the final jmp, the vCPU traps on the int3 forever,
# kprobe_int3_handler sees no int3 and retries, and the guest hangs with
# both CPUs in exc_int3 (the life cycle on Debian's kernel, at
# __schedule's sched_switch site, after 12 to 84 cycles, in four runs of
# seven).  Single-threaded TCG runs the vCPUs in turn: 400 cycles without
# a hang, at the same speed.  The debug kernel has not shown it, and runs
# much slower on one thread (its q20 timed out): it keeps both threads.
exec env BUILD="$BUILD" KERNEL_IMAGE="$kernel" QEMU_ACCEL="${QEMU_ACCEL:-$accel}" \
	INITRAMFS_EXTRA="$list" QEMU_MEM="${QEMU_MEM:-$mem}" qemu/run.sh "$OUT"
