#!/usr/bin/env python3
"""Our trace against LTTng 2.13's (and ftrace's) of the same field run,
event by event (issue 28, item 4):

    match-events.py OUT_DIR LTTV_TEXT [--other lttng|ftrace]... [--show N]

OUT_DIR is qemu/field-boot.sh's (FIELD_LTTNG=1, FIELD_FTRACE=1): field/
(ours, read with lttv-text), lttng/ (read with babeltrace2's Python
bindings, python3-bt2: none of our code), ftrace/ (the kernel's text
output per CPU). Every scheduler switch, system call entry and exit,
interrupt handler entry and exit (the local APIC timer as irq 236, as ours
writes it), softirq entry and exit, fork, exec and exit is reduced to its
type and the fields both tracers write:

    sched_switch   previous tid, next tid, previous state as a letter
    syscall_entry  the x86_64 system call number
    syscall_exit   the return value
    irq_entry      the irq line     (irq_exit: none, ours writes none)
    softirq_*      the vector
    fork           parent tid, child tid, child's process id (ftrace: no pid)
    exec           the file name
    exit           the tid

and each CPU's stream of ours is aligned with the other tracer's stream of
that CPU, in order (align()). Per event type: matched, matched out of
order (an interrupt between the two tracers' probes of one tracepoint:
transposed()), a dying task's state read on either side of its reaping
(dead_states()), ours only and theirs only, each unmatched one explained
(why_unmatched()): outside our window (the other session starts before
ours and stops after it: qemu/rootfs/field-run.sh), an exit LTTng never
writes (no_exit()), lost (a loss the tracer that lacks the event reports
at that place, or near it), or unexplained. docs/field.md has the method
and a boot's figures. Prints the table and the unexplained ones (--show N
each, 10); exit 1 when any is unexplained, 2 when a trace cannot be read.
"""
import argparse
import bisect
import collections
import os
import re
import subprocess
import sys

TYPES = ('sched_switch', 'syscall_entry', 'syscall_exit', 'irq_entry', 'irq_exit',
         'softirq_entry', 'softirq_exit', 'fork', 'exec', 'exit')
INTERRUPT = ('irq_entry', 'irq_exit', 'softirq_entry', 'softirq_exit')
LOCAL_TIMER = 236          # our irq_id for the local APIC timer's vector
SOFTIRQS = ('HI', 'TIMER', 'NET_TX', 'NET_RX', 'BLOCK', 'IRQ_POLL', 'TASKLET',
            'SCHED', 'HRTIMER', 'RCU')   # Linux 6.1's vectors, in order
UNISTD = '/usr/include/x86_64-linux-gnu/asm/unistd_64.h'


def fail(msg):
    sys.stderr.write('match-events.py: %s\n' % msg)
    sys.exit(2)


# ---- task states as one letter --------------------------------------------

# ours: process.xml's labels, as lttv-text prints them
OUR_STATES = {'RUNNING': 'R', 'INTERRUPTIBLE': 'S', 'UNINTERRUPTIBLE': 'D',
              'STOPPED': 'T', 'TRACED': 't', 'EXIT_ZOMBIE': 'Z', 'EXIT_DEAD': 'X'}
# LTTng 2.13 on Linux >= 4.14: 0 or, preempted, TASK_REPORT_MAX (256);
# otherwise 1 << (task_state_index - 1). Ours writes a parked task (64)
# and an idle kernel thread (TASK_IDLE, 128) as UNINTERRUPTIBLE, and a
# preempted one as RUNNING: the same letters here, counted by
# state_aliases() so that the table says how many.
LTTNG_STATES = {0: 'R', 256: 'R', 1: 'S', 2: 'D', 4: 'T', 8: 't', 16: 'X', 32: 'Z',
                64: 'D', 128: 'D'}
# ftrace prints the same index as letters, R+ when preempted
FTRACE_STATES = {'R': 'R', 'R+': 'R', 'S': 'S', 'D': 'D', 'T': 'T', 't': 't',
                 'X': 'X', 'Z': 'Z', 'P': 'D', 'I': 'D'}


def syscall_numbers(path=UNISTD):
    """__NR_name -> number, from the kernel's UAPI header (not our table)."""
    nr = {}
    try:
        with open(path) as f:
            for line in f:
                m = re.match(r'#define __NR_(\w+)\s+(\d+)', line)
                if m:
                    nr[m.group(1)] = int(m.group(2))
    except OSError as e:
        fail('%s: %s (linux-libc-dev)' % (path, e))
    return nr


def lttng_syscall_nr(name, nr):
    """LTTng names a system call after its kernel function: newstat is stat."""
    for n in (name, name[3:] if name.startswith('new') else None):
        if n is not None and n in nr:
            return nr[n]
    return None


# ---- ours: lttv-text ---------------------------------------------------------

OUR_LINE = re.compile(r'^(\w+)\.(\w+): \S+ \([^)]*\) cpu (\d+)(?: \{ (.*) \})?$')


def our_fields(text):
    """'a = 1, b = X [y]' -> {'a': '1', 'b': 'X'}: our fields are numbers,
    labels or (exec) a file name, the last field."""
    fields = {}
    while text:
        m = re.match(r'(\w+) = ', text)
        if not m:
            break
        name, rest = m.group(1), text[m.end():]
        if name == 'filename':
            fields[name] = rest[1:-1] if rest.startswith('"') else rest
            break
        value, _, text = rest.partition(', ')
        fields[name] = value.split(' [')[0]
    return fields


def our_event(facility, name, f):
    """One of our events as (type, key), None for the others."""
    if facility == 'process':
        if name == 'schedchange':
            return 'sched_switch', (int(f['out']), int(f['in']), OUR_STATES[f['out_state']])
        if name == 'fork':
            return 'fork', (int(f['parent_pid']), int(f['child_pid']), int(f['child_tgid']))
        if name == 'exit':
            return 'exit', (int(f['pid']),)
    elif facility == 'fs' and name == 'exec':
        return 'exec', (f['filename'],)
    elif facility == 'kernel_arch':
        if name == 'syscall_entry':
            return 'syscall_entry', (int(f['syscall_id']),)
        if name == 'syscall_exit':
            return 'syscall_exit', (int(f['ret']),)
    elif facility == 'kernel':
        if name == 'irq_entry':
            return 'irq_entry', (int(f['irq_id']),)
        if name == 'irq_exit':
            return 'irq_exit', ()
        if name in ('soft_irq_entry', 'soft_irq_exit'):
            v = f['softirq_id']
            return name.replace('soft_irq', 'softirq'), (SOFTIRQS.index(v) if v in SOFTIRQS else int(v),)
    return None


def exited_call(state, cpu, ev):
    """For a syscall_exit, the number of the call it ends (the last entry
    of the task running on that CPU), else None; state follows the tasks
    across CPUs, so the events must come in time order."""
    running, pending = state.setdefault('running', {}), state.setdefault('pending', {})
    kind, key = ev
    if kind == 'sched_switch':
        running[cpu] = key[1]
    elif kind == 'syscall_entry' and cpu in running:
        pending[running[cpu]] = key[0]
    elif kind == 'syscall_exit' and cpu in running:
        return pending.pop(running[cpu], None)
    return None


def read_ours(trace, lttv_text):
    """Our trace: per CPU, the events in time order and for each the
    system call it ends (exited_call()), and the loss per CPU."""
    sel = ['-e', 'process.schedchange', '-e', 'process.fork', '-e', 'process.exit',
           '-e', 'fs.exec', '-e', 'kernel_arch.syscall_*', '-e', 'kernel.irq_*',
           '-e', 'kernel.soft_irq_*']
    p = subprocess.Popen([lttv_text, '-t', trace, '-n'] + sel, stdout=subprocess.PIPE,
                         text=True, errors='replace')
    cpus = collections.defaultdict(list)
    calls = collections.defaultdict(list)
    state = {}
    for line in p.stdout:
        m = OUR_LINE.match(line.rstrip('\n'))
        if not m:
            continue
        ev = our_event(m.group(1), m.group(2), our_fields(m.group(4) or ''))
        if ev:
            cpu = int(m.group(3))
            cpus[cpu].append(ev)
            calls[cpu].append(exited_call(state, cpu, ev))
    if p.wait() != 0:
        fail('%s -t %s failed (%d)' % (lttv_text, trace, p.returncode))
    stats = subprocess.run([lttv_text, '-t', trace, '-q', '-c'], stdout=subprocess.PIPE,
                           text=True).stdout
    lost = {int(c): int(n) for c, n in re.findall(r'^cpu (\d+): .* (\d+) lost$', stats, re.M)}
    return cpus, calls, lost


# ---- LTTng: babeltrace2's Python bindings --------------------------------------

def lttng_event(name, f, nr):
    """One LTTng event as (type, key), None for the others; f: its payload."""
    if name == 'sched_switch':
        return 'sched_switch', (int(f['prev_tid']), int(f['next_tid']),
                                LTTNG_STATES.get(int(f['prev_state']), '?%d' % int(f['prev_state'])))
    if name == 'sched_process_fork':
        return 'fork', (int(f['parent_tid']), int(f['child_tid']), int(f['child_pid']))
    if name == 'sched_process_exec':
        return 'exec', (str(f['filename']),)
    if name == 'sched_process_exit':
        return 'exit', (int(f['tid']),)
    if name == 'irq_handler_entry':
        return 'irq_entry', (int(f['irq']),)
    if name in ('irq_handler_exit', 'x86_irq_vectors_local_timer_exit'):
        return 'irq_exit', ()
    if name == 'x86_irq_vectors_local_timer_entry':
        return 'irq_entry', (LOCAL_TIMER,)
    if name in ('irq_softirq_entry', 'irq_softirq_exit'):
        return name[4:], (int(f['vec']),)
    for kind in ('entry', 'exit'):
        prefix = 'syscall_%s_' % kind
        if name.startswith(prefix):
            if kind == 'exit':
                return 'syscall_exit', (int(f['ret']),)
            sc = name[len(prefix):]
            n = int(f['id']) if sc == 'unknown' else lttng_syscall_nr(sc, nr)
            if n is None:
                fail('LTTng event %s: no such system call in %s' % (name, UNISTD))
            return 'syscall_entry', (n,)
    return None


def read_lttng(trace):
    """LTTng's trace: per CPU, the events in stream order, and where its
    losses fall ({cpu: {index of the event they come just before: count}}).
    LTTng drops events when a packet is full and the next one is not free,
    and counts them in the full packet's events_discarded, written when
    that packet is closed; babeltrace2 reports the increase before that
    packet. So the loss comes after that packet's last event."""
    try:
        import bt2
    except ImportError:
        fail('no babeltrace2 Python bindings for %s (python3-bt2)' % sys.executable)
    nr = syscall_numbers()
    cpus = collections.defaultdict(list)
    lost = collections.defaultdict(dict)
    stream_cpu = {}
    pending = {}
    it = bt2.TraceCollectionMessageIterator(trace)
    for msg in it:
        if type(msg) is bt2._PacketBeginningMessageConst:
            stream_cpu[msg.packet.stream.addr] = int(msg.packet.context_field['cpu_id'])
        elif type(msg) is bt2._DiscardedEventsMessageConst:
            # a count of None, or of 2^64 less a few thousand (babeltrace2
            # 2.0 subtracting a packet's discarded-events counter from the
            # previous packet's larger one): a loss of unknown size, kept
            # as 0 (its place still explains a gap)
            n = msg.count if msg.count is not None and msg.count < 1 << 63 else 0
            pending[msg.stream.addr] = pending.get(msg.stream.addr, 0) + n
        elif type(msg) is bt2._PacketEndMessageConst and msg.packet.stream.addr in pending:
            cpu = stream_cpu[msg.packet.stream.addr]
            d = lost[cpu]
            d[len(cpus[cpu])] = d.get(len(cpus[cpu]), 0) + pending.pop(msg.packet.stream.addr)
        elif type(msg) is bt2._EventMessageConst:
            e = msg.event
            ev = lttng_event(e.name, e.payload_field, nr)
            if ev:
                cpus[int(e.packet.context_field['cpu_id'])].append(ev)
    return cpus, lost


# ---- ftrace: the kernel's text output per CPU ----------------------------------

FTRACE_LINE = re.compile(r'\[(\d+)\] \S+ +[\d.]+: (\w+): (.*)$')
FTRACE_LOST = re.compile(r'^CPU:(\d+) \[LOST (\d+) EVENTS\]')


def ftrace_event(name, a):
    """One ftrace event as (type, key), None for the others; a: its text."""
    if name == 'sched_switch':
        m = re.search(r'prev_pid=(\d+) prev_prio=\S+ prev_state=(\S+) ==> .* next_pid=(\d+) next_prio=', a)
        return 'sched_switch', (int(m.group(1)), int(m.group(3)),
                                FTRACE_STATES.get(m.group(2), '?' + m.group(2)))
    if name == 'sched_process_fork':
        m = re.search(r' pid=(\d+) child_comm=.* child_pid=(\d+)$', a)
        return 'fork', (int(m.group(1)), int(m.group(2)))
    if name == 'sched_process_exec':
        m = re.match(r'filename=(.*) pid=\d+ old_pid=\d+$', a)
        return 'exec', (m.group(1),)
    if name == 'sched_process_exit':
        return 'exit', (int(re.search(r' pid=(\d+) prio=', a).group(1)),)
    if name == 'irq_handler_entry':
        return 'irq_entry', (int(re.match(r'irq=(\d+)', a).group(1)),)
    if name in ('irq_handler_exit', 'local_timer_exit'):
        return 'irq_exit', ()
    if name == 'local_timer_entry':
        return 'irq_entry', (LOCAL_TIMER,)
    if name in ('softirq_entry', 'softirq_exit'):
        return name, (int(re.match(r'vec=(\d+)', a).group(1)),)
    if name == 'sys_enter':
        return 'syscall_entry', (int(re.match(r'NR (\d+) ', a).group(1)),)
    if name == 'sys_exit':
        return 'syscall_exit', (int(re.match(r'NR -?\d+ = (-?\d+)', a).group(1)),)
    return None


def read_ftrace(folder):
    """ftrace's per-CPU text: the events and where it says it lost some."""
    cpus = collections.defaultdict(list)
    lost = collections.defaultdict(dict)
    names = sorted(n for n in os.listdir(folder) if re.fullmatch(r'cpu\d+', n))
    if not names:
        fail('%s: no cpuN files' % folder)
    for n in names:
        cpu = int(n[3:])
        with open(os.path.join(folder, n), errors='replace') as f:
            for line in f:
                m = FTRACE_LOST.match(line)
                if m:
                    d = lost[cpu]
                    d[len(cpus[cpu])] = d.get(len(cpus[cpu]), 0) + int(m.group(2))
                    continue
                m = FTRACE_LINE.search(line)
                if m:
                    ev = ftrace_event(m.group(2), m.group(3))
                    if ev:
                        cpus[cpu].append(ev)
    return cpus, lost


def ftrace_dropped(folder):
    """Events the ring buffer refused when full (overwrite off), per CPU."""
    out = {}
    for n in os.listdir(folder):
        m = re.fullmatch(r'cpu(\d+)\.stats', n)
        if m:
            with open(os.path.join(folder, n)) as f:
                t = f.read()
            out[int(m.group(1))] = sum(int(x) for x in re.findall(r'^(?:overrun|dropped events): (\d+)', t, re.M))
    return out


# ---- the alignment ---------------------------------------------------------------

def project_ftrace(ev):
    """Ours as ftrace sees it: its fork has no child pid."""
    return (ev[0], ev[1][:2]) if ev[0] == 'fork' else ev


def first_common(a, b, pos_b, i=0, j=0, run=64, tries=10000):
    """The first (di, dj) from (i, j) where `run` events of a and b agree,
    for each of `tries` starts in a the nearest in b: where the
    later-started trace begins in the other, or where two traces agree
    again after a long difference. pos_b: positions(b)."""
    for di in range(min(tries, max(0, len(a) - i - run + 1))):
        dj = far_match(a, i + di, b, j, pos_b, run)
        if dj is not None:
            return di, dj
    return None


def positions(seq):
    """Each event's indexes in seq, in order: far_match()'s index."""
    pos = collections.defaultdict(list)
    for k, e in enumerate(seq):
        pos[e].append(k)
    return pos


def far_match(x, i, y, j, pos_y, run):
    """The smallest d >= 0 with x[i:i + run] == y[j + d:j + d + run], found
    through the rarest event of that run in y (pos_y), or None."""
    gram = x[i:i + run]
    if len(gram) < run:
        return None
    k = min(range(run), key=lambda t: len(pos_y.get(gram[t], ())))
    cand = pos_y.get(gram[k], [])
    for p in cand[bisect.bisect_left(cand, j + k):]:
        if y[p - k:p - k + run] == gram:
            return p - k - j
    return None


def resync(a, i, b, j, pos_a, pos_b, near=48, run=4, far_run=32):
    """After a difference at a[i], b[j]: the nearest (di, dj) from which
    `run` events agree again, looking `near` events ahead in both; else
    (a gap: a loss) the nearest place ahead in either one alone where
    `far_run` events agree; else where both agree again at length
    (first_common())."""
    def agree(x, y):
        # `run` equal events, or equal to the ends of both (a stretch
        # between fixed points ends there)
        sa, sb = a[x:x + run], b[y:y + run]
        return sa == sb and (len(sa) == run or (x + len(sa) == len(a) and y + len(sb) == len(b)))
    for d in range(1, 2 * near + 1):
        for di in range(max(0, d - near), min(d, near) + 1):
            if agree(i + di, j + d - di):
                return di, d - di
    dj = far_match(a, i, b, j, pos_b, far_run)
    di = far_match(b, j, a, i, pos_a, far_run)
    if dj is not None and (di is None or dj <= di):
        return 0, dj
    if di is not None:
        return di, 0
    return first_common(a, b, pos_b, i, j)


def interrupt_run(seq, k, limit=64):
    """How many interrupt and softirq events start at seq[k]."""
    n = 0
    while k + n < len(seq) and n < limit and seq[k + n][0] in INTERRUPT:
        n += 1
    return n


def transposed(a, i, b, j):
    """At a difference: is it one event written before an interrupt's
    events by one tracer and after them by the other? An interrupt that
    came between the two tracers' probes of one tracepoint does that.
    Returns (n, x_in_a_at, x_in_b_at) with n the interrupt events, or None."""
    # X may itself be an interrupt's event (a softirq's entry or exit,
    # with a timer interrupt nested): every length of the run is tried
    for n in range(1, interrupt_run(b, j) + 1):
        if j + n < len(b) and a[i] == b[j + n] and a[i + 1:i + 1 + n] == b[j:j + n]:
            return n, i, j + n      # a: X I..., b: I... X
    for n in range(1, interrupt_run(a, i) + 1):
        if i + n < len(a) and b[j] == a[i + n] and b[j + 1:j + 1 + n] == a[i:i + n]:
            return n, i + n, j      # a: I... X, b: X I...
    return None


def shuffled(a, i, b, j, most=64):
    """At a difference: the shortest stretch from a[i] and b[j] (at most
    `most` events) that holds the same events in both, with the same
    events other than interrupts' in the same order: only the interleaving
    with interrupts differs, as when several interrupts and softirqs came
    between the two tracers' probes of one or more tracepoints (nested, so
    that transposed() does not see one block moved). Its length, or None."""
    ca, cb = collections.Counter(), collections.Counter()
    for w in range(1, most + 1):
        if i + w > len(a) or j + w > len(b):
            return None
        ca[a[i + w - 1]] += 1
        cb[b[j + w - 1]] += 1
        if ca == cb:
            keep = [e for e in a[i:i + w] if e[0] not in INTERRUPT]
            if keep == [e for e in b[j:j + w] if e[0] not in INTERRUPT] and len(keep) < w:
                return w
            return None
    return None


def window_pairs(a, i, b, j, w):
    """The events of two stretches of w that hold the same events: pairs in
    order (the longest common subsequence's, difflib), and the others
    paired with their equal, out of order."""
    import difflib
    sm = difflib.SequenceMatcher(None, a[i:i + w], b[j:j + w], autojunk=False)
    in_order = [(i + x + k, j + y + k) for x, y, n in sm.get_matching_blocks() for k in range(n)]
    used_a = {x for x, _ in in_order}
    used_b = {y for _, y in in_order}
    free = collections.defaultdict(list)
    for y in range(j, j + w):
        if y not in used_b:
            free[b[y]].append(y)
    moved = [(x, free[a[x]].pop(0)) for x in range(i, i + w) if x not in used_a]
    return in_order, moved


def walk(a, b, absent, lost_b, run=16):
    """Greedy order-preserving alignment of a and b from their starts:
    equal events match; a difference is an event of a that b's tracer
    never writes (absent(i)), a transposition around an interrupt
    (transposed()), a stretch of the same events interleaved otherwise
    with interrupts (shuffled()) or events that one side lacks (resync()). Where b's
    tracer says it lost events (lost_b: b's indexes that a loss comes just
    before) and the two do not agree at length, the events of a up to
    where b goes on are the lost ones: a skip in a alone."""
    pairs, moved, only_a, only_b = [], [], [], []
    pos_a, pos_b = positions(a), positions(b)
    i = j = 0
    marks = sorted(lost_b)
    next_mark = 0
    while i < len(a) and j < len(b):
        if next_mark < len(marks) and marks[next_mark] <= j:
            while next_mark < len(marks) and marks[next_mark] <= j:
                next_mark += 1
            if a[i:i + run] != b[j:j + run]:
                # where b goes on in a; nowhere: a's stretch ends in the loss
                di = far_match(b, j, a, i, pos_a, run)
                di = len(a) - i if di is None else di
                only_a.extend(range(i, i + di))
                i += di
                continue
        if a[i] == b[j]:
            pairs.append((i, j))
            i += 1
            j += 1
            continue
        if absent(i):
            only_a.append(i)
            i += 1
            continue
        t = transposed(a, i, b, j)
        if t:
            n, xa, xb = t
            moved.append((xa, xb))
            ia = i + 1 if xa == i else i
            jb = j + 1 if xb == j else j
            pairs.extend((ia + k, jb + k) for k in range(n))
            i += n + 1
            j += n + 1
            continue
        w = shuffled(a, i, b, j)
        if w:
            in_order, out_of_order = window_pairs(a, i, b, j, w)
            pairs.extend(in_order)
            moved.extend(out_of_order)
            i += w
            j += w
            continue
        step = resync(a, i, b, j, pos_a, pos_b)
        if step is None:
            break
        only_a.extend(range(i, i + step[0]))
        only_b.extend(range(j, j + step[1]))
        i += step[0]
        j += step[1]
    only_a.extend(range(i, len(a)))
    only_b.extend(range(j, len(b)))
    return pairs, moved, only_a, only_b


def lis(pairs):
    """The longest subsequence of pairs (sorted by their first) whose
    seconds increase too (patience sorting)."""
    tails, tail_at, back = [], [], [None] * len(pairs)
    for k, (_, y) in enumerate(pairs):
        n = bisect.bisect_left(tails, y)
        back[k] = tail_at[n - 1] if n else None
        if n == len(tails):
            tails.append(y)
            tail_at.append(k)
        else:
            tails[n] = y
            tail_at[n] = k
    out, k = [], tail_at[-1] if tail_at else None
    while k is not None:
        out.append(pairs[k])
        k = back[k]
    return out[::-1]


def anchors(a, b):
    """Fixed points of the alignment: events that occur once in a and once
    in b (a fork, an exec, a system call's unusual return value), where
    they keep the same order in both (lis()), and with no interrupt's
    event beside them in either (one could have been written on either
    side of it: transposed())."""
    def calm(seq, k):
        return all(not (0 <= n < len(seq)) or seq[n][0] not in INTERRUPT for n in (k - 1, k + 1))
    ca, cb = collections.Counter(a), collections.Counter(b)
    at_b = {e: k for k, e in enumerate(b) if cb[e] == 1}
    return lis([(i, at_b[e]) for i, e in enumerate(a)
                if ca[e] == 1 and e in at_b and calm(a, i) and calm(b, at_b[e])])


def segment(a, b, ia, ja, absent, lost_b, backward):
    """walk() over a[ia[0]:ia[1]] and b[ja[0]:ja[1]], from their starts, or
    from their ends when backward; the result in a's and b's indexes."""
    (i0, i1), (j0, j1) = ia, ja
    if backward:
        ma = lambda x: i1 - 1 - x  # noqa: E731
        mb = lambda y: j1 - 1 - y  # noqa: E731
        # a loss just before b[m] is one just before b[j1 - 1 - (m - 1)]
        lost = {j1 - m for m in lost_b if j0 < m <= j1}
        sa, sb = a[i0:i1][::-1], b[j0:j1][::-1]
    else:
        ma = lambda x: i0 + x  # noqa: E731
        mb = lambda y: j0 + y  # noqa: E731
        lost = {m - j0 for m in lost_b if j0 <= m < j1}
        sa, sb = a[i0:i1], b[j0:j1]
    pairs, moved, only_a, only_b = walk(sa, sb, lambda x: absent(ma(x)), lost)
    return ([(ma(x), mb(y)) for x, y in pairs], [(ma(x), mb(y)) for x, y in moved],
            [ma(x) for x in only_a], [mb(y) for y in only_b])


def align(a, b, absent=lambda i: False, lost_b=()):
    """Order-preserving alignment of two event lists: the matched index
    pairs (sorted), the pairs matched out of order, and the unmatched
    indexes of each. Between fixed points (anchors()) each stretch is
    walked (walk()) from its start; before the first one, backward from
    it (the later-started trace begins there). Without fixed points, the
    same from the first place where both agree at length (first_common()).
    absent(i): a[i] is one that b's tracer does not write; lost_b: b's
    indexes that a loss of b's tracer comes just before."""
    fixed = anchors(a, b)
    if not fixed:
        start = first_common(a, b, positions(b))
        if start is None:
            return [], [], list(range(len(a))), list(range(len(b)))
        fixed = [start]
        first_is_fixed = False
    else:
        first_is_fixed = True
    out = ([], [], [], [])
    parts = [segment(a, b, (0, fixed[0][0]), (0, fixed[0][1]), absent, lost_b, True)]
    bounds = fixed + [(len(a), len(b))]
    for n, (i, j) in enumerate(fixed):
        skip = 1 if first_is_fixed or n else 0
        if skip:
            out[0].append((i, j))
        ni, nj = bounds[n + 1]
        parts.append(segment(a, b, (i + skip, ni), (j + skip, nj), absent, lost_b, False))
    for part in parts:
        for k in range(4):
            out[k].extend(part[k])
    return sorted(out[0]), out[1], sorted(out[2]), sorted(out[3])


def gaps(matched, only):
    """Unmatched indexes by the gap they fall in: the number of matched
    indexes (of the same side, sorted) before each."""
    out = collections.defaultdict(list)
    for k in only:
        out[bisect.bisect(matched, k)].append(k)
    return out


def why_unmatched(side, g, n_gaps, lost_in_gap, ev, call, other):
    """Why an unmatched event in gap g (of n_gaps) has no counterpart:
    'window' (the other session was not running: no match on that CPU
    before or after it), 'no_exit' (ours only: LTTng writes no exit of a
    system call whose number is gone at its exit, rt_sigreturn's: it
    restores orig_ax = -1, and LTTng's exit probe drops id < 0), 'lost'
    (the tracer that lacks it reports a loss in that gap), 'near_lost' (a
    loss reported within NEAR events of the gap: the alignment found the
    loss but not its exact edge, in streams that repeat themselves; only
    where a tracer lost events), or 'unexplained' (lost_in_gap(g) says
    'lost', 'near_lost' or None)."""
    if g == 0 or g == n_gaps - 1:
        return 'window'
    if side == 'ours' and no_exit(ev, call, other):
        return 'no_exit'
    return lost_in_gap(g) or 'unexplained'


NEAR = 64


def no_exit(ev, call, other):
    """One of our events that LTTng never writes: the exit of rt_sigreturn
    (why_unmatched() says why)."""
    return other == 'lttng' and ev[0] == 'syscall_exit' and call == RT_SIGRETURN


RT_SIGRETURN = 15
WHY = ('window', 'lost', 'near_lost', 'no_exit', 'unexplained')


def dead_states(a, gaps_a, b, gaps_b):
    """Switches away from an exiting task, unmatched in the same gap, the
    same but for EXIT_ZOMBIE in one and EXIT_DEAD in the other: both
    tracers read the task's exit_state when their probe runs, and its
    parent, on the other CPU, can reap it between the two. Index pairs."""
    out = []
    for g, ks in gaps_a.items():
        free = [j for j in gaps_b.get(g, ()) if b[j][0] == 'sched_switch' and b[j][1][2] in 'ZX']
        for i in ks:
            if a[i][0] != 'sched_switch' or a[i][1][2] not in 'ZX':
                continue
            for j in free:
                if b[j][1][:2] == a[i][1][:2] and b[j][1][2] != a[i][1][2]:
                    out.append((i, j))
                    free.remove(j)
                    break
    return out


def compare_cpu(ours, calls, theirs, their_lost, our_lost, other):
    """One CPU: per type counters and the unexplained events. calls: the
    system call each of ours ends (read_ours()); their_lost: {index of
    their next event: count}; our_lost: our count on that CPU (lttv-text
    gives no place: any gap may hold it)."""
    a = [project_ftrace(e) for e in ours] if other == 'ftrace' else ours
    pairs, moved, only_a, only_b = align(a, theirs, lambda i: no_exit(a[i], calls[i], other),
                                         set(their_lost))
    ma = [i for i, _ in pairs]
    mb = [j for _, j in pairs]
    gaps_a, gaps_b = gaps(ma, only_a), gaps(mb, only_b)
    count = collections.defaultdict(collections.Counter)
    for i in ma:
        count[a[i][0]]['matched'] += 1
    for i, _ in moved:
        count[a[i][0]]['reordered'] += 1
    for i, j in dead_states(a, gaps_a, theirs, gaps_b):
        count['sched_switch']['dead_state'] += 1
        gaps_a[bisect.bisect(ma, i)].remove(i)
        gaps_b[bisect.bisect(mb, j)].remove(j)

    def their_loss_near(g, near):
        lo, hi = mb[g - 1], (mb[g] if g < len(mb) else float('inf'))
        return any(lo - near < m <= hi + near for m in their_lost)

    def they_lost(g):
        return 'lost' if their_loss_near(g, 0) else 'near_lost' if their_loss_near(g, NEAR) else None

    def we_lost(g):
        return 'lost' if our_lost else 'near_lost' if their_loss_near(g, NEAR) else None

    unexplained = []
    for side, by_gap, seq, lost in (('ours', gaps_a, a, they_lost),
                                    ('theirs', gaps_b, theirs, we_lost)):
        for g, ks in by_gap.items():
            for k in ks:
                why = why_unmatched(side, g, len(pairs) + 1, lost, seq[k],
                                    calls[k] if side == 'ours' else None, other)
                count[seq[k][0]]['%s_%s' % (side, why)] += 1
                if why == 'unexplained':
                    unexplained.append((side, k, seq))
    return count, unexplained, len(pairs)


def context(seq, k, width=3):
    return ' | '.join('%s%s%s' % ('>' if x == k else '', seq[x][0], seq[x][1])
                      for x in range(max(0, k - width), min(len(seq), k + width + 1)))


COLUMNS = ('matched', 'reordered', 'dead_state') + tuple('ours_' + w for w in WHY) + \
    tuple('theirs_' + w for w in WHY if w != 'no_exit')


def table(other, total):
    """The per-type table, markdown."""
    lines = ['| %s | %s |' % (other, ' | '.join(COLUMNS)),
             '|---|' + '---:|' * len(COLUMNS)]
    for t in TYPES + ('all',):
        c = total[t]
        lines.append('| %s | %s |' % (t, ' | '.join(str(c[k]) for k in COLUMNS)))
    return '\n'.join(lines)


def compare(ours, calls, our_lost, theirs, their_lost, other, show):
    """Every CPU of both: the table, the unexplained ones; True when none."""
    total = collections.defaultdict(collections.Counter)
    bad = 0
    for cpu in sorted(set(ours) | set(theirs)):
        count, unexplained, n = compare_cpu(ours.get(cpu, []), calls.get(cpu, []),
                                            theirs.get(cpu, []), their_lost.get(cpu, {}),
                                            our_lost.get(cpu, 0), other)
        tl = their_lost.get(cpu, {})
        print('# %s, cpu %d: ours %d events, theirs %d, %d matched in order; '
              'their losses: %d events in %d places (%d of unknown size), ours only in '
              'those gaps: %d; our losses: %d events' % (
                  other, cpu, len(ours.get(cpu, [])), len(theirs.get(cpu, [])), n,
                  sum(tl.values()), len(tl), sum(1 for v in tl.values() if v == 0),
                  sum(c['ours_lost'] for c in count.values()), our_lost.get(cpu, 0)))
        for t, c in count.items():
            total[t].update(c)
            total['all'].update(c)
        for side, k, seq in unexplained[:show]:
            print('unexplained %s only, cpu %d, #%d: %s' % (side, cpu, k, context(seq, k)))
        bad += len(unexplained)
    print(table(other, total))
    n_ours = sum(len(v) for v in ours.values())
    print('%s: %d of our %d events matched in order (%.2f %%)' % (
        other, total['all']['matched'], n_ours, 100.0 * total['all']['matched'] / max(1, n_ours)))
    print('%s: %d unexplained' % (other, bad))
    return bad == 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('out_dir')
    ap.add_argument('lttv_text')
    ap.add_argument('--other', action='append', choices=('lttng', 'ftrace'))
    ap.add_argument('--show', type=int, default=10)
    o = ap.parse_args()
    others = o.other or ['lttng']
    ours, calls, our_lost = read_ours(os.path.join(o.out_dir, 'field'), o.lttv_text)
    if not ours:
        fail('%s/field: no events read' % o.out_dir)
    ok = True
    for other in others:
        folder = os.path.join(o.out_dir, other)
        if not os.path.isdir(folder):
            fail('%s: no such folder (qemu/field-boot.sh with FIELD_%s=1)' % (folder, other.upper()))
        if other == 'lttng':
            theirs, their_lost = read_lttng(folder)
        else:
            theirs, their_lost = read_ftrace(folder)
            for cpu, n in ftrace_dropped(folder).items():
                if n and not their_lost.get(cpu):
                    print('# ftrace, cpu %d: %d dropped, at no known place' % (cpu, n))
        ok = compare(ours, calls, our_lost, theirs, their_lost, other, o.show) and ok
    sys.exit(0 if ok else 1)


if __name__ == '__main__':
    main()
