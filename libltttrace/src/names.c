/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * names.c - names for the numbers in kernel events, so that every tool
 * shows `syscall_id = 257 [openat]` rather than a bare number, and a
 * filter can say `syscall = openat`:
 *
 *   kernel_arch.syscall_entry.syscall_id   system calls: the labels of
 *                                     its enum, syscall_name, in the trace's
 *                                     kernel_arch_<arch>.xml (for x86_64,
 *                                     generated from the kernel's
 *                                     syscall_64.tbl: tools/gen-kernel-arch.sh)
 *   kernel.trap_entry/exit.trap_id    x86 trap vectors (trapnr.h)
 *   kernel.irq_entry.irq_id           the trace's own handler names, from
 *                                     its state dump (statedump.interrupt),
 *                                     read when one is first asked for
 *
 * The trap table of the kernel tree applies to traces of x86 only (the
 * trace header's arch_type); it is generated into kernel-names-x86_64.h
 * (tools/gen-kernel-names.sh, checked against the tree by
 * tests/t09-kernel-names-stale.sh). The system call's enum is shown as a
 * named number too ("257 [openat]"). Softirqs are named by their enum in
 * kernel.xml. A value without a name keeps its number alone.
 */
#include <limits.h>
#include <string.h>

#include "cursor.h"
#include "kernel-names-x86_64.h"

#define MAX_IRQ_NAMED 4096	/* IRQ numbers named; larger ones stay numbers */

/*
 * The loaded types of `facility.event` (one per load of the facility):
 * attach() gives each its table; the scans below compare an event's type
 * with these pointers rather than its names. Two string compares an event
 * were a tenth of a whole decode where a trace's state dump has no end
 * (the scan then reads all of the processes channel). None: the trace
 * cannot hold one, nothing to read.
 */
typedef struct type_set {
	ltt_event_type **types;
	unsigned n;
} type_set;

static unsigned types_of(const ltt_trace *t, const char *facility, const char *event,
			 type_set *set)
{
	unsigned cap = 0;

	set->types = NULL;
	set->n = 0;
	for (guint i = 0; i < t->all_facilities->len; i++) {
		ltt_facility *fac = t->all_facilities->pdata[i];

		if (strcmp(fac->name, facility))
			continue;
		for (unsigned e = 0; e < fac->num_event_types; e++) {
			if (strcmp(fac->event_types[e].desc->name, event))
				continue;
			if (set->n == cap) {
				cap = cap ? 2 * cap : 4;
				set->types = g_renew(ltt_event_type *, set->types, cap);
			}
			set->types[set->n++] = &fac->event_types[e];
		}
	}
	return set->n;
}

/* The field `field` of every loaded event `facility.event` gets the table,
 * or with irq_names_of the IRQ names of that trace, read at their first
 * use (ltt_trace_irq_names()). */
static void attach(ltt_trace *t, const char *facility, const char *event,
		   const char *field, const char *const *names, unsigned n,
		   ltt_trace *irq_names_of)
{
	type_set set;

	types_of(t, facility, event, &set);
	for (unsigned i = 0; i < set.n; i++) {
		ltt_event_type *et = set.types[i];
		gpointer idx = g_hash_table_lookup(et->index_by_name, field);

		if (!idx)
			continue;
		et->named_field = GPOINTER_TO_INT(idx) - 1;
		et->names = names;
		et->num_names = n;
		et->irq_names_of = irq_names_of;
	}
	g_free(set.types);
}

static int is_in(const ltt_event *ev, const type_set *set)
{
	for (unsigned i = 0; i < set->n; i++)
		if (ev->type == set->types[i])
			return 1;
	return 0;
}

static int in_channel(const ltt_tracefile *tf, const char *channel)
{
	const char *base = strrchr(tf->name, '/');

	return strcmp(base ? base + 1 : tf->name, channel) == 0;
}

/*
 * The end of the state dump: the first statedump.statedump_end of the
 * processes channel, its CPUs' tracefiles read together in time order (a
 * dump writes one, on the CPU it ran on; read one file after the other, the
 * files of the other CPUs were read to their end). INT64_MIN when there is
 * none (then no IRQ names are read: without an end, the search could read
 * the whole interrupt channel).
 */
static int64_t dump_end(ltt_trace *t)
{
	int64_t end = INT64_MIN;
	type_set ends;
	ltt_cursor *cur;	/* in place: a cursor points into itself */
	gboolean *live;		/* at an event */
	unsigned n = 0, left = 0;

	if (!types_of(t, "statedump", "statedump_end", &ends))
		return end;
	cur = g_new0(ltt_cursor, t->tracefiles->len);
	live = g_new0(gboolean, t->tracefiles->len);
	for (guint i = 0; i < t->tracefiles->len; i++) {
		ltt_tracefile *tf = t->tracefiles->pdata[i];

		if (!in_channel(tf, "processes"))
			continue;
		ltt_cursor_init(&cur[n], tf);
		cur[n].quiet = true;
		live[n] = ltt_cursor_next(&cur[n], NULL) > 0;
		left += live[n++];
	}
	while (left) {
		unsigned first = UINT_MAX;

		for (unsigned i = 0; i < n; i++)
			if (live[i] && (first == UINT_MAX ||
					cur[i].ev.time_ns < cur[first].ev.time_ns))
				first = i;
		if (is_in(&cur[first].ev, &ends)) {
			end = cur[first].ev.time_ns;
			break;
		}
		if (ltt_cursor_next(&cur[first], NULL) <= 0) {
			live[first] = FALSE;
			left--;
		}
	}
	for (unsigned i = 0; i < n; i++)
		ltt_cursor_fini(&cur[i]);
	g_free(cur);
	g_free(live);
	g_free(ends.types);
	return end;
}

/* statedump.interrupt events up to the end of the dump: irq_id -> action. */
static void read_irq_names(ltt_trace *t)
{
	int64_t end = dump_end(t);
	type_set irqs;

	if (end == INT64_MIN || !types_of(t, "statedump", "interrupt", &irqs))
		return;
	for (guint i = 0; i < t->tracefiles->len; i++) {
		ltt_tracefile *tf = t->tracefiles->pdata[i];
		ltt_cursor c;

		if (!in_channel(tf, "interrupts"))
			continue;
		ltt_cursor_init(&c, tf);
		c.quiet = true;
		while (ltt_cursor_next(&c, NULL) > 0 && c.ev.time_ns <= end) {
			uint64_t irq;
			const char *name;

			if (!is_in(&c.ev, &irqs))
				continue;
			irq = ltt_event_get_uint(&c.ev, "irq_id", UINT64_MAX);
			name = ltt_event_get_string(&c.ev, "action");
			if (irq >= MAX_IRQ_NAMED || !name || !*name)
				continue;
			if (irq >= t->num_irq_names) {
				t->irq_names = g_renew(char *, t->irq_names, irq + 1);
				memset(t->irq_names + t->num_irq_names, 0,
				       (irq + 1 - t->num_irq_names) * sizeof(char *));
				t->num_irq_names = (unsigned)irq + 1;
			}
			g_free(t->irq_names[irq]);
			t->irq_names[irq] = g_strdup(name);
		}
		ltt_cursor_fini(&c);
	}
	g_free(irqs.types);
}

/*
 * The IRQ names are read when a tool first asks for one, not at the open:
 * where a trace's state dump has no end, finding that out reads all of its
 * processes channel (a third of a second at 100 M events, alone on one
 * core, before a decode that uses both); most passes (counts, statistics,
 * the viewer's index) never show an IRQ's name.
 */
void ltt_trace_irq_names(ltt_trace *t, const char *const **names, unsigned *n)
{
	if (g_once_init_enter(&t->irq_names_read)) {
		read_irq_names(t);
		g_once_init_leave(&t->irq_names_read, 1);
	}
	*names = (const char *const *)t->irq_names;
	*n = t->num_irq_names;
}

/* kernel.irq_entry's irq_id gets the trace's IRQ names, to be read at
 * their first use; none when the trace cannot hold any. */
static void attach_irq_names(ltt_trace *t)
{
	type_set set;

	if (!types_of(t, "statedump", "statedump_end", &set))
		return;
	g_free(set.types);
	if (!types_of(t, "statedump", "interrupt", &set))
		return;
	g_free(set.types);
	attach(t, "kernel", "irq_entry", "irq_id", NULL, 0, t);
}

void ltt_trace_name_values(ltt_trace *t)
{
	unsigned arch = t->info.arch_type;

	/* its enum's labels, whatever the architecture: the description
	 * is the architecture's own (kernel_arch_<arch>.xml, trace.c) */
	attach(t, "kernel_arch", "syscall_entry", "syscall_id", NULL, 0, NULL);
	if (arch == LTT_ARCH_TYPE_X86_64 || arch == LTT_ARCH_TYPE_I386) {
		attach(t, "kernel", "trap_entry", "trap_id", x86_trap_names,
		       G_N_ELEMENTS(x86_trap_names), NULL);
		attach(t, "kernel", "trap_exit", "trap_id", x86_trap_names,
		       G_N_ELEMENTS(x86_trap_names), NULL);
	}
	attach_irq_names(t);
}
