#!/usr/bin/env python3
"""qemu/rootfs/books-compare.py OUT_DIR [LTTV_TEXT] - the kernel's books
(OUT_DIR/books.json, written in the guest by qemu/rootfs/books.py) against
what our tools say of the trace OUT_DIR/field for the same interval.
books-compare.py --books FILE --trace DIR [LTTV_TEXT]: the same for books
and a trace kept apart (traces/field-workload and its .books.json,
tests/t80-field-trace.sh).

The guest read its books at instants that the trace shows only to within
a bracket of two user events (books A0 < A1 < A2 < workload < B0 < B1 <
B2): a task's counters were read between A1 and A2 and between B0 and
B1, the machine's (interrupts, softirqs, /proc/stat) between A0 and A1
and between B1 and B2. So a count the kernel keeps exactly must lie
between what the trace holds in the narrowest interval those instants
allow and in the widest; when nothing happened inside the brackets both
are equal and the check is exact. The workload's own tree (books.py's
child and every descendant, all reaped before B0) ran only between A2
and B0: its rusage is compared with the trace over [A2, B0], no bracket.

Checks (one line each, "ok" or "MISMATCH" with the figures):
  clock: the trace's time from A2 to B0 against books.py's CLOCK_MONOTONIC
    (1 %: the tracer counts TSC cycles at the kernel's tsc_khz, which a
    bad boot calibration can make wrong, while the kernel's clocks stay
    right);
  machine: /proc/stat ctxt and processes against every process.schedchange
    and process.fork; /proc/interrupts per line and CPU against
    kernel.irq_entry (LOC is the local timer, vector 236); /proc/softirqs
    per vector and CPU against kernel.soft_irq_entry; and --irqs' counts
    per line and vector against the same kernel deltas;
  tree: wait4's ru_utime + ru_stime against the sum of --process-stats'
    totals over the tree's tasks (1 %), and of lttv-gtk --stats' (beside
    LTTV_TEXT); ru_nvcsw + ru_nivcsw against the
    tree's switches out (a task's last switch, after exit, is counted by
    the kernel only if it came before the parent reaped it: the trace
    shows when the reaping wait4 ran); /proc/self/io rchar and wchar
    against --file-io's bytes (reported: rchar and wchar count every vfs
    read and write, pread, readv, sendfile and exec's reads of the binary
    too, --file-io only read(2) and write(2)), and against the returns of
    the tree's read-like and write-like system calls in the trace (wchar
    exactly; rchar bounded: exec's reads);
  tasks alive at A and at B: /proc/TID/schedstat's pcount (switches in),
    /proc/TID/status' voluntary + nonvoluntary switches (switches out),
    against the trace; schedstat's run time against --process-stats
    (reported, not checked: below).
Prints the table; exits 1 when a check fails.

A task's run time: the kernel charges it from the scheduler clock read at
the top of __schedule(), before the next task is picked; the trace from
the process.schedchange event, written once it is picked. So each switch
moves the time in between (picking, and newidle balancing when the CPU
goes idle) from one task to the next, or to no one. On hardware that is
a microsecond or two; under TCG, where the guest runs some 50 times
slower than the TSC it reads and the host preempts the virtual CPUs, it
was 20 to 300 us a switch: kernel threads that run for a few hundred
microseconds between switches differ by 5 to 40 %, either way. Over the
workload's tree, hundreds of tasks and thousands of switches, the shifts
cancel out: its total is checked to 1 % (0.15 % measured).
"""
import bisect
import json
import os
import re
import subprocess
import sys
from collections import defaultdict

MARKS = ["A0", "A1", "A2", "B0", "B1", "B2"]
# regions between marks: 0 before A0 ... 3 the workload (A2..B0) ... 6 after B2
TASK_MIN, TASK_MAX = (3,), (2, 3, 4)          # counters read in A1..A2 and B0..B1
MACH_MIN, MACH_MAX = (2, 3, 4), (1, 2, 3, 4, 5)  # read in A0..A1 and B1..B2
TIME_TOL = 0.01
LOCAL_TIMER = 236  # the vector the dump shows for local_timer_entry

fails = 0


def report(ok, what, kernel, trace, note=""):
    global fails
    if ok is False:
        fails += 1
    verdict = {True: "ok", False: "MISMATCH", None: "info"}[ok]
    print(f"{verdict:8} {what:44} kernel {kernel!s:>14}  trace {trace!s:>22}  {note}")


def run(lttv, *args):
    r = subprocess.run([lttv, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True, errors="replace")
    if r.returncode not in (0, 3):
        sys.exit(f"books-compare: {lttv} {' '.join(args)}: exit {r.returncode}: {r.stderr[-500:]}")
    return r.stdout


def pid_rows(text, header):
    """the rows of a table of lttv-text's that start with a pid, after the
    line that starts with header: [pid, the other columns...]"""
    sect = False
    for line in text.splitlines():
        if line.startswith(header):
            sect = True
        elif sect and line.strip() == "":
            return
        elif sect and line.split() and line.split()[0].isdigit():
            p = line.split()
            yield [int(p[0])] + p[1:]


EV = re.compile(r"^(\S+): (\d+\.\d+) \(\S+\) cpu (\d+) \{ (.*) \}$")


def fields(s):
    out = {}
    for part in re.finditer(r'(\w+) = ("(?:[^"\\]|\\.)*"|[^,]+)', s):
        out[part.group(1)] = part.group(2).strip()
    return out


def tstr(t):
    return f"{t[0]}.{t[1]:09d}"


# x86_64 system calls whose returns the kernel adds to rchar and wchar
# (vfs_read, vfs_readv, do_sendfile, vfs_copy_file_range, vfs_write, ...)
READS = {0, 17, 19, 295, 327, 40, 326}
WRITES = {1, 18, 20, 296, 328, 40, 326}
# what rchar counts that no system call returns: an exec reads the
# binary's first 256 bytes (prepare_binprm), its program headers and its
# interpreter's (kernel_read, a few hundred bytes each), a script's
# interpreter again; 4 KiB an exec is a generous bound
EXEC_READ_MAX = 4096
SC = re.compile(r"^kernel_arch\.syscall_(entry|exit): (\d+)\.(\d+) \(\S+\) cpu \d+ pid (\d+) .*\{ (?:syscall_id = (\d+)|ret = (-?\d+))")
WAIT4 = 61


def syscall_pass(lttv, trace, marks, tree):
    """the tree's system calls between A2 and B0: the returns of its
    read-like and write-like ones, its execs, and for each child reaped by
    wait4 the times of that wait4's entry and exit"""
    cur = {}
    r = w = execs = 0
    reaped = {}
    p = subprocess.Popen([lttv, "-t", trace, "-n", "-s", "-e", "kernel_arch.syscall_entry",
                          "-e", "kernel_arch.syscall_exit", "--begin", tstr(marks["A2"]),
                          "--end", tstr(marks["B0"])], stdout=subprocess.PIPE, text=True,
                         errors="replace")
    for line in p.stdout:
        m = SC.match(line)
        if not m or int(m.group(4)) not in tree:
            continue
        pid, t = int(m.group(4)), (int(m.group(2)), int(m.group(3)))
        if m.group(1) == "entry":
            cur[pid] = (int(m.group(5)), t)
            if cur[pid][0] == 59:
                execs += 1
            continue
        (sid, t0), ret = cur.pop(pid, (None, None)), int(m.group(6))
        if sid is None or ret <= 0:
            continue
        if sid in READS:
            r += ret
        if sid in WRITES:
            w += ret
        if sid == WAIT4:
            reaped[ret] = (pid, t0, t)
    p.wait()
    return r, w, execs, reaped


class Trace:
    """one pass over the events that the kernel's counters count: each
    counted per key and per region between the marks"""

    def __init__(self, lttv, path):
        self.lttv, self.path = lttv, path
        self.marks, self.forks, self.exits, self.label, self.last_out = {}, [], [], {}, {}
        self.ins = defaultdict(list)  # switch-in times per pid, in order
        self.cnt = defaultdict(lambda: [0] * (len(MARKS) + 1))
        evs = []
        dump = subprocess.Popen([lttv, "-t", path, "-n", "-e", "user_generic.string", "-e", "process.fork",
                                 "-e", "process.schedchange", "-e", "process.exit", "-e", "kernel.irq_entry",
                                 "-e", "kernel.soft_irq_entry"], stdout=subprocess.PIPE, text=True,
                                errors="replace")
        for line in dump.stdout:
            m = EV.match(line.rstrip("\n"))
            if not m:
                continue
            name, cpu, f = m.group(1), int(m.group(3)), fields(m.group(4))
            sec, ns = m.group(2).split(".")
            t = (int(sec), int(ns))
            mk = re.match(r'"books (\w\d)\\n"', f.get("data", "")) if name == "user_generic.string" else None
            if mk:
                self.marks[mk.group(1)] = t
            elif name != "user_generic.string":
                evs.append((t, name, cpu, f))
        if dump.wait() not in (0, 3):
            sys.exit("books-compare: the trace's dump failed")
        missing = [k for k in MARKS if k not in self.marks]
        if missing:
            sys.exit(f"books-compare: the trace lacks the marks {missing}")
        bounds = [self.marks[k] for k in MARKS]
        for t, name, cpu, f in evs:
            r = bisect.bisect_right(bounds, t)
            if name == "process.schedchange":
                self.cnt["ctxt"][r] += 1
                self.cnt[("out", int(f["out"]))][r] += 1
                self.last_out[int(f["out"])] = t
                self.ins[int(f["in"])].append(t)
                self.cnt[("in", int(f["in"]))][r] += 1
            elif name == "process.fork":
                self.cnt["processes"][r] += 1
                self.forks.append((t, int(f["parent_pid"]), int(f["child_pid"])))
            elif name == "process.exit":
                self.exits.append((t, int(f["pid"])))
            elif name == "kernel.irq_entry":
                p = f["irq_id"].split(None, 1)
                self.cnt[("irq", int(p[0]), cpu)][r] += 1
                if len(p) == 2:
                    # the line's name in --irqs: the label the dump prints
                    self.label[int(p[0])] = p[1].strip("[]")
            elif name == "kernel.soft_irq_entry":
                self.cnt[("softirq", f["softirq_id"], cpu)][r] += 1

    def span(self, key, regions):
        c = self.cnt.get(key)
        return sum(c[i] for i in regions) if c else 0

    def within(self, kernel, key, lo, hi):
        """does the kernel's count lie between the trace's over the
        narrowest and the widest interval? and those, as a string"""
        a, b = self.span(key, lo), self.span(key, hi)
        return a <= kernel <= b, (f"{a}" if a == b else f"{a}..{b}")

    def tool(self, *args, between):
        """lttv-text's tables (-q) between two marks"""
        a, b = between
        return run(self.lttv, "-q", "-t", self.path, *args, "--begin", tstr(self.marks[a]),
                   "--end", tstr(self.marks[b]))

    def cpu_times(self, between):
        """--process-stats' total CPU time per pid"""
        rows = {}
        for p in pid_rows(self.tool("--process-stats", between=between), "CPU time per process"):
            rows[p[0]] = rows.get(p[0], 0.0) + float(p[-1])
        return rows


def proc_table(text):
    """/proc/interrupts or /proc/softirqs: {name: ([count per CPU], description)}"""
    lines = text.splitlines()
    ncpu = len(lines[0].split())
    rows = {}
    for line in lines[1:]:
        name, _, rest = line.partition(":")
        p = rest.split()
        vals = []
        for x in p[:ncpu]:
            if not x.isdigit():
                break
            vals.append(int(x))
        rows[name.strip()] = (vals, " ".join(p[len(vals):]))
    return ncpu, rows


def stat_value(text, key):
    for line in text.splitlines():
        p = line.split()
        if p and p[0] == key:
            return int(p[1])
    return None


def check_machine(tr, books):
    A, B = books["A_machine"], books["B_machine"]
    for key in ("ctxt", "processes"):
        d = stat_value(B["stat"], key) - stat_value(A["stat"], key)
        ok, t = tr.within(d, key, MACH_MIN, MACH_MAX)
        report(ok, f"/proc/stat {key}", d, t)
    # per line and CPU against the events
    ncpu, ia = proc_table(A["interrupts"])
    _, ib = proc_table(B["interrupts"])
    line_total = {}
    for name, (vals, desc) in sorted(ib.items()):
        if name not in ia or len(vals) != ncpu:
            continue
        irq = LOCAL_TIMER if name == "LOC" else (int(name) if name.isdigit() else None)
        for c in range(ncpu):
            d = vals[c] - ia[name][0][c]
            if irq is None:
                if d:
                    report(None, f"/proc/interrupts {name} cpu {c}", d, "-", f"not traced ({desc})")
                continue
            ok, t = tr.within(d, ("irq", irq, c), MACH_MIN, MACH_MAX)
            if d or tr.span(("irq", irq, c), MACH_MAX):
                report(ok, f"/proc/interrupts {name} cpu {c}", d, t, desc)
        if irq is not None:
            line_total[irq] = (name, sum(vals[c] - ia[name][0][c] for c in range(ncpu)))
    _, sa = proc_table(A["softirqs"])
    _, sb = proc_table(B["softirqs"])
    soft_total = {}
    for name, (vals, _) in sb.items():
        for c in range(len(vals)):
            d = vals[c] - sa[name][0][c]
            soft_total[name] = soft_total.get(name, 0) + d
            ok, t = tr.within(d, ("softirq", name, c), MACH_MIN, MACH_MAX)
            if d or tr.span(("softirq", name, c), MACH_MAX):
                report(ok, f"/proc/softirqs {name} cpu {c}", d, t)

    # our analysis, --irqs, over the narrowest and the widest interval
    def irqs(between):
        tables, cur = ({}, {}), None
        for line in tr.tool("--irqs", "--worst", "0", between=between).splitlines():
            if line.startswith("== IRQ"):
                cur = tables[0]
            elif line.startswith("== softirq"):
                cur = tables[1]
            elif cur is not None and line and not line.startswith(("line ", "vector ", "--", " ")):
                p = line.split()
                cur[p[0]] = int(p[1])
        return tables

    lo_l, lo_s = irqs(("A1", "B1"))
    hi_l, hi_s = irqs(("A0", "B2"))
    for irq, (name, d) in sorted(line_total.items()):
        lab = tr.label.get(irq)
        if lab is None:
            if d:
                report(False, f"--irqs line {name}", d, "absent", "no kernel.irq_entry for it")
            continue
        a, b = lo_l.get(lab, 0), hi_l.get(lab, 0)
        report(a <= d <= b, f"--irqs {lab} (line {name}, all CPUs)", d, f"{a}" if a == b else f"{a}..{b}")
    for name, d in sorted(soft_total.items()):
        a, b = lo_s.get(name, 0), hi_s.get(name, 0)
        if d or b:
            report(a <= d <= b, f"--irqs softirq {name} (all CPUs)", d, f"{a}" if a == b else f"{a}..{b}")


def check_tree(tr, books):
    """the workload's tree, all reaped before B0: [A2, B0] exactly"""
    tree = {books["child"]}
    for t, parent, kid in sorted(tr.forks):
        if parent in tree:
            tree.add(kid)
    nexit = sum(1 for t, pid in tr.exits if pid in tree)
    ps = tr.cpu_times(("A2", "B0"))
    ru = books["rusage"]
    k_cpu = (ru["utime_us"] + ru["stime_us"]) / 1e6
    t_cpu = sum(v for pid, v in ps.items() if pid in tree)
    report(abs(k_cpu - t_cpu) <= TIME_TOL * k_cpu, f"tree CPU time ({len(tree)} tasks), s",
           f"{k_cpu:.6f}", f"{t_cpu:.6f}", f"{100 * (t_cpu - k_cpu) / k_cpu:+.3f} %")
    # the viewer's Statistics tab over the same range
    gtk = os.path.join(os.path.dirname(tr.lttv), "lttv-gtk")
    if os.access(gtk, os.X_OK):
        text = run(gtk, "-t", tr.path, "--stats", f"--range={tstr(tr.marks['A2'])}..{tstr(tr.marks['B0'])}")
        g_cpu = sum(float(p[-1]) for p in pid_rows(text, "CPU time per process") if p[0] in tree)
        report(abs(k_cpu - g_cpu) <= TIME_TOL * k_cpu, "tree CPU time, lttv-gtk --stats, s",
               f"{k_cpu:.6f}", f"{g_cpu:.6f}", f"{100 * (g_cpu - k_cpu) / k_cpu:+.3f} %")
    else:
        report(None, "tree CPU time, lttv-gtk --stats", "-", "-", f"no {gtk}")

    def io(text):
        return {k: int(v) for k, _, v in (line.partition(": ") for line in text.splitlines())}

    ia, ib = io(books["io_a"]), io(books["io_b"])
    # books.py read io_a (rchar) and nothing else of its own until io_b
    k_r = ib["rchar"] - ia["rchar"] - len(books["io_a"])
    k_w = ib["wchar"] - ia["wchar"]
    t_r = t_w = 0
    for p in pid_rows(tr.tool("--file-io", "--worst", "0", between=("A2", "B0")), "== file I/O by process"):
        if p[0] in tree:
            t_r += int(p[-3])
            t_w += int(p[-1])
    report(None, "tree bytes read (rchar; --file-io read(2))", k_r, t_r, f"{t_r - k_r:+d}")
    report(None, "tree bytes written (wchar; --file-io write(2))", k_w, t_w, f"{t_w - k_w:+d}")
    # every system call that the kernel's rchar and wchar count
    sc_r, sc_w, execs, reaped = syscall_pass(tr.lttv, tr.path, tr.marks, tree)
    report(sc_w == k_w, "tree wchar: write-like syscalls' returns", k_w, sc_w,
           "write pwrite64 writev pwritev pwritev2 sendfile copy_file_range")
    report(sc_r <= k_r <= sc_r + EXEC_READ_MAX * execs, "tree rchar: read-like syscalls' returns", k_r, sc_r,
           f"{k_r - sc_r} bytes read by the kernel itself for {execs} execs (binary, interpreter)")

    # A dead task's last switch (from exit to the next task) is in its
    # nvcsw only if it came before its parent reaped it and added its
    # counters up, which the parent did in its wait4, running: after both
    # the wait4's entry and the parent's last switch in before its exit.
    # Surely counted if before that, surely not if after the wait4
    # returned, maybe in between.
    n_out = sum(tr.span(("out", pid), TASK_MIN) for pid in tree)
    late = maybe = 0
    for pid in tree:
        if pid in reaped and pid in tr.last_out:
            parent, t0, t1 = reaped[pid]
            ins = tr.ins.get(parent, [])
            k = bisect.bisect_left(ins, t1)
            start = max(t0, ins[k - 1]) if k else t0
            if tr.last_out[pid] > t1:
                late += 1
            elif tr.last_out[pid] >= start:
                maybe += 1
    k_sw = ru["nvcsw"] + ru["nivcsw"]
    lo, hi = n_out - late - maybe, n_out - late
    report(lo <= k_sw <= hi, "tree switches out (wait4 nvcsw+nivcsw)", k_sw,
           f"{lo}" if lo == hi else f"{lo}..{hi}",
           f"{nexit} exits; {late} last switches after the reaping, {maybe} during it")
    return tree


def check_tasks(tr, books):
    """every task alive at A and at B (the same starttime), but books.py"""
    lo_ps, hi_ps = tr.cpu_times(("A2", "B0")), tr.cpu_times(("A1", "B1"))
    ta, tb = books["A_tasks"], books["B_tasks"]
    n = 0
    for tid, b in sorted(tb.items(), key=lambda kv: int(kv[0])):
        a, pid = ta.get(tid), int(tid)
        if a is None or pid == books["self"]:
            continue
        if a["stat"].rsplit(")", 1)[1].split()[19] != b["stat"].rsplit(")", 1)[1].split()[19]:
            continue
        n += 1
        name = b.get("Name", "?")
        sa, sb = ([int(x) for x in v["schedstat"].split()] for v in (a, b))
        d_run, d_pc = (sb[0] - sa[0]) / 1e9, sb[2] - sa[2]
        d_sw = sum(int(b[k]) - int(a[k]) for k in ("voluntary_ctxt_switches", "nonvoluntary_ctxt_switches"))
        if not (d_run or d_pc or d_sw or tr.span(("out", pid), TASK_MAX)):
            continue
        ok, t = tr.within(d_sw, ("out", pid), TASK_MIN, TASK_MAX)
        report(ok, f"task {pid} {name}: switches out", d_sw, t)
        ok, t = tr.within(d_pc, ("in", pid), TASK_MIN, TASK_MAX)
        report(ok, f"task {pid} {name}: switches in (pcount)", d_pc, t)
        # reported, not checked: see "a task's run time" above
        lo, hi = lo_ps.get(pid, 0.0), hi_ps.get(pid, 0.0)
        off = 0.0 if lo <= d_run <= hi else (d_run - lo if d_run < lo else d_run - hi)
        switches = tr.span(("out", pid), TASK_MIN) + tr.span(("in", pid), TASK_MIN)
        report(None, f"task {pid} {name}: run time, s", f"{d_run:.6f}", f"{lo:.6f}..{hi:.6f}",
               f"{off * 1e6 / max(switches, 1):+.1f} us a switch" if off else "")
    return n


def main():
    usage = "usage: books-compare.py OUT_DIR [LTTV_TEXT] | --books FILE --trace DIR [LTTV_TEXT]"
    args = sys.argv[1:]
    if args[:1] == ["--books"] and len(args) in (4, 5) and args[2] == "--trace":
        books_path, trace_path, rest = args[1], args[3], args[4:]
    elif len(args) in (1, 2) and not args[0].startswith("-"):
        books_path = os.path.join(args[0], "books.json")
        trace_path, rest = os.path.join(args[0], "field"), args[1:]
    else:
        sys.exit(usage)
    try:
        with open(books_path) as f:
            books = json.load(f)
    except (OSError, ValueError) as e:
        sys.exit(f"books-compare: {books_path}: {e}")
    if not os.path.isdir(trace_path):
        sys.exit(f"books-compare: {trace_path}: no trace there")
    tr = Trace(rest[0] if rest else "lttv-text", trace_path)
    print(f"# {trace_path}: workload {books['seconds']:.1f} s, exit status {books['status']}; "
          f"marks A0 {tstr(tr.marks['A0'])} .. B2 {tstr(tr.marks['B2'])}")
    # the trace's clock: books.py's CLOCK_MONOTONIC from just after A2 to
    # just before B0, against the trace's A2..B0
    t_span = (tr.marks["B0"][0] - tr.marks["A2"][0]) + (tr.marks["B0"][1] - tr.marks["A2"][1]) / 1e9
    report(abs(t_span - books["seconds"]) <= TIME_TOL * books["seconds"],
           "the trace's clock: A2..B0 against CLOCK_MONOTONIC, s", f"{books['seconds']:.6f}",
           f"{t_span:.6f}", f"{100 * (t_span - books['seconds']) / books['seconds']:+.3f} %")
    check_machine(tr, books)
    tree = check_tree(tr, books)
    n = check_tasks(tr, books)
    print(f"# {n} tasks alive at A and B; {len(tree)} tasks in the workload's tree; "
          f"{fails} mismatches")
    sys.exit(1 if fails else 0)


if __name__ == "__main__":
    main()
