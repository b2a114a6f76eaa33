#!/bin/sh
# CTF export: every sample trace converted with lttv-convert is read by
# babeltrace2 without errors, and shows the same events, times and field
# values as lttv-text (compared field by field by tests/ctf-compare.py);
# and lttv-text --process-stats equals the CPU time per task that
# tests/ctf-cputime.py computes from babeltrace2's events (each CPU runs the
# task its first schedchange switches out from its first event on).
. "$(dirname "$0")/lib.sh"
CONVERT="$BIN/lttv-convert"

check_fails "no arguments: usage error" "$CONVERT"
check_fails "missing trace: error" "$CONVERT" --ctf "$TMP/x" -t "$TMP/none"
"$CONVERT" --ctf "$TMP/x" -t "$TMP/none" 2>"$TMP/e"
check "the error names the trace" grep -q "$TMP/none" "$TMP/e"

if ! command -v babeltrace2 >/dev/null 2>&1 || ! command -v python3 >/dev/null 2>&1; then
	skip "CTF export read by babeltrace2" "babeltrace2 or python3 is not installed (scripts/install-deps.sh installs them)"
	done_testing; exit
fi
for dir in "$TOP"/traces/*/; do
	name=$(basename "$dir")
	[ -d "$dir/eventdefs" ] || continue
	out="$TMP/ctf-$name"
	check "$name: converts to CTF" "$CONVERT" --ctf "$out" -t "$dir"
	check "$name: has metadata and one stream per non-empty tracefile" \
		sh -c "test -s '$out/metadata' && test \$(ls '$out' | wc -l) -gt 1"
	babeltrace2 --clock-seconds "$out" >"$TMP/$name.bt" 2>"$TMP/$name.bt.err"
	rc=$?
	check "$name: babeltrace2 reads it (exit $rc)" test "$rc" -eq 0
	# the only message allowed is the report of events the tracer lost
	grep -v '^WARNING: Tracer discarded [0-9]* events' "$TMP/$name.bt.err" >"$TMP/$name.bt.other"
	check "$name: babeltrace2 prints no error or warning" test ! -s "$TMP/$name.bt.other"
	sed 's/^/#   /' "$TMP/$name.bt.other" | head -5
	"$BIN/lttv-text" -t "$dir" --field-names >"$TMP/$name.lt" 2>/dev/null
	check "$name: same events, times and fields as lttv-text" \
		python3 "$TOP/tests/ctf-compare.py" "$TMP/$name.lt" "$TMP/$name.bt"
	cat "$TMP/out" | tail -2 | sed 's/^/# /'
	# the state engine's CPU time per task against a model written apart
	# (tests/ctf-cputime.py) over what babeltrace2 decoded
	"$BIN/lttv-text" -t "$dir" -q --process-stats >"$TMP/$name.ps" 2>/dev/null
	check "$name: CPU time per task = babeltrace2's events replayed apart" \
		python3 "$TOP/tests/ctf-cputime.py" "$TMP/$name.bt" "$TMP/$name.ps"
	tail -1 "$TMP/out" | sed 's/^/# /'
done
done_testing
