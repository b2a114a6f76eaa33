/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * analysis-store.h - how the analyses keep what they record, compactly
 * (analysis-store.c): the occurrences of a kind and the CPU-time logs as
 * varint-coded byte streams, each cut into blocks with a small directory
 * to skip or find them by time. A 100 M-event trace records some 40 M
 * occurrences and 15 M log samples: as structs (48 and 24 bytes) they
 * took 3 GB, more than the window's index; coded, 2 to 3 bytes per event
 * of the trace. Not installed.
 */
#ifndef LTT_ANALYSIS_STORE_H
#define LTT_ANALYSIS_STORE_H

#include <glib.h>

#include "ltttrace.h"

/* A growing byte buffer. */
typedef struct an_bytes {
	uint8_t *p;
	size_t n, cap;
} an_bytes;

/* ---- occurrences ------------------------------------------------------------
 *
 * One store per kind but FILE: a FILE occurrence is the SYSCALL one it
 * belongs to (same times, process, CPU, return value), whose record then
 * carries the file and the direction too. Records are kept in the order
 * they are added (the order they ended), in blocks of AN_BLOCK, each
 * coded once full; the block being filled waits raw. A record is a row
 * of numbers (columns): the end's difference from the record before,
 * the duration, the process, the id's rank among the ids seen, the CPU,
 * then what the kind adds (SYSCALL: the direction, the return value, the
 * file + 1 or 0; SCHED: the waker, its CPU, kind and IRQ or vector). A
 * block codes each column with its own code: a value's bit length by a
 * Huffman code made for that column of that block, then the value's bits
 * under its leading 1. On a busy trace this takes about 25 % less than
 * LEB128 varints, which leave most of each last byte unused.
 */
#define AN_BLOCK 512		/* records per block */

/* A record as added. */
typedef struct an_raw {
	ltt_latency l;
	uint32_t file;			/* SYSCALL: the FILE id + 1, 0: none */
	uint8_t write;
} an_raw;

typedef struct an_block {
	int64_t prev_end;		/* the end of the record before (coding base) */
	int64_t min_start, min_end, max_end;
	uint64_t max_dur;
	size_t offset;			/* of its first record in the bytes */
} an_block;

typedef struct an_store {
	ltt_latency_kind kind;		/* SYSCALL, SCHED, IRQ or SOFTIRQ */
	an_bytes b;
	an_block *blocks;
	size_t nblocks, cap_blocks;
	size_t n;			/* records, the pending ones included */
	size_t nfile;			/* SYSCALL: those with a file (FILE's count) */
	an_raw *pend;			/* the block being filled */
	unsigned npend;
	int64_t blocks_end;		/* the end of the last record coded */
	int64_t last_end;
	int ends_sorted;		/* no end before the one before it */
	GHashTable *rank;		/* id -> rank + 1 */
	uint32_t *ids;			/* rank -> id */
	unsigned nids, cap_ids;
} an_store;

void an_store_init(an_store *s, ltt_latency_kind kind);
void an_store_clear(an_store *s);
/* Adds l (of s's kind); for SYSCALL, file: its FILE id + 1, write: its
 * direction (file 0: not a file's call). */
void an_store_add(an_store *s, const ltt_latency *l, uint32_t file, int write);

/* Gets one decoded record (as kind asks: FILE, or the store's kind) and
 * data; returns non-zero to stop. */
typedef int (*an_visit)(const ltt_latency *l, void *data);
/* The records of the store as kind `kind` (FILE: only the file's calls,
 * from the SYSCALL store) whose start is in [t0, t1], in the order they
 * were added, to fn. Returns how many were given. */
size_t an_store_each(const an_store *s, ltt_latency_kind kind, int64_t t0, int64_t t1,
		     an_visit fn, void *data);
/* The same over block i only (i == nblocks: the pending records); *stop
 * set when fn asked to stop. */
size_t an_store_each_block(const an_store *s, size_t i, ltt_latency_kind kind, int64_t t0,
			   int64_t t1, an_visit fn, void *data, int *stop);
/* The longest duration in block i (nblocks: the pending records). */
uint64_t an_store_block_max_dur(const an_store *s, size_t i);
/* The first record of process p that ended at t, into *out: 0, or -1. */
int an_store_find_end(const an_store *s, int32_t p, int64_t t, ltt_latency *out);

/* ---- CPU-time logs -----------------------------------------------------------
 *
 * A log's samples in blocks of up to AN_LOG_BLOCK, coded as the
 * occurrences' (columns: the time's difference from the sample before,
 * the CPU time's difference from what that one predicts (it grows at 1
 * ns per ns when on: mostly 0), the flags, the system call), the first
 * one of each whole in the directory; then the samples not coded yet, and
 * the last one, kept apart: a sample at the same instant replaces it, and
 * the pass may still name its system call. A log that will not grow (its
 * process exited) is coded to its last but one (an_log_flush), so that
 * the thousands of short-lived processes of a long trace do not keep
 * their samples raw.
 */

/* One point of a CPU-time log: at `t`, `cum` ns had been used; `on` says
 * whether time is being used from t on (it then grows at 1 ns per ns). */
typedef struct an_sample {
	int64_t t;
	uint64_t cum;
	uint8_t on;
	uint8_t blocked;		/* off: AN_PREEMPTED, AN_BLOCKED, AN_EXITED */
	uint16_t sys;			/* off blocked: the system call it was in,
					 * + 1; 0: none (or an id past 65534) */
} an_sample;

enum { AN_PREEMPTED = 0, AN_BLOCKED, AN_EXITED };

#define AN_LOG_BLOCK 256		/* samples per block, at most */

typedef struct an_log_block {
	an_sample first;		/* its first sample, not in the bytes */
	size_t offset;			/* of the others' columns */
	size_t index;			/* of its first sample in the log */
	unsigned count;
} an_log_block;

typedef struct an_log {
	an_bytes b;
	an_log_block *blocks;
	size_t nblocks, cap_blocks;
	size_t n;			/* samples, `last` included */
	size_t ncoded;			/* in the blocks */
	an_sample *pend;		/* then these, not coded yet */
	unsigned npend, cap_pend;
	an_sample last;			/* then the last one */
} an_log;

void an_log_clear(an_log *l);
/* Appends a sample; one at the last one's instant replaces it. */
void an_log_add(an_log *l, int64_t t, uint64_t cum, int on, int blocked);
/* Codes what waits (a log that will not grow much more). */
void an_log_flush(an_log *l);
/* The last sample (n > 0), which the pass may still change. */
static inline an_sample *an_log_last(an_log *l) { return &l->last; }
/* The last sample at or before t (strict: before t): its index, *s and
 * the sample after it in *next (next->t INT64_MAX: none); -1 when none,
 * *next then the first sample. Times are taken to grow (a hostile trace's
 * that do not give some sample near t). */
long an_log_find(const an_log *l, int64_t t, int strict, an_sample *s, an_sample *next);
/* CPU time in the log up to t. */
uint64_t an_log_at(const an_log *l, int64_t t);

#endif
