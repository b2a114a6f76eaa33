#!/bin/sh
# The summary of a range: with cursors A and B both set, the Statistics
# tab is that of A..B (time per state and process, event counts), said so;
# shown, it follows the cursors and the view by itself (it waited for its
# button); a click alone clears B and goes back to the visible range;
# Shift+drag selects a range as A..B, the view kept. Its
# numbers are lttv-gtk --stats --range A..B's. On traces/qemu-busybox.
. "$(dirname "$0")/lib.sh"
B="$TOP/traces/qemu-busybox"

gui_test "range statistics"
"$gtk" -t "$B" --stats --range 4.7..4.8 2>/dev/null | sed -n '/^CPU time per process/,/ all /p' >"$TMP/want"
# the tab shows a row as its cells joined by one space (expect-stats)
sh_line=$(grep '^ *37 *37 sh ' "$TMP/want" | tr -s ' ' | sed 's/^ //')
check "lttv-gtk --stats --range 4.7..4.8: sh's line ($sh_line)" test -n "$sh_line"
xvfb-run -a -s "-screen 0 1400x900x24" timeout 120 "$gtk" -t "$B" --range 4.5..5.0 --self-test \
	"wait-index; view statistics; wait-stats; expect-stats Range 4.500000000 .. 5.000000000 s;
	 goto 4.7; expect-range 4.45 4.95; click-time 4.8 37 shift; sleep 400; wait-stats;
	 expect-stats Between cursors A and B; expect-stats Range 4.700000000 .. 4.80;
	 expect-stats $sh_line;
	 click-time 4.75 37; sleep 400; wait-stats; expect-stats Range 4.450000000 .. 4.950000000 s;
	 drag 4.6 4.65 1 shift; sleep 400; wait-stats; expect-cursor a 4.6; expect-cursor b 4.65;
	 expect-range 4.45 4.95; expect-stats Between cursors A and B; expect-stats .. 4.650000000 s;
	 quit" >"$TMP/gui.out" 2>"$TMP/gui.err"
rc=$?
sed 's/^/# /' "$TMP/gui.out" | grep -v '^# # '
check "lttv-gtk exits 0 (exit $rc)" test "$rc" -eq 0
check "the visible range first, then A..B, computed again by itself" \
	grep -q '^ok - statistics contain "Between cursors A and B' "$TMP/gui.out"
check "sh's CPU time over A..B is --stats --range 4.7..4.8's" \
	grep -q "^ok - statistics contain \"$sh_line\"" "$TMP/gui.out"
check "a click alone clears B: the visible range again" \
	grep -q '^ok - statistics contain "Range 4.450000000 .. 4.950000000 s"' "$TMP/gui.out"
check "Shift+drag selects A..B (the view kept) and the tab sums it up" \
	sh -c "grep -q '^ok - cursor b at 4.650' '$TMP/gui.out' &&
	       grep -q '^ok - statistics contain \".. 4.650000000 s\"' '$TMP/gui.out'"
check "no check failed" grep -q '^# self-test: [0-9]* checks, 0 failed' "$TMP/gui.out"
done_testing
