#!/usr/bin/env python3
"""The event matcher of the field run (qemu/rootfs/match-events.py) on
made-up streams whose answer is known, and its parsers on lines of each
tracer's output (tests/t77-field-match.sh):

    field-match-cases.py [LTTV_TEXT]

With LTTV_TEXT (and python3-bt2), also reads traces/qemu-busybox with it
and traces/lttng-kernel-sample with babeltrace2. Prints TAP-like
'ok'/'not ok' lines; exit 1 when one fails.
"""
import importlib.util
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cases import check, end  # noqa: E402

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
spec = importlib.util.spec_from_file_location('match', os.path.join(TOP, 'qemu/rootfs/match-events.py'))
m = importlib.util.module_from_spec(spec)
spec.loader.exec_module(m)


def base(n=300):
    """A stream of distinct-enough events: one task's system calls."""
    out = [('sched_switch', (0, 100, 'R'))]
    for k in range(n):
        out += [('syscall_entry', (k % 37,)), ('syscall_exit', (k,))]
    return out


TIMER = [('irq_entry', (236,)), ('irq_exit', ()), ('softirq_entry', (1,)), ('softirq_exit', (1,))]


def run(ours, theirs, other='lttng', their_lost=None, our_lost=0):
    state = {}
    calls = [m.exited_call(state, 0, e) for e in ours]
    count, unexplained, _ = m.compare_cpu(ours, calls, theirs, their_lost or {}, our_lost, other)
    total = {}
    for c in count.values():
        for k, v in c.items():
            total[k] = total.get(k, 0) + v
    return total


b = base()
n = len(b)
check('the same stream: all matched', run(b, list(b)), {'matched': n})

# an interrupt between the two probes of one syscall entry (at 101)
ours = b[:101] + TIMER + b[101:]
theirs = b[:102] + TIMER + b[102:]
check('an event written on either side of an interrupt: reordered',
      run(ours, theirs), {'matched': n + 3, 'reordered': 1})

# two interrupts, one nested in a softirq, between the probes of a system
# call's exit and of the softirq's: the same events, interleaved otherwise
IE, IX = ('irq_entry', (236,)), ('irq_exit', ())
SE, SX = ('softirq_entry', (1,)), ('softirq_exit', (1,))
X = b[120]
ours = b[:120] + [IE, IX, IE, IX, SE, SX, X] + b[121:]
theirs = b[:120] + [X, IE, IX, SE, IE, IX, SX] + b[121:]
got = run(ours, theirs)
check('a system call exit and a softirq exit each on either side of an interrupt: '
      'all matched, some out of order',
      (set(got) <= {'matched', 'reordered'}, got.get('matched', 0) + got.get('reordered', 0),
       got.get('reordered', 0) > 0), (True, n + 6, True))

# the other session starts before ours and stops after it
pre = [('syscall_entry', (500 + k,)) for k in range(7)]
post = [('syscall_entry', (600 + k,)) for k in range(5)]
check('theirs before and after our window', run(b, pre + b + post),
      {'matched': n, 'theirs_window': 12})

# rt_sigreturn: LTTng writes no exit, ftrace does
sig = [('syscall_entry', (m.RT_SIGRETURN,)), ('syscall_exit', (-25,))]
ours = b[:151] + sig + b[151:]
theirs = b[:151] + sig[:1] + b[151:]
check("LTTng's missing rt_sigreturn exit: no_exit", run(ours, theirs),
      {'matched': n + 1, 'ours_no_exit': 1})
check('the same missing exit in ftrace: unexplained', run(ours, theirs, 'ftrace'),
      {'matched': n + 1, 'ours_unexplained': 1})
# the same, then an exit written on either side of an interrupt
ours = b[:151] + sig + b[151:152] + TIMER + b[152:]
theirs = b[:151] + sig[:1] + b[151:153] + TIMER + b[153:]
check("a missing rt_sigreturn exit next to a reordered exit", run(ours, theirs),
      {'matched': n + 4, 'ours_no_exit': 1, 'reordered': 1})

# they lost 6 events where they say so, and where they do not
theirs = b[:200] + b[206:]
check('a loss they report at that place: lost', run(b, theirs, their_lost={200: 6}),
      {'matched': n - 6, 'ours_lost': 6})
check('a loss they report elsewhere: unexplained', run(b, theirs, their_lost={20: 6}),
      {'matched': n - 6, 'ours_unexplained': 6})
check('we lost events (lttv-text says on that CPU): theirs lost', run(theirs, b, our_lost=6),
      {'matched': n - 6, 'theirs_lost': 6})

# a field that differs: both sides unexplained
theirs = list(b)
theirs[250] = ('syscall_exit', (-1,))
check('a different field: one unexplained on each side', run(b, theirs),
      {'matched': n - 1, 'ours_unexplained': 1, 'theirs_unexplained': 1})

# a task's exit state read before and after its parent reaped it
ours = b[:120] + [('sched_switch', (100, 0, 'X'))] + b[120:]
theirs = b[:120] + [('sched_switch', (100, 0, 'Z'))] + b[120:]
check('EXIT_ZOMBIE in one, EXIT_DEAD in the other: dead_state', run(ours, theirs),
      {'matched': n, 'dead_state': 1})

# parsers
check('our line', m.our_event('process', 'schedchange',
                              m.our_fields('out = 39, in = 0, out_state = UNINTERRUPTIBLE')),
      ('sched_switch', (39, 0, 'D')))
check('our softirq label', m.our_event('kernel', 'soft_irq_exit', m.our_fields('softirq_id = RCU')),
      ('softirq_exit', (9,)))
check('our exec', m.our_event('fs', 'exec', m.our_fields('filename = "/bin/a, b = c"')),
      ('exec', ('/bin/a, b = c',)))
check('ftrace switch', m.ftrace_event(
    'sched_switch', 'prev_comm=a b prev_pid=12 prev_prio=120 prev_state=I ==> '
    'next_comm=swapper/1 next_pid=0 next_prio=120'), ('sched_switch', (12, 0, 'D')))
check('ftrace exit of a call without a number', m.ftrace_event('sys_exit', 'NR -1 = -25'),
      ('syscall_exit', (-25,)))
nr = m.syscall_numbers()
check('LTTng names newfstat as fstat', m.lttng_syscall_nr('newfstat', nr), nr['fstat'])
check('LTTng preempted: R', m.lttng_event('sched_switch', {'prev_tid': 5, 'next_tid': 0,
                                                          'prev_state': 256}, nr),
      ('sched_switch', (5, 0, 'R')))

if len(sys.argv) > 1:
    ours, calls, lost = m.read_ours(os.path.join(TOP, 'traces/qemu-busybox'), sys.argv[1])
    check('traces/qemu-busybox read with lttv-text', (sorted(ours), sum(map(len, ours.values())), lost),
          ([0, 1], 6869, {0: 0, 1: 0}))
    try:
        import bt2  # noqa: F401
        theirs, tlost = m.read_lttng(os.path.join(TOP, 'traces/lttng-kernel-sample'))
        check('traces/lttng-kernel-sample read with babeltrace2',
              (sorted(theirs), sum(map(len, theirs.values())), dict(tlost)), ([0, 1], 5519, {}))
    except ImportError:
        print('ok - traces/lttng-kernel-sample read with babeltrace2 # SKIP no python3-bt2 for %s'
              % sys.executable)
end()
