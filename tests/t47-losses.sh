#!/bin/sh
# Lost events are known when a trace is opened, for the whole trace,
# whatever has been read: traces/types-synthetic reports its losses
# (5 events, 1 corrupted sub-buffer) in a channel.buffer_stats event late
# in cpu_0, after most of its events. Every tool must show them even when
# it reads only the first event (lttv-text --end, lttv-gtk --stats of the
# first microsecond) or nothing yet (the window before indexing, the
# export legend).
. "$(dirname "$0")/lib.sh"

tr="$TOP/traces/types-synthetic"
first=1159000000.250000000	# its first event
gtk="$BIN/lttv-gtk"

"$BIN/lttv-text" -t "$tr" --end $first -q -c >"$TMP/text" 2>"$TMP/text.err"
check "lttv-text --end at the first event still warns of the 5 lost events" \
	grep -q 'lost 5 events and delivered 1 corrupted' "$TMP/text.err"
check "lttv-text -c --end at the first event: cpu 0 lost 5" \
	grep -q '^cpu 0: .*, 5 lost$' "$TMP/text"

(unset DISPLAY WAYLAND_DISPLAY; "$gtk" -t "$tr" --stats --range 0..0.000001 >"$TMP/stats" 2>&1)
check "lttv-gtk --stats of its first microsecond: the Statistics tab's LOST line says 5" \
	grep -q '^\*\*\* THE KERNEL LOST 5 EVENTS AND 1 SUB-BUFFERS' "$TMP/stats"

if ! command -v convert >/dev/null; then
	skip "export legend LOST box" "ImageMagick's convert is missing (scripts/install-deps.sh)"
else
	red() { convert "$1" -fill black +opaque "rgb(220,0,0)" -fill white \
		-opaque "rgb(220,0,0)" -format "%[fx:round(mean*w*h)]" info:; }
	(unset DISPLAY WAYLAND_DISPLAY; "$gtk" -t "$tr" --export "$TMP/lost.png" >/dev/null 2>&1)
	n=$(red "$TMP/lost.png")
	check "export: the legend's red LOST box ($n red pixels)" test "${n:-0}" -gt 1500
fi

if ! command -v xvfb-run >/dev/null; then
	skip "lost-events bar at open" "xvfb-run is missing (scripts/install-deps.sh)"
else
	xvfb-run -a -s "-screen 0 1400x900x24" timeout 60 "$gtk" -t "$tr" \
		--self-test "expect-lost lost 5 events" >"$TMP/gui.out" 2>&1
	check "window: the lost-events bar says 5 before anything is indexed" \
		grep -q '^ok - the red bar says' "$TMP/gui.out"
fi
done_testing
