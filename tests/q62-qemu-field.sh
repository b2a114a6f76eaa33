#!/bin/sh
# The tracer in the field (issue 28): Debian's own kernel with our modules,
# on a Debian 12 root file system built from Debian's packages
# (qemu/rootfs/build-rootfs.sh, cached in $BUILD/rootfs), runs a workload
# that no one here wrote (qemu/rootfs/workload.sh: zlib compiled with
# make -j2, sqlite3, dd and gzip, python3's http.server and curl over
# loopback, python3 -m compileall) recorded by lttd with default settings;
# then every figure the kernel keeps about that interval (/proc/stat,
# /proc/interrupts, /proc/softirqs, the workload tree's wait4 rusage and
# /proc/self/io, each surviving task's schedstat and status) is compared
# with what our tools say of the trace (qemu/rootfs/books-compare.py): one
# check per figure.
#
# Skips, saying why, without QEMU, Debian's kernel image and headers
# (scripts/install-deps.sh kernel), mmdebstrap or the network to Debian's
# mirror. Q62_REUSE=DIR checks an earlier run (qemu/field-boot.sh DIR).
. "$(dirname "$0")/lib.sh"
cd "$TOP" || exit 2
OUT=$TOP/$BUILD/q62.$$
cache=${LTT_STOCK_CACHE:-/var/cache/ltt}
kver=${LTT_STOCK_KVER:-$(cat "$cache/stock-kver" 2>/dev/null)}
skip_all() {
	skip "the field guest" "$1"
	done_testing
	exit 0
}
if [ -n "${Q62_REUSE:-}" ]; then
	OUT=$Q62_REUSE
	skip "build the root file system and boot" "Q62_REUSE=$Q62_REUSE: checking an earlier run"
else
	command -v qemu-system-x86_64 >/dev/null || skip_all "no qemu-system-x86_64 (scripts/install-deps.sh kernel)"
	[ -x /bin/busybox ] || skip_all "no static busybox (busybox-static)"
	[ -n "$kver" ] || skip_all "no stock kernel pinned ($cache/stock-kver: scripts/install-deps.sh kernel)"
	[ -d "/usr/src/linux-headers-$kver" ] || skip_all "no linux-headers-$kver (scripts/install-deps.sh kernel)"
	ls "$cache"/linux-image-"$kver"_*.deb >/dev/null 2>&1 ||
		skip_all "no linux-image-$kver package in $cache (scripts/install-deps.sh kernel)"
	[ -x "$BIN/lttctl" ] && [ -x "$BIN/lttd" ] || skip_all "no $BIN/lttctl or lttd (make)"
	BUILD=$BUILD qemu/rootfs/build-rootfs.sh >"$TMP/rootfs.log" 2>&1
	rc=$?
	if [ $rc = 2 ]; then
		skip_all "no Debian root file system: $(tail -n 1 "$TMP/rootfs.log")"
	fi
	check "the Debian root file system builds (qemu/rootfs/build-rootfs.sh)" test $rc = 0
	if [ $rc != 0 ]; then
		sed 's/^/#   /' "$TMP/rootfs.log" | tail -n 20
		done_testing
		exit
	fi
	cat "$(dirname "$(tail -n 1 "$TMP/rootfs.log")")/stats" 2>/dev/null | sed 's/^/# rootfs: /' >&2
	# LTTng 2.13's modules for its session beside ours (item 4)
	BUILD=$BUILD qemu/lttng-modules.sh >"$TMP/lttng-modules.log" 2>&1
	rc=$?
	lttng=1
	if [ $rc = 2 ]; then
		lttng=0
		skip "LTTng's session beside ours" "$(tail -n 1 "$TMP/lttng-modules.log")"
	else
		check "LTTng's modules build against Debian's headers (qemu/lttng-modules.sh)" test $rc = 0
		[ $rc = 0 ] || { sed 's/^/#   /' "$TMP/lttng-modules.log" | tail -n 5; lttng=0; }
	fi
	start=$(date +%s)
	check "QEMU boots Debian's kernel on the root file system, runs the workload, powers off" \
		env BUILD="$BUILD" FIELD_LTTNG=$lttng FIELD_FTRACE=1 qemu/field-boot.sh "$OUT"
	echo "# the field run took $(( $(date +%s) - start )) s" >&2
fi
step() { test "$(awk -v n="$1" '$1 == n { print $2 }' "$OUT/results" 2>/dev/null)" = 0; }
steps="mount_root mounts mounts_others install loopback ftrace_start start workload stop lttd destroy ftrace_stop field_run umount_root"
[ -d "$OUT/lttng" ] && steps="$steps install_lttng lttng_start lttng_stop"
for s in $steps; do
	check "guest: $s" step "$s"
done
sed 's/^/# /' "$OUT/workload.log" >&2 2>/dev/null
check "the trace reads, no event lost" \
	sh -c "'$BIN/lttv-text' -q -c -t '$OUT/field' >'$TMP/cpus' && grep -q '^total: ' '$TMP/cpus' && ! grep -q '[1-9][0-9]* lost' '$TMP/cpus'"
python3 qemu/rootfs/books-compare.py "$OUT" "$BIN/lttv-text" >"$TMP/books" 2>"$TMP/books.err"
rc=$?
check "books-compare.py ran to its end" sh -c "test $rc -le 1 && grep -q ' mismatches$' '$TMP/books'"
sed -n 's/^# /# books: /p' "$TMP/books" >&2
books_report "$TMP/books"
sed 's/^/# /' "$TMP/books.err" | head -n 5
# our events against LTTng's and ftrace's, one by one (item 4)
others="--other ftrace"
[ -d "$OUT/lttng" ] && others="--other lttng $others"
PY=$(bt2_python) || PY=python3	# match-events.py says what is missing
# shellcheck disable=SC2086 # the options
"$PY" qemu/rootfs/match-events.py "$OUT" "$BIN/lttv-text" $others >"$TMP/match" 2>"$TMP/match.err"
rc=$?
check "match-events.py ran to its end (exit $rc)" sh -c "test $rc -le 1 && grep -q ' unexplained$' '$TMP/match'"
sed -n -e 's/^# /# match: /p' -e 's/^| /# match: | /p' "$TMP/match" >&2
grep '^unexplained ' "$TMP/match" | head -n 20 | sed 's/^/# /'
sed 's/^/# /' "$TMP/match.err" | head -n 5
for o in lttng ftrace; do
	n=$(sed -n "s/^$o: \([0-9]*\) unexplained$/\1/p" "$TMP/match")
	[ -n "$n" ] || continue
	check "$o: every event of ours and of theirs matched or explained ($n unexplained)" test "$n" = 0
	line=$(grep "^$o: .* matched in order" "$TMP/match")
	pct=$(echo "$line" | sed -n 's/.*(\([0-9.]*\) %)$/\1/p')
	check "$o: at least 99 % of our events matched in order (${line#"$o: "})" \
		awk -v p="$pct" 'BEGIN { exit !(p != "" && p >= 99) }'
done
[ -n "${Q62_REUSE:-}" ] || [ "$_failed" != 0 ] || rm -rf "$OUT" "$OUT.work" "$OUT.modules" "$OUT.field" "$OUT.console"
done_testing
