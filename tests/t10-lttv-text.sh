#!/bin/sh
# lttv-text on synthetic traces: line format, time order, options, merging,
# and clear errors with the documented exit statuses.
. "$(dirname "$0")/lib.sh"
TEXT="$BIN/lttv-text"
GEN="$BIN/ltt-tracegen"

"$GEN" --scenario sample -o "$TMP/s" >/dev/null 2>&1
"$GEN" --scenario types -o "$TMP/types" >/dev/null 2>&1

check "sample trace decodes (exit 0)" "$TEXT" -t "$TMP/s" -o "$TMP/all.txt"
lines=$(wc -l <"$TMP/all.txt")
check "sample trace has thousands of events ($lines)" test "$lines" -gt 1000

# facility.event: SEC.NSEC (tracefile) cpu N[ { fields }]
bad=$(grep -Evc '^[a-z_]+\.[a-z_]+: [0-9]+\.[0-9]{9} \([a-z/_-]+_[0-9]+\) cpu [0-9]+( \{ .* \})?$' "$TMP/all.txt")
check "every line has the documented format" test "$bad" -eq 0

awk '{ t = $2 + 0; if (t < last) bad++; last = t } END { exit bad > 0 }' "$TMP/all.txt"
check "events are in time order across CPUs and channels" test $? -eq 0

"$TEXT" -t "$TMP/s" -q -S >"$TMP/summary.txt"
total=$(awk '/^ *[0-9]+  /{ s += $1 } END { print s }' "$TMP/summary.txt")
check "the per-type summary adds up to the lines printed ($total)" test "$total" -eq "$lines"

"$TEXT" -t "$TMP/s" -q -c >"$TMP/cpu.txt"
check "per-CPU statistics list cpu 0 and cpu 1" grep -q '^cpu 1: [0-9]* events' "$TMP/cpu.txt"

"$TEXT" -t "$TMP/s" -e 'process.*' -e 'fs.exec' >"$TMP/proc.txt"
check "event filter keeps only matching events" \
	sh -c "test -s '$TMP/proc.txt' && ! grep -Ev '^(process\.[a-z_]+|fs\.exec):' '$TMP/proc.txt'"
check "event filter keeps all of them" \
	test "$(wc -l <"$TMP/proc.txt")" -eq "$(grep -Ec '^(process\.[a-z_]+|fs\.exec):' "$TMP/all.txt")"

# a pattern without a dot names the event in any facility (the viewer's
# event.name), and one that matches no event type is said, not silent
"$TEXT" -t "$TMP/s" -e fork -e 'exe*' 2>"$TMP/dotless.err" >"$TMP/dotless.txt"
check "-e fork -e 'exe*': every fork and exec of any facility" \
	test "$(wc -l <"$TMP/dotless.txt")" -eq "$(grep -Ec '^[a-z_]+\.(fork|exe[a-z_]*):' "$TMP/all.txt")"
check "-e fork: some events" grep -q '^process\.fork:' "$TMP/dotless.txt"
check "-e fork: nothing else" sh -c "! grep -Ev '^[a-z_]+\.(fork|exe[a-z_]*):' '$TMP/dotless.txt'"
check "-e fork: no warning" sh -c "! test -s '$TMP/dotless.err'"
"$TEXT" -t "$TMP/s" -e frok -e 'process.nope*' -e 'process.fork' >"$TMP/nomatch.txt" 2>"$TMP/nomatch.err"
check "-e matching no event type: a warning names it" \
	sh -c "grep -q \"-e 'frok' matches no event type\" '$TMP/nomatch.err' &&
	       grep -q \"-e 'process.nope\\*' matches no event type\" '$TMP/nomatch.err'"
check "-e: the other patterns still apply" grep -q '^process\.fork:' "$TMP/nomatch.txt"

first=$(sed -n '100p' "$TMP/all.txt" | awk '{ print $2 }')
last=$(sed -n '200p' "$TMP/all.txt" | awk '{ print $2 }')
"$TEXT" -t "$TMP/s" --begin "$first" --end "$last" >"$TMP/win.txt"
check "time window: only events inside [begin, end]" \
	awk -v b="$first" -v e="$last" '{ if ($2 + 0 < b + 0 || $2 + 0 > e + 0) exit 1 }' "$TMP/win.txt"
want=$(awk -v b="$first" -v e="$last" '$2 >= b && $2 <= e' "$TMP/all.txt" | wc -l)
check "time window: every event inside (want $want)" test "$(wc -l <"$TMP/win.txt")" -eq "$want"

"$TEXT" -t "$TMP/s" --relative >"$TMP/rel.txt"
check "relative times start near zero" \
	awk 'NR == 1 { exit !($2 + 0 >= 0 && $2 + 0 < 1) }' "$TMP/rel.txt"
"$TEXT" -t "$TMP/s" --relative --begin 1 --end 1.5 >"$TMP/relwin.txt"
check "relative window uses relative times" \
	awk 'END { exit !(NR > 0) } { if ($2 + 0 < 1 || $2 + 0 > 1.5) exit 1 }' "$TMP/relwin.txt"
"$TEXT" -t "$TMP/s" --cycles >"$TMP/cyc.txt"
check "--cycles prints integer cycle counts" \
	awk '{ if ($2 !~ /^[0-9]+$/) exit 1 }' "$TMP/cyc.txt"

"$TEXT" -t "$TMP/s" --field-names >"$TMP/names.txt"
check "--field-names shows name = value" grep -q 'process.fork: .*{ parent_pid = [0-9]*, child_pid = [0-9]*, child_tgid = [0-9]* }' "$TMP/names.txt"
check "enums are shown by label" grep -q 'out_state = [A-Z_]*' "$TMP/names.txt"
check "strings are quoted" grep -q 'name = "init"' "$TMP/names.txt"

"$TEXT" -t "$TMP/s" -t "$TMP/s" >"$TMP/two.txt"
check "two traces merge into one time line" test "$(wc -l <"$TMP/two.txt")" -eq $((2 * lines))

check "the types scenario decodes every field type" "$TEXT" -t "$TMP/types" -n -o "$TMP/types.txt"
check "nested values are printed" grep -q '\[ .* \]' "$TMP/types.txt"

# errors: message on stderr, documented status, no crash
check_status() { # want what cmd...
	want=$1 what=$2; shift 2
	"$@" >"$TMP/o" 2>"$TMP/e"
	rc=$?
	if [ "$rc" -eq "$want" ] && [ -s "$TMP/e" ] && [ "$(wc -l <"$TMP/e")" -le 3 ]; then
		_report 0 "$what"
	else
		_report 1 "$what (exit $rc, want $want)"
		sed 's/^/#   /' "$TMP/e" | head -5
	fi
}
check_status 2 "no -t: usage error (2)" "$TEXT"
check_status 2 "unknown option: usage error (2)" "$TEXT" -t "$TMP/s" --bogus
check_status 2 "bad time: usage error (2)" "$TEXT" -t "$TMP/s" --begin 12x
check_status 2 "end before begin: usage error (2)" "$TEXT" -t "$TMP/s" --begin 5 --end 4
check_status 2 "stray argument: usage error (2)" "$TEXT" "$TMP/s"
check_status 1 "missing trace: error (1)" "$TEXT" -t "$TMP/nonexistent"
check_status 1 "a file, not a trace dir: error (1)" "$TEXT" -t "$TMP/all.txt"
mkdir -p "$TMP/empty"
check_status 1 "a directory without tracefiles: error (1)" "$TEXT" -t "$TMP/empty"
check_status 1 "unwritable output: error (1)" "$TEXT" -t "$TMP/s" -o /nonexistent/dir/out.txt
grep -q "nonexistent" "$TMP/e"
check "errors name what failed" test $? -eq 0

# An empty tracefile (lttd got no sub-buffer from that channel; the tracer
# hands over at least its header) is named in a warning; the rest reads.
R="$TOP/traces/qemu-busybox"
if [ -d "$R" ]; then
	"$TEXT" -t "$R" >"$TMP/r.txt" 2>"$TMP/r.err"
	check "the recorded trace has no empty tracefile, and no such warning" \
		sh -c "! find '$R' -type f -size 0 | grep -q . && ! grep -q 'empty tracefile' '$TMP/r.err'"
	cp -r "$R" "$TMP/e1"
	: >"$TMP/e1/cpu_1"
	"$TEXT" -t "$TMP/e1" >"$TMP/e1.txt" 2>"$TMP/e1.err"
	rc=$?
	check "an empty cpu_1: still read, exit 0 (was $rc)" test "$rc" -eq 0
	check "an empty cpu_1: a warning names it" \
		grep -qx "lttv-text: warning: $TMP/e1: cpu_1: empty tracefile (0 bytes): no event from it" "$TMP/e1.err"
	check "an empty cpu_1: one line of warning" test "$(wc -l <"$TMP/e1.err")" -eq 1
	grep -v ' (cpu_1) ' "$TMP/r.txt" >"$TMP/r-no1.txt"
	check "an empty cpu_1: every other event, unchanged" cmp "$TMP/r-no1.txt" "$TMP/e1.txt"
	check "   ... (cpu_1 had events)" test "$(wc -l <"$TMP/r-no1.txt")" -lt "$(wc -l <"$TMP/r.txt")"
	: >"$TMP/e1/control/modules_0"
	"$TEXT" -t "$TMP/e1" -q 2>"$TMP/e2.err"
	check "two empty tracefiles: one warning names both" \
		grep -q "$TMP/e1: 2 empty tracefiles (0 bytes): no event from them: cpu_1, control/modules_0\$" "$TMP/e2.err"
else
	skip "an empty tracefile is named" "no $R"
fi

done_testing
