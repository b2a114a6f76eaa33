#!/usr/bin/env python3
"""Check lttv-text's analyses against a second computation that shares no
code with libltttrace: the events of our CTF export read by babeltrace2
(python3-bt2), and each analysis done again here, from its definition in
ltttrace-analysis.h.

    analysis-crosscheck.py CTF_DIR ANALYSES_OUT SYSCALL_NAMES

ANALYSES_OUT: `lttv-text -t TRACE -q -A --worst 0`.
SYSCALL_NAMES: `lttv-text -t TRACE -n -e kernel_arch.syscall_entry` (only the
names of the numbers are taken from it: "syscall_id = 257 [openat]").

What is compared, exactly, in nanoseconds: system-call latency per name,
scheduling latency per process, IRQ time per line, softirq time per vector,
file I/O per file (count, bytes), CPU time per process and busy time per
CPU over the whole trace (count, min, mean, p50, p90, p99, max, total).
Prints the differences and exits 1 if there are any.
"""
import re
import sys

import bt2

RUN, WAIT_CPU, WAIT, OTHER = 'run', 'wait_cpu', 'wait', 'other'


def ns_of(text):
    """'12.345' microseconds -> 12345 ns, exactly."""
    whole, frac = text.split('.')
    return int(whole) * 1000 + int(frac)


def stats(durations):
    d = sorted(durations)
    n = len(d)

    def rank(p):
        r = (n * p + 99) // 100
        return d[max(r, 1) - 1]
    return {'count': n, 'min': d[0], 'mean': sum(d) // n, 'p50': rank(50),
            'p90': rank(90), 'p99': rank(99), 'max': d[-1], 'total': sum(d)}


def read_tables(path):
    """Sections of lttv-text's analyses: title -> {label: columns}."""
    tables, title, cols = {}, None, None
    for line in open(path):
        line = line.rstrip('\n')
        m = re.match(r'^== (.*) ==$', line)
        if m:
            title = m.group(1)
            if title.startswith('CPU usage'):
                title = 'CPU usage'
            tables[title] = {}
            cols = None
            continue
        if title is None or not line or line.startswith('--') or line.startswith('('):
            if line.startswith('--'):
                title = None
            continue
        words = line.split()
        if cols is None or words[0] in ('process', 'cpu') and words[-1] == '%':
            cols = words
            continue
        tables[title].setdefault('rows', []).append(words)
    return tables


def latency_rows(tables, title, extra=0):
    out = {}
    for w in tables.get(title, {}).get('rows', []):
        nums = w[len(w) - 8 - extra:]
        label = ' '.join(w[:len(w) - 8 - extra])
        keys = ['count', 'min', 'mean', 'p50', 'p90', 'p99', 'max', 'total']
        row = {k: int(nums[0]) if k == 'count' else ns_of(nums[i])
               for i, k in enumerate(keys)}
        if extra:
            row['reads'], row['bytes_read'], row['writes'], row['bytes_written'] = \
                map(int, nums[8:12])
        out[label] = row
    return out


class Machine:
    """Which task runs on each CPU, its status, open calls and handlers."""

    def __init__(self, first_out):
        self.first_out = first_out       # cpu -> pid its first switch puts out
        self.cur = {}                    # cpu -> pid (absent: not started)
        self.since = {}                  # cpu -> when cur began to count
        self.depth = {}                  # cpu -> kernel nesting of the idle task
        self.status = {}                 # pid -> RUN, WAIT_CPU, WAIT, OTHER
        self.name = {0: 'swapper'}
        self.tgid = {}
        self.cpu_ns = {}                 # pid -> ns on a CPU
        self.busy_ns = {}                # cpu -> ns busy
        self.busy_since = {}
        self.sys = {}                    # pid -> (start, id)
        self.wake = {}                   # pid -> wakeup time
        self.irq = {}                    # cpu -> [(start, line)]
        self.sirq = {}                   # cpu -> (start, vector)
        self.fs = {}                     # pid -> (op, fd) in the open call
        self.fds = {}                    # tgid -> {fd: path}
        self.lat = {'syscall': {}, 'sched': {}, 'irq': {}, 'softirq': {}}
        self.files = {}                  # path -> [reads, bytes_read, writes, bytes_written, durations]

    def label(self, pid):
        return '%d %s' % (pid, self.name.get(pid, '-'))

    def busy(self, cpu):
        return self.cur.get(cpu, 0) != 0 or self.depth.get(cpu, 0) > 0

    def account(self, cpu, t):
        if cpu in self.cur:
            pid = self.cur[cpu]
            self.cpu_ns[pid] = self.cpu_ns.get(pid, 0) + t - self.since[cpu]
            self.since[cpu] = t
            if self.busy(cpu):
                self.busy_ns[cpu] = self.busy_ns.get(cpu, 0) + t - self.busy_since[cpu]
            self.busy_since[cpu] = t

    def start(self, cpu, t):
        """A CPU's first event that the model follows: its first task."""
        if cpu not in self.cur:
            pid = self.first_out.get(cpu, 0)
            self.cur[cpu] = pid
            self.since[cpu] = self.busy_since[cpu] = t
            self.status[pid] = RUN
        self.account(cpu, t)
        return self.cur[cpu]

    def add(self, kind, key, d):
        self.lat[kind].setdefault(key, []).append(d)


def main():
    ctf, analyses, names_path = sys.argv[1:4]
    names = {}
    for line in open(names_path):
        m = re.search(r'syscall_id = (\d+) \[([^\]]+)\]', line)
        if m:
            names[int(m.group(1))] = m.group(2)
    irq_names, events = {}, []
    for msg in bt2.TraceCollectionMessageIterator(ctf):
        if type(msg) is not bt2._EventMessageConst:
            continue
        ev = msg.event
        events.append((msg.default_clock_snapshot.ns_from_origin,
                       int(ev.packet.context_field['cpu_id']), ev.name, ev.payload_field))
    first_out = {}
    for t, cpu, name, f in events:
        if name == 'process.schedchange' and cpu not in first_out:
            first_out[cpu] = int(f['out'])
        if name == 'statedump.interrupt':
            irq_names[int(f['irq_id'])] = str(f['action'])
    m = Machine(first_out)
    first, last = events[0][0], events[-1][0]
    follows = ('kernel_arch.syscall_entry', 'kernel_arch.syscall_exit', 'kernel.trap_entry',
               'kernel.trap_exit', 'kernel.irq_entry', 'kernel.irq_exit',
               'kernel.soft_irq_entry', 'kernel.soft_irq_exit', 'fs.exec',
               'process.kernel_thread')
    for t, cpu, name, f in events:
        first = min(first, t)
        last = max(last, t)
        if cpu not in m.cur:
            m.start(cpu, t)     # a CPU's first event, of any kind, starts its task
        if name == 'statedump.enumerate_process_state':
            pid = int(f['pid'])
            m.name[pid] = str(f['name'])
            m.tgid[pid] = int(f['tgid']) or pid
            st = int(f['status'])
            # process_status: UNNAMED 0, WAIT_FORK 1, WAIT_CPU 2, ..., WAIT 5, RUN 6
            m.status[pid] = {0: WAIT, 1: WAIT, 2: WAIT_CPU, 5: WAIT, 6: RUN}.get(st, OTHER)
            continue
        if name in follows:
            pid = m.start(cpu, t)
            entry = name.endswith('_entry')
            if m.cur[cpu] == 0:
                # the idle task: kernel work makes the CPU busy
                m.depth[cpu] = m.depth.get(cpu, 0) + 1 if entry else max(0, m.depth.get(cpu, 0) - 1)
            if name == 'kernel_arch.syscall_entry':
                m.sys[pid] = (t, int(f['syscall_id']))
                m.fs.pop(pid, None)
            elif name == 'kernel_arch.syscall_exit':
                if pid in m.sys:
                    s, nr = m.sys.pop(pid)
                    m.add('syscall', names.get(nr, 'syscall_%d' % nr), t - s)
                    if pid in m.fs:
                        op, fd = m.fs.pop(pid)
                        tg = m.tgid.get(pid, pid)
                        path = m.fds.get(tg, {}).get(fd, 'fd %d of tgid %d' % (fd, tg))
                        ret = int(f['ret'])
                        r = m.files.setdefault(path, [0, 0, 0, 0, []])
                        r[2 * op] += 1
                        r[2 * op + 1] += max(ret, 0)
                        r[4].append(t - s)
            elif name == 'kernel.irq_entry':
                m.irq.setdefault(cpu, []).append((t, int(f['irq_id'])))
            elif name == 'kernel.irq_exit':
                if m.irq.get(cpu):
                    s, line = m.irq[cpu].pop()
                    m.add('irq', irq_names.get(line, 'irq_%d' % line), t - s)
            elif name in ('kernel.soft_irq_entry', 'kernel.soft_irq_exit'):
                v = f['softirq_id']
                vec = v.labels[0] if v.labels else 'softirq_%d' % int(v)
                if entry:
                    m.sirq[cpu] = (t, vec)
                elif cpu in m.sirq and m.sirq[cpu][1] == vec:
                    s, _ = m.sirq.pop(cpu)
                    m.add('softirq', vec, t - s)
            elif name == 'fs.exec':
                m.name[pid] = str(f['filename']).rsplit('/', 1)[-1] or str(f['filename'])
            continue
        if name == 'process.schedchange':
            m.account(cpu, t)
            out, inn, st = int(f['out']), int(f['in']), int(f['out_state'])
            if m.status.get(out) == 'exit' or st in (16, 32):
                m.status[out] = OTHER
            else:
                m.status[out] = WAIT_CPU if st == 0 else WAIT
            m.cur[cpu] = inn
            m.depth[cpu] = 0 if inn == 0 else m.depth.get(cpu, 0)
            m.status[inn] = RUN
            if inn in m.wake:
                m.add('sched', inn, t - m.wake.pop(inn))
        elif name == 'process.wakeup':
            pid = int(f['pid'])
            if m.status.get(pid, WAIT) == WAIT:
                m.status[pid] = WAIT_CPU
                m.wake[pid] = t
        elif name == 'process.fork':
            child, tg, parent = int(f['child_pid']), int(f['child_tgid']), int(f['parent_pid'])
            m.name[child] = m.name.get(parent, '-')
            m.tgid[child] = tg or child
            m.status[child] = WAIT
            ptg = m.tgid.get(parent, parent)
            if m.tgid[child] != ptg and ptg in m.fds:
                m.fds[m.tgid[child]] = dict(m.fds[ptg])
        elif name == 'process.exit':
            pid = int(f['pid'])
            m.sys.pop(pid, None)
            m.status[pid] = 'exit'
        elif name == 'fs.open' or name == 'fs.close':
            pid = m.cur.get(cpu)
            if pid is None:
                continue
            tg = m.tgid.get(pid, pid)
            if name == 'fs.open':
                m.fds.setdefault(tg, {})[int(f['fd'])] = str(f['filename']) or '(unnamed)'
            else:
                m.fds.get(tg, {}).pop(int(f['fd']), None)
        elif name in ('fs.read', 'fs.write'):
            pid = m.cur.get(cpu)
            if pid is not None and pid in m.sys:
                m.fs[pid] = (1 if name == 'fs.write' else 0, int(f['fd']))
    for cpu in list(m.cur):
        m.account(cpu, last)

    tables = read_tables(analyses)
    bad = []

    def compare(what, title, mine):
        theirs = latency_rows(tables, title)
        for key in sorted(set(mine) | set(theirs)):
            if key not in mine or key not in theirs:
                bad.append('%s %s: only in %s' % (what, key, 'lttv-text' if key in theirs else 'bt2'))
                continue
            want = stats(mine[key])
            got = theirs[key]
            for k, v in want.items():
                if got[k] != v:
                    bad.append('%s %s %s: lttv-text %d, bt2 %d' % (what, key, k, got[k], v))
        return len(theirs)

    n = compare('syscall', 'system call latency by name (us)', m.lat['syscall'])
    # processes by their name at the end, as the state model names them
    sched = {m.label(pid): d for pid, d in m.lat['sched'].items()}
    n += compare('sched', 'scheduling latency (wakeup to switch-in) by process (us)', sched)
    n += compare('irq', 'IRQ handler time by line (us)', m.lat['irq'])
    n += compare('softirq', 'softirq handler time by vector (us)', m.lat['softirq'])
    files = latency_rows(tables, 'file I/O by file (us)', extra=4)
    for path in sorted(set(files) | set(m.files)):
        if path not in files or path not in m.files:
            bad.append('file %s: only in %s' % (path, 'lttv-text' if path in files else 'bt2'))
            continue
        r = m.files[path]
        want = dict(stats(r[4]), reads=r[0], bytes_read=r[1], writes=r[2], bytes_written=r[3])
        for k, v in want.items():
            if files[path][k] != v:
                bad.append('file %s %s: lttv-text %d, bt2 %d' % (path, k, files[path][k], v))
    n += len(files)
    cpu_rows = tables.get('CPU usage', {}).get('rows', [])
    seen_pids = {}
    for w in cpu_rows:
        if w[0] == 'cpu' and len(w) == 4:
            c, busy = int(w[1]), ns_of(w[2])
            if busy != m.busy_ns.get(c, 0):
                bad.append('cpu %d busy: lttv-text %d, bt2 %d' % (c, busy, m.busy_ns.get(c, 0)))
            n += 1
        elif w[0] != 'cpu':
            pid = int(w[0])
            seen_pids[pid] = seen_pids.get(pid, 0) + ns_of(w[-2])
    for pid in sorted(set(seen_pids) | {p for p, v in m.cpu_ns.items() if v and p}):
        if seen_pids.get(pid, 0) != m.cpu_ns.get(pid, 0):
            bad.append('pid %d CPU time: lttv-text %d, bt2 %d' % (pid, seen_pids.get(pid, 0),
                                                                  m.cpu_ns.get(pid, 0)))
        n += 1
    for b in bad[:40]:
        print(b)
    print('%d rows compared, %d differences' % (n, len(bad)))
    return 1 if bad or n == 0 else 0


if __name__ == '__main__':
    sys.exit(main())
