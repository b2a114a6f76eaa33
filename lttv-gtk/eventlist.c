/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * eventlist.c - the event list of the window: hand-drawn, anchored at a
 * time. It holds only the lines on screen: a refresh seeks the model at
 * the anchor (a checkpoint of the window's snapshot and a bounded replay)
 * and reads on through the event filter, in slices of at most
 * FILL_SLICE_US from the main loop, so that a filter that keeps few events
 * fills the list as they come and never freezes the window.
 *
 * Where it is anchored: cursor A while A is in view, else the left edge of
 * the view; a list scrolled by the user stays where it is while its first
 * line is in view (lttv_list_follow).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "window.h"

#define FILL_SLICE_US 8000
#define FILL_STEP 2000		/* events between two looks at the clock */

/* ---- the event list ------------------------------------------------------------ */

/* Stop filling the list (the lines so far stay). */
void lttv_list_cancel(app *a)
{
	lttv_list *l = &a->list;

	if (l->fill_source)
		g_source_remove(l->fill_source);
	l->fill_source = 0;
	if (l->idle)
		g_source_remove(l->idle);
	l->idle = 0;
	ltt_iter_free(l->it);
	l->it = NULL;
}

/* The list's scrollbar says where its anchor is in the trace. */
static void update_scrollbar(app *a)
{
	lttv_list *l = &a->list;
	double span, page;

	if (!a->doc)
		return;
	span = (double)(a->doc->end_ns - a->doc->start_ns);
	page = l->nlines > 1 ? (double)(l->lines[l->nlines - 1].t - l->lines[0].t) : span / 1000;
	l->adj_busy = 1;
	gtk_adjustment_configure(l->vadj, (double)(l->anchor - a->doc->start_ns), 0, span + page,
				 page / 4 + 1, page + 1, page + 1);
	l->adj_busy = 0;
}

static void add_line(app *a, const ltt_event *ev)
{
	lttv_list *l = &a->list;
	list_line *ln = &l->lines[l->nlines++];
	ltt_state_process_info pi;
	int i;

	ln->t = ltt_event_time_ns(ev);
	ln->cpu = ltt_event_cpu(ev);
	i = ltt_state_cpu_process(l->state, ln->cpu);
	ln->pid = -1;
	if (i >= 0 && ltt_state_process(l->state, (unsigned)i, &pi) == 0) {
		ln->pid = (int)pi.pid;
		/* not named yet (before the state dump names it): the name the
		 * index knows it by, the same process index */
		if (!*pi.name)
			ltt_state_process(ltt_state_index_state(a->doc->view), (unsigned)i, &pi);
	}
	ltt_event_format_fields(ev, LTT_FORMAT_NAMES, ln->col[LIST_FIELDS],
				sizeof(ln->col[LIST_FIELDS]));
	snprintf(ln->col[LIST_TIME], sizeof(ln->col[0]), "%.9f",
		 (ln->t - a->doc->origin_ns) / 1e9);
	snprintf(ln->col[LIST_CPU], sizeof(ln->col[0]), "%u", ln->cpu);
	if (ln->pid >= 0)
		snprintf(ln->col[LIST_PID], sizeof(ln->col[0]), "%d", ln->pid);
	else
		snprintf(ln->col[LIST_PID], sizeof(ln->col[0]), "?");
	/* names from the trace, shown safely; a cut never splits a character */
	ltt_text_escape(ln->col[LIST_NAME], sizeof(ln->col[0]), ln->pid >= 0 ? pi.name : "",
			ln->pid >= 0 ? strlen(pi.name) : 0);
	snprintf(ln->col[LIST_EVENT], sizeof(ln->col[0]), "%s.%s",
		 ltt_text_safe(ltt_event_facility_name(ev)), ltt_text_safe(ltt_event_name(ev)));
	lttv_utf8_cut(ln->col[LIST_EVENT]);
	lttv_utf8_cut(ln->col[LIST_FIELDS]);
	g_snprintf(ln->text, sizeof(ln->text), "%s  cpu %s  pid %s  %s  %s  { %s }",
		   ln->col[LIST_TIME], ln->col[LIST_CPU], ln->col[LIST_PID],
		   ln->col[LIST_NAME], ln->col[LIST_EVENT], ln->col[LIST_FIELDS]);
	lttv_utf8_cut(ln->text);
}

/* One slice of filling: 1 if there is more to read. */
static int fill_slice(app *a)
{
	lttv_list *l = &a->list;
	gint64 until = g_get_monotonic_time() + FILL_SLICE_US;
	ltt_error *err = NULL;
	const ltt_event *ev;
	int r = 1;

	while (l->nlines < l->want && r > 0) {
		for (unsigned n = 0; n < FILL_STEP && l->nlines < l->want; n++) {
			if ((r = ltt_iter_next(l->it, &ev, &err)) <= 0)
				break;
			ltt_state_process_event(l->state, ev);
			if (!lttv_filter_match(a->filter, ev, l->state))
				continue;
			if (l->skip_left) {
				l->skip_left--;
				continue;
			}
			add_line(a, ev);
		}
		if (g_get_monotonic_time() >= until)
			break;
	}
	if (r < 0) {
		l->error = g_strdup_printf("reading stopped: %s", ltt_error_message(err));
		ltt_error_free(err);
	}
	update_scrollbar(a);
	gtk_widget_queue_draw(l->area);
	if (l->nlines < l->want && r > 0)
		return 1;
	ltt_iter_free(l->it);
	l->it = NULL;
	return 0;
}

static gboolean fill_idle(gpointer data)
{
	app *a = data;

	if (fill_slice(a))
		return G_SOURCE_CONTINUE;
	a->list.fill_source = 0;
	return G_SOURCE_REMOVE;
}

/* Fill the lines on screen from the anchor: seek the model there, then
 * read on through the filter (the first slice now, the rest from idle). */
void lttv_list_refresh(app *a)
{
	lttv_list *l = &a->list;
	int h = gtk_widget_get_allocated_height(l->area);
	ltt_error *err = NULL;

	lttv_list_cancel(a);
	l->nlines = 0;
	g_free(l->error);
	l->error = NULL;
	if (!a->doc) {
		gtk_widget_queue_draw(l->area);
		return;
	}
	l->want = (unsigned)(h > 2 * LIST_LINE_H ? h / LIST_LINE_H - 1 : 10);
	l->lines = g_renew(list_line, l->lines, l->want + 1);
	l->skip_left = l->skip;
	if (!l->state)
		l->state = ltt_state_new();
	if (ltt_state_index_seek(a->doc->view, l->anchor, l->state, &err) < 0 ||
	    !(l->it = ltt_iter_new(a->doc->rtraces, a->doc->ntraces, &err)) ||
	    ltt_iter_seek_time(l->it, l->anchor, &err) < 0) {
		l->error = g_strdup_printf("cannot read the trace there: %s",
					   ltt_error_message(err));
		ltt_error_free(err);
		ltt_iter_free(l->it);
		l->it = NULL;
		update_scrollbar(a);
		gtk_widget_queue_draw(l->area);
		return;
	}
	if (fill_slice(a))
		l->fill_source = g_idle_add(fill_idle, a);
}

static gboolean refresh_idle(gpointer data)
{
	app *a = data;

	a->list.idle = 0;
	lttv_list_refresh(a);
	return G_SOURCE_REMOVE;
}

/* A refresh from the main loop, once however many are asked for. */
void lttv_list_queue_refresh(app *a)
{
	if (!a->list.idle)
		a->list.idle = g_idle_add(refresh_idle, a);
}

/* Where the list goes when the view moves to [t0, t1]: cursor A if it is
 * in view, else the left edge (a list the user scrolled stays while its
 * first line is in view; after Home it went on showing the old edge). */
void lttv_list_follow(app *a, int64_t t0, int64_t t1)
{
	lttv_list *l = &a->list;
	int64_t first = l->nlines ? l->lines[0].t : l->anchor, anchor;

	if (!a->doc ||
	    (l->scrolled && first >= t0 && first <= t1 && first >= a->doc->start_ns))
		return;
	anchor = a->cursor_a != INT64_MIN && a->cursor_a >= t0 && a->cursor_a <= t1 ?
		 a->cursor_a : MAX(t0, a->doc->start_ns);
	l->scrolled = 0;
	if (anchor == l->anchor && !l->skip)
		return;
	l->anchor = anchor;
	l->skip = 0;
	lttv_list_queue_refresh(a);
}

/* The scrollbar of the list moves its anchor in time. */
void lttv_on_list_vadj(GtkAdjustment *adj, gpointer data)
{
	app *a = data;

	if (a->list.adj_busy || !a->doc)
		return;
	a->list.anchor = a->doc->start_ns + (int64_t)gtk_adjustment_get_value(adj);
	a->list.skip = 0;
	a->list.scrolled = 1;
	a->list.selected = -1;
	lttv_list_queue_refresh(a);
}

/* Scroll the list by n lines (negative: back). */
void lttv_list_scroll(app *a, int n)
{
	if (!a->doc || !a->list.nlines)
		return;
	a->list.scrolled = 1;
	if (n > 0) {
		unsigned k = MIN((unsigned)n, a->list.nlines - 1);
		int64_t t = a->list.lines[k].t;
		unsigned same = 0;

		for (unsigned i = 0; i < k; i++)
			if (a->list.lines[i].t == t)
				same++;
		if (t == a->list.anchor)
			same += a->list.skip;
		a->list.anchor = t;
		a->list.skip = same;
	} else {
		/* back: a guess of the time n events take, doubled until enough */
		int64_t span = a->list.nlines > 1 ? a->list.lines[a->list.nlines - 1].t - a->list.lines[0].t : 1000;
		int64_t dt = span > 0 ? span / (int64_t)a->list.nlines * -n + 1 : 1000;

		a->list.anchor -= dt;
		a->list.skip = 0;
		if (a->list.anchor < a->doc->start_ns)
			a->list.anchor = a->doc->start_ns;
	}
	lttv_list_refresh(a);
}

/* Text in at most w pixels: cut with an ellipsis where it is longer (the
 * column's width was a clip: names ended mid-letter, nothing said more). */
static void show_cut(cairo_t *cr, const char *text, double w)
{
	cairo_text_extents_t e;
	char buf[sizeof(((list_line *)0)->col[0]) + 4];
	size_t n;

	cairo_text_extents(cr, text, &e);
	if (e.x_advance <= w) {
		cairo_show_text(cr, text);
		return;
	}
	n = g_strlcpy(buf, text, sizeof(buf) - 4);
	if (n > sizeof(buf) - 5)
		n = sizeof(buf) - 5;
	do {	/* whole UTF-8 characters off the end until it fits */
		while (n > 0 && ((unsigned char)buf[n - 1] & 0xc0) == 0x80)
			n--;
		if (n > 0)
			n--;
		memcpy(buf + n, "\u2026", 4);	/* the ellipsis, 3 bytes, and NUL */
		cairo_text_extents(cr, buf, &e);
	} while (n > 0 && e.x_advance > w);
	cairo_show_text(cr, buf);
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
	for (unsigned i = 0; i < a->list.nlines; i++) {
		double y = (i + 1) * LIST_LINE_H;

		if ((int)i == a->list.selected) {
			cairo_set_source_rgb(cr, 0.78, 0.86, 1);
			cairo_rectangle(cr, 0, y, width, LIST_LINE_H);
			cairo_fill(cr);
		}
		if (a->cursor_a != INT64_MIN && a->list.lines[i].t == a->cursor_a) {
			cairo_set_source_rgb(cr, 0.86, 0, 0);
			cairo_rectangle(cr, 0, y, 3, LIST_LINE_H);
			cairo_fill(cr);
		}
		cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
		for (int c = 0; c < LIST_NCOLS; c++) {
			cairo_move_to(cr, x[c], y + LIST_LINE_H - 4);
			show_cut(cr, a->list.lines[i].col[c],
				 chars[c] ? (chars[c] - 1) * e.x_advance : width - x[c]);
		}
	}
	if (a->doc && (a->list.error || a->list.it || !a->list.nlines)) {
		/* under the lines: why there are no more */
		double y = (a->list.nlines + 1) * LIST_LINE_H + 14;

		if (a->list.error)
			cairo_set_source_rgb(cr, 0.8, 0, 0);
		else
			cairo_set_source_rgb(cr, 0.4, 0.4, 0.4);
		cairo_move_to(cr, 6, y);
		cairo_show_text(cr, a->list.error ? a->list.error :
				    a->list.it ? "reading on..." :
				    a->filter ? "no event matches the filter after this time"
					      : "no event after this time");
	}
	return TRUE;
}

/* A click at y (in the list's pixels; the first line is the header). */
void lttv_list_click(app *a, double y)
{
	int i = (int)(y / LIST_LINE_H) - 1;

	if (i < 0 || i >= (int)a->list.nlines)
		return;
	a->list.selected = i;
	a->list.scrolled = 1;	/* the line clicked stays where it is */
	a->cursor_a = a->list.lines[i].t;
	a->status_note[0] = 0;
	if (a->list.lines[i].pid >= 0) {
		int r = lttv_row_of_pid(&a->cf, (unsigned)a->list.lines[i].pid);

		if (r >= 0)
			lttv_select_row(&a->cf, r);
	}
	/* bring the cursor into view */
	if (a->cursor_a < a->t0 || a->cursor_a > a->t1)
		lttv_set_range(a, a->cursor_a - (a->t1 - a->t0) / 2, a->cursor_a + (a->t1 - a->t0) / 2);
	lttv_queue_redraw(a);
	gtk_widget_queue_draw(a->list.area);
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
		if (a->list.selected > 0)
			a->list.selected--;
		else
			lttv_list_scroll(a, -1);
		break;
	case GDK_KEY_Down:
		if (a->list.selected + 1 < (int)a->list.nlines - 1)
			a->list.selected++;
		else
			lttv_list_scroll(a, 1);
		break;
	case GDK_KEY_Page_Up: lttv_list_scroll(a, -(int)MAX(a->list.nlines, 2) + 1); break;
	case GDK_KEY_Page_Down: lttv_list_scroll(a, (int)MAX(a->list.nlines, 2) - 1); break;
	case GDK_KEY_Home:
		if (a->doc) {
			a->list.anchor = a->doc->start_ns;
			a->list.skip = 0;
			a->list.scrolled = 1;
			lttv_list_refresh(a);
		}
		break;
	case GDK_KEY_Return: case GDK_KEY_KP_Enter:
		if (a->list.selected >= 0)
			lttv_list_click(a, (a->list.selected + 1) * LIST_LINE_H + 1);
		break;
	default:
		return 0;
	}
	if (a->list.selected < 0 && a->list.nlines)
		a->list.selected = 0;
	gtk_widget_queue_draw(a->list.area);
	return 1;
}
