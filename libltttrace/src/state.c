/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * state.c - replay events into a model of the traced system: processes
 * (status, mode stack, names), what each CPU runs, IRQ lines. The rules are
 * listed at the top of ltttrace-state.h.
 *
 * Speed: each event type is resolved once per trace into a handler number
 * and its field indexes (st_type), kept in a table indexed by facility id
 * and event id; an event that changes nothing costs two array lookups.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "prefault.h"
#include "sized.h"
#include "state-internal.h"
#include "value-text.h"

enum {
	ST_H_NONE = 0,
	ST_H_FORK, ST_H_KTHREAD, ST_H_EXIT, ST_H_FREE, ST_H_WAKEUP, ST_H_SCHED,
	ST_H_SYS_ENTRY, ST_H_SYS_EXIT, ST_H_TRAP_ENTRY, ST_H_TRAP_EXIT,
	ST_H_IRQ_ENTRY, ST_H_IRQ_EXIT, ST_H_SOFTIRQ_ENTRY, ST_H_SOFTIRQ_EXIT,
	ST_H_EXEC, ST_H_ENUM, ST_H_INTERRUPT, ST_H_LTTNG_SCHED,
	ST_H_UNRESOLVED = 0xFF
};

static const struct {
	const char *facility, *event;
	uint8_t handler;
	const char *fields[8];
	const char *named;		/* the field naming the mode entered */
} handlers[] = {
	{ "process", "fork", ST_H_FORK, { "parent_pid", "child_pid", "child_tgid" } },
	{ "process", "kernel_thread", ST_H_KTHREAD, { "pid" } },
	{ "process", "exit", ST_H_EXIT, { "pid" } },
	{ "process", "free", ST_H_FREE, { "pid" } },
	{ "process", "wakeup", ST_H_WAKEUP, { "pid" } },
	{ "process", "schedchange", ST_H_SCHED, { "out", "in", "out_state" } },
	{ "kernel_arch", "syscall_entry", ST_H_SYS_ENTRY, { 0 }, "syscall_id" },
	{ "kernel_arch", "syscall_exit", ST_H_SYS_EXIT, { 0 } },
	{ "kernel", "trap_entry", ST_H_TRAP_ENTRY, { 0 }, "trap_id" },
	{ "kernel", "trap_exit", ST_H_TRAP_EXIT, { 0 } },
	{ "kernel", "irq_entry", ST_H_IRQ_ENTRY, { "irq_id" }, "irq_id" },
	{ "kernel", "irq_exit", ST_H_IRQ_EXIT, { 0 } },
	{ "kernel", "soft_irq_entry", ST_H_SOFTIRQ_ENTRY, { "softirq_id" }, "softirq_id" },
	{ "kernel", "soft_irq_exit", ST_H_SOFTIRQ_EXIT, { "softirq_id" } },
	{ "fs", "exec", ST_H_EXEC, { "filename" } },
	{ "statedump", "enumerate_process_state", ST_H_ENUM,
	  { "pid", "parent_pid", "name", "type", "mode", "status", "tgid" } },
	{ "statedump", "interrupt", ST_H_INTERRUPT, { "irq_id", "action" } },
};

/*
 * LTTng 2.13's kernel events (lttng-modules' probes, names as the trace
 * declares them, fields without LTTng's leading '_'), matched by name in
 * whatever facility ctf-trace.c put them. The system calls
 * (syscall_entry_NAME, syscall_exit_NAME) are matched by prefix:
 * ltt_state__lttng_syscall(). Where the meaning differs from the 2006
 * event, the handler says so: sched_switch's prev_state is the kernel's
 * task state bit (ST_H_LTTNG_SCHED); the statedump's process type, mode
 * and status are LTTV's own enums, which LTTng kept.
 */
static const struct {
	const char *event;
	uint8_t handler;
	const char *fields[8];
} lttng_handlers[] = {
	{ "sched_switch", ST_H_LTTNG_SCHED,
	  { "prev_tid", "next_tid", "prev_state", "prev_comm", "next_comm" } },
	{ "sched_waking", ST_H_WAKEUP, { "tid" } },
	{ "sched_wakeup", ST_H_WAKEUP, { "tid" } },
	{ "sched_wakeup_new", ST_H_WAKEUP, { "tid" } },
	{ "sched_process_fork", ST_H_FORK, { "parent_tid", "child_tid", "child_pid" } },
	{ "sched_process_exec", ST_H_EXEC, { "filename" } },
	{ "sched_process_exit", ST_H_EXIT, { "tid" } },
	{ "sched_process_free", ST_H_FREE, { "tid" } },
	{ "irq_handler_entry", ST_H_IRQ_ENTRY, { "irq", "name" } },
	{ "irq_handler_exit", ST_H_IRQ_EXIT, { 0 } },
	{ "irq_softirq_entry", ST_H_SOFTIRQ_ENTRY, { "vec" } },
	{ "irq_softirq_exit", ST_H_SOFTIRQ_EXIT, { "vec" } },
	{ "lttng_statedump_process_state", ST_H_ENUM,
	  { "tid", "ppid", "name", "type", "mode", "status", "pid" } },
	{ "lttng_statedump_interrupt", ST_H_INTERRUPT, { "irq", "action" } },
};

/* The kernel's softirq numbers (include/linux/interrupt.h, unchanged
 * since 2.6.35 but for BLOCK_IOPOLL's rename): LTTng writes the number
 * alone, where our kernel's softirq_id was an enum with these labels. */
const char *ltt_state__lttng_softirq_name(uint64_t vec)
{
	static const char *const n[] = { "HI", "TIMER", "NET_TX", "NET_RX", "BLOCK",
		"IRQ_POLL", "TASKLET", "SCHED", "HRTIMER", "RCU" };

	return vec < G_N_ELEMENTS(n) ? n[vec] : NULL;
}

/* sched_switch's prev_state (lttng-modules: the task_state index as a
 * bit, TASK_REPORT_MAX for a preempted task) as our kernel's out_state:
 * running, zombie, dead or waiting. */
static uint64_t lttng_out_state(uint64_t s)
{
	if (s == 0 || s >= 0x100)	/* TASK_RUNNING, or preempted */
		return 0;
	if (s == 0x20)			/* EXIT_ZOMBIE */
		return 16;
	if (s == 0x10)			/* EXIT_DEAD */
		return 32;
	return 1;			/* S, D, T, t, P, I: waiting */
}

const char *ltt_state__lttng_syscall(const char *event, int *exit)
{
	if (g_str_has_prefix(event, "compat_"))
		event += 7;
	if (g_str_has_prefix(event, "syscall_entry_")) {
		*exit = 0;
		return event + 14;
	}
	if (g_str_has_prefix(event, "syscall_exit_")) {
		*exit = 1;
		return event + 13;
	}
	return NULL;
}

/* task_state values of process.xml */
#define TASK_RUNNING	0
#define TASK_ZOMBIE	16
#define TASK_DEAD	32

/* ---- names ----------------------------------------------------------------- */

const char *ltt_state_status_name(ltt_state_status s)
{
	static const char *const n[] = { "UNNAMED", "WAIT_FORK", "WAIT_CPU", "EXIT",
					 "ZOMBIE", "WAIT", "RUN", "DEAD" };
	return (unsigned)s < LTT_STATE_NUM_STATUS ? n[s] : "?";
}

const char *ltt_state_mode_name(ltt_state_mode m)
{
	static const char *const n[] = { "USER_MODE", "SYSCALL", "TRAP", "IRQ",
					 "SOFTIRQ", "MODE_UNKNOWN" };
	return (unsigned)m < LTT_STATE_NUM_MODES ? n[m] : "?";
}

const char *ltt_state_kind_name(ltt_state_kind k)
{
	static const char *const n[] = { "USER_MODE", "SYSCALL", "TRAP", "IRQ",
		"SOFTIRQ", "RUN_UNKNOWN", "IDLE", "WAIT", "WAIT_CPU", "WAIT_FORK",
		"EXIT", "ZOMBIE", "DEAD", "UNKNOWN" };
	return (unsigned)k < LTT_STATE_NUM_KINDS ? n[k] : "?";
}

/* ---- the model ----------------------------------------------------------- */

ltt_state *ltt_state_new(void)
{
	ltt_state *st = g_new0(ltt_state, 1);

	st->now = INT64_MIN;
	st->by_pid = g_hash_table_new(g_direct_hash, g_direct_equal);
	st->irq_by_id = g_hash_table_new(g_direct_hash, g_direct_equal);
	memset(st->sq.row_of_id, -1, sizeof(st->sq.row_of_id));
	return st;
}

void ltt_state_free(ltt_state *st)
{
	if (!st)
		return;
	for (unsigned i = 0; i < st->ncaches; i++) {
		for (unsigned f = 0; f < 256; f++)
			g_free(st->caches[i].fac[f]);
		g_free(st->caches[i].first_task);
	}
	g_free(st->caches);
	g_hash_table_destroy(st->by_pid);
	g_hash_table_destroy(st->irq_by_id);
	g_free(st->procs);
	g_free(st->cpus);
	g_free(st->irqs);
	g_free(st);
}

int64_t ltt_state_time(const ltt_state *st) { return st->now; }
uint64_t ltt_state_num_events(const ltt_state *st) { return st->events; }
unsigned ltt_state_num_processes(const ltt_state *st) { return st->nprocs; }
unsigned ltt_state_num_cpus(const ltt_state *st) { return st->ncpus; }
unsigned ltt_state_num_irqs(const ltt_state *st) { return st->nirqs; }
unsigned ltt_state_num_softirqs(const ltt_state *st) { return st->sq.n; }

void ltt_state__rebuild_pids(ltt_state *st)
{
	g_hash_table_remove_all(st->by_pid);
	for (unsigned i = 0; i < st->nprocs; i++)
		if (st->procs[i].alive && st->procs[i].pid != 0)
			g_hash_table_insert(st->by_pid,
					    GUINT_TO_POINTER(st->procs[i].pid),
					    GUINT_TO_POINTER(i + 1));
	g_hash_table_remove_all(st->irq_by_id);
	for (unsigned i = 0; i < st->nirqs; i++)
		g_hash_table_insert(st->irq_by_id, GUINT_TO_POINTER(st->irqs[i].id),
				    GUINT_TO_POINTER(i + 1));
}

void ltt_state__ensure_cpus(ltt_state *st, unsigned n)
{
	if (n <= st->ncpus)
		return;
	st->cpus = g_renew(st_cpu, st->cpus, n);
	for (unsigned c = st->ncpus; c < n; c++) {
		memset(&st->cpus[c], 0, sizeof(st->cpus[c]));
		st->cpus[c].cur = -1;
		st->cpus[c].swapper = -1;
		st->cpus[c].sirq = -1;
		st->cpus[c].last_ns = st->now;
	}
	st->ncpus = n;
}

static ltt_state_mode top(const st_proc *p)
{
	return (ltt_state_mode)p->stack[p->depth - 1];
}

/* The mode a process falls back to when its stack empties. */
static ltt_state_mode base_mode(const st_proc *p)
{
	return p->kernel_thread && p->pid != 0 ? LTT_STATE_SYSCALL : LTT_STATE_USER_MODE;
}

ltt_state_kind ltt_state__proc_kind(const ltt_state *st, const st_proc *p)
{
	switch (p->status) {
	case LTT_STATE_RUN:
		if (p->pid == 0 && top(p) == LTT_STATE_USER_MODE)
			return LTT_STATE_KIND_IDLE;
		return (ltt_state_kind)top(p);
	case LTT_STATE_WAIT: return LTT_STATE_KIND_WAIT;
	case LTT_STATE_WAIT_CPU: return LTT_STATE_KIND_WAIT_CPU;
	case LTT_STATE_WAIT_FORK: return LTT_STATE_KIND_WAIT_FORK;
	case LTT_STATE_EXIT: return LTT_STATE_KIND_EXIT;
	case LTT_STATE_ZOMBIE: return LTT_STATE_KIND_ZOMBIE;
	case LTT_STATE_DEAD: return LTT_STATE_KIND_DEAD;
	default: return LTT_STATE_KIND_UNKNOWN;
	}
}

ltt_state_kind ltt_state__cpu_kind(const ltt_state *st, unsigned cpu)
{
	const st_proc *p;

	if (cpu >= st->ncpus || st->cpus[cpu].cur < 0)
		return LTT_STATE_KIND_UNKNOWN;
	p = &st->procs[st->cpus[cpu].cur];
	if (p->pid == 0 && top(p) == LTT_STATE_USER_MODE)
		return LTT_STATE_KIND_IDLE;
	return (ltt_state_kind)top(p);
}

static void note_proc(ltt_state *st, int i)
{
	if (st->rec && i >= 0)
		ltt_state__record(st->rec, LTT_STATE_ROW_PROCESS, (unsigned)i, st->now,
				  ltt_state__proc_kind(st, &st->procs[i]));
}

static void note_cpu(ltt_state *st, unsigned c)
{
	if (st->rec)
		ltt_state__record(st->rec, LTT_STATE_ROW_CPU, c, st->now,
				  ltt_state__cpu_kind(st, c));
}

static void note_irq(ltt_state *st, int i)
{
	if (st->rec && i >= 0)
		ltt_state__record(st->rec, LTT_STATE_ROW_IRQ, (unsigned)i, st->now,
				  st->irqs[i].cpu >= 0 ? LTT_STATE_KIND_IRQ
						       : LTT_STATE_KIND_IDLE);
}

static void note_softirq(ltt_state *st, unsigned id)
{
	if (st->rec)
		ltt_state__record(st->rec, LTT_STATE_ROW_SOFTIRQ,
				  (unsigned)st->sq.row_of_id[id], st->now,
				  st->sq.by_id[id].running ? LTT_STATE_KIND_SOFTIRQ
							: LTT_STATE_KIND_IDLE);
}

/* Counts an event the model cannot follow; the first reason is kept. */
static void ignore(ltt_state *st, const char *fmt, unsigned v)
{
	if (!st->ignored++)
		snprintf(st->ignored_why, sizeof(st->ignored_why), fmt, v);
}

/* The CPU stops handling its softirq (if any). */
static void softirq_stop(ltt_state *st, st_cpu *c)
{
	st_softirq *q;

	if (c->sirq < 0)
		return;
	q = &st->sq.by_id[c->sirq];
	if (q->running)
		q->running--;
	if (st->now > c->sirq_since)
		q->busy_ns += (uint64_t)(st->now - c->sirq_since);
	note_softirq(st, (unsigned)c->sirq);
	c->sirq = -1;
}

/* Entry into (or exit from) softirq id on cpu; label names it. */
static void softirq_change(ltt_state *st, unsigned cpu, uint64_t id, const char *label,
			   int entry)
{
	st_softirq *q;
	st_cpu *c = &st->cpus[cpu];

	if (id >= ST_MAX_SOFTIRQS) {
		ignore(st, "softirq %u: the model follows softirqs 0..31", (unsigned)id);
		return;
	}
	q = &st->sq.by_id[id];
	if (st->sq.row_of_id[id] < 0) {
		st->sq.row_of_id[id] = (int8_t)st->sq.n;
		st->sq.id_of_row[st->sq.n++] = (uint8_t)id;
		g_strlcpy(q->name, label ? label : "", sizeof(q->name));
		note_softirq(st, (unsigned)id);
	}
	if (entry) {
		softirq_stop(st, c);	/* its exit was lost */
		q->running++;
		q->count++;
		c->sirq = (int32_t)id;
		c->sirq_since = st->now;
		note_softirq(st, (unsigned)id);
	} else if (c->sirq == (int32_t)id) {
		softirq_stop(st, c);
	}
}

/* A new process entry; a live one with the same pid is retired. */
static int new_proc(ltt_state *st, unsigned pid)
{
	st_proc *p;
	gpointer old;

	if (pid != 0 && (old = g_hash_table_lookup(st->by_pid, GUINT_TO_POINTER(pid)))) {
		st_proc *o = &st->procs[GPOINTER_TO_UINT(old) - 1];

		o->alive = 0;
		if (o->status != LTT_STATE_DEAD) {
			o->status = LTT_STATE_DEAD;
			o->death_ns = st->now;
			note_proc(st, (int)GPOINTER_TO_UINT(old) - 1);
		}
	}
	if (st->nprocs == st->cap_procs) {
		st->cap_procs = st->cap_procs ? 2 * st->cap_procs : 64;
		st->procs = g_renew(st_proc, st->procs, st->cap_procs);
	}
	p = &st->procs[st->nprocs];
	memset(p, 0, sizeof(*p));
	p->pid = p->tgid = pid;
	p->cpu = -1;
	p->status = LTT_STATE_UNNAMED;
	p->depth = 1;
	p->stack[0] = LTT_STATE_MODE_UNKNOWN;
	p->alive = 1;
	p->birth_ns = st->now;
	p->death_ns = INT64_MAX;
	if (pid != 0)
		g_hash_table_insert(st->by_pid, GUINT_TO_POINTER(pid),
				    GUINT_TO_POINTER(st->nprocs + 1));
	return (int)st->nprocs++;
}

static int swapper(ltt_state *st, unsigned cpu)
{
	st_cpu *c;

	ltt_state__ensure_cpus(st, cpu + 1);	/* an event about pid 0 may come first */
	c = &st->cpus[cpu];

	if (c->swapper < 0) {
		int i = new_proc(st, 0);
		st_proc *p = &st->procs[i];

		p->kernel_thread = 1;
		p->dumped = 1;		/* the idle task exists from boot */
		p->stack[0] = LTT_STATE_USER_MODE;
		p->status = LTT_STATE_WAIT_CPU;
		p->cpu = (int32_t)cpu;
		snprintf(p->name, sizeof(p->name), "swapper/%u", cpu);
		c = &st->cpus[cpu];
		c->swapper = i;
	}
	return c->swapper;
}

static int lookup(const ltt_state *st, unsigned pid)
{
	gpointer v = g_hash_table_lookup(st->by_pid, GUINT_TO_POINTER(pid));

	return v ? (int)GPOINTER_TO_UINT(v) - 1 : -1;
}

int ltt_state_find_process(const ltt_state *st, unsigned pid, unsigned cpu)
{
	if (pid == 0)
		return cpu < st->ncpus ? st->cpus[cpu].swapper : -1;
	return lookup(st, pid);
}

static int find_or_create(ltt_state *st, unsigned pid, unsigned cpu)
{
	int i;

	if (pid == 0)
		return swapper(st, cpu);
	i = lookup(st, pid);
	return i >= 0 ? i : new_proc(st, pid);
}

/* Charge the time since the last change on cpu to what ran there. */
static void account(ltt_state *st, unsigned cpu)
{
	st_cpu *c = &st->cpus[cpu];

	if (c->cur >= 0 && st->now > c->last_ns) {
		st_proc *p = &st->procs[c->cur];

		p->cpu_ns[top(p)] += (uint64_t)(st->now - c->last_ns);
	}
	c->last_ns = st->now;
}

static void push(st_proc *p, ltt_state_mode m);

/*
 * The task a CPU runs when its first event comes: the one its first
 * schedchange switches out (state-first-task.c), else its idle task.
 */
static int first_task(ltt_state *st, unsigned cpu)
{
	const st_type_cache *tc = st->ncaches ? &st->caches[st->last_cache] : NULL;

	const ltt_state_first_task *ft;
	st_proc *p;
	int i;

	if (!tc || cpu >= tc->nfirst || tc->first_task[cpu].pid <= 0)
		return swapper(st, cpu);
	ft = &tc->first_task[cpu];
	i = find_or_create(st, (unsigned)ft->pid, cpu);
	p = &st->procs[i];
	if (p->depth == 1 && p->stack[0] == LTT_STATE_MODE_UNKNOWN &&
	    ft->mode != LTT_STATE_MODE_UNKNOWN) {
		p->stack[0] = LTT_STATE_USER_MODE;
		if (ft->mode == LTT_STATE_SYSCALL)
			push(p, LTT_STATE_SYSCALL);
	}
	return i;
}

/* The CPU of an event, with its running task. */
static st_cpu *cpu_get(ltt_state *st, unsigned cpu)
{
	ltt_state__ensure_cpus(st, cpu + 1);
	if (st->cpus[cpu].cur < 0) {
		int s = first_task(st, cpu);

		st->cpus[cpu].cur = s;
		st->cpus[cpu].last_ns = st->now;
		st->procs[s].status = LTT_STATE_RUN;
		st->procs[s].cpu = (int32_t)cpu;
		note_proc(st, s);
		note_cpu(st, cpu);
	}
	account(st, cpu);
	return &st->cpus[cpu];
}

static void push(st_proc *p, ltt_state_mode m)
{
	if (p->depth < ST_MAX_DEPTH) {
		p->stack_name[p->depth] = NULL;
		p->stack[p->depth++] = (uint8_t)m;
	} else {
		p->overflow++;
	}
}

/* The name of what an entry event enters (its named field's label). */
static const char *entry_name(const ltt_event *ev, const st_type *t)
{
	ltt_value v;

	if (t->mode_name)
		return t->mode_name;
	if (t->named < 0 || ltt_event_field(ev, t->named, &v) < 0)
		return NULL;
	if (!v.label && t->lttng && t->handler == ST_H_SOFTIRQ_ENTRY)
		return ltt_state__lttng_softirq_name(v.u);
	return v.label;
}

static void pop(st_proc *p, ltt_state_mode m)
{
	if (p->overflow) {
		p->overflow--;
		return;
	}
	for (int j = p->depth - 1; j >= 0; j--) {
		if (p->stack[j] != m)
			continue;
		if (j == 0) {
			p->stack[0] = (uint8_t)base_mode(p);
			p->depth = 1;
		} else {
			p->depth = (uint8_t)j;
		}
		return;
	}
	/* its entry came before the trace */
	if (p->depth == 1)
		p->stack[0] = (uint8_t)base_mode(p);
}

/* Entry (named `name`) or exit of a mode on the running task of cpu. */
static void mode_change(ltt_state *st, unsigned cpu, ltt_state_mode m, int entry,
			const char *name)
{
	st_cpu *c = cpu_get(st, cpu);
	st_proc *p = &st->procs[c->cur];

	if (entry) {
		push(p, m);
		if (p->depth > 1 && !p->overflow && p->stack[p->depth - 1] == m)
			p->stack_name[p->depth - 1] = name;
	} else {
		pop(p, m);
	}
	note_proc(st, c->cur);
	note_cpu(st, cpu);
}

static int irq_get(ltt_state *st, unsigned id)
{
	st_irq *q;
	gpointer v = g_hash_table_lookup(st->irq_by_id, GUINT_TO_POINTER(id));

	if (v)
		return (int)GPOINTER_TO_UINT(v) - 1;
	if (st->nirqs == st->cap_irqs) {
		st->cap_irqs = st->cap_irqs ? 2 * st->cap_irqs : 16;
		st->irqs = g_renew(st_irq, st->irqs, st->cap_irqs);
	}
	q = &st->irqs[st->nirqs];
	memset(q, 0, sizeof(*q));
	q->id = id;
	q->cpu = -1;
	g_hash_table_insert(st->irq_by_id, GUINT_TO_POINTER(id), GUINT_TO_POINTER(st->nirqs + 1));
	note_irq(st, (int)st->nirqs);
	return (int)st->nirqs++;
}

static void set_name(st_proc *p, const char *name)
{
	g_strlcpy(p->name, name ? name : "", sizeof(p->name));
}

/* ---- event types ------------------------------------------------------------ */

int ltt_state_find_fields(int8_t *f, unsigned n, const ltt_event *ev,
			  const char *const *fields)
{
	for (unsigned k = 0; k < n; k++) {
		f[k] = -1;
		if (fields[k]) {
			int i = ltt_event_field_index(ev, fields[k]);

			if (i < 0)
				return 0;
			f[k] = (int8_t)i;
		}
	}
	return 1;
}

static int find_fields(st_type *t, const ltt_event *ev, const char *const fields[8])
{
	return ltt_state_find_fields(t->f, 8, ev, fields);
}

static void resolve_lttng(st_type *t, const ltt_event *ev)
{
	const char *name = ltt_event_name(ev), *sys;
	int exit;

	t->lttng = 1;
	if ((sys = ltt_state__lttng_syscall(name, &exit))) {
		memset(t->f, -1, sizeof(t->f));
		t->handler = exit ? ST_H_SYS_EXIT : ST_H_SYS_ENTRY;
		t->mode_name = exit ? NULL : sys;
		return;
	}
	for (size_t h = 0; h < G_N_ELEMENTS(lttng_handlers); h++) {
		if (strcmp(lttng_handlers[h].event, name))
			continue;
		if (find_fields(t, ev, lttng_handlers[h].fields)) {
			t->handler = lttng_handlers[h].handler;
			if (t->handler == ST_H_SOFTIRQ_ENTRY)
				t->named = t->f[0];
		}
		return;
	}
}

static const st_type *resolve(ltt_state *st, const ltt_event *ev)
{
	const ltt_trace *tr = ltt_event_trace(ev);
	unsigned fid = ltt_event_facility_id(ev) & 0xFF, eid = ltt_event_id(ev) & 0xFF;
	st_type_cache *c = NULL;
	st_type *t;

	if (st->ncaches && st->caches[st->last_cache].trace == tr) {
		c = &st->caches[st->last_cache];
	} else {
		for (unsigned i = 0; i < st->ncaches; i++)
			if (st->caches[i].trace == tr) {
				c = &st->caches[i];
				st->last_cache = i;
			}
		if (!c) {
			st->caches = g_renew(st_type_cache, st->caches, st->ncaches + 1);
			st->last_cache = st->ncaches;
			c = &st->caches[st->ncaches++];
			memset(c, 0, sizeof(*c));
			c->trace = tr;
			c->first_task = ltt_state__first_tasks(tr, &c->nfirst);
		}
	}
	if (!c->fac[fid]) {
		c->fac[fid] = g_new(st_type, 256);
		for (unsigned i = 0; i < 256; i++)
			c->fac[fid][i].handler = ST_H_UNRESOLVED;
	}
	t = &c->fac[fid][eid];
	if (t->handler != ST_H_UNRESOLVED)
		return t;
	t->handler = ST_H_NONE;
	t->named = -1;
	t->lttng = 0;
	t->mode_name = NULL;
	if (!ltt_event_is_known(ev))
		return t;
	if (tr->ctf) {
		resolve_lttng(t, ev);
		return t;
	}
	for (size_t h = 0; h < G_N_ELEMENTS(handlers); h++) {
		if (strcmp(handlers[h].event, ltt_event_name(ev)) ||
		    strcmp(handlers[h].facility, ltt_event_facility_name(ev)))
			continue;
		if (!find_fields(t, ev, handlers[h].fields))
			return t;	/* not the event we know */
		t->handler = handlers[h].handler;
		t->named = handlers[h].named
			? (int8_t)ltt_event_field_index(ev, handlers[h].named) : -1;
		break;
	}
	return t;
}

static int fget(const ltt_event *ev, int idx, uint64_t *out)
{
	ltt_value v;

	if (idx < 0 || ltt_event_field(ev, idx, &v) < 0)
		return -1;
	switch (v.kind) {
	case LTT_KIND_INT: *out = (uint64_t)v.i; return 0;
	case LTT_KIND_UINT: case LTT_KIND_POINTER: case LTT_KIND_ENUM:
		*out = v.u;
		return 0;
	default:
		return -1;
	}
}

static const char *fstr(const ltt_event *ev, int idx)
{
	ltt_value v;

	if (idx < 0 || ltt_event_field(ev, idx, &v) < 0 || v.kind != LTT_KIND_STRING)
		return NULL;
	return v.str;
}

/* A field read as text (ltt_value_text), or NULL when it is absent. */
static const char *ftext(const ltt_event *ev, int idx, size_t *len)
{
	ltt_value v;

	if (idx < 0 || ltt_event_field(ev, idx, &v) < 0)
		return NULL;
	return ltt_value_text(&v, len);
}

/* ---- handlers ------------------------------------------------------------- */

/* out_name, in_name: the tasks' names at the switch, when the event
 * gives them (LTTng's prev_comm, next_comm: a thread named after the
 * statedump, by prctl, is named so from its first switch) */
static void on_sched(ltt_state *st, unsigned cpu, unsigned out, unsigned in,
		     uint64_t out_state, const char *out_name, const char *in_name)
{
	st_cpu *c;
	st_proc *p;
	int o, i;

	ltt_state__ensure_cpus(st, cpu + 1);
	c = &st->cpus[cpu];
	account(st, cpu);
	if (c->cur >= 0 && st->procs[c->cur].pid == out)
		o = c->cur;
	else
		o = find_or_create(st, out, cpu);
	p = &st->procs[o];
	if (p->status == LTT_STATE_EXIT || out_state == TASK_ZOMBIE)
		p->status = LTT_STATE_ZOMBIE;
	else if (out_state == TASK_DEAD)
		p->status = LTT_STATE_DEAD;
	else if (out_state == TASK_RUNNING)
		p->status = LTT_STATE_WAIT_CPU;
	else
		p->status = LTT_STATE_WAIT;
	p->cpu = (int32_t)cpu;
	if (out_name && out != 0)
		set_name(p, out_name);
	note_proc(st, o);

	i = find_or_create(st, in, cpu);
	p = &st->procs[i];
	if (p->status == LTT_STATE_RUN && p->cpu >= 0 && (unsigned)p->cpu != cpu &&
	    (unsigned)p->cpu < st->ncpus && st->cpus[p->cpu].cur == i) {
		/* we missed it leaving its other CPU */
		account(st, (unsigned)p->cpu);
		st->cpus[p->cpu].cur = -1;
		note_cpu(st, (unsigned)p->cpu);
	}
	p->status = LTT_STATE_RUN;
	p->cpu = (int32_t)cpu;
	if (in_name && in != 0)
		set_name(p, in_name);
	c = &st->cpus[cpu];
	c->cur = i;
	c->last_ns = st->now;
	note_proc(st, i);
	note_cpu(st, cpu);
}

static void on_fork(ltt_state *st, unsigned parent, unsigned child, unsigned tgid,
		    unsigned cpu)
{
	int pi = parent == 0 ? (cpu < st->ncpus ? st->cpus[cpu].swapper : -1)
			     : lookup(st, parent);
	int i = new_proc(st, child);
	st_proc *p = &st->procs[i];

	p->ppid = parent;
	p->tgid = tgid ? tgid : child;
	p->status = LTT_STATE_WAIT_FORK;
	p->stack[0] = LTT_STATE_USER_MODE;
	p->stack[1] = LTT_STATE_SYSCALL;
	p->depth = 2;
	if (pi >= 0 && st->procs[pi].pid != 0) {
		set_name(p, st->procs[pi].name);
		p->kernel_thread = st->procs[pi].kernel_thread;
	}
	note_proc(st, i);
}

static void on_enum(ltt_state *st, const ltt_event *ev, const st_type *t)
{
	uint64_t pid, ppid, type, mode, status, tgid;
	st_proc *p;
	int i;

	if (fget(ev, t->f[0], &pid) || fget(ev, t->f[1], &ppid) ||
	    fget(ev, t->f[3], &type) || fget(ev, t->f[4], &mode) ||
	    fget(ev, t->f[5], &status) || fget(ev, t->f[6], &tgid) || pid == 0)
		return;
	i = lookup(st, (unsigned)pid);
	if (i < 0) {
		i = new_proc(st, (unsigned)pid);
		st->procs[i].dumped = 1;
	}
	p = &st->procs[i];
	p->ppid = (uint32_t)ppid;
	p->tgid = (uint32_t)(tgid ? tgid : pid);
	p->kernel_thread = type == 1;
	set_name(p, fstr(ev, t->f[2]));
	if (mode >= LTT_STATE_NUM_MODES)
		mode = LTT_STATE_MODE_UNKNOWN;
	/* LTTng dumps every task's mode as unknown; a kernel thread has no
	 * other mode than the kernel's, as our kernel_thread handler says */
	if (t->lttng && p->kernel_thread && mode == LTT_STATE_MODE_UNKNOWN)
		mode = LTT_STATE_SYSCALL;
	p->depth = 1;
	p->overflow = 0;
	if (p->kernel_thread || mode == LTT_STATE_USER_MODE) {
		p->stack[0] = (uint8_t)mode;
	} else {
		p->stack[0] = LTT_STATE_USER_MODE;
		p->stack[1] = (uint8_t)mode;
		p->stack_name[1] = NULL;
		p->depth = 2;
	}
	p->status = status < LTT_STATE_NUM_STATUS ? (uint8_t)status : LTT_STATE_UNNAMED;
	note_proc(st, i);
}

int ltt_state_process_event(ltt_state *st, const ltt_event *ev)
{
	const st_type *t;
	unsigned cpu = ltt_event_cpu(ev);
	uint64_t a, b, c;
	int i;

	st->events++;
	st->now = ltt_event_time_ns(ev);
	t = resolve(st, ev);
	/* a CPU's first event, of any kind, starts its clock: its task runs
	 * from there (the one its first schedchange switches out) */
	if (__builtin_expect(cpu < ST_MAX_CPUS && (cpu >= st->ncpus || st->cpus[cpu].cur < 0), 0))
		cpu_get(st, cpu);
	if (t->handler == ST_H_NONE)
		return 0;
	if (cpu >= ST_MAX_CPUS) {
		ignore(st, "cpu %u: the model follows CPUs 0..4095", cpu);
		return 0;
	}
	switch (t->handler) {
	case ST_H_SCHED:
	case ST_H_LTTNG_SCHED:
		if (fget(ev, t->f[0], &a) || fget(ev, t->f[1], &b) || fget(ev, t->f[2], &c))
			return 0;
		if (t->handler == ST_H_LTTNG_SCHED)
			on_sched(st, cpu, (unsigned)a, (unsigned)b, lttng_out_state(c),
				 fstr(ev, t->f[3]), fstr(ev, t->f[4]));
		else
			on_sched(st, cpu, (unsigned)a, (unsigned)b, c, NULL, NULL);
		return 1;
	case ST_H_SYS_ENTRY:
		mode_change(st, cpu, LTT_STATE_SYSCALL, 1, entry_name(ev, t));
		return 1;
	case ST_H_SYS_EXIT: mode_change(st, cpu, LTT_STATE_SYSCALL, 0, NULL); return 1;
	case ST_H_TRAP_ENTRY:
		mode_change(st, cpu, LTT_STATE_TRAP, 1, entry_name(ev, t));
		return 1;
	case ST_H_TRAP_EXIT: mode_change(st, cpu, LTT_STATE_TRAP, 0, NULL); return 1;
	case ST_H_SOFTIRQ_ENTRY:
	case ST_H_SOFTIRQ_EXIT: {
		int entry = t->handler == ST_H_SOFTIRQ_ENTRY;
		ltt_value v;

		mode_change(st, cpu, LTT_STATE_SOFTIRQ, entry, entry ? entry_name(ev, t) : NULL);
		if (ltt_event_field(ev, t->f[0], &v) == 0 &&
		    (v.kind == LTT_KIND_ENUM || v.kind == LTT_KIND_UINT))
			softirq_change(st, cpu, v.u,
				       v.label || !t->lttng ? v.label : ltt_state__lttng_softirq_name(v.u),
				       entry);
		return 1;
	}
	case ST_H_IRQ_ENTRY: {
		st_cpu *sc;

		if (fget(ev, t->f[0], &a))
			return 0;
		i = irq_get(st, (unsigned)a);
		mode_change(st, cpu, LTT_STATE_IRQ, 1, entry_name(ev, t));
		sc = &st->cpus[cpu];
		if (sc->irq_depth < ST_IRQ_DEPTH)
			sc->irq_stack[sc->irq_depth] = i;
		sc->irq_depth++;
		if (t->lttng && !st->irqs[i].name[0]) {
			/* irq_handler_entry names its handler; the statedump
			 * may not have (an IRQ requested after it) */
			const char *name = fstr(ev, t->f[1]);

			g_strlcpy(st->irqs[i].name, name ? name : "",
				  sizeof(st->irqs[i].name));
		}
		st->irqs[i].cpu = (int32_t)cpu;
		st->irqs[i].since_ns = st->now;
		st->irqs[i].count++;
		note_irq(st, i);
		return 1;
	}
	case ST_H_IRQ_EXIT: {
		st_cpu *sc;

		mode_change(st, cpu, LTT_STATE_IRQ, 0, NULL);
		sc = &st->cpus[cpu];
		if (sc->irq_depth == 0)
			return 1;
		sc->irq_depth--;
		if (sc->irq_depth < ST_IRQ_DEPTH) {
			st_irq *q = &st->irqs[sc->irq_stack[sc->irq_depth]];

			if (q->cpu >= 0)
				q->busy_ns += (uint64_t)(st->now - q->since_ns);
			q->cpu = -1;
			note_irq(st, sc->irq_stack[sc->irq_depth]);
		}
		return 1;
	}
	case ST_H_FORK:
		/* nothing forks the idle task: a child pid 0 is a broken event */
		if (fget(ev, t->f[0], &a) || fget(ev, t->f[1], &b) || fget(ev, t->f[2], &c) ||
		    b == 0)
			return 0;
		on_fork(st, (unsigned)a, (unsigned)b, (unsigned)c, cpu);
		return 1;
	case ST_H_KTHREAD: {
		st_cpu *sc = cpu_get(st, cpu);
		unsigned parent = st->procs[sc->cur].pid;
		st_proc *p;

		if (fget(ev, t->f[0], &a) || a == 0)
			return 0;
		/* our kernel writes the fork first (patch 0007): that child
		 * is the kernel thread, not a second task with its pid */
		i = lookup(st, (unsigned)a);
		if (i >= 0 && st->procs[i].status == LTT_STATE_WAIT_FORK) {
			p = &st->procs[i];
			p->kernel_thread = 1;
			p->stack[0] = LTT_STATE_SYSCALL;
			p->depth = 1;
			return 1;
		}
		i = new_proc(st, (unsigned)a);
		p = &st->procs[i];
		p->ppid = parent;
		p->kernel_thread = 1;
		p->stack[0] = LTT_STATE_SYSCALL;
		p->status = LTT_STATE_WAIT_FORK;
		note_proc(st, i);
		return 1;
	}
	case ST_H_EXIT:
		if (fget(ev, t->f[0], &a))
			return 0;
		i = find_or_create(st, (unsigned)a, cpu);
		if (st->procs[i].status == LTT_STATE_RUN && st->procs[i].cpu >= 0 &&
		    (unsigned)st->procs[i].cpu < st->ncpus)
			account(st, (unsigned)st->procs[i].cpu);
		st->procs[i].status = LTT_STATE_EXIT;
		note_proc(st, i);
		return 1;
	case ST_H_FREE:
		if (fget(ev, t->f[0], &a) || a == 0 || (i = lookup(st, (unsigned)a)) < 0)
			return 0;
		st->procs[i].status = LTT_STATE_DEAD;
		st->procs[i].death_ns = st->now;
		st->procs[i].alive = 0;
		g_hash_table_remove(st->by_pid, GUINT_TO_POINTER((unsigned)a));
		note_proc(st, i);
		return 1;
	case ST_H_WAKEUP: {
		st_proc *p;

		if (fget(ev, t->f[0], &a))
			return 0;
		i = find_or_create(st, (unsigned)a, cpu);
		p = &st->procs[i];
		if (p->status == LTT_STATE_WAIT || p->status == LTT_STATE_UNNAMED ||
		    p->status == LTT_STATE_WAIT_FORK) {
			p->status = LTT_STATE_WAIT_CPU;
			note_proc(st, i);
		}
		return 1;
	}
	case ST_H_EXEC: {
		size_t len, cut;
		const char *f = ftext(ev, t->f[0], &len);
		char name[LTT_STATE_NAME_MAX];
		st_cpu *sc;

		if (!f)
			return 0;
		sc = cpu_get(st, cpu);
		/* the name is the path's last component (the path itself
		 * when it ends with '/') */
		for (cut = len; cut > 0 && f[cut - 1] != '/'; cut--)
			;
		if (cut == len)
			cut = 0;
		len -= cut;
		if (len > sizeof(name) - 1)
			len = sizeof(name) - 1;
		memcpy(name, f + cut, len);
		name[len] = '\0';
		set_name(&st->procs[sc->cur], name);
		return 1;
	}
	case ST_H_ENUM:
		on_enum(st, ev, t);
		return 1;
	case ST_H_INTERRUPT: {
		const char *name = fstr(ev, t->f[1]);

		if (fget(ev, t->f[0], &a))
			return 0;
		i = irq_get(st, (unsigned)a);
		g_strlcpy(st->irqs[i].name, name ? name : "", sizeof(st->irqs[i].name));
		return 1;
	}
	}
	return 0;
}

/* ---- queries ------------------------------------------------------------- */

int ltt_state_process_sized(const ltt_state *st, unsigned i,
			    ltt_state_process_info *out, size_t size)
{
	ltt_state_process_info info = { 0 }, *const full = &info;
	const st_proc *p;

	if (i >= st->nprocs)
		return -1;
	p = &st->procs[i];
	full->pid = p->pid;
	full->tgid = p->tgid;
	full->ppid = p->ppid;
	full->name = p->name;
	full->status = (ltt_state_status)p->status;
	full->mode = top(p);
	full->mode_name = p->overflow ? NULL : p->stack_name[p->depth - 1];
	full->mode_depth = p->depth + p->overflow;
	full->cpu = p->cpu;
	full->kernel_thread = p->kernel_thread;
	full->birth_ns = p->birth_ns;
	full->before_trace = p->dumped;
	full->death_ns = p->death_ns;
	memcpy(full->cpu_ns, p->cpu_ns, sizeof(full->cpu_ns));
	if (p->cpu >= 0 && (unsigned)p->cpu < st->ncpus &&
	    st->cpus[p->cpu].cur == (int)i && st->now > st->cpus[p->cpu].last_ns)
		full->cpu_ns[top(p)] += (uint64_t)(st->now - st->cpus[p->cpu].last_ns);
	return ltt_sized_out(out, size, full, sizeof(*full),
			     LTT_END_OF(ltt_state_process_info, cpu_ns));
}

ltt_state_kind ltt_state_process_kind(const ltt_state *st, unsigned i)
{
	return i < st->nprocs ? ltt_state__proc_kind(st, &st->procs[i])
			      : LTT_STATE_KIND_UNKNOWN;
}

int ltt_state_cpu_process(const ltt_state *st, unsigned cpu)
{
	return cpu < st->ncpus ? st->cpus[cpu].cur : -1;
}

ltt_state_kind ltt_state_cpu_kind(const ltt_state *st, unsigned cpu)
{
	return ltt_state__cpu_kind(st, cpu);
}

int ltt_state_irq_sized(const ltt_state *st, unsigned i, ltt_state_irq_info *out,
			size_t size)
{
	ltt_state_irq_info info = { 0 }, *const full = &info;
	const st_irq *q;

	if (i >= st->nirqs)
		return -1;
	q = &st->irqs[i];
	full->id = q->id;
	full->name = q->name;
	full->cpu = q->cpu;
	full->count = q->count;
	full->busy_ns = q->busy_ns;
	if (q->cpu >= 0 && st->now > q->since_ns)
		full->busy_ns += (uint64_t)(st->now - q->since_ns);
	return ltt_sized_out(out, size, full, sizeof(*full),
			     LTT_END_OF(ltt_state_irq_info, busy_ns));
}

int ltt_state_softirq_sized(const ltt_state *st, unsigned i, ltt_state_softirq_info *out,
			    size_t size)
{
	ltt_state_softirq_info info = { 0 }, *const full = &info;
	const st_softirq *q;
	unsigned id;

	if (i >= st->sq.n)
		return -1;
	id = st->sq.id_of_row[i];
	q = &st->sq.by_id[id];
	full->id = id;
	full->name = q->name;
	full->running = q->running;
	full->count = q->count;
	full->busy_ns = q->busy_ns;
	for (unsigned c = 0; c < st->ncpus; c++)
		if (st->cpus[c].sirq == (int32_t)id && st->now > st->cpus[c].sirq_since)
			full->busy_ns += (uint64_t)(st->now - st->cpus[c].sirq_since);
	return ltt_sized_out(out, size, full, sizeof(*full),
			     LTT_END_OF(ltt_state_softirq_info, busy_ns));
}

uint64_t ltt_state_num_ignored(const ltt_state *st)
{
	return st->ignored;
}

const char *ltt_state_ignored_reason(const ltt_state *st)
{
	return st->ignored ? st->ignored_why : NULL;
}

/* ---- copies and CPU time over a range ---------------------------------------- */

void ltt_state__share_first_tasks(ltt_state *dst, const ltt_state *src)
{
	for (unsigned i = 0; i < src->ncaches; i++) {
		const st_type_cache *from = &src->caches[i];
		st_type_cache *c;
		unsigned j;

		for (j = 0; j < dst->ncaches && dst->caches[j].trace != from->trace; j++)
			;
		if (j < dst->ncaches)
			continue;
		dst->caches = g_renew(st_type_cache, dst->caches, dst->ncaches + 1);
		c = &dst->caches[dst->ncaches++];
		memset(c, 0, sizeof(*c));
		c->trace = from->trace;
		c->nfirst = from->nfirst;
		c->first_task = g_memdup2(from->first_task,
					  sizeof(*from->first_task) * (from->nfirst ? from->nfirst : 1));
	}
}

void ltt_state_copy(ltt_state *dst, const ltt_state *src)
{
	ltt_state__share_first_tasks(dst, src);
	dst->now = src->now;
	dst->events = src->events;
	if (dst->cap_procs < src->nprocs) {
		/* (a snapshot's model: 10 MB at 33 000 processes, fresh) */
		dst->cap_procs = src->nprocs;
		g_free(dst->procs);
		dst->procs = ltt_malloc_prefaulted(sizeof(st_proc) * dst->cap_procs);
	}
	if (src->nprocs)
		memcpy(dst->procs, src->procs, sizeof(st_proc) * src->nprocs);
	dst->nprocs = src->nprocs;
	dst->cpus = g_renew(st_cpu, dst->cpus, src->ncpus);
	if (src->ncpus)
		memcpy(dst->cpus, src->cpus, sizeof(st_cpu) * src->ncpus);
	dst->ncpus = src->ncpus;
	if (dst->cap_irqs < src->nirqs) {
		dst->cap_irqs = src->nirqs;
		dst->irqs = g_renew(st_irq, dst->irqs, dst->cap_irqs);
	}
	if (src->nirqs)
		memcpy(dst->irqs, src->irqs, sizeof(st_irq) * src->nirqs);
	dst->nirqs = src->nirqs;
	dst->sq = src->sq;
	dst->ignored = src->ignored;
	memcpy(dst->ignored_why, src->ignored_why, sizeof(dst->ignored_why));
	ltt_state__rebuild_pids(dst);
}

/* Process i's time per mode up to t (>= the model's time): the slice it
 * is running now counts up to t. */
static void times_at(const ltt_state *st, unsigned i, int64_t t,
		     uint64_t ns[LTT_STATE_NUM_MODES])
{
	const st_proc *p = &st->procs[i];

	memcpy(ns, p->cpu_ns, sizeof(p->cpu_ns));
	if (p->cpu >= 0 && (unsigned)p->cpu < st->ncpus && st->cpus[p->cpu].cur == (int)i &&
	    t > st->cpus[p->cpu].last_ns)
		ns[top(p)] += (uint64_t)(t - st->cpus[p->cpu].last_ns);
}

static int by_busiest(const void *a, const void *b)
{
	const ltt_state_cpu_time *x = a, *y = b;

	if (x->total != y->total)
		return x->total < y->total ? 1 : -1;
	return x->index < y->index ? -1 : x->index > y->index;
}

unsigned ltt_state_cpu_times_sized(const ltt_state *from, int64_t t0,
				   const ltt_state *to, int64_t t1,
				   ltt_state_cpu_time **out, size_t row_size)
{
	ltt_state_cpu_time *rows = calloc(to->nprocs + 1, sizeof(*rows));
	unsigned n = 0;

	if (!rows)
		g_error("out of memory");
	for (unsigned i = 0; i < to->nprocs; i++) {
		ltt_state_cpu_time *r = &rows[n];
		uint64_t before[LTT_STATE_NUM_MODES] = { 0 };

		times_at(to, i, t1, r->ns);
		if (from && i < from->nprocs && t0 < t1)
			times_at(from, i, t0, before);
		r->total = 0;
		for (unsigned m = 0; m < LTT_STATE_NUM_MODES; m++) {
			/* a range that ends before it starts has no time */
			r->ns[m] = t0 < t1 && r->ns[m] > before[m] ? r->ns[m] - before[m] : 0;
			r->total += r->ns[m];
		}
		r->idle = 0;
		if (to->procs[i].pid == 0) {	/* its user mode is its idle loop */
			r->idle = r->ns[LTT_STATE_USER_MODE];
			r->total -= r->idle;
			r->ns[LTT_STATE_USER_MODE] = 0;
		}
		if (!r->total && !r->idle)
			continue;
		r->index = i;
		r->pid = to->procs[i].pid;
		r->tgid = to->procs[i].tgid;
		g_strlcpy(r->name, to->procs[i].name, sizeof(r->name));
		n++;
	}
	qsort(rows, n, sizeof(*rows), by_busiest);
	/* rows of the caller's size (ltttrace.h, "Sized structs") */
	rows = ltt_sized_rows(rows, n, sizeof(*rows), row_size,
			      LTT_END_OF(ltt_state_cpu_time, total));
	if (!rows)
		n = 0;
	*out = rows;
	return n;
}
