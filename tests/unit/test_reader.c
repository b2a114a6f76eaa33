/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_reader.c - libltttrace against traces made by the independent writer
 * (tests/writer): block headers, 64-bit timestamps rebuilt across 2^32
 * wraps, alignment on and off, arch sizes, every field type, sub-buffer
 * ends, lost_size, merging across CPUs and traces, seeking, lost events,
 * unknown facilities.
 */
#include <fcntl.h>
#include <glib.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ltt-writer.h"
#include "ltttrace.h"
#include "tap.h"

static char *tmpdir;

/* A small facility used by most tests: id 1. */
static const char demo_xml[] =
	"<facility name=\"demo\">\n"
	" <event name=\"tick\"><field name=\"n\"><uint_fixed size=\"4\"/></field>"
	"<field name=\"who\"><string/></field><field name=\"big\"><uint_fixed size=\"8\"/></field></event>\n"
	" <event name=\"empty\"></event>\n"
	" <event name=\"blob\"><field name=\"data\"><sequence><uint_fixed size=\"4\"/>"
	"<uchar/></sequence></field></event>\n"
	"</facility>\n";

static uint32_t checksum_of(const char *xml)
{
	ltt_description *d = ltt_description_parse(xml, strlen(xml), "demo", NULL);
	uint32_t c = d ? ltt_description_checksum(d) : 0;

	ltt_description_free(d);
	return c;
}

static lttw_trace *new_trace(const char *name, const lttw_config *c, lttw_file **fac)
{
	char *dir = g_build_filename(tmpdir, name, NULL);
	lttw_trace *t = lttw_trace_create(dir, c);

	g_free(dir);
	if (!t) {
		printf("# writer: %s\n", lttw_last_error());
		return NULL;
	}
	lttw_eventdef_copy(t, "facilities/core.xml");
	lttw_eventdef_write(t, "demo.xml", demo_xml);
	*fac = lttw_file_open(t, "control/facilities", 0, 0);
	lttw_facility_load(*fac, c->start_tsc, "core", 0x1A8DE486, 0, 1);
	lttw_facility_load(*fac, c->start_tsc, "demo", checksum_of(demo_xml), 1, 1);
	return t;
}

static int tick(lttw_file *f, const lttw_trace *t, uint64_t tsc, uint32_t n,
		const char *who)
{
	lttw_payload p;
	int r;

	lttw_payload_init(&p, t);
	lttw_put_uint_n(&p, n, 4);
	lttw_put_string(&p, who);
	lttw_put_uint_n(&p, (uint64_t)n * 0x100000001ULL, 8);
	r = lttw_event(f, tsc, 1, 0, p.buf, p.len);
	lttw_payload_free(&p);
	return r;
}

static ltt_trace *open_trace(const char *name)
{
	char *dir = g_build_filename(tmpdir, name, NULL);
	ltt_error *err = NULL;
	ltt_trace *t = ltt_trace_open(dir, NULL, &err);

	if (!t)
		printf("# open %s: %s\n", dir, ltt_error_message(err));
	ltt_error_free(err);
	g_free(dir);
	return t;
}

/* Reads every demo.tick of a trace; checks fields and order. */
static void check_ticks(const char *name, unsigned want, const uint64_t *tscs,
			const char *what)
{
	ltt_trace *t = open_trace(name);
	ltt_iter *it;
	const ltt_event *ev;
	unsigned n = 0, bad_fields = 0, bad_cycles = 0, unordered = 0;
	int64_t last = INT64_MIN;
	ltt_error *err = NULL;
	int r;

	ok(t != NULL, "%s: opens", what);
	if (!t)
		return;
	it = ltt_iter_new(&t, 1, &err);
	while ((r = ltt_iter_next(it, &ev, &err)) > 0) {
		char want_who[32];

		if (ltt_event_time_ns(ev) < last)
			unordered++;
		last = ltt_event_time_ns(ev);
		if (strcmp(ltt_event_facility_name(ev), "demo") ||
		    strcmp(ltt_event_name(ev), "tick"))
			continue;
		snprintf(want_who, sizeof(want_who), "w%u", n);
		if (ltt_event_get_uint(ev, "n", 9999) != n ||
		    !ltt_event_get_string(ev, "who") ||
		    strcmp(ltt_event_get_string(ev, "who"), want_who) ||
		    ltt_event_get_uint(ev, "big", 0) != (uint64_t)n * 0x100000001ULL)
			bad_fields++;
		if (tscs && n < want && ltt_event_cycles(ev) != tscs[n]) {
			if (!bad_cycles)
				printf("#   event %u: cycles %" PRIu64 ", want %" PRIu64 "\n",
				       n, ltt_event_cycles(ev), tscs[n]);
			bad_cycles++;
		}
		n++;
	}
	ok(r == 0, "%s: reads to the end%s%s", what, err ? ": " : "",
	   err ? ltt_error_message(err) : "");
	is_int(n, want, "%s: every event read", what);
	is_int(bad_fields, 0, "%s: field values", what);
	if (tscs)
		is_int(bad_cycles, 0, "%s: 64-bit cycles rebuilt exactly", what);
	is_int(unordered, 0, "%s: time order", what);
	ltt_error_free(err);
	ltt_iter_free(it);
	ltt_trace_close(t);
}

static void test_layouts(void)
{
	static const struct {
		unsigned align, arch, hb;
		const char *name;
	} cases[] = {
		{ 8, 8, 1, "align 8, 64-bit, heartbeat" },
		{ 4, 4, 1, "align 4, 32-bit, heartbeat" },
		{ 0, 8, 1, "packed, 64-bit, heartbeat" },
		{ 8, 8, 0, "align 8, 64-bit, 64-bit timestamps" },
		{ 0, 4, 0, "packed, 32-bit, 64-bit timestamps" },
		{ 4, 8, 0, "align 4, 64-bit, 64-bit timestamps" },
	};

	for (size_t k = 0; k < G_N_ELEMENTS(cases); k++) {
		lttw_config c;
		lttw_trace *t;
		lttw_file *fac, *cpu;
		char name[32];
		uint64_t tscs[600];

		lttw_config_default(&c);
		c.alignment = cases[k].align;
		c.arch_size = cases[k].arch;
		c.has_heartbeat = cases[k].hb;
		c.subbuf_size = 1024;	/* many sub-buffer ends */
		snprintf(name, sizeof(name), "layout%zu", k);
		t = new_trace(name, &c, &fac);
		cpu = lttw_file_open(t, "cpu", 0, 0);
		for (unsigned i = 0; i < 600; i++) {
			char who[32];

			/* string lengths vary, so fields land on every offset */
			snprintf(who, sizeof(who), "w%u", i);
			tscs[i] = c.start_tsc + 1000 + (uint64_t)i * 777;
			tick(cpu, t, tscs[i], i, who);
		}
		ok(lttw_trace_close(t) == 0, "%s: written", cases[k].name);
		check_ticks(name, 600, tscs, cases[k].name);
	}
}

static void test_wraps(void)
{
	lttw_config c;
	lttw_trace *t;
	lttw_file *fac, *cpu;
	uint64_t tscs[64];

	lttw_config_default(&c);
	c.start_tsc = 0xFFFFFF00ULL;	/* the first wrap comes at once */
	t = new_trace("wraps", &c, &fac);
	cpu = lttw_file_open(t, "cpu", 0, 0);
	for (unsigned i = 0; i < 64; i++) {
		char who[32];

		snprintf(who, sizeof(who), "w%u", i);
		/* just under 2^31 apart: the heartbeat rule holds, and the
		 * low 32 bits go backwards every other event */
		tscs[i] = c.start_tsc + 0x10 + (uint64_t)i * 0x7FFFFFF0ULL;
		tick(cpu, t, tscs[i], i, who);
	}
	lttw_trace_close(t);
	check_ticks("wraps", 64, tscs, "timestamps across 31 wraps of 2^32");
}

static void test_merge_and_seek(void)
{
	lttw_config c;
	lttw_trace *t;
	lttw_file *fac, *cpus[3];
	ltt_trace *r;
	ltt_iter *it;
	const ltt_event *ev;
	GArray *times = g_array_new(FALSE, FALSE, sizeof(int64_t));
	unsigned per_cpu[3] = { 0 }, total = 0;
	int64_t target;
	int rr;

	lttw_config_default(&c);
	c.subbuf_size = 2048;
	t = new_trace("merge", &c, &fac);
	for (unsigned k = 0; k < 3; k++)
		cpus[k] = lttw_file_open(t, "cpu", k, 0);
	/* interleave: cpu k logs every (k+2) steps */
	for (unsigned i = 0, n = 0; i < 3000; i++)
		for (unsigned k = 0; k < 3; k++)
			if (i % (k + 2) == 0) {
				char who[32];

				snprintf(who, sizeof(who), "w%u", n);
				tick(cpus[k], t, c.start_tsc + 100 + i * 1000ULL + k, n++, who);
			}
	lttw_trace_close(t);
	r = open_trace("merge");
	ok(r != NULL, "merge: opens");
	if (!r)
		return;
	is_int(ltt_trace_num_tracefiles(r), 4, "merge: 3 cpu files and the facilities file");
	it = ltt_iter_new(&r, 1, NULL);
	while ((rr = ltt_iter_next(it, &ev, NULL)) > 0) {
		int64_t tm = ltt_event_time_ns(ev);

		g_array_append_val(times, tm);
		if (strcmp(ltt_event_name(ev), "tick") == 0 && ltt_event_cpu(ev) < 3)
			per_cpu[ltt_event_cpu(ev)]++;
		total++;
	}
	is_int(per_cpu[0], 1500, "merge: cpu 0 events");
	is_int(per_cpu[1], 1000, "merge: cpu 1 events");
	is_int(per_cpu[2], 750, "merge: cpu 2 events");
	{
		unsigned unordered = 0;

		for (guint i = 1; i < times->len; i++)
			if (g_array_index(times, int64_t, i) < g_array_index(times, int64_t, i - 1))
				unordered++;
		is_int(unordered, 0, "merge: one stream in time order");
	}
	/* seek to several times; the first event must be the first >= t */
	for (unsigned s = 1; s < 10; s++) {
		guint idx = times->len * s / 10;
		const ltt_event *first = NULL;
		unsigned rest = 0;

		target = g_array_index(times, int64_t, idx) - 1;
		ok(ltt_iter_seek_time(it, target, NULL) == 0, "seek %u/10: succeeds", s);
		if (ltt_iter_next(it, &first, NULL) > 0) {
			guint want = idx;

			while (want > 0 && g_array_index(times, int64_t, want - 1) >= target)
				want--;
			is_int(ltt_event_time_ns(first), g_array_index(times, int64_t, want),
			       "seek %u/10: first event is the first at or after t", s);
			rest = 1;
			while (ltt_iter_next(it, &first, NULL) > 0)
				rest++;
			is_int(rest, times->len - want, "seek %u/10: then every later event", s);
		} else {
			ok(0, "seek %u/10: an event after the seek", s);
		}
	}
	ok(ltt_iter_seek_time(it, INT64_MAX / 2, NULL) == 0 &&
	   ltt_iter_next(it, &ev, NULL) == 0, "seek past the end: no event");
	ltt_iter_free(it);

	/* two traces merged */
	{
		ltt_trace *two[2] = { r, open_trace("merge") };
		unsigned n2 = 0;

		it = ltt_iter_new(two, 2, NULL);
		while (ltt_iter_next(it, &ev, NULL) > 0)
			n2++;
		is_int(n2, 2 * total, "two traces merged: all events of both");
		ltt_iter_free(it);
		ltt_trace_close(two[1]);
	}
	g_array_free(times, TRUE);
	ltt_trace_close(r);
}

/* Cuts the last event of the first sub-buffer by raising its lost_size. */
static void test_lost_size(void)
{
	lttw_config c;
	lttw_trace *t;
	lttw_file *fac, *cpu;
	char *path;
	int fd;
	struct ltt_block_start_header h;
	uint64_t tscs[10];

	lttw_config_default(&c);
	c.subbuf_size = 4096;
	t = new_trace("lost", &c, &fac);
	cpu = lttw_file_open(t, "cpu", 0, 0);
	for (unsigned i = 0; i < 10; i++) {
		char who[32];

		snprintf(who, sizeof(who), "w%u", i);
		tscs[i] = c.start_tsc + 10 + i;
		tick(cpu, t, tscs[i], i, who);
	}
	lttw_trace_close(t);
	check_ticks("lost", 10, tscs, "lost_size as written");
	path = g_build_filename(tmpdir, "lost", "cpu_0", NULL);
	fd = open(path, O_RDWR);
	ok(fd >= 0 && pread(fd, &h, sizeof(h), 0) == (ssize_t)sizeof(h), "read block header");
	/* the 10th tick is 8 (header) + 4 + 3 ("w9\0") + pad 1 + 8 = 24 bytes */
	h.lost_size += 24;
	ok(pwrite(fd, &h, sizeof(h), 0) == (ssize_t)sizeof(h), "raise lost_size");
	close(fd);
	g_free(path);
	check_ticks("lost", 9, tscs, "events past buf_size - lost_size are not read");
}

static void test_buffer_stats_and_unknown(void)
{
	lttw_config c;
	lttw_trace *t;
	lttw_file *fac, *cpu;
	ltt_trace *r;
	ltt_iter *it;
	const ltt_event *ev;
	unsigned unknown = 0, known = 0;
	const char *chan_xml_path = "facilities/channel.xml";
	ltt_description *chan = ltt_description_load(chan_xml_path, NULL);

	lttw_config_default(&c);
	c.subbuf_size = 1024;
	c.channel_facility_id = 2;
	t = new_trace("stats", &c, &fac);
	lttw_eventdef_copy(t, chan_xml_path);
	lttw_facility_load(fac, c.start_tsc, "channel", chan ? ltt_description_checksum(chan) : 0, 2, 1);
	/* losses add up: 7 then 12 more, 19 in all */
	/* a facility nobody describes */
	lttw_facility_load(fac, c.start_tsc, "mystery", 0xDEADBEEF, 3, 1);
	cpu = lttw_file_open(t, "cpu", 0, 0);
	for (unsigned i = 0; i < 200; i++) {
		char who[32];

		snprintf(who, sizeof(who), "w%u", i);
		if (i == 50)
			lttw_file_add_losses(cpu, 7, 0);
		if (i == 150)
			lttw_file_add_losses(cpu, 12, 1);
		tick(cpu, t, c.start_tsc + 100 + i * 10ULL, i, who);
		if (i % 20 == 0) {
			uint32_t raw = i;

			lttw_event(cpu, c.start_tsc + 105 + i * 10ULL, 3, 4, &raw, 4);
			/* and an id that was never loaded */
			lttw_event(cpu, c.start_tsc + 106 + i * 10ULL, 9, 0, &raw, 4);
		}
	}
	lttw_trace_close(t);
	ltt_description_free(chan);

	r = open_trace("stats");
	ok(r != NULL, "stats: opens");
	if (!r)
		return;
	{
		int warned = 0;

		for (unsigned w = 0; w < ltt_trace_num_warnings(r); w++)
			if (strstr(ltt_trace_warning(r, w), "mystery") &&
			    strstr(ltt_trace_warning(r, w), "0xDEADBEEF"))
				warned = 1;
		ok(warned, "a facility without description is reported by name and checksum");
	}
	/* known at open, before anything is read: the counters come late
	 * in the file (a count that grew while reading hid them) */
	is_int(ltt_trace_get_info(r)->events_lost, 19, "losses known at open: events lost");
	is_int(ltt_trace_get_info(r)->corrupted_subbuffers, 1,
	       "losses known at open: corrupted sub-buffers");
	{
		int64_t first = INT64_MAX, last = INT64_MIN;

		it = ltt_iter_new(&r, 1, NULL);
		while (ltt_iter_next(it, &ev, NULL) > 0) {
			if (first == INT64_MAX)
				first = ltt_event_time_ns(ev);
			last = ltt_event_time_ns(ev);
		}
		ltt_iter_free(it);
		is_int(ltt_trace_get_info(r)->first_event_ns, first, "first_event_ns: the first event");
		is_int(ltt_trace_get_info(r)->last_event_ns, last,
		       "last_event_ns: the last event, not the end of its sub-buffer");
	}
	it = ltt_iter_new(&r, 1, NULL);
	while (ltt_iter_next(it, &ev, NULL) > 0) {
		char buf[128];

		if (ltt_event_is_known(ev)) {
			known++;
			continue;
		}
		unknown++;
		ltt_event_format_fields(ev, 0, buf, sizeof(buf));
		if (unknown == 1) {
			is_str(ltt_event_facility_name(ev), "mystery", "unknown facility keeps its name");
			is_str(ltt_event_name(ev), "event_4", "unknown event shown by id");
			ok(strstr(buf, "4 bytes") != NULL, "raw size shown: %s", buf);
		}
		if (ltt_event_facility_id(ev) == 9)
			ok(strcmp(ltt_event_facility_name(ev), "facility_9") == 0,
			   "never-loaded id shown as facility_9");
	}
	ltt_iter_free(it);
	is_int(unknown, 20, "undecodable events are listed, not dropped");
	is_int(ltt_trace_get_info(r)->events_lost, 19, "channel.buffer_stats: events lost");
	is_int(ltt_trace_get_info(r)->corrupted_subbuffers, 1, "channel.buffer_stats: corrupted sub-buffers");
	ltt_trace_close(r);
}

static void test_big_event(void)
{
	lttw_config c;
	lttw_trace *t;
	lttw_file *fac, *cpu;
	lttw_payload p;
	ltt_trace *r;
	ltt_iter *it;
	const ltt_event *ev;
	ltt_value v;
	int found = 0;

	lttw_config_default(&c);
	c.subbuf_size = 1 << 18;
	t = new_trace("big", &c, &fac);
	cpu = lttw_file_open(t, "cpu", 0, 0);
	lttw_payload_init(&p, t);
	lttw_put_uint_n(&p, 70000, 4);
	for (unsigned i = 0; i < 70000; i++)
		lttw_put_uint_n(&p, i & 0xff, 1);
	lttw_seq_end(&p);	/* 70004 realigned on the pointer size */
	ok(lttw_event(cpu, c.start_tsc + 5, 1, 2, p.buf, p.len) == 0, "a 70000-byte event is written");
	lttw_payload_free(&p);
	tick(cpu, t, c.start_tsc + 6, 0, "w0");
	lttw_trace_close(t);
	r = open_trace("big");
	it = r ? ltt_iter_new(&r, 1, NULL) : NULL;
	while (it && ltt_iter_next(it, &ev, NULL) > 0) {
		size_t size;

		if (strcmp(ltt_event_name(ev), "blob"))
			continue;
		found = 1;
		ltt_event_payload(ev, &size);
		is_int(size, 70008, "event_size 0xFFFF: size computed from the description (with the realignment)");
		ok(ltt_event_field(ev, 0, &v) == 0 && v.kind == LTT_KIND_SEQUENCE && v.u == 70000,
		   "the sequence has 70000 elements");
	}
	ok(found, "the big event is read");
	ltt_iter_free(it);
	ltt_trace_close(r);
	check_ticks("big", 1, NULL, "an event after the big one");
}

/* ---- realignment after strings and sequences ------------------------------
 *
 * The seeds' rule (docs/format.md, Alignment): after a string and after a
 * sequence the next field starts at a multiple of min(pointer_size, A) from
 * the payload start, and that padding counts in the payload even after
 * the last field. The offsets are computed here from the rule, and checked
 * on payloads the writer lays out and on payloads built byte by byte.
 */
static const char realign_xml[] =
	"<facility name=\"realign\">\n"
	" <event name=\"after_string\"><field name=\"s\"><string/></field>"
	"<field name=\"b\"><uchar/></field></event>\n"
	" <event name=\"after_seq\"><field name=\"q\"><sequence><uint_fixed size=\"4\"/>"
	"<uchar/></sequence></field><field name=\"b\"><uchar/></field></event>\n"
	" <event name=\"last_string\"><field name=\"s\"><string/></field></event>\n"
	"</facility>\n";

static size_t round_up(size_t o, unsigned unit)
{
	return (o + unit - 1) / unit * unit;
}

/* where b lies after a string of n bytes (+ NUL) or a sequence of n
 * uchars with a 4-byte length, by the rule */
static size_t realign_offset(const lttw_config *c, int seq, size_t n)
{
	unsigned unit = c->alignment ? (c->arch_size < c->alignment ? c->arch_size
								    : c->alignment) : 1;

	return round_up(seq ? 4 + n : n + 1, unit);
}

static void test_realign(void)
{
	static const struct {
		unsigned align, arch;
	} cases[] = { { 8, 8 }, { 4, 8 }, { 4, 4 }, { 0, 8 } };
	static const char text[] = "abcdefghijklmnop";

	for (size_t k = 0; k < G_N_ELEMENTS(cases); k++) {
		for (int hand = 0; hand < 2; hand++) {
			lttw_config c;
			lttw_trace *t;
			lttw_file *fac, *cpu;
			char name[32];
			unsigned bad_writer = 0, bad_reader = 0, bad_size = 0, n_read = 0;
			uint64_t tsc;
			ltt_trace *r;
			ltt_iter *it;
			const ltt_event *ev;

			lttw_config_default(&c);
			c.alignment = cases[k].align;
			c.arch_size = cases[k].arch;
			snprintf(name, sizeof(name), "realign%zu%s", k, hand ? "h" : "w");
			t = new_trace(name, &c, &fac);
			lttw_eventdef_write(t, "realign.xml", realign_xml);
			lttw_facility_load(fac, c.start_tsc, "realign", checksum_of(realign_xml), 2, 1);
			cpu = lttw_file_open(t, "cpu", 0, 0);
			tsc = c.start_tsc + 100;
			/* strings and sequences of 0..16 bytes, b = 0xB0 + n */
			for (unsigned ev_id = 0; ev_id < 3; ev_id++) {
				for (size_t n = 0; n <= 16; n++) {
					size_t at = realign_offset(&c, ev_id == 1, n);
					size_t want = ev_id == 2 ? at : at + 1;
					unsigned char buf[64] = { 0 };
					const unsigned char *pl;
					lttw_payload p;

					lttw_payload_init(&p, t);
					if (hand) {
						/* byte by byte: the bytes, zeroes, b at `at` */
						if (ev_id == 1) {
							uint32_t len = (uint32_t)n;

							memcpy(buf, &len, 4);
							memcpy(buf + 4, text, n);
						} else {
							memcpy(buf, text, n);
						}
						if (ev_id != 2)
							buf[at] = (unsigned char)(0xB0 + n);
						lttw_put_raw(&p, buf, want);
					} else if (ev_id == 1) {
						lttw_put_seq_len(&p, n, 4, 1);
						lttw_put_raw(&p, text, n);
						lttw_seq_end(&p);
						lttw_put_uint_n(&p, 0xB0 + n, 1);
					} else {
						char s[32];

						memcpy(s, text, n);
						s[n] = '\0';
						lttw_put_string(&p, s);
						if (ev_id == 0)
							lttw_put_uint_n(&p, 0xB0 + n, 1);
					}
					pl = p.buf;
					if (p.len != want ||
					    (ev_id != 2 && pl[at] != 0xB0 + n))
						bad_writer++;
					lttw_event(cpu, tsc++, 2, (uint8_t)ev_id, p.buf, p.len);
					lttw_payload_free(&p);
				}
			}
			ok(lttw_trace_close(t) == 0, "realign, A %u, pointer %u, %s: written",
			   c.alignment, c.arch_size, hand ? "by hand" : "by the writer");
			if (!hand)
				is_int(bad_writer, 0, "realign, A %u, pointer %u: the writer puts "
				       "b and the payload's end where the rule says",
				       c.alignment, c.arch_size);
			r = open_trace(name);
			it = r ? ltt_iter_new(&r, 1, NULL) : NULL;
			while (it && ltt_iter_next(it, &ev, NULL) > 0) {
				unsigned id;
				size_t size, n;

				if (strcmp(ltt_event_facility_name(ev), "realign"))
					continue;
				id = ltt_event_id(ev);
				n = n_read % 17;
				n_read++;
				ltt_event_payload(ev, &size);
				if (size != realign_offset(&c, id == 1, n) + (id == 2 ? 0 : 1))
					bad_size++;
				if (id != 2 && ltt_event_get_uint(ev, "b", 0) != 0xB0 + n)
					bad_reader++;
			}
			ltt_iter_free(it);
			ltt_trace_close(r);
			is_int(n_read, 3 * 17, "realign, A %u, pointer %u, %s: every event read",
			       c.alignment, c.arch_size, hand ? "by hand" : "by the writer");
			is_int(bad_reader, 0, "realign, A %u, pointer %u, %s: the field after a "
			       "string or a sequence is read at the rule's offset",
			       c.alignment, c.arch_size, hand ? "by hand" : "by the writer");
			is_int(bad_size, 0, "realign, A %u, pointer %u, %s: the payload ends "
			       "where the rule says, after a last string too",
			       c.alignment, c.arch_size, hand ? "by hand" : "by the writer");
		}
	}
}

static uint64_t gcd64(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t r = a % b;

		a = b;
		b = r;
	}
	return a;
}

/* cycles -> ns must be floor(d * 10^9 / F) exactly, for odd frequencies
 * too, and ns -> cycles its inverse (rounded down). */
static void test_time_conversion(void)
{
	static const uint64_t khz[] = { 2893438, 1000000, 3599999, 1, 33333 };

	for (size_t k = 0; k < G_N_ELEMENTS(khz); k++) {
		lttw_config c;
		lttw_trace *t;
		lttw_file *fac;
		ltt_trace *r;
		char name[32];
		unsigned bad = 0, bad_inverse = 0;
		uint64_t f = khz[k] * 1000, x = 88172645463325252ULL;

		lttw_config_default(&c);
		c.start_freq = khz[k];
		c.freq_scale = 1000;
		c.start_tsc = 1000000;
		snprintf(name, sizeof(name), "freq%zu", k);
		t = new_trace(name, &c, &fac);
		lttw_trace_close(t);
		r = open_trace(name);
		if (!r) {
			ok(0, "%" PRIu64 " kHz: opens", khz[k]);
			continue;
		}
		for (unsigned i = 0; i < 200000; i++) {
			uint64_t d, cyc;
			int64_t want, got;

			x ^= x << 13; x ^= x >> 7; x ^= x << 17;
			/* small and huge distances from start_tsc, both sides */
			d = i % 3 == 0 ? x % 100000 : i % 3 == 1 ? x % (f * 100000) : x % (f * 10000000);
			/* every fifth: an exact quotient, where a reciprocal
			 * rounded down falls one short */
			if (i % 5 == 4)
				d -= d % (f / gcd64(f, 1000000000U));
			cyc = i % 2 && d <= c.start_tsc ? c.start_tsc - d : c.start_tsc + d;
			if (cyc >= c.start_tsc)
				want = (int64_t)((unsigned __int128)(cyc - c.start_tsc) * 1000000000U / f);
			else
				want = -(int64_t)((unsigned __int128)(c.start_tsc - cyc) * 1000000000U / f);
			want += (int64_t)c.start_time_sec * 1000000000 + (int64_t)c.start_time_usec * 1000;
			got = ltt_trace_cycles_to_ns(r, cyc);
			if (got != want && bad++ == 0)
				printf("#   %" PRIu64 " cycles: %" PRId64 " ns, want %" PRId64 "\n", cyc, got, want);
			if (cyc >= c.start_tsc && ltt_trace_cycles_to_ns(r, ltt_trace_ns_to_cycles(r, got)) > got)
				bad_inverse++;
		}
		is_int(bad, 0, "%" PRIu64 " kHz: cycles to ns exact on 200000 values", khz[k]);
		ok(ltt_trace_cycles_to_ns(r, UINT64_MAX) >= ltt_trace_cycles_to_ns(r, UINT64_MAX / 2) &&
		   ltt_trace_cycles_to_ns(r, 0) <= ltt_trace_cycles_to_ns(r, 1),
		   "%" PRIu64 " kHz: extreme cycle counts stay ordered, no overflow", khz[k]);
		is_int(bad_inverse, 0, "%" PRIu64 " kHz: ns to cycles lands at or before", khz[k]);
		ltt_trace_close(r);
	}
}

/* A start time that would overflow 64-bit nanoseconds is refused. */
static void test_bad_start_time(void)
{
	lttw_config c;
	lttw_trace *t;
	lttw_file *fac;
	ltt_error *err = NULL;
	char *dir;

	lttw_config_default(&c);
	c.start_time_sec = 9000000000000000000ULL;
	t = new_trace("badtime", &c, &fac);
	lttw_trace_close(t);
	dir = g_build_filename(tmpdir, "badtime", NULL);
	ok(ltt_trace_open(dir, NULL, &err) == NULL && err &&
	   strstr(ltt_error_message(err), "impossible start time"),
	   "an impossible start time is refused: %s", err ? ltt_error_message(err) : "");
	ltt_error_free(err);
	g_free(dir);
}

static void test_parse_seconds(void)
{
	int64_t ns = 0;

	ok(ltt_parse_seconds("1159000000.250000001", &ns) == 0 && ns == 1159000000250000001LL,
	   "seconds with nanoseconds");
	ok(ltt_parse_seconds("0.5", &ns) == 0 && ns == 500000000, "a fraction");
	ok(ltt_parse_seconds("-3", &ns) == 0 && ns == -3000000000LL, "negative seconds");
	ok(ltt_parse_seconds("1.1234567891", &ns) == 0 && ns == 1123456789,
	   "digits past nanoseconds are dropped");
	ok(ltt_parse_seconds("12x", &ns) < 0, "trailing garbage is refused");
	ok(ltt_parse_seconds("", &ns) < 0 && ltt_parse_seconds(".5", &ns) < 0,
	   "no digits before the point is refused");
	ok(ltt_parse_seconds("99999999999999999999", &ns) < 0, "overflow is refused");
}

/* ---- text: arrays and sequences of <uchar/> --------------------------------
 *
 * Their bytes are text (the era's fs.exec filename is one): printed as one
 * quoted, escaped string, given to readers as ltt_value.str; arrays and
 * sequences of other integers keep their elements (docs/format.md, "Text").
 */
static const char text_xml[] =
	"<facility name=\"text\">\n"
	" <event name=\"words\"><field name=\"seq\"><sequence><uint/><uchar/></sequence></field>"
	"<field name=\"arr\"><array size=\"4\"><uchar/></array></field>"
	"<field name=\"nums\"><sequence><uint/><char/></sequence></field>"
	"<field name=\"after\"><uint_fixed size=\"2\"/></field></event>\n"
	"</facility>\n";

static void test_text(void)
{
	/* quotes, control bytes, UTF-8 (kept) and a byte that is not (escaped) */
	static const char seq[] = "/bin/\xc3\xa9 \"b\"\n\x01\xff";
	lttw_config c;
	lttw_trace *t;
	lttw_file *fac, *cpu;
	lttw_payload p;
	ltt_trace *r;
	ltt_iter *it;
	const ltt_event *ev;
	char buf[256] = "";
	ltt_value v = { 0 }, a = { 0 };
	int found = 0;

	lttw_config_default(&c);
	t = new_trace("text", &c, &fac);
	lttw_eventdef_write(t, "text.xml", text_xml);
	lttw_facility_load(fac, c.start_tsc, "text", checksum_of(text_xml), 2, 1);
	cpu = lttw_file_open(t, "cpu", 0, 0);
	lttw_payload_init(&p, t);
	lttw_put_text(&p, seq);
	lttw_put_raw(&p, "ab\0c", 4);
	lttw_put_seq_len(&p, 2, p.int_size, 1);
	lttw_put_uint_n(&p, 0x41, 1);
	lttw_put_uint_n(&p, 0xFF, 1);
	lttw_seq_end(&p);
	lttw_put_uint_n(&p, 7, 2);
	lttw_event(cpu, c.start_tsc + 10, 2, 0, p.buf, p.len);
	lttw_payload_free(&p);
	ok(lttw_trace_close(t) == 0, "text: written");
	r = open_trace("text");
	it = r ? ltt_iter_new(&r, 1, NULL) : NULL;
	while (it && ltt_iter_next(it, &ev, NULL) > 0) {
		if (strcmp(ltt_event_name(ev), "words"))
			continue;
		found = 1;
		ltt_event_format_fields(ev, LTT_FORMAT_NAMES, buf, sizeof(buf));
		ltt_event_field(ev, 0, &v);
		ltt_event_field(ev, 1, &a);
		ok(v.kind == LTT_KIND_SEQUENCE && v.u == strlen(seq) && v.str &&
		   memcmp(v.str, seq, strlen(seq)) == 0,
		   "a sequence of uchar: its bytes are ltt_value.str");
		ok(a.kind == LTT_KIND_ARRAY && a.u == 4 && a.str && memcmp(a.str, "ab\0c", 4) == 0,
		   "an array of uchar: its bytes are ltt_value.str");
	}
	ok(found, "text: the event is read");
	is_str(buf, "seq = \"/bin/\xc3\xa9 \\\"b\\\"\\n\\x01\\xff\", arr = \"ab\\x00c\", nums = [ 65, -1 ], after = 7",
	       "text: uchar sequences and arrays print as quoted, escaped strings "
	       "(what is not UTF-8 as \\xHH); "
	       "other integers as elements; the field after them is in place");
	ltt_iter_free(it);
	ltt_trace_close(r);
}

int main(void)
{
	tmpdir = g_dir_make_tmp("ltt-reader-XXXXXX", NULL);
	test_layouts();
	test_wraps();
	test_merge_and_seek();
	test_lost_size();
	test_buffer_stats_and_unknown();
	test_big_event();
	test_realign();
	test_text();
	test_time_conversion();
	test_bad_start_time();
	test_parse_seconds();
	tap_remove_tree(tmpdir);
	g_free(tmpdir);
	return tap_done();
}
