#!/bin/sh
# Install the Debian packages the build and the tests need, only those that
# are missing. Quiet when everything is there; safe to run again.
#   scripts/install-deps.sh            user-space build and tests
#   scripts/install-deps.sh kernel     also the kernel build and QEMU
#   scripts/install-deps.sh bench      also what `make bench` compares with
# "kernel" also pins one ABI of Debian's own kernel (the one apt's
# linux-image-amd64 depends on now), installs its headers and downloads
# its image package, unpacked by the stock-kernel tests, never installed:
# /var/cache/ltt/stock-kver names it (LTT_STOCK_CACHE moves the folder).
set -eu

pkgs="build-essential pkg-config libglib2.0-dev libgtk-3-dev libpopt-dev
      clang xvfb xauth x11-apps imagemagick libclang-rt-14-dev babeltrace2
      python3 python3-bt2 groff-base desktop-file-utils debhelper dh-dkms lintian
      python3-lttnganalyses"
pkgs="$pkgs xdotool"	# lttv-gtk's GUI test sends real X input with it
if [ "${1:-}" = kernel ] || [ "${1:-}" = bench ]; then
	pkgs="$pkgs linux-source-6.1 bc flex bison libelf-dev libssl-dev cpio
	      xz-utils kmod qemu-system-x86 busybox-static patchutils dkms"
	# the field guest's Debian root file system (qemu/rootfs/build-rootfs.sh)
	pkgs="$pkgs mmdebstrap e2fsprogs"
fi

if [ "${1:-}" = bench ]; then
	pkgs="$pkgs trace-cmd linux-perf"
	# LTTng-UST's side of bench/tracer.py --lttng (bench/ltt-ust-bench.c);
	# not lttng-tools: its session daemon, run as a service as root, would
	# load LTTng's kernel modules into this machine's kernel where they
	# are installed (the guests get lttng-tools from qemu/lttng-initramfs.sh;
	# bench/decode.py says when it cannot record a user-space trace)
	pkgs="$pkgs liblttng-ust-dev"
fi

missing=""
for p in $pkgs; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" ||
		missing="$missing $p"
done
if [ "$(id -u)" -ne 0 ]; then
	SUDO=sudo
else
	SUDO=
fi
export DEBIAN_FRONTEND=noninteractive
updated=
apt_update() {
	[ -n "$updated" ] || $SUDO apt-get update -qq >/dev/null
	updated=1
}

if [ -n "$missing" ]; then
	echo "install-deps: installing:$missing"
	apt_update
	# shellcheck disable=SC2086
	$SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi

# Debian's own kernel (the modules of kernel/modules/ are tested on it)
if [ "${1:-}" = kernel ] || [ "${1:-}" = bench ]; then
	cache=${LTT_STOCK_CACHE:-/var/cache/ltt}
	abi() { apt-cache depends linux-image-amd64 2>/dev/null |
		sed -n 's/^ *Depends: linux-image-\(.*-amd64\)$/\1/p' | head -n 1; }
	kver=$(abi)
	[ -n "$kver" ] || { apt_update; kver=$(abi); }
	[ -n "$kver" ] || { echo "install-deps: apt offers no linux-image-amd64" >&2; exit 1; }
	if ! dpkg-query -W -f='${Status}' "linux-headers-$kver" 2>/dev/null | grep -q "ok installed"; then
		echo "install-deps: installing linux-headers-$kver (Debian's kernel, for the modules)"
		apt_update
		$SUDO apt-get install -y -qq --no-install-recommends "linux-headers-$kver" >/dev/null
	fi
	$SUDO mkdir -p "$cache"
	if ! ls "$cache"/linux-image-"$kver"_*.deb >/dev/null 2>&1; then
		echo "install-deps: downloading linux-image-$kver into $cache (not installed)"
		apt_update
		(cd "$cache" && $SUDO apt-get download -qq "linux-image-$kver" 2>/dev/null)
	fi
	echo "$kver" | $SUDO tee "$cache/stock-kver.new" >/dev/null
	$SUDO mv "$cache/stock-kver.new" "$cache/stock-kver"
fi
