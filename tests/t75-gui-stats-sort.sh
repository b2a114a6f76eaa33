#!/bin/sh
# The Statistics tab's tables sort on a click: each of stats-calc.c's
# tables (CPU time per process, events per type, CPU and process) is a
# table whose header a click sorts by, numbers as numbers (1059 after 312),
# a second click reverses, the "all" row stays last; the order a user
# chose survives the next computation (the tab follows the view). The
# first order is the text's (lttv-gtk --stats), and the rows are its rows.
# On traces/qemu-busybox; a screenshot of the tab in $TMP/stats.png.
. "$(dirname "$0")/lib.sh"
B="$TOP/traces/qemu-busybox"

gui_test "statistics tables"
"$gtk" -t "$B" --stats 2>/dev/null >"$TMP/text"
# the text's rows as the tab shows them: cells joined by one space
row() { tr -s ' ' | sed 's/^ //'; }
top_type=$(sed -n '/^Events per type/{n;p;q}' "$TMP/text" | row)
# the row with the most system call time (column 5 of the text's table)
top_sys=$(sed -n '/^CPU time per process/,/ all /p' "$TMP/text" |
	awk 'NF == 11 && $1 ~ /^[0-9]+$/' | sort -k5,5gr | head -n 1 | row)
check "lttv-gtk --stats: a type and a process ($top_type; $top_sys)" \
	sh -c "test -n '$top_type' && test -n '$top_sys'"

xvfb-run -a -s "-screen 0 1400x1000x24" timeout 120 "$gtk" -t "$B" --self-test \
	"wait-index; view statistics; wait-stats;
	 expect-stats-sorted cpu-time total desc; expect-stats-sorted types events desc;
	 stats-click types events; expect-stats-sorted types events asc;
	 stats-click types events; expect-stats-sorted types events desc;
	 stats-click cpu-time syscall; expect-stats-sorted cpu-time syscall asc;
	 stats-click cpu-time syscall; expect-stats-sorted cpu-time syscall desc;
	 stats-click processes pid; expect-stats-sorted processes pid asc;
	 stats-click cpus events; expect-stats-sorted cpus events asc;
	 range 4.5..5.0; sleep 400; wait-stats; expect-stats Range 4.500000000 .. 5.000000000 s;
	 expect-stats-sorted cpu-time syscall desc; expect-stats-sorted processes pid asc;
	 screenshot $TMP/stats.png; quit" >"$TMP/gui.out" 2>"$TMP/gui.err"
rc=$?
sed 's/^/# /' "$TMP/gui.out" | grep -v '^# # '
check "lttv-gtk exits 0 (exit $rc)" test "$rc" -eq 0
ok() { grep -q "^ok - statistics $1 sorted by $2 $3 " "$TMP/gui.out"; }
check "first, the text's order: busiest first" \
	sh -c "grep -q '^ok - statistics types sorted by events desc (first row: $top_type)' '$TMP/gui.out' &&
	       grep -q '^ok - statistics cpu-time sorted by total desc ' '$TMP/gui.out'"
clicked=1
for s in "types events asc" "types events desc" "cpu-time syscall asc" "cpus events asc" \
	 "processes pid asc"; do
	# shellcheck disable=SC2086
	ok $s || clicked=0
done
check "a click on a header sorts by its numbers, as numbers; a second reverses" \
	test "$clicked" -eq 1
check "the most system call time first, as the text says ($top_sys)" \
	grep -q "^ok - statistics cpu-time sorted by syscall desc (first row: $top_sys)" "$TMP/gui.out"
check "the order chosen survives the next computation (the view moved)" \
	test "$(grep -c '^ok - statistics cpu-time sorted by syscall desc' "$TMP/gui.out")" -eq 2
check "no check failed" grep -q '^# self-test: [0-9]* checks, 0 failed' "$TMP/gui.out"
done_testing
