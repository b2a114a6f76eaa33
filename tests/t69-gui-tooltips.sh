#!/bin/sh
# The control flow's tooltips say the state under the pointer whole: its
# true begin, end and duration, whatever the view shows (zoomed into the
# middle of a wait, or zoomed out where a pixel holds many changes); a
# dead process says since when, not the window's width. The intervals are
# the planted chain's (ltt-tracegen --scenario chain, tests/t53) and the
# 200 ms sleep of traces/qemu-busybox (lttv-text --critical-path says
# 5.868342805 .. 6.068583734, its sleep; it is freed at 6.119005272).
. "$(dirname "$0")/lib.sh"

gui_test "tooltips"
"$BIN/ltt-tracegen" --scenario chain -o "$TMP/c" >/dev/null 2>&1
check "the chain scenario is written" test -d "$TMP/c/eventdefs"
B="$TOP/traces/qemu-busybox"
"$BIN/lttv-text" -t "$B" -r -s -e process.free 2>/dev/null | grep -q '^process.free: 6.119005272 .*{ 53 }' &&
	_report 0 "qemu-busybox: pid 53 (sleep) is freed at 6.119005272" ||
	_report 1 "qemu-busybox: pid 53 (sleep) is freed at 6.119005272"

gui() { # out trace range script
	out=$1 trace=$2 range=$3
	shift 3
	xvfb-run -a -s "-screen 0 1400x900x24" timeout 120 "$gtk" -t "$trace" \
		${range:+--range $range} --self-test "wait-index; $*; quit" >"$out" 2>"$out.err"
	sed 's/^/# /' "$out"
}
# zoomed into the middle of a's 201 us wait on the disk, and of c's last
gui "$TMP/chain.out" "$TMP/c" 0.0026..0.0027 \
	"expect-tip 0.00265 110 waiting|0.002500000 .. 0.002701000 s (201.000 us);
	 expect-tip 0.00265 112 waiting|0.001600000 .. 0.003000000 s (1.400 ms)"
check "zoomed into a wait: its true begin, end and duration" \
	sh -c "grep -q '^# self-test: 2 checks, 0 failed' '$TMP/chain.out'"
# the whole trace: a pixel is about 2.4 ms; sleep's wait is whole, and a
# dead process says since when
gui "$TMP/busy.out" "$B" "" \
	"expect-tip 6.0 53 waiting|5.868342805 .. 6.068583734 s (200.241 ms);
	 expect-tip 6.3 53 sleep (pid 53)|dead since 6.119005272 s"
check "zoomed out: the wait under the pointer whole, a dead process since when" \
	sh -c "grep -q '^# self-test: 2 checks, 0 failed' '$TMP/busy.out'"
# zoomed into the sleep: the same interval
gui "$TMP/zoom.out" "$B" 5.95..5.96 \
	"expect-tip 5.955 53 waiting|5.868342805 .. 6.068583734 s (200.241 ms);
	 expect-tip 5.955 37 sh (pid 37)|waiting|"
check "zoomed into the sleep: the same whole interval" \
	sh -c "grep -q '^# self-test: 2 checks, 0 failed' '$TMP/zoom.out'"
done_testing
