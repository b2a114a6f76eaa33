/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * state-rows.c - row logs of the state index, compressed (the format is in
 * state-rows.h). Times are exact: a delta is stored with all its bits, only
 * its leading 1 and its length are implied by the symbol its model codes.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <glib.h>

#include "state-rows.h"

#define PAD 8			/* bytes readable beyond a log's bytes: a
				 * read loads 8 bytes at once */
#define CHUNK_MAX_BYTES 2048	/* bound of one encoded chunk: 127 changes of
				 * 82 bits at most (an escape, 63 bits of
				 * delta), a header of 1022: 1430 bytes; so a
				 * group of ROW_SUPER is below 64 KiB */
#define ESC_LEN 127		/* the escape's delta length in a table */
#define GSUM_MAX (2 + 8 * ROW_NKINDS)	/* a group's sums in gsum[] at most */
#define ROW_GEN_UNKNOWN UINT_MAX	/* grow_padded: a snapshot may hold it */

#if ROW_NKINDS > 16
#error "a kind is written in 4 bits"
#endif

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

/* v >= 0, v < 2^31: Elias gamma code of v + 1 */
static void put_gamma(bw *w, unsigned v)
{
	unsigned b = bitlen(v + 1u);

	put(w, 0, b - 1);
	put(w, v + 1u, b);
}

static void flush(bw *w)
{
	if (w->nacc)
		w->p[w->len++] = (uint8_t)(w->acc << (8 - w->nacc));
	w->nacc = 0;
}

/* ---- bits in ------------------------------------------------------------- */

/* At least n bits (n <= 57) loaded. */
static inline void need(const uint8_t *p, row_bits *b, unsigned n)
{
	if (b->avail < n) {
		memcpy(&b->win, p + (b->bit >> 3), 8);
		b->win = GUINT64_FROM_BE(b->win) << (b->bit & 7);
		b->avail = 64 - (unsigned)(b->bit & 7);
	}
}

/* n bits (1 <= n <= what need() made sure of) */
static inline uint64_t pull(row_bits *b, unsigned n)
{
	uint64_t x = b->win >> (64 - n);

	b->win <<= n;
	b->avail -= n;
	b->bit += n;
	return x;
}

static inline uint64_t get(const uint8_t *p, row_bits *b, unsigned n)	/* n <= 57 */
{
	if (!n)
		return 0;
	need(p, b, n);
	return pull(b, n);
}

/* A number of length l (l >= 1) of which the bits under the leading 1
 * follow. */
static uint64_t get_rest(const uint8_t *p, row_bits *b, unsigned l)
{
	uint64_t v;

	if (l < 2)
		return l;
	if (l - 1 <= 57)
		return (UINT64_C(1) << (l - 1)) | get(p, b, l - 1);
	v = get(p, b, 32) << (l - 33);
	return (UINT64_C(1) << (l - 1)) | v | get(p, b, l - 33);
}

/* What put_gamma() wrote (at most 13 bits here). */
static unsigned get_gamma(const uint8_t *p, row_bits *b)
{
	unsigned z;

	need(p, b, 13);
	z = b->win ? (unsigned)__builtin_clzll(b->win) : 6;
	return (unsigned)pull(b, 2 * z + 1) - 1u;
}

/* ---- the models ---------------------------------------------------------- */

/* What only the encoder needs: the counts, the current model's codes. */
struct row_enc {
	uint32_t *counts[ROW_NCTX];	/* ROW_NSYM counts, once a context is seen */
	uint32_t *code[ROW_NCTX];	/* code << 8 | length; 0: it escapes; NULL:
					 * the context escapes without a code */
	uint64_t seen, next;		/* changes counted; the next look then */
};

row_bank *row_bank_new(void)
{
	return g_new0(row_bank, 1);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * Huffman code lengths of m leaves of weights w[] (nondecreasing), by the
 * two queues (leaves, then the nodes made, whose weights never decrease);
 * returns the longest.
 */
static unsigned huffman(const uint64_t *w, unsigned m, uint8_t *len)
{
	uint64_t nw[2 * 256];
	unsigned par[2 * 256], dep[2 * 256];
	unsigned li = 0, ni = m, nn = m, longest = 0;

	if (m == 1) {
		len[0] = 0;
		return 0;
	}
	for (unsigned i = 0; i < m; i++)
		nw[i] = w[i];
	for (unsigned j = 0; j + 1 < m; j++) {
		unsigned two[2];

		for (int h = 0; h < 2; h++)
			two[h] = li < m && (ni == nn || nw[li] <= nw[ni]) ? li++ : ni++;
		nw[nn] = nw[two[0]] + nw[two[1]];
		par[two[0]] = par[two[1]] = nn++;
	}
	dep[nn - 1] = 0;
	for (unsigned i = nn - 1; i-- > 0;)
		dep[i] = dep[par[i]] + 1;
	for (unsigned i = 0; i < m; i++) {
		len[i] = (uint8_t)dep[i];
		longest = MAX(longest, dep[i]);
	}
	return longest;
}

/* The bits a symbol costs without a code: its kind and length. */
#define RAW_BITS 11

/*
 * The code of one context from its counts: lengths of at most `limit`
 * bits for its 2^limit - 1 most frequent symbols at most and the escape
 * (weighted 1/256 of the rest: the symbols it never saw are rare), in
 * leaf[] as length << 16 | symbol, by length then symbol (canonical
 * order); m of them. Returns the longest length; *cost: the bits the
 * counted symbols would take with it.
 */
static unsigned ctx_code(const uint32_t *cnt, unsigned limit, uint64_t *leaf, unsigned *m,
			 uint64_t *cost)
{
	uint64_t all[ROW_ESC], w[256], tot = 0, esc, dropped = 0;
	uint8_t len[256];
	unsigned n = 0, most = (1u << limit) - 1, longest, at;

	for (unsigned s = 0; s < ROW_ESC; s++)
		if (cnt[s]) {
			all[n++] = (uint64_t)cnt[s] << 16 | s;
			tot += cnt[s];
		}
	qsort(all, n, sizeof(all[0]), cmp_u64);
	if (n > most) {			/* the most frequent: the last ones */
		for (unsigned i = 0; i < n - most; i++)
			dropped += all[i] >> 16;
		memmove(all, all + n - most, sizeof(all[0]) * most);
		n = most;
	}
	memcpy(leaf, all, sizeof(all[0]) * n);	/* leaf[] holds 256 */
	esc = MAX(tot >> 8, 1) << 16 | ROW_ESC;
	for (at = n; at > 0 && leaf[at - 1] > esc; at--)
		leaf[at] = leaf[at - 1];
	leaf[at] = esc;
	*m = n + 1;
	for (unsigned i = 0; i < *m; i++)
		w[i] = leaf[i] >> 16;
	/* flatten the weights until no code is too long (halving keeps their
	 * order; equal weights give at most `limit` bits to 2^limit leaves) */
	for (unsigned round = 0; (longest = huffman(w, *m, len)) > limit; round++)
		for (unsigned i = 0; i < *m; i++)
			w[i] = round < 30 ? w[i] / 2 + 1 : 1;
	*cost = 0;
	for (unsigned i = 0; i < *m; i++) {
		unsigned s = leaf[i] & 0xffff;

		/* what escapes costs the escape and its kind and length */
		*cost += s == ROW_ESC ? dropped * (len[i] + RAW_BITS) : (leaf[i] >> 16) * len[i];
		leaf[i] = (uint64_t)len[i] << 16 | s;
	}
	qsort(leaf, *m, sizeof(leaf[0]), cmp_u64);
	return longest;
}

/* The canonical codes of leaf[0..m) into code[] and the table lut[] of
 * 2^bits entries. */
static void fill_code(const uint64_t *leaf, unsigned m, unsigned bits, uint32_t *code,
		      uint16_t *lut)
{
	unsigned c = 0, prev = 0;

	memset(code, 0, sizeof(uint32_t) * ROW_NSYM);
	for (unsigned i = 0; i < m; i++) {
		unsigned l = (unsigned)(leaf[i] >> 16), s = leaf[i] & 0xffff;
		unsigned k = s == ROW_ESC ? 0 : s / ROW_NLEN;
		unsigned b = s == ROW_ESC ? ESC_LEN : s % ROW_NLEN;

		c <<= l - prev;
		prev = l;
		code[s] = c << 8 | l;
		for (unsigned j = 0; j < (1u << (bits - l)); j++)
			lut[(c << (bits - l)) + j] = (uint16_t)(l | k << 4 | b << 8);
		c++;
	}
}

/* What the current codes cost on the counts of context x. */
static uint64_t cur_cost(const struct row_enc *e, unsigned x)
{
	const uint32_t *cnt = e->counts[x], *code = e->code[x];
	uint64_t cost = 0;

	for (unsigned s = 0; s < ROW_ESC; s++)
		if (cnt[s])
			cost += (uint64_t)cnt[s] *
				(!code ? RAW_BITS : code[s] ? (code[s] & 0xff) :
				 (code[ROW_ESC] & 0xff) + RAW_BITS);
	return cost;
}

/*
 * A look at what was counted: a new model (the one new chunks use) when
 * it would have saved, on everything counted so far, more than half the
 * bytes it takes (it will code at least as many changes before the next
 * look; asking for all of them left the index of the 11 000-event trace
 * traces/qemu-busybox 6 % larger). A context's codes are at most
 * bitlen(count) - 2 bits long (1 to ROW_CODE_BITS): a table of 2^bits
 * entries costs far less than what the context saves.
 */
static void consider_model(row_bank *b)
{
	struct row_enc *e = b->enc;
	uint64_t *leaf = g_new(uint64_t, (size_t)ROW_NCTX * 256);
	unsigned m[ROW_NCTX], bits[ROW_NCTX];
	uint64_t old = 0, new = 0;
	size_t entries = 1, size;

	for (unsigned x = 0; x < ROW_NCTX; x++) {
		uint64_t tot = 0, cost;
		unsigned limit;

		bits[x] = 0;
		if (!e->counts[x])
			continue;
		for (unsigned s = 0; s < ROW_ESC; s++)
			tot += e->counts[x][s];
		limit = bitlen(tot) > 3 ? MIN(bitlen(tot) - 2, ROW_CODE_BITS) : 1;
		bits[x] = ctx_code(e->counts[x], limit, leaf + (size_t)x * 256, &m[x], &cost);
		if (!bits[x])		/* (no symbol: only the escape) */
			continue;
		new += cost;
		old += cur_cost(e, x);
		entries += 1u << bits[x];
	}
	size = sizeof(row_model) + sizeof(uint16_t) * entries;
	if (b->cur + 1 < ROW_MODELS && old > new && (old - new) / 4 > size) {
		row_model *md = g_malloc(size);
		unsigned off = 1;

		/* lut[0]: a context never seen, which escapes without a code */
		md->lut[0] = ESC_LEN << 8;
		for (unsigned x = 0; x < ROW_NCTX; x++) {
			md->info[x] = 0;
			if (!bits[x])
				continue;
			if (!e->code[x])
				e->code[x] = g_new(uint32_t, ROW_NSYM);
			fill_code(leaf + (size_t)x * 256, m[x], bits[x], e->code[x], md->lut + off);
			md->info[x] = off << 4 | bits[x];
			off += 1u << bits[x];
		}
		b->models[++b->cur] = md;
		b->models_bytes += size;
	}
	g_free(leaf);
}

/* The symbols of a chunk are counted; a look at them now and then. */
static void bank_count(row_bank *b, const int64_t *t, const uint8_t *k, unsigned m)
{
	struct row_enc *e = b->enc;

	for (unsigned i = 1; i < m; i++) {
		unsigned x = k[i - 1] * ROW_NKINDS + (i >= 2 ? k[i - 2] : k[i - 1]);
		unsigned s = k[i] * ROW_NLEN + bitlen((uint64_t)(t[i] - t[i - 1]));

		if (!e->counts[x])
			e->counts[x] = g_new0(uint32_t, ROW_NSYM);
		if (++e->counts[x][s] == UINT32_MAX / 2)
			for (unsigned j = 0; j < ROW_NSYM; j++)
				e->counts[x][j] = (e->counts[x][j] + 1) / 2;
	}
	e->seen += m - 1;
	if (e->seen >= e->next) {
		consider_model(b);
		e->next = MAX(e->seen, 64) * 2;
	}
}

void row_bank_done(row_bank *b)
{
	struct row_enc *e = b->enc;

	if (!e)
		return;
	for (unsigned x = 0; x < ROW_NCTX; x++) {
		g_free(e->counts[x]);
		g_free(e->code[x]);
	}
	g_free(e);
	b->enc = NULL;
	b->done = 1;
}

void row_bank_release(row_bank *b, row_retire_fn retire, void *ctx)
{
	if (!b)
		return;
	row_bank_done(b);
	for (unsigned i = 1; i <= b->cur; i++)
		retire(ctx, (void *)b->models[i]);
	retire(ctx, b);
}

size_t row_bank_memory(const row_bank *b)
{
	size_t n = sizeof(*b) + b->models_bytes;

	if (b->enc) {
		n += sizeof(*b->enc);
		for (unsigned x = 0; x < ROW_NCTX; x++)
			n += (b->enc->counts[x] ? sizeof(uint32_t) * ROW_NSYM : 0) +
			     (b->enc->code[x] ? sizeof(uint32_t) * ROW_NSYM : 0);
	}
	return n;
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

/*
 * A big bit string (a busy CPU's row: tens of MB at 100 M events) that a
 * snapshot has seen cannot grow in place, and a copy at every growth
 * (by half as much again) copied and page-faulted each byte three times
 * over: in the window, which takes a snapshot five times a second, the
 * coder thread spent 1.5 s of 100 M events' 6.7 in copies and 1.2 s in
 * page faults. From BIG_BITS on, such a string moves once to a block of
 * RESERVE_FACTOR times its size, whose pages the system gives as they are
 * first written (and in 2 MB pages where it can): it fills it without a
 * copy. NULL when the system refuses the address space.
 */
#define BIG_BITS ((size_t)1 << 20)
#define RESERVE_FACTOR 32

static uint8_t *reserve_big(size_t need, size_t *cap)
{
	size_t n = need < ((size_t)32 << 20) ? need * RESERVE_FACTOR : need * 4;
	uint8_t *p = g_try_malloc(n + PAD);

	if (!p)
		return NULL;
#ifdef MADV_HUGEPAGE
	{
		uintptr_t huge = (uintptr_t)2 << 20;
		uintptr_t a = ((uintptr_t)p + huge - 1) & ~(huge - 1);
		uintptr_t e = ((uintptr_t)p + n + PAD) & ~(huge - 1);

		if (e > a)
			(void)madvise((void *)a, e - a, MADV_HUGEPAGE);
	}
#endif
	*cap = n;
	return p;
}

/*
 * A byte string read PAD bytes beyond its end (the bit strings, the
 * groups' sums) with room for `need` bytes: by half as much again (a
 * third of a doubling's slack), or to need + slack if that is more.
 * *p_gen: the snapshots taken when p was allocated; gen: those taken so
 * far. While none was taken since, no snapshot can read p: it grows by
 * g_realloc, in place where glibc can (a block at the heap's top, a
 * mapped one remapped), else copied as before. A fresh copy of every
 * growth was a quarter of the coder thread's time on 10 M events (the copy
 * and its page faults); with g_realloc, 24 % fewer page faults and 2 to
 * 9 % less CPU for the whole index (perf stat, lttv-gtk --bench).
 * gen ROW_GEN_UNKNOWN: copy. *reserved (NULL: never): p becomes a
 * reservation (above) when it is big and seen.
 */
static uint8_t *grow_padded(uint8_t *p, size_t *cap, size_t need, size_t slack,
			    unsigned *p_gen, unsigned gen, bool *reserved,
			    row_retire_fn retire, void *ctx)
{
	size_t n = *cap + *cap / 2;
	uint8_t *big;

	if (n < need)
		n = need + slack;
	if (p && *p_gen == gen && gen != ROW_GEN_UNKNOWN) {
		p = g_realloc(p, n + PAD);
	} else if (reserved && need >= BIG_BITS && (big = reserve_big(need, &n))) {
		memcpy(big, p, *cap + PAD);
		retire(ctx, p);
		p = big;
		*p_gen = gen;
		*reserved = true;
	} else {
		p = regrow(p, *cap + (p ? PAD : 0), n + PAD, retire, ctx);
		*p_gen = gen;
	}
	*cap = n;
	return p;
}

/* Room for one more chunk of at most `bytes` bytes (gen: grow_padded's). */
static void reserve(row_log *r, size_t bytes, unsigned gen, row_retire_fn retire, void *ctx)
{
	if (r->nbytes + bytes > r->bytes_cap)
		r->bits = grow_padded(r->bits, &r->bytes_cap, r->nbytes + bytes, 256,
				      &r->bits_gen, gen, &r->bits_reserved, retire, ctx);
	if (r->nchunks == r->chunk_cap) {
		size_t cap = r->chunk_cap ? r->chunk_cap + r->chunk_cap / 2 + 1 : 4;

		r->ct = regrow(r->ct, sizeof(int64_t) * r->chunk_cap, sizeof(int64_t) * cap,
			       retire, ctx);
		r->coff = regrow(r->coff, sizeof(uint16_t) * r->chunk_cap,
				 sizeof(uint16_t) * cap, retire, ctx);
		r->chunk_cap = cap;
	}
	if (r->nchunks / ROW_SUPER >= r->gbase_cap) {
		size_t cap = r->gbase_cap ? 2 * r->gbase_cap : 1;

		r->gbase = regrow(r->gbase, sizeof(uint64_t) * r->gbase_cap,
				  sizeof(uint64_t) * cap, retire, ctx);
		r->goff = regrow(r->goff, sizeof(uint32_t) * r->gbase_cap,
				 sizeof(uint32_t) * cap, retire, ctx);
		r->gbase_cap = cap;
	}
	if (r->nchunks % ROW_SUPER == 0 && r->nchunks &&
	    r->gsum_bytes + GSUM_MAX > r->gsum_cap)
		r->gsum = grow_padded(r->gsum, &r->gsum_cap, r->gsum_bytes + GSUM_MAX, 64,
				      &r->gsum_gen, gen, NULL, retire, ctx);
}

/* The bytes of a group's sums: those of the largest, whose total is t. */
static unsigned gsum_width(uint64_t t)
{
	unsigned w = (bitlen(t) + 7) / 8;

	return w ? w : 1;
}

/*
 * The time in each kind v[] before group g's first chunk (g >= 1), from
 * the row's first change (their total: tot), into gsum[] at goff[g]: a
 * bit per kind that is not 0 (2 bytes), then each such time in
 * gsum_width(tot) bytes, least significant first.
 */
static void put_group_sums(row_log *r, size_t g, const int64_t *v, uint64_t tot)
{
	uint8_t *p = r->gsum + r->gsum_bytes;
	unsigned w = gsum_width(tot), mask = 0, n = 2;

	for (unsigned q = 0; q < ROW_NKINDS; q++)
		if (v[q]) {
			mask |= 1u << q;
			for (unsigned j = 0; j < w; j++)
				p[n++] = (uint8_t)((uint64_t)v[q] >> (8 * j));
		}
	p[0] = (uint8_t)mask;
	p[1] = (uint8_t)(mask >> 8);
	memset(p + n, 0, PAD);
	r->goff[g] = (uint32_t)r->gsum_bytes;
	r->gsum_bytes += n;
}

/* S set to what put_group_sums() wrote for group g (0 for group 0). */
static void get_group_sums(const row_log *r, size_t g, int64_t *S)
{
	const uint8_t *p;
	unsigned mask, w;
	uint64_t keep;

	memset(S, 0, sizeof(int64_t) * ROW_NKINDS);
	if (!g)
		return;
	p = r->gsum + r->goff[g];
	mask = p[0] | (unsigned)p[1] << 8;
	w = gsum_width((uint64_t)r->ct[g * ROW_SUPER] - (uint64_t)r->ct[0]);
	keep = w == 8 ? ~UINT64_C(0) : (UINT64_C(1) << (8 * w)) - 1;
	p += 2;
	while (mask) {
		unsigned q = (unsigned)__builtin_ctz(mask);
		uint64_t v;

		memcpy(&v, p, 8);	/* (PAD bytes follow the last) */
		S[q] = (int64_t)(GUINT64_FROM_LE(v) & keep);
		p += w;
		mask &= mask - 1;
	}
}

/*
 * The time in each kind v[] (each >= 0; their total is what the reader
 * knows from the chunk table): which are not 0, the largest implied by
 * its rank, the others' lengths as their difference to the total's.
 */
static void put_sums(bw *w, const int64_t *v)
{
	unsigned mask = 0, pop = 0, big = 0, rank = 0, sl;
	uint64_t tot = 0;

	for (unsigned q = 0; q < ROW_NKINDS; q++)
		if (v[q]) {
			if (!pop || v[q] > v[big]) {
				big = q;
				rank = pop;
			}
			mask |= 1u << q;
			pop++;
			tot += (uint64_t)v[q];
		}
	put(w, mask, ROW_NKINDS);
	if (pop >= 2)
		put(w, rank, bitlen(pop - 1));
	sl = bitlen(tot);
	for (unsigned q = 0; q < ROW_NKINDS; q++)
		if (v[q] && q != big) {
			unsigned l = bitlen((uint64_t)v[q]);

			put_gamma(w, sl - l);
			if (l >= 2)
				put_long(w, (uint64_t)v[q], l - 1);
		}
}

/* Add to S what put_sums() wrote, tot their total; or skip it (S NULL). */
static void get_sums(const uint8_t *p, row_bits *b, uint64_t tot, int64_t *S)
{
	unsigned mask = (unsigned)get(p, b, ROW_NKINDS), pop, rank, sl, big = 0;
	uint64_t rest = tot;

	if (!mask)
		return;
	pop = (unsigned)__builtin_popcount(mask);
	rank = pop >= 2 ? (unsigned)get(p, b, bitlen(pop - 1)) : 0;
	sl = bitlen(tot);
	for (unsigned q = 0, j = 0; mask >> q; q++) {
		uint64_t v;

		if (!(mask & (1u << q)))
			continue;
		if (j++ == rank) {
			big = q;
			continue;
		}
		v = get_rest(p, b, sl - get_gamma(p, b));
		rest -= v;
		if (S)
			S[q] += (int64_t)v;
	}
	if (S)
		S[big] += (int64_t)rest;
}

/*
 * Encode the changes t[0..m) k[0..m) as the next chunk. next_t: the time
 * of the change that follows them (has_next), up to which the chunk's
 * time in each kind is counted. gen: the snapshots taken so far.
 */
static void encode(row_log *r, const int64_t *t, const uint8_t *k, unsigned m,
		   int has_next, int64_t next_t, unsigned gen, row_retire_fn retire,
		   void *ctx)
{
	uint8_t buf[CHUNK_MAX_BYTES];
	int64_t dur[ROW_NKINDS] = { 0 }, *run = r->run, *gstart = r->run + ROW_NKINDS;
	row_bank *bk = r->bank;
	unsigned model;
	bw out = { buf, 0, 0, 0 };
	size_t c = r->nchunks;

	if (!bk->enc) {
		bk->enc = g_new0(struct row_enc, 1);
		bk->enc->next = 64;
	}
	model = bk->cur;
	for (unsigned i = 1; i < m; i++)
		dur[k[i - 1]] += t[i] - t[i - 1];
	if (has_next)
		dur[k[m - 1]] += next_t - t[m - 1];
	put(&out, m == ROW_CHUNK, 1);
	if (m != ROW_CHUNK)
		put(&out, m - 1, 7);
	put(&out, model, 4);
	put(&out, k[0], 4);
	/* the time in each kind before this chunk: from the row's start for
	 * the first of a group, in gsum[]; else from the group's first, in its
	 * header */
	if (c % ROW_SUPER == 0) {
		memcpy(gstart, run, sizeof(int64_t) * ROW_NKINDS);
	} else {
		int64_t rel[ROW_NKINDS];

		for (unsigned q = 0; q < ROW_NKINDS; q++)
			rel[q] = run[q] - gstart[q];
		put_sums(&out, rel);
	}
	for (unsigned i = 1; i < m; i++) {
		uint64_t d = (uint64_t)(t[i] - t[i - 1]);
		unsigned b = bitlen(d), kk = k[i];
		const uint32_t *e = model ? bk->enc->code[k[i - 1] * ROW_NKINDS +
							  (i >= 2 ? k[i - 2] : k[i - 1])] : NULL;
		uint32_t code = e ? e[kk * ROW_NLEN + b] : 0;

		if (code) {
			put(&out, code >> 8, code & 0xff);
		} else {
			if (e)		/* (a context the model never saw
					 * escapes without a code) */
				put(&out, e[ROW_ESC] >> 8, e[ROW_ESC] & 0xff);
			put(&out, kk, 4);
			put(&out, b, 7);
		}
		if (b >= 2)
			put_long(&out, d, b - 1);
	}
	flush(&out);
	bank_count(bk, t, k, m);

	reserve(r, out.len, gen, retire, ctx);
	if (c % ROW_SUPER == 0) {
		r->gbase[c / ROW_SUPER] = r->nbytes;
		r->goff[c / ROW_SUPER] = 0;
		if (c)
			put_group_sums(r, c / ROW_SUPER, run,
				       (uint64_t)t[0] - (uint64_t)r->ct[0]);
	}
	memcpy(r->bits + r->nbytes, buf, out.len);
	memset(r->bits + r->nbytes + out.len, 0, PAD);
	r->ct[c] = t[0];
	r->coff[c] = (uint16_t)(r->nbytes - r->gbase[c / ROW_SUPER]);
	r->nbytes += out.len;
	for (unsigned q = 0; q < ROW_NKINDS; q++)
		run[q] += dur[q];
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

int row_log_record(row_log *r, row_bank *bank, int64_t t, int kind, int64_t sealed_ns,
		   unsigned gen, row_retire_fn retire, void *ctx)
{
	if (!r->run) {
		r->bank = bank;
		r->run = g_new0(int64_t, 2 * ROW_NKINDS);
	}
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
			encode(r, r->tt, r->tk, ROW_CHUNK, 1, r->tt[ROW_CHUNK], gen, retire, ctx);
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

		encode(r, r->tt + at, r->tk + at, m, more, more ? r->tt[at + m] : 0,
		       ROW_GEN_UNKNOWN, retire, ctx);
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
	/* (a reservation stays: its pages beyond what it holds were never
	 * touched, and a copy would touch them all again) */
	if (!r->bits_reserved) {
		r->bits = fit(r->bits, r->nbytes + PAD, r->bytes_cap + PAD, retire, ctx);
		r->bytes_cap = r->nbytes;
	}
	r->ct = fit(r->ct, sizeof(int64_t) * r->nchunks, sizeof(int64_t) * r->chunk_cap,
		    retire, ctx);
	r->coff = fit(r->coff, sizeof(uint16_t) * r->nchunks,
		      sizeof(uint16_t) * r->chunk_cap, retire, ctx);
	r->chunk_cap = r->nchunks;
	{
		size_t g = (r->nchunks - 1) / ROW_SUPER + 1;

		r->gbase = fit(r->gbase, sizeof(uint64_t) * g, sizeof(uint64_t) * r->gbase_cap,
			       retire, ctx);
		r->goff = fit(r->goff, sizeof(uint32_t) * g, sizeof(uint32_t) * r->gbase_cap,
			      retire, ctx);
		r->gbase_cap = g;
	}
	if (r->gsum) {
		r->gsum = fit(r->gsum, r->gsum_bytes + PAD, r->gsum_cap + PAD, retire, ctx);
		r->gsum_cap = r->gsum_bytes;
	}
	g_free(r->run);
	r->run = NULL;
}

void row_log_release(row_log *r, row_retire_fn retire, void *ctx)
{
	void *p[] = { r->bits, r->ct, r->coff, r->gbase, r->goff, r->gsum, r->tt, r->tk };

	for (size_t i = 0; i < G_N_ELEMENTS(p); i++)
		if (p[i])
			retire(ctx, p[i]);
	g_free(r->run);
	memset(r, 0, sizeof(*r));
}

size_t row_log_memory(const row_log *r)
{
	/* a reservation: what it holds, to the page */
	size_t page = (size_t)getpagesize();
	size_t bits = !r->bits ? 0 : r->bits_reserved ? (r->nbytes + PAD + page - 1) / page * page
						      : r->bytes_cap + PAD;

	return bits +
	       r->chunk_cap * (sizeof(int64_t) + sizeof(uint16_t)) +
	       r->gbase_cap * (sizeof(uint64_t) + sizeof(uint32_t)) +
	       (r->gsum ? r->gsum_cap + PAD : 0) +
	       r->tail_cap * (sizeof(int64_t) + sizeof(uint8_t)) +
	       (r->run ? sizeof(int64_t) * 2 * ROW_NKINDS : 0);
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

/* The header of chunk c up to its sums (b then at them): its count,
 * model and first kind. */
static unsigned chunk_header(const row_log *r, size_t c, row_bits *b, const row_model **md,
			     int *k0)
{
	const uint8_t *p = r->bits;
	unsigned n;

	b->bit = (r->gbase[c / ROW_SUPER] + r->coff[c]) * 8;
	b->avail = 0;
	n = get(p, b, 1) ? ROW_CHUNK : (unsigned)get(p, b, 7) + 1;
	*md = r->bank->models[get(p, b, 4)];
	*k0 = (int)get(p, b, 4);
	return n;
}

/* The total of the sums in chunk c's header (c not the first of its
 * group): the time from the first change of its group to its own. */
static uint64_t sums_total(const row_log *r, size_t c)
{
	return (uint64_t)r->ct[c] - (uint64_t)r->ct[c - c % ROW_SUPER];
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
			const row_model *md = cu->md;
			row_bits bb = cu->rb, *b = &bb;	/* in registers */
			unsigned k = 0, l = ESC_LEN;
			uint64_t d;

			need(p, b, ROW_CODE_BITS);
			if (md) {
				uint32_t in = md->info[cu->k * ROW_NKINDS + cu->kp];
				unsigned e = md->lut[(in >> 4) +
						     (unsigned)(b->win >> (64 - ROW_CODE_BITS) >>
								(ROW_CODE_BITS - (in & 15)))];

				if (e & 15)
					pull(b, e & 15);
				k = (e >> 4) & 15;
				l = e >> 8;
			}
			if (l == ESC_LEN) {
				need(p, b, 11);
				k = (unsigned)pull(b, 4);
				l = (unsigned)pull(b, 7);
			}
			if (l < 2) {
				d = l;
			} else if (l <= 58) {
				need(p, b, l - 1);
				d = (UINT64_C(1) << (l - 1)) | pull(b, l - 1);
			} else {	/* (inline: b stays in registers) */
				need(p, b, 32);
				d = pull(b, 32) << (l - 33);
				need(p, b, l - 33);
				d |= (UINT64_C(1) << (l - 1)) | pull(b, l - 33);
			}
			cu->rb = bb;
			cu->kn = (int)k;
			cu->tn = cu->t + (int64_t)d;
		}
		return;
	}
	cu->kn = chunk_start(r, cu->c + 1, &cu->tn) ? ROW_NKINDS : -1;
	if (cu->kn < 0)
		cu->tn = cu->end;
}

/*
 * To the first change of chunk c (c <= nchunks: the tail). sums: S set to
 * the time spent in each kind before it (its group's sums in gsum[], plus
 * what its own header says unless it is the group's first; for the tail,
 * the last chunk's plus the time of its changes); else S is that already.
 */
static void enter(row_cur *cu, size_t c, int sums)
{
	const row_log *r = cu->r;

	cu->c = c;
	cu->i = 0;
	if (c == r->nchunks) {
		if (sums && c > 0) {
			row_cur last;

			last.r = r;
			last.end = cu->end;
			enter(&last, c - 1, 1);
			while (last.c == c - 1)
				row_cur_next(&last);
			memcpy(cu->S, last.S, sizeof(cu->S));
		} else if (sums) {
			memset(cu->S, 0, sizeof(cu->S));
		}
		cu->n = r->ntail;
		cu->t = r->tt[0];
		cu->k = r->tk[0];
	} else {
		if (sums)
			get_group_sums(r, c / ROW_SUPER, cu->S);
		cu->n = chunk_header(r, c, &cu->rb, &cu->md, &cu->k);
		if (c % ROW_SUPER)
			get_sums(r->bits, &cu->rb, sums_total(r, c), sums ? cu->S : NULL);
		cu->t = r->ct[c];
	}
	cu->kp = cu->k;
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
	enter(cu, c, 1);
	while (cu->kn >= 0 && cu->tn <= x)
		row_cur_next(cu);
}

void row_cur_next(row_cur *cu)
{
	cu->S[cu->k] += cu->tn - cu->t;
	if (cu->i + 1 < cu->n) {
		cu->i++;
		cu->t = cu->tn;
		cu->kp = cu->k;
		cu->k = cu->kn;
		look_ahead(cu);
	} else {
		enter(cu, cu->c + 1, 0);
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
