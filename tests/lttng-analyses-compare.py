#!/usr/bin/env python3
"""Per-process CPU time and system-call latency of an LTTng kernel trace,
by lttv-text against lttng-analyses (python3-lttnganalyses, Debian: a
model written by LTTng's authors, apart from ours), on the same trace:

    lttng-analyses-compare.py LTTV_TEXT TRACE_DIR

- CPU time per thread: lttng-cputop-mi's share of the time range (first
  to last event) of each thread it lists, times that range, against the
  total column of lttv-text -q --process-stats: equal within 2 us (ours
  is printed to the microsecond, theirs is a float ratio), but for the
  task that runs on a CPU when its first event comes: lttng-cputop
  credits it from the trace's first event (on any CPU), lttv-text from
  its CPU's first; so the gap between the two, as babeltrace2 shows the
  task (its tid context) and the times, is allowed on top;
- system calls by name: the count, minimum, maximum and total duration
  of lttng-syscallstats-mi's per-thread tables summed over the threads,
  against lttv-text -q --syscalls: counts equal, durations within 1 ns
  per call (ours is printed to the nanosecond);
- scheduling latency (wakeup to switch-in) per thread: the count,
  minimum, maximum and total of lttng-schedstats-mi's per-thread table
  against lttv-text -q --schedlat, the same way;
- IRQ handlers by name: lttng-irqstats-mi's hard IRQ table against the
  lines of lttv-text -q --irqs, the same way (softirqs: lttng-irqstats
  0.6.1 gives no table for them on this trace).

Prints one line per difference and a summary; exit 1 when any differs,
2 when a tool fails.
"""
import json
import re
import subprocess
import sys


def run(cmd):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if p.returncode != 0:
        sys.stderr.write('%s failed (%d): %s\n' % (cmd[0], p.returncode, p.stderr[-500:]))
        sys.exit(2)
    return p.stdout


def theirs(tool, trace):
    # the tools are Python scripts of Debian's python3 (their bt2 module)
    out = run(['/usr/bin/python3', '/usr/bin/' + tool, '--skip-validation',
               '--limit', '100000', trace] if tool == 'lttng-cputop-mi' else
              ['/usr/bin/python3', '/usr/bin/' + tool, '--skip-validation', trace])
    return json.loads(out)['results']


def table_rows(out, title, key):
    """count, min, max and total (ns) of each row of lttv-text's table whose
    title holds `title`, by key(the row's name column)."""
    row = re.compile(r'^(.+?)\s+(\d+)\s+([\d.]+)\s+[\d.]+\s+[\d.]+\s+[\d.]+\s+[\d.]+'
                     r'\s+([\d.]+)\s+([\d.]+)$')
    got, section = {}, False
    for line in out.splitlines():
        if line.startswith('== '):
            section = title in line
        m = row.match(line) if section else None
        if m:
            got[key(m.group(1))] = [int(m.group(2))] + \
                [round(float(m.group(i)) * 1000) for i in (3, 4, 5)]
    return got


def compare(what, want, got):
    """count, min, max, total per key: counts equal, times within 1 ns per
    occurrence (ours are printed to the nanosecond); the differences."""
    bad = 0
    for key in sorted(set(want) | set(got)):
        w, g = want.get(key), got.get(key)
        if not w or not g:
            print('%s %s: only in %s' % (what, key, 'lttv-text' if g else 'lttng-analyses'))
            bad += 1
        elif w[0] != g[0] or abs(w[1] - g[1]) > 1 or abs(w[2] - g[2]) > 1 or \
                abs(w[3] - g[3]) > w[0]:
            print('%s %s: lttng-analyses count %d min %d max %d total %.0f ns; '
                  'lttv-text %d %d %d %d' % (what, key, w[0], w[1], w[2], w[3], *g))
            bad += 1
    return bad


def main():
    if len(sys.argv) != 3:
        sys.stderr.write(__doc__)
        return 2
    text, trace = sys.argv[1:]
    bad = 0

    # CPU time per thread
    ours = {}
    for line in run([text, '-t', trace, '-q', '--process-stats']).splitlines():
        f = line.split()  # pid tgid name (maybe with spaces) 7 times
        if len(f) >= 10 and f[0].isdigit():
            ours[int(f[0])] = round(float(f[-1]) * 1e9)
    gap = {}
    first = {}
    ev = re.compile(r'^\[(\d+)\.(\d{9})\] .*?\{ cpu_id = (\d+) \}, \{[^}]*\btid = (\d+)')
    for line in run(['babeltrace2', '--clock-seconds', trace]).splitlines():
        m = ev.match(line)
        if m and m.group(3) not in first:
            first[m.group(3)] = (int(m.group(1)) * 10**9 + int(m.group(2)), int(m.group(4)))
    if first:
        begin = min(t for t, _ in first.values())
        for t, tid in first.values():
            gap[tid] = gap.get(tid, 0) + t - begin
    cpu = theirs('lttng-cputop-mi', trace)[0]
    span = cpu['time-range']['end']['value'] - cpu['time-range']['begin']['value']
    n = 0
    for row in cpu['data']:
        tid = row[0]['tid']
        ns = row[3]['value'] * span
        if tid == 0:
            continue	# idle: lttng-cputop counts only its interrupts' time
        n += 1
        if tid not in ours:
            print('cpu time: thread %d (%s): lttng-cputop %.0f ns, lttv-text has no row'
                  % (tid, row[0]['name'], ns))
            bad += 1
        elif abs(ours[tid] + gap.get(tid, 0) - ns) > 2000:
            print('cpu time: thread %d (%s): lttng-cputop %.0f ns, lttv-text %d ns'
                  % (tid, row[0]['name'], ns, ours[tid]))
            bad += 1
    print('cpu time: %d threads compared' % n)

    # system calls by name, over all threads
    want = {}
    for table in theirs('lttng-syscallstats-mi', trace):
        if table['class'] == 'total':
            continue	# the count per thread, of the tables before it
        for row in table['data']:
            name, count = row[0]['name'], row[1]['value']
            lo, avg, hi = row[2]['value'], row[3]['value'], row[4]['value']
            w = want.setdefault(name, [0, None, None, 0.0])
            w[0] += count
            w[1] = lo if w[1] is None else min(w[1], lo)
            w[2] = hi if w[2] is None else max(w[2], hi)
            w[3] += avg * count
    got = table_rows(run([text, '-t', trace, '-q', '--syscalls']), 'system call latency', str)
    bad += compare('syscall', want, got)
    print('system calls: %d names compared' % len(set(want) | set(got)))

    # scheduling latency per thread
    want = {}
    for table in theirs('lttng-schedstats-mi', trace):
        if table['class'] != 'per_tid_stats':
            continue
        for row in table['data']:
            count, avg = row[1]['value'], row[3]['value']
            want[row[0]['tid']] = [count, row[2]['value'], row[4]['value'], avg * count]
    got = table_rows(run([text, '-t', trace, '-q', '--schedlat']), 'scheduling latency',
                     lambda k: int(k.split()[0]))
    bad += compare('sched latency of thread', want, got)
    print('sched latency: %d threads compared' % len(set(want) | set(got)))

    # IRQ handlers by name
    want = {}
    for table in theirs('lttng-irqstats-mi', trace):
        if table['class'] != 'hard-stats':
            continue
        for row in table['data']:
            count, avg = row[1]['value'], row[3]['value']
            want[row[0]['name']] = [count, row[2]['value'], row[4]['value'], avg * count]
    got = table_rows(run([text, '-t', trace, '-q', '--irqs']), 'IRQ handler time', str)
    bad += compare('IRQ', want, got)
    print('IRQs: %d lines compared' % len(set(want) | set(got)))
    print('%d differences' % bad)
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
