#!/usr/bin/env python3
"""Write a small CTF 1.8 trace in LTTng's shape, written apart from the
library (tests/t59-lttng-crafted.sh):

    lttng-craft.py OUT_DIR CASE

CASE "good": what the bundled user-space trace lacks: a kernel-style
compact event header (5-bit id, 27-bit timestamp that wraps, the extended
form for ids past 30 and for long gaps), bit fields at odd positions,
signed ones, a variant, a big-endian stream of its own, two packets with
a gap in packet_seq_num, discarded events, a clock with an offset and a
frequency other than 1 GHz. babeltrace2 reads it as the reference.
Every other case is "good" with one lie: lttv-text must refuse it with
the file and the offset, never crash or hang.
"""
import os
import struct
import sys

META = '''/* CTF 1.8 */
typealias integer { size = 8; align = 8; signed = false; } := uint8_t;
typealias integer { size = 16; align = 8; signed = false; } := uint16_t;
typealias integer { size = 32; align = 8; signed = false; } := uint32_t;
typealias integer { size = 64; align = 8; signed = false; } := uint64_t;
typealias integer { size = 5; align = 1; signed = false; } := uint5_t;

trace {
	major = 1;
	minor = 8;
	byte_order = %(order)s;
	packet.header := struct {
		uint32_t magic;
		uint32_t stream_id;
	};
};

env { domain = "kernel"; tracer_name = "lttng-modules"; };

clock {
	name = "monotonic";
	freq = 500000000;
	offset_s = 1000;
	offset = 7;
};

typealias integer { size = 27; align = 1; signed = false; map = clock.monotonic.value; } := uint27_clock_monotonic_t;
typealias integer { size = 64; align = 8; signed = false; map = clock.monotonic.value; } := uint64_clock_monotonic_t;

struct packet_context {
	uint64_clock_monotonic_t timestamp_begin;
	uint64_clock_monotonic_t timestamp_end;
	uint64_t content_size;
	uint64_t packet_size;
	uint64_t packet_seq_num;
	uint64_t events_discarded;
	uint32_t cpu_id;
};

struct event_header_compact {
	enum : uint5_t { compact = 0 ... 30, extended = 31 } id;
	variant <id> {
		struct { uint27_clock_monotonic_t timestamp; } compact;
		struct { uint32_t id; uint64_clock_monotonic_t timestamp; } extended;
	} v;
} align(8);

stream {
	id = 0;
	event.header := struct event_header_compact;
	packet.context := struct packet_context;
};

event {
	name = "sched_switch";
	id = 0;
	stream_id = 0;
	fields := struct {
		integer { size = 8; align = 8; signed = 1; encoding = UTF8; base = 10; } _prev_comm[16];
		integer { size = 32; align = 8; signed = 1; base = 10; } _prev_tid;
		integer { size = 3; align = 1; signed = 1; } _bits3;
		integer { size = 13; align = 1; signed = 0; } _bits13;
		integer { size = 64; align = 8; signed = 1; base = 16; } _prev_state;
	};
};

event {
	name = "tagged";
	id = 40;
	stream_id = 0;
	fields := struct {
		enum : uint8_t { NUM = 0, TEXT = 1 ... 3 } _tag;
		variant <_tag> {
			uint16_t NUM;
			string TEXT;
		} _v;
		uint32_t _n;
		uint16_t _seq[ _n ];
	};
};
'''

MAGIC = 0xC1FC1FC1


class Bits:
    """Bit fields as CTF lays them: little-endian from bit 0 of each byte
    up, or big-endian from its top bit down."""

    def __init__(self, big):
        self.big = big
        self.val = 0         # the bits so far, as one integer (first bit ...)
        self.n = 0

    def align(self, a):
        while self.n % a:
            self.put(0, 1)

    def put(self, v, bits, align=1):
        self.align(align)
        v &= (1 << bits) - 1
        if self.big:
            self.val = (self.val << bits) | v
        else:
            self.val |= v << self.n
        self.n += bits

    def data(self):
        self.align(8)
        nbytes = self.n // 8
        if self.big:
            return self.val.to_bytes(nbytes, 'big')
        return self.val.to_bytes(nbytes, 'little')


def event_bits(b, ev, last):
    """One event: (id, timestamp, fields) -> bits; returns its timestamp."""
    eid, ts, kind, vals = ev
    b.align(8)
    if eid < 31 and ts >= last and ts - last < (1 << 27) and (ts >> 27) - (last >> 27) <= 1:
        b.put(eid, 5)
        b.put(ts & ((1 << 27) - 1), 27)
    else:
        b.put(31, 5)
        b.put(eid, 32, 8)
        b.put(ts, 64, 8)
    if kind == 'switch':
        comm, tid, b3, b13, state = vals
        raw = comm.encode()[:16].ljust(16, b'\0')
        for c in raw:
            b.put(c, 8, 8)
        b.put(tid, 32, 8)
        b.put(b3, 3)
        b.put(b13, 13)
        b.put(state, 64, 8)
    else:
        tag, val, seq, n = vals
        b.put(tag, 8, 8)
        if tag == 0:
            b.put(val, 16, 8)
        elif tag > 3:
            pass                # no option: the reader must stop here
        else:
            for c in val.encode() + b'\0':
                b.put(c, 8, 8)
        b.put(n, 32, 8)
        for x in seq:
            b.put(x, 16, 8)
    return ts


CTX_END = 32 + 32 + 6 * 64 + 32     # bits of the packet header and context


def packet(big, events, seq, discarded, cpu, size=4096, lie=None):
    body = Bits(big)
    body.n = CTX_END            # alignment counts from the packet's start
    first = last = events[0][1] if events else 0
    for ev in events:
        last = event_bits(body, ev, last)
    body.align(8)
    content = body.n
    if lie == 'cut':
        content -= 8            # the last event loses its last byte
    hc = Bits(big)
    hc.put(MAGIC if lie != 'magic' else 0x12345678, 32, 8)
    hc.put(0 if lie != 'stream' else 7, 32, 8)
    hc.put(first, 64, 8)
    hc.put(last, 64, 8)
    hc.put(content if lie != 'content' else size * 8 + 64, 64, 8)
    hc.put(size * 8 if lie != 'size' else 12345, 64, 8)
    hc.put(seq, 64, 8)
    hc.put(discarded, 64, 8)
    hc.put(cpu, 32, 8)
    assert hc.n == CTX_END
    if big:
        total = (hc.val << (body.n - CTX_END)) | body.val
        out = total.to_bytes(body.n // 8, 'big')
    else:
        out = (hc.val | body.val).to_bytes(body.n // 8, 'little')
    return out.ljust(size, b'\0')


def events_for(case):
    t0 = (1 << 27) - 100        # the 27-bit timestamps wrap after 100 ticks
    evs = [
        (0, t0, 'switch', ('swapper/0', 0, -4, 8191, 0x1)),
        (0, t0 + 50, 'switch', ('bash', 1234, 3, 1, -2)),
        (0, t0 + 150, 'switch', ('a-very-long-name-cut', -1, -1, 4096, 1 << 62)),
        (40, t0 + 151, 'tagged', (0, 65535, [1, 2, 3], 3)),
        (40, t0 + 152, 'tagged', (2, 'chosen by a range', [], 0)),
        # a gap longer than 2^27: the extended header
        (0, t0 + (1 << 28), 'switch', ('kworker/0:1', 7, 0, 0, 0)),
    ]
    if case == 'huge_seq':
        evs.append((40, t0 + (1 << 28) + 1, 'tagged', (0, 1, [], 0xFFFFFFF0)))
    if case == 'bad_id':
        evs.append((9, t0 + (1 << 28) + 1, 'switch', ('x', 0, 0, 0, 0)))
    if case == 'bad_tag':
        evs.append((40, t0 + (1 << 28) + 1, 'tagged', (9, 1, [], 0)))

    return evs


def main():
    out, case = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    meta = META
    if case == 'bad_meta_type':
        meta = meta.replace('uint32_t _n;', 'bogus_t _n;')
    if case == 'bad_meta_seq':
        meta = meta.replace('_seq[ _n ]', '_seq[ _nothing ]')
    for order, name in (('le', 'channel0_0'), ('be', None)):
        if name is None:
            continue
        with open(os.path.join(out, 'metadata'), 'w') as f:
            f.write(meta % {'order': order})
        evs = events_for(case)
        lie = case if case in ('magic', 'stream', 'content', 'size', 'cut') else None
        p1 = packet(False, evs[:3], 0, 0, 0)
        p2 = packet(False, evs[3:], 2, 5, 0, lie=lie)
        data = p1 + p2
        if case == 'truncated':
            data = data[:4096 + 1000]
        with open(os.path.join(out, name), 'wb') as f:
            f.write(data)
    # a big-endian trace of its own, in a second folder: a session
    if case == 'good':
        be = os.path.join(os.path.dirname(out.rstrip('/')), 'be')
        os.makedirs(be, exist_ok=True)
        with open(os.path.join(be, 'metadata'), 'w') as f:
            f.write(meta % {'order': 'be'})
        with open(os.path.join(be, 'channel0_1'), 'wb') as f:
            f.write(packet(True, events_for('good')[:3], 0, 0, 1))


if __name__ == '__main__':
    main()
