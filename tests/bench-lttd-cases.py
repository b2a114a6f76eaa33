#!/usr/bin/env python3
"""The parsers of bench/lttd.py (the lttd against lttng-consumerd
benchmark) and of bench/tracer.py (bytes of a trace; the interleaved
user events of its table a2) on output of the kind each program prints,
whose answer is known (tests/t79-bench-lttd.sh):

    bench-lttd-cases.py [TRACES_DIR BUILD_DIR]

With TRACES_DIR (the repository's traces/) and BUILD_DIR (whose bin/lttv-text
reads it), also counts a bundled LTTng trace's events through lttv-text as
the benchmark does. Prints
'ok'/'not ok' lines; exit 1 when one fails.
"""
import importlib.util
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cases import check, end  # noqa: E402

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(TOP, 'bench'))
spec = importlib.util.spec_from_file_location('lttd_bench', os.path.join(TOP, 'bench', 'lttd.py'))
m = importlib.util.module_from_spec(spec)
spec.loader.exec_module(m)


# `lttng list b` of a stopped kernel session (lttng-tools 2.13), two
# channels: the discarded events are their sum
LISTING = """Recording session b: [inactive]
    Trace output: /tmp/lttng-b

=== Domain: Linux kernel ===

Channels:
-------------
- channel0: [disabled]

    Attributes:
      Event-loss mode:  discard
      Sub-buffer size:  1048576 bytes
      Sub-buffer count: 4
      Switch timer:     inactive
      Read timer:       200000 us
      Monitor timer:    1000000 us
      Output mode:      splice

    Statistics:
      Discarded events: 11535

    Recording event rules:
      lttng_logger (loglevel: TRACE_EMERG (0)) (type: tracepoint) [enabled]

- big: [enabled]

    Attributes:
      Event-loss mode:  discard
      Sub-buffer size:  4194304 bytes

    Statistics:
      Discarded events: 7
"""
check('lttng list: the channels\' discarded events added', m.lttng_discarded(LISTING), 11542)
check('lttng list: none discarded is 0, not missing',
      m.lttng_discarded(LISTING.replace('11535', '0').replace(': 7', ': 0')), 0)
check('lttng list without statistics (an error message): None',
      m.lttng_discarded('Error: Session name b not found\n'), None)
check('lttng list: a number in an event rule is not a discarded count',
      m.lttng_discarded('  Discarded events: 3 (of 10)\n'), None)
check('lttng list: the first channel\'s attributes',
      m.channel_attributes(LISTING),
      'event-loss mode discard, sub-buffer size 1048576 bytes, sub-buffer count 4, '
      'switch timer inactive, read timer 200000 us, output mode splice')
check('lttng list without channels: no attributes', m.channel_attributes('Error\n'), '')

# babeltrace2 -c sink.utils.counter: a block every so many messages while
# it reads, the totals last
COUNTER = """           9997 Event messages
              2 Stream beginning messages
              0 Discarded event messages
          10005 messages (TOTAL)

          50000 Event messages
              2 Stream beginning messages
              2 Stream end messages
              0 Discarded event messages
          50032 messages (TOTAL)
"""
check('babeltrace2 counter: the last block\'s events', m.counted_events(COUNTER), 50000)
check('babeltrace2 counter: one block', m.counted_events(COUNTER.split('\n\n')[0]), 9997)
check('babeltrace2 counter: no block is None', m.counted_events('error\n'), None)

if len(sys.argv) > 2:
    m.guest.BUILD = sys.argv[2]
    # lttv-text's per-type count and per-CPU losses of a CTF trace (the
    # figures of traces/lttng-kernel-sample.expected)
    sample = os.path.join(sys.argv[1], 'lttng-kernel-sample', 'kernel')
    check('lttv-text count of an LTTng trace\'s events of one type, and its losses',
          m.ours_arrived(sample, 'sched.sched_switch'), (852, 0))
    check('lttv-text count of a type the trace lacks', m.ours_arrived(sample, 'lttng.lttng_logger'),
          (0, 0))
    # tracer.trace_bytes (bench/tracer.py's table c, bench/field-bytes.py):
    # an LTTng session folder counts its kernel streams, whichever level
    # is given and whatever index it holds (a session folder once read
    # as one of ours: sys.exit on its first packet)
    import shutil
    import tempfile
    import tracer
    session = os.path.dirname(sample)
    want = sum(tracer.stream_bytes(os.path.join(sample, f), True) for f in ('kchan_0', 'kchan_1'))
    check('trace_bytes of an LTTng trace folder: its two streams', tracer.trace_bytes(sample), want)
    with tempfile.TemporaryDirectory() as tmp:
        copy = os.path.join(tmp, 'session')
        shutil.copytree(session, copy)
        os.mkdir(os.path.join(copy, 'kernel', 'index'))
        with open(os.path.join(copy, 'kernel', 'index', 'kchan_0.idx'), 'wb') as f:
            f.write(b'\0' * 4096)
        check('trace_bytes of an LTTng session folder with an index: the same',
              tracer.trace_bytes(copy), want)
    check('trace_bytes: the streams hold most of their files',
          0 < want <= sum(os.path.getsize(os.path.join(sample, f)) for f in ('kchan_0', 'kchan_1')),
          True)

# tracer.py's table (a2): ltt-bench-tool alternate's lines, the added cost
# per call against the same round's /dev/null batch, the ratio's interval
sys.path.insert(0, os.path.join(TOP, 'bench'))
import tempfile  # noqa: E402
import tracer  # noqa: E402
ALT = """targets 10 /dev/null /proc/ltt_user_generic /sys/kernel/tracing/trace_marker
round 0 90000 90000 90000
round 1 1000 1500 2000
round 2 1100 1600 2100
round 3 1000 1600 2200
failed 0 0 0
"""


def alt(text):
    with tempfile.NamedTemporaryFile('w', suffix='.alt', delete=False) as f:
        f.write(text)
    try:
        return tracer.read_alternate(f.name)
    except ValueError as e:
        return 'ValueError' if 'cut short' not in str(e) else 'cut short'
    finally:
        os.unlink(f.name)


batch, targets, rounds, failed = alt(ALT)
check('alternate: batch and targets', (batch, targets[1]), (10, '/proc/ltt_user_generic'))
check('alternate: round 0 (warm-up) dropped', len(rounds), 3)
check('alternate: added ns per call against the same round\'s /dev/null',
      tracer.alternate_costs(batch, rounds, '/dev/null', '/proc/ltt_user_generic'),
      [50.0, 50.0, 60.0])
ours = tracer.alternate_costs(batch, rounds, '/dev/null', '/proc/ltt_user_generic')
marker = tracer.alternate_costs(batch, rounds, '/dev/null', targets[2])
r, lo, hi = tracer.ratio_interval(ours, marker)
check('alternate: ratio of the medians, inside its interval', (r, lo <= r <= hi), (0.5, True))
check('alternate: an exact ratio has an interval of width 0',
      tracer.ratio_interval([1.0, 2.0, 3.0], [2.0, 4.0, 6.0])[1:], (0.5, 0.5))
check('alternate: a run cut short (no failed line) is refused',
      alt(ALT.rsplit('failed', 1)[0]), 'cut short')
check('alternate: a missing round is refused', alt(ALT.replace('round 2 ', 'round 7 ')), 'ValueError')
check('alternate: a short round line is refused', alt(ALT.replace(' 2100', '')), 'ValueError')
check('alternate: the failed counts', alt(ALT.replace('failed 0 0 0', 'failed 0 3 0'))[3],
      {'/dev/null': 0, '/proc/ltt_user_generic': 3, '/sys/kernel/tracing/trace_marker': 0})
# table (b2): the kernel loads' interleaved batches
ALTK = ''.join('%d %s %s %d\n' % (r, w, load, base + extra)
               for r in range(3) for w, extra in (('none', 0), ('ours', 20), ('ftrace', 50))
               for load, base in (('getpid', 100), ('pipe', 1000)))


def altk(text):
    with tempfile.NamedTemporaryFile('w', suffix='.altk', delete=False) as f:
        f.write(text)
    try:
        return tracer.read_alternate_kernel(f.name)
    except ValueError:
        return 'ValueError'
    finally:
        os.unlink(f.name)


t, n = altk(ALTK)
check('alternate-kernel: rounds, round 0 dropped', (n, sorted(t[('ours', 'pipe')])), (2, [1, 2]))
check('alternate-kernel: a batch\'s ns per op', t[('ftrace', 'getpid')][2], 150.0)
check('alternate-kernel: a round without one of its batches is refused',
      altk(ALTK.replace('2 ours pipe 1020\n', '')), 'ValueError')
check('alternate-kernel: an unknown tracer is refused',
      altk(ALTK.replace('1 ours pipe', '1 lttng pipe')), 'ValueError')
with tempfile.TemporaryDirectory() as tmp:
    with open(os.path.join(tmp, 'alternate-kernel'), 'w') as f:
        f.write(ALTK)
    lines = []
    tracer.alternate_kernel_table(lines.append, tmp, {('ours', 'getpid'): 2, ('ftrace', 'getpid'): 2,
                                                      ('ours', 'pipe'): 16, ('ftrace', 'pipe'): 12})
    rows = {ln.split(' | ')[0]: ln for ln in lines if ln.startswith('| getpid') or ln.startswith('| pipe')}
    check('alternate-kernel: getpid, 2 events per op each: 10 and 25 ns per event, 0.40',
          rows['| getpid'], '| getpid | 100 | 10 | 25 | 0.40 (0.40-0.40) | 0.40 |')
    check('alternate-kernel: pipe, 16 and 12 events per op: per event 0.30, per op 0.40',
          rows['| pipe'], '| pipe | 1000 | 1 | 4 | 0.30 (0.30-0.30) | 0.40 |')
end()
