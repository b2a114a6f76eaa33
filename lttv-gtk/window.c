/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * window.c - the lttv-gtk window: a GtkApplication around the views of
 * draw.c.
 *
 *   toolbar    open, zoom in/out/fit/selection, go to time, row filter,
 *              event filter, hidden rows, tracing control
 *   notebook   Control flow | Resources | Statistics
 *   event list hand-drawn, anchored at a time: it holds only the lines on
 *              screen (no object per event); follows cursor A
 *   status     indexing progress, cursors A/B and their delta
 *
 * The state index is built in a worker thread (index_thread) in slices of
 * SLICE events under doc->lock; the UI draws whatever is indexed so far
 * (the first screen comes before the end) and is told of progress by an
 * idle callback that is queued at most once at a time.
 *
 * Mouse: wheel scrolls rows, Ctrl+wheel zooms at the pointer, Shift+wheel
 * pans; drag pans; right-drag (or Ctrl+drag) selects a range and zooms to
 * it; click sets cursor A (Shift+click: B) and selects the row; click on a
 * column title sorts; right-click on a name offers to hide the row.
 * Keys: + - zoom, 0 or Home fit, arrows pan and move the selection,
 * h hide row, Ctrl+G go to time, Ctrl+F filter, Ctrl+O open, Ctrl+Q quit.
 *
 * --self-test "cmd; cmd; ..." runs commands through the same handlers as
 * the mouse and keys (see run_command()), printing "ok"/"not ok" lines for
 * its expect-* commands, for tests/t43-gui.sh.
 */
#include <gtk/gtk.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lttv-gtk.h"
#include "lttv-filter.h"

#define SLICE 50000
#define LIST_LINE_H 17

typedef struct app app;

typedef struct view_ui {
	app *a;
	lttv_view v;
	lttv_row *rows;
	GtkWidget *area, *scrollbar;
	GtkAdjustment *vadj;
	int press_button, dragging, selecting;
	double press_x, press_y;
	int64_t press_t0, press_t1;
	guint press_state;
} view_ui;

typedef struct list_line {
	int64_t t;
	unsigned cpu;
	char text[256];
	int pid;			/* -1 unknown */
} list_line;

struct app {
	GtkApplication *gapp;
	GtkWidget *win, *notebook, *progress, *status, *row_filter, *event_filter;
	GtkWidget *goto_entry, *hidden_btn, *lost_bar, *list_area, *stats_view;
	GtkWidget *filter_error;
	GtkWidget *control_dlg, *control_msg;	/* while the dialog is open */
	char *trace_path;
	lttv_doc *doc;
	view_ui cf, res;
	GThread *worker;
	gint stop, idle_queued;
	int64_t t0, t1, cursor_a, cursor_b;
	int64_t last_sel_a, last_sel_b;
	int indexed_done;
	unsigned draws_while_indexing;
	guint list_idle;		/* a list refresh is queued */
	char *index_error;		/* set by the worker when reading failed */
	GtkAdjustment *list_vadj;	/* the list's place in the trace, in ns */
	int list_adj_busy;		/* set while the list moves it itself */
	/* event list */
	int64_t list_anchor;
	unsigned list_skip;
	list_line *lines;
	unsigned nlines;
	int list_selected;
	lttv_filter *filter;
	ltt_state *list_state;
	/* self-test */
	char **script;
	unsigned script_pos;
	char *screenshot;
	int failures, checks;
	guint script_wait;
};

static void queue_redraw(app *a);
static void list_refresh(app *a);
static gboolean list_idle_cb(gpointer data);

/* ---- indexing in a worker ------------------------------------------------- */

static gboolean index_progress_idle(gpointer data)
{
	app *a = data;
	double f;
	int done;
	char buf[64];

	g_atomic_int_set(&a->idle_queued, 0);
	if (!a->doc)
		return G_SOURCE_REMOVE;
	g_mutex_lock(&a->doc->lock);
	f = ltt_state_index_progress(a->doc->idx);
	done = ltt_state_index_done(a->doc->idx);
	g_mutex_unlock(&a->doc->lock);
	gtk_progress_bar_set_fraction(GTK_PROGRESS_BAR(a->progress), f);
	snprintf(buf, sizeof(buf), done ? "indexed" : "indexing %.0f%%", f * 100);
	gtk_progress_bar_set_text(GTK_PROGRESS_BAR(a->progress), buf);
	if (done && !a->indexed_done) {
		a->indexed_done = 1;
		gtk_widget_hide(a->progress);
	}
	g_mutex_lock(&a->doc->lock);
	if (a->index_error && !a->indexed_done) {
		/* what was read stays shown; say where reading stopped */
		char *msg = g_strdup_printf("The trace could not be read to the end; it is "
					    "shown up to there: %s", a->index_error);

		a->indexed_done = 1;
		gtk_widget_hide(a->progress);
		gtk_label_set_text(GTK_LABEL(gtk_bin_get_child(GTK_BIN(a->lost_bar))), msg);
		gtk_widget_show(a->lost_bar);
		g_free(msg);
	}
	g_mutex_unlock(&a->doc->lock);
	queue_redraw(a);
	return G_SOURCE_REMOVE;
}

/*
 * LTTV_GTK_INDEX_SLICE (events) and LTTV_GTK_INDEX_DELAY_MS (a pause after
 * each slice) slow indexing down on purpose: for the test that the window
 * is usable before indexing ends, and to see it happen.
 */
static gpointer index_thread(gpointer data)
{
	app *a = data;
	ltt_error *err = NULL;
	const char *e = g_getenv("LTTV_GTK_INDEX_SLICE");
	uint64_t slice = e && atoi(e) > 0 ? (uint64_t)atoi(e) : SLICE;
	int r, delay_ms = (e = g_getenv("LTTV_GTK_INDEX_DELAY_MS")) ? atoi(e) : 0;

	do {
		g_mutex_lock(&a->doc->lock);
		r = ltt_state_index_run(a->doc->idx, slice, &err);
		g_mutex_unlock(&a->doc->lock);
		if (g_atomic_int_compare_and_exchange(&a->idle_queued, 0, 1))
			g_idle_add(index_progress_idle, a);
		if (delay_ms > 0 && r > 0)
			g_usleep((gulong)delay_ms * 1000);
	} while (r > 0 && !g_atomic_int_get(&a->stop));
	if (r < 0) {
		g_printerr("lttv-gtk: indexing stopped: %s\n", ltt_error_message(err));
		g_mutex_lock(&a->doc->lock);
		a->index_error = g_strdup(ltt_error_message(err));
		g_mutex_unlock(&a->doc->lock);
		ltt_error_free(err);
		if (g_atomic_int_compare_and_exchange(&a->idle_queued, 0, 1))
			g_idle_add(index_progress_idle, a);
	}
	return NULL;
}

static void stop_worker(app *a)
{
	if (a->worker) {
		g_atomic_int_set(&a->stop, 1);
		g_thread_join(a->worker);
		a->worker = NULL;
	}
}

/* ---- views ------------------------------------------------------------------ */

static void view_sync(app *a, view_ui *vu)
{
	g_free(vu->rows);
	vu->v.doc = a->doc;
	vu->v.nrows = a->doc ? lttv_doc_rows(a->doc, vu->v.resources, &vu->rows) : 0;
	if (!a->doc)
		vu->rows = NULL;
	vu->v.rows = vu->rows;
	vu->v.t0 = a->t0;
	vu->v.t1 = a->t1;
	vu->v.cursor_a = a->cursor_a;
	vu->v.cursor_b = a->cursor_b;
	if (vu->v.selected >= (int)vu->v.nrows)
		vu->v.selected = -1;
	if (vu->v.first_row >= vu->v.nrows)
		vu->v.first_row = vu->v.nrows ? vu->v.nrows - 1 : 0;
}

static gboolean on_draw(GtkWidget *w, cairo_t *cr, gpointer data)
{
	view_ui *vu = data;
	app *a = vu->a;
	int width = gtk_widget_get_allocated_width(w);
	int height = gtk_widget_get_allocated_height(w);
	lttv_layout l;
	char msg[64];

	if (!a->doc) {
		cairo_set_source_rgb(cr, 1, 1, 1);
		cairo_paint(cr);
		cairo_set_source_rgb(cr, 0.3, 0.3, 0.3);
		cairo_move_to(cr, 20, 40);
		cairo_show_text(cr, "No trace: open one with Ctrl+O (or lttv-gtk -t TRACE)");
		return TRUE;
	}
	g_mutex_lock(&a->doc->lock);
	view_sync(a, vu);
	if (!ltt_state_index_done(a->doc->idx)) {
		a->draws_while_indexing++;
		snprintf(msg, sizeof(msg), "indexing %.0f%%...",
			 ltt_state_index_progress(a->doc->idx) * 100);
		vu->v.message = msg;
	} else {
		vu->v.message = NULL;
	}
	lttv_draw(cr, &vu->v, width, height);
	vu->v.message = NULL;
	g_mutex_unlock(&a->doc->lock);
	lttv_layout_get(&vu->v, width, height, &l);
	gtk_adjustment_configure(vu->vadj, vu->v.first_row, 0, vu->v.nrows, 1,
				 l.rows_fit > 1 ? l.rows_fit - 1 : 1,
				 MIN(l.rows_fit, vu->v.nrows));
	return TRUE;
}

static void update_status(app *a)
{
	char buf[256], x[64], y[96], d[64];
	size_t n = 0;

	buf[0] = 0;
	if (!a->doc) {
		gtk_label_set_text(GTK_LABEL(a->status), "");
		return;
	}
	lttv_format_duration(a->t1 - a->t0, d, sizeof(d));
	n += (size_t)snprintf(buf + n, sizeof(buf) - n, "window %.9f .. %.9f s (%s)",
			      (a->t0 - a->doc->start_ns) / 1e9,
			      (a->t1 - a->doc->start_ns) / 1e9, d);
	if (a->cursor_a != INT64_MIN)
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, "   A %.9f s",
				      (a->cursor_a - a->doc->start_ns) / 1e9);
	if (a->cursor_b != INT64_MIN)
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, "   B %.9f s",
				      (a->cursor_b - a->doc->start_ns) / 1e9);
	if (a->cursor_a != INT64_MIN && a->cursor_b != INT64_MIN) {
		lttv_format_duration(a->cursor_b - a->cursor_a, x, sizeof(x));
		snprintf(y, sizeof(y), "   B-A %s", x);
		g_strlcat(buf, y, sizeof(buf));
	}
	gtk_label_set_text(GTK_LABEL(a->status), buf);
}

static void queue_redraw(app *a)
{
	gtk_widget_queue_draw(a->cf.area);
	gtk_widget_queue_draw(a->res.area);
	if (a->doc && a->doc->hidden) {
		char buf[64];

		snprintf(buf, sizeof(buf), "Show hidden (%u)", g_hash_table_size(a->doc->hidden));
		gtk_button_set_label(GTK_BUTTON(a->hidden_btn), buf);
	}
	update_status(a);
}

static gboolean list_idle_cb(gpointer data)
{
	app *a = data;

	a->list_idle = 0;
	list_refresh(a);
	return G_SOURCE_REMOVE;
}

static void set_range(app *a, int64_t t0, int64_t t1)
{
	int64_t span, lo, hi;

	if (!a->doc)
		return;
	span = a->doc->end_ns - a->doc->start_ns;
	lo = a->doc->start_ns - span / 10;
	hi = a->doc->end_ns + span / 10;
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
	/* without cursor A, the event list follows the left edge of the view */
	if (a->cursor_a == INT64_MIN) {
		a->list_anchor = MAX(t0, a->doc->start_ns);
		a->list_skip = 0;
		if (!a->list_idle)
			a->list_idle = g_idle_add(list_idle_cb, a);
	}
	queue_redraw(a);
}

static void zoom(app *a, double factor, int64_t center)
{
	if (center == INT64_MIN)
		center = a->t0 + (a->t1 - a->t0) / 2;
	set_range(a, center - (int64_t)((double)(center - a->t0) * factor),
		  center + (int64_t)((double)(a->t1 - center) * factor));
}

static void zoom_fit(app *a)
{
	if (a->doc)
		set_range(a, a->doc->start_ns, a->doc->end_ns);
}

static void pan(app *a, double fraction)
{
	int64_t d = (int64_t)((double)(a->t1 - a->t0) * fraction);

	set_range(a, a->t0 + d, a->t1 + d);
}

static view_ui *current_view(app *a)
{
	return gtk_notebook_get_current_page(GTK_NOTEBOOK(a->notebook)) == 1 ? &a->res : &a->cf;
}

static void set_cursor(app *a, int64_t t, int which_b)
{
	if (which_b)
		a->cursor_b = t;
	else
		a->cursor_a = t;
	if (!which_b) {
		a->list_anchor = t;
		a->list_skip = 0;
		list_refresh(a);
	}
	queue_redraw(a);
}

static void select_row(view_ui *vu, int r)
{
	lttv_layout l;

	if (r < 0 || r >= (int)vu->v.nrows)
		return;
	vu->v.selected = r;
	lttv_layout_get(&vu->v, gtk_widget_get_allocated_width(vu->area),
			gtk_widget_get_allocated_height(vu->area), &l);
	if ((unsigned)r < vu->v.first_row)
		vu->v.first_row = (unsigned)r;
	else if (l.rows_fit > 1 && (unsigned)r >= vu->v.first_row + l.rows_fit - 1)
		vu->v.first_row = (unsigned)r - (l.rows_fit - 2);
	queue_redraw(vu->a);
}

static int row_of_pid(view_ui *vu, unsigned pid)
{
	const ltt_state *st;
	int found = -1;

	if (!vu->a->doc)
		return -1;
	st = ltt_state_index_state(vu->a->doc->idx);
	for (unsigned r = 0; r < vu->v.nrows; r++) {
		ltt_state_process_info p;

		if (vu->rows[r].type == LTT_STATE_ROW_PROCESS &&
		    ltt_state_process(st, vu->rows[r].index, &p) == 0 && p.pid == pid)
			found = (int)r;	/* the latest with that pid */
	}
	return found;
}

static void hide_selected(app *a)
{
	view_ui *vu = &a->cf;

	if (!a->doc || vu->v.selected < 0 || vu->v.selected >= (int)vu->v.nrows)
		return;
	g_hash_table_add(a->doc->hidden,
			 GUINT_TO_POINTER(vu->rows[vu->v.selected].index + 1));
	vu->v.selected = -1;
	queue_redraw(a);
}

static void show_hidden(app *a)
{
	if (a->doc)
		g_hash_table_remove_all(a->doc->hidden);
	queue_redraw(a);
}

static void sort_by(app *a, int col)
{
	if (!a->doc || col < 0)
		return;
	if (a->doc->sort_col == col)
		a->doc->sort_desc = !a->doc->sort_desc;
	else
		a->doc->sort_col = col, a->doc->sort_desc = 0;
	queue_redraw(a);
}

/* ---- mouse ------------------------------------------------------------------ */

static void layout_of(view_ui *vu, lttv_layout *l)
{
	lttv_layout_get(&vu->v, gtk_widget_get_allocated_width(vu->area),
			gtk_widget_get_allocated_height(vu->area), l);
}

static void on_hide_item(GtkMenuItem *item, gpointer data) { hide_selected(data); }
static void on_show_item(GtkMenuItem *item, gpointer data) { show_hidden(data); }

static void mouse_press(view_ui *vu, double x, double y, guint button, guint state)
{
	lttv_layout l;

	layout_of(vu, &l);
	vu->press_button = (int)button;
	vu->press_x = x;
	vu->press_y = y;
	vu->press_t0 = vu->a->t0;
	vu->press_t1 = vu->a->t1;
	vu->press_state = state;
	vu->dragging = vu->selecting = 0;
	if (y < l.header_h && x < l.x0 && !vu->v.resources) {
		sort_by(vu->a, lttv_x_to_col(&l, x));
		vu->press_button = 0;
		return;
	}
	if (button == 3 && x < l.x0 && !vu->v.resources) {
		GtkWidget *menu = gtk_menu_new(), *hide, *show;

		select_row(vu, lttv_y_to_row(&vu->v, &l, y));
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

static void mouse_motion(view_ui *vu, double x, double y)
{
	lttv_layout l;

	if (!vu->press_button || !vu->a->doc)
		return;
	layout_of(vu, &l);
	if (fabs(x - vu->press_x) < 3 && !vu->dragging && !vu->selecting)
		return;
	if (vu->press_button == 3 || (vu->press_state & GDK_CONTROL_MASK)) {
		vu->selecting = 1;
		vu->v.sel_a = lttv_x_to_time(&vu->v, &l, vu->press_x);
		vu->v.sel_b = lttv_x_to_time(&vu->v, &l, x);
		gtk_widget_queue_draw(vu->area);
	} else if (vu->press_button == 1 && vu->press_x >= l.x0) {
		double ns_per_px = (double)(vu->press_t1 - vu->press_t0) / (l.x1 - l.x0);
		int64_t d = (int64_t)((vu->press_x - x) * ns_per_px);

		vu->dragging = 1;
		set_range(vu->a, vu->press_t0 + d, vu->press_t1 + d);
	}
}

static void mouse_release(view_ui *vu, double x, double y)
{
	app *a = vu->a;
	lttv_layout l;

	if (!vu->press_button || !a->doc)
		return;
	layout_of(vu, &l);
	if (vu->selecting) {
		int64_t s = MIN(vu->v.sel_a, vu->v.sel_b), e = MAX(vu->v.sel_a, vu->v.sel_b);

		a->last_sel_a = s;
		a->last_sel_b = e;
		vu->v.sel_a = vu->v.sel_b = INT64_MIN;
		if (e - s > 0)
			set_range(a, s, e);
	} else if (!vu->dragging && vu->press_button == 1) {
		int r = lttv_y_to_row(&vu->v, &l, y);

		if (r >= 0)
			select_row(vu, r);
		if (x >= l.x0)
			set_cursor(a, lttv_x_to_time(&vu->v, &l, x),
				   (vu->press_state & GDK_SHIFT_MASK) != 0);
	}
	vu->press_button = 0;
	vu->dragging = vu->selecting = 0;
	gtk_widget_queue_draw(vu->area);
}

static void mouse_scroll(view_ui *vu, double x, double dy, guint state)
{
	lttv_layout l;

	if (!vu->a->doc)
		return;
	layout_of(vu, &l);
	if (state & GDK_CONTROL_MASK) {
		zoom(vu->a, dy > 0 ? 1.25 : 0.8,
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
		mouse_press(data, e->x, e->y, e->button, e->state);
	gtk_widget_grab_focus(w);
	return TRUE;
}

static gboolean on_motion(GtkWidget *w, GdkEventMotion *e, gpointer data)
{
	mouse_motion(data, e->x, e->y);
	return TRUE;
}

static gboolean on_release(GtkWidget *w, GdkEventButton *e, gpointer data)
{
	mouse_release(data, e->x, e->y);
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
		mouse_scroll(data, e->x, dy, e->state);
	return TRUE;
}

typedef struct hit {
	int64_t t, s, e;
	int kind;
} hit;

static void find_hit(void *user, int64_t s, int64_t e, ltt_state_kind k)
{
	hit *h = user;

	if (s <= h->t && h->t < e) {
		h->s = s;
		h->e = e;
		h->kind = (int)k;
	}
}

/* Hovering a bar says what it is, as drawn (at the view's resolution);
 * NULL where there is nothing to say. */
static char *tooltip_text(view_ui *vu, double x, double y)
{
	app *a = vu->a;
	lttv_layout l;
	int r;
	hit h = { 0, 0, 0, -1 };
	char name[96] = "", d[64], *text;

	if (!a->doc)
		return NULL;
	layout_of(vu, &l);
	if (y < l.header_h && x < l.x0 && !vu->v.resources)
		return g_strdup("Click to sort by this column");
	r = lttv_y_to_row(&vu->v, &l, y);
	if (r < 0 || x < l.x0)
		return NULL;
	h.t = lttv_x_to_time(&vu->v, &l, x);
	g_mutex_lock(&a->doc->lock);
	ltt_state_index_intervals(a->doc->idx, vu->rows[r].type, vu->rows[r].index, vu->v.t0,
				  vu->v.t1, MAX((vu->v.t1 - vu->v.t0) / (l.x1 - l.x0), 1),
				  find_hit, &h);
	if (vu->rows[r].type == LTT_STATE_ROW_PROCESS) {
		ltt_state_process_info p;

		ltt_state_process(ltt_state_index_state(a->doc->idx), vu->rows[r].index, &p);
		snprintf(name, sizeof(name), "%s (pid %u)", *p.name ? p.name : "?", p.pid);
	} else if (vu->rows[r].type == LTT_STATE_ROW_CPU) {
		snprintf(name, sizeof(name), "CPU %u", vu->rows[r].index);
	} else {
		ltt_state_irq_info q;

		ltt_state_irq(ltt_state_index_state(a->doc->idx), vu->rows[r].index, &q);
		snprintf(name, sizeof(name), "IRQ %u %s", q.id, q.name);
	}
	g_mutex_unlock(&a->doc->lock);
	if (h.kind < 0)
		return NULL;
	lttv_format_duration(h.e - h.s, d, sizeof(d));
	text = g_strdup_printf("%s\n%s\n%.9f .. %.9f s (%s)", name,
			       lttv_kind_label((ltt_state_kind)h.kind),
			       (h.s - a->doc->start_ns) / 1e9, (h.e - a->doc->start_ns) / 1e9, d);
	return text;
}

static gboolean on_tooltip(GtkWidget *w, gint x, gint y, gboolean kbd, GtkTooltip *tip,
			   gpointer data)
{
	char *text = tooltip_text(data, x, y);

	if (!text)
		return FALSE;
	gtk_tooltip_set_text(tip, text);
	g_free(text);
	return TRUE;
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

/* ---- the event list ------------------------------------------------------------ */

/* Fill the lines on screen from the anchor: seek the state there (a
 * checkpoint and a bounded replay), then read and filter forward. */
static void list_refresh(app *a)
{
	int h = gtk_widget_get_allocated_height(a->list_area);
	unsigned want = (unsigned)(h > LIST_LINE_H ? h / LIST_LINE_H : 10);
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
	it = ltt_iter_new(&a->doc->trace, 1, &err);
	if (!it || ltt_iter_seek_time(it, a->list_anchor, &err) < 0) {
		ltt_iter_free(it);
		goto out;
	}
	while (a->nlines < want && scanned < 2000000 && ltt_iter_next(it, &ev, &err) > 0) {
		list_line *ln;
		int i;
		ltt_state_process_info pi;
		char fields[160], pid[16];

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
		ltt_event_format_fields(ev, LTT_FORMAT_NAMES, fields, sizeof(fields));
		if (ln->pid >= 0)
			snprintf(pid, sizeof(pid), "%d", ln->pid);
		else
			snprintf(pid, sizeof(pid), "?");
		snprintf(ln->text, sizeof(ln->text), "%.9f  cpu %u  pid %-6s %-14.14s %s.%s  { %s }",
			 (ln->t - a->doc->start_ns) / 1e9, ln->cpu, pid,
			 i >= 0 ? pi.name : "", ltt_event_facility_name(ev), ltt_event_name(ev),
			 fields);
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
static void on_list_vadj(GtkAdjustment *adj, gpointer data)
{
	app *a = data;

	if (a->list_adj_busy || !a->doc)
		return;
	a->list_anchor = a->doc->start_ns + (int64_t)gtk_adjustment_get_value(adj);
	a->list_skip = 0;
	a->list_selected = -1;
	if (!a->list_idle)
		a->list_idle = g_idle_add(list_idle_cb, a);
}

/* Scroll the list by n lines (negative: back). */
static void list_scroll(app *a, int n)
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
	list_refresh(a);
}

static gboolean on_list_draw(GtkWidget *w, cairo_t *cr, gpointer data)
{
	app *a = data;
	int width = gtk_widget_get_allocated_width(w);

	cairo_set_source_rgb(cr, 1, 1, 1);
	cairo_paint(cr);
	cairo_select_font_face(cr, "monospace", CAIRO_FONT_SLANT_NORMAL,
			       CAIRO_FONT_WEIGHT_NORMAL);
	cairo_set_font_size(cr, 11);
	for (unsigned i = 0; i < a->nlines; i++) {
		double y = i * LIST_LINE_H;

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
		cairo_move_to(cr, 6, y + LIST_LINE_H - 4);
		cairo_show_text(cr, a->lines[i].text);
	}
	if (!a->nlines && a->doc) {
		cairo_set_source_rgb(cr, 0.4, 0.4, 0.4);
		cairo_move_to(cr, 6, 14);
		cairo_show_text(cr, a->filter ? "no event matches the filter after this time"
					      : "no event after this time");
	}
	return TRUE;
}

static void list_click(app *a, double y)
{
	int i = (int)(y / LIST_LINE_H);

	if (i < 0 || i >= (int)a->nlines)
		return;
	a->list_selected = i;
	a->cursor_a = a->lines[i].t;
	if (a->lines[i].pid >= 0) {
		int r = row_of_pid(&a->cf, (unsigned)a->lines[i].pid);

		if (r >= 0)
			select_row(&a->cf, r);
	}
	/* bring the cursor into view */
	if (a->cursor_a < a->t0 || a->cursor_a > a->t1)
		set_range(a, a->cursor_a - (a->t1 - a->t0) / 2, a->cursor_a + (a->t1 - a->t0) / 2);
	queue_redraw(a);
	gtk_widget_queue_draw(a->list_area);
}

static gboolean on_list_press(GtkWidget *w, GdkEventButton *e, gpointer data)
{
	list_click(data, e->y);
	gtk_widget_grab_focus(w);
	return TRUE;
}

static gboolean on_list_scroll(GtkWidget *w, GdkEventScroll *e, gpointer data)
{
	if (e->direction == GDK_SCROLL_UP || (e->direction == GDK_SCROLL_SMOOTH && e->delta_y < 0))
		list_scroll(data, -3);
	else if (e->direction == GDK_SCROLL_DOWN ||
		 (e->direction == GDK_SCROLL_SMOOTH && e->delta_y > 0))
		list_scroll(data, 3);
	return TRUE;
}

static void on_list_size(GtkWidget *w, GdkRectangle *r, gpointer data)
{
	list_refresh(data);
}

/* ---- statistics ------------------------------------------------------------- */

typedef struct count {
	char *key;
	uint64_t n;
} count;

static gint by_count(gconstpointer x, gconstpointer y)
{
	const count *a = *(count *const *)x, *b = *(count *const *)y;

	return a->n < b->n ? 1 : a->n > b->n ? -1 : strcmp(a->key, b->key);
}

static void add_count(GHashTable *h, const char *key)
{
	count *c = g_hash_table_lookup(h, key);

	if (!c) {
		c = g_new0(count, 1);
		c->key = g_strdup(key);
		g_hash_table_insert(h, c->key, c);
	}
	c->n++;
}

static void print_counts(GString *out, const char *title, GHashTable *h)
{
	GPtrArray *v = g_ptr_array_new();
	GHashTableIter it;
	gpointer k, val;

	g_hash_table_iter_init(&it, h);
	while (g_hash_table_iter_next(&it, &k, &val))
		g_ptr_array_add(v, val);
	g_ptr_array_sort(v, by_count);
	g_string_append_printf(out, "\n%s\n", title);
	for (guint i = 0; i < v->len && i < 40; i++) {
		count *c = v->pdata[i];

		g_string_append_printf(out, "  %10" PRIu64 "  %s\n", c->n, c->key);
	}
	g_ptr_array_free(v, TRUE);
}

static void count_free(gpointer p)
{
	count *c = p;

	g_free(c->key);
	g_free(c);
}

static void stats_refresh(app *a)
{
	GString *out = g_string_new(NULL);
	GHashTable *types, *cpus, *procs;
	ltt_state *s0, *s1;
	ltt_error *err = NULL;
	ltt_iter *it;
	const ltt_event *ev;
	uint64_t total = 0;
	char d[64];

	if (!a->doc)
		return;
	types = g_hash_table_new_full(g_str_hash, g_str_equal, NULL, count_free);
	cpus = g_hash_table_new_full(g_str_hash, g_str_equal, NULL, count_free);
	procs = g_hash_table_new_full(g_str_hash, g_str_equal, NULL, count_free);
	s0 = ltt_state_new();
	s1 = ltt_state_new();
	if (a->doc->events_lost || a->doc->corrupted)
		g_string_append_printf(out, "*** THE KERNEL LOST %" PRIu64 " EVENTS AND %" PRIu64
				       " SUB-BUFFERS WERE CORRUPTED: states may be wrong ***\n",
				       a->doc->events_lost, a->doc->corrupted);
	lttv_format_duration(a->t1 - a->t0, d, sizeof(d));
	g_string_append_printf(out, "Visible range %.9f .. %.9f s (%s)%s\n",
			       (a->t0 - a->doc->start_ns) / 1e9, (a->t1 - a->doc->start_ns) / 1e9,
			       d, a->filter ? ", events that match the filter" : "");
	g_mutex_lock(&a->doc->lock);
	if (ltt_state_index_seek(a->doc->idx, a->t0, s0, &err) == 0 &&
	    (it = ltt_iter_new(&a->doc->trace, 1, &err))) {
		/* s1 replays from t0 to t1 so that each event has its process */
		ltt_state_index_seek(a->doc->idx, a->t0, s1, &err);
		ltt_iter_seek_time(it, a->t0, &err);
		while (ltt_iter_next(it, &ev, &err) > 0 && ltt_event_time_ns(ev) < a->t1) {
			char key[128];
			int i;
			ltt_state_process_info pi;

			ltt_state_process_event(s1, ev);
			if (!lttv_filter_match(a->filter, ev, s1))
				continue;
			total++;
			snprintf(key, sizeof(key), "%s.%s", ltt_event_facility_name(ev),
				 ltt_event_name(ev));
			add_count(types, key);
			snprintf(key, sizeof(key), "cpu %u", ltt_event_cpu(ev));
			add_count(cpus, key);
			i = ltt_state_cpu_process(s1, ltt_event_cpu(ev));
			if (i >= 0 && ltt_state_process(s1, (unsigned)i, &pi) == 0)
				snprintf(key, sizeof(key), "%-6u %s", pi.pid, pi.name);
			else
				snprintf(key, sizeof(key), "?");
			add_count(procs, key);
		}
		ltt_iter_free(it);
		ltt_state_index_seek(a->doc->idx, a->t1, s1, &err);
	}
	g_mutex_unlock(&a->doc->lock);
	g_string_append_printf(out, "%" PRIu64 " events\n", total);
	print_counts(out, "Events per type", types);
	print_counts(out, "Events per CPU", cpus);
	print_counts(out, "Events per process", procs);
	g_string_append(out, "\nCPU time in the visible range (ms): pid, name, user, syscall, "
			"trap, irq, softirq, unknown\n");
	for (unsigned i = 0; i < ltt_state_num_processes(s1); i++) {
		ltt_state_process_info p0 = { 0 }, p1;
		uint64_t sum = 0, dm[LTT_STATE_NUM_MODES];

		ltt_state_process(s1, i, &p1);
		if (i < ltt_state_num_processes(s0))
			ltt_state_process(s0, i, &p0);
		for (int m = 0; m < LTT_STATE_NUM_MODES; m++) {
			dm[m] = p1.cpu_ns[m] - p0.cpu_ns[m];
			sum += dm[m];
		}
		if (!sum)
			continue;
		g_string_append_printf(out, "  %-6u %-16s", p1.pid, p1.name);
		for (int m = 0; m < LTT_STATE_NUM_MODES; m++)
			g_string_append_printf(out, " %10.3f", dm[m] / 1e6);
		g_string_append_c(out, '\n');
	}
	if (err) {
		g_string_append_printf(out, "\nerror: %s\n", ltt_error_message(err));
		ltt_error_free(err);
	}
	gtk_text_buffer_set_text(gtk_text_view_get_buffer(GTK_TEXT_VIEW(a->stats_view)),
				 out->str, -1);
	g_string_free(out, TRUE);
	g_hash_table_destroy(types);
	g_hash_table_destroy(cpus);
	g_hash_table_destroy(procs);
	ltt_state_free(s0);
	ltt_state_free(s1);
}

/* ---- toolbar actions ----------------------------------------------------------- */

static int apply_event_filter(app *a, const char *text)
{
	char *error = NULL;
	lttv_filter *f = NULL;

	if (text && *text) {
		f = lttv_filter_parse(text, a->doc ? a->doc->start_ns : 0, &error);
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
	list_refresh(a);
	return 0;
}

static void on_event_filter(GtkEntry *e, gpointer data)
{
	apply_event_filter(data, gtk_entry_get_text(e));
}

static void on_row_filter(GtkSearchEntry *e, gpointer data)
{
	app *a = data;

	if (!a->doc)
		return;
	g_free(a->doc->filter);
	a->doc->filter = g_strdup(gtk_entry_get_text(GTK_ENTRY(e)));
	queue_redraw(a);
}

static int go_to(app *a, const char *text)
{
	char *end;
	double s = g_ascii_strtod(text, &end);
	int64_t t;

	if (!a->doc || end == text || *end)
		return -1;
	t = a->doc->start_ns + llround(s * 1e9);
	set_range(a, t - (a->t1 - a->t0) / 2, t + (a->t1 - a->t0) / 2);
	set_cursor(a, t, 0);
	return 0;
}

static void on_goto(GtkEntry *e, gpointer data)
{
	if (go_to(data, gtk_entry_get_text(e)) < 0)
		gtk_widget_error_bell(GTK_WIDGET(e));
}

static void on_zoom_in(GtkButton *b, gpointer data) { zoom(data, 0.5, INT64_MIN); }
static void on_zoom_out(GtkButton *b, gpointer data) { zoom(data, 2, INT64_MIN); }
static void on_zoom_fit(GtkButton *b, gpointer data) { zoom_fit(data); }
static void on_show_hidden(GtkButton *b, gpointer data) { show_hidden(data); }

static void on_zoom_sel(GtkButton *b, gpointer data)
{
	app *a = data;

	if (a->cursor_a != INT64_MIN && a->cursor_b != INT64_MIN && a->cursor_a != a->cursor_b)
		set_range(a, MIN(a->cursor_a, a->cursor_b), MAX(a->cursor_a, a->cursor_b));
	else if (a->last_sel_b > a->last_sel_a)
		set_range(a, a->last_sel_a, a->last_sel_b);
}

static void on_page(GtkNotebook *nb, GtkWidget *page, guint n, gpointer data)
{
	if (n == 2)
		stats_refresh(data);
}

static void on_stats_refresh(GtkButton *b, gpointer data) { stats_refresh(data); }

/* ---- tracing control ------------------------------------------------------------ */

static void on_control(GtkButton *button, gpointer data)
{
	app *a = data;
	GtkWidget *dlg = gtk_dialog_new_with_buttons("Tracing control", GTK_WINDOW(a->win),
		GTK_DIALOG_MODAL | GTK_DIALOG_DESTROY_WITH_PARENT, "Start", 1, "Stop", 2,
		"Close", GTK_RESPONSE_CLOSE, NULL);
	GtkWidget *box = gtk_dialog_get_content_area(GTK_DIALOG(dlg));
	GtkWidget *grid = gtk_grid_new(), *name = gtk_entry_new(), *out = gtk_entry_new();
	GtkWidget *mode = gtk_combo_box_text_new(), *msg = gtk_label_new("");
	char *dir = g_build_filename(g_get_tmp_dir(), "ltt-trace", NULL);
	int resp;

	gtk_entry_set_text(GTK_ENTRY(name), "trace1");
	gtk_entry_set_text(GTK_ENTRY(out), dir);
	g_free(dir);
	gtk_combo_box_text_append_text(GTK_COMBO_BOX_TEXT(mode), "normal");
	gtk_combo_box_text_append_text(GTK_COMBO_BOX_TEXT(mode), "flight");
	gtk_combo_box_text_append_text(GTK_COMBO_BOX_TEXT(mode), "hybrid");
	gtk_combo_box_set_active(GTK_COMBO_BOX(mode), 0);
	gtk_grid_set_row_spacing(GTK_GRID(grid), 6);
	gtk_grid_set_column_spacing(GTK_GRID(grid), 6);
	gtk_grid_attach(GTK_GRID(grid), gtk_label_new("Trace name"), 0, 0, 1, 1);
	gtk_grid_attach(GTK_GRID(grid), name, 1, 0, 1, 1);
	gtk_grid_attach(GTK_GRID(grid), gtk_label_new("Output folder"), 0, 1, 1, 1);
	gtk_grid_attach(GTK_GRID(grid), out, 1, 1, 1, 1);
	gtk_grid_attach(GTK_GRID(grid), gtk_label_new("Mode"), 0, 2, 1, 1);
	gtk_grid_attach(GTK_GRID(grid), mode, 1, 2, 1, 1);
	gtk_label_set_line_wrap(GTK_LABEL(msg), TRUE);
	gtk_label_set_selectable(GTK_LABEL(msg), TRUE);
	gtk_grid_attach(GTK_GRID(grid), msg, 0, 3, 2, 1);
	gtk_container_set_border_width(GTK_CONTAINER(grid), 10);
	gtk_container_add(GTK_CONTAINER(box), grid);
	gtk_widget_show_all(dlg);
	a->control_dlg = dlg;
	a->control_msg = msg;
	while ((resp = gtk_dialog_run(GTK_DIALOG(dlg))) == 1 || resp == 2) {
		char *self = g_file_read_link("/proc/self/exe", NULL);
		char *bindir = self ? g_path_get_dirname(self) : g_strdup(".");
		char *lttctl = g_build_filename(bindir, "lttctl", NULL);
		char *mode_s = gtk_combo_box_text_get_active_text(GTK_COMBO_BOX_TEXT(mode));
		char *argv_start[] = { lttctl, "-n", (char *)gtk_entry_get_text(GTK_ENTRY(name)),
			"-d", "-t", (char *)gtk_entry_get_text(GTK_ENTRY(out)), "-m", mode_s, NULL };
		char *argv_stop[] = { lttctl, "-n", (char *)gtk_entry_get_text(GTK_ENTRY(name)),
			"-q", "-r", NULL };
		char *sout = NULL, *serr = NULL, *text;
		GError *gerr = NULL;
		int status = 0;

		if (!g_file_test(lttctl, G_FILE_TEST_IS_EXECUTABLE)) {
			g_free(lttctl);
			lttctl = g_strdup("lttctl");
			argv_start[0] = argv_stop[0] = lttctl;
		}
		if (!g_spawn_sync(NULL, resp == 1 ? argv_start : argv_stop, NULL,
				  G_SPAWN_SEARCH_PATH, NULL, NULL, &sout, &serr, &status, &gerr))
			text = g_strdup_printf("cannot run lttctl: %s", gerr->message);
		else if (g_spawn_check_wait_status(status, NULL))
			text = g_strdup_printf("%s: done.\n%s%s", resp == 1 ? "Started" : "Stopped",
					       sout, resp == 2 ? "Open the trace folder with Ctrl+O." : "");
		else
			text = g_strdup_printf("lttctl failed%s:\n%s%s",
					       strstr(serr ? serr : "", "NETLINK") ||
					       strstr(serr ? serr : "", "netlink") ?
					       " (this kernel has no LTT tracer: boot a kernel "
					       "with the patches of kernel/)" : "", serr, sout);
		gtk_label_set_text(GTK_LABEL(msg), text);
		if (gerr)
			g_error_free(gerr);
		g_free(text);
		g_free(sout);
		g_free(serr);
		g_free(mode_s);
		g_free(lttctl);
		g_free(bindir);
		g_free(self);
	}
	a->control_dlg = a->control_msg = NULL;
	gtk_widget_destroy(dlg);
}

static gboolean control_idle(gpointer data)
{
	on_control(NULL, data);
	return G_SOURCE_REMOVE;
}

/* ---- opening ---------------------------------------------------------------- */

static int open_trace(app *a, const char *path)
{
	char *error = NULL;
	lttv_doc *d = lttv_doc_open(path, &error);
	char *title;

	if (!d) {
		GtkWidget *m = gtk_message_dialog_new(GTK_WINDOW(a->win), GTK_DIALOG_MODAL,
						      GTK_MESSAGE_ERROR, GTK_BUTTONS_CLOSE,
						      "Cannot open the trace");

		char *msg = g_strdup_printf("Cannot open the trace: %s", error);

		gtk_message_dialog_format_secondary_text(GTK_MESSAGE_DIALOG(m), "%s", error);
		g_printerr("lttv-gtk: %s\n", error);
		gtk_label_set_text(GTK_LABEL(gtk_bin_get_child(GTK_BIN(a->lost_bar))), msg);
		gtk_widget_show(a->lost_bar);
		g_free(msg);
		if (!a->script) {
			gtk_dialog_run(GTK_DIALOG(m));
		}
		gtk_widget_destroy(m);
		g_free(error);
		return -1;
	}
	stop_worker(a);
	lttv_doc_free(a->doc);
	g_free(a->index_error);
	a->index_error = NULL;
	ltt_state_free(a->list_state);
	a->list_state = NULL;
	a->doc = d;
	a->cursor_a = a->cursor_b = INT64_MIN;
	a->cf.v.selected = a->res.v.selected = -1;
	a->cf.v.first_row = a->res.v.first_row = 0;
	a->t0 = d->start_ns;
	a->t1 = d->end_ns;
	a->list_anchor = d->start_ns;
	a->list_skip = 0;
	a->indexed_done = 0;
	title = g_strdup_printf("%s - LTT viewer", path);
	gtk_window_set_title(GTK_WINDOW(a->win), title);
	g_free(title);
	if (d->events_lost || d->corrupted) {
		char buf[200];

		snprintf(buf, sizeof(buf), "The kernel lost %" PRIu64 " events and %" PRIu64
			 " sub-buffers were corrupted: states after a loss may be wrong.",
			 d->events_lost, d->corrupted);
		gtk_label_set_text(GTK_LABEL(gtk_bin_get_child(GTK_BIN(a->lost_bar))), buf);
		gtk_widget_show(a->lost_bar);
	} else {
		gtk_widget_hide(a->lost_bar);
	}
	gtk_widget_show(a->progress);
	g_atomic_int_set(&a->stop, 0);
	a->worker = g_thread_new("lttv-index", index_thread, a);
	queue_redraw(a);
	list_refresh(a);
	return 0;
}

static void open_dialog(app *a)
{
	GtkWidget *dlg = gtk_file_chooser_dialog_new("Open a trace folder", GTK_WINDOW(a->win),
		GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER, "Cancel", GTK_RESPONSE_CANCEL,
		"Open", GTK_RESPONSE_ACCEPT, NULL);

	if (gtk_dialog_run(GTK_DIALOG(dlg)) == GTK_RESPONSE_ACCEPT) {
		char *f = gtk_file_chooser_get_filename(GTK_FILE_CHOOSER(dlg));

		gtk_widget_destroy(dlg);
		open_trace(a, f);
		g_free(f);
		return;
	}
	gtk_widget_destroy(dlg);
}

static void on_open(GtkButton *b, gpointer data) { open_dialog(data); }

/* ---- keys ------------------------------------------------------------------ */

/* Keys of the event list (when it has the focus). */
static int list_key(app *a, guint key)
{
	switch (key) {
	case GDK_KEY_Up:
		if (a->list_selected > 0)
			a->list_selected--;
		else
			list_scroll(a, -1);
		break;
	case GDK_KEY_Down:
		if (a->list_selected + 1 < (int)a->nlines - 1)
			a->list_selected++;
		else
			list_scroll(a, 1);
		break;
	case GDK_KEY_Page_Up: list_scroll(a, -(int)MAX(a->nlines, 2) + 1); break;
	case GDK_KEY_Page_Down: list_scroll(a, (int)MAX(a->nlines, 2) - 1); break;
	case GDK_KEY_Home:
		if (a->doc) {
			a->list_anchor = a->doc->start_ns;
			a->list_skip = 0;
			list_refresh(a);
		}
		break;
	case GDK_KEY_Return: case GDK_KEY_KP_Enter:
		if (a->list_selected >= 0)
			list_click(a, a->list_selected * LIST_LINE_H + 1);
		break;
	default:
		return 0;
	}
	if (a->list_selected < 0 && a->nlines)
		a->list_selected = 0;
	gtk_widget_queue_draw(a->list_area);
	return 1;
}

static int on_key_common(app *a, guint key, guint state)
{
	view_ui *vu = current_view(a);
	int ctrl = (state & GDK_CONTROL_MASK) != 0;

	if (!ctrl && gtk_widget_has_focus(a->list_area) && list_key(a, key))
		return 1;

	if (ctrl) {
		switch (key) {
		case GDK_KEY_o: open_dialog(a); return 1;
		case GDK_KEY_q: gtk_widget_destroy(a->win); return 1;
		case GDK_KEY_g: gtk_widget_grab_focus(a->goto_entry); return 1;
		case GDK_KEY_f: gtk_widget_grab_focus(a->row_filter); return 1;
		case GDK_KEY_e: gtk_widget_grab_focus(a->event_filter); return 1;
		case GDK_KEY_plus: case GDK_KEY_equal: zoom(a, 0.5, INT64_MIN); return 1;
		case GDK_KEY_minus: zoom(a, 2, INT64_MIN); return 1;
		default: return 0;
		}
	}
	switch (key) {
	case GDK_KEY_plus: case GDK_KEY_equal: case GDK_KEY_KP_Add:
		zoom(a, 0.5, INT64_MIN); return 1;
	case GDK_KEY_minus: case GDK_KEY_KP_Subtract:
		zoom(a, 2, INT64_MIN); return 1;
	case GDK_KEY_0: case GDK_KEY_Home: zoom_fit(a); return 1;
	case GDK_KEY_Left: pan(a, -0.2); return 1;
	case GDK_KEY_Right: pan(a, 0.2); return 1;
	case GDK_KEY_Up: select_row(vu, vu->v.selected > 0 ? vu->v.selected - 1 : 0); return 1;
	case GDK_KEY_Down: select_row(vu, vu->v.selected + 1); return 1;
	case GDK_KEY_Page_Down: list_scroll(a, 10); return 1;
	case GDK_KEY_Page_Up: list_scroll(a, -10); return 1;
	case GDK_KEY_h: hide_selected(a); return 1;
	case GDK_KEY_z: on_zoom_sel(NULL, a); return 1;
	default: return 0;
	}
}

static gboolean on_key(GtkWidget *w, GdkEventKey *e, gpointer data)
{
	app *a = data;
	GtkWidget *focus = gtk_window_get_focus(GTK_WINDOW(a->win));

	/* typing in an entry is typing */
	if (focus && GTK_IS_ENTRY(focus) && !(e->state & GDK_CONTROL_MASK))
		return FALSE;
	return on_key_common(a, e->keyval, e->state) ? TRUE : FALSE;
}

/* ---- self-test ------------------------------------------------------------- */

static void expect(app *a, int cond, const char *what)
{
	a->checks++;
	if (!cond)
		a->failures++;
	printf("%s - %s\n", cond ? "ok" : "not ok", what);
	fflush(stdout);
}

static int save_window(app *a, const char *file)
{
	GdkWindow *gw = gtk_widget_get_window(a->win);
	GdkPixbuf *pb;
	int ok;

	if (!gw)
		return -1;
	pb = gdk_pixbuf_get_from_window(gw, 0, 0, gdk_window_get_width(gw),
					gdk_window_get_height(gw));
	if (!pb)
		return -1;
	ok = gdk_pixbuf_save(pb, file, "png", NULL, NULL);
	g_object_unref(pb);
	return ok ? 0 : -1;
}

/* Rows of the control flow, "pid:name" joined by spaces, for expect-rows. */
static char *row_names(app *a)
{
	GString *s = g_string_new(NULL);
	const ltt_state *st = ltt_state_index_state(a->doc->idx);

	for (unsigned r = 0; r < a->cf.v.nrows; r++) {
		ltt_state_process_info p;

		ltt_state_process(st, a->cf.rows[r].index, &p);
		g_string_append_printf(s, "%s%u:%s", r ? " " : "", p.pid, p.name);
	}
	return g_string_free(s, FALSE);
}

static int64_t rel_time(app *a, const char *s)
{
	return a->doc->start_ns + llround(g_ascii_strtod(s, NULL) * 1e9);
}

static void sync_views(app *a)
{
	if (!a->doc)
		return;
	g_mutex_lock(&a->doc->lock);
	view_sync(a, &a->cf);
	view_sync(a, &a->res);
	g_mutex_unlock(&a->doc->lock);
}

/* One command; returns 1 to be called again later (waiting), 0 when done. */
static int run_command(app *a, const char *cmd)
{
	char **w = g_strsplit_set(g_strstrip((char *)cmd), " ", 0);
	int n = (int)g_strv_length(w), again = 0;
	lttv_layout l;
	char buf[256];

	sync_views(a);
	layout_of(&a->cf, &l);
	if (n == 0 || !*w[0]) {
		/* empty */
	} else if (!a->doc && strcmp(w[0], "wait-index") && strcmp(w[0], "expect-lost") &&
		   strcmp(w[0], "quit") && strcmp(w[0], "run") && strcmp(w[0], "screenshot")) {
		snprintf(buf, sizeof(buf), "%s: no trace is open", w[0]);
		expect(a, 0, buf);
	} else if (!strcmp(w[0], "wait-index")) {
		again = a->doc && !a->indexed_done;
	} else if (!strcmp(w[0], "size") && n == 3) {
		gtk_window_resize(GTK_WINDOW(a->win), atoi(w[1]), atoi(w[2]));
	} else if (!strcmp(w[0], "range") && n == 2) {
		int64_t x, y;

		if (lttv_parse_range(w[1], &x, &y) == 0)
			set_range(a, a->doc->start_ns + x, a->doc->start_ns + y);
	} else if (!strcmp(w[0], "key") && n >= 2) {
		on_key_common(a, gdk_keyval_from_name(w[1]),
			      n > 2 && !strcmp(w[2], "ctrl") ? GDK_CONTROL_MASK : 0);
	} else if (!strcmp(w[0], "click-time") && n >= 3) {
		/* click at a time (seconds) on the row of a pid */
		int64_t t = rel_time(a, w[1]);
		int r = row_of_pid(&a->cf, (unsigned)atoi(w[2]));
		double x = lttv_time_to_x(&a->cf.v, &l, t);
		double y = l.y0 + ((double)r - a->cf.v.first_row) * l.row_h + l.row_h / 2.0;
		guint st = n > 3 && !strcmp(w[3], "shift") ? GDK_SHIFT_MASK : 0;

		mouse_press(&a->cf, x, y, 1, st);
		mouse_release(&a->cf, x, y);
	} else if (!strcmp(w[0], "drag") && n >= 3) {
		/* drag from one time to another (seconds) with button 1 or 3 */
		double x0 = lttv_time_to_x(&a->cf.v, &l, rel_time(a, w[1]));
		double x1 = lttv_time_to_x(&a->cf.v, &l, rel_time(a, w[2]));
		guint button = n > 3 ? (guint)atoi(w[3]) : 1;

		mouse_press(&a->cf, x0, l.y0 + 5, button, 0);
		mouse_motion(&a->cf, (x0 + x1) / 2, l.y0 + 5);
		mouse_motion(&a->cf, x1, l.y0 + 5);
		mouse_release(&a->cf, x1, l.y0 + 5);
	} else if (!strcmp(w[0], "scroll") && n >= 3) {
		double x = lttv_time_to_x(&a->cf.v, &l, rel_time(a, w[1]));

		mouse_scroll(&a->cf, x, !strcmp(w[2], "down") ? 1 : -1,
			     n > 3 && !strcmp(w[3], "ctrl") ? GDK_CONTROL_MASK :
			     n > 3 && !strcmp(w[3], "shift") ? GDK_SHIFT_MASK : 0);
	} else if (!strcmp(w[0], "sort") && n == 2) {
		mouse_press(&a->cf, l.col_x[atoi(w[1])] + 5, 5, 1, 0);
		mouse_release(&a->cf, l.col_x[atoi(w[1])] + 5, 5);
	} else if (!strcmp(w[0], "filter-rows")) {
		gtk_entry_set_text(GTK_ENTRY(a->row_filter), n > 1 ? w[1] : "");
		on_row_filter(GTK_SEARCH_ENTRY(a->row_filter), a);
	} else if (!strcmp(w[0], "filter-events")) {
		const char *e = strchr(cmd, ' ');

		gtk_entry_set_text(GTK_ENTRY(a->event_filter), e ? e + 1 : "");
		on_event_filter(GTK_ENTRY(a->event_filter), a);
	} else if (!strcmp(w[0], "select-pid") && n == 2) {
		select_row(&a->cf, row_of_pid(&a->cf, (unsigned)atoi(w[1])));
	} else if (!strcmp(w[0], "goto") && n == 2) {
		gtk_entry_set_text(GTK_ENTRY(a->goto_entry), w[1]);
		on_goto(GTK_ENTRY(a->goto_entry), a);
	} else if (!strcmp(w[0], "view") && n == 2) {
		gtk_notebook_set_current_page(GTK_NOTEBOOK(a->notebook),
					      !strcmp(w[1], "resources") ? 1 :
					      !strcmp(w[1], "statistics") ? 2 : 0);
	} else if (!strcmp(w[0], "list-key") && n == 2) {
		gtk_widget_grab_focus(a->list_area);
		on_key_common(a, gdk_keyval_from_name(w[1]), 0);
	} else if (!strcmp(w[0], "list-scrollbar") && n == 2) {
		/* move the list's scrollbar to a time (seconds) */
		gtk_adjustment_set_value(a->list_vadj, g_ascii_strtod(w[1], NULL) * 1e9);
	} else if (!strcmp(w[0], "list-click") && n == 2) {
		list_click(a, atoi(w[1]) * LIST_LINE_H + 3);
	} else if (!strcmp(w[0], "expect-rows")) {
		char *names = row_names(a);
		const char *want = strchr(cmd, ' ');

		snprintf(buf, sizeof(buf), "rows are \"%s\" (got \"%s\")", want ? want + 1 : "",
			 names);
		expect(a, !strcmp(names, want ? want + 1 : ""), buf);
		g_free(names);
	} else if (!strcmp(w[0], "tracing")) {
		/* the dialog runs its own loop: open it from an idle callback */
		g_idle_add(control_idle, a);
	} else if (!strcmp(w[0], "tracing-start") || !strcmp(w[0], "tracing-stop") ||
		   !strcmp(w[0], "tracing-close")) {
		if (a->control_dlg)
			gtk_dialog_response(GTK_DIALOG(a->control_dlg),
					    !strcmp(w[0], "tracing-start") ? 1 :
					    !strcmp(w[0], "tracing-stop") ? 2 : GTK_RESPONSE_CLOSE);
	} else if (!strcmp(w[0], "expect-tracing") && n >= 2) {
		const char *want = strchr(cmd, ' ') + 1;
		const char *txt = a->control_msg ? gtk_label_get_text(GTK_LABEL(a->control_msg))
						 : "(no dialog)";

		snprintf(buf, sizeof(buf), "tracing dialog says \"%s\" (got \"%.150s\")", want, txt);
		expect(a, strstr(txt, want) != NULL, buf);
	} else if (!strcmp(w[0], "expect-lost") && n >= 2) {
		const char *want = strchr(cmd, ' ') + 1;
		const char *txt = gtk_label_get_text(GTK_LABEL(gtk_bin_get_child(GTK_BIN(a->lost_bar))));

		snprintf(buf, sizeof(buf), "lost-events bar says \"%s\" (got \"%.120s\")", want,
			 gtk_widget_get_visible(a->lost_bar) ? txt : "(hidden)");
		expect(a, gtk_widget_get_visible(a->lost_bar) && strstr(txt, want), buf);
	} else if (!strcmp(w[0], "expect-indexing")) {
		double f;
		int done;

		g_mutex_lock(&a->doc->lock);
		f = ltt_state_index_progress(a->doc->idx);
		done = ltt_state_index_done(a->doc->idx);
		g_mutex_unlock(&a->doc->lock);
		snprintf(buf, sizeof(buf), "still indexing (%.0f%%), %u rows drawn %u times "
			 "already, progress bar shown", f * 100, a->cf.v.nrows,
			 a->draws_while_indexing);
		expect(a, !done && f < 1 && a->cf.v.nrows > 0 && a->draws_while_indexing > 0 &&
			  gtk_widget_get_visible(a->progress), buf);
	} else if (!strcmp(w[0], "expect-indexed")) {
		expect(a, a->indexed_done && !gtk_widget_get_visible(a->progress),
		       "indexing finished, progress bar gone");
	} else if (!strcmp(w[0], "expect-status") && n >= 2) {
		const char *want = strchr(cmd, ' ') + 1;
		const char *txt = gtk_label_get_text(GTK_LABEL(a->status));

		snprintf(buf, sizeof(buf), "status bar says \"%s\" (got \"%.150s\")", want, txt);
		expect(a, strstr(txt, want) != NULL, buf);
	} else if (!strcmp(w[0], "expect-tip") && n >= 4) {
		/* the tooltip at a time on a pid's row contains the rest */
		int r = row_of_pid(&a->cf, (unsigned)atoi(w[2]));
		double x = lttv_time_to_x(&a->cf.v, &l, rel_time(a, w[1]));
		double y = l.y0 + ((double)r - a->cf.v.first_row) * l.row_h + l.row_h / 2.0;
		char *tip = tooltip_text(&a->cf, x, y), *nl;
		const char *want = strstr(cmd, w[3]);

		for (nl = tip; nl && *nl; nl++)
			if (*nl == '\n')
				*nl = '|';
		snprintf(buf, sizeof(buf), "tooltip has \"%s\" (got \"%s\")", want,
			 tip ? tip : "(none)");
		expect(a, tip && strstr(tip, want), buf);
		g_free(tip);
	} else if (!strcmp(w[0], "show-hidden")) {
		show_hidden(a);
	} else if (!strcmp(w[0], "expect-row") && n == 3) {
		unsigned r = (unsigned)atoi(w[1]);
		ltt_state_process_info p = { 0 };

		if (r < a->cf.v.nrows)
			ltt_state_process(ltt_state_index_state(a->doc->idx), a->cf.rows[r].index, &p);
		snprintf(buf, sizeof(buf), "row %u is pid %s (got %d)", r, w[2],
			 r < a->cf.v.nrows ? (int)p.pid : -1);
		expect(a, r < a->cf.v.nrows && p.pid == (unsigned)atoi(w[2]), buf);
	} else if (!strcmp(w[0], "expect-nrows") && n == 2) {
		snprintf(buf, sizeof(buf), "%s rows (got %u)", w[1], a->cf.v.nrows);
		expect(a, a->cf.v.nrows == (unsigned)atoi(w[1]), buf);
	} else if (!strcmp(w[0], "expect-selected") && n == 2) {
		int sel = a->cf.v.selected;
		ltt_state_process_info p = { 0 };

		if (sel >= 0)
			ltt_state_process(ltt_state_index_state(a->doc->idx),
					  a->cf.rows[sel].index, &p);
		snprintf(buf, sizeof(buf), "selected row is pid %s (got %d)", w[1],
			 sel >= 0 ? (int)p.pid : -1);
		expect(a, sel >= 0 && p.pid == (unsigned)atoi(w[1]), buf);
	} else if (!strcmp(w[0], "expect-range") && n == 3) {
		double s0 = (a->t0 - a->doc->start_ns) / 1e9, s1 = (a->t1 - a->doc->start_ns) / 1e9;
		double w0 = g_ascii_strtod(w[1], NULL), w1 = g_ascii_strtod(w[2], NULL);

		snprintf(buf, sizeof(buf), "visible range %.9f..%.9f s (got %.9f..%.9f)", w0, w1,
			 s0, s1);
		expect(a, fabs(s0 - w0) < 1e-6 * (w1 - w0 + 1e-9) * 1e3 + 2e-9 &&
			  fabs(s1 - w1) < 1e-6 * (w1 - w0 + 1e-9) * 1e3 + 2e-9, buf);
	} else if (!strcmp(w[0], "expect-cursor") && n == 3) {
		int64_t c = !strcmp(w[1], "b") ? a->cursor_b : a->cursor_a;
		double got = c == INT64_MIN ? -1 : (c - a->doc->start_ns) / 1e9;
		double want = g_ascii_strtod(w[2], NULL);

		snprintf(buf, sizeof(buf), "cursor %s at %.9f s (got %.9f)", w[1], want, got);
		expect(a, fabs(got - want) <= (a->t1 - a->t0) / 1e9 / 500, buf);
	} else if (!strcmp(w[0], "expect-list") && n >= 2) {
		const char *want = strchr(cmd, ' ') + 1;

		snprintf(buf, sizeof(buf), "first event line contains \"%s\" (got \"%.120s\")",
			 want, a->nlines ? a->lines[0].text : "");
		expect(a, a->nlines && strstr(a->lines[0].text, want), buf);
	} else if (!strcmp(w[0], "expect-filter-error") && n >= 2) {
		const char *txt = gtk_label_get_text(GTK_LABEL(a->filter_error));
		const char *want = strchr(cmd, ' ') + 1;

		snprintf(buf, sizeof(buf), "filter error shown: \"%s\" (got \"%s\")", want, txt);
		expect(a, gtk_widget_get_visible(a->filter_error) && strstr(txt, want), buf);
	} else if (!strcmp(w[0], "expect-stats") && n >= 2) {
		GtkTextBuffer *b = gtk_text_view_get_buffer(GTK_TEXT_VIEW(a->stats_view));
		GtkTextIter s, e;
		char *txt, *want = strchr(cmd, ' ') + 1;

		gtk_text_buffer_get_bounds(b, &s, &e);
		txt = gtk_text_buffer_get_text(b, &s, &e, FALSE);
		snprintf(buf, sizeof(buf), "statistics contain \"%s\"", want);
		expect(a, strstr(txt, want) != NULL, buf);
		if (!strstr(txt, want))
			printf("# %s\n", txt);
		g_free(txt);
	} else if ((!strcmp(w[0], "xclick") || !strcmp(w[0], "xscroll") ||
		    !strcmp(w[0], "xhover")) && n >= 3) {
		/* real X input (xdotool, XTEST) at a time on a pid's row */
		int64_t t = rel_time(a, w[1]);
		int r = row_of_pid(&a->cf, (unsigned)atoi(w[2])), rx = 0, ry = 0;
		double x = lttv_time_to_x(&a->cf.v, &l, t);
		double y = l.y0 + ((double)r - a->cf.v.first_row) * l.row_h + l.row_h / 2.0;
		char *c;

		gdk_window_get_origin(gtk_widget_get_window(a->cf.area), &rx, &ry);
		if (!strcmp(w[0], "xhover")) {
			c = g_strdup_printf("xdotool mousemove %d %d", rx + (int)x, ry + (int)y);
		} else {
			const char *mod = n > 4 ? w[4] : NULL;
			int button = !strcmp(w[0], "xclick") ? (n > 3 ? atoi(w[3]) : 1)
				     : (n > 3 && !strcmp(w[3], "up") ? 4 : 5);

			c = g_strdup_printf("xdotool mousemove %d %d %s%s click %d %s%s",
					    rx + (int)x, ry + (int)y, mod ? "keydown " : "",
					    mod ? mod : "", button, mod ? "keyup " : "",
					    mod ? mod : "");
		}
		if (!g_spawn_command_line_sync(c, NULL, NULL, NULL, NULL))
			printf("# could not run %s\n", c);
		g_free(c);
	} else if (!strcmp(w[0], "run") && n >= 2) {
		if (!g_spawn_command_line_sync(strchr(cmd, ' ') + 1, NULL, NULL, NULL, NULL))
			printf("# could not run %s\n", strchr(cmd, ' ') + 1);
	} else if (!strcmp(w[0], "screenshot") && n == 2) {
		snprintf(buf, sizeof(buf), "window saved to %s", w[1]);
		expect(a, save_window(a, w[1]) == 0, buf);
	} else if (!strcmp(w[0], "sleep") && n == 2) {
		/* handled by the caller */
	} else if (!strcmp(w[0], "quit")) {
		printf("# self-test: %d checks, %d failed\n", a->checks, a->failures);
		fflush(stdout);
		gtk_widget_destroy(a->win);
	} else {
		printf("not ok - unknown self-test command \"%s\"\n", cmd);
		a->failures++;
	}
	g_strfreev(w);
	return again;
}

static gboolean script_step(gpointer data)
{
	app *a = data;

	if (!a->script || !a->script[a->script_pos]) {
		a->script_wait = 0;
		if (a->screenshot)
			expect(a, save_window(a, a->screenshot) == 0, "final screenshot saved");
		printf("# self-test: %d checks, %d failed\n", a->checks, a->failures);
		fflush(stdout);
		if (a->win)
			gtk_widget_destroy(a->win);
		return G_SOURCE_REMOVE;
	}
	if (!strncmp(a->script[a->script_pos], "sleep ", 6)) {
		unsigned ms = (unsigned)atoi(a->script[a->script_pos] + 6);

		a->script_pos++;
		a->script_wait = g_timeout_add(ms, script_step, a);
		return G_SOURCE_REMOVE;
	}
	if (!run_command(a, a->script[a->script_pos]))
		a->script_pos++;
	a->script_wait = g_timeout_add(120, script_step, a);
	return G_SOURCE_REMOVE;
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
			      GDK_POINTER_MOTION_MASK | GDK_SCROLL_MASK);
	gtk_widget_set_hexpand(vu->area, TRUE);
	gtk_widget_set_vexpand(vu->area, TRUE);
	g_signal_connect(vu->area, "draw", G_CALLBACK(on_draw), vu);
	g_signal_connect(vu->area, "button-press-event", G_CALLBACK(on_press), vu);
	g_signal_connect(vu->area, "button-release-event", G_CALLBACK(on_release), vu);
	g_signal_connect(vu->area, "motion-notify-event", G_CALLBACK(on_motion), vu);
	g_signal_connect(vu->area, "scroll-event", G_CALLBACK(on_scroll), vu);
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

	if (a->script_wait)
		g_source_remove(a->script_wait);
	a->script_wait = 0;
	if (a->list_idle)
		g_source_remove(a->list_idle);
	a->list_idle = 0;
	stop_worker(a);
	a->win = NULL;
}

static void on_activate(GtkApplication *gapp, gpointer data)
{
	app *a = data;
	GtkWidget *vbox = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0);
	GtkWidget *bar = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 4);
	GtkWidget *paned = gtk_paned_new(GTK_ORIENTATION_VERTICAL);
	GtkWidget *status = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 8);
	GtkWidget *stats_box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 4), *sw, *refresh;
	GtkWidget *lost_label = gtk_label_new("");

	a->win = gtk_application_window_new(gapp);
	gtk_window_set_title(GTK_WINDOW(a->win), "LTT viewer");
	gtk_window_set_default_size(GTK_WINDOW(a->win), 1280, 800);
	g_signal_connect(a->win, "key-press-event", G_CALLBACK(on_key), a);
	g_signal_connect(a->win, "destroy", G_CALLBACK(on_destroy), a);

	gtk_container_set_border_width(GTK_CONTAINER(bar), 4);
	tool_button(bar, "Open", "Open a trace folder (Ctrl+O)", G_CALLBACK(on_open), a);
	tool_button(bar, "Zoom in", "Zoom in (+, Ctrl+wheel)", G_CALLBACK(on_zoom_in), a);
	tool_button(bar, "Zoom out", "Zoom out (-, Ctrl+wheel)", G_CALLBACK(on_zoom_out), a);
	tool_button(bar, "Fit", "Zoom to the whole trace (0, Home)", G_CALLBACK(on_zoom_fit), a);
	tool_button(bar, "Zoom A..B", "Zoom to cursors A..B or the last right-drag "
		    "selection (z)", G_CALLBACK(on_zoom_sel), a);
	a->goto_entry = gtk_entry_new();
	gtk_entry_set_placeholder_text(GTK_ENTRY(a->goto_entry), "go to time (s)");
	gtk_entry_set_width_chars(GTK_ENTRY(a->goto_entry), 14);
	gtk_widget_set_tooltip_text(a->goto_entry, "Seconds from the trace start (Ctrl+G)");
	g_signal_connect(a->goto_entry, "activate", G_CALLBACK(on_goto), a);
	gtk_box_pack_start(GTK_BOX(bar), a->goto_entry, FALSE, FALSE, 0);
	a->row_filter = gtk_search_entry_new();
	gtk_entry_set_placeholder_text(GTK_ENTRY(a->row_filter), "rows: name or pid");
	gtk_widget_set_tooltip_text(a->row_filter, "Show only processes whose name contains "
				    "this text, or with this pid (Ctrl+F)");
	g_signal_connect(a->row_filter, "search-changed", G_CALLBACK(on_row_filter), a);
	gtk_box_pack_start(GTK_BOX(bar), a->row_filter, FALSE, FALSE, 0);
	a->event_filter = gtk_entry_new();
	gtk_entry_set_placeholder_text(GTK_ENTRY(a->event_filter),
				       "events: e.g. event.name = schedchange and state.pid = 2404");
	gtk_widget_set_tooltip_text(a->event_filter, "Filter of the event list and statistics "
		"(Enter to apply, Ctrl+E): event.name, event.facility, event.time, cpu, "
		"state.pid, state.tgid, state.ppid, state.process_name, state.mode, field names; "
		"= != < > <= >=, and, or, not, ( )");
	g_signal_connect(a->event_filter, "activate", G_CALLBACK(on_event_filter), a);
	gtk_box_pack_start(GTK_BOX(bar), a->event_filter, TRUE, TRUE, 0);
	a->hidden_btn = tool_button(bar, "Show hidden (0)", "Show the rows hidden with h or "
				    "the right-click menu", G_CALLBACK(on_show_hidden), a);
	tool_button(bar, "Tracing...", "Start or stop tracing (lttctl, lttd)",
		    G_CALLBACK(on_control), a);
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

	a->notebook = gtk_notebook_new();
	gtk_notebook_append_page(GTK_NOTEBOOK(a->notebook), view_widget(a, &a->cf, 0),
				 gtk_label_new("Control flow"));
	gtk_notebook_append_page(GTK_NOTEBOOK(a->notebook), view_widget(a, &a->res, 1),
				 gtk_label_new("Resources"));
	a->stats_view = gtk_text_view_new();
	gtk_text_view_set_editable(GTK_TEXT_VIEW(a->stats_view), FALSE);
	gtk_text_view_set_monospace(GTK_TEXT_VIEW(a->stats_view), TRUE);
	sw = gtk_scrolled_window_new(NULL, NULL);
	gtk_container_add(GTK_CONTAINER(sw), a->stats_view);
	gtk_widget_set_vexpand(sw, TRUE);
	refresh = gtk_button_new_with_label("Recompute for the visible range");
	g_signal_connect(refresh, "clicked", G_CALLBACK(on_stats_refresh), a);
	gtk_box_pack_start(GTK_BOX(stats_box), refresh, FALSE, FALSE, 0);
	gtk_box_pack_start(GTK_BOX(stats_box), sw, TRUE, TRUE, 0);
	gtk_notebook_append_page(GTK_NOTEBOOK(a->notebook), stats_box,
				 gtk_label_new("Statistics"));
	g_signal_connect(a->notebook, "switch-page", G_CALLBACK(on_page), a);

	a->list_area = gtk_drawing_area_new();
	gtk_widget_set_size_request(a->list_area, -1, 120);
	gtk_widget_set_can_focus(a->list_area, TRUE);
	gtk_widget_add_events(a->list_area, GDK_BUTTON_PRESS_MASK | GDK_SCROLL_MASK);
	g_signal_connect(a->list_area, "draw", G_CALLBACK(on_list_draw), a);
	g_signal_connect(a->list_area, "button-press-event", G_CALLBACK(on_list_press), a);
	g_signal_connect(a->list_area, "scroll-event", G_CALLBACK(on_list_scroll), a);
	g_signal_connect(a->list_area, "size-allocate", G_CALLBACK(on_list_size), a);
	a->list_selected = -1;
	a->list_vadj = gtk_adjustment_new(0, 0, 1, 1, 1, 1);
	g_signal_connect(a->list_vadj, "value-changed", G_CALLBACK(on_list_vadj), a);
	{
		GtkWidget *lbox = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 0);

		gtk_widget_set_hexpand(a->list_area, TRUE);
		gtk_box_pack_start(GTK_BOX(lbox), a->list_area, TRUE, TRUE, 0);
		gtk_box_pack_start(GTK_BOX(lbox), gtk_scrollbar_new(GTK_ORIENTATION_VERTICAL,
								    a->list_vadj), FALSE, FALSE, 0);
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
	gtk_widget_hide(a->filter_error);
	gtk_widget_hide(a->progress);
	a->cursor_a = a->cursor_b = INT64_MIN;
	a->last_sel_a = a->last_sel_b = 0;
	if (a->trace_path)
		open_trace(a, a->trace_path);
	else if (!a->script)
		open_dialog(a);
	gtk_widget_grab_focus(a->cf.area);
	if (a->script)
		a->script_wait = g_timeout_add(300, script_step, a);
}

int lttv_window_run(const char *trace, const char *self_test, const char *screenshot)
{
	app a = { 0 };
	int rc;

	if (!gtk_init_check(NULL, NULL)) {
		fprintf(stderr, "lttv-gtk: cannot open a display (DISPLAY not set?); "
			"--export draws without one\n");
		return 1;
	}
	a.trace_path = g_strdup(trace);
	a.screenshot = g_strdup(screenshot);
	if (self_test)
		a.script = g_strsplit(self_test, ";", 0);
	a.gapp = gtk_application_new("org.ltt.Viewer", G_APPLICATION_NON_UNIQUE);
	g_signal_connect(a.gapp, "activate", G_CALLBACK(on_activate), &a);
	rc = g_application_run(G_APPLICATION(a.gapp), 0, NULL);
	stop_worker(&a);
	g_object_unref(a.gapp);
	g_free(a.cf.rows);
	g_free(a.res.rows);
	g_free(a.lines);
	ltt_state_free(a.list_state);
	lttv_filter_free(a.filter);
	lttv_doc_free(a.doc);
	g_strfreev(a.script);
	g_free(a.trace_path);
	g_free(a.screenshot);
	g_free(a.index_error);
	if (a.failures)
		return 1;
	return rc;
}
