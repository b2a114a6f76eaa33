#!/bin/sh
# Bookmarks and the window's session (--session FILE): a first window
# sets a range, cursor A, a hidden row, an event filter, a bookmark and
# the process tree and quits (the session is written at the end); a second, given only the
# session, opens the same trace and finds them all. On traces/qemu-busybox.
. "$(dirname "$0")/lib.sh"
B="$TOP/traces/qemu-busybox"
S="$TMP/s.session"

gui_test "sessions"
run() { # out args...
	out=$1
	shift
	xvfb-run -a -s "-screen 0 1400x900x24" timeout 120 "$gtk" "$@" >"$out" 2>"$out.err"
	echo $? >"$out.rc"
	sed 's/^/# /' "$out"
}
run "$TMP/one" -t "$B" --session "$S" --range 4.5..5.0 --self-test \
	"wait-index; key b; expect-bookmarks 0; goto 4.7; expect-row-of 44; hide-pid 44;
	 filter-events event.name = schedchange; key b; key b; key B ctrl; expect-bookmarks 2 #2;
	 key B shift; expect-bookmarks 1 #1; key t; quit"
check "the first window: exit 0, its checks passed" \
	sh -c "test \$(cat '$TMP/one.rc') = 0 && grep -q 'checks, 0 failed' '$TMP/one'"
check "the session was written, naming the trace" grep -q "^traces=$B;" "$S"
check "... and the event filter" grep -q '^events=event.name = schedchange$' "$S"
check "... and the process tree" grep -q '^tree=true$' "$S"
run "$TMP/two" --session "$S" --self-test \
	"wait-index; expect-range 4.45 4.95; expect-cursor a 4.7; expect-no-row 44;
	 expect-bookmarks 1 #1; print-tree; quit"
check "the second window, from the session alone: exit 0" test "$(cat "$TMP/two.rc")" = 0
check "the range, cursor A, the hidden row and the bookmark came back" \
	grep -q '^# self-test: 4 checks, 0 failed' "$TMP/two"
check "the process tree came back (the thread 42 under a row)" grep -q '^tree [1-9][0-9]* 42 ' "$TMP/two"
fails_with "--session with --export: usage error" 2 "session" \
	"$gtk" -t "$B" --session "$S" --export "$TMP/x.png"
printf 'not a key file\n[' >"$TMP/bad.session"
run "$TMP/bad" -t "$B" --session "$TMP/bad.session" --self-test "wait-index; expect-lost session; quit"
check "a session that does not read is said in the window" \
	grep -q '^ok - the red bar says "session"' "$TMP/bad"
done_testing
