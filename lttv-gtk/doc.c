/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * doc.c - what the viewer has open: one or more traces merged (as
 * lttv-text -t A -t B does: one machine, events in time order), their
 * state index and the row lists of the views (sort, filter, hidden rows).
 */
#include <stdio.h>
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

/* The traces of paths opened into a new doc (d->ntraces of them: all, or
 * those before the one that failed, with *err set). */
static lttv_doc *doc_traces(const char *const *paths, unsigned n, ltt_error **err)
{
	lttv_doc *d = g_new0(lttv_doc, 1);

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
		d->traces[i] = lttv_trace_open(paths[i], err);
		if (!d->traces[i])
			break;
		d->ntraces++;
		info = ltt_trace_get_info(d->traces[i]);
		if (info->start_time_ns < d->origin_ns)	/* 0 of relative times, as lttv-text -r */
			d->origin_ns = info->start_time_ns;
		d->events_lost += info->events_lost;
		d->corrupted += info->corrupted_subbuffers;
	}
	return d;
}

/* d with its index: what the index says of it, its warnings printed. */
static void doc_indexed(lttv_doc *d)
{
	lttv_doc_report_warnings(d);
	d->view = d->idx;
	d->rtraces = d->traces;
	d->path = g_strjoinv(" + ", d->paths);
	d->start_ns = ltt_state_index_start_ns(d->idx);
	d->end_ns = ltt_state_index_end_ns(d->idx);
	if (d->end_ns <= d->start_ns)
		d->end_ns = d->start_ns + 1;
}

lttv_doc *lttv_doc_open(const char *const *paths, unsigned n, char **error)
{
	ltt_error *err = NULL;
	lttv_doc *d = doc_traces(paths, n, &err);

	if (d->ntraces == n && n) {
		/* LTTV_GTK_INDEX_THREADS=1: index in one thread (to compare) */
		const char *th = g_getenv("LTTV_GTK_INDEX_THREADS");
		ltt_state_index_options o = { .size = sizeof(o),
					      .threads = th ? (unsigned)atoi(th) : 0,
					      .live = (unsigned)live };

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
	doc_indexed(d);
	return d;
}

lttv_doc *lttv_doc_reopen(lttv_doc *old, char **error, char **why)
{
	ltt_error *err = NULL;
	lttv_doc *d = doc_traces((const char *const *)old->paths, old->ntraces, &err);
	int r;

	*why = NULL;
	if (!old->idx) {	/* its index went to a doc that failed */
		lttv_doc_free(d);
		*why = g_strdup("the last opening failed");
		return lttv_doc_open((const char *const *)old->paths, old->ntraces, error);
	}
	if (d->ntraces < old->ntraces) {
		*error = g_strdup_printf("%s: %s", old->paths[d->ntraces],
					 ltt_error_message(err));
		ltt_error_free(err);
		lttv_doc_free(d);
		return NULL;
	}
	r = ltt_state_index_extend(old->idx, d->traces, d->ntraces, why, &err);
	if (r != 0) {
		if (r < 0)
			*why = g_strdup(ltt_error_message(err));
		ltt_error_free(err);
		lttv_doc_free(d);
		return lttv_doc_open((const char *const *)old->paths, old->ntraces, error);
	}
	/* the index goes on in d, over d's traces: old keeps its snapshot */
	d->idx = old->idx;
	old->idx = NULL;
	if (old->view == d->idx)
		old->view = NULL;
	doc_indexed(d);
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

int lttv_doc_output_is_input(const lttv_doc *d, const char *opt, const char *file)
{
	for (unsigned i = 0; i < d->ntraces; i++)
		if (ltt_trace_path_is_input(d->traces[i], file)) {
			/* never over the trace it shows (issues 16, 31) */
			fprintf(stderr, "lttv-gtk: %s %s: it is an input (a file of the "
				"trace %s, or inside the trace): refused\n", opt, file,
				d->paths[i]);
			return 1;
		}
	return 0;
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

/* A process there before the trace was born before any other: its
 * birth_ns is only when the trace first saw it. */
static int64_t born(const ltt_state_process_info *p)
{
	return p->before_trace ? INT64_MIN : p->birth_ns;
}

/*
 * The row a process hangs under: a thread (pid != tgid) under its
 * process's row, a process under its parent's; of the processes with that
 * pid (pids are reused), the latest born no later than it. -1: none.
 */
static int up_row(GHashTable *by_pid, const ltt_state_process_info *pi, unsigned r)
{
	unsigned up = pi[r].tgid && pi[r].tgid != pi[r].pid ? pi[r].tgid : pi[r].ppid;
	int best = -1;

	if (!pi[r].pid || !up)	/* the idle tasks, and init: roots */
		return -1;
	for (GSList *l = g_hash_table_lookup(by_pid, GUINT_TO_POINTER(up + 1)); l; l = l->next) {
		int c = GPOINTER_TO_INT(l->data);

		if (c != (int)r && born(&pi[c]) <= born(&pi[r]) &&
		    (best < 0 || born(&pi[c]) > born(&pi[best])))
			best = c;
	}
	return best;
}

/*
 * The sorted process rows as a tree (doc->tree): each row under the row
 * up_row() gives, depth first, siblings in the sorted order; a row
 * without one (its parent has no row: hidden, filtered, before the
 * trace) is a root. A loop (equal birth times and reused pids) is cut
 * where it closes. Each row's depth is set, for the indent of its name.
 */
static void as_tree(const ltt_state *st, lttv_row *rows, unsigned n)
{
	GHashTable *by_pid = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL,
						   (GDestroyNotify)g_slist_free);
	ltt_state_process_info *pi = g_new(ltt_state_process_info, n + 1);
	int *parent = g_new(int, n + 1), *first = g_new(int, n + 1), *next = g_new(int, n + 1);
	int *last = g_new(int, n + 1), *stack = g_new(int, n + 1);
	unsigned *depth = g_new(unsigned, n + 1);
	char *mark = g_new0(char, n + 1);	/* 1: on the walk now, 2: done */
	lttv_row *out = g_new(lttv_row, n + 1);
	unsigned k = 0;
	int sp = 0;

	for (unsigned r = 0; r < n; r++) {
		gpointer key;
		GSList *same;

		ltt_state_process(st, rows[r].index, &pi[r]);
		pi[r].name = NULL;	/* valid only until the next call */
		key = GUINT_TO_POINTER(pi[r].pid + 1);
		same = g_hash_table_lookup(by_pid, key);
		g_hash_table_steal(by_pid, key);	/* the list lives on */
		g_hash_table_insert(by_pid, key, g_slist_prepend(same, GINT_TO_POINTER((int)r)));
		first[r] = last[r] = next[r] = -1;
	}
	for (unsigned r = 0; r < n; r++)
		parent[r] = up_row(by_pid, pi, r);
	for (unsigned r = 0; r < n; r++) {	/* loops cut */
		int a = (int)r;

		sp = 0;
		while (a >= 0 && !mark[a]) {
			mark[a] = 1;
			stack[sp++] = a;
			a = parent[a];
		}
		if (a >= 0 && mark[a] == 1)	/* back on this walk: a loop */
			parent[stack[sp - 1]] = -1;
		while (sp > 0)
			mark[stack[--sp]] = 2;
	}
	for (unsigned r = 0; r < n; r++) {	/* children, in the sorted order */
		int p = parent[r];

		if (p < 0)
			continue;
		if (last[p] < 0)
			first[p] = (int)r;
		else
			next[last[p]] = (int)r;
		last[p] = (int)r;
	}
	for (int r = (int)n - 1; r >= 0; r--)	/* the roots, the first on top */
		if (parent[r] < 0) {
			depth[r] = 0;
			stack[sp++] = r;
		}
	while (sp > 0) {
		int r = stack[--sp], m = 0, c;

		out[k] = rows[r];
		out[k++].depth = depth[r];
		for (c = first[r]; c >= 0; c = next[c])
			m++;
		sp += m;	/* the children, the first on top */
		c = first[r];
		for (int j = 1; j <= m; j++, c = next[c]) {
			depth[c] = depth[r] + 1;
			stack[sp - j] = c;
		}
	}
	g_assert(k == n);	/* no loop left: every row is reached once */
	memcpy(rows, out, n * sizeof(*rows));
	g_free(pi);
	g_free(parent);
	g_free(first);
	g_free(next);
	g_free(last);
	g_free(stack);
	g_free(depth);
	g_free(mark);
	g_free(out);
	g_hash_table_destroy(by_pid);
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
			rows[r] = (lttv_row){ LTT_STATE_ROW_PROCESS, keys[r].index, 0 };
		g_free(keys);
		if (d->tree)
			as_tree(st, rows, n);
	}
	*out = rows;
	return n;
}
