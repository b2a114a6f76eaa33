#!/usr/bin/env python3
"""dither-check.py LAYOUT PIXELS.rgb WIDTH

For tests/t63-dither.sh: an lttv-gtk --export --layout of a zoomed-out
control flow, read back along the middle of each process row. Where a
pixel holds several states the row shows one of them, so that the share
drawn follows the time spent; the pattern must not be shared by the rows
(rows of one mixture showed the same kinds at the same x: events that
look simultaneous machine-wide) nor be a regular comb.

  alignment  for each kind that takes 0.5 to 10 % of 10 rows or more, and
             every two of those rows, the x where both show it, against
             what two independent rows would give (their rates
             multiplied): the ratio of the sums, about 1 for independent
             rows; 3 or more fails;
  comb       for each row and each kind that takes 1 to 25 % of it (10
             pixels or more), the coefficient of variation of the gaps
             between its pixels: a regular comb is near 0, places drawn
             at random near 1; a median under 0.4 fails.

The first and last 10 pixels are left out (every row starts together).
"""
import re
import statistics
import sys

layout, pixels, width = sys.argv[1], sys.argv[2], int(sys.argv[3])
head = open(layout).readline()
x0, x1, y0, row_h = map(int, re.match(r"layout x0=(\d+) x1=(\d+) y0=(\d+) row_h=(\d+) ",
                                      head).groups())
kinds, rows = {}, []
for ln in open(layout):
    k = re.match(r"kind (\S+) rgb=(\d+),(\d+),(\d+)", ln)
    if k:
        kinds[bytes(int(v) for v in k.groups()[1:])] = k.group(1)
    r = re.match(r"row (\d+) process pid=(\d+)", ln)
    if r and r.group(2) != '0':
        rows.append(int(r.group(1)))
data = open(pixels, "rb").read()
height = len(data) // (3 * width)
a, b = x0 + 10, x1 - 10
seqs = []
for r in rows:
    y = y0 + r * row_h + row_h // 2
    if y < height:
        seqs.append([data[3 * (y * width + x):3 * (y * width + x) + 3] for x in range(a, b)])
n = b - a
bad = 0
for c, name in sorted(kinds.items(), key=lambda kv: kv[1]):
    rates = [sum(1 for v in s if v == c) / n for s in seqs]
    idx = [i for i, p in enumerate(rates) if 0.005 <= p <= 0.10]
    if len(idx) < 10:
        continue
    coinc = expect = 0.0
    for u in range(len(idx)):
        for w in range(u + 1, len(idx)):
            i, j = idx[u], idx[w]
            coinc += sum(1 for p, q in zip(seqs[i], seqs[j]) if p == c and q == c)
            expect += n * rates[i] * rates[j]
    ratio = coinc / expect
    print("alignment %s: %.2f over %d rows" % (name, ratio, len(idx)))
    bad += ratio >= 3
cvs = []
for s in seqs:
    for c in kinds:
        pos = [x for x, v in enumerate(s) if v == c]
        if len(pos) < 10 or not 0.01 <= len(pos) / n <= 0.25:
            continue
        gaps = [q - p for p, q in zip(pos, pos[1:])]
        cvs.append(statistics.pstdev(gaps) / statistics.mean(gaps))
med = statistics.median(cvs) if cvs else 0
print("comb: median coefficient of variation of the gaps %.2f over %d (row, kind)"
      % (med, len(cvs)))
sys.exit(1 if bad or not cvs or med < 0.4 else 0)
