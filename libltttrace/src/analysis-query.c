/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * analysis-query.c - what ltttrace-analysis.h answers once the pass is
 * done: statistics of durations, the occurrences one by one, the longest
 * ones, and CPU time over any range from the on/off logs (the groups are
 * analysis-groups.c's).
 */
#include <stdlib.h>
#include <string.h>

#include "analysis-internal.h"

unsigned ltt_latency_bucket(uint64_t ns)
{
	return ns < 2 ? 0 : 63u - (unsigned)__builtin_clzll(ns);
}

static int cmp_u64(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;

	return a < b ? -1 : a > b;
}

/* Nearest rank: the ceil(n * pct / 100)-th smallest (1-based). */
static uint64_t rank(const uint64_t *sorted, size_t n, unsigned pct)
{
	size_t r = (n * pct + 99) / 100;

	return sorted[r ? r - 1 : 0];
}

static void stats_compute(uint64_t *d, size_t n, ltt_latency_stats *out)
{
	memset(out, 0, sizeof(*out));
	if (!n)
		return;
	qsort(d, n, sizeof(*d), cmp_u64);
	out->count = n;
	out->min = d[0];
	out->max = d[n - 1];
	for (size_t i = 0; i < n; i++) {
		out->total += d[i];
		out->hist[ltt_latency_bucket(d[i])]++;
	}
	out->mean = out->total / n;
	out->p50 = rank(d, n, 50);
	out->p90 = rank(d, n, 90);
	out->p99 = rank(d, n, 99);
}

int ltt_latency_stats_compute_sized(uint64_t *d, size_t n, ltt_latency_stats *out,
				    size_t size)
{
	ltt_latency_stats full;

	if (size < AN_STATS_MIN)
		return -1;
	stats_compute(d, n, &full);
	return ltt_sized_out(out, size, &full, sizeof(full), AN_STATS_MIN);
}


static int by_longest(const void *x, const void *y)
{
	const ltt_latency *a = *(const ltt_latency *const *)x;
	const ltt_latency *b = *(const ltt_latency *const *)y;

	if (a->duration_ns != b->duration_ns)
		return a->duration_ns < b->duration_ns ? 1 : -1;
	return a->start_ns < b->start_ns ? -1 : a->start_ns > b->start_ns;
}

size_t ltt_analysis_worst_sized(const ltt_analysis *a, ltt_latency_kind k, int64_t t0,
				int64_t t1, size_t n, const ltt_latency ***out,
				size_t size)
{
	const ltt_latency *occ;
	const char *theirs;
	const ltt_latency **all;
	size_t total, m = 0;

	*out = NULL;
	/* the caller's array (its stride), for the pointers it is given */
	theirs = (const char *)ltt_analysis_latencies_sized(a, k, &total, size);
	if (size < AN_LATENCY_MIN)
		return 0;
	occ = ltt_analysis_latencies(a, k, &total);
	all = malloc((total + 1) * sizeof(*all));
	if (!all)
		g_error("out of memory");
	for (size_t i = 0; i < total; i++)
		if (ltt_analysis__in_range(&occ[i], t0, t1))
			all[m++] = &occ[i];
	qsort(all, m, sizeof(*all), by_longest);
	for (size_t i = 0; i < m; i++)
		all[i] = (const ltt_latency *)(const void *)(theirs + (size_t)(all[i] - occ) * size);
	*out = all;
	return m < n ? m : n;
}

/* ---- occurrences one by one ---------------------------------------------------- */

typedef struct visit_sized {
	ltt_latency_visit fn;
	void *data;
	size_t size;
	void *buf;			/* the caller's size, when not ours */
} visit_sized;

static int visit_at_size(const ltt_latency *l, void *data)
{
	visit_sized *v = data;

	if (!v->buf)
		return v->fn(l, v->data);
	ltt_sized_out(v->buf, v->size, l, sizeof(*l), AN_LATENCY_MIN);
	return v->fn(v->buf, v->data);
}

size_t ltt_analysis_each_sized(const ltt_analysis *a, ltt_latency_kind k, int64_t t0,
			       int64_t t1, ltt_latency_visit fn, void *data, size_t size)
{
	visit_sized v = { fn, data, size, NULL };
	size_t n;

	if ((unsigned)k >= LTT_LATENCY_NUM_KINDS || size < AN_LATENCY_MIN || !fn)
		return 0;
	if (size != sizeof(ltt_latency))
		v.buf = g_malloc0(size);
	n = an_store_each(ltt_analysis__store(a, k), k, t0, t1, visit_at_size, &v);
	g_free(v.buf);
	return n;
}

typedef struct longest {
	int64_t t0, t1;
	size_t want, n;
	ltt_latency *heap;		/* the n longest so far, shortest on top */
} longest;

/* Whether x comes after y in the answer (shorter, or as long and later). */
static int after(const ltt_latency *x, const ltt_latency *y)
{
	if (x->duration_ns != y->duration_ns)
		return x->duration_ns < y->duration_ns;
	return x->start_ns > y->start_ns;
}

static void sift_down(ltt_latency *h, size_t n, size_t i)
{
	for (;;) {
		size_t c = 2 * i + 1, m = i;
		ltt_latency t;

		if (c < n && after(&h[c], &h[m]))
			m = c;
		if (c + 1 < n && after(&h[c + 1], &h[m]))
			m = c + 1;
		if (m == i)
			return;
		t = h[i];
		h[i] = h[m];
		h[m] = t;
		i = m;
	}
}

static int keep_longest(const ltt_latency *l, void *data)
{
	longest *lg = data;

	if (!ltt_analysis__in_range(l, lg->t0, lg->t1))
		return 0;
	if (lg->n < lg->want) {
		size_t i = lg->n++;

		lg->heap[i] = *l;
		while (i && after(&lg->heap[i], &lg->heap[(i - 1) / 2])) {
			ltt_latency t = lg->heap[i];

			lg->heap[i] = lg->heap[(i - 1) / 2];
			lg->heap[(i - 1) / 2] = t;
			i = (i - 1) / 2;
		}
	} else if (after(&lg->heap[0], l)) {
		lg->heap[0] = *l;
		sift_down(lg->heap, lg->n, 0);
	}
	return 0;
}

static int by_longest_value(const void *x, const void *y)
{
	return after(x, y) ? 1 : after(y, x) ? -1 : 0;
}

size_t ltt_analysis_longest_sized(const ltt_analysis *a, ltt_latency_kind k, int64_t t0,
				  int64_t t1, size_t n, ltt_latency **out, size_t size)
{
	longest lg = { t0, t1, n, 0, NULL };
	const an_store *s;

	*out = NULL;
	if (size < AN_LATENCY_MIN)
		return 0;
	lg.heap = malloc((n + 1) * sizeof(*lg.heap));
	if (!lg.heap)
		g_error("out of memory");
	if ((unsigned)k < LTT_LATENCY_NUM_KINDS && n) {
		s = ltt_analysis__store(a, k);
		/* a block none of whose occurrences can make the list is not
		 * decoded */
		for (size_t i = 0; i <= s->nblocks; i++) {
			int stop = 0;

			if (lg.n == n && an_store_block_max_dur(s, i) < lg.heap[0].duration_ns)
				continue;
			an_store_each_block(s, i, k, t0, t1, keep_longest, &lg, &stop);
		}
	}
	qsort(lg.heap, lg.n, sizeof(*lg.heap), by_longest_value);
	*out = ltt_sized_rows(lg.heap, lg.n, sizeof(*lg.heap), size, AN_LATENCY_MIN);
	return *out ? lg.n : 0;
}

/* ---- CPU time --------------------------------------------------------------- */

/* [t0, t1] clipped to where there is data. */
static int clip(const ltt_analysis *a, int64_t *t0, int64_t *t1)
{
	if (a->first_ns == INT64_MIN)
		return -1;
	if (*t0 < a->first_ns)
		*t0 = a->first_ns;
	if (*t1 > a->last_ns)
		*t1 = a->last_ns;
	return *t0 < *t1 ? 0 : -1;
}

uint64_t ltt_analysis_process_cpu_ns(const ltt_analysis *a, unsigned process,
				     int64_t t0, int64_t t1)
{
	if (process >= a->nprocs || clip(a, &t0, &t1) < 0)
		return 0;
	return an_log_at(&a->procs[process].cpu_log, t1) -
	       an_log_at(&a->procs[process].cpu_log, t0);
}

uint64_t ltt_analysis_cpu_busy_ns(const ltt_analysis *a, unsigned cpu, int64_t t0,
				  int64_t t1)
{
	if (cpu >= a->ncpus || clip(a, &t0, &t1) < 0)
		return 0;
	return an_log_at(&a->cpus[cpu].busy_log, t1) -
	       an_log_at(&a->cpus[cpu].busy_log, t0);
}

static int top_cmp(const void *x, const void *y)
{
	const ltt_analysis_top_row *a = x, *b = y;

	if (a->ns != b->ns)
		return a->ns < b->ns ? 1 : -1;
	return a->process < b->process ? -1 : a->process > b->process;
}

unsigned ltt_analysis_cpu_top_sized(const ltt_analysis *a, int64_t t0, int64_t t1,
				    ltt_analysis_top_row **out, size_t row_size)
{
	ltt_analysis_top_row *rows = calloc(a->nprocs + 1, sizeof(*rows));
	unsigned n = 0;

	if (!rows)
		g_error("out of memory");
	for (unsigned i = 0; i < a->nprocs; i++) {
		ltt_state_process_info pi;
		uint64_t ns;

		if (ltt_state_process(a->st, i, &pi) < 0 || pi.pid == 0)
			continue;
		ns = ltt_analysis_process_cpu_ns(a, i, t0, t1);
		if (ns)
			rows[n++] = (ltt_analysis_top_row){ i, ns };
	}
	qsort(rows, n, sizeof(*rows), top_cmp);
	/* rows of the caller's size (ltttrace.h, "Sized structs") */
	*out = ltt_sized_rows(rows, n, sizeof(*rows), row_size, AN_TOP_ROW_MIN);
	return *out ? n : 0;
}
