#!/usr/bin/env python3
"""CPU time per process from babeltrace2's dump of a CTF export, by a model
written apart from libltttrace's state engine, to check its numbers:

    ctf-cputime.py BABELTRACE2_OUTPUT [PROCESS_STATS]

BABELTRACE2_OUTPUT is babeltrace2 --clock-seconds of the export;
PROCESS_STATS, if given, is lttv-text -q --process-stats of the trace: each
task's total (with its idle loop, for an idle task) must then agree within a
microsecond per row (its figures are cut to microseconds); the exit status
says if they do.

Each CPU runs, from its first event, the task its first process.schedchange
switches out (the idle task if it never switches); a schedchange hands the
CPU to `in`; the last task of each CPU runs until the trace's last event.
Prints "pid total_ns" per task (the idle tasks as "0/CPU"), sorted.
"""
import re
import sys

LINE = re.compile(r'^\[(\d+)\.(\d{9})\] \S+ ([\w.]+): \{ cpu_id = (\d+) \}(?:, \{(.*)\})?$')


def events(path):
    with open(path) as f:
        for line in f:
            m = LINE.match(line.rstrip('\n'))
            if not m:
                continue
            t = int(m.group(1)) * 1000000000 + int(m.group(2))
            fields = {}
            for k, v in re.findall(r'(\w+) = (-?\w+)', m.group(5) or ''):
                fields[k] = v
            yield t, m.group(3), int(m.group(4)), fields


def main():
    evs = list(events(sys.argv[1]))
    first_out = {}
    for t, name, cpu, f in evs:
        if name == 'process.schedchange' and cpu not in first_out:
            first_out[cpu] = int(f['out'])
    cur, last, total = {}, {}, {}

    def key(pid, cpu):
        return '0/%d' % cpu if pid == 0 else str(pid)

    for t, name, cpu, f in evs:
        if cpu not in cur:
            cur[cpu] = key(first_out.get(cpu, 0), cpu)
        else:
            total[cur[cpu]] = total.get(cur[cpu], 0) + t - last[cpu]
        last[cpu] = t
        if name == 'process.schedchange':
            cur[cpu] = key(int(f['in']), cpu)
    end = max(t for t, _, _, _ in evs)
    for cpu in cur:
        total[cur[cpu]] = total.get(cur[cpu], 0) + end - last[cpu]
    total = {k: v for k, v in total.items() if v}
    if len(sys.argv) < 3:
        for k in sorted(total):
            print(k, total[k])
        return 0
    ours, rows = {}, {}
    with open(sys.argv[2]) as f:
        for line in f:
            w = line.split()
            if len(w) < 10 or not w[0].isdigit():
                continue
            k = '0/' + w[2].split('/')[1] if w[0] == '0' else w[0]
            # on a CPU: its work (total) and, for an idle task, its idle loop
            for col in (w[-1], w[-2]):
                sec, us = col.split('.')
                ours[k] = ours.get(k, 0) + int(sec) * 1000000 + int(us)
            rows[k] = rows.get(k, 0) + (2 if w[0] == '0' else 1)  # figures cut
    bad = 0
    for k in sorted(set(total) | set(ours)):
        theirs = total.get(k, 0) // 1000
        if abs(theirs - ours.get(k, 0)) > rows.get(k, 1):
            print('# task %s: babeltrace2 model %d us, lttv-text %d us'
                  % (k, theirs, ours.get(k, 0)))
            bad += 1
    print('# %d tasks compared, %d differ' % (len(total), bad))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
