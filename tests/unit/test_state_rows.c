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
 * tail not reused in place. The chunks are coded by models that a bank
 * shared by rows builds from what it counted: rows that share one are
 * read back too, coded by a model trained on other rows (escapes,
 * contexts it never saw), with one symbol only, with deltas of every
 * length (0 to 63 bits), and a predictable row must cost little.
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
/* What p holds so far, as a snapshot of the row would see it. */
static plain plain_copy(const plain *p)
{
	plain c = *p;

	c.t = malloc(sizeof(int64_t) * (p->n + 1));
	c.k = malloc(p->n + 1);
	memcpy(c.t, p->t, sizeof(int64_t) * p->n);
	memcpy(c.k, p->k, p->n);
	c.cap = p->n + 1;
	return c;
}

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

/*
 * Seeks to the first change of every chunk and around it: where a seek
 * takes the time spent in each kind from its group's sums (gsum[]) and,
 * but for the first chunk of a group, from the chunk's header.
 */
static int chunk_starts(const row_log *r, const plain *p, int64_t end, const char *what)
{
	int64_t want[ROW_NKINDS], got[ROW_NKINDS];

	for (size_t c = 0; c < r->nchunks; c++)
		for (int d = -1; d <= 1; d++) {
			int64_t x = r->ct[c] + d;
			row_cur cu;
			size_t j;

			if (x < p->t[0])
				continue;
			row_cur_seek(&cu, r, end, x);
			j = plain_at(p, x);
			plain_sums(p, x, want);
			row_cur_sum_at(&cu, x, got);
			if (cu.t != p->t[j] || cu.k != p->k[j] || memcmp(got, want, sizeof(got)))
				return ok(0, "%s: seek to chunk %zu's start %+d: change at %"
					  PRId64 " kind %d, want %" PRId64 " kind %d%s", what, c,
					  d, cu.t, cu.k, p->t[j], p->k[j],
					  memcmp(got, want, sizeof(got)) ? ", sums differ" : "");
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
static void one_in(row_bank *shared, size_t n, unsigned nk, deltas d, int64_t t0,
		   const char *name)
{
	row_log r = { 0 }, mid_r;
	row_bank *bank = shared ? shared : row_bank_new();
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
		row_log_record(&r, bank, t, kind, sealed, gen, retire, NULL);
		if (i == n / 2) {
			mid_r = r;
			mid_p = plain_copy(&p);
			mid_end = t;
			/* what the snapshot saw is sealed */
			sealed = t;
			gen++;
		}
	}
	snprintf(what, sizeof(what), "%s, %zu records, %u kinds", name, n, nk);
	good &= read_all(&r, &p, t + 5, what) && seeks(&r, &p, t + 5, what) &&
		chunk_starts(&r, &p, t + 5, what);
	row_log_finish(&r, retire, NULL);
	snprintf(what, sizeof(what), "%s, %zu records, %u kinds, encoded", name, n, nk);
	good &= read_all(&r, &p, t + 5, what) && seeks(&r, &p, t + 5, what) &&
		chunk_starts(&r, &p, t + 5, what);
	if (n) {
		snprintf(what, sizeof(what), "%s, %zu records, %u kinds, copy at the middle",
			 name, n, nk);
		good &= read_all(&mid_r, &mid_p, mid_end, what) &&
			seeks(&mid_r, &mid_p, mid_end, what) &&
			chunk_starts(&mid_r, &mid_p, mid_end, what);
	}
	ok(good, "%s, %zu records (%zu changes, %zu chunks), %u kinds: read back, seeks, "
	   "sums, chunk starts", name, n, p.n, r.nchunks, nk);
	row_log_release(&r, retire, NULL);
	if (!shared)
		row_bank_release(bank, retire, NULL);
	free_retired();
	free(p.t);
	free(p.k);
	free(mid_p.t);
	free(mid_p.k);
}

static void one(size_t n, unsigned nk, deltas d, int64_t t0, const char *name)
{
	one_in(NULL, n, nk, d, t0, name);
}

/* A row of given times and kinds recorded into r (sealed never), and the
 * same kept plainly. */
static void record_all(row_log *r, row_bank *bank, plain *p, const int64_t *t, const uint8_t *k,
		       size_t n)
{
	for (size_t i = 0; i < n; i++) {
		plain_record(p, t[i], k[i], INT64_MIN);
		row_log_record(r, bank, t[i], k[i], INT64_MIN, 0, retire, NULL);
	}
}

/*
 * Rows that share a bank: a model trained on one kind of row codes others
 * it never saw (their symbols escape; their contexts have no code); a row
 * of one symbol only; deltas of every length from 0 to 63 bits. All read
 * back exactly, before and after they are finished.
 */
static void shared_bank(void)
{
	enum { NROWS = 6, N = 6000 };
	row_bank *bank = row_bank_new();
	row_log r[NROWS] = { { 0 } };
	plain p[NROWS] = { { 0 } };
	static int64_t t[NROWS][N];
	static uint8_t k[NROWS][N];
	size_t n[NROWS];
	int good = 1;
	char what[96];

	/* 0: user and system call back and forth, short and regular: the
	 * training row; 1: one symbol only (two kinds, a delta of 1000) */
	for (size_t i = 0; i < N; i++) {
		t[0][i] = (int64_t)i * 3000 + (int64_t)(rnd() % 64);
		k[0][i] = i % 2 ? LTT_STATE_KIND_SYSCALL : LTT_STATE_KIND_USER;
		t[1][i] = 5 + (int64_t)i * 1000;
		k[1][i] = i % 2 ? LTT_STATE_KIND_WAIT : LTT_STATE_KIND_WAIT_CPU;
	}
	n[0] = n[1] = N;
	/* 2: random kinds (13 of them) and random lengths below 2^40 */
	t[2][0] = -(INT64_C(1) << 60);
	k[2][0] = 0;
	for (size_t i = 1; i < N; i++) {
		unsigned b = (unsigned)(rnd() % 41);

		t[2][i] = t[2][i - 1] + (b ? (int64_t)((UINT64_C(1) << (b - 1)) |
						       (rnd() & ((UINT64_C(1) << (b - 1)) - 1))) : 0);
		k[2][i] = (uint8_t)((k[2][i - 1] + 1 + rnd() % 12) % 13);
	}
	n[2] = N;
	/* 3: every length of a delta, 0 to 62 bits (their bit under the
	 * leading 1 clear: the row lasts less than 2^63 ns); 5: one of 63 */
	t[3][0] = -(INT64_C(1) << 62);
	k[3][0] = 3;
	for (size_t i = 1; i < 64; i++) {
		unsigned b = (unsigned)(i - 1);
		uint64_t d = b ? UINT64_C(1) << (b - 1) : 0;

		if (b >= 3)
			d |= rnd() & ((UINT64_C(1) << (b - 2)) - 1);
		t[3][i] = t[3][i - 1] + (int64_t)d;
		k[3][i] = k[3][i - 1] == 3 ? 4 : 3;
	}
	n[3] = 64;
	t[5][0] = -(INT64_C(1) << 62) - (INT64_C(1) << 60);
	k[5][0] = 5;
	t[5][1] = t[5][0] + (int64_t)((UINT64_C(1) << 62) | (rnd() >> 4));
	k[5][1] = 6;
	for (size_t i = 2; i < 300; i++) {
		t[5][i] = t[5][i - 1] + (int64_t)(rnd() >> (24 + i % 40));
		k[5][i] = k[5][i - 1] == 5 ? 6 : 5;
	}
	n[5] = 300;
	/* 4: lengths 0 to 57 over and over, then the long ones coded too */
	t[4][0] = INT64_MIN / 2;
	k[4][0] = 0;
	for (size_t i = 1; i < N; i++) {
		unsigned b = (unsigned)(i % 58);
		uint64_t d = b ? (UINT64_C(1) << (b - 1)) |
				 (rnd() & ((UINT64_C(1) << (b - 1)) - 1)) : 0;

		if (b > 40)		/* 2^40 ns at most, but every length */
			d = UINT64_C(1) << (i % 41);
		t[4][i] = t[4][i - 1] + (int64_t)d;
		k[4][i] = (uint8_t)(i % 3);
	}
	n[4] = N;

	/* row 0 first, alone, so that the models know only it */
	record_all(&r[0], bank, &p[0], t[0], k[0], n[0]);
	ok(bank->cur >= 1, "a model was built from the first row (%u)", bank->cur);
	for (int j = 1; j < NROWS; j++)
		record_all(&r[j], bank, &p[j], t[j], k[j], n[j]);
	for (int j = 0; j < NROWS; j++) {
		int64_t end = t[j][n[j] - 1] + 1;

		snprintf(what, sizeof(what), "shared bank, row %d", j);
		good &= read_all(&r[j], &p[j], end, what) && seeks(&r[j], &p[j], end, what) &&
			chunk_starts(&r[j], &p[j], end, what);
		row_log_finish(&r[j], retire, NULL);
		snprintf(what, sizeof(what), "shared bank, row %d, finished", j);
		good &= read_all(&r[j], &p[j], end, what) && seeks(&r[j], &p[j], end, what) &&
			chunk_starts(&r[j], &p[j], end, what);
	}
	ok(good, "rows sharing a bank (%u models): a trained row, one symbol, random kinds and "
	   "lengths, every length of 0 to 63 bits: read back, seeks, sums", bank->cur);
	row_bank_done(bank);
	for (int j = 0; j < NROWS; j++) {
		row_log_release(&r[j], retire, NULL);
		free(p[j].t);
		free(p[j].k);
	}
	row_bank_release(bank, retire, NULL);
	free_retired();
}

/*
 * Rows of exactly c chunks (strictly increasing times, kinds in turn among
 * five, so that every record is a change): one chunk, one group of 16,
 * a group and one chunk of one change, two full groups, and three and a
 * half. Read back, seeks, every chunk's start, before and after finish.
 */
static void exact_chunks(void)
{
	static const size_t counts[] = { 1, ROW_CHUNK, ROW_SUPER * ROW_CHUNK,
					 ROW_SUPER * ROW_CHUNK + 1, 2 * ROW_SUPER * ROW_CHUNK,
					 3 * ROW_SUPER * ROW_CHUNK + ROW_SUPER / 2 * ROW_CHUNK };

	for (size_t i = 0; i < sizeof(counts) / sizeof(counts[0]); i++) {
		size_t n = counts[i], want = (n + ROW_CHUNK - 1) / ROW_CHUNK;
		row_log r = { 0 };
		row_bank *bank = row_bank_new();
		plain p = { 0 };
		int64_t t = 1000, end;
		int good = 1;

		for (size_t j = 0; j < n; j++) {
			t += 1 + (int64_t)(rnd() % 5000);
			plain_record(&p, t, (int)(j % 5), INT64_MIN);
			row_log_record(&r, bank, t, (int)(j % 5), INT64_MIN, 0, retire, NULL);
		}
		end = t + 3;
		good &= read_all(&r, &p, end, "exact chunks") && seeks(&r, &p, end, "exact chunks") &&
			chunk_starts(&r, &p, end, "exact chunks");
		row_log_finish(&r, retire, NULL);
		good &= r.nchunks == want && read_all(&r, &p, end, "exact chunks, encoded") &&
			seeks(&r, &p, end, "exact chunks, encoded") &&
			chunk_starts(&r, &p, end, "exact chunks, encoded");
		ok(good, "%zu changes: %zu chunks (want %zu), %zu groups: read back, seeks, sums, "
		   "chunk starts", n, r.nchunks, want, (r.nchunks + ROW_SUPER - 1) / ROW_SUPER);
		row_log_release(&r, retire, NULL);
		row_bank_release(bank, retire, NULL);
		free_retired();
		free(p.t);
		free(p.k);
	}
}

/* A row of one symbol (two kinds in turn, 1 ns apart) in a bank of its own:
 * once the model knows it, a change costs one bit, plus the chunks'
 * headers: under 2 bits a change in all. */
static void one_symbol(void)
{
	row_bank *bank = row_bank_new();
	row_log r = { 0 };
	plain p = { 0 };
	int good;

	for (int64_t i = 0; i < 20000; i++) {
		plain_record(&p, 7 + i, (int)(i % 2), INT64_MIN);
		row_log_record(&r, bank, 7 + i, (int)(i % 2), INT64_MIN, 0, retire, NULL);
	}
	row_log_finish(&r, retire, NULL);
	good = read_all(&r, &p, 7 + 20000, "one symbol") && seeks(&r, &p, 7 + 20000, "one symbol");
	ok(good && r.nbytes * 8 < 2 * p.n, "one symbol: read back, %zu bytes for %zu changes "
	   "(under 2 bits each)", r.nbytes, p.n);
	row_log_release(&r, retire, NULL);
	row_bank_release(bank, retire, NULL);
	free_retired();
	free(p.t);
	free(p.k);
}

/* A context followed by more symbols than a code can hold (12 kinds and
 * 41 lengths after user then system call): the rarest escape. */
static void many_symbols(void)
{
	row_bank *bank = row_bank_new();
	row_log r = { 0 };
	plain p = { 0 };
	int64_t t = 0;
	int good;

	for (int i = 0; i < 30000; i++) {
		int kind = i % 3 == 2 ? 2 + (int)(rnd() % 12) : i % 3;
		unsigned b = (unsigned)(rnd() % 41);

		t += b ? (int64_t)((UINT64_C(1) << (b - 1)) | (rnd() & ((UINT64_C(1) << (b - 1)) - 1)))
		       : 0;
		plain_record(&p, t, kind, INT64_MIN);
		row_log_record(&r, bank, t, kind, INT64_MIN, 0, retire, NULL);
	}
	row_log_finish(&r, retire, NULL);
	good = read_all(&r, &p, t + 1, "many symbols") && seeks(&r, &p, t + 1, "many symbols");
	ok(good, "a context of about 490 symbols (%u models): read back, seeks, sums", bank->cur);
	row_log_release(&r, retire, NULL);
	row_bank_release(bank, retire, NULL);
	free_retired();
	free(p.t);
	free(p.k);
}

/*
 * A row whose bit string passes 1 MB while snapshots come (a busy CPU's in
 * a window that takes one five times a second): it moves once into a
 * reservation and fills it without moving again, the end of the pass
 * included, so that a header a snapshot copied after the move reads the
 * very bytes the row still has; both read back whole, and the row's memory
 * counts what it holds, not the address space reserved.
 */
static void big_row(void)
{
	row_log r = { 0 }, late = { 0 };
	row_bank *bank = row_bank_new();
	plain p = { 0 }, late_p = { 0 };
	int64_t t = 0, sealed = INT64_MIN, late_end = 0;
	const uint8_t *late_bits = NULL;
	unsigned gen = 0;
	int moved = 0, good;

	for (size_t i = 0; i < 3000000; i++) {
		int kind = (int)(rnd() % 6);

		t += next_delta(D_MIXED);
		if (rnd() % 4096 == 0) {
			sealed = t;
			gen++;
		}
		plain_record(&p, t, kind, sealed);
		row_log_record(&r, bank, t, kind, sealed, gen, retire, NULL);
		if (late_bits && r.bits != late_bits)
			moved = 1;
		if (!late_bits && r.bits_reserved && r.nbytes >= ((size_t)2 << 20)) {
			late = r;
			late_bits = r.bits;
			late_p = plain_copy(&p);
			late_end = t;
			sealed = t;
			gen++;
		}
	}
	ok(late_bits && !moved, "a row of %zu KB of bits under snapshots: in a reservation "
	   "from 1 MB on (%zu KB reserved), never moved after", r.nbytes / 1024,
	   r.bytes_cap / 1024);
	row_log_finish(&r, retire, NULL);
	good = read_all(&r, &p, t + 5, "big row");
	if (late_bits)
		good &= read_all(&late, &late_p, late_end, "big row, header copied after the move");
	ok(good && r.bits == late_bits, "it reads back, and so does the copy of its header; "
	   "the end of the pass leaves it in place");
	ok(row_log_memory(&r) < r.nbytes + r.nbytes / 4,
	   "its memory is what it holds: %zu KB for %zu KB of bits, %zu KB reserved",
	   row_log_memory(&r) / 1024, r.nbytes / 1024, r.bytes_cap / 1024);
	row_log_release(&r, retire, NULL);
	row_bank_release(bank, retire, NULL);
	free_retired();
	free(p.t);
	free(p.k);
	free(late_p.t);
	free(late_p.k);
}

int main(void)
{
	static const size_t sizes[] = { 1, 2, 3, ROW_CHUNK - 1, ROW_CHUNK, ROW_CHUNK + 1,
					ROW_CHUNK + 2, ROW_CHUNK + 3, 2 * ROW_CHUNK + 2,
					ROW_SUPER * ROW_CHUNK - 1, ROW_SUPER * ROW_CHUNK,
					ROW_SUPER * ROW_CHUNK + 1, ROW_SUPER * ROW_CHUNK + 2,
					2 * ROW_SUPER * ROW_CHUNK, 3 * ROW_SUPER * ROW_CHUNK + 77 };

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
	shared_bank();
	exact_chunks();
	one_symbol();
	many_symbols();
	big_row();

	/* a change of 2^62 ns, and one row of one change */
	{
		row_log r = { 0 };
		row_bank *bank = row_bank_new();
		plain p = { 0 };
		int64_t ts[] = { -((int64_t)1 << 61), ((int64_t)1 << 61) - 1, ((int64_t)1 << 61) };

		for (int i = 0; i < 3; i++) {
			plain_record(&p, ts[i], i % 2, INT64_MIN);
			row_log_record(&r, bank, ts[i], i % 2, INT64_MIN, 0, retire, NULL);
		}
		row_log_finish(&r, retire, NULL);
		ok(read_all(&r, &p, ts[2] + 1, "2^62 apart") && seeks(&r, &p, ts[2] + 1, "2^62 apart"),
		   "a delta of 2^62 - 1 ns reads back");
		row_log_release(&r, retire, NULL);
		row_bank_release(bank, retire, NULL);
		free_retired();
		free(p.t);
		free(p.k);
	}
	free(retired);
	return tap_done();
}
