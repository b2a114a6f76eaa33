#!/bin/sh
# qemu/rootfs/build-rootfs.sh [OUT_DIR] - a Debian 12 root file system for
# the field guest (issue 28), built from Debian's packages by mmdebstrap
# and written as an ext4 image, OUT_DIR/rootfs.img (default
# $BUILD/rootfs/KEY, KEY a hash of packages.list, this script and the
# suite: rebuilt only when one of them changes). Prints the image's path.
#
# Holds packages.list (the workload's programs, lttng-tools) and, in
# /opt/src, the source of a real C project from Debian's archive (zlib,
# FIELD_SRC_PACKAGE) for the workload to compile. It holds nothing of ours:
# qemu/field-boot.sh copies our tools and scripts into an overlay at each
# boot, so a rebuild of our tools never rebuilds the image.
#
# Needs mmdebstrap (apt-get install mmdebstrap), root (mke2fs -d keeps the
# owners), and Debian's mirror (FIELD_MIRROR, deb.debian.org). Exit 2 with
# the reason when it cannot build (no mmdebstrap, the mirror does not
# answer): tests skip and say it; exit 1 when the mirror answers and the
# build fails all the same (a package list that does not install).
set -eu
here=$(dirname "$0")
BUILD=${BUILD:-build}
SUITE=${FIELD_SUITE:-bookworm}
MIRROR=${FIELD_MIRROR:-http://deb.debian.org/debian}
SRC=${FIELD_SRC_PACKAGE:-zlib}
SIZE=${FIELD_IMAGE_MB:-1536}
cant() { echo "qemu/rootfs/build-rootfs.sh: $*" >&2; exit 2; }
pkgs=$(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$here/packages.list" | tr '\n' ',' | sed 's/,$//')
key=$( { cat "$here/packages.list" "$0"; echo "$SUITE $MIRROR $SRC $SIZE"; } | sha256sum | cut -c1-16)
OUT=${1:-$BUILD/rootfs/$key}
img=$OUT/rootfs.img
if [ -e "$OUT/.done" ] && [ -r "$img" ]; then
	echo "$img"
	exit 0
fi
command -v mmdebstrap >/dev/null || cant "no mmdebstrap (apt-get install mmdebstrap)"
command -v mke2fs >/dev/null || cant "no mke2fs (e2fsprogs)"
[ "$(id -u)" = 0 ] || cant "needs root (the image's files belong to root and others)"
# the mirror answers? (an HTTP error is an answer: a suite it does not have)
rc=0
python3 -c '
import sys, urllib.error, urllib.request
try:
    urllib.request.urlopen(sys.argv[1], timeout=30)
except urllib.error.HTTPError as e:
    sys.exit(f"{sys.argv[1]}: {e}")
except OSError:
    sys.exit(2)' "$MIRROR/dists/$SUITE/Release" || rc=$?
[ $rc != 2 ] || cant "Debian's mirror does not answer ($MIRROR: no network?)"
[ $rc = 0 ] || exit 1
rm -rf "$OUT"
mkdir -p "$OUT"
dir=$OUT/tree
start=$(date +%s)
# deb-src only while building, for the workload's source (unpacked by the
# host's tar: the image has no bzip2); the lists and the package cache are
# dropped so that the image holds only what runs
if ! mmdebstrap --variant=apt --include="$pkgs" \
	--customize-hook='mkdir -p "$1/opt/src"' \
	--customize-hook="chroot \"\$1\" sh -c 'cd /opt/src && apt-get -q source --download-only $SRC'" \
	--customize-hook='rm -f "$1"/opt/src/*.dsc "$1"/opt/src/*.debian.tar.* "$1"/opt/src/*.asc' \
	--customize-hook='cd "$1/opt/src" && for t in *.orig.tar.*; do tar -xf "$t" && rm "$t" || exit 1; done' \
	--customize-hook='chroot "$1" apt-get clean' \
	--customize-hook='rm -rf "$1"/var/lib/apt/lists/* "$1"/usr/share/doc/* "$1"/usr/share/man/* "$1"/usr/share/locale/*' \
	--customize-hook='echo field >"$1/etc/hostname"' \
	"$SUITE" "$dir" "deb $MIRROR $SUITE main" "deb-src $MIRROR $SUITE main" \
	>"$OUT/mmdebstrap.log" 2>&1; then
	tail -n 20 "$OUT/mmdebstrap.log" >&2
	echo "qemu/rootfs/build-rootfs.sh: mmdebstrap failed (log: $OUT/mmdebstrap.log)" >&2
	exit 1
fi
fail() { echo "qemu/rootfs/build-rootfs.sh: $*" >&2; exit 1; }
ls -d "$dir"/opt/src/*/ >/dev/null 2>&1 || fail "no source of $SRC in $dir/opt/src"
rm -f "$img"
# (mke2fs says "Creating regular file" on stdout, where the image's path goes)
mke2fs -q -t ext4 -L field -d "$dir" "$img" "${SIZE}M" >&2 || fail "mke2fs -d $dir failed"
used=$(du -sm "$dir" | cut -f1)
rm -rf "$dir"
echo "$pkgs" >"$OUT/packages"
echo "built in $(( $(date +%s) - start )) s; files: $used MiB; image: ${SIZE} MiB sparse, $(du -m "$img" | cut -f1) MiB on disk" >"$OUT/stats"
touch "$OUT/.done"
echo "$img"
