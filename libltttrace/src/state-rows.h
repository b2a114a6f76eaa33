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
 *   ct[]   time of the first change of each chunk (bisected by a seek)
 *   coff[] its byte offset, from the base of its group of ROW_SUPER chunks
 *   sup[]  per group of ROW_SUPER chunks: the time spent in each kind
 *          before its first chunk (absolute, int64) and its byte base
 *   bits   the chunks:
 *            n-1 (7 bits); the kinds used (one bit per kind);
 *            lo (7 bits), L (3 bits): every delta has lo + (L bits) bits;
 *            the time spent in each kind from the start of its group
 *            to this chunk's first change (a bit per kind that is not
 *            0, then for each such kind a 7-bit length and the bits
 *            under the leading 1), so that the time spent before any
 *            chunk is sup[] plus what its own header says;
 *            the first change's kind (its rank among the kinds used);
 *            each next change: its kind (none when the chunk has two
 *            kinds; else a bit: the kind before the previous one, as a
 *            row goes back and forth between user mode and a system
 *            call; if not, its rank among the kinds used other than
 *            those two), then its time as a delta from the previous
 *            change: the length of the delta minus lo in L bits, then
 *            the delta's bits under its leading 1.
 *   tt[], tk[]  the tail: up to ROW_CHUNK + 2 changes. A chunk is encoded
 *          when the tail is full, and two changes stay raw, so that the
 *          rewrite of the last change at one instant (state-index.c)
 *          always finds it, and the one before it, in the tail.
 *
 * On the bench trace (ltt-tracegen --scenario busy) a change costs about
 * 2 bytes where it cost 9 (int64 time, kind byte) plus 1.75 of prefix
 * sums: see docs/performance.md, section 4.
 *
 * Threads: a snapshot copies the row_log header and reads only what it saw
 * (nchunks chunks, ntail changes of the tail it saw); every array that the
 * indexer replaces (to grow it, or the tail once encoded) goes through the
 * retire function, which keeps it until no snapshot can read it, except a
 * tail no snapshot saw (none was taken since it was allocated), which is
 * reused or freed. Bytes are only appended beyond what a snapshot saw.
 */
#ifndef LTT_STATE_ROWS_H
#define LTT_STATE_ROWS_H

#include <stddef.h>
#include <stdint.h>

#include "ltttrace.h"

#define ROW_NKINDS LTT_STATE_NUM_KINDS
#define ROW_CHUNK 128		/* changes per chunk at most */
#define ROW_SUPER 16		/* chunks per absolute prefix sum */
#define ROW_TAIL (ROW_CHUNK + 2)

typedef void (*row_retire_fn)(void *ctx, void *p);

typedef struct row_sup {
	int64_t sum[ROW_NKINDS];	/* time in each kind before the group */
	uint64_t base;			/* byte offset of its first chunk */
} row_sup;

typedef struct row_log {
	uint8_t *bits;			/* ROW_PAD bytes readable beyond nbytes */
	size_t nbytes, bytes_cap;
	int64_t *ct;
	uint32_t *coff;
	size_t nchunks, chunk_cap;
	row_sup *sup;
	size_t sup_cap;
	int64_t *tt;			/* the tail */
	uint8_t *tk;
	unsigned ntail, tail_cap;
	unsigned tail_gen;		/* snapshots taken when it was allocated */
	uint64_t n;			/* changes in all */
	int64_t *run;			/* indexer only: time in each kind before
					 * the tail (not read by snapshots) */
} row_log;

/*
 * Append a change, or rewrite the last one when it is at the same instant
 * and later than sealed_ns (no snapshot saw it): the same rule the index
 * always had (the last change at one instant holds). gen: the snapshots
 * taken so far (a tail allocated since the last one is reused in place).
 * Returns 1 when a change was added, 0 when not (same kind, or a rewrite).
 */
int row_log_record(row_log *r, int64_t t, int kind, int64_t sealed_ns, unsigned gen,
		   row_retire_fn retire, void *ctx);
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
	uint64_t bit;			/* bit offset of the next change */
	uint8_t pal[ROW_NKINDS], np;	/* kinds used */
	uint8_t ki, kpi, kni;		/* k, the previous one's, kn: in pal[] */
	uint8_t L, lo;			/* delta length width, min */
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
