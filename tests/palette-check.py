#!/usr/bin/env python3
# palette-check.py LAYOUT
#
# For tests/t40-export.sh: the colours of the states (the layout's "kind"
# lines) must be told apart at a glance. The distance is CIE76 (Euclidean
# in CIE L*a*b*, D65 white): about 2.3 is just noticeable, above 20 two
# colours read as different ones. Any two states: at least 30; the pairs
# that the issue found confused (waiting / IRQ, trap / zombie): at least 50.
import itertools
import re
import sys


def lab(rgb):
    def lin(u):
        u /= 255
        return ((u + 0.055) / 1.055) ** 2.4 if u > 0.04045 else u / 12.92

    r, g, b = (lin(v) for v in rgb)
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883
    f = lambda t: t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116
    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def dist(a, b):
    return sum((p - q) ** 2 for p, q in zip(lab(a), lab(b))) ** 0.5


kinds = {}
for ln in open(sys.argv[1]):
    m = re.match(r"kind (\S+) rgb=(\d+),(\d+),(\d+)", ln)
    if m:
        kinds[m.group(1)] = tuple(int(v) for v in m.groups()[1:])
bad = 0
for a, b in itertools.combinations(sorted(kinds), 2):
    d = dist(kinds[a], kinds[b])
    need = 50 if {a, b} in ({"WAIT", "IRQ"}, {"TRAP", "ZOMBIE"}) else 30
    if d < need or {a, b} in ({"WAIT", "IRQ"}, {"TRAP", "ZOMBIE"}):
        print("%s %s / %s: %.1f (at least %d)" % ("ok" if d >= need else "BAD", a, b, d, need))
    bad += d < need
print("%d states, %d pairs too close" % (len(kinds), bad))
sys.exit(1 if bad or len(kinds) < 14 else 0)
