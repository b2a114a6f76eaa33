#!/bin/sh
# qemu/stock.sh OUT_DIR - qemu/run.sh on Debian's own kernel: its vmlinuz,
# unmodified, with the LTT modules (kernel/modules/) built against its
# headers and loaded by the guest's /init before the test runs.
#
# The image package that scripts/install-deps.sh kernel downloaded is
# unpacked (once per ABI) into $BUILD/stock/KVER; the guest gets the
# stock modules that 9p needs, taken from it, and ours.  Same
# environment as run.sh (GUEST_SCRIPT, QEMU_TIMEOUT, ...), plus
# LTT_STOCK_KVER (default: the ABI in /var/cache/ltt/stock-kver) and
# LTT_MODULES (default: build them here with `make stock-modules`).
set -eu
OUT=${1:?usage: qemu/stock.sh OUT_DIR}
BUILD=${BUILD:-build}
cache=${LTT_STOCK_CACHE:-/var/cache/ltt}
die() { echo "qemu/stock.sh: $*" >&2; exit 1; }
KVER=${LTT_STOCK_KVER:-$(cat "$cache/stock-kver" 2>/dev/null || true)}
[ -n "$KVER" ] || die "no stock kernel chosen (scripts/install-deps.sh kernel)"
deb=$(ls "$cache"/linux-image-"$KVER"_*.deb 2>/dev/null | head -n 1)
[ -n "$deb" ] || die "no linux-image-$KVER package in $cache (scripts/install-deps.sh kernel)"

img=$BUILD/stock/$KVER
if [ ! -e "$img/.unpacked" ]; then
	rm -rf "$img"
	mkdir -p "$img"
	dpkg -x "$deb" "$img"
	depmod -b "$img" "$KVER"
	touch "$img/.unpacked"
fi
mods=${LTT_MODULES:-$BUILD/stock-modules/$KVER}
if [ -z "${LTT_MODULES:-}" ]; then
	make --no-print-directory BUILD="$BUILD" LTT_STOCK_KVER="$KVER" stock-modules >/dev/null ||
		die "the modules do not build against linux-headers-$KVER"
fi

W=$OUT.stock
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
	echo "# written by qemu/stock.sh: the stock modules 9p needs, then ours"
	echo "LTT_PLATFORM=stock"
} >"$load"
for m in 9pnet_virtio virtio_pci 9p; do
	modprobe -d "$img" -S "$KVER" --show-depends "$m"
done | awk '$1 == "insmod" && !seen[$2]++ { print $2 }' | while read -r ko; do
	b=$(basename "$ko")
	echo "file /lib/modules/stock/$b $ko 0644 0 0" >>"$list"
	echo "insmod /lib/modules/stock/$b" >>"$load"
done
# ours, in the order of their dependencies (kernel/modules/modules.list)
for m in relayfs ltt_core ltt_relay ltt_control ltt_user; do
	[ -r "$mods/$m.ko" ] || die "no $mods/$m.ko"
	echo "file /lib/modules/ltt/$m.ko $mods/$m.ko 0644 0 0" >>"$list"
	echo "insmod /lib/modules/ltt/$m.ko || echo \"GUEST: insmod $m failed\" >/dev/console" >>"$load"
done

exec env BUILD="$BUILD" KERNEL_IMAGE="$img/boot/vmlinuz-$KVER" \
	INITRAMFS_EXTRA="$list" QEMU_MEM="${QEMU_MEM:-1024}" qemu/run.sh "$OUT"
