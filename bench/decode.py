#!/usr/bin/env python3
"""Decoding benchmark: lttv-text against babeltrace2 on the same events.

For each size N (default 1 M and 10 M events), ltt-tracegen writes a trace
with a kernel-like mix (scheduler, system calls, interrupts; a few fields
each), lttv-convert turns it into CTF, and every command below runs R times
(default 5) on it, output to /dev/null. Prints the median wall time,
events/s, the median CPU time (user + system: on a shared machine the wall
clock also counts the others' work), peak memory and the ratios, as a
Markdown table.

    bench/decode.py [--events 1000000,10000000] [--runs 5] [--dir /tmp/x]

Compared pairs:
  text dump      lttv-text -t T          vs  babeltrace2 CTF (sink.text.pretty)
  decode only    lttv-text -t T -q -S    vs  babeltrace2 CTF -c sink.utils.dummy
                 (per-type statistics)       (decodes every event, no output)
  count only     lttv-text -t T -q           (iterate in time order, no fields)
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hostrun  # noqa: E402

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.path.join(TOP, 'build', 'bin')


def run(cmd):
    """Runs cmd with output to /dev/null; returns (seconds, peak RSS in MiB,
    CPU seconds: user + system)."""
    _, dt, cpu, rss = hostrun.run_timed(cmd, keep_output=False)
    return dt, rss, cpu


def measure(cmd, runs):
    """Median wall and CPU seconds over runs, and the largest peak RSS."""
    times, cpus, mem = [], [], 0.0
    run(cmd)  # warm the page cache
    for _ in range(runs):
        t, m, c = run(cmd)
        times.append(t)
        cpus.append(c)
        mem = max(mem, m)
    return statistics.median(times), mem, statistics.median(cpus)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--events', default='1000000,10000000')
    ap.add_argument('--runs', type=int, default=5)
    ap.add_argument('--dir', default=None, help='scratch folder (default: a temporary one)')
    a = ap.parse_args()
    if not shutil.which('babeltrace2'):
        print('decoding benchmark skipped: babeltrace2 is not installed (scripts/install-deps.sh installs it)')
        return
    scratch = a.dir or tempfile.mkdtemp(prefix='ltt-bench-')
    print('# Decoding benchmark\n')
    print('machine: %s, %d CPUs, load average %.1f at the start; %s; median of %d runs, '
          'output to /dev/null\n' % (os.uname().machine, os.cpu_count(), os.getloadavg()[0],
                                     hostrun.version(['babeltrace2', '--version']), a.runs))
    print('| events | what | lttv | babeltrace2 | lttv events/s | bt2 events/s | ratio '
          '| lttv CPU | bt2 CPU | CPU ratio | lttv peak MiB | bt2 peak MiB |')
    print('|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|')
    growth = {}
    for n in [int(x) for x in a.events.split(',')]:
        trace = os.path.join(scratch, 'ltt-%d' % n)
        ctf = os.path.join(scratch, 'ctf-%d' % n)
        if not os.path.isdir(trace):
            subprocess.run([os.path.join(BIN, 'ltt-tracegen'), '--scenario', 'big',
                            '--events', str(n), '-o', trace], check=True)
        if not os.path.isdir(ctf):
            subprocess.run([os.path.join(BIN, 'lttv-convert'), '--ctf', ctf, '-t', trace],
                           check=True)
        text = os.path.join(BIN, 'lttv-text')
        pairs = [
            ('text dump', [text, '-t', trace], ['babeltrace2', ctf]),
            ('decode only', [text, '-t', trace, '-q', '-S'],
             ['babeltrace2', ctf, '-c', 'sink.utils.dummy']),
            ('count only', [text, '-t', trace, '-q'], None),
        ]
        for what, ours, theirs in pairs:
            t1, m1, c1 = measure(ours, a.runs)
            growth.setdefault(what, []).append((n, t1, c1))
            if theirs:
                t2, m2, c2 = measure(theirs, a.runs)
                print('| %d | %s | %.3f s | %.3f s | %.2f M | %.2f M | %.1fx | %.3f s | %.3f s '
                      '| %.1fx | %.0f | %.0f |'
                      % (n, what, t1, t2, n / t1 / 1e6, n / t2 / 1e6, t2 / t1, c1, c2,
                         c2 / c1, m1, m2))
            else:
                print('| %d | %s | %.3f s | | %.2f M | | | %.3f s | | | %.0f | |'
                      % (n, what, t1, n / t1 / 1e6, c1, m1))
    print('\nGrowth of lttv\'s time with the number of events (time per event, ns, '
          'wall / CPU):\n')
    for what, pts in growth.items():
        print('- %s: %s' % (what, ', '.join('%d events: %.1f / %.1f ns'
                                            % (n, t / n * 1e9, c / n * 1e9) for n, t, c in pts)))
    print('\nmachine load average at the end: %.1f' % os.getloadavg()[0])
    if not a.dir:
        shutil.rmtree(scratch)


if __name__ == '__main__':
    main()
