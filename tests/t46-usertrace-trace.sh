#!/bin/sh
# The user-space tracing example in a real trace of our kernel
# (traces/qemu-usertrace, see traces/README): its typed events decoded
# with the XML the trace carries, inside the process the state engine
# knows (forked by the shell, named by its exec), between the shell's
# /proc/ltt_user_generic markers, and listed by --process-stats.
# tests/t11-regression.sh compares the whole dump with its .expected.
. "$(dirname "$0")/lib.sh"

trace="$TOP/traces/qemu-usertrace"
text="$BIN/lttv-text"
EX="$TOP/libltt-usertrace/examples"
if [ ! -d "$trace" ]; then
	skip "real user-space trace" "traces/qemu-usertrace is not there"
	done_testing
	exit
fi
if [ ! -x "$text" ] || [ ! -x "$BIN/ltt-checksum" ]; then
	skip "real user-space trace" "build lttv-text and ltt-checksum first (make)"
	done_testing
	exit
fi

# -- decoding: the example's description comes from the trace's eventdefs/ ---
"$text" -t "$trace" -n -s >"$TMP/s" 2>"$TMP/err"
_report $? "lttv-text -s decodes the trace without -f"
check "no warning" test ! -s "$TMP/err"
sum=$("$BIN/ltt-checksum" "$trace/eventdefs/usertrace_example.xml" | awk '{ print $2 }')
tree_sum=$("$BIN/ltt-checksum" "$EX/usertrace_example.xml" | awk '{ print $2 }')
check "eventdefs/ holds the tree's example description (checksum '$sum', tree '$tree_sum')" \
	test -n "$sum" -a "$sum" = "$tree_sum"
check "core.facility_load: usertrace_example with its XML's checksum ($sum)" \
	grep -Eq "^core\\.facility_load: .*\\{ name = \"usertrace_example\", checksum = $(printf %u "$sum")," "$TMP/s"

# -- the example's process, as the state engine sees it -----------------------
# the pid comes from the trace: the process that executed the example
X=$(sed -n 's|^fs\.exec: .* pid \([0-9]*\) tgid [0-9]* .*{ filename = "/usr/bin/usertrace-example" }$|\1|p' "$TMP/s")
check "one exec of /usr/bin/usertrace-example (pid '$X')" test -n "$X" -a "$(echo "$X" | wc -l)" = 1
check "the shell (sh) forked it: process.fork { child_pid = $X }" \
	grep -Eq "^process\\.fork: .* \"sh\" [A-Z_]+ \\{ parent_pid = [0-9]+, child_pid = $X, child_tgid = $X \\}" "$TMP/s"

grep '^usertrace_example\.hello: ' "$TMP/s" >"$TMP/hello"
hello_fields() {
	for i in 1 2 3; do
		echo "{ count = $i, delta = -${i}000, small = -$i, word = \"hello $i\", values = [ $i, $((2 * i)), $((3 * i)) ] }"
	done | diff - "$TMP/hello.fields"
}
sed 's/.*{ /{ /' "$TMP/hello" >"$TMP/hello.fields"
check "usertrace_example.hello: 3 events, exact field values, in order" hello_fields
check "every hello is written by pid $X, named usertrace-example, in a system call" sh -c "
	test \$(grep -c ' pid $X tgid $X \"usertrace-example\" SYSCALL { ' '$TMP/hello') = 3"
id=$(sed -n 's/^core\.facility_load: .*{ name = "usertrace_example", checksum = [0-9]*, id = \([0-9]*\),.*/\1/p' "$TMP/s")
check "the facility (id '$id') is loaded by pid $X and unloaded at its exit" sh -c "
	grep -Eq '^core\\.facility_load: .* pid $X .*name = \"usertrace_example\"' '$TMP/s' &&
	grep -Eq '^core\\.facility_unload: .* pid $X .*\\{ id = $id \\}' '$TMP/s'"
order() { # the session's steps, in time order
	grep -E '^(user_generic\.string|fs\.exec: .*usertrace-example|core\.facility_(un)?load: .* pid '"$X"' |usertrace_example\.hello|process\.exit: .*\{ pid = '"$X"' \})' "$TMP/s" |
		sed -e 's/^\([a-z_.]*\):.*{ data = "\(.*\)\\n" }$/\1 \2/' \
		    -e 's/^\([a-z_.]*\):.*{ count = \([0-9]*\),.*/\1 \2/' -e 's/^\([a-z_.]*\):.*/\1/' >"$TMP/order"
	diff - "$TMP/order" <<'EOF'
user_generic.string usertrace: begin
user_generic.string loop 1
user_generic.string loop 2
fs.exec
core.facility_load
usertrace_example.hello 1
usertrace_example.hello 2
usertrace_example.hello 3
core.facility_unload
process.exit
user_generic.string usertrace: end
EOF
}
check "in order: markers, exec, facility load, 3 hellos, unload, exit, end marker" order
check "the shell's markers are written by sh" sh -c "
	test \$(grep -c '^user_generic\\.string: .* \"sh\" SYSCALL { data = ' '$TMP/s') = 4"

# -- the statistics -----------------------------------------------------------------
"$text" -t "$trace" -q --process-stats >"$TMP/ps" 2>"$TMP/err"
_report $? "lttv-text --process-stats reads the trace"
# rows: pid tgid name user syscall trap irq softirq unknown idle total
check "--process-stats: pid $X usertrace-example, user and system call time, none unknown" awk -v x="$X" '
	$1 == x && $2 == x && $3 == "usertrace-example" && $4 > 0 && $5 > 0 && $9 == "0.000000" { ok = 1 }
	END { exit !ok }' "$TMP/ps"
check "--process-stats: the session's commands (sh, ls, cat, sleep, lttctl, lttd)" sh -c "
	for c in sh ls cat sleep lttctl lttd; do grep -q \" \$c  *[0-9]\" '$TMP/ps' || exit 1; done"
check "the pipe: ls and cat twice each (two turns of the loop)" sh -c "
	test \$(grep -c ' ls  *[0-9]' '$TMP/ps') = 2 && test \$(grep -c ' cat  *[0-9]' '$TMP/ps') = 2"
check "--cpu-stats: nothing lost" sh -c "
	'$text' -t '$trace' -c -q >'$TMP/c' && grep -q '^total: ' '$TMP/c' && ! grep -Eq '[1-9][0-9]* lost' '$TMP/c'"
done_testing
