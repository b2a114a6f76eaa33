#!/bin/sh
# qemu/stock-image.sh KVER - Debian's kernel image package of KVER (the one
# scripts/install-deps.sh kernel downloaded into /var/cache/ltt), unpacked
# once into $BUILD/stock/KVER with its modules' indexes (depmod); prints
# that folder. For qemu/modules-boot.sh, qemu/lttng-modules.sh and
# tests/lttng-kernel/record.sh.
set -eu
KVER=${1:?usage: qemu/stock-image.sh KVER}
BUILD=${BUILD:-build}
cache=${LTT_STOCK_CACHE:-/var/cache/ltt}
deb=$(ls "$cache"/linux-image-"$KVER"_*.deb 2>/dev/null | head -n 1)
[ -n "$deb" ] || { echo "qemu/stock-image.sh: no linux-image-$KVER package in $cache (scripts/install-deps.sh kernel)" >&2; exit 1; }
img=$BUILD/stock/$KVER
if [ ! -e "$img/.unpacked" ]; then
	rm -rf "$img"
	mkdir -p "$img"
	dpkg -x "$deb" "$img"
	depmod -b "$img" "$KVER"
	touch "$img/.unpacked"
fi
echo "$img"
