/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * analysis-store.c - the analyses' records, coded compactly
 * (analysis-store.h says how). Signed numbers are zigzagged; differences
 * are taken in unsigned arithmetic, so that a hostile trace's times (far
 * apart, or going backwards) code and decode to the same values.
 */
#include <string.h>

#include "analysis-store.h"

/* ---- numbers ------------------------------------------------------------------ */

/* Keeps 8 bytes allocated past the end: a bit reader loads ahead (what
 * it loads there is never used). Not zeroed: the pages of a large buffer
 * stay untouched, out of the resident memory, until written. */
static void put_byte(an_bytes *b, uint8_t v)
{
	if (b->n + 8 >= b->cap) {
		b->cap = b->cap ? b->cap + b->cap / 2 : 64;
		b->p = g_realloc(b->p, b->cap);
	}
	b->p[b->n++] = v;
}

static uint64_t zz(int64_t x) { return ((uint64_t)x << 1) ^ (uint64_t)(x >> 63); }
static int64_t unzz(uint64_t v) { return (int64_t)(v >> 1) ^ -(int64_t)(v & 1); }
/* b - a and a + d, wrapping */
static int64_t diff(int64_t b, int64_t a) { return (int64_t)((uint64_t)b - (uint64_t)a); }
static int64_t plus(int64_t a, int64_t d) { return (int64_t)((uint64_t)a + (uint64_t)d); }

/* ---- bits ----------------------------------------------------------------------- */

/* Bits are appended from the least significant of each byte up. */
typedef struct bit_out {
	an_bytes *b;
	uint64_t acc;
	unsigned n;
} bit_out;

static void put_bits(bit_out *w, uint64_t v, unsigned n)
{
	while (n) {
		unsigned take = n > 32 ? 32 : n;

		w->acc |= (v & (((uint64_t)1 << take) - 1)) << w->n;
		w->n += take;
		v = take < 64 ? v >> take : 0;
		n -= take;
		while (w->n >= 8) {
			put_byte(w->b, (uint8_t)w->acc);
			w->acc >>= 8;
			w->n -= 8;
		}
	}
}

static void flush_bits(bit_out *w)
{
	if (w->n)
		put_byte(w->b, (uint8_t)w->acc);
	w->acc = 0;
	w->n = 0;
}

typedef struct bit_in {
	const uint8_t *p;
	uint64_t acc;
	unsigned n;
} bit_in;

static inline void refill(bit_in *r)
{
	while (r->n <= 56) {
		r->acc |= (uint64_t)*r->p++ << r->n;
		r->n += 8;
	}
}

/* n <= 56 bits */
static inline uint64_t take_bits(bit_in *r, unsigned n)
{
	uint64_t v;

	if (r->n < n)
		refill(r);
	v = r->acc & (((uint64_t)1 << n) - 1);
	r->acc >>= n;
	r->n -= n;
	return v;
}

static uint64_t get_bits(bit_in *r, unsigned n)
{
	if (n > 56)
		return take_bits(r, 32) | take_bits(r, n - 32) << 32;
	return take_bits(r, n);
}

/* ---- a column of a block: bit lengths Huffman-coded, then the bits under
 * each value's leading 1 ------------------------------------------------------------ */

#define NLEN 65			/* bit lengths 0..64 */
#define MAXCODE 15		/* code lengths fit 4 bits (512 values: 12 at most) */

static unsigned bitlen(uint64_t v) { return v ? 64u - (unsigned)__builtin_clzll(v) : 0; }

/* Huffman code lengths of the lengths present (counts in cnt[]) into
 * len[]; one symbol alone takes no bits. */
static void code_lengths(const unsigned cnt[NLEN], uint8_t len[NLEN])
{
	unsigned w[NLEN], sym[NLEN], parent[2 * NLEN], weight[2 * NLEN], nodes = 0, n = 0;
	int alive[2 * NLEN];

	memset(len, 0, NLEN);
	for (unsigned i = 0; i < NLEN; i++)
		if (cnt[i]) {
			sym[n] = i;
			w[n++] = cnt[i];
		}
	if (n < 2)
		return;
	for (unsigned i = 0; i < n; i++) {
		weight[nodes] = w[i];
		alive[nodes++] = 1;
	}
	for (unsigned left = n; left > 1; left--) {	/* join the two lightest */
		unsigned m[2] = { 2 * NLEN, 2 * NLEN };

		for (unsigned k = 0; k < 2; k++)
			for (unsigned i = 0; i < nodes; i++)
				if (alive[i] && i != m[0] &&
				    (m[k] == 2 * NLEN || weight[i] < weight[m[k]]))
					m[k] = i;
		alive[m[0]] = alive[m[1]] = 0;
		parent[m[0]] = parent[m[1]] = nodes;
		weight[nodes] = weight[m[0]] + weight[m[1]];
		alive[nodes++] = 1;
	}
	for (unsigned i = 0; i < n; i++) {
		unsigned d = 0;

		for (unsigned j = i; j != nodes - 1; j = parent[j])
			d++;
		len[sym[i]] = (uint8_t)d;
	}
}

/* A canonical code: codes given in order of (length, symbol). */
typedef struct col_code {
	uint8_t len[NLEN];		/* code length of each bit length (encoding) */
	uint32_t code[NLEN];
	uint8_t count[MAXCODE + 1];	/* codes of each length (decoding) */
	uint8_t sorted[NLEN];		/* symbols in code order */
	uint8_t nsym, only;		/* nsym 1: one symbol, `only` (no bits) */
} col_code;

static void canonical(col_code *c)
{
	uint32_t next = 0;
	unsigned k = 0;

	memset(c->count, 0, sizeof(c->count));
	for (unsigned l = 1; l <= MAXCODE; l++) {
		for (unsigned s = 0; s < NLEN; s++)
			if (c->len[s] == l) {
				c->code[s] = next++;
				c->sorted[k++] = (uint8_t)s;
				c->count[l]++;
			}
		next <<= 1;
	}
}

static void put_code(bit_out *w, const col_code *c, unsigned s)
{
	/* the code's first bit is read first */
	for (unsigned i = c->len[s]; i-- > 0;)
		put_bits(w, c->code[s] >> i & 1, 1);
}

static unsigned get_code(bit_in *r, const col_code *c)
{
	uint32_t code = 0, first = 0;
	unsigned index = 0;

	if (c->nsym == 1)
		return c->only;
	if (r->n < MAXCODE)
		refill(r);
	for (unsigned l = 1; l <= MAXCODE; l++) {
		code = code << 1 | (uint32_t)(r->acc & 1);
		r->acc >>= 1;
		r->n--;
		if (code - first < c->count[l])
			return c->sorted[index + code - first];
		index += c->count[l];
		first = (first + c->count[l]) << 1;
	}
	return 0;	/* not reached: the codes are complete */
}

/* Writes the column's table: the smallest and the largest bit length
 * present (7 bits each), then, when they differ, the code length of each
 * in between (4 bits, 0: absent). The lengths of a column mostly form a
 * run: some 50 bits where a list of (length, code length) took 110. */
static void put_column_table(bit_out *w, const uint64_t *v, unsigned n, col_code *c)
{
	unsigned cnt[NLEN] = { 0 }, lo = NLEN, hi = 0;

	for (unsigned i = 0; i < n; i++)
		cnt[bitlen(v[i])]++;
	code_lengths(cnt, c->len);
	for (unsigned s = 0; s < NLEN; s++)
		if (cnt[s]) {
			lo = s < lo ? s : lo;
			hi = s;
		}
	put_bits(w, lo, 7);
	put_bits(w, hi, 7);
	c->nsym = lo == hi ? 1 : 2;	/* 2: more than one */
	c->only = (uint8_t)lo;
	for (unsigned s = lo; lo < hi && s <= hi; s++)
		put_bits(w, c->len[s], 4);
	canonical(c);
}

static void get_column_table(bit_in *r, col_code *c)
{
	unsigned lo = (unsigned)get_bits(r, 7), hi = (unsigned)get_bits(r, 7);

	memset(c->len, 0, sizeof(c->len));
	lo = lo < NLEN ? lo : 0;
	hi = hi < NLEN && hi >= lo ? hi : lo;
	c->nsym = lo == hi ? 1 : 2;
	c->only = (uint8_t)lo;
	for (unsigned s = lo; lo < hi && s <= hi; s++)
		c->len[s] = (uint8_t)get_bits(r, 4);
	canonical(c);
}

static void put_value(bit_out *w, const col_code *c, uint64_t v)
{
	unsigned l = bitlen(v);

	put_code(w, c, l);
	if (l > 1)
		put_bits(w, v, l - 1);	/* under the leading 1 */
}

static uint64_t get_value(bit_in *r, const col_code *c)
{
	unsigned l = get_code(r, c);

	if (l < 2)
		return l;
	return (uint64_t)1 << (l - 1) | get_bits(r, l - 1);
}

/* ---- occurrences --------------------------------------------------------------- */

/* The columns of a record, in order: what every kind has, then its own. */
enum {
	C_END, C_DUR, C_PROC, C_RANK, C_CPU,
	C_WRITE = 5, C_RET, C_FILE,			/* SYSCALL */
	C_WAKER = 5, C_WAKER_CPU, C_WAKER_KIND, C_WAKER_ID,	/* SCHED */
	NCOLS = 9
};

/* The process column: 0 when the record before on the same CPU (of the
 * first CTX_CPUS, in the block) had the same process, else the process
 * zigzagged + 1. A CPU mostly runs one task across several records. */
#define CTX_CPUS 64

static uint64_t proc_code(int32_t *last, const ltt_latency *l)
{
	if (l->cpu < CTX_CPUS) {
		if (last[l->cpu] == l->process)
			return 0;
		last[l->cpu] = l->process;
	}
	return zz(l->process) + 1;
}

static int32_t proc_decode(int32_t *last, uint32_t cpu, uint64_t v)
{
	int32_t p = v ? (int32_t)unzz(v - 1) : cpu < CTX_CPUS ? last[cpu] : 0;

	if (cpu < CTX_CPUS)
		last[cpu] = p;
	return p;
}

/* No process yet on any CPU: never a process index. */
static void no_procs(int32_t *last)
{
	for (unsigned c = 0; c < CTX_CPUS; c++)
		last[c] = INT32_MIN;
}

static unsigned ncols(ltt_latency_kind k)
{
	return k == LTT_LATENCY_SYSCALL ? 8 : k == LTT_LATENCY_SCHED ? 9 : 5;
}

void an_store_init(an_store *s, ltt_latency_kind kind)
{
	memset(s, 0, sizeof(*s));
	s->kind = kind;
	s->ends_sorted = 1;
	s->rank = g_hash_table_new(g_direct_hash, g_direct_equal);
}

void an_store_clear(an_store *s)
{
	g_free(s->b.p);
	g_free(s->blocks);
	g_free(s->ids);
	g_free(s->pend);
	if (s->rank)
		g_hash_table_destroy(s->rank);
	memset(s, 0, sizeof(*s));
}

/* The id's rank among those seen: ids are few (system calls, lines,
 * vectors), and a rank takes a bit or two where an id may take ten. */
static uint64_t rank_of(an_store *s, uint32_t id)
{
	gpointer v = g_hash_table_lookup(s->rank, GUINT_TO_POINTER(id));

	if (v)
		return GPOINTER_TO_UINT(v) - 1;
	if (s->nids == s->cap_ids) {
		s->cap_ids = s->cap_ids ? s->cap_ids * 2 : 16;
		s->ids = g_renew(uint32_t, s->ids, s->cap_ids);
	}
	s->ids[s->nids] = id;
	g_hash_table_insert(s->rank, GUINT_TO_POINTER(id), GUINT_TO_POINTER(s->nids + 1));
	return s->nids++;
}

static int64_t end_of(const ltt_latency *l) { return plus(l->start_ns, (int64_t)l->duration_ns); }

/* Codes the pending records as a block. */
static void code_block(an_store *s)
{
	uint64_t v[NCOLS][AN_BLOCK];
	unsigned n = s->npend, nc = ncols(s->kind);
	int64_t prev = s->blocks_end;
	an_block blk = { prev, INT64_MAX, INT64_MAX, INT64_MIN, 0, s->b.n };
	col_code code[NCOLS];
	bit_out w = { &s->b, 0, 0 };
	int32_t last[CTX_CPUS];

	no_procs(last);
	for (unsigned i = 0; i < n; i++) {
		const an_raw *r = &s->pend[i];
		const ltt_latency *l = &r->l;
		int64_t end = end_of(l);

		blk.min_start = l->start_ns < blk.min_start ? l->start_ns : blk.min_start;
		blk.min_end = end < blk.min_end ? end : blk.min_end;
		blk.max_end = end > blk.max_end ? end : blk.max_end;
		blk.max_dur = l->duration_ns > blk.max_dur ? l->duration_ns : blk.max_dur;
		v[C_END][i] = zz(diff(end, prev));
		prev = end;
		v[C_DUR][i] = l->duration_ns;
		v[C_PROC][i] = proc_code(last, l);
		v[C_RANK][i] = rank_of(s, l->id);
		v[C_CPU][i] = l->cpu;
		if (s->kind == LTT_LATENCY_SYSCALL) {
			v[C_WRITE][i] = r->write;
			v[C_RET][i] = zz(l->ret);
			v[C_FILE][i] = r->file;
		} else if (s->kind == LTT_LATENCY_SCHED) {
			v[C_WAKER][i] = zz(l->waker);
			v[C_WAKER_CPU][i] = l->waker_cpu;
			v[C_WAKER_KIND][i] = l->waker_kind;
			v[C_WAKER_ID][i] = (uint16_t)(l->waker_id + 1);	/* NONE: 0 */
		}
	}
	for (unsigned c = 0; c < nc; c++)
		put_column_table(&w, v[c], n, &code[c]);
	for (unsigned i = 0; i < n; i++)
		for (unsigned c = 0; c < nc; c++)
			put_value(&w, &code[c], v[c][i]);
	flush_bits(&w);
	if (s->nblocks == s->cap_blocks) {
		s->cap_blocks = s->cap_blocks ? s->cap_blocks * 2 : 16;
		s->blocks = g_renew(an_block, s->blocks, s->cap_blocks);
	}
	s->blocks[s->nblocks++] = blk;
	s->blocks_end = prev;
	s->npend = 0;
}

void an_store_add(an_store *s, const ltt_latency *l, uint32_t file, int write)
{
	int64_t end = end_of(l);

	if (!s->pend)
		s->pend = g_new(an_raw, AN_BLOCK);
	if (s->n && end < s->last_end)
		s->ends_sorted = 0;
	s->pend[s->npend++] = (an_raw){ *l, file, (uint8_t)(write != 0) };
	s->last_end = end;
	s->n++;
	s->nfile += file != 0;
	if (s->npend == AN_BLOCK)
		code_block(s);
}

/* The records of block i (i == nblocks: the pending ones) into out;
 * returns how many. */
static unsigned block_records(const an_store *s, size_t i, an_raw *out)
{
	const an_block *b;
	unsigned nc = ncols(s->kind), n;
	col_code code[NCOLS];
	bit_in r;
	int64_t end;
	int32_t last[CTX_CPUS];

	if (i == s->nblocks) {
		if (s->npend)	/* pend may be NULL */
			memcpy(out, s->pend, s->npend * sizeof(*out));
		return s->npend;
	}
	b = &s->blocks[i];
	n = AN_BLOCK;		/* a block is coded once full */
	r = (bit_in){ s->b.p + b->offset, 0, 0 };
	end = b->prev_end;
	for (unsigned c = 0; c < nc; c++)
		get_column_table(&r, &code[c]);
	no_procs(last);
	for (unsigned k = 0; k < n; k++) {
		an_raw *o = &out[k];
		ltt_latency *l = &o->l;
		uint64_t v[NCOLS];

		for (unsigned c = 0; c < nc; c++)
			v[c] = get_value(&r, &code[c]);
		memset(o, 0, sizeof(*o));
		end = plus(end, unzz(v[C_END]));
		l->duration_ns = v[C_DUR];
		l->start_ns = diff(end, (int64_t)l->duration_ns);
		l->id = v[C_RANK] < s->nids ? s->ids[v[C_RANK]] : 0;
		l->cpu = (uint32_t)v[C_CPU];
		l->process = proc_decode(last, l->cpu, v[C_PROC]);
		l->waker = -1;
		if (s->kind == LTT_LATENCY_SYSCALL) {
			o->write = (uint8_t)v[C_WRITE];
			l->ret = unzz(v[C_RET]);
			o->file = (uint32_t)v[C_FILE];
		} else if (s->kind == LTT_LATENCY_SCHED) {
			l->waker = (int32_t)unzz(v[C_WAKER]);
			l->waker_cpu = (uint32_t)v[C_WAKER_CPU];
			l->waker_kind = (uint8_t)v[C_WAKER_KIND];
			l->waker_id = (uint16_t)(v[C_WAKER_ID] - 1);
		}
	}
	return n;
}

/* Whether block i (nblocks: the pending records) may hold a record that
 * starts in [t0, t1]: every start is at or before its end. */
static int may_start_in(const an_store *s, size_t i, int64_t t0, int64_t t1)
{
	return i == s->nblocks || (s->blocks[i].max_end >= t0 && s->blocks[i].min_start <= t1);
}

size_t an_store_each_block(const an_store *s, size_t i, ltt_latency_kind kind, int64_t t0,
			   int64_t t1, an_visit fn, void *data, int *stop)
{
	an_raw recs[AN_BLOCK];
	size_t given = 0;
	unsigned n;

	if (!may_start_in(s, i, t0, t1))
		return 0;
	n = block_records(s, i, recs);
	for (unsigned j = 0; j < n; j++) {
		ltt_latency *l = &recs[j].l;

		if ((kind == LTT_LATENCY_FILE && !recs[j].file) || l->start_ns < t0 ||
		    l->start_ns > t1)
			continue;
		if (kind == LTT_LATENCY_FILE) {	/* the call as a file's read or write */
			l->id = recs[j].file - 1;
			l->write = recs[j].write;
		}
		given++;
		if (fn(l, data)) {
			*stop = 1;
			break;
		}
	}
	return given;
}

size_t an_store_each(const an_store *s, ltt_latency_kind kind, int64_t t0, int64_t t1,
		     an_visit fn, void *data)
{
	size_t given = 0;
	int stop = 0;

	for (size_t i = 0; i <= s->nblocks && !stop; i++)
		given += an_store_each_block(s, i, kind, t0, t1, fn, data, &stop);
	return given;
}

uint64_t an_store_block_max_dur(const an_store *s, size_t i)
{
	uint64_t most = 0;

	if (i < s->nblocks)
		return s->blocks[i].max_dur;
	for (unsigned j = 0; j < s->npend; j++)
		most = s->pend[j].l.duration_ns > most ? s->pend[j].l.duration_ns : most;
	return most;
}

int an_store_find_end(const an_store *s, int32_t p, int64_t t, ltt_latency *out)
{
	an_raw recs[AN_BLOCK];
	size_t i = 0;

	if (s->ends_sorted) {	/* the first block that ends at t or later */
		size_t hi = s->nblocks;

		while (i < hi) {
			size_t mid = i + (hi - i) / 2;

			if (s->blocks[mid].max_end < t)
				i = mid + 1;
			else
				hi = mid;
		}
	}
	for (; i <= s->nblocks; i++) {
		unsigned n;

		if (i < s->nblocks && s->blocks[i].min_end > t) {
			if (s->ends_sorted)
				break;
			continue;
		}
		if (i < s->nblocks && s->blocks[i].max_end < t)
			continue;
		n = block_records(s, i, recs);
		for (unsigned j = 0; j < n; j++)
			if (end_of(&recs[j].l) == t && recs[j].l.process == p) {
				*out = recs[j].l;
				return 0;
			}
	}
	return -1;
}

/* ---- CPU-time logs ---------------------------------------------------------------- */

/* A log's columns: the time's difference from the sample before (zigzag),
 * the CPU time's difference from what that one predicts (zigzag), the
 * flags (on, how it left), the system call. */
enum { L_T, L_CUM, L_FLAGS, L_SYS, NLCOLS };

void an_log_clear(an_log *l)
{
	g_free(l->b.p);
	g_free(l->blocks);
	g_free(l->pend);
	memset(l, 0, sizeof(*l));
}

static uint64_t predict(const an_sample *q, int64_t t)
{
	return q->on ? q->cum + (uint64_t)diff(t, q->t) : q->cum;
}

/* Codes the pending samples as a block (the first one whole in the
 * directory, the others as columns). */
static void code_log_block(an_log *l)
{
	uint64_t v[NLCOLS][AN_LOG_BLOCK];
	unsigned n = l->npend;
	col_code code[NLCOLS];
	bit_out w = { &l->b, 0, 0 };

	if (!n)
		return;
	for (unsigned i = 1; i < n; i++) {
		const an_sample *q = &l->pend[i - 1], *s = &l->pend[i];

		v[L_T][i - 1] = zz(diff(s->t, q->t));
		v[L_CUM][i - 1] = zz((int64_t)(s->cum - predict(q, s->t)));
		v[L_FLAGS][i - 1] = (uint64_t)(s->on ? 1 : 0) | (uint64_t)(s->blocked & 3) << 1;
		v[L_SYS][i - 1] = s->sys;
	}
	if (l->nblocks == l->cap_blocks) {
		l->cap_blocks = l->cap_blocks ? l->cap_blocks * 2 : 1;
		l->blocks = g_renew(an_log_block, l->blocks, l->cap_blocks);
	}
	l->blocks[l->nblocks++] = (an_log_block){ l->pend[0], l->b.n, l->ncoded, n };
	if (n > 1) {
		for (unsigned c = 0; c < NLCOLS; c++)
			put_column_table(&w, v[c], n - 1, &code[c]);
		for (unsigned i = 0; i < n - 1; i++)
			for (unsigned c = 0; c < NLCOLS; c++)
				put_value(&w, &code[c], v[c][i]);
		flush_bits(&w);
	}
	l->ncoded += n;
	l->npend = l->cap_pend = 0;
	g_free(l->pend);
	l->pend = NULL;
}

/* The samples of block k into out; returns how many. */
static unsigned log_block(const an_log *l, size_t k, an_sample *out)
{
	const an_log_block *b = &l->blocks[k];
	col_code code[NLCOLS];
	bit_in r = { l->b.p + b->offset, 0, 0 };

	out[0] = b->first;
	if (b->count > 1)
		for (unsigned c = 0; c < NLCOLS; c++)
			get_column_table(&r, &code[c]);
	for (unsigned i = 1; i < b->count; i++) {
		const an_sample *q = &out[i - 1];
		an_sample *s = &out[i];
		uint64_t v[NLCOLS];

		for (unsigned c = 0; c < NLCOLS; c++)
			v[c] = get_value(&r, &code[c]);
		memset(s, 0, sizeof(*s));
		s->t = plus(q->t, unzz(v[L_T]));
		s->cum = predict(q, s->t) + (uint64_t)unzz(v[L_CUM]);
		s->on = v[L_FLAGS] & 1;
		s->blocked = (uint8_t)(v[L_FLAGS] >> 1 & 3);
		s->sys = (uint16_t)v[L_SYS];
	}
	return b->count;
}

void an_log_add(an_log *l, int64_t t, uint64_t cum, int on, int blocked)
{
	an_sample s = { t, cum, (uint8_t)on, (uint8_t)blocked, 0 };

	if (l->n && l->last.t == t) {	/* same instant: the last word */
		l->last = s;
		return;
	}
	if (l->n) {		/* the last one waits to be coded */
		if (l->npend == l->cap_pend) {	/* most processes live briefly */
			l->cap_pend = l->cap_pend ? l->cap_pend * 2 : 8;
			l->pend = g_renew(an_sample, l->pend, l->cap_pend);
		}
		l->pend[l->npend++] = l->last;
		if (l->npend == AN_LOG_BLOCK)
			code_log_block(l);
	}
	l->last = s;
	l->n++;
}

void an_log_flush(an_log *l)
{
	code_log_block(l);
}

long an_log_find(const an_log *l, int64_t t, int strict, an_sample *s, an_sample *next)
{
	an_sample buf[AN_LOG_BLOCK];
	const an_sample *arr;
	size_t lo = 0, hi = l->nblocks, base, count;

#define BEFORE(x) (strict ? (x) < t : (x) <= t)
	next->t = INT64_MAX;
	if (!l->n)
		return -1;
	if (BEFORE(l->last.t)) {
		*s = l->last;
		return (long)l->n - 1;
	}
	if (l->npend && BEFORE(l->pend[0].t)) {	/* among the pending ones */
		arr = l->pend;
		count = l->npend;
		base = l->ncoded;
	} else {
		/* the last block whose first sample is before t */
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;

			if (BEFORE(l->blocks[mid].first.t))
				lo = mid + 1;
			else
				hi = mid;
		}
		if (!lo) {
			*next = l->nblocks ? l->blocks[0].first : l->npend ? l->pend[0] : l->last;
			return -1;
		}
		count = log_block(l, lo - 1, buf);
		arr = buf;
		base = l->blocks[lo - 1].index;
	}
	for (size_t i = 0; i < count; i++) {
		if (i + 1 < count && BEFORE(arr[i + 1].t))
			continue;
		*s = arr[i];
		if (i + 1 < count)
			*next = arr[i + 1];
		else if (arr == l->pend || lo >= l->nblocks)
			*next = arr == l->pend || !l->npend ? l->last : l->pend[0];
		else
			*next = l->blocks[lo].first;
		return (long)(base + i);
	}
#undef BEFORE
	return -1;	/* not reached: arr[0] is before t */
}

uint64_t an_log_at(const an_log *l, int64_t t)
{
	an_sample s, next;

	if (an_log_find(l, t, 0, &s, &next) < 0)
		return 0;
	return s.on ? s.cum + (uint64_t)(t - s.t) : s.cum;
}
