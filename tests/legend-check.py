#!/usr/bin/env python3
# legend-check.py LAYOUT PIXELS.rgb WIDTH HEIGHT
#
# For tests/t40-export.sh: every colour drawn in the time area of an
# lttv-gtk --export (the bars of every row) must also be in its legend, so
# that nothing on screen goes unexplained. The layout line gives the time
# area (x0..x1, y0 down to the legend, legend_h high). Prints the colours
# drawn and those missing from the legend; exits 1 if any is missing.
import re
import sys

layout, pixels, width, height = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
head = open(layout).readline()
m = re.match(r"layout x0=(\d+) x1=(\d+) y0=(\d+) row_h=(\d+) legend_h=(\d+) ", head)
x0, x1, y0, row_h, legend_h = map(int, m.groups())
names = {}
for ln in open(layout):
    k = re.match(r"kind (\S+) rgb=(\d+),(\d+),(\d+)", ln)
    if k:
        names[tuple(int(v) for v in k.groups()[1:])] = k.group(1)

data = open(pixels, "rb").read()


def colours(xa, xb, ya, yb):
    seen = set()
    for y in range(ya, yb):
        row = data[3 * (y * width + xa):3 * (y * width + xb)]
        for i in range(0, len(row), 3):
            seen.add(row[i:i + 3])
    return {tuple(c) for c in seen}


# what is not a state: the rows' backgrounds and the grid
plain = {(255, 255, 255), (246, 246, 246), (228, 228, 228)}
drawn = colours(x0, x1, y0, height - legend_h) - plain
legend = colours(0, width, height - legend_h, height)
missing = drawn - legend
label = lambda c: "%s(%d,%d,%d)" % ((names.get(c, "?"),) + c)
print("drawn: " + " ".join(sorted(label(c) for c in drawn)))
print("missing from the legend: " + (" ".join(sorted(label(c) for c in missing)) or "none"))
sys.exit(1 if missing or not drawn else 0)
