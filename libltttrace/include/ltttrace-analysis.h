/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * ltttrace-analysis.h - answers from a kernel trace, on top of the state
 * engine (ltttrace-state.h): how long system calls take, how long a woken
 * task waits for a CPU, how long interrupt and softirq handlers run, who
 * used the CPUs, which files were read and written.
 *
 * Included by ltttrace.h; do not include it directly.
 *
 * One pass records every *occurrence* (a system call from entry to exit, a
 * wakeup to the switch-in that follows it, a handler from entry to exit, a
 * read or write system call with its file) and, per process and per CPU,
 * when CPU time was used. Then any range and any grouping can be asked for
 * without reading the trace again:
 *
 *	ltt_analysis *a = ltt_analysis_new();
 *	while (ltt_iter_next(it, &ev, &err) > 0)
 *		ltt_analysis_process_event(a, ev);
 *	n = ltt_analysis_groups(a, LTT_LATENCY_SYSCALL, LTT_GROUP_ID,
 *				INT64_MIN, INT64_MAX, &groups);
 *	printf("%s: p99 %llu ns\n", ltt_analysis_id_name(a, LTT_LATENCY_SYSCALL,
 *	       groups[0].id), groups[0].stats->p99);
 *
 * The analysis owns a state model (ltt_analysis_state()) and applies every
 * event to it: do not feed that model yourself.
 *
 * What each kind measures:
 *
 *   SYSCALL   kernel.syscall_entry -> the next kernel.syscall_exit of the
 *             same process (on any CPU: it may sleep and migrate). id: the
 *             system call number, named by the library's tables. An exit
 *             without its entry (the call began before the trace) and an
 *             entry that never returns (exit_group) are not occurrences.
 *   SCHED     process.wakeup that makes a waiting task runnable (the model
 *             moves it to WAIT_CPU) -> the process.schedchange that puts it
 *             on a CPU. A wakeup of a task already runnable or running is
 *             not one. waker: the process running on the waking CPU, and
 *             waker_kind what that CPU was doing (IRQ, SOFTIRQ, SYSCALL...).
 *   IRQ       kernel.irq_entry -> irq_exit on the same CPU (nested
 *             interrupts inside count in the outer one's time). id: the
 *             line, named by the state dump.
 *   SOFTIRQ   kernel.soft_irq_entry -> soft_irq_exit of the same vector on
 *             the same CPU. id: the vector (TIMER, RCU, ...).
 *   FILE      a read or write system call that carries an fs.read or
 *             fs.write event: from its entry to its exit. id: the file
 *             (ltt_analysis_id_name: the path given to open, known from
 *             fs.open in the thread group or inherited at fork; else
 *             "fd N of tgid T"); bytes: the call's return value when it is
 *             >= 0 (what was really transferred), 0 when it failed.
 *
 * And, from the same records, the critical path of a process
 * (ltt_analysis_critical_path(), at the end of this header).
 *
 * Ranges: an occurrence belongs to [t0, t1] when it lies wholly inside:
 * start >= t0 and start + duration <= t1 (INT64_MIN, INT64_MAX: all).
 *
 * Statistics: percentiles by nearest rank (p50 of n sorted durations is
 * the ceil(n * 50 / 100)-th), mean rounded down to the nanosecond, and a
 * base-2 histogram: bucket 0 holds durations 0 and 1 ns, bucket b >= 1
 * holds [2^b, 2^(b+1)) ns.
 *
 * Sized results (ltttrace.h, "Sized structs"). Every struct this header
 * returns may gain members at the end in a later version. Each call that
 * returns them is a *_sized function taking the caller's sizeof, and the
 * name without _sized is a macro that passes it: the library writes
 * elements of the caller's size, at the caller's stride (what both know;
 * the caller's tail zeroed), and refuses a size below 0.7.0's (NULL or 0
 * results, -1). No result struct holds another by value: a group points
 * at its statistics (in the same allocation, one free()).
 */
#ifndef LTTTRACE_ANALYSIS_H
#define LTTTRACE_ANALYSIS_H

#ifndef LTTTRACE_H
#error "include ltttrace.h, not ltttrace-analysis.h"
#endif

typedef enum ltt_latency_kind {
	LTT_LATENCY_SYSCALL = 0,
	LTT_LATENCY_SCHED,
	LTT_LATENCY_IRQ,
	LTT_LATENCY_SOFTIRQ,
	LTT_LATENCY_FILE,
	LTT_LATENCY_NUM_KINDS
} ltt_latency_kind;

/* "syscall", "sched", "irq", "softirq", "file" */
const char *ltt_latency_kind_name(ltt_latency_kind k);

typedef struct ltt_latency {
	int64_t start_ns;		/* entry, or the wakeup */
	uint64_t duration_ns;
	int32_t process;		/* state process index (of the task that
					 * made the call, or was woken; for IRQ
					 * and SOFTIRQ, the one interrupted) */
	uint32_t cpu;			/* where it ended */
	uint32_t id;			/* see the kinds above; SCHED: 0 */
	int32_t waker;			/* SCHED: process index, or -1 */
	uint32_t waker_cpu;		/* SCHED */
	uint8_t waker_kind;		/* SCHED: ltt_state_kind of waker_cpu */
	uint8_t write;			/* FILE: 1 for a write */
	/* SCHED, woken in an IRQ or a softirq: its line or vector, for
	 * ltt_analysis_id_name() (LTT_WAKER_ID_NONE: not known) */
	uint16_t waker_id;
	int64_t ret;			/* SYSCALL, FILE: the return value */
} ltt_latency;

#define LTT_WAKER_ID_NONE 0xffffu

typedef struct ltt_analysis ltt_analysis;

ltt_analysis *ltt_analysis_new(void);
void ltt_analysis_free(ltt_analysis *a);

/* Apply one event (in time order, as ltt_iter_next gives them). Returns
 * what ltt_state_process_event() returned for it. */
int ltt_analysis_process_event(ltt_analysis *a, const ltt_event *ev);

/* The model the analysis keeps: process names, pids, CPUs. */
const ltt_state *ltt_analysis_state(const ltt_analysis *a);

/*
 * Memory: the analysis keeps its occurrences coded, a few bytes each
 * (about 3 bytes per event of a busy kernel trace); the calls below
 * decode them as they go and hold nothing per occurrence:
 * ltt_analysis_each(), ltt_analysis_longest(), and ltt_analysis_groups()
 * (it reads the occurrences a few times to find exact percentiles, and
 * keeps at most a few thousand durations per group). Only
 * ltt_analysis_latencies() and ltt_analysis_worst() keep a decoded copy,
 * 48 bytes per occurrence: a tool that reads a large trace should not
 * call them.
 */

/* How many occurrences of kind k were recorded (0: a kind out of range). */
size_t ltt_analysis_count(const ltt_analysis *a, ltt_latency_kind k);

/* What ltt_analysis_each() calls: non-zero stops it. */
typedef int (*ltt_latency_visit)(const ltt_latency *l, void *data);

/*
 * Each occurrence of kind k that starts in [t0, t1] (INT64_MIN, INT64_MAX:
 * all), in the order they ended (that of ltt_analysis_latencies()), to fn
 * with data; l is valid during the call only, `size` bytes (the macro:
 * the caller's sizeof(ltt_latency)). Returns how many fn was given (0 for
 * a size below 0.7.0's or a kind out of range).
 */
size_t ltt_analysis_each_sized(const ltt_analysis *a, ltt_latency_kind k, int64_t t0,
			       int64_t t1, ltt_latency_visit fn, void *data, size_t size);
#define ltt_analysis_each(a, k, t0, t1, fn, data) \
	ltt_analysis_each_sized((a), (k), (t0), (t1), (fn), (data), sizeof(ltt_latency))

/*
 * Every occurrence of a kind, in the order they ended: *n elements of
 * `size` bytes (the macro: the caller's sizeof(ltt_latency)). Owned by the
 * analysis, valid until the next ltt_analysis_process_event() or
 * ltt_analysis_free(). NULL and *n = 0 for a size below 0.7.0's or a kind
 * out of range. A decoded copy of them all (see "Memory" above): prefer
 * ltt_analysis_each().
 */
const ltt_latency *ltt_analysis_latencies_sized(const ltt_analysis *a, ltt_latency_kind k,
						size_t *n, size_t size);
#define ltt_analysis_latencies(a, k, n) \
	ltt_analysis_latencies_sized((a), (k), (n), sizeof(ltt_latency))

/* The name of an id of a kind ("openat", "timer", "RCU", "/etc/passwd");
 * never NULL: a number without a name gives "syscall_300", "irq_5"... */
const char *ltt_analysis_id_name(const ltt_analysis *a, ltt_latency_kind k,
				 uint32_t id);

/* Occurrences that could not be paired, per kind: exits without an entry,
 * entries that never ended (counted at the end of what was read). */
uint64_t ltt_analysis_unpaired(const ltt_analysis *a, ltt_latency_kind k);

/* ---- Statistics ---------------------------------------------------------- */

#define LTT_LATENCY_HIST_BUCKETS 64

typedef struct ltt_latency_stats {
	uint64_t count;
	uint64_t min, max, total;	/* ns */
	uint64_t mean, p50, p90, p99;	/* ns */
	uint64_t hist[LTT_LATENCY_HIST_BUCKETS];
} ltt_latency_stats;

/* Histogram bucket of a duration (see above). */
unsigned ltt_latency_bucket(uint64_t ns);

/* Statistics of n durations into the caller's `size` bytes at out; sorts
 * them in place. 0, or -1 (nothing written) for a size below 0.7.0's. */
int ltt_latency_stats_compute_sized(uint64_t *durations, size_t n,
				    ltt_latency_stats *out, size_t size);
#define ltt_latency_stats_compute(d, n, out) \
	ltt_latency_stats_compute_sized((d), (n), (out), sizeof(*(out)))

typedef enum ltt_group_by {
	LTT_GROUP_ALL = 0,		/* one group */
	LTT_GROUP_ID,			/* by system call, line, vector, file */
	LTT_GROUP_PROCESS,		/* by process index */
	LTT_GROUP_CPU,
	LTT_GROUP_PROCESS_ID,		/* by process and id */
} ltt_group_by;

typedef struct ltt_latency_group {
	uint32_t id;			/* LTT_GROUP_ID, LTT_GROUP_PROCESS_ID */
	int32_t process;		/* LTT_GROUP_PROCESS(_ID), else -1 */
	int32_t cpu;			/* LTT_GROUP_CPU, else -1 */
	/* its statistics: a pointer, so that either struct can grow; they
	 * live in the groups' allocation */
	const ltt_latency_stats *stats;
	uint64_t bytes_read, bytes_written;	/* FILE */
	uint64_t reads, writes;		/* FILE: occurrences of each */
} ltt_latency_group;

/*
 * The occurrences of kind k in [t0, t1], grouped; each group with its
 * statistics. Sorted by total time, longest first (ties: by key). Groups
 * of group_size bytes, statistics of stats_size (the macro: the caller's
 * sizeof of each); one allocation, the caller frees *out with free().
 * Returns the number of groups; 0 and *out NULL for a size below 0.7.0's.
 */
unsigned ltt_analysis_groups_sized(const ltt_analysis *a, ltt_latency_kind k,
				   ltt_group_by by, int64_t t0, int64_t t1,
				   ltt_latency_group **out, size_t group_size,
				   size_t stats_size);
#define ltt_analysis_groups(a, k, by, t0, t1, out) \
	ltt_analysis_groups_sized((a), (k), (by), (t0), (t1), (out), \
				  sizeof(**(out)), sizeof(*(*(out))->stats))

/*
 * The n longest occurrences of kind k in [t0, t1] (ties: earliest first),
 * as pointers into ltt_analysis_latencies_sized(a, k, _, size)'s array
 * (valid as long as it); the caller frees *out with free(). Returns how
 * many (at most n); 0 and *out NULL for a size below 0.7.0's. It makes
 * that array (see "Memory" above): prefer ltt_analysis_longest().
 */
size_t ltt_analysis_worst_sized(const ltt_analysis *a, ltt_latency_kind k, int64_t t0,
				int64_t t1, size_t n, const ltt_latency ***out,
				size_t size);
#define ltt_analysis_worst(a, k, t0, t1, n, out) \
	ltt_analysis_worst_sized((a), (k), (t0), (t1), (n), (out), sizeof(***(out)))

/*
 * The same n longest, as copies: *out, an array of `size`-byte elements
 * (the macro: the caller's sizeof(ltt_latency)), longest first, that the
 * caller frees with free(). Returns how many (at most n); 0 and *out NULL
 * for a size below 0.7.0's.
 */
size_t ltt_analysis_longest_sized(const ltt_analysis *a, ltt_latency_kind k, int64_t t0,
				  int64_t t1, size_t n, ltt_latency **out, size_t size);
#define ltt_analysis_longest(a, k, t0, t1, n, out) \
	ltt_analysis_longest_sized((a), (k), (t0), (t1), (n), (out), sizeof(**(out)))

/* ---- CPU usage -------------------------------------------------------------
 *
 * From the model's own accounting (the numbers of ltt_state_cpu_times()),
 * sampled where each process goes on and off a CPU, so that any range can
 * be asked for after the pass. A CPU is busy when it does not run its idle
 * task in idle mode (an interrupt on an idle CPU is busy). Times past the
 * last event read count nothing.
 */
uint64_t ltt_analysis_process_cpu_ns(const ltt_analysis *a, unsigned process,
				     int64_t t0, int64_t t1);
uint64_t ltt_analysis_cpu_busy_ns(const ltt_analysis *a, unsigned cpu,
				  int64_t t0, int64_t t1);
/* Where the data begins and ends: the first and last event applied (or
 * the time given to ltt_analysis_extend()). */
int64_t ltt_analysis_first_ns(const ltt_analysis *a);
int64_t ltt_analysis_last_ns(const ltt_analysis *a);
/* Nothing happened from the last event applied up to t: a tool that stops
 * reading at the end of a range (having seen an event after it) says so,
 * and CPU time counts up to t. */
void ltt_analysis_extend(ltt_analysis *a, int64_t t);

typedef struct ltt_analysis_top_row {
	unsigned process;		/* state process index */
	uint64_t ns;			/* CPU time in the range */
} ltt_analysis_top_row;

/* Processes (idle tasks excluded) with CPU time in [t0, t1], busiest
 * first (ties: by index), rows of row_size bytes; free() *out. Returns
 * the number of rows; 0 and *out NULL for a size below 0.7.0's. */
unsigned ltt_analysis_cpu_top_sized(const ltt_analysis *a, int64_t t0, int64_t t1,
				    ltt_analysis_top_row **out, size_t row_size);
#define ltt_analysis_cpu_top(a, t0, t1, out) \
	ltt_analysis_cpu_top_sized((a), (t0), (t1), (out), sizeof(**(out)))

/* ---- Critical path -----------------------------------------------------------
 *
 * What a process waited on, as Trace Compass draws it: walking back from
 * its exit (or the end of the trace), while the process runs the path is
 * the process; where it waited for a CPU (preempted, or woken and not yet
 * on a CPU) the path is that wait; where it was blocked, the path goes to
 * the task that woke it, up to the wakeup, and goes on from there with
 * that task; a task woken by an interrupt, a softirq or the idle task was
 * blocked on a timer (the IRQ or softirq is named "...timer...") or on a
 * device: that block is the path. The path ends at the process's birth
 * (or the start of the trace). It is the same whatever range is asked:
 * the range only picks the segments that overlap it, never cut.
 */
typedef enum ltt_path_kind {
	LTT_PATH_RUNNING = 0,		/* the process ran */
	LTT_PATH_WAIT_CPU,		/* runnable, waiting for a CPU */
	LTT_PATH_BLOCKED_DEVICE,	/* blocked until a device's interrupt woke it */
	LTT_PATH_UNKNOWN,
	LTT_PATH_BLOCKED_TIMER,		/* blocked until a timer woke it */
	/* blocked until a task woke it: in futex (LOCK) or not (TASK). As a
	 * kind, where the path cannot go on with that task (itself, or a
	 * task that the trace says was not running); else in `via` */
	LTT_PATH_BLOCKED_LOCK,
	LTT_PATH_BLOCKED_TASK,
	LTT_PATH_NUM_KINDS
} ltt_path_kind;

/* "running", "wait_cpu", "blocked_device", "unknown", "blocked_timer",
 * "blocked_lock", "blocked_task" */
const char *ltt_path_kind_name(ltt_path_kind k);

typedef struct ltt_path_segment {
	int64_t start_ns, end_ns;
	int32_t process;		/* state process index */
	uint8_t kind;			/* ltt_path_kind */
	uint32_t cpu;			/* BLOCKED_DEVICE, _TIMER: the CPU of the wakeup */
	uint8_t waker_kind;		/* BLOCKED_DEVICE, _TIMER: IRQ, SOFTIRQ... */
	/* a segment of another task than the one asked: why the path came
	 * to it (BLOCKED_LOCK or BLOCKED_TASK: it woke `woke`, blocked on
	 * it); else 0 and -1 */
	uint8_t via;
	int32_t woke;
	/* BLOCKED_DEVICE, _TIMER: the IRQ line or softirq vector that woke
	 * it (LTT_WAKER_ID_NONE: not known) */
	uint16_t waker_id;
} ltt_path_segment;

/* The critical path of process index p over its life: the segments that
 * overlap [t0, t1] (whole, not cut), of seg_size bytes; free() *out.
 * Returns the number of segments; 0 and *out NULL for a size below
 * 0.7.0's. */
size_t ltt_analysis_critical_path_sized(const ltt_analysis *a, unsigned p, int64_t t0,
					int64_t t1, ltt_path_segment **out, size_t seg_size);
#define ltt_analysis_critical_path(a, p, t0, t1, out) \
	ltt_analysis_critical_path_sized((a), (p), (t0), (t1), (out), sizeof(**(out)))

#endif /* LTTTRACE_ANALYSIS_H */
