/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * analysis.c - the pass of ltttrace-analysis.h: every event goes to the
 * state model first, then the few kinds that begin or end an occurrence
 * are looked at, with the model telling which process runs where. What is
 * measured is said at the top of ltttrace-analysis.h.
 *
 * Event types are resolved once per trace into a handler number and field
 * indexes, as state.c does, so that an event no analysis wants costs two
 * table lookups after the model's.
 */
#include <stdlib.h>
#include <string.h>

#include "analysis-internal.h"
#include "internal.h"
#include "state-internal.h"
#include "value-text.h"

enum {
	AN_NONE = 0, AN_SYS_ENTRY, AN_SYS_EXIT, AN_IRQ_ENTRY, AN_IRQ_EXIT,
	AN_SIRQ_ENTRY, AN_SIRQ_EXIT, AN_WAKEUP, AN_SCHED, AN_FORK, AN_OPEN,
	AN_CLOSE, AN_READ, AN_WRITE, AN_EXIT, AN_DUMP_PROC, AN_DUMP_FD,
	AN_UNRESOLVED = 0xFF
};

static const struct {
	const char *facility, *event;
	uint8_t handler;
	const char *fields[3];
} handlers[] = {
	{ "kernel_arch", "syscall_entry", AN_SYS_ENTRY, { "syscall_id" } },
	{ "kernel_arch", "syscall_exit", AN_SYS_EXIT, { "ret" } },
	{ "kernel", "irq_entry", AN_IRQ_ENTRY, { "irq_id" } },
	{ "kernel", "irq_exit", AN_IRQ_EXIT, { 0 } },
	{ "kernel", "soft_irq_entry", AN_SIRQ_ENTRY, { "softirq_id" } },
	{ "kernel", "soft_irq_exit", AN_SIRQ_EXIT, { "softirq_id" } },
	{ "process", "wakeup", AN_WAKEUP, { "pid" } },
	{ "process", "schedchange", AN_SCHED, { "out", "in" } },
	{ "process", "fork", AN_FORK, { "parent_pid", "child_pid", "child_tgid" } },
	{ "process", "exit", AN_EXIT, { "pid" } },
	{ "fs", "open", AN_OPEN, { "fd", "filename" } },
	{ "fs", "close", AN_CLOSE, { "fd" } },
	{ "fs", "read", AN_READ, { "fd" } },
	{ "fs", "write", AN_WRITE, { "fd" } },
};

/*
 * LTTng 2.13's kernel events (state.c says how they are matched): the
 * system calls by prefix, each its own id (its event's) and name; a read,
 * write or close names its descriptor on entry, an openat its path, whose
 * descriptor its exit returns, as a dup's does for the file of its old
 * one (a shell's redirections).
 */
static const struct {
	const char *event;
	uint8_t handler;
	const char *fields[3];
} lttng_handlers[] = {
	{ "irq_handler_entry", AN_IRQ_ENTRY, { "irq", "name" } },
	{ "irq_handler_exit", AN_IRQ_EXIT, { 0 } },
	{ "irq_softirq_entry", AN_SIRQ_ENTRY, { "vec" } },
	{ "irq_softirq_exit", AN_SIRQ_EXIT, { "vec" } },
	{ "sched_waking", AN_WAKEUP, { "tid" } },
	{ "sched_wakeup", AN_WAKEUP, { "tid" } },
	{ "sched_wakeup_new", AN_WAKEUP, { "tid" } },
	{ "sched_switch", AN_SCHED, { "prev_tid", "next_tid" } },
	{ "sched_process_fork", AN_FORK, { "parent_tid", "child_tid", "child_pid" } },
	{ "sched_process_exit", AN_EXIT, { "tid" } },
	/* the files open when tracing starts: each process's state, then
	 * the descriptors of its file table when that table is new */
	{ "lttng_statedump_process_state", AN_DUMP_PROC, { "pid", "file_table_address" } },
	{ "lttng_statedump_file_descriptor", AN_DUMP_FD,
	  { "file_table_address", "fd", "filename" } },
};

enum { AN_FS_NONE, AN_FS_READ, AN_FS_WRITE, AN_FS_CLOSE, AN_FS_OPEN, AN_FS_DUP };

typedef struct an_type {
	uint8_t handler;
	int8_t f[3];
	uint8_t fs;			/* LTTng system calls: AN_FS_* */
	uint32_t id;			/* LTTng system calls: their id */
	const char *name;		/* LTTng: the system call's or softirq's name */
} an_type;

struct an_cache {
	const ltt_trace *trace;
	an_type *fac[256];
};

const char *ltt_latency_kind_name(ltt_latency_kind k)
{
	static const char *const n[] = { "syscall", "sched", "irq", "softirq", "file" };

	return (unsigned)k < LTT_LATENCY_NUM_KINDS ? n[k] : "?";
}

static void free_copy(gpointer p)
{
	an_copy *c = p;

	free(c->rows);
	g_free(c);
}

ltt_analysis *ltt_analysis_new(void)
{
	ltt_analysis *a = g_new0(ltt_analysis, 1);

	a->st = ltt_state_new();
	for (unsigned k = 0; k < LTT_LATENCY_NUM_KINDS; k++) {
		an_store_init(&a->occ[k], (ltt_latency_kind)k);
		a->names[k] = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL, g_free);
	}
	a->files = g_ptr_array_new_with_free_func(g_free);
	a->file_ids = g_hash_table_new(g_str_hash, g_str_equal);
	a->fds = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL,
				       (GDestroyNotify)g_hash_table_destroy);
	a->first_ns = INT64_MIN;
	a->last_ns = INT64_MIN;
	a->copies = g_ptr_array_new_with_free_func(free_copy);
	g_mutex_init(&a->copies_lock);
	return a;
}

void ltt_analysis_free(ltt_analysis *a)
{
	if (!a)
		return;
	ltt_state_free(a->st);
	for (unsigned k = 0; k < LTT_LATENCY_NUM_KINDS; k++) {
		an_store_clear(&a->occ[k]);
		g_hash_table_destroy(a->names[k]);
	}
	g_ptr_array_free(a->files, TRUE);
	g_hash_table_destroy(a->file_ids);
	g_hash_table_destroy(a->fds);
	for (unsigned i = 0; i < a->nprocs; i++)
		an_log_clear(&a->procs[i].cpu_log);
	for (unsigned c = 0; c < a->ncpus; c++)
		an_log_clear(&a->cpus[c].busy_log);
	g_free(a->procs);
	g_free(a->cpus);
	for (unsigned i = 0; i < a->ncaches; i++)
		for (unsigned f = 0; f < 256; f++)
			g_free(a->caches[i].fac[f]);
	g_free(a->caches);
	g_ptr_array_free(a->copies, TRUE);
	g_mutex_clear(&a->copies_lock);
	g_free(a);
}

const ltt_state *ltt_analysis_state(const ltt_analysis *a) { return a->st; }
int64_t ltt_analysis_first_ns(const ltt_analysis *a) { return a->first_ns; }
int64_t ltt_analysis_last_ns(const ltt_analysis *a) { return a->last_ns; }

void ltt_analysis_extend(ltt_analysis *a, int64_t t)
{
	if (a->first_ns != INT64_MIN && t > a->last_ns)
		a->last_ns = t;
}

/* One more occurrence into a copy (ltt_analysis_each_sized). */
static int fill_copy(const ltt_latency *l, void *data)
{
	an_copy *c = data;

	memcpy((char *)c->rows + c->n++ * c->size, l, c->size);
	return 0;
}

size_t ltt_analysis_count(const ltt_analysis *a, ltt_latency_kind k)
{
	if ((unsigned)k >= LTT_LATENCY_NUM_KINDS)
		return 0;
	return k == LTT_LATENCY_FILE ? a->occ[LTT_LATENCY_SYSCALL].nfile : a->occ[k].n;
}

const ltt_latency *ltt_analysis_latencies_sized(const ltt_analysis *a, ltt_latency_kind k,
						size_t *n, size_t size)
{
	ltt_analysis *w = (ltt_analysis *)a;	/* the copies only */
	const an_copy *found = NULL;
	an_copy *c;

	*n = 0;
	if ((unsigned)k >= LTT_LATENCY_NUM_KINDS || size < AN_LATENCY_MIN)
		return NULL;
	*n = ltt_analysis_count(a, k);
	/* decoded at the caller's stride (ltttrace.h, "Sized structs") */
	g_mutex_lock(&w->copies_lock);
	for (guint i = 0; i < a->copies->len && !found; i++) {
		c = g_ptr_array_index(a->copies, i);
		if (c->kind == k && c->size == size)
			found = c;
	}
	if (!found) {
		c = g_new0(an_copy, 1);
		c->kind = k;
		c->size = size;
		c->rows = calloc(*n + 1, size);
		if (!c->rows)
			g_error("out of memory");
		ltt_analysis_each_sized(a, k, INT64_MIN, INT64_MAX, fill_copy, c, size);
		c->n = 0;
		g_ptr_array_add(w->copies, c);
		found = c;
	}
	g_mutex_unlock(&w->copies_lock);
	return found->rows;
}

uint64_t ltt_analysis_unpaired(const ltt_analysis *a, ltt_latency_kind k)
{
	uint64_t n;

	if ((unsigned)k >= LTT_LATENCY_NUM_KINDS)
		return 0;
	n = a->unpaired[k];
	/* what is still open at the end never ended */
	for (unsigned i = 0; i < a->nprocs; i++) {
		if (k == LTT_LATENCY_SYSCALL && a->procs[i].sys_start != INT64_MIN)
			n++;
		if (k == LTT_LATENCY_SCHED && a->procs[i].wake_ns != INT64_MIN)
			n++;
	}
	for (unsigned c = 0; c < a->ncpus; c++) {
		if (k == LTT_LATENCY_IRQ)
			n += a->cpus[c].irq_depth;
		if (k == LTT_LATENCY_SOFTIRQ && a->cpus[c].sirq_start != INT64_MIN)
			n++;
	}
	return n;
}

const char *ltt_analysis_id_name(const ltt_analysis *a, ltt_latency_kind k, uint32_t id)
{
	const char *s;

	if (k == LTT_LATENCY_FILE)
		return id < a->files->len ? a->files->pdata[id] : "?";
	if ((unsigned)k >= LTT_LATENCY_NUM_KINDS)
		return "?";
	s = g_hash_table_lookup(a->names[k], GUINT_TO_POINTER(id));
	if (s)
		return s;
	/* never recorded: a name for it all the same (not kept) */
	snprintf(((ltt_analysis *)a)->scratch, sizeof(a->scratch), "%s_%u",
		 ltt_latency_kind_name(k), id);
	return a->scratch;
}

/* Keeps the first name an id is given: the label of its field, else the
 * kind and number. */
static void name_id(ltt_analysis *a, ltt_latency_kind k, uint32_t id, const char *label)
{
	if (g_hash_table_contains(a->names[k], GUINT_TO_POINTER(id)))
		return;
	g_hash_table_insert(a->names[k], GUINT_TO_POINTER(id),
			    label && *label ? g_strdup(label)
					    : g_strdup_printf("%s_%u", ltt_latency_kind_name(k), id));
}

/* ---- growing arrays --------------------------------------------------------- */

static an_proc *proc(ltt_analysis *a, int i)
{
	if ((unsigned)i >= a->nprocs) {
		unsigned n = (unsigned)i + 1 > 2 * a->nprocs ? (unsigned)i + 1 : 2 * a->nprocs;

		a->procs = g_renew(an_proc, a->procs, n);
		for (unsigned j = a->nprocs; j < n; j++) {
			memset(&a->procs[j], 0, sizeof(a->procs[j]));
			a->procs[j].sys_start = INT64_MIN;
			a->procs[j].wake_ns = INT64_MIN;
			a->procs[j].fs_op = -1;
			a->procs[j].on_cpu = -1;
			a->procs[j].waker = -1;
		}
		a->nprocs = n;
	}
	return &a->procs[i];
}

static an_cpu *cpu_of(ltt_analysis *a, unsigned c)
{
	if (c >= a->ncpus) {
		unsigned n = c + 1;

		a->cpus = g_renew(an_cpu, a->cpus, n);
		for (unsigned j = a->ncpus; j < n; j++) {
			memset(&a->cpus[j], 0, sizeof(a->cpus[j]));
			a->cpus[j].sirq_start = INT64_MIN;
			a->cpus[j].running = -1;
		}
		a->ncpus = n;
	}
	return &a->cpus[c];
}

/* How process i, off its CPU now, left it: AN_PREEMPTED (runnable),
 * AN_BLOCKED, or AN_EXITED (for good). */
static int is_blocked(const ltt_state *st, int i)
{
	ltt_state_process_info pi;

	if (ltt_state_process(st, (unsigned)i, &pi) < 0 || pi.status == LTT_STATE_WAIT_CPU ||
	    pi.status == LTT_STATE_RUN)
		return AN_PREEMPTED;
	return pi.status == LTT_STATE_EXIT || pi.status == LTT_STATE_ZOMBIE ||
	       pi.status == LTT_STATE_DEAD ? AN_EXITED : AN_BLOCKED;
}

static void record(ltt_analysis *a, ltt_latency_kind k, const ltt_latency *l)
{
	an_store_add(&a->occ[k], l, 0, 0);
}

/* ---- event types -------------------------------------------------------------- */

static int find_fields(an_type *t, const ltt_event *ev, const char *const fields[3])
{
	return ltt_state_find_fields(t->f, 3, ev, fields);
}

static void resolve_lttng(an_type *t, const ltt_event *ev, unsigned fid, unsigned eid)
{
	const char *name = ltt_event_name(ev), *sys;
	int exit;

	if ((sys = ltt_state__lttng_syscall(name, &exit))) {
		static const struct { const char *call; uint8_t fs; const char *field; } fs[] = {
			{ "read", AN_FS_READ, "fd" }, { "pread64", AN_FS_READ, "fd" },
			{ "readv", AN_FS_READ, "fd" }, { "write", AN_FS_WRITE, "fd" },
			{ "pwrite64", AN_FS_WRITE, "fd" }, { "writev", AN_FS_WRITE, "fd" },
			{ "close", AN_FS_CLOSE, "fd" }, { "openat", AN_FS_OPEN, "filename" },
			{ "open", AN_FS_OPEN, "filename" },
			{ "dup", AN_FS_DUP, "fildes" }, { "dup2", AN_FS_DUP, "oldfd" },
			{ "dup3", AN_FS_DUP, "oldfd" },
		};
		const char *fields[3] = { exit ? "ret" : NULL };

		for (size_t i = 0; i < G_N_ELEMENTS(fs); i++)
			if (!strcmp(fs[i].call, sys)) {
				t->fs = fs[i].fs;
				if (!exit)
					fields[1] = fs[i].field;
			}
		if (!find_fields(t, ev, fields)) {
			t->fs = AN_FS_NONE;	/* a call we do not know so */
			t->f[1] = -1;
			if (exit && !find_fields(t, ev, (const char *[3]){ "ret" }))
				return;
		}
		t->handler = exit ? AN_SYS_EXIT : AN_SYS_ENTRY;
		t->id = fid << 8 | eid;	/* the entry's own event: the call */
		t->name = sys;
		return;
	}
	for (size_t h = 0; h < G_N_ELEMENTS(lttng_handlers); h++)
		if (!strcmp(lttng_handlers[h].event, name)) {
			if (find_fields(t, ev, lttng_handlers[h].fields))
				t->handler = lttng_handlers[h].handler;
			return;
		}
}

static const an_type *resolve(ltt_analysis *a, const ltt_event *ev)
{
	const ltt_trace *tr = ltt_event_trace(ev);
	unsigned fid = ltt_event_facility_id(ev) & 0xFF, eid = ltt_event_id(ev) & 0xFF;
	struct an_cache *c = NULL;
	an_type *t;

	for (unsigned i = 0; i < a->ncaches; i++)
		if (a->caches[i].trace == tr) {
			c = &a->caches[i];
			break;
		}
	if (!c) {
		a->caches = g_renew(struct an_cache, a->caches, a->ncaches + 1);
		c = &a->caches[a->ncaches++];
		memset(c, 0, sizeof(*c));
		c->trace = tr;
	}
	if (!c->fac[fid]) {
		c->fac[fid] = g_new(an_type, 256);
		for (unsigned i = 0; i < 256; i++)
			c->fac[fid][i].handler = AN_UNRESOLVED;
	}
	t = &c->fac[fid][eid];
	if (t->handler != AN_UNRESOLVED)
		return t;
	t->handler = AN_NONE;
	t->fs = AN_FS_NONE;
	t->name = NULL;
	if (!ltt_event_is_known(ev))
		return t;
	if (tr->ctf) {
		resolve_lttng(t, ev, fid, eid);
		return t;
	}
	for (size_t h = 0; h < G_N_ELEMENTS(handlers); h++) {
		if (strcmp(handlers[h].event, ltt_event_name(ev)) ||
		    strcmp(handlers[h].facility, ltt_event_facility_name(ev)))
			continue;
		if (!find_fields(t, ev, handlers[h].fields))
			return t;	/* not the event we know */
		t->handler = handlers[h].handler;
		break;
	}
	return t;
}

/* An integer field; its label (enum, named numbers) in *label if asked. */
static int fint(const ltt_event *ev, int idx, int64_t *out, const char **label)
{
	ltt_value v;

	if (idx < 0 || ltt_event_field(ev, idx, &v) < 0)
		return -1;
	switch (v.kind) {
	case LTT_KIND_INT: *out = v.i; break;
	case LTT_KIND_UINT: case LTT_KIND_POINTER: case LTT_KIND_ENUM:
		*out = (int64_t)v.u;
		break;
	default:
		return -1;
	}
	if (label)
		*label = v.label;
	return 0;
}

/* ---- files ----------------------------------------------------------------- */

/* A path field, to g_free: a string, or text (its bytes without a NUL,
 * as the era writes fs.open's filename); NULL when absent. */
static char *fpath(const ltt_event *ev, int idx)
{
	ltt_value v;
	const char *text;
	size_t len;

	if (idx < 0 || ltt_event_field(ev, idx, &v) < 0 || !(text = ltt_value_text(&v, &len)))
		return NULL;
	return g_strndup(text, len);
}

static uint32_t file_id(ltt_analysis *a, const char *path)
{
	gpointer v = g_hash_table_lookup(a->file_ids, path);
	char *copy;

	if (v)
		return GPOINTER_TO_UINT(v) - 1;
	copy = g_strdup(path);
	g_ptr_array_add(a->files, copy);
	g_hash_table_insert(a->file_ids, copy, GUINT_TO_POINTER(a->files->len));
	return a->files->len - 1;
}

static GHashTable *fd_table(ltt_analysis *a, unsigned tgid, int create)
{
	GHashTable *t = g_hash_table_lookup(a->fds, GUINT_TO_POINTER(tgid));

	if (!t && create) {
		t = g_hash_table_new(g_direct_hash, g_direct_equal);
		g_hash_table_insert(a->fds, GUINT_TO_POINTER(tgid), t);
	}
	return t;
}

static uint32_t fd_file(ltt_analysis *a, unsigned tgid, uint32_t fd)
{
	GHashTable *t = fd_table(a, tgid, 0);
	gpointer v = t ? g_hash_table_lookup(t, GUINT_TO_POINTER(fd)) : NULL;
	char name[64];

	if (v)
		return GPOINTER_TO_UINT(v) - 1;
	snprintf(name, sizeof(name), "fd %u of tgid %u", fd, tgid);
	return file_id(a, name);
}

/* A new thread group starts with a copy of its parent's descriptors. */
static void fds_inherit(ltt_analysis *a, unsigned parent_tgid, unsigned child_tgid)
{
	GHashTable *from = fd_table(a, parent_tgid, 0), *to;
	GHashTableIter it;
	gpointer k, v;

	if (!from || parent_tgid == child_tgid)
		return;
	to = fd_table(a, child_tgid, 1);
	g_hash_table_remove_all(to);
	g_hash_table_iter_init(&it, from);
	while (g_hash_table_iter_next(&it, &k, &v))
		g_hash_table_insert(to, k, v);
}

/* ---- CPU usage logs ------------------------------------------------------------ */

static uint64_t proc_total(const ltt_state *st, int i)
{
	ltt_state_process_info pi;
	uint64_t sum = 0;

	if (ltt_state_process(st, (unsigned)i, &pi) < 0)
		return 0;
	for (unsigned m = 0; m < LTT_STATE_NUM_MODES; m++)
		sum += pi.cpu_ns[m];
	return sum;
}

/* After an event on cpu changed the model: log a process going on or off
 * it, and the CPU becoming busy or idle. */
static void follow_cpu(ltt_analysis *a, unsigned cpu, int64_t now)
{
	an_cpu *c = cpu_of(a, cpu);
	int cur = ltt_state_cpu_process(a->st, cpu);
	ltt_state_kind k = ltt_state_cpu_kind(a->st, cpu);
	int busy = k != LTT_STATE_KIND_IDLE && k != LTT_STATE_KIND_UNKNOWN;

	if (cur != c->running) {
		if (c->running >= 0) {
			an_proc *o = proc(a, c->running);

			if (o->on_cpu == (int32_t)cpu) {
				int how = is_blocked(a->st, c->running);

				an_log_add(&o->cpu_log, now, proc_total(a->st, c->running), 0, how);
				/* what it blocked in (futex: a lock) */
				if (how == AN_BLOCKED && o->sys_start != INT64_MIN &&
				    o->sys_id < 0xffff)
					an_log_last(&o->cpu_log)->sys = (uint16_t)(o->sys_id + 1);
				/* gone for good: its log is done */
				if (how == AN_EXITED)
					an_log_flush(&o->cpu_log);
				o->on_cpu = -1;
			}
		}
		if (cur >= 0) {
			an_proc *p = proc(a, cur);

			an_log_add(&p->cpu_log, now, proc_total(a->st, cur), 1, 0);
			p->on_cpu = (int32_t)cpu;
		}
		c->running = cur;
	}
	if (busy != c->busy || !c->busy_log.n) {
		an_log_add(&c->busy_log, now, an_log_at(&c->busy_log, now), busy, 0);
		c->busy = busy;
	}
}

/* ---- the pass ---------------------------------------------------------------- */

static void sys_entry(ltt_analysis *a, unsigned cpu, int64_t now, int64_t id,
		      const char *label)
{
	int i = ltt_state_cpu_process(a->st, cpu);
	an_proc *p;

	if (i < 0)
		return;
	p = proc(a, i);
	if (p->sys_start != INT64_MIN)
		a->unpaired[LTT_LATENCY_SYSCALL]++;	/* its exit was lost */
	p->sys_start = now;
	p->sys_id = (uint32_t)id;
	p->fs_op = -1;
	name_id(a, LTT_LATENCY_SYSCALL, (uint32_t)id, label);
}

static void sys_exit(ltt_analysis *a, unsigned cpu, int64_t now, int64_t ret)
{
	int i = ltt_state_cpu_process(a->st, cpu);
	ltt_state_process_info pi;
	ltt_latency l = { 0 };
	an_proc *p;

	if (i < 0)
		return;
	p = proc(a, i);
	if (p->sys_start == INT64_MIN) {
		a->unpaired[LTT_LATENCY_SYSCALL]++;
		return;
	}
	l.start_ns = p->sys_start;
	l.duration_ns = (uint64_t)(now - p->sys_start);
	l.process = i;
	l.cpu = cpu;
	l.id = p->sys_id;
	l.waker = -1;
	l.ret = ret;
	/* a read or write: a FILE occurrence too, in the same record */
	if (p->fs_op >= 0 && ltt_state_process(a->st, (unsigned)i, &pi) == 0)
		an_store_add(&a->occ[LTT_LATENCY_SYSCALL], &l, fd_file(a, pi.tgid, p->fd) + 1,
			     p->fs_op);
	else
		record(a, LTT_LATENCY_SYSCALL, &l);
	p->sys_start = INT64_MIN;
	p->fs_op = -1;
}

static void fs_rw(ltt_analysis *a, unsigned cpu, int64_t fd, int write)
{
	int i = ltt_state_cpu_process(a->st, cpu);
	an_proc *p;

	if (i < 0)
		return;
	p = proc(a, i);
	if (p->sys_start == INT64_MIN)
		return;		/* not inside a call we saw begin */
	p->fs_op = (int8_t)write;
	p->fd = (uint32_t)fd;
}

/* Descriptor fd of thread group tgid is now path, or closed (NULL). */
static void fd_name(ltt_analysis *a, unsigned tgid, int64_t fd, const char *path)
{
	GHashTable *t;

	if (path) {
		uint32_t id = file_id(a, *path ? path : "(unnamed)");

		t = fd_table(a, tgid, 1);
		g_hash_table_insert(t, GUINT_TO_POINTER((uint32_t)fd), GUINT_TO_POINTER(id + 1));
	} else if ((t = fd_table(a, tgid, 0))) {
		g_hash_table_remove(t, GUINT_TO_POINTER((uint32_t)fd));
	}
}

static void fs_open_close(ltt_analysis *a, unsigned cpu, int64_t fd, const char *path)
{
	int i = ltt_state_cpu_process(a->st, cpu);
	ltt_state_process_info pi;

	if (i < 0 || ltt_state_process(a->st, (unsigned)i, &pi) < 0)
		return;
	fd_name(a, pi.tgid, fd, path);
}

static void irq_entry(ltt_analysis *a, unsigned cpu, int64_t now, int64_t id,
		      const char *label)
{
	an_cpu *c = cpu_of(a, cpu);

	if (c->irq_depth < AN_IRQ_DEPTH) {
		c->irq[c->irq_depth].start = now;
		c->irq[c->irq_depth].id = (uint32_t)id;
	}
	c->irq_depth++;
	name_id(a, LTT_LATENCY_IRQ, (uint32_t)id, label);
}

static void irq_exit(ltt_analysis *a, unsigned cpu, int64_t now)
{
	an_cpu *c = cpu_of(a, cpu);
	ltt_latency l = { 0 };

	if (!c->irq_depth) {
		a->unpaired[LTT_LATENCY_IRQ]++;
		return;
	}
	c->irq_depth--;
	if (c->irq_depth >= AN_IRQ_DEPTH) {
		a->unpaired[LTT_LATENCY_IRQ]++;		/* too deep to be kept */
		return;
	}
	l.start_ns = c->irq[c->irq_depth].start;
	l.duration_ns = (uint64_t)(now - l.start_ns);
	l.process = ltt_state_cpu_process(a->st, cpu);
	l.cpu = cpu;
	l.id = c->irq[c->irq_depth].id;
	l.waker = -1;
	record(a, LTT_LATENCY_IRQ, &l);
}

static void softirq(ltt_analysis *a, unsigned cpu, int64_t now, int64_t id,
		    const char *label, int entry)
{
	an_cpu *c = cpu_of(a, cpu);
	ltt_latency l = { 0 };

	if (entry) {
		if (c->sirq_start != INT64_MIN)
			a->unpaired[LTT_LATENCY_SOFTIRQ]++;
		c->sirq_start = now;
		c->sirq_id = (uint32_t)id;
		name_id(a, LTT_LATENCY_SOFTIRQ, (uint32_t)id, label);
		return;
	}
	if (c->sirq_start == INT64_MIN || c->sirq_id != (uint32_t)id) {
		a->unpaired[LTT_LATENCY_SOFTIRQ]++;
		return;
	}
	l.start_ns = c->sirq_start;
	l.duration_ns = (uint64_t)(now - l.start_ns);
	l.process = ltt_state_cpu_process(a->st, cpu);
	l.cpu = cpu;
	l.id = c->sirq_id;
	l.waker = -1;
	record(a, LTT_LATENCY_SOFTIRQ, &l);
	c->sirq_start = INT64_MIN;
}

/* The IRQ line or softirq vector cpu is in, for a wakeup in it. */
static uint16_t waker_id(const ltt_analysis *a, unsigned cpu, uint8_t kind)
{
	const an_cpu *c = cpu < a->ncpus ? &a->cpus[cpu] : NULL;
	uint32_t id = LTT_WAKER_ID_NONE;

	if (c && kind == LTT_STATE_KIND_IRQ && c->irq_depth && c->irq_depth <= AN_IRQ_DEPTH &&
	    c->irq[c->irq_depth - 1].start != INT64_MIN)
		id = c->irq[c->irq_depth - 1].id;
	else if (c && kind == LTT_STATE_KIND_SOFTIRQ && c->sirq_start != INT64_MIN)
		id = c->sirq_id;
	return id < LTT_WAKER_ID_NONE ? (uint16_t)id : LTT_WAKER_ID_NONE;
}

/* After a schedchange on cpu: the task switched in ends its wait. */
static void switched_in(ltt_analysis *a, unsigned cpu, int64_t now)
{
	int i = ltt_state_cpu_process(a->st, cpu);
	ltt_latency l = { 0 };
	an_proc *p;

	if (i < 0)
		return;
	p = proc(a, i);
	if (p->wake_ns == INT64_MIN)
		return;
	l.start_ns = p->wake_ns;
	l.duration_ns = (uint64_t)(now - p->wake_ns);
	l.process = i;
	l.cpu = cpu;
	l.waker = p->waker;
	l.waker_cpu = p->waker_cpu;
	l.waker_kind = p->waker_kind;
	l.waker_id = p->waker_id;
	record(a, LTT_LATENCY_SCHED, &l);
	p->wake_ns = INT64_MIN;
}

/* An LTTng system call's entry, just recorded by sys_entry(): what it
 * does to a file (the 2006 kernel wrote fs.read, fs.open... inside it). */
static void lttng_fs_entry(ltt_analysis *a, const ltt_event *ev, const an_type *t,
			   unsigned cpu)
{
	int i = ltt_state_cpu_process(a->st, cpu);
	int64_t fd;
	char *path;

	if (i < 0)
		return;
	proc(a, i)->open_file = 0;
	switch (t->fs) {
	case AN_FS_READ:
	case AN_FS_WRITE:
		if (fint(ev, t->f[1], &fd, NULL) == 0)
			fs_rw(a, cpu, fd, t->fs == AN_FS_WRITE);
		break;
	case AN_FS_CLOSE:
		if (fint(ev, t->f[1], &fd, NULL) == 0)
			fs_open_close(a, cpu, fd, NULL);
		break;
	case AN_FS_DUP: {
		ltt_state_process_info pi;

		if (fint(ev, t->f[1], &fd, NULL) == 0 &&
		    ltt_state_process(a->st, (unsigned)i, &pi) == 0)
			proc(a, i)->open_file = fd_file(a, pi.tgid, (uint32_t)fd) + 1;
		break;
	}
	case AN_FS_OPEN:
		if ((path = fpath(ev, t->f[1]))) {
			proc(a, i)->open_file = file_id(a, *path ? path : "(unnamed)") + 1;
			g_free(path);
		}
		break;
	}
}

/* An LTTng system call's exit, before sys_exit(): an openat's or a dup's
 * descriptor. */
static void lttng_fs_exit(ltt_analysis *a, unsigned cpu, int64_t ret)
{
	int i = ltt_state_cpu_process(a->st, cpu);
	ltt_state_process_info pi;
	an_proc *p;

	if (i < 0 || !(p = proc(a, i))->open_file)
		return;
	if (ret >= 0 && p->sys_start != INT64_MIN &&
	    ltt_state_process(a->st, (unsigned)i, &pi) == 0)
		g_hash_table_insert(fd_table(a, pi.tgid, 1), GUINT_TO_POINTER((uint32_t)ret),
				    GUINT_TO_POINTER(p->open_file));
	p->open_file = 0;
}

int ltt_analysis_process_event(ltt_analysis *a, const ltt_event *ev)
{
	const an_type *t = resolve(a, ev);
	unsigned cpu = ltt_event_cpu(ev);
	int64_t now = ltt_event_time_ns(ev), x = 0, y = 0, z = 0;
	const char *label = NULL;
	ltt_state_status before = LTT_STATE_UNNAMED;
	int woken = -1, changed;

	if (a->first_ns == INT64_MIN)
		a->first_ns = now;
	a->last_ns = now;
	/* the copies at a caller's stride go with the occurrences they copy */
	if (a->copies->len)
		g_ptr_array_set_size(a->copies, 0);
	/* a wakeup starts a wait only if it changes the task's status: look
	 * before the model applies it */
	if (t->handler == AN_WAKEUP && fint(ev, t->f[0], &x, NULL) == 0) {
		ltt_state_process_info pi;

		woken = ltt_state_find_process(a->st, (unsigned)x, cpu);
		if (woken >= 0 && ltt_state_process(a->st, (unsigned)woken, &pi) == 0)
			before = pi.status;
	}
	changed = ltt_state_process_event(a->st, ev);
	/* any event may start its CPU's clock (its first task) */
	if (cpu < ltt_state_num_cpus(a->st))
		follow_cpu(a, cpu, now);
	/* fs.read, write, open and close change nothing in the model */
	switch (t->handler) {
	case AN_SYS_ENTRY:
		if (t->name) {
			sys_entry(a, cpu, now, t->id, t->name);
			lttng_fs_entry(a, ev, t, cpu);
		} else if (fint(ev, t->f[0], &x, &label) == 0) {
			sys_entry(a, cpu, now, x, label);
		}
		break;
	case AN_SYS_EXIT:
		if (fint(ev, t->f[0], &x, NULL) == 0) {
			if (t->name)
				lttng_fs_exit(a, cpu, x);
			sys_exit(a, cpu, now, x);
		}
		break;
	case AN_READ:
	case AN_WRITE:
		if (fint(ev, t->f[0], &x, NULL) == 0)
			fs_rw(a, cpu, x, t->handler == AN_WRITE);
		break;
	case AN_OPEN: {
		char *path;

		if (fint(ev, t->f[0], &x, NULL) == 0 && (path = fpath(ev, t->f[1]))) {
			fs_open_close(a, cpu, x, path);
			g_free(path);
		}
		break;
	}
	case AN_CLOSE:
		if (fint(ev, t->f[0], &x, NULL) == 0)
			fs_open_close(a, cpu, x, NULL);
		break;
	case AN_DUMP_PROC:
		if (fint(ev, t->f[0], &x, NULL) == 0 && fint(ev, t->f[1], &y, NULL) == 0) {
			a->dump_tgid = (uint32_t)x;
			a->dump_files = (uint64_t)y;
		}
		break;
	case AN_DUMP_FD: {
		char *path;

		if (fint(ev, t->f[0], &y, NULL) == 0 && (uint64_t)y == a->dump_files &&
		    fint(ev, t->f[1], &x, NULL) == 0 && (path = fpath(ev, t->f[2]))) {
			fd_name(a, a->dump_tgid, x, path);
			g_free(path);
		}
		break;
	}
	case AN_IRQ_ENTRY:
		if (fint(ev, t->f[0], &x, &label) == 0) {
			ltt_value v;

			/* LTTng's irq_handler_entry names its handler */
			if (!label && ltt_event_field(ev, t->f[1], &v) == 0 &&
			    v.kind == LTT_KIND_STRING)
				label = v.str;
			irq_entry(a, cpu, now, x, label);
		}
		break;
	case AN_IRQ_EXIT:
		irq_exit(a, cpu, now);
		break;
	case AN_SIRQ_ENTRY:
	case AN_SIRQ_EXIT:
		if (fint(ev, t->f[0], &x, &label) == 0)
			softirq(a, cpu, now, x,
				label || !ltt_event_trace(ev)->ctf ? label
				: ltt_state__lttng_softirq_name((uint64_t)x),
				t->handler == AN_SIRQ_ENTRY);
		break;
	case AN_WAKEUP: {
		ltt_state_process_info pi;
		an_proc *p;

		woken = ltt_state_find_process(a->st, (unsigned)x, cpu);
		if (woken < 0 || ltt_state_process(a->st, (unsigned)woken, &pi) < 0 ||
		    pi.status != LTT_STATE_WAIT_CPU || before == LTT_STATE_WAIT_CPU ||
		    before == LTT_STATE_RUN)
			break;
		p = proc(a, woken);
		p->wake_ns = now;
		p->waker = ltt_state_cpu_process(a->st, cpu);
		p->waker_cpu = cpu;
		p->waker_kind = (uint8_t)ltt_state_cpu_kind(a->st, cpu);
		p->waker_id = waker_id(a, cpu, p->waker_kind);
		break;
	}
	case AN_SCHED:
		switched_in(a, cpu, now);
		break;
	case AN_FORK:
		if (fint(ev, t->f[0], &x, NULL) == 0 && fint(ev, t->f[1], &y, NULL) == 0 &&
		    fint(ev, t->f[2], &z, NULL) == 0) {
			int pi = ltt_state_find_process(a->st, (unsigned)x, cpu);
			ltt_state_process_info info;

			if (pi >= 0 && ltt_state_process(a->st, (unsigned)pi, &info) == 0)
				fds_inherit(a, info.tgid, z ? (unsigned)z : (unsigned)y);
		}
		break;
	case AN_EXIT: {
		/* exit_group never returns: its call is not an occurrence */
		int i;

		if (fint(ev, t->f[0], &x, NULL) == 0 &&
		    (i = ltt_state_find_process(a->st, (unsigned)x, cpu)) >= 0 &&
		    proc(a, i)->sys_start != INT64_MIN) {
			proc(a, i)->sys_start = INT64_MIN;
		}
		break;
	}
	}
	return changed;
}
