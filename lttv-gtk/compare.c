/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * compare.c - lttv-gtk -t A -t B --side-by-side [--offset N:SECONDS]: the
 * traces compared in the window, not merged. The first trace is the
 * window's doc (a->doc) with every tool; the others are multi.c's groups
 * (each its own doc and state index, its rows under a band naming it),
 * drawn in a pane under the control flow on the shared axis: each trace's
 * first event at 0, then its --offset (lttv_group_place). A time T of the
 * axis is doc->origin_ns + T in every doc, so the window's range and
 * cursors (a->doc's ns) are drawn in each group at the same T: one zoom,
 * one scroll, one cursor for all; the bookmarks too. A band of the pane
 * dragged sideways moves its trace on the axis (its offset, rounded to
 * the power of ten under a pixel's time).
 *
 * Limits, said in --help and README: the others are read-only pictures.
 * Their rows are not selected, hidden, filtered or sorted by the toolbar;
 * their tooltip names the row and its state only; the event list,
 * Statistics, Analyses, Resources, Find and the event filter's marks are
 * the first trace's. Ctrl+O replaces the first trace only; --follow and
 * --session are refused with --side-by-side (main.c).
 *
 * The others are indexed whole by one worker, one after the other, while
 * the window runs; the pane polls what it finished (no lock: a group is
 * handed over by an atomic count, after which the worker leaves it).
 */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "window.h"

struct lttv_compare {
	char **paths;			/* every -t */
	int64_t *offsets;		/* per -t, ns */
	unsigned ntraces;
	lttv_group *g;			/* traces 2.., ntraces - 1 of them */
	char **errors;			/* per group: why it was not indexed */
	GThread *thread;
	atomic_int stop;
	atomic_uint indexed;		/* groups handed over by the worker */
	unsigned shown;			/* of them, those the pane took in */
	guint poll;
	char *title0;			/* the first trace's band */
	GtkWidget *header, *area;
	GtkAdjustment *vadj;		/* the pane's scroll, in pixels */
	int height;			/* of all the groups, one under the other */
	GArray **bm;			/* per group: the bookmarks at its times */
	/* the mouse in the pane */
	int pressed, dragging;
	int band;			/* the group whose band is dragged, or -1 */
	int64_t band_offset;		/* its offset when pressed */
	double press_x;
	int64_t press_t0, press_t1;
	guint press_state;
};

#define WAIT_H 22			/* under a band: "indexing..." */

lttv_compare *lttv_compare_new(char *const *paths, unsigned n, const int64_t *offsets)
{
	lttv_compare *c = g_new0(lttv_compare, 1);

	c->paths = g_strdupv((char **)paths);
	c->ntraces = n;
	c->offsets = g_memdup2(offsets, n * sizeof(*offsets));
	c->g = g_new0(lttv_group, n);
	c->errors = g_new0(char *, n);
	c->bm = g_new0(GArray *, n);
	for (unsigned i = 0; i < n; i++)
		c->bm[i] = g_array_new(FALSE, FALSE, sizeof(lttv_bookmark));
	c->band = -1;
	return c;
}

unsigned lttv_compare_first(const app *a)
{
	return a->cmp ? 1 : g_strv_length(a->trace_paths);
}

void lttv_compare_place(app *a, lttv_doc *d)
{
	if (!a->cmp)
		return;
	g_free(a->cmp->title0);
	a->cmp->title0 = lttv_group_place(d, 0, a->cmp->offsets[0]);
	if (a->cmp->header)
		gtk_widget_queue_draw(a->cmp->header);
}

static gpointer worker(gpointer data)
{
	lttv_compare *c = data;

	for (unsigned i = 0; i + 1 < c->ntraces && !atomic_load(&c->stop); i++) {
		char *error = NULL;

		if (lttv_group_index(&c->g[i], &c->stop, &error) < 0 && !error)
			break;		/* stopped */
		c->errors[i] = error;
		atomic_store(&c->indexed, i + 1);	/* the group is the window's now */
	}
	return NULL;
}

/* The pane takes in the groups the worker finished. */
static gboolean poll_worker(gpointer data)
{
	app *a = data;
	lttv_compare *c = a->cmp;
	unsigned done = atomic_load(&c->indexed);

	for (; c->shown < done; c->shown++) {
		lttv_group *g = &c->g[c->shown];

		if (c->errors[c->shown]) {
			char *msg = g_strdup_printf("trace %u: %s", c->shown + 2,
						    c->errors[c->shown]);

			g_printerr("lttv-gtk: %s\n", c->errors[c->shown]);
			lttv_show_problem(a, msg);
			g_free(msg);
		}
		lttv_group_rows(g, 1000);	/* no legend: its height is the rows' */
	}
	gtk_widget_queue_draw(c->area);
	if (done + 1 < c->ntraces)
		return G_SOURCE_CONTINUE;
	c->poll = 0;
	return G_SOURCE_REMOVE;
}

int lttv_compare_open(app *a)
{
	lttv_compare *c = a->cmp;

	for (unsigned i = 1; i < c->ntraces; i++) {
		char *error = NULL;

		if (lttv_group_open(&c->g[i - 1], i, c->paths[i], c->offsets[i], &error) < 0) {
			g_printerr("lttv-gtk: %s\n", error);
			g_free(error);
			return -1;
		}
		c->g[i - 1].v.selected = -1;
		c->g[i - 1].v.sel_a = c->g[i - 1].v.sel_b = INT64_MIN;
	}
	c->thread = g_thread_new("compare", worker, c);
	c->poll = g_timeout_add(100, poll_worker, a);
	return 0;
}

void lttv_compare_extent(app *a, const lttv_doc *first, int64_t *lo, int64_t *hi)
{
	*lo = first->start_ns;
	*hi = first->end_ns;
	for (unsigned i = 0; a->cmp && i + 1 < a->cmp->ntraces; i++) {
		const lttv_doc *d = a->cmp->g[i].doc;

		*lo = MIN(*lo, first->origin_ns + (d->start_ns - d->origin_ns));
		*hi = MAX(*hi, first->origin_ns + (d->end_ns - d->origin_ns));
	}
}

/* The groups follow the window: its range and cursors, at the same axis
 * times; placed one under the other from the pane's scroll. */
static void sync_groups(app *a)
{
	lttv_compare *c = a->cmp;
	int64_t o = a->doc ? a->doc->origin_ns : 0;
	int y = -(int)gtk_adjustment_get_value(c->vadj);

	for (unsigned i = 0; i + 1 < c->ntraces; i++) {
		lttv_group *g = &c->g[i];

		if (a->doc) {
			int64_t d = g->doc->origin_ns - o;	/* a->doc's ns -> g's */

			lttv_group_axis(g, a->t0 - o, a->t1 - o,
					a->cursor_a == INT64_MIN ? INT64_MIN : a->cursor_a - o,
					a->cursor_b == INT64_MIN ? INT64_MIN : a->cursor_b - o);
			g_array_set_size(c->bm[i], 0);
			for (unsigned k = 0; a->bookmarks && k < a->bookmarks->len; k++) {
				lttv_bookmark b = g_array_index(a->bookmarks, lttv_bookmark, k);

				b.t0 += d;
				b.t1 += d;
				g_array_append_val(c->bm[i], b);
			}
			g->v.bookmarks = (const lttv_bookmark *)(void *)c->bm[i]->data;
			g->v.nbookmarks = c->bm[i]->len;
		}
		g->y = y;
		y += i < c->shown ? g->height : LTTV_GROUP_H + WAIT_H;
	}
	c->height = y + (int)gtk_adjustment_get_value(c->vadj);
}

static gboolean on_pane_draw(GtkWidget *w, cairo_t *cr, gpointer data)
{
	app *a = data;
	lttv_compare *c = a->cmp;
	int width = gtk_widget_get_allocated_width(w), height = gtk_widget_get_allocated_height(w);

	cairo_set_source_rgb(cr, 1, 1, 1);
	cairo_paint(cr);
	sync_groups(a);
	for (unsigned i = 0; a->doc && i + 1 < c->ntraces; i++) {
		lttv_group *g = &c->g[i];

		if (g->y + LTTV_GROUP_H + WAIT_H < 0 || g->y > height)
			continue;
		if (i < c->shown) {
			lttv_group_paint(cr, g, width);
			continue;
		}
		cairo_save(cr);
		cairo_translate(cr, 0, g->y);
		lttv_draw_group_header(cr, g->title, width);
		cairo_set_source_rgb(cr, 0.3, 0.3, 0.3);
		cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL,
				       CAIRO_FONT_WEIGHT_NORMAL);
		cairo_set_font_size(cr, 13);
		cairo_move_to(cr, 8, LTTV_GROUP_H + 16);
		cairo_show_text(cr, "indexing this trace...");
		cairo_restore(cr);
	}
	gtk_adjustment_configure(c->vadj, gtk_adjustment_get_value(c->vadj), 0,
				 MAX(c->height, height), 18, MAX(height - 18, 1), height);
	return TRUE;
}

static gboolean on_header_draw(GtkWidget *w, cairo_t *cr, gpointer data)
{
	app *a = data;

	cairo_set_source_rgb(cr, 1, 1, 1);
	cairo_paint(cr);
	if (a->cmp->title0)
		lttv_draw_group_header(cr, a->cmp->title0, gtk_widget_get_allocated_width(w));
	return TRUE;
}

/* The pane's time area, laid out as the control flow's at its width. */
static void pane_layout(app *a, lttv_layout *l)
{
	lttv_view v = { 0 };

	lttv_layout_get(&v, gtk_widget_get_allocated_width(a->cmp->area),
			gtk_widget_get_allocated_height(a->cmp->area), l);
}

/* The time (a->doc's ns) at x of the pane. */
static int64_t pane_time(app *a, double x)
{
	lttv_layout l;
	lttv_view v = { 0 };

	pane_layout(a, &l);
	v.t0 = a->t0;
	v.t1 = a->t1;
	return lttv_x_to_time(&v, &l, x);
}

/* The group and row under y of the pane: the row's index, or -1. */
static int pane_row(app *a, double y, lttv_group **out)
{
	lttv_compare *c = a->cmp;

	sync_groups(a);
	for (unsigned i = 0; i < c->shown; i++) {
		lttv_group *g = &c->g[i];
		lttv_layout l;
		int r;

		lttv_layout_get(&g->v, gtk_widget_get_allocated_width(c->area),
				g->height - LTTV_GROUP_H, &l);
		if (y < g->y + LTTV_GROUP_H || y >= g->y + g->height)
			continue;
		r = lttv_y_to_row(&g->v, &l, y - g->y - LTTV_GROUP_H);
		*out = g;
		return r;
	}
	return -1;
}

/* The group whose band is under y, or -1. */
static int pane_band(app *a, double y)
{
	lttv_compare *c = a->cmp;

	sync_groups(a);
	for (unsigned i = 0; i < c->shown; i++)
		if (y >= c->g[i].y && y < c->g[i].y + LTTV_GROUP_H)
			return (int)i;
	return -1;
}

/* Group i's offset is now off (said in its band). */
static void set_offset(app *a, unsigned i, int64_t off)
{
	lttv_compare *c = a->cmp;
	lttv_group *g = &c->g[i];

	off = CLAMP(off, -LTTV_OFFSET_MAX, LTTV_OFFSET_MAX);
	g->offset = c->offsets[i + 1] = off;
	g_free(g->title);
	g->title = lttv_group_place(g->doc, i + 1, off);
	lttv_queue_redraw(a);
}

static void pane_press(app *a, double x, double y, guint button, guint state)
{
	lttv_compare *c = a->cmp;

	c->band = button == 1 ? pane_band(a, y) : -1;
	if (c->band >= 0)
		c->band_offset = c->g[c->band].offset;
	c->pressed = button == 1;
	c->dragging = 0;
	c->press_x = x;
	c->press_t0 = a->t0;
	c->press_t1 = a->t1;
	c->press_state = state;
}

static void pane_motion(app *a, double x)
{
	lttv_compare *c = a->cmp;
	lttv_layout l;

	if (!c->pressed || !a->doc || (!c->dragging && x - c->press_x < 3 && c->press_x - x < 3))
		return;
	pane_layout(a, &l);
	if (c->band >= 0) {
		/* a band dragged moves its trace on the axis, by a round number:
		 * the power of ten under a pixel's time (0.25 s, not 0.250137) */
		int64_t d = pane_time(a, x) - pane_time(a, c->press_x), step = 1;
		double px = (double)(a->t1 - a->t0) / (l.x1 - l.x0 > 0 ? l.x1 - l.x0 : 1);

		while (step * 10 <= px && step < LTTV_OFFSET_MAX / 10)
			step *= 10;
		d = (d >= 0 ? d + step / 2 : d - step / 2) / step * step;
		c->dragging = 1;
		set_offset(a, (unsigned)c->band, c->band_offset + d);
	} else if (c->press_x >= l.x0) {	/* drag pans the window, as in the control flow */
		double ns_per_px = (double)(c->press_t1 - c->press_t0) / (l.x1 - l.x0);
		int64_t d = (int64_t)((c->press_x - x) * ns_per_px);

		c->dragging = 1;
		lttv_set_range(a, c->press_t0 + d, c->press_t1 + d);
	}
}

/* A click sets cursor A (Shift: B) at the same axis time in every trace. */
static void pane_release(app *a, double x)
{
	lttv_compare *c = a->cmp;
	lttv_layout l;

	if (c->pressed && !c->dragging && c->band < 0 && a->doc) {
		pane_layout(a, &l);
		if (x >= l.x0) {
			int b = (c->press_state & GDK_SHIFT_MASK) != 0;

			if (!b)
				a->cursor_b = INT64_MIN;
			lttv_set_cursor(a, pane_time(a, x), b);
		}
	}
	c->pressed = c->dragging = 0;
	c->band = -1;
}

/* Ctrl+wheel zooms at the pointer, Shift+wheel pans, the wheel scrolls
 * the pane's rows. */
static void pane_scroll(app *a, double x, double dy, guint state)
{
	lttv_compare *c = a->cmp;
	lttv_layout l;

	if (!a->doc)
		return;
	pane_layout(a, &l);
	if (state & GDK_CONTROL_MASK) {
		lttv_zoom(a, dy > 0 ? 1.25 : 0.8, x >= l.x0 ? pane_time(a, x) : INT64_MIN);
	} else if (state & GDK_SHIFT_MASK) {
		int64_t d = (a->t1 - a->t0) / 10 * (dy > 0 ? 1 : -1);

		lttv_set_range(a, a->t0 + d, a->t1 + d);
	} else {
		double v = gtk_adjustment_get_value(c->vadj) + (dy > 0 ? 54 : -54);

		gtk_adjustment_set_value(c->vadj, CLAMP(v, 0, MAX(c->height -
			gtk_widget_get_allocated_height(c->area), 0)));
	}
}

static gboolean on_pane_press(GtkWidget *w, GdkEventButton *e, gpointer data)
{
	if (e->type == GDK_BUTTON_PRESS)
		pane_press(data, e->x, e->y, e->button, e->state);
	return TRUE;
}

static gboolean on_pane_motion(GtkWidget *w, GdkEventMotion *e, gpointer data)
{
	pane_motion(data, e->x);
	return TRUE;
}

static gboolean on_pane_release(GtkWidget *w, GdkEventButton *e, gpointer data)
{
	pane_release(data, e->x);
	return TRUE;
}

static gboolean on_pane_scroll(GtkWidget *w, GdkEventScroll *e, gpointer data)
{
	double dy = e->direction == GDK_SCROLL_UP ? -1 : e->direction == GDK_SCROLL_DOWN ? 1 :
		    e->direction == GDK_SCROLL_SMOOTH ? e->delta_y : 0;

	if (dy != 0)
		pane_scroll(data, e->x, dy, e->state);
	return TRUE;
}

/* The row and its state under the pointer (times on the shared axis). */
static char *pane_tooltip(app *a, double x, double y)
{
	lttv_group *g = NULL;
	int r = pane_row(a, y, &g);
	lttv_layout l;
	lttv_hit h = { 0, 0, 0, -1 };
	char name[256], d[64];
	const ltt_state *st;
	const char *trace_name;

	pane_layout(a, &l);
	if (pane_band(a, y) >= 0)
		return g_strdup("Drag this band sideways to move this trace in time "
				"(its offset; --offset N:SECONDS on the command line)");
	if (r < 0 || x < l.x0)
		return NULL;
	st = ltt_state_index_state(g->doc->view);
	if (g->rows[r].type == LTT_STATE_ROW_PROCESS) {
		ltt_state_process_info p;

		ltt_state_process(st, g->rows[r].index, &p);
		snprintf(name, sizeof(name), "%s (pid %u)", *p.name ? ltt_text_safe(p.name) : "?",
			 p.pid);
	} else {
		snprintf(name, sizeof(name), "row %u", g->rows[r].index);
	}
	lttv_utf8_cut(name);
	h.t = g->doc->origin_ns + (pane_time(a, x) - a->doc->origin_ns);
	trace_name = g->title;
	if (lttv_whole_interval(g->doc, &g->rows[r], &h) < 0)
		return g_strdup_printf("%s\n%s", trace_name, name);
	lttv_format_duration(h.e - h.s, d, sizeof(d));
	return g_strdup_printf("%s\n%s\n%s\n%.9f .. %.9f s of the shared axis (%s)", trace_name,
			       name, lttv_kind_label((ltt_state_kind)h.kind),
			       (h.s - g->doc->origin_ns) / 1e9, (h.e - g->doc->origin_ns) / 1e9, d);
}

static gboolean on_pane_tooltip(GtkWidget *w, gint x, gint y, gboolean kbd, GtkTooltip *tip,
				gpointer data)
{
	char *text = pane_tooltip(data, x, y);

	if (!text)
		return FALSE;
	gtk_tooltip_set_text(tip, text);
	g_free(text);
	return TRUE;
}

static void on_pane_vadj(GtkAdjustment *adj, gpointer data)
{
	app *a = data;

	gtk_widget_queue_draw(a->cmp->area);
}

GtkWidget *lttv_compare_page(app *a, GtkWidget *view)
{
	lttv_compare *c = a->cmp;
	GtkWidget *paned = gtk_paned_new(GTK_ORIENTATION_VERTICAL);
	GtkWidget *top = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0);
	GtkWidget *bottom = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 0);

	c->header = gtk_drawing_area_new();
	gtk_widget_set_size_request(c->header, -1, LTTV_GROUP_H);
	g_signal_connect(c->header, "draw", G_CALLBACK(on_header_draw), a);
	gtk_box_pack_start(GTK_BOX(top), c->header, FALSE, FALSE, 0);
	gtk_box_pack_start(GTK_BOX(top), view, TRUE, TRUE, 0);
	/* as the control flow's widget (window.c): an area and a scrollbar,
	 * so that both areas have one width and one time axis */
	c->area = gtk_drawing_area_new();
	gtk_widget_add_events(c->area, GDK_BUTTON_PRESS_MASK | GDK_BUTTON_RELEASE_MASK |
			      GDK_POINTER_MOTION_MASK | GDK_SCROLL_MASK);
	gtk_widget_set_hexpand(c->area, TRUE);
	gtk_widget_set_vexpand(c->area, TRUE);
	g_signal_connect(c->area, "draw", G_CALLBACK(on_pane_draw), a);
	g_signal_connect(c->area, "button-press-event", G_CALLBACK(on_pane_press), a);
	g_signal_connect(c->area, "button-release-event", G_CALLBACK(on_pane_release), a);
	g_signal_connect(c->area, "motion-notify-event", G_CALLBACK(on_pane_motion), a);
	g_signal_connect(c->area, "scroll-event", G_CALLBACK(on_pane_scroll), a);
	gtk_widget_set_has_tooltip(c->area, TRUE);
	g_signal_connect(c->area, "query-tooltip", G_CALLBACK(on_pane_tooltip), a);
	c->vadj = gtk_adjustment_new(0, 0, 1, 18, 100, 1);
	g_signal_connect(c->vadj, "value-changed", G_CALLBACK(on_pane_vadj), a);
	gtk_box_pack_start(GTK_BOX(bottom), c->area, TRUE, TRUE, 0);
	gtk_box_pack_start(GTK_BOX(bottom), gtk_scrollbar_new(GTK_ORIENTATION_VERTICAL, c->vadj),
			   FALSE, FALSE, 0);
	gtk_paned_pack1(GTK_PANED(paned), top, TRUE, FALSE);
	gtk_paned_pack2(GTK_PANED(paned), bottom, TRUE, FALSE);
	gtk_paned_set_position(GTK_PANED(paned), 280);
	return paned;
}

void lttv_compare_redraw(app *a)
{
	if (a->cmp && a->cmp->area)
		gtk_widget_queue_draw(a->cmp->area);
}

void lttv_compare_stop(app *a)
{
	lttv_compare *c = a->cmp;

	if (!c)
		return;
	if (c->poll)
		g_source_remove(c->poll);
	c->poll = 0;
	atomic_store(&c->stop, 1);
	if (c->thread)
		g_thread_join(c->thread);
	c->thread = NULL;
	c->header = c->area = NULL;
}

void lttv_compare_free(lttv_compare *c)
{
	if (!c)
		return;
	for (unsigned i = 0; i + 1 < c->ntraces; i++) {
		lttv_group_free(&c->g[i]);
		g_free(c->errors[i]);
	}
	for (unsigned i = 0; i < c->ntraces; i++)
		g_array_free(c->bm[i], TRUE);
	g_free(c->bm);
	g_free(c->g);
	g_free(c->errors);
	g_free(c->offsets);
	g_strfreev(c->paths);
	g_free(c->title0);
	g_free(c);
}

/* ---- self-test ---- */

/* The y in the pane of the middle of a pid's row in its first group. */
static double pane_row_y(app *a, unsigned pid)
{
	lttv_group *g = &a->cmp->g[0];
	const ltt_state *st = ltt_state_index_state(g->doc->view);
	lttv_layout l;

	sync_groups(a);
	lttv_layout_get(&g->v, 1000, g->height - LTTV_GROUP_H, &l);
	for (unsigned r = 0; a->cmp->shown && r < g->v.nrows; r++) {
		ltt_state_process_info p;

		if (g->rows[r].type == LTT_STATE_ROW_PROCESS &&
		    ltt_state_process(st, g->rows[r].index, &p) == 0 && p.pid == pid)
			return g->y + LTTV_GROUP_H + l.y0 + (r + 0.5) * l.row_h;
	}
	return -1;
}

/* Where a widget is in the window (the screenshot's pixels). */
static void widget_origin(app *a, GtkWidget *w, int *x, int *y)
{
	*x = *y = 0;
	gtk_widget_translate_coordinates(w, a->win, 0, 0, x, y);
}

/*
 * print-compare: what the window draws, as --export --side-by-side
 * --layout says it (multi.c): "area cf|pane x= y= w= h=" where the two
 * drawing areas are in the window; the axis of the control flow (its x
 * in the area); group 0, the first trace (its rows from the control
 * flow); groups 1.., the pane's; y in the window's pixels. Then per group
 * "view group=G t0= t1= a= b= ax=": its range and cursors on the axis
 * (ns), and x of cursor A in the window (-1: none).
 */
static void print_compare(app *a)
{
	lttv_compare *c = a->cmp;
	lttv_group first = { a->doc, a->cf.v, a->cf.rows, c->offsets[0], c->title0, 0, 0 };
	int cx, cy, px, py, w = gtk_widget_get_allocated_width(a->cf.area);
	int h = gtk_widget_get_allocated_height(a->cf.area);
	int pw = gtk_widget_get_allocated_width(c->area);

	widget_origin(a, a->cf.area, &cx, &cy);
	widget_origin(a, c->area, &px, &py);
	sync_groups(a);
	printf("area cf x=%d y=%d w=%d h=%d\narea pane x=%d y=%d w=%d h=%d\n", cx, cy, w, h, px,
	       py, pw, gtk_widget_get_allocated_height(c->area));
	lttv_group_print_axis(&a->cf.v, w, h, c->shown + 1);
	lttv_group_print(&first, 0, w, h, cy);
	for (unsigned i = 0; i < c->shown; i++)
		lttv_group_print(&c->g[i], i + 1, pw, c->g[i].height - LTTV_GROUP_H,
				 py + c->g[i].y + LTTV_GROUP_H);
	for (unsigned i = 0; i <= c->shown; i++) {
		const lttv_view *v = i ? &c->g[i - 1].v : &a->cf.v;
		int64_t o = i ? c->g[i - 1].doc->origin_ns : a->doc->origin_ns;
		lttv_layout l;

		lttv_layout_get(v, i ? pw : w, h, &l);
		printf("view group=%u t0=%" PRId64 " t1=%" PRId64 " a=%" PRId64 " b=%" PRId64
		       " ax=%.0f\n", i, v->t0 - o, v->t1 - o,
		       v->cursor_a == INT64_MIN ? INT64_MIN : v->cursor_a - o,
		       v->cursor_b == INT64_MIN ? INT64_MIN : v->cursor_b - o,
		       v->cursor_a == INT64_MIN ? -1.0 :
		       (i ? px : cx) + floor(lttv_time_to_x(v, &l, v->cursor_a)));
	}
	fflush(stdout);
}

/*
 * wait-compare: until every other trace is indexed and in the pane.
 * print-compare [NAME]: above, after a line "== NAME".
 * expect-pane-tip T PID TEXT: the pane's tooltip at axis time T on the
 * row of PID in its first group has TEXT (lines joined by "|").
 * drag-band T0 G T1: group G's band (0: the pane's first) dragged from
 * axis time T0 to T1. pane-click T [shift], pane-scroll T up|down
 * [ctrl|shift]: the mouse in the pane at axis time T (seconds), on its
 * first group's first row.
 */
int lttv_compare_script(app *a, char **w, int n, int *again, char *buf, size_t size, int *ok)
{
	lttv_compare *c = a->cmp;
	lttv_layout l;
	double x;
	guint mod;

	if (strcmp(w[0], "wait-compare") && strcmp(w[0], "print-compare") &&
	    strcmp(w[0], "pane-click") && strcmp(w[0], "pane-scroll") &&
	    strcmp(w[0], "expect-pane-tip") && strcmp(w[0], "drag-band"))
		return 0;
	if (!c || !a->doc) {
		snprintf(buf, size, "%s: no traces side by side", w[0]);
		*ok = 0;
		return 1;
	}
	if (!strcmp(w[0], "wait-compare")) {
		*again = c->shown + 1 < c->ntraces;
		return 1;
	}
	if (!strcmp(w[0], "print-compare")) {
		if (n > 1)		/* the test's name for this part */
			printf("== %s\n", w[1]);
		print_compare(a);
		return 1;
	}
	if (n < 2 + !strcmp(w[0], "pane-scroll") + 2 * !strcmp(w[0], "expect-pane-tip") +
		2 * !strcmp(w[0], "drag-band")) {
		snprintf(buf, size, "%s lacks words", w[0]);
		*ok = 0;
		return 1;
	}
	pane_layout(a, &l);
	{
		lttv_view v = { 0 };

		v.t0 = a->t0;
		v.t1 = a->t1;
		x = lttv_time_to_x(&v, &l, a->doc->origin_ns +
				   (int64_t)(g_ascii_strtod(w[1], NULL) * 1e9 + 0.5));
	}
	mod = 0;
	for (int i = 2; i < n; i++)
		mod |= !strcmp(w[i], "shift") ? GDK_SHIFT_MASK :
		       !strcmp(w[i], "ctrl") ? GDK_CONTROL_MASK : 0;
	if (!strcmp(w[0], "pane-click")) {
		pane_press(a, x, -1, 1, mod);
		pane_release(a, x);
	} else if (!strcmp(w[0], "drag-band")) {
		lttv_view v = { 0 };
		double x1, y;

		sync_groups(a);
		y = (unsigned)atoi(w[2]) < c->shown ? c->g[atoi(w[2])].y + 5.0 : -1;
		v.t0 = a->t0;
		v.t1 = a->t1;
		x1 = lttv_time_to_x(&v, &l, a->doc->origin_ns +
				    (int64_t)(g_ascii_strtod(w[3], NULL) * 1e9 + 0.5));
		pane_press(a, x, y, 1, 0);
		pane_motion(a, (x + x1) / 2);
		pane_motion(a, x1);
		pane_release(a, x1);
	} else if (!strcmp(w[0], "expect-pane-tip")) {
		char *tip = pane_tooltip(a, x, pane_row_y(a, (unsigned)atoi(w[2])));
		char *want = g_strjoinv(" ", w + 3);

		for (char *p = tip; p && *p; p++)
			if (*p == '\n')
				*p = '|';
		*ok = tip && strstr(tip, want);
		snprintf(buf, size, "pane tooltip has \"%s\" (got \"%s\")", want,
			 tip ? tip : "");
		g_free(want);
		g_free(tip);
	} else {
		pane_scroll(a, x, !strcmp(w[2], "down") ? 1 : -1, mod);
	}
	return 1;
}
