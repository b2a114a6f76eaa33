#!/usr/bin/env python3
"""Our process.schedchange events against ftrace's sched_switch, taken in the
same boot (qemu/instr-guest.sh, the "cross" trace):

    sched-switch-compare.py LTTV_TEXT_DUMP FTRACE_TRACE [MIN_PER_CPU]

LTTV_TEXT_DUMP is lttv-text -t TRACE of our trace; FTRACE_TRACE the guest's
/sys/kernel/tracing/trace. ftrace was on before our trace started and off
after it stopped, and both tracers hang off the same tracepoint, so on each
CPU our switches (out, in, out_state) must be one contiguous run of
ftrace's, in the same order, each leaving task in the same state. ftrace
prints the state as letters (include/trace/events/sched.h); the facility's
task_state enum (facilities/process.xml) holds the era's names:

    R, R+ (preempted)  RUNNING          S  INTERRUPTIBLE
    D, I (idle), P     UNINTERRUPTIBLE  T  STOPPED       t  TRACED
    Z                  EXIT_ZOMBIE      X  EXIT_DEAD

(the kernel's probe gives a state outside those bits, as TASK_IDLE's
NOLOAD or TASK_PARKED, as UNINTERRUPTIBLE). A dying task's exit_state can
change between the two probes' reads (its parent reaps it on the other
CPU: EXIT_ZOMBIE to EXIT_DEAD), so EXIT_ZOMBIE and EXIT_DEAD compare as one
state, EXIT_*. Each CPU must have at least
MIN_PER_CPU (default 20) of our switches, so that the check is not vacuous.
Exit status 0 when all agree; the first difference is printed otherwise.
"""
import re
import sys

OURS = re.compile(r'^process\.schedchange: \S+ \(control/processes_(\d+)\) cpu \d+ '
                  r'\{ out = (\d+), in = (\d+), out_state = (\w+) \}$')
THEIRS = re.compile(r'\[(\d+)\].* sched_switch: .*prev_pid=(\d+) .*prev_state=(\S+) '
                    r'==> .*next_pid=(\d+)')
STATE = {'R': 'RUNNING', 'R+': 'RUNNING', 'S': 'INTERRUPTIBLE', 'D': 'UNINTERRUPTIBLE',
         'I': 'UNINTERRUPTIBLE', 'P': 'UNINTERRUPTIBLE', 'T': 'STOPPED', 't': 'TRACED',
         'Z': 'EXIT_*', 'X': 'EXIT_*'}


def ours(path):
    per_cpu = {}
    with open(path) as f:
        for line in f:
            m = OURS.match(line.rstrip('\n'))
            if m:
                cpu, out, inn, state = m.groups()
                state = 'EXIT_*' if state.startswith('EXIT_') else state
                per_cpu.setdefault(int(cpu), []).append((int(out), int(inn), state))
    return per_cpu


def theirs(path):
    per_cpu = {}
    with open(path) as f:
        for line in f:
            m = THEIRS.search(line)
            if m:
                cpu, prev, state, nxt = m.groups()
                per_cpu.setdefault(int(cpu), []).append(
                    (int(prev), int(nxt), STATE.get(state, '?' + state)))
    return per_cpu


def find_run(run, seq):
    """Index where run starts as a contiguous part of seq, or -1."""
    n = len(run)
    for i in range(len(seq) - n + 1):
        if seq[i:i + n] == run:
            return i
    return -1


def first_difference(run, seq):
    """Align run on seq where the most (out, in) pairs agree in a row, then
    say where the first switch differs there: (agreeing, ours, ftrace's)."""
    best_i, best_k = 0, -1
    for i in range(len(seq)):
        k = 0
        while k < len(run) and i + k < len(seq) and seq[i + k][:2] == run[k][:2]:
            k += 1
        if k > best_k:
            best_i, best_k = i, k
    for k in range(len(run)):
        j = best_i + k
        if j >= len(seq) or seq[j] != run[k]:
            return k, run[k], seq[j] if j < len(seq) else None
    return len(run), None, None


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    least = int(sys.argv[3]) if len(sys.argv) == 4 else 20
    a, b = ours(sys.argv[1]), theirs(sys.argv[2])
    bad = not a
    if not a:
        print('no process.schedchange in', sys.argv[1])
    for cpu in sorted(a):
        run, seq = a[cpu], b.get(cpu, [])
        at = find_run(run, seq)
        states = sorted({s for _, _, s in run})
        if at >= 0 and len(run) >= least:
            print(f'cpu {cpu}: our {len(run)} switches are ftrace\'s {at + 1}..{at + len(run)} '
                  f'of {len(seq)}, states {" ".join(states)}')
            continue
        bad = True
        if at >= 0:
            print(f'cpu {cpu}: only {len(run)} switches (want at least {least})')
        else:
            k, mine, its = first_difference(run, seq)
            print(f'cpu {cpu}: our {len(run)} switches are not a run of ftrace\'s {len(seq)}: '
                  f'after {k} in agreement, ours {mine}, ftrace {its}')
    sys.exit(1 if bad else 0)


if __name__ == '__main__':
    main()
