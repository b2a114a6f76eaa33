#!/bin/sh
# kernel/tools/check-series.sh - prove that every prefix of the series
# applies and builds: for k = 1..N, the tree of `make kernel` is brought to
# patches 1..k (kernel/build.sh reverses and applies) and bzImage is
# rebuilt (incremental).  Ends with the whole series, as `make kernel`.
# Run from the top directory.  About a minute per patch once the tree has
# been built once.
set -eu
TOP=$(pwd)
S=$TOP/build-kernel/series-prefix
all=$(grep -v '^[[:space:]]*\(#\|$\)' kernel/patches/series)
n=0
for p in $all; do
	n=$((n + 1))
	rm -rf "$S"; mkdir -p "$S"
	echo "$all" | head -n "$n" >"$S/series"
	for q in $(cat "$S/series"); do cp "kernel/patches/$q" "$S/"; done
	echo "== check-series: patches 1..$n (up to $p)"
	KERNEL_PATCHES=$S LTT_CONFIG_CHECK=0 kernel/build.sh
done
rm -rf "$S"
echo "== check-series: back to the whole series"
kernel/build.sh
