#!/bin/sh
# Install the Debian packages the build and the tests need, only those that
# are missing. Quiet when everything is there; safe to run again.
#   scripts/install-deps.sh            user-space build and tests
#   scripts/install-deps.sh kernel     also the kernel build and QEMU
#   scripts/install-deps.sh bench      also what `make bench` compares with
set -eu

pkgs="build-essential pkg-config libglib2.0-dev libgtk-3-dev libpopt-dev
      clang xvfb xauth x11-apps imagemagick libclang-rt-14-dev babeltrace2
      python3 python3-bt2 groff-base desktop-file-utils debhelper lintian"
pkgs="$pkgs xdotool"	# lttv-gtk's GUI test sends real X input with it
if [ "${1:-}" = kernel ] || [ "${1:-}" = bench ]; then
	pkgs="$pkgs linux-source-6.1 bc flex bison libelf-dev libssl-dev cpio
	      xz-utils kmod qemu-system-x86 busybox-static"
fi

if [ "${1:-}" = bench ]; then
	pkgs="$pkgs trace-cmd linux-perf"
fi

missing=""
for p in $pkgs; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" ||
		missing="$missing $p"
done
[ -z "$missing" ] && exit 0

echo "install-deps: installing:$missing"
if [ "$(id -u)" -ne 0 ]; then
	SUDO=sudo
else
	SUDO=
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq >/dev/null
# shellcheck disable=SC2086
$SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null
