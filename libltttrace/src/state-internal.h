/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * state-internal.h - the model's data, shared by state.c (replay) and
 * state-index.c (checkpoints, row histories). Not installed.
 *
 * The model is three plain arrays (processes, CPUs, IRQs) with no pointers
 * inside, so that a checkpoint is three memcpy()s and a restore three more
 * plus rebuilding the pid table.
 */
#ifndef LTT_STATE_INTERNAL_H
#define LTT_STATE_INTERNAL_H

#include <glib.h>

#include "ltttrace.h"

#define ST_MAX_DEPTH 16		/* mode stack; deeper nesting is counted, not kept */
#define ST_IRQ_DEPTH 8
#define ST_IRQ_NAME_MAX 32

typedef struct st_proc {
	uint32_t pid, tgid, ppid;
	int32_t cpu;			/* running on, or last CPU, or -1 */
	uint8_t status;			/* ltt_state_status */
	uint8_t depth;			/* entries on stack (>= 1) */
	uint8_t kernel_thread;
	uint8_t alive;			/* in the pid table */
	uint8_t dumped;			/* first seen in the state dump */
	uint8_t stack[ST_MAX_DEPTH];	/* ltt_state_mode */
	/* what each entry is: "openat", "page_fault", "local_timer",
	 * "TIMER" (names of the trace's event types, which outlive the
	 * model), or NULL */
	const char *stack_name[ST_MAX_DEPTH];
	uint32_t overflow;		/* pushes beyond ST_MAX_DEPTH */
	int64_t birth_ns, death_ns;
	uint64_t cpu_ns[LTT_STATE_NUM_MODES];
	char name[LTT_STATE_NAME_MAX];
} st_proc;

typedef struct st_cpu {
	int32_t cur;			/* running process index, or -1 */
	int32_t sirq;			/* softirq id being handled, or -1 */
	int64_t sirq_since;
	int32_t swapper;		/* index of this CPU's idle task, or -1 */
	int64_t last_ns;		/* accounted up to */
	uint8_t irq_depth;
	int32_t irq_stack[ST_IRQ_DEPTH];	/* IRQ indexes being handled */
} st_cpu;

typedef struct st_irq {
	uint32_t id;
	int32_t cpu;			/* handling CPU, or -1 */
	int64_t since_ns;
	uint64_t count, busy_ns;
	char name[ST_IRQ_NAME_MAX];
} st_irq;

/* Softirqs, by id (they are few and numbered); rows in order of first sight. */
#define ST_MAX_SOFTIRQS 32

typedef struct st_softirq {
	uint32_t running;		/* CPUs handling it now (their sirq) */
	uint64_t count, busy_ns;
	char name[16];
} st_softirq;

typedef struct st_softirqs {
	st_softirq by_id[ST_MAX_SOFTIRQS];
	int8_t row_of_id[ST_MAX_SOFTIRQS];	/* -1: never seen */
	uint8_t id_of_row[ST_MAX_SOFTIRQS];
	unsigned n;
} st_softirqs;

/* Fills f[0..n) with the indexes in ev's event type of the named fields
 * (-1 where fields[k] is NULL); 0 when the event lacks one of them (not
 * the event a handler knows).  The state engine's and the analyses'. */
int ltt_state_find_fields(int8_t *f, unsigned n, const ltt_event *ev,
			  const char *const *fields);

/* Per event type: what it means for the state, and its field indexes. */
typedef struct st_type {
	uint8_t handler;		/* ST_H_*, ST_H_UNRESOLVED before resolving */
	int8_t f[8];
	int8_t named;			/* field whose value has a name, or -1 */
	uint8_t lttng;			/* an LTTng kernel event (docs/ctf.md) */
	const char *mode_name;		/* what it enters, from its name (LTTng) */
} st_type;

/* The task a CPU runs at its first event, and in which mode. */
typedef struct ltt_state_first_task {
	int32_t pid;			/* -1: unknown (no schedchange) */
	uint8_t mode;			/* ltt_state_mode; MODE_UNKNOWN */
} ltt_state_first_task;

/* Per trace: its event types, and the task each CPU starts with. */
typedef struct st_type_cache {
	const ltt_trace *trace;
	st_type *fac[256];		/* lazily, 256 events each */
	ltt_state_first_task *first_task;	/* per CPU */
	unsigned nfirst;
} st_type_cache;

/* CPUs the model follows; events of others are counted as ignored */
#define ST_MAX_CPUS 4096

struct ltt_state_index;

struct ltt_state {
	int64_t now;
	uint64_t events;
	st_proc *procs;
	unsigned nprocs, cap_procs;
	st_cpu *cpus;
	unsigned ncpus;
	st_irq *irqs;
	unsigned nirqs, cap_irqs;
	st_softirqs sq;
	GHashTable *by_pid;		/* pid -> index + 1, alive, pid != 0 */
	GHashTable *irq_by_id;		/* irq id -> index + 1 */
	st_type_cache *caches;		/* one per trace seen */
	unsigned ncaches, last_cache;
	uint64_t ignored;		/* events beyond the model's limits */
	char ignored_why[128];		/* the first such reason */
	struct ltt_state_index *rec;	/* records row changes when set */
};

/* state.c */
ltt_state_kind ltt_state__proc_kind(const ltt_state *st, const st_proc *p);
ltt_state_kind ltt_state__cpu_kind(const ltt_state *st, unsigned cpu);
/* Rebuild the pid and irq tables from the arrays (after a restore). */
void ltt_state__rebuild_pids(ltt_state *st);
void ltt_state__ensure_cpus(ltt_state *st, unsigned n);
/* Give dst the first-task tables src found for traces dst has not met,
 * so that a fresh model (a seek, a copy) does not read the files again. */
void ltt_state__share_first_tasks(ltt_state *dst, const ltt_state *src);

/* state-first-task.c: per CPU of tr, the task its first schedchange
 * switches out and its mode then; g_free() it. */
ltt_state_first_task *ltt_state__first_tasks(const ltt_trace *tr, unsigned *ncpus);

/* An LTTng system call event: the system call's name ("openat" of
 * "syscall_entry_openat", "compat_syscall_exit_read"), *exit set for an
 * exit; NULL for any other name. */
const char *ltt_state__lttng_syscall(const char *event, int *exit);

/* An LTTng softirq's name from its number (irq_softirq_entry's vec), or NULL. */
const char *ltt_state__lttng_softirq_name(uint64_t vec);

/* state-index.c: a row changed (called only when st->rec is set) */
void ltt_state__record(struct ltt_state_index *idx, ltt_state_row_type type,
		       unsigned i, int64_t t, ltt_state_kind kind);

/* state-index.c: a hash of what the index holds, byte by byte (the rows'
 * coded changes, chunk tables, tails and models; the checkpoints' times
 * and counts): the tests compare the index built by one thread and by
 * two with it. */
uint64_t ltt_state__index_digest(const struct ltt_state_index *idx);

#endif
