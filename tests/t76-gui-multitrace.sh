#!/bin/sh
# Traces compared side by side (issue 30 item 10): lttv-gtk --export
# --side-by-side draws each trace as its own group of rows under a band
# naming it, every trace's first event at 0 of one axis, --offset N:SECONDS
# moving trace N. Checked on traces/qemu-busybox opened twice, from
# --layout (rows, their first change of state, where it is drawn) and from
# the pixels: the same rows in both groups; with --offset 2:+1.25 the
# second group's every first change is 1.25 s later on the axis and drawn
# that many pixels to the right; each group under its dark band; --range
# in seconds of the shared axis; a trace's lost events said in its own
# group's legend; bad offsets refused with exit status 2.
. "$(dirname "$0")/lib.sh"
B="$TOP/traces/qemu-busybox"
gtk="$BIN/lttv-gtk"

"$gtk" -t "$B" --export "$TMP/one.png" --layout >"$TMP/one" 2>"$TMP/err"
"$gtk" -t "$B" -t "$B" --export "$TMP/two.png" --side-by-side --layout >"$TMP/two" 2>"$TMP/err"
rc=$?
check "side by side: exit 0 (exit $rc)" test "$rc" -eq 0
check "two groups, each of the trace's rows" sh -c "grep -q '^sidebyside groups=2 ' '$TMP/two' &&
	test \"\$(grep -c '^group ' '$TMP/two')\" -eq 2"
# the rows of a group: "process pid=.. name=.. first=.." (the same trace: the same times)
rows_of() { sed -n "s/^row [0-9]* group=$2 y=[0-9]* \(.*\) x=.*/\1/p" "$1"; }
rows_of "$TMP/two" 0 >"$TMP/g0"
rows_of "$TMP/two" 1 >"$TMP/g1"
sed -n 's/^row [0-9]* \(process .*\)/\1/p' "$TMP/one" >"$TMP/alone"
check "both groups have the same rows, in the same order, at the same times ($(wc -l <"$TMP/g0") rows)" \
	sh -c "test -s '$TMP/g0' && cmp -s '$TMP/g0' '$TMP/g1'"
check "a group's rows are those of the trace opened alone" \
	sh -c "sed 's/ first=.*//' '$TMP/g0' | cmp -s - '$TMP/alone'"
check "pid 52 is a row in each group" \
	test "$(grep -c '^row [0-9]* group=[01] .* pid=52 name=cat ' "$TMP/two")" -eq 2

"$gtk" -t "$B" -t "$B" --export "$TMP/off.png" --side-by-side --offset 2:+1.25 --layout \
	>"$TMP/off" 2>"$TMP/err"
rc=$?
check "--offset 2:+1.25: exit 0 (exit $rc)" test "$rc" -eq 0
check "the second group says its offset" grep -q '^group 1 .* offset=1250000000 ' "$TMP/off"
rows_of "$TMP/off" 0 | grep -v 'first=-$' | sed 's/.* first=//' >"$TMP/f0"
rows_of "$TMP/off" 1 | grep -v 'first=-$' | sed 's/.* first=//' >"$TMP/f1"
check "every first change of the second group is 1.25 s later ($(wc -l <"$TMP/f0") rows)" \
	sh -c "test -s '$TMP/f0' && paste '$TMP/f0' '$TMP/f1' |
	       awk '\$2 - \$1 != 1250000000 { bad++ } END { exit bad > 0 }'"
# and drawn there: x grows by 1.25 s in pixels (x1 - x0 pixels for t1 - t0)
sed -n 's/^sidebyside .* x0=\([0-9]*\) x1=\([0-9]*\) t0=\(-*[0-9]*\) t1=\([0-9]*\)$/\1 \2 \3 \4/p' \
	"$TMP/off" >"$TMP/axis"
read -r x0 x1 t0 t1 <"$TMP/axis"
check "the layout gives the axis" test -n "$t1"
dx=$(awk -v a="$x0" -v b="$x1" -v s="$t0" -v e="$t1" 'BEGIN { print (b - a) * 1.25e9 / (e - s) }')
x_of() { sed -n "s/^row [0-9]* group=$2 .* pid=52 name=cat first=[0-9]* x=\([0-9.]*\)$/\1/p" "$1"; }
check "pid 52's first change is drawn $dx pixels to the right in the second group" \
	awk -v a="$(x_of "$TMP/off" 0)" -v b="$(x_of "$TMP/off" 1)" -v d="$dx" \
	'BEGIN { exit !(a != "" && b - a > d - 0.1 && b - a < d + 0.1) }'
# the pixels: where pid 52's row first has a colour (its birth), in each group
y_of() { sed -n "s/^row [0-9]* group=$2 y=\([0-9]*\) .* pid=52 name=cat .*/\1/p" "$1"; }
born_x() { # png y: the first x of the time area that is not background or grid
	png_first_drawn "$1" "$x0" $((x1 - x0)) $(($2 + 10))
}
if command -v convert >/dev/null; then
	b0=$(born_x "$TMP/off.png" "$(y_of "$TMP/off" 0)")
	b1=$(born_x "$TMP/off.png" "$(y_of "$TMP/off" 1)")
	echo "# pid 52 drawn from x=$b0 (group 1), x=$b1 (group 2), $dx pixels apart wanted"
	check "pid 52's bar starts about $dx pixels later in the second group" \
		awk -v a="$b0" -v b="$b1" -v d="$dx" 'BEGIN { exit !(a != "" && b - a >= d - 1.5 && b - a <= d + 1.5) }'
	# the band naming each trace: dark, where --layout says the group starts
	band() { png_px "$TMP/off.png" 5 $(($1 + 3)); }
	gy=$(sed -n 's/^group 1 y=\([0-9]*\) .*/\1/p' "$TMP/off")
	check "each group under its dark band" sh -c "test '$(band 0)' = 60,70,90 && test '$(band "$gy")' = 60,70,90"
	# a trace's losses in its own group's legend (one legend under the
	# last group said only the last trace's)
	red() { # png y h: the red pixels of the lost-events box in that band
		convert "$1" -crop "$(convert "$1" -format %w info:)x$3+0+$2" \
			-fill black +opaque "rgb(220,0,0)" -fill white -opaque "rgb(220,0,0)" \
			-format "%[fx:round(mean*w*h)]" info:; }
	"$TOP/$BUILD/tests/test_state" --write-trace "$TMP/lost" --lost 42 >/dev/null 2>&1
	"$gtk" -t "$TMP/lost" -t "$B" --export "$TMP/lost.png" --side-by-side --layout \
		>"$TMP/lostl" 2>/dev/null
	ly=$(sed -n 's/^group 1 y=\([0-9]*\) .*/\1/p' "$TMP/lostl")
	r0=$(red "$TMP/lost.png" 0 "${ly:-1}")
	r1=$(red "$TMP/lost.png" "${ly:-0}" 2000)
	check "the lost events said in red in the lossy trace's group ($r0 pixels), not in the other ($r1)" \
		test "${r0:-0}" -gt 1500 -a "${r1:-1}" -eq 0
else
	skip "pixels of the offset" "convert (ImageMagick) is missing"
fi
"$gtk" -t "$B" -t "$B" --export "$TMP/r.png" --side-by-side --offset 2:+1.25 --range 1..2 --layout \
	>"$TMP/r" 2>"$TMP/err"
check "--range in seconds of the shared axis" grep -q '^sidebyside .* t0=1000000000 t1=2000000000$' "$TMP/r"
fails_with "a --range outside the axis refused" 2 "shared axis" \
	"$gtk" -t "$B" -t "$B" --export "$TMP/bad.png" --side-by-side --range 90..91

"$gtk" -t "$B" -t "$B" --export "$TMP/res.png" --side-by-side --view resources --layout \
	>"$TMP/res" 2>"$TMP/err"
check "resources side by side: the same CPU and IRQ rows in each group" \
	sh -c "test -s '$TMP/res' && rows() { sed -n \"s/^row [0-9]* group=\$1 y=[0-9]* \\(.*\\)/\\1/p\" '$TMP/res'; } &&
	       test -n \"\$(rows 0)\" && test \"\$(rows 0)\" = \"\$(rows 1)\""

# bad input: a clear error, exit 2, no picture
for o in 3:1 0:1 2:abc 2: x:1 21 2:+-1 2:1.5s 2:99999999; do
	fails_with "--offset $o refused" 2 "^lttv-gtk: --offset" \
		"$gtk" -t "$B" -t "$B" --export "$TMP/bad.png" --side-by-side --offset "$o"
done
fails_with "an offset given twice refused" 2 "has an offset already" \
	"$gtk" -t "$B" -t "$B" --export "$TMP/bad.png" --side-by-side --offset 2:1 --offset 2:2
fails_with "--offset without --side-by-side refused" 2 "goes with --side-by-side" \
	"$gtk" -t "$B" -t "$B" --export "$TMP/bad.png" --offset 2:1
fails_with "--side-by-side with --stats refused" 2 "goes with the window or --export" \
	"$gtk" -t "$B" -t "$B" --side-by-side --stats
fails_with "a second trace that does not open: exit 1, named" 1 "cannot open trace $TMP/none" \
	"$gtk" -t "$B" -t "$TMP/none" --export "$TMP/bad.png" --side-by-side
check "no picture written by a refused command" test ! -e "$TMP/bad.png"
done_testing
