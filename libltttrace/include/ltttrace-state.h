/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * ltttrace-state.h - the system state a kernel trace describes: processes,
 * what each CPU runs, interrupt lines and softirqs; and an index of a whole
 * trace for viewers (checkpoints to seek by time, state intervals to draw).
 *
 * Included by ltttrace.h; do not include it directly.
 *
 * Two objects:
 *
 *   ltt_state        the model. Feed it events in time order with
 *                    ltt_state_process_event(); ask it what every process
 *                    and CPU is doing "now" (the time of the last event).
 *
 *   ltt_state_index  one pass over a trace (ltt_state_index_run(), in
 *                    slices, so that a viewer can show progress) that saves
 *                    a copy of the model every N events (a checkpoint) and
 *                    the history of every row (process, CPU, IRQ, softirq)
 *                    as a list of (time, kind) changes.  Then:
 *                      ltt_state_index_seek()       state at any time T:
 *                                                   restore the last
 *                                                   checkpoint before T,
 *                                                   replay at most N events
 *                                                   (a checkpoint keeps only
 *                                                   the processes that can
 *                                                   still change);
 *                      ltt_state_index_intervals()  the (start, end, kind)
 *                                                   intervals of a row in a
 *                                                   time range, merged below
 *                                                   a resolution in
 *                                                   proportion: O(pixels);
 *                      ltt_state_index_durations()  the time a row spent in
 *                                                   each kind over a range.
 *
 *	ltt_state_index *idx = ltt_state_index_new(&trace, 1, NULL, &err);
 *	while ((r = ltt_state_index_run(idx, 100000, &err)) > 0)
 *		show_progress(ltt_state_index_progress(idx));
 *	ltt_state_index_intervals(idx, LTT_STATE_ROW_PROCESS, i, t0, t1,
 *				  ns_per_pixel, draw_one, cr);
 *
 * How events change the model (facilities are described in facilities/):
 *
 *   statedump.enumerate_process_state  a process that exists at trace
 *                                      start: name, parent, tgid, status,
 *                                      mode (user threads: USER_MODE below)
 *   process.fork         new child: WAIT_FORK, name of its parent, mode
 *                        stack USER_MODE+SYSCALL (it returns from clone);
 *                        a live process with that pid is retired (DEAD)
 *   process.kernel_thread new kernel thread: WAIT_FORK, mode SYSCALL
 *                        (both ignored for pid 0: nothing forks the idle task)
 *   process.schedchange  out: WAIT_CPU if out_state is RUNNING, ZOMBIE if
 *                        it had exited (or EXIT_ZOMBIE), DEAD for EXIT_DEAD,
 *                        WAIT otherwise;  in: RUN on this CPU
 *   process.wakeup       WAIT -> WAIT_CPU
 *   process.exit         EXIT (it still runs until it schedules out)
 *   process.free         DEAD; the pid may be reused by a new process
 *   fs.exec              name = base name of the file
 *   kernel.*_entry/exit  push/pop SYSCALL, TRAP, IRQ, SOFTIRQ on the mode
 *                        stack of the process running on the event's CPU.
 *                        An exit without its entry (the entry came before
 *                        the trace) leaves USER_MODE for a user process.
 *   statedump.interrupt  the name of an IRQ line
 *   kernel.soft_irq_*    also: the softirq (by id, named by its label) is
 *                        busy while any CPU runs it
 *
 * A CPU's events before its first schedchange belong to the task that
 * this schedchange switches out (`out`): the model looks it up when it
 * first meets a trace (reading each CPU's files up to their first
 * schedchange) and credits that time to it from the CPU's first event, in
 * the mode that the CPU's first system call event before the switch tells
 * (an exit: it was in a system call; an entry: in user mode). A
 * CPU that never switches is taken to run its idle task (pid 0, one per
 * CPU, named "swapper/N"), as LTTV does.  The model is of one machine:
 * merged traces share pids and CPU numbers.
 *
 * Limits: CPUs 0..4095 and softirqs 0..31 are followed; events beyond
 * them are counted (ltt_state_num_ignored()), never silently dropped.
 *
 * Threads: an object is used by one thread at a time. A viewer that
 * indexes in a worker thread reads snapshots of the index in the others:
 * ltt_state_index_snapshot() (in the worker, between two runs) gives a
 * frozen copy of what is indexed so far, that another thread queries with
 * no lock while the worker goes on, and frees when it has a newer one.
 * Two threads must not read one ltt_trace (the library notes warnings in
 * it as it reads): a snapshot that seeks in another thread reads traces
 * that thread opened.
 */
#ifndef LTTTRACE_STATE_H
#define LTTTRACE_STATE_H

#ifndef LTTTRACE_H
#error "include ltttrace.h, not ltttrace-state.h"
#endif

/* Scheduling status; the values of statedump's process_status enum. */
typedef enum ltt_state_status {
	LTT_STATE_UNNAMED = 0,		/* nothing known yet */
	LTT_STATE_WAIT_FORK,		/* created, never ran */
	LTT_STATE_WAIT_CPU,		/* runnable, waiting for a CPU */
	LTT_STATE_EXIT,			/* exiting, still on its CPU */
	LTT_STATE_ZOMBIE,		/* exited, not yet reaped */
	LTT_STATE_WAIT,			/* blocked */
	LTT_STATE_RUN,			/* on a CPU */
	LTT_STATE_DEAD,			/* freed */
	LTT_STATE_NUM_STATUS
} ltt_state_status;

/* Execution mode; the values of statedump's execution_mode enum. */
typedef enum ltt_state_mode {
	LTT_STATE_USER_MODE = 0,
	LTT_STATE_SYSCALL,
	LTT_STATE_TRAP,
	LTT_STATE_IRQ,
	LTT_STATE_SOFTIRQ,
	LTT_STATE_MODE_UNKNOWN,
	LTT_STATE_NUM_MODES
} ltt_state_mode;

/*
 * What a row shows at a time: the mode of a running process (the first six
 * values are those of ltt_state_mode), else its status. CPU rows use the
 * running modes and IDLE; IRQ rows use IRQ and IDLE, softirq rows SOFTIRQ
 * and IDLE.
 */
typedef enum ltt_state_kind {
	LTT_STATE_KIND_USER = 0,
	LTT_STATE_KIND_SYSCALL,
	LTT_STATE_KIND_TRAP,
	LTT_STATE_KIND_IRQ,
	LTT_STATE_KIND_SOFTIRQ,
	LTT_STATE_KIND_RUN_UNKNOWN,	/* running, mode unknown */
	LTT_STATE_KIND_IDLE,		/* idle task running; CPU or IRQ idle */
	LTT_STATE_KIND_WAIT,
	LTT_STATE_KIND_WAIT_CPU,
	LTT_STATE_KIND_WAIT_FORK,
	LTT_STATE_KIND_EXIT,
	LTT_STATE_KIND_ZOMBIE,
	LTT_STATE_KIND_DEAD,
	LTT_STATE_KIND_UNKNOWN,		/* status not known yet */
	LTT_STATE_NUM_KINDS
} ltt_state_kind;

const char *ltt_state_status_name(ltt_state_status s);	/* "WAIT_CPU" */
const char *ltt_state_mode_name(ltt_state_mode m);	/* "SYSCALL" */
const char *ltt_state_kind_name(ltt_state_kind k);	/* "WAIT_CPU", "IDLE" */

/* ---- The model ------------------------------------------------------------ */

typedef struct ltt_state ltt_state;

ltt_state *ltt_state_new(void);
void ltt_state_free(ltt_state *st);

/*
 * Apply one event (events must come in time order). Events that say
 * nothing about the state are ignored cheaply: the facility and field
 * indexes are resolved once per event type. Returns 1 if the event changed
 * the model, 0 if not.
 */
int ltt_state_process_event(ltt_state *st, const ltt_event *ev);

/*
 * Events that changed nothing because they are beyond the model's limits
 * (a CPU number above 4095, a softirq above 31), and the first reason
 * ("cpu 5000: the model follows CPUs 0..4095"), NULL when none: a tool
 * says so rather than show a partial picture as the whole.
 */
uint64_t ltt_state_num_ignored(const ltt_state *st);
const char *ltt_state_ignored_reason(const ltt_state *st);

/* Time of the last event applied (INT64_MIN before any). */
int64_t ltt_state_time(const ltt_state *st);
uint64_t ltt_state_num_events(const ltt_state *st);

/*
 * Processes, by index: 0 .. ltt_state_num_processes() - 1, in the order
 * they were first seen. A pid reused after process.free gets a new index;
 * the idle task has one index per CPU. Indexes are stable: an index means
 * the same process in the model, in its index and after a seek.
 */
unsigned ltt_state_num_processes(const ltt_state *st);

#define LTT_STATE_NAME_MAX 48	/* longer names are cut */

typedef struct ltt_state_process_info {
	unsigned pid, tgid, ppid;
	const char *name;		/* "" when not known (valid until the next call on st) */
	ltt_state_status status;
	ltt_state_mode mode;		/* top of the mode stack */
	/* what it is in: the system call ("openat"), trap ("page_fault"),
	 * IRQ ("local_timer") or softirq ("TIMER") by name; NULL if not
	 * known (valid while the trace is open) */
	const char *mode_name;
	unsigned mode_depth;		/* entries on the stack */
	int cpu;			/* CPU it runs on; else the last one; -1: never ran */
	int kernel_thread;
	int64_t birth_ns;		/* first seen (fork, state dump, first run) */
	int before_trace;		/* from the state dump, or an idle task */
	int64_t death_ns;		/* process.free, or INT64_MAX */
	/* time on a CPU per mode, up to ltt_state_time() */
	uint64_t cpu_ns[LTT_STATE_NUM_MODES];
} ltt_state_process_info;

/* 0, or -1 if i is out of range. */
int ltt_state_process_sized(const ltt_state *st, unsigned i,
			    ltt_state_process_info *out, size_t size);
#define ltt_state_process(st, i, out) \
	ltt_state_process_sized((st), (i), (out), sizeof(*(out)))
ltt_state_kind ltt_state_process_kind(const ltt_state *st, unsigned i);
/* The live process with this pid (pid 0: the idle task of cpu), or -1. */
int ltt_state_find_process(const ltt_state *st, unsigned pid, unsigned cpu);

/* CPUs seen so far: 0 .. ltt_state_num_cpus() - 1. */
unsigned ltt_state_num_cpus(const ltt_state *st);
/* Index of the process running on cpu, or -1. */
int ltt_state_cpu_process(const ltt_state *st, unsigned cpu);
ltt_state_kind ltt_state_cpu_kind(const ltt_state *st, unsigned cpu);

/* Interrupt lines seen (state dump or irq_entry), by index. */
unsigned ltt_state_num_irqs(const ltt_state *st);
typedef struct ltt_state_irq_info {
	unsigned id;			/* the irq number */
	const char *name;		/* handler from the state dump, or "" */
	int cpu;			/* CPU handling it now, or -1 */
	uint64_t count;			/* irq_entry events so far */
	uint64_t busy_ns;		/* time in the handler so far */
} ltt_state_irq_info;
int ltt_state_irq_sized(const ltt_state *st, unsigned i, ltt_state_irq_info *out,
			size_t size);
#define ltt_state_irq(st, i, out) ltt_state_irq_sized((st), (i), (out), sizeof(*(out)))

/* Softirqs seen (kernel.soft_irq_entry), by index in order of first sight. */
unsigned ltt_state_num_softirqs(const ltt_state *st);
typedef struct ltt_state_softirq_info {
	unsigned id;			/* the softirq number */
	const char *name;		/* its label ("TIMER"), or "" */
	unsigned running;		/* CPUs handling it now */
	uint64_t count;			/* soft_irq_entry events so far */
	uint64_t busy_ns;		/* time in it so far, summed over CPUs */
} ltt_state_softirq_info;
int ltt_state_softirq_sized(const ltt_state *st, unsigned i,
			    ltt_state_softirq_info *out, size_t size);
#define ltt_state_softirq(st, i, out) \
	ltt_state_softirq_sized((st), (i), (out), sizeof(*(out)))

/* Make dst (from ltt_state_new()) a copy of src, e.g. the model at the
 * start of a range while src goes on to its end. */
void ltt_state_copy(ltt_state *dst, const ltt_state *src);

/*
 * CPU time of each process in the range [t0, t1]: the one computation
 * behind lttv-text --process-stats and lttv-gtk's Statistics. `to` is the
 * model at t1 (every event before t1 applied, none after), `from` the
 * model at t0 (NULL: nothing before, as at the start of the trace); both
 * of the same traces, so that process indexes match. The slice a task is
 * running at t0 or t1 counts up to that time exactly. The rows with time
 * in the range, busiest first (by total, which leaves out an idle task's
 * idle loop: the idle tasks come after the processes that worked more
 * than their interrupts did; ties: by index), names as at t1; the
 * caller releases *out with free(). Returns the number of rows. The rows
 * are of the caller's sizeof(ltt_state_cpu_time) (ltttrace.h, "Sized structs").
 *
 * Callers clamp t1 to where the data ends (ltt_trace_info.last_event_ns):
 * past the last event nothing is known, so nothing is charged.
 */
typedef struct ltt_state_cpu_time {
	unsigned index;			/* process index */
	unsigned pid, tgid;
	char name[LTT_STATE_NAME_MAX];
	uint64_t ns[LTT_STATE_NUM_MODES];
	uint64_t total;			/* of ns[]: time spent working */
	/* an idle task (pid 0): the time in its idle loop, which the model
	 * keeps as its user mode; it is not in ns[] nor in total */
	uint64_t idle;
} ltt_state_cpu_time;
unsigned ltt_state_cpu_times_sized(const ltt_state *from, int64_t t0,
				   const ltt_state *to, int64_t t1,
				   ltt_state_cpu_time **out, size_t row_size);
#define ltt_state_cpu_times(from, t0, to, t1, out) \
	ltt_state_cpu_times_sized((from), (t0), (to), (t1), (out), sizeof(**(out)))

/* ---- The index: checkpoints and row histories ------------------------------ */

typedef struct ltt_state_index ltt_state_index;

typedef struct ltt_state_index_options {
	size_t size;		/* sizeof(ltt_state_index_options) */
	/* a checkpoint every this many events (0: 100000) */
	uint64_t checkpoint_events;
	/* threads that ltt_state_index_run() uses: 1, the caller's alone;
	 * 2, the caller's reads the events and runs the state engine while
	 * a second one records and codes the rows' changes (0: 2 if the
	 * machine has two processors or more, else 1; more than 2: 2).
	 * The index is the same, byte for byte, either way. */
	unsigned threads;
	/* 1: the traces are being written (opened with ltt_open_options.live,
	 * lttv-gtk --follow). A run indexes only what no sub-buffer still to
	 * come can precede: the events before the horizon, the earliest end of
	 * the last whole sub-buffer of the tracefiles that have one (but the
	 * facility table, and a file 2 s of trace time behind the others: a
	 * quiet channel would hold everything back); it then returns 0 with
	 * ltt_state_index_done() 1, its rows left open. Then
	 * ltt_state_index_extend() carries it on over the traces opened again,
	 * and ltt_state_index_to_end() past the horizon once they stop growing. */
	unsigned live;
} ltt_state_index_options;

/* The traces must outlive the index. opt may be NULL. */
ltt_state_index *ltt_state_index_new(ltt_trace *const *traces, size_t n,
				     const ltt_state_index_options *opt,
				     ltt_error **err);
void ltt_state_index_free(ltt_state_index *idx);

/*
 * Index up to max_events more events. 1: more to do; 0: the whole trace
 * is indexed (live: up to the horizon, see options.live); -1: read error (what was indexed stays usable). Between
 * runs, the index may be snapshotted, read or freed (from the thread that
 * runs it). With two threads, the second one may still be coding what
 * this run read when it returns; the calls that read the index wait for
 * it first.
 */
int ltt_state_index_run(ltt_state_index *idx, uint64_t max_events,
			ltt_error **err);
/*
 * A live index (options.live) carried on over its traces opened again (the
 * same directories, grown: traces[i] for the i-th), so that the next runs
 * index only what is new; the old traces may be closed once this returned
 * 0 (the index reads only the new ones, and keeps no pointer into the old
 * ones but to the facility descriptions, which live traces share). The
 * same process and row numbers, checkpoints and rows as an index of the
 * new traces built from their start: the new events all come after what
 * was indexed. 1, with *why (g_free it): it cannot be, index the new
 * traces from their start instead (a file shrank, was replaced or is
 * gone; the facility table or a CPU's first task changed; a new
 * sub-buffer or tracefile holds events before what was indexed; a CTF
 * trace). -1 with *err: not a live index, or indexing now. Not on a
 * snapshot; the index must be settled (its last run returned 0).
 */
int ltt_state_index_extend(ltt_state_index *idx, ltt_trace *const *traces, size_t n,
			   char **why, ltt_error **err);
/* A live index goes past its horizon to the end of what its traces hold
 * (they stopped growing); the next ltt_state_index_extend() then accepts
 * only events after the last one indexed. */
void ltt_state_index_to_end(ltt_state_index *idx);
/* Where a live index stops (INT64_MAX: at the end; INT64_MIN: nothing yet). */
int64_t ltt_state_index_horizon_ns(const ltt_state_index *idx);

/* 0..1, by time. */
double ltt_state_index_progress(const ltt_state_index *idx);
int ltt_state_index_done(const ltt_state_index *idx);
/* First and last event times of the traces (from their headers). */
int64_t ltt_state_index_start_ns(const ltt_state_index *idx);
int64_t ltt_state_index_end_ns(const ltt_state_index *idx);
/* Time up to which rows are known (the last event indexed). */
int64_t ltt_state_index_indexed_ns(const ltt_state_index *idx);
uint64_t ltt_state_index_num_events(const ltt_state_index *idx);
unsigned ltt_state_index_num_checkpoints(const ltt_state_index *idx);
uint64_t ltt_state_index_num_changes(const ltt_state_index *idx);
/* Bytes the index holds: checkpoints, row logs and its model (allocated
 * room, without the mapped trace nor the allocator's overhead). */
size_t ltt_state_index_memory(const ltt_state_index *idx);

/*
 * A snapshot of idx: an index that holds what idx had indexed when it was
 * taken and never changes (ltt_state_index_run() on it fails). The queries
 * below work on it as on idx, from any one thread, with no lock, while idx
 * goes on indexing in its own thread (the worker publishes immutable
 * snapshots; the UI never waits). Cheap: the row logs and checkpoints are
 * shared (they only grow, and a snapshot reads only what it saw; what idx
 * replaces is kept until no snapshot can read it), the model is copied.
 *
 * Take it in the thread that runs idx, or when no thread does; idx may be
 * a snapshot (another copy of it, e.g. for a second reading thread), and
 * then any thread may take it, even while another reads idx. Its
 * seeks read traces (n of them, the same directories as idx's in the same
 * order, opened for the thread that will read the snapshot), or idx's own
 * when traces is NULL (only for a snapshot read where idx's traces are not
 * being read). Free it with ltt_state_index_free(), in any thread, before
 * or after idx; the traces must outlive it.
 */
ltt_state_index *ltt_state_index_snapshot(ltt_state_index *idx, ltt_trace *const *traces,
					  size_t n);

/*
 * The model at the end of what is indexed: every process, CPU and IRQ
 * seen, for the rows of a viewer (names as they are at that time).
 */
const ltt_state *ltt_state_index_state(const ltt_state_index *idx);

/*
 * Set *out to the model after every event with time < t: restore the last
 * checkpoint at or before t and replay from there (at most
 * checkpoint_events events, plus those sharing its time). out must have
 * been made with ltt_state_new(); its previous content is replaced. Works
 * beyond what is indexed (it then replays further). 0, or -1 on read error.
 */
int ltt_state_index_seek(ltt_state_index *idx, int64_t t, ltt_state *out,
			 ltt_error **err);

typedef enum ltt_state_row_type {
	LTT_STATE_ROW_PROCESS,		/* by process index */
	LTT_STATE_ROW_CPU,		/* by CPU number */
	LTT_STATE_ROW_IRQ,		/* by IRQ index (ltt_state_irq) */
	LTT_STATE_ROW_SOFTIRQ,		/* by softirq index (ltt_state_softirq) */
} ltt_state_row_type;

typedef void (*ltt_state_interval_fn)(void *user, int64_t start, int64_t end,
				      ltt_state_kind kind);

/*
 * Call fn for the intervals of one row that overlap [t0, t1), in time
 * order, clipped to [t0, t1) and to what is indexed. Neighbours of the same
 * kind are merged. Where several changes fall within ns_per_pixel of each
 * other, they become intervals of ns_per_pixel ("pixels"), each of one of
 * the kinds spent in it, chosen so that along the row the time drawn in
 * each kind follows the time spent in it (error diffusion: a kind spent
 * 30 % of the time in short bursts shows in 3 pixels out of 10, a kind
 * that fills most of a pixel shows unless it is owed nothing). The
 * number of calls is at most about 2 * (t1 - t0) / ns_per_pixel.
 * ns_per_pixel <= 0: every interval. Nothing is called before the row's
 * first known state. Returns the number of calls, or -1 if the row does not
 * exist.
 */
long ltt_state_index_intervals(const ltt_state_index *idx,
			       ltt_state_row_type type, unsigned i,
			       int64_t t0, int64_t t1, int64_t ns_per_pixel,
			       ltt_state_interval_fn fn, void *user);

/*
 * The time one row spent in each kind over [t0, t1), clipped as the
 * intervals are: dur[kind] in ns (0 before the row's first known state).
 * O(log changes), at any span. 0, or -1 if the row does not exist.
 */
int ltt_state_index_durations(const ltt_state_index *idx, ltt_state_row_type type,
			      unsigned i, int64_t t0, int64_t t1,
			      int64_t dur[LTT_STATE_NUM_KINDS]);

#endif /* LTTTRACE_STATE_H */
