/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_analysis_store - the analyses' compact records
 * (libltttrace/src/analysis-store.c) against plain arrays of what was
 * added: occurrences of each kind read back whole, field by field, at
 * every count around a block's size (coded blocks and the pending one),
 * with the values a hostile trace gives (times far apart or going
 * backwards, process -1, CPUs past the tag's, negative returns, large
 * file ids, every waker kind and IRQ line, LTT_WAKER_ID_NONE); FILE read
 * from the SYSCALL records; a range that picks by start; a search by end
 * and process (ends sorted, and not). And the CPU-time logs: every sample
 * found by time (at or before, strictly before) with the one after it,
 * in full blocks and short ones (coded early, as at a process's exit),
 * samples at one instant replaced, differences of CPU time, system calls,
 * times 2^58 apart (coded apart from the flags). And the groups
 * (analysis-groups.c), whose percentiles are found without a copy of the
 * durations: each group's statistics equal those of its durations sorted
 * (ltt_latency_stats_compute), for groups below and above the size kept
 * whole, durations all equal, of two values, zeros, near 2^64, spread.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../libltttrace/src/analysis-internal.h"
#include "rand.h"
#include "tap.h"


/* A value of about `bits` random bits, sometimes far larger. */
static uint64_t some(unsigned bits)
{
	unsigned b = rnd() % 16 ? bits : 63;

	return b >= 64 ? rnd() : rnd() & (((uint64_t)1 << b) - 1);
}

typedef struct want {
	an_raw r;
	ltt_latency_kind kind;
} want;

typedef struct reader {
	const want *w;
	size_t n, i, bad;
	ltt_latency_kind as;
	int64_t t0, t1;
} reader;

static int same(const ltt_latency *a, const ltt_latency *b)
{
	return a->start_ns == b->start_ns && a->duration_ns == b->duration_ns &&
	       a->process == b->process && a->cpu == b->cpu && a->id == b->id &&
	       a->waker == b->waker && a->waker_cpu == b->waker_cpu &&
	       a->waker_kind == b->waker_kind && a->write == b->write &&
	       a->waker_id == b->waker_id && a->ret == b->ret;
}

/* The next record added that the reader should see, as it should see it. */
static int next_wanted(reader *rd, ltt_latency *out)
{
	for (; rd->i < rd->n; rd->i++) {
		const want *w = &rd->w[rd->i];

		if (rd->as == LTT_LATENCY_FILE && !w->r.file)
			continue;
		if (w->r.l.start_ns < rd->t0 || w->r.l.start_ns > rd->t1)
			continue;
		*out = w->r.l;
		if (rd->as == LTT_LATENCY_FILE) {
			out->id = w->r.file - 1;
			out->write = w->r.write;
		}
		rd->i++;
		return 1;
	}
	return 0;
}

static int check_one(const ltt_latency *l, void *data)
{
	reader *rd = data;
	ltt_latency w;

	if (!next_wanted(rd, &w) || !same(l, &w))
		rd->bad++;
	return 0;
}

/* n records of kind k; some ends go backwards when `backwards`. */
static want *make(ltt_latency_kind k, size_t n, int backwards)
{
	want *w = calloc(n + 1, sizeof(*w));
	int64_t end = (int64_t)(rnd() >> 2);

	for (size_t i = 0; i < n; i++) {
		ltt_latency *l = &w[i].r.l;
		uint64_t step = some(12);

		/* wrapping, as a hostile trace's times may */
		if (backwards && rnd() % 7 == 0)
			end = (int64_t)((uint64_t)end - (step >> 1));
		else
			end = (int64_t)((uint64_t)end + (step >> 1));
		l->duration_ns = some(14);
		l->start_ns = (int64_t)((uint64_t)end - l->duration_ns);
		l->process = (int32_t)(some(7)) - 1;
		l->cpu = (uint32_t)some(2);
		l->waker = -1;
		w[i].kind = k;
		switch (k) {
		case LTT_LATENCY_SYSCALL:
			l->id = (uint32_t)(rnd() % 6 == 0 ? rnd() : rnd() % 9);
			l->ret = (int64_t)some(12) - 20;
			if (rnd() % 3) {
				w[i].r.file = (uint32_t)some(18) + 1;
				w[i].r.write = rnd() & 1;
			}
			break;
		case LTT_LATENCY_SCHED:
			l->waker = (int32_t)some(7) - 1;
			l->waker_cpu = (uint32_t)some(2);
			l->waker_kind = (uint8_t)(rnd() % 14);
			l->waker_id = rnd() % 4 ? LTT_WAKER_ID_NONE : (uint16_t)rnd();
			break;
		default:
			l->id = (uint32_t)(rnd() % 40);
			break;
		}
	}
	return w;
}

static void check_kind(ltt_latency_kind k, size_t n, int backwards)
{
	want *w = make(k, n, backwards);
	an_store s;
	reader rd = { w, n, 0, 0, k, INT64_MIN, INT64_MAX };
	size_t given, nfile = 0;
	ltt_latency found;
	int ok_find = 1;

	an_store_init(&s, k);
	for (size_t i = 0; i < n; i++) {
		an_store_add(&s, &w[i].r.l, w[i].r.file, w[i].r.write);
		nfile += w[i].r.file != 0;
	}
	given = an_store_each(&s, k, INT64_MIN, INT64_MAX, check_one, &rd);
	ok(given == n && !rd.bad, "%s: %zu records%s read back (%zu given, %zu wrong)",
	   ltt_latency_kind_name(k), n, backwards ? " (ends going backwards)" : "", given,
	   rd.bad);
	if (k == LTT_LATENCY_SYSCALL) {
		rd = (reader){ w, n, 0, 0, LTT_LATENCY_FILE, INT64_MIN, INT64_MAX };
		given = an_store_each(&s, LTT_LATENCY_FILE, INT64_MIN, INT64_MAX, check_one, &rd);
		ok(given == nfile && s.nfile == nfile && !rd.bad,
		   "file: the %zu of them with a file read back as FILE", nfile);
	}
	if (n) {	/* starts in the middle half of what was added */
		int64_t a = w[n / 4].r.l.start_ns, b = w[3 * n / 4].r.l.start_ns;

		rd = (reader){ w, n, 0, 0, k, a < b ? a : b, a < b ? b : a };
		an_store_each(&s, k, rd.t0, rd.t1, check_one, &rd);
		ltt_latency rest;

		ok(!rd.bad && !next_wanted(&rd, &rest), "%s: a range picks by start",
		   ltt_latency_kind_name(k));
	}
	for (size_t i = 0; i < n; i += 1 + n / 50) {
		const ltt_latency *l = &w[i].r.l;
		int64_t end = (int64_t)((uint64_t)l->start_ns + l->duration_ns);
		size_t first = 0;

		/* the first added with that end and process */
		while (w[first].r.l.process != l->process ||
		       (int64_t)((uint64_t)w[first].r.l.start_ns + w[first].r.l.duration_ns) != end)
			first++;
		if (an_store_find_end(&s, l->process, end, &found) < 0 ||
		    !same(&found, &w[first].r.l))
			ok_find = 0;
	}
	ok(ok_find, "%s: found by end and process", ltt_latency_kind_name(k));
	ok(an_store_find_end(&s, 12345678, 5, &found) < 0, "%s: a record not there is not found",
	   ltt_latency_kind_name(k));
	an_store_clear(&s);
	free(w);
}

/* ---- logs ---- */

static int same_sample(const an_sample *a, const an_sample *b)
{
	return a->t == b->t && a->cum == b->cum && a->on == b->on && a->blocked == b->blocked &&
	       a->sys == b->sys;
}

static void check_log(size_t n, int far)
{
	an_sample *w = calloc(n + 1, sizeof(*w));
	an_log l = { 0 };
	size_t m = 0, bad = 0;
	int64_t t = (int64_t)(rnd() >> 8);
	uint64_t cum = 0;

	for (size_t i = 0; i < n; i++) {
		an_sample s;
		int again = m && rnd() % 9 == 0;	/* at the last one's instant */

		if (!again)
			t += far && rnd() % 50 == 0 ? (int64_t)1 << 58 : 1 + (int64_t)(rnd() % (1 << 20));
		if (m && w[m - 1].on)
			cum += (uint64_t)(t - w[m - 1].t);
		if (rnd() % 10 == 0)
			cum += some(10);	/* the model's own accounting */
		s = (an_sample){ t, cum, (uint8_t)(rnd() & 1), (uint8_t)(rnd() % 3), 0 };
		an_log_add(&l, s.t, s.cum, s.on, s.blocked);
		if (s.blocked == AN_BLOCKED && rnd() % 2)
			s.sys = an_log_last(&l)->sys = (uint16_t)(1 + rnd() % 65535);
		if (again)
			w[m - 1] = s;
		else
			w[m++] = s;
		if (rnd() % 97 == 0)
			an_log_flush(&l);	/* a short block (its process exited) */
	}
	ok(l.n == m, "log: %zu samples kept of %zu added (one per instant)", l.n, n);
	for (size_t i = 0; i < m; i++) {
		an_sample got, next;
		long at = an_log_find(&l, w[i].t, 0, &got, &next);
		long before = an_log_find(&l, w[i].t, 1, &got, &next);

		if (at != (long)i || before != (long)i - 1)
			bad++;
		an_log_find(&l, w[i].t, 0, &got, &next);
		if (!same_sample(&got, &w[i]) ||
		    (i + 1 < m ? !same_sample(&next, &w[i + 1]) : next.t != INT64_MAX))
			bad++;
		if (i + 1 < m && w[i + 1].t > w[i].t + 1 &&
		    an_log_find(&l, w[i].t + 1, 1, &got, &next) != (long)i)
			bad++;
	}
	ok(!bad, "log%s: every sample found by time with the one after it (%zu wrong)",
	   far ? " (times 2^58 apart)" : "", bad);
	if (m) {
		an_sample got, next;

		ok(an_log_find(&l, w[0].t - 1, 0, &got, &next) == -1 &&
		   same_sample(&next, &w[0]),
		   "log: before the first sample, none, and the first after");
		ok(an_log_at(&l, w[m - 1].t + 10) == w[m - 1].cum + (w[m - 1].on ? 10 : 0),
		   "log: CPU time after the last sample");
	}
	an_log_clear(&l);
	free(w);
}

/* ---- groups ---- */

/* n durations of a group of id `id` by `how`, into the store and d[]. */
static void add_durations(an_store *s, uint64_t *d, size_t n, uint32_t id, int how)
{
	int64_t start = 1000;

	for (size_t i = 0; i < n; i++) {
		ltt_latency l = { 0 };

		switch (how) {
		case 0: d[i] = 777; break;
		case 1: d[i] = rnd() % 2 ? 5000 : 123456789; break;
		case 2: d[i] = rnd() % 3 ? 0 : 1; break;
		case 3: d[i] = UINT64_MAX / 4 - rnd() % 1000000; break;
		default: d[i] = some(20); break;
		}
		l.start_ns = start;
		l.duration_ns = d[i];
		l.id = id;
		l.waker = -1;
		an_store_add(s, &l, 0, 0);
	}
}

static void check_groups(void)
{
	static const size_t sizes[] = { 1, 4096, 4097, 50000 };
	ltt_analysis *a = ltt_analysis_new();
	an_store *s = &a->occ[LTT_LATENCY_IRQ];
	uint64_t *d[4 * 5];
	size_t nd[4 * 5], ng = 0;
	ltt_latency_group *g;
	unsigned n;
	int bad = 0;

	for (size_t i = 0; i < 4; i++)
		for (int how = 0; how < 5; how++, ng++) {
			nd[ng] = sizes[i];
			d[ng] = calloc(sizes[i], sizeof(uint64_t));
			add_durations(s, d[ng], sizes[i], (uint32_t)ng, how);
		}
	n = ltt_analysis_groups(a, LTT_LATENCY_IRQ, LTT_GROUP_ID, INT64_MIN, INT64_MAX, &g);
	is_int(n, ng, "groups: one per id");
	for (unsigned i = 0; i < n; i++) {
		ltt_latency_stats sorted;
		uint32_t id = g[i].id;

		ltt_latency_stats_compute(d[id], nd[id], &sorted);
		if (memcmp(&sorted, g[i].stats, sizeof(sorted))) {
			if (!bad++)
				printf("# group %u (%zu durations, kind %u): p50 %" PRIu64 "/%" PRIu64
				       " p90 %" PRIu64 "/%" PRIu64 " p99 %" PRIu64 "/%" PRIu64 "\n",
				       id, nd[id], id % 5, g[i].stats->p50, sorted.p50, g[i].stats->p90,
				       sorted.p90, g[i].stats->p99, sorted.p99);
		}
	}
	ok(!bad, "groups: each group's statistics are those of its durations sorted (%d wrong)",
	   bad);
	free(g);
	for (size_t i = 0; i < ng; i++)
		free(d[i]);
	ltt_analysis_free(a);
}

int main(void)
{
	static const size_t sizes[] = { 0, 1, 2, AN_BLOCK - 1, AN_BLOCK, AN_BLOCK + 1,
					3 * AN_BLOCK + 17 };

	for (unsigned k = 0; k < LTT_LATENCY_NUM_KINDS; k++) {
		if (k == LTT_LATENCY_FILE)
			continue;	/* in SYSCALL's records */
		for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
			check_kind((ltt_latency_kind)k, sizes[i], 0);
		check_kind((ltt_latency_kind)k, 2 * AN_BLOCK + 5, 1);
	}
	check_log(1, 0);
	check_log(AN_LOG_BLOCK + 1, 0);
	check_log(5 * AN_LOG_BLOCK + 3, 0);
	check_log(3 * AN_LOG_BLOCK, 1);
	check_groups();
	return tap_done();
}
