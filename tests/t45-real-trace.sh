#!/bin/sh
# The state engine and the viewers on a real trace of our kernel
# (traces/qemu-busybox, see traces/README): every task named, no time in an
# unknown mode, the commands of the session where they should be, and the
# control-flow picture of `sleep 0.2`: waiting 0.2 s, then a zombie until
# the shell reaps it.  The pids and times come from the trace itself (the
# session of qemu/instr-guest.sh is known, its pids and times are not: a
# new recording changes them), so the test holds for any recording.
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
# rows: pid tgid name user syscall trap irq softirq unknown idle total
check "no CPU time in an unknown mode" awk '
	$1 ~ /^[0-9]+$/ && $9 != "0.000000" { bad = 1; print "#   " $0 }
	END { exit bad }' "$TMP/ps"
check "every task that ran has a name" awk '
	$1 ~ /^[0-9]+$/ && $3 == "-" { bad = 1; print "#   " $0 }
	END { exit bad }' "$TMP/ps"
check "the session's commands, named by exec" sh -c "
	for c in ls cat wc sleep lttctl lttd; do grep -q \" \$c  *[0-9]\" '$TMP/ps' || exit 1; done"
# who is who, from the trace: lttd's threads from the state dump
# (enumerate_process_state { pid, parent, name, ..., tgid }), the
# `taskset -c 1 /bin/sh -c '... exec /bin/cat'` as the pid that execs
# /bin/sh then /bin/cat, and sleep as the pid that execs /bin/sleep
"$text" -t "$trace" -n -s -e fs.exec -e statedump.enumerate_process_state >"$TMP/s" 2>"$TMP/err"
_report $? "lttv-text -s reads the real trace"
lttd_thr=$(sed -n 's/^statedump\.enumerate_process_state: .*{ pid = \([0-9]*\), .*name = "lttd", .*tgid = \([0-9]*\) }$/\1 \2/p' "$TMP/s" |
	awk '$1 != $2 { print; exit }')
check "the state dump has an lttd thread that is not its group's leader ('$lttd_thr')" test -n "$lttd_thr"
set -- $lttd_thr
check "--process-stats: lttd's second thread, pid ${1:-?} in tgid ${2:-?}" \
	grep -Eq "^ *${1:-x} +${2:-x} lttd " "$TMP/ps"
execs() { sed -n 's/^fs\.exec: .* pid \([0-9]*\) tgid [0-9]* .*{ filename = "\(.*\)" }$/\1 \2/p' "$TMP/s"; }
tset=$(execs | awk '$2 == "/bin/sh" { sh[$1] = 1 } $2 == "/bin/cat" && sh[$1] { print $1; exit }')
check "one pid execs /bin/sh then /bin/cat (taskset -c 1: '$tset')" test -n "$tset"
check "pid $tset (taskset; exec of sh, then cat) is cat" grep -Eq "^ *${tset:-x} +${tset:-x} cat " "$TMP/ps"
sl=$(execs | awk '$2 == "/bin/sleep" { print $1 }')
check "one pid execs /bin/sleep ('$sl')" test -n "$sl" -a "$(echo "$sl" | wc -l)" = 1

# 14 execs in the session of qemu/instr-guest.sh: 3 x (ls, cat), cat and wc
# of the command substitution, sh and cat of the taskset -c 1, sleep, two
# shells writing "cpu N says hello", and lttctl stopping the trace
n_exec=$("$gtk" -t "$trace" --filter "event.name = exec" | tail -n 1)
check "14 execs found by the filter ($n_exec)" test "$n_exec" = "14 events match"
check "as many as lttv-text prints" test "$(execs | wc -l)" = 14
# times in seconds from the trace start (as --range and event.time count)
"$text" -t "$trace" -n -s -r -e process.exit -e process.free -e kernel_arch.syscall_entry \
	-e kernel_arch.syscall_exit >"$TMP/sr" 2>"$TMP/err"
first() { # the time of the first line of $TMP/sr after time $1 that matches ERE $2
	awk -v t="$1" -v re="$2" '$2 > t + 0 && $0 ~ re { print $2; exit }' "$TMP/sr"
}
# taskset -c 1: the forked shell runs where it was forked until its
# sched_setaffinity moves it; from then on, CPU 1 only
aff=$(first 0 "^kernel_arch[.]syscall_entry: .* pid $tset tgid .*syscall_id = 203 [[]sched_setaffinity[]]")
aff=$(first "${aff:-0}" "^kernel_arch[.]syscall_exit: .* pid $tset tgid ")
check "pid $tset: sched_setaffinity returns ('$aff')" test -n "$aff"
n_cpu0=$("$gtk" -t "$trace" --filter "state.pid = ${tset:-0} and cpu = 0 and event.time > ${aff:-0} and (event.facility = kernel or event.facility = kernel_arch)" |
	tail -n 1)
check "taskset -c 1: pid $tset never in the kernel on CPU 0 after it ($n_cpu0)" test "$n_cpu0" = "0 events match"
n_cpu1=$("$gtk" -t "$trace" --filter "state.pid = ${tset:-0} and cpu = 1 and event.time > ${aff:-0} and (event.facility = kernel or event.facility = kernel_arch)" |
	tail -n 1)
check "... but on CPU 1 ($n_cpu1)" sh -c "echo '$n_cpu1' | grep -Eq '^[1-9][0-9]* events match$'"

# sleep's clock_nanosleep (entry n0, exit n1), its exit, and its free
n0=$(first 0 "^kernel_arch[.]syscall_entry: .* pid $sl tgid .*syscall_id = 230 [[]clock_nanosleep[]]")
n1=$(first "${n0:-0}" "^kernel_arch[.]syscall_exit: .* pid $sl tgid ")
ex=$(first 0 "^process[.]exit: .*[{] pid = $sl [}]")
fr=$(first 0 "^process[.]free: .*[{] pid = $sl [}]")
check "sleep (pid $sl): nanosleep $n0 .. $n1, 0.2 s or more, exit $ex, free $fr, in that order" \
	awk -v a="$n0" -v b="$n1" -v e="$ex" -v f="$fr" \
	'BEGIN { exit !(a != "" && f != "" && b - a >= 0.2 && b < e + 0 && e < f + 0) }'

# the picture: from 0.1 s before the nanosleep to as far after the free as
# the zombie lasted (at least 0.05 s), over the time area (x0 .. x1 of the layout)
A=$(awk -v a="${n0:-0}" 'BEGIN { printf "%.6f", a - 0.1 }')
B=$(awk -v e="${ex:-0}" -v f="${fr:-0}" 'BEGIN { d = f - e; if (d < 0.05) d = 0.05; printf "%.6f", f + d }')
"$gtk" -t "$trace" --export "$TMP/r.png" --range "$A..$B" --size 1321x0 --layout >"$TMP/layout" 2>"$TMP/err"
_report $? "export of the real trace, $A..$B s"
x0=$(sed -n 's/^layout x0=\([0-9]*\).*/\1/p' "$TMP/layout")
x1=$(sed -n 's/^layout.* x1=\([0-9]*\).*/\1/p' "$TMP/layout")
rgb() { sed -n "s/^kind $1 rgb=\([0-9,]*\) .*/\1/p" "$TMP/layout"; }
y0=$(sed -n 's/^layout.* y0=\([0-9]*\).*/\1/p' "$TMP/layout")
rh=$(sed -n 's/^layout.* row_h=\([0-9]*\).*/\1/p' "$TMP/layout")
row=$(sed -n "s/^row \\([0-9]*\\) process pid=$sl name=sleep\$/\\1/p" "$TMP/layout")
check "a row for sleep (pid $sl)" test -n "$row"
# one row per task: those of the state dump, the idle task of each CPU
# (swapper/0 and /1: both pid 0) and those forked during the trace
nrows=$(awk '/^statedump\.enumerate_process_state: / { n++ } END { print n + 2 }' "$TMP/s")
nfork=$("$text" -t "$trace" -e process.fork | wc -l)
nrows=$((nrows + nfork))
check "$nrows rows: every task of the state dump and of the session" grep -q " rows=$nrows\$" "$TMP/layout"
if command -v convert >/dev/null && [ -n "$row" ]; then
	px() { # seconds -> "r,g,b" on sleep's row
		x=$(awk -v t="$1" -v a="$A" -v b="$B" -v x0="$x0" -v x1="$x1" 'BEGIN { printf "%d", x0 + (t - a) / (b - a) * (x1 - x0) }')
		y=$((y0 + row * rh + rh / 2))
		png_px "$TMP/r.png" "$x" "$y"
	}
	mid() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.6f", (a + b) / 2 }'; }
	check "sleep waits in its 0.2 s nanosleep ($(mid "$n0" "$n1") s)" test "$(px "$(mid "$n0" "$n1")")" = "$(rgb WAIT)"
	check "sleep is a zombie between its exit and its free ($(mid "$ex" "$fr") s)" \
		test "$(px "$(mid "$ex" "$fr")")" = "$(rgb ZOMBIE)"
	check "sleep is dead after its free ($(mid "$fr" "$B") s): its row a black line" \
		test "$(px "$(mid "$fr" "$B")")" = "$(rgb DEAD)"
else
	skip "sleep's pixels" "no ImageMagick, or no row"
fi
done_testing
