#!/bin/sh
# Traces compared side by side in the window (issue 30 item 10): lttv-gtk
# -t A -t B --side-by-side [--offset 2:+0.5] opens A as the window's trace
# (every tool) under a band naming it, and draws B's rows in a pane under
# it, under B's band, on one time axis (each trace's first event at 0, then
# its offset), sharing the window's zoom, scroll and cursors. Checked with
# two different bundled traces (qemu-busybox, qemu-usertrace) from the
# self-test's print-compare (the export's --layout lines for what the
# window draws) and from screenshots: B's rows are the export's, at the
# same axis times; the offset moves B's rows (and only B's) by 0.5 s in
# time and in pixels; a range, a click in either trace and Ctrl+wheel in
# B's pane move the range and cursor A of both; dragging B's band moves B
# on the axis; the pane's tooltip says the interval B's own tooltip says.
. "$(dirname "$0")/lib.sh"

gui_test "traces side by side in the window"
A="$TOP/traces/qemu-busybox"
B="$TOP/traces/qemu-usertrace"

gui() { # out offset script
	out=$1 off=$2
	shift 2
	xvfb-run -a -s "-screen 0 1400x900x24" timeout 120 "$gtk" -t "$A" -t "$B" --side-by-side \
		${off:+--offset 2:$off} --self-test "size 1400 900; wait-index; wait-compare; $*; quit" \
		>"$out" 2>"$out.err"
	echo "# exit $? $(grep '^# self-test' "$out")"
}
# the lines of a part of print-compare's output ("== NAME" to the next)
part() { awk -v s="== $2" '$0 == s { on = 1; next } /^== / { on = 0 } on' "$1"; }

gui "$TMP/off" +0.5 "range 0..3; sleep 300; print-compare fit; screenshot $TMP/off.png;
	range 0.5..2.5; click-time 1.5 37; sleep 300; print-compare click;
	screenshot $TMP/click.png; pane-click 1.25; sleep 300; expect-cursor a 1.25;
	print-compare pane; pane-scroll 1.0 down ctrl; sleep 300; print-compare zoom;
	drag-band 1.0 0 1.25; sleep 300; print-compare band"
gui "$TMP/zero" "" "range 0..3; click-time 2.6 37; key b; click-time 2.9 37; sleep 300;
	print-compare fit; screenshot $TMP/zero.png"
check "the self-tests ran, none of their checks failed" \
	sh -c "grep -q '^# self-test: [1-9][0-9]* checks, 0 failed' '$TMP/off' &&
	       grep -q '^# self-test: [1-9][0-9]* checks, 0 failed' '$TMP/zero'"
part "$TMP/off" fit >"$TMP/fit"
part "$TMP/zero" fit >"$TMP/fit0"
check "group 0 is trace A in the control flow, group 1 trace B in the pane, with its offset" \
	sh -c "grep -q '^group 0 y=[0-9]* rows=[1-9][0-9]* offset=0 trace=.*qemu-busybox$' '$TMP/fit' &&
	       grep -q '^group 1 y=[0-9]* rows=[1-9][0-9]* offset=500000000 trace=.*qemu-usertrace$' '$TMP/fit'"

# the rows as the export draws them side by side (multi.c, the same code)
rows() { sed -n "s/^row [0-9]* group=$2 y=[0-9]* \(.*\) x=.*/\1/p" "$1"; }
"$gtk" -t "$A" -t "$B" --side-by-side --offset 2:+0.5 --export "$TMP/e.png" --layout \
	>"$TMP/export" 2>"$TMP/err"
for g in 0 1; do
	rows "$TMP/fit" $g >"$TMP/w$g"
	rows "$TMP/export" $g >"$TMP/e$g"
	check "group $g: the window's rows are the export's, at the same axis times ($(wc -l <"$TMP/w$g") rows)" \
		sh -c "test -s '$TMP/w$g' && cmp -s '$TMP/w$g' '$TMP/e$g'"
done
check "the two traces' rows differ (two traces, not one twice)" \
	sh -c "! cmp -s '$TMP/w0' '$TMP/w1'"

# the offset: B's pid 52 (usertrace-example) 0.5 s later on the axis and
# that many pixels to the right at the same range; A's pid 52 (cat) unmoved
first() { sed -n "s/^row [0-9]* group=$2 .* pid=52 name=[^ ]* first=\([0-9]*\) x=.*/\1/p" "$1"; }
xof() { sed -n "s/^row [0-9]* group=$2 .* pid=52 name=[^ ]* first=[0-9]* x=\([0-9.]*\)$/\1/p" "$1"; }
yof() { sed -n "s/^row [0-9]* group=$2 y=\([0-9]*\) .* pid=52 .*/\1/p" "$1"; }
check "B's pid 52 changes state first 0.5 s later with the offset ($(first "$TMP/fit0" 1) -> $(first "$TMP/fit" 1))" \
	awk -v a="$(first "$TMP/fit0" 1)" -v b="$(first "$TMP/fit" 1)" 'BEGIN { exit !(a != "" && b - a == 500000000) }'
check "A's pid 52 does not move" \
	sh -c "test -n '$(first "$TMP/fit" 0)' && test '$(first "$TMP/fit" 0)' = '$(first "$TMP/fit0" 0)'"
read -r x0 x1 t0 t1 <<EOF
$(sed -n 's/^sidebyside .* x0=\([0-9]*\) x1=\([0-9]*\) t0=\(-*[0-9]*\) t1=\([0-9]*\)$/\1 \2 \3 \4/p' "$TMP/fit")
EOF
check "the range 0..3 s of the axis is shown" test "$t0" = 0 -a "$t1" = 3000000000
dx=$(awk -v a="$x0" -v b="$x1" -v s="$t0" -v e="$t1" 'BEGIN { print (b - a) * 0.5e9 / (e - s) }')
check "B's pid 52 is drawn $dx pixels to the right with the offset ($(xof "$TMP/fit0" 1) -> $(xof "$TMP/fit" 1))" \
	awk -v a="$(xof "$TMP/fit0" 1)" -v b="$(xof "$TMP/fit" 1)" -v d="$dx" \
	'BEGIN { exit !(a != "" && b - a > d - 0.1 && b - a < d + 0.1) }'

# the pixels of the screenshots
born_x() { # png y: the first x of the time area, in that line, neither background nor grid
	png_first_drawn "$1" $((x0 + ax0)) $((x1 - x0)) "$2"
}
if command -v convert >/dev/null; then
	ax0=$(sed -n 's/^area cf x=\([0-9]*\) .*/\1/p' "$TMP/fit")
	for g in 0 1; do
		gy=$(sed -n "s/^group $g y=\([0-9]*\) .*/\1/p" "$TMP/fit")
		check "trace $((g + 1))'s band is drawn over its rows (y=$gy)" \
			test "$(png_px "$TMP/off.png" 5 $((gy + 3)))" = 60,70,90
	done
	y1=$(($(yof "$TMP/fit" 1) + 10))
	y0=$(($(yof "$TMP/fit" 0) + 10))
	b1=$(born_x "$TMP/off.png" "$y1") c1=$(born_x "$TMP/zero.png" "$y1")
	b0=$(born_x "$TMP/off.png" "$y0") c0=$(born_x "$TMP/zero.png" "$y0")
	echo "# B's pid 52 drawn from x=$c1 (no offset), x=$b1 (+0.5 s); A's from x=$c0, x=$b0"
	check "B's pid 52 is drawn about $dx pixels later in the pane with the offset" \
		awk -v a="$c1" -v b="$b1" -v d="$dx" 'BEGIN { exit !(a != "" && b - a >= d - 1.5 && b - a <= d + 1.5) }'
	check "A's pid 52 is drawn where it was" \
		sh -c "test -n '$b0' && test '$b0' = '$c0'"
	# a bookmark (b at cursor A, 2.6 s) across both traces' rows, in green
	bx=$(awk -v o="$ax0" -v a="$x0" -v b="$x1" -v s="$t0" -v e="$t1" \
		'BEGIN { print o + int(a + (b - a) * (2.6e9 - s) / (e - s)) }')
	check "the bookmark at 2.6 s is drawn across A's and B's rows (x=$bx)" \
		sh -c "test '$(png_px "$TMP/zero.png" "$bx" "$y0")' = 0,150,50 &&
		       test '$(png_px "$TMP/zero.png" "$bx" "$y1")' = 0,150,50"
else
	skip "the pixels of the side-by-side window" "convert (ImageMagick) is missing"
fi

# one range and one cursor A for both: set in A's control flow, in B's pane
view() { part "$TMP/off" "$1" | sed -n "s/^view group=$2 t0=\([-0-9]*\) t1=\([-0-9]*\) a=\([-0-9]*\) b=[-0-9]* ax=\([-0-9]*\)$/\1 \2 \3 \4/p"; }
check "range 0.5..2.5 and a click at 1.5 s in A: both traces show that range and cursor A" \
	sh -c "test -n '$(view click 0)' && test '$(view click 0)' = '$(view click 1)' &&
	       echo '$(view click 1)' | awk '{ exit !(\$1 == 500000000 && \$2 == 2500000000 &&
	       \$3 > 1495000000 && \$3 < 1505000000) }'"
if command -v convert >/dev/null; then
	ax=$(view click 1 | cut -d' ' -f4)
	check "cursor A is drawn in red across B's rows (x=$ax, y=$y1)" \
		test "$(png_px "$TMP/click.png" "$ax" "$y1")" = 220,0,0
fi
check "a click at 1.25 s in B's pane: cursor A of both at 1.25 s" \
	sh -c "test '$(view pane 0)' = '$(view pane 1)' && echo '$(view pane 1)' |
	       awk '{ exit !(\$3 > 1245000000 && \$3 < 1255000000) }'"
check "Ctrl+wheel in B's pane zooms both out 1.25 times about 1.0 s" \
	sh -c "test '$(view zoom 0)' = '$(view zoom 1)' && echo '$(view zoom 1)' |
	       awk '{ d = \$2 - \$1; exit !(d > 2.49e9 && d < 2.51e9 && \$1 > 0.37e9 && \$1 < 0.38e9) }'"

# B's band dragged 0.25 s to the right: its offset 0.75 s (a round
# number, not the pixel's time), its rows 0.25 s later, A's unmoved
part "$TMP/off" band >"$TMP/band"
check "B's band dragged by 0.25 s: offset 0.75 s" \
	grep -q '^group 1 y=[0-9]* rows=[1-9][0-9]* offset=750000000 trace=.*qemu-usertrace$' "$TMP/band"
check "B's pid 52 0.25 s later, A's where it was" \
	awk -v a="$(first "$TMP/fit" 1)" -v b="$(first "$TMP/band" 1)" \
	    -v c="$(first "$TMP/fit" 0)" -v d="$(first "$TMP/band" 0)" \
	'BEGIN { exit !(a != "" && b - a == 250000000 && c != "" && c == d) }'

# the pane's tooltip: B's row and its state, whole, on the axis; the same
# interval as B's own tooltip when B is the window's trace (B first, with
# the same offset: the same axis)
iv1="1.688566703 .. 1.703772357 s" iv2="1.243164438 .. 1.322981950 s"
gui "$TMP/tip" +0.5 "expect-pane-tip 1.7 52 usertrace-example (pid 52)|system call|$iv1 of the shared axis (15.206 ms);
	expect-pane-tip 1.3 50 cat (pid 50)|zombie|$iv2"
xvfb-run -a -s "-screen 0 1400x900x24" timeout 120 "$gtk" -t "$B" -t "$A" --side-by-side \
	--offset 1:+0.5 --self-test "size 1400 900; wait-index; wait-compare;
	expect-tip 1.7 52 usertrace-example (pid 52)|system call (execve)|$iv1 (15.206 ms);
	expect-tip 1.3 50 cat (pid 50)|zombie|$iv2; quit" >"$TMP/tipb" 2>&1
sed 's/^/# /' "$TMP/tip" "$TMP/tipb"
check "B's tooltip in the pane says its row, state and whole interval on the axis" \
	grep -q '^# self-test: 2 checks, 0 failed' "$TMP/tip"
check "the same intervals as B's tooltip when B is the window's trace" \
	grep -q '^# self-test: 2 checks, 0 failed' "$TMP/tipb"

# --range in seconds of the shared axis, as the export's: a range where
# only B (10 s later) has events opens; one where no trace has any is refused
xvfb-run -a -s "-screen 0 1400x900x24" timeout 120 "$gtk" -t "$A" -t "$B" --side-by-side \
	--offset 2:+10 --range 10.5..11 --self-test "wait-index; wait-compare; print-compare; quit" \
	>"$TMP/range" 2>&1
check "--range 10.5..11 with B 10 s later: both traces show it" \
	sh -c "grep -q '^view group=0 t0=10500000000 t1=11000000000 ' '$TMP/range' &&
	       grep -q '^view group=1 t0=10500000000 t1=11000000000 ' '$TMP/range'"
fails_with "a --range where no trace has events refused" 2 "shared axis" \
	xvfb-run -a -s "-screen 0 800x600x24" timeout 60 "$gtk" -t "$A" -t "$B" --side-by-side \
	--offset 2:+10 --range 20..21 --self-test "quit"

# bad command lines, before any window
fails_with "one trace side by side refused" 2 "two or more -t" "$gtk" -t "$A" --side-by-side
fails_with "--follow side by side refused" 2 "without --follow" \
	"$gtk" -t "$A" -t "$B" --side-by-side --follow
fails_with "a bad --offset refused by the window too" 2 "^lttv-gtk: --offset" \
	"$gtk" -t "$A" -t "$B" --side-by-side --offset 3:1
fails_with "a second trace that does not open: exit 1, named" 1 "cannot open trace $TMP/none" \
	xvfb-run -a -s "-screen 0 800x600x24" timeout 60 "$gtk" -t "$A" -t "$TMP/none" \
	--side-by-side --self-test "quit"
done_testing
