#!/usr/bin/env python3
"""Bytes per event on a real workload: our trace and LTTng 2.13's of the
same field boot (issue 28, item 5).

bench/tracer.py's table (c) gives the bytes per event of a getpid() or a
pipe loop, where LTTng's per-system-call events of getpid() carry no field
at all.  This gives them for the workload of qemu/field-boot.sh, which
both tracers recorded at once in one boot of Debian's kernel:

    FIELD_LTTNG=1 [FIELD_SCALE=0] qemu/field-boot.sh OUT   (or make field)
    bench/field-bytes.py OUT [--no-doc]

Ours: what lttd wrote (every CPU and channel: the state dump, the
facilities, page faults and file events that LTTng's session does not
enable), LTTng's: its kernel streams (no metadata, no index), both
without the unused ends of sub-buffers (tracer.stream_bytes).  Events
are counted by lttv-text, which reads both (guest.count_events).  The
table is printed and written into docs/performance.md between the
"field-bytes.py" markers, with the date of the boot (the bytes do not
depend on the host's load).
"""
import argparse
import datetime
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import guest  # noqa: E402
import hostrun  # noqa: E402
import tracer  # noqa: E402


def window(out):
    """{session: (start, stop)} in guest seconds, from the boot's stamps."""
    t = {}
    with open(os.path.join(out, 'stamps')) as f:
        for line in f:
            w = line.split()
            if len(w) == 2:
                t[w[0]] = float(w[1])
    return {s: (t[s + '_start'], t[s + '_stop']) for s in ('ours', 'lttng')
            if s + '_start' in t and s + '_stop' in t}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('out', help='a field boot made with FIELD_LTTNG=1')
    ap.add_argument('--no-doc', action='store_true', help='do not write docs/performance.md')
    a = ap.parse_args()
    traces = (('ours', 'ours', os.path.join(a.out, 'field')),
              ('lttng', 'LTTng 2.13', os.path.join(a.out, 'lttng')))
    for _, name, trace in traces:
        if not os.path.isdir(trace):
            sys.exit('field-bytes: no %s trace in %s (a field boot with FIELD_LTTNG=1)'
                     % (name, trace))
    spans = window(a.out)
    when = datetime.datetime.fromtimestamp(os.path.getmtime(os.path.join(a.out, 'stamps')),
                                           datetime.timezone.utc)
    say = hostrun.Report()
    say('#### Bytes per event on the field workload\n')
    say('One field boot of Debian\'s kernel (%s), both tracers on the same workload at once, '
        'recorded %s UTC.\n' % (guest.stock_kver(), when.strftime('%Y-%m-%d %H:%M')))
    say('| tracer | session, s | events | lost | bytes | bytes/event |')
    say('|---|---:|---:|---:|---:|---:|')
    per = {}
    for key, name, trace in traces:
        _, _, events, lost = guest.count_events(trace)
        if not events:
            sys.exit('field-bytes: %s trace %s holds no event' % (name, trace))
        n = tracer.trace_bytes(trace)
        per[key] = n / events
        start, stop = spans.get(key, (0.0, 0.0))
        say('| %s | %.2f | %d | %d | %d | %.2f |' % (name, stop - start, events, lost, n, per[key]))
    say('\nours / LTTng, bytes per event: %.2f. Ours counts every channel (the state dump, '
        'facilities, page faults and file events, which LTTng\'s session here does not enable); '
        'LTTng\'s, its kernel streams without metadata and index.' % (per['ours'] / per['lttng']))
    if not a.no_doc:
        hostrun.update_doc('field-bytes.py', say.text())
    return 0


if __name__ == '__main__':
    sys.exit(main())
