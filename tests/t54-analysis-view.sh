#!/bin/sh
# lttv-gtk's analyses: the Analyses tab (event density, CPU usage, latency
# scatter and histogram) and the links over the control flow (wakeup
# arrows, critical path), drawn without a display by --export and checked
# against lttv-text's numbers and against pixels; then the window under
# Xvfb: a click on the scatter goes to the occurrence and selects its
# process, the check boxes draw the links.
. "$(dirname "$0")/lib.sh"
gtk="$BIN/lttv-gtk"
TEXT="$BIN/lttv-text"
export GSETTINGS_BACKEND=memory ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"

"$BIN/ltt-tracegen" --scenario latency -o "$TMP/l" >/dev/null 2>&1
"$BIN/ltt-tracegen" --scenario chain -o "$TMP/c" >/dev/null 2>&1

# 1. the tab, exported, against lttv-text
check "--export --view analyses" "$gtk" -t "$TMP/l" --export "$TMP/an.png" --view analyses \
	--latency syscall --layout
cp "$TMP/out" "$TMP/an.layout"
total=$("$TEXT" -t "$TMP/l" -q -c | sed -n 's/^total: \([0-9]*\) events$/\1/p')
check "the density bars hold every event ($total)" \
	grep -qx "density events=$total" "$TMP/an.layout"
# 113 system calls on CPU 0 (t51): as many points
check "the scatter has a point per system call (113)" \
	grep -qx "scatter kind=syscall points=113" "$TMP/an.layout"
"$TEXT" -t "$TMP/l" -q --syscalls --by all --histogram --worst 0 |
	sed -n 's/^\[ *\([0-9]*\), *[0-9]*) *\([0-9]*\) #*$/\1 \2/p' |
	awk '$2 > 0 { b = 0; v = $1; while (v > 1) { v /= 2; b++ } print "hist bucket=" ($1 ? b : 0) " count=" $2 }' \
	>"$TMP/hist.want"
grep '^hist ' "$TMP/an.layout" >"$TMP/hist.got"
check "the histogram's bars are lttv-text --histogram's buckets" cmp -s "$TMP/hist.want" "$TMP/hist.got"
check "... and there are some" test -s "$TMP/hist.want"
"$TEXT" -t "$TMP/l" -q --cpu-top --worst 0 | sed -n 's/^cpu \([0-9]\) *\([0-9]*\)\.\([0-9]*\) .*/\1 \2\3/p' \
	>"$TMP/cpu.want"
sed -n 's/^cpu \([0-9]*\) busy_ns=\([0-9]*\) .*/\1 \2/p' "$TMP/an.layout" >"$TMP/cpu.got"
check "the CPU usage drawn is lttv-text --cpu-top's (ns)" cmp -s "$TMP/cpu.want" "$TMP/cpu.got"
check "--latency nonsense: usage error" sh -c \
	"'$gtk' -t '$TMP/l' --export '$TMP/x.png' --view analyses --latency nonsense; test \$? -eq 2"
check "--latency without --view analyses: usage error" sh -c \
	"'$gtk' -t '$TMP/l' --export '$TMP/x.png' --latency sched; test \$? -eq 2"

if command -v convert >/dev/null; then
	# the tallest bar of the histogram (48 reads in [2^19, 2^20) ns) is
	# drawn in the bars' colour at the middle of its height
	val() { sed -n "s/^alayout.* $1=\([0-9-]*\).*/\1/p" "$TMP/an.layout"; }
	hy=$(val hist_y); hh=$(val hist_h)
	# buckets 9..19 drawn (1 us .. 1 ms): the last is the tallest
	px=$(png_px "$TMP/an.png" 1150 $((hy + hh / 2)))
	check "the tallest histogram bar is drawn (got $px)" test "$px" = "64,89,153"
else
	skip "histogram pixels" "ImageMagick's convert is missing"
fi

# 2. the links over the control flow, exported: the chain scenario
check "--export --arrows --critical-path 110" "$gtk" -t "$TMP/c" --export "$TMP/cp.png" \
	--arrows --critical-path 110 --range 0.0008..0.0027 --layout
cp "$TMP/out" "$TMP/cp.layout"
check "--critical-path of a pid not in the trace: exit 2" sh -c \
	"'$gtk' -t '$TMP/c' --export '$TMP/x.png' --critical-path 4242 2>/dev/null; test \$? -eq 2"
if command -v convert >/dev/null; then
	lv() { sed -n "s/^layout.* $1=\([0-9-]*\).*/\1/p" "$TMP/cp.layout"; }
	x0=$(lv x0); x1=$(lv x1); y0=$(lv y0); rh=$(lv row_h)
	row_of() { sed -n "s/^row \([0-9]*\) process pid=$1 .*/\1/p" "$TMP/cp.layout"; }
	# the path runs along the bottom of a row (3 px above it): x of a time
	# in us from the trace start, over the range 800..2700 us
	pix() { # us row -> r,g,b
		x=$(( x0 + ($1 - 800) * (x1 - x0) / 1900 )); y=$(( y0 + $2 * rh + rh - 3 ))
		png_px "$TMP/cp.png" "$x" "$y"
	}
	a=$(row_of 110); b=$(row_of 111); c=$(row_of 112)
	near() { # "r,g,b" "r,g,b": within 3 per channel (cairo rounds)
		echo "$1 $2" | awk -F'[ ,]' '{ for (i = 1; i <= 3; i++) { d = $i - $(i + 3);
			if (d > 3 || d < -3) exit 1 } }'
	}
	check "path: c blocked on the disk at 1000 us (red)" near "$(pix 1000 "$c")" 204,0,0
	check "path: c running at 1350 us (green)" near "$(pix 1350 "$c")" 0,140,0
	check "path: b waiting for a CPU at 1550 us (orange)" near "$(pix 1550 "$b")" 242,140,0
	check "path: b running at 1800 us" near "$(pix 1800 "$b")" 0,140,0
	check "path: not on a's row at 1800 us (b is the path there)" sh -c "! echo $(pix 1800 "$a") | grep -qx 0,140,0"
	check "path: a running at 2300 us" near "$(pix 2300 "$a")" 0,140,0
else
	skip "critical path pixels" "ImageMagick's convert is missing"
fi

# 3. the window
if ! command -v xvfb-run >/dev/null; then
	skip "the Analyses tab in the window" "xvfb-run is missing"
	done_testing
	exit
fi
xvfb-run -a -s "-screen 0 1400x900x24" timeout 120 "$gtk" -t "$TMP/l" --self-test \
	"wait-index; view analyses; wait-analysis; latency sched; analysis-click-worst;
	 expect-analysis-selected 0.109001; expect-selected 103; expect-cursor a 0.109001;
	 latency syscall; analysis-click-worst; expect-analysis-selected 0.051002;
	 expect-selected 100; screenshot $TMP/tab.png; quit" >"$TMP/gui.out" 2>"$TMP/gui.err"
rc=$?
grep -E '^(not )?ok' "$TMP/gui.out" | sed 's/^not ok - /not ok - window: /; s/^ok - /ok - window: /' |
	while IFS= read -r line; do echo "$line"; done >"$TMP/gui.lines"
check "window: exits 0 (exit $rc)" test "$rc" -eq 0
check "window: every check passed" sh -c "! grep -q '^not ok' '$TMP/gui.out'"
check "window: 10 checks ran" test "$(grep -c '^ok' "$TMP/gui.out")" -eq 10
sed 's/^/# /' "$TMP/gui.lines"
xvfb-run -a -s "-screen 0 1400x900x24" timeout 120 "$gtk" -t "$TMP/c" --self-test \
	"wait-index; wait-analysis; range 0.0008..0.0027; links 1 1; select-pid 110; sleep 300;
	 screenshot $TMP/links.png; quit" >"$TMP/gui2.out" 2>&1
check "window: the links drawn and saved" grep -q '^ok - window saved' "$TMP/gui2.out"

# 4. when the analyses' pass starts: not at open (it would take a core from
# the index), but once wanted (the tab shown, a link ticked) or once the
# index is done. Indexing is slowed down (20 slices of 100 ms) so that the
# first command surely runs before it ends.
when() { # NAME SCRIPT
	LTTV_GTK_INDEX_SLICE=25 LTTV_GTK_INDEX_DELAY_MS=100 xvfb-run -a \
		-s "-screen 0 1400x900x24" timeout 120 "$gtk" -t "$TMP/l" --self-test "$2" \
		>"$TMP/when.out" 2>&1
	rc=$?
	sed 's/^/# /' "$TMP/when.out"
	check "window, $1: exits 0 (exit $rc)" test "$rc" -eq 0
	check "window, $1: every check passed" sh -c "! grep -q '^not ok' '$TMP/when.out'"
	check "window, $1: 3 checks ran" test "$(grep -c '^ok' "$TMP/when.out")" -eq 3
}
when "tab shown" "wait-rows; expect-indexing; expect-analysis none; view analyses; expect-analysis started; quit"
when "link ticked" "wait-rows; expect-indexing; expect-analysis none; links 0 1; expect-analysis started; quit"
when "index done" "wait-rows; expect-analysis none; wait-index; expect-indexed; expect-analysis started; quit"
done_testing
