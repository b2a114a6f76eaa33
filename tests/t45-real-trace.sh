#!/bin/sh
# The state engine and the viewers on a real trace of our kernel
# (traces/qemu-busybox, see traces/README): every task named, no time in an
# unknown mode, the commands of the session where they should be, and the
# control-flow picture of `sleep 0.2` (pid 51): waiting 0.2 s, then a
# zombie until the shell reaps it.
. "$(dirname "$0")/lib.sh"

trace="$TOP/traces/qemu-busybox"
text="$BIN/lttv-text"
gtk="$BIN/lttv-gtk"
if [ ! -d "$trace" ]; then
	skip "real trace" "traces/qemu-busybox is not there"
	done_testing
	exit
fi
if [ ! -x "$text" ] || [ ! -x "$gtk" ]; then
	skip "real trace" "build lttv-text and lttv-gtk first"
	done_testing
	exit
fi
unset DISPLAY
# run alone: the suppressions tests/run.sh uses (fontconfig's caches)
case ${LSAN_OPTIONS:-} in *suppressions=*) ;; *)
	export LSAN_OPTIONS="suppressions=$TOP/tests/lsan.supp:print_suppressions=0" ;;
esac

"$text" -t "$trace" -q --process-stats >"$TMP/ps" 2>"$TMP/err"
_report $? "lttv-text --process-stats reads the real trace"
# rows: pid tgid name user syscall trap irq softirq unknown total
check "no CPU time in an unknown mode" awk '
	$1 ~ /^[0-9]+$/ && $9 != "0.000000" { bad = 1; print "#   " $0 }
	END { exit bad }' "$TMP/ps"
check "every task that ran has a name" awk '
	$1 ~ /^[0-9]+$/ && $3 == "-" { bad = 1; print "#   " $0 }
	END { exit bad }' "$TMP/ps"
check "the session's commands, named by exec" sh -c "
	for c in ls cat wc sleep lttctl lttd; do grep -q \" \$c  *[0-9]\" '$TMP/ps' || exit 1; done"
check "lttd's second thread: pid 40, tgid 39" grep -q '^ *40 *39 lttd ' "$TMP/ps"
check "pid 50 (taskset; exec of sh, then cat) is cat" grep -q '^ *50 *50 cat ' "$TMP/ps"

n_exec=$("$gtk" -t "$trace" --filter "event.name = exec" | tail -n 1)
check "14 execs found by the filter ($n_exec)" test "$n_exec" = "14 events match"
n_cpu1=$("$gtk" -t "$trace" --filter "state.pid = 50 and cpu = 0 and event.facility = kernel" |
	tail -n 1)
check "taskset -c 1: pid 50 never in the kernel on CPU 0 ($n_cpu1)" test "$n_cpu1" = "0 events match"

# the picture: 0.6 .. 0.9 s over the time area (x0 .. x1 of the layout)
"$gtk" -t "$trace" --export "$TMP/r.png" --range 0.6..0.9 --size 1321x0 --layout >"$TMP/layout" 2>"$TMP/err"
_report $? "export of the real trace"
x0=$(sed -n 's/^layout x0=\([0-9]*\).*/\1/p' "$TMP/layout")
x1=$(sed -n 's/^layout.* x1=\([0-9]*\).*/\1/p' "$TMP/layout")
rgb() { sed -n "s/^kind $1 rgb=\([0-9,]*\) .*/\1/p" "$TMP/layout"; }
y0=$(sed -n 's/^layout.* y0=\([0-9]*\).*/\1/p' "$TMP/layout")
rh=$(sed -n 's/^layout.* row_h=\([0-9]*\).*/\1/p' "$TMP/layout")
row=$(sed -n 's/^row \([0-9]*\) process pid=51 name=sleep$/\1/p' "$TMP/layout")
check "a row for sleep (pid 51)" test -n "$row"
check "48 rows: every task of the state dump and of the session" grep -q ' rows=48$' "$TMP/layout"
if command -v convert >/dev/null && [ -n "$row" ]; then
	px() { # seconds -> "r,g,b" on sleep's row
		x=$(awk -v t="$1" -v x0="$x0" -v x1="$x1" 'BEGIN { printf "%d", x0 + (t - 0.6) / 0.3 * (x1 - x0) }')
		y=$((y0 + row * rh + rh / 2))
		convert "$TMP/r.png" -format "%[fx:round(255*p{$x,$y}.r)],%[fx:round(255*p{$x,$y}.g)],%[fx:round(255*p{$x,$y}.b)]" info:
	}
	check "sleep waits at 0.72 s (its 0.2 s nanosleep)" test "$(px 0.72)" = "$(rgb WAIT)"
	check "sleep is a zombie at 0.84 s (exited, not yet reaped)" test "$(px 0.84)" = "$(rgb ZOMBIE)"
	check "sleep is dead at 0.87 s (freed at 0.847): its row a black line" \
		test "$(px 0.87)" = "$(rgb DEAD)"
else
	skip "sleep's pixels" "no ImageMagick, or no row"
fi
done_testing
