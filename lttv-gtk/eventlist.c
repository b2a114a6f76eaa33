/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * eventlist.c - the event list of the window: hand-drawn, anchored at a
 * time (cursor A, or the left edge of the view). It holds only the lines
 * on screen: scrolling seeks the state there (a checkpoint and a bounded
 * replay) and reads forward, through the event filter.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "window.h"

/* ---- the event list ------------------------------------------------------------ */

/* Fill the lines on screen from the anchor: seek the state there (a
 * checkpoint and a bounded replay), then read and filter forward. */
void lttv_list_refresh(app *a)
{
	int h = gtk_widget_get_allocated_height(a->list_area);
	unsigned want = (unsigned)(h > 2 * LIST_LINE_H ? h / LIST_LINE_H - 1 : 10);
	ltt_error *err = NULL;
	ltt_iter *it;
	const ltt_event *ev;
	unsigned skip = a->list_skip, scanned = 0;

	a->nlines = 0;
	if (!a->doc)
		return;
	a->lines = g_renew(list_line, a->lines, want + 1);
	g_mutex_lock(&a->doc->lock);
	if (!a->list_state)
		a->list_state = ltt_state_new();
	if (ltt_state_index_seek(a->doc->idx, a->list_anchor, a->list_state, &err) < 0)
		goto out;
	it = ltt_iter_new(a->doc->traces, a->doc->ntraces, &err);
	if (!it || ltt_iter_seek_time(it, a->list_anchor, &err) < 0) {
		ltt_iter_free(it);
		goto out;
	}
	while (a->nlines < want && scanned < 2000000 && ltt_iter_next(it, &ev, &err) > 0) {
		list_line *ln;
		int i;
		ltt_state_process_info pi;
		char pid[16];

		scanned++;
		ltt_state_process_event(a->list_state, ev);
		if (!lttv_filter_match(a->filter, ev, a->list_state))
			continue;
		if (skip) {
			skip--;
			continue;
		}
		ln = &a->lines[a->nlines++];
		ln->t = ltt_event_time_ns(ev);
		ln->cpu = ltt_event_cpu(ev);
		i = ltt_state_cpu_process(a->list_state, ln->cpu);
		ln->pid = -1;
		if (i >= 0 && ltt_state_process(a->list_state, (unsigned)i, &pi) == 0)
			ln->pid = (int)pi.pid;
		ltt_event_format_fields(ev, LTT_FORMAT_NAMES, ln->col[LIST_FIELDS],
					sizeof(ln->col[LIST_FIELDS]));
		if (ln->pid >= 0)
			snprintf(pid, sizeof(pid), "%d", ln->pid);
		else
			snprintf(pid, sizeof(pid), "?");
		snprintf(ln->col[LIST_TIME], sizeof(ln->col[0]), "%.9f",
			 (ln->t - a->doc->origin_ns) / 1e9);
		snprintf(ln->col[LIST_CPU], sizeof(ln->col[0]), "%u", ln->cpu);
		g_strlcpy(ln->col[LIST_PID], pid, sizeof(ln->col[0]));
		g_strlcpy(ln->col[LIST_NAME], i >= 0 ? pi.name : "", sizeof(ln->col[0]));
		snprintf(ln->col[LIST_EVENT], sizeof(ln->col[0]), "%s.%s",
			 ltt_event_facility_name(ev), ltt_event_name(ev));
		g_snprintf(ln->text, sizeof(ln->text), "%s  cpu %s  pid %s  %s  %s  { %s }",
			 ln->col[LIST_TIME], ln->col[LIST_CPU], ln->col[LIST_PID],
			 ln->col[LIST_NAME], ln->col[LIST_EVENT], ln->col[LIST_FIELDS]);
	}
	ltt_iter_free(it);
out:
	g_mutex_unlock(&a->doc->lock);
	if (err) {
		g_printerr("lttv-gtk: event list: %s\n", ltt_error_message(err));
		ltt_error_free(err);
	}
	if (a->doc) {
		double span = (double)(a->doc->end_ns - a->doc->start_ns);
		double page = a->nlines > 1 ? (double)(a->lines[a->nlines - 1].t - a->lines[0].t)
					    : span / 1000;

		a->list_adj_busy = 1;
		gtk_adjustment_configure(a->list_vadj, (double)(a->list_anchor - a->doc->start_ns),
					 0, span + page, page / 4 + 1, page + 1, page + 1);
		a->list_adj_busy = 0;
	}
	gtk_widget_queue_draw(a->list_area);
}

/* The scrollbar of the list moves its anchor in time. */
void lttv_on_list_vadj(GtkAdjustment *adj, gpointer data)
{
	app *a = data;

	if (a->list_adj_busy || !a->doc)
		return;
	a->list_anchor = a->doc->start_ns + (int64_t)gtk_adjustment_get_value(adj);
	a->list_skip = 0;
	a->list_selected = -1;
	if (!a->list_idle)
		a->list_idle = g_idle_add(lttv_list_idle_cb, a);
}

/* Scroll the list by n lines (negative: back). */
void lttv_list_scroll(app *a, int n)
{
	if (!a->doc || !a->nlines)
		return;
	if (n > 0) {
		unsigned k = MIN((unsigned)n, a->nlines - 1);
		int64_t t = a->lines[k].t;
		unsigned same = 0;

		for (unsigned i = 0; i < k; i++)
			if (a->lines[i].t == t)
				same++;
		if (t == a->list_anchor)
			same += a->list_skip;
		a->list_anchor = t;
		a->list_skip = same;
	} else {
		/* back: a guess of the time n events take, doubled until enough */
		int64_t span = a->nlines > 1 ? a->lines[a->nlines - 1].t - a->lines[0].t : 1000;
		int64_t dt = span > 0 ? span / (int64_t)a->nlines * -n + 1 : 1000;

		a->list_anchor -= dt;
		a->list_skip = 0;
		if (a->list_anchor < a->doc->start_ns)
			a->list_anchor = a->doc->start_ns;
	}
	lttv_list_refresh(a);
}

gboolean lttv_on_list_draw(GtkWidget *w, cairo_t *cr, gpointer data)
{
	app *a = data;
	int width = gtk_widget_get_allocated_width(w);

	/* column widths in characters of the monospace font */
	static const int chars[LIST_NCOLS] = { 14, 4, 7, 17, 32, 0 };
	static const char *const titles[LIST_NCOLS] = {
		"Time (s)", "CPU", "PID", "Process", "Event", "Fields" };
	cairo_text_extents_t e;
	double x[LIST_NCOLS], cx = 6;

	cairo_set_source_rgb(cr, 1, 1, 1);
	cairo_paint(cr);
	cairo_select_font_face(cr, "monospace", CAIRO_FONT_SLANT_NORMAL,
			       CAIRO_FONT_WEIGHT_NORMAL);
	cairo_set_font_size(cr, 11);
	cairo_text_extents(cr, "0", &e);
	for (int c = 0; c < LIST_NCOLS; c++) {
		x[c] = cx;
		cx += chars[c] * e.x_advance;
	}
	cairo_set_source_rgb(cr, 0.91, 0.91, 0.925);
	cairo_rectangle(cr, 0, 0, width, LIST_LINE_H);
	cairo_fill(cr);
	cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
	for (int c = 0; c < LIST_NCOLS; c++) {
		cairo_move_to(cr, x[c], LIST_LINE_H - 4);
		cairo_show_text(cr, titles[c]);
	}
	for (unsigned i = 0; i < a->nlines; i++) {
		double y = (i + 1) * LIST_LINE_H;

		if ((int)i == a->list_selected) {
			cairo_set_source_rgb(cr, 0.78, 0.86, 1);
			cairo_rectangle(cr, 0, y, width, LIST_LINE_H);
			cairo_fill(cr);
		}
		if (a->cursor_a != INT64_MIN && a->lines[i].t == a->cursor_a) {
			cairo_set_source_rgb(cr, 0.86, 0, 0);
			cairo_rectangle(cr, 0, y, 3, LIST_LINE_H);
			cairo_fill(cr);
		}
		cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
		for (int c = 0; c < LIST_NCOLS; c++) {
			cairo_save(cr);
			if (chars[c]) {
				cairo_rectangle(cr, x[c], y, (chars[c] - 1) * e.x_advance, LIST_LINE_H);
				cairo_clip(cr);
			}
			cairo_move_to(cr, x[c], y + LIST_LINE_H - 4);
			cairo_show_text(cr, a->lines[i].col[c]);
			cairo_restore(cr);
		}
	}
	if (!a->nlines && a->doc) {
		cairo_set_source_rgb(cr, 0.4, 0.4, 0.4);
		cairo_move_to(cr, 6, LIST_LINE_H + 14);
		cairo_show_text(cr, a->filter ? "no event matches the filter after this time"
					      : "no event after this time");
	}
	return TRUE;
}

/* A click at y (in the list's pixels; the first line is the header). */
void lttv_list_click(app *a, double y)
{
	int i = (int)(y / LIST_LINE_H) - 1;

	if (i < 0 || i >= (int)a->nlines)
		return;
	a->list_selected = i;
	a->cursor_a = a->lines[i].t;
	if (a->lines[i].pid >= 0) {
		int r = lttv_row_of_pid(&a->cf, (unsigned)a->lines[i].pid);

		if (r >= 0)
			lttv_select_row(&a->cf, r);
	}
	/* bring the cursor into view */
	if (a->cursor_a < a->t0 || a->cursor_a > a->t1)
		lttv_set_range(a, a->cursor_a - (a->t1 - a->t0) / 2, a->cursor_a + (a->t1 - a->t0) / 2);
	lttv_queue_redraw(a);
	gtk_widget_queue_draw(a->list_area);
}

gboolean lttv_on_list_press(GtkWidget *w, GdkEventButton *e, gpointer data)
{
	lttv_list_click(data, e->y);
	gtk_widget_grab_focus(w);
	return TRUE;
}

gboolean lttv_on_list_scroll(GtkWidget *w, GdkEventScroll *e, gpointer data)
{
	if (e->direction == GDK_SCROLL_UP || (e->direction == GDK_SCROLL_SMOOTH && e->delta_y < 0))
		lttv_list_scroll(data, -3);
	else if (e->direction == GDK_SCROLL_DOWN ||
		 (e->direction == GDK_SCROLL_SMOOTH && e->delta_y > 0))
		lttv_list_scroll(data, 3);
	return TRUE;
}

void lttv_on_list_size(GtkWidget *w, GdkRectangle *r, gpointer data)
{
	lttv_list_refresh(data);
}


/* Keys of the event list (when it has the focus). */
int lttv_list_key(app *a, guint key)
{
	switch (key) {
	case GDK_KEY_Up:
		if (a->list_selected > 0)
			a->list_selected--;
		else
			lttv_list_scroll(a, -1);
		break;
	case GDK_KEY_Down:
		if (a->list_selected + 1 < (int)a->nlines - 1)
			a->list_selected++;
		else
			lttv_list_scroll(a, 1);
		break;
	case GDK_KEY_Page_Up: lttv_list_scroll(a, -(int)MAX(a->nlines, 2) + 1); break;
	case GDK_KEY_Page_Down: lttv_list_scroll(a, (int)MAX(a->nlines, 2) - 1); break;
	case GDK_KEY_Home:
		if (a->doc) {
			a->list_anchor = a->doc->start_ns;
			a->list_skip = 0;
			lttv_list_refresh(a);
		}
		break;
	case GDK_KEY_Return: case GDK_KEY_KP_Enter:
		if (a->list_selected >= 0)
			lttv_list_click(a, (a->list_selected + 1) * LIST_LINE_H + 1);
		break;
	default:
		return 0;
	}
	if (a->list_selected < 0 && a->nlines)
		a->list_selected = 0;
	gtk_widget_queue_draw(a->list_area);
	return 1;
}

/*
 * Search: the next (dir > 0) or previous event that matches the expression
 * typed in the event filter entry, from cursor A (or the view's left edge);
 * cursor A goes there and its process is selected. Backwards, windows of
 * growing size are replayed from a checkpoint until one holds a match.
 * Returns 1 if found, 0 if not, -1 if the expression is wrong.
 */
int lttv_find(app *a, int dir)
{
	const char *text = gtk_entry_get_text(GTK_ENTRY(a->event_filter));
	char *error = NULL;
	lttv_filter *f;
	ltt_state *st;
	ltt_error *err = NULL;
	int64_t from, found = INT64_MIN;
	int found_pid = -1;

	if (!a->doc)
		return 0;
	f = lttv_filter_parse(text, a->doc->origin_ns, a->doc->traces, a->doc->ntraces, &error);
	if (!f) {
		gtk_label_set_text(GTK_LABEL(a->filter_error), error);
		gtk_widget_show(a->filter_error);
		g_free(error);
		return -1;
	}
	gtk_widget_hide(a->filter_error);
	from = a->cursor_a != INT64_MIN ? a->cursor_a : a->t0;
	st = ltt_state_new();
	g_mutex_lock(&a->doc->lock);
	if (dir > 0) {
		ltt_iter *it = ltt_iter_new(a->doc->traces, a->doc->ntraces, &err);
		const ltt_event *ev;

		if (it && ltt_state_index_seek(a->doc->idx, from + 1, st, &err) == 0 &&
		    ltt_iter_seek_time(it, from + 1, &err) == 0)
			while (ltt_iter_next(it, &ev, &err) > 0) {
				ltt_state_process_event(st, ev);
				if (lttv_filter_match(f, ev, st)) {
					int i = ltt_state_cpu_process(st, ltt_event_cpu(ev));
					ltt_state_process_info pi;

					found = ltt_event_time_ns(ev);
					if (i >= 0 && ltt_state_process(st, (unsigned)i, &pi) == 0)
						found_pid = (int)pi.pid;
					break;
				}
			}
		ltt_iter_free(it);
	} else {
		int64_t dt = MAX((a->t1 - a->t0) / 100, 1000);

		for (;;) {
			int64_t lo = from - dt;
			ltt_iter *it = ltt_iter_new(a->doc->traces, a->doc->ntraces, &err);
			const ltt_event *ev;

			if (lo < a->doc->start_ns)
				lo = a->doc->start_ns;
			if (!it || ltt_state_index_seek(a->doc->idx, lo, st, &err) < 0 ||
			    ltt_iter_seek_time(it, lo, &err) < 0) {
				ltt_iter_free(it);
				break;
			}
			while (ltt_iter_next(it, &ev, &err) > 0 && ltt_event_time_ns(ev) < from) {
				ltt_state_process_event(st, ev);
				if (lttv_filter_match(f, ev, st)) {
					int i = ltt_state_cpu_process(st, ltt_event_cpu(ev));
					ltt_state_process_info pi;

					found = ltt_event_time_ns(ev);
					found_pid = -1;
					if (i >= 0 && ltt_state_process(st, (unsigned)i, &pi) == 0)
						found_pid = (int)pi.pid;
				}
			}
			ltt_iter_free(it);
			if (found != INT64_MIN || lo <= a->doc->start_ns)
				break;
			dt *= 4;
		}
	}
	g_mutex_unlock(&a->doc->lock);
	ltt_state_free(st);
	lttv_filter_free(f);
	if (err) {
		g_printerr("lttv-gtk: search: %s\n", ltt_error_message(err));
		ltt_error_free(err);
	}
	if (found == INT64_MIN) {
		gtk_widget_error_bell(a->event_filter);
		gtk_label_set_text(GTK_LABEL(a->status), dir > 0 ? "no match after cursor A"
								 : "no match before cursor A");
		return 0;
	}
	if (found < a->t0 || found > a->t1)
		lttv_set_range(a, found - (a->t1 - a->t0) / 2, found + (a->t1 - a->t0) / 2);
	lttv_set_cursor(a, found, 0);
	if (found_pid >= 0) {
		int r = lttv_row_of_pid(&a->cf, (unsigned)found_pid);

		if (r >= 0)
			lttv_select_row(&a->cf, r);
	}
	return 1;
}
