/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_state_live.c - a live state index (ltt_state_index_options.live)
 * carried on as its trace grows (ltt_state_index_extend) is the index of
 * the finished trace: the trace is written sub-buffer by sub-buffer as
 * lttd does (by the time each ends), opened again after each few and the
 * index extended (or built again where it cannot be), then compared with
 * an index of the finished trace by what it shows (every row's intervals,
 * every process's facts, the events and checkpoints). cpu_1 appears in
 * the middle of the trace, as a CPU brought online would. Then a file
 * that shrinks and one that is replaced are refused, with why.
 */
#include <errno.h>
#include <fcntl.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ltttrace.h"
#include "ltttrace-state.h"
#include "tap.h"

#define SUB 8192	/* the generated trace's sub-buffers */

typedef struct sub {
	uint64_t key;		/* when the writer hands it over (cycles) */
	const char *file;	/* relative to the trace */
	const char *data;	/* SUB bytes */
} sub;

static int by_key(const void *a, const void *b)
{
	const sub *x = a, *y = b;

	return x->key < y->key ? -1 : x->key > y->key ? 1 : strcmp(x->file, y->file);
}

static uint64_t u64_at(const char *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return GUINT64_FROM_LE(v);
}

static int append(const char *dir, const char *file, const char *data, size_t n)
{
	char *p = g_build_filename(dir, file, NULL);
	FILE *f = fopen(p, "ab");
	int r = f && fwrite(data, 1, n, f) == n ? 0 : -1;

	if (f && fclose(f) != 0)
		r = -1;
	g_free(p);
	return r;
}

static ltt_trace *open_trace(const char *dir, int live)
{
	ltt_open_options o = { .size = sizeof(o), .live = (unsigned)live };
	ltt_error *err = NULL;
	ltt_trace *t = ltt_trace_open(dir, &o, &err);

	ltt_error_free(err);
	return t;
}

static ltt_state_index *new_index(ltt_trace *t, int live)
{
	ltt_state_index_options o = { .size = sizeof(o), .live = (unsigned)live };

	return ltt_state_index_new(&t, 1, &o, NULL);
}

static int run_all(ltt_state_index *idx)
{
	int r;

	while ((r = ltt_state_index_run(idx, 997, NULL)) > 0)
		;
	return r;
}

static void fnv(uint64_t *h, const void *p, size_t n)
{
	const uint8_t *b = p;

	for (size_t i = 0; i < n; i++)
		*h = (*h ^ b[i]) * 0x100000001b3ull;
}

static void hash_interval(void *user, int64_t s, int64_t e, ltt_state_kind k)
{
	int64_t v[3] = { s, e, (int64_t)k };

	fnv(user, v, sizeof(v));
}

/* What the index shows, as one number. */
static uint64_t shown(const ltt_state_index *idx)
{
	const ltt_state *st = ltt_state_index_state(idx);
	int64_t t0 = ltt_state_index_start_ns(idx), t1 = ltt_state_index_indexed_ns(idx);
	uint64_t h = 0xcbf29ce484222325ull, events = ltt_state_index_num_events(idx);
	unsigned cps = ltt_state_index_num_checkpoints(idx);
	unsigned n[4] = { ltt_state_num_processes(st), ltt_state_num_cpus(st),
			  ltt_state_num_irqs(st), ltt_state_num_softirqs(st) };

	fnv(&h, &events, sizeof(events));
	fnv(&h, &cps, sizeof(cps));
	fnv(&h, &t0, sizeof(t0));
	fnv(&h, &t1, sizeof(t1));
	fnv(&h, n, sizeof(n));
	for (unsigned type = 0; type < 4; type++)
		for (unsigned i = 0; i < n[type]; i++) {
			if (type == LTT_STATE_ROW_PROCESS) {
				ltt_state_process_info p;

				ltt_state_process(st, i, &p);
				fnv(&h, p.name, strlen(p.name));
				p.name = NULL;
				p.mode_name = NULL;
				fnv(&h, &p, sizeof(p));
			}
			ltt_state_index_intervals(idx, (ltt_state_row_type)type, i, t0, t1, 0,
						  hash_interval, &h);
		}
	return h;
}

/* The sub-buffers of src's tracefiles, in the order the writer hands them
 * over: each when it ends, but cpu_1 begins in the middle of the trace
 * (its first half left out) and its first sub-buffer comes when it
 * begins, so that it appears after what the index waited for. */
static GArray *plan(const char *src, GPtrArray *keep)
{
	GArray *subs = g_array_new(FALSE, FALSE, sizeof(sub));
	const char *dirs[] = { "", "control" };

	for (unsigned d = 0; d < 2; d++) {
		char *path = g_build_filename(src, dirs[d], NULL);
		GDir *dir = g_dir_open(path, 0, NULL);
		const char *name;

		while (dir && (name = g_dir_read_name(dir))) {
			char *rel = *dirs[d] ? g_build_filename(dirs[d], name, NULL) : g_strdup(name);
			char *full = g_build_filename(src, rel, NULL);
			char *data = NULL;
			gsize len = 0;
			unsigned skip;

			if ((!*dirs[d] && strncmp(name, "cpu_", 4)) ||
			    !g_file_get_contents(full, &data, &len, NULL)) {
				g_free(rel);
				g_free(full);
				continue;
			}
			g_ptr_array_add(keep, rel);
			g_ptr_array_add(keep, data);
			skip = !strcmp(rel, "cpu_1") ? (unsigned)(len / SUB / 2) : 0;
			for (gsize off = (gsize)skip * SUB; off + SUB <= len; off += SUB) {
				sub s = { u64_at(data + off + 16), rel, data + off };

				if (skip && off == (gsize)skip * SUB)
					s.key = u64_at(data + off);	/* its begin */
				g_array_append_val(subs, s);
			}
			g_free(full);
		}
		if (dir)
			g_dir_close(dir);
		g_free(path);
	}
	g_array_sort(subs, by_key);
	return subs;
}

static int copy_dir(const char *from, const char *to)
{
	GDir *d = g_dir_open(from, 0, NULL);
	const char *name;
	int r = d ? 0 : -1;

	g_mkdir_with_parents(to, 0755);
	while (d && (name = g_dir_read_name(d))) {
		char *a = g_build_filename(from, name, NULL), *b = g_build_filename(to, name, NULL);
		char *data;
		gsize len;

		if (!g_file_get_contents(a, &data, &len, NULL) ||
		    !g_file_set_contents(b, data, (gssize)len, NULL))
			r = -1;
		else
			g_free(data);
		g_free(a);
		g_free(b);
	}
	if (d)
		g_dir_close(d);
	return r;
}

static char *tracegen(const char *tmp)
{
	const char *b = getenv("BUILD");
	char *gen = g_strdup_printf("%s/bin/ltt-tracegen", b ? b : "build");
	char *out = g_build_filename(tmp, "src", NULL);
	char *argv[] = { gen, "--scenario", "busy", "--events", "60000", "--subbuf-size", "8192",
			 "-o", out, NULL };
	int status = -1;

	if (!g_file_test(gen, G_FILE_TEST_IS_EXECUTABLE) ||
	    !g_spawn_sync(NULL, argv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL | G_SPAWN_STDERR_TO_DEV_NULL,
			  NULL, NULL, NULL, NULL, &status, NULL) || status != 0) {
		g_free(out);
		out = NULL;
	}
	g_free(gen);
	return out;
}

/* The trace written into dst step by step, followed: 0 when every step ran. */
static int follow(const char *src, const char *dst, GArray *subs, uint64_t *digest,
		  unsigned *carried, unsigned *rebuilt, int *cpu1_carried)
{
	char *e1 = g_build_filename(src, "eventdefs", NULL), *e2 = g_build_filename(dst, "eventdefs", NULL);
	char *c2 = g_build_filename(dst, "control", NULL);
	ltt_trace *t = NULL;
	ltt_state_index *idx = NULL;
	int bad = copy_dir(e1, e2) < 0 || g_mkdir_with_parents(c2, 0755) < 0, cpu1 = 0;

	*cpu1_carried = -1;
	for (guint i = 0; i < subs->len && !bad;) {
		ltt_trace *nt;
		char *why = NULL;

		/* three at a time, as lttd hands them over */
		for (guint k = 0; k < 3 && i < subs->len; k++, i++) {
			const sub *s = &g_array_index(subs, sub, i);

			cpu1 |= !strcmp(s->file, "cpu_1");
			bad |= append(dst, s->file, s->data, SUB) < 0;
		}
		if (!(nt = open_trace(dst, 1)))
			continue;	/* no tracefile whole yet */
		if (idx && ltt_state_index_extend(idx, &nt, 1, &why, NULL) == 0) {
			(*carried)++;
			if (cpu1 == 1)
				*cpu1_carried = 1;
		} else {
			if (idx) {
				(*rebuilt)++;
				if (cpu1 == 1)
					*cpu1_carried = 0;
				printf("# built again: %s\n", why ? why : "?");
			}
			ltt_state_index_free(idx);
			idx = new_index(nt, 1);
		}
		if (cpu1)
			cpu1 = 2;	/* its first opening seen */
		g_free(why);
		if (t)
			ltt_trace_close(t);
		t = nt;
		bad |= !idx || run_all(idx) < 0;
	}
	if (idx) {
		ltt_state_index_to_end(idx);	/* it stopped growing */
		bad |= run_all(idx) < 0;
		*digest = shown(idx);
	}
	ltt_state_index_free(idx);
	if (t)
		ltt_trace_close(t);
	g_free(e1);
	g_free(e2);
	g_free(c2);
	return bad || !idx ? -1 : 0;
}

/* A live index of dst, then dst changed by change(): refused, why said. */
static void refused(const char *dst, const char *what, int (*change)(const char *),
		    const char *because)
{
	ltt_trace *t = open_trace(dst, 1), *nt = NULL;
	ltt_state_index *idx = t ? new_index(t, 1) : NULL;
	char *why = NULL;
	int r = -2;

	if (idx && run_all(idx) == 0 && change(dst) == 0 && (nt = open_trace(dst, 1)))
		r = ltt_state_index_extend(idx, &nt, 1, &why, NULL);
	ok(r == 1 && why && strstr(why, because), "%s: not carried on, said (\"%s\")", what,
	   why ? why : "");
	g_free(why);
	ltt_state_index_free(idx);
	if (nt)
		ltt_trace_close(nt);
	if (t)
		ltt_trace_close(t);
}

static int shrink_cpu0(const char *dst)
{
	char *p = g_build_filename(dst, "cpu_0", NULL);
	GStatBuf st;
	int r = g_stat(p, &st) == 0 && st.st_size >= 2 * SUB ? truncate(p, st.st_size - SUB) : -1;

	g_free(p);
	return r;
}

static int replace_cpu0(const char *dst)
{
	char *p = g_build_filename(dst, "cpu_0", NULL), *data;
	gsize len;
	/* a new file, renamed over the old one: another inode */
	int r = g_file_get_contents(p, &data, &len, NULL) &&
		g_file_set_contents(p, data, (gssize)len, NULL) ? 0 : -1;

	if (r == 0)
		g_free(data);
	g_free(p);
	return r;
}

int main(void)
{
	char *tmp = g_dir_make_tmp("ltt-live-XXXXXX", NULL);
	char *src = tracegen(tmp), *dst = g_build_filename(tmp, "live", NULL);
	GPtrArray *keep = g_ptr_array_new_with_free_func(g_free);
	uint64_t followed = 0, fresh = 1;
	unsigned carried = 0, rebuilt = 0;
	int cpu1 = -1;
	ltt_trace *t;
	ltt_state_index *idx;
	GArray *subs;

	if (!src) {
		ok(1, "live index # SKIP no ltt-tracegen (make tests)");
		tap_remove_tree(tmp);
		g_free(tmp);
		g_free(dst);
		return tap_done();
	}
	subs = plan(src, keep);
	ok(subs->len > 20, "the trace has %u sub-buffers to hand over", subs->len);
	ok(follow(src, dst, subs, &followed, &carried, &rebuilt, &cpu1) == 0,
	   "the trace written and followed, step by step");
	t = open_trace(dst, 0);
	idx = t ? new_index(t, 0) : NULL;
	if (idx && run_all(idx) == 0)
		fresh = shown(idx);
	ok(followed == fresh, "followed (carried on %u times, built again %u), it shows what the "
	   "finished trace shows (%016" PRIx64 ", %016" PRIx64 ")", carried, rebuilt, followed,
	   fresh);
	ok(carried > rebuilt, "most openings carried the index on: %u of %u", carried,
	   carried + rebuilt);
	ok(cpu1 == 1, "cpu_1, appearing in the middle after what was indexed, carried it on");
	ltt_state_index_free(idx);
	if (t)
		ltt_trace_close(t);
	refused(dst, "a tracefile that shrank", shrink_cpu0, "cpu_0 shrank");
	refused(dst, "a tracefile replaced", replace_cpu0, "cpu_0 was replaced");
	g_array_free(subs, TRUE);
	g_ptr_array_free(keep, TRUE);
	tap_remove_tree(tmp);
	g_free(src);
	g_free(dst);
	g_free(tmp);
	return tap_done();
}
