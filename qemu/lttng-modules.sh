#!/bin/sh
# qemu/lttng-modules.sh - LTTng 2.13's kernel modules, from Debian 12's
# lttng-modules-dkms source package, built against the stock kernel's
# headers (linux-headers-KVER) for the guests that load them: never loaded
# into the build machine's kernel. Built once into $LTTNG_KERNEL_WORK
# ($BUILD/lttng-kernel); prints the folder that holds lib/modules/KVER
# (extra/*.ko, modules.dep and the image's built-in index: lttng-sessiond
# loads its modules by name through libkmod, which refuses to start
# without modules.builtin). For tests/lttng-kernel/record.sh and
# qemu/field-boot.sh (LTTng in the field guest, issue 28).
#
# Debian 12's lttng-modules 2.13.9 does not build against 6.1.0-57's
# headers as shipped: its timer probe declares trace_hrtimer_start as the
# kernel did before a stable update, so that one probe is left out (no
# timer_* or hrtimer_* events).
#
# Needs root (dpkg -x keeps owners), linux-headers-KVER and, the first
# time, Debian's archive (apt-get download). Exit 2 with the reason when a
# prerequisite is missing, 1 when the build fails.
set -eu
BUILD=${BUILD:-build}
cache=${LTT_STOCK_CACHE:-/var/cache/ltt}
KVER=${LTT_STOCK_KVER:-$(cat "$cache/stock-kver" 2>/dev/null || true)}
W=${LTTNG_KERNEL_WORK:-$BUILD/lttng-kernel}
cant() { echo "qemu/lttng-modules.sh: $*" >&2; exit 2; }
die() { echo "qemu/lttng-modules.sh: $*" >&2; exit 1; }
[ -n "$KVER" ] || cant "no stock kernel chosen (scripts/install-deps.sh kernel)"
[ -d "/usr/src/linux-headers-$KVER" ] || cant "no linux-headers-$KVER (scripts/install-deps.sh kernel)"
mkdir -p "$W"
src_root=$W/modules-src
if [ ! -e "$src_root/.unpacked" ]; then
	rm -rf "$W/modules-deb" "$src_root"
	mkdir -p "$W/modules-deb" "$src_root"
	(cd "$W/modules-deb" && apt-get download lttng-modules-dkms >/dev/null) ||
		cant "apt-get download lttng-modules-dkms failed (no network? apt-get update?)"
	dpkg -x "$W"/modules-deb/lttng-modules-dkms_*.deb "$src_root"
	touch "$src_root/.unpacked"
fi
src=$(ls -d "$src_root"/usr/src/lttng-modules-* | head -n 1)
if [ ! -e "$src/.built.$KVER" ]; then
	sed -i 's/^obj-\$(CONFIG_LTTNG) += lttng-probe-timer.o/# & (does not build on 6.1.0-57)/' \
		"$src/src/probes/Kbuild"
	make -C "$src" -j2 KERNELDIR="/usr/src/linux-headers-$KVER" modules >"$W/modules.log" 2>&1 ||
		die "lttng-modules do not build against linux-headers-$KVER ($W/modules.log)"
	touch "$src/.built.$KVER"
	rm -f "$W/modules.$KVER/.done"	# laid out again below
fi
img=$(BUILD=$BUILD qemu/stock-image.sh "$KVER") || exit 2
mods=$W/modules.$KVER
if [ ! -e "$mods/.done" ]; then
	rm -rf "$mods"
	mkdir -p "$mods/lib/modules/$KVER/extra"
	find "$src" -name '*.ko' -exec cp {} "$mods/lib/modules/$KVER/extra/" \;
	# without their debugging sections: 68 MiB of initramfs become 7
	strip --strip-debug "$mods/lib/modules/$KVER"/extra/*.ko
	cp "$img/lib/modules/$KVER"/modules.builtin* "$img/lib/modules/$KVER/modules.order" \
		"$mods/lib/modules/$KVER/"
	depmod -b "$mods" "$KVER"
	touch "$mods/.done"
fi
echo "$mods"
