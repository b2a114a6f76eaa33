/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_api.c - the contracts ltttrace.h writes down, as a program sees
 * them: the version calls, an error code for each kind of failure (every
 * broken trace of the writer's bad kinds, a missing folder, a bad
 * description...), an iterator that stays failed after an error, and the
 * sized structs: options whose size the caller sets, and the structs the
 * library fills, which a program built with a larger (newer) or smaller
 * (older) header gets at its own size; and that the shared decoding rules
 * of include/ltt/ltt-decode.h agree with the descriptions.
 */
#include <glib.h>
#include <inttypes.h>
#include <glib/gstdio.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <ltt/ltt-decode.h>

#include "ltt-writer-bad.h"
#include "ltttrace.h"
#include "tap.h"

static char *tmpdir;

/* A copy of the bundled synthetic trace, spoiled with a writer bad kind
 * (NULL: left valid). */
static char *spoiled(const char *kind)
{
	static unsigned n;
	char *dir = g_strdup_printf("%s/%s-%u", tmpdir, kind ? kind : "valid", n++);
	char *cmd = g_strdup_printf("cp -R traces/sample-synthetic '%s'", dir);
	int rc = system(cmd);

	g_free(cmd);
	if (rc != 0 || (kind && lttw_bad_apply(dir, kind) < 0)) {
		printf("# cannot make %s: %s\n", dir, kind ? lttw_bad_error() : "cp");
		g_free(dir);
		return NULL;
	}
	return dir;
}

/* Opens dir and reads it to the end; returns the first error, or NULL. */
static ltt_error *read_all(const char *dir)
{
	ltt_error *err = NULL;
	ltt_trace *t = ltt_trace_open(dir, NULL, &err);
	ltt_iter *it;
	const ltt_event *ev;

	if (!t)
		return err;
	it = ltt_iter_new(&t, 1, &err);
	while (it && ltt_iter_next(it, &ev, &err) > 0)
		;
	ltt_iter_free(it);
	ltt_trace_close(t);
	return err;
}

static void test_version(void)
{
	char want[32];

	is_int(ltt_version_number(), LTTTRACE_VERSION_NUMBER,
	       "ltt_version_number() is the header's LTTTRACE_VERSION_NUMBER");
	is_str(ltt_version_string(), LTTTRACE_VERSION_STRING,
	       "ltt_version_string() is the header's LTTTRACE_VERSION_STRING");
	snprintf(want, sizeof(want), "%d.%d.%d", LTTTRACE_VERSION_MAJOR,
		 LTTTRACE_VERSION_MINOR, LTTTRACE_VERSION_PATCH);
	is_str(LTTTRACE_VERSION_STRING, want, "the string is MAJOR.MINOR.PATCH");
	is_int(LTTTRACE_VERSION_NUMBER, (LTTTRACE_VERSION_MAJOR << 16) |
	       (LTTTRACE_VERSION_MINOR << 8) | LTTTRACE_VERSION_PATCH,
	       "the number is MAJOR << 16 | MINOR << 8 | PATCH");
}

static void test_no_error(void)
{
	GHashTable *names = g_hash_table_new(g_str_hash, g_str_equal);

	is_int(ltt_error_get_code(NULL), LTT_ERROR_NONE, "no error: LTT_ERROR_NONE");
	is_str(ltt_error_message(NULL), "no error", "no error: its message");
	for (int c = LTT_ERROR_NONE; c <= LTT_ERROR_INVALID; c++)
		g_hash_table_add(names, (gpointer)ltt_error_code_name(c));
	is_int(g_hash_table_size(names), LTT_ERROR_INVALID + 1,
	       "every code has a name of its own");
	is_str(ltt_error_code_name(LTT_ERROR_CORRUPT), "corrupt", "LTT_ERROR_CORRUPT is \"corrupt\"");
	is_str(ltt_error_code_name((ltt_error_code)99), "unknown", "a code out of range: \"unknown\"");
	g_hash_table_destroy(names);
}

/* The writer's broken traces, each with the code it must give. */
static void test_bad_kind_codes(void)
{
	static const struct { const char *kind; ltt_error_code code; } want[] = {
		{ "truncated", LTT_ERROR_CORRUPT },
		{ "all-empty", LTT_ERROR_NOT_A_TRACE },
		{ "bad-magic", LTT_ERROR_CORRUPT },
		{ "swapped-magic", LTT_ERROR_UNSUPPORTED },
		{ "big-endian", LTT_ERROR_UNSUPPORTED },	/* the magic first: not "truncated" */
		{ "bad-version", LTT_ERROR_UNSUPPORTED },
		{ "bad-arch-size", LTT_ERROR_CORRUPT },
		{ "buf-size-zero", LTT_ERROR_CORRUPT },
		{ "buf-size-mismatch", LTT_ERROR_CORRUPT },
		{ "lost-size-too-big", LTT_ERROR_CORRUPT },
		{ "lost-size-edge", LTT_ERROR_CORRUPT },
		{ "header-mismatch", LTT_ERROR_CORRUPT },
		{ "freq-zero", LTT_ERROR_CORRUPT },
		{ "event-past-subbuf", LTT_ERROR_CORRUPT },
		{ "unknown-facility-big", LTT_ERROR_DESCRIPTION },
		{ "bad-xml", LTT_ERROR_DESCRIPTION },
	};
	unsigned fails = 0;

	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		char *dir = spoiled(want[i].kind);
		ltt_error *err = dir ? read_all(dir) : NULL;

		if (!ok(err && ltt_error_get_code(err) == want[i].code,
			"%s: %s", want[i].kind, ltt_error_code_name(want[i].code)))
			printf("#   got %s: %s\n", ltt_error_code_name(ltt_error_get_code(err)),
			       ltt_error_message(err));
		ltt_error_free(err);
		g_free(dir);
	}
	/* every "fail" kind of the writer is in the table above */
	for (const lttw_bad_kind *k = lttw_bad_kinds(); k->name; k++) {
		int listed = 0;

		for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++)
			listed |= strcmp(want[i].kind, k->name) == 0;
		if (strcmp(k->expect, "fail") == 0 && !listed) {
			printf("#   no code checked for the bad kind %s\n", k->name);
			fails++;
		}
	}
	is_int(fails, 0, "every failing bad kind of the writer has its code checked");
}

static void expect_open_fails(const char *path, ltt_error_code code, const char *what)
{
	ltt_error *err = NULL;
	ltt_trace *t = ltt_trace_open(path, NULL, &err);

	ok(!t && ltt_error_get_code(err) == code, "%s: %s (%s)", what,
	   ltt_error_code_name(code), ltt_error_message(err));
	ltt_trace_close(t);
	ltt_error_free(err);
}

static void test_other_codes(void)
{
	ltt_error *err = NULL;
	ltt_description *desc;
	char *path;
	FILE *f;

	path = g_strdup_printf("%s/nope", tmpdir);
	expect_open_fails(path, LTT_ERROR_IO, "a missing folder");
	g_free(path);

	path = g_strdup_printf("%s/plain", tmpdir);
	f = fopen(path, "w");
	if (f)
		fclose(f);
	expect_open_fails(path, LTT_ERROR_IO, "a file, not a folder");
	g_free(path);

	path = g_strdup_printf("%s/empty", tmpdir);
	g_mkdir(path, 0755);
	expect_open_fails(path, LTT_ERROR_NOT_A_TRACE, "an empty folder");
	g_free(path);

	desc = ltt_description_parse("<facility name=\"x\"><event", 26, "x.xml", &err);
	ok(!desc && ltt_error_get_code(err) == LTT_ERROR_DESCRIPTION,
	   "malformed XML: description (%s)", ltt_error_message(err));
	ltt_description_free(desc);
	ltt_error_free(err), err = NULL;

	path = g_strdup_printf("%s/huge.xml", tmpdir);
	f = fopen(path, "w");
	if (f) {
		for (int i = 0; i < LTT_DESCRIPTION_MAX_BYTES / 64 + 1; i++)
			fprintf(f, "<!-- %56d -->\n", i);
		fclose(f);
	}
	desc = ltt_description_load(path, &err);
	ok(!desc && ltt_error_get_code(err) == LTT_ERROR_DESCRIPTION,
	   "a description over LTT_DESCRIPTION_MAX_BYTES: description (%s)",
	   ltt_error_message(err));
	ltt_description_free(desc);
	ltt_error_free(err), err = NULL;
	g_free(path);
}

/*
 * A valid trace whose 500th event of cpu_0 says it runs past its
 * sub-buffer: the iterator reads the events before it, then fails.
 */
static char *broken_midway(void)
{
	char *dir = spoiled(NULL), *path;
	ltt_trace *t = dir ? ltt_trace_open(dir, NULL, NULL) : NULL;
	ltt_iter *it = t ? ltt_iter_new(&t, 1, NULL) : NULL;
	const ltt_event *ev;
	uint64_t off = 0;
	unsigned n = 0;
	FILE *f;

	while (it && ltt_iter_next(it, &ev, NULL) > 0)
		if (strcmp(ltt_tracefile_relpath(ltt_event_tracefile(ev)), "cpu_0") == 0 &&
		    ++n == 500) {
			off = ltt_event_file_offset(ev);
			break;
		}
	ltt_iter_free(it);
	ltt_trace_close(t);
	if (!off)
		return NULL;
	path = g_strdup_printf("%s/cpu_0", dir);
	f = fopen(path, "r+b");
	g_free(path);
	/* event_size of struct ltt_event_header_hb: 4 + 1 + 1 bytes in */
	if (!f || fseek(f, (long)off + 6, SEEK_SET) != 0 ||
	    fwrite("\xfe\xff", 1, 2, f) != 2) {
		if (f)
			fclose(f);
		return NULL;
	}
	fclose(f);
	return dir;
}

/*
 * After an error the iterator stays failed: every later call returns -1
 * and the same error, never the broken event nor the other tracefiles'
 * events; a seek too.
 */
static void test_sticky_iterator(void)
{
	char *dir = broken_midway();
	ltt_error *err = NULL, *again = NULL;
	ltt_trace *t = dir ? ltt_trace_open(dir, NULL, &err) : NULL;
	ltt_iter *it = t ? ltt_iter_new(&t, 1, &err) : NULL;
	const ltt_event *ev = NULL;
	unsigned before = 0, returned = 0, same = 0;
	int r;

	if (!ok(it != NULL, "a trace broken midway opens (%s)", ltt_error_message(err))) {
		ltt_error_free(err);
		ltt_trace_close(t);
		g_free(dir);
		return;
	}
	while ((r = ltt_iter_next(it, &ev, &err)) > 0)
		before++;
	ok(r == -1 && before > 500, "the iterator fails after the events before (%u): %s",
	   before, ltt_error_message(err));
	is_int(ltt_error_get_code(err), LTT_ERROR_CORRUPT, "the error is corrupt");
	for (int i = 0; i < 6; i++) {
		ev = NULL;
		r = ltt_iter_next(it, &ev, &again);
		returned += r != -1 || ev != NULL;
		same += again && ltt_error_get_code(again) == ltt_error_get_code(err) &&
			strcmp(ltt_error_message(again), ltt_error_message(err)) == 0;
		ltt_error_free(again), again = NULL;
	}
	is_int(returned, 0, "six more ltt_iter_next(): -1 each time, no event");
	is_int(same, 6, "each with the same error, as a copy of its own");
	is_int(ltt_iter_next(it, &ev, NULL), -1, "without an error to fill: -1 too");
	r = ltt_iter_seek_time(it, ltt_trace_get_info(t)->first_event_ns, &again);
	ok(r == -1 && again && strcmp(ltt_error_message(again), ltt_error_message(err)) == 0,
	   "a seek after the error: -1 and the same error");
	ltt_error_free(again);
	ltt_error_free(err);
	ltt_iter_free(it);
	ltt_trace_close(t);
	g_free(dir);
}

/* A valid trace opened with options of each size. */
static void test_sized_options(const char *dir)
{
	struct { ltt_open_options o; uint64_t newer; } big;
	ltt_open_options zero = { 0 };
	ltt_error *err = NULL;
	ltt_trace *t;

	t = ltt_trace_open(dir, &zero, &err);
	ok(!t && ltt_error_get_code(err) == LTT_ERROR_INVALID &&
	   strstr(ltt_error_message(err), "ltt_open_options.size is 0"),
	   "options without their size: invalid (%s)", ltt_error_message(err));
	ltt_trace_close(t);
	ltt_error_free(err), err = NULL;

	memset(&big, 0, sizeof(big));
	big.o.size = sizeof(big);
	t = ltt_trace_open(dir, &big.o, &err);
	ok(t != NULL, "options of a newer header, its new members unset: accepted");
	ltt_trace_close(t);
	ltt_error_free(err), err = NULL;

	big.newer = 1;
	t = ltt_trace_open(dir, &big.o, &err);
	ok(!t && ltt_error_get_code(err) == LTT_ERROR_INVALID,
	   "options of a newer header, a new member set: invalid (%s)", ltt_error_message(err));
	ltt_trace_close(t);
	ltt_error_free(err), err = NULL;

	t = ltt_trace_open(dir, NULL, &err);
	ok(t != NULL, "no options: the defaults");
	ltt_trace_close(t);
	ltt_error_free(err);
}

#define TAIL 24
/* Fills `size` bytes at p (a struct and a tail) with 0xA5. */
static void *dirty(void *p, size_t size)
{
	return memset(p, 0xA5, size);
}

static int zeroed(const unsigned char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i])
			return 0;
	return 1;
}

/* The structs the library fills, at three sizes: the header's, a newer
 * header's (larger: the tail comes back zeroed), and below 0.7.0's. */
static void test_sized_outputs(const char *dir)
{
	ltt_trace *t = ltt_trace_open(dir, NULL, NULL);
	ltt_iter *it = t ? ltt_iter_new(&t, 1, NULL) : NULL;
	ltt_state *st = ltt_state_new();
	const ltt_event *ev;
	unsigned fields = 0, fields_same = 0, fields_tail = 0, small = 0;
	int64_t end = 0;

	if (!ok(it != NULL, "the valid trace opens")) {
		ltt_trace_close(t);
		ltt_state_free(st);
		return;
	}
	while (ltt_iter_next(it, &ev, NULL) > 0) {
		ltt_state_process_event(st, ev);
		end = ltt_event_time_ns(ev);
		for (int i = 0; i < ltt_event_num_fields(ev); i++) {
			struct { ltt_value v; unsigned char tail[TAIL]; } big;
			ltt_value v;

			dirty(&big, sizeof(big));
			if (ltt_event_field(ev, i, &v) < 0)
				continue;
			fields++;
			fields_same += ltt_event_field_sized(ev, i, &big.v, sizeof(big)) == 0 &&
				       v.kind == big.v.kind && v.size == big.v.size &&
				       v.u == big.v.u && v.str == big.v.str && v.label == big.v.label;
			fields_tail += zeroed(big.tail, TAIL);
			small += ltt_event_field_sized(ev, i, &big.v, offsetof(ltt_value, label)) == -1;
		}
	}
	ok(fields > 1000 && fields_same == fields,
	   "ltt_event_field() into a larger ltt_value: the same values (%u fields)", fields);
	is_int(fields_tail, fields, "and the larger ltt_value's tail zeroed");
	is_int(small, fields, "an ltt_value smaller than 0.7.0's: -1");

	unsigned procs = ltt_state_num_processes(st), same = 0, tails = 0, refused = 0;

	for (unsigned i = 0; i < procs; i++) {
		struct { ltt_state_process_info p; unsigned char tail[TAIL]; } big;
		ltt_state_process_info p;

		dirty(&big, sizeof(big));
		same += ltt_state_process(st, i, &p) == 0 &&
			ltt_state_process_sized(st, i, &big.p, sizeof(big)) == 0 &&
			memcmp(&p, &big.p, sizeof(p)) == 0;
		tails += zeroed(big.tail, TAIL);
		refused += ltt_state_process_sized(st, i, &p, offsetof(ltt_state_process_info, cpu_ns)) == -1;
	}
	ok(procs > 10 && same == procs, "process info at a newer size: the same (%u processes)", procs);
	is_int(tails, procs, "process info at a newer size: the tail zeroed");
	is_int(refused, procs, "process info below 0.7.0's size: -1");

	unsigned irqs = ltt_state_num_irqs(st), irq_same = 0;

	for (unsigned i = 0; i < irqs; i++) {
		struct { ltt_state_irq_info q; unsigned char tail[TAIL]; } big;
		ltt_state_irq_info q;

		dirty(&big, sizeof(big));
		irq_same += ltt_state_irq(st, i, &q) == 0 &&
			    ltt_state_irq_sized(st, i, &big.q, sizeof(big)) == 0 &&
			    memcmp(&q, &big.q, sizeof(q)) == 0 && zeroed(big.tail, TAIL) &&
			    ltt_state_irq_sized(st, i, &q, sizeof(q) - 1) == -1;
	}
	ok(irqs > 0 && irq_same == irqs, "irq info: larger the same, smaller refused (%u)", irqs);

	unsigned sirqs = ltt_state_num_softirqs(st), sirq_same = 0;

	for (unsigned i = 0; i < sirqs; i++) {
		struct { ltt_state_softirq_info q; unsigned char tail[TAIL]; } big;
		ltt_state_softirq_info q;

		dirty(&big, sizeof(big));
		sirq_same += ltt_state_softirq(st, i, &q) == 0 &&
			     ltt_state_softirq_sized(st, i, &big.q, sizeof(big)) == 0 &&
			     memcmp(&q, &big.q, sizeof(q)) == 0 && zeroed(big.tail, TAIL) &&
			     ltt_state_softirq_sized(st, i, &q, sizeof(q) - 1) == -1;
	}
	ok(sirqs > 0 && sirq_same == sirqs, "softirq info: larger the same, smaller refused (%u)", sirqs);

	/* rows of a newer header's size: the same rows, at its stride */
	struct wide { ltt_state_cpu_time r; unsigned char tail[TAIL]; } *wide = NULL;
	ltt_state_cpu_time *rows = NULL, *none = (ltt_state_cpu_time *)1;
	unsigned n = ltt_state_cpu_times(NULL, INT64_MIN, st, end, &rows);
	unsigned nw = ltt_state_cpu_times_sized(NULL, INT64_MIN, st, end,
						(ltt_state_cpu_time **)&wide, sizeof(*wide));
	unsigned rows_same = 0;

	for (unsigned i = 0; wide && i < n && i < nw; i++)
		rows_same += memcmp(&rows[i], &wide[i].r, sizeof(rows[i])) == 0 &&
			     zeroed(wide[i].tail, TAIL);
	ok(n > 5 && nw == n && rows_same == n,
	   "CPU time rows at a newer size: the same rows, its stride (%u rows)", n);
	is_int(ltt_state_cpu_times_sized(NULL, INT64_MIN, st, end, &none, 8), 0,
	       "CPU time rows below 0.7.0's size: none");
	ok(none == NULL, "and *out NULL");
	free(rows);
	free(wide);
	ltt_state_free(st);
	ltt_iter_free(it);
	ltt_trace_close(t);
}

/* ---- ltt_reader: one tracefile in file order ---- */

/* One line per event: what a reader and the iterator must agree on. */
static void describe(GString *s, const ltt_event *ev)
{
	char fields[512];

	ltt_event_format_fields(ev, LTT_FORMAT_NAMES, fields, sizeof(fields));
	g_string_append_printf(s, "%" PRIu64 " %" PRId64 " %s.%s %s\n", ltt_event_cycles(ev),
			       ltt_event_time_ns(ev), ltt_event_facility_name(ev),
			       ltt_event_name(ev), fields);
}

typedef struct reader_job {
	ltt_tracefile *tf;
	ltt_reader *r;
	GString *got;
	int status;
} reader_job;

/* A tracefile read in batches, in a thread of its own. */
static gpointer read_batches(gpointer data)
{
	reader_job *j = data;
	const ltt_event *const *evs;
	ltt_error *err = NULL;
	int n;

	while ((n = ltt_reader_next_batch(j->r, &evs, &err)) > 0)
		for (int i = 0; i < n; i++)
			describe(j->got, evs[i]);
	j->status = n;
	ltt_error_free(err);
	return NULL;
}

/*
 * Each tracefile's events from a reader (one at a time, then in batches in
 * one thread per tracefile, all at once) are the iterator's events of that
 * tracefile, in the same order, with the same fields.
 */
static void test_reader_agrees(const char *dir)
{
	ltt_error *err = NULL;
	ltt_trace *t = ltt_trace_open(dir, NULL, &err);
	unsigned n = t ? ltt_trace_num_tracefiles(t) : 0, same = 0, same_batch = 0;
	GString **want = g_new0(GString *, n ? n : 1);
	reader_job *jobs = g_new0(reader_job, n ? n : 1);
	GThread **th = g_new0(GThread *, n ? n : 1);
	uint64_t total = 0;
	ltt_iter *it;
	const ltt_event *ev;

	if (!ok(t != NULL, "%s opens", dir)) {
		ltt_error_free(err);
		return;
	}
	for (unsigned i = 0; i < n; i++)
		want[i] = g_string_new(NULL);
	it = ltt_iter_new(&t, 1, &err);
	while (it && ltt_iter_next(it, &ev, &err) > 0) {
		for (unsigned i = 0; i < n; i++)
			if (ltt_event_tracefile(ev) == ltt_trace_tracefile(t, i))
				describe(want[i], ev);
		total++;
	}
	ltt_iter_free(it);
	for (unsigned i = 0; i < n; i++) {
		ltt_reader *r = ltt_reader_new(ltt_trace_tracefile(t, i));
		GString *got = g_string_new(NULL);
		int ret;

		while ((ret = ltt_reader_next(r, &ev, &err)) > 0)
			describe(got, ev);
		same += ret == 0 && g_string_equal(got, want[i]);
		ltt_reader_free(r);
		g_string_free(got, TRUE);
	}
	for (unsigned i = 0; i < n; i++) {
		jobs[i].tf = ltt_trace_tracefile(t, i);
		jobs[i].r = ltt_reader_new(jobs[i].tf);
		jobs[i].got = g_string_new(NULL);
		th[i] = g_thread_new("reader", read_batches, &jobs[i]);
	}
	for (unsigned i = 0; i < n; i++) {
		g_thread_join(th[i]);
		same_batch += jobs[i].status == 0 && g_string_equal(jobs[i].got, want[i]);
		ltt_reader_free(jobs[i].r);
		g_string_free(jobs[i].got, TRUE);
		g_string_free(want[i], TRUE);
	}
	ok(total > 0 && same == n, "%s: each of the %u tracefiles read alone gives the "
	   "iterator's events (%" PRIu64 "), in order, one at a time", dir, n, total);
	ok(total > 0 && same_batch == n, "%s: the same in batches, a thread per tracefile", dir);
	ltt_error_free(err);
	ltt_trace_close(t);
	g_free(want);
	g_free(jobs);
	g_free(th);
}

/*
 * ltt-decode.h's readers of the facility_load and buffer_stats payloads
 * (lttd's, and the library's for its facility table and loss counts) give
 * what the descriptions core.xml and channel.xml give, field by field.
 */
static void test_decode_agrees(const char *dir)
{
	static const char *const uints[] = { "checksum", "id", "int_size",
		"long_size", "pointer_size", "size_t_size", "has_alignment" };
	ltt_error *err = NULL;
	ltt_trace *t = ltt_trace_open(dir, NULL, &err);
	unsigned loads = 0, loads_same = 0, stats = 0, stats_same = 0;
	ltt_iter *it;
	const ltt_event *ev;

	if (!ok(t != NULL, "%s opens", dir)) {
		ltt_error_free(err);
		return;
	}
	unsigned a = ltt_trace_get_info(t)->has_alignment;

	it = ltt_iter_new(&t, 1, &err);
	while (it && ltt_iter_next(it, &ev, &err) > 0) {
		size_t size;
		const void *p = ltt_event_payload(ev, &size);
		const char *fac = ltt_event_facility_name(ev);
		const char *name = ltt_event_name(ev);

		if (!fac || !name)
			continue;
		if (!strcmp(fac, "core") && (!strcmp(name, "facility_load") ||
					     !strcmp(name, "state_dump_facility_load"))) {
			struct ltt_facility_load_fields f;
			const char *s = ltt_event_get_string(ev, "name");
			int same = ltt_facility_load_read(p, size, a,
							  ltt_trace_get_info(t)->arch_size, &f) == 0 &&
				   s && !strcmp(s, f.name);
			const uint32_t *v = &f.checksum;

			for (size_t i = 0; same && i < G_N_ELEMENTS(uints); i++)
				same = ltt_event_get_uint(ev, uints[i], UINT64_MAX) == v[i];
			loads++;
			loads_same += same;
		} else if (!strcmp(fac, "channel") && !strcmp(name, "buffer_stats")) {
			uint32_t lost, bad;

			stats++;
			stats_same += ltt_buffer_stats_read(p, size, &lost, &bad) == 0 &&
				      ltt_event_get_uint(ev, "events_lost", UINT64_MAX) == lost &&
				      ltt_event_get_uint(ev, "corrupted_subbuffers", UINT64_MAX) == bad;
		}
	}
	ltt_iter_free(it);
	ok(loads > 0 && loads_same == loads, "%s: ltt-decode.h reads the %u facility_load "
	   "events as core.xml does (%u agree)", dir, loads, loads_same);
	ok(stats_same == stats, "%s: ltt-decode.h reads the %u buffer_stats events as "
	   "channel.xml does (%u agree)", dir, stats, stats_same);
	ltt_error_free(err);
	ltt_trace_close(t);
}

/* A reader that met corrupt data fails again, with the same error. */
static void test_sticky_reader(void)
{
	char *dir = spoiled("event-past-subbuf");
	ltt_error *err = NULL, *again = NULL;
	ltt_trace *t = dir ? ltt_trace_open(dir, NULL, &err) : NULL;
	ltt_reader *r = NULL;
	const ltt_event *ev;
	int ret = 0, ret2;

	for (unsigned i = 0; t && i < ltt_trace_num_tracefiles(t); i++)
		if (!strcmp(ltt_tracefile_relpath(ltt_trace_tracefile(t, i)), "cpu_0"))
			r = ltt_reader_new(ltt_trace_tracefile(t, i));
	if (!ok(r != NULL, "event-past-subbuf: cpu_0 has a reader")) {
		ltt_trace_close(t);
		g_free(dir);
		return;
	}
	while ((ret = ltt_reader_next(r, &ev, &err)) > 0)
		;
	ret2 = ltt_reader_next(r, &ev, &again);
	ok(ret == -1 && err && ltt_error_get_code(err) == LTT_ERROR_CORRUPT,
	   "event-past-subbuf: the reader fails with LTT_ERROR_CORRUPT");
	ok(ret2 == -1 && again && err && !strcmp(ltt_error_message(err), ltt_error_message(again)),
	   "and again, with the same message, when asked once more");
	ltt_error_free(err);
	ltt_error_free(again);
	ltt_reader_free(r);
	ltt_trace_close(t);
	g_free(dir);
}

/* Bytes this process has read so far (rchar of /proc/self/io), -1 if unknown. */
static long long bytes_read(void)
{
	char *text = NULL, *at;
	long long n = -1;

	if (g_file_get_contents("/proc/self/io", &text, NULL, NULL) &&
	    (at = strstr(text, "rchar: ")))
		n = strtoll(at + 7, NULL, 10);
	g_free(text);
	return n;
}

/* The bytes of a trace's processes channel (control/processes_*). */
static long long processes_bytes(const char *dir)
{
	long long n = 0;

	for (unsigned cpu = 0; cpu < 64; cpu++) {
		char *path = g_strdup_printf("%s/control/processes_%u", dir, cpu);
		GStatBuf sb;

		if (g_stat(path, &sb) == 0)
			n += (long long)sb.st_size;
		g_free(path);
	}
	return n;
}

/* The irq_id field of the next kernel.irq_entry of it (-1: none left). */
static int next_irq_entry(ltt_iter *it, ltt_value *v)
{
	const ltt_event *ev;
	ltt_error *err = NULL;
	int r;

	while ((r = ltt_iter_next(it, &ev, &err)) > 0)
		if (!strcmp(ltt_event_facility_name(ev), "kernel") &&
		    !strcmp(ltt_event_name(ev), "irq_entry"))
			return ltt_event_field(ev, ltt_event_field_index(ev, "irq_id"), v);
	ltt_error_free(err);
	return -1;
}

/*
 * The IRQ names come from the state dump, read when a tool first asks for
 * one: a trace whose dump has no end (the big mix: its statedump facility
 * is loaded, no statedump_end written) is not searched to the end of its
 * processes channel at the open, only at the first IRQ named.
 */
static void test_irq_names_lazy(void)
{
	const char *build = getenv("BUILD") ? getenv("BUILD") : "build";
	char *dir = g_strdup_printf("%s/dumpless", tmpdir);
	char *cmd = g_strdup_printf("%s/bin/ltt-tracegen --scenario big --events 4000000 -o '%s'"
				    " > /dev/null", build, dir);
	long long procs, before, opened, named;
	ltt_error *err = NULL;
	ltt_trace *t;
	ltt_iter *it;
	ltt_value v;

	if (system(cmd) != 0 || bytes_read() < 0 || (procs = processes_bytes(dir)) < 1000000) {
		ok(0, "a dump-less trace to open (%s), and /proc/self/io", cmd);
		g_free(cmd);
		g_free(dir);
		return;
	}
	before = bytes_read();
	t = ltt_trace_open(dir, NULL, &err);
	opened = bytes_read();
	ok(t != NULL, "the dump-less trace opens");
	if (!t) {
		ltt_error_free(err);
		g_free(cmd);
		g_free(dir);
		return;
	}
	ok(opened - before < procs / 3,
	   "the open reads %lld bytes, not the processes channel's %lld", opened - before, procs);
	it = ltt_iter_new(&t, 1, NULL);
	before = bytes_read();
	ok(it && next_irq_entry(it, &v) == 0 && v.label == NULL,
	   "its first irq_entry's irq_id has no name (no state dump names it)");
	named = bytes_read();
	ok(named - before >= procs / 2,
	   "asking for it searched the processes channel for the dump's end (%lld bytes of %lld)",
	   named - before, procs);
	ok(next_irq_entry(it, &v) == 0 && bytes_read() - named < procs / 4,
	   "and only once: the next irq_entry reads on");
	ltt_iter_free(it);
	ltt_trace_close(t);
	g_free(cmd);
	g_free(dir);
}

/* The names of every irq_entry's IRQ of a trace, joined, in time order. */
typedef struct irq_job {
	ltt_trace *t;
	GString *names;
	unsigned named;
} irq_job;

static gpointer irq_names_of(gpointer data)
{
	irq_job *j = data;
	ltt_iter *it = ltt_iter_new(&j->t, 1, NULL);
	ltt_value v;

	j->names = g_string_new(NULL);
	while (it && next_irq_entry(it, &v) >= 0)
		if (v.label) {
			g_string_append_printf(j->names, "%" PRIu64 "=%s,", v.u, v.label);
			j->named++;
		}
	ltt_iter_free(it);
	return NULL;
}

/* Two threads ask a freshly opened trace for its IRQ names at once: both
 * wait for the one read, and get the names one thread alone gets. */
static void test_irq_names_threads(const char *dir)
{
	irq_job alone = { 0 }, both[2] = { { 0 } };
	GThread *th;

	alone.t = ltt_trace_open(dir, NULL, NULL);
	both[0].t = both[1].t = ltt_trace_open(dir, NULL, NULL);
	if (!alone.t || !both[0].t) {
		ok(0, "%s opens", dir);
		return;
	}
	irq_names_of(&alone);
	th = g_thread_new("irq-names", irq_names_of, &both[1]);
	irq_names_of(&both[0]);
	g_thread_join(th);
	ok(alone.named > 100, "%s: %u irq_entry events with a name", dir, alone.named);
	ok(!strcmp(both[0].names->str, alone.names->str) &&
	   !strcmp(both[1].names->str, alone.names->str),
	   "two threads asking at once get the same names (%u, %u)", both[0].named, both[1].named);
	for (unsigned i = 0; i < 2; i++)
		g_string_free(both[i].names, TRUE);
	g_string_free(alone.names, TRUE);
	ltt_trace_close(alone.t);
	ltt_trace_close(both[0].t);
}

int main(void)
{
	tmpdir = g_dir_make_tmp("ltt-test-api-XXXXXX", NULL);
	test_version();
	test_no_error();
	test_bad_kind_codes();
	test_other_codes();
	test_sticky_iterator();
	test_sticky_reader();
	test_reader_agrees("traces/sample-synthetic");
	test_reader_agrees("traces/types-synthetic");
	test_reader_agrees("traces/qemu-busybox");
	test_decode_agrees("traces/sample-synthetic");
	test_decode_agrees("traces/types-synthetic");
	test_decode_agrees("traces/qemu-busybox");
	test_decode_agrees("traces/qemu-usertrace");
	test_irq_names_lazy();
	test_irq_names_threads("traces/qemu-busybox");
	char *valid = spoiled(NULL);

	if (valid) {
		test_sized_options(valid);
		test_sized_outputs(valid);
	}
	g_free(valid);
	tap_remove_tree(tmpdir);
	g_free(tmpdir);
	return tap_done();
}
