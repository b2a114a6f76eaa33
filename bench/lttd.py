#!/usr/bin/env python3
"""lttd against trace-cmd, or against lttng-consumerd: the event rates each
records without loss.

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

--kernel stock boots Debian's own image with the tracer's modules and
LTTng 2.13's (bench/guest.py, qemu/lttng-initramfs.sh; LTTNG_KERNEL_WORK
names the folder of LTTng's built modules) and puts LTTng in ftrace's
place:
  lttng    /proc/lttng-logger (lttng-tracer's: the lttng_logger event,
           the same writer and bytes as ours), a kernel session with that
           event alone in the channel `lttng enable-event` makes with
           lttng-tools' defaults, lttng-sessiond and the lttng-consumerd it
           starts on CPU 1 writing to tmpfs;
counted by babeltrace2 (checked against lttv-text, which reads the CTF
trace too), its losses as `lttng list` reports them (and as the packet
contexts' events_discarded say, through lttv-text).  Only the default
buffers unless --configs says otherwise (large = LARGE_LTTNG; timer, a
diagnostic: LTTng's default channel with our wakeup period, TIMER_LTTNG).  Its tables
go between the "lttd.py --kernel stock" markers.

    bench/lttd.py [--runs 3] [--rates 50000,0,max2] [--secs 1]
                  [--maxn 60000] [--sizes 32,256] [--configs default,large]
                  [--kernel bench|stock] [--dir OUT] [--no-doc]
    bench/lttd.py --from OUT [same options as that run]   (tables again, no boot)
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
LARGE_LTTNG = '--subbuf-size=4M --num-subbuf=4'
# A diagnostic, not a setting of the comparison (--configs default,timer):
# LTTng's kernel buffers wake their consumer from a timer only (read timer,
# 200 ms by default), ours from one every 2 jiffies at most (LTT_WAKEUP_PERIOD,
# kernel/patches/0003: 8 ms at Debian's HZ=250); "timer" gives LTTng's
# default channel that period, to see how much of a gap it explains.
TIMER_LTTNG = '--read-timer=8000'
# how the tables name each tracer's reader
READER = {'ours': 'lttd', 'ftrace': 'trace-cmd', 'lttng': 'lttng-consumerd'}
ABI = os.path.join(guest.TOP, 'include', 'ltt', 'ltt-abi.h')


def default_high():
    """'N x SIZE' of the cpu channel's default buffers, from the one
    header that sets them (lttctl sends them, the kernel falls back on them)"""
    with open(ABI) as f:
        text = f.read()
    size = int(re.search(r'#define LTT_DEFAULT_SUBBUF_SIZE_HIGH\s+(\d+)', text).group(1))
    n = int(re.search(r'#define LTT_DEFAULT_N_SUBBUFS_HIGH\s+(\d+)', text).group(1))
    return '%d x %s' % (n, '%d MiB' % (size >> 20) if size % (1 << 20) == 0 else '%d KiB' % (size >> 10))


def ours_arrived(trace, event='user_generic.string'):
    """(events of that type in the trace, events lost by the buffer_stats,
    or in an LTTng trace by its packet contexts)"""
    out = subprocess.run([os.path.join(guest.BUILD, 'bin', 'lttv-text'), '-t', trace, '-q', '-S', '-c'],
                         capture_output=True, text=True, check=True).stdout
    n = lost = 0
    for line in out.splitlines():
        w = line.split()
        if len(w) == 2 and w[1] == event:
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


def lttng_discarded(listing):
    """The events `lttng list SESSION` says its channels discarded (the sum
    of their "Discarded events: N" lines), or None if it says nothing of
    them (an older lttng, a failed command)."""
    found = re.findall(r'^\s*Discarded events:\s*(\d+)\s*$', listing, re.M)
    return sum(int(x) for x in found) if found else None


def counted_events(text):
    """The events babeltrace2's sink.utils.counter counted, from its last
    block (it prints one every so many messages while it reads, the totals
    at the end), or None."""
    found = re.findall(r'^\s*(\d+) Event messages\s*$', text, re.M)
    return int(found[-1]) if found else None


def lttng_arrived(trace, listing):
    """(lttng_logger events in an LTTng trace, events lost as `lttng list`
    reported them).  babeltrace2 counts (the session has that event alone);
    lttv-text must agree with it, events and discarded events alike (its
    per-CPU losses are the packet contexts' events_discarded)."""
    p = subprocess.run(['babeltrace2', trace, '-c', 'sink.utils.counter'],
                       capture_output=True, text=True)
    n = counted_events(p.stdout)
    if p.returncode or n is None:
        raise RuntimeError('babeltrace2 %s: %s' % (trace, p.stderr.strip()[:200]))
    ours_n, ours_lost = ours_arrived(trace, 'lttng.lttng_logger')
    with open(listing) as f:
        reported = lttng_discarded(f.read())
    if reported is None:
        raise RuntimeError('%s: no "Discarded events" in `lttng list`' % listing)
    if ours_n != n or ours_lost != reported:
        raise RuntimeError('%s: babeltrace2 counts %d events and lttng list %d discarded, '
                           'lttv-text %d and %d' % (trace, n, reported, ours_n, ours_lost))
    return n, reported


def lttng_channel(out):
    """The attributes `lttng list` gave the default channel in the
    guest's first run (channel_attributes())"""
    lists = sorted(x for x in os.listdir(out) if x.startswith('lttng-') and x.endswith('.list')
                   and '-default-' in x)
    if not lists:
        return 'attributes not recorded'
    with open(os.path.join(out, lists[0])) as f:
        return channel_attributes(f.read())


def channel_attributes(listing):
    """The first channel's attributes in `lttng list SESSION`'s words:
    "sub-buffer size 1048576 bytes, sub-buffer count 4, ..." ('' if none)"""
    attrs = []
    for name in ('Event-loss mode', 'Sub-buffer size', 'Sub-buffer count', 'Switch timer',
                 'Read timer', 'Output mode'):
        m = re.search(r'^\s*%s:\s*(.+?)\s*$' % re.escape(name), listing, re.M)
        if m:
            attrs.append('%s %s' % (name.lower(), m.group(1)))
    return ', '.join(attrs)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--runs', type=int, default=3)
    ap.add_argument('--rates', default='50000,0,max2')
    ap.add_argument('--secs', type=int, default=1)
    ap.add_argument('--maxn', type=int, default=60000)
    ap.add_argument('--sizes', default='32,256', help='bytes per event')
    ap.add_argument('--configs', default=None,
                    help='buffers: default,large (bench) or default (stock) unless given')
    ap.add_argument('--kernel', choices=('bench', 'stock'), default='bench',
                    help="bench: our series against trace-cmd; stock: Debian's own image "
                         "with the modules, against LTTng 2.13's lttng-consumerd")
    ap.add_argument('--dir', default=None, help='keep the guest output there')
    ap.add_argument('--from', dest='again', default=None,
                    help='print the tables of an earlier run kept with --dir')
    ap.add_argument('--no-doc', action='store_true', help='do not write docs/performance.md')
    a = ap.parse_args()
    guest.WHICH['kernel'] = a.kernel
    theirs = 'lttng' if a.kernel == 'stock' else 'ftrace'
    configs_asked = (a.configs or ('default' if a.kernel == 'stock' else 'default,large')).split(',')
    if set(configs_asked) - {'default', 'large', 'timer'} or \
            ('timer' in configs_asked and a.kernel != 'stock'):
        sys.exit('lttd benchmark: --configs takes default and large (and timer with --kernel stock)')
    why = None if a.again else guest.missing()
    if not why and not a.again:
        need = 'babeltrace2' if theirs == 'lttng' else 'trace-cmd'
        if not shutil.which(need):
            why = 'no %s on the host (scripts/install-deps.sh bench)' % need
    if why:
        print('lttd benchmark skipped: %s' % why)
        return 0
    rates = a.rates.split(',')
    scratch = a.again or a.dir or tempfile.mkdtemp(prefix='ltt-bench-lttd-')
    out = os.path.join(scratch, 'guest')
    when = hostrun.stamp(scratch, write=not a.again)
    params = dict(TRACERS='"ours %s"' % theirs, CONFIGS='"%s"' % ' '.join(configs_asked),
                  RUNS=a.runs, RATES='"%s"' % ' '.join(map(str, rates)), SECS=a.secs, MAXN=a.maxn,
                  SIZES='"%s"' % ' '.join(a.sizes.split(',')), LARGE_OURS='"%s"' % LARGE_OURS,
                  LARGE_FTRACE=LARGE_FTRACE, LARGE_LTTNG='"%s"' % LARGE_LTTNG,
                  TIMER_LTTNG='"%s"' % TIMER_LTTNG)
    programs = {}
    if theirs == 'lttng':
        params['LTTNG'] = 1	# bench/guest.py: LTTng's modules and tools in the initramfs
    else:
        programs['/usr/bin/trace-cmd'] = shutil.which('trace-cmd')
    if not a.again:
        # longer on Debian's kernel: both vCPUs on one host thread (qemu/modules-boot.sh)
        bad = guest.boot(out, os.path.join(guest.TOP, 'bench', 'lttd-guest.sh'), params, programs,
                         timeout=2400 if a.kernel == 'stock' else 1200)
        if bad:
            sys.exit('lttd benchmark: steps failed in the guest: %s (see %s)'
                     % (', '.join(bad), out))
    rows = {}
    with open(os.path.join(out, 'times')) as f:
        for line in f:
            w = line.split()
            if len(w) != 9:
                sys.exit('lttd benchmark: a load did not run: %s' % line.strip())
            tracer, cfg, rate, k, _, n, total = w[0], w[1], w[2], int(w[3]), w[4], int(w[5]), int(w[6])
            if cfg.split('-')[1] not in configs_asked:
                continue	# --from with fewer --configs than the run had
            base = os.path.join(out, '%s-%s-%s-%d' % (tracer, cfg, rate, k))
            if tracer == 'ours':
                got, reported = ours_arrived(base)
            elif tracer == 'lttng':
                got, reported = lttng_arrived(base, base + '.list')
            else:
                got, reported = ftrace_arrived(base + '.dat')
            rows.setdefault((cfg, rate, tracer), []).append((n, n / total * 1e9, n - got, reported))
    with open(os.path.join(out, 'versions')) as f:
        versions = ', '.join(ln.strip() for ln in f)
    say = hostrun.Report()
    say('#### lttd against %s\n' % ('lttng-consumerd' if theirs == 'lttng' else 'trace-cmd record'))
    say('Run on %s.\n' % when)
    say('%s; %s; median of %d runs; user events of SIZE bytes written on CPU 0, readers on CPU 1, '
        'output to tmpfs.\n' % (guest.machine(out), versions, a.runs))
    if theirs == 'lttng':
        say('Ours: `/proc/ltt_user_generic` (user_generic.string), lttd started by `lttctl -d`. '
            'LTTng: `/proc/lttng-logger` (lttng_logger), a kernel session with that event alone, '
            'lttng-sessiond and its lttng-consumerd on CPU 1. Both written by the same '
            '`ltt-bench-tool write` loop, the same SIZE bytes per write.\n')
        say('Buffers: default = ours %s per CPU (lttctl\'s defaults), LTTng the channel '
            '`lttng enable-event` makes with lttng-tools\' defaults (%s)%s%s.\n'
            % (default_high(), lttng_channel(out),
               '; large = ours %s, LTTng %s' % (LARGE_OURS, LARGE_LTTNG)
               if 'large' in configs_asked else '',
               '; timer (a diagnostic, not a default) = ours default, LTTng default with %s, '
               'the period of our wakeup timer' % TIMER_LTTNG if 'timer' in configs_asked else ''))
    else:
        say('Buffers: default = ours %s per CPU (lttctl\'s defaults), ftrace buffer_size_kb as '
            'booted; large = ours %s, ftrace -b %d.\n' % (default_high(), LARGE_OURS, LARGE_FTRACE))
    say('| size | buffers | asked events/s | tracer | events | achieved events/s | lost (median) | lost (max) '
        '| lost as the tracer reports it (median, max) |')
    say('|---:|---|---:|---|---:|---:|---:|---:|---:|')
    best, first_loss = {}, {}
    configs = ['%s-%s' % (size, b) for size in a.sizes.split(',') for b in configs_asked]
    for cfg in configs:
        for rate in rates:
            for tracer in ('ours', theirs):
                r = rows[(cfg, rate, tracer)]
                lost = [x[2] for x in r]
                say('| %s | %s | %s | %s | %d | %.0f | %d | %d | %d, %d |'
                    % (cfg.split('-')[0], cfg.split('-')[1], {'0': 'max', 'max2': 'max, 2 writers'}.get(rate, rate),
                       READER[tracer], r[0][0], statistics.median(x[1] for x in r),
                       statistics.median(lost), max(lost), statistics.median(x[3] for x in r),
                       max(x[3] for x in r)))
                if max(lost) == 0:
                    ach = min(x[1] for x in r)
                    best[(cfg, tracer)] = max(best.get((cfg, tracer), 0), ach)
                else:
                    ach = min(x[1] for x in r if x[2])
                    first_loss[(cfg, tracer)] = min(first_loss.get((cfg, tracer), ach), ach)
    say('\nHighest rate with no loss in any run (achieved events/s: of the points that never '
        'lost, the highest rate of a slowest run; "lost at": the slowest run that lost events):\n')

    def fig(cfg, tracer):
        text = '%.0f' % best[(cfg, tracer)] if (cfg, tracer) in best else 'none'
        if (cfg, tracer) in first_loss:
            text += ' (lost at %.0f)' % first_loss[(cfg, tracer)]
        return text
    for cfg in configs:
        say('- %s bytes, %s buffers: lttd %s, %s %s' % (
            cfg.split('-')[0], cfg.split('-')[1], fig(cfg, 'ours'), READER[theirs], fig(cfg, theirs)))
    if not a.again:
        say('\nLoad average at the end: %.2f.' % hostrun.load())
    if not a.no_doc:
        hostrun.update_doc('lttd.py' if a.kernel == 'bench' else 'lttd.py --kernel stock', say.text())
    if not a.dir and not a.again:
        shutil.rmtree(scratch)
    return 0

if __name__ == '__main__':
    sys.exit(main())
