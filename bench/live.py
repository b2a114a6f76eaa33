#!/usr/bin/env python3
"""Live latency benchmark: from an event written by the tracer to its pixel
in lttv-gtk --follow (issue 30, item 1: under 2 s at 100 k events/s).

    bench/live.py [--rate 100000] [--seconds 30] [--runs 3] [--dir D] [--no-doc]

The trace: ltt-tracegen --scenario busy at --rate events a second, stamped
with the host's clock (--wall-start: an event's time is the moment of the
host's CLOCK_REALTIME it stands for), 64-bit timestamps (no heartbeats),
the sub-buffers of lttctl's default sizes (cpu 1 MiB, control/processes
256 KiB, the other control channels 64 KiB: --lttd-sizes).

The writer does what lttd does: it appends each sub-buffer to its file
when the tracer would hand it over, i.e. when the host's clock passes the
time the sub-buffer ends (it is full then; the last, partial ones at the
end of the run, as at the stop). One exception, said in the table: the
facility table (control/facilities_N, a few hundred bytes) is written at
the start, as the kernel's switch of that channel after the state dump
(docs/viewer.md, "Live") would; without it no event decodes before the
stop, and there is no pixel to time.

The window: lttv-gtk -t T --follow under Xvfb, started before the trace
exists, with a self-test that waits for the trace to stop growing and to
be drawn to its end, then prints every draw of the control flow
("drawn covered_ns=T wall_ns=W opened_ns=O": up to what time it showed
the trace, when, and when its files were read).
Markers: one time a second of the run, from its second second; a
marker's latency runs from that time to the first draw that showed the
trace up to it as read after everything up to it was written (every
channel's sub-buffer that holds it), both on the host's clock. Beside it,
the part that is the tracer's and lttd's (what is at the marker waits in
its sub-buffers until they fill) and the rest, the viewer's (its 250 ms
poll, opening the trace again, indexing what is new, drawing); and the
latency by the markers' place in the run (it grew with the trace while
each opening indexed the whole trace again). The table is written
into docs/performance.md between the "live.py" markers with the date and
the load. Run it under nice on a shared host, and say so.
"""
import argparse
import os
import shutil
import statistics
import struct
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hostrun  # noqa: E402
import viewer  # noqa: E402  (its Xvfb helpers)

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.path.join(TOP, 'build', 'bin')
GTK = os.path.join(BIN, 'lttv-gtk')
LEAD = 4.0          # seconds from the command to the trace's start: the
                    # generator writes it meanwhile, the window opens


def subbuffers(trace):
    """Every sub-buffer of a finished trace: (end ns, file, offset, bytes),
    the end from its block header (end.cycle_count) and the trace header's
    clock (docs/format.md)."""
    files = sorted(f for f in os.listdir(trace) if f.startswith('cpu_'))
    files += sorted(os.path.join('control', f) for f in os.listdir(os.path.join(trace, 'control')))
    out = []
    for f in files:
        data = open(os.path.join(trace, f), 'rb').read()
        if not data:
            continue
        size = struct.unpack_from('<I', data, 36)[0]
        for off in range(0, len(data), size):
            scale = struct.unpack_from('<I', data, off + 62)[0]
            freq, tsc0, sec, usec = struct.unpack_from('<QQ8xQQ', data, off + 66)
            end = struct.unpack_from('<Q', data, off + 16)[0]
            ns = sec * 10**9 + usec * 1000 + (end - tsc0) * 10**9 // (freq * scale)
            out.append((ns, f, off, data[off:off + size]))
    out.sort(key=lambda s: (s[0], s[1], s[2]))
    return out


def write_live(src, dst, subs, delivered):
    """Appends the sub-buffers to dst as the host's clock passes their ends
    (the facility table at once); delivered[(file, offset)] = wall ns."""
    shutil.copytree(os.path.join(src, 'eventdefs'), os.path.join(dst, 'eventdefs'))
    os.mkdir(os.path.join(dst, 'control'))
    for end, f, off, chunk in subs:
        if 'facilities' not in f:
            wait = end / 1e9 - time.time()
            if wait > 0:
                time.sleep(wait)
        with open(os.path.join(dst, f), 'ab') as out:
            out.write(chunk)
        delivered[(f, off)] = time.time_ns()


def one_run(scratch, rate, seconds, display, k):
    src, dst = os.path.join(scratch, 'src-%d' % k), os.path.join(scratch, 'live-%d' % k)
    for d in (src, dst):
        shutil.rmtree(d, ignore_errors=True)
    start = time.time() + LEAD
    subprocess.run([os.path.join(BIN, 'ltt-tracegen'), '--scenario', 'busy', '--events',
                    str(rate * seconds), '--rate', str(rate), '--heartbeat', '0',
                    '--lttd-sizes', '--wall-start', '%.6f' % start, '-o', src],
                   check=True, stdout=subprocess.DEVNULL)
    subs = subbuffers(src)
    env = dict(os.environ, DISPLAY=display, NO_AT_BRIDGE='1', GSETTINGS_BACKEND='memory')
    script = ('live-mark; wait-live-grown; live-mark; wait-live-settled; wait-drawn end; '
              'expect-drawn end; print-drawn; quit')
    gui = subprocess.Popen([GTK, '-t', dst, '--follow', '--self-test', script],
                           stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env, text=True)
    delivered = {}      # the window waits for dst (t68): the writer makes it
    w = threading.Thread(target=write_live, args=(src, dst, subs, delivered))
    w.start()
    out, _ = gui.communicate(timeout=seconds + 300)
    w.join()
    drawn = []
    for line in out.splitlines():
        if line.startswith('drawn '):
            kv = dict(x.split('=', 1) for x in line.split()[1:])
            drawn.append((int(kv['covered_ns']), int(kv['wall_ns']), int(kv['opened_ns'])))
    if not drawn or 'not ok' in out:
        sys.exit('lttv-gtk did not draw the trace to its end:\n' + out)
    lat, lttd, view = [], [], []
    channels = sorted({s[1] for s in subs if 'facilities' not in s[1]})
    end = max(s[0] for s in subs)
    m = (start + 1) * 1e9
    while m < end - 1e9:
        # everything up to m handed over: the first sub-buffer of each
        # channel that ends at or after m, written
        need = max(delivered[(f, next(off for e, g, off, _ in subs if g == f and e >= m))]
                   for f in channels)
        # and drawn: from the trace as opened after that, up to m
        shown = next((wall for cov, wall, opened in drawn if opened >= need and cov >= m), None)
        if shown is None:
            sys.exit('marker %.3f s never drawn' % (m / 1e9 - start))
        lat.append(((shown - m) / 1e9, m / 1e9 - start))
        lttd.append((need - m) / 1e9)
        view.append((shown - need) / 1e9)
        m += 1e9
    events = rate * seconds
    return lat, lttd, view, events, sum(len(s[3]) for s in subs)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--rate', type=int, default=100000, help='events a second')
    ap.add_argument('--seconds', type=int, default=30, help='length of a run (at most 50)')
    ap.add_argument('--runs', type=int, default=3)
    ap.add_argument('--dir', default=None, help='scratch folder (default: a temporary one)')
    ap.add_argument('--no-doc', action='store_true', help='do not write docs/performance.md')
    a = ap.parse_args()
    if not os.access(GTK, os.X_OK):
        sys.exit('%s is not built (make)' % GTK)
    if not 3 <= a.seconds <= 50:
        sys.exit('--seconds: 3 to 50 (the self-test waits 60 s for the trace to settle)')
    scratch = a.dir or tempfile.mkdtemp(prefix='ltt-live-')
    os.makedirs(scratch, exist_ok=True)
    out = hostrun.Report()
    out('Run of %s; machine: %s, %d CPUs, load average %.1f at the start; %d runs of %d s '
        'at %d events/s.\n' % (hostrun.now_utc(), os.uname().machine, os.cpu_count(),
                              hostrun.load(), a.runs, a.seconds, a.rate))
    xvfb, why = viewer.start_xvfb()
    if not xvfb:
        sys.exit(why)
    lat, lttd, view = [], [], []
    try:
        for k in range(a.runs):
            r = one_run(scratch, a.rate, a.seconds, xvfb[1], k)
            lat += r[0]
            lttd += r[1]
            view += r[2]
            print('run %d: %d markers, latency median %.2f s, max %.2f s; trace %.0f MiB'
                  % (k + 1, len(r[0]), statistics.median(x for x, _ in r[0]),
                     max(x for x, _ in r[0]), r[4] / 2**20))
    finally:
        viewer.stop_xvfb(xvfb[0])
        if not a.dir:
            shutil.rmtree(scratch, ignore_errors=True)

    def q(xs, p):
        return sorted(xs)[min(len(xs) - 1, int(p * len(xs)))]
    aged = lat
    lat = [x for x, _ in aged]
    out('| from a marker event to | median | p90 | max |')
    out('|---|---:|---:|---:|')
    for name, xs in (('its pixel on screen (the whole latency)', lat),
                     ('its sub-buffers handed over (tracer and lttd: they fill)', lttd),
                     ('then its pixel (the viewer: poll, reopen, index, draw)', view)):
        out('| %s | %.2f s | %.2f s | %.2f s |' % (name, statistics.median(xs), q(xs, 0.9),
                                                   max(xs)))
    # does the latency grow with what the trace holds? (it did while each
    # opening indexed the whole trace again)
    out('\n| markers at (seconds into the run) | events before them | latency: median | max |')
    out('|---|---:|---:|---:|')
    third = a.seconds / 3
    for i in range(3):
        xs = [x for x, age in aged if i * third <= age < (i + 1) * third]
        if xs:
            out('| %.0f to %.0f s | up to %.1f M | %.2f s | %.2f s |'
                % (i * third, (i + 1) * third, (i + 1) * third * a.rate / 1e6,
                   statistics.median(xs), max(xs)))
    out('\n%d markers (one a second of each run from its second second); the facility '
        'table written at the start (see above). Load average at the end: %.1f.'
        % (len(lat), hostrun.load()))
    if not a.no_doc:
        hostrun.update_doc('live.py', out.text())


if __name__ == '__main__':
    main()
