/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_state_rows - the compressed row logs of the state index
 * (libltttrace/src/state-rows.c) against a plain array of (time, kind)
 * kept by the rule the index always had: every change read back, at every
 * chunk boundary (counts around multiples of ROW_CHUNK, before and after
 * the tail is encoded), deltas of 0 to 2^61 ns, changes at one instant
 * (rewritten, or kept when a snapshot saw the first), rows of 2 and of all
 * 14 kinds; the seek (a bisection of the chunks, then a walk) and the time
 * spent in each kind before any time, compared with the plain sums; and a
 * copy of the header taken midway (what a snapshot holds) still reads what
 * it saw after the log grew, its old arrays retired rather than freed, its
 * tail not reused in place.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../libltttrace/src/state-rows.h"
#include "tap.h"

static uint64_t rng = 0x2545F4914F6CDD1Dull;

static uint64_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* What the index would free: kept until the end, as while a snapshot lives. */
static void **retired;
static size_t nretired, cap_retired;

static void retire(void *ctx, void *p)
{
	(void)ctx;
	if (nretired == cap_retired) {
		cap_retired = cap_retired ? 2 * cap_retired : 64;
		retired = realloc(retired, sizeof(*retired) * cap_retired);
	}
	retired[nretired++] = p;
}

static void free_retired(void)
{
	for (size_t i = 0; i < nretired; i++)
		free(retired[i]);	/* g_malloc is malloc here */
	nretired = 0;
}

/* The plain log: the rule of ltt_state__record, written again. */
typedef struct plain {
	int64_t *t;
	uint8_t *k;
	size_t n, cap;
} plain;

static void plain_record(plain *p, int64_t t, int kind, int64_t sealed)
{
	if (p->n) {
		if (p->k[p->n - 1] == kind)
			return;
		if (p->t[p->n - 1] >= t && p->t[p->n - 1] > sealed) {
			p->k[p->n - 1] = (uint8_t)kind;
			if (p->n >= 2 && p->k[p->n - 2] == kind)
				p->n--;
			return;
		}
	}
	if (p->n == p->cap) {
		p->cap = p->cap ? 2 * p->cap : 64;
		p->t = realloc(p->t, sizeof(int64_t) * p->cap);
		p->k = realloc(p->k, p->cap);
	}
	p->t[p->n] = t;
	p->k[p->n++] = (uint8_t)kind;
}

/* Last change at or before x (0 if x is before the first). */
static size_t plain_at(const plain *p, int64_t x)
{
	size_t lo = 0, hi = p->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (p->t[mid] <= x)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? lo - 1 : 0;
}

static void plain_sums(const plain *p, int64_t x, int64_t *s)
{
	size_t j = plain_at(p, x);

	memset(s, 0, sizeof(int64_t) * ROW_NKINDS);
	for (size_t i = 0; i < j; i++)
		s[p->k[i]] += p->t[i + 1] - p->t[i];
	s[p->k[j]] += x - p->t[j];
}

/* Every change, in order, with the sums before it; 1 if all match. */
static int read_all(const row_log *r, const plain *p, int64_t end, const char *what)
{
	row_cur cu;
	int64_t s[ROW_NKINDS] = { 0 };

	if (row_log_count(r) != p->n)
		return ok(0, "%s: %" PRIu64 " changes, want %zu", what, row_log_count(r), p->n);
	if (!p->n)
		return 1;
	row_cur_seek(&cu, r, end, p->t[0]);
	for (size_t i = 0; ; i++) {
		/* the seek lands on the last change at p->t[0] (the ones
		 * before it at that instant last no time) */
		if (i == 0)
			while (i + 1 < p->n && p->t[i + 1] == p->t[0])
				i++;
		if (cu.t != p->t[i] || cu.k != p->k[i] || memcmp(cu.S, s, sizeof(s)))
			return ok(0, "%s: change %zu: (%" PRId64 ", %d), want (%" PRId64 ", %d)%s",
				  what, i, cu.t, cu.k, p->t[i], p->k[i],
				  memcmp(cu.S, s, sizeof(s)) ? ", sums differ" : "");
		if (i + 1 == p->n)
			return cu.kn < 0 && cu.tn == end ? 1 :
			       ok(0, "%s: a change after the last", what);
		if (cu.kn < 0 || cu.tn != p->t[i + 1])
			return ok(0, "%s: change %zu: next at %" PRId64 ", want %" PRId64, what, i,
				  cu.tn, p->t[i + 1]);
		s[p->k[i]] += p->t[i + 1] - p->t[i];
		row_cur_next(&cu);
	}
}

/* Seeks to times at, around and between changes, and advances. */
static int seeks(const row_log *r, const plain *p, int64_t end, const char *what)
{
	int64_t want[ROW_NKINDS], got[ROW_NKINDS];

	if (!p->n)
		return 1;
	for (int q = 0; q < 300; q++) {
		size_t j = rnd() % p->n;
		int64_t x = p->t[j] + (int64_t)(rnd() % 3) - 1;
		int64_t span = p->t[p->n - 1] - p->t[0];
		row_cur cu;

		if (q % 3 == 2 && span > 0)
			x = p->t[0] + (int64_t)(rnd() % (uint64_t)span);
		if (x < p->t[0])
			x = p->t[0];
		row_cur_seek(&cu, r, end, x);
		j = plain_at(p, x);
		plain_sums(p, x, want);
		row_cur_sum_at(&cu, x, got);
		if (cu.t != p->t[j] || cu.k != p->k[j] || memcmp(got, want, sizeof(got)))
			return ok(0, "%s: seek %" PRId64 ": change at %" PRId64 " kind %d, want %"
				  PRId64 " kind %d%s", what, x, cu.t, cu.k, p->t[j], p->k[j],
				  memcmp(got, want, sizeof(got)) ? ", sums differ" : "");
		/* forward from there, near (a few changes) or far (chunks) */
		{
			size_t to = j + (q % 2 ? rnd() % 4 : rnd() % (4 * ROW_CHUNK));
			int64_t y = p->t[to < p->n ? to : p->n - 1] + (int64_t)(rnd() % 2);

			if (y < x)
				y = x;
			row_cur_advance(&cu, y);
			j = plain_at(p, y);
			plain_sums(p, y, want);
			row_cur_sum_at(&cu, y, got);
			if (cu.t != p->t[j] || cu.k != p->k[j] || memcmp(got, want, sizeof(got)))
				return ok(0, "%s: advance %" PRId64 " -> %" PRId64 ": change at %"
					  PRId64 ", want %" PRId64 "%s", what, x, y, cu.t, p->t[j],
					  memcmp(got, want, sizeof(got)) ? ", sums differ" : "");
		}
	}
	return 1;
}

typedef enum { D_SMALL, D_MIXED, D_HUGE, D_EQUAL } deltas;

static int64_t next_delta(deltas d)
{
	switch (d) {
	case D_SMALL: return (int64_t)(rnd() % 4);
	case D_HUGE: return (int64_t)(rnd() >> (12 + rnd() % 52));	/* up to 2^52 */
	case D_EQUAL: return rnd() % 4 ? 0 : 1;
	default: return (int64_t)(rnd() >> (50 + rnd() % 14));	/* up to 2^14 */
	}
}

/*
 * n records of kinds among nk (the same kind again sometimes: ignored),
 * sealed_ns moving as a snapshot every so often would move it; a copy of
 * the header at the middle, read again at the end.
 */
static void one(size_t n, unsigned nk, deltas d, int64_t t0, const char *name)
{
	row_log r = { 0 }, mid_r;
	plain p = { 0 }, mid_p = { 0 };
	int64_t t = t0, sealed = INT64_MIN, mid_end = 0;
	unsigned gen = 0;		/* snapshots taken */
	char what[128];
	int good = 1;

	for (size_t i = 0; i < n; i++) {
		/* two kinds alternate: every record a change */
		int kind = nk == 2 ? (int)(i % 2) : (int)(rnd() % nk);

		t += next_delta(d);
		if (d == D_HUGE && i == n / 3)
			t += (int64_t)1 << 61;
		if (rnd() % 16 == 0) {
			sealed = t;		/* a snapshot saw up to now */
			gen++;
		}
		plain_record(&p, t, kind, sealed);
		row_log_record(&r, t, kind, sealed, gen, retire, NULL);
		if (i == n / 2) {
			mid_r = r;
			mid_p = p;
			mid_p.t = malloc(sizeof(int64_t) * (p.n + 1));
			mid_p.k = malloc(p.n + 1);
			memcpy(mid_p.t, p.t, sizeof(int64_t) * p.n);
			memcpy(mid_p.k, p.k, p.n);
			mid_end = t;
			/* what the snapshot saw is sealed */
			sealed = t;
			gen++;
		}
	}
	snprintf(what, sizeof(what), "%s, %zu records, %u kinds", name, n, nk);
	good &= read_all(&r, &p, t + 5, what) && seeks(&r, &p, t + 5, what);
	row_log_finish(&r, retire, NULL);
	snprintf(what, sizeof(what), "%s, %zu records, %u kinds, encoded", name, n, nk);
	good &= read_all(&r, &p, t + 5, what) && seeks(&r, &p, t + 5, what);
	if (n) {
		snprintf(what, sizeof(what), "%s, %zu records, %u kinds, copy at the middle",
			 name, n, nk);
		good &= read_all(&mid_r, &mid_p, mid_end, what) &&
			seeks(&mid_r, &mid_p, mid_end, what);
	}
	ok(good, "%s, %zu records (%zu changes, %zu chunks), %u kinds: read back, seeks, "
	   "sums", name, n, p.n, r.nchunks, nk);
	row_log_release(&r, retire, NULL);
	free_retired();
	free(p.t);
	free(p.k);
	free(mid_p.t);
	free(mid_p.k);
}

int main(void)
{
	static const size_t sizes[] = { 1, 2, 3, ROW_CHUNK - 1, ROW_CHUNK, ROW_CHUNK + 1,
					ROW_CHUNK + 2, ROW_CHUNK + 3, 2 * ROW_CHUNK + 2,
					ROW_SUPER * ROW_CHUNK + 2, 3 * ROW_SUPER * ROW_CHUNK + 77 };

	/* alternating kinds: exactly n changes, so the counts hit the
	 * boundaries; with more kinds some records repeat (ignored) */
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		one(sizes[i], 2, D_MIXED, 1000, "2 kinds, mixed deltas");
		one(sizes[i] * 2, ROW_NKINDS, D_MIXED, -5000, "all kinds, mixed deltas");
	}
	one(5000, 3, D_SMALL, 0, "small deltas");
	one(5000, 5, D_HUGE, -((int64_t)1 << 62), "deltas up to 2^52, one of 2^61");
	one(5000, 4, D_EQUAL, 42, "mostly equal times");
	one(20000, 6, D_MIXED, 7, "6 kinds");

	/* a change of 2^62 ns, and one row of one change */
	{
		row_log r = { 0 };
		plain p = { 0 };
		int64_t ts[] = { -((int64_t)1 << 61), ((int64_t)1 << 61) - 1, ((int64_t)1 << 61) };

		for (int i = 0; i < 3; i++) {
			plain_record(&p, ts[i], i % 2, INT64_MIN);
			row_log_record(&r, ts[i], i % 2, INT64_MIN, 0, retire, NULL);
		}
		row_log_finish(&r, retire, NULL);
		ok(read_all(&r, &p, ts[2] + 1, "2^62 apart") && seeks(&r, &p, ts[2] + 1, "2^62 apart"),
		   "a delta of 2^62 - 1 ns reads back");
		row_log_release(&r, retire, NULL);
		free_retired();
		free(p.t);
		free(p.k);
	}
	free(retired);
	return tap_done();
}
