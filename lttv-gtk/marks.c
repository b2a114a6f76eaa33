/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * marks.c - the event filter on the time line: the events the expression
 * of the event filter matches, as marks on the rows of the control flow
 * (the process running the event's CPU just after it, as lttv-gtk
 * --filter and Find name it) and of the resource view (the event's CPU).
 * The bars stay the true states: a filter chooses what is pointed at,
 * never what the machine did (docs/viewer.md).
 *
 * One pass over the whole trace, with the state engine from the start so
 * that its process numbers are the index's (both read the same events in
 * the same order). The window runs it in a worker thread on the traces
 * opened again (two threads never read one ltt_trace), with progress and
 * stop shared atomically, and gets the result in one piece when it is
 * done, as find.c does; the export runs it in its own thread at once.
 *
 * The times are kept sorted per row, so that a row draws its marks in
 * O(pixels x log marks) at any zoom: a binary search per pixel column.
 */
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "lttv-gtk.h"
#include "lttv-filter.h"

#define CHECK_EVERY 4096		/* events between two looks at the stop flag */
/* At most this many times are kept (8 bytes each): beyond, matches are
 * still counted per row, but no longer drawn (said in the legend). */
#define MAX_STORED ((uint64_t)1 << 25)

struct lttv_marks {
	char *expr;
	unsigned nproc, ncpu;
	GArray **proc, **cpu;		/* int64 times, ascending; NULL: none */
	uint64_t *proc_count, *cpu_count;
	uint64_t total, stored;
};

static void add(GArray ***rows, uint64_t **count, unsigned *n, unsigned i, int64_t t,
		int store)
{
	if (i >= *n) {
		unsigned m = MAX(i + 1, *n * 2);

		*rows = g_renew(GArray *, *rows, m);
		*count = g_renew(uint64_t, *count, m);
		memset(*rows + *n, 0, (m - *n) * sizeof(**rows));
		memset(*count + *n, 0, (m - *n) * sizeof(**count));
		*n = m;
	}
	(*count)[i]++;
	if (!store)
		return;
	if (!(*rows)[i])
		(*rows)[i] = g_array_new(FALSE, FALSE, sizeof(int64_t));
	g_array_append_val((*rows)[i], t);
}

lttv_marks *lttv_marks_compute(const char *const *paths, unsigned ntraces, const char *expr,
			       int64_t origin_ns, atomic_int *stop, _Atomic int64_t *at,
			       char **error)
{
	ltt_trace **traces;
	lttv_marks *m = g_new0(lttv_marks, 1);
	ltt_error *err = NULL;
	ltt_iter *it = NULL;
	ltt_state *st = NULL;
	lttv_filter *f = NULL;
	const ltt_event *ev;
	uint64_t n = 0;
	int r = -1;

	m->expr = g_strdup(expr);
	traces = lttv_open_traces((char *const *)paths, ntraces, &err);
	if (!traces)
		goto out;
	f = lttv_filter_parse(expr, origin_ns, traces, ntraces, error);
	if (!f)
		goto out;
	it = ltt_iter_new(traces, ntraces, &err);
	st = ltt_state_new();
	while (it && (r = ltt_iter_next(it, &ev, &err)) > 0) {
		int64_t t = ltt_event_time_ns(ev);
		int p;

		if (++n % CHECK_EVERY == 0) {
			if (at)
				atomic_store(at, t);
			if (stop && atomic_load(stop)) {
				r = 1;
				break;
			}
		}
		ltt_state_process_event(st, ev);
		if (!lttv_filter_match(f, ev, st))
			continue;
		m->total++;
		p = ltt_state_cpu_process(st, ltt_event_cpu(ev));
		if (p >= 0)
			add(&m->proc, &m->proc_count, &m->nproc, (unsigned)p, t,
			    m->stored < MAX_STORED);
		add(&m->cpu, &m->cpu_count, &m->ncpu, ltt_event_cpu(ev), t,
		    m->stored < MAX_STORED);
		if (m->stored < MAX_STORED)
			m->stored++;
	}
out:
	if (err) {
		*error = g_strdup(ltt_error_message(err));
		ltt_error_free(err);
	}
	ltt_state_free(st);
	ltt_iter_free(it);
	lttv_filter_free(f);
	lttv_close_traces(traces, ntraces);
	/* stopped, or nothing read (a bad expression, a trace that does not
	 * open): nothing; a read error on the way: the marks up to it, and
	 * *error says why there are no more */
	if (r == 1 || (r < 0 && n == 0)) {
		lttv_marks_free(m);
		return NULL;
	}
	return m;
}

void lttv_marks_free(lttv_marks *m)
{
	if (!m)
		return;
	for (unsigned i = 0; i < m->nproc; i++)
		if (m->proc[i])
			g_array_free(m->proc[i], TRUE);
	for (unsigned i = 0; i < m->ncpu; i++)
		if (m->cpu[i])
			g_array_free(m->cpu[i], TRUE);
	g_free(m->proc);
	g_free(m->cpu);
	g_free(m->proc_count);
	g_free(m->cpu_count);
	g_free(m->expr);
	g_free(m);
}

const char *lttv_marks_expr(const lttv_marks *m) { return m->expr; }
uint64_t lttv_marks_total(const lttv_marks *m) { return m->total; }
int lttv_marks_complete(const lttv_marks *m) { return m->stored == m->total; }

uint64_t lttv_marks_count(const lttv_marks *m, ltt_state_row_type type, unsigned index)
{
	if (type == LTT_STATE_ROW_PROCESS)
		return index < m->nproc ? m->proc_count[index] : 0;
	if (type == LTT_STATE_ROW_CPU)
		return index < m->ncpu ? m->cpu_count[index] : 0;
	return 0;
}

/* The first time >= t in a sorted array. */
static guint lower_bound(const GArray *a, int64_t t)
{
	guint lo = 0, hi = a->len;

	while (lo < hi) {
		guint mid = lo + (hi - lo) / 2;

		if (g_array_index(a, int64_t, mid) < t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

unsigned lttv_marks_each(const lttv_marks *m, ltt_state_row_type type, unsigned index,
			 int64_t t0, int64_t t1, int64_t step,
			 void (*fn)(void *user, int64_t t), void *user)
{
	const GArray *a = type == LTT_STATE_ROW_PROCESS ? (index < m->nproc ? m->proc[index] : NULL)
			: type == LTT_STATE_ROW_CPU ? (index < m->ncpu ? m->cpu[index] : NULL)
			: NULL;
	unsigned calls = 0;
	guint i;

	if (!a)
		return 0;
	if (step < 1)
		step = 1;
	/* one call per step (a pixel) that holds marks: the first of them */
	for (i = lower_bound(a, t0); i < a->len; ) {
		int64_t t = g_array_index(a, int64_t, i);

		if (t > t1)
			break;
		fn(user, t);
		calls++;
		i = lower_bound(a, t0 + ((t - t0) / step + 1) * step);
	}
	return calls;
}

/* ---- the export's: at once ---- */

lttv_marks *lttv_marks_now(const lttv_doc *d, const char *expr, char **error)
{
	return lttv_marks_compute((const char *const *)d->paths, d->ntraces, expr, d->origin_ns,
				  NULL, NULL, error);
}

/* ---- the window's: in a worker ---- */

struct lttv_marks_job {
	GThread *thread;
	char **paths;
	unsigned ntraces;
	char *expr;
	int64_t origin, start_ns, end_ns;
	atomic_int stop;
	_Atomic int64_t at;
	int dropped;			/* the window no longer wants it */
	lttv_marks *result;
	char *error;
	void (*done)(lttv_marks *m, const char *error, void *user);
	void *user;
};

static void job_free(lttv_marks_job *j)
{
	if (j->thread)
		g_thread_join(j->thread);
	lttv_marks_free(j->result);
	g_strfreev(j->paths);
	g_free(j->expr);
	g_free(j->error);
	g_free(j);
}

static gboolean on_done(gpointer data)
{
	lttv_marks_job *j = data;

	if (!j->dropped) {
		j->done(j->result, j->error, j->user);
		j->result = NULL;	/* the window's now */
	}
	job_free(j);
	return G_SOURCE_REMOVE;
}

static gpointer job_thread(gpointer data)
{
	lttv_marks_job *j = data;

	j->result = lttv_marks_compute((const char *const *)j->paths, j->ntraces, j->expr,
				       j->origin, &j->stop, &j->at, &j->error);
	g_idle_add(on_done, j);
	return NULL;
}

lttv_marks_job *lttv_marks_start(const lttv_doc *d, const char *expr,
				 void (*done)(lttv_marks *m, const char *error, void *user),
				 void *user)
{
	lttv_marks_job *j = g_new0(lttv_marks_job, 1);

	j->paths = g_strdupv(d->paths);
	j->ntraces = d->ntraces;
	j->expr = g_strdup(expr);
	j->origin = d->origin_ns;
	j->start_ns = d->start_ns;
	j->end_ns = d->end_ns;
	j->done = done;
	j->user = user;
	j->thread = g_thread_new("lttv-marks", job_thread, j);
	return j;
}

double lttv_marks_progress(lttv_marks_job *j)
{
	int64_t at = atomic_load(&j->at);

	if (at == 0)
		return 0;
	return CLAMP((double)(at - j->start_ns) / (double)MAX(j->end_ns - j->start_ns, 1), 0, 1);
}

void lttv_marks_cancel(lttv_marks_job *j)
{
	if (!j)
		return;
	/* the worker stops within CHECK_EVERY events; its answer, posted or
	 * about to be, is dropped (and freed) by on_done */
	atomic_store(&j->stop, 1);
	g_thread_join(j->thread);
	j->thread = NULL;
	j->dropped = 1;
}
