/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * analysis-groups.c - ltt_analysis_groups(): the occurrences of a kind in a
 * range, grouped, each group with its statistics, percentiles exact (the
 * nearest rank of ltttrace-analysis.h), without holding every duration.
 *
 * The occurrences are read again (decoded from the store) as often as
 * needed, a few times, rather than copied: at 100 M events the durations
 * of the system calls alone took 160 MB, and their sort as much again.
 *
 *   pass 1   per group: count, min, max, total, the base-2 histogram (and
 *            the bytes of FILE). A group of at most SMALL occurrences
 *            then keeps its durations in the next pass, and is sorted.
 *   then     each percentile of a larger group is the r-th smallest: its
 *            histogram says in which bucket, and which rank inside it. A
 *            pass counts that range's durations in NSUB equal parts; the
 *            part with the rank becomes the range; and so on until a range
 *            holds at most SMALL durations (kept in the next pass, sorted)
 *            or is one nanosecond wide (the value itself). A bucket
 *            [2^b, 2^(b+1)) takes at most b / 8 such passes; on the busy
 *            bench trace, two.
 */
#include <stdlib.h>
#include <string.h>

#include "analysis-internal.h"

#define SMALL 4096		/* durations kept to be sorted, at most */
#define NSUB 256		/* parts of a range per pass */

static const unsigned pcts[3] = { 50, 90, 99 };

/* Where the r-th smallest duration (1-based) of a group is: in [lo, lo +
 * width) (width a power of 2), the rank-th there, `in` of them. */
typedef struct target {
	uint64_t lo, width, in, rank, value;
	uint64_t *counts;		/* counting: NSUB parts */
	uint64_t *kept;			/* keeping: the `in` durations */
	size_t nkept;
	int done;
} target;

typedef struct group_acc {
	ltt_latency_group g;
	ltt_latency_stats stats;	/* g.stats points at the caller's copy */
	uint64_t key;
	uint64_t *all;			/* a small group: its durations */
	size_t nall;
	target t[3];
	int big;
} group_acc;

typedef struct grouping {
	ltt_latency_kind k;
	ltt_group_by by;
	int64_t t0, t1;
	GHashTable *index;		/* key -> accumulator's index + 1 */
	GArray *accs;			/* group_acc */
	int pass;			/* 0: the first; then a later one */
} grouping;

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

static int cmp_u64(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;

	return a < b ? -1 : a > b;
}

static uint64_t part_width(const target *t)
{
	return t->width > NSUB ? t->width / NSUB : 1;
}

/* The first pass: a new group, or its counts. */
static void first_pass(grouping *gr, const ltt_latency *l, uint64_t key)
{
	gpointer v = g_hash_table_lookup(gr->index, &key);
	ltt_latency_stats *s;
	group_acc *g;

	if (!v) {
		group_acc fresh = { 0 };
		ltt_group_by by = gr->by;

		fresh.key = key;
		fresh.g.id = by == LTT_GROUP_ID || by == LTT_GROUP_PROCESS_ID ? l->id : 0;
		fresh.g.process = by == LTT_GROUP_PROCESS || by == LTT_GROUP_PROCESS_ID
				  ? l->process : -1;
		fresh.g.cpu = by == LTT_GROUP_CPU ? (int32_t)l->cpu : -1;
		fresh.stats.min = UINT64_MAX;
		g_array_append_val(gr->accs, fresh);
		/* keys live in the accumulators' own array: index by value */
		v = GUINT_TO_POINTER(gr->accs->len);
		g_hash_table_insert(gr->index, g_memdup2(&key, sizeof(key)), v);
	}
	g = &g_array_index(gr->accs, group_acc, GPOINTER_TO_UINT(v) - 1);
	s = &g->stats;
	s->count++;
	s->min = l->duration_ns < s->min ? l->duration_ns : s->min;
	s->max = l->duration_ns > s->max ? l->duration_ns : s->max;
	s->total += l->duration_ns;
	s->hist[ltt_latency_bucket(l->duration_ns)]++;
	if (gr->k == LTT_LATENCY_FILE) {
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

/* One occurrence into its group (an_store_each). */
static int group_one(const ltt_latency *l, void *data)
{
	grouping *gr = data;
	uint64_t key = key_of(l, gr->by), d = l->duration_ns;
	group_acc *g;

	if (!ltt_analysis__in_range(l, gr->t0, gr->t1))
		return 0;
	if (!gr->pass) {
		first_pass(gr, l, key);
		return 0;
	}
	g = &g_array_index(gr->accs, group_acc,
			   GPOINTER_TO_UINT(g_hash_table_lookup(gr->index, &key)) - 1);
	if (g->all) {
		if (g->nall < g->stats.count)
			g->all[g->nall++] = d;
		return 0;
	}
	for (unsigned i = 0; i < 3; i++) {
		target *t = &g->t[i];

		if (t->done || d - t->lo >= t->width)
			continue;
		if (t->kept) {
			if (t->nkept < t->in)
				t->kept[t->nkept++] = d;
		} else if (t->counts) {
			t->counts[(d - t->lo) / part_width(t)]++;
		}
	}
	return 0;
}

/* What the next pass does for t: keep, count, or nothing (found). */
static void next_step(target *t)
{
	if (t->in <= SMALL) {
		t->kept = g_new(uint64_t, t->in + 1);
		t->nkept = 0;
	} else if (t->width <= 1) {
		t->value = t->lo;
		t->done = 1;
	} else {
		t->counts = g_new0(uint64_t, NSUB);
	}
}

/* After pass 1: a small group keeps its durations; a larger one looks
 * for each percentile in the bucket that holds it. */
static void plan(group_acc *g)
{
	ltt_latency_stats *s = &g->stats;

	if (s->count <= SMALL) {
		g->all = g_new(uint64_t, s->count + 1);
		return;
	}
	g->big = 1;
	for (unsigned i = 0; i < 3; i++) {
		target *t = &g->t[i];
		uint64_t r = (s->count * pcts[i] + 99) / 100, below = 0;
		unsigned b = 0;

		r = r ? r : 1;
		while (below + s->hist[b] < r)
			below += s->hist[b++];
		t->lo = b ? (uint64_t)1 << b : 0;
		t->width = b ? (uint64_t)1 << b : 2;
		t->in = s->hist[b];
		t->rank = r - below;
		next_step(t);
	}
}

/* After a later pass: what it found. Returns whether t needs another. */
static int advance(target *t)
{
	if (t->done)
		return 0;
	if (t->kept) {
		qsort(t->kept, t->nkept, sizeof(*t->kept), cmp_u64);
		t->value = t->rank <= t->nkept ? t->kept[t->rank - 1] : t->lo;
		g_free(t->kept);
		t->kept = NULL;
		t->done = 1;
		return 0;
	}
	{
		uint64_t w = part_width(t), below = 0;
		unsigned p = 0;

		while (p + 1 < NSUB && below + t->counts[p] < t->rank)
			below += t->counts[p++];
		t->lo += p * w;
		t->width = w;
		t->in = t->counts[p];
		t->rank -= below;
		g_free(t->counts);
		t->counts = NULL;
	}
	next_step(t);
	return !t->done;
}

/* Nearest rank in a sorted array. */
static uint64_t rank_of(const uint64_t *sorted, size_t n, unsigned pct)
{
	size_t r = (n * pct + 99) / 100;

	return sorted[r ? r - 1 : 0];
}

static void finish(group_acc *g)
{
	ltt_latency_stats *s = &g->stats;

	s->mean = s->total / s->count;
	if (g->all) {
		qsort(g->all, g->nall, sizeof(*g->all), cmp_u64);
		s->p50 = rank_of(g->all, g->nall, 50);
		s->p90 = rank_of(g->all, g->nall, 90);
		s->p99 = rank_of(g->all, g->nall, 99);
		g_free(g->all);
		g->all = NULL;
	} else {
		s->p50 = g->t[0].value;
		s->p90 = g->t[1].value;
		s->p99 = g->t[2].value;
	}
}

unsigned ltt_analysis_groups_sized(const ltt_analysis *a, ltt_latency_kind k,
				   ltt_group_by by, int64_t t0, int64_t t1,
				   ltt_latency_group **out, size_t group_size,
				   size_t stats_size)
{
	GHashTable *index = g_hash_table_new(g_int64_hash, g_int64_equal);
	GArray *accs = g_array_new(FALSE, FALSE, sizeof(group_acc));
	grouping gr = { k, by, t0, t1, index, accs, 0 };
	unsigned ng;
	char *block;

	*out = NULL;
	/* below 0.7.0's sizes: no groups */
	if (group_size >= AN_GROUP_MIN && stats_size >= AN_STATS_MIN &&
	    (unsigned)k < LTT_LATENCY_NUM_KINDS) {
		const an_store *s = ltt_analysis__store(a, k);
		int again = 0;

		an_store_each(s, k, t0, t1, group_one, &gr);
		for (guint i = 0; i < accs->len; i++)
			plan(&g_array_index(accs, group_acc, i));
		for (gr.pass = 1; gr.pass == 1 || again; gr.pass++) {
			an_store_each(s, k, t0, t1, group_one, &gr);
			again = 0;
			for (guint i = 0; i < accs->len; i++) {
				group_acc *g = &g_array_index(accs, group_acc, i);

				for (unsigned j = 0; g->big && j < 3; j++)
					again |= advance(&g->t[j]);
			}
		}
		for (guint i = 0; i < accs->len; i++)
			finish(&g_array_index(accs, group_acc, i));
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
