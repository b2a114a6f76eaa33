#!/bin/sh
# kernel/build.sh - unpack, patch, configure and build the test kernel.
#
#   kernel/build.sh            (what `make kernel` runs, from the top dir)
#
# Environment: KERNEL_TARBALL (default /usr/src/linux-source-6.1.tar.xz),
# LTT_KERNEL_DEBUG=1 (default) adds kernel/config-debug-fragment, JOBS (2),
# KERNEL_PATCHES (default kernel/patches: a directory with a series file),
# LTT_CONFIG_CHECK=0 to not require the fragment's options (for building a
# prefix of the series: kernel/tools/check-series.sh).
# LTT_KERNEL_OUT (default build-kernel) is the output folder, and
# LTT_KERNEL_FRAGMENT an extra config fragment checked like ours: `make bench`
# builds its own kernel with both (kernel/config-bench-fragment into
# build-kernel-bench/), so that it never swaps the test kernel's config.
# LTT_KERNEL_TRACER=0 leaves the tracer out (config-fragment's LTT,
# RELAYFS and MARK options are not asked for): the kernel that
# kernel/modules/ is tested on (`make modtest-kernel`); when the
# configuration has modules, they are built too (Module.symvers, for M=).
# Fails loudly: a patch that does not apply, a config option that did not
# stick, a build error.  A changed series is swapped in file by file, only
# the files whose content changed being rewritten (an incremental build).
set -eu

TARBALL=${KERNEL_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
JOBS=${JOBS:-2}
DEBUG=${LTT_KERNEL_DEBUG:-1}
TOP=$(pwd)
OUT=${LTT_KERNEL_OUT:-$TOP/build-kernel}
case $OUT in /*) ;; *) OUT=$TOP/$OUT ;; esac
EXTRA=${LTT_KERNEL_FRAGMENT:-}
[ -z "$EXTRA" ] || [ -r "$EXTRA" ] || { echo "make kernel: no fragment $EXTRA" >&2; exit 1; }
TREE=$OUT/linux-source-6.1
# config-fragment, without the tracer's own options if LTT_KERNEL_TRACER=0
BASE=$OUT/config-fragment
mkdir -p "$OUT"
if [ "${LTT_KERNEL_TRACER:-1}" = 0 ]; then
	grep -Ev '^CONFIG_(LTT|RELAYFS|MARK)[A-Z_]*=' "$TOP/kernel/config-fragment" >"$BASE"
else
	cp "$TOP/kernel/config-fragment" "$BASE"
fi
PATCHES=${KERNEL_PATCHES:-$TOP/kernel/patches}
APPLIED=$OUT/applied		# copy of the series as it is applied in $TREE

die() { echo "make kernel: $*" >&2; exit 1; }
say() { echo "make kernel: $*"; }

[ -r "$TARBALL" ] || die "no kernel tarball $TARBALL (scripts/install-deps.sh kernel installs linux-source-6.1)"
[ -r "$PATCHES/series" ] || die "no $PATCHES/series"
mkdir -p "$OUT"

# One kernel build at a time in this tree (make check of several people,
# make qemu-test...): wait for the others.
if command -v flock >/dev/null; then
	exec 9>"$OUT/.build.lock"
	if ! flock -n 9; then
		say "another kernel build is running in $OUT: waiting for it"
		flock 9
	fi
fi

series() { grep -v '^[[:space:]]*\(#\|$\)' "$1/series"; }

unpack() {
	say "unpacking $TARBALL"
	rm -rf "$TREE" "$APPLIED" "$OUT/unpack.tmp"
	mkdir -p "$OUT/unpack.tmp"
	tar -C "$OUT/unpack.tmp" -xf "$TARBALL"
	mv "$OUT/unpack.tmp/linux-source-6.1" "$TREE"
	rmdir "$OUT/unpack.tmp"
}

same_series() { # is $APPLIED the same series as $PATCHES?
	[ -r "$APPLIED/series" ] || return 1
	[ "$(series "$APPLIED")" = "$(series "$PATCHES")" ] || return 1
	for p in $(series "$PATCHES"); do
		cmp -s "$PATCHES/$p" "$APPLIED/$p" || return 1
	done
}

# files a series touches (both sides of every diff), sorted
touched() { # DIR
	for p in $(series "$1"); do
		sed -n 's|^+++ b/||p; s|^--- a/||p' "$1/$p"
	done | sort -u
}

# A changed series: the files either series touches are made again, from
# the tarball, with the new series, in a scratch folder; only those whose
# content changed are copied into the tree, so the others keep their
# times and the build stays incremental (reversing and applying again
# would touch every patched file: sched/signal.h alone rebuilds most of
# the kernel).  Any failure: a clean unpack.
swap_series() {
	scratch=$OUT/swap.tmp
	rm -rf "$scratch"
	mkdir -p "$scratch"
	{ touched "$APPLIED"; touched "$PATCHES"; } | sort -u >"$OUT/swap.files"
	sed 's|^|linux-source-6.1/|' "$OUT/swap.files" >"$OUT/swap.members"
	# members the tarball lacks (files the series add) are not an error
	tar -C "$scratch" -xf "$TARBALL" --files-from="$OUT/swap.members" 2>/dev/null || true
	mkdir -p "$scratch/linux-source-6.1"
	for p in $(series "$PATCHES"); do
		(cd "$scratch/linux-source-6.1" && patch -p1 -s --no-backup-if-mismatch -N <"$PATCHES/$p") >/dev/null ||
			return 1
	done
	while read -r f; do
		if [ -e "$scratch/linux-source-6.1/$f" ]; then
			if ! cmp -s "$scratch/linux-source-6.1/$f" "$TREE/$f"; then
				mkdir -p "$(dirname "$TREE/$f")"
				cp "$scratch/linux-source-6.1/$f" "$TREE/$f"
			fi
		else
			rm -f "$TREE/$f"	# a file only the old series added
		fi
	done <"$OUT/swap.files"
	rm -rf "$scratch" "$OUT/swap.files" "$OUT/swap.members" "$APPLIED"
	mkdir -p "$APPLIED"
	for p in $(series "$PATCHES"); do cp "$PATCHES/$p" "$APPLIED/$p"; done
	cp "$PATCHES/series" "$APPLIED/series"
}

[ -d "$TREE" ] || unpack
if [ -r "$APPLIED/series" ] && ! same_series; then
	say "series changed: the files it touches made again (changed ones only)"
	if ! swap_series; then
		say "the new series does not apply: starting from a clean tree"
		rm -rf "$OUT/swap.tmp" "$OUT/swap.files" "$OUT/swap.members"
		unpack
	fi
fi
if [ ! -r "$APPLIED/series" ]; then
	if [ -d "$APPLIED" ]; then unpack; fi	# half-applied: start again
	mkdir -p "$APPLIED"
	for p in $(series "$PATCHES"); do
		say "applying $p"
		(cd "$TREE" && patch -p1 -s --no-backup-if-mismatch -N <"$PATCHES/$p") ||
			die "patch $p does not apply (tree left in $TREE; rm -rf $OUT to start again)"
		cp "$PATCHES/$p" "$APPLIED/$p"
	done
	cp "$PATCHES/series" "$APPLIED/series"
fi

# Configure: allnoconfig + KCONFIG_ALLCONFIG (tiny-base, tiny, our fragments).
frag=$OUT/allconfig
cat "$TREE/kernel/configs/tiny-base.config" "$TREE/kernel/configs/tiny.config" \
	"$BASE" >"$frag.new"
[ "$DEBUG" = 1 ] && cat "$TOP/kernel/config-debug-fragment" >>"$frag.new"
[ -n "$EXTRA" ] && cat "$EXTRA" >>"$frag.new"
if [ ! -r "$TREE/.config" ] || ! cmp -s "$frag.new" "$frag" ||
   [ "$TREE/.config" -ot "$APPLIED/series" ]; then
	say "configuring (allnoconfig + $(basename "$frag"))"
	make -s -C "$TREE" allnoconfig KCONFIG_ALLCONFIG="$frag.new" >"$OUT/config.log" 2>&1 ||
		{ cat "$OUT/config.log" >&2; die "configuration failed"; }
fi
mv "$frag.new" "$frag"

# Every option asked for must be in .config exactly as asked.
missing=$(grep -h '^CONFIG_[A-Za-z0-9_]*=' "$BASE" \
	$( [ "$DEBUG" = 1 ] && echo "$TOP/kernel/config-debug-fragment") $EXTRA |
	while read -r line; do
		grep -qx -- "$line" "$TREE/.config" || echo "$line"
	done)
if [ -n "$missing" ] && [ "${LTT_CONFIG_CHECK:-1}" = 1 ]; then
	rm -f "$frag"	# configure again next time
	die "these options did not stick (a dependency is missing):
$missing"
fi

targets=bzImage
grep -qx 'CONFIG_MODULES=y' "$TREE/.config" && targets="bzImage modules"
say "building $targets (-j$JOBS)"
# shellcheck disable=SC2086
if ! make -C "$TREE" -j"$JOBS" $targets >"$OUT/build.log" 2>&1; then
	grep -E 'error|Error' "$OUT/build.log" | head -n 40 >&2
	tail -n 20 "$OUT/build.log" >&2
	die "kernel build failed (full log: $OUT/build.log)"
fi
if grep -E '^[^ ]*: warning:' "$OUT/build.log" | grep -E 'ltt|relayfs' >&2; then
	say "warnings in our code (above)"
fi
say "ok: $TREE/arch/x86/boot/bzImage"
