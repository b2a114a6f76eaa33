/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * analysis-query.c - what ltttrace-analysis.h answers once the pass is
 * done: statistics of durations, occurrences grouped over a range, the
 * longest ones, and CPU time over any range from the on/off logs.
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

static int in_range(const ltt_latency *l, int64_t t0, int64_t t1)
{
	return l->start_ns >= t0 && l->start_ns <= t1 &&
	       l->duration_ns <= (uint64_t)(t1 - l->start_ns);
}

typedef struct group_acc {
	ltt_latency_group g;
	ltt_latency_stats stats;	/* g.stats points at the caller's copy */
	GArray *d;			/* uint64_t durations */
	uint64_t key;
} group_acc;

static uint64_t key_of(const ltt_latency *l, ltt_group_by by)
{
	switch (by) {
	case LTT_GROUP_ID: return l->id;
	case LTT_GROUP_PROCESS: return (uint32_t)l->process;
	case LTT_GROUP_CPU: return l->cpu;
	case LTT_GROUP_PROCESS_ID: return (uint64_t)(uint32_t)l->process << 32 | l->id;
	default: return 0;
	}
}

static int by_total(const void *x, const void *y)
{
	const group_acc *a = x, *b = y;

	if (a->stats.total != b->stats.total)
		return a->stats.total < b->stats.total ? 1 : -1;
	return a->key < b->key ? -1 : a->key > b->key;
}

unsigned ltt_analysis_groups_sized(const ltt_analysis *a, ltt_latency_kind k,
				   ltt_group_by by, int64_t t0, int64_t t1,
				   ltt_latency_group **out, size_t group_size,
				   size_t stats_size)
{
	GHashTable *index = g_hash_table_new(g_int64_hash, g_int64_equal);
	GArray *accs = g_array_new(FALSE, FALSE, sizeof(group_acc));
	const ltt_latency *occ = NULL;
	size_t n;
	unsigned ng;
	char *block;

	*out = NULL;
	if (group_size < AN_GROUP_MIN || stats_size < AN_STATS_MIN)
		n = 0;	/* below 0.7.0's sizes: no groups */
	else
		occ = ltt_analysis_latencies(a, k, &n);
	for (size_t i = 0; i < n; i++) {
		const ltt_latency *l = &occ[i];
		uint64_t key = key_of(l, by);
		gpointer v;
		group_acc *g;

		if (!in_range(l, t0, t1))
			continue;
		v = g_hash_table_lookup(index, &key);
		if (!v) {
			group_acc fresh = { 0 };

			fresh.key = key;
			fresh.g.id = by == LTT_GROUP_ID || by == LTT_GROUP_PROCESS_ID ? l->id : 0;
			fresh.g.process = by == LTT_GROUP_PROCESS || by == LTT_GROUP_PROCESS_ID
					  ? l->process : -1;
			fresh.g.cpu = by == LTT_GROUP_CPU ? (int32_t)l->cpu : -1;
			fresh.d = g_array_new(FALSE, FALSE, sizeof(uint64_t));
			g_array_append_val(accs, fresh);
			/* keys live in the accumulators' own array: index by value */
			v = GUINT_TO_POINTER(accs->len);
			g_hash_table_insert(index, g_memdup2(&key, sizeof(key)), v);
		}
		g = &g_array_index(accs, group_acc, GPOINTER_TO_UINT(v) - 1);
		g_array_append_val(g->d, l->duration_ns);
		if (k == LTT_LATENCY_FILE) {
			uint64_t bytes = l->ret > 0 ? (uint64_t)l->ret : 0;

			if (l->write) {
				g->g.writes++;
				g->g.bytes_written += bytes;
			} else {
				g->g.reads++;
				g->g.bytes_read += bytes;
			}
		}
	}
	for (guint i = 0; i < accs->len; i++) {
		group_acc *g = &g_array_index(accs, group_acc, i);

		stats_compute((uint64_t *)(void *)g->d->data, g->d->len, &g->stats);
		g_array_free(g->d, TRUE);
	}
	if (accs->len)
		qsort(accs->data, accs->len, sizeof(group_acc), by_total);
	ng = accs->len;
	/* one allocation, at the caller's sizes (ltttrace.h, "Sized structs"):
	 * ng + 1 groups, then the statistics, aligned for their uint64_t */
	if (group_size >= AN_GROUP_MIN && stats_size >= AN_STATS_MIN) {
		size_t head = ((ng + 1) * group_size + 7) & ~(size_t)7;

		block = calloc(1, head + ng * stats_size);
		if (!block)
			g_error("out of memory");
		for (unsigned i = 0; i < ng; i++) {
			group_acc *g = &g_array_index(accs, group_acc, i);
			char *stats = block + head + i * stats_size;

			ltt_sized_out(stats, stats_size, &g->stats, sizeof(g->stats),
				      AN_STATS_MIN);
			g->g.stats = (const ltt_latency_stats *)(void *)stats;
			ltt_sized_out(block + i * group_size, group_size, &g->g,
				      sizeof(g->g), AN_GROUP_MIN);
		}
		*out = (ltt_latency_group *)(void *)block;
	}
	g_array_free(accs, TRUE);
	/* the hash table's keys were g_memdup2()ed */
	{
		GHashTableIter it;
		gpointer key;

		g_hash_table_iter_init(&it, index);
		while (g_hash_table_iter_next(&it, &key, NULL))
			g_free(key);
	}
	g_hash_table_destroy(index);
	return ng;
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
		if (in_range(&occ[i], t0, t1))
			all[m++] = &occ[i];
	qsort(all, m, sizeof(*all), by_longest);
	for (size_t i = 0; i < m; i++)
		all[i] = (const ltt_latency *)(const void *)(theirs + (size_t)(all[i] - occ) * size);
	*out = all;
	return m < n ? m : n;
}

/* ---- CPU time --------------------------------------------------------------- */

uint64_t ltt_analysis__log_at(const an_log *l, int64_t t)
{
	size_t lo = 0, hi = l->n;
	const an_sample *s;

	/* the last sample at or before t */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (l->s[mid].t <= t)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return 0;
	s = &l->s[lo - 1];
	return s->on ? s->cum + (uint64_t)(t - s->t) : s->cum;
}

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
	return ltt_analysis__log_at(&a->procs[process].cpu_log, t1) -
	       ltt_analysis__log_at(&a->procs[process].cpu_log, t0);
}

uint64_t ltt_analysis_cpu_busy_ns(const ltt_analysis *a, unsigned cpu, int64_t t0,
				  int64_t t1)
{
	if (cpu >= a->ncpus || clip(a, &t0, &t1) < 0)
		return 0;
	return ltt_analysis__log_at(&a->cpus[cpu].busy_log, t1) -
	       ltt_analysis__log_at(&a->cpus[cpu].busy_log, t0);
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
