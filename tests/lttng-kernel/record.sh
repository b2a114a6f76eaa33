#!/bin/sh
# Re-records traces/lttng-kernel-sample: an LTTng 2.13 kernel trace of a
# short workload (guest.sh), recorded in QEMU on Debian's own kernel image
# with Debian's lttng-modules and lttng-tools.  Nothing is loaded into the
# build machine's kernel: the modules are built against Debian's headers
# and loaded only in the guest.  Run from the top directory, as root
# (apt-get download, dpkg -x):
#
#     sh tests/lttng-kernel/record.sh [OUTPUT_DIR]
#
# LTTNG_ROUNDS=N adds N rounds of a busier load (guest.sh: small reads and
# writes on both CPUs, a directory walk, a pipe) with bigger sub-buffers
# and 2 GiB of guest memory: the big trace of bench/decode.py
# --lttng-kernel (about 0.5 M events a round; keep it out of traces/).
#
# Needs what qemu/modules-boot.sh needs for the stock kernel (the image in
# /var/cache/ltt, linux-headers-KVER, qemu, busybox-static; `make` for the
# static lttctl/lttd that qemu/run.sh puts in every initramfs) and the
# network for Debian's lttng-modules-dkms, lttng-tools and their libraries.
# Unpacked and built once into $BUILD/lttng-kernel/ (LTTNG_KERNEL_WORK;
# the modules by qemu/lttng-modules.sh, which says what it leaves out).
set -eu
BUILD=${BUILD:-build}
top=$(pwd)
out=${1:-$top/traces/lttng-kernel-sample}
cache=${LTT_STOCK_CACHE:-/var/cache/ltt}
KVER=${LTT_STOCK_KVER:-$(cat "$cache/stock-kver")}
W=${LTTNG_KERNEL_WORK:-$top/$BUILD/lttng-kernel}
rounds=${LTTNG_ROUNDS:-0}
die() { echo "tests/lttng-kernel/record.sh: $*" >&2; exit 1; }
case $rounds in ''|*[!0-9]*) die "LTTNG_ROUNDS must be a number, not '$rounds'" ;; esac
[ -f qemu/run.sh ] || die "run from the top directory"
mkdir -p "$W"

# Debian's kernel image, unpacked; LTTng's modules and tools for the
# initramfs (qemu/lttng-initramfs.sh, through qemu/lttng-modules.sh)
img=$(BUILD=$BUILD qemu/stock-image.sh "$KVER")
list=$W/initramfs-extra.list
load=$W/modules.sh
{
	echo "dir /lib 0755 0 0"
	echo "dir /lib/modules 0755 0 0"
	echo "dir /lib/modules/stock 0755 0 0"
	echo "file /ltt/modules.sh $load 0644 0 0"
} >"$list"
BUILD=$BUILD LTTNG_KERNEL_WORK=$W LTT_STOCK_KVER=$KVER qemu/lttng-initramfs.sh "$list"
echo "# written by tests/lttng-kernel/record.sh: the stock modules 9p needs" >"$load"
qemu/stock-modules.sh "$img" "$KVER" "$list" "$load" 9pnet_virtio virtio_pci 9p

run=$W/run
GUEST_SCRIPT=tests/lttng-kernel/guest.sh KERNEL_IMAGE="$img/boot/vmlinuz-$KVER" \
	INITRAMFS_EXTRA="$list" QEMU_TIMEOUT=${QEMU_TIMEOUT:-600} \
	QEMU_MEM=$([ "$rounds" -gt 0 ] && echo 2048 || echo 1024) QEMU_APPEND="lttng_rounds=$rounds" \
	BUILD="$BUILD" sh qemu/run.sh "$run" || {
	tail -n 30 "$run/guest.log" 2>/dev/null; die "the guest failed (console: $run.console)"; }
[ "$(cat "$run/guest.rc")" = 0 ] || { cat "$run/guest.log"; die "the guest's recording failed"; }
rm -rf "$out"
mkdir -p "$out"
# only the streams and metadata (the index/ folders are babeltrace's)
(cd "$run/trace" && find . -type f ! -path '*/index/*' | while read -r f; do
	mkdir -p "$out/$(dirname "$f")"
	cp "$f" "$out/$f"
done)
echo "recorded $(find "$out" -type f | wc -l) files into $out"
