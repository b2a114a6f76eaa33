/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * indexer.c - the state index is built in a worker thread, which alone
 * touches it (doc->idx, reading doc->traces). After its first slice, then
 * every so often and at the end, it takes a snapshot and posts it to the
 * window's thread, which reads nothing else (doc->view, with doc->rtraces
 * for its seeks). No lock anywhere: the worker publishes immutable
 * snapshots, the window never waits for it (sysprof's rule).
 *
 * How often: every PUBLISH_US at most, and no more often than FRAME_SHARE
 * times what the window's last redraw of a snapshot cost it (frame_us).
 * A redraw of 100 M events being indexed costs 30-60 ms (rows sorted,
 * intervals drawn), and a snapshot costs the index too: it copies the
 * rows' headers and the model, and seals what it sees (the index copies
 * before it rewrites); the slower the redraw, the fewer snapshots.
 * The progress bar moves every PROGRESS_US regardless: a message with no
 * snapshot, its fraction only.
 *
 *   worker   run | run | snapshot -> post | run | run | snapshot -> post
 *   window            draw   draw    view = snapshot, redraw    draw
 *
 * A message that comes after its trace was closed (another was opened)
 * is dropped: each start of the worker has its generation.
 *
 * ltt_state_index_run() itself uses a second thread on a machine with
 * two processors (the library's coder, see state-index.c): the worker
 * reads the events and runs the state engine, the coder records the rows'
 * changes; a run returns without waiting for the coder, and a snapshot, or
 * lttv_indexer_stop() then freeing the index, waits for it first.
 * LTTV_GTK_INDEX_THREADS=1 (doc.c) indexes in the worker alone.
 */
#include <stdlib.h>

#include "window.h"

#define SLICE		50000	/* events between two looks at the clock */
#define PUBLISH_US	200000	/* a snapshot at most this often */
#define FRAME_SHARE	8	/* ... and 8 frames' cost apart */
#define PROGRESS_US	200000	/* the progress bar's pace */

typedef struct message {
	app *a;
	unsigned gen;			/* the indexer's when posted */
	ltt_state_index *snap;		/* NULL: only the progress moved */
	double progress;		/* with no snapshot */
	char *error;			/* reading stopped there */
} message;

typedef struct worker {
	app *a;				/* only posted back, never read here */
	lttv_doc *doc;			/* only idx and traces are read here */
	unsigned gen;
	gint *stop;
	gint *frame_us;			/* the window's, read atomically */
} worker;

static void show_progress(app *a, double f)
{
	char buf[64];

	gtk_progress_bar_set_fraction(GTK_PROGRESS_BAR(a->progress), f);
	snprintf(buf, sizeof(buf), a->ix.done ? "indexed" : "indexing %.0f%%", f * 100);
	gtk_progress_bar_set_text(GTK_PROGRESS_BAR(a->progress), buf);
}

static gboolean on_message(gpointer data)
{
	message *m = data;
	app *a = m->a;
	lttv_indexer *ix = &a->ix;
	double f;

	if (!a->doc || m->gen != ix->gen) {	/* a trace closed since */
		ltt_state_index_free(m->snap);
		g_free(m->error);
		g_free(m);
		return G_SOURCE_REMOVE;
	}
	if (!m->snap) {
		if (!ix->done)
			show_progress(a, m->progress);
		g_free(m);
		return G_SOURCE_REMOVE;
	}
	lttv_doc_publish(a->doc, m->snap);
	f = ltt_state_index_progress(a->doc->view);
	ix->done = ltt_state_index_done(a->doc->view) || m->error;
	show_progress(a, f);
	if (ix->done) {
		gtk_widget_hide(a->progress);
		/* the cores are free now; --follow: once the trace stopped
		 * growing (live.c), a pass over all of it at every opening
		 * would take a core from the next one */
		if (ltt_state_index_horizon_ns(a->doc->view) == INT64_MAX)
			lttv_atab_want(a);
		/* filled while indexing, the list named the first events'
		 * process from a partial index: blank until the next move */
		lttv_list_refresh(a);
	}
	if (m->error) {
		/* what was read stays shown; say where reading stopped */
		char *msg = g_strdup_printf("The trace could not be read to the end; it is "
					    "shown up to there: %s", m->error);

		ix->error = m->error;
		m->error = NULL;
		lttv_show_problem(a, msg);
		g_free(msg);
	}
	lttv_rows_changed(a);
	lttv_queue_redraw(a);
	g_free(m);
	return G_SOURCE_REMOVE;
}

/* Posts a snapshot (with the error reading stopped at, if any), or with
 * snapshot 0 the progress only. */
static void post(worker *w, int snapshot, char *error)
{
	message *m = g_new0(message, 1);

	m->a = w->a;
	m->gen = w->gen;
	if (snapshot)
		m->snap = ltt_state_index_snapshot(w->doc->idx, w->doc->rtraces,
						   w->doc->ntraces);
	else
		m->progress = ltt_state_index_progress(w->doc->idx);
	m->error = error;
	g_idle_add(on_message, m);
}

/*
 * LTTV_GTK_INDEX_SLICE (events) and LTTV_GTK_INDEX_DELAY_MS (a pause after
 * each slice) slow indexing down on purpose: for the test that the window
 * is usable before indexing ends, and to see it happen.
 */
static gpointer index_thread(gpointer data)
{
	worker *w = data;
	ltt_error *err = NULL;
	const char *e = g_getenv("LTTV_GTK_INDEX_SLICE");
	uint64_t slice = e && atoi(e) > 0 ? (uint64_t)atoi(e) : SLICE;
	int r, first = 1, delay_ms = (e = g_getenv("LTTV_GTK_INDEX_DELAY_MS")) ? atoi(e) : 0;
	gint64 posted = 0, progressed = 0, now;

	do {
		r = ltt_state_index_run(w->doc->idx, slice, &err);
		now = g_get_monotonic_time();
		if (r > 0 && (first || now - posted >= MAX(PUBLISH_US,
				FRAME_SHARE * (gint64)g_atomic_int_get(w->frame_us)))) {
			post(w, 1, NULL);
			posted = progressed = g_get_monotonic_time();
			first = 0;
		} else if (r > 0 && now - progressed >= PROGRESS_US) {
			post(w, 0, NULL);
			progressed = now;
		}
		if (delay_ms > 0 && r > 0)
			g_usleep((gulong)delay_ms * 1000);
	} while (r > 0 && !g_atomic_int_get(w->stop));
	lttv_doc_report_warnings(w->doc);
	if (r < 0)
		g_printerr("lttv-gtk: indexing stopped: %s\n", ltt_error_message(err));
	if (r <= 0)
		post(w, 1, r < 0 ? g_strdup(ltt_error_message(err)) : NULL);
	ltt_error_free(err);
	g_free(w);
	return NULL;
}

void lttv_indexer_start(app *a)
{
	worker *w = g_new0(worker, 1);

	a->ix.gen++;
	a->ix.done = 0;
	a->ix.draws_while_indexing = 0;
	g_atomic_int_set(&a->ix.frame_us, 0);
	g_free(a->ix.error);
	a->ix.error = NULL;
	g_atomic_int_set(&a->ix.stop, 0);
	w->a = a;
	w->doc = a->doc;
	w->gen = a->ix.gen;
	w->stop = &a->ix.stop;
	w->frame_us = &a->ix.frame_us;
	a->ix.thread = g_thread_new("lttv-index", index_thread, w);
}

void lttv_indexer_stop(app *a)
{
	if (!a->ix.thread)
		return;
	g_atomic_int_set(&a->ix.stop, 1);
	g_thread_join(a->ix.thread);
	a->ix.thread = NULL;
	a->ix.gen++;			/* what it posted is of no trace now */
}
