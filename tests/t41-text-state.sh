#!/bin/sh
# lttv-text -s and --process-stats on the generated sample trace: the state
# columns name the task that runs on the event's CPU, the table adds up.
. "$(dirname "$0")/lib.sh"

gen="$BIN/ltt-tracegen"
text="$BIN/lttv-text"
if [ ! -x "$gen" ] || [ ! -x "$text" ]; then
	skip "lttv-text state options" "build ltt-tracegen and lttv-text first"
	done_testing
	exit
fi
check "sample trace written" "$gen" --scenario sample -o "$TMP/s"
"$text" -t "$TMP/s" -s >"$TMP/lines" 2>"$TMP/err"
_report $? "lttv-text -s reads the sample"
check "exec line names the new program" \
	grep -q '^fs\.exec: .* pid 2471 tgid 2471 "ls" SYSCALL { "/bin/ls" }' "$TMP/lines"
check "fork line: bash in a system call" \
	grep -q '^process\.fork: .* pid 2404 tgid 2404 "bash" SYSCALL' "$TMP/lines"
check "page fault: trap mode" \
	grep -q '^kernel\.trap_entry: .* "ls" TRAP' "$TMP/lines"
check "idle CPU: the idle task" \
	grep -q '^process\.schedchange: .* cpu 1 pid 0 tgid 0 "swapper/1" USER_MODE' "$TMP/lines"
check "every line has the state columns" \
	sh -c "! grep -v ' pid [0-9?]* tgid [0-9?]* \"' '$TMP/lines'"
check "with --begin, the state still comes from the start of the trace" \
	sh -c "'$text' -t '$TMP/s' -s -r --begin 1.75 -e 'kernel_arch.syscall*' | grep -q ' pid 2404 tgid 2404 \"bash\"'"

"$text" -t "$TMP/s" -q --process-stats >"$TMP/ps" 2>"$TMP/err"
_report $? "--process-stats runs"
check "table lists bash" grep -q '^ *2404 *2404 bash ' "$TMP/ps"
check "table lists the four commands" \
	sh -c "grep -c '^ *247[1-4] ' '$TMP/ps' | grep -qx 4"
# the kernel writes a kernel thread's fork, then its process.kernel_thread:
# one task, the forked one (named after its parent), not a second of that pid
kt=$(sed -n 's/^process\.kernel_thread: .*{ \([0-9]*\),.*/\1/p' "$TMP/lines" | head -n 1)
check "the kernel thread $kt: one row, the child kthread forked" \
	sh -c "[ -n '$kt' ] && grep -c '^ *$kt *$kt ' '$TMP/ps' | grep -qx 1 &&
	       grep -q '^ *$kt *$kt kthread ' '$TMP/ps'"
# the total row is the sum of the rows (to the microsecond, rounding aside),
# the idle column too; with the idle loops, the whole span of both CPUs
check "total row adds up" awk '
	$1 == "all" { tot = $NF; idle = $(NF - 1); next }
	$1 ~ /^[0-9]+$/ { sum += $NF; isum += $(NF - 1) }
	END { d = sum - tot; if (d < 0) d = -d; e = isum - idle; if (e < 0) e = -e
	      exit !(tot + idle > 3.9 && d < 0.0001 && e < 0.0001) }' "$TMP/ps"
check "an idle task's idle loop is idle, not user time (no user time for pid 0)" awk '
	$1 == "0" && $4 != "0.000000" { bad = 1 } $1 == "0" && $(NF - 1) != "0.000000" { idle = 1 }
	END { exit bad || !idle }' "$TMP/ps"

# the model's limits are said, not silent: a CPU above 4095 (lttv-text -s,
# --process-stats and lttv-gtk's Statistics say so)
if "$TOP/$BUILD/tests/test_state" --write-limits "$TMP/lim" >/dev/null 2>&1; then
	"$BIN/lttv-text" -t "$TMP/lim" -q -s >/dev/null 2>"$TMP/lim.err"
	st=$?
	check "lttv-text -s: the 2 events of CPU 4100 are said to be ignored" \
		grep -q 'ignored 2 events: cpu 4100: the model follows CPUs 0..4095' "$TMP/lim.err"
	check "lttv-text -s: and its exit status says the figures miss events (3, got $st)" test "$st" = 3
	"$BIN/lttv-text" -t "$TMP/lim" -q --process-stats >/dev/null 2>&1
	st=$?
	check "lttv-text --process-stats: exit 3 too (got $st)" test "$st" = 3
	(unset DISPLAY WAYLAND_DISPLAY; "$BIN/lttv-gtk" -t "$TMP/lim" --stats >"$TMP/lim.st" 2>&1)
	st=$?
	check "lttv-gtk --stats: the Statistics tab says so too" \
		grep -q 'ignored 2 events: cpu 4100' "$TMP/lim.st"
	check "lttv-gtk --stats: exit 3 (got $st)" test "$st" = 3
else
	skip "the model's limits" "test_state --write-limits failed (make tests)"
fi
done_testing
