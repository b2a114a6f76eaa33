#!/usr/bin/env python3
"""split-series.py DEV_TREE - regenerate kernel/patches from a work tree.

DEV_TREE is a git repository of the unpacked linux-source-6.1 whose first
commit is the pristine tree and whose work tree holds the finished port.
The port is cut into the stages below; each stage is committed on a scratch
branch with the shared files (Kconfig, Makefile, headers) trimmed to what
that stage needs, so that every patch applies in order and builds.  The
patch text is the header from kernel/patches/headers/NNNN.txt followed by
the diff of that stage.

Run from the top of the LTT repository.
"""
import os, re, subprocess, sys

DEV = os.path.abspath(sys.argv[1])
TOP = os.getcwd()
OUT = os.path.join(TOP, "kernel/patches")

STAGES = [
    ("0001-ltt-abi-header", ["include/uapi/linux/ltt-abi.h"]),
    ("0002-relayfs", ["fs/relayfs/Kconfig", "fs/relayfs/Makefile",
                    "fs/relayfs/inode.c", "include/linux/relayfs_fs.h",
                    "fs/Kconfig", "fs/Makefile"]),
    ("0003-ltt-core", ["arch/x86/include/asm/ltt.h", "include/linux/ltt-core.h",
                     "include/linux/ltt-facilities.h", "kernel/ltt/Kconfig",
                     "kernel/ltt/Makefile", "kernel/ltt/ltt-core.c",
                     "kernel/ltt/ltt-facilities.c", "kernel/ltt/ltt-heartbeat.c",
                     "kernel/Makefile", "Kconfig"]),
    ("0004-ltt-relay-transport", ["kernel/ltt/ltt-relay.c"]),
    ("0005-ltt-netlink-control", ["kernel/ltt/ltt-control.c"]),
    ("0006-ltt-user-generic", ["kernel/ltt/ltt-user.c"]),
]
# what belongs to a later stage inside shared files
KCONFIG_OF = {"LTT_RELAY": 4, "LTT_NETLINK_CONTROL": 5, "LTT_USERSPACE_GENERIC": 6}
MAKE_OF = {"ltt-relay.o": 4, "ltt-control.o": 5, "ltt-user.o": 6}
DEFINE_OF = {"LTT_FACILITY_USER_GENERIC_CHECKSUM": 6}


def git(*args, **kw):
    return subprocess.run(["git", "-C", DEV] + list(args), check=True,
                          capture_output=True, text=True, **kw).stdout


def trim(path, text, stage):
    if path == "kernel/ltt/Kconfig":
        blocks = re.split(r"(?m)^(?=config |endmenu)", text)
        keep = []
        for b in blocks:
            m = re.match(r"config (\w+)", b)
            if m and KCONFIG_OF.get(m.group(1), 0) > stage:
                continue
            keep.append(b)
        return "".join(keep)
    if path == "kernel/ltt/Makefile":
        return "".join(l for l in text.splitlines(True)
                       if not any(o in l and s > stage for o, s in MAKE_OF.items()))
    if path == "include/linux/ltt-facilities.h":
        return "".join(l for l in text.splitlines(True)
                       if not any(d in l and s > stage for d, s in DEFINE_OF.items()))
    return text


def main():
    base = git("rev-list", "--max-parents=0", "HEAD").split()[0]
    final = {}
    for _, files in STAGES:
        for f in files:
            with open(os.path.join(DEV, f)) as fh:
                final[f] = fh.read()
    scratch = os.path.join(TOP, "build-kernel", "series-scratch")
    subprocess.run(["rm", "-rf", scratch], check=True)
    subprocess.run(["git", "-C", DEV, "worktree", "prune"], check=True)
    git("worktree", "add", "-f", "--detach", scratch, base)
    w = lambda *a: subprocess.run(["git", "-C", scratch] + list(a), check=True,
                                  capture_output=True, text=True).stdout
    done = []
    names = []
    for n, (name, files) in enumerate(STAGES, 1):
        done += files
        for f in done:
            p = os.path.join(scratch, f)
            os.makedirs(os.path.dirname(p), exist_ok=True)
            with open(p, "w") as fh:
                fh.write(trim(f, final[f], n))
        w("add", "-f", "--", *done)
        w("-c", "user.name=LTT", "-c", "user.email=ltt@localhost",
          "commit", "-q", "-m", name)
        diff = w("diff", "--stat=72", "HEAD~1", "HEAD") + "\n" + \
            w("diff", "HEAD~1", "HEAD")
        with open(os.path.join(OUT, "headers", name + ".txt")) as fh:
            header = fh.read()
        with open(os.path.join(OUT, name + ".patch"), "w") as fh:
            fh.write(header.rstrip("\n") + "\n---\n" + diff)
        names.append(name + ".patch")
    # patches made by other means (e.g. 0007, kernel-events-patch.sh) stay
    # in the series, after these
    others = []
    try:
        with open(os.path.join(OUT, "series")) as fh:
            others = [l.strip() for l in fh
                      if l.strip() and not l.startswith("#") and l.strip() not in names]
    except FileNotFoundError:
        pass
    with open(os.path.join(OUT, "series"), "w") as fh:
        fh.write("# Linux Trace Toolkit on Linux 6.1: apply in order with patch -p1\n")
        fh.write("".join(n + "\n" for n in names + others))
    subprocess.run(["git", "-C", DEV, "worktree", "remove", "--force", scratch], check=True)
    print("wrote", len(names), "patches to", OUT)


main()
