/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * window.c - the lttv-gtk window: a GtkApplication around the views of
 * draw.c.
 *
 *   toolbar    open, zoom in/out/fit/selection, go to time, row filter,
 *              event filter, hidden rows, tracing control
 *   notebook   Control flow | Resources | Statistics | Analyses (analysis-view.c)
 *   event list hand-drawn, anchored at a time: it holds only the lines on
 *              screen (no object per event); follows cursor A
 *   status     indexing progress, cursors A/B and their delta
 *
 * The state index is built in a worker thread (indexer.c) that publishes
 * snapshots of it; the window draws the latest (the first screen comes
 * before the end), with no lock: nothing here waits for the worker. Long
 * work of the window's own (the event list, Find, Statistics) runs in
 * slices or in its own worker, with progress and a way to stop it.
 *
 * Mouse: wheel scrolls rows, Ctrl+wheel zooms at the pointer, Shift+wheel
 * pans; drag pans; right-drag (or Ctrl+drag) selects a range and zooms to
 * it; click sets cursor A (Shift+click: B) and selects the row; click on a
 * column title sorts; right-click on a name offers to hide the row.
 * Keys: + - lttv_zoom, 0 or Home fit, arrows pan and move the selection,
 * h hide row, Ctrl+G go to time, Ctrl+F filter, Ctrl+O open, Ctrl+Q quit.
 *
 * The other parts of the window, sharing window.h: eventlist.c (the event
 * list), stats.c (the Statistics tab), control.c (the tracing dialog),
 * compare.c (--side-by-side: the other traces under the control flow),
 * selftest.c (--self-test, for tests/t43-gui.sh).
 */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "window.h"

/* Show a problem in the red bar under the toolbar (and keep it there). */
void lttv_show_problem(app *a, const char *msg)
{
	GtkLabel *l = GTK_LABEL(gtk_bin_get_child(GTK_BIN(a->lost_bar)));

	if (gtk_widget_get_visible(a->lost_bar) && *gtk_label_get_text(l)) {
		char *both = g_strdup_printf("%s\n%s", gtk_label_get_text(l), msg);

		gtk_label_set_text(l, both);
		g_free(both);
	} else {
		gtk_label_set_text(l, msg);
	}
	gtk_widget_show(a->lost_bar);
}

/* ---- views ------------------------------------------------------------------ */

/* The row lists are rebuilt (sorted, filtered) only when they change. */
void lttv_rows_changed(app *a)
{
	a->cf.dirty = a->res.dirty = 1;
}

/* Bring the view up to date. The selection follows its process when rows
 * move. */
void lttv_view_sync(app *a, view_ui *vu)
{
	if (vu->dirty || !vu->rows || vu->v.doc != a->doc) {
		lttv_row keep = { LTT_STATE_ROW_PROCESS, UINT_MAX };

		if (vu->rows && vu->v.doc == a->doc && vu->v.selected >= 0 &&
		    vu->v.selected < (int)vu->v.nrows)
			keep = vu->rows[vu->v.selected];
		g_free(vu->rows);
		vu->rows = NULL;
		vu->v.doc = a->doc;
		vu->v.nrows = a->doc ? lttv_doc_rows(a->doc, vu->v.resources, &vu->rows) : 0;
		vu->rows_gen++;
		vu->v.selected = -1;
		for (unsigned r = 0; keep.index != UINT_MAX && r < vu->v.nrows; r++)
			if (vu->rows[r].type == keep.type && vu->rows[r].index == keep.index)
				vu->v.selected = (int)r;
		vu->dirty = 0;
		if (vu->reselect && vu->v.selected < 0) {
			int r = lttv_row_of_pid(vu, vu->reselect - 1);

			if (r >= 0 || a->ix.done)
				vu->reselect = 0;
			vu->v.selected = r;
		}
	}
	vu->v.rows = vu->rows;
	vu->v.t0 = a->t0;
	vu->v.t1 = a->t1;
	vu->v.cursor_a = a->cursor_a;
	vu->v.cursor_b = a->cursor_b;
	vu->v.bookmarks = a->bookmarks ? (const lttv_bookmark *)(void *)a->bookmarks->data : NULL;
	vu->v.nbookmarks = a->bookmarks ? a->bookmarks->len : 0;
	if (vu->v.selected >= (int)vu->v.nrows)
		vu->v.selected = -1;
	if (vu->v.first_row >= vu->v.nrows)
		vu->v.first_row = vu->v.nrows ? vu->v.nrows - 1 : 0;
}

/* A figure of /proc/self/status in kB ("VmRSS", "VmHWM"), or 0. */
static unsigned long status_kb(const char *field)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	size_t n = strlen(field);
	unsigned long kb = 0;

	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, field, n) && line[n] == ':')
			kb = strtoul(line + n + 1, NULL, 10);
	if (f)
		fclose(f);
	return kb;
}

/*
 * LTTV_GTK_BENCH: the benchmark (bench/viewer.py) times the window from
 * its start to these lines: the first frame of the control flow, then
 * the first one drawn once everything is indexed, with the longest times
 * the main loop went without turning in between (stall-meter.c: the
 * window's own work, and that on the clock less waiting for a CPU) and
 * the memory then; then the window quits. LTTV_GTK_BENCH=analyses: it
 * waits for the analyses, which start by themselves once indexed, and
 * says the memory once they are done, then once their tab is drawn
 * (lttv_bench_analyses_done).
 */
static void bench_frame(app *a, int indexed)
{
	if (a->bench == 1) {
		printf("bench window first-frame rss_kb=%lu\n", status_kb("VmRSS"));
		a->bench = 2;
		lttv_stall_meter_start(&a->bench_meter);
	}
	if (a->bench == 2 && indexed) {
		const char *b = g_getenv("LTTV_GTK_BENCH");

		lttv_stall_meter_stop(&a->bench_meter);
		printf("bench window indexed-frame stall_cpu_ms=%.1f stall_ms=%.1f ticks=%u "
		       "rss_kb=%lu\n", a->bench_meter.max_cpu / 1000.0,
		       a->bench_meter.max_own / 1000.0, a->bench_meter.ticks, status_kb("VmRSS"));
		a->bench = 3;
		if (b && !strcmp(b, "analyses"))
			a->bench = 4;
		else
			g_application_quit(G_APPLICATION(a->gapp));
	}
	fflush(stdout);
}

void lttv_bench_analyses_done(app *a)
{
	if (a->bench != 4)
		return;
	printf("bench window analyses-done rss_kb=%lu peak_kb=%lu\n", status_kb("VmRSS"),
	       status_kb("VmHWM"));
	fflush(stdout);		/* its time, before the drawing's */
	/* then the tab drawn over the whole trace, as when it is shown: its
	 * tables (a group's durations, sorted) are made then */
	lttv_atab_draw_offscreen(a, 1200, 800);
	printf("bench window analyses-drawn rss_kb=%lu peak_kb=%lu\n", status_kb("VmRSS"),
	       status_kb("VmHWM"));
	fflush(stdout);
	a->bench = 5;
	g_application_quit(G_APPLICATION(a->gapp));
}

static gboolean on_draw(GtkWidget *w, cairo_t *cr, gpointer data)
{
	view_ui *vu = data;
	app *a = vu->a;
	int width = gtk_widget_get_allocated_width(w);
	int height = gtk_widget_get_allocated_height(w);
	lttv_layout l;
	struct draw_key key;
	char msg[64];
	gint64 t_sync;

	if (!a->doc) {
		cairo_set_source_rgb(cr, 1, 1, 1);
		cairo_paint(cr);
		cairo_set_source_rgb(cr, 0.3, 0.3, 0.3);
		cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL,
				       CAIRO_FONT_WEIGHT_NORMAL);
		cairo_set_font_size(cr, 15);
		cairo_move_to(cr, 20, 40);
		cairo_show_text(cr, "No trace: open a trace folder with Ctrl+O or \"Open\" "
				"(or start lttv-gtk -t TRACE)");
		return TRUE;
	}
	t_sync = g_get_monotonic_time();
	lttv_view_sync(a, vu);
	msg[0] = 0;
	if (!ltt_state_index_done(a->doc->view)) {
		snprintf(msg, sizeof(msg), "indexing %.0f%%...",
			 ltt_state_index_progress(a->doc->view) * 100);
		vu->v.message = msg;
	} else if (a->marks_job) {
		snprintf(msg, sizeof(msg), "marking the filter's matches %.0f%%...",
			 lttv_marks_progress(a->marks_job) * 100);
		vu->v.message = msg;
	} else {
		vu->v.message = NULL;
	}
	memset(&key, 0, sizeof(key));
	key.doc = a->doc;
	key.view = a->doc->view;
	key.rows_gen = vu->rows_gen;
	key.nrows = vu->v.nrows;
	key.first_row = vu->v.first_row;
	key.selected = vu->v.selected;
	key.width = width;
	key.height = height;
	key.sort_col = a->doc->sort_col;
	key.sort_desc = a->doc->sort_desc;
	key.resources = vu->v.resources;
	key.t0 = vu->v.t0;
	key.t1 = vu->v.t1;
	key.cursor_a = vu->v.cursor_a;
	key.cursor_b = vu->v.cursor_b;
	key.sel_a = vu->v.sel_a;
	key.sel_b = vu->v.sel_b;
	key.marks = a->doc->marks;
	key.only_marked = a->doc->only_marked;
	key.bookmarks_gen = a->bookmarks_gen;
	g_strlcpy(key.message, msg, sizeof(key.message));
	if (!vu->cache || memcmp(&key, &vu->cache_key, sizeof(key))) {
		cairo_t *c;

		/* the same size: drawn over (lttv_draw paints it all first); a
		 * new surface is megabytes zeroed, and page faults */
		if (vu->cache && (vu->cache_key.width != width ||
				  vu->cache_key.height != height)) {
			cairo_surface_destroy(vu->cache);
			vu->cache = NULL;
		}
		if (!vu->cache)
			vu->cache = gdk_window_create_similar_image_surface(
				gtk_widget_get_window(w), CAIRO_FORMAT_RGB24, width, height, 0);
		c = cairo_create(vu->cache);
		lttv_draw(c, &vu->v, width, height);
		cairo_destroy(c);
		if (vu == &a->cf && a->selftest)
			lttv_live_drawn(a, &vu->v);
		vu->cache_key = key;
		if (msg[0]) {
			a->ix.draws_while_indexing++;
			g_atomic_int_set(&a->ix.frame_us,
					 (gint)MIN(g_get_monotonic_time() - t_sync, G_MAXINT));
		}
	}
	cairo_set_source_surface(cr, vu->cache, 0, 0);
	cairo_paint(cr);
	vu->v.message = NULL;
	if (a->bench && vu == &a->cf)
		bench_frame(a, ltt_state_index_done(a->doc->view));
	lttv_layout_get(&vu->v, width, height, &l);
	gtk_adjustment_configure(vu->vadj, vu->v.first_row, 0, vu->v.nrows, 1,
				 l.rows_fit > 1 ? l.rows_fit - 1 : 1,
				 MIN(l.rows_fit, vu->v.nrows));
	return TRUE;
}

static void update_status(app *a)
{
	char buf[384], x[64], y[96], d[64];
	size_t n = 0;

	buf[0] = 0;
	if (!a->doc) {
		gtk_label_set_text(GTK_LABEL(a->status), "");
		return;
	}
	lttv_format_duration(a->t1 - a->t0, d, sizeof(d));
	n += (size_t)snprintf(buf + n, sizeof(buf) - n, "window %.9f .. %.9f s (%s)",
			      (a->t0 - a->doc->origin_ns) / 1e9,
			      (a->t1 - a->doc->origin_ns) / 1e9, d);
	if (a->cursor_a != INT64_MIN)
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, "   A %.9f s",
				      (a->cursor_a - a->doc->origin_ns) / 1e9);
	if (a->cursor_b != INT64_MIN)
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, "   B %.9f s",
				      (a->cursor_b - a->doc->origin_ns) / 1e9);
	if (a->cursor_a != INT64_MIN && a->cursor_b != INT64_MIN) {
		lttv_format_duration(a->cursor_b - a->cursor_a, x, sizeof(x));
		snprintf(y, sizeof(y), "   B-A %s", x);
		g_strlcat(buf, y, sizeof(buf));
	}
	if (a->status_note[0]) {
		g_strlcat(buf, "   ", sizeof(buf));
		g_strlcat(buf, a->status_note, sizeof(buf));
	}
	lttv_utf8_cut(buf);
	gtk_label_set_text(GTK_LABEL(a->status), buf);
}

void lttv_status_note(app *a, const char *note)
{
	g_strlcpy(a->status_note, note ? note : "", sizeof(a->status_note));
	update_status(a);
}

/*
 * What is under a pointer that does not move changes too (a new snapshot
 * re-sorts the rows, a key zooms, a sort): GTK is asked for the tooltip
 * it shows again, as if the pointer had moved, once the views have taken
 * the change in; else it would go on naming a process or an interval no
 * longer there.
 */
static gboolean requery_tip(gpointer data)
{
	app *a = data;

	a->tip_requery = 0;
	if (a->tip_shown && a->doc && a->win) {
		lttv_view_sync(a, &a->cf);
		lttv_view_sync(a, &a->res);
		gtk_widget_trigger_tooltip_query(a->win);
	}
	return G_SOURCE_REMOVE;
}

void lttv_queue_redraw(app *a)
{
	gtk_widget_queue_draw(a->cf.area);
	gtk_widget_queue_draw(a->res.area);
	lttv_compare_redraw(a);
	if (a->tip_shown && !a->tip_requery)
		a->tip_requery = g_idle_add(requery_tip, a);
	lttv_atab_redraw(a);
	if (a->doc && a->doc->hidden) {
		char buf[64];

		snprintf(buf, sizeof(buf), "Unhide (%u)", g_hash_table_size(a->doc->hidden));
		gtk_button_set_label(GTK_BUTTON(a->hidden_btn), buf);
	}
	update_status(a);
}

void lttv_set_range(app *a, int64_t t0, int64_t t1)
{
	int64_t span, lo, hi;

	if (!a->doc)
		return;
	lttv_compare_extent(a, a->doc, &lo, &hi);	/* side by side: every trace's */
	span = hi - lo;
	lo -= span / 10;
	hi += span / 10;
	if (t1 - t0 < 100)
		t1 = t0 + 100;
	if (t1 - t0 > hi - lo) {
		t0 = lo;
		t1 = hi;
	}
	if (t0 < lo) {
		t1 += lo - t0;
		t0 = lo;
	}
	if (t1 > hi) {
		t0 -= t1 - hi;
		t1 = hi;
	}
	a->t0 = t0;
	a->t1 = t1;
	lttv_list_follow(a, t0, t1);
	lttv_stats_follow(a);
	lttv_queue_redraw(a);
}

void lttv_zoom(app *a, double factor, int64_t center)
{
	if (center == INT64_MIN)
		center = a->t0 + (a->t1 - a->t0) / 2;
	lttv_set_range(a, center - (int64_t)((double)(center - a->t0) * factor),
		  center + (int64_t)((double)(a->t1 - center) * factor));
}

void lttv_zoom_fit(app *a)
{
	int64_t lo, hi;

	if (!a->doc)
		return;
	lttv_compare_extent(a, a->doc, &lo, &hi);
	lttv_set_range(a, lo, hi);
}

static void pan(app *a, double fraction)
{
	int64_t d = (int64_t)((double)(a->t1 - a->t0) * fraction);

	lttv_set_range(a, a->t0 + d, a->t1 + d);
}

view_ui *lttv_current_view(app *a)
{
	return gtk_notebook_get_current_page(GTK_NOTEBOOK(a->notebook)) == LTTV_PAGE_RESOURCES ? &a->res : &a->cf;
}

void lttv_set_cursor(app *a, int64_t t, int which_b)
{
	if (which_b)
		a->cursor_b = t;
	else
		a->cursor_a = t;
	lttv_stats_follow(a);
	if (!which_b) {
		a->status_note[0] = 0;
		a->list.anchor = t;
		a->list.skip = 0;
		lttv_list_refresh(a);
	}
	lttv_queue_redraw(a);
}

void lttv_select_row(view_ui *vu, int r)
{
	lttv_layout l;

	if (r < 0 || r >= (int)vu->v.nrows)
		return;
	vu->v.selected = r;
	vu->reselect = 0;
	lttv_layout_get(&vu->v, gtk_widget_get_allocated_width(vu->area),
			gtk_widget_get_allocated_height(vu->area), &l);
	if ((unsigned)r < vu->v.first_row)
		vu->v.first_row = (unsigned)r;
	else if (l.rows_fit > 1 && (unsigned)r >= vu->v.first_row + l.rows_fit - 1)
		vu->v.first_row = (unsigned)r - (l.rows_fit - 2);
	lttv_queue_redraw(vu->a);
}

int lttv_row_of_pid(view_ui *vu, unsigned pid)
{
	const ltt_state *st;
	int found = -1;

	if (!vu->a->doc)
		return -1;
	st = ltt_state_index_state(vu->a->doc->view);
	for (unsigned r = 0; r < vu->v.nrows; r++) {
		ltt_state_process_info p;

		if (vu->rows[r].type == LTT_STATE_ROW_PROCESS &&
		    ltt_state_process(st, vu->rows[r].index, &p) == 0 && p.pid == pid)
			found = (int)r;	/* the latest with that pid */
	}
	return found;
}

void lttv_hide_selected(app *a)
{
	view_ui *vu = &a->cf;

	if (!a->doc || vu->v.selected < 0 || vu->v.selected >= (int)vu->v.nrows)
		return;
	lttv_doc_hide(a->doc, vu->rows[vu->v.selected].index);
	vu->v.selected = -1;
	lttv_rows_changed(a);
	lttv_queue_redraw(a);
}

void lttv_show_hidden(app *a)
{
	if (a->doc)
		g_hash_table_remove_all(a->doc->hidden);
	lttv_rows_changed(a);
	lttv_queue_redraw(a);
}

void lttv_sort_by(app *a, int col)
{
	if (!a->doc || col < 0)
		return;
	if (a->doc->sort_col == col)
		a->doc->sort_desc = !a->doc->sort_desc;
	else	/* the busiest first, else ascending */
		a->doc->sort_col = col, a->doc->sort_desc = col == LTTV_COL_BUSY;
	lttv_rows_changed(a);
	lttv_queue_redraw(a);
}

/* ---- mouse ------------------------------------------------------------------ */

void lttv_layout_of(view_ui *vu, lttv_layout *l)
{
	lttv_layout_get(&vu->v, gtk_widget_get_allocated_width(vu->area),
			gtk_widget_get_allocated_height(vu->area), l);
}

static void on_hide_item(GtkMenuItem *item, gpointer data) { lttv_hide_selected(data); }
static void on_show_item(GtkMenuItem *item, gpointer data) { lttv_show_hidden(data); }

void lttv_mouse_press(view_ui *vu, double x, double y, guint button, guint state)
{
	lttv_layout l;

	lttv_layout_of(vu, &l);
	vu->press_button = (int)button;
	vu->press_x = x;
	vu->press_y = y;
	vu->press_t0 = vu->a->t0;
	vu->press_t1 = vu->a->t1;
	vu->press_state = state;
	vu->dragging = vu->selecting = 0;
	if (y < l.header_h && x < l.x0 && !vu->v.resources) {
		lttv_sort_by(vu->a, lttv_x_to_col(&l, x));
		vu->press_button = 0;
		return;
	}
	if (button == 3 && x < l.x0 && !vu->v.resources) {
		GtkWidget *menu = gtk_menu_new(), *hide, *show;

		lttv_select_row(vu, lttv_y_to_row(&vu->v, &l, y));
		hide = gtk_menu_item_new_with_label("Hide this row (h)");
		show = gtk_menu_item_new_with_label("Show all hidden rows");
		g_signal_connect(hide, "activate", G_CALLBACK(on_hide_item), vu->a);
		g_signal_connect(show, "activate", G_CALLBACK(on_show_item), vu->a);
		gtk_menu_shell_append(GTK_MENU_SHELL(menu), hide);
		gtk_menu_shell_append(GTK_MENU_SHELL(menu), show);
		gtk_widget_show_all(menu);
		gtk_menu_popup_at_pointer(GTK_MENU(menu), NULL);
		vu->press_button = 0;
	}
}

void lttv_mouse_motion(view_ui *vu, double x, double y)
{
	lttv_layout l;

	if (!vu->press_button || !vu->a->doc)
		return;
	lttv_layout_of(vu, &l);
	if (fabs(x - vu->press_x) < 3 && !vu->dragging && !vu->selecting)
		return;
	if (vu->press_button == 3 ||
	    (vu->press_state & (GDK_CONTROL_MASK | GDK_SHIFT_MASK))) {
		vu->selecting = 1;
		vu->v.sel_a = lttv_x_to_time(&vu->v, &l, vu->press_x);
		vu->v.sel_b = lttv_x_to_time(&vu->v, &l, x);
		gtk_widget_queue_draw(vu->area);
	} else if (vu->press_button == 1 && vu->press_x >= l.x0) {
		double ns_per_px = (double)(vu->press_t1 - vu->press_t0) / (l.x1 - l.x0);
		int64_t d = (int64_t)((vu->press_x - x) * ns_per_px);

		vu->dragging = 1;
		lttv_set_range(vu->a, vu->press_t0 + d, vu->press_t1 + d);
	}
}

void lttv_mouse_release(view_ui *vu, double x, double y)
{
	app *a = vu->a;
	lttv_layout l;

	if (!vu->press_button || !a->doc)
		return;
	lttv_layout_of(vu, &l);
	if (vu->selecting) {
		int64_t s = MIN(vu->v.sel_a, vu->v.sel_b), e = MAX(vu->v.sel_a, vu->v.sel_b);

		a->last_sel_a = s;
		a->last_sel_b = e;
		vu->v.sel_a = vu->v.sel_b = INT64_MIN;
		if (e - s <= 0)
			;
		else if (vu->press_button == 1 && !(vu->press_state & GDK_CONTROL_MASK) &&
			 (vu->press_state & GDK_SHIFT_MASK)) {
			/* Shift+drag: the range selected as A..B, the view
			 * kept (the Statistics tab sums it up) */
			a->cursor_b = e;
			lttv_set_cursor(a, s, 0);
		} else {
			lttv_set_range(a, s, e);
		}
	} else if (!vu->dragging && vu->press_button == 1) {
		int r = lttv_y_to_row(&vu->v, &l, y);

		if (r >= 0)
			lttv_select_row(vu, r);
		if (x >= l.x0) {
			int b = (vu->press_state & GDK_SHIFT_MASK) != 0;

			if (!b)	/* a new A: the range A..B of before is gone */
				a->cursor_b = INT64_MIN;
			lttv_set_cursor(a, lttv_x_to_time(&vu->v, &l, x), b);
		}
	}
	vu->press_button = 0;
	vu->dragging = vu->selecting = 0;
	gtk_widget_queue_draw(vu->area);
}

void lttv_mouse_scroll(view_ui *vu, double x, double dy, guint state)
{
	lttv_layout l;

	if (!vu->a->doc)
		return;
	lttv_layout_of(vu, &l);
	if (state & GDK_CONTROL_MASK) {
		lttv_zoom(vu->a, dy > 0 ? 1.25 : 0.8,
		     x >= l.x0 ? lttv_x_to_time(&vu->v, &l, x) : INT64_MIN);
	} else if (state & GDK_SHIFT_MASK) {
		pan(vu->a, dy > 0 ? 0.1 : -0.1);
	} else {
		int fr = (int)vu->v.first_row + (dy > 0 ? 3 : -3);
		int max = (int)vu->v.nrows - (int)(l.rows_fit > 1 ? l.rows_fit - 1 : 1);

		vu->v.first_row = (unsigned)CLAMP(fr, 0, MAX(max, 0));
		gtk_widget_queue_draw(vu->area);
	}
}

static gboolean on_press(GtkWidget *w, GdkEventButton *e, gpointer data)
{
	if (e->type == GDK_BUTTON_PRESS)
		lttv_mouse_press(data, e->x, e->y, e->button, e->state);
	gtk_widget_grab_focus(w);
	return TRUE;
}

static gboolean on_motion(GtkWidget *w, GdkEventMotion *e, gpointer data)
{
	lttv_mouse_motion(data, e->x, e->y);
	return TRUE;
}

static gboolean on_release(GtkWidget *w, GdkEventButton *e, gpointer data)
{
	lttv_mouse_release(data, e->x, e->y);
	return TRUE;
}

static gboolean on_scroll(GtkWidget *w, GdkEventScroll *e, gpointer data)
{
	double dy = 0;

	if (e->direction == GDK_SCROLL_UP)
		dy = -1;
	else if (e->direction == GDK_SCROLL_DOWN)
		dy = 1;
	else if (e->direction == GDK_SCROLL_SMOOTH)
		dy = e->delta_y;
	if (dy != 0)
		lttv_mouse_scroll(data, e->x, dy, e->state);
	return TRUE;
}

static void find_hit(void *user, int64_t s, int64_t e, ltt_state_kind k)
{
	lttv_hit *h = user;

	if (s <= h->t && h->t < e) {
		h->s = s;
		h->e = e;
		h->kind = (int)k;
	}
}

/*
 * The row's state at h->t, whole: its kind, its true start and end. The
 * view's intervals are cut at its edges and, zoomed out, are pixels: a
 * wait that began before the left edge must say when it began. Searched
 * at every change of the row, over a span that grows fourfold until the
 * interval's end is inside it: a cost of the row's changes around the
 * interval, not of the trace. 0, or -1 if the row has no state there.
 */
int lttv_whole_interval(const lttv_doc *d, const lttv_row *row, lttv_hit *h)
{
	int64_t lo = ltt_state_index_start_ns(d->view), hi = ltt_state_index_indexed_ns(d->view);
	int64_t span = 1000000, from, to;	/* 1 ms, then 4, 16... */
	lttv_hit b = { h->t, 0, 0, -1 }, f = { h->t, 0, 0, -1 };

	do {
		from = h->t - span > lo ? h->t - span : lo;
		b.kind = -1;
		ltt_state_index_intervals(d->view, row->type, row->index, from, h->t + 1, 0,
					  find_hit, &b);
		span *= 4;
	} while (b.kind >= 0 && b.s <= from && from > lo);
	if (b.kind < 0)
		return -1;
	span = 1000000;
	do {
		to = h->t + span < hi ? h->t + span : hi;
		f.kind = -1;
		ltt_state_index_intervals(d->view, row->type, row->index, h->t, to, 0,
					  find_hit, &f);
		span *= 4;
	} while (f.kind >= 0 && f.e >= to && to < hi);
	h->s = b.s;
	h->e = f.kind >= 0 ? f.e : b.e;
	h->kind = b.kind;
	return 0;
}

/*
 * "." and ",": cursor A to the next (dir 1) or previous (-1) change of
 * the selected row's state after (before) cursor A, or the view's left
 * edge, brought into view. 0 if there is none (said in the status bar).
 */
static int row_change(app *a, int dir)
{
	view_ui *vu = lttv_current_view(a);
	lttv_hit h;
	int64_t from, to;

	if (!a->doc || vu->v.selected < 0 || (unsigned)vu->v.selected >= vu->v.nrows)
		return 0;
	from = a->cursor_a != INT64_MIN ? a->cursor_a : a->t0;
	h = (lttv_hit){ dir > 0 ? from : from - 1, 0, 0, -1 };
	if (lttv_whole_interval(a->doc, &vu->rows[vu->v.selected], &h) < 0)
		return 0;
	to = dir > 0 ? h.e : h.s;
	if ((dir > 0 && (to <= from || to >= ltt_state_index_indexed_ns(a->doc->view))) ||
	    (dir < 0 && (to >= from || to <= a->doc->start_ns))) {
		snprintf(a->status_note, sizeof(a->status_note), "no %s change of this row",
			 dir > 0 ? "later" : "earlier");
		lttv_queue_redraw(a);
		return 0;
	}
	if (to < a->t0 || to > a->t1)
		lttv_set_range(a, to - (a->t1 - a->t0) / 2, to + (a->t1 - a->t0) / 2);
	lttv_set_cursor(a, to, 0);
	return 1;
}

/* Hovering a bar says what it is: the state there, whole (its true begin,
 * end and duration, whatever the view shows); NULL where there is nothing
 * to say. */
char *lttv_tooltip_text(view_ui *vu, double x, double y)
{
	app *a = vu->a;
	lttv_layout l;
	int r;
	lttv_hit h = { 0, 0, 0, -1 };
	char name[256] = "", d[64], *text;
	const char *detail = NULL;	/* "openat": what its mode is about */

	if (!a->doc)
		return NULL;
	lttv_layout_of(vu, &l);
	if (y < l.header_h && x < l.x0 && !vu->v.resources)
		return g_strdup("Click to sort by this column");
	r = lttv_y_to_row(&vu->v, &l, y);
	if (r < 0 || x < l.x0)
		return NULL;
	h.t = lttv_x_to_time(&vu->v, &l, x);
	ltt_state_index_intervals(a->doc->view, vu->rows[r].type, vu->rows[r].index, vu->v.t0,
				  vu->v.t1, MAX((vu->v.t1 - vu->v.t0) / (l.x1 - l.x0), 1),
				  find_hit, &h);
	/* nothing there (not yet indexed, maybe): no seek, which would replay
	 * the trace from the last checkpoint up to the pointer, 0.7 s of the
	 * window's thread in the middle of 100 M events while indexing */
	if (h.kind < 0 || lttv_whole_interval(a->doc, &vu->rows[r], &h) < 0)
		return NULL;
	if (vu->rows[r].type == LTT_STATE_ROW_PROCESS) {
		ltt_state_process_info p;

		ltt_state_process(ltt_state_index_state(a->doc->view), vu->rows[r].index, &p);
		snprintf(name, sizeof(name), "%s (pid %u)", *p.name ? ltt_text_safe(p.name) : "?", p.pid);
		/* the system call (trap, IRQ...) it was in then: the model at that time */
		if (!a->tip_state)
			a->tip_state = ltt_state_new();
		if (ltt_state_index_seek(a->doc->view, h.t + 1, a->tip_state, NULL) == 0 &&
		    ltt_state_process(a->tip_state, vu->rows[r].index, &p) == 0 &&
		    p.status == LTT_STATE_RUN)
			detail = p.mode_name;
	} else if (vu->rows[r].type == LTT_STATE_ROW_CPU) {
		/* who runs there: the model at that time (a bounded replay) */
		ltt_state_process_info p;
		int i;

		if (!a->tip_state)
			a->tip_state = ltt_state_new();
		if (ltt_state_index_seek(a->doc->view, h.t + 1, a->tip_state, NULL) == 0 &&
		    (i = ltt_state_cpu_process(a->tip_state, vu->rows[r].index)) >= 0 &&
		    ltt_state_process(a->tip_state, (unsigned)i, &p) == 0) {
			snprintf(name, sizeof(name), "CPU %u: %s (pid %u)", vu->rows[r].index,
				 *p.name ? ltt_text_safe(p.name) : "?", p.pid);
			detail = p.mode_name;
		} else
			snprintf(name, sizeof(name), "CPU %u", vu->rows[r].index);
	} else if (vu->rows[r].type == LTT_STATE_ROW_IRQ) {
		ltt_state_irq_info q;

		ltt_state_irq(ltt_state_index_state(a->doc->view), vu->rows[r].index, &q);
		snprintf(name, sizeof(name), "IRQ %u %s", q.id, ltt_text_safe(q.name));
	} else {
		ltt_state_softirq_info q;

		ltt_state_softirq(ltt_state_index_state(a->doc->view), vu->rows[r].index, &q);
		snprintf(name, sizeof(name), "softirq %u %s", q.id, ltt_text_safe(q.name));
	}
	lttv_utf8_cut(name);
	lttv_format_duration(h.e - h.s, d, sizeof(d));
	if (h.kind == LTT_STATE_KIND_DEAD)	/* to the end of the trace: no duration */
		return g_strdup_printf("%s\n%s since %.9f s", name,
				       lttv_kind_label((ltt_state_kind)h.kind),
				       (h.s - a->doc->origin_ns) / 1e9);
	text = g_strdup_printf("%s\n%s%s%s%s\n%.9f .. %.9f s (%s)", name,
			       lttv_kind_label((ltt_state_kind)h.kind), detail ? " (" : "",
			       detail ? detail : "", detail ? ")" : "",
			       (h.s - a->doc->origin_ns) / 1e9, (h.e - a->doc->origin_ns) / 1e9, d);
	return text;
}

static gboolean on_tooltip(GtkWidget *w, gint x, gint y, gboolean kbd, GtkTooltip *tip,
			   gpointer data)
{
	view_ui *vu = data;
	char *text = lttv_tooltip_text(vu, x, y);

	g_free(vu->a->tip_shown);
	vu->a->tip_shown = text;
	if (!text)
		return FALSE;
	gtk_tooltip_set_text(tip, text);
	return TRUE;
}

/* The pointer gone, GTK hides the tooltip: nothing to ask again. */
static gboolean on_leave(GtkWidget *w, GdkEventCrossing *e, gpointer data)
{
	view_ui *vu = data;

	g_free(vu->a->tip_shown);
	vu->a->tip_shown = NULL;
	return FALSE;
}

static void on_vadj(GtkAdjustment *adj, gpointer data)
{
	view_ui *vu = data;
	unsigned v = (unsigned)gtk_adjustment_get_value(adj);

	if (v != vu->v.first_row) {
		vu->v.first_row = v;
		gtk_widget_queue_draw(vu->area);
	}
}

/* ---- toolbar actions ----------------------------------------------------------- */

static int apply_event_filter(app *a, const char *text)
{
	char *error = NULL;
	lttv_filter *f = NULL;

	if (text && *text) {
		f = lttv_filter_parse(text, a->doc ? a->doc->origin_ns : 0,
				      a->doc ? a->doc->traces : NULL, a->doc ? a->doc->ntraces : 0, &error);
		if (!f) {
			gtk_label_set_text(GTK_LABEL(a->filter_error), error);
			gtk_widget_show(a->filter_error);
			g_free(error);
			return -1;
		}
	}
	gtk_widget_hide(a->filter_error);
	lttv_filter_free(a->filter);
	a->filter = f;
	g_free(a->filter_text);
	a->filter_text = f ? g_strdup(text) : NULL;
	lttv_list_refresh(a);
	lttv_marks_restart(a);
	return 0;
}

/* ---- the event filter on the time line (marks.c) ---- */

static gboolean on_marks_progress(gpointer data)
{
	lttv_queue_redraw(data);	/* the message says how far it is */
	return G_SOURCE_CONTINUE;
}

void lttv_marks_stop(app *a)
{
	lttv_marks_cancel(a->marks_job);
	a->marks_job = NULL;
	if (a->marks_timer)
		g_source_remove(a->marks_timer);
	a->marks_timer = 0;
}

static void on_marks_done(lttv_marks *m, const char *error, void *data)
{
	app *a = data;

	a->marks_job = NULL;
	if (a->marks_timer)
		g_source_remove(a->marks_timer);
	a->marks_timer = 0;
	if (error) {	/* a read error: the marks up to it, if any */
		char *msg = g_strdup_printf("The filter's matches %s: %s", m ? "are marked only up "
					    "to a read error" : "could not be marked", error);

		gtk_label_set_text(GTK_LABEL(a->filter_error), msg);
		gtk_widget_show(a->filter_error);
		g_free(msg);
	}
	if (m && a->doc) {
		lttv_marks_free(a->doc->marks);
		a->doc->marks = m;
	} else {
		lttv_marks_free(m);
	}
	lttv_rows_changed(a);
	lttv_queue_redraw(a);
}

/* The event filter changed, or the trace did: mark its matches again, in
 * a worker (a pass over the whole trace); the old marks go at once. */
void lttv_marks_restart(app *a)
{
	lttv_marks_stop(a);
	if (!a->doc)
		return;
	lttv_marks_free(a->doc->marks);
	a->doc->marks = NULL;
	if (a->filter_text) {
		a->marks_job = lttv_marks_start(a->doc, a->filter_text, on_marks_done, a);
		a->marks_timer = g_timeout_add(100, on_marks_progress, a);
	}
	lttv_rows_changed(a);
	lttv_queue_redraw(a);
}

static void on_only_marked(GtkToggleButton *b, gpointer data)
{
	app *a = data;

	if (!a->doc)
		return;
	a->doc->only_marked = gtk_toggle_button_get_active(b);
	lttv_rows_changed(a);
	lttv_queue_redraw(a);
}

void lttv_on_event_filter(GtkEntry *e, gpointer data)
{
	apply_event_filter(data, gtk_entry_get_text(e));
}

void lttv_on_row_filter(GtkSearchEntry *e, gpointer data)
{
	app *a = data;

	if (!a->doc)
		return;
	g_free(a->doc->filter);
	a->doc->filter = g_strdup(gtk_entry_get_text(GTK_ENTRY(e)));
	lttv_rows_changed(a);
	lttv_queue_redraw(a);
}

static int go_to(app *a, const char *text)
{
	int64_t t;

	if (!a->doc || lttv_parse_time(text, a->doc->origin_ns, &t) < 0)
		return -1;
	lttv_set_range(a, t - (a->t1 - a->t0) / 2, t + (a->t1 - a->t0) / 2);
	lttv_set_cursor(a, t, 0);
	return 0;
}

void lttv_on_goto(GtkEntry *e, gpointer data)
{
	if (go_to(data, gtk_entry_get_text(e)) < 0)
		gtk_widget_error_bell(GTK_WIDGET(e));
}

static void on_zoom_in(GtkButton *b, gpointer data) { lttv_zoom(data, 0.5, INT64_MIN); }
static void on_zoom_out(GtkButton *b, gpointer data) { lttv_zoom(data, 2, INT64_MIN); }
static void on_zoom_fit(GtkButton *b, gpointer data) { lttv_zoom_fit(data); }
static void on_show_hidden(GtkButton *b, gpointer data) { lttv_show_hidden(data); }

void lttv_on_zoom_sel(GtkButton *b, gpointer data)
{
	app *a = data;

	if (a->cursor_a != INT64_MIN && a->cursor_b != INT64_MIN && a->cursor_a != a->cursor_b)
		lttv_set_range(a, MIN(a->cursor_a, a->cursor_b), MAX(a->cursor_a, a->cursor_b));
	else if (a->last_sel_b > a->last_sel_a)
		lttv_set_range(a, a->last_sel_a, a->last_sel_b);
}

static void on_page(GtkNotebook *nb, GtkWidget *page, guint n, gpointer data)
{
	if (n == LTTV_PAGE_STATISTICS)
		lttv_stats_refresh(data);
	else if (n == LTTV_PAGE_ANALYSES)
		lttv_atab_want(data);
}

void lttv_on_stats_refresh(GtkButton *b, gpointer data) { lttv_stats_refresh(data); }

/* ---- opening ---------------------------------------------------------------- */

static void install_doc(app *a, lttv_doc *d, int64_t t0, int64_t t1);

static int open_trace(app *a, const char *const *paths, unsigned n)
{
	char *error = NULL;
	lttv_doc *d = lttv_doc_open(paths, n, &error);
	int64_t t0 = 0, t1 = 0;

	if (d)
		lttv_compare_place(a, d);	/* side by side: on the shared axis */
	if (d && a->range && a->cmp) {	/* side by side: every trace's axis */
		lttv_compare_extent(a, d, &t0, &t1);
		t0 -= d->origin_ns;
		t1 -= d->origin_ns;
	}
	if (d && a->range &&
	    (a->cmp ? lttv_axis_range(a->range, &t0, &t1, &error) :
	     lttv_range_arg(d, a->range, &t0, &t1, &error)) < 0) {
		/* a bad command line: say why and quit, as the export does */
		g_printerr("lttv-gtk: %s\n", error);
		g_free(error);
		lttv_doc_free(d);
		a->exit_code = 2;
		g_application_quit(G_APPLICATION(a->gapp));
		return -1;
	}
	if (d && a->range && a->cmp) {	/* axis ns -> d's */
		t0 += d->origin_ns;
		t1 += d->origin_ns;
	}

	if (d && lttv_doc_open_reader(d, &error) < 0) {
		lttv_doc_free(d);
		d = NULL;
	}
	if (!d && a->follow) {	/* not written yet: said, tried again */
		lttv_live_say(a, error);
		g_free(error);
		return -1;
	}
	if (!d) {
		GtkWidget *m = gtk_message_dialog_new(GTK_WINDOW(a->win), GTK_DIALOG_MODAL,
						      GTK_MESSAGE_ERROR, GTK_BUTTONS_CLOSE,
						      "Cannot open the trace");

		char *msg = g_strdup_printf("Cannot open the trace: %s", error);

		gtk_message_dialog_format_secondary_text(GTK_MESSAGE_DIALOG(m), "%s", error);
		g_printerr("lttv-gtk: %s\n", error);
		gtk_widget_hide(a->lost_bar);
		lttv_show_problem(a, msg);
		g_free(msg);
		if (!a->selftest)
			gtk_dialog_run(GTK_DIALOG(m));
		gtk_widget_destroy(m);
		g_free(error);
		return -1;
	}
	if (!a->range)		/* side by side: every trace's */
		lttv_compare_extent(a, d, &t0, &t1);
	g_free(a->range);	/* the first trace's only */
	a->range = NULL;
	install_doc(a, d, t0, t1);
	a->cursor_a = a->cursor_b = INT64_MIN;
	a->cf.v.selected = a->res.v.selected = -1;
	a->cf.reselect = 0;
	a->cf.v.first_row = a->res.v.first_row = 0;
	a->list.anchor = MAX(t0, d->start_ns);	/* --range: its start */
	a->list.skip = 0;
	a->list.scrolled = 0;
	lttv_list_refresh(a);
	return 0;
}

int lttv_open_trace_paths(app *a)
{
	if (!a->trace_paths)
		return -1;
	return open_trace(a, (const char *const *)a->trace_paths, lttv_compare_first(a));
}

/* The pid of the process selected in the control flow (or to select once
 * indexed), or UINT_MAX. */
static unsigned selected_pid(app *a)
{
	const view_ui *vu = &a->cf;
	ltt_state_process_info p;

	if (vu->reselect)
		return vu->reselect - 1;
	if (!a->doc || vu->v.doc != a->doc || vu->v.selected < 0 ||
	    vu->v.selected >= (int)vu->v.nrows ||
	    vu->rows[vu->v.selected].type != LTT_STATE_ROW_PROCESS ||
	    ltt_state_process(ltt_state_index_state(a->doc->view),
			      vu->rows[vu->v.selected].index, &p) < 0)
		return UINT_MAX;
	return p.pid;
}

/* Puts d in the window, showing [t0, t1], and starts indexing it. */
static void install_doc(app *a, lttv_doc *d, int64_t t0, int64_t t1)
{
	char *title;
	unsigned pid = selected_pid(a);

	lttv_indexer_stop(a);
	lttv_find_cancel(a);
	lttv_marks_stop(a);
	lttv_stats_cancel(a);
	lttv_list_cancel(a);		/* its reader reads the old doc's files */
	lttv_atab_stop(a);		/* its worker reads the old doc */
	a->cf.v.analysis = NULL;	/* it reads the old doc */
	/* nor may the views (a tooltip lays one out before its next sync); and
	 * a new doc allocated where the old one was must not look unchanged */
	a->cf.v.doc = a->res.v.doc = NULL;
	lttv_doc_free(a->doc);
	ltt_state_free(a->list.state);
	a->list.state = NULL;
	ltt_state_free(a->tip_state);	/* its event types belong to the old trace */
	a->tip_state = NULL;
	a->doc = d;
	a->t0 = t0;
	a->t1 = t1;
	/* the views move to d now: a tooltip or a click before the next
	 * draw must not read the freed doc (--follow opens it every second) */
	lttv_rows_changed(a);
	lttv_view_sync(a, &a->cf);
	lttv_view_sync(a, &a->res);
	/* the same process stays selected, once indexed */
	a->cf.reselect = pid != UINT_MAX ? pid + 1 : 0;
	title = g_strdup_printf("%s - LTT viewer", ltt_text_safe(d->path));
	gtk_window_set_title(GTK_WINDOW(a->win), title);
	g_free(title);
	if (d->events_lost || d->corrupted) {
		char buf[200];

		snprintf(buf, sizeof(buf), "The kernel lost %" PRIu64 " events and %" PRIu64
			 " sub-buffers were corrupted: states after a loss may be wrong.",
			 d->events_lost, d->corrupted);
		gtk_widget_hide(a->lost_bar);
		lttv_show_problem(a, buf);
	} else {
		gtk_widget_hide(a->lost_bar);
	}
	gtk_widget_show(a->progress);
	lttv_indexer_start(a);
	d->only_marked = gtk_toggle_button_get_active(GTK_TOGGLE_BUTTON(a->only_marked));
	lttv_marks_restart(a);		/* the event filter's, on this trace */
	lttv_atab_doc_changed(a);
	lttv_queue_redraw(a);
	if (a->follow)
		lttv_live_say(a, NULL);
}

int lttv_reload_doc(app *a)
{
	char *error = NULL;
	lttv_doc *d, *old = a->doc;
	int64_t t0, t1;
	int at_end;

	if (!old)
		return -1;
	d = lttv_live_reopen(a, &error);
	if (d && lttv_doc_open_reader(d, &error) < 0) {
		lttv_doc_free(d);
		d = NULL;
	}
	if (!d) {		/* said; tried again when the files change */
		char *msg = g_strdup_printf("cannot open it again (what was read before is "
					    "shown): %s", error);

		lttv_live_say(a, msg);
		g_free(msg);
		g_free(error);
		return -1;
	}
	/* what the user set on the rows stays; hidden rows are named by pid
	 * (and CPU, for an idle task), which the new index keeps */
	d->sort_col = old->sort_col;
	d->sort_desc = old->sort_desc;
	d->tree = old->tree;
	d->filter = g_strdup(old->filter);
	lttv_doc_copy_hidden(d, old);
	/* the same window, grown when it showed the end of the trace */
	at_end = a->t1 >= old->end_ns;
	t0 = a->t0;
	t1 = at_end ? d->end_ns + (a->t1 - old->end_ns) : a->t1;
	install_doc(a, d, t0, t1);
	if (a->cursor_a == INT64_MIN)
		a->list.anchor = MAX(t0, d->start_ns);
	lttv_list_refresh(a);
	return 0;
}

static void open_dialog(app *a)
{
	GtkWidget *dlg = gtk_file_chooser_dialog_new("Open a trace folder", GTK_WINDOW(a->win),
		GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER, "Cancel", GTK_RESPONSE_CANCEL,
		"Open", GTK_RESPONSE_ACCEPT, NULL);

	if (gtk_dialog_run(GTK_DIALOG(dlg)) == GTK_RESPONSE_ACCEPT) {
		char *f = gtk_file_chooser_get_filename(GTK_FILE_CHOOSER(dlg));
		const char *paths[] = { f };

		gtk_widget_destroy(dlg);
		open_trace(a, paths, 1);
		g_free(f);
		return;
	}
	gtk_widget_destroy(dlg);
}

static void on_open(GtkButton *b, gpointer data) { open_dialog(data); }

/* ---- keys ------------------------------------------------------------------ */

static const char help_text[] =
	"Mouse\n"
	"  wheel                 scroll the rows\n"
	"  Ctrl+wheel            zoom at the pointer\n"
	"  Shift+wheel, drag     pan\n"
	"  right-drag            zoom to the range dragged over\n"
	"  Shift+drag            select the range dragged over as A..B (its\n"
	"                        summary in the Statistics tab)\n"
	"  click                 cursor A (and select the row)\n"
	"  Shift+click           cursor B (B - A in the ruler and status bar)\n"
	"  click a column title  sort by it (again: reverse)\n"
	"  right-click a name    hide the row\n"
	"  hover a bar           its state, start, end, duration\n"
	"  drag a trace's band   (--side-by-side, the pane under the control\n"
	"                        flow) move that trace in time\n"
	"\n"
	"Keys\n"
	"  + -                   zoom in, out\n"
	"  0, Home               the whole trace\n"
	"  End                   the end of the trace, at the same zoom\n"
	"  z                     zoom to A..B (or the last right-drag)\n"
	"  Left Right            pan\n"
	"  W S, A D              zoom in, out (at cursor A if in view); pan\n"
	"  . ,                   cursor A to the next, previous change of the\n"
	"                        selected row's state\n"
	"  b, Shift+B            bookmark cursor A (or A..B), remove the last\n"
	"  Ctrl+S                save the session (--session FILE)\n"
	"  Up Down               select a row (in the event list: a line)\n"
	"  h                     hide the selected row\n"
	"  t                     the process tree (threads under their\n"
	"                        process, children under their parent), again:\n"
	"                        the sorted list\n"
	"  Page Up/Down          scroll the event list\n"
	"  Enter                 (event list) cursor A on the selected event\n"
	"  Ctrl+G                go to a time\n"
	"  Ctrl+F                filter the rows (name or pid)\n"
	"  Ctrl+E                filter the events (expression)\n"
	"  Ctrl+O                open a trace      Ctrl+Q  quit\n"
	"  F3, Shift+F3          find the next, previous event that matches\n"
	"                        the expression of the event filter\n"
	"  Escape                stop the search\n"
	"  F1                    this help\n"
	"\n"
	"Event filter: event.name, event.facility, event.time, cpu, state.pid,\n"
	"state.tgid, state.ppid, state.process_name, state.mode, or a field name;\n"
	"= != < > <= >= (a trailing * matches a prefix), and, or, not, ( ).\n"
	"  event.name = schedchange and (state.pid = 2404 or cpu = 1)\n"
	"Its matches are marked on the rows (a triangle per event); the rows\n"
	"without any are faded, or left out with \"only matching\".\n";

/* Not modal: it can stay open beside the window. */
void lttv_show_help(app *a)
{
	GtkWidget *dlg, *label;

	if (a->help) {
		gtk_window_present(GTK_WINDOW(a->help));
		return;
	}
	dlg = gtk_dialog_new_with_buttons("lttv-gtk: keys and mouse", GTK_WINDOW(a->win),
					  GTK_DIALOG_DESTROY_WITH_PARENT, "Close",
					  GTK_RESPONSE_CLOSE, NULL);
	label = gtk_label_new(help_text);
	gtk_widget_set_name(label, "help-text");
	gtk_label_set_selectable(GTK_LABEL(label), TRUE);
	/* a label is no container: margins, not a border width */
	gtk_widget_set_margin_start(label, 12);
	gtk_widget_set_margin_end(label, 12);
	gtk_widget_set_margin_top(label, 12);
	gtk_widget_set_margin_bottom(label, 12);
	{
		PangoAttrList *attrs = pango_attr_list_new();

		pango_attr_list_insert(attrs, pango_attr_family_new("monospace"));
		gtk_label_set_attributes(GTK_LABEL(label), attrs);
		pango_attr_list_unref(attrs);
	}
	gtk_container_add(GTK_CONTAINER(gtk_dialog_get_content_area(GTK_DIALOG(dlg))), label);
	g_signal_connect(dlg, "response", G_CALLBACK(gtk_widget_destroy), NULL);
	g_signal_connect(dlg, "destroy", G_CALLBACK(gtk_widget_destroyed), &a->help);
	a->help = dlg;
	gtk_widget_show_all(dlg);
}

static void on_help(GtkButton *b, gpointer data) { lttv_show_help(data); }
static void on_find_prev(GtkButton *b, gpointer data) { lttv_find(data, -1); }
static void on_find_next(GtkButton *b, gpointer data) { lttv_find(data, 1); }
static void on_find_stop(GtkButton *b, gpointer data) { lttv_find_cancel(data); }

int lttv_key(app *a, guint key, guint state)
{
	view_ui *vu = lttv_current_view(a);
	int ctrl = (state & GDK_CONTROL_MASK) != 0;

	if (!ctrl && gtk_widget_has_focus(a->list.area) && lttv_list_key(a, key))
		return 1;

	if (ctrl) {
		switch (key) {
		case GDK_KEY_o: open_dialog(a); return 1;
		case GDK_KEY_s:
			if (a->session && lttv_session_write(a) == 0)
				snprintf(a->status_note, sizeof(a->status_note),
					 "session saved in %.100s", a->session);
			else if (!a->session)
				snprintf(a->status_note, sizeof(a->status_note),
					 "no session file: start with --session FILE");
			lttv_queue_redraw(a);
			return 1;
		case GDK_KEY_q: gtk_widget_destroy(a->win); return 1;
		case GDK_KEY_g: gtk_widget_grab_focus(a->goto_entry); return 1;
		case GDK_KEY_f: gtk_widget_grab_focus(a->row_filter); return 1;
		case GDK_KEY_e: gtk_widget_grab_focus(a->event_filter); return 1;
		case GDK_KEY_plus: case GDK_KEY_equal: lttv_zoom(a, 0.5, INT64_MIN); return 1;
		case GDK_KEY_minus: lttv_zoom(a, 2, INT64_MIN); return 1;
		default: return 0;
		}
	}
	switch (key) {
	case GDK_KEY_plus: case GDK_KEY_equal: case GDK_KEY_KP_Add:
		lttv_zoom(a, 0.5, INT64_MIN); return 1;
	case GDK_KEY_minus: case GDK_KEY_KP_Subtract:
		lttv_zoom(a, 2, INT64_MIN); return 1;
	case GDK_KEY_0: case GDK_KEY_Home: lttv_zoom_fit(a); return 1;
	case GDK_KEY_End:	/* the end of the trace (side by side: the last's) */
		if (a->doc) {
			int64_t lo, hi;

			lttv_compare_extent(a, a->doc, &lo, &hi);
			lttv_set_range(a, hi - (a->t1 - a->t0), hi);
		}
		return 1;
	/* as in Perfetto and Trace Compass: W S zoom in and out, A D pan */
	case GDK_KEY_w: lttv_zoom(a, 0.5, a->cursor_a >= a->t0 && a->cursor_a <= a->t1 ?
					  a->cursor_a : INT64_MIN); return 1;
	case GDK_KEY_s: lttv_zoom(a, 2, a->cursor_a >= a->t0 && a->cursor_a <= a->t1 ?
					a->cursor_a : INT64_MIN); return 1;
	case GDK_KEY_a: pan(a, -0.2); return 1;
	case GDK_KEY_d: pan(a, 0.2); return 1;
	case GDK_KEY_b: lttv_bookmark_add(a); return 1;
	case GDK_KEY_B: lttv_bookmark_remove_last(a); return 1;
	case GDK_KEY_period: row_change(a, 1); return 1;
	case GDK_KEY_comma: row_change(a, -1); return 1;
	case GDK_KEY_Left: pan(a, -0.2); return 1;
	case GDK_KEY_Right: pan(a, 0.2); return 1;
	case GDK_KEY_Up: lttv_select_row(vu, vu->v.selected > 0 ? vu->v.selected - 1 : 0); return 1;
	case GDK_KEY_Down: lttv_select_row(vu, vu->v.selected + 1); return 1;
	case GDK_KEY_Page_Down: lttv_list_scroll(a, 10); return 1;
	case GDK_KEY_Page_Up: lttv_list_scroll(a, -10); return 1;
	case GDK_KEY_h: lttv_hide_selected(a); return 1;
	case GDK_KEY_t:	/* the process tree, or back to the sorted list */
		if (a->doc) {
			a->doc->tree = !a->doc->tree;
			lttv_rows_changed(a);
			lttv_queue_redraw(a);
		}
		return 1;
	case GDK_KEY_z: lttv_on_zoom_sel(NULL, a); return 1;
	case GDK_KEY_F1: lttv_show_help(a); return 1;
	case GDK_KEY_F3: lttv_find(a, (state & GDK_SHIFT_MASK) ? -1 : 1); return 1;
	case GDK_KEY_Escape:
		if (!lttv_find_running(a))
			return 0;
		lttv_find_cancel(a);
		return 1;
	default: return 0;
	}
}

static gboolean on_key(GtkWidget *w, GdkEventKey *e, gpointer data)
{
	app *a = data;
	GtkWidget *focus = gtk_window_get_focus(GTK_WINDOW(a->win));

	/* typing in an entry is typing */
	if (focus && GTK_IS_ENTRY(focus) && !(e->state & GDK_CONTROL_MASK) &&
	    e->keyval != GDK_KEY_F3 && e->keyval != GDK_KEY_F1 &&
	    !(e->keyval == GDK_KEY_Escape && lttv_find_running(a)))
		return FALSE;
	return lttv_key(a, e->keyval, e->state) ? TRUE : FALSE;
}

/* ---- building the window ------------------------------------------------------- */

static GtkWidget *view_widget(app *a, view_ui *vu, int resources)
{
	GtkWidget *box = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 0);

	vu->a = a;
	vu->v.resources = resources;
	vu->v.legend = 1;
	vu->v.selected = -1;
	vu->v.sel_a = vu->v.sel_b = INT64_MIN;
	vu->area = gtk_drawing_area_new();
	gtk_widget_set_can_focus(vu->area, TRUE);
	gtk_widget_add_events(vu->area, GDK_BUTTON_PRESS_MASK | GDK_BUTTON_RELEASE_MASK |
			      GDK_POINTER_MOTION_MASK | GDK_SCROLL_MASK | GDK_LEAVE_NOTIFY_MASK);
	gtk_widget_set_hexpand(vu->area, TRUE);
	gtk_widget_set_vexpand(vu->area, TRUE);
	g_signal_connect(vu->area, "draw", G_CALLBACK(on_draw), vu);
	g_signal_connect(vu->area, "button-press-event", G_CALLBACK(on_press), vu);
	g_signal_connect(vu->area, "button-release-event", G_CALLBACK(on_release), vu);
	g_signal_connect(vu->area, "motion-notify-event", G_CALLBACK(on_motion), vu);
	g_signal_connect(vu->area, "scroll-event", G_CALLBACK(on_scroll), vu);
	g_signal_connect(vu->area, "leave-notify-event", G_CALLBACK(on_leave), vu);
	gtk_widget_set_has_tooltip(vu->area, TRUE);
	g_signal_connect(vu->area, "query-tooltip", G_CALLBACK(on_tooltip), vu);
	vu->vadj = gtk_adjustment_new(0, 0, 1, 1, 10, 1);
	g_signal_connect(vu->vadj, "value-changed", G_CALLBACK(on_vadj), vu);
	vu->scrollbar = gtk_scrollbar_new(GTK_ORIENTATION_VERTICAL, vu->vadj);
	gtk_box_pack_start(GTK_BOX(box), vu->area, TRUE, TRUE, 0);
	gtk_box_pack_start(GTK_BOX(box), vu->scrollbar, FALSE, FALSE, 0);
	return box;
}

static GtkWidget *tool_button(GtkWidget *bar, const char *label, const char *tip,
			      GCallback cb, app *a)
{
	GtkWidget *b = gtk_button_new_with_label(label);

	gtk_widget_set_tooltip_text(b, tip);
	gtk_widget_set_can_focus(b, FALSE);
	g_signal_connect(b, "clicked", cb, a);
	gtk_box_pack_start(GTK_BOX(bar), b, FALSE, FALSE, 0);
	return b;
}

static void on_destroy(GtkWidget *w, gpointer data)
{
	app *a = data;

	lttv_selftest_stop(a);
	lttv_compare_stop(a);
	lttv_list_cancel(a);
	lttv_stats_cancel(a);
	lttv_live_stop(a);
	lttv_find_cancel(a);
	lttv_marks_stop(a);
	lttv_indexer_stop(a);
	lttv_atab_free(a);
	lttv_stats_free(a);
	a->win = NULL;
}

static void on_activate(GtkApplication *gapp, gpointer data)
{
	app *a = data;
	GtkWidget *vbox = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0);
	GtkWidget *bar = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 4);
	GtkWidget *paned = gtk_paned_new(GTK_ORIENTATION_VERTICAL);
	GtkWidget *status = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 8);
	GtkWidget *lost_label = gtk_label_new("");

	a->win = gtk_application_window_new(gapp);
	gtk_window_set_title(GTK_WINDOW(a->win), "LTT viewer");
	gtk_window_set_default_size(GTK_WINDOW(a->win), 1280, 800);
	g_signal_connect(a->win, "key-press-event", G_CALLBACK(on_key), a);
	g_signal_connect(a->win, "destroy", G_CALLBACK(on_destroy), a);

	gtk_container_set_border_width(GTK_CONTAINER(bar), 4);
	tool_button(bar, "Open", "Open a trace folder (Ctrl+O)", G_CALLBACK(on_open), a);
	tool_button(bar, "+", "Zoom in (+, Ctrl+wheel)", G_CALLBACK(on_zoom_in), a);
	tool_button(bar, "-", "Zoom out (-, Ctrl+wheel)", G_CALLBACK(on_zoom_out), a);
	tool_button(bar, "Fit", "Zoom to the whole trace (0, Home)", G_CALLBACK(on_zoom_fit), a);
	tool_button(bar, "A..B", "Zoom to cursors A..B or the last right-drag "
		    "selection (z)", G_CALLBACK(lttv_on_zoom_sel), a);
	a->goto_entry = gtk_entry_new();
	gtk_entry_set_placeholder_text(GTK_ENTRY(a->goto_entry), "go to time (s)");
	gtk_entry_set_width_chars(GTK_ENTRY(a->goto_entry), 11);
	gtk_widget_set_tooltip_text(a->goto_entry, "Seconds from the trace start, or a time "
				    "as lttv-text prints it (Ctrl+G)");
	g_signal_connect(a->goto_entry, "activate", G_CALLBACK(lttv_on_goto), a);
	gtk_box_pack_start(GTK_BOX(bar), a->goto_entry, FALSE, FALSE, 0);
	a->row_filter = gtk_search_entry_new();
	gtk_entry_set_placeholder_text(GTK_ENTRY(a->row_filter), "rows: name or pid");
	gtk_entry_set_width_chars(GTK_ENTRY(a->row_filter), 13);
	gtk_widget_set_tooltip_text(a->row_filter, "Show only processes whose name contains "
				    "this text, or with this pid (Ctrl+F)");
	g_signal_connect(a->row_filter, "search-changed", G_CALLBACK(lttv_on_row_filter), a);
	gtk_box_pack_start(GTK_BOX(bar), a->row_filter, FALSE, FALSE, 0);
	a->event_filter = gtk_entry_new();
	gtk_entry_set_placeholder_text(GTK_ENTRY(a->event_filter),
				       "events: e.g. event.name = schedchange and state.pid = 2404");
	gtk_widget_set_tooltip_text(a->event_filter, "Filter of the event list and statistics, "
		"whose matches are marked on the rows (Enter to apply, Ctrl+E): event.name, event.facility, event.time, cpu, "
		"state.pid, state.tgid, state.ppid, state.process_name, state.mode, field names; "
		"= != < > <= >=, and, or, not, ( )");
	g_signal_connect(a->event_filter, "activate", G_CALLBACK(lttv_on_event_filter), a);
	gtk_box_pack_start(GTK_BOX(bar), a->event_filter, TRUE, TRUE, 0);
	tool_button(bar, "< Find", "The previous event that matches the expression (Shift+F3)",
		    G_CALLBACK(on_find_prev), a);
	tool_button(bar, "Find >", "The next event that matches the expression (F3)",
		    G_CALLBACK(on_find_next), a);
	a->find_stop = tool_button(bar, "Stop", "Stop the search (Escape)",
				   G_CALLBACK(on_find_stop), a);
	a->only_marked = gtk_check_button_new_with_label("only matching");
	gtk_widget_set_tooltip_text(a->only_marked, "With an event filter: show only the "
		"processes on which it matches an event (the others are faded otherwise)");
	gtk_widget_set_can_focus(a->only_marked, FALSE);
	g_signal_connect(a->only_marked, "toggled", G_CALLBACK(on_only_marked), a);
	gtk_box_pack_start(GTK_BOX(bar), a->only_marked, FALSE, FALSE, 0);
	a->hidden_btn = tool_button(bar, "Unhide (0)", "Show the rows hidden with h or "
				    "the right-click menu", G_CALLBACK(on_show_hidden), a);
	tool_button(bar, "Keys", "Keys and mouse (F1)", G_CALLBACK(on_help), a);
	tool_button(bar, "Tracing...", "Start or stop tracing (lttctl, lttd)",
		    G_CALLBACK(lttv_on_control), a);
	gtk_box_pack_start(GTK_BOX(vbox), bar, FALSE, FALSE, 0);

	a->filter_error = gtk_label_new("");
	gtk_widget_set_name(a->filter_error, "filter-error");
	gtk_box_pack_start(GTK_BOX(vbox), a->filter_error, FALSE, FALSE, 0);
	a->lost_bar = gtk_event_box_new();
	gtk_container_add(GTK_CONTAINER(a->lost_bar), lost_label);
	{
		GtkCssProvider *css = gtk_css_provider_new();

		gtk_css_provider_load_from_data(css,
			"#lost { background-color: #d00000; color: white; font-weight: bold; "
			"padding: 4px; } #filter-error { color: #c00000; }", -1, NULL);
		gtk_style_context_add_provider_for_screen(gdk_screen_get_default(),
			GTK_STYLE_PROVIDER(css), GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);
		g_object_unref(css);
		gtk_widget_set_name(a->lost_bar, "lost");
	}
	gtk_box_pack_start(GTK_BOX(vbox), a->lost_bar, FALSE, FALSE, 0);
	a->live_label = gtk_label_new("");
	gtk_label_set_xalign(GTK_LABEL(a->live_label), 0);
	gtk_label_set_line_wrap(GTK_LABEL(a->live_label), TRUE);
	gtk_widget_set_margin_start(a->live_label, 4);
	gtk_box_pack_start(GTK_BOX(vbox), a->live_label, FALSE, FALSE, 0);

	a->notebook = gtk_notebook_new();
	gtk_notebook_append_page(GTK_NOTEBOOK(a->notebook),
				 a->cmp ? lttv_compare_page(a, view_widget(a, &a->cf, 0)) :
				 view_widget(a, &a->cf, 0), gtk_label_new("Control flow"));
	gtk_notebook_append_page(GTK_NOTEBOOK(a->notebook), view_widget(a, &a->res, 1),
				 gtk_label_new("Resources"));
	gtk_notebook_append_page(GTK_NOTEBOOK(a->notebook), lttv_stats_widget(a),
				 gtk_label_new("Statistics"));
	gtk_notebook_append_page(GTK_NOTEBOOK(a->notebook), lttv_atab_widget(a),
				 gtk_label_new("Analyses"));
	g_signal_connect(a->notebook, "switch-page", G_CALLBACK(on_page), a);

	a->list.area = gtk_drawing_area_new();
	gtk_widget_set_size_request(a->list.area, -1, 120);
	gtk_widget_set_can_focus(a->list.area, TRUE);
	gtk_widget_add_events(a->list.area, GDK_BUTTON_PRESS_MASK | GDK_SCROLL_MASK);
	g_signal_connect(a->list.area, "draw", G_CALLBACK(lttv_on_list_draw), a);
	g_signal_connect(a->list.area, "button-press-event", G_CALLBACK(lttv_on_list_press), a);
	g_signal_connect(a->list.area, "scroll-event", G_CALLBACK(lttv_on_list_scroll), a);
	g_signal_connect(a->list.area, "size-allocate", G_CALLBACK(lttv_on_list_size), a);
	a->list.selected = -1;
	a->list.vadj = gtk_adjustment_new(0, 0, 1, 1, 1, 1);
	g_signal_connect(a->list.vadj, "value-changed", G_CALLBACK(lttv_on_list_vadj), a);
	{
		GtkWidget *lbox = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 0);

		gtk_widget_set_hexpand(a->list.area, TRUE);
		gtk_box_pack_start(GTK_BOX(lbox), a->list.area, TRUE, TRUE, 0);
		gtk_box_pack_start(GTK_BOX(lbox), gtk_scrollbar_new(GTK_ORIENTATION_VERTICAL,
								    a->list.vadj), FALSE, FALSE, 0);
		gtk_paned_pack1(GTK_PANED(paned), a->notebook, TRUE, FALSE);
		gtk_paned_pack2(GTK_PANED(paned), lbox, FALSE, TRUE);
	}
	gtk_paned_set_position(GTK_PANED(paned), 560);
	gtk_box_pack_start(GTK_BOX(vbox), paned, TRUE, TRUE, 0);

	a->progress = gtk_progress_bar_new();
	gtk_progress_bar_set_show_text(GTK_PROGRESS_BAR(a->progress), TRUE);
	a->status = gtk_label_new("");
	gtk_label_set_xalign(GTK_LABEL(a->status), 0);
	gtk_container_set_border_width(GTK_CONTAINER(status), 3);
	gtk_box_pack_start(GTK_BOX(status), a->status, TRUE, TRUE, 0);
	gtk_box_pack_end(GTK_BOX(status), a->progress, FALSE, FALSE, 0);
	gtk_box_pack_start(GTK_BOX(vbox), status, FALSE, FALSE, 0);

	gtk_container_add(GTK_CONTAINER(a->win), vbox);
	gtk_widget_show_all(a->win);
	gtk_widget_hide(a->lost_bar);
	gtk_widget_hide(a->live_label);
	gtk_widget_hide(a->filter_error);
	gtk_widget_hide(a->find_stop);
	gtk_widget_hide(a->progress);
	a->cursor_a = a->cursor_b = INT64_MIN;
	a->last_sel_a = a->last_sel_b = 0;
	lttv_session_read(a);	/* its traces when -t gives none */
	if (a->cmp && lttv_compare_open(a) < 0) {	/* said: exit 1, as the export */
		a->exit_code = 1;
		g_application_quit(G_APPLICATION(a->gapp));
	} else if (a->trace_paths) {	/* side by side: the first -t only */
		open_trace(a, (const char *const *)a->trace_paths, lttv_compare_first(a));
	}
	else if (!a->selftest)
		open_dialog(a);
	lttv_session_apply(a);
	gtk_widget_grab_focus(a->cf.area);
	if (a->follow)
		lttv_live_start(a);
	if (a->selftest)
		lttv_selftest_start(a);
}

int lttv_window_run(const char *const *traces, unsigned ntraces, const char *range,
		    const char *self_test, const char *screenshot, int follow,
		    const char *session, int side_by_side, const int64_t *offsets)
{
	app a = { 0 };
	int rc;

	/* The window draws with cairo only; without this, GDK loads the GL
	 * stack to probe it (under Xvfb, Mesa's llvmpipe: some 50 MB resident,
	 * bench/viewer.py). A GDK_GL the user set wins. */
	g_setenv("GDK_GL", "disable", FALSE);
	if (!gtk_init_check(NULL, NULL)) {
		fprintf(stderr, "lttv-gtk: cannot open a display (DISPLAY not set?); "
			"--export draws without one\n");
		return 1;
	}
	if (ntraces)
		a.trace_paths = g_strdupv((char **)traces);
	a.range = g_strdup(range);
	a.bench = g_getenv("LTTV_GTK_BENCH") ? 1 : 0;
	a.follow = follow;
	a.session = g_strdup(session);
	if (side_by_side)
		a.cmp = lttv_compare_new((char *const *)traces, ntraces, offsets);
	a.bookmarks = g_array_new(FALSE, TRUE, sizeof(lttv_bookmark));
	if (follow)
		lttv_set_live();
	if (self_test)
		a.selftest = lttv_selftest_new(self_test, screenshot);
	a.gapp = gtk_application_new("org.ltt.Viewer", G_APPLICATION_NON_UNIQUE);
	g_signal_connect(a.gapp, "activate", G_CALLBACK(on_activate), &a);
	rc = g_application_run(G_APPLICATION(a.gapp), 0, NULL);
	if (a.session && a.doc && lttv_session_write(&a) < 0 && !a.exit_code)
		a.exit_code = 1;	/* said */
	lttv_indexer_stop(&a);
	lttv_find_cancel(&a);
	lttv_marks_stop(&a);
	/* the snapshots posted and not yet read */
	while (g_main_context_iteration(NULL, FALSE))
		;
	g_object_unref(a.gapp);
	g_free(a.cf.rows);
	if (a.cf.cache)
		cairo_surface_destroy(a.cf.cache);
	if (a.res.cache)
		cairo_surface_destroy(a.res.cache);
	g_free(a.res.rows);
	g_free(a.list.lines);
	ltt_state_free(a.list.state);
	ltt_state_free(a.tip_state);
	if (a.tip_requery)
		g_source_remove(a.tip_requery);
	g_free(a.tip_shown);
	lttv_filter_free(a.filter);
	g_free(a.filter_text);
	lttv_list_cancel(&a);
	g_free(a.session);
	g_array_free(a.bookmarks, TRUE);
	if (a.drawn)
		g_array_free(a.drawn, TRUE);
	if (a.session_restore)
		g_key_file_free(a.session_restore);
	lttv_compare_stop(&a);		/* quit before the window was shown */
	lttv_compare_free(a.cmp);
	lttv_doc_free(a.doc);
	g_strfreev(a.trace_paths);
	g_free(a.range);
	g_free(a.ix.error);
	if (lttv_selftest_failures(a.selftest))
		rc = 1;
	lttv_selftest_free(a.selftest);
	return a.exit_code ? a.exit_code : rc;
}
