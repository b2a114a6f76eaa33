#!/bin/sh
# Regression diffs of two runs: `lttv-text --stable` prints two runs of one
# workload alike (pids renumbered, addresses hidden), and `lttv-diff A B`
# finds a latency planted in B (ltt-tracegen --scenario latency --plant-us:
# the 50th read takes 5000 us more, 5500 us instead of 500) and nothing
# else, nor anything between runs that differ only in pids and addresses.
. "$(dirname "$0")/lib.sh"
TEXT="$BIN/lttv-text"
DIFF="$BIN/lttv-diff"
GEN="$BIN/ltt-tracegen"

"$GEN" --scenario latency -o "$TMP/a" >/dev/null 2>&1
"$GEN" --scenario latency -o "$TMP/a2" >/dev/null 2>&1
"$GEN" --scenario latency --pid-offset 7 -o "$TMP/pids" >/dev/null 2>&1
"$GEN" --scenario latency --plant-us 5000 -o "$TMP/b" >/dev/null 2>&1
check "the four traces are written" test -d "$TMP/a" -a -d "$TMP/a2" -a -d "$TMP/pids" -a -d "$TMP/b"

# --stable
# (each from inside its folder: the warnings name the trace as given)
(cd "$TMP/a" && "$TEXT" -t . --stable -s) >"$TMP/a.st" 2>&1
(cd "$TMP/pids" && "$TEXT" -t . --stable -s) >"$TMP/pids.st" 2>&1
check "--stable: another run with other pids and addresses prints the same" \
	cmp -s "$TMP/a.st" "$TMP/pids.st"
check_fails "without --stable the two runs differ" sh -c \
	"'$TEXT' -t '$TMP/a' -r >'$TMP/a.raw'; '$TEXT' -t '$TMP/pids' -r | cmp -s - '$TMP/a.raw'"
check_fails "--stable --addresses keeps the addresses, which differ" sh -c \
	"'$TEXT' -t '$TMP/a' --stable --addresses >'$TMP/a.ad'; '$TEXT' -t '$TMP/pids' --stable --addresses | cmp -s - '$TMP/a.ad'"
check "--stable: times from the trace start" \
	grep -q '^process.schedchange: 0.001000000 (cpu_0) cpu 0' "$TMP/a.st"
# server (pid 100, or 107) is the second pid to appear after init (1): in
# the state dump, init, server, client, hog
check "--stable: pids renumbered in order of appearance (server is 2)" \
	grep -q '^process.schedchange: 0.001000000 (cpu_0) cpu 0 pid 2 tgid 2 "server" .*{ out = 0, in = 2, out_state = RUNNING }' "$TMP/a.st"
check "--stable: pointers hidden" grep -q 'address = 0x?' "$TMP/a.st"
check_fails "--stable: no pointer value left" grep -q 'address = 0x[0-9a-f]' "$TMP/a.st"
"$TEXT" -t "$TMP/a" --stable -q --syscalls --schedlat --worst 1 >"$TMP/a.an"
"$TEXT" -t "$TMP/pids" --stable -q --syscalls --schedlat --worst 1 >"$TMP/pids.an"
check "--stable: the analyses' tables of the two runs are the same" \
	cmp -s "$TMP/a.an" "$TMP/pids.an"
check "--stable: the tables use the renumbered pids" grep -q '^3 client ' "$TMP/a.an"
"$TEXT" -t "$TMP/b" --stable -s >"$TMP/b.st" 2>&1
diff "$TMP/a.st" "$TMP/b.st" >"$TMP/ab.diff"
# the 50th read begins at 1007 + sum(10k + 5, k < 50) = 13502 us and ends
# 500 us later, or 5500 us later in the planted run
check "--stable: the diff of the planted run begins at the 50th read's exit (0.014002000)" \
	sh -c "grep -m1 '^[<>]' '$TMP/ab.diff' | grep -q '^< kernel_arch.syscall_exit: 0.014002000'"
check "--stable: ... where the planted run says 0.019002000" \
	grep -q '^> kernel_arch.syscall_exit: 0.019002000' "$TMP/ab.diff"

# lttv-diff
check "lttv-diff: a run against itself: exit 0" "$DIFF" "$TMP/a" "$TMP/a"
check "lttv-diff: two runs of the same workload: exit 0" "$DIFF" "$TMP/a" "$TMP/a2"
check "lttv-diff: another run with other pids: exit 0 (processes matched by name)" \
	"$DIFF" "$TMP/a" "$TMP/pids"
grep -q '^same:' "$TMP/out"
check "lttv-diff says \"same\"" test $? -eq 0
"$DIFF" "$TMP/a" "$TMP/b" >"$TMP/ab" 2>"$TMP/ab.err"
rc=$?
check "lttv-diff: the planted latency: exit 1" test "$rc" -eq 1
sed 's/^/# /' "$TMP/ab"
check "lttv-diff: says \"changed\"" grep -q '^changed:' "$TMP/ab"
# the longest read goes from 1000 us to 5500 us: B/A 5.50, in the system
# calls and in the file's reads; nothing else moves by 25 % and 50 us
check "lttv-diff: first-ranked: the maximum of read or of /data/in's reads, 1000 -> 5500 us" \
	sh -c "sed -n 3p '$TMP/ab' | grep -Eq '^(syscall read max|file /data/in max) +1000.000 +5500.000 +5.50$'"
check "lttv-diff: the other one of the two next" \
	sh -c "sed -n 4p '$TMP/ab' | grep -Eq '^(syscall read max|file /data/in max) +1000.000 +5500.000 +5.50$'"
check "lttv-diff: exactly 2 figures changed" grep -q '^2 of [0-9]* figures changed' "$TMP/ab"
"$DIFF" "$TMP/b" "$TMP/a" >"$TMP/ba"
check "lttv-diff: B against A: exit 1 too" test $? -eq 1
check "lttv-diff: B/A 0.18 the other way" grep -Eq '^syscall read max +5500.000 +1000.000 +0.18$' "$TMP/ba"
"$DIFF" --threshold 600 "$TMP/a" "$TMP/b" >/dev/null
check "lttv-diff --threshold 600: a 5.5x change is not enough: exit 0" test $? -eq 0
"$DIFF" --min-ns 10000000 "$TMP/a" "$TMP/b" >/dev/null
check "lttv-diff --min-ns 10 ms: 4.5 ms is noise: exit 0" test $? -eq 0
"$DIFF" --all --top 0 "$TMP/a" "$TMP/a2" >"$TMP/all"
check "lttv-diff --all lists unchanged figures too" \
	grep -Eq '^sched client#1 p99 +1000.000 +1000.000 +1.00$' "$TMP/all"
fails_with "lttv-diff with one trace: usage error" 2 "two traces" "$DIFF" "$TMP/a"
fails_with "lttv-diff with three traces: usage error" 2 "two traces" "$DIFF" "$TMP/a" "$TMP/a" "$TMP/a"
fails_with "lttv-diff on a missing trace: exit 2, names it" 2 "$TMP/none" "$DIFF" "$TMP/a" "$TMP/none"
fails_with "lttv-diff --threshold -1: usage error" 2 "threshold" "$DIFF" --threshold -1 "$TMP/a" "$TMP/b"
fails_with "lttv-diff --bogus: usage error" 2 "bogus" "$DIFF" --bogus "$TMP/a" "$TMP/b"
done_testing
