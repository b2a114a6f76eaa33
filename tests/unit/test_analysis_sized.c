/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * test_analysis_sized - the results of ltttrace-analysis.h at the caller's
 * size (ltttrace.h, "Sized structs"), on traces/qemu-busybox.
 *
 * Built twice from this one file, against this tree's header:
 *   test_analysis_sized  with the library as it is;
 *   test_analysis_later  with a library built from a later header, whose
 *                        every analysis result struct has one more member
 *                        (tests/build.mk): a program built today running
 *                        with a newer libltttrace. Its elements must come
 *                        at this program's stride, its statistics must not
 *                        be written past this program's struct (under
 *                        SANITIZE=1, ASan watches the exact-size buffers).
 * The checks are the same for both: what the caller reads must hold
 * together (counts, sums, order, times inside the trace), which garbage
 * read at a wrong stride does not.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ltttrace.h"
#include "tap.h"

#define TAIL 24

static int zeroed(const unsigned char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i])
			return 0;
	return 1;
}

static int all_byte(const unsigned char *p, size_t n, unsigned char b)
{
	for (size_t i = 0; i < n; i++)
		if (p[i] != b)
			return 0;
	return 1;
}

static ltt_analysis *read_trace(const char *dir)
{
	static const char *const dirs[] = { "facilities", NULL };
	ltt_open_options opt = { .size = sizeof(opt), .facility_dirs = dirs };
	ltt_error *err = NULL;
	ltt_trace *t = ltt_trace_open(dir, &opt, &err);
	ltt_iter *it = t ? ltt_iter_new(&t, 1, &err) : NULL;
	ltt_analysis *a;
	const ltt_event *ev;

	if (!it) {
		printf("# %s: %s\n", dir, ltt_error_message(err));
		ltt_error_free(err);
		ltt_trace_close(t);
		return NULL;
	}
	a = ltt_analysis_new();
	while (ltt_iter_next(it, &ev, &err) > 0)
		ltt_analysis_process_event(a, ev);
	if (err)
		printf("# %s: %s\n", dir, ltt_error_message(err));
	ltt_error_free(err);
	ltt_iter_free(it);
	ltt_trace_close(t);
	return a;
}

/* The statistics of a group hold together with the occurrences read at
 * the caller's stride: count, total, min, max, histogram. */
static int stats_agree(const ltt_latency_stats *s, uint64_t count, uint64_t total,
		       uint64_t min, uint64_t max)
{
	uint64_t hist = 0;

	for (unsigned b = 0; b < LTT_LATENCY_HIST_BUCKETS; b++)
		hist += s->hist[b];
	return s->count == count && s->total == total && s->min == min && s->max == max &&
	       hist == count && s->p50 <= s->p90 && s->p90 <= s->p99 && s->p99 <= max;
}

static void test_kind(const ltt_analysis *a, ltt_latency_kind k)
{
	const char *kn = ltt_latency_kind_name(k);
	const ltt_state *st = ltt_analysis_state(a);
	int64_t first = ltt_analysis_first_ns(a), last = ltt_analysis_last_ns(a);
	size_t n, n2 = 99, bad = 0;
	const ltt_latency *occ = ltt_analysis_latencies(a, k, &n);
	uint64_t total = 0, min = UINT64_MAX, max = 0;
	uint64_t *d = malloc((n + 1) * sizeof(*d));

	/* occurrences at this program's stride: inside the trace */
	for (size_t i = 0; i < n; i++) {
		const ltt_latency *l = &occ[i];

		bad += l->start_ns < first || l->start_ns > last ||
		       l->duration_ns > (uint64_t)(last - first) ||
		       l->cpu >= ltt_state_num_cpus(st) ||
		       (l->process >= 0 && (unsigned)l->process >= ltt_state_num_processes(st));
		d[i] = l->duration_ns;
		total += l->duration_ns;
		min = l->duration_ns < min ? l->duration_ns : min;
		max = l->duration_ns > max ? l->duration_ns : max;
	}
	ok(k == LTT_LATENCY_FILE ? 1 : n > 10, "%s: occurrences (%zu)", kn, n);
	is_int(bad, 0, "%s: each inside the trace, on a known CPU and process", kn);

	/* a newer program's larger struct: the same members, its tail zeroed */
	struct wide { ltt_latency l; unsigned char tail[TAIL]; };
	const struct wide *w = (const struct wide *)(const void *)
		ltt_analysis_latencies_sized(a, k, &n2, sizeof(struct wide));
	size_t same = 0;

	for (size_t i = 0; w && i < n && n2 == n; i++)
		same += memcmp(&w[i].l, &occ[i], offsetof(ltt_latency, ret) + sizeof(occ[i].ret)) == 0 &&
			zeroed(w[i].tail, TAIL);
	is_int(same, n, "%s: occurrences at a newer size: the same, the tail zeroed", kn);
	n2 = 99;
	ok(ltt_analysis_latencies_sized(a, k, &n2, offsetof(ltt_latency, ret)) == NULL && n2 == 0,
	   "%s: occurrences below 0.7.0's size: NULL, none", kn);

	/* one group: the statistics of every occurrence */
	ltt_latency_group *g = NULL;
	unsigned ng = ltt_analysis_groups(a, k, LTT_GROUP_ALL, INT64_MIN, INT64_MAX, &g);

	if (n) {
		ok(ng == 1 && g && g[0].stats && stats_agree(g[0].stats, n, total, min, max),
		   "%s: the one group's statistics agree with the occurrences", kn);
		/* in the groups' allocation, after them */
		ok(ng == 1 && (const char *)g[0].stats >= (const char *)&g[2],
		   "%s: the statistics follow the groups", kn);
	}

	/* the statistics computed by the caller: into exactly its struct */
	ltt_latency_stats *exact = malloc(sizeof(*exact));
	struct { ltt_latency_stats s; unsigned char guard[TAIL]; } guarded;
	struct { ltt_latency_stats s; unsigned char tail[TAIL]; } big;

	memset(&guarded, 0xA5, sizeof(guarded));
	memset(&big, 0xA5, sizeof(big));
	is_int(ltt_latency_stats_compute(d, n, exact), 0, "%s: stats_compute", kn);
	ok(stats_agree(exact, n, n ? total : 0, n ? min : 0, max),
	   "%s: stats_compute agrees with the occurrences", kn);
	ok(!n || memcmp(exact, g[0].stats, sizeof(*exact)) == 0,
	   "%s: and with the group's", kn);
	ltt_latency_stats_compute(d, n, &guarded.s);
	ok(all_byte(guarded.guard, TAIL, 0xA5),
	   "%s: stats_compute writes nothing past this program's struct", kn);
	ok(ltt_latency_stats_compute_sized(d, n, &big.s, sizeof(big)) == 0 &&
	   memcmp(&big.s, exact, sizeof(*exact)) == 0 && zeroed(big.tail, TAIL),
	   "%s: stats_compute at a newer size: the same, the tail zeroed", kn);
	memset(&guarded, 0xA5, sizeof(guarded));
	ok(ltt_latency_stats_compute_sized(d, n, &guarded.s, sizeof(guarded.s) - 8) == -1 &&
	   all_byte((const unsigned char *)&guarded, sizeof(guarded), 0xA5),
	   "%s: stats_compute below 0.7.0's size: -1, nothing written", kn);
	free(exact);
	free(g);

	/* grouped by id: the groups' counts and totals add up, longest first */
	ng = ltt_analysis_groups(a, k, LTT_GROUP_ID, INT64_MIN, INT64_MAX, &g);
	uint64_t count_sum = 0, total_sum = 0;
	unsigned ordered = 1;

	for (unsigned i = 0; i < ng; i++) {
		count_sum += g[i].stats->count;
		total_sum += g[i].stats->total;
		if (i && g[i].stats->total > g[i - 1].stats->total)
			ordered = 0;
	}
	ok(count_sum == n && total_sum == total && ordered,
	   "%s: %u groups by id: counts and totals add up, longest first", kn, ng);

	/* the same groups at a newer program's sizes */
	struct wgroup { ltt_latency_group g; unsigned char tail[TAIL]; } *wg = NULL;
	struct wstats { ltt_latency_stats s; unsigned char tail[TAIL]; };
	unsigned nwg = ltt_analysis_groups_sized(a, k, LTT_GROUP_ID, INT64_MIN, INT64_MAX,
						 (ltt_latency_group **)&wg, sizeof(*wg),
						 sizeof(struct wstats));
	unsigned gsame = 0;

	for (unsigned i = 0; wg && i < ng && nwg == ng; i++) {
		const struct wstats *ws = (const struct wstats *)(const void *)wg[i].g.stats;

		gsame += wg[i].g.id == g[i].id && wg[i].g.process == g[i].process &&
			 wg[i].g.cpu == g[i].cpu && wg[i].g.reads == g[i].reads &&
			 wg[i].g.bytes_written == g[i].bytes_written &&
			 zeroed(wg[i].tail, TAIL) &&
			 memcmp(&ws->s, g[i].stats, sizeof(ws->s)) == 0 && zeroed(ws->tail, TAIL);
	}
	is_int(gsame, ng, "%s: groups at newer sizes: the same, tails zeroed", kn);
	free(wg);
	free(g);
	g = (ltt_latency_group *)1;
	ok(ltt_analysis_groups_sized(a, k, LTT_GROUP_ID, INT64_MIN, INT64_MAX, &g,
				     sizeof(*g) - 8, sizeof(ltt_latency_stats)) == 0 && !g,
	   "%s: groups below 0.7.0's size: none", kn);
	g = (ltt_latency_group *)1;
	ok(ltt_analysis_groups_sized(a, k, LTT_GROUP_ID, INT64_MIN, INT64_MAX, &g,
				     sizeof(*g), sizeof(ltt_latency_stats) - 8) == 0 && !g,
	   "%s: statistics below 0.7.0's size: no groups", kn);

	/* the longest: pointers into the occurrences at this program's stride */
	const ltt_latency **worst = NULL;
	size_t nw = ltt_analysis_worst(a, k, INT64_MIN, INT64_MAX, 5, &worst);
	unsigned inside = 0;

	for (size_t i = 0; i < nw; i++)
		inside += worst[i] >= occ && worst[i] < occ + n &&
			  ((const char *)worst[i] - (const char *)occ) % sizeof(*occ) == 0 &&
			  (!i || worst[i]->duration_ns <= worst[i - 1]->duration_ns);
	ok(nw == (n < 5 ? n : 5) && inside == nw && (!nw || worst[0]->duration_ns == max),
	   "%s: the %zu longest point into the occurrences, the first the longest", kn, nw);
	free(worst);
	free(d);
}

static void test_rows(const ltt_analysis *a)
{
	int64_t first = ltt_analysis_first_ns(a), last = ltt_analysis_last_ns(a);
	ltt_analysis_top_row *rows = NULL;
	unsigned n = ltt_analysis_cpu_top(a, INT64_MIN, INT64_MAX, &rows), agree = 0;

	for (unsigned i = 0; i < n; i++)
		agree += rows[i].ns == ltt_analysis_process_cpu_ns(a, rows[i].process, first, last) &&
			 (!i || rows[i].ns <= rows[i - 1].ns);
	ok(n > 5 && agree == n, "CPU top: %u rows, each the process's CPU time, busiest first", n);

	struct wrow { ltt_analysis_top_row r; unsigned char tail[TAIL]; } *wr = NULL;
	unsigned nw = ltt_analysis_cpu_top_sized(a, INT64_MIN, INT64_MAX,
						 (ltt_analysis_top_row **)&wr, sizeof(*wr));
	unsigned same = 0;

	for (unsigned i = 0; wr && nw == n && i < n; i++)
		same += wr[i].r.process == rows[i].process && wr[i].r.ns == rows[i].ns &&
			zeroed(wr[i].tail, TAIL);
	is_int(same, n, "CPU top at a newer size: the same rows, tails zeroed");
	free(wr);
	wr = (struct wrow *)1;
	ok(ltt_analysis_cpu_top_sized(a, INT64_MIN, INT64_MAX, (ltt_analysis_top_row **)&wr,
				      sizeof(unsigned)) == 0 && !wr,
	   "CPU top below 0.7.0's size: none");

	/* the critical path of the busiest: contiguous segments over its span */
	unsigned p = n ? rows[0].process : 0;
	ltt_path_segment *seg = NULL;
	size_t ns = ltt_analysis_critical_path(a, p, INT64_MIN, INT64_MAX, &seg), joined = 0;

	for (size_t i = 0; i < ns; i++)
		joined += seg[i].start_ns < seg[i].end_ns && seg[i].kind < LTT_PATH_NUM_KINDS &&
			  seg[i].start_ns >= first && seg[i].end_ns <= last &&
			  (!i || seg[i].start_ns == seg[i - 1].end_ns);
	ok(ns > 1 && joined == ns, "critical path of the busiest: %zu contiguous segments", ns);

	struct wseg { ltt_path_segment s; unsigned char tail[TAIL]; } *ws = NULL;
	size_t nws = ltt_analysis_critical_path_sized(a, p, INT64_MIN, INT64_MAX,
						      (ltt_path_segment **)&ws, sizeof(*ws));
	size_t ssame = 0;

	for (size_t i = 0; ws && nws == ns && i < ns; i++)
		ssame += ws[i].s.start_ns == seg[i].start_ns && ws[i].s.end_ns == seg[i].end_ns &&
			 ws[i].s.process == seg[i].process && ws[i].s.kind == seg[i].kind &&
			 zeroed(ws[i].tail, TAIL);
	is_int(ssame, ns, "critical path at a newer size: the same segments, tails zeroed");
	free(ws);
	ws = (struct wseg *)1;
	ok(ltt_analysis_critical_path_sized(a, p, INT64_MIN, INT64_MAX,
					    (ltt_path_segment **)&ws, 16) == 0 && !ws,
	   "critical path below 0.7.0's size: none");
	free(seg);
	free(rows);
}

int main(int argc, char **argv)
{
	const char *dir = argc > 1 ? argv[1] : "traces/qemu-busybox";
	ltt_analysis *a = read_trace(dir);

	if (!ok(a != NULL, "%s is read", dir))
		return tap_done();
	for (unsigned k = 0; k < LTT_LATENCY_NUM_KINDS; k++)
		test_kind(a, (ltt_latency_kind)k);
	test_rows(a);
	ltt_analysis_free(a);
	return tap_done();
}
