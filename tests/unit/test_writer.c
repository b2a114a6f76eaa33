// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_writer - the trace writer (tests/writer/) against docs/format.md.
 *
 * Every check reads the bytes the writer left in the file at the offsets
 * docs/format.md gives, written out here as numbers, in little-endian
 * order (x86_64).  Nothing of libltttrace is used, and the structures of
 * ltt-abi.h are not used to read: a wrong layout there would show here.
 */
#define _XOPEN_SOURCE 700
#include <ftw.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ltt-writer.h"
#include "ltt-writer-bad.h"
#include "tap.h"

static char top[256];

/* ---- reading the file, by hand ------------------------------------------ */

static unsigned char *slurp(const char *dir, const char *name, size_t *len)
{
	char path[1024];
	FILE *f;
	unsigned char *buf;
	long n;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "rb");
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc((size_t)n + 1);
	if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	*len = (size_t)n;
	return buf;
}

static uint64_t le(const unsigned char *b, size_t off, unsigned n)
{
	uint64_t v = 0;

	for (unsigned i = 0; i < n; i++)
		v |= (uint64_t)b[off + i] << (8 * i);
	return v;
}
#define U8(b, o)	le(b, o, 1)
#define U16(b, o)	le(b, o, 2)
#define U32(b, o)	le(b, o, 4)
#define U64(b, o)	le(b, o, 8)

static int all_zero(const unsigned char *b, size_t from, size_t to)
{
	for (size_t i = from; i < to; i++)
		if (b[i])
			return 0;
	return 1;
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	return remove(path);
}

static lttw_trace *make(const char *name, lttw_config *c)
{
	char dir[512];

	snprintf(dir, sizeof(dir), "%s/%s", top, name);
	return lttw_trace_create(dir, c);
}

static unsigned char *load(const char *name, const char *file, size_t *len)
{
	char dir[512];

	snprintf(dir, sizeof(dir), "%s/%s", top, name);
	return slurp(dir, file, len);
}

/* ---- the block header ---------------------------------------------------- */

static void test_block_header(void)
{
	lttw_config c;
	lttw_trace *t;
	lttw_file *f;
	unsigned char *b;
	size_t len;

	lttw_config_default(&c);
	c.subbuf_size = 256;
	c.start_tsc = 0x1122334455667788ull;
	c.start_freq = 2400000;
	c.freq_scale = 1000;
	c.start_monotonic = 777;
	c.start_time_sec = 1159000000;
	c.start_time_usec = 123456;
	c.mode = LTT_TRACE_MODE_HYBRID;
	t = make("header", &c);
	ok(t != NULL, "trace created");
	f = lttw_file_open(t, "cpu", 3, 0);
	ok(f != NULL, "cpu_3 opened");
	is_int(lttw_event(f, c.start_tsc + 10, 5, 6, "\x01\x02\x03", 3), 0, "event written");
	is_int(lttw_event(f, c.start_tsc + 20, 5, 7, NULL, 0), 0, "second event written");
	is_int(lttw_trace_close(t), 0, "trace closed");

	b = load("header", "cpu_3", &len);
	ok(b != NULL, "cpu_3 exists (channel_cpu naming)");
	if (!b)
		return;
	is_int(len, 256, "one sub-buffer of 256 bytes");
	is_int(U64(b, 0), c.start_tsc + 10, "begin.cycle_count = first event");
	is_int(U64(b, 8), 2400000, "begin.freq");
	is_int(U64(b, 16), c.start_tsc + 20, "end.cycle_count = last event");
	is_int(U64(b, 24), 2400000, "end.freq");
	is_int(U32(b, 36), 256, "buf_size at 36");
	is_int(U32(b, 40), 0x00D6B7ED, "magic at 40");
	ok(b[40] == 0xED && b[43] == 0x00, "magic bytes ED B7 D6 00 (little endian)");
	is_int(U32(b, 44), 8, "arch_type x86_64");
	is_int(U32(b, 48), 0, "arch_variant");
	is_int(U32(b, 52), 0, "float_word_order");
	is_int(U8(b, 56), 8, "arch_size");
	is_int(U8(b, 57), 0, "major version");
	is_int(U8(b, 58), 7, "minor version");
	is_int(U8(b, 59), 2, "flight_recorder = hybrid");
	is_int(U8(b, 60), 1, "has_heartbeat");
	is_int(U8(b, 61), 8, "has_alignment");
	is_int(U32(b, 62), 1000, "freq_scale at 62 (unaligned)");
	is_int(U64(b, 66), 2400000, "start_freq at 66");
	is_int(U64(b, 74), c.start_tsc, "start_tsc at 74");
	is_int(U64(b, 82), 777, "start_monotonic at 82");
	is_int(U64(b, 90), 1159000000, "start_time_sec at 90");
	is_int(U64(b, 98), 123456, "start_time_usec at 98");
	/* 106 -> 112: the 8-byte header aligns to 8 */
	ok(all_zero(b, 106, 112), "padding 106..112 is zero");
	is_int(U32(b, 112), (uint32_t)(c.start_tsc + 10), "timestamp: 32 low bits");
	is_int(U8(b, 116), 5, "facility_id");
	is_int(U8(b, 117), 6, "event_id");
	is_int(U16(b, 118), 3, "event_size");
	ok(b[120] == 1 && b[121] == 2 && b[122] == 3, "payload right after the header");
	/* 123 -> 128 */
	ok(all_zero(b, 123, 128), "padding before the second header");
	is_int(U32(b, 128), (uint32_t)(c.start_tsc + 20), "second timestamp at 128");
	is_int(U16(b, 134), 0, "empty payload");
	is_int(U32(b, 32), 256 - 136, "lost_size = unused tail");
	ok(all_zero(b, 136, 256), "unused tail is zero");
	free(b);
}

/* ---- event header placement for each alignment and header kind --------- */

struct layout_case {
	unsigned hb, align;
	size_t hdr, payload;		/* expected offsets */
};

static void test_layouts(void)
{
	static const struct layout_case cases[] = {
		{ 1, 8, 112, 120 },	/* 106 -> 112; 8-byte header */
		{ 1, 4, 108, 116 },	/* 106 -> 108 */
		{ 1, 0, 106, 114 },	/* packed */
		{ 0, 8, 112, 128 },	/* 12-byte header aligns to 8; 124 -> 128 */
		{ 0, 4, 108, 120 },
		{ 0, 0, 106, 118 },
	};

	for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct layout_case *k = &cases[i];
		char name[64];
		lttw_config c;
		lttw_trace *t;
		lttw_file *f;
		lttw_payload p;
		unsigned char *b;
		size_t len, o;

		lttw_config_default(&c);
		c.has_heartbeat = k->hb;
		c.alignment = k->align;
		c.subbuf_size = 512;
		snprintf(name, sizeof(name), "layout-%u-%u", k->hb, k->align);
		t = make(name, &c);
		f = lttw_file_open(t, "cpu", 0, 0);
		lttw_payload_init(&p, t);
		lttw_put_uint_n(&p, 0xAA, 1);
		lttw_put_uint_n(&p, 0x0102030405060708ull, 8);
		lttw_put_uint_n(&p, 0xBBCC, 2);
		lttw_put_string(&p, "hi");
		lttw_put_uint_n(&p, 0xDDEEFF11, 4);
		lttw_event(f, c.start_tsc + 0x100000001ull, 9, 1, p.buf, p.len);
		lttw_payload_free(&p);
		lttw_trace_close(t);
		b = load(name, "cpu_0", &len);
		if (!ok(b != NULL, "%s: file", name))
			continue;
		o = k->hdr;
		if (k->hb) {
			is_int(U32(b, o), (uint32_t)(c.start_tsc + 0x100000001ull),
			       "%s: 32-bit timestamp at %zu", name, o);
			is_int(U8(b, o + 4), 9, "%s: facility id at +4", name);
			is_int(U8(b, o + 5), 1, "%s: event id at +5", name);
		} else {
			is_int(U64(b, o), c.start_tsc + 0x100000001ull,
			       "%s: 64-bit timestamp at %zu", name, o);
			is_int(U8(b, o + 8), 9, "%s: facility id at +8", name);
			is_int(U8(b, o + 9), 1, "%s: event id at +9", name);
		}
		o = k->payload;
		is_int(U8(b, o), 0xAA, "%s: payload starts at %zu", name, o);
		if (k->align == 0) {
			/* 1 + 8 + 2 + 3 + 4 = 18 bytes, packed */
			is_int(U64(b, o + 1), 0x0102030405060708ull, "%s: u64 packed at +1", name);
			is_int(U16(b, o + 9), 0xBBCC, "%s: u16 at +9", name);
			ok(!memcmp(b + o + 11, "hi", 3), "%s: string at +11", name);
			is_int(U32(b, o + 14), 0xDDEEFF11, "%s: u32 at +14", name);
			is_int(U16(b, k->hdr + (k->hb ? 6 : 10)), 18, "%s: event_size 18", name);
		} else if (k->align == 4) {
			/* u64 aligns to min(8, 4) = 4 */
			is_int(U64(b, o + 4), 0x0102030405060708ull, "%s: u64 at +4", name);
			is_int(U16(b, o + 12), 0xBBCC, "%s: u16 at +12", name);
			ok(!memcmp(b + o + 14, "hi", 3), "%s: string at +14", name);
			is_int(U32(b, o + 20), 0xDDEEFF11, "%s: u32 at +20 (17 -> 20)", name);
			is_int(U16(b, k->hdr + (k->hb ? 6 : 10)), 24, "%s: event_size 24", name);
		} else {
			is_int(U64(b, o + 8), 0x0102030405060708ull, "%s: u64 at +8", name);
			ok(all_zero(b, o + 1, o + 8), "%s: padding is zero", name);
			is_int(U16(b, o + 16), 0xBBCC, "%s: u16 at +16", name);
			ok(!memcmp(b + o + 18, "hi", 3), "%s: string at +18", name);
			is_int(U32(b, o + 24), 0xDDEEFF11, "%s: u32 at +24 (21 -> 24)", name);
			is_int(U16(b, k->hdr + (k->hb ? 6 : 10)), 28, "%s: event_size 28", name);
		}
		free(b);
	}
}

/* ---- payload rules without a file --------------------------------------- */

static void test_payload(void)
{
	lttw_payload p;

	lttw_payload_init_raw(&p, 8, 8);
	lttw_put_uint_n(&p, 1, 1);
	lttw_put_seq_len(&p, 3, 1, 4);	/* len 1 byte, elements of 4 */
	is_int(p.len, 5, "sequence aligns to max(len, element) = 4, then its length");
	lttw_put_int_n(&p, -1, 4);
	is_int(p.len, 12, "first element aligns to 4 (5 -> 8)");
	lttw_put_float(&p, 1.0, 8);
	is_int(p.len, 24, "double aligns to 8");
	is_int(le(p.buf, 16, 8), 0x3FF0000000000000ull, "1.0 as IEEE 754 double");
	lttw_put_float(&p, 1.0, 4);
	is_int(le(p.buf, 24, 4), 0x3F800000u, "1.0 as IEEE 754 float");
	lttw_payload_reset(&p);
	lttw_put_long(&p, -2);
	lttw_put_pointer(&p, 0xffffffff80000000ull);
	lttw_put_size_t(&p, 5);
	lttw_put_uint(&p, 7);
	is_int(p.len, 28, "long, pointer, size_t of 8 and uint of 4");
	is_int(le(p.buf, 0, 8), (uint64_t)-2, "long -2, sign bits");
	lttw_payload_free(&p);

	lttw_payload_init_raw(&p, 4, 4);
	lttw_put_uint_n(&p, 1, 1);
	lttw_put_long(&p, -2);
	lttw_put_uint_n(&p, 3, 8);
	is_int(p.len, 16, "arch_size 4, A 4: long of 4 at 4, u64 at 8");
	is_int(le(p.buf, 4, 4), 0xFFFFFFFEu, "long -2 on 4 bytes");
	lttw_payload_free(&p);

	lttw_payload_init_raw(&p, 0, 8);
	lttw_put_uint_n(&p, 1, 1);
	lttw_put_seq_len(&p, 2, 4, 8);
	lttw_put_uint_n(&p, 3, 8);
	is_int(p.len, 13, "A = 0: nothing is padded");
	lttw_payload_free(&p);
}

/* ---- sub-buffer switch, 32-bit wraps and heartbeats ---------------------- */

static void test_switch_and_wraps(void)
{
	lttw_config c;
	lttw_trace *t;
	lttw_file *f;
	unsigned char payload[100] = { 0 }, *b;
	size_t len;
	const uint64_t base = (5ull << 32) - 30;

	lttw_config_default(&c);
	c.subbuf_size = 256;
	c.start_tsc = base;
	t = make("switch", &c);
	f = lttw_file_open(t, "cpu", 0, 0);
	/* 112 + 8 + 100 = 220; the next needs 224 + 108 > 256: switch */
	is_int(lttw_event(f, base, 2, 0, payload, 100), 0, "first event");
	is_int(lttw_file_room(f), 256 - 224 - 8, "room for the next payload");
	is_int(lttw_event(f, base + 40, 2, 1, payload, 100), 0, "second event, past 2^32 * 5");
	/* 3.5e9 cycles later: more than 2^31, a heartbeat must come first */
	is_int(lttw_event(f, base + 40 + 3500000000ull, 2, 2, payload, 10), 0,
	       "third event, 3.5e9 cycles later");
	is_int(lttw_event(f, base + 40 + 3500000000ull, 2, 3, payload, 10), 0,
	       "same cycle count is allowed");
	is_int(lttw_event(f, base, 2, 3, payload, 10), -1, "going back in time is refused");
	is_int(lttw_event(f, base + (1ull << 40), 2, 3, payload, 300), -1,
	       "an event larger than a sub-buffer is refused");
	is_int(lttw_file_events_lost(f), 1, "... and counted as lost");
	lttw_trace_close(t);

	b = load("switch", "cpu_0", &len);
	if (!ok(b != NULL, "switch: file"))
		return;
	is_int(len, 768, "three sub-buffers, none for the refused events");
	is_int(U32(b, 32), 256 - 220, "first sub-buffer: lost_size 36");
	is_int(U64(b, 16), base, "first sub-buffer ends at its last event");
	is_int(U32(b, 112), 0xFFFFFFE2u, "first timestamp 0xFFFFFFE2, just before a wrap");
	is_int(U64(b, 256), base + 40, "second sub-buffer begins at its first event");
	is_int(U32(b, 256 + 112), 10, "second timestamp wrapped to 10");
	/* then a heartbeat at +2^31 - 1: fac 0, event 2, size 0 */
	is_int(U32(b, 256 + 224), (uint32_t)(base + 40 + (1ull << 31) - 1),
	       "heartbeat timestamp");
	is_int(U8(b, 256 + 228), 0, "heartbeat: core");
	is_int(U8(b, 256 + 229), 2, "heartbeat: time_heartbeat");
	is_int(U16(b, 256 + 230), 0, "heartbeat: no payload");
	/* 232: the third event; 2^31 - 1 + 3.5e9 - 2^31 + 1 < 2^32 */
	is_int(U32(b, 256 + 232), (uint32_t)(base + 40 + 3500000000ull),
	       "third event right after");
	is_int(U8(b, 256 + 237), 2, "third event id");
	is_int(U32(b, 256 + 32), 256 - 250, "second sub-buffer: lost_size 6");
	is_int(U64(b, 512), base + 40 + 3500000000ull, "third sub-buffer begins");
	is_int(U8(b, 512 + 117), 3, "with the fourth event");
	is_int(U32(b, 512 + 32), 256 - 130, "and nothing else");
	free(b);
}

/* ---- big events, buffer_stats, flight mode, facility_load --------------- */

static void test_big_event(void)
{
	lttw_config c;
	lttw_trace *t;
	lttw_file *f;
	unsigned char *data = calloc(1, 70000), *b;
	size_t len;

	lttw_config_default(&c);
	c.subbuf_size = 262144;
	t = make("big", &c);
	f = lttw_file_open(t, "cpu", 0, 0);
	lttw_event(f, c.start_tsc, 3, 0, data, 65534);
	lttw_event(f, c.start_tsc + 1, 3, 0, data, 65535);
	lttw_event(f, c.start_tsc + 2, 3, 0, data, 70000);
	lttw_trace_close(t);
	free(data);
	b = load("big", "cpu_0", &len);
	if (!ok(b != NULL, "big: file"))
		return;
	is_int(U16(b, 112 + 6), 65534, "65534 bytes: event_size 65534");
	is_int(U16(b, 65656 + 6), 0xFFFF, "65535 bytes: event_size 0xFFFF");
	is_int(U16(b, 131200 + 6), 0xFFFF, "70000 bytes: event_size 0xFFFF");
	is_int(U32(b, 32), 262144 - 131208 - 70000, "lost_size after them");
	free(b);
}

static void test_buffer_stats(void)
{
	lttw_config c;
	lttw_trace *t;
	lttw_file *f;
	unsigned char *b;
	size_t len;

	lttw_config_default(&c);
	c.subbuf_size = 256;
	c.channel_facility_id = 1;
	t = make("stats", &c);
	f = lttw_file_open(t, "cpu", 0, 0);
	lttw_event(f, c.start_tsc, 4, 0, NULL, 0);
	lttw_file_add_losses(f, 7, 0);
	lttw_file_add_losses(f, 2, 1);
	lttw_file_switch(f);
	lttw_event(f, c.start_tsc + 5, 4, 0, NULL, 0);
	lttw_file_switch(f);
	lttw_event(f, c.start_tsc + 6, 4, 0, NULL, 0);
	lttw_trace_close(t);
	b = load("stats", "cpu_0", &len);
	if (!ok(b != NULL, "stats: file"))
		return;
	is_int(len, 768, "three sub-buffers");
	is_int(U8(b, 112 + 4), 4, "first sub-buffer: no stats before losses");
	is_int(U8(b, 256 + 112 + 4), 1, "second starts with the channel facility");
	is_int(U8(b, 256 + 112 + 5), 0, "... event buffer_stats");
	is_int(U16(b, 256 + 112 + 6), 8, "... of 8 bytes");
	is_int(U32(b, 256 + 120), 9, "events_lost, cumulative");
	is_int(U32(b, 256 + 124), 1, "corrupted_subbuffers");
	is_int(U8(b, 256 + 128 + 4), 4, "then the event");
	is_int(U8(b, 512 + 112 + 4), 4, "third: counters unchanged, no stats");
	free(b);
}

static void test_flight(void)
{
	lttw_config c;
	lttw_trace *t;
	lttw_file *f, *empty;
	unsigned char pl[100] = { 0 }, *b;
	size_t len;

	lttw_config_default(&c);
	c.subbuf_size = 256;
	c.mode = LTT_TRACE_MODE_FLIGHT;
	t = make("flight", &c);
	f = lttw_file_open(t, "flight-cpu", 1, 0);
	empty = lttw_file_open(t, "control/modules", 0, 0);
	ok(empty != NULL, "control/modules_0 opened");
	lttw_file_keep_last(f, 2);
	for (unsigned i = 0; i < 5; i++) {
		lttw_event(f, c.start_tsc + 100 * i, 2, 0, pl, 100);
		lttw_file_switch(f);
	}
	lttw_trace_close(t);
	b = load("flight", "flight-cpu_1", &len);
	if (!ok(b != NULL, "flight-cpu_1 exists"))
		return;
	is_int(len, 512, "only the last 2 sub-buffers are kept");
	is_int(U64(b, 0), c.start_tsc + 300, "the first kept is the 4th written");
	is_int(U64(b, 256), c.start_tsc + 400, "then the 5th");
	is_int(U8(b, 59), 1, "flight_recorder = 1");
	free(b);
	b = load("flight", "control/modules_0", &len);
	ok(b != NULL && len == 0, "a tracefile without events stays empty");
	free(b);
}

static void test_facility_load(void)
{
	lttw_config c;
	lttw_trace *t;
	lttw_file *f;
	unsigned char *b;
	size_t len;

	lttw_config_default(&c);
	c.subbuf_size = 512;
	t = make("facload", &c);
	f = lttw_file_open(t, "control/facilities", 0, 0);
	is_int(lttw_facility_load(f, c.start_tsc, "kernel", 0xCAFEBABE, 2, 1), 0,
	       "state_dump_facility_load written");
	is_int(lttw_facility_load(f, c.start_tsc, "fs", 0x12345678, 3, 0), 0,
	       "facility_load written");
	is_int(lttw_eventdef_write(t, "x.xml", "<facility name=\"x\"/>\n"), 0,
	       "eventdef written");
	lttw_trace_close(t);
	b = load("facload", "control/facilities_0", &len);
	if (!ok(b != NULL, "facilities_0"))
		return;
	is_int(U8(b, 116), 0, "facility core");
	is_int(U8(b, 117), 3, "state_dump_facility_load is core event 3");
	is_int(U16(b, 118), 36, "payload 36 bytes: \"kernel\" 7 + realignment 1 + 7 uints");
	ok(!memcmp(b + 120, "kernel", 7), "name");
	is_int(U32(b, 128), 0xCAFEBABE, "checksum at +8 (aligned to 4)");
	is_int(U32(b, 132), 2, "id");
	is_int(U32(b, 136), 4, "int_size");
	is_int(U32(b, 140), 8, "long_size");
	is_int(U32(b, 144), 8, "pointer_size");
	is_int(U32(b, 148), 8, "size_t_size");
	is_int(U32(b, 152), 8, "has_alignment");
	/* next header: 156 -> 160 */
	is_int(U8(b, 165), 0, "facility_load is core event 0");
	/* the string realigns on the pointer size (8): 3 + 5 + 28 */
	is_int(U16(b, 166), 36, "\"fs\" 3 + realignment 5 + 28");
	free(b);
	b = load("facload", "eventdefs/x.xml", &len);
	ok(b != NULL && len == 21, "eventdefs/x.xml");
	free(b);
}

/* ---- the bad-trace maker -------------------------------------------------- */

/* cpu_0 with two sub-buffers of 256 bytes, cpu_1 empty */
static void make_bad_base(const char *name)
{
	unsigned char pl[40] = { 0 };
	lttw_config c;
	lttw_trace *t;
	lttw_file *f;

	lttw_config_default(&c);
	c.subbuf_size = 256;
	t = make(name, &c);
	f = lttw_file_open(t, "cpu", 0, 0);
	lttw_file_open(t, "cpu", 1, 0);
	for (unsigned i = 0; i < 4; i++)
		lttw_event(f, c.start_tsc + i, 2, 0, pl, sizeof(pl));
	lttw_trace_close(t);
}

static void test_bad(void)
{
	static const unsigned char swapped[4] = { 0x00, 0xD6, 0xB7, 0xED };
	unsigned char *b;
	size_t len;
	char dir[512];
	int kinds = 0;

	for (const lttw_bad_kind *k = lttw_bad_kinds(); k->name; k++)
		kinds++;
	ok(kinds >= 10, "%d kinds of bad traces", kinds);

	snprintf(dir, sizeof(dir), "%s/bad1", top);
	make_bad_base("bad1");
	is_int(lttw_bad_apply(dir, "swapped-magic"), 0, "swapped-magic applied");
	b = load("bad1", "cpu_0", &len);
	ok(b && len == 512 && !memcmp(b + 40, swapped, 4) && !memcmp(b + 296, swapped, 4),
	   "every magic is byte-swapped");
	free(b);

	snprintf(dir, sizeof(dir), "%s/bad2", top);
	make_bad_base("bad2");
	is_int(lttw_bad_apply(dir, "truncated"), 0, "truncated applied");
	b = load("bad2", "cpu_0", &len);
	ok(b && len == 512 - 128, "cut in the middle of a sub-buffer");
	free(b);

	snprintf(dir, sizeof(dir), "%s/bad3", top);
	make_bad_base("bad3");
	is_int(lttw_bad_apply(dir, "buf-size-zero"), 0, "buf-size-zero applied");
	b = load("bad3", "cpu_0", &len);
	ok(b && U32(b, 36) == 0, "buf_size 0");
	free(b);

	snprintf(dir, sizeof(dir), "%s/bad4", top);
	make_bad_base("bad4");
	is_int(lttw_bad_apply(dir, "event-past-subbuf"), 0, "event-past-subbuf applied");
	b = load("bad4", "cpu_0", &len);
	ok(b && 112 + 8 + U16(b, 118) == 257, "first event ends 1 byte past its sub-buffer");
	free(b);
	is_int(lttw_bad_apply(dir, "no-such-kind"), -1, "an unknown kind is refused");
}

int main(void)
{
	const char *tmp = getenv("TMPDIR");

	snprintf(top, sizeof(top), "%s/test_writer.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(top)) {
		perror("mkdtemp");
		return 1;
	}
	test_block_header();
	test_layouts();
	test_payload();
	test_switch_and_wraps();
	test_big_event();
	test_buffer_stats();
	test_flight();
	test_facility_load();
	test_bad();
	nftw(top, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	return tap_done();
}
