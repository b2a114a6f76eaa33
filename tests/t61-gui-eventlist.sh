#!/bin/sh
# The window's event list: it starts where --range starts (it started at
# the trace's start); after Home it shows cursor A, in view, not the old
# left edge; the first events, before the state dump names their process,
# say its name (the column was blank). On traces/qemu-busybox, the times
# from lttv-text -r.
. "$(dirname "$0")/lib.sh"
B="$TOP/traces/qemu-busybox"

gui_test "event list"
first_after() { "$BIN/lttv-text" -t "$B" -r 2>/dev/null | awk -v t="$1" '$2 >= t { print $2; exit }'; }
at45=$(first_after 4.5) at47=$(first_after 4.7) at55=$(first_after 5.5)
check "the first events after 4.5, 4.7 and 5.5 s ($at45, $at47, $at55)" \
	test -n "$at45" -a -n "$at47" -a -n "$at55"
xvfb-run -a -s "-screen 0 1400x900x24" timeout 120 "$gtk" -t "$B" --range 4.5..5.0 --self-test \
	"wait-index; expect-list $at45;
	 goto 4.7; expect-list $at47; range 5.5..6.0; sleep 300; expect-list $at55;
	 key Home; sleep 300; expect-list $at47;
	 range 0..1; sleep 300; expect-list 3.766004838  cpu 0  pid 39  lttctl  core.facility_load;
	 screenshot $TMP/list.png; quit" >"$TMP/gui.out" 2>"$TMP/gui.err"
rc=$?
sed 's/^/# /' "$TMP/gui.out"
check "lttv-gtk exits 0 (exit $rc)" test "$rc" -eq 0
check "--range 4.5..5.0: the list starts at $at45" \
	grep -q "^ok - first event line contains \"$at45\"" "$TMP/gui.out"
check "cursor A at 4.7, the view moved away to 5.5: the list at the view's edge" \
	grep -q "^ok - first event line contains \"$at55\"" "$TMP/gui.out"
check "Home: cursor A in view, the list at A ($at47), not the old left edge" \
	sh -c "test \$(grep -c '^ok - first event line contains \"$at47\"' '$TMP/gui.out') = 2"
check "the first event names its process (lttctl), before the state dump named it" \
	grep -q '^ok - first event line contains "3.766004838  cpu 0  pid 39  lttctl' "$TMP/gui.out"
check "no check failed" grep -q '^# self-test: [0-9]* checks, 0 failed' "$TMP/gui.out"
# without a move: the list filled while indexing names the process once
# the index is done (it stayed blank until the view moved)
xvfb-run -a -s "-screen 0 1400x900x24" timeout 120 "$gtk" -t "$B" --self-test \
	"wait-index; sleep 300; expect-list 3.766004838  cpu 0  pid 39  lttctl; quit" \
	>"$TMP/start.out" 2>"$TMP/start.err"
sed 's/^/# /' "$TMP/start.out"
check "at the start, once indexed, the first event names its process" \
	grep -q '^ok - first event line contains "3.766004838  cpu 0  pid 39  lttctl' "$TMP/start.out"
done_testing
