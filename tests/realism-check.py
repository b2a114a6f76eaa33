#!/usr/bin/env python3
"""Does a trace look like what our kernel writes?  realism-check.py TRACE...

The same rules hold for the traces our kernel recorded (traces/qemu-*) and
for those ltt-tracegen makes up (traces/*-synthetic and every scenario), so
that a synthetic sample cannot drift away from the real thing unseen:

  tracefiles   none is empty: the heartbeat timer writes a core.time_heartbeat
               into every channel of every CPU as soon as the trace starts
               (kernel patch 0003); only a trace without heartbeats
               (has_heartbeat 0) may leave a channel without events empty.
               Every file is whole sub-buffers, each with the magic.
  heartbeats   (has_heartbeat 1) every tracefile has them, and no two
               consecutive events of a tracefile are 2^31 cycles apart or
               more (the 32-bit timestamps could not be rebuilt).
  channels     each event is in the tracefile of the channel its description
               names (channel="..." of the event, else of the facility, else
               cpu), as genevent's writers route them; core.time_heartbeat
               and channel.buffer_stats go into every channel.  Not with
               --any-channel: ltt-tracegen's latency and chain scenarios
               keep a CPU's events in cpu_N, their answers being built on
               events of one CPU at the same time, which the kernel never
               writes and readers order by tracefile.
  facilities   core has a core.facility_load with id 0, the others a
               facility_load or state_dump_facility_load in control/
               facilities_N before their first event, but for the start:
               the kernel sets the trace active and then writes its
               facility table (ltt_trace_start(), patch 0003), so events
               of the facilities in that table (state_dump_facility_load)
               may come after the core.facility_load and before their
               own load (traces/field-workload: an interrupt on the other
               CPU, 0.7 ms before the table was done); each checksum is
               that of the eventdefs/ XML of that name (ltt-checksum),
               each size that of the block header (int 4, long, pointer
               and size_t arch_size, has_alignment), and eventdefs/ holds
               no description that the trace does not load.
  floats       float_word_order is 0 (no floats: the kernel's value) or the
               trace's byte order (1234 little endian), the same in every
               sub-buffer; it must be the byte order if a loaded facility
               has a <float> field (the era's reader asserts it is not 0).
  processes    no pid but 0 (each CPU's idle task) runs on two CPUs at once:
               a schedchange switches out what its CPU runs (once known) and
               switches in no task that another CPU runs; no event names a
               pid before its process.fork; a process.kernel_thread, an
               fs.exec or a process.exit is of a pid that the state dump
               enumerated or that was forked before (not in flight mode,
               whose oldest sub-buffers are overwritten).  Not a
               process.free: a task that died before the state dump is no
               longer enumerated, and its task_struct is freed an RCU
               grace period later, which can be after the dump
               (traces/field-workload: pid 173, lttctl's first child).

Prints one line per broken rule and exits 1 if any; needs lttv-text and
ltt-checksum (LTTV_TEXT, LTT_CHECKSUM, else build/bin/).
"""
import os
import re
import struct
import subprocess
import sys

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.path.join(TOP, os.environ.get("BUILD", "build"), "bin")
TEXT = os.environ.get("LTTV_TEXT", os.path.join(BIN, "lttv-text"))
CHECKSUM = os.environ.get("LTT_CHECKSUM", os.path.join(BIN, "ltt-checksum"))

MAGIC = 0x00D6B7ED
BLOCK_HEADER = 106
LINE = re.compile(r'^([\w]+)\.([\w]+): (\d+) \(([^)]+)\) cpu (\d+)'
                  r'(?: pid (\d+) tgid \d+ "(?:[^"\\]|\\.)*" \S+)?(?: \{ (.*) \})?$')
FIELD = re.compile(r'(\w+) = ("(?:[^"\\]|\\.)*"|[^,]*)(?:, |$)')


def tracefiles(trace):
    for root, dirs, files in os.walk(trace):
        dirs[:] = [d for d in dirs if d != "eventdefs"]
        for f in sorted(files):
            if re.search(r'_\d+$', f):
                yield os.path.relpath(os.path.join(root, f), trace)


def headers(trace, problems):
    """The block header fields of every sub-buffer, checked on the way."""
    info = {}
    for rel in tracefiles(trace):
        path = os.path.join(trace, rel)
        data = open(path, "rb").read()
        if not data:
            info.setdefault("empty", []).append(rel)
            continue
        size = struct.unpack_from("<I", data, 36)[0]
        if size < BLOCK_HEADER or len(data) % size:
            problems.append("%s: %d bytes, not whole sub-buffers of %d" % (rel, len(data), size))
            continue
        for off in range(0, len(data), size):
            magic, _, _, fwo = struct.unpack_from("<IIII", data, off + 40)
            arch_size, _, _, mode, hb, align = struct.unpack_from("<6B", data, off + 56)
            if magic != MAGIC:
                problems.append("%s: sub-buffer at %d: magic 0x%08X" % (rel, off, magic))
                continue
            for k, v in (("float_word_order", fwo), ("arch_size", arch_size), ("mode", mode),
                         ("has_heartbeat", hb), ("has_alignment", align)):
                if info.setdefault(k, v) != v:
                    problems.append("%s: sub-buffer at %d: %s %d, elsewhere %d"
                                    % (rel, off, k, v, info[k]))
        info.setdefault("files", []).append(rel)
    return info


def fields(text):
    return dict((m.group(1), m.group(2).strip('"')) for m in FIELD.finditer(text or ""))


def channels(path):
    """event -> the channel its channel="..." names (the event's, else the
    facility's, else cpu), read from a description."""
    text = re.sub(r'<!--.*?-->', '', open(path).read(), flags=re.S)
    fac = re.search(r'<facility\b[^>]*>', text)
    m = re.search(r'\bchannel="([^"]*)"', fac.group(0)) if fac else None
    default = m.group(1) if m else "cpu"
    out = {}
    for ev in re.finditer(r'<event\b[^>]*>', text):
        name = re.search(r'\bname="([^"]*)"', ev.group(0))
        ch = re.search(r'\bchannel="([^"]*)"', ev.group(0))
        if name:
            out[name.group(1)] = ch.group(1) if ch else default
    return out


def eventdefs(trace):
    """name -> (checksum, has floats, routes) of the descriptions in eventdefs/."""
    d = os.path.join(trace, "eventdefs")
    xml = sorted(os.path.join(d, f) for f in os.listdir(d) if f.endswith(".xml")) \
        if os.path.isdir(d) else []
    out = {}
    if xml:
        res = subprocess.run([CHECKSUM] + xml, capture_output=True, text=True)
        if res.returncode:
            raise SystemExit("ltt-checksum failed: " + res.stderr)
        for line, path in zip(res.stdout.splitlines(), xml):
            name, crc, _ = line.split(" ", 2)
            out[name] = (int(crc, 16), "<float" in open(path).read(), channels(path))
    return out


def check(trace, channels_rule=True):
    problems = []
    info = headers(trace, problems)
    hb, arch = info.get("has_heartbeat", 1), info.get("arch_size", 8)
    # a flight recorder keeps the last sub-buffers only: forks get lost
    flight = info.get("mode", 0) != 0
    for rel in info.get("empty", []):
        if hb:
            problems.append("%s: empty (0 bytes): the heartbeat writes into every "
                            "channel of every CPU" % rel)
    defs = eventdefs(trace)

    res = subprocess.run([TEXT, "-t", trace, "-n", "-s", "--cycles"],
                         capture_output=True, text=True)
    if res.returncode:
        # (events it could not decode are still listed, raw: go on)
        problems.append("lttv-text: exit %d: %s" % (res.returncode,
                                                    res.stderr.strip()[:300]))
        if not res.stdout:
            return problems
    loads = {}			# facility name -> (cycles, fields, event)
    first_use = {}		# facility name -> cycles
    beats = {}			# tracefile -> number of heartbeats
    last = {}			# tracefile -> cycles of its previous event
    running = {}		# cpu -> pid
    known, forked = set([0]), set()
    named = {}			# pid -> first event that named it, before any fork
    floats = False
    wrong = {}			# (facility, event) found in a wrong channel
    for line in res.stdout.splitlines():
        m = LINE.match(line)
        if not m:
            if not res.returncode:
                problems.append("cannot parse: " + line[:100])
            continue
        fac, ev, cyc, tf, cpu, pid, rest = m.groups()
        cyc, f = int(cyc), fields(rest)
        if hb and tf in last and cyc - last[tf] >= 1 << 31:
            problems.append("%s: %d cycles between two events at %d: more than "
                            "a heartbeat period" % (tf, cyc - last[tf], cyc))
        last[tf] = cyc
        if fac == "core" and ev in ("facility_load", "state_dump_facility_load"):
            if not tf.startswith("control/facilities_"):
                problems.append("%s of %s in %s" % (ev, f.get("name"), tf))
            if f.get("name") == "core" and (ev != "facility_load" or f.get("id") != "0"):
                problems.append("core: %s with id %s, the kernel writes a "
                                "facility_load with id 0" % (ev, f.get("id")))
            loads.setdefault(f.get("name"), (cyc, f, ev))
            continue
        if fac == "core" and ev == "time_heartbeat":
            beats[tf] = beats.get(tf, 0) + 1
        elif (fac, ev) != ("channel", "buffer_stats") and fac in defs and channels_rule:
            # the heartbeat timer and the buffers' loss counters write into
            # every channel; any other event into its description's one
            want = defs[fac][2].get(ev, "cpu")
            have = re.sub(r'_\d+$', '', tf.split("/")[-1]).replace("flight-", "")
            if want != have and not wrong.get((fac, ev)):
                wrong[(fac, ev)] = 1
                problems.append("%s.%s in %s: its description sends it to %s"
                                % (fac, ev, tf, want))
        first_use.setdefault(fac, cyc)
        if fac == "statedump" and ev == "enumerate_process_state":
            known.add(int(f["pid"]))
        elif fac == "process" and ev == "fork":
            child = int(f["child_pid"])
            if child in known or child in forked:
                problems.append("pid %d forked at %d but already there" % (child, cyc))
            forked.add(child)
            named.pop(child, None)
        elif fac == "process" and ev == "schedchange":
            out, inn = int(f["out"]), int(f["in"])
            if cpu in running and running[cpu] != out:
                problems.append("cpu %s at %d: schedchange out of %d, it runs %d"
                                % (cpu, cyc, out, running[cpu]))
            if inn:
                for c, p in running.items():
                    if c != cpu and p == inn:
                        problems.append("pid %d switched in on cpu %s at %d while "
                                        "cpu %s runs it" % (inn, cpu, cyc, c))
            running[cpu] = inn
        if fac == "process" or (fac, ev) == ("fs", "exec"):
            who = int(pid) if (fac, ev) == ("fs", "exec") else \
                int(f.get("pid", f.get("in", f.get("parent_pid", 0))))
            if who not in known and who not in forked:
                named.setdefault(who, "%s.%s at %d" % (fac, ev, cyc))
                if ev in ("kernel_thread", "exec", "exit") and not flight:
                    problems.append("pid %d: %s.%s at %d, neither forked before "
                                    "nor in the state dump" % (who, fac, ev, cyc))
    for p, what in sorted(named.items()):
        if p in forked:
            problems.append("pid %d named by %s before its fork" % (p, what))

    for name, (cyc, f, _) in sorted(loads.items()):
        if name not in defs:
            problems.append("facility %s loaded, no eventdefs/ description" % name)
            continue
        if int(f["checksum"]) != defs[name][0]:
            problems.append("facility %s: checksum 0x%08X, eventdefs/ says 0x%08X"
                            % (name, int(f["checksum"]), defs[name][0]))
        want = {"int_size": 4, "long_size": arch, "pointer_size": arch,
                "size_t_size": arch, "has_alignment": info.get("has_alignment", 0)}
        for k, v in want.items():
            if int(f[k]) != v:
                problems.append("facility %s: %s %s, the trace's is %d" % (name, k, f[k], v))
        floats = floats or defs[name][1]
    for name in sorted(set(defs) - set(loads)):
        problems.append("eventdefs/ describes %s, the trace never loads it" % name)
    if "core" not in loads:
        problems.append("no core.facility_load of core")
    for fac, cyc in sorted(first_use.items()):
        if fac == "core":
            continue
        if fac in loads and loads[fac][2] == "state_dump_facility_load" and "core" in loads \
                and loads["core"][0] <= cyc:
            continue  # the start's table, written once the trace is active
        if fac not in loads or loads[fac][0] > cyc:
            problems.append("facility %s used at %d before any load" % (fac, cyc))
    if hb:
        for tf in info.get("files", []):
            if not beats.get(tf):
                problems.append("%s: no core.time_heartbeat" % tf)
    fwo = info.get("float_word_order", 0)
    if fwo not in (0, 1234):
        problems.append("float_word_order %d: 0 or 1234 (little endian)" % fwo)
    elif floats and fwo == 0:
        problems.append("float_word_order 0 with <float> fields loaded: the byte "
                        "order of the floats is 1234")
    return problems


def main():
    args = sys.argv[1:]
    channels_rule = "--any-channel" not in args
    args = [a for a in args if a != "--any-channel"]
    if not args:
        sys.exit(__doc__)
    bad = 0
    for trace in args:
        problems = check(trace, channels_rule)
        for p in problems[:20]:
            print("%s: %s" % (trace, p))
        if len(problems) > 20:
            print("%s: ... %d more" % (trace, len(problems) - 20))
        bad += bool(problems)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
