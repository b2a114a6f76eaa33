#!/usr/bin/env python3
"""Where in the benchmark kernel a profile's samples fell, per function and
per instruction: bench/tracer.py --perf --dir OUT keeps every kernel
sample's address (OUT/guest/perf-LOAD.ips, `perf script -F ip` in the
guest); this maps them onto build-kernel-bench's vmlinux (nm, objdump),
which must be the kernel that was profiled (no KASLR in the bench kernel).

    bench/perf-lines.py OUT/guest/perf-ours-getpid.ips [FUNCTION...]

prints the share of each function (user-space samples together), then the
disassembly of each FUNCTION with its samples per instruction.  Under
QEMU's TCG an interrupt is taken between translated blocks, so a sample
lands on the first instruction of the block after the one where the time
went (after a rep-prefixed instruction: on itself, once per iteration).
"""
import bisect
import collections
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import guest  # noqa: E402


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    vmlinux = os.path.join(guest.KTREE, 'vmlinux')
    nm = subprocess.run(['nm', '-n', vmlinux], capture_output=True, text=True, check=True).stdout
    syms = [(int(w[0], 16), w[2]) for w in (ln.split() for ln in nm.splitlines())
            if len(w) == 3 and w[1] in 'tTwW']
    addrs = [a for a, _ in syms]
    with open(sys.argv[1]) as f:
        hits = collections.Counter(int(ln, 16) for ln in f if ln.strip())
    total = sum(hits.values())
    if not total:
        sys.exit('perf-lines: no samples in %s' % sys.argv[1])
    per_fn = collections.Counter()
    for a, n in hits.items():
        i = bisect.bisect_right(addrs, a) - 1
        per_fn['[user]' if a < 0xffffffff80000000 or i < 0 else syms[i][1]] += n
    print('%d samples' % total)
    for fn, n in per_fn.most_common(30):
        print('%6.2f%% %6d  %s' % (100.0 * n / total, n, fn))
    names = [n for _, n in syms]
    for fn in sys.argv[2:]:
        if fn not in names:
            print('\nno function %s in %s' % (fn, vmlinux))
            continue
        i = names.index(fn)
        lo, hi = syms[i][0], syms[i + 1][0]
        dis = subprocess.run(['objdump', '-d', '--no-show-raw-insn', vmlinux,
                              '--start-address=%d' % lo, '--stop-address=%d' % hi],
                             capture_output=True, text=True, check=True).stdout
        print('\n%s: %d samples' % (fn, sum(n for a, n in hits.items() if lo <= a < hi)))
        for ln in dis.splitlines():
            m = re.match(r'\s*([0-9a-f]+):\s*(.*)', ln)
            if m:
                print('%6s  %s' % (hits.get(int(m.group(1), 16), ''), ln.strip()))


if __name__ == '__main__':
    main()
