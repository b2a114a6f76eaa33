#!/usr/bin/env python3
"""Decoding benchmark: lttv-text against babeltrace2 on the same events.

Three parts, each run R times (default 5; the tables give the median),
output to /dev/null, lttv-text against babeltrace2 on lttv-convert's CTF
export of the same trace, in the same run:

  families   one trace of N events (default 1 M) per family of field types
             (ltt-tracegen --scenario fields --family F: small and 64-bit
             integers, pointers, longs, floats, strings, sequences, arrays,
             enums, structs and unions, six scalars of different kinds)
             and one of all of them mixed;
  sizes      the kernel-like mix (--scenario big: scheduler, system calls,
             interrupts, a few small fields each) at 1 M and 10 M events;
  limit      decode only on one core and on all of them (lttv-text
             --threads), at 10 M and 100 M events of the kernel-like mix
             (the 100 M trace, about 2 GB, is generated and deleted);
  lttng      an LTTng 2.13 user-space trace (CTF as LTTng writes it, read
             by both tools directly): tests/lttng-ust/record.sh's sample
             program, ROUNDS x 720 events (default 1400: 1 M), recorded
             here (needs lttng-tools, liblttng-ust-dev and root), or the
             trace given by --lttng-trace;
  lttng-kernel  an LTTng 2.13 kernel trace: tests/lttng-kernel/record.sh
             with LTTNG_ROUNDS=N (--lttng-kernel N; QEMU on Debian's kernel,
             a few minutes; needs root and what record.sh needs; about
             0.17 M events a round), or the trace given by
             --lttng-kernel-trace.

In the two LTTng parts both tools count the trace's events first
(lttv-text -q -S, babeltrace2's sink.utils.counter), and the part stops
if the counts differ.

Compared, with wall and CPU (user + system) times, and the ratios:
  text dump      lttv-text -t T          vs  babeltrace2 CTF (sink.text.pretty)
  decode only    lttv-text -t T -q -S    vs  babeltrace2 CTF -c sink.utils.dummy
                 (per-type statistics)       (decodes every event, no output)
  count only     lttv-text -t T -q           (iterate in time order, no fields)

The tables are printed and written into docs/performance.md (between the
"decode.py" markers) with the date and the machine's load.

    bench/decode.py [--events 1000000] [--sizes 1000000,10000000]
                    [--limit 10000000,100000000] [--families all]
                    [--lttng 1400] [--lttng-trace DIR]
                    [--lttng-kernel 16] [--lttng-kernel-trace DIR]
                    [--runs 5] [--dir /tmp/x] [--no-doc]
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

TOP = hostrun.TOP
BIN = os.path.join(TOP, 'build', 'bin')
TEXT = os.path.join(BIN, 'lttv-text')
FAMILIES = ['ints', 'int64s', 'pointers', 'longs', 'floats', 'strings', 'sequences',
            'arrays', 'enums', 'compounds', 'scalars', 'mixed']
WHAT = {
    'ints': 'small integers (pid, fd, flags, prio, cpu)',
    'int64s': '64-bit integers',
    'pointers': 'pointers, in hex',
    'longs': 'longs, size_t, ssize_t, off_t',
    'floats': 'floats (4 and 8 bytes)',
    'strings': 'strings (a name, a path)',
    'sequences': 'sequences (of longs, of shorts)',
    'arrays': 'arrays (6 longs, 4 ints)',
    'enums': 'enums, by label',
    'compounds': 'a struct and a union',
    'scalars': 'int, uint, long, pointer, u8, u64',
    'mixed': 'all of the above, in turn',
}


def measure(cmd, runs):
    """Median wall and CPU seconds over runs (after one run that warms the
    page cache), and the largest peak RSS in MiB."""
    hostrun.run_timed(cmd, keep_output=False)
    walls, cpus, mem = [], [], 0.0
    for _ in range(runs):
        _, wall, cpu, rss = hostrun.run_timed(cmd, keep_output=False)
        walls.append(wall)
        cpus.append(cpu)
        mem = max(mem, rss)
    return statistics.median(walls), statistics.median(cpus), mem


def make_trace(dirpath, gen_args, ctf=True):
    """The trace (and its CTF export), unless already there."""
    trace, ctfdir = dirpath, dirpath + '.ctf'
    if not os.path.isdir(trace):
        subprocess.run([os.path.join(BIN, 'ltt-tracegen')] + gen_args + ['-o', trace], check=True)
    if ctf and not os.path.isdir(ctfdir):
        subprocess.run([os.path.join(BIN, 'lttv-convert'), '--ctf', ctfdir, '-t', trace],
                       check=True)
    return trace, ctfdir


def mib(path):
    return sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(path)
               for f in fs) / 2**20


def pair(ours, theirs, runs):
    """(lttv wall, lttv CPU, bt2 wall, bt2 CPU, lttv MiB, bt2 MiB)"""
    t1, c1, m1 = measure(ours, runs)
    t2, c2, m2 = measure(theirs, runs)
    return t1, c1, t2, c2, m1, m2


def families(out, a, scratch):
    n = a.events
    fams = FAMILIES if a.families == 'all' else a.families.split(',')
    out('### Every family of field types: %d events each\n' % n)
    out('`ltt-tracegen --scenario fields --family F` (one event of '
        'tests/facilities/fields.xml per family; 2 CPUs).\n')
    rows = {}
    for f in fams:
        trace, ctf = make_trace(os.path.join(scratch, 'fields-%s-%d' % (f, n)),
                                ['--scenario', 'fields', '--family', f, '--events', str(n)])
        size = mib(trace) * 2**20 / n
        text = pair([TEXT, '-t', trace], ['babeltrace2', ctf], a.runs)
        dec = pair([TEXT, '-t', trace, '-q', '-S'],
                   ['babeltrace2', ctf, '-c', 'sink.utils.dummy'], a.runs)
        rows[f] = (size, text, dec)
        print('  (%s done)' % f, flush=True)
        if not a.dir:
            shutil.rmtree(trace)
            shutil.rmtree(ctf)
    worst = {}
    for what, k, goal in (('text dump', 1, 5), ('decode only', 2, 10)):
        out('\n%s (lttv-text %s against babeltrace2 %s):\n' % (
            what.capitalize(), '-t T' if k == 1 else '-t T -q -S',
            'CTF' if k == 1 else 'CTF -c sink.utils.dummy'))
        out('| trace | fields | bytes/event | lttv | babeltrace2 | lttv events/s | ratio '
            '| lttv CPU | bt2 CPU | CPU ratio | lttv peak MiB |')
        out('|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|')
        for f in fams:
            size, *res = rows[f]
            t1, c1, t2, c2, m1, _ = res[k - 1]
            out('| %s | %s | %.0f | %.3f s | %.3f s | %.2f M | %.1fx | %.3f s | %.3f s | %.1fx | %.0f |'
                % (f, WHAT[f], size, t1, t2, n / t1 / 1e6, t2 / t1, c1, c2, c2 / c1, m1))
            for clock, r in (('wall', t2 / t1), ('CPU', c2 / c1)):
                key = (what, clock)
                if key not in worst or r < worst[key][0]:
                    worst[key] = (r, f)
        lo_w, lo_c = worst[(what, 'wall')], worst[(what, 'CPU')]
        met = lo_w[0] >= goal and lo_c[0] >= goal
        out('\n%s, goal %dx babeltrace2 on every row: lowest ratio %.1fx wall (%s), %.1fx CPU (%s): %s.'
            % (what.capitalize(), goal, lo_w[0], lo_w[1], lo_c[0], lo_c[1],
               'met' if met else 'NOT met'))
    return worst


def sizes(out, a, scratch):
    out('\n### The kernel-like mix at several sizes\n')
    out('`ltt-tracegen --scenario big` (schedchange, system call entry and exit, IRQ and '
        'softirq entry and exit, wakeups, file reads and writes; 2 CPUs).\n')
    out('| events | what | lttv | babeltrace2 | lttv events/s | bt2 events/s | ratio '
        '| lttv CPU | bt2 CPU | CPU ratio | lttv peak MiB | bt2 peak MiB |')
    out('|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|')
    growth = {}
    for n in [int(x) for x in a.sizes.split(',') if x]:
        trace, ctf = make_trace(os.path.join(scratch, 'big-%d' % n),
                                ['--scenario', 'big', '--events', str(n)])
        pairs = [
            ('text dump', [TEXT, '-t', trace], ['babeltrace2', ctf]),
            ('decode only', [TEXT, '-t', trace, '-q', '-S'],
             ['babeltrace2', ctf, '-c', 'sink.utils.dummy']),
            ('count only', [TEXT, '-t', trace, '-q'], None),
        ]
        for what, ours, theirs in pairs:
            t1, c1, m1 = measure(ours, a.runs)
            growth.setdefault(what, []).append((n, t1, c1))
            if theirs:
                t2, c2, m2 = measure(theirs, a.runs)
                out('| %d | %s | %.3f s | %.3f s | %.2f M | %.2f M | %.1fx | %.3f s | %.3f s '
                    '| %.1fx | %.0f | %.0f |'
                    % (n, what, t1, t2, n / t1 / 1e6, n / t2 / 1e6, t2 / t1, c1, c2,
                       c2 / c1, m1, m2))
            else:
                out('| %d | %s | %.3f s | | %.2f M | | | %.3f s | | | %.0f | |'
                    % (n, what, t1, n / t1 / 1e6, c1, m1))
        if not a.dir:
            shutil.rmtree(ctf)
            if str(n) not in a.limit.split(','):    # limit() reads it again
                shutil.rmtree(trace)
    out('\nlttv\'s time per event (ns, wall / CPU):\n')
    for what, pts in growth.items():
        out('- %s: %s' % (what, ', '.join('%d events: %.1f / %.1f ns'
                                          % (n, t / n * 1e9, c / n * 1e9) for n, t, c in pts)))


def limit(out, a, scratch):
    out('\n### Toward the limit: decode only on every core\n')
    out('`lttv-text -t T -q -S --threads N` on the kernel-like mix: each tracefile '
        'is read by its own thread (they are independent until a merge in time '
        'order, which a count per type and per CPU does not need); `--threads 1` '
        'reads them one after the other.\n')
    out('| events | trace MiB | threads | wall | events/s (wall) | CPU | CPU ns/event | peak MiB |')
    out('|---:|---:|---:|---:|---:|---:|---:|---:|')
    best = None
    for n in [int(x) for x in a.limit.split(',') if x]:
        trace, _ = make_trace(os.path.join(scratch, 'big-%d' % n),
                              ['--scenario', 'big', '--events', str(n)], ctf=False)
        size = mib(trace)
        for threads in ('1', str(os.cpu_count())):
            t, c, m = measure([TEXT, '-t', trace, '-q', '-S', '--threads', threads], a.runs)
            out('| %d | %.0f | %s | %.3f s | %.1f M | %.3f s | %.1f | %.0f |'
                % (n, size, threads, t, n / t / 1e6, c, c / n * 1e9, m))
            if best is None or n / t > best[0]:
                best = (n / t, n, threads)
        if not a.dir:
            shutil.rmtree(trace)
    out('\nHighest rate: %.1f M events/s (%d events, %s threads); goal 100 M events/s.'
        % (best[0] / 1e6, best[1], best[2]))


def count_events(trace):
    """(lttv-text's count, babeltrace2's count) of the trace's events."""
    stats = subprocess.run([TEXT, '-t', trace, '-q', '-S'], capture_output=True, text=True,
                           check=True).stdout
    ours = sum(int(line.split()[0]) for line in stats.splitlines()
               if line.strip() and line.split()[0].isdigit() and '.' in line)
    counter = subprocess.run(['babeltrace2', trace, '-c', 'sink.utils.counter', '-p', 'step=+0'],
                             capture_output=True, text=True, check=True).stdout
    theirs = [int(line.split()[0]) for line in counter.splitlines()
              if line.strip().endswith(' Event messages')]
    return ours, theirs[-1] if theirs else -1


def lttng_table(out, a, trace, what):
    """The text dump and decode-only rows on an LTTng trace; what: how it
    was recorded (a sentence, without the count)."""
    n, bt2 = count_events(trace)
    if n != bt2:
        out('%s: lttv-text counts %d events, babeltrace2 %d: not timed.' % (trace, n, bt2))
        return
    out('%s: %d events (babeltrace2 counts as many), %.0f MiB; both tools read the same '
        'files.\n' % (what, n, mib(trace)))
    out('| what | lttv | babeltrace2 | lttv events/s | bt2 events/s | ratio '
        '| lttv CPU | bt2 CPU | CPU ratio | goal |')
    out('|---|---:|---:|---:|---:|---:|---:|---:|---:|---|')
    for what, ours, theirs, goal in (
            ('text dump', [TEXT, '-t', trace], ['babeltrace2', trace], 5),
            ('decode only', [TEXT, '-t', trace, '-q', '-S'],
             ['babeltrace2', trace, '-c', 'sink.utils.dummy'], 10)):
        t1, c1, t2, c2, _, _ = pair(ours, theirs, a.runs)
        met = t2 / t1 >= goal and c2 / c1 >= goal
        out('| %s | %.3f s | %.3f s | %.2f M | %.2f M | %.1fx | %.3f s | %.3f s | %.1fx '
            '| %dx: %s |' % (what, t1, t2, n / t1 / 1e6, n / t2 / 1e6, t2 / t1, c1, c2,
                             c2 / c1, goal, 'met' if met else 'NOT met'))


def lttng(out, a, scratch):
    out('\n### An LTTng 2.13 trace (CTF 1.8 as LTTng writes it)\n')
    trace = a.lttng_trace
    if not trace:
        trace = os.path.join(scratch, 'lttng-ust-%d' % a.lttng)
        if not os.path.isdir(trace):
            if not shutil.which('lttng-sessiond') or os.geteuid() != 0:
                out('Skipped: recording needs lttng-tools, liblttng-ust-dev and root '
                    '(or give --lttng-trace).')
                return
            subprocess.run(['sh', os.path.join(TOP, 'tests', 'lttng-ust', 'record.sh'),
                            trace, str(a.lttng), '1048576'], check=True)
    lttng_table(out, a, trace,
                '`tests/lttng-ust/record.sh` (the sample program\'s integers, floats, strings, '
                'arrays, sequences, enums, with the vpid, vtid and procname contexts; 2 '
                'channels, 1 MiB sub-buffers, nothing lost)')
    if not a.dir and not a.lttng_trace:
        shutil.rmtree(trace, ignore_errors=True)


def lttng_kernel(out, a, scratch):
    out('\n### An LTTng 2.13 kernel trace\n')
    trace = a.lttng_kernel_trace
    if not trace:
        trace = os.path.join(scratch, 'lttng-kernel-%d' % a.lttng_kernel)
        if not os.path.isdir(trace):
            if os.geteuid() != 0:
                out('Skipped: recording needs root (or give --lttng-kernel-trace).')
                return
            env = dict(os.environ, LTTNG_ROUNDS=str(a.lttng_kernel))
            subprocess.run(['sh', os.path.join('tests', 'lttng-kernel', 'record.sh'), trace],
                           cwd=TOP, env=env, check=True)
    lttng_table(out, a, trace,
                '`LTTNG_ROUNDS=%s tests/lttng-kernel/record.sh` (Debian\'s 6.1 kernel and '
                'lttng-modules 2.13 in QEMU, 2 CPUs; the scheduler, IRQ, softirq and '
                'statedump events and 16 system calls, with the pid, tid and procname '
                'contexts; the sample\'s workload, then rounds of small reads and writes '
                'on both CPUs, a directory walk, a pipe; 1 MiB sub-buffers, nothing lost)'
                % (a.lttng_kernel or 'N'))
    if not a.dir and not a.lttng_kernel_trace:
        shutil.rmtree(trace, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--events', type=int, default=1000000, help='events per family trace')
    ap.add_argument('--families', default='all', help="comma-separated, all, or '' for none")
    ap.add_argument('--sizes', default='1000000,10000000')
    ap.add_argument('--limit', default='10000000,100000000')
    ap.add_argument('--lttng', type=int, default=1400,
                    help='rounds of the LTTng sample program (0: no LTTng part)')
    ap.add_argument('--lttng-trace', default=None, help='an LTTng trace to use instead')
    ap.add_argument('--lttng-kernel', type=int, default=0,
                    help='rounds of the busy load of tests/lttng-kernel/record.sh '
                         '(0: no LTTng kernel part)')
    ap.add_argument('--lttng-kernel-trace', default=None,
                    help='an LTTng kernel trace to use instead of recording one')
    ap.add_argument('--runs', type=int, default=5)
    ap.add_argument('--dir', default=None, help='keep the traces there (default: a temporary folder)')
    ap.add_argument('--no-doc', action='store_true', help='do not write docs/performance.md')
    a = ap.parse_args()
    if not shutil.which('babeltrace2'):
        print('decoding benchmark skipped: babeltrace2 is not installed '
              '(scripts/install-deps.sh installs it)')
        return 0
    if not os.access(TEXT, os.X_OK):
        sys.exit('%s is not built (make)' % TEXT)
    scratch = a.dir or tempfile.mkdtemp(prefix='ltt-bench-')
    head = ('Run of %s; machine: %s, %d CPUs, load average %.1f at the start; %s; '
            'median of %d runs, output to /dev/null.'
            % (hostrun.now_utc(), os.uname().machine, os.cpu_count(), hostrun.load(),
               hostrun.version(['babeltrace2', '--version']), a.runs))
    # the LTTng parts have markers of their own: a run of one alone leaves
    # the other tables as they are; each part's report is begun (and
    # printed) only when it runs
    out, lt, lk = hostrun.Report(), hostrun.Report(), hostrun.Report()
    kernel = a.lttng_kernel or a.lttng_kernel_trace
    own = (a.events and a.families) or a.sizes or a.limit
    lttng_ust = a.lttng or a.lttng_trace
    for report, runs in ((out, own), (lt, lttng_ust), (lk, kernel)):
        if runs:
            report(head + ('\n' if report is out else ''))
    try:
        if a.events and a.families:     # --families '': none
            families(out, a, scratch)
        if a.sizes:
            sizes(out, a, scratch)
        if a.limit:
            limit(out, a, scratch)
        if lttng_ust:
            lttng(lt, a, scratch)
        if kernel:
            lttng_kernel(lk, a, scratch)
    finally:
        if not a.dir:
            shutil.rmtree(scratch, ignore_errors=True)
    for report, runs in ((out, own), (lt, lttng_ust), (lk, kernel)):
        if runs:
            report('\nLoad average at the end: %.1f.' % hostrun.load())
    if not a.no_doc:
        if own:
            hostrun.update_doc('decode.py', out.text())
        if lttng_ust:
            hostrun.update_doc('decode.py lttng', lt.text())
        if kernel:
            hostrun.update_doc('decode.py lttng-kernel', lk.text())
    return 0


if __name__ == '__main__':
    sys.exit(main())
