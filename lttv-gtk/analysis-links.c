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
#include <stdlib.h>

#include "lttv-gtk.h"

void lttv_path_rgb(unsigned k, double rgb[3])
{
	static const double c[][3] = {
		{ 0.00, 0.55, 0.00 },	/* running */
		{ 0.95, 0.55, 0.00 },	/* waiting for a CPU */
		{ 0.80, 0.00, 0.00 },	/* blocked on a device */
		{ 0.45, 0.45, 0.45 },	/* unknown */
		{ 0.10, 0.35, 0.85 },	/* blocked on a timer */
		{ 0.55, 0.25, 0.05 },	/* blocked on a lock (futex) */
		{ 0.55, 0.00, 0.55 },	/* blocked on another task */
	};

	for (int i = 0; i < 3; i++)
		rgb[i] = c[k < LTT_PATH_NUM_KINDS ? k : LTT_PATH_UNKNOWN][i];
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

static void draw_arrows(cairo_t *cr, const lttv_view *v, const lttv_layout *l,
			const ltt_analysis *an, const ltt_state *ist)
{
	size_t n, shown = 0;
	const ltt_latency *w = ltt_analysis_latencies(an, LTT_LATENCY_SCHED, &n);

	for (size_t i = 0; i < n; i++)
		if (w[i].start_ns >= v->t0 && w[i].start_ns <= v->t1 && w[i].waker >= 0)
			shown++;
	if (shown > LTTV_MAX_ARROWS) {
		cairo_set_source_rgb(cr, 0.6, 0.3, 0);
		cairo_move_to(cr, l->x0 + 6, l->y0 - 4);
		cairo_show_text(cr, "too many wakeups to draw their arrows here: zoom in");
		return;
	}
	cairo_set_source_rgba(cr, 0.75, 0.35, 0.0, 0.9);
	cairo_set_line_width(cr, 1);
	for (size_t i = 0; i < n; i++) {
		double x, y0, y1;

		if (w[i].start_ns < v->t0 || w[i].start_ns > v->t1 || w[i].waker < 0)
			continue;
		y0 = row_y(v, l, ltt_analysis_state(an), ist, w[i].waker);
		y1 = row_y(v, l, ltt_analysis_state(an), ist, w[i].process);
		if (isnan(y0) || isnan(y1) || y0 == y1)
			continue;
		x = floor(l->x0 + (double)(w[i].start_ns - v->t0) / (double)(v->t1 - v->t0) *
			  (l->x1 - l->x0));
		arrow(cr, x, y0, y1);
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
	int64_t last_wait;
	ltt_path_segment *segs;
	size_t n;
} path_cache;

size_t lttv_view_path(const lttv_view *v, const ltt_path_segment **segs)
{
	const ltt_analysis *an = v->analysis ? lttv_adata_analysis(v->analysis) : NULL;
	const lttv_row *sel;
	const ltt_latency *w;
	size_t nw;

	*segs = NULL;
	if (!an || v->selected < 0 || (unsigned)v->selected >= v->nrows)
		return 0;
	sel = &v->rows[v->selected];
	if (sel->type != LTT_STATE_ROW_PROCESS)
		return 0;
	w = ltt_analysis_latencies(an, LTT_LATENCY_SCHED, &nw);
	if (path_cache.an != an || path_cache.p != sel->index || path_cache.nwaits != nw ||
	    (nw && path_cache.last_wait != w[nw - 1].start_ns)) {
		free(path_cache.segs);
		path_cache.an = an;
		path_cache.p = sel->index;
		path_cache.nwaits = nw;
		path_cache.last_wait = nw ? w[nw - 1].start_ns : 0;
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
