#!/usr/bin/env python3
# share-compare.py LAYOUT PIXELS.rgb WIDTH PROCESS_STATS TOLERANCE [PID:NAME...]
#
# For tests/t49-zoom-share.sh: the share of each process row of an
# lttv-gtk --export drawn in each running mode (the colour of the pixels on
# the row's middle line, the colours named by the layout's "kind" lines)
# against the share of time the state engine says the process spent in that
# mode (lttv-text --process-stats, seconds over the exported window).
# Prints one line per row checked and the worst difference; exits 1 when a
# difference exceeds TOLERANCE (a fraction: 0.05 is 5 points of the row).
# The PID:NAME arguments must be among the rows checked (they are printed).
import re
import sys

layout, pixels, width, stats, tol = sys.argv[1:6]
width, tol = int(width), float(tol)
must = sys.argv[6:]

lines = open(layout).read().splitlines()
m = re.match(r"layout x0=(\d+) x1=(\d+) y0=(\d+) row_h=(\d+) legend_h=\d+ t0=(\d+) t1=(\d+) "
             r"rows=(\d+)", lines[0])
x0, x1, y0, row_h, t0, t1, nrows = map(int, m.groups())
window_s = (t1 - t0) / 1e9
kind_of_rgb = {}
for ln in lines:
    m = re.match(r"kind (\S+) rgb=(\d+),(\d+),(\d+)", ln)
    if m:
        kind_of_rgb[tuple(int(v) for v in m.groups()[1:])] = m.group(1)
rows = []
for ln in lines:
    m = re.match(r"row (\d+) process pid=(\d+) name=(\S+)$", ln)
    if m:
        rows.append((int(m.group(1)), int(m.group(2)), m.group(3)))

# lttv-text --process-stats: pid tgid name user syscall trap irq softirq unknown idle total
modes = ["USER_MODE", "SYSCALL", "TRAP", "IRQ", "SOFTIRQ", "RUN_UNKNOWN"]
engine = {}
for ln in open(stats):
    f = ln.split()
    if len(f) == 11 and f[0].isdigit():
        engine[(int(f[0]), f[2])] = [float(v) for v in f[3:9]]

data = open(pixels, "rb").read()
worst, checked, bad, seen = 0.0, 0, 0, set()
for r, pid, name in rows:
    if (pid, name) not in engine or pid == 0:
        continue	# the idle tasks: their user mode is drawn as idle
    y = y0 + r * row_h + row_h // 2
    drawn = {}
    for x in range(x0, x1):
        o = 3 * (y * width + x)
        k = kind_of_rgb.get(tuple(data[o:o + 3]), "other")
        drawn[k] = drawn.get(k, 0) + 1
    cols = x1 - x0
    secs = engine[(pid, name)]
    diffs = []
    for i, mode in enumerate(modes):
        want = secs[i] / window_s
        got = drawn.get(mode, 0) / cols
        diffs.append((abs(got - want), mode, got, want))
    # and the time it did not run (waiting, ready, ...): the rest
    want = 1 - sum(secs) / window_s
    got = 1 - sum(drawn.get(m, 0) for m in modes) / cols
    diffs.append((abs(got - want), "not running", got, want))
    d = max(diffs)
    checked += 1
    seen.add("%d:%s" % (pid, name))
    worst = max(worst, d[0])
    if d[0] > tol:
        bad += 1
    if d[0] > tol or "%d:%s" % (pid, name) in must:
        print("%s %d %s: %s" % ("BAD" if d[0] > tol else "ok", pid, name,
              ", ".join("%s drawn %.1f%% spent %.1f%%" % (m, 100 * g, 100 * w)
                        for _, m, g, w in diffs if g or w)))
missing = [p for p in must if p not in seen]
print("rows checked %d, worst difference %.2f points, over %.0f: %d, missing: %s"
      % (checked, 100 * worst, 100 * tol, bad, " ".join(missing) or "none"))
sys.exit(1 if bad or missing or checked == 0 else 0)
