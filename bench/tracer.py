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
  (a2) the same user events in interleaved batches (--alt-rounds R of
      --alt-batch B calls each): our trace and ftrace both on, one process
      writing B calls to /dev/null, /proc/ltt_user_generic, through
      ltt_trace_generic() and to trace_marker in turn, the order rotated
      every round.  A call's added cost is its batch less the /dev/null
      batch of the same round, a millisecond apart: the ratio to
      trace_marker's is given with a 95 % interval (rounds resampled).
      The whole runs of (a) put a boot's drift on one side of each
      difference, so their user-event ratios moved by tens of per cent;
  (b) a getpid() loop and a pipe ping-pong between two processes on one CPU
      (two context switches per round trip): untraced, with our kernel
      events on (patch 0007: system calls, scheduler, interrupts...), and
      with the equivalent ftrace events on;
  (b2) the same loads in interleaved batches (--alt-kernel R rounds of
      1/40 of --getpid and --pipe): untraced, under ours and under ftrace
      in turn, each tracer started before its batches and stopped after
      them (outside the times measured), the order rotated every round;
      each batch's added cost against the same round's untraced one, per
      event by (b)'s events per op, the ratio with a 95 % interval.

Our traces are flight recorders and ftrace's ring buffer has no reader:
both only write.  TCG times are not absolute: the tables give ratios to
the untraced run and the added cost per event, where the number of events
is what each tracer wrote on CPU 0 during the run (our trace decoded by
lttv-text; ftrace's per_cpu/cpu0/stats).

    bench/tracer.py [--runs 5] [--user 50000] [--getpid 200000] [--pipe 20000]
                    [--size 32] [--perf] [--dir OUT] [--kernel bench|stock]

--kernel stock boots Debian's own image, unmodified, with the tracer's
modules (qemu/modules-boot.sh) instead: the same loads, its own tables.
Both kernels boot with tsc=reliable (bench/guest.py says why; the
tables name the guest's clock source and ftrace's clock).
With --lttng (stock only) the getpid() and pipe loads also run under an
LTTng 2.13 kernel session (Debian's lttng-modules built by
qemu/lttng-modules.sh, lttng-tools; qemu/lttng-initramfs.sh, which reads
LTTNG_KERNEL_WORK) with the equivalent events, and a table (c) compares
the three tracers, with the bytes each writes per event; the user-space
events also go through LTTng-UST (bench/ltt-ust-bench.c, the payload of
ltt_trace_generic()'s: liblttng-ust-dev on the host), two more rows of (a).
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
import struct
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


def stream_bytes(path, lttng):
    """The bytes of one stream file that hold events and headers, without
    the padding at the end of each sub-buffer (flight dumps and snapshots
    write whole sub-buffers): ours by each block header's buf_size and
    lost_size (include/ltt/ltt-abi.h), LTTng's by each packet context's
    content_size and packet_size (bits; its kernel packets' fixed layout:
    magic, uuid, stream ids, then the two timestamps before them)."""
    used = pos = 0
    with open(path, 'rb') as f:
        data = f.read()
    while pos + 64 <= len(data):
        if lttng:
            magic, = struct.unpack_from('<I', data, pos)
            content, size = (x // 8 for x in struct.unpack_from('<QQ', data, pos + 48))
            if magic != 0xC1FC1FC1:
                sys.exit('tracer benchmark: %s: no CTF packet at %d' % (path, pos))
        else:
            lost, size = struct.unpack_from('<II', data, pos + 32)
            content = size - lost
        if size <= 0 or content > size:
            sys.exit('tracer benchmark: %s: bad sub-buffer sizes at %d' % (path, pos))
        used += content
        pos += size
    return used


def trace_bytes(trace):
    """The bytes of a trace's streams: ours (lttd's files, without the
    event definitions and the log) or LTTng's (its kchan_* files, without
    the metadata and the packet index a session may write), by
    stream_bytes()."""
    lttng = any('metadata' in files for _, _, files in os.walk(trace))
    n = 0
    for d, dirs, files in os.walk(trace):
        dirs[:] = [x for x in dirs if x not in ('eventdefs', 'index')]
        for f in files:
            if f != 'metadata' and not f.endswith('.log'):
                n += stream_bytes(os.path.join(d, f), lttng)
    return n


def read_alternate(path):
    """ltt-bench-tool alternate's output: (batch, targets, rounds, failed),
    rounds a list of {target: ns of its batch}, without round 0 (each
    round's first batch may still meet a code path TCG has not translated
    since the runs before).  ValueError when a line is malformed, a round
    is missing or the failed line is not last."""
    with open(path) as f:
        lines = [ln.split() for ln in f if ln.strip()]
    if not lines or lines[0][0] != 'targets' or len(lines[0]) < 4:
        raise ValueError('%s: no targets line' % path)
    batch, targets = int(lines[0][1]), lines[0][2:]
    if lines[-1][0] != 'failed' or len(lines[-1]) != len(targets) + 1:
        raise ValueError('%s: no failed line at the end (cut short?)' % path)
    failed = dict(zip(targets, map(int, lines[-1][1:])))
    rounds = []
    for i, w in enumerate(lines[1:-1]):
        if w[0] != 'round' or int(w[1]) != i or len(w) != len(targets) + 2:
            raise ValueError('%s: bad round line %r' % (path, ' '.join(w)))
        if i:
            rounds.append(dict(zip(targets, map(int, w[2:]))))
    return batch, targets, rounds, failed


def alternate_costs(batch, rounds, base, target):
    """The added ns per call of target over base, one per round (the two
    batches of a round were timed a millisecond apart)."""
    return [(r[target] - r[base]) / batch for r in rounds]


def ratio_interval(num, den, resamples=2000, seed=26):
    """median(num) / median(den) and its 95 % interval by resampling the
    rounds (num[i] and den[i] come from the same round and stay paired)."""
    import random
    rng = random.Random(seed)
    n = len(num)
    ratios = []
    for _ in range(resamples):
        pick = [rng.randrange(n) for _ in range(n)]
        ratios.append(statistics.median(num[i] for i in pick)
                      / statistics.median(den[i] for i in pick))
    ratios.sort()
    return (statistics.median(num) / statistics.median(den),
            ratios[int(0.025 * resamples)], ratios[int(0.975 * resamples) - 1])


def alternate_table(say, out, counts):
    """(a2): the user events in interleaved batches, every tracer on at once;
    counts: main()'s, which hold ftrace's count of them"""
    batch, targets, rounds, failed = read_alternate(os.path.join(out, 'alternate'))
    bad = {t: f for t, f in failed.items() if f}
    if bad:
        sys.exit('tracer benchmark: the interleaved calls failed: %s' % bad)
    calls = batch * (len(rounds) + 1)
    c0, lost0, _, _ = guest.count_events(os.path.join(out, 'ours-alternate'))
    if lost0 or c0 < 2 * calls:
        sys.exit('tracer benchmark: our interleaved trace holds %d events on CPU 0 (%d lost), '
                 'not the %d written' % (c0, lost0, 2 * calls))
    fc = counts.get(('ftrace', 'alternate', 0), 0)
    if fc < calls:
        sys.exit('tracer benchmark: ftrace holds %d entries of the %d trace_marker writes'
                 % (fc, calls))
    marker = [t for t in targets if t.endswith('trace_marker')][0]
    rows = (('/proc/ltt_user_generic', 'write() to /proc/ltt_user_generic'),
            ('generic', 'ltt_trace_generic()'), (marker, 'write() to trace_marker'))
    say('##### (a2) user-space events in interleaved batches\n')
    say('One process on CPU 0, our trace (probes off) and ftrace (no event on) both active: '
        '%d rounds of %d calls to each of %s in turn, the order rotated every round; '
        'a call\'s added cost is its batch less the same round\'s `/dev/null` batch. '
        'Events on CPU 0: ours %d (both doors), ftrace %d; none lost.\n'
        % (len(rounds), batch, ', '.join(targets), c0, fc))
    say('| written by | ns/call, median | added ns/event, median | quartiles | '
        '/ trace_marker (95 % interval) |')
    say('|---|---:|---:|---:|---:|')
    ftrace = alternate_costs(batch, rounds, '/dev/null', marker)
    for target, name in rows:
        d = alternate_costs(batch, rounds, '/dev/null', target)
        q = statistics.quantiles(d, n=4)
        rel = ''
        if target != marker:
            r, lo, hi = ratio_interval(d, ftrace)
            rel = '%.2f (%.2f-%.2f)' % (r, lo, hi)
        say('| %s | %.0f | %.0f | %.0f-%.0f | %s |'
            % (name, statistics.median(x[target] for x in rounds) / batch,
               statistics.median(d), q[0], q[2], rel))
    say('| write() to /dev/null | %.0f | | | |\n'
        % (statistics.median(x['/dev/null'] for x in rounds) / batch))


def read_alternate_kernel(path):
    """The kernel loads' interleaved batches: {(tracer, load): {round:
    ns per op}} without round 0, and the number of rounds.  ValueError on a
    malformed line or a round that lacks one of its nine batches."""
    t = {}
    rounds = set()
    with open(path) as f:
        for line in f:
            w = line.split()
            if len(w) != 4 or w[1] not in ('none', 'ours', 'ftrace') \
                    or w[2] not in ('getpid', 'pipe'):
                raise ValueError('%s: bad line %r' % (path, line.strip()))
            r = int(w[0])
            rounds.add(r)
            if r:
                t.setdefault((w[1], w[2]), {})[r] = float(w[3])
    if rounds != set(range(len(rounds))) or any(
            len(v) != len(rounds) - 1 for v in t.values()) or len(t) != 6:
        raise ValueError('%s: a round lacks a batch' % path)
    return t, len(rounds) - 1


def alternate_kernel_table(say, out, evop):
    """(b2): the kernel loads in interleaved batches; evop[(tracer, load)]:
    the events each tracer writes per op (table b's counts)"""
    t, n = read_alternate_kernel(os.path.join(out, 'alternate-kernel'))
    say('##### (b2) system calls and context switches in interleaved batches\n')
    say('%d rounds, each a batch of each load untraced, under ours and under ftrace, the order '
        'rotated every round; each tracer started before its batches and stopped after them, '
        'outside the times measured. A batch\'s added cost is its time less the same round\'s '
        'untraced batch, per event by table (b)\'s events per op.\n' % n)
    say('| load | untraced ns/op | ours added ns/event | ftrace added ns/event '
        '| ours / ftrace per event (95 % interval) | per op |')
    say('|---|---:|---:|---:|---:|---:|')
    for load in ('getpid', 'pipe'):
        rs = sorted(t[('none', load)])
        added = {tr: [(t[(tr, load)][r] - t[('none', load)][r]) / evop[(tr, load)] for r in rs]
                 for tr in ('ours', 'ftrace')}
        ratio, lo, hi = ratio_interval(added['ours'], added['ftrace'])
        say('| %s | %.0f | %.0f | %.0f | %.2f (%.2f-%.2f) | %.2f |'
            % (load, statistics.median(t[('none', load)].values()),
               statistics.median(added['ours']), statistics.median(added['ftrace']),
               ratio, lo, hi, ratio * evop[('ours', load)] / evop[('ftrace', load)]))
    say('')


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--runs', type=int, default=5)
    ap.add_argument('--user', type=int, default=50000, help='user events per run')
    ap.add_argument('--size', type=int, default=32, help='bytes per user event')
    ap.add_argument('--getpid', type=int, default=200000)
    ap.add_argument('--pipe', type=int, default=20000)
    ap.add_argument('--alt-rounds', type=int, default=1000,
                    help='rounds of the interleaved user events (a2); 0: none')
    ap.add_argument('--alt-batch', type=int, default=100, help='calls per batch in (a2)')
    ap.add_argument('--alt-kernel', type=int, default=60,
                    help='rounds of the interleaved kernel loads (b2); 0: none')
    ap.add_argument('--perf', action='store_true', help='also profile the pipe load with perf')
    ap.add_argument('--dir', default=None, help='keep the guest output there')
    ap.add_argument('--from', dest='again', default=None,
                    help='print the tables of an earlier run kept with --dir')
    ap.add_argument('--no-doc', action='store_true', help='do not write docs/performance.md')
    ap.add_argument('--lttng', action='store_true',
                    help='with --kernel stock: LTTng 2.13 beside ours and ftrace (table c)')
    ap.add_argument('--kernel', choices=('bench', 'stock'), default='bench',
                    help="bench: our series (make bench-kernel); stock: Debian's own image "
                         "with the tracer's modules (their own tables in the doc)")
    a = ap.parse_args()
    guest.WHICH['kernel'] = a.kernel
    if a.lttng and a.kernel != 'stock':
        sys.exit('tracer benchmark: --lttng needs --kernel stock (LTTng\'s modules are '
                 'built for Debian\'s kernel)')
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
                  NALT=a.alt_rounds, ALTBATCH=a.alt_batch, NALTK=a.alt_kernel,
                  ALTGETPID=a.getpid // 40, ALTPIPE=a.pipe // 40,
                  PERF=1 if programs else 0, LTTNG=1 if a.lttng else 0,
                  CHECKSUM=guest.example_checksum())
    if a.again:
        params['PERF'] = int(os.path.exists(os.path.join(out, 'perf-ours-user.txt')))
        params['LTTNG'] = int(os.path.exists(os.path.join(out, 'lttng-events')))
        bad = None
    else:
        bad = guest.boot(out, os.path.join(guest.TOP, 'bench', 'tracer-guest.sh'), params,
                         programs)
    if bad:
        sys.exit('tracer benchmark: steps failed in the guest: %s (see %s)' % (', '.join(bad), out))
    t = load_times(out)
    counts = {}
    size = {}	# (tracer, load, run): bytes per event
    with open(os.path.join(out, 'counts')) as f:
        for line in f:
            w = line.split()	# ftrace LOAD RUN EVENTS OVERRUN [BYTES]
            counts[('ftrace', w[1], int(w[2]))] = int(w[3])
            if len(w) > 5 and int(w[3]) > int(w[4]):
                # the bytes its ring buffer holds on CPU 0 per entry there
                size[('ftrace', w[1], int(w[2]))] = int(w[5]) / (int(w[3]) - int(w[4]))
    runs = range(1, a.runs + 1)
    # LTTng-UST's runs (LTTNG=1; not in runs kept before they were added)
    ust = params['LTTNG'] and (not a.again or os.path.isdir(os.path.join(out, 'ust-user-1')))
    kernel_loads = ('getpid', 'pipe')
    tracers = [('ours', 'ours')] + ([('lttng', 'LTTng')] if params['LTTNG'] else [])
    for load in ('user', 'getpid', 'pipe'):
        for tracer, name in tracers:
            if tracer == 'lttng' and load not in kernel_loads:
                continue
            for k in runs:
                trace = os.path.join(out, '%s-%s-%d' % (tracer, load, k))
                c0, lost0, total, _ = guest.count_events(trace)
                if lost0:
                    sys.exit('tracer benchmark: %s trace %s-%s-%d lost %d events'
                             % (name, tracer, load, k, lost0))
                counts[(tracer, load, k)] = c0
                size[(tracer, load, k)] = trace_bytes(trace) / total
    for k in runs:
        trace = os.path.join(out, 'generic-user-%d' % k)
        c0, lost0, total, _ = guest.count_events(trace)
        if lost0:
            sys.exit('tracer benchmark: our trace generic-user-%d lost %d events' % (k, lost0))
        counts[('generic', 'user', k)] = c0
        size[('generic', 'user', k)] = trace_bytes(trace) / total
        if ust:
            trace = os.path.join(out, 'ust-user-%d' % k)
            c0, lost0, total, _ = guest.count_events(trace)
            if lost0:
                sys.exit('tracer benchmark: LTTng-UST trace ust-user-%d lost %d events'
                         % (k, lost0))
            counts[('ust', 'user', k)] = c0
            size[('ust', 'user', k)] = trace_bytes(trace) / total

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
    with open(os.path.join(out, 'versions')) as f:
        clocks = [ln.strip() for ln in f if ln.startswith('clocks:')]
    if clocks:
        say('Guest %s.\n' % clocks[0])
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
    if ust:
        rows += [('lttng_ust_tracepoint()', 'no session', 'ust-off', 'ust-off'),
                 ('lttng_ust_tracepoint()', 'LTTng-UST', 'ust', 'ust-off')]
    added = {}
    for where, how, tracer, base in rows:
        m = med(tracer, 'user')
        ev = ''
        if tracer in ('ours', 'generic', 'ftrace', 'ust'):
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
    if ust:
        b['ust'] = best('ust', 'user', 'ust-off', n)
        say('ours / LTTng-UST (the same payload, %d bytes; an LTTng-UST event never leaves '
            'user space): %.2f through /proc/ltt_user_generic, %.2f through '
            'ltt_trace_generic(); best runs %.2f and %.2f; bytes per event in the traces '
            '(all events, headers included): ours %.1f, LTTng-UST %.1f\n'
            % (a.size, added['ours'] / added['ust'], added['generic'] / added['ust'],
               b['ours'] / b['ust'], b['generic'] / b['ust'],
               statistics.median(size[('generic', 'user', k)] for k in runs),
               statistics.median(size[('ust', 'user', k)] for k in runs)))

    if os.path.exists(os.path.join(out, 'alternate')):
        alternate_table(say, out, counts)

    # (b) kernel events
    say('##### (b) system calls and context switches: %d getpid(), %d pipe round trips\n'
        % (a.getpid, a.pipe))
    say('| load | untraced ns/op | ours ns/op | ftrace ns/op | ours × untraced | ftrace × untraced '
        '| ours events/op | ftrace events/op | ours ns/event | ftrace ns/event | ours / ftrace per event |')
    say('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|')
    evops = {}
    for load, nops in (('getpid', a.getpid), ('pipe', a.pipe)):
        off = med('none', load)
        r = {}
        for tracer in ('ours', 'ftrace'):
            evop = statistics.median(counts[(tracer, load, k)] / nops for k in runs)
            evops[(tracer, load)] = evop
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
    if os.path.exists(os.path.join(out, 'alternate-kernel')):
        say('')
        alternate_kernel_table(say, out, evops)
    if params['LTTNG']:
        lttng_table(say, out, t, counts, size, runs, a, med, best)
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


def lttng_table(say, out, t, counts, size, runs, a, med, best):
    """(c): the kernel loads under ours, LTTng 2.13 and ftrace in the same boot"""
    say('\n##### (c) LTTng 2.13 beside them: the same loads, the same boot\n')
    say('LTTng: a snapshot session (no consumer reads while the load runs), one kernel '
        'channel of 4 sub-buffers of 8 MiB per CPU; events: %s. Its trace is written out '
        'after the run (lttng snapshot record).\n'
        % ' '.join(ln.strip() for ln in open(os.path.join(out, 'lttng-events'))))
    say('| load | untraced ns/op | ours ns/op | LTTng ns/op | ftrace ns/op '
        '| events/op ours, LTTng, ftrace | ns/event ours, LTTng, ftrace '
        '| ours / LTTng per event | ours / LTTng per op | bytes/event ours, LTTng, ftrace |')
    say('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|')
    names = ('ours', 'lttng', 'ftrace')
    for load, nops in (('getpid', a.getpid), ('pipe', a.pipe)):
        off = med('none', load)
        evop, per_ev, byt = {}, {}, {}
        for tracer in names:
            evop[tracer] = statistics.median(counts[(tracer, load, k)] / nops for k in runs)
            per_ev[tracer] = statistics.median(
                (t[(tracer, load)][k] - t[('none', load)][k]) * nops / counts[(tracer, load, k)]
                for k in runs)
            byt[tracer] = statistics.median(size[(tracer, load, k)] for k in runs
                                            if (tracer, load, k) in size)
        say('| %s | %.0f | %s | %s | %s | %.2f | %.2f | %s |'
            % (load, off, ' | '.join('%.0f' % med(tr, load) for tr in names),
               ', '.join('%.1f' % evop[tr] for tr in names),
               ', '.join('%.0f' % per_ev[tr] for tr in names),
               per_ev['ours'] / per_ev['lttng'],
               (med('ours', load) - off) / (med('lttng', load) - off),
               ', '.join('%.1f' % byt[tr] for tr in names)))
    say('\nbytes/event: ours, what lttd wrote (all CPUs and channels, headers included, '
        'the unused ends of sub-buffers not) per event; LTTng, the same of its kchan_* streams '
        '(no metadata); ftrace, the bytes its ring buffer holds on CPU 0 per entry (it writes '
        'no file here). Medians over the runs.')
    for load, nops in (('getpid', a.getpid), ('pipe', a.pipe)):
        bo, bl = best('ours', load, 'none', nops), best('lttng', load, 'none', nops)
        say('\nbest runs (each row\'s fastest), %s: ours %.0f, LTTng %.0f ns per event, '
            'ours / LTTng %.2f' % (load, bo, bl, bo / bl))


if __name__ == '__main__':
    sys.exit(main())
