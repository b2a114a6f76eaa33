/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * stats-calc.c - the Statistics of a time range, without GTK: what the
 * Statistics tab shows (stats.c runs it in slices) and what
 * `lttv-gtk -t TRACE --stats [--range A..B]` prints.
 *
 *   - lost events first (the whole trace's, known at open);
 *   - the CPU time of every process per mode in the range, from the
 *     library's one computation (ltt_state_cpu_times(): the model at the
 *     range's end minus the model at its start), printed as
 *     lttv-text --process-stats prints it, so that the two can be compared;
 *   - the events of the range per type, CPU and process (those that match
 *     the filter, if one is given).
 *
 * The range is clamped to the data: past the last event nothing is known,
 * so nothing is charged (a fitted view used to run on past it and charge
 * the tail to the last state).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lttv-gtk.h"
#include "lttv-filter.h"

typedef struct count {
	char *key;
	uint64_t n;
	GPtrArray *names;	/* events per process: the names it had, in order */
} count;

struct lttv_stats_calc {
	lttv_doc *doc;
	int64_t t0, t1;
	ltt_iter *it;
	ltt_state *s0, *s1;
	lttv_filter *filter;
	GHashTable *types, *cpus, *procs;
	uint64_t total;
	ltt_error *err;
	int done;
};

static void count_free(gpointer p)
{
	count *c = p;

	g_free(c->key);
	if (c->names)
		g_ptr_array_free(c->names, TRUE);
	g_free(c);
}

static count *add_count(GHashTable *h, const char *key)
{
	count *c = g_hash_table_lookup(h, key);

	if (!c) {
		c = g_new0(count, 1);
		c->key = g_strdup(key);
		g_hash_table_insert(h, c->key, c);
	}
	c->n++;
	return c;
}

/* A name the process had at one of its events (kept once, in order). */
static void add_name(count *c, const char *name)
{
	if (!c->names)
		c->names = g_ptr_array_new_with_free_func(g_free);
	if (!c->names->len || strcmp(g_ptr_array_index(c->names, c->names->len - 1), name))
		g_ptr_array_add(c->names, g_strdup(name));
}

/* "52     cat (was sh)": a process of the events per process, by the pid
 * and the name it has at the end of the range, as the CPU times name it,
 * with the names it had before; its key is its index in the model. */
static void proc_label(const lttv_stats_calc *c, const count *k, char *buf, size_t size)
{
	ltt_state_process_info pi;
	GString *was = g_string_new(NULL);

	if (!k->names || ltt_state_process(c->s1, (unsigned)atoi(k->key), &pi) < 0) {
		snprintf(buf, size, "%s", ltt_text_safe(k->key));
		g_string_free(was, TRUE);
		return;
	}
	for (guint i = 0; i < k->names->len; i++) {
		const char *n = g_ptr_array_index(k->names, i);
		guint j = 0;

		while (j < i && strcmp(g_ptr_array_index(k->names, j), n))
			j++;
		if (strcmp(n, pi.name) && j == i)	/* another name, said once */
			g_string_append_printf(was, "%s%s", was->len ? ", " : "",
					       *n ? ltt_text_safe(n) : "-");
	}
	snprintf(buf, size, "%-6u %s%s%s%s", pi.pid, *pi.name ? ltt_text_safe(pi.name) : "-",
		 was->len ? " (was " : "", was->str, was->len ? ")" : "");
	g_string_free(was, TRUE);
}

static gint by_count(gconstpointer x, gconstpointer y)
{
	const count *a = *(count *const *)x, *b = *(count *const *)y;

	return a->n < b->n ? 1 : a->n > b->n ? -1 : strcmp(a->key, b->key);
}

static void print_counts(GString *out, const char *title, GHashTable *h,
			 const lttv_stats_calc *procs_of)
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
		char label[160];

		/* keys and labels hold names from the trace: shown safely */
		if (procs_of)
			proc_label(procs_of, c, label, sizeof(label));
		g_string_append_printf(out, "  %10" PRIu64 "  %s\n", c->n,
				       procs_of ? label : ltt_text_safe(c->key));
	}
	g_ptr_array_free(v, TRUE);
}

lttv_stats_calc *lttv_stats_calc_new(lttv_doc *d, int64_t t0, int64_t t1,
				     const char *filter_text)
{
	lttv_stats_calc *c = g_new0(lttv_stats_calc, 1);

	c->doc = d;
	c->t0 = t0 > d->start_ns ? t0 : d->start_ns;
	c->t1 = t1 < d->end_ns ? t1 : d->end_ns;
	if (c->t1 < c->t0)
		c->t1 = c->t0;
	c->types = g_hash_table_new_full(g_str_hash, g_str_equal, NULL, count_free);
	c->cpus = g_hash_table_new_full(g_str_hash, g_str_equal, NULL, count_free);
	c->procs = g_hash_table_new_full(g_str_hash, g_str_equal, NULL, count_free);
	c->s0 = ltt_state_new();
	c->s1 = ltt_state_new();
	if (filter_text && *filter_text)
		c->filter = lttv_filter_parse(filter_text, d->origin_ns, d->rtraces, d->ntraces, NULL);
	/* s0: the model at the start; s1 replays from there so that each
	 * event has its process */
	if (ltt_state_index_seek(d->view, c->t0, c->s0, &c->err) == 0 &&
	    (c->it = ltt_iter_new(d->rtraces, d->ntraces, &c->err)) &&
	    ltt_iter_seek_time(c->it, c->t0, &c->err) == 0)
		ltt_state_copy(c->s1, c->s0);
	else
		c->done = 1;
	return c;
}

int lttv_stats_calc_step(lttv_stats_calc *c, unsigned max_events)
{
	const ltt_event *ev;
	int r;

	for (unsigned n = 0; n < max_events && !c->done; n++) {
		char key[128];
		int i;
		ltt_state_process_info pi;

		/* the range is [t0, t1]: a fitted view ends on the last event */
		if ((r = ltt_iter_next(c->it, &ev, &c->err)) <= 0 ||
		    ltt_event_time_ns(ev) > c->t1) {
			c->done = 1;
			break;
		}
		ltt_state_process_event(c->s1, ev);
		if (!lttv_filter_match(c->filter, ev, c->s1))
			continue;
		c->total++;
		snprintf(key, sizeof(key), "%s.%s", ltt_event_facility_name(ev), ltt_event_name(ev));
		add_count(c->types, key);
		snprintf(key, sizeof(key), "cpu %u", ltt_event_cpu(ev));
		add_count(c->cpus, key);
		/* by process (a pid's names change at an exec): named at the
		 * end, as the CPU times are (see proc_label) */
		i = ltt_state_cpu_process(c->s1, ltt_event_cpu(ev));
		if (i >= 0 && ltt_state_process(c->s1, (unsigned)i, &pi) == 0) {
			snprintf(key, sizeof(key), "%u", (unsigned)i);
			add_name(add_count(c->procs, key), pi.name);
		} else {
			add_count(c->procs, "?");
		}
	}
	if (c->done && c->it) {	/* the model at the end of the range, for CPU times */
		ltt_state_index_seek(c->doc->view, c->t1, c->s1, c->err ? NULL : &c->err);
		ltt_iter_free(c->it);
		c->it = NULL;
	}
	return !c->done;
}

uint64_t lttv_stats_calc_events(const lttv_stats_calc *c)
{
	return c->total;
}

/* seconds with 6 decimals, cut (not rounded): as lttv-text prints them */
static void add_seconds(GString *out, uint64_t ns)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%" PRIu64 ".%06" PRIu64, ns / 1000000000,
		 ns % 1000000000 / 1000);
	g_string_append_printf(out, " %13s", buf);
}

static void print_cpu_times(GString *out, const lttv_stats_calc *c)
{
	ltt_state_cpu_time *rows;
	unsigned n = ltt_state_cpu_times(c->s0, c->t0, c->s1, c->t1, &rows);
	uint64_t sum[LTT_STATE_NUM_MODES] = { 0 }, all = 0, idle = 0;

	g_string_append(out, "\nCPU time per process (seconds; an idle task's idle loop is idle, "
			"not in its total):\n");
	g_string_append_printf(out, "%7s %7s %-16s %13s %13s %13s %13s %13s %13s %13s %13s\n",
			       "pid", "tgid", "name", "user", "syscall", "trap", "irq", "softirq",
			       "unknown", "idle", "total");
	for (unsigned r = 0; r < n; r++) {
		g_string_append_printf(out, "%7u %7u %-16s", rows[r].pid, rows[r].tgid,
				       *rows[r].name ? ltt_text_safe(rows[r].name) : "-");
		for (unsigned m = 0; m < LTT_STATE_NUM_MODES; m++) {
			add_seconds(out, rows[r].ns[m]);
			sum[m] += rows[r].ns[m];
		}
		add_seconds(out, rows[r].idle);
		add_seconds(out, rows[r].total);
		g_string_append_c(out, '\n');
		all += rows[r].total;
		idle += rows[r].idle;
	}
	g_string_append_printf(out, "%7s %7s %-16s", "", "", "all");
	for (unsigned m = 0; m < LTT_STATE_NUM_MODES; m++)
		add_seconds(out, sum[m]);
	add_seconds(out, idle);
	add_seconds(out, all);
	g_string_append_c(out, '\n');
	free(rows);
}

char *lttv_stats_calc_text(const lttv_stats_calc *c)
{
	const lttv_doc *d = c->doc;
	GString *out = g_string_new(NULL);
	char dur[64];

	if (d->events_lost || d->corrupted)
		g_string_append_printf(out, "*** THE KERNEL LOST %" PRIu64 " EVENTS AND %" PRIu64
				       " SUB-BUFFERS WERE CORRUPTED: states may be wrong ***\n",
				       d->events_lost, d->corrupted);
	lttv_format_duration(c->t1 - c->t0, dur, sizeof(dur));
	g_string_append_printf(out, "Range %.9f .. %.9f s (%s)%s\n",
			       (c->t0 - d->origin_ns) / 1e9, (c->t1 - d->origin_ns) / 1e9,
			       dur, c->filter ? ", events that match the filter" : "");
	g_string_append_printf(out, "%" PRIu64 " events\n", c->total);
	print_cpu_times(out, c);
	if (ltt_state_num_ignored(c->s1))
		g_string_append_printf(out, "(the state engine ignored %" PRIu64 " events: %s)\n",
				       ltt_state_num_ignored(c->s1),
				       ltt_state_ignored_reason(c->s1));
	print_counts(out, "Events per type", c->types, NULL);
	print_counts(out, "Events per CPU", c->cpus, NULL);
	print_counts(out, "Events per process", c->procs, c);
	if (c->err)
		g_string_append_printf(out, "\nerror: %s\n", ltt_error_message(c->err));
	return g_string_free(out, FALSE);
}

int lttv_stats_calc_failed(const lttv_stats_calc *c)
{
	return c->err != NULL;
}

void lttv_stats_calc_free(lttv_stats_calc *c)
{
	if (!c)
		return;
	ltt_iter_free(c->it);
	ltt_state_free(c->s0);
	ltt_state_free(c->s1);
	lttv_filter_free(c->filter);
	g_hash_table_destroy(c->types);
	g_hash_table_destroy(c->cpus);
	g_hash_table_destroy(c->procs);
	ltt_error_free(c->err);
	g_free(c);
}

int lttv_stats_cli(const char *const *traces, unsigned ntraces, const char *range)
{
	char *error = NULL;
	lttv_doc *d = lttv_doc_open(traces, ntraces, &error);
	lttv_stats_calc *c;
	int64_t t0, t1;
	char *text;
	int rc;

	if (d) {
		t0 = d->start_ns;
		t1 = d->end_ns;
	}
	if (d && range && lttv_range_arg(d, range, &t0, &t1, &error) < 0) {
		fprintf(stderr, "lttv-gtk: %s\n", error);
		g_free(error);
		lttv_doc_free(d);
		return 2;
	}
	if (!d || lttv_doc_index_all(d, &error) < 0) {
		fprintf(stderr, "lttv-gtk: %s\n", error);
		g_free(error);
		lttv_doc_free(d);
		return 1;
	}
	c = lttv_stats_calc_new(d, t0, t1, NULL);
	while (lttv_stats_calc_step(c, 1u << 20))
		;
	text = lttv_stats_calc_text(c);
	fputs(text, stdout);
	rc = lttv_stats_calc_failed(c) ? 1 : 0;
	if (rc)	/* said on stderr too: the text may go to a file */
		fprintf(stderr, "lttv-gtk: statistics stopped by an error: %s\n",
			ltt_error_message(c->err));
	if (!rc && ltt_state_num_ignored(c->s1)) {	/* the status says so too (3) */
		fprintf(stderr, "lttv-gtk: warning: the state engine ignored %" PRIu64
			" events: %s\n", ltt_state_num_ignored(c->s1),
			ltt_state_ignored_reason(c->s1));
		rc = 3;
	}
	g_free(text);
	lttv_stats_calc_free(c);
	lttv_doc_free(d);
	return rc;
}
