#!/usr/bin/env python3
"""Viewer benchmark: what lttv-gtk costs to open, index and draw a trace.

For each size N (default 1 M and 10 M events), ltt-tracegen writes a busy
machine (--scenario busy: 64 tasks on 2 CPUs, a fork and exit every few
thousand events, scheduling the state engine can follow), and every
command below runs R times (default 5); the tables give medians.

    bench/viewer.py [--events 1000000,10000000] [--runs 5] [--dir /tmp/x]

  lttv-gtk -t T --bench    in one process, as the window does it: open;
                           index (state engine, checkpoints, row histories)
                           in the window's slices; draw the control flow at
                           1200x800 (the window's size) at zoom 1, 1/10,
                           1/100 ... of the trace, centred, 7 draws each.
                           Times are CPU times of the process (the machine
                           is shared: the wall clock counts others' work).
  lttv-gtk -t T --export F.png --size 1200x800
                           the whole command: start, open, index, one draw,
                           PNG; wall and CPU time, peak memory.
  lttv-gtk -t T            under Xvfb (if installed), LTTV_GTK_BENCH=1: wall
                           time from the start of the process to its first
                           frame of the control flow, and to the first one
                           once everything is indexed.
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hostrun  # noqa: E402

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.path.join(TOP, 'build', 'bin')
GTK = os.path.join(BIN, 'lttv-gtk')


def parse_bench(text):
    """'bench KEY a=1 b=2' lines -> {KEY: {a: 1.0, b: 2.0}}."""
    res = {}
    for line in text.splitlines():
        f = line.split()
        if len(f) < 2 or f[0] != 'bench':
            continue
        key, kv = f[1], f[2:]
        if '=' in key:          # "bench zoom=10 ms=...": the zoom names it
            kv = f[1:]
        res[key] = {k: float(v) for k, v in (x.split('=', 1) for x in kv)}
    return res


def median_of(dicts, key, field):
    return statistics.median(d[key][field] for d in dicts)


def window_times(trace, display, runs):
    """Wall seconds from the start of lttv-gtk to its first frame and to its
    first frame after indexing, medians over runs."""
    env = dict(os.environ, DISPLAY=display, LTTV_GTK_BENCH='1', NO_AT_BRIDGE='1')
    first, full = [], []
    for _ in range(runs + 1):
        t0 = time.perf_counter()
        p = subprocess.Popen([GTK, '-t', trace], stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, env=env, text=True)
        got = {}
        for line in p.stdout:
            if line.startswith('bench window '):
                got[line.split()[2]] = time.perf_counter() - t0
        p.wait(timeout=600)
        if 'first-frame' not in got or 'indexed-frame' not in got:
            sys.exit('lttv-gtk under Xvfb did not report its frames')
        first.append(got['first-frame'])
        full.append(got['indexed-frame'])
    # the first run warms the caches (fonts, the trace): not counted
    return statistics.median(first[1:]), statistics.median(full[1:])


def start_xvfb():
    """An Xvfb on a free display, or (None, why)."""
    if not shutil.which('Xvfb'):
        return None, 'Xvfb is not installed'
    for n in range(90, 110):
        if os.path.exists('/tmp/.X11-unix/X%d' % n) or os.path.exists('/tmp/.X%d-lock' % n):
            continue
        p = subprocess.Popen(['Xvfb', ':%d' % n, '-screen', '0', '1280x1024x24',
                              '-nolisten', 'tcp'], stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL)
        for _ in range(50):
            if os.path.exists('/tmp/.X11-unix/X%d' % n):
                return (p, ':%d' % n), None
            if p.poll() is not None:
                break
            time.sleep(0.1)
        p.kill()
        p.wait()
    return None, 'Xvfb did not start'


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--events', default='1000000,10000000')
    ap.add_argument('--runs', type=int, default=5)
    ap.add_argument('--dir', default=None, help='scratch folder (default: a temporary one)')
    a = ap.parse_args()
    if not os.access(GTK, os.X_OK):
        sys.exit('%s is not built (make)' % GTK)
    scratch = a.dir or tempfile.mkdtemp(prefix='ltt-vbench-')
    sizes = [int(x) for x in a.events.split(',')]
    print('# Viewer benchmark\n')
    print('machine: %s, %d CPUs, load average %.1f at the start; cairo %s; '
          'median of %d runs\n' % (os.uname().machine, os.cpu_count(), os.getloadavg()[0],
                                   hostrun.version(['pkg-config', '--modversion', 'cairo']), a.runs))
    xvfb, why = start_xvfb()
    res = {}
    try:
        for n in sizes:
            trace = os.path.join(scratch, 'busy-%d' % n)
            if not os.path.isdir(trace):
                subprocess.run([os.path.join(BIN, 'ltt-tracegen'), '--scenario', 'busy',
                                '--events', str(n), '-o', trace], check=True)
            mib = sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(trace)
                      for f in fs) / 2**20
            runs = []
            hostrun.run_timed([GTK, '-t', trace, '--bench'])     # warm the page cache
            for _ in range(a.runs):
                runs.append(parse_bench(hostrun.run_timed([GTK, '-t', trace, '--bench'])[0]))
            png = os.path.join(scratch, 'export-%d.png' % n)
            exp = [hostrun.run_timed([GTK, '-t', trace, '--export', png, '--size', '1200x800'])
                   for _ in range(a.runs)]
            win = window_times(trace, xvfb[1], a.runs) if xvfb else None
            res[n] = (mib, runs, exp, win)
    finally:
        if xvfb:
            xvfb[0].kill()
            xvfb[0].wait()

    print('### Opening a trace: the index (state engine, checkpoints, row histories)\n')
    print('| events | trace MiB | processes | index CPU | ns/event | checkpoints '
          '| state changes | index MiB | bytes/event | peak RSS MiB |')
    print('|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|')
    for n in sizes:
        mib, runs, exp, win = res[n]
        cpu = median_of(runs, 'index', 'cpu_ms')
        idx_kb = median_of(runs, 'index', 'index_kb')
        print('| %d | %.0f | %d | %.0f ms | %.0f | %d | %d | %.0f | %.1f | %.0f |' % (
            n, mib, median_of(runs, 'index', 'processes'), cpu, cpu * 1e6 / n,
            median_of(runs, 'index', 'checkpoints'), median_of(runs, 'index', 'changes'),
            idx_kb / 1024, idx_kb * 1024 / n, median_of(runs, 'index', 'peak_kb') / 1024))

    print('\n### Time to the first frame\n')
    print('| events | window: first frame | window: first frame once indexed '
          '| --bench: open + first slice + draw (CPU) | --export 1200x800: wall | CPU | peak RSS MiB |')
    print('|---:|---:|---:|---:|---:|---:|---:|')
    for n in sizes:
        mib, runs, exp, win = res[n]
        w = ('%.0f ms | %.0f ms' % (win[0] * 1e3, win[1] * 1e3)) if win else 'n/a | n/a'
        print('| %d | %s | %.0f ms | %.0f ms | %.0f ms | %.0f |' % (
            n, w, median_of(runs, 'first-frame', 'cpu_ms'),
            statistics.median(e[1] for e in exp) * 1e3,
            statistics.median(e[2] for e in exp) * 1e3, max(e[3] for e in exp)))
    if not xvfb:
        print('\n(window columns not measured: %s)' % why)

    zooms = sorted({k for n in sizes for k in res[n][1][0] if k.startswith('zoom=')},
                   key=lambda k: int(k[5:]))
    print('\n### Redraw of the control flow (1200x800, %d rows on screen), CPU ms\n'
          % res[sizes[0]][1][0]['frame']['on_screen'])
    head = '| view |' + ''.join(' %d events: span | redraw | bars |' % n for n in sizes)
    print(head)
    print('|---|' + '---:|---:|---:|' * len(sizes))
    for z in zooms:
        line = '| 1/%s of the trace |' % z[5:] if z != 'zoom=1' else '| whole trace |'
        for n in sizes:
            runs = res[n][1]
            if z not in runs[0]:
                line += ' | | |'
                continue
            span = runs[0][z]['span_ns']
            line += ' %s | %.2f ms | %d |' % (fmt_span(span), median_of(runs, z, 'cpu_ms'),
                                              median_of(runs, z, 'intervals'))
        print(line)
    print('\nmachine load average at the end: %.1f' % os.getloadavg()[0])
    if not a.dir:
        shutil.rmtree(scratch)


def fmt_span(ns):
    for unit, div in (('s', 1e9), ('ms', 1e6), ('us', 1e3)):
        if ns >= div:
            return '%.3g %s' % (ns / div, unit)
    return '%d ns' % ns


if __name__ == '__main__':
    main()
