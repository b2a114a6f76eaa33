/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * state-first-task.c - which task each CPU runs when its first event
 * comes, before any schedchange on it says so.
 *
 * A CPU's events before its first process.schedchange belong to the task
 * that this schedchange switches out (its `out`): nothing else ran there
 * in between. Knowing it in advance lets the model credit that time to
 * the right task from the first event, where guessing the idle task
 * charged lttd's system calls to swapper/1 (and left swapper/1 "in a
 * system call" for the rest of the trace).
 *
 * The mode it is in then is told by the CPU's first system call event
 * before that switch: an exit means it was in a system call, an entry
 * that it was in user mode.
 *
 * The search reads, in each tracefile, up to its first schedchange: first
 * the files of the channel the event is declared in (the kernel writes it
 * to control/processes_N, small and dense with switches), then, for CPUs
 * still unknown, their other files (a writer may put it elsewhere). A CPU
 * that never switches costs a full read of its files, once per model.
 */
#include <string.h>

#include "cursor.h"
#include "state-internal.h"

typedef struct finder {
	const ltt_event_type *types[8];	/* process.schedchange, per load */
	unsigned ntypes;
	const char *out;		/* its field naming the task switched out */
	int lttng;			/* an LTTng trace: system calls by name */
	const char *channel;		/* its declared channel, or NULL */
	const ltt_event_type *sys[8];	/* kernel_arch.syscall_entry, _exit */
	unsigned nsys;
	int64_t *when;			/* per CPU: time of the first found */
	int64_t *mode_when;		/* per CPU: time of the first syscall event */
	ltt_state_first_task *first;	/* per CPU: the answer */
	unsigned ncpus;
} finder;

static int is_one_of(const ltt_event_type *const *types, unsigned n,
		     const ltt_event_type *t)
{
	for (unsigned i = 0; i < n; i++)
		if (types[i] == t)
			return 1;
	return 0;
}

/* Reads tf up to its first schedchange; keeps it if it is its CPU's earliest. */
static void scan(finder *f, ltt_tracefile *tf)
{
	ltt_cursor c;
	unsigned cpu = tf->cpu;

	ltt_cursor_init(&c, tf);
	while (ltt_cursor_next(&c, NULL) > 0) {
		if (c.ev.time_ns >= f->when[cpu])
			break;		/* another file had an earlier one */
		if (!c.ev.type || !is_one_of(f->types, f->ntypes, c.ev.type))
			continue;
		uint64_t out = ltt_event_get_uint(&c.ev, f->out, UINT64_MAX);

		if (out <= INT32_MAX) {
			f->when[cpu] = c.ev.time_ns;
			f->first[cpu].pid = (int32_t)out;
		}
		break;
	}
	ltt_cursor_fini(&c);
}

/*
 * The mode that task was in: the CPU's first system call event before
 * its first switch says it (an exit: it was in a system call; an entry:
 * in user mode). Reads tf up to that event.
 */
static void scan_mode(finder *f, ltt_tracefile *tf)
{
	ltt_cursor c;
	unsigned cpu = tf->cpu;
	int exit;

	ltt_cursor_init(&c, tf);
	while (ltt_cursor_next(&c, NULL) > 0) {
		if (c.ev.time_ns >= f->when[cpu] || c.ev.time_ns >= f->mode_when[cpu])
			break;
		if (!c.ev.type)
			continue;
		if (f->lttng) {
			if (!ltt_state__lttng_syscall(c.ev.type->desc->name, &exit))
				continue;
		} else if (is_one_of(f->sys, f->nsys, c.ev.type)) {
			exit = !strcmp(c.ev.type->desc->name, "syscall_exit");
		} else {
			continue;
		}
		f->mode_when[cpu] = c.ev.time_ns;
		f->first[cpu].mode = exit ? LTT_STATE_SYSCALL : LTT_STATE_USER_MODE;
		break;
	}
	ltt_cursor_fini(&c);
}

static int in_channel(const ltt_tracefile *tf, const char *channel)
{
	const char *base = strrchr(tf->name, '/');

	return strcmp(base ? base + 1 : tf->name, channel) == 0;
}

ltt_state_first_task *ltt_state__first_tasks(const ltt_trace *tr, unsigned *ncpus)
{
	finder f = { .out = "out", .lttng = tr->ctf != NULL };

	for (guint i = 0; f.lttng && i < tr->all_facilities->len; i++) {
		/* LTTng's sched_switch, in whatever facility (docs/ctf.md) */
		const ltt_facility *fac = tr->all_facilities->pdata[i];

		for (unsigned e = 0; e < fac->num_event_types; e++)
			if (!strcmp(fac->event_types[e].desc->name, "sched_switch") &&
			    f.ntypes < G_N_ELEMENTS(f.types))
				f.types[f.ntypes++] = &fac->event_types[e];
		f.out = "prev_tid";
		f.nsys = 1;	/* scan_mode() matches them by name */
	}
	for (guint i = 0; !f.lttng && i < tr->all_facilities->len; i++) {
		const ltt_facility *fac = tr->all_facilities->pdata[i];
		int process = !strcmp(fac->name, "process");

		if (!process && strcmp(fac->name, "kernel_arch"))
			continue;
		for (unsigned e = 0; e < fac->num_event_types; e++) {
			const ltt_event_type *et = &fac->event_types[e];

			if (process && !strcmp(et->desc->name, "schedchange") &&
			    f.ntypes < G_N_ELEMENTS(f.types)) {
				f.types[f.ntypes++] = et;
				f.channel = et->desc->channel ? et->desc->channel
							      : fac->desc->channel;
			}
			if (!process && g_str_has_prefix(et->desc->name, "syscall_") &&
			    f.nsys < G_N_ELEMENTS(f.sys))
				f.sys[f.nsys++] = et;
		}
	}
	for (guint i = 0; i < tr->tracefiles->len; i++) {
		const ltt_tracefile *tf = tr->tracefiles->pdata[i];

		if (!tf->is_facilities && tf->cpu + 1 > f.ncpus)
			f.ncpus = tf->cpu + 1;
	}
	*ncpus = f.ncpus;
	f.first = g_new(ltt_state_first_task, f.ncpus ? f.ncpus : 1);
	f.when = g_new(int64_t, f.ncpus ? f.ncpus : 1);
	f.mode_when = g_new(int64_t, f.ncpus ? f.ncpus : 1);
	for (unsigned c = 0; c < f.ncpus; c++) {
		f.first[c].pid = -1;
		f.first[c].mode = LTT_STATE_MODE_UNKNOWN;
		f.when[c] = INT64_MAX;
		f.mode_when[c] = INT64_MAX;
	}
	if (f.ntypes) {
		for (int pass = 0; pass < 2; pass++)
			for (guint i = 0; i < tr->tracefiles->len; i++) {
				ltt_tracefile *tf = tr->tracefiles->pdata[i];
				int declared = f.channel && in_channel(tf, f.channel);

				if (tf->is_facilities || declared != (pass == 0) ||
				    (pass == 1 && f.first[tf->cpu].pid >= 0))
					continue;
				scan(&f, tf);
			}
	}
	for (guint i = 0; f.nsys && i < tr->tracefiles->len; i++) {
		ltt_tracefile *tf = tr->tracefiles->pdata[i];

		if (!tf->is_facilities && f.first[tf->cpu].pid > 0)
			scan_mode(&f, tf);
	}
	g_free(f.when);
	g_free(f.mode_when);
	return f.first;
}
