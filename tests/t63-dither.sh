#!/bin/sh
# Zoomed out, where a pixel holds many states, each row shows one of them
# so that its share drawn follows its time (t49); on 5 M events of a busy
# machine, whole trace, that pattern is not shared by the rows (every row
# showed green, blue and orange at the same x: machine-wide events that
# never were) and is no regular comb of ticks (tests/dither-check.py).
. "$(dirname "$0")/lib.sh"
unset DISPLAY WAYLAND_DISPLAY
if ! command -v convert >/dev/null || ! command -v python3 >/dev/null; then
	skip "zoomed-out patterns" "ImageMagick or python3 is missing (scripts/install-deps.sh)"
	done_testing
	exit
fi
"$BIN/ltt-tracegen" --scenario busy --events 5000000 -o "$TMP/busy" >/dev/null 2>&1
check "5 M events of a busy machine are written" test -s "$TMP/busy/cpu_0"
"$BIN/lttv-gtk" -t "$TMP/busy" --export "$TMP/b.png" --size 1200x1400 --layout >"$TMP/b.l" 2>"$TMP/err"
check "exported, whole trace, 1200 pixels wide" test -s "$TMP/b.png"
rm -rf "$TMP/busy"
convert "$TMP/b.png" rgb:"$TMP/b.rgb"
python3 "$TOP/tests/dither-check.py" "$TMP/b.l" "$TMP/b.rgb" 1200 >"$TMP/out"
rc=$?
sed 's/^/# /' "$TMP/out"
check "the rows' patterns are independent and not a comb" test $rc -eq 0
done_testing
