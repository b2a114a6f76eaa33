/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * analysis-internal.h - what analysis.c (the pass over the events) records
 * and analysis-query.c (statistics, groups, CPU usage over ranges) reads.
 * Not installed.
 */
#ifndef LTT_ANALYSIS_INTERNAL_H
#define LTT_ANALYSIS_INTERNAL_H

#include <glib.h>

#include "ltttrace.h"
#include "analysis-store.h"
#include "sized.h"

/* What a process has open now: a system call, a wakeup not yet served. */
typedef struct an_proc {
	int64_t sys_start;		/* INT64_MIN: not in a system call */
	uint32_t sys_id;
	uint32_t fd;			/* fs.read/write seen in this call */
	int8_t fs_op;			/* -1 none, 0 read, 1 write */
	uint32_t open_file;		/* LTTng: file id + 1 of the openat in this call */
	int64_t wake_ns;		/* INT64_MIN: no wakeup pending */
	int32_t waker;
	uint32_t waker_cpu;
	uint8_t waker_kind;
	uint16_t waker_id;		/* the waker's IRQ line or softirq vector */
	int32_t on_cpu;			/* CPU it is logged running on, or -1 */
	an_log cpu_log;
} an_proc;

#define AN_IRQ_DEPTH 8

typedef struct an_cpu {
	struct { int64_t start; uint32_t id; } irq[AN_IRQ_DEPTH];
	unsigned irq_depth;		/* may exceed AN_IRQ_DEPTH: counted only */
	int64_t sirq_start;		/* INT64_MIN: none */
	uint32_t sirq_id;
	int32_t running;		/* process logged running, or -1 */
	int busy;
	an_log busy_log;
} an_cpu;

struct ltt_analysis {
	ltt_state *st;
	/* the occurrences, in end order, per kind; FILE's are in SYSCALL's
	 * (analysis-store.h): store_of() */
	an_store occ[LTT_LATENCY_NUM_KINDS];
	uint64_t unpaired[LTT_LATENCY_NUM_KINDS];
	GHashTable *names[LTT_LATENCY_NUM_KINDS];	/* id -> char* (not FILE) */
	GPtrArray *files;		/* FILE id -> path */
	GHashTable *file_ids;		/* path -> id + 1 */
	GHashTable *fds;		/* tgid -> GHashTable(fd -> FILE id + 1) */
	uint64_t dump_files;		/* LTTng statedump: the last process's */
	uint32_t dump_tgid;		/* file table address, and its tgid */
	an_proc *procs;
	unsigned nprocs;
	an_cpu *cpus;
	unsigned ncpus;
	int64_t first_ns, last_ns;
	/* event types, per trace: handler and field indexes */
	struct an_cache *caches;
	unsigned ncaches;
	char scratch[64];		/* the name of an unnamed id */
	/* ltt_analysis_latencies_sized(): the occurrences decoded into an
	 * array at the caller's stride, kept until they change (the next
	 * event), made under the lock (the call is const). Costly (48 bytes
	 * an occurrence): the library's own queries never make one */
	GPtrArray *copies;		/* an_copy */
	GMutex copies_lock;
};

typedef struct an_copy {
	ltt_latency_kind kind;
	size_t size;
	void *rows;
	size_t n;			/* while it is filled */
} an_copy;

/* The 0.7.0 sizes of the result structs (never change these). */
#define AN_LATENCY_MIN LTT_END_OF(ltt_latency, ret)
#define AN_STATS_MIN LTT_END_OF(ltt_latency_stats, hist)
#define AN_GROUP_MIN LTT_END_OF(ltt_latency_group, writes)
#define AN_TOP_ROW_MIN LTT_END_OF(ltt_analysis_top_row, ns)
#define AN_SEGMENT_MIN LTT_END_OF(ltt_path_segment, waker_kind)

/* Whether an occurrence lies wholly in [t0, t1] (ltttrace-analysis.h). */
static inline int ltt_analysis__in_range(const ltt_latency *l, int64_t t0, int64_t t1)
{
	return l->start_ns >= t0 && l->start_ns <= t1 &&
	       l->duration_ns <= (uint64_t)(t1 - l->start_ns);
}

/* The store that holds kind k's occurrences (FILE: SYSCALL's). */
static inline const an_store *ltt_analysis__store(const ltt_analysis *a, ltt_latency_kind k)
{
	return &a->occ[k == LTT_LATENCY_FILE ? LTT_LATENCY_SYSCALL : k];
}

#endif
