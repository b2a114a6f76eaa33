/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_hostile.c - libltttrace against traces that lie (issue 16): a
 * tracefile that shrinks while it is read, events outside their
 * sub-buffer's time span or going backwards, a duplicated sub-buffer,
 * event sizes that disagree with the description, events that cannot be
 * decoded. Each is reported (an error, or a warning of the trace, once),
 * never a crash or a silent loss. The traces come from the independent
 * writer (tests/writer), then are spoiled byte by byte.
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

static const char demo_xml[] =
	"<facility name=\"demo\">\n"
	" <event name=\"tick\"><field name=\"n\"><uint_fixed size=\"4\"/></field></event>\n"
	" <event name=\"say\"><field name=\"who\"><string/></field>"
	"<field name=\"n\"><uint_fixed size=\"4\"/></field></event>\n"
	"</facility>\n";

static uint32_t checksum_of(const char *xml)
{
	ltt_description *d = ltt_description_parse(xml, strlen(xml), "demo", NULL);
	uint32_t c = d ? ltt_description_checksum(d) : 0;

	ltt_description_free(d);
	return c;
}

static char *path_of(const char *name, const char *file)
{
	return g_build_filename(tmpdir, name, file, NULL);
}

/* A trace with the demo facility (id 1); *cpu is cpu_0. */
static lttw_trace *new_trace(const char *name, const lttw_config *c, lttw_file **cpu)
{
	char *dir = path_of(name, NULL);
	lttw_trace *t;
	lttw_file *fac;

	if (g_file_test(dir, G_FILE_TEST_EXISTS))
		tap_remove_tree(dir);
	t = lttw_trace_create(dir, c);
	g_free(dir);
	*cpu = NULL;
	if (!t) {
		printf("# writer: %s\n", lttw_last_error());
		return NULL;
	}
	lttw_eventdef_copy(t, "facilities/core.xml");
	lttw_eventdef_write(t, "demo.xml", demo_xml);
	fac = lttw_file_open(t, "control/facilities", 0, 0);
	lttw_facility_load(fac, c->start_tsc, "core", 0x1A8DE486, 0, 1);
	lttw_facility_load(fac, c->start_tsc, "demo", checksum_of(demo_xml), 1, 1);
	*cpu = lttw_file_open(t, "cpu", 0, 0);
	return t;
}

static int tick(lttw_file *f, const lttw_trace *t, uint64_t tsc, uint32_t n)
{
	lttw_payload p;
	int r;

	lttw_payload_init(&p, t);
	lttw_put_uint_n(&p, n, 4);
	r = lttw_event(f, tsc, 1, 0, p.buf, p.len);
	lttw_payload_free(&p);
	return r;
}

static ltt_trace *open_trace(const char *name)
{
	char *dir = path_of(name, NULL);
	ltt_error *err = NULL;
	ltt_trace *t = ltt_trace_open(dir, NULL, &err);

	if (!t)
		printf("# open %s: %s\n", dir, ltt_error_message(err));
	ltt_error_free(err);
	g_free(dir);
	return t;
}

/* Reads the whole trace: events read, 1 (end) or -1 (error, *msg). */
static int read_all(ltt_trace *t, unsigned *n, char **msg)
{
	ltt_error *err = NULL;
	ltt_iter *it = ltt_iter_new(&t, 1, &err);
	const ltt_event *ev;
	char buf[256];
	int r = -1;

	*n = 0;
	if (it) {
		while ((r = ltt_iter_next(it, &ev, &err)) > 0) {
			ltt_event_format_fields(ev, LTT_FORMAT_NAMES, buf, sizeof(buf));
			(*n)++;
		}
	}
	if (msg)
		*msg = g_strdup(err ? ltt_error_message(err) : "");
	ltt_error_free(err);
	ltt_iter_free(it);
	return r < 0 ? -1 : 1;
}

/* The warnings of t that contain every one of the words (NULL-ended). */
static unsigned warnings_with(const ltt_trace *t, const char *w1, const char *w2)
{
	unsigned n = 0;

	for (unsigned i = 0; i < ltt_trace_num_warnings(t); i++) {
		const char *w = ltt_trace_warning(t, i);

		if (strstr(w, w1) && (!w2 || strstr(w, w2)))
			n++;
	}
	return n;
}

static void show_warnings(const ltt_trace *t)
{
	for (unsigned i = 0; i < ltt_trace_num_warnings(t); i++)
		printf("#   warning: %s\n", ltt_trace_warning(t, i));
}

static void patch(const char *name, const char *file, uint64_t off,
		  const void *bytes, size_t n)
{
	char *p = path_of(name, file);
	int fd = open(p, O_WRONLY);

	if (fd < 0 || pwrite(fd, bytes, n, (off_t)off) != (ssize_t)n)
		printf("# cannot patch %s\n", p);
	if (fd >= 0)
		close(fd);
	g_free(p);
}

static void copy_range(const char *name, const char *file, uint64_t from,
		       uint64_t to, size_t n)
{
	char *p = path_of(name, file);
	int fd = open(p, O_RDWR);
	void *buf = g_malloc(n);

	if (fd < 0 || pread(fd, buf, n, (off_t)from) != (ssize_t)n ||
	    pwrite(fd, buf, n, (off_t)to) != (ssize_t)n)
		printf("# cannot copy in %s\n", p);
	g_free(buf);
	if (fd >= 0)
		close(fd);
	g_free(p);
}

/* ---- a tracefile that shrinks while it is read -------------------------- */

static void test_shrink(void)
{
	static const off_t sizes[] = { 4096 + 100, 4096, 0 };
	lttw_config c;

	lttw_config_default(&c);
	for (size_t k = 0; k < G_N_ELEMENTS(sizes); k++) {
		lttw_file *cpu;
		lttw_trace *w = new_trace("shrink", &c, &cpu);
		ltt_trace *t;
		unsigned n;
		char *msg, *p;
		int r;

		for (uint32_t i = 0; i < 2000; i++)
			tick(cpu, w, c.start_tsc + 1000 * (uint64_t)(i + 1), i);
		lttw_trace_close(w);
		t = open_trace("shrink");
		ok(t != NULL, "shrink: the trace opens");
		if (!t)
			return;
		/* after the open, as a live trace or another tool would */
		p = path_of("shrink", "cpu_0");
		if (truncate(p, sizes[k]) < 0)
			printf("# truncate failed\n");
		g_free(p);
		r = read_all(t, &n, &msg);
		ok(r < 0 && strstr(msg, "cpu_0") && strstr(msg, "changed"),
		   "cpu_0 cut to %lld bytes while open: an error that says so, not SIGBUS",
		   (long long)sizes[k]);
		{	/* its size now, not the offset read (issue 31) */
			char now[64];

			snprintf(now, sizeof(now), "opened, %lld now", (long long)sizes[k]);
			ok(r < 0 && strstr(msg, now), "   ... and says its size now: \"%s\"", now);
		}
		printf("#   %s (%u events before it)\n", msg, n);
		g_free(msg);
		ltt_trace_close(t);
	}
}


/* Cut while the reader is far into it (issue 31): the error gave the
 * offset the read had reached ("it ends at 0x3000 now") as the size. */
static void test_shrink_midway(void)
{
	lttw_config c;
	lttw_file *cpu;
	lttw_trace *w;
	ltt_trace *t;
	ltt_iter *it;
	ltt_error *err = NULL;
	const ltt_event *ev;
	unsigned n = 0;
	int r = 1;
	char *p;

	lttw_config_default(&c);
	w = new_trace("midway", &c, &cpu);
	for (uint32_t i = 0; i < 2000; i++)
		tick(cpu, w, c.start_tsc + 1000 * (uint64_t)(i + 1), i);
	lttw_trace_close(w);
	t = open_trace("midway");
	it = t ? ltt_iter_new(&t, 1, &err) : NULL;
	while (it && n < 700 && (r = ltt_iter_next(it, &ev, &err)) > 0)
		n++;
	p = path_of("midway", "cpu_0");
	if (truncate(p, 100) < 0)
		printf("# truncate failed\n");
	g_free(p);
	while (it && r > 0 && (r = ltt_iter_next(it, &ev, &err)) > 0)
		n++;
	ok(r < 0 && err && strstr(ltt_error_message(err), "opened, 100 now"),
	   "cpu_0 cut to 100 bytes after %u events: the error says its size now, "
	   "not the offset reached", n);
	printf("#   %s\n", err ? ltt_error_message(err) : "(no error)");
	ltt_error_free(err);
	ltt_iter_free(it);
	ltt_trace_close(t);
}


/* ---- a valid trace: nothing to say -------------------------------------- */

static int say(lttw_file *f, const lttw_trace *t, uint64_t tsc, const char *who,
	       uint32_t n)
{
	lttw_payload p;
	int r;

	lttw_payload_init(&p, t);
	lttw_put_string(&p, who);
	lttw_put_uint_n(&p, n, 4);
	r = lttw_event(f, tsc, 1, 1, p.buf, p.len);
	lttw_payload_free(&p);
	return r;
}

static void test_valid(void)
{
	for (unsigned hb = 0; hb <= 1; hb++) {
		lttw_config c;
		lttw_file *cpu;
		lttw_trace *w;
		ltt_trace *t;
		unsigned n = 0;
		int r;

		lttw_config_default(&c);
		c.has_heartbeat = hb;
		w = new_trace("valid", &c, &cpu);
		n = 0;
		for (uint32_t i = 0; i < 3000; i++) {
			uint64_t tsc = c.start_tsc + 1000 * (uint64_t)(i + 1);

			if (i % 3)
				tick(cpu, w, tsc, i);
			else
				say(cpu, w, tsc, i % 2 ? "odd" : "", i);
		}
		lttw_trace_close(w);
		t = open_trace("valid");
		r = t ? read_all(t, &n, NULL) : -1;
		ok(r > 0 && n == 3002, "a valid trace (heartbeat %u) reads: %u events",
		   hb, n);
		if (t) {
			is_int(ltt_trace_num_warnings(t), 0,
			       "   ... without a warning");
			show_warnings(t);
		}
		ltt_trace_close(t);
	}
}

/* seeking to the ends of int64 goes to the ends of the trace, no wrap */
static void test_seek_extremes(void)
{
	lttw_config c;
	lttw_file *cpu;
	lttw_trace *w;
	ltt_trace *t;
	ltt_iter *it;
	const ltt_event *ev = NULL;

	lttw_config_default(&c);
	w = new_trace("extremes", &c, &cpu);
	for (uint32_t i = 0; i < 100; i++)
		tick(cpu, w, c.start_tsc + 1000 * (uint64_t)(i + 1), i);
	lttw_trace_close(w);
	t = open_trace("extremes");
	if (!t)
		return;
	is_int(ltt_trace_ns_to_cycles(t, INT64_MIN), 0, "cycles of INT64_MIN ns: 0");
	ok(ltt_trace_ns_to_cycles(t, INT64_MAX) >= ltt_trace_ns_to_cycles(t, INT64_MAX / 2) &&
	   ltt_trace_ns_to_cycles(t, INT64_MAX / 2) > c.start_tsc,
	   "cycles of INT64_MAX ns: the largest, no wrap");
	ok(ltt_trace_ns_to_cycles(t, -9000000000000000000LL) <= c.start_tsc &&
	   ltt_trace_ns_to_cycles(t, 9000000000000000000LL) > c.start_tsc,
	   "far before and far after the start stay on their side");
	it = ltt_iter_new(&t, 1, NULL);
	ok(ltt_iter_seek_time(it, INT64_MIN, NULL) == 0 && ltt_iter_next(it, &ev, NULL) > 0 &&
	   ltt_event_cycles(ev) == c.start_tsc, "seek to INT64_MIN: the first event");
	ok(ltt_iter_seek_time(it, INT64_MAX, NULL) == 0 && ltt_iter_next(it, &ev, NULL) == 0,
	   "seek to INT64_MAX: the end");
	ltt_iter_free(it);
	ltt_trace_close(t);
}

/* the reader peeks at the start of each block when the trace opens: a
 * first event bigger than the peek is read whole all the same */
static void test_big_first_event(void)
{
	lttw_config c;
	lttw_file *cpu;
	lttw_trace *w;
	ltt_trace *t;
	char *who = g_malloc(20000);
	unsigned n = 0;
	int r;

	memset(who, 'w', 19999);
	who[19999] = '\0';
	lttw_config_default(&c);
	c.subbuf_size = 1 << 16;
	w = new_trace("bigfirst", &c, &cpu);
	say(cpu, w, c.start_tsc + 1000, who, 1);
	tick(cpu, w, c.start_tsc + 2000, 2);
	lttw_file_switch(cpu);
	say(cpu, w, c.start_tsc + 3000, who, 3);
	lttw_trace_close(w);
	g_free(who);
	t = open_trace("bigfirst");
	r = t ? read_all(t, &n, NULL) : -1;
	ok(r > 0 && n == 5, "20000-byte first events of their blocks read (%u events)", n);
	if (t) {
		is_int(ltt_trace_get_info(t)->last_event_ns,
		       ltt_trace_cycles_to_ns(t, c.start_tsc + 3000), "   ... the last event time known");
		is_int(ltt_trace_num_warnings(t), 0, "   ... without a warning");
		show_warnings(t);
	}
	ltt_trace_close(t);
}

/* ---- times: outside the sub-buffer, backwards --------------------------- */

/* Ten ticks, 1000 cycles apart; off[i]: where tick i's header is, as
 * the reader finds it. */
static void ten_ticks(const char *name, lttw_config *c, uint64_t *off,
		      uint64_t *tsc)
{
	lttw_file *cpu;
	lttw_trace *w = new_trace(name, c, &cpu);
	ltt_trace *t;
	ltt_iter *it;
	const ltt_event *ev;
	unsigned n = 0;

	for (uint32_t i = 0; i < 10; i++) {
		tsc[i] = c->start_tsc + 1000 * (uint64_t)(i + 1);
		tick(cpu, w, tsc[i], i);
	}
	lttw_trace_close(w);
	t = open_trace(name);
	it = t ? ltt_iter_new(&t, 1, NULL) : NULL;
	while (it && n < 10 && ltt_iter_next(it, &ev, NULL) > 0)
		if (ltt_event_facility_id(ev) == 1)
			off[n++] = ltt_event_file_offset(ev);
	ltt_iter_free(it);
	ltt_trace_close(t);
	if (n != 10)
		printf("# %s: %u ticks read back\n", name, n);
}

static void expect_warning(const char *name, const char *what, const char *w1,
			   const char *w2, unsigned want_events)
{
	ltt_trace *t = open_trace(name);
	unsigned n = 0;
	int r = t ? read_all(t, &n, NULL) : -1;

	ok(r > 0 && n == want_events, "%s: every event read (%u)", what, n);
	if (!t)
		return;
	is_int(warnings_with(t, w1, w2), 1, "%s: said once", what);
	show_warnings(t);
	ltt_trace_close(t);
}

static void test_times(void)
{
	lttw_config c;
	uint64_t off[10], tsc[10], v;
	uint32_t low;

	/* 64-bit timestamps: 2^32 cycles (2.147 s at 2 GHz) before its block */
	lttw_config_default(&c);
	c.has_heartbeat = 0;
	c.start_tsc = 1ULL << 40;
	ten_ticks("early", &c, off, tsc);
	v = tsc[5] - (1ULL << 32);
	patch("early", "cpu_0", off[5], &v, 8);
	expect_warning("early", "an event 2.147 s before its sub-buffer", "cpu_0",
		       "2.147481148 s before the sub-buffer's time span", 12);

	/* inside the block's span, but before the event before it */
	ten_ticks("back", &c, off, tsc);
	v = tsc[2] + 1;
	patch("back", "cpu_0", off[6], &v, 8);
	expect_warning("back", "an event before the one before it", "cpu_0",
		       "time goes backwards", 12);

	/* 32-bit timestamps: one that looks like a wrap lands after the end */
	lttw_config_default(&c);
	ten_ticks("late", &c, off, tsc);
	low = (uint32_t)tsc[4] - 1;
	patch("late", "cpu_0", off[5], &low, 4);
	expect_warning("late", "an event after its sub-buffer", "cpu_0",
		       "after the sub-buffer's time span", 12);
}

/* ---- a duplicated sub-buffer -------------------------------------------- */

static void test_duplicate(void)
{
	lttw_config c;
	lttw_file *cpu;
	lttw_trace *w;

	lttw_config_default(&c);
	w = new_trace("dup", &c, &cpu);
	for (uint32_t i = 0; i < 2000; i++)
		tick(cpu, w, c.start_tsc + 1000 * (uint64_t)(i + 1), i);
	lttw_trace_close(w);
	copy_range("dup", "cpu_0", c.subbuf_size, 2 * (uint64_t)c.subbuf_size,
		   c.subbuf_size);
	expect_warning("dup", "sub-buffer 1 copied over sub-buffer 2", "cpu_0",
		       "sub-buffer 2 begins before sub-buffer 1 ends", 2002);
}

/* ---- sizes that disagree with the description --------------------------- */

static void test_sizes(void)
{
	static const uint8_t zeros[16];
	lttw_config c;
	lttw_file *cpu;
	lttw_trace *w;

	lttw_config_default(&c);
	w = new_trace("big", &c, &cpu);
	tick(cpu, w, c.start_tsc + 1000, 0);
	lttw_event(cpu, c.start_tsc + 2000, 1, 0, zeros, 12);	/* tick: 4 bytes */
	lttw_event(cpu, c.start_tsc + 3000, 1, 0, zeros, 12);
	tick(cpu, w, c.start_tsc + 4000, 3);
	lttw_trace_close(w);
	expect_warning("big", "an event_size larger than its description", "cpu_0",
		       "says 12 bytes of payload, but its description needs 4", 6);

	w = new_trace("bigvar", &c, &cpu);
	say(cpu, w, c.start_tsc + 1000, "x", 1);
	/* "ab", its NUL, the realignment (8) and n (4): 16 is too many */
	lttw_event(cpu, c.start_tsc + 2000, 1, 1, "ab\0\0\0\0\0\0\0\0\0\0\0\0\0\0", 16);
	lttw_trace_close(w);
	expect_warning("bigvar", "a string event larger than its description",
		       "cpu_0", "says 16 bytes of payload, but its description needs 12", 4);

	w = new_trace("small", &c, &cpu);
	tick(cpu, w, c.start_tsc + 1000, 0);
	lttw_event(cpu, c.start_tsc + 2000, 1, 0, zeros, 0);
	lttw_event(cpu, c.start_tsc + 3000, 1, 0, zeros, 2);
	lttw_trace_close(w);
	expect_warning("small", "an event_size smaller than its description",
		       "cpu_0", "has 0 bytes of payload", 5);

	w = new_trace("smallvar", &c, &cpu);
	lttw_event(cpu, c.start_tsc + 1000, 1, 1, "abcd", 4);	/* no NUL */
	lttw_trace_close(w);
	expect_warning("smallvar", "a string without its NUL", "cpu_0",
		       "malformed", 3);
}

/* ---- events that cannot be decoded -------------------------------------- */

static void test_unknown(void)
{
	lttw_config c;
	lttw_file *cpu;
	lttw_trace *w;

	lttw_config_default(&c);
	w = new_trace("never", &c, &cpu);
	lttw_event(cpu, c.start_tsc + 1000, 7, 0, "abcd", 4);
	lttw_event(cpu, c.start_tsc + 2000, 7, 1, "abcd", 4);
	lttw_event(cpu, c.start_tsc + 3000, 1, 9, "abcd", 4);
	lttw_event(cpu, c.start_tsc + 4000, 1, 8, "abcd", 4);
	lttw_trace_close(w);
	expect_warning("never", "events of a facility never loaded", "cpu_0",
		       "facility id 7, which was never loaded", 6);
	expect_warning("never", "event ids past the description", "cpu_0",
		       "event 9 of facility demo", 6);
}

/* ---- descriptions: bounded sizes, depth and work ------------------------- */

/* Parses xml, under a watchdog (a hang fails the test): 1 if accepted;
 * 0 if refused with an error containing want. */
static int parse_within(const char *xml, const char *want, const char *what,
			ltt_description **out)
{
	ltt_error *err = NULL;
	ltt_description *d;
	gint64 t0 = g_get_monotonic_time();

	alarm(60);
	d = ltt_description_parse(xml, strlen(xml), "hostile.xml", &err);
	alarm(0);
	if (g_get_monotonic_time() - t0 > 2000000)
		printf("#   %s: %.1f s to parse\n", what, (g_get_monotonic_time() - t0) / 1e6);
	if (!d && want)
		ok(err && strstr(ltt_error_message(err), want),
		   "%s: refused (%s)", what, ltt_error_message(err));
	if (!d && !want)
		ok(0, "%s: accepted (%s)", what, ltt_error_message(err));
	if (d && want)
		ok(0, "%s: refused (accepted)", what);
	if (d && !want)
		ok(1, "%s: accepted", what);
	ltt_error_free(err);
	if (out)
		*out = d;
	else
		ltt_description_free(d);
	return d != NULL;
}

static void test_descriptions(void)
{
	GString *x = g_string_new("<facility name=\"dag\"><type name=\"T0\"><uint/></type>\n");
	ltt_description *d;
	int64_t v = 0;

	/* 10 types, each a struct of 16 of the one before: 2^40 values (the
	 * depth limit allows 10 such levels) */
	x = g_string_new("<facility name=\"dag\"><type name=\"T0\"><uchar/></type>\n");
	for (int i = 1; i <= 10; i++) {
		g_string_append_printf(x, "<type name=\"T%d\"><struct>", i);
		for (int k = 0; k < 16; k++)
			g_string_append_printf(x, "<field name=\"f%d\"><typeref name=\"T%d\"/>"
					       "</field>", k, i - 1);
		g_string_append(x, "</struct></type>\n");
	}
	g_string_append(x, "<event name=\"e\"><field name=\"x\"><typeref name=\"T10\"/>"
			"</field></event></facility>");
	parse_within(x->str, "more than", "a DAG of typerefs (2^40 values)", NULL);
	g_string_free(x, TRUE);

	/* the same shape, 4 deep, is fine: 2^16 values */
	x = g_string_new("<facility name=\"dag\"><type name=\"T0\"><uchar/></type>\n");
	for (int i = 1; i <= 4; i++) {
		g_string_append_printf(x, "<type name=\"T%d\"><struct>", i);
		for (int k = 0; k < 16; k++)
			g_string_append_printf(x, "<field name=\"f%d\"><typeref name=\"T%d\"/>"
					       "</field>", k, i - 1);
		g_string_append(x, "</struct></type>\n");
	}
	g_string_append(x, "<event name=\"e\"><field name=\"x\"><typeref name=\"T4\"/>"
			"</field></event></facility>");
	parse_within(x->str, NULL, "a DAG of typerefs (2^16 values)", NULL);
	g_string_free(x, TRUE);

	parse_within("<facility name=\"f\"><event name=\"e\"><field name=\"x\">"
		     "<array size=\"1048576\"><array size=\"1048576\"><array size=\"1048576\">"
		     "<uint_fixed size=\"8\"/></array></array></array></field></event></facility>",
		     "more than", "arrays of arrays of 2^20 elements (2^60 values)", NULL);
	parse_within("<facility name=\"f\"><event name=\"e\"><field name=\"x\">"
		     "<array size=\"4096\"><uchar/></array></field><field name=\"y\">"
		     "<array size=\"16\"><array size=\"16\"><uint/></array></array>"
		     "</field></event></facility>", NULL, "arrays of sane sizes", NULL);

	/* enum labels at the ends of int64 */
	parse_within("<facility name=\"f\"><event name=\"e\"><field name=\"x\"><enum>"
		     "<label name=\"MAX\" value=\"9223372036854775807\"/><label name=\"NEXT\"/>"
		     "</enum></field></event></facility>", "overflows",
		     "a label after INT64_MAX", NULL);
	if (parse_within("<facility name=\"f\"><event name=\"e\"><field name=\"x\"><enum>"
			 "<label name=\"MIN\" value=\"-9223372036854775808\"/><label name=\"NEXT\"/>"
			 "<label name=\"MAX\" value=\"9223372036854775807\"/>"
			 "</enum></field></event></facility>", NULL, "labels INT64_MIN and "
			 "INT64_MAX", &d)) {
		const ltt_field_type *t = ltt_description_field_type(d, 0, 0);

		ltt_field_type_label(t, 2, &v);
		ok(v == INT64_MAX, "   ... INT64_MAX read back");
		ltt_field_type_label(t, 1, &v);
		ok(v == INT64_MIN + 1, "   ... the label after INT64_MIN is INT64_MIN + 1");
		ltt_description_free(d);
	}

	/* sequences whose elements take no room, or few bytes for many values:
	 * their work would not be bounded by the payload */
	parse_within("<facility name=\"f\"><event name=\"e\"><field name=\"x\"><sequence>"
		     "<uint/><struct></struct></sequence></field></event></facility>",
		     "no room", "a sequence of empty structs", NULL);
	x = g_string_new("<facility name=\"f\"><event name=\"e\"><field name=\"x\"><sequence>"
			 "<uint/><union>");
	for (int i = 0; i < 200; i++)
		g_string_append_printf(x, "<field name=\"m%d\"><uchar/></field>", i);
	g_string_append(x, "</union></sequence></field></event></facility>");
	parse_within(x->str, "values per byte", "a sequence of 1-byte unions of 200 members", NULL);
	g_string_free(x, TRUE);
	parse_within("<facility name=\"f\"><event name=\"e\"><field name=\"x\"><sequence>"
		     "<uint/><struct><field name=\"a\"><string/></field><field name=\"b\">"
		     "<uint/></field></struct></sequence></field></event></facility>", NULL,
		     "a sequence of structs of a string and an int", NULL);

	/* a long chain of typerefs is too deep, and refused without recursing
	 * down all of it */
	x = g_string_new("<facility name=\"chain\"><type name=\"T0\"><uint/></type>\n");
	for (int i = 1; i <= 100000; i++)
		g_string_append_printf(x, "<type name=\"T%d\"><typeref name=\"T%d\"/></type>\n",
				       i, i - 1);
	g_string_append(x, "<event name=\"e\"><field name=\"x\"><typeref name=\"T100000\"/>"
			"</field></event></facility>");
	parse_within(x->str, "too deep", "a chain of 100000 typerefs", NULL);
	g_string_free(x, TRUE);
}


/* ---- traces for tests/t38-hostile-ctf.sh (test_hostile --write KIND DIR) -- */

/* Names no CTF reader takes as they are: quotes, dashes, spaces, a TSDL
 * keyword once prefixed, duplicates, enum labels that do not fit their
 * container, empty structs, unions of same-named members. */
static const char odd_xml[] =
	"<facility name=\"odd-fac\">\n"
	" <event name='say \"hi\"'><field name=\"a-b\"><uint_fixed size=\"4\"/></field>"
	"<field name=\"a b\"><uint_fixed size=\"4\"/></field><field name=\"a_b\">"
	"<uint_fixed size=\"4\"/></field><field name=\"Bool\"><uchar/></field></event>\n"
	" <event name=\"dup\"><field name=\"x\"><uint_fixed size=\"4\"/></field>"
	"<field name=\"x\"><string/></field><field name=\"s\"><sequence><uchar/><uchar/>"
	"</sequence></field><field name=\"s_length\"><uchar/></field></event>\n"
	" <event name=\"enums\"><field name=\"e\"><enum><label name='q\"uote' value=\"1\"/>"
	"<label name=\"neg\" value=\"-5\"/><label name=\"big\" value=\"9223372036854775807\"/>"
	"<label name=\"two\" value=\"2\"/><label name=\"alsotwo\" value=\"2\"/></enum></field>"
	"<field name=\"none\"><enum><label name=\"only\" value=\"4294967296\"/></enum></field></event>\n"
	" <event name=\"shapes\"><field name=\"empty\"><struct></struct></field>"
	"<field name=\"u\"><union><field name=\"i\"><int_fixed size=\"4\"/></field>"
	"<field name=\"i\"><uint_fixed size=\"4\"/></field></union></field>"
	"<field name=\"t\"><string/></field></event>\n"
	"</facility>\n";

/* A second facility that takes demo's id after demo is unloaded. */
static const char other_xml[] =
	"<facility name=\"other\">\n"
	" <event name=\"pong\"><field name=\"label\"><string/></field>"
	"<field name=\"v\"><uint_fixed size=\"8\"/></field></event>\n"
	"</facility>\n";

static int write_odd(const char *dir)
{
	lttw_config c;
	lttw_trace *w;
	lttw_file *fac, *cpu;
	lttw_payload p;
	uint64_t t;

	lttw_config_default(&c);
	w = lttw_trace_create(dir, &c);
	if (!w)
		return -1;
	t = c.start_tsc;
	lttw_eventdef_copy(w, "facilities/core.xml");
	lttw_eventdef_write(w, "odd.xml", odd_xml);
	fac = lttw_file_open(w, "control/facilities", 0, 0);
	lttw_facility_load(fac, t, "core", 0x1A8DE486, 0, 1);
	lttw_facility_load(fac, t, "odd-fac", checksum_of(odd_xml), 3, 1);
	cpu = lttw_file_open(w, "cpu", 0, 0);
	lttw_payload_init(&p, w);
	for (uint32_t i = 0; i < 5; i++) {
		lttw_payload_reset(&p);
		lttw_put_uint_n(&p, i, 4);
		lttw_put_uint_n(&p, i + 10, 4);
		lttw_put_uint_n(&p, i + 20, 4);
		lttw_put_uint_n(&p, 1, 1);
		lttw_event(cpu, t += 1000, 3, 0, p.buf, p.len);
		lttw_payload_reset(&p);
		lttw_put_uint_n(&p, i, 4);
		lttw_put_string(&p, "second x");
		lttw_put_uint_n(&p, 2, 1);
		lttw_put_uint_n(&p, 7, 1);
		lttw_put_uint_n(&p, 8, 1);
		lttw_seq_end(&p);	/* the realignment after a sequence */
		lttw_put_uint_n(&p, 9, 1);
		lttw_event(cpu, t += 1000, 3, 1, p.buf, p.len);
		lttw_payload_reset(&p);
		lttw_put_uint_n(&p, i % 3, 4);	/* enums: int_size */
		lttw_put_uint_n(&p, 44, 4);
		lttw_event(cpu, t += 1000, 3, 2, p.buf, p.len);
		lttw_payload_reset(&p);
		lttw_put_int_n(&p, -(int64_t)i, 4);
		lttw_put_string(&p, "t\"ab\\le");
		lttw_event(cpu, t += 1000, 3, 3, p.buf, p.len);
	}
	lttw_payload_free(&p);
	return lttw_trace_close(w);
}

/* demo at id 1, unloaded, then other at id 1: both with events */
static int write_reuse(const char *dir)
{
	lttw_config c;
	lttw_trace *w;
	lttw_file *fac, *cpu;
	lttw_payload p;
	uint64_t t;

	lttw_config_default(&c);
	w = lttw_trace_create(dir, &c);
	if (!w)
		return -1;
	t = c.start_tsc;
	lttw_eventdef_copy(w, "facilities/core.xml");
	lttw_eventdef_write(w, "demo.xml", demo_xml);
	lttw_eventdef_write(w, "other.xml", other_xml);
	fac = lttw_file_open(w, "control/facilities", 0, 0);
	cpu = lttw_file_open(w, "cpu", 0, 0);
	lttw_facility_load(fac, t, "core", 0x1A8DE486, 0, 1);
	lttw_facility_load(fac, t, "demo", checksum_of(demo_xml), 1, 1);
	lttw_payload_init(&p, w);
	for (uint32_t i = 0; i < 5; i++)
		tick(cpu, w, t += 1000, i);
	/* core.facility_unload (event 1 of core.xml): the id, a uint */
	lttw_payload_reset(&p);
	lttw_put_uint(&p, 1);
	lttw_event(fac, t += 1000, 0, 1, p.buf, p.len);
	lttw_facility_load(fac, t += 1000, "other", checksum_of(other_xml), 1, 0);
	for (uint32_t i = 0; i < 5; i++) {
		lttw_payload_reset(&p);
		lttw_put_string(&p, "pong");
		lttw_put_uint_n(&p, 1000 + i, 8);
		lttw_event(cpu, t += 1000, 1, 0, p.buf, p.len);
	}
	lttw_payload_free(&p);
	return lttw_trace_close(w);
}

/* 64-bit timestamps: an event 2^32 cycles before its sub-buffer, one
 * before the event before it, and a sub-buffer written twice */
static int write_times(const char *dir)
{
	lttw_config c;
	lttw_trace *w;
	lttw_file *cpu;
	uint64_t t, off[3] = { 0 }, v;
	char *name = g_path_get_basename(dir), *parent = g_path_get_dirname(dir);
	char *saved = tmpdir;
	int r;

	lttw_config_default(&c);
	c.has_heartbeat = 0;
	c.start_tsc = 1ULL << 40;
	t = c.start_tsc;
	tmpdir = parent;
	w = new_trace(name, &c, &cpu);
	for (uint32_t i = 0; i < 1000; i++)
		tick(cpu, w, t += 1000, i);
	r = lttw_trace_close(w);
	/* where ticks 10, 20 and 30 are, in the first sub-buffer */
	{
		ltt_trace *tr = open_trace(name);
		ltt_iter *it = tr ? ltt_iter_new(&tr, 1, NULL) : NULL;
		const ltt_event *ev;
		unsigned k = 0;

		while (it && ltt_iter_next(it, &ev, NULL) > 0)
			if (ltt_event_facility_id(ev) == 1 &&
			    ltt_event_get_uint(ev, "n", 0) % 10 == 0 &&
			    ltt_event_get_uint(ev, "n", 0) / 10 >= 1 &&
			    ltt_event_get_uint(ev, "n", 0) / 10 <= 3)
				off[k++ % 3] = ltt_event_file_offset(ev);
		ltt_iter_free(it);
		ltt_trace_close(tr);
	}
	v = c.start_tsc + 10 * 1000 - (1ULL << 32);
	patch(name, "cpu_0", off[0], &v, 8);
	v = c.start_tsc + 5 * 1000;
	patch(name, "cpu_0", off[1], &v, 8);
	copy_range(name, "cpu_0", c.subbuf_size, 2 * (uint64_t)c.subbuf_size, c.subbuf_size);
	tmpdir = saved;
	g_free(name);
	g_free(parent);
	return r;
}

/* demo.tick events of 0 and 2 bytes among good ones */
static int write_malformed(const char *dir)
{
	static const uint8_t zeros[8];
	char *name = g_path_get_basename(dir), *parent = g_path_get_dirname(dir);
	char *saved = tmpdir;
	lttw_config c;
	lttw_trace *w;
	lttw_file *cpu;
	int r;

	lttw_config_default(&c);
	tmpdir = parent;
	w = new_trace(name, &c, &cpu);
	tick(cpu, w, c.start_tsc + 1000, 1);
	lttw_event(cpu, c.start_tsc + 2000, 1, 0, zeros, 0);
	lttw_event(cpu, c.start_tsc + 3000, 1, 0, zeros, 2);
	tick(cpu, w, c.start_tsc + 4000, 4);
	r = lttw_trace_close(w);
	tmpdir = saved;
	g_free(name);
	g_free(parent);
	return r;
}

static int write_kind(const char *kind, const char *dir)
{
	if (!strcmp(kind, "ctf-names"))
		return write_odd(dir);
	if (!strcmp(kind, "ctf-reuse"))
		return write_reuse(dir);
	if (!strcmp(kind, "ctf-times"))
		return write_times(dir);
	if (!strcmp(kind, "ctf-malformed"))
		return write_malformed(dir);
	fprintf(stderr, "test_hostile: unknown kind %s\n", kind);
	return -1;
}

int main(int argc, char **argv)
{
	char tmpl[] = "/tmp/ltt-hostile-XXXXXX";

	if (argc == 4 && !strcmp(argv[1], "--write"))
		return write_kind(argv[2], argv[3]) ? 1 : 0;

	tmpdir = mkdtemp(tmpl);
	if (!tmpdir) {
		printf("Bail out! no temporary folder\n");
		return 1;
	}
	test_valid();
	test_seek_extremes();
	test_big_first_event();
	test_shrink();
	test_shrink_midway();
	test_times();
	test_duplicate();
	test_sizes();
	test_unknown();
	test_descriptions();
	tap_remove_tree(tmpdir);
	return tap_done();
}
