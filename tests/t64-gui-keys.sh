#!/bin/sh
# The everyday keys of Trace Compass and Perfetto in the window: End (the
# end of the trace, the same zoom), W S (zoom in, out at cursor A), A D
# (pan), "." and "," (cursor A to the next, previous change of the
# selected row's state). On traces/qemu-busybox: sleep (pid 53) waits
# from 5.868342805 to 6.068583734 s (its 200 ms sleep, tests/t59).
. "$(dirname "$0")/lib.sh"
B="$TOP/traces/qemu-busybox"

gui_test "keys"
xvfb-run -a -s "-screen 0 1400x900x24" timeout 120 "$gtk" -t "$B" --range 4.5..5.0 --self-test \
	"wait-index; key End; expect-range 6.043231709 6.543231709;
	 key a; expect-range 5.943231709 6.443231709; key d; expect-range 6.043231709 6.543231709;
	 select-pid 53; goto 5.9; key period; expect-cursor a 6.068583734;
	 key comma; expect-cursor a 5.868342805; key comma; key period; expect-cursor a 5.868342805;
	 range 5.8..6.2; goto 5.9; expect-range 5.7 6.1; key d; expect-range 5.78 6.18;
	 key w; expect-range 5.84 6.04; key s; expect-range 5.78 6.18;
	 quit" >"$TMP/gui.out" 2>"$TMP/gui.err"
rc=$?
sed 's/^/# /' "$TMP/gui.out"
check "lttv-gtk exits 0 (exit $rc)" test "$rc" -eq 0
check "End: the end of the trace at the same zoom" \
	grep -q '^ok - visible range 6.043231709..6.543231709 s' "$TMP/gui.out"
check "A, D: pan by a fifth of the view" \
	grep -q '^ok - visible range 5.943231709..6.443231709 s' "$TMP/gui.out"
check "\".\": cursor A to the end of sleep's wait, the next change of its row" \
	grep -q '^ok - cursor a at 6.068583734' "$TMP/gui.out"
check "\",\": back to the start of that wait, twice" \
	test "$(grep -c '^ok - cursor a at 5.868342805' "$TMP/gui.out")" = 2
# (goto centres the view on cursor A: 5.7 .. 6.1; D moves A off the
# middle, so that zooming at A differs from zooming at the middle)
check "W, S: zoom in and out at cursor A, off the middle" \
	sh -c "grep -q '^ok - visible range 5.840000000..6.040000000 s' '$TMP/gui.out' &&
	       test \$(grep -c '^ok - visible range 5.780000000..6.180000000 s' '$TMP/gui.out') = 2"
check "no check failed" grep -q '^# self-test: [0-9]* checks, 0 failed' "$TMP/gui.out"
done_testing
