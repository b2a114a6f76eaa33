/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * state-rows.c - row logs of the state index, compressed (the format is in
 * state-rows.h). Times are exact: a delta is stored with all its bits, only
 * its leading 1 and its length are implied by what the chunk says.
 */
#include <string.h>

#include <glib.h>

#include "state-rows.h"

#define PAD 8			/* bytes readable beyond a log's bytes: a
				 * read loads 8 bytes at once */
#define CHUNK_MAX_BYTES 2048	/* bound of one encoded chunk (about 1.3 KB
				 * at most: 128 changes of 74 bits, the header) */

static unsigned bitlen(uint64_t v)
{
	return v ? 64u - (unsigned)__builtin_clzll(v) : 0u;
}

/* ---- bits out, most significant first ---------------------------------- */

typedef struct bw {
	uint8_t *p;
	size_t len;
	uint64_t acc;
	unsigned nacc;
} bw;

static void put(bw *w, uint64_t v, unsigned n)	/* n <= 32 */
{
	if (!n)
		return;
	w->acc = (w->acc << n) | (v & ((UINT64_C(1) << n) - 1));
	w->nacc += n;
	while (w->nacc >= 8) {
		w->nacc -= 8;
		w->p[w->len++] = (uint8_t)(w->acc >> w->nacc);
	}
}

static void put_long(bw *w, uint64_t v, unsigned n)	/* n <= 64 */
{
	if (n > 32) {
		put(w, v >> 32, n - 32);
		n = 32;
	}
	put(w, v, n);
}

/* A number of any size: its length in 7 bits, then its bits under the
 * leading 1. */
static void put_num(bw *w, uint64_t v)
{
	unsigned b = bitlen(v);

	put(w, b, 7);
	if (b >= 2)
		put_long(w, v, b - 1);
}

static void flush(bw *w)
{
	if (w->nacc)
		w->p[w->len++] = (uint8_t)(w->acc << (8 - w->nacc));
	w->nacc = 0;
}

/* ---- bits in ------------------------------------------------------------- */

static uint64_t get(const uint8_t *p, uint64_t *bit, unsigned n)	/* n <= 32 */
{
	uint64_t v;

	if (!n)
		return 0;
	memcpy(&v, p + (*bit >> 3), 8);
	v = GUINT64_FROM_BE(v) << (*bit & 7);
	*bit += n;
	return v >> (64 - n);
}

static uint64_t get_long(const uint8_t *p, uint64_t *bit, unsigned n)
{
	uint64_t hi = 0;

	if (n > 32) {
		hi = get(p, bit, n - 32) << 32;
		n = 32;
	}
	return hi | get(p, bit, n);
}

/* A number put_num() wrote: b is its length. */
static uint64_t get_rest(const uint8_t *p, uint64_t *bit, unsigned b)
{
	if (b < 2)
		return b;
	return (UINT64_C(1) << (b - 1)) | get_long(p, bit, b - 1);
}

/*
 * The same reads from a window of 57 to 64 bits loaded once: a change
 * (kind, length, delta) usually fits in one, where get() loads 8 bytes
 * per field.
 */
typedef struct bwin {
	uint64_t v;
	unsigned avail;
} bwin;

static inline uint64_t take(const uint8_t *p, uint64_t *bit, bwin *w, unsigned n)	/* n <= 32 */
{
	uint64_t x;

	if (n > w->avail) {
		memcpy(&w->v, p + (*bit >> 3), 8);
		w->v = GUINT64_FROM_BE(w->v) << (*bit & 7);
		w->avail = 64 - (unsigned)(*bit & 7);
	}
	if (!n)
		return 0;
	x = w->v >> (64 - n);
	w->v <<= n;			/* n < 64 */
	w->avail -= n;
	*bit += n;
	return x;
}

/* ---- the writer ---------------------------------------------------------- */

/* g_renew() for what snapshots may read: a new copy, the old one retired. */
static void *regrow(void *p, size_t old_size, size_t new_size, row_retire_fn retire,
		    void *ctx)
{
	void *n = g_malloc(new_size);

	if (old_size)
		memcpy(n, p, old_size < new_size ? old_size : new_size);
	if (p)
		retire(ctx, p);
	return n;
}

/* Room for one more chunk of at most `bytes` bytes. */
static void reserve(row_log *r, size_t bytes, row_retire_fn retire, void *ctx)
{
	if (r->nbytes + bytes > r->bytes_cap) {
		/* by half as much again: a third of a doubling's slack */
		size_t cap = r->bytes_cap + r->bytes_cap / 2;

		if (cap < r->nbytes + bytes)
			cap = r->nbytes + bytes + 256;
		r->bits = regrow(r->bits, r->bytes_cap + (r->bits ? PAD : 0), cap + PAD,
				 retire, ctx);
		r->bytes_cap = cap;
	}
	if (r->nchunks == r->chunk_cap) {
		size_t cap = r->chunk_cap ? r->chunk_cap + r->chunk_cap / 2 + 1 : 4;

		r->ct = regrow(r->ct, sizeof(int64_t) * r->chunk_cap, sizeof(int64_t) * cap,
			       retire, ctx);
		r->coff = regrow(r->coff, sizeof(uint32_t) * r->chunk_cap,
				 sizeof(uint32_t) * cap, retire, ctx);
		r->chunk_cap = cap;
	}
	if (r->nchunks / ROW_SUPER + 1 >= r->sup_cap) {
		size_t cap = r->sup_cap ? 2 * r->sup_cap : 2;

		r->sup = regrow(r->sup, sizeof(row_sup) * r->sup_cap, sizeof(row_sup) * cap,
				retire, ctx);
		r->sup_cap = cap;
	}
	if (!r->run)
		r->run = g_new0(int64_t, ROW_NKINDS);
}

/*
 * A change's kind, by its index c in the chunk's kinds (np of them), p
 * the previous change's, pp the one before (NO_KIND for the second
 * change of a chunk). It is never p. With two kinds it is implied; else
 * one bit says whether it is pp (a row that goes back and forth: user,
 * system call, user...), and if not, its rank among the kinds other than
 * p and pp.
 */
#define NO_KIND 0xff

static unsigned rank_width(unsigned choices)
{
	return choices >= 2 ? bitlen(choices - 1) : 0;
}

static void put_kind(bw *w, const uint8_t *idx_of, unsigned np, unsigned pp, unsigned p,
		     unsigned c)
{
	(void)idx_of;
	if (np <= 2)
		return;
	if (pp != NO_KIND) {
		put(w, c == pp, 1);
		if (c == pp)
			return;
		put(w, c - (c > p) - (c > pp), rank_width(np - 2));
	} else {
		put(w, c - (c > p), rank_width(np - 1));
	}
}

/*
 * Encode the changes t[0..m) k[0..m) as the next chunk. next_t: the time
 * of the change that follows them (has_next), up to which the chunk's
 * time in each kind is counted.
 */
static void encode(row_log *r, const int64_t *t, const uint8_t *k, unsigned m,
		   int has_next, int64_t next_t, row_retire_fn retire, void *ctx)
{
	uint8_t buf[CHUNK_MAX_BYTES], idx_of[ROW_NKINDS];
	int64_t dur[ROW_NKINDS] = { 0 };
	unsigned mask = 0, np = 0, lo = 64, hi = 0, L, w0;
	bw out = { buf, 0, 0, 0 };
	size_t c = r->nchunks;

	for (unsigned i = 0; i < m; i++) {
		mask |= 1u << k[i];
		if (i) {
			unsigned b = bitlen((uint64_t)(t[i] - t[i - 1]));

			lo = b < lo ? b : lo;
			hi = b > hi ? b : hi;
			dur[k[i - 1]] += t[i] - t[i - 1];
		}
	}
	if (has_next)
		dur[k[m - 1]] += next_t - t[m - 1];
	if (m == 1)
		lo = hi = 0;
	L = bitlen(hi - lo);
	for (unsigned q = 0; q < ROW_NKINDS; q++)
		if (mask & (1u << q))
			idx_of[q] = (uint8_t)np++;
	w0 = bitlen(np - 1);
	put(&out, m - 1, 7);
	put(&out, mask, ROW_NKINDS);
	put(&out, lo, 7);
	put(&out, L, 3);
	/* the time in each kind before this chunk, from its group's start */
	{
		unsigned rmask = 0;
		int64_t rel[ROW_NKINDS] = { 0 };

		if (c % ROW_SUPER)
			for (unsigned q = 0; q < ROW_NKINDS; q++) {
				rel[q] = r->run[q] - r->sup[c / ROW_SUPER].sum[q];
				if (rel[q])
					rmask |= 1u << q;
			}
		put(&out, rmask, ROW_NKINDS);
		for (unsigned q = 0; q < ROW_NKINDS; q++)
			if (rmask & (1u << q))
				put_num(&out, (uint64_t)rel[q]);
	}
	put(&out, idx_of[k[0]], w0);
	for (unsigned i = 1; i < m; i++) {
		uint64_t d = (uint64_t)(t[i] - t[i - 1]);
		unsigned b = bitlen(d);

		put_kind(&out, idx_of, np, i >= 2 ? idx_of[k[i - 2]] : NO_KIND,
			 idx_of[k[i - 1]], idx_of[k[i]]);
		put(&out, b - lo, L);
		if (b >= 2)
			put_long(&out, d, b - 1);
	}
	flush(&out);

	reserve(r, out.len, retire, ctx);
	if (c == 0) {
		memset(r->sup[0].sum, 0, sizeof(r->sup[0].sum));
		r->sup[0].base = 0;
	}
	memcpy(r->bits + r->nbytes, buf, out.len);
	memset(r->bits + r->nbytes + out.len, 0, PAD);
	r->ct[c] = t[0];
	r->coff[c] = (uint32_t)(r->nbytes - r->sup[c / ROW_SUPER].base);
	r->nbytes += out.len;
	for (unsigned q = 0; q < ROW_NKINDS; q++)
		r->run[q] += dur[q];
	if ((c + 1) % ROW_SUPER == 0) {
		/* the next group starts here: the time before it, its base */
		row_sup *s = &r->sup[(c + 1) / ROW_SUPER];

		memcpy(s->sum, r->run, sizeof(s->sum));
		s->base = r->nbytes;
	}
	r->nchunks = c + 1;		/* last: a snapshot copies the header */
}

/*
 * A new tail of cap changes holding the last keep of the old one. The old
 * one is freed, or retired if a snapshot may have seen it: one was taken
 * since it was allocated (gen: the snapshots taken of the index so far).
 * When it is full, a tail no snapshot saw is reused in place: most are
 * (a CPU's row fills one in a fraction of a millisecond, snapshots come
 * five times a second), and retiring each would keep 9 bytes per change
 * until the window frees its snapshot.
 */
static void new_tail(row_log *r, unsigned cap, unsigned keep, unsigned gen,
		     row_retire_fn retire, void *ctx)
{
	int seen = r->tt && r->tail_gen != gen;
	int64_t *tt;
	uint8_t *tk;

	if (r->tt && !seen && cap == r->tail_cap) {
		memmove(r->tt, r->tt + r->ntail - keep, sizeof(int64_t) * keep);
		memmove(r->tk, r->tk + r->ntail - keep, keep);
		r->ntail = keep;
		return;
	}
	tt = g_new(int64_t, cap);
	tk = g_new(uint8_t, cap);
	if (keep) {
		memcpy(tt, r->tt + r->ntail - keep, sizeof(int64_t) * keep);
		memcpy(tk, r->tk + r->ntail - keep, keep);
	}
	if (seen) {
		retire(ctx, r->tt);
		retire(ctx, r->tk);
	} else {
		g_free(r->tt);
		g_free(r->tk);
	}
	r->tt = tt;
	r->tk = tk;
	r->tail_cap = cap;
	r->tail_gen = gen;
	r->ntail = keep;
}

int row_log_record(row_log *r, int64_t t, int kind, int64_t sealed_ns, unsigned gen,
		   row_retire_fn retire, void *ctx)
{
	if (r->ntail) {
		unsigned l = r->ntail - 1;

		if (r->tk[l] == kind)
			return 0;
		if (r->tt[l] >= t && r->tt[l] > sealed_ns) {
			/* two changes at one instant: the last one holds (unless
			 * a snapshot saw the first: then it is followed by a
			 * change at the same time, an empty interval) */
			r->tk[l] = (uint8_t)kind;
			if (l >= 1 && r->tk[l - 1] == kind) {
				r->ntail--;
				r->n--;
			}
			return 0;
		}
		if (t < r->tt[l])	/* events come in time order: never */
			t = r->tt[l];
	}
	/* (an empty tail with changes before it: only after
	 * row_log_finish(), when nothing is recorded any more) */
	if (r->ntail == r->tail_cap) {
		if (r->ntail == ROW_TAIL) {
			/* encode all but two: the last change and the one before
			 * it stay raw for the rule above */
			encode(r, r->tt, r->tk, ROW_CHUNK, 1, r->tt[ROW_CHUNK], retire, ctx);
			new_tail(r, ROW_TAIL, ROW_TAIL - ROW_CHUNK, gen, retire, ctx);
		} else {
			unsigned cap = r->tail_cap ? r->tail_cap * 4 : 4;

			new_tail(r, cap < ROW_TAIL ? cap : ROW_TAIL, r->ntail, gen, retire, ctx);
		}
	}
	r->tt[r->ntail] = t;
	r->tk[r->ntail] = (uint8_t)kind;
	r->ntail++;
	r->n++;
	return 1;
}

/* A copy of exactly n bytes of p (which holds at least n), p retired. */
static void *fit(void *p, size_t n, size_t old, row_retire_fn retire, void *ctx)
{
	if (!p || n == old)
		return p;
	return regrow(p, n, n, retire, ctx);
}

void row_log_finish(row_log *r, row_retire_fn retire, void *ctx)
{
	unsigned at = 0;

	while (at < r->ntail) {
		unsigned m = r->ntail - at > ROW_CHUNK ? ROW_CHUNK : r->ntail - at;
		int more = at + m < r->ntail;

		encode(r, r->tt + at, r->tk + at, m, more, more ? r->tt[at + m] : 0, retire, ctx);
		at += m;
	}
	if (r->tt) {
		retire(ctx, r->tt);
		retire(ctx, r->tk);
	}
	r->tt = NULL;
	r->tk = NULL;
	r->ntail = r->tail_cap = 0;
	if (!r->nchunks)
		return;
	r->bits = fit(r->bits, r->nbytes + PAD, r->bytes_cap + PAD, retire, ctx);
	r->bytes_cap = r->nbytes;
	r->ct = fit(r->ct, sizeof(int64_t) * r->nchunks, sizeof(int64_t) * r->chunk_cap,
		    retire, ctx);
	r->coff = fit(r->coff, sizeof(uint32_t) * r->nchunks,
		      sizeof(uint32_t) * r->chunk_cap, retire, ctx);
	r->chunk_cap = r->nchunks;
	{
		size_t g = (r->nchunks - 1) / ROW_SUPER + 1;

		r->sup = fit(r->sup, sizeof(row_sup) * g, sizeof(row_sup) * r->sup_cap,
			     retire, ctx);
		r->sup_cap = g;
	}
	g_free(r->run);
	r->run = NULL;
}

void row_log_release(row_log *r, row_retire_fn retire, void *ctx)
{
	void *p[] = { r->bits, r->ct, r->coff, r->sup, r->tt, r->tk };

	for (size_t i = 0; i < G_N_ELEMENTS(p); i++)
		if (p[i])
			retire(ctx, p[i]);
	g_free(r->run);
	memset(r, 0, sizeof(*r));
}

size_t row_log_memory(const row_log *r)
{
	return (r->bits ? r->bytes_cap + PAD : 0) +
	       r->chunk_cap * (sizeof(int64_t) + sizeof(uint32_t)) +
	       r->sup_cap * sizeof(row_sup) +
	       r->tail_cap * (sizeof(int64_t) + sizeof(uint8_t)) +
	       (r->run ? sizeof(int64_t) * ROW_NKINDS : 0);
}

/* ---- the cursor ---------------------------------------------------------- */

/* Where chunk c starts: the chunk table, or the tail (c == nchunks). */
static int chunk_start(const row_log *r, size_t c, int64_t *t)
{
	if (c < r->nchunks) {
		*t = r->ct[c];
		return 1;
	}
	if (c == r->nchunks && r->ntail) {
		*t = r->tt[0];
		return 1;
	}
	return 0;
}

/* The header of chunk c: its count and kinds, bit then at its durations. */
static unsigned chunk_header(const row_log *r, size_t c, uint64_t *bit, row_cur *cu)
{
	const uint8_t *p = r->bits;
	unsigned n, mask;

	*bit = (r->sup[c / ROW_SUPER].base + r->coff[c]) * 8;
	n = (unsigned)get(p, bit, 7) + 1;
	mask = (unsigned)get(p, bit, ROW_NKINDS);
	cu->lo = (uint8_t)get(p, bit, 7);
	cu->L = (uint8_t)get(p, bit, 3);
	cu->np = 0;
	for (unsigned q = 0; q < ROW_NKINDS; q++)
		if (mask & (1u << q))
			cu->pal[cu->np++] = (uint8_t)q;
	return n;
}

static void enter(row_cur *cu, size_t c);

/* Skip the time before chunk c from its group's start, or add it to S. */
static void group_sums(const row_log *r, uint64_t *bit, int64_t *S)
{
	unsigned rmask = (unsigned)get(r->bits, bit, ROW_NKINDS);

	for (unsigned q = 0; rmask; q++, rmask >>= 1)
		if (rmask & 1) {
			int64_t v = (int64_t)get_rest(r->bits, bit, (unsigned)get(r->bits, bit, 7));

			if (S)
				S[q] += v;
		}
}

/* S: the time spent in each kind before chunk c (c <= nchunks): its
 * group's, plus what its header says; the tail's: the last chunk's, plus
 * the time of its changes. */
static void sums_before(row_cur *cu, size_t c)
{
	const row_log *r = cu->r;
	uint64_t bit;

	memset(cu->S, 0, sizeof(cu->S));
	if (c == 0)
		return;
	if (c == r->nchunks) {
		row_cur last;

		last.r = r;
		last.end = cu->end;
		sums_before(&last, c - 1);
		enter(&last, c - 1);
		while (last.c == c - 1)
			row_cur_next(&last);
		memcpy(cu->S, last.S, sizeof(cu->S));
		return;
	}
	memcpy(cu->S, r->sup[c / ROW_SUPER].sum, sizeof(cu->S));
	chunk_header(r, c, &bit, cu);
	group_sums(r, &bit, cu->S);
}

/* The time and kind of the change after this one in the chunk, or the
 * next chunk's start (or end) when it is the chunk's last. */
static void look_ahead(row_cur *cu)
{
	const row_log *r = cu->r;

	if (cu->i + 1 < cu->n) {
		if (cu->c == r->nchunks) {
			cu->tn = r->tt[cu->i + 1];
			cu->kn = r->tk[cu->i + 1];
		} else {
			const uint8_t *p = r->bits;
			bwin win = { 0, 0 };
			unsigned c, b;
			uint64_t d;

			if (cu->np <= 2) {
				c = 1 - cu->ki;
			} else if (cu->kpi != NO_KIND && take(p, &cu->bit, &win, 1)) {
				c = cu->kpi;
			} else {
				unsigned x = cu->kpi == NO_KIND ? cu->ki : MIN(cu->ki, cu->kpi);
				unsigned y = cu->kpi == NO_KIND ? NO_KIND : MAX(cu->ki, cu->kpi);

				c = (unsigned)take(p, &cu->bit, &win,
						   rank_width(cu->np - 1 - (cu->kpi != NO_KIND)));
				c += c >= x;
				c += c >= y;
			}
			cu->kni = (uint8_t)c;
			cu->kn = cu->pal[c];
			b = cu->lo + (unsigned)take(p, &cu->bit, &win, cu->L);
			if (b < 2) {
				d = b;
			} else if (b <= 33) {
				d = (UINT64_C(1) << (b - 1)) | take(p, &cu->bit, &win, b - 1);
			} else {
				d = take(p, &cu->bit, &win, b - 33) << 32;
				d = (UINT64_C(1) << (b - 1)) | d | take(p, &cu->bit, &win, 32);
			}
			cu->tn = cu->t + (int64_t)d;
		}
		return;
	}
	cu->kn = chunk_start(r, cu->c + 1, &cu->tn) ? ROW_NKINDS : -1;
	if (cu->kn < 0)
		cu->tn = cu->end;
}

/* To the first change of chunk c (S already the time before it). */
static void enter(row_cur *cu, size_t c)
{
	const row_log *r = cu->r;

	cu->c = c;
	cu->i = 0;
	if (c == r->nchunks) {
		cu->n = r->ntail;
		cu->t = r->tt[0];
		cu->k = r->tk[0];
	} else {
		cu->n = chunk_header(r, c, &cu->bit, cu);
		group_sums(r, &cu->bit, NULL);
		cu->ki = (uint8_t)get(r->bits, &cu->bit, bitlen(cu->np - 1u));
		cu->kpi = NO_KIND;
		cu->k = cu->pal[cu->ki];
		cu->t = r->ct[c];
	}
	look_ahead(cu);
}

void row_cur_seek(row_cur *cu, const row_log *r, int64_t end, int64_t x)
{
	size_t c;

	cu->r = r;
	cu->end = end;
	if (r->ntail && (!r->nchunks || r->tt[0] <= x)) {
		c = r->nchunks;
	} else {
		size_t lo = 0, hi = r->nchunks;	/* last chunk starting <= x */

		while (hi - lo > 1) {
			size_t mid = lo + (hi - lo) / 2;

			if (r->ct[mid] <= x)
				lo = mid;
			else
				hi = mid;
		}
		c = lo;
	}
	sums_before(cu, c);
	enter(cu, c);
	while (cu->kn >= 0 && cu->tn <= x)
		row_cur_next(cu);
}

void row_cur_next(row_cur *cu)
{
	cu->S[cu->k] += cu->tn - cu->t;
	if (cu->i + 1 < cu->n) {
		cu->i++;
		cu->t = cu->tn;
		cu->k = cu->kn;
		cu->kpi = cu->ki;
		cu->ki = cu->kni;
		look_ahead(cu);
	} else {
		enter(cu, cu->c + 1);
	}
}

void row_cur_advance(row_cur *cu, int64_t x)
{
	int64_t far;

	if (cu->kn < 0 || cu->tn > x)
		return;
	/* beyond this chunk: a seek decodes one header and at most a
	 * chunk, where walking decodes the rest of this one too (at the
	 * whole of 10 M events, a redraw took 39 ms with the seek beyond
	 * the next chunk, 28 with it beyond this one) */
	if (chunk_start(cu->r, cu->c + 1, &far) && far <= x) {
		row_cur_seek(cu, cu->r, cu->end, x);
		return;
	}
	while (cu->kn >= 0 && cu->tn <= x)
		row_cur_next(cu);
}
