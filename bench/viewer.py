#!/usr/bin/env python3
"""Viewer benchmark: what lttv-gtk costs to open, index and draw a trace.

For each size N (default 1 M, 10 M and 100 M events), ltt-tracegen writes a busy
machine (--scenario busy: 64 tasks on 2 CPUs, a fork and exit every few
thousand events, scheduling the state engine can follow), and every
command below runs R times (default 5); the tables give medians.

    bench/viewer.py [--events 1000000,10000000,100000000] [--runs 5]
                    [--big-runs 3] [--keep-max 10000000] [--dir /tmp/x] [--no-doc]

A trace above --keep-max events (100 M events: about 1.9 GiB, written in
10 to 20 s) is generated into the scratch folder and deleted as soon as it
is measured, even with --dir. The tables are printed and written into
docs/performance.md between the "viewer.py" markers, with the date and
the load average: never edit them by hand.

  lttv-gtk -t T --bench    in one process, as the window does it: open;
                           index (state engine, checkpoints, row histories)
                           in the window's slices; draw the control flow at
                           1200x800 (the window's size) at zoom 1, 1/10,
                           1/100 ... of the trace, centred, 7 draws each.
                           Times are CPU times of the process (both of the
                           index's threads; the machine is shared: the wall
                           clock counts others' work); the index's wall
                           time too (two threads: less than its CPU time).
  lttv-gtk -t T --export F.png --size 1200x800
                           the whole command: start, open, index, one draw,
                           PNG; wall and CPU time, peak memory.
  lttv-gtk -t T            under Xvfb (if installed), LTTV_GTK_BENCH=1: wall
                           time from the start of the process to its first
                           frame of the control flow, and to the first one
                           once everything is indexed; in between, the
                           longest time its main loop did not turn (the
                           most of any run), in its own CPU time and on the
                           clock less the time it waited for a CPU.
  lttv-gtk -t T            the same, once, LTTV_GTK_BENCH=analyses: the
                           window's memory at the end of each phase: its
                           first frame, indexed, the analyses (started by
                           themselves then) done, and their tab drawn once
                           over the whole trace (its tables made); and the
                           peak (VmHWM).
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


def window_report(trace, display, mode, timeout):
    """One run of the window under Xvfb, LTTV_GTK_BENCH=mode: its lines
    'bench window KEY a=1 ...' as {KEY: {'a': '1', ..., 's': seconds from
    the start of the process to the line}}."""
    env = dict(os.environ, DISPLAY=display, LTTV_GTK_BENCH=mode, NO_AT_BRIDGE='1')
    t0 = time.perf_counter()
    p = subprocess.Popen([GTK, '-t', trace], stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, env=env, text=True)
    got = {}
    for line in p.stdout:
        if line.startswith('bench window '):
            f = line.split()
            got[f[2]] = dict(x.split('=', 1) for x in f[3:])
            got[f[2]]['s'] = time.perf_counter() - t0
    p.wait(timeout=timeout)
    return got


def window_times(trace, display, runs):
    """Wall seconds from the start of lttv-gtk to its first frame and to its
    first frame after indexing, medians over runs; and the longest stalls of
    its main loop in between (ms, the most of any run): of its own work (CPU
    time), and on the clock less the time it waited for a CPU."""
    first, full, stall_cpu, stall = [], [], [], []
    for _ in range(runs + 1):
        got = window_report(trace, display, '1', 600)
        if 'first-frame' not in got or 'indexed-frame' not in got:
            sys.exit('lttv-gtk under Xvfb did not report its frames')
        first.append(got['first-frame']['s'])
        full.append(got['indexed-frame']['s'])
        stall_cpu.append(float(got['indexed-frame']['stall_cpu_ms']))
        stall.append(float(got['indexed-frame']['stall_ms']))
    # the first run warms the caches (fonts, the trace): not counted
    return (statistics.median(first[1:]), statistics.median(full[1:]), max(stall_cpu[1:]),
            max(stall[1:]))


WINDOW_PHASES = ('first-frame', 'indexed-frame', 'analyses-done', 'analyses-drawn')


def window_memory(trace, display):
    """The window's memory (MiB) at the end of each phase, one run under
    LTTV_GTK_BENCH=analyses: resident at its first frame, once indexed,
    once the analyses (which start by themselves then) are done, once
    their tab is drawn; the peak; the seconds from the start to the
    analyses done."""
    got = window_report(trace, display, 'analyses', 3600)
    if any(p not in got for p in WINDOW_PHASES):
        sys.exit('lttv-gtk under Xvfb did not report its memory')
    return (tuple(float(got[p]['rss_kb']) / 1024 for p in WINDOW_PHASES),
            float(got['analyses-drawn']['peak_kb']) / 1024, got['analyses-done']['s'])


def stop_xvfb(p):
    """Stops an Xvfb by SIGTERM, so that it removes its lock file and
    socket: killed (SIGKILL) it left them, and after twenty runs no display
    of 90 to 109 looked free."""
    p.terminate()
    try:
        p.wait(timeout=10)
    except subprocess.TimeoutExpired:
        p.kill()
        p.wait()


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
        stop_xvfb(p)
    return None, 'Xvfb did not start'


def trace_mib(trace):
    return sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(trace)
               for f in fs) / 2**20


def measure(trace, n, runs, xvfb):
    """The --bench runs, the --export runs and the window's times."""
    out = []
    hostrun.run_timed([GTK, '-t', trace, '--bench'])     # warm the page cache
    for _ in range(runs):
        out.append(parse_bench(hostrun.run_timed([GTK, '-t', trace, '--bench'])[0]))
    png = os.path.join(os.path.dirname(trace), 'export-%d.png' % n)
    exp = [hostrun.run_timed([GTK, '-t', trace, '--export', png, '--size', '1200x800'])
           for _ in range(runs)]
    os.unlink(png)
    win = window_times(trace, xvfb[1], runs) if xvfb else None
    if win:
        win = win + window_memory(trace, xvfb[1])
    return out, exp, win


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--events', default='1000000,10000000,100000000')
    ap.add_argument('--runs', type=int, default=5)
    ap.add_argument('--big-runs', type=int, default=3,
                    help='runs for traces above --keep-max events (each takes minutes)')
    ap.add_argument('--keep-max', type=int, default=10000000,
                    help='traces above this many events are deleted once measured')
    ap.add_argument('--dir', default=None, help='scratch folder (default: a temporary one)')
    ap.add_argument('--no-doc', action='store_true', help='do not write docs/performance.md')
    a = ap.parse_args()
    if not os.access(GTK, os.X_OK):
        sys.exit('%s is not built (make)' % GTK)
    scratch = a.dir or tempfile.mkdtemp(prefix='ltt-vbench-')
    sizes = [int(x) for x in a.events.split(',')]
    out = hostrun.Report()
    out('Run of %s; machine: %s, %d CPUs, load average %.1f at the start; cairo %s; '
        'median of %d runs (%d above %d events).\n'
        % (hostrun.now_utc(), os.uname().machine, os.cpu_count(), hostrun.load(),
           hostrun.version(['pkg-config', '--modversion', 'cairo']), a.runs, a.big_runs,
           a.keep_max))
    xvfb, why = start_xvfb()
    res = {}
    try:
        for n in sizes:
            trace = os.path.join(scratch, 'busy-%d' % n)
            t0 = time.perf_counter()
            made = not os.path.isdir(trace)
            if made:
                subprocess.run([os.path.join(BIN, 'ltt-tracegen'), '--scenario', 'busy',
                                '--events', str(n), '-o', trace], check=True)
            gen = time.perf_counter() - t0 if made else None
            mib = trace_mib(trace)
            try:
                runs, exp, win = measure(trace, n, a.runs if n <= a.keep_max else a.big_runs,
                                         xvfb)
            finally:
                if n > a.keep_max:      # gigabytes: not kept, even in --dir
                    shutil.rmtree(trace, ignore_errors=True)
            res[n] = (mib, runs, exp, win, gen)
    finally:
        if xvfb:
            stop_xvfb(xvfb[0])

    out('### Opening a trace: the index (state engine, checkpoints, row histories)\n')
    out('| events | trace MiB | generated in | processes | index CPU | ns/event | index wall | checkpoints '
        '| state changes | index MiB | bytes/event | bytes/change | index/trace | peak RSS MiB |')
    out('|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|')
    for n in sizes:
        mib, runs, exp, win, gen = res[n]
        cpu = median_of(runs, 'index', 'cpu_ms')
        wall = median_of(runs, 'index', 'ms')
        idx_kb = median_of(runs, 'index', 'index_kb')
        out('| %d | %.0f | %s | %d | %.0f ms | %.0f | %.0f ms | %d | %d | %.1f | %.2f | %.2f | %.2f '
            '| %.0f |' % (
            n, mib, '%.1f s' % gen if gen is not None else 'kept', median_of(runs, 'index', 'processes'),
            cpu, cpu * 1e6 / n, wall, median_of(runs, 'index', 'checkpoints'),
            median_of(runs, 'index', 'changes'), idx_kb / 1024, idx_kb * 1024 / n,
            idx_kb * 1024 / median_of(runs, 'index', 'changes'), idx_kb / 1024 / mib,
            median_of(runs, 'index', 'peak_kb') / 1024))

    out('\n### Time to the first frame\n')
    out('| events | window: first frame | window: first frame once indexed '
        '| window: longest stall while indexing, own work (CPU) | less CPU waits (clock) '
        '| --bench: open + first slice + draw (CPU) | --export 1200x800: wall | CPU | peak RSS MiB |')
    out('|---:|---:|---:|---:|---:|---:|---:|---:|---:|')
    for n in sizes:
        mib, runs, exp, win, gen = res[n]
        w = ('%.0f ms | %.0f ms | %.0f ms | %.0f ms' % (win[0] * 1e3, win[1] * 1e3, win[2], win[3])
             if win else 'n/a | n/a | n/a | n/a')
        out('| %d | %s | %.0f ms | %.0f ms | %.0f ms | %.0f |' % (
            n, w, median_of(runs, 'first-frame', 'cpu_ms'),
            statistics.median(e[1] for e in exp) * 1e3,
            statistics.median(e[2] for e in exp) * 1e3, max(e[3] for e in exp)))
    if not xvfb:
        out('\n(window columns not measured: %s)' % why)

    out('\n### Memory of the window at the end of each phase (one run, MiB)\n')
    out('Resident memory (VmRSS) when each phase ends, then the peak (VmHWM) '
        'and when the analyses were done.\n')
    out('| events | first frame | indexed | analyses done | analyses tab drawn '
        '| the analyses, bytes/event | peak | peak, GB | analyses done at |')
    out('|---:|---:|---:|---:|---:|---:|---:|---:|---:|')
    for n in sizes:
        win = res[n][3]
        if not win:
            out('| %d | n/a | | | | | | | |' % n)
            continue
        (first, idx, ana, drawn), peak, at = win[4:7]
        out('| %d | %.0f | %.0f | %.0f | %.0f | %.1f | %.0f | %.2f | %.1f s |' % (
            n, first, idx, ana, drawn, (ana - idx) * 2**20 / n, peak, peak * 2**20 / 1e9,
            at))

    zooms = sorted({k for n in sizes for k in res[n][1][0] if k.startswith('zoom=')},
                   key=lambda k: int(k[5:]))
    out('\n### Redraw of the control flow (1200x800, %d rows on screen), CPU ms\n'
        % res[sizes[0]][1][0]['frame']['on_screen'])
    out('| view |' + ''.join(' %d events: span | redraw | bars |' % n for n in sizes))
    out('|---|' + '---:|---:|---:|' * len(sizes))
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
        out(line)
    out('\nLoad average at the end: %.1f.' % hostrun.load())
    if not a.dir:
        shutil.rmtree(scratch, ignore_errors=True)
    if not a.no_doc:
        hostrun.update_doc('viewer.py', out.text())


def fmt_span(ns):
    for unit, div in (('s', 1e9), ('ms', 1e6), ('us', 1e3)):
        if ns >= div:
            return '%.3g %s' % (ns / div, unit)
    return '%d ns' % ns


if __name__ == '__main__':
    main()
