/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * analysis-links.c - what joins the rows of the control flow, from the
 * analyses (ltttrace-analysis.h):
 *
 *   wakeup arrows   at each wakeup that made a waiting task runnable, an
 *                   arrow from the waker's row (the task running on the
 *                   waking CPU: the idle task for an interrupt on an idle
 *                   CPU) to the woken task's row;
 *   critical path   of the selected process over its whole life (the
 *                   view shows a part of it), as Trace Compass draws it:
 *                   a thick line along the rows of the tasks it waited on,
 *                   coloured by what the path was doing (running, waiting
 *                   for a CPU, blocked on a timer, a device, a lock or a
 *                   task, unknown), with a vertical line where it passes
 *                   from one task to the one that woke it.
 *
 * The analysis and the index are two models fed the same events by the
 * same rules, so a process has the same index in both; a row is only
 * joined when the two agree on its pid.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "lttv-gtk.h"

void lttv_path_rgb(unsigned k, double rgb[3])
{
	/* in 0..255, so that a pixel reads back the same (tests, legend) */
	static const unsigned char c[][3] = {
		{ 0, 140, 0 },		/* running */
		{ 242, 140, 0 },	/* waiting for a CPU */
		{ 204, 0, 0 },		/* blocked on a device */
		{ 115, 115, 115 },	/* unknown */
		{ 26, 89, 217 },	/* blocked on a timer */
		{ 140, 64, 13 },	/* blocked on a lock (futex) */
		{ 140, 0, 140 },	/* blocked on another task */
	};

	for (int i = 0; i < 3; i++)
		rgb[i] = c[k < LTT_PATH_NUM_KINDS ? k : LTT_PATH_UNKNOWN][i] / 255.0;
}

/* y of the middle of process index p's row, if visible; else NAN. */
static double row_y(const lttv_view *v, const lttv_layout *l, const ltt_state *ast,
		    const ltt_state *ist, int32_t p)
{
	ltt_state_process_info a, b;

	if (p < 0 || ltt_state_process(ast, (unsigned)p, &a) < 0 ||
	    ltt_state_process(ist, (unsigned)p, &b) < 0 || a.pid != b.pid)
		return NAN;
	for (unsigned i = 0; i < l->rows_fit && v->first_row + i < v->nrows; i++) {
		const lttv_row *r = &v->rows[v->first_row + i];

		if (r->type == LTT_STATE_ROW_PROCESS && r->index == (unsigned)p)
			return l->y0 + (double)i * l->row_h + l->row_h / 2.0;
	}
	return NAN;
}

static void arrow(cairo_t *cr, double x, double y0, double y1)
{
	double dir = y1 > y0 ? 1 : -1;

	cairo_move_to(cr, x + 0.5, y0);
	cairo_line_to(cr, x + 0.5, y1 - dir * 2);
	cairo_stroke(cr);
	cairo_move_to(cr, x + 0.5, y1);
	cairo_line_to(cr, x - 3, y1 - dir * 6);
	cairo_line_to(cr, x + 4, y1 - dir * 6);
	cairo_close_path(cr);
	cairo_fill(cr);
}

void lttv_arrow_rgb(double rgb[3])
{
	rgb[0] = 20 / 255.0;	/* navy: no state's colour (IRQ orange was) */
	rgb[1] = 41 / 255.0;
	rgb[2] = 140 / 255.0;
}

const char *lttv_path_label(unsigned k)
{
	static const char *const n[] = { "path: running", "path: waits for a CPU",
		"path: blocked on a device", "path: unknown", "path: blocked on a timer",
		"path: blocked on a lock", "path: blocked on a task" };

	return k < LTT_PATH_NUM_KINDS ? n[k] : n[LTT_PATH_UNKNOWN];
}

/*
 * The wakeup arrows between rows on screen, thinned: at most one in each
 * column of LTTV_ARROW_PX pixels (the first wakeup there), so that a view
 * of thousands of wakeups stays readable (it was a mass at full zoom).
 * Calls fn for each drawn; *total: the wakeups in view between rows on
 * screen. Returns how many were drawn.
 */
typedef struct arrows {
	const lttv_view *v;
	const lttv_layout *l;
	const ltt_analysis *an;
	const ltt_state *ist;
	cairo_t *cr;
	int ncols;
	guint8 *used;			/* columns with an arrow */
	size_t drawn, total;
} arrows;

/* One wakeup (ltt_analysis_each). */
static int one_arrow(const ltt_latency *w, void *data)
{
	arrows *ar = data;
	const lttv_view *v = ar->v;
	const lttv_layout *l = ar->l;
	double x, y0, y1;
	int col;

	if (w->waker < 0)
		return 0;
	y0 = row_y(v, l, ltt_analysis_state(ar->an), ar->ist, w->waker);
	y1 = row_y(v, l, ltt_analysis_state(ar->an), ar->ist, w->process);
	if (isnan(y0) || isnan(y1) || y0 == y1)
		return 0;
	ar->total++;
	x = floor(l->x0 + (double)(w->start_ns - v->t0) / (double)(v->t1 - v->t0) *
		  (l->x1 - l->x0));
	/* the waits are in the order they ended, not of their wakeups:
	 * a column may come again */
	col = (int)floor((x - l->x0) / LTTV_ARROW_PX);
	if (col < 0 || col >= ar->ncols || ar->used[col])
		return 0;
	ar->used[col] = 1;
	ar->drawn++;
	if (ar->cr)
		arrow(ar->cr, x, y0, y1);
	return 0;
}

static size_t thin_arrows(const lttv_view *v, const lttv_layout *l, const ltt_analysis *an,
			  const ltt_state *ist, cairo_t *cr, size_t *total)
{
	arrows ar = { v, l, an, ist, cr, (l->x1 - l->x0) / LTTV_ARROW_PX + 2, NULL, 0, 0 };

	ar.used = g_malloc0((size_t)ar.ncols);
	ltt_analysis_each(an, LTT_LATENCY_SCHED, v->t0, v->t1, one_arrow, &ar);
	g_free(ar.used);
	*total = ar.total;
	return ar.drawn;
}

void lttv_arrows_count(const lttv_view *v, const lttv_layout *l, size_t *drawn, size_t *total)
{
	const ltt_analysis *an = v->analysis ? lttv_adata_analysis(v->analysis) : NULL;

	*drawn = *total = 0;
	if (an && v->arrows && v->doc)
		*drawn = thin_arrows(v, l, an, ltt_state_index_state(v->doc->view), NULL, total);
}

static void draw_arrows(cairo_t *cr, const lttv_view *v, const lttv_layout *l,
			const ltt_analysis *an, const ltt_state *ist)
{
	double rgb[3];
	size_t total, drawn;

	lttv_arrow_rgb(rgb);
	cairo_set_source_rgb(cr, rgb[0], rgb[1], rgb[2]);
	cairo_set_line_width(cr, 1);
	drawn = thin_arrows(v, l, an, ist, cr, &total);
	if (drawn < total) {
		char msg[128];

		snprintf(msg, sizeof(msg), "%zu wakeups here, one arrow per %d pixels drawn: "
			 "zoom in for all", total, LTTV_ARROW_PX);
		cairo_move_to(cr, l->x0 + 6, l->y0 - 4);
		cairo_show_text(cr, msg);
	}
}

/*
 * The critical path of the selected process over its whole life (the
 * range shown only picks what is drawn: a zoom never changes it), kept
 * for the next redraws of the same process on the same analysis (the walk
 * covers the process's life, every redraw would walk it again).
 */
static struct {
	const ltt_analysis *an;
	unsigned p;
	size_t nwaits;
	int64_t last_ns;
	ltt_path_segment *segs;
	size_t n;
} path_cache;

size_t lttv_view_path(const lttv_view *v, const ltt_path_segment **segs)
{
	const ltt_analysis *an = v->analysis ? lttv_adata_analysis(v->analysis) : NULL;
	const lttv_row *sel;
	size_t nw;

	*segs = NULL;
	if (!an || v->selected < 0 || (unsigned)v->selected >= v->nrows)
		return 0;
	sel = &v->rows[v->selected];
	if (sel->type != LTT_STATE_ROW_PROCESS)
		return 0;
	nw = ltt_analysis_count(an, LTT_LATENCY_SCHED);
	if (path_cache.an != an || path_cache.p != sel->index || path_cache.nwaits != nw ||
	    path_cache.last_ns != ltt_analysis_last_ns(an)) {
		free(path_cache.segs);
		path_cache.an = an;
		path_cache.p = sel->index;
		path_cache.nwaits = nw;
		path_cache.last_ns = ltt_analysis_last_ns(an);
		path_cache.n = ltt_analysis_critical_path(an, sel->index, INT64_MIN, INT64_MAX,
							  &path_cache.segs);
	}
	*segs = path_cache.segs;
	return path_cache.n;
}

static void draw_path(cairo_t *cr, const lttv_view *v, const lttv_layout *l,
		      const ltt_analysis *an, const ltt_state *ist)
{
	const ltt_path_segment *segs;
	size_t n = lttv_view_path(v, &segs);
	double prev_y = NAN;

	cairo_set_line_width(cr, 4);
	cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT);
	for (size_t i = 0; i < n; i++) {
		double xs, xe, y, rgb[3];

		if (segs[i].end_ns < v->t0 || segs[i].start_ns > v->t1)
			continue;	/* out of view (and far out of cairo's range) */
		xs = l->x0 + (double)(MAX(segs[i].start_ns, v->t0) - v->t0) /
			     (double)(v->t1 - v->t0) * (l->x1 - l->x0);
		xe = l->x0 + (double)(MIN(segs[i].end_ns, v->t1) - v->t0) /
			     (double)(v->t1 - v->t0) * (l->x1 - l->x0);
		y = row_y(v, l, ltt_analysis_state(an), ist, segs[i].process);
		if (isnan(y)) {
			prev_y = NAN;
			continue;
		}
		y += l->row_h / 2.0 - 3;	/* along the bottom of the row */
		if (!isnan(prev_y) && prev_y != y) {
			cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
			cairo_set_line_width(cr, 1.5);
			cairo_move_to(cr, floor(xs) + 0.5, prev_y);
			cairo_line_to(cr, floor(xs) + 0.5, y);
			cairo_stroke(cr);
			cairo_set_line_width(cr, 4);
		}
		lttv_path_rgb(segs[i].kind, rgb);
		cairo_set_source_rgb(cr, rgb[0], rgb[1], rgb[2]);
		cairo_move_to(cr, xs, y);
		cairo_line_to(cr, xe > xs + 1 ? xe : xs + 1, y);
		cairo_stroke(cr);
		prev_y = y;
	}
}

void lttv_draw_links(cairo_t *cr, const lttv_view *v, const lttv_layout *l)
{
	const ltt_analysis *an = lttv_adata_analysis(v->analysis);
	const ltt_state *ist = ltt_state_index_state(v->doc->view);

	cairo_save(cr);
	cairo_rectangle(cr, l->x0, l->y0, l->x1 - l->x0, l->height - l->y0 - l->legend_h);
	cairo_clip(cr);
	if (v->arrows)
		draw_arrows(cr, v, l, an, ist);
	if (v->critical)
		draw_path(cr, v, l, an, ist);
	cairo_restore(cr);
}
