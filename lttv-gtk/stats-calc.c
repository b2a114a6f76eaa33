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

#define TYPE_CACHE 64
#define CPU_CACHE 4096		/* more CPUs: their key is hashed */

struct lttv_stats_calc {
	lttv_doc *doc;
	int64_t t0, t1;
	ltt_iter *it;
	ltt_state *s0, *s1;
	lttv_filter *filter;
	GHashTable *types, *cpus, *procs;
	/* the same counts found without a key printed and hashed for each
	 * event (that was 40 % of the time at 10 M events): a type by its
	 * names' pointers (the trace's, fixed while it is open), a CPU and
	 * a process by their numbers */
	struct { const char *fac, *name; count *n; } type_cache[TYPE_CACHE];
	GPtrArray *cpu_of, *proc_of;
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

/* The name of a process of the events per process, "cat (was sh)": the
 * name it has at the end of the range, as the CPU times name it, with
 * the names it had before; its key is its index in the model. Its pid
 * goes to *pid (LTTV_STATS_NONE when not known: the label is the key). */
static char *proc_label(const lttv_stats_calc *c, const count *k, uint64_t *pid)
{
	ltt_state_process_info pi;
	GString *was;

	*pid = LTTV_STATS_NONE;
	if (!k->names || ltt_state_process(c->s1, (unsigned)atoi(k->key), &pi) < 0)
		return g_strdup(ltt_text_safe(k->key));
	*pid = pi.pid;
	was = g_string_new(NULL);
	for (guint i = 0; i < k->names->len; i++) {
		const char *n = g_ptr_array_index(k->names, i);
		guint j = 0;

		while (j < i && strcmp(g_ptr_array_index(k->names, j), n))
			j++;
		if (strcmp(n, pi.name) && j == i)	/* another name, said once */
			g_string_append_printf(was, "%s%s", was->len ? ", " : "",
					       *n ? ltt_text_safe(n) : "-");
	}
	{
		char *l = g_strdup_printf("%s%s%s%s", *pi.name ? ltt_text_safe(pi.name) : "-",
					  was->len ? " (was " : "", was->str,
					  was->len ? ")" : "");

		g_string_free(was, TRUE);
		return l;
	}
}

static gint by_count(gconstpointer x, gconstpointer y)
{
	const count *a = *(count *const *)x, *b = *(count *const *)y;

	return a->n < b->n ? 1 : a->n > b->n ? -1 : strcmp(a->key, b->key);
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
	c->cpu_of = g_ptr_array_new();
	c->proc_of = g_ptr_array_new();
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

/* One more in the count at slot i of by (keyed "fmt" in h the first time). */
static count *count_in(GHashTable *h, GPtrArray *by, unsigned i, const char *fmt, unsigned v)
{
	count *n = i < by->len ? g_ptr_array_index(by, i) : NULL;
	char key[32];

	if (n) {
		n->n++;
		return n;
	}
	snprintf(key, sizeof(key), fmt, v);
	n = add_count(h, key);
	if (i >= by->len)
		g_ptr_array_set_size(by, (gint)i + 1);
	g_ptr_array_index(by, i) = n;
	return n;
}

static void count_cpu(lttv_stats_calc *c, unsigned cpu)
{
	char key[32];

	if (cpu < CPU_CACHE) {
		count_in(c->cpus, c->cpu_of, cpu, "cpu %u", cpu);
		return;
	}
	snprintf(key, sizeof(key), "cpu %u", cpu);
	add_count(c->cpus, key);
}

static void count_type(lttv_stats_calc *c, const ltt_event *ev)
{
	const char *fac = ltt_event_facility_name(ev), *name = ltt_event_name(ev);
	unsigned h = (unsigned)(((uintptr_t)name >> 3) % TYPE_CACHE);
	char key[128];

	if (c->type_cache[h].n && c->type_cache[h].name == name && c->type_cache[h].fac == fac) {
		c->type_cache[h].n->n++;
		return;
	}
	snprintf(key, sizeof(key), "%s.%s", fac, name);
	c->type_cache[h].fac = fac;
	c->type_cache[h].name = name;
	c->type_cache[h].n = add_count(c->types, key);
}

int lttv_stats_calc_step(lttv_stats_calc *c, unsigned max_events)
{
	const ltt_event *ev;
	int r;

	for (unsigned n = 0; n < max_events && !c->done; n++) {
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
		count_type(c, ev);
		count_cpu(c, ltt_event_cpu(ev));
		/* by process (a pid's names change at an exec): named at the
		 * end, as the CPU times are (see proc_label) */
		i = ltt_state_cpu_process(c->s1, ltt_event_cpu(ev));
		if (i >= 0 && ltt_state_process(c->s1, (unsigned)i, &pi) == 0) {
			add_name(count_in(c->procs, c->proc_of, (unsigned)i, "%u", (unsigned)i),
				 pi.name);
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

/* ---- the tables ---- */

static const lttv_stats_column cpu_cols[] = {
	{ "pid", NULL, LTTV_STATS_COUNT, 7 },
	{ "tgid", NULL, LTTV_STATS_COUNT, 7 },
	{ "name", NULL, LTTV_STATS_TEXT, -16 },
	/* ns[] in the order of the modes (ltttrace-state.h) */
	{ "user", "s", LTTV_STATS_NS, 13 },
	{ "syscall", "s", LTTV_STATS_NS, 13 },
	{ "trap", "s", LTTV_STATS_NS, 13 },
	{ "irq", "s", LTTV_STATS_NS, 13 },
	{ "softirq", "s", LTTV_STATS_NS, 13 },
	{ "unknown", "s", LTTV_STATS_NS, 13 },
	{ "idle", "s", LTTV_STATS_NS, 13 },
	{ "total", "s", LTTV_STATS_NS, 13 },
};
G_STATIC_ASSERT(G_N_ELEMENTS(cpu_cols) == 3 + LTT_STATE_NUM_MODES + 2);

static const lttv_stats_column type_cols[] = {
	{ "events", NULL, LTTV_STATS_COUNT, 10 },
	{ "type", NULL, LTTV_STATS_TEXT, 0 },
};
static const lttv_stats_column cpu_count_cols[] = {
	{ "events", NULL, LTTV_STATS_COUNT, 10 },
	{ "CPU", NULL, LTTV_STATS_TEXT, 0 },
};
static const lttv_stats_column proc_cols[] = {
	{ "events", NULL, LTTV_STATS_COUNT, 10 },
	{ "pid", NULL, LTTV_STATS_COUNT, -6 },
	{ "name", NULL, LTTV_STATS_TEXT, 0 },
};

static void table_init(lttv_stats_table *t, const char *id, const char *title,
		       const lttv_stats_column *cols, unsigned ncols, unsigned nrows)
{
	t->id = id;
	t->title = title;
	t->cols = cols;
	t->ncols = ncols;
	t->nrows = nrows;
	t->num = g_new0(uint64_t, (size_t)nrows * ncols);
	t->text = g_new0(char *, (size_t)nrows * ncols);
}

static void cpu_table(lttv_stats_table *t, const lttv_stats_calc *c)
{
	ltt_state_cpu_time *rows;
	unsigned n = ltt_state_cpu_times(c->s0, c->t0, c->s1, c->t1, &rows);
	uint64_t *all;

	table_init(t, "cpu-time", "CPU time per process (seconds; an idle task's idle loop "
		   "is idle, not in its total)", cpu_cols, G_N_ELEMENTS(cpu_cols), n + 1);
	t->has_total = 1;
	all = t->num + (size_t)n * t->ncols;
	for (unsigned r = 0; r < n; r++) {
		uint64_t *v = t->num + (size_t)r * t->ncols;

		v[0] = rows[r].pid;
		v[1] = rows[r].tgid;
		t->text[(size_t)r * t->ncols + 2] =
			g_strdup(*rows[r].name ? ltt_text_safe(rows[r].name) : "-");
		for (unsigned m = 0; m < LTT_STATE_NUM_MODES; m++)
			v[3 + m] = rows[r].ns[m];
		v[3 + LTT_STATE_NUM_MODES] = rows[r].idle;
		v[4 + LTT_STATE_NUM_MODES] = rows[r].total;
		for (unsigned k = 3; k < t->ncols; k++)
			all[k] += v[k];
	}
	all[0] = all[1] = LTTV_STATS_NONE;
	t->text[(size_t)n * t->ncols + 2] = g_strdup("all");
	free(rows);
}

/* a table of counts, busiest first; procs_of: the events per process */
static void count_table(lttv_stats_table *t, const char *id, const char *title,
			const lttv_stats_column *cols, unsigned ncols, GHashTable *h,
			const lttv_stats_calc *procs_of)
{
	GPtrArray *v = g_ptr_array_new();
	GHashTableIter it;
	gpointer k, val;

	g_hash_table_iter_init(&it, h);
	while (g_hash_table_iter_next(&it, &k, &val))
		g_ptr_array_add(v, val);
	g_ptr_array_sort(v, by_count);
	table_init(t, id, title, cols, ncols, v->len);
	for (guint i = 0; i < v->len; i++) {
		count *cn = v->pdata[i];
		uint64_t *row = t->num + (size_t)i * ncols;

		row[0] = cn->n;
		/* keys and labels hold names from the trace: shown safely */
		if (procs_of)
			t->text[(size_t)i * ncols + 2] = proc_label(procs_of, cn, &row[1]);
		else
			t->text[(size_t)i * ncols + 1] = g_strdup(ltt_text_safe(cn->key));
	}
	g_ptr_array_free(v, TRUE);
}

unsigned lttv_stats_calc_tables(const lttv_stats_calc *c, lttv_stats_table **out)
{
	lttv_stats_table *t = g_new0(lttv_stats_table, 4);

	cpu_table(&t[0], c);
	count_table(&t[1], "types", "Events per type", type_cols, G_N_ELEMENTS(type_cols),
		    c->types, NULL);
	count_table(&t[2], "cpus", "Events per CPU", cpu_count_cols,
		    G_N_ELEMENTS(cpu_count_cols), c->cpus, NULL);
	count_table(&t[3], "processes", "Events per process", proc_cols,
		    G_N_ELEMENTS(proc_cols), c->procs, c);
	*out = t;
	return 4;
}

void lttv_stats_tables_free(lttv_stats_table *t, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		for (size_t k = 0; k < (size_t)t[i].nrows * t[i].ncols; k++)
			g_free(t[i].text[k]);
		g_free(t[i].text);
		g_free(t[i].num);
	}
	g_free(t);
}

void lttv_stats_format(lttv_stats_kind kind, uint64_t num, char *buf, size_t size)
{
	if (kind == LTTV_STATS_TEXT || num == LTTV_STATS_NONE)
		snprintf(buf, size, "%s", "");
	else if (kind == LTTV_STATS_NS)	/* cut, not rounded: as lttv-text */
		snprintf(buf, size, "%" PRIu64 ".%06" PRIu64, num / 1000000000,
			 num % 1000000000 / 1000);
	else
		snprintf(buf, size, "%" PRIu64, num);
}

/* ---- the text ---- */

static const char *cell(const lttv_stats_table *t, unsigned r, unsigned k, char *buf, size_t size)
{
	if (t->cols[k].kind == LTTV_STATS_TEXT)
		return t->text[(size_t)r * t->ncols + k];
	lttv_stats_format(t->cols[k].kind, t->num[(size_t)r * t->ncols + k], buf, size);
	return buf;
}

/* The CPU times as lttv-text --process-stats prints them (t51 compares
 * them byte for byte): a header of the column names, then the rows. */
static void print_columns(GString *out, const lttv_stats_table *t)
{
	g_string_append_printf(out, "\n%s:\n", t->title);
	for (unsigned k = 0; k < t->ncols; k++)
		g_string_append_printf(out, "%s%*s", k ? " " : "", t->cols[k].width,
				       t->cols[k].name);
	g_string_append_c(out, '\n');
	for (unsigned r = 0; r < t->nrows; r++) {
		for (unsigned k = 0; k < t->ncols; k++) {
			char buf[32];

			g_string_append_printf(out, "%s%*s", k ? " " : "", t->cols[k].width,
					       cell(t, r, k, buf, sizeof(buf)));
		}
		g_string_append_c(out, '\n');
	}
}

/* A table of counts: the 40 busiest, "  count  label", the label the
 * other columns ("52     cat (was sh)"). */
static void print_counts(GString *out, const lttv_stats_table *t)
{
	g_string_append_printf(out, "\n%s\n", t->title);
	for (unsigned r = 0; r < t->nrows && r < 40; r++) {
		char buf[32];

		g_string_append_printf(out, "  %*s ", t->cols[0].width, cell(t, r, 0, buf, sizeof(buf)));
		for (unsigned k = 1; k < t->ncols; k++) {
			const char *x = cell(t, r, k, buf, sizeof(buf));

			if (*x)	/* a pid not known: the label alone */
				g_string_append_printf(out, " %*s", t->cols[k].width, x);
		}
		g_string_append_c(out, '\n');
	}
}

static void print_head(GString *out, const lttv_stats_calc *c)
{
	const lttv_doc *d = c->doc;
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
}

static void print_ignored(GString *out, const lttv_stats_calc *c)
{
	if (ltt_state_num_ignored(c->s1))
		g_string_append_printf(out, "(the state engine ignored %" PRIu64 " events: %s)\n",
				       ltt_state_num_ignored(c->s1),
				       ltt_state_ignored_reason(c->s1));
}

static void print_error(GString *out, const lttv_stats_calc *c)
{
	if (c->err)
		g_string_append_printf(out, "\nerror: %s\n", ltt_error_message(c->err));
}

char *lttv_stats_calc_summary(const lttv_stats_calc *c)
{
	GString *out = g_string_new(NULL);

	print_head(out, c);
	print_ignored(out, c);
	print_error(out, c);
	return g_string_free(out, FALSE);
}

char *lttv_stats_calc_text(const lttv_stats_calc *c)
{
	GString *out = g_string_new(NULL);
	lttv_stats_table *t;
	unsigned n = lttv_stats_calc_tables(c, &t);

	print_head(out, c);
	print_columns(out, &t[0]);
	print_ignored(out, c);
	for (unsigned i = 1; i < n; i++)
		print_counts(out, &t[i]);
	print_error(out, c);
	lttv_stats_tables_free(t, n);
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
	g_ptr_array_free(c->cpu_of, TRUE);
	g_ptr_array_free(c->proc_of, TRUE);
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
