#!/bin/sh
# lttv-gtk --export draws, without a display, the control-flow and resource
# views of a trace with a known schedule (written by the writer library,
# see tests/unit/test_state.c) with the same code as the window; the
# pixels must have the colours of the expected states at the expected
# times and rows.  Needs ImageMagick (convert) to read pixels.
. "$(dirname "$0")/lib.sh"

gtk="$BIN/lttv-gtk"
writer="$TOP/$BUILD/tests/test_state"
if [ ! -x "$gtk" ] || [ ! -x "$writer" ]; then
	skip "export" "build lttv-gtk and the unit tests first"
	done_testing
	exit
fi
if ! command -v convert >/dev/null; then
	skip "export pixels" "ImageMagick's convert is missing (scripts/install-deps.sh)"
	done_testing
	exit
fi
unset DISPLAY WAYLAND_DISPLAY		# prove that no display is needed
# run alone: the suppressions tests/run.sh uses (fontconfig's caches)
case ${LSAN_OPTIONS:-} in *suppressions=*) ;; *)
	export LSAN_OPTIONS="suppressions=$TOP/tests/lsan.supp:print_suppressions=0" ;;
esac

check "known schedule written" "$writer" --write-trace "$TMP/k"
# 1000 pixels for 10 us: 10 ns per pixel
"$gtk" -t "$TMP/k" --export "$TMP/cf.png" --range 0..0.00001 --size 1421x0 --layout \
	>"$TMP/layout" 2>"$TMP/err"
_report $? "export a PNG with no display"
sed 's/^/# /' "$TMP/err"

# layout x0=.. x1=.. y0=.. row_h=.. t0=.. t1=.. rows=..
val() { sed -n "s/^layout.* $1=\([0-9]*\).*/\1/p" "$TMP/layout"; }
x0=$(val x0); x1=$(val x1); y0=$(val y0); rh=$(val row_h)
check "layout printed" test -n "$x0" -a -n "$x1" -a -n "$y0" -a -n "$rh"
row_of() { sed -n "s/^row \([0-9]*\) process pid=$1 name=$2\$/\1/p" "$TMP/layout"; }

# pixel "x_ns row" -> "r,g,b" for every probe, in one ImageMagick run
probe() { # file "name x_ns row expected" ...
	file=$1; shift
	fmt=""
	for p in "$@"; do
		set -- $p
		x=$(( x0 + ($2 * (x1 - x0)) / 10000 ))
		y=$(( y0 + $3 * rh + rh / 2 ))
		fmt="$fmt%[fx:round(255*p{$x,$y}.r)],%[fx:round(255*p{$x,$y}.g)],%[fx:round(255*p{$x,$y}.b)] "
	done
	convert "$file" -format "$fmt" info:
}

bash=$(row_of 100 bash); ls=$(row_of 200 ls); kw=$(row_of 7 kworker)
sw1=$(sed -n 's/^row \([0-9]*\) process pid=0 name=swapper\/1$/\1/p' "$TMP/layout")
check "rows: bash, ls (named by exec), kworker, swapper/1" \
	test -n "$bash" -a -n "$ls" -a -n "$kw" -a -n "$sw1"

# the colours, as the layout names them ("kind WAIT rgb=r,g,b label=...")
rgb() { sed -n "s/^kind $1 rgb=\([0-9,]*\) .*/\1/p" "$TMP/layout"; }
WAIT=$(rgb WAIT) USER=$(rgb USER_MODE) SYSCALL=$(rgb SYSCALL) IRQ=$(rgb IRQ) TRAP=$(rgb TRAP)
SOFTIRQ=$(rgb SOFTIRQ) WAIT_CPU=$(rgb WAIT_CPU) WAIT_FORK=$(rgb WAIT_FORK) EXIT=$(rgb EXIT)
ZOMBIE=$(rgb ZOMBIE) IDLE=$(rgb IDLE) DEAD=$(rgb DEAD) IRQ_IDLE=204,204,204	# an idle IRQ line: hairline
check "the layout names the colour of each state" \
	test -n "$WAIT" -a -n "$USER" -a -n "$SYSCALL" -a -n "$IRQ" -a -n "$TRAP" -a -n "$SOFTIRQ" \
	-a -n "$WAIT_CPU" -a -n "$WAIT_FORK" -a -n "$EXIT" -a -n "$ZOMBIE" -a -n "$IDLE"

# name, time (ns from the start), row, expected colour ("bg": no state)
set -- \
	"bash-wait 500 $bash $WAIT" \
	"bash-user 1500 $bash $USER" \
	"bash-fork-syscall 2100 $bash $SYSCALL" \
	"bash-irq 3020 $bash $IRQ" \
	"bash-waits-child 6000 $bash $WAIT" \
	"bash-woken 9050 $bash $WAIT_CPU" \
	"bash-syscall 9200 $bash $SYSCALL" \
	"bash-user-again 9700 $bash $USER" \
	"ls-not-born 1000 $ls bg" \
	"ls-wait-fork 2300 $ls $WAIT_FORK" \
	"ls-page-fault 3550 $ls $TRAP" \
	"ls-exit 5150 $ls $EXIT" \
	"ls-zombie 7000 $ls $ZOMBIE" \
	"ls-freed-dead 9600 $ls $DEAD" \
	"kworker-softirq 6050 $kw $SOFTIRQ" \
	"swapper1-idle 8000 $sw1 $IDLE"
got=$(probe "$TMP/cf.png" "$@")
i=0
for p in "$@"; do
	i=$((i + 1))
	set -- $p
	pix=$(echo "$got" | tr ' ' '\n' | sed -n "${i}p")
	if [ "$4" = bg ]; then
		case $pix in 255,255,255|246,246,246) r=0 ;; *) r=1 ;; esac
	else
		[ "$pix" = "$4" ]; r=$?
	fi
	_report $r "control flow: $1 at $2 ns is $4"
	[ $r -eq 0 ] || echo "#   got $pix"
done

# 20 pixels for 10 us: 500 ns per pixel. A pixel with several states shows
# one of them so that the time drawn in each follows the time spent (see
# tests/unit/test_state.c): bash's 300 ns of system calls around 2000 ns
# show in the pixel where they are the most owed, its 50 ns interrupt and
# the 100 ns system call before it waits vanish.
"$gtk" -t "$TMP/k" --export "$TMP/coarse.png" --range 0..0.00001 \
	--size $((x0 + 20))x0 --layout >"$TMP/layout2" 2>"$TMP/err"
_report $? "export at 500 ns per pixel"
x1=$((x0 + 20))
got=$(probe "$TMP/coarse.png" "a 1250 $bash" "b 2250 $bash" "c 3250 $bash" "d 4250 $bash" \
	"e 6000 $bash")
check "merged below the resolution: user, syscall, user, waiting, waiting" \
	test "$got" = "$USER $SYSCALL $USER $WAIT $WAIT "
[ "$got" = "$USER $SYSCALL $USER $WAIT $WAIT " ] || echo "#   got $got"
x1=$(val x1)

# the resource view: one row per CPU and per IRQ line
"$gtk" -t "$TMP/k" --export "$TMP/res.png" --view resources --range 0..0.00001 \
	--size 1421x0 --layout >"$TMP/layout3" 2>"$TMP/err"
_report $? "export the resource view"
check "resource rows: 2 CPUs, IRQ 0 named timer, softirq 1 TIMER" \
	sh -c "grep -q '^row 1 cpu 1\$' '$TMP/layout3' && grep -q '^row 2 irq 0 name=timer\$' '$TMP/layout3' && grep -q '^row 3 softirq 1 name=TIMER\$' '$TMP/layout3'"
x0=$(sed -n 's/^layout x0=\([0-9]*\).*/\1/p' "$TMP/layout3")
got=$(probe "$TMP/res.png" "a 3550 1" "b 6050 1" "c 8000 1" "d 3020 2" "e 5000 2" "f 6050 3" \
	"g 7000 3")
want="$TRAP $SOFTIRQ $IDLE $IRQ $IRQ_IDLE $SOFTIRQ $IRQ_IDLE "
check "CPU 1: trap, softirq, idle; IRQ 0: busy, then idle; softirq: busy, then idle" \
	test "$got" = "$want"
[ "$got" = "$want" ] || echo "#   got $got"

# lost events: the legend carries a red "LOST n EVENTS" box
check "trace with lost events written" "$writer" --write-trace "$TMP/lost" --lost 42
red() { convert "$1" -fill black +opaque "rgb(220,0,0)" -fill white -opaque "rgb(220,0,0)" \
	-format "%[fx:round(mean*w*h)]" info:; }
"$gtk" -t "$TMP/lost" --export "$TMP/lost.png" >/dev/null 2>&1
n_lost=$(red "$TMP/lost.png"); n_none=$(red "$TMP/cf.png")
check "lost events shown in red ($n_lost pixels; none without losses: $n_none)" \
	test "${n_lost:-0}" -gt 1500 -a "${n_none:-1}" -eq 0

# a range given as lttv-text prints times (wall clock) is the same range
if [ -x "$BIN/ltt-tracegen" ] &&
   "$BIN/ltt-tracegen" --scenario sample -o "$TMP/s" >/dev/null 2>&1; then
	"$gtk" -t "$TMP/s" --export "$TMP/r.png" --range 0.15..0.16 --layout >"$TMP/l1" 2>/dev/null
	a=$(sed -n 's/^layout.* t0=\([0-9]*\) t1=\([0-9]*\).*/\1/p' "$TMP/l1")
	b=$(sed -n 's/^layout.* t0=\([0-9]*\) t1=\([0-9]*\).*/\2/p' "$TMP/l1")
	abs=$(echo "$a $b" | awk '{ printf "%s.%s..%s.%s", substr($1, 1, length($1) - 9),
		substr($1, length($1) - 8), substr($2, 1, length($2) - 9), substr($2, length($2) - 8) }')
	"$gtk" -t "$TMP/s" --export "$TMP/r2.png" --range "$abs" --layout >"$TMP/l2" 2>/dev/null
	check "wall-clock range $abs = relative 0.15..0.16" \
		test "$(head -n 1 "$TMP/l1")" = "$(head -n 1 "$TMP/l2")" -a -n "$a"
else
	skip "wall-clock range" "no ltt-tracegen"
fi

# random, inconsistent events draw without a fault (SANITIZE=1: no report)
if "$writer" --write-random "$TMP/random"; then
	check "random events: control flow drawn" "$gtk" -t "$TMP/random" --export "$TMP/rnd1.png"
	check "random events: resources drawn" "$gtk" -t "$TMP/random" --export "$TMP/rnd2.png" \
		--view resources --range 0..0.00005
else
	skip "random events" "test_state --write-random failed"
fi

# --bench (bench/viewer.py): the window's work, timed, on the known trace
"$gtk" -t "$TMP/k" --bench >"$TMP/bench" 2>"$TMP/err"
_report $? "--bench runs"
nev=$("$BIN/lttv-text" -t "$TMP/k" -q -c | sed -n 's/^total: \([0-9]*\) events.*/\1/p')
check "--bench indexed every event ($nev) and says how much memory the index holds" \
	grep -Eq "^bench index ms=[0-9.]+ cpu_ms=[0-9.]+ events=$nev .* index_kb=[1-9][0-9]* " "$TMP/bench"
# the trace lasts 10 us: zoom 1 and 1/10, not below 1 us of view
check "--bench: first frame, whole frame, redraws at zoom 1 and 1/10 only" \
	sh -c "grep -q '^bench first-frame ms=' '$TMP/bench' && grep -q '^bench frame ms=' '$TMP/bench' &&
	       grep -q '^bench zoom=1 ms=' '$TMP/bench' && grep -q '^bench zoom=10 ms=' '$TMP/bench' &&
	       ! grep -q '^bench zoom=100 ' '$TMP/bench'"
check_fails "--bench: bad --size refused" "$gtk" -t "$TMP/k" --bench --size 10x10

# the first screen: the processes that did something come first (the most
# CPU time first, the idle tasks' idle time left out), those that never ran
# last; on a real trace, in the order of lttv-text --process-stats
if [ -d "$TOP/traces/qemu-busybox" ] && command -v python3 >/dev/null; then
	"$gtk" -t "$TOP/traces/qemu-busybox" --export "$TMP/q.png" --layout >"$TMP/ql" 2>"$TMP/err"
	"$BIN/lttv-text" -t "$TOP/traces/qemu-busybox" -q --process-stats >"$TMP/qs"
	python3 - "$TMP/ql" "$TMP/qs" >"$TMP/order" <<'PY'
import sys, re
rows = [(int(m.group(1)), m.group(2)) for m in
        (re.match(r"row \d+ process pid=(\d+) name=(\S+)$", l) for l in open(sys.argv[1])) if m]
busy = {}
for l in open(sys.argv[2]):
    f = l.split()
    if len(f) == 11 and f[0].isdigit():
        busy[(int(f[0]), f[2])] = float(f[10])  # total: an idle task's idle loop apart
want = sorted((k for k in busy if busy[k] > 0), key=lambda k: (-busy[k], k[0]))
got = rows[:len(want)]
idle = [r for r in rows[len(want):] if busy.get(r, 0) > 0]
print("first rows", got[:6], "want", want[:6])
sys.exit(0 if want and [g[0] for g in got] == [w[0] for w in want] and not idle
         and len(rows) > len(want) else 1)
PY
	_report $? "qemu-busybox: rows sorted by CPU time as lttv-text counts it, never-ran last"
	sed 's/^/# /' "$TMP/order"
else
	skip "rows sorted by activity" "traces/qemu-busybox or python3 missing"
fi

# the legend explains every colour drawn (running with its mode unknown,
# dead, unknown...), in both views, and the states are told apart at a
# glance (tests/palette-check.py: waiting and IRQ, trap and zombie)
if command -v python3 >/dev/null; then
	legend() { # name trace [export options]
		n=$1 tr=$2; shift 2
		"$gtk" -t "$tr" --export "$TMP/$n.png" --layout "$@" >"$TMP/$n.l" 2>"$TMP/err" &&
		convert "$TMP/$n.png" "rgb:$TMP/$n.rgb" &&
		python3 "$TOP/tests/legend-check.py" "$TMP/$n.l" "$TMP/$n.rgb" \
			$(convert "$TMP/$n.png" -format "%w %h" info:) >"$TMP/$n.out"
		r=$?
		sed 's/^/# /' "$TMP/$n.out"
		return $r
	}
	"$writer" --write-random "$TMP/rnd" >/dev/null 2>&1
	for t in "known $TMP/k" "random $TMP/rnd" "busybox $TOP/traces/qemu-busybox" \
		 "usertrace $TOP/traces/qemu-usertrace"; do
		set -- $t
		[ -d "$2" ] || { skip "legend of $1" "no $2"; continue; }
		legend "$1-cf" "$2"
		_report $? "$1, control flow: every colour drawn is in the legend"
		legend "$1-res" "$2" --view resources
		_report $? "$1, resources: every colour drawn is in the legend"
	done
	python3 "$TOP/tests/palette-check.py" "$TMP/layout" >"$TMP/pal"
	_report $? "the states' colours are told apart at a glance"
	sed 's/^/# /' "$TMP/pal"
else
	skip "legend and palette" "python3 missing"
fi

# the layout is printed only when asked
"$gtk" -t "$TMP/k" --export "$TMP/quiet.png" >"$TMP/quiet" 2>&1
check "an export prints nothing without --layout" test ! -s "$TMP/quiet" -a -s "$TMP/quiet.png"
# a range that shows nothing of the trace is an error, not a blank picture
fails_with "--range after the trace: exit 2, says the trace's span" 2 "spans 0.0" \
	"$gtk" -t "$TMP/k" --export "$TMP/x.png" --range 5..6
# (a wall-clock time has 9 digits or more before the point)
sec=$(sed -n 's/^layout.* t0=\([0-9]*\)[0-9]\{9\} .*/\1/p' "$TMP/layout")
before=$(printf "%09d.0..%09d.5" $((sec - 2)) $((sec - 2)))
fails_with "--range before the trace ($before): exit 2" 2 "shows nothing" \
	"$gtk" -t "$TMP/k" --export "$TMP/x.png" --range "$before"
check "--range over the end of the trace: drawn" \
	"$gtk" -t "$TMP/k" --export "$TMP/x.png" --range 0.000005..5
check_fails "--layout without --export refused" "$gtk" -t "$TMP/k" --layout
# -t A -t B: both traces merged, as lttv-text merges them
if [ -d "$TMP/s" ]; then
	"$gtk" -t "$TMP/k" -t "$TMP/s" --export "$TMP/two.png" --layout >"$TMP/two" 2>"$TMP/err"
	_report $? "-t A -t B: one export of both"
	check "rows of both traces (bash 100 of one, sleep 2473 of the other)" sh -c \
		"grep -q ' pid=100 name=bash\$' '$TMP/two' && grep -q ' pid=2473 name=sleep\$' '$TMP/two'"
	"$BIN/lttv-text" -t "$TMP/k" -t "$TMP/s" -q --process-stats |
		awk 'NF == 11 && $1 ~ /^[0-9]+$/ { print $1, $3 }' | sort >"$TMP/ran"
	sed -n 's/^row [0-9]* process pid=\([0-9]*\) name=\(.*\)/\1 \2/p' "$TMP/two" | sort >"$TMP/drawn"
	check "every process lttv-text -t A -t B saw run ($(wc -l <"$TMP/ran")) has a row" \
		sh -c "test -s '$TMP/ran' && test -z \"\$(comm -23 '$TMP/ran' '$TMP/drawn')\""
else
	skip "-t A -t B" "no sample trace"
fi

check "SVG export" "$gtk" -t "$TMP/k" --export "$TMP/cf.svg"
check "SVG file is SVG" grep -q '<svg' "$TMP/cf.svg"
check_fails "bad range refused" "$gtk" -t "$TMP/k" --export "$TMP/x.png" --range 5..1
check_fails "unknown format refused" "$gtk" -t "$TMP/k" --export "$TMP/x.gif"
check_fails "missing trace: an error" "$gtk" -t "$TMP/nothing" --export "$TMP/x.png"
cp "$TMP/err" "$TMP/err.missing"
check "the error names the trace" grep -q nothing "$TMP/err.missing"
done_testing
