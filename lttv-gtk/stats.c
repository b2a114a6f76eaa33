/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * stats.c - the Statistics tab: the statistics of the visible range, or
 * of the range between cursors A and B when both are set (the summary of
 * a range: time per state and process, event counts), as lttv-gtk --stats
 * prints them (stats-calc.c), computed in slices of at most
 * STATS_SLICE_US from an idle callback, on the window's snapshot of the
 * index (doc->view), so that a long range does not freeze the window.
 * Shown, the tab follows the view and the cursors by itself (a quarter of
 * a second after they stop moving), not on a button only.
 */
#include "window.h"

#define STATS_STEP 5000		/* events between two looks at the clock */
#define STATS_SLICE_US 20000

#define STATS_SETTLE_MS 250

struct lttv_stats_job {
	app *a;
	lttv_stats_calc *calc;
	guint source;
	int cursors;			/* the range is A..B */
};

static guint settle_source;		/* a refresh once the view stops moving */

void lttv_stats_cancel(app *a)
{
	lttv_stats_job *j = a->stats_job;

	if (!j)
		return;
	if (j->source)
		g_source_remove(j->source);
	lttv_stats_calc_free(j->calc);
	g_free(j);
	a->stats_job = NULL;
}

static void show(app *a, const char *text)
{
	gtk_text_buffer_set_text(gtk_text_view_get_buffer(GTK_TEXT_VIEW(a->stats_view)),
				 text, -1);
}

static gboolean stats_step(gpointer data)
{
	lttv_stats_job *j = data;
	app *a = j->a;
	char msg[96], *text;
	int more;

	{
		gint64 until = g_get_monotonic_time() + STATS_SLICE_US;

		while ((more = lttv_stats_calc_step(j->calc, STATS_STEP)) &&
		       g_get_monotonic_time() < until)
			;
	}
	if (more) {
		snprintf(msg, sizeof(msg), "Computing... %" PRIu64 " events so far",
			 lttv_stats_calc_events(j->calc));
		show(a, msg);
		return G_SOURCE_CONTINUE;
	}
	j->source = 0;
	text = lttv_stats_calc_text(j->calc);
	if (j->cursors) {
		char *both = g_strconcat("Between cursors A and B (clear B with a click "
					 "to see the visible range)\n", text, NULL);

		g_free(text);
		text = both;
	}
	show(a, text);
	g_free(text);
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
	a->stats_job = j;
	j->cursors = a->cursor_a != INT64_MIN && a->cursor_b != INT64_MIN &&
		     a->cursor_a != a->cursor_b;
	j->calc = j->cursors ? lttv_stats_calc_new(a->doc, MIN(a->cursor_a, a->cursor_b),
						   MAX(a->cursor_a, a->cursor_b), a->filter_text)
			     : lttv_stats_calc_new(a->doc, a->t0, a->t1, a->filter_text);
	show(a, "Computing...");
	j->source = g_idle_add(stats_step, j);
}

static gboolean settled(gpointer data)
{
	app *a = data;

	settle_source = 0;
	if (a->win)	/* not after the window closed */
		lttv_stats_refresh(a);
	return G_SOURCE_REMOVE;
}

void lttv_stats_follow(app *a)
{
	if (!a->notebook ||
	    gtk_notebook_get_current_page(GTK_NOTEBOOK(a->notebook)) != LTTV_PAGE_STATISTICS)
		return;
	if (settle_source)
		g_source_remove(settle_source);
	settle_source = g_timeout_add(STATS_SETTLE_MS, settled, a);
}
