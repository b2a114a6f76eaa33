#!/bin/sh
# kernel/tools/marker-kernels.sh DIR - one bzImage per marker behaviour
# (patch 0008), for tests/q40-qemu-markers.sh:
#   DIR/bzImage-print   MARK PRINT,  MARK_NOPRINT off
#   DIR/bzImage-fprobe  MARK FPROBE, MARK_NOPRINT FPROBE
#   DIR/bzImage-jprobe  MARK JPROBE, MARK_NOPRINT JPROBE
#   DIR/bzImage-kprobe  the default configuration: both KPROBE
# (MARK_STATIC, always FPROBE, is on in all four.)
#
# Each behaviour is a Kconfig choice, so each needs its own image.  A cold
# build per image would cost minutes each; instead the already built tree
# of `make kernel` is switched to each choice and rebuilt incrementally
# (only what depends on the marker options recompiles, then the link),
# and the default .config is put back at the end and rebuilt, so that
# `make kernel` stays a no-op.  The tree is held with kernel/build.sh's
# lock (build-kernel/.build.lock) all along, and the default .config is
# put back even when this fails or is interrupted.
# Run from the top directory after `make kernel`.  JOBS (2);
# LTT_KERNEL_OUT (default build-kernel), the tree's output folder as for
# kernel/build.sh, so that a helper's own tree can be used.
set -eu
DIR=${1:?usage: marker-kernels.sh DIR}
JOBS=${JOBS:-2}
OUT=${LTT_KERNEL_OUT:-$(pwd)/build-kernel}
case $OUT in /*) ;; *) OUT=$(pwd)/$OUT ;; esac
TREE=$OUT/linux-source-6.1
die() { echo "marker-kernels.sh: $*" >&2; exit 1; }
[ -r "$TREE/.config" ] && [ -r "$TREE/arch/x86/boot/bzImage" ] || die "no built tree in $TREE (make kernel)"
grep -qx 'CONFIG_MARK_KPROBE=y' "$TREE/.config" && grep -qx 'CONFIG_MARK_NOPRINT_KPROBE=y' "$TREE/.config" &&
	grep -qx 'CONFIG_MARK_STATIC=y' "$TREE/.config" && grep -qx 'CONFIG_MARK_SELFTEST=y' "$TREE/.config" ||
	die "$TREE/.config is not the default markers configuration (KPROBE, self-test): make kernel"
mkdir -p "$DIR"
DIR=$(cd "$DIR" && pwd)

exec 9>"$OUT/.build.lock"
flock 9
SAVED=$OUT/config.markers-saved
cp -p "$TREE/.config" "$SAVED"
# put back with a new time stamp: an old one would let kbuild keep the
# include/config/auto.conf of the last behaviour built
restore() { cp "$SAVED" "$TREE/.config" && rm -f "$SAVED"; }
trap 'restore' EXIT
trap 'exit 130' INT TERM HUP

build() { # mode
	if ! nice -n 10 make -C "$TREE" -j"$JOBS" bzImage >"$DIR/build-$1.log" 2>&1; then
		grep -E 'error|Error' "$DIR/build-$1.log" | head -n 20 >&2
		die "build of the $1 kernel failed ($DIR/build-$1.log)"
	fi
	cp "$TREE/arch/x86/boot/bzImage" "$DIR/bzImage-$1"
	cp "$TREE/.config" "$DIR/config-$1"
	echo "marker-kernels.sh: $DIR/bzImage-$1"
}

switch() { # mode, then CONFIG_x=y|n settings
	mode=$1; shift
	cp -p "$SAVED" "$TREE/.config"
	for s in "$@"; do
		o=${s%=*}; v=${s#*=}
		if [ "$v" = y ]; then a=--enable; else a=--disable; fi
		"$TREE/scripts/config" --file "$TREE/.config" $a "$o"
	done
	make -s -C "$TREE" olddefconfig >"$DIR/config-$mode.log" 2>&1 || die "olddefconfig failed for $mode"
	for s in "$@"; do
		o=${s%=*}; v=${s#*=}
		if [ "$v" = y ]; then
			grep -qx "CONFIG_$o=y" "$TREE/.config" || die "$mode: CONFIG_$o=y did not stick"
		else
			! grep -q "^CONFIG_$o=" "$TREE/.config" || die "$mode: CONFIG_$o is still set"
		fi
	done
	build "$mode"
}

switch print MARK_PRINT=y MARK_KPROBE=n MARK_NOPRINT=n MARK_NOPRINT_KPROBE=n
switch fprobe MARK_FPROBE=y MARK_KPROBE=n MARK_NOPRINT_FPROBE=y MARK_NOPRINT_KPROBE=n
switch jprobe MARK_JPROBE=y MARK_KPROBE=n MARK_NOPRINT_JPROBE=y MARK_NOPRINT_KPROBE=n
restore
trap - EXIT
build kprobe
