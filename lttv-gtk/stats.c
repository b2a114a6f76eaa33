/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * stats.c - the Statistics tab: events of the visible range per type, CPU
 * and process (through the event filter), CPU time per process and mode
 * in that range (the difference of the state at its two ends), lost
 * events first.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "window.h"

/* ---- statistics ------------------------------------------------------------- */

typedef struct count {
	char *key;
	uint64_t n;
} count;

static gint by_count(gconstpointer x, gconstpointer y)
{
	const count *a = *(count *const *)x, *b = *(count *const *)y;

	return a->n < b->n ? 1 : a->n > b->n ? -1 : strcmp(a->key, b->key);
}

static void add_count(GHashTable *h, const char *key)
{
	count *c = g_hash_table_lookup(h, key);

	if (!c) {
		c = g_new0(count, 1);
		c->key = g_strdup(key);
		g_hash_table_insert(h, c->key, c);
	}
	c->n++;
}

static void print_counts(GString *out, const char *title, GHashTable *h)
{
	GPtrArray *v = g_ptr_array_new();
	GHashTableIter it;
	gpointer k, val;

	g_hash_table_iter_init(&it, h);
	while (g_hash_table_iter_next(&it, &k, &val))
		g_ptr_array_add(v, val);
	g_ptr_array_sort(v, by_count);
	g_string_append_printf(out, "\n%s\n", title);
	for (guint i = 0; i < v->len && i < 40; i++) {
		count *c = v->pdata[i];

		g_string_append_printf(out, "  %10" PRIu64 "  %s\n", c->n, c->key);
	}
	g_ptr_array_free(v, TRUE);
}

typedef struct cpu_row {
	unsigned pid;
	char name[LTT_STATE_NAME_MAX];
	uint64_t total, ns[LTT_STATE_NUM_MODES];
} cpu_row;

static gint by_total(gconstpointer x, gconstpointer y)
{
	const cpu_row *a = x, *b = y;

	return a->total < b->total ? 1 : a->total > b->total ? -1 : (a->pid > b->pid) - (a->pid < b->pid);
}

static void count_free(gpointer p)
{
	count *c = p;

	g_free(c->key);
	g_free(c);
}

void lttv_stats_refresh(app *a)
{
	GString *out = g_string_new(NULL);
	GHashTable *types, *cpus, *procs;
	ltt_state *s0, *s1;
	ltt_error *err = NULL;
	ltt_iter *it;
	const ltt_event *ev;
	uint64_t total = 0;
	char d[64];

	if (!a->doc)
		return;
	types = g_hash_table_new_full(g_str_hash, g_str_equal, NULL, count_free);
	cpus = g_hash_table_new_full(g_str_hash, g_str_equal, NULL, count_free);
	procs = g_hash_table_new_full(g_str_hash, g_str_equal, NULL, count_free);
	s0 = ltt_state_new();
	s1 = ltt_state_new();
	if (a->doc->events_lost || a->doc->corrupted)
		g_string_append_printf(out, "*** THE KERNEL LOST %" PRIu64 " EVENTS AND %" PRIu64
				       " SUB-BUFFERS WERE CORRUPTED: states may be wrong ***\n",
				       a->doc->events_lost, a->doc->corrupted);
	lttv_format_duration(a->t1 - a->t0, d, sizeof(d));
	g_string_append_printf(out, "Visible range %.9f .. %.9f s (%s)%s\n",
			       (a->t0 - a->doc->origin_ns) / 1e9, (a->t1 - a->doc->origin_ns) / 1e9,
			       d, a->filter ? ", events that match the filter" : "");
	g_mutex_lock(&a->doc->lock);
	if (ltt_state_index_seek(a->doc->idx, a->t0, s0, &err) == 0 &&
	    (it = ltt_iter_new(&a->doc->trace, 1, &err))) {
		/* s1 replays from t0 to t1 so that each event has its process */
		ltt_state_index_seek(a->doc->idx, a->t0, s1, &err);
		ltt_iter_seek_time(it, a->t0, &err);
		while (ltt_iter_next(it, &ev, &err) > 0 && ltt_event_time_ns(ev) < a->t1) {
			char key[128];
			int i;
			ltt_state_process_info pi;

			ltt_state_process_event(s1, ev);
			if (!lttv_filter_match(a->filter, ev, s1))
				continue;
			total++;
			snprintf(key, sizeof(key), "%s.%s", ltt_event_facility_name(ev),
				 ltt_event_name(ev));
			add_count(types, key);
			snprintf(key, sizeof(key), "cpu %u", ltt_event_cpu(ev));
			add_count(cpus, key);
			i = ltt_state_cpu_process(s1, ltt_event_cpu(ev));
			if (i >= 0 && ltt_state_process(s1, (unsigned)i, &pi) == 0)
				snprintf(key, sizeof(key), "%-6u %s", pi.pid, pi.name);
			else
				snprintf(key, sizeof(key), "?");
			add_count(procs, key);
		}
		ltt_iter_free(it);
		ltt_state_index_seek(a->doc->idx, a->t1, s1, &err);
	}
	g_mutex_unlock(&a->doc->lock);
	g_string_append_printf(out, "%" PRIu64 " events\n", total);
	/* the difference of the model at both ends, busiest first */
	g_string_append_printf(out, "\nCPU time in the visible range (ms), busiest first"
			       " (an idle task's user time is idle time)\n"
			       "  %-6s %-16s %10s %10s %10s %10s %10s %10s %10s\n", "pid", "name",
			       "total", "user", "syscall", "trap", "irq", "softirq", "unknown");
	{
		GArray *rows = g_array_new(FALSE, FALSE, sizeof(cpu_row));

		for (unsigned i = 0; i < ltt_state_num_processes(s1); i++) {
			ltt_state_process_info p0 = { 0 }, p1;
			cpu_row r = { 0 };

			ltt_state_process(s1, i, &p1);
			if (i < ltt_state_num_processes(s0))
				ltt_state_process(s0, i, &p0);
			for (int m = 0; m < LTT_STATE_NUM_MODES; m++) {
				r.ns[m] = p1.cpu_ns[m] - p0.cpu_ns[m];
				r.total += r.ns[m];
			}
			if (!r.total)
				continue;
			r.pid = p1.pid;
			g_strlcpy(r.name, *p1.name ? p1.name : "-", sizeof(r.name));
			g_array_append_val(rows, r);
		}
		g_array_sort(rows, by_total);
		for (guint k = 0; k < rows->len; k++) {
			const cpu_row *r = &g_array_index(rows, cpu_row, k);

			g_string_append_printf(out, "  %-6u %-16s %10.3f", r->pid, r->name,
					       r->total / 1e6);
			for (int m = 0; m < LTT_STATE_NUM_MODES; m++)
				g_string_append_printf(out, " %10.3f", r->ns[m] / 1e6);
			g_string_append_c(out, '\n');
		}
		g_array_free(rows, TRUE);
	}
	print_counts(out, "Events per type", types);
	print_counts(out, "Events per CPU", cpus);
	print_counts(out, "Events per process", procs);
	if (err) {
		g_string_append_printf(out, "\nerror: %s\n", ltt_error_message(err));
		ltt_error_free(err);
	}
	gtk_text_buffer_set_text(gtk_text_view_get_buffer(GTK_TEXT_VIEW(a->stats_view)),
				 out->str, -1);
	g_string_free(out, TRUE);
	g_hash_table_destroy(types);
	g_hash_table_destroy(cpus);
	g_hash_table_destroy(procs);
	ltt_state_free(s0);
	ltt_state_free(s1);
}
