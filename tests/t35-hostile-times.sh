#!/bin/sh
# Times near the ends of int64 on the command line (issue 16): --begin,
# --end and --range far before or after any trace must select what they
# say (all, or nothing), never wrap around, and never overflow (the
# SANITIZE=1 pass aborts on a signed overflow). The plain build used to
# wrap: --begin -9000000000 printed 211 of 4635 events.
. "$(dirname "$0")/lib.sh"
TEXT="$BIN/lttv-text"
GTK="$BIN/lttv-gtk"
T="$TOP/traces/qemu-busybox"
unset DISPLAY WAYLAND_DISPLAY

if [ ! -x "$TEXT" ]; then
	skip "times near int64 limits" "needs $TEXT (make all)"
	done_testing; exit
fi
all=$("$TEXT" -t "$T" 2>/dev/null | wc -l)
check "the trace has events ($all)" test "$all" -gt 100

# count WANT WHAT ARGS...: lttv-text with ARGS prints WANT events, exit 0
count() {
	want=$1 what=$2; shift 2
	n=$("$TEXT" -t "$T" "$@" 2>"$TMP/err" | wc -l)
	"$TEXT" -t "$T" "$@" >/dev/null 2>&1
	rc=$?
	if [ "$n" -eq "$want" ] && [ $rc -eq 0 ]; then
		_report 0 "$what: $want events"
	else
		_report 1 "$what: $n events, want $want (exit $rc)"
		sed 's/^/#   /' "$TMP/err" | head -n 3
	fi
}

count "$all" "--begin -9000000000 (before everything)" --begin -9000000000
count "$all" "--begin -9223372000 (near the most negative)" --begin -9223372000
count "$all" "-r --begin -9000000000" -r --begin -9000000000
count 0 "--begin 9000000000 (after everything)" --begin 9000000000
count 0 "-r --begin 9000000000 (after everything, relative)" -r --begin 9000000000
count 0 "--end -9000000000 (before everything)" --end -9000000000
count 0 "-r --end -9000000000" -r --end -9000000000
count "$all" "-r --end 9000000000 (after everything, relative)" -r --end 9000000000
count "$all" "--begin -9000000000 --end 9000000000" --begin -9000000000 --end 9000000000
count 0 "-s --begin 9000000000 (the state engine reads from the start)" -s -r --begin 9000000000
check "-r --begin 9000000000 --process-stats: no overflow" \
	"$TEXT" -t "$T" -q -r --begin -9000000000 --end 9000000000 --process-stats
check_fails "a time past int64 nanoseconds is a command-line error" \
	"$TEXT" -t "$T" --begin 99999999999

if [ -x "$GTK" ]; then
	# a time inside the trace (its 100th event, in seconds from its start)
	# as the end of a range that begins far before it
	inside=$("$TEXT" -t "$T" -r 2>/dev/null | sed -n '100{s/^[^:]*: \([0-9.]*\) .*/\1/p;q}')
	for r in "-9000000000..9000000000" "-9223372000..9223372000" \
		 "0..9000000000" "-9000000000..${inside:-1}"; do
		timeout 120 "$GTK" -t "$T" --export "$TMP/r.png" --layout --range "$r" \
			>"$TMP/l" 2>"$TMP/err"
		rc=$?
		t0=$(sed -n 's/^layout.* t0=\([-0-9]*\) t1=\([-0-9]*\).*/\1/p' "$TMP/l")
		t1=$(sed -n 's/^layout.* t0=\([-0-9]*\) t1=\([-0-9]*\).*/\2/p' "$TMP/l")
		if [ $rc -eq 0 ] && [ -n "$t0" ] && [ "$t0" -lt "$t1" ]; then
			_report 0 "lttv-gtk --export --range $r: drawn, t0 < t1"
		else
			_report 1 "lttv-gtk --export --range $r: drawn, t0 < t1 (exit $rc, t0 $t0 t1 $t1)"
			sed 's/^/#   /' "$TMP/err" | head -n 3
		fi
	done
else
	skip "lttv-gtk --range near int64 limits" "no $GTK (make all)"
fi
done_testing
