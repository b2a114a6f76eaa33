#!/bin/sh
# The process tree (issue 30 item 10): key t shows each process under its
# parent and each thread under its process, depth first, siblings in the
# sorted order; t again gives the sorted list back. The tree has the same
# rows as the list; every row at depth d > 0 follows, as the nearest row
# of depth d - 1 above it, its parent (its tgid for a thread, else its
# ppid); a root's parent has no row (init's, the idle tasks'). On
# traces/qemu-busybox, whose lttd has a thread (pid 42, tgid 41).
. "$(dirname "$0")/lib.sh"
B="$TOP/traces/qemu-busybox"

gui_test "process tree"
xvfb-run -a -s "-screen 0 1400x900x24" timeout 120 "$gtk" -t "$B" --self-test \
	"wait-index; print-rows; key t; print-tree; print-rows; screenshot $TMP/tree.png;
	 key t; print-rows; quit" >"$TMP/gui.out" 2>"$TMP/gui.err"
rc=$?
check "lttv-gtk exits 0 (exit $rc)" test "$rc" -eq 0
sed -n 1p "$TMP/gui.out" | cut -c1-200 | sed 's/^/# list: /'
grep '^rows:' "$TMP/gui.out" | sed -n 1p | tr ' ' '\n' | sed 1d | sort >"$TMP/list"
grep '^rows:' "$TMP/gui.out" | sed -n 2p | tr ' ' '\n' | sed 1d | sort >"$TMP/tree"
check "the tree has the rows of the list ($(wc -l <"$TMP/list") rows)" \
	sh -c "test -s '$TMP/list' && cmp -s '$TMP/list' '$TMP/tree'"
check "t again: the sorted list back" \
	sh -c "test \"\$(grep '^rows:' '$TMP/gui.out' | sed -n 1p)\" = \"\$(grep '^rows:' '$TMP/gui.out' | sed -n 3p)\""
grep '^tree ' "$TMP/gui.out" >"$TMP/t"
# tree DEPTH PID PPID TGID: checked against the parent of each row
awk '{ d = $2; pid = $3; up = ($5 && $5 != pid) ? $5 : $4; have[pid] = 1
       if (d > prev + 1) { print "# a jump of depth at pid " pid; bad++ }
       if (d > 0 && at[d - 1] != up) { print "# pid " pid " (up " up ") under " at[d - 1]; bad++ }
       if (d == 0) roots[pid] = up
       at[d] = pid; prev = d; if (d > max) max = d }
     END { for (p in roots) if (roots[p] != 0 && p != 0 && (roots[p] in have)) {
		print "# pid " p " is a root, its parent " roots[p] " has a row"; bad++ }
	   print "# depth up to " max; exit (bad || max < 2) }' "$TMP/t"
_report $? "every row under its parent, a root's parent without a row, nested ($(wc -l <"$TMP/t") rows)"
check "the thread 42 of lttd right under its process 41" \
	awk '$3 == 41 { d = $2; seen = NR } $3 == 42 && seen && $2 == d + 1 { ok = 1 } END { exit !ok }' "$TMP/t"
check "no check failed" grep -q '^# self-test: [0-9]* checks, 0 failed' "$TMP/gui.out"
done_testing
