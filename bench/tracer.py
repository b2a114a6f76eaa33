#!/usr/bin/env python3
"""Tracer cost in the kernel: our tracer against ftrace, in one QEMU boot.

Boots the benchmark kernel (build-kernel-bench/, `make bench-kernel`: no
debug options, ftrace's events) with bench/tracer-guest.sh, which times,
pinned on CPU 0, R times each (default 5), interleaved:

  (a) user-space events: N write()s of SIZE bytes to /proc/ltt_user_generic
      (our user_generic.string event) with a trace active and without, N
      ltt_trace_generic() requests of SIZE bytes (libltt-usertrace's door,
      patch 0010) with and without, N writes to ftrace's trace_marker with tracing on and off, and
      to /dev/null (the bare system call);
  (b) a getpid() loop and a pipe ping-pong between two processes on one CPU
      (two context switches per round trip): untraced, with our kernel
      events on (patch 0007: system calls, scheduler, interrupts...), and
      with the equivalent ftrace events on.

Our traces are flight recorders and ftrace's ring buffer has no reader:
both only write.  TCG times are not absolute: the tables give ratios to
the untraced run and the added cost per event, where the number of events
is what each tracer wrote on CPU 0 during the run (our trace decoded by
lttv-text; ftrace's per_cpu/cpu0/stats).

    bench/tracer.py [--runs 5] [--user 50000] [--getpid 200000] [--pipe 20000]
                    [--size 32] [--perf] [--dir OUT] [--kernel bench|stock]

--kernel stock boots Debian's own image, unmodified, with the tracer's
modules (qemu/modules-boot.sh) instead: the same loads, its own tables.
    bench/tracer.py --from OUT [same options as that run]   (tables again, no boot)

Besides the medians, each table ends with the same ratio from each row's
fastest run: on a shared host a run can only be slowed down by the others'
work, so the fastest is the least disturbed (the medians moved by 30 % and
more between boots on a loaded host; the best runs much less).

The tables are printed and written into docs/performance.md between the
"tracer.py" markers (--no-doc: printed only), with the date and the host's
load when the run started (`--from` takes them from the kept run).
"""
import argparse
import os
import shutil
import statistics
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import guest  # noqa: E402
import hostrun  # noqa: E402


def load_times(out):
    """{(tracer, load): {run: ns_per_op}}, without run 0 (the warm-up)"""
    t = {}
    with open(os.path.join(out, 'times')) as f:
        for line in f:
            tracer, load, run, _what, _n, _total, per_op, _failed = line.split()
            if run != '0':
                t.setdefault((tracer, load), {})[int(run)] = float(per_op)
    return t


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--runs', type=int, default=5)
    ap.add_argument('--user', type=int, default=50000, help='user events per run')
    ap.add_argument('--size', type=int, default=32, help='bytes per user event')
    ap.add_argument('--getpid', type=int, default=200000)
    ap.add_argument('--pipe', type=int, default=20000)
    ap.add_argument('--perf', action='store_true', help='also profile the pipe load with perf')
    ap.add_argument('--dir', default=None, help='keep the guest output there')
    ap.add_argument('--from', dest='again', default=None,
                    help='print the tables of an earlier run kept with --dir')
    ap.add_argument('--no-doc', action='store_true', help='do not write docs/performance.md')
    ap.add_argument('--kernel', choices=('bench', 'stock'), default='bench',
                    help="bench: our series (make bench-kernel); stock: Debian's own image "
                         "with the tracer's modules (their own tables in the doc)")
    a = ap.parse_args()
    guest.WHICH['kernel'] = a.kernel
    why = None if a.again else guest.missing()
    if why:
        print('tracer benchmark skipped: %s' % why)
        return 0
    scratch = a.again or a.dir or tempfile.mkdtemp(prefix='ltt-bench-tracer-')
    out = os.path.join(scratch, 'guest')
    when = hostrun.stamp(scratch, write=not a.again)
    programs = {}
    if a.perf:
        if shutil.which('perf'):
            programs['/usr/bin/perf'] = shutil.which('perf')
        else:
            print('perf profile skipped: no perf on the host (linux-perf)')
    params = dict(RUNS=a.runs, NUSER=a.user, SIZE=a.size, NGETPID=a.getpid, NPIPE=a.pipe,
                  PERF=1 if programs else 0, CHECKSUM=guest.example_checksum())
    if a.again:
        params['PERF'] = int(os.path.exists(os.path.join(out, 'perf-ours-user.txt')))
        bad = None
    else:
        bad = guest.boot(out, os.path.join(guest.TOP, 'bench', 'tracer-guest.sh'), params,
                         programs)
    if bad:
        sys.exit('tracer benchmark: steps failed in the guest: %s (see %s)' % (', '.join(bad), out))
    t = load_times(out)
    counts = {}
    with open(os.path.join(out, 'counts')) as f:
        for line in f:
            _, load, run, n, _overrun = line.split()
            counts[('ftrace', load, int(run))] = int(n)
    runs = range(1, a.runs + 1)
    for load in ('user', 'getpid', 'pipe'):
        for k in runs:
            c0, lost0, _, _ = guest.count_events(os.path.join(out, 'ours-%s-%d' % (load, k)))
            if lost0:
                sys.exit('tracer benchmark: our trace ours-%s-%d lost %d events' % (load, k, lost0))
            counts[('ours', load, k)] = c0
    for k in runs:
        c0, lost0, _, _ = guest.count_events(os.path.join(out, 'generic-user-%d' % k))
        if lost0:
            sys.exit('tracer benchmark: our trace generic-user-%d lost %d events' % (k, lost0))
        counts[('generic', 'user', k)] = c0

    def med(tracer, load):
        return statistics.median(t[(tracer, load)].values())

    def best(tracer, load, base, nops):
        """added ns per event between the fastest runs of tracer and base"""
        ev = statistics.median(counts[(tracer, load, k)] for k in runs)
        return (min(t[(tracer, load)].values()) - min(t[(base, load)].values())) * nops / ev

    say = hostrun.Report()
    say('#### Tracer cost in the kernel\n')
    say('Run on %s.\n' % when)
    say('%s; median of %d runs, each load pinned on CPU 0.\n' % (guest.machine(out), a.runs))
    say('ftrace events: %s\n' % ' '.join(ln.strip() for ln in open(os.path.join(out, 'ftrace-events'))))

    # (a) user-space events
    n = a.user
    say('##### (a) user-space events: %d events of %d bytes\n' % (n, a.size))
    say('| written by | tracing | ns/call | × untraced | events on CPU 0 | added ns/event |')
    say('|---|---|---:|---:|---:|---:|')
    # (row, tracing, tracer, the untraced run its cost is measured from):
    # write()s format their string with snprintf, the system call does not
    rows = [('write() to /dev/null', 'none', 'none', 'none'),
            ('write() to /proc/ltt_user_generic', 'no trace', 'ltt-off', 'none'),
            ('write() to /proc/ltt_user_generic', 'our trace', 'ours', 'none'),
            ('ltt_trace_generic()', 'no trace', 'generic-off', 'generic-off'),
            ('ltt_trace_generic()', 'our trace', 'generic', 'generic-off'),
            ('write() to trace_marker', 'ftrace off', 'ftrace-off', 'none'),
            ('write() to trace_marker', 'ftrace on', 'ftrace', 'none')]
    added = {}
    for where, how, tracer, base in rows:
        m = med(tracer, 'user')
        ev = ''
        if tracer in ('ours', 'generic', 'ftrace'):
            evs = [counts[(tracer, 'user', k)] for k in runs]
            ev = '%d' % statistics.median(evs)
            added[tracer] = statistics.median(
                (t[(tracer, 'user')][k] - t[(base, 'user')][k]) * n / counts[(tracer, 'user', k)]
                for k in runs)
        say('| %s | %s | %.0f | %.2f | %s | %s |'
            % (where, how, m, m / med(base, 'user'), ev,
               '%.0f' % added[tracer] if tracer in added else ''))
    say('\nadded cost per user event, ours / ftrace: %.2f through /proc/ltt_user_generic, '
        '%.2f through ltt_trace_generic()\n' % (added['ours'] / added['ftrace'],
                                                added['generic'] / added['ftrace']))
    b = {tr: best(tr, 'user', base, n) for tr, base in
         (('ours', 'none'), ('generic', 'generic-off'), ('ftrace', 'none'))}
    say('best runs (each row\'s fastest): ours %.0f, %.0f, ftrace %.0f ns per event; '
        'ours / ftrace %.2f through /proc/ltt_user_generic, %.2f through ltt_trace_generic()\n'
        % (b['ours'], b['generic'], b['ftrace'], b['ours'] / b['ftrace'],
           b['generic'] / b['ftrace']))

    # (b) kernel events
    say('##### (b) system calls and context switches: %d getpid(), %d pipe round trips\n'
        % (a.getpid, a.pipe))
    say('| load | untraced ns/op | ours ns/op | ftrace ns/op | ours × untraced | ftrace × untraced '
        '| ours events/op | ftrace events/op | ours ns/event | ftrace ns/event | ours / ftrace per event |')
    say('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|')
    for load, nops in (('getpid', a.getpid), ('pipe', a.pipe)):
        off = med('none', load)
        r = {}
        for tracer in ('ours', 'ftrace'):
            evop = statistics.median(counts[(tracer, load, k)] / nops for k in runs)
            per_ev = statistics.median(
                (t[(tracer, load)][k] - t[('none', load)][k]) * nops / counts[(tracer, load, k)]
                for k in runs)
            r[tracer] = (med(tracer, load), evop, per_ev)
        say('| %s | %.0f | %.0f | %.0f | %.2f | %.2f | %.1f | %.1f | %.0f | %.0f | %.2f |'
            % (load, off, r['ours'][0], r['ftrace'][0], r['ours'][0] / off, r['ftrace'][0] / off,
               r['ours'][1], r['ftrace'][1], r['ours'][2], r['ftrace'][2],
               r['ours'][2] / r['ftrace'][2]))
    say('\nns/op: per getpid() or per round trip; events/op: what each tracer wrote on CPU 0, '
        'per op; ns/event: (traced - untraced) / events, the median over the runs.')
    for load, nops in (('getpid', a.getpid), ('pipe', a.pipe)):
        bo, bf = best('ours', load, 'none', nops), best('ftrace', load, 'none', nops)
        say('\nbest runs (each row\'s fastest), %s: ours %.0f, ftrace %.0f ns per event, '
            'ours / ftrace %.2f' % (load, bo, bf, bo / bf))
    if params['PERF']:
        for name in ('ours-user', 'generic-user', 'ftrace-user', 'ours-getpid', 'ftrace-getpid',
                     'ours-pipe', 'ftrace-pipe'):
            with open(os.path.join(out, 'perf-%s.txt' % name)) as f:
                top = [ln.rstrip() for ln in f][:16]
            say('\nperf (cpu-clock, CPU 0), %s:\n\n```\n%s\n```' % (name, '\n'.join(top)))
    if not a.no_doc:
        hostrun.update_doc('tracer.py' if a.kernel == 'bench' else 'tracer.py --kernel stock',
                           say.text())
    if not a.dir and not a.again:
        shutil.rmtree(scratch)
    return 0


if __name__ == '__main__':
    sys.exit(main())
