#!/bin/sh
# The charts of the analyses: the Analyses tab has a time axis (seconds
# from the trace's start, under the scatter, lines through the time
# panels), its scatter's key in a band of its own above the points, a
# tooltip on each point; over the control flow, the wakeup arrows have a
# colour of their own (they had the IRQ's orange), the arrows and the
# critical path's colours are in the legend, and at full zoom the arrows
# are thinned to one per 6 pixels (they were a mass). On traces/qemu-busybox.
. "$(dirname "$0")/lib.sh"
gtk="$BIN/lttv-gtk"
export GSETTINGS_BACKEND=memory ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
unset DISPLAY WAYLAND_DISPLAY
B="$TOP/traces/qemu-busybox"

"$gtk" -t "$B" --export "$TMP/an.png" --view analyses --latency sched --layout >"$TMP/an.l"
check "the Analyses export with --layout" test -s "$TMP/an.png"
check "a time axis: 3 ticks or more, in seconds from the start, in order, 90 pixels apart or more" \
	awk -F'[ =]' '$1 == "axis" { n++; if (n > 1 && ($5 - x < 90 || $7 + 0 <= l + 0)) bad = 1
		x = $5; l = $7 } END { exit bad || n < 3 }' "$TMP/an.l"
check "the axis' labels are the trace's times (3.766 .. 6.543 s): 4.0 .. 6.5" \
	sh -c "grep -q '^axis .* label=4.0$' '$TMP/an.l' && grep -q '^axis .* label=6.5$' '$TMP/an.l'"
check "the scatter's key is a band above its points" \
	awk -F'[ =]' '$1 == "scatter" && $2 == "key_y1" { ok = $3 < $5 } END { exit !ok }' "$TMP/an.l"

"$gtk" -t "$B" --export "$TMP/cf.png" --arrows --critical-path 53 --layout >"$TMP/cf.l"
arrow=$(sed -n 's/^link arrow rgb=//p' "$TMP/cf.l")
# told apart from every state's colour as the states are from each other
# (tests/palette-check.py: CIE76 30 or more)
{ grep '^kind ' "$TMP/cf.l"; echo "kind ARROW rgb=$arrow label=wakeup"; } >"$TMP/pal.l"
check "the wakeup arrows have a colour ($arrow) told apart from every state's" \
	sh -c "test -n '$arrow' && python3 '$TOP/tests/palette-check.py' '$TMP/pal.l' >'$TMP/pal'"
sed 's/^/# /' "$TMP/pal" | grep -v '^# ok'
check "the critical path's 7 kinds have their colours" test "$(grep -c '^link path-' "$TMP/cf.l")" = 7
check "whole trace: the arrows are thinned (fewer drawn than wakeups, one per 6 pixels at most)" \
	awk -F'[ =]' '$1 == "layout" { w = $5 - $3 } $1 == "arrows" { d = $3; t = $5 }
		END { exit !(d > 0 && d < t && d <= w / 6 + 1) }' "$TMP/cf.l"
"$gtk" -t "$B" --export "$TMP/cfz.png" --arrows --range 5.64..5.66 --layout >"$TMP/cfz.l"
check "zoomed in (5.64 .. 5.66 s): every wakeup has its arrow" \
	awk -F'[ =]' '$1 == "arrows" { ok = $3 == $5 && $3 > 0 } END { exit !ok }' "$TMP/cfz.l"
# the legend says the arrow and the path's kinds: the arrow's colour and a
# path colour are drawn in the legend's band
if command -v convert >/dev/null && command -v python3 >/dev/null; then
	convert "$TMP/cf.png" rgb:"$TMP/cf.rgb"
	size=$(identify -format '%w %h' "$TMP/cf.png")
	check "the legend shows the arrow's colour and the path's (timer's) colour" python3 - "$TMP/cf.rgb" $size "$TMP/cf.l" <<'PY'
import re, sys
data, w, h = open(sys.argv[1], 'rb').read(), int(sys.argv[2]), int(sys.argv[3])
lay = open(sys.argv[4]).read()
legend_h = int(re.search(r'legend_h=(\d+)', lay).group(1))
want = [tuple(map(int, re.search(r'^link %s rgb=(\d+),(\d+),(\d+)' % k, lay, re.M).groups()))
        for k in ('arrow', 'path-blocked_timer')]
band = data[3 * w * (h - legend_h):]
seen = {band[i:i + 3] for i in range(0, len(band), 3)}
sys.exit(0 if all(bytes(c) in seen for c in want) else 1)
PY
else
	skip "the legend's colours" "ImageMagick or python3 is missing (scripts/install-deps.sh)"
fi

# the window: a tooltip on a point of the scatter (the longest wait)
if command -v xvfb-run >/dev/null; then
	xvfb-run -a -s "-screen 0 1400x900x24" timeout 120 "$gtk" -t "$B" --self-test \
		"view analyses; latency sched; wait-analysis; sleep 300;
		 analysis-click-worst waited 46.5 ms for a CPU, from; quit" >"$TMP/gui.out" 2>&1
	sed 's/^/# /' "$TMP/gui.out" | grep -v '^# ok - window'
	check "the scatter's longest wait has a tooltip that says what it is" \
		grep -q "^ok - the longest sched's tooltip says \"waited 46.5 ms for a CPU, from\"" "$TMP/gui.out"
else
	skip "the scatter's tooltip" "xvfb-run is missing (scripts/install-deps.sh)"
fi
done_testing
