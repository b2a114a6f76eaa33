#!/bin/sh
# The filter language of lttv-gtk (lttv-gtk --filter EXPR prints what the
# event list would keep) on the known schedule of tests/unit/test_state.c:
# names, facilities, CPUs, state (pid, process name, mode), field values,
# enum labels, time, and/or/not/parentheses; parse errors at their column.
. "$(dirname "$0")/lib.sh"

gtk="$BIN/lttv-gtk"
writer="$TOP/$BUILD/tests/test_state"
if [ ! -x "$gtk" ] || [ ! -x "$writer" ]; then
	skip "filter" "build lttv-gtk and the unit tests first"
	done_testing
	exit
fi
unset DISPLAY
# run alone: the suppressions tests/run.sh uses (fontconfig's caches)
case ${LSAN_OPTIONS:-} in *suppressions=*) ;; *)
	export LSAN_OPTIONS="suppressions=$TOP/tests/lsan.supp:print_suppressions=0" ;;
esac
check "known schedule written" "$writer" --write-trace "$TMP/k"

matches() { # expected-count expression
	"$gtk" -t "$TMP/k" --filter "$2" >"$TMP/f.out" 2>"$TMP/f.err" &&
		grep -qx "$1 events match" "$TMP/f.out"
}
count_is() { # what count expr
	if matches "$2" "$3"; then
		_report 0 "$1: $3"
	else
		_report 1 "$1: $3"
		sed 's/^/#   /' "$TMP/f.out" "$TMP/f.err" | tail -n 5
	fi
}

count_is "event name" 6 "event.name = schedchange"
# (the kernel's events: kernel, and kernel_arch's system calls)
count_is "facility and state" 4 "state.process_name = ls and (event.facility = kernel or event.facility = kernel_arch)"
count_is "facility, cpu, not" 9 "(event.facility = kernel or event.facility = kernel_arch) and not cpu = 1"
count_is "or and parentheses" 3 "(event.name = fork or event.name = exec) or event.name = free"
count_is "state pid (idle task; the state dump on CPU 0 too)" 3 "irq_id = 0 and state.pid = 0"
count_is "enum label" 1 "out_state = EXIT_ZOMBIE"
count_is "enum value" 1 "out_state = 16"
count_is "string field" 1 'filename = "/bin/ls"'
count_is "prefix match" 9 "event.name = sys*"
count_is "number comparison" 3 "syscall_id >= 59"
count_is "time in seconds from the start" 7 "event.time >= 0.000009 and event.time < 0.00001"
count_is "mode of the running task" 3 "state.mode = TRAP or state.mode = SOFTIRQ or state.mode = IRQ and cpu = 1"
count_is "a field this event lacks is false" 0 "event.name = schedchange and filename = x"
count_is "system call by name (syscall = syscall_id)" 1 "syscall = execve"
count_is "system call by number" 1 "syscall_id = 59"
count_is "trap by name" 1 "trap = page_fault and event.name = trap_entry"
count_is "!= and <" 1 "event.name != schedchange and state.tgid < 50 and event.facility = process"

fails_at() { # column expression
	"$gtk" -t "$TMP/k" --filter "$2" >"$TMP/f.out" 2>"$TMP/f.err"
	rc=$?
	if [ $rc -eq 2 ] && grep -q "column $1:" "$TMP/f.err"; then
		_report 0 "error at column $1: $2"
	else
		_report 1 "error at column $1: $2 (exit $rc)"
		sed 's/^/#   /' "$TMP/f.err"
	fi
}
fails_at 13 "event.name ="
fails_at 12 "event.name schedchange"
fails_at 5 "not (cpu = 0 or cpu = 1"
fails_at 1 "event.nam = x"
fails_at 7 "cpu = zero"
fails_at 31 "event.name = fork and cpu = 1 2"
# a name no event has is a typo, not an empty result
fails_at 1 "nosuchfield = 1"
fails_at 22 "event.name = fork or filname = x"
check "the unknown field is named" grep -q 'unknown field "filname"' "$TMP/f.err"
# names from the trace's own state dump: IRQ 0 is "timer" in the sample
st="$TOP/traces/sample-synthetic"
n=$("$BIN/lttv-text" -t "$st" | grep -c 'kernel.irq_entry: .*{ 0 \[timer\],')
"$gtk" -t "$st" --filter "irq = timer" 2>/dev/null | tail -n 1 >"$TMP/f.out"
check "IRQ by its state dump name: irq = timer matches the $n entries of IRQ 0" \
	grep -qx "$n events match" "$TMP/f.out"
# nesting and length are bounded: an error, never a stack overflow
deep=$(awk 'BEGIN { for (i = 0; i < 100000; i++) printf "("; printf "cpu = 0" }')
fails_with "100000 parentheses: an error" 2 "nested too deep" "$gtk" -t "$TMP/k" --filter "$deep"
deep=$(awk 'BEGIN { for (i = 0; i < 20000; i++) printf "not "; printf "cpu = 0" }')
fails_with "20000 nots: an error" 2 "nested too deep" "$gtk" -t "$TMP/k" --filter "$deep"
long=$(awk 'BEGIN { for (i = 0; i < 5000; i++) printf "cpu=0 or "; printf "cpu = 0" }')
fails_with "5001 comparisons: an error" 2 "too many comparisons" "$gtk" -t "$TMP/k" --filter "$long"
# 64-bit integers compare exactly: types-synthetic's all_types events hold
# consecutive 64-bit values (each twice), which a double cannot tell apart
tt="$TOP/traces/types-synthetic"
exact() { # count expr
	"$gtk" -t "$tt" --filter "$2" 2>/dev/null | tail -n 1 >"$TMP/f.out"
	if grep -qx "$1 events match" "$TMP/f.out"; then
		_report 0 "64-bit exact: $2 matches $1"
	else
		_report 1 "64-bit exact: $2 matches $1 (got: $(cat "$TMP/f.out"))"
	fi
}
exact 2 "ptr = 0xffffffff80100001"
exact 1 "ptr = 0xffffffff8010001a"
exact 2 "u64 = 18446744073709551614"
exact 1 "u64 = 18446744073709551600"
exact 2 "i64 = -9223372036854775807"
exact 4 "i64 < -9223372036854775806"
exact 2 "u64 > 18446744073709551614"
# 300 random expressions: well-formed ones (comparisons joined by and/or,
# with not and parentheses) and token salads; each must be parsed or
# refused (exit 0 or 2), never crash or upset a sanitizer
awk 'BEGIN { srand(42);
	nn = split("event.name event.facility cpu state.pid state.process_name " \
		"state.mode event.time fd field.filename out_state", name, " ");
	no = split("= != < > <= >=", op, " ");
	nv = split("schedchange kernel 0 1 2404 ls \"/bin/ls\" 0x10 sys* TRAP 0.000005 " \
		"EXIT_ZOMBIE", val, " ");
	nt = split("event.name cpu = != < ( ) and or not \" 12 . == x*", tok, " ");
	for (i = 0; i < 300; i++) {
		s = "";
		if (rand() < 0.6) {
			k = 1 + int(rand() * 4);
			for (j = 0; j < k; j++) {
				c = name[int(rand() * nn) + 1] " " op[int(rand() * no) + 1] " " \
				    val[int(rand() * nv) + 1];
				if (rand() < 0.3) c = "not " c;
				if (rand() < 0.3) c = "(" c ")";
				s = s (j ? (rand() < 0.5 ? " and " : " or ") : "") c;
			}
		} else {
			k = int(rand() * 9);
			for (j = 0; j < k; j++)
				s = s tok[int(rand() * nt) + 1] (rand() < 0.7 ? " " : "");
		}
		print s
	} }' >"$TMP/exprs"
bad=0 parsed=0 refused=0
while IFS= read -r e; do
	"$gtk" -t "$TMP/k" --filter "$e" >/dev/null 2>"$TMP/f.err"
	rc=$?
	case $rc in
	0) parsed=$((parsed + 1)) ;;
	2) refused=$((refused + 1)) ;;
	*) bad=$((bad + 1)); echo "#   exit $rc for: $e" ;;
	esac
done <"$TMP/exprs"
check "300 random expressions ($parsed parsed, $refused refused): no crash" \
	test "$bad" -eq 0 -a "$parsed" -gt 50 -a "$refused" -gt 50

check "the caret is under the column" sh -c "'$gtk' -t '$TMP/k' --filter 'cpu = zero' 2>&1 | grep -q '^        ^\$'"
done_testing
