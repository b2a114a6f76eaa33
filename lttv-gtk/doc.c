/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * doc.c - what the viewer has open: one or more traces merged (as
 * lttv-text -t A -t B does: one machine, events in time order), their
 * state index and the row lists of the views (sort, filter, hidden rows).
 */
#include <stdlib.h>
#include <string.h>

#include "lttv-gtk.h"

static gint warnings_reported;
static int live;
/* live: the warnings printed, "path: warning": a trace opened again
 * every second says the same ones, printed once */
static GHashTable *printed_once;
static GMutex printed_lock;

void lttv_set_live(void)
{
	live = 1;
	printed_once = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
}

ltt_trace *lttv_trace_open(const char *path, ltt_error **err)
{
	ltt_open_options o = { .size = sizeof(o), .live = (unsigned)live };

	return ltt_trace_open(path, &o, err);
}

/* Whether a warning is to print: always, or once when live. */
static int first_time(const ltt_trace *t, const char *warning)
{
	char *key;
	int first;

	if (!printed_once)
		return 1;
	key = g_strdup_printf("%s: %s", ltt_trace_path(t), warning);
	g_mutex_lock(&printed_lock);
	first = g_hash_table_add(printed_once, key);
	g_mutex_unlock(&printed_lock);
	return first;
}

void lttv_report_warnings(const ltt_trace *t, unsigned *printed)
{
	unsigned n = ltt_trace_num_warnings(t);

	for (; *printed < n; (*printed)++) {
		const char *w = ltt_trace_warning(t, *printed);

		if (first_time(t, w))
			g_printerr("lttv-gtk: warning: %s: %s\n", ltt_trace_path(t), w);
		g_atomic_int_set(&warnings_reported, 1);
	}
}

int lttv_warnings_reported(void)
{
	return g_atomic_int_get(&warnings_reported);
}

void lttv_doc_report_warnings(lttv_doc *d)
{
	for (unsigned i = 0; i < d->ntraces; i++)
		lttv_report_warnings(d->traces[i], &d->warned[i]);
}

lttv_doc *lttv_doc_open(const char *const *paths, unsigned n, char **error)
{
	lttv_doc *d = g_new0(lttv_doc, 1);
	ltt_error *err = NULL;

	d->sort_col = LTTV_COL_BUSY;
	d->sort_desc = 1;
	d->hidden = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	d->traces = g_new0(ltt_trace *, n ? n : 1);
	d->warned = g_new0(unsigned, n ? n : 1);
	d->paths = g_new0(char *, n + 1);
	d->origin_ns = INT64_MAX;
	/* live: the exit status says what the last version read had, not
	 * what an earlier one lacked while it was written */
	if (live)
		g_atomic_int_set(&warnings_reported, 0);
	for (unsigned i = 0; i < n; i++) {
		const ltt_trace_info *info;

		d->paths[i] = g_strdup(paths[i]);
		d->traces[i] = lttv_trace_open(paths[i], &err);
		if (!d->traces[i])
			break;
		d->ntraces++;
		info = ltt_trace_get_info(d->traces[i]);
		if (info->start_time_ns < d->origin_ns)	/* 0 of relative times, as lttv-text -r */
			d->origin_ns = info->start_time_ns;
		d->events_lost += info->events_lost;
		d->corrupted += info->corrupted_subbuffers;
	}
	if (d->ntraces == n && n) {
		/* LTTV_GTK_INDEX_THREADS=1: index in one thread (to compare) */
		const char *th = g_getenv("LTTV_GTK_INDEX_THREADS");
		ltt_state_index_options o = { .size = sizeof(o),
					      .threads = th ? (unsigned)atoi(th) : 0 };

		d->idx = ltt_state_index_new(d->traces, n, &o, &err);
	}
	if (!d->idx) {
		*error = n == 0 ? g_strdup("no trace given") : n > 1 && d->ntraces < n ?
			g_strdup_printf("%s: %s", paths[d->ntraces], ltt_error_message(err)) :
			g_strdup(ltt_error_message(err));
		ltt_error_free(err);
		lttv_doc_free(d);
		return NULL;
	}
	lttv_doc_report_warnings(d);
	d->view = d->idx;
	d->rtraces = d->traces;
	d->path = g_strjoinv(" + ", d->paths);
	d->start_ns = ltt_state_index_start_ns(d->idx);
	d->end_ns = ltt_state_index_end_ns(d->idx);
	if (d->end_ns <= d->start_ns)
		d->end_ns = d->start_ns + 1;
	return d;
}

ltt_trace **lttv_open_traces(char *const *paths, unsigned n, ltt_error **err)
{
	ltt_trace **t = g_new0(ltt_trace *, n ? n : 1);

	for (unsigned i = 0; i < n; i++)
		if (!(t[i] = lttv_trace_open(paths[i], err))) {
			lttv_close_traces(t, i);
			return NULL;
		}
	return t;
}

void lttv_close_traces(ltt_trace **t, unsigned n)
{
	for (unsigned i = 0; t && i < n; i++)
		ltt_trace_close(t[i]);
	g_free(t);
}

int lttv_doc_open_reader(lttv_doc *d, char **error)
{
	ltt_error *err = NULL;

	d->rtraces = g_new0(ltt_trace *, d->ntraces);
	for (unsigned i = 0; i < d->ntraces; i++) {
		d->rtraces[i] = lttv_trace_open(d->paths[i], &err);
		if (!d->rtraces[i]) {
			*error = g_strdup_printf("%s: %s", d->paths[i], ltt_error_message(err));
			ltt_error_free(err);
			return -1;
		}
	}
	d->view = ltt_state_index_snapshot(d->idx, d->rtraces, d->ntraces);
	return 0;
}

void lttv_doc_publish(lttv_doc *d, ltt_state_index *snapshot)
{
	if (d->view != d->idx)
		ltt_state_index_free(d->view);
	d->view = snapshot;
}

void lttv_doc_free(lttv_doc *d)
{
	if (!d)
		return;
	if (d->view != d->idx)
		ltt_state_index_free(d->view);
	ltt_state_index_free(d->idx);
	if (d->rtraces != d->traces) {
		for (unsigned i = 0; d->rtraces && i < d->ntraces; i++)
			if (d->rtraces[i])
				ltt_trace_close(d->rtraces[i]);
		g_free(d->rtraces);
	}
	for (unsigned i = 0; i < d->ntraces; i++)
		ltt_trace_close(d->traces[i]);
	g_free(d->traces);
	g_free(d->warned);
	g_strfreev(d->paths);
	g_hash_table_destroy(d->hidden);
	lttv_marks_free(d->marks);
	g_free(d->filter);
	g_free(d->path);
	g_free(d);
}

int lttv_doc_index_all(lttv_doc *d, char **error)
{
	ltt_error *err = NULL;
	int r;

	while ((r = ltt_state_index_run(d->idx, 1 << 20, &err)) > 0)
		;
	lttv_doc_report_warnings(d);
	if (r < 0) {
		*error = g_strdup(ltt_error_message(err));
		ltt_error_free(err);
		return -1;
	}
	return 0;
}

uint64_t lttv_busy_ns(const ltt_state_process_info *p)
{
	uint64_t n = 0;

	for (int m = 0; m < LTT_STATE_NUM_MODES; m++)
		if (!(p->pid == 0 && m == LTT_STATE_USER_MODE))	/* idle, not work */
			n += p->cpu_ns[m];
	return n;
}

#define CMP(a, b) (((a) > (b)) - ((a) < (b)))

/*
 * A process row and what it is sorted by, read once: sorting 33 000 rows
 * read each process's facts some 30 times (twice a comparison), a third of
 * the window's thread while it indexed 100 M events.
 */
typedef struct proc_key {
	unsigned index, pid;
	int cpu;
	int64_t value;			/* the column's, but for the name */
	char name[LTT_STATE_NAME_MAX];	/* sorting by name only */
} proc_key;

static int cmp_proc(const void *a, const void *b, void *user)
{
	const lttv_doc *d = user;
	const proc_key *p = a, *q = b;
	int r = d->sort_col == LTTV_COL_NAME ? strcmp(p->name, q->name) : CMP(p->value, q->value);

	if (d->sort_desc)
		r = -r;
	/* then by pid, the idle tasks by CPU, a reused pid by birth */
	if (!r)
		r = CMP(p->pid, q->pid);
	if (!r && p->pid == 0)
		r = CMP(p->cpu, q->cpu);
	if (!r)
		r = CMP(p->index, q->index);
	return r;
}

static void key_of(const lttv_doc *d, unsigned i, const ltt_state_process_info *p,
		   proc_key *k)
{
	k->index = i;
	k->pid = p->pid;
	k->cpu = p->cpu;
	k->value = 0;
	switch (d->sort_col) {
	case LTTV_COL_NAME: g_strlcpy(k->name, p->name, sizeof(k->name)); break;
	case LTTV_COL_PID: k->value = p->pid; break;
	case LTTV_COL_TGID: k->value = p->tgid; break;
	case LTTV_COL_PPID: k->value = p->ppid; break;
	case LTTV_COL_CPU: k->value = p->cpu; break;
	case LTTV_COL_BIRTH: k->value = p->birth_ns; break;
	case LTTV_COL_BUSY: k->value = (int64_t)lttv_busy_ns(p); break;
	default: break;
	}
}

/*
 * A hidden row is named by its pid, not by its place in the index, so
 * that it stays hidden when --follow opens the trace again; the idle
 * tasks, all pid 0, by their CPU too. A pid reused in the trace hides
 * all its processes.
 */
static char *hide_key(const ltt_state_process_info *p)
{
	return p->pid == 0 ? g_strdup_printf("0/%d", p->cpu) : g_strdup_printf("%u", p->pid);
}

static int is_hidden(const lttv_doc *d, const ltt_state_process_info *p)
{
	char *k = hide_key(p);
	int r = g_hash_table_contains(d->hidden, k);

	g_free(k);
	return r;
}

void lttv_doc_hide(lttv_doc *d, unsigned process)
{
	ltt_state_process_info p;

	if (ltt_state_process(ltt_state_index_state(d->view), process, &p) == 0)
		g_hash_table_add(d->hidden, hide_key(&p));
}

void lttv_doc_copy_hidden(lttv_doc *d, const lttv_doc *from)
{
	GHashTableIter it;
	gpointer k;

	g_hash_table_iter_init(&it, from->hidden);
	while (g_hash_table_iter_next(&it, &k, NULL))
		g_hash_table_add(d->hidden, g_strdup(k));
}

static int matches(const lttv_doc *d, const ltt_state_process_info *p)
{
	char pid[16];

	if (!d->filter || !*d->filter)
		return 1;
	snprintf(pid, sizeof(pid), "%u", p->pid);
	if (!strcmp(pid, d->filter))
		return 1;
	return strstr(p->name, d->filter) != NULL;
}

unsigned lttv_doc_rows(lttv_doc *d, int resources, lttv_row **out)
{
	const ltt_state *st = ltt_state_index_state(d->view);
	unsigned n = 0;
	lttv_row *rows;

	if (resources) {
		unsigned nc = ltt_state_num_cpus(st), ni = ltt_state_num_irqs(st);
		unsigned ns = ltt_state_num_softirqs(st);

		rows = g_new(lttv_row, nc + ni + ns + 1);
		for (unsigned c = 0; c < nc; c++)
			rows[n++] = (lttv_row){ LTT_STATE_ROW_CPU, c };
		for (unsigned i = 0; i < ni; i++)
			rows[n++] = (lttv_row){ LTT_STATE_ROW_IRQ, i };
		for (unsigned i = 0; i < ns; i++)
			rows[n++] = (lttv_row){ LTT_STATE_ROW_SOFTIRQ, i };
	} else {
		unsigned np = ltt_state_num_processes(st);
		int any_hidden = g_hash_table_size(d->hidden) > 0;
		proc_key *keys = g_new(proc_key, np + 1);

		for (unsigned i = 0; i < np; i++) {
			ltt_state_process_info p;

			ltt_state_process(st, i, &p);
			if (any_hidden && is_hidden(d, &p))
				continue;
			if (d->only_marked && d->marks &&
			    !lttv_marks_count(d->marks, LTT_STATE_ROW_PROCESS, i))
				continue;
			if (!matches(d, &p))
				continue;
			key_of(d, i, &p, &keys[n++]);
		}
		g_qsort_with_data(keys, (gint)n, sizeof(proc_key), cmp_proc, d);
		rows = g_new(lttv_row, n + 1);
		for (unsigned r = 0; r < n; r++)
			rows[r] = (lttv_row){ LTT_STATE_ROW_PROCESS, keys[r].index };
		g_free(keys);
	}
	*out = rows;
	return n;
}
