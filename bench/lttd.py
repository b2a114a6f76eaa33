#!/usr/bin/env python3
"""lttd against trace-cmd: the event rates each records without loss.

Boots the benchmark kernel (build-kernel-bench/) with bench/lttd-guest.sh:
for each rate (events/s; 0 = as fast as the writer goes), a process on
CPU 0 writes SECS seconds' worth of user events of each size (at 0, MAXN; at
max2, MAXN from each of two unpaced writers, one per CPU, the readers'
CPU included), with
  ours     /proc/ltt_user_generic, lttd (started by `lttctl -d`) copying
           the channels to tmpfs, on CPU 1;
  ftrace   trace_marker, `trace-cmd record` draining trace_pipe_raw into
           tmpfs, on CPU 1;
with the default buffers (ours: lttctl's, LTT_DEFAULT_*_HIGH of
include/ltt/ltt-abi.h, per CPU; ftrace: buffer_size_kb as booted) and
larger ones (ours 4 x 4 MiB, ftrace 16 MiB).
Each point runs R times (default 3).  The host then counts the events
that arrived (lttv-text; trace-cmd report) and the losses the tracers
report (our channel.buffer_stats; ftrace's overrun in per_cpu/cpu0/stats).
The tables are printed and written into docs/performance.md between the
"lttd.py" markers (--no-doc: printed only), with the date and the load.

    bench/lttd.py [--runs 3] [--rates 50000,0,max2] [--secs 1]
                  [--maxn 60000] [--sizes 32,256] [--dir OUT] [--no-doc]
"""
import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import guest  # noqa: E402
import hostrun  # noqa: E402

LARGE_OURS = '--subbuf-size-high 4M --subbuf-num-high 4'
LARGE_FTRACE = 16384
ABI = os.path.join(guest.TOP, 'include', 'ltt', 'ltt-abi.h')


def default_high():
    """'N x SIZE' of the cpu channel's default buffers, from the one
    header that sets them (lttctl sends them, the kernel falls back on them)"""
    with open(ABI) as f:
        text = f.read()
    size = int(re.search(r'#define LTT_DEFAULT_SUBBUF_SIZE_HIGH\s+(\d+)', text).group(1))
    n = int(re.search(r'#define LTT_DEFAULT_N_SUBBUFS_HIGH\s+(\d+)', text).group(1))
    return '%d x %s' % (n, '%d MiB' % (size >> 20) if size % (1 << 20) == 0 else '%d KiB' % (size >> 10))


def ours_arrived(trace):
    """(user events in the trace, events lost by the buffer_stats)"""
    out = subprocess.run([os.path.join(guest.BUILD, 'bin', 'lttv-text'), '-t', trace, '-q', '-S', '-c'],
                         capture_output=True, text=True, check=True).stdout
    n = lost = 0
    for line in out.splitlines():
        w = line.split()
        if len(w) == 2 and w[1] == 'user_generic.string':
            n = int(w[0])
        elif line.startswith('cpu ') and w[-1] == 'lost':
            lost += int(w[-2])
    return n, lost


def ftrace_arrived(dat):
    """(marker events in trace.dat, overruns + dropped events of all CPUs as
    the kernel counted them, kept by trace-cmd in trace.dat)"""
    p = subprocess.run(['trace-cmd', 'report', '-i', dat], capture_output=True, text=True)
    if p.returncode:
        raise RuntimeError('trace-cmd report %s: %s' % (dat, p.stderr.strip()[:200]))
    n = sum(1 for line in p.stdout.splitlines() if ' seq ' in line)
    p = subprocess.run(['trace-cmd', 'report', '--stat', '-i', dat], capture_output=True, text=True)
    lost = sum(int(m.group(1)) for m in re.finditer(r'^(?:overrun|dropped events): (\d+)',
                                                    p.stdout, re.M))
    return n, lost


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--runs', type=int, default=3)
    ap.add_argument('--rates', default='50000,0,max2')
    ap.add_argument('--secs', type=int, default=1)
    ap.add_argument('--maxn', type=int, default=60000)
    ap.add_argument('--sizes', default='32,256', help='bytes per event')
    ap.add_argument('--dir', default=None)
    ap.add_argument('--no-doc', action='store_true', help='do not write docs/performance.md')
    a = ap.parse_args()
    why = guest.missing()
    if not why and not shutil.which('trace-cmd'):
        why = 'no trace-cmd on the host (scripts/install-deps.sh bench)'
    if why:
        print('lttd benchmark skipped: %s' % why)
        return 0
    rates = a.rates.split(',')
    scratch = a.dir or tempfile.mkdtemp(prefix='ltt-bench-lttd-')
    out = os.path.join(scratch, 'guest')
    when = hostrun.stamp(scratch)
    params = dict(RUNS=a.runs, RATES='"%s"' % ' '.join(map(str, rates)), SECS=a.secs, MAXN=a.maxn,
                  SIZES='"%s"' % ' '.join(a.sizes.split(',')), LARGE_OURS='"%s"' % LARGE_OURS, LARGE_FTRACE=LARGE_FTRACE)
    bad = guest.boot(out, os.path.join(guest.TOP, 'bench', 'lttd-guest.sh'), params,
                     {'/usr/bin/trace-cmd': shutil.which('trace-cmd')})
    if bad:
        sys.exit('lttd benchmark: steps failed in the guest: %s (see %s)' % (', '.join(bad), out))
    rows = {}
    with open(os.path.join(out, 'times')) as f:
        for line in f:
            w = line.split()
            if len(w) != 9:
                sys.exit('lttd benchmark: a load did not run: %s' % line.strip())
            tracer, cfg, rate, k, _, n, total = w[0], w[1], w[2], int(w[3]), w[4], int(w[5]), int(w[6])
            if tracer == 'ours':
                got, reported = ours_arrived(os.path.join(out, 'ours-%s-%s-%d' % (cfg, rate, k)))
            else:
                base = os.path.join(out, 'ftrace-%s-%s-%d' % (cfg, rate, k))
                got, reported = ftrace_arrived(base + '.dat')
            rows.setdefault((cfg, rate, tracer), []).append((n, n / total * 1e9, n - got, reported))
    with open(os.path.join(out, 'versions')) as f:
        versions = ', '.join(ln.strip() for ln in f)
    say = hostrun.Report()
    say('#### lttd against trace-cmd record\n')
    say('Run on %s.\n' % when)
    say('%s; %s; median of %d runs; user events of SIZE bytes written on CPU 0, readers on CPU 1, '
        'output to tmpfs.\n' % (guest.machine(out), versions, a.runs))
    say('Buffers: default = ours %s per CPU (lttctl\'s defaults), ftrace buffer_size_kb as booted; '
        'large = ours %s, ftrace -b %d.\n' % (default_high(), LARGE_OURS, LARGE_FTRACE))
    say('| size | buffers | asked events/s | tracer | events | achieved events/s | lost (median) | lost (max) '
        '| lost as the tracer reports it (median, max) |')
    say('|---:|---|---:|---|---:|---:|---:|---:|---:|')
    best = {}
    configs = ['%s-%s' % (size, b) for size in a.sizes.split(',') for b in ('default', 'large')]
    for cfg in configs:
        for rate in rates:
            for tracer in ('ours', 'ftrace'):
                r = rows[(cfg, rate, tracer)]
                lost = [x[2] for x in r]
                say('| %s | %s | %s | %s | %d | %.0f | %d | %d | %d, %d |'
                    % (cfg.split('-')[0], cfg.split('-')[1], {'0': 'max', 'max2': 'max, 2 writers'}.get(rate, rate),
                       'lttd' if tracer == 'ours' else 'trace-cmd',
                       r[0][0], statistics.median(x[1] for x in r), statistics.median(lost),
                       max(lost), statistics.median(x[3] for x in r), max(x[3] for x in r)))
                if max(lost) == 0:
                    ach = min(x[1] for x in r)
                    best[(cfg, tracer)] = max(best.get((cfg, tracer), 0), ach)
    say('\nHighest rate with no loss in any run (achieved events/s):\n')
    for cfg in configs:
        say('- %s bytes, %s buffers: lttd %s, trace-cmd %s' % (
            cfg.split('-')[0], cfg.split('-')[1], '%.0f' % best[(cfg, 'ours')] if (cfg, 'ours') in best else 'none',
            '%.0f' % best[(cfg, 'ftrace')] if (cfg, 'ftrace') in best else 'none'))
    say('\nLoad average at the end: %.2f.' % hostrun.load())
    if not a.no_doc:
        hostrun.update_doc('lttd.py', say.text())
    if not a.dir:
        shutil.rmtree(scratch)
    return 0


if __name__ == '__main__':
    sys.exit(main())
