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

/*
 * A computation in progress: the range is read in slices of STATS_SLICE
 * events from an idle callback (each slice under doc->lock), so that a
 * long range does not freeze the window; its own iterator, states and
 * filter (parsed from the applied text) make it independent of the rest.
 */
#define STATS_SLICE 100000

struct lttv_stats_job {
	app *a;
	int64_t t0, t1;
	ltt_iter *it;
	ltt_state *s0, *s1;
	lttv_filter *filter;
	GHashTable *types, *cpus, *procs;
	uint64_t total;
	ltt_error *err;
	guint source;
};

void lttv_stats_cancel(app *a)
{
	lttv_stats_job *j = a->stats_job;

	if (!j)
		return;
	if (j->source)
		g_source_remove(j->source);
	ltt_iter_free(j->it);
	ltt_state_free(j->s0);
	ltt_state_free(j->s1);
	lttv_filter_free(j->filter);
	g_hash_table_destroy(j->types);
	g_hash_table_destroy(j->cpus);
	g_hash_table_destroy(j->procs);
	ltt_error_free(j->err);
	g_free(j);
	a->stats_job = NULL;
}

static void stats_finish(lttv_stats_job *j)
{
	app *a = j->a;
	GString *out = g_string_new(NULL);
	char d[64];

	if (a->doc->events_lost || a->doc->corrupted)
		g_string_append_printf(out, "*** THE KERNEL LOST %" PRIu64 " EVENTS AND %" PRIu64
				       " SUB-BUFFERS WERE CORRUPTED: states may be wrong ***\n",
				       a->doc->events_lost, a->doc->corrupted);
	lttv_format_duration(j->t1 - j->t0, d, sizeof(d));
	g_string_append_printf(out, "Range %.9f .. %.9f s (%s)%s\n",
			       (j->t0 - a->doc->origin_ns) / 1e9, (j->t1 - a->doc->origin_ns) / 1e9,
			       d, j->filter ? ", events that match the filter" : "");
	g_string_append_printf(out, "%" PRIu64 " events\n", j->total);
	/* the difference of the model at both ends, busiest first */
	g_string_append_printf(out, "\nCPU time in the range (ms), busiest first"
			       " (an idle task's user time is idle time)\n"
			       "  %-6s %-16s %10s %10s %10s %10s %10s %10s %10s\n", "pid", "name",
			       "total", "user", "syscall", "trap", "irq", "softirq", "unknown");
	{
		GArray *rows = g_array_new(FALSE, FALSE, sizeof(cpu_row));

		for (unsigned i = 0; i < ltt_state_num_processes(j->s1); i++) {
			ltt_state_process_info p0 = { 0 }, p1;
			cpu_row r = { 0 };

			ltt_state_process(j->s1, i, &p1);
			if (i < ltt_state_num_processes(j->s0))
				ltt_state_process(j->s0, i, &p0);
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
	print_counts(out, "Events per type", j->types);
	print_counts(out, "Events per CPU", j->cpus);
	print_counts(out, "Events per process", j->procs);
	if (j->err)
		g_string_append_printf(out, "\nerror: %s\n", ltt_error_message(j->err));
	gtk_text_buffer_set_text(gtk_text_view_get_buffer(GTK_TEXT_VIEW(a->stats_view)),
				 out->str, -1);
	g_string_free(out, TRUE);
}

static gboolean stats_step(gpointer data)
{
	lttv_stats_job *j = data;
	app *a = j->a;
	const ltt_event *ev;
	int r = 1, done = 0;
	char msg[96];

	g_mutex_lock(&a->doc->lock);
	for (unsigned n = 0; n < STATS_SLICE; n++) {
		char key[128];
		int i;
		ltt_state_process_info pi;

		/* the range is [t0, t1]: a fitted view ends on the last event */
		if ((r = ltt_iter_next(j->it, &ev, &j->err)) <= 0 || ltt_event_time_ns(ev) > j->t1) {
			done = 1;
			break;
		}
		ltt_state_process_event(j->s1, ev);
		if (!lttv_filter_match(j->filter, ev, j->s1))
			continue;
		j->total++;
		snprintf(key, sizeof(key), "%s.%s", ltt_event_facility_name(ev), ltt_event_name(ev));
		add_count(j->types, key);
		snprintf(key, sizeof(key), "cpu %u", ltt_event_cpu(ev));
		add_count(j->cpus, key);
		i = ltt_state_cpu_process(j->s1, ltt_event_cpu(ev));
		if (i >= 0 && ltt_state_process(j->s1, (unsigned)i, &pi) == 0)
			snprintf(key, sizeof(key), "%-6u %s", pi.pid, pi.name);
		else
			snprintf(key, sizeof(key), "?");
		add_count(j->procs, key);
	}
	if (done)	/* the model at the end of the range, for CPU times */
		ltt_state_index_seek(a->doc->idx, j->t1, j->s1, j->err ? NULL : &j->err);
	g_mutex_unlock(&a->doc->lock);
	if (!done) {
		snprintf(msg, sizeof(msg), "Computing... %" PRIu64 " events so far", j->total);
		gtk_text_buffer_set_text(gtk_text_view_get_buffer(GTK_TEXT_VIEW(a->stats_view)),
					 msg, -1);
		return G_SOURCE_CONTINUE;
	}
	j->source = 0;
	stats_finish(j);
	lttv_stats_cancel(a);
	return G_SOURCE_REMOVE;
}

void lttv_stats_refresh(app *a)
{
	lttv_stats_job *j;

	lttv_stats_cancel(a);
	if (!a->doc)
		return;
	j = g_new0(lttv_stats_job, 1);
	j->a = a;
	j->t0 = a->t0;
	j->t1 = a->t1;
	j->types = g_hash_table_new_full(g_str_hash, g_str_equal, NULL, count_free);
	j->cpus = g_hash_table_new_full(g_str_hash, g_str_equal, NULL, count_free);
	j->procs = g_hash_table_new_full(g_str_hash, g_str_equal, NULL, count_free);
	j->s0 = ltt_state_new();
	j->s1 = ltt_state_new();
	if (a->filter_text && *a->filter_text)
		j->filter = lttv_filter_parse(a->filter_text, a->doc->origin_ns, NULL);
	a->stats_job = j;
	g_mutex_lock(&a->doc->lock);
	/* s0: the model at the start; s1 replays from there so that each
	 * event has its process */
	if (ltt_state_index_seek(a->doc->idx, j->t0, j->s0, &j->err) == 0 &&
	    ltt_state_index_seek(a->doc->idx, j->t0, j->s1, &j->err) == 0 &&
	    (j->it = ltt_iter_new(&a->doc->trace, 1, &j->err)))
		ltt_iter_seek_time(j->it, j->t0, &j->err);
	g_mutex_unlock(&a->doc->lock);
	if (!j->it) {
		stats_finish(j);
		lttv_stats_cancel(a);
		return;
	}
	gtk_text_buffer_set_text(gtk_text_view_get_buffer(GTK_TEXT_VIEW(a->stats_view)),
				 "Computing...", -1);
	j->source = g_idle_add(stats_step, j);
}
