#!/bin/sh
# lttd on the host: everything it must refuse, and how it says so.  The
# copy loop itself is tests/unit/test_lttd_copy.c; the real relayfs path runs
# in QEMU.
. "$(dirname "$0")/lib.sh"
LTTD="$BIN/lttd"

# fails_with "what" STATUS PATTERN cmd...: exits with STATUS (not a signal)
# and stderr matches the extended regex PATTERN, in a single line
fails_with() {
	_what=$1 _want=$2 _pat=$3; shift 3
	"$@" >"$TMP/out" 2>"$TMP/err"
	_rc=$?
	if [ "$_rc" -eq "$_want" ] && grep -Eq -- "$_pat" "$TMP/err"; then
		_report 0 "$_what"
	else
		_report 1 "$_what (exit $_rc, want $_want)"
		sed 's/^/#   /' "$TMP/out" "$TMP/err" | head -n 20
	fi
}

if [ ! -x "$LTTD" ]; then
	skip "lttd tests" "$LTTD is not built"
	done_testing
	exit
fi

check "--help exits 0" "$LTTD" --help
cp "$TMP/out" "$TMP/help"
check "--help documents -N and -D" grep -q -- '-D, --daemon' "$TMP/help"
fails_with "no argument: usage error" 2 'missing -t' "$LTTD"
fails_with "no -d: usage error" 2 'missing -d' "$LTTD" -t "$TMP"
fails_with "unknown option" 2 'bogus' "$LTTD" --bogus -t "$TMP" -d "$TMP/o"
fails_with "stray argument" 2 "unexpected argument 'extra'" \
	"$LTTD" -t "$TMP" -d "$TMP/o" extra
fails_with "-N 0 refused" 2 'threads from 1 to 256' \
	"$LTTD" -t "$TMP" -d "$TMP/o" -N 0
fails_with "-N 257 refused" 2 'threads from 1 to 256' \
	"$LTTD" -t "$TMP" -d "$TMP/o" -N 257
fails_with "-N not a number" 2 "-N 'x': want a number" "$LTTD" -t "$TMP" -d "$TMP/o" -N x
fails_with "-f and -n together" 2 'exclude each other' \
	"$LTTD" -t "$TMP" -d "$TMP/o" -f -n

fails_with "missing trace dir" 1 'nope: No such file or directory' \
	"$LTTD" -t "$TMP/nope" -d "$TMP/o"
: >"$TMP/plain"
fails_with "trace dir is a file" 1 'not a directory' \
	"$LTTD" -t "$TMP/plain" -d "$TMP/o"
mkdir "$TMP/empty"
fails_with "empty trace dir" 1 'no channel found' \
	"$LTTD" -t "$TMP/empty" -d "$TMP/o"

# a tree that looks right but holds plain files
mkdir -p "$TMP/tr/control"
: >"$TMP/tr/cpu_0"
: >"$TMP/tr/control/facilities_0"
fails_with "regular file: not a relayfs channel" 1 \
	'tr/control/facilities_0: not a relayfs channel' \
	"$LTTD" -t "$TMP/tr" -d "$TMP/o1"
check "one line of error" test "$(wc -l <"$TMP/err")" -eq 1
check "nothing written when a channel is refused" test ! -e "$TMP/o1"
fails_with "-n: still checks the normal channels" 1 'not a relayfs channel' \
	"$LTTD" -t "$TMP/tr" -d "$TMP/o1" -n
fails_with "-f: no flight channel" 1 'no flight channel found' \
	"$LTTD" -t "$TMP/tr" -d "$TMP/o1" -f

# a FIFO must be refused, not waited on
mkdir "$TMP/fifo"
if mkfifo "$TMP/fifo/cpu_0" 2>/dev/null; then
	fails_with "FIFO: not a relayfs channel, no hang" 1 \
		'not a relayfs channel' timeout 10 "$LTTD" -t "$TMP/fifo" -d "$TMP/o2"
else
	skip "FIFO channel" "mkfifo failed"
fi
mkdir -p "$TMP/fl"
: >"$TMP/fl/flight-cpu_0"
fails_with "-f: a flight file is checked too" 1 \
	'flight-cpu_0: not a relayfs channel' "$LTTD" -t "$TMP/fl" -d "$TMP/o3" -f

# the QEMU guest (busybox, no libc) needs static binaries
if [ "${SANITIZE:-}" = 1 ]; then
	skip "lttd is static" "SANITIZE=1 links dynamically"
elif command -v readelf >/dev/null; then
	check "lttd is static (no program interpreter)" \
		sh -c "! readelf -l '$LTTD' | grep -q 'INTERP'"
else
	skip "lttd is static" "no readelf"
fi

done_testing
