#!/bin/sh
# lttv-gtk --follow on a trace as lttd really leaves it while it writes:
# started before the trace exists, it waits for it and says so in the
# window (no modal error); a tracefile whose last sub-buffer is half
# written is read up to it; a tracefile that does not open (a first
# sub-buffer not readable yet) is said, left out and tried again while the
# others go on growing; a facility table not written yet is said (lttd
# writes control/facilities_N when its first sub-buffer fills). The
# writer waits for the window's screenshots to go on, so each state is
# seen whatever the machine's load.
. "$(dirname "$0")/lib.sh"
gtk="$BIN/lttv-gtk"
export GSETTINGS_BACKEND=memory ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"

if ! command -v xvfb-run >/dev/null || ! command -v python3 >/dev/null; then
	skip "live view of a trace being written" "xvfb-run or python3 is missing (scripts/install-deps.sh)"
	done_testing
	exit
fi
"$BIN/ltt-tracegen" --scenario busy --events 60000 --subbuf-size 8192 -o "$TMP/full" >/dev/null 2>&1
check "a busy trace of 8 KiB sub-buffers is written" test -s "$TMP/full/cpu_1"

# The writer (tests/live-writer.py --worst): nothing until the window said
# it waits ($TMP/waiting.png); then the sub-buffers in the order of their
# end, as t55's, except that cpu_0 always ends in half a sub-buffer, cpu_1's
# first sub-buffer is unreadable and the facility table is held back until
# the window said so ($TMP/leftout.png): then cpu_1 is written right and
# the facility table comes.
python3 "$TOP/tests/live-writer.py" "$TMP/full" "$TMP/live" "$TMP" --worst 2>"$TMP/writer.err" &
writer=$!
# the pids of t55 (busy), known once the facility table decodes their
# fork events
xvfb-run -a -s "-screen 0 1400x900x24" timeout 200 "$gtk" -t "$TMP/live" --follow --self-test \
	"wait-live Waiting for the trace; expect-live Waiting for the trace;
	 screenshot $TMP/waiting.png;
	 wait-live cpu_1: sub-buffer 0; expect-live cpu_1: sub-buffer 0;
	 expect-live no facility table yet;
	 live-mark; wait-live-grown; expect-live-grown; screenshot $TMP/leftout.png;
	 wait-live-gone cpu_1; expect-live-gone cpu_1; wait-row-of 1011; expect-row-of 1005;
	 expect-live-gone no facility table; live-mark; wait-live-grown; expect-live-grown;
	 wait-live-settled; quit" >"$TMP/gui.out" 2>"$TMP/gui.err"
rc=$?
kill $writer 2>/dev/null
wait $writer
sed 's/^/# /' "$TMP/gui.out" "$TMP/writer.err"
grep -v '^#' "$TMP/gui.err" | head -n 20 | sed 's/^/# stderr: /'
check "lttv-gtk --follow exits 0 (exit $rc)" test "$rc" -eq 0
check "the window said it waited for the trace, no modal error" \
	grep -q '^ok - the line under the toolbar says "Waiting for the trace"' "$TMP/gui.out"
check "the tracefile that did not open was said" \
	grep -q '^ok - the line under the toolbar says "cpu_1: sub-buffer 0"' "$TMP/gui.out"
check "the missing facility table was said" \
	grep -q '^ok - the line under the toolbar says "no facility table yet"' "$TMP/gui.out"
check "the trace grew while cpu_1 was left out and cpu_0 half written" \
	sh -c "grep '^ok - the trace grew while shown' '$TMP/gui.out' | head -n 1 | grep -q ."
check "cpu_1 read once it opened, the facility table once written" \
	grep -q '^ok - the line under the toolbar does not say "no facility table"' "$TMP/gui.out"
check "no check failed" sh -c "! grep -q '^not ok' '$TMP/gui.out' && grep -q 'checks, 0 failed' '$TMP/gui.out'"
check "the writer wrote all" test -e "$TMP/.finished"
done_testing
