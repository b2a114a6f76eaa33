/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * state-rows.h - the history of one row of a state index (the times at
 * which what it shows changed, and to what), compressed, and a cursor that
 * reads it. Used by state-index.c; not installed. Its own file so that a
 * unit test (tests/unit/test_state_rows.c) can check the encoding itself.
 *
 * A row log is a list of changes (t, kind), t never decreasing, kind never
 * the previous one's. The changes are kept in chunks of up to ROW_CHUNK,
 * each a bit string that starts on a byte; the last changes, not yet
 * encoded, wait raw in a tail:
 *
 *   ct[]    time of the first change of each chunk (bisected by a seek)
 *   coff[]  its byte offset from the start of its group of ROW_SUPER
 *           chunks (a group holds at most ROW_SUPER * 2 KiB: 16 bits)
 *   gbase[] per group: the byte offset of its first chunk
 *   goff[]  per group: the byte offset of its sums in gsum[] (group 0:
 *           none, its sums are 0)
 *   gsum    per group from the second: the time spent in each kind from
 *           the row's first change to the group's first: a bit per kind
 *           that is not 0 (2 bytes, little-endian), then each such time in
 *           w bytes, least significant first, w the bytes of the group's
 *           first time less the row's (which the chunk table tells), 1 at
 *           least. Fixed widths, so that a seek reads them without
 *           decoding (on the 10 M-event bench trace about 0.03 bytes an
 *           event with goff[])
 *   bits    the chunks:
 *             1 bit: the chunk holds ROW_CHUNK changes; if not, n-1 in
 *             7 bits;
 *             the model that codes its changes (4 bits: its number in the
 *             row's bank, 0 for none);
 *             the first change's kind (4 bits);
 *             except in the first chunk of a group (whose sums are in
 *             gsum), the time spent in each kind before the chunk's first
 *             change from the first change of its group, a bit per kind
 *             that is not 0 (ROW_NKINDS bits); they add up to the chunk's
 *             first time less the group's, so the largest is implied: its
 *             rank among those kinds (none when there is one), then for
 *             each other one its length as the difference to the length
 *             of that total (Elias gamma code of it plus 1) and its bits
 *             under the leading 1. The time spent before chunk c is its
 *             group's sums in gsum plus what its own header says;
 *             each next change: its kind k and the length b of its delta
 *             of time from the previous change (bits under the leading 1
 *             plus 1: 0 to 64) as one symbol (k, b), coded by the chunk's
 *             model in the context of the two previous kinds (the one
 *             before the previous is taken to be the previous for the
 *             second change of a chunk); then the delta's bits under its
 *             leading 1 (b - 1 bits). Without a model (model 0), or when
 *             the model has no code for (k, b) (it escapes), k in 4 bits
 *             and b in 7 follow.
 *   tt[], tk[]  the tail: up to ROW_CHUNK + 2 changes. A chunk is encoded
 *          when the tail is full, and two changes stay raw, so that the
 *          rewrite of the last change at one instant (state-index.c)
 *          always finds it, and the one before it, in the tail.
 *
 * The models: the rows of one type (processes, CPUs...) share a bank
 * (row_bank) that counts the symbols of every change it encodes, in each
 * context. When that count reaches 64, then each time it doubles, the bank
 * works out a model from all it counted: per context a canonical prefix
 * code (a length-limited Huffman code of its most frequent symbols and an
 * escape, at most bitlen(count) - 2 bits and ROW_CODE_BITS long, so that a
 * rare context has a small table) and its table of 2^bits entries, which
 * decodes a symbol with one look-up. It keeps the model, and chunks
 * encoded from then on use it, when it would have saved more than half
 * the bytes its tables take on what was counted (it codes at least as
 * many changes before the next look). Models never change once
 * built, so any chunk decodes alone (a seek bisects ct[], reads its
 * group's sums in gsum[] and the chunk's header, and decodes one chunk). On the
 * bench trace the kind and length of a change cost about 2.6 bits where
 * the scheme before (per chunk: a palette of kinds, lengths in a fixed
 * width) took 5.4: see docs/performance.md, section 4.
 *
 * Threads: a snapshot copies the row_log header and reads only what it saw
 * (nchunks chunks, ntail changes of the tail it saw); every array that the
 * indexer replaces (to grow it, or the tail once encoded) goes through the
 * retire function, which keeps it until no snapshot can read it, except a
 * tail no snapshot saw (none was taken since it was allocated), which is
 * reused or freed. Bytes are only appended beyond what a snapshot saw. A
 * bank's models are added before any chunk uses them and never change; the
 * bank and its models are retired with the index (row_bank_release()).
 */
#ifndef LTT_STATE_ROWS_H
#define LTT_STATE_ROWS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ltttrace.h"

#define ROW_NKINDS LTT_STATE_NUM_KINDS
#define ROW_CHUNK 128		/* changes per chunk at most */
#define ROW_SUPER 16		/* chunks per group (coff[] is relative) */
#define ROW_TAIL (ROW_CHUNK + 2)
#define ROW_NCTX (ROW_NKINDS * ROW_NKINDS)	/* (previous kind, the one before) */
#define ROW_NLEN 65		/* lengths of a delta: 0 to 64 */
#define ROW_ESC (ROW_NKINDS * ROW_NLEN)	/* the escape symbol; (k, b) is k * 65 + b */
#define ROW_NSYM (ROW_ESC + 1)
#define ROW_CODE_BITS 8		/* longest code; a table of 256 entries */
#define ROW_MODELS 16		/* a bank's models at most (model 0: none) */

typedef void (*row_retire_fn)(void *ctx, void *p);

/*
 * A model: for each context, where its table starts in lut[] and its
 * number of bits (info[]: start << 4 | bits; 0 for a context the model
 * never saw, whose table is lut[0]: it escapes without a code). A table
 * has 2^bits entries, indexed by the next bits: the code's length (bits
 * 0-3 of an entry), the kind (4-7) and the delta's length (8-14; 127 for
 * the escape).
 */
typedef struct row_model {
	uint32_t info[ROW_NCTX];
	uint16_t lut[];
} row_model;

typedef struct row_bank {
	const row_model *models[ROW_MODELS];	/* [0] NULL: no model */
	unsigned cur;			/* the one new chunks use */
	int done;			/* row_bank_done() was called */
	size_t models_bytes;
	struct row_enc *enc;		/* the encoder's (counts, codes) */
} row_bank;

row_bank *row_bank_new(void);
/* No more encoding: free the counts and the encoder's codes. */
void row_bank_done(row_bank *b);
/* Hand the bank and its models to retire. */
void row_bank_release(row_bank *b, row_retire_fn retire, void *ctx);
size_t row_bank_memory(const row_bank *b);

typedef struct row_log {
	row_bank *bank;			/* the models its chunks use */
	uint8_t *bits;			/* ROW_PAD bytes readable beyond nbytes */
	size_t nbytes, bytes_cap;
	/* snapshots taken when bits and gsum were allocated: grown in place
	 * while no snapshot was taken since (state-rows.c, grow_padded) */
	unsigned bits_gen, gsum_gen;
	/* bits is a reservation (bytes_cap of address space, its pages
	 * touched only as it fills: state-rows.c, reserve_big) */
	bool bits_reserved;
	int64_t *ct;
	uint16_t *coff;
	size_t nchunks, chunk_cap;
	uint64_t *gbase;
	uint32_t *goff;			/* gbase_cap of them too */
	size_t gbase_cap;
	uint8_t *gsum;			/* 8 bytes readable beyond gsum_bytes (a
					 * row would need 7e10 changes to pass
					 * the 4 GiB of goff[]) */
	size_t gsum_bytes, gsum_cap;
	int64_t *tt;			/* the tail */
	uint8_t *tk;
	unsigned ntail, tail_cap;
	unsigned tail_gen;		/* snapshots taken when it was allocated */
	uint64_t n;			/* changes in all */
	int64_t *run;			/* indexer only: time in each kind before
					 * the tail, then at its group's start
					 * (not read by snapshots) */
} row_log;

/*
 * Append a change to r (whose chunks use bank's models: the same bank
 * every time), or rewrite the last one when it is at the same instant and
 * later than sealed_ns (no snapshot saw it): the same rule the index
 * always had (the last change at one instant holds). gen: the snapshots
 * taken so far (a tail allocated since the last one is reused in place).
 * Returns 1 when a change was added, 0 when not (same kind, or a rewrite).
 */
int row_log_record(row_log *r, row_bank *bank, int64_t t, int kind, int64_t sealed_ns,
		   unsigned gen, row_retire_fn retire, void *ctx);
/* No more changes: encode the tail, fit the arrays to what they hold. */
void row_log_finish(row_log *r, row_retire_fn retire, void *ctx);
/* Hand every array to retire (the indexer's log); r is then empty. */
void row_log_release(row_log *r, row_retire_fn retire, void *ctx);
size_t row_log_memory(const row_log *r);
static inline uint64_t row_log_count(const row_log *r) { return r->n; }
/* Time of the first change (r must have one). */
static inline int64_t row_log_first(const row_log *r)
{
	return r->nchunks ? r->ct[0] : r->tt[0];
}

/* Reading bits: where, and the next of them loaded (avail of them). */
typedef struct row_bits {
	uint64_t bit, win;
	unsigned avail;
} row_bits;

/* A position in a row log: a change, the next one, the time before it. */
typedef struct row_cur {
	const row_log *r;
	int64_t end;			/* where the last change ends */
	size_t c;			/* chunk; nchunks: the tail */
	unsigned i, n;			/* change in chunk c, its count */
	int64_t t, tn;			/* this change's time, the next's (end) */
	int k, kn;			/* their kinds; kn -1: no next change */
	int64_t S[ROW_NKINDS];		/* time in each kind over [t_0, t) */
	/* decoding chunk c */
	row_bits rb;			/* at the next change */
	const row_model *md;		/* its model (NULL: none) */
	int kp;				/* the kind before k in the chunk (k
					 * for its first change) */
} row_cur;

/* The last change at or before x (the first one if x is before it). */
void row_cur_seek(row_cur *cu, const row_log *r, int64_t end, int64_t x);
/* To the next change (there must be one: cu->kn >= 0). */
void row_cur_next(row_cur *cu);
/* Forward to the last change at or before x (x >= cu->t): change by
 * change when it is near, else a seek. */
void row_cur_advance(row_cur *cu, int64_t x);
/* The time spent in each kind over [t_0, x), x from cu->t to cu->tn. */
static inline void row_cur_sum_at(const row_cur *cu, int64_t x, int64_t *s)
{
	for (int k = 0; k < ROW_NKINDS; k++)
		s[k] = cu->S[k];
	s[cu->k] += x - cu->t;
}

#endif
