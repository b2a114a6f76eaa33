#!/bin/sh
# One number in one place: the CPU time per process that lttv-gtk's
# Statistics tab shows (printed by lttv-gtk --stats) equals lttv-text
# --process-stats, byte for byte, on every bundled trace, on random ranges
# of them (lttv-text -r --begin A --end B, lttv-gtk --range A..B) and on
# ranges that run past the end of the data; an idle task is never charged
# with system calls or traps (it makes none).
. "$(dirname "$0")/lib.sh"

gtk="$BIN/lttv-gtk"
text="$BIN/lttv-text"
unset DISPLAY WAYLAND_DISPLAY		# --stats needs no display
case ${LSAN_OPTIONS:-} in *suppressions=*) ;; *)
	export LSAN_OPTIONS="suppressions=$TOP/tests/lsan.supp:print_suppressions=0" ;;
esac

# the table: from its title to its "all" line
table() { sed -n '/^CPU time per process/,/^ *all /p' "$1"; }

# compare NAME TRACE [A B]: the two tools on the whole trace or on [A, B]
compare() {
	if [ $# -eq 2 ]; then
		"$gtk" -t "$2" --stats >"$TMP/g" 2>"$TMP/g.err"
		"$text" -t "$2" -q --process-stats >"$TMP/t" 2>"$TMP/t.err"
	else
		"$gtk" -t "$2" --stats --range "$3..$4" >"$TMP/g" 2>"$TMP/g.err"
		"$text" -t "$2" -q -r --begin "$3" --end "$4" --process-stats >"$TMP/t" 2>"$TMP/t.err"
	fi
	table "$TMP/g" >"$TMP/gt"
	table "$TMP/t" >"$TMP/tt"
	if [ -s "$TMP/gt" ] && cmp -s "$TMP/gt" "$TMP/tt"; then
		_report 0 "$1: lttv-gtk --stats = lttv-text --process-stats ($(wc -l <"$TMP/gt") lines)"
	else
		_report 1 "$1: lttv-gtk --stats = lttv-text --process-stats"
		diff "$TMP/gt" "$TMP/tt" | head -n 8 | sed 's/^/#   /'
		cat "$TMP/g.err" "$TMP/t.err" | head -n 4 | sed 's/^/#   /'
	fi
}

traces=""
for d in "$TOP"/traces/*/; do
	[ -e "$d/control" ] && traces="$traces ${d%/}"
done
# and a trace of random, often inconsistent events
if "$TOP/$BUILD/tests/test_state" --write-random "$TMP/random" >/dev/null 2>&1; then
	traces="$traces $TMP/random"
else
	skip "random trace" "test_state --write-random failed (make tests)"
fi

seed=1
for tr in $traces; do
	name=$(basename "$tr")
	compare "$name" "$tr"
	"$text" -t "$tr" -q --process-stats >"$TMP/ps" 2>/dev/null
	# (the random trace execs and makes calls on pid 0 on purpose)
	[ "$name" = random ] ||
	check "$name: idle tasks have no system call or trap time" awk '
		$1 == "0" && ($5 != "0.000000" || $6 != "0.000000") { bad = 1; print "#   " $0 }
		END { exit bad }' "$TMP/ps"
	# the span in seconds from the trace start, from the tab's Range line
	"$gtk" -t "$tr" --stats >"$TMP/g" 2>/dev/null
	span=$(sed -n 's/^Range \([0-9.]*\) \.\. \([0-9.]*\) s.*/\1 \2/p' "$TMP/g")
	if [ -z "$span" ]; then
		_report 1 "$name: --stats prints its range"
		continue
	fi
	# 4 random ranges inside the data, 1 that runs past its end
	for r in $(echo "$span" | awk -v seed=$seed '{
		srand(seed); lo = $1; hi = $2
		for (i = 0; i < 4; i++) {
			a = lo + rand() * (hi - lo); b = a + rand() * (hi - a)
			printf "%.9f..%.9f\n", a, b
		}
		printf "%.9f..%.9f\n", lo + (hi - lo) / 2, hi + 1 }'); do
		compare "$name [$r]" "$tr" "${r%..*}" "${r#*..}"
	done
	seed=$((seed + 1))
done

# the issue's case: lttctl of qemu-busybox, a fitted view that ran 62 ms
# past the last event charged that tail to lttctl's last state
if [ -d "$TOP/traces/qemu-busybox" ]; then
	"$gtk" -t "$TOP/traces/qemu-busybox" --stats >"$TMP/g" 2>/dev/null
	end=$(sed -n 's/^Range [0-9.]* \.\. \([0-9.]*\) s.*/\1/p' "$TMP/g")
	last=$("$text" -t "$TOP/traces/qemu-busybox" -r | tail -n 1 | sed 's/^[^:]*: \([0-9.]*\) .*/\1/')
	check "qemu-busybox: the range ends on the last event ($end = $last)" test "$end" = "$last"
	# the idle tasks' idle loops are not work: a process that worked is
	# first, an idle task's total is its interrupts' (the control flow's
	# CPU-time column), and its IRQ time is the analyses' IRQ handler
	# time of swapper/1, computed apart (lttv-text --irqs --by process)
	table "$TMP/g" >"$TMP/gt"
	first=$(awk 'NF == 11 && $1 ~ /^[0-9]+$/ { print $1 " " $3; exit }' "$TMP/gt")
	check "qemu-busybox: the first row is a process that worked, not an idle task ($first)" \
		sh -c "test -n '$first' && test '${first%% *}' != 0"
	check "qemu-busybox: swapper/1's total is its IRQ and softirq time, its idle loop apart" \
		awk '$1 == 0 && $3 == "swapper/1" { ok = $4 == "0.000000" && $10 > 0.5 &&
			($7 + $8 - $11) ^ 2 < 4.1e-12 && $11 < 0.5 } END { exit !ok }' "$TMP/gt"
	irq=$("$text" -t "$TOP/traces/qemu-busybox" -q --irqs --by process |
		sed -n '/IRQ handler time by process/,/^--/p' | awk '$2 == "swapper/1" { print $NF }')
	check "qemu-busybox: swapper/1's IRQ time is the analyses' ($irq us)" \
		awk -v us="$irq" '$1 == 0 && $3 == "swapper/1" { x = $7 * 1e6 - us; ok = us > 0 && x * x < 4 }
			END { exit !ok }' "$TMP/gt"
	# one name per pid: the events per process name each process as the
	# CPU times do (at the end of the range), with the names it had before
	sed -n '/^Events per process/,/^$/p' "$TMP/g" | awk 'NF >= 3 && $2 ~ /^[1-9][0-9]*$/ { print $2, $3 }' |
		sort -u >"$TMP/ev.names"
	awk 'NF == 11 && $1 ~ /^[1-9][0-9]*$/ { print $1, $3 }' "$TMP/gt" | sort -u >"$TMP/cpu.names"
	check "qemu-busybox: each pid has one name in the events per process" \
		sh -c "test -s '$TMP/ev.names' && test -z \"\$(cut -d' ' -f1 '$TMP/ev.names' | uniq -d)\""
	check "qemu-busybox: the events and the CPU times give a pid the same name" \
		sh -c "join '$TMP/ev.names' '$TMP/cpu.names' | awk '\$2 != \$3 { bad = 1; print } END { exit bad }'"
	# the first cat the shell started (its pid from the trace: a new recording changes it)
	catp=$("$text" -t "$TOP/traces/qemu-busybox" -s -e exec |
		sed -n 's|^fs\.exec: .* pid \([0-9]*\) tgid .*{ "/bin/cat" }$|\1|p' | head -n 1)
	check "qemu-busybox: pid ${catp:-?} is cat, once sh: said so" \
		sh -c "test -n '$catp' && grep -q '^ *[0-9]*  $catp *cat (was sh)\$' '$TMP/g'"
fi
done_testing
