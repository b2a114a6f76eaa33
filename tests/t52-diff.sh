#!/bin/sh
# Regression diffs of two runs: `lttv-text --stable` prints two runs of one
# workload alike (pids renumbered, addresses hidden); `lttv-diff A B` is a
# regression gate: nothing between runs that differ only in pids and
# addresses, nor between two runs of a busy machine from the same
# generator, nor for one outlier (ltt-tracegen --scenario latency
# --plant-us: the 50th read takes 5000 us more), nor for a name that a run
# makes up (cc1 in one, cc2 in the other: pooled by shape), but every
# write 10 % slower (ltt-tracegen --slow-write-pct 10) flagged, and first.
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

# lttv-diff, a regression gate: keys that survive a rerun, latencies
# compared as distributions (Mann-Whitney U), one outlier no regression, a
# consistent 10 % slowdown of one system call flagged first
check "lttv-diff: a run against itself: exit 0" "$DIFF" "$TMP/a" "$TMP/a"
check "lttv-diff: two runs of the same workload: exit 0" "$DIFF" "$TMP/a" "$TMP/a2"
check "lttv-diff: another run with other pids: exit 0 (processes matched by name)" \
	"$DIFF" "$TMP/a" "$TMP/pids"
grep -q '^same:' "$TMP/out"
check "lttv-diff says \"same\"" test $? -eq 0
"$DIFF" --all --top 0 "$TMP/a" "$TMP/b" >"$TMP/ab" 2>"$TMP/ab.err"
rc=$?
sed 's/^/# /' "$TMP/ab" | head -n 12
# the 50th read takes 5500 us instead of 500: one sample of 100
check "lttv-diff: one planted outlier read is not a regression: exit 0" test "$rc" -eq 0
check "lttv-diff: ... the reads, 100 a side, tested, the same" \
	grep -Eq '^latency syscall read +100 +100 +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.e-]+ same$' "$TMP/ab"
"$DIFF" --all --top 0 "$TMP/a" "$TMP/b" >"$TMP/ab2"
check "lttv-diff: the same answer twice" cmp -s "$TMP/ab" "$TMP/ab2"

# two runs of a busy machine (other seeds: other pids, other descriptors,
# other interleavings), and the second again with every write 10 % slower
"$GEN" --scenario busy --events 200000 --seed 11 -o "$TMP/r1" >/dev/null 2>&1
"$GEN" --scenario busy --events 200000 --seed 12 -o "$TMP/r2" >/dev/null 2>&1
"$GEN" --scenario busy --events 200000 --seed 12 --slow-write-pct 10 -o "$TMP/r2slow" >/dev/null 2>&1
check "three busy runs are written" test -d "$TMP/r1" -a -d "$TMP/r2" -a -d "$TMP/r2slow"
"$DIFF" --all --top 0 "$TMP/r1" "$TMP/r2" >"$TMP/rr"
rc=$?
tail -n 1 "$TMP/rr" | sed 's/^/# /'
check "lttv-diff: two runs of the same generator: nothing flagged, exit 0 (exit $rc)" \
	sh -c "test $rc -eq 0 && grep -q '^0 of [0-9]* figures changed' '$TMP/rr'"
check "lttv-diff: no key names a pid, a descriptor or a rank" \
	sh -c "! grep -Eq '(tgid|fd [0-9]|#[0-9]|pid)' '$TMP/rr'"
check "lttv-diff: every figure has its samples on each side" \
	awk 'NR > 2 && !/ figures changed / && !($(NF - 5) ~ /^[0-9]+$/ || $(NF - 5) == "-") { bad = 1; print }
	     END { exit bad }' "$TMP/rr"
"$DIFF" "$TMP/r1" "$TMP/r2slow" >"$TMP/rs"
rc=$?
sed 's/^/# /' "$TMP/rs"
check "lttv-diff: every write 10 % slower: exit 1" test "$rc" -eq 1
check "lttv-diff: ... flagged first: the write system call, slower, B/A about 1.10" \
	sh -c "sed -n 3p '$TMP/rs' | grep -Eq '^latency syscall write +[0-9]+ +[0-9]+ +[0-9.]+ +[0-9.]+ +1\.(0[89]|1[01])[0-9] +[^ ]+ slower$'"
check "lttv-diff: ... and nothing else" grep -q '^1 of [0-9]* figures changed' "$TMP/rs"
# names a run makes up: r1 again with its compiler called cc2, not cc1
# (the same bytes but one, in the trace files): the same figures under
# keys of one shape, pooled, not gone and new
cp -r "$TMP/r1" "$TMP/r1cc2"
for f in "$TMP"/r1cc2/control/* "$TMP"/r1cc2/cpu_*; do
	LC_ALL=C sed 's/cc1/cc2/g' "$f" >"$f.new" && mv "$f.new" "$f"
done
"$DIFF" --all --top 0 "$TMP/r1" "$TMP/r1cc2" >"$TMP/renamed"
rc=$?
check "lttv-diff: a process renamed cc1 to cc2, nothing else: exit 0 (exit $rc)" test "$rc" -eq 0
check "lttv-diff: ... cc1 and cc2 pooled as cc#, 81 switch-ins a side, the same" \
	grep -Eq '^latency sched cc# +81 +81 +[0-9.]+ +[0-9.]+ +1\.000 +[^ ]+ same$' "$TMP/renamed"
check_fails "lttv-diff: ... neither cc1 nor cc2 left gone or new" grep -Eq ' cc[12] .*(gone|new)$' "$TMP/renamed"
"$DIFF" --min-shift 20 "$TMP/r1" "$TMP/r2slow" >/dev/null
check "lttv-diff --min-shift 20: a 10 % shift is not enough: exit 0" test $? -eq 0
# a key on one side only is gone or new, not a figure of 0
"$DIFF" --top 0 "$TMP/a" "$TMP/r1" >"$TMP/gone"
check "lttv-diff: what only B has is \"new\", what only A has \"gone\"" \
	sh -c "grep -Eq '^latency softirq BLOCK +0 +[0-9]+ +- +[0-9.]+ +- +- new$' '$TMP/gone' &&
	       grep -Eq '^latency file /data/in +100 +0 +[0-9.]+ +- +- +- gone$' '$TMP/gone'"
check_fails "lttv-diff: no 0.00 ratio for what is gone or new" grep -Eq ' 0\.000 .*(gone|new)$' "$TMP/gone"
fails_with "lttv-diff with one trace: usage error" 2 "two traces" "$DIFF" "$TMP/a"
fails_with "lttv-diff with three traces: usage error" 2 "two traces" "$DIFF" "$TMP/a" "$TMP/a" "$TMP/a"
fails_with "lttv-diff on a missing trace: exit 2, names it" 2 "$TMP/none" "$DIFF" "$TMP/a" "$TMP/none"
fails_with "lttv-diff --threshold -1: usage error" 2 "threshold" "$DIFF" --threshold -1 "$TMP/a" "$TMP/b"
fails_with "lttv-diff --alpha 2: usage error" 2 "alpha" "$DIFF" --alpha 2 "$TMP/a" "$TMP/b"
fails_with "lttv-diff --bogus: usage error" 2 "bogus" "$DIFF" --bogus "$TMP/a" "$TMP/b"
done_testing
