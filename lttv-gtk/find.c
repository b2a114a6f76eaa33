/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * find.c - Find (F3, Shift+F3): the next or previous event that matches the
 * expression typed in the event filter entry, from cursor A (or the left
 * edge of the view). Cursor A goes there and its process is selected.
 *
 * A search may read the whole trace (one that finds nothing in 10 M
 * events), so it runs in a worker thread on copies of its inputs: the
 * trace directories, opened again for it; a snapshot of the window's
 * snapshot of the index (to seek); the expression, parsed again. It shares
 * only two numbers with the window, atomically: how far it has read, and
 * whether to stop. The window shows that progress in the status bar with a
 * Stop button (Escape too), and the answer when the worker posts it; a read
 * error is said under the toolbar, not only on stderr.
 *
 *   window   F3: copy inputs, start  ...status: 42 %...   answer: cursor A
 *   worker         open, seek, read, read, read ... match -> post
 *
 * Backwards, windows of growing size before the start are read in turn
 * until one holds a match (the last match of that window).
 */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "window.h"

#define CHECK_EVERY 4096	/* events between two looks at the stop flag */
#define PROGRESS_MS 100

struct lttv_find_job {
	/* the window's (main thread) */
	app *a;
	guint timer;
	int dropped;			/* the window no longer wants the answer */
	GThread *thread;
	/* the worker's inputs, made by the window, read-only to the worker */
	char **paths;
	unsigned ntraces;
	ltt_state_index *snap;		/* a copy of the window's, for the worker */
	char *expr;
	int64_t origin, from, start_ns, end_ns;
	int dir;
	/* shared */
	atomic_int stop;
	atomic_int hold;		/* wait before reading (self-test) */
	_Atomic int64_t at;		/* how far it has read (ns); 0: not started */
	/* the answer, written by the worker before it posts */
	int64_t found;			/* INT64_MIN: none */
	int found_pid;
	char *error;
	int stopped;
};

/* ---- the worker ---- */

static int stop_now(struct lttv_find_job *j, uint64_t n, int64_t t)
{
	if (n % CHECK_EVERY)
		return 0;
	atomic_store(&j->at, t);
	return atomic_load(&j->stop);
}

/* The pid running the event's CPU after it, or -1. */
static int pid_of(const ltt_state *st, const ltt_event *ev)
{
	int i = ltt_state_cpu_process(st, ltt_event_cpu(ev));
	ltt_state_process_info pi;

	return i >= 0 && ltt_state_process(st, (unsigned)i, &pi) == 0 ? (int)pi.pid : -1;
}

/* Read [lo, hi) from a seek at lo; the first match (first) or the last.
 * 0, 1 if stopped, -1 on a read error. */
static int scan(struct lttv_find_job *j, ltt_state_index *snap, ltt_trace **traces,
		const lttv_filter *f, int64_t lo, int64_t hi, int first, ltt_error **err)
{
	ltt_state *st = ltt_state_new();
	ltt_iter *it = ltt_iter_new(traces, j->ntraces, err);
	const ltt_event *ev;
	uint64_t n = 0;
	int64_t t = lo;
	int r = -1;

	if (it && ltt_state_index_seek(snap, lo, st, err) == 0 &&
	    ltt_iter_seek_time(it, lo, err) == 0) {
		while ((r = ltt_iter_next(it, &ev, err)) > 0) {
			t = ltt_event_time_ns(ev);
			if (t >= hi)
				break;
			if (stop_now(j, ++n, t)) {
				r = 1;
				goto out;
			}
			ltt_state_process_event(st, ev);
			if (lttv_filter_match(f, ev, st)) {
				j->found = t;
				j->found_pid = pid_of(st, ev);
				if (first)
					break;
			}
		}
		r = r < 0 ? -1 : 0;
	}
	if (r < 0)	/* where reading stopped: the last event read */
		atomic_store(&j->at, t);
out:
	ltt_iter_free(it);
	ltt_state_free(st);
	return r;
}

static gboolean on_answer(gpointer data);

static gpointer find_thread(gpointer data)
{
	struct lttv_find_job *j = data;
	ltt_trace **traces;
	ltt_state_index *snap = NULL;
	lttv_filter *f = NULL;
	ltt_error *err = NULL;
	int r = -1;

	/* a held search has not read yet when the self-test looks at it; a
	 * stop releases it too */
	while (atomic_load(&j->hold) && !atomic_load(&j->stop))
		g_usleep(1000);
	traces = lttv_open_traces(j->paths, j->ntraces, &err);
	if (!traces)
		goto out;
	f = lttv_filter_parse(j->expr, j->origin, traces, j->ntraces, &j->error);
	if (!f)
		goto out;
	snap = ltt_state_index_snapshot(j->snap, traces, j->ntraces);
	if (j->dir > 0) {
		r = scan(j, snap, traces, f, j->from + 1, INT64_MAX, 1, &err);
	} else {
		int64_t hi = j->from, dt = MAX((j->end_ns - j->start_ns) / 1000, 1000);

		/* windows of growing size before the start, the nearest first */
		for (;;) {
			int64_t lo = hi - dt < j->start_ns ? j->start_ns : hi - dt;

			r = scan(j, snap, traces, f, lo, hi, 0, &err);
			if (r || j->found != INT64_MIN || lo <= j->start_ns)
				break;
			hi = lo;
			dt *= 4;
		}
	}
out:
	if (err) {
		g_free(j->error);
		j->error = g_strdup(ltt_error_message(err));
		ltt_error_free(err);
	}
	j->stopped = r == 1;
	ltt_state_index_free(snap);
	lttv_filter_free(f);
	lttv_close_traces(traces, j->ntraces);
	g_idle_add(on_answer, j);
	return NULL;
}

/* ---- the window ---- */

static void job_free(struct lttv_find_job *j)
{
	if (j->thread)
		g_thread_join(j->thread);
	if (j->timer)
		g_source_remove(j->timer);
	ltt_state_index_free(j->snap);
	g_strfreev(j->paths);
	g_free(j->expr);
	g_free(j->error);
	g_free(j);
}

static void searching(app *a, int on)
{
	if (on)
		gtk_widget_show(a->find_stop);
	else
		gtk_widget_hide(a->find_stop);
}

static gboolean on_progress(gpointer data)
{
	struct lttv_find_job *j = data;
	int64_t at = atomic_load(&j->at);
	double f;
	char buf[160];

	if (at == 0)
		at = j->from;
	f = j->dir > 0 ? (double)(at - j->from) / (double)MAX(j->end_ns - j->from, 1)
		       : (double)(j->from - at) / (double)MAX(j->from - j->start_ns, 1);
	snprintf(buf, sizeof(buf), "searching %s: %.0f %%, at %.6f s (Stop or Escape to stop)",
		 j->dir > 0 ? "forward" : "backward", CLAMP(f, 0, 1) * 100,
		 (at - j->origin) / 1e9);
	lttv_status_note(j->a, buf);
	return G_SOURCE_CONTINUE;
}

static gboolean on_answer(gpointer data)
{
	struct lttv_find_job *j = data;
	app *a = j->a;
	char buf[256];

	if (j->dropped) {
		job_free(j);
		return G_SOURCE_REMOVE;
	}
	a->find = NULL;
	searching(a, 0);
	if (j->error) {
		int64_t at = atomic_load(&j->at);

		snprintf(buf, sizeof(buf), "Search stopped by a read error after %.6f s: %s",
			 ((at ? at : j->from) - a->doc->origin_ns) / 1e9, j->error);
		lttv_utf8_cut(buf);
		gtk_label_set_text(GTK_LABEL(a->filter_error), buf);
		gtk_widget_show(a->filter_error);
		lttv_status_note(a, "search failed: a read error (see above)");
	} else if (j->stopped) {
		lttv_status_note(a, "search stopped");
	} else if (j->found == INT64_MIN) {
		gtk_widget_error_bell(a->event_filter);
		lttv_status_note(a, j->dir > 0 ? "no match after cursor A"
								    : "no match before cursor A");
	} else {
		if (j->found < a->t0 || j->found > a->t1)
			lttv_set_range(a, j->found - (a->t1 - a->t0) / 2,
				       j->found + (a->t1 - a->t0) / 2);
		lttv_set_cursor(a, j->found, 0);
		if (j->found_pid >= 0) {
			int r = lttv_row_of_pid(&a->cf, (unsigned)j->found_pid);

			if (r >= 0)
				lttv_select_row(&a->cf, r);
		}
	}
	job_free(j);
	return G_SOURCE_REMOVE;
}

int lttv_find(app *a, int dir)
{
	const char *text = gtk_entry_get_text(GTK_ENTRY(a->event_filter));
	struct lttv_find_job *j;
	char *error = NULL;
	lttv_filter *f;

	if (!a->doc)
		return 0;
	/* say now if the expression is wrong (the worker parses its own) */
	f = lttv_filter_parse(text, a->doc->origin_ns, a->doc->rtraces, a->doc->ntraces, &error);
	if (!f) {
		gtk_label_set_text(GTK_LABEL(a->filter_error), error);
		gtk_widget_show(a->filter_error);
		g_free(error);
		return -1;
	}
	lttv_filter_free(f);
	gtk_widget_hide(a->filter_error);
	lttv_find_cancel(a);
	j = g_new0(struct lttv_find_job, 1);
	j->a = a;
	j->paths = g_strdupv(a->doc->paths);
	j->ntraces = a->doc->ntraces;
	j->snap = ltt_state_index_snapshot(a->doc->view, NULL, 0);
	j->expr = g_strdup(text);
	j->origin = a->doc->origin_ns;
	j->from = a->cursor_a != INT64_MIN ? a->cursor_a : a->t0;
	j->start_ns = a->doc->start_ns;
	j->end_ns = a->doc->end_ns;
	j->dir = dir;
	j->found = INT64_MIN;
	j->found_pid = -1;
	atomic_store(&j->hold, a->find_hold);
	a->find_hold = 0;
	a->find = j;
	searching(a, 1);
	on_progress(j);
	j->timer = g_timeout_add(PROGRESS_MS, on_progress, j);
	j->thread = g_thread_new("lttv-find", find_thread, j);
	return 0;
}

int lttv_find_running(const app *a)
{
	return a->find != NULL;
}

void lttv_find_cancel(app *a)
{
	struct lttv_find_job *j = a->find;

	if (!j)
		return;
	/* the worker stops within CHECK_EVERY events; its answer is dropped */
	atomic_store(&j->stop, 1);
	g_thread_join(j->thread);
	j->thread = NULL;
	if (j->timer)
		g_source_remove(j->timer);
	j->timer = 0;
	j->dropped = 1;
	a->find = NULL;
	if (a->win) {
		searching(a, 0);
		lttv_status_note(a, "search stopped");
	}
}

void lttv_find_release(app *a)
{
	if (a->find)
		atomic_store(&a->find->hold, 0);
}
