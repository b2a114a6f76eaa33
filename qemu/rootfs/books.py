#!/usr/bin/env python3
"""qemu/rootfs/books.py OUT_DIR -- COMMAND... (in the field guest): the
kernel's own books around one run of COMMAND, for qemu/rootfs/books-compare.py.

Snapshot A, COMMAND as a child, wait4 (the rusage of the child's whole
tree, reaped), snapshot B; each snapshot is bracketed by user events
written to /proc/ltt_user_generic ("books A0" ...), so that the host
knows which part of the trace each number covers:

  A0  /proc/interrupts, /proc/softirqs, /proc/stat  A1  every task's
  stat, status, schedstat, io  A2  our own /proc/self/io;  COMMAND;
  our own /proc/self/io  B0  every task  B1  interrupts, softirqs, stat  B2

Writes OUT_DIR/books.json; exits with COMMAND's status.
"""
import json
import os
import sys
import time

DOOR = "/proc/ltt_user_generic"


def read(path):
    try:
        with open(path, "rb") as f:
            return f.read().decode("latin-1")
    except OSError:
        return None


def tasks():
    """every task (thread) of every process: the kernel's counters"""
    out = {}
    for p in os.listdir("/proc"):
        if not p.isdigit():
            continue
        io = read(f"/proc/{p}/io")
        try:
            tids = os.listdir(f"/proc/{p}/task")
        except OSError:
            continue
        for t in tids:
            base = f"/proc/{p}/task/{t}"
            stat, status, sched = read(base + "/stat"), read(base + "/status"), read(base + "/schedstat")
            if stat is None or status is None or sched is None:
                continue
            rec = {"tgid": int(p), "stat": stat, "schedstat": sched}
            for line in status.splitlines():
                k, _, v = line.partition(":")
                if k in ("voluntary_ctxt_switches", "nonvoluntary_ctxt_switches", "Name"):
                    rec[k] = v.strip()
            if t == p and io is not None:
                rec["io"] = io
            out[t] = rec
    return out


def main():
    if len(sys.argv) < 4 or sys.argv[2] != "--":
        sys.exit("usage: books.py OUT_DIR -- COMMAND...")
    out_dir, cmd = sys.argv[1], sys.argv[3:]
    door = os.open(DOOR, os.O_WRONLY)

    def mark(name):
        os.write(door, f"books {name}\n".encode())

    def machine():
        return {"interrupts": read("/proc/interrupts"), "softirqs": read("/proc/softirqs"),
                "stat": read("/proc/stat")}

    books = {"self": os.getpid()}
    mark("A0")
    books["A_machine"] = machine()
    mark("A1")
    books["A_tasks"] = tasks()
    mark("A2")
    io_a = read("/proc/self/io")
    # nothing of ours between here and io_b but the fork and wait4
    t0 = time.monotonic()
    pid = os.fork()
    if pid == 0:
        try:
            os.execvp(cmd[0], cmd)
        finally:
            os._exit(127)
    _, status, ru = os.wait4(pid, 0)
    io_b = read("/proc/self/io")
    t1 = time.monotonic()
    mark("B0")
    books["B_tasks"] = tasks()
    mark("B1")
    books["B_machine"] = machine()
    mark("B2")
    books.update({
        "child": pid, "status": status, "seconds": t1 - t0,
        "io_a": io_a, "io_b": io_b,
        # the reaped tree: the kernel's signal->c* sums, exact to 1 us
        "rusage": {"utime_us": round(ru.ru_utime * 1e6), "stime_us": round(ru.ru_stime * 1e6),
                   "nvcsw": ru.ru_nvcsw, "nivcsw": ru.ru_nivcsw,
                   "minflt": ru.ru_minflt, "majflt": ru.ru_majflt},
    })
    with open(os.path.join(out_dir, "books.json"), "w") as f:
        json.dump(books, f)
    sys.exit(os.waitstatus_to_exitcode(status) if status else 0)


if __name__ == "__main__":
    main()
