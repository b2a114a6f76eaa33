/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * draw.c - the control-flow and resource views, drawn with cairo only.
 *
 *   +----------------------------------+--------------------------------+
 *   | Process  PID  TGID PPID CPU Birth| 0.1 s   0.2 s   0.3 s  (ruler) |  header_h
 *   +----------------------------------+--------------------------------+
 *   | bash     2404 2404    1   0 0.0..| ====----=====     ===          |  row_h
 *   | ...  (text columns, col_x[])     | (time area, x0 .. x1)          |
 *   +----------------------------------+--------------------------------+
 *   | legend: [] user [] syscall ...   lost events                      |  legend_h
 *
 * Each row asks the state index for its intervals at the view's
 * resolution (ns per pixel), so a row costs O(pixels) whatever the zoom.
 * A running task is a full-height bar, a waiting one a thin bar, a dead
 * one nothing. Antialiasing is off for bars: a pixel is exactly one
 * state's colour, which the export test relies on.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "lttv-gtk.h"

#define ROW_H		20
#define HEADER_H	36
#define LEGEND_H	26
#define FONT_SIZE	11.0

static const int proc_cols[LTTV_NUM_COLS] = { 130, 50, 50, 50, 35, 80, 75 };
static const char *const proc_titles[LTTV_NUM_COLS] = {
	"Process", "PID", "TGID", "PPID", "CPU", "Birth (s)", "CPU time" };

/* The colours of the states (LTTV's spirit: green runs, red waits). */
static const unsigned char kind_rgb[LTT_STATE_NUM_KINDS][3] = {
	[LTT_STATE_KIND_USER] = { 0, 180, 0 },
	[LTT_STATE_KIND_SYSCALL] = { 255, 170, 0 },
	[LTT_STATE_KIND_TRAP] = { 200, 0, 200 },
	[LTT_STATE_KIND_IRQ] = { 230, 0, 0 },
	[LTT_STATE_KIND_SOFTIRQ] = { 255, 110, 180 },
	[LTT_STATE_KIND_RUN_UNKNOWN] = { 120, 200, 120 },
	[LTT_STATE_KIND_IDLE] = { 190, 190, 190 },
	[LTT_STATE_KIND_WAIT] = { 130, 0, 0 },
	[LTT_STATE_KIND_WAIT_CPU] = { 190, 190, 0 },
	[LTT_STATE_KIND_WAIT_FORK] = { 0, 90, 0 },
	[LTT_STATE_KIND_EXIT] = { 40, 40, 255 },
	[LTT_STATE_KIND_ZOMBIE] = { 110, 0, 150 },
	[LTT_STATE_KIND_DEAD] = { 255, 255, 255 },
	[LTT_STATE_KIND_UNKNOWN] = { 150, 150, 150 },
};

static const char *const kind_labels[LTT_STATE_NUM_KINDS] = {
	"user mode", "system call", "trap", "IRQ", "softirq", "running (mode ?)",
	"idle", "waiting", "waiting for CPU", "new (waits to run)", "exiting",
	"zombie", "dead", "unknown",
};

void lttv_kind_rgb(ltt_state_kind k, double rgb[3])
{
	for (int i = 0; i < 3; i++)
		rgb[i] = (unsigned)k < LTT_STATE_NUM_KINDS ? kind_rgb[k][i] / 255.0 : 0;
}

const char *lttv_kind_label(ltt_state_kind k)
{
	return (unsigned)k < LTT_STATE_NUM_KINDS ? kind_labels[k] : "?";
}

static int is_running(ltt_state_kind k)
{
	return k <= LTT_STATE_KIND_RUN_UNKNOWN || k == LTT_STATE_KIND_EXIT;
}

void lttv_layout_get(const lttv_view *v, int width, int height, lttv_layout *l)
{
	int x = 0;

	memset(l, 0, sizeof(*l));
	l->width = width;
	l->height = height;
	l->row_h = ROW_H;
	l->header_h = HEADER_H;
	l->legend_h = v->legend ? LEGEND_H : 0;
	for (int c = 0; c < LTTV_NUM_COLS; c++) {
		l->col_x[c] = x;
		if (!v->resources)
			x += proc_cols[c];
		else if (c == 0)
			x += 200;
	}
	l->col_x[LTTV_NUM_COLS] = x;
	l->x0 = x + 1;
	l->x1 = width > l->x0 + 10 ? width : l->x0 + 10;
	l->y0 = HEADER_H;
	l->rows_fit = height > HEADER_H + l->legend_h ?
		(unsigned)(height - HEADER_H - l->legend_h + ROW_H - 1) / ROW_H : 0;
}

int lttv_natural_height(const lttv_view *v)
{
	return HEADER_H + (int)v->nrows * ROW_H + (v->legend ? LEGEND_H : 0);
}

double lttv_time_to_x(const lttv_view *v, const lttv_layout *l, int64_t t)
{
	double span = (double)(v->t1 - v->t0);

	return l->x0 + (double)(t - v->t0) * (l->x1 - l->x0) / (span > 0 ? span : 1);
}

int64_t lttv_x_to_time(const lttv_view *v, const lttv_layout *l, double x)
{
	return v->t0 + (int64_t)((x - l->x0) * (double)(v->t1 - v->t0) /
				 (l->x1 - l->x0 > 0 ? l->x1 - l->x0 : 1));
}

int lttv_y_to_row(const lttv_view *v, const lttv_layout *l, double y)
{
	int r;

	if (y < l->y0 || y >= l->height - l->legend_h)
		return -1;
	r = (int)((y - l->y0) / l->row_h) + (int)v->first_row;
	return r < (int)v->nrows ? r : -1;
}

int lttv_x_to_col(const lttv_layout *l, double x)
{
	for (int c = 0; c < LTTV_NUM_COLS; c++)
		if (x >= l->col_x[c] && x < l->col_x[c + 1])
			return c;
	return -1;
}

void lttv_format_duration(int64_t ns, char *buf, size_t len)
{
	double a = fabs((double)ns);

	if (a >= 1e9)
		snprintf(buf, len, "%.6f s", ns / 1e9);
	else if (a >= 1e6)
		snprintf(buf, len, "%.3f ms", ns / 1e6);
	else if (a >= 1e3)
		snprintf(buf, len, "%.3f us", ns / 1e3);
	else
		snprintf(buf, len, "%" PRId64 " ns", ns);
}

void lttv_format_short(uint64_t ns, char *buf, size_t len)
{
	if (ns == 0)
		snprintf(buf, len, "0");
	else if (ns >= 1000000000)
		snprintf(buf, len, "%.3f s", ns / 1e9);
	else if (ns >= 1000000)
		snprintf(buf, len, "%.1f ms", ns / 1e6);
	else if (ns >= 1000)
		snprintf(buf, len, "%.1f us", ns / 1e3);
	else
		snprintf(buf, len, "%" PRIu64 " ns", ns);
}

static void text(cairo_t *cr, double x, double y, const char *s)
{
	cairo_move_to(cr, x, y);
	cairo_show_text(cr, s);
}

/* Text clipped to [x, x + w). */
static void text_in(cairo_t *cr, double x, double y, double w, const char *s)
{
	cairo_save(cr);
	cairo_rectangle(cr, x, y - FONT_SIZE - 2, w - 4, FONT_SIZE + 6);
	cairo_clip(cr);
	text(cr, x + 3, y, s);
	cairo_restore(cr);
}

static void text_right(cairo_t *cr, double x, double y, double w, const char *s)
{
	cairo_text_extents_t e;

	cairo_text_extents(cr, s, &e);
	text_in(cr, x + w - e.x_advance - 8 > x ? x + w - e.x_advance - 8 : x, y, w, s);
}

static void set_rgb(cairo_t *cr, int r, int g, int b)
{
	cairo_set_source_rgb(cr, r / 255.0, g / 255.0, b / 255.0);
}

typedef struct bar_ctx {
	cairo_t *cr;
	const lttv_view *v;
	const lttv_layout *l;
	double y;
	ltt_state_row_type type;
	int idle_task;			/* pid 0: its preemptions are no news */
} bar_ctx;

static void draw_interval(void *user, int64_t s, int64_t e, ltt_state_kind k)
{
	bar_ctx *b = user;
	double xs = floor(lttv_time_to_x(b->v, b->l, s));
	double xe = floor(lttv_time_to_x(b->v, b->l, e));
	double rgb[3];

	if (k == LTT_STATE_KIND_DEAD)
		return;
	if (xs < b->l->x0)
		xs = b->l->x0;
	if (xe > b->l->x1)
		xe = b->l->x1;
	if (xe <= xs)
		xe = xs + 1;
	lttv_kind_rgb(k, rgb);
	cairo_set_source_rgb(b->cr, rgb[0], rgb[1], rgb[2]);
	if ((k == LTT_STATE_KIND_IDLE &&
	     (b->type == LTT_STATE_ROW_IRQ || b->type == LTT_STATE_ROW_SOFTIRQ)) ||
	    (b->idle_task && k == LTT_STATE_KIND_WAIT_CPU)) {
		/* an idle interrupt line: a hairline */
		cairo_set_source_rgb(b->cr, 0.8, 0.8, 0.8);
		cairo_rectangle(b->cr, xs, b->y + ROW_H / 2, xe - xs, 1);
	} else if (is_running(k))
		cairo_rectangle(b->cr, xs, b->y + 3, xe - xs, ROW_H - 6);
	else if (k == LTT_STATE_KIND_UNKNOWN)
		cairo_rectangle(b->cr, xs, b->y + ROW_H / 2 - 1, xe - xs, 2);
	else
		cairo_rectangle(b->cr, xs, b->y + ROW_H / 2 - 3, xe - xs, 6);
	cairo_fill(b->cr);
}

static void format_rel(char *buf, size_t len, int64_t ns, int decimals)
{
	snprintf(buf, len, "%.*f", decimals, ns / 1e9);
}

/* About 110 px between labelled ticks: 1, 2 or 5 times a power of 10 ns. */
static double tick_step(const lttv_view *v, const lttv_layout *l)
{
	double span = (double)(v->t1 - v->t0), px = l->x1 - l->x0;
	double base, step = 0;

	if (span <= 0 || px <= 0)
		return 0;
	base = pow(10, floor(log10(span * 110 / px)));
	for (int m = 1; m <= 10 && !step; m = m == 1 ? 2 : m == 2 ? 5 : 10)
		if (m * base * px / span >= 110)
			step = m * base;
	return step < 1 ? 1 : step;
}

/* Faint vertical lines at the ticks, under the bars of a row. */
static void draw_grid(cairo_t *cr, const lttv_view *v, const lttv_layout *l, double y)
{
	double step = tick_step(v, l);

	if (step <= 0)
		return;
	set_rgb(cr, 228, 228, 228);
	for (double rel = ceil((double)(v->t0 - v->doc->origin_ns) / step) * step;
	     v->doc->origin_ns + rel <= v->t1; rel += step) {
		double x = floor(lttv_time_to_x(v, l, v->doc->origin_ns + (int64_t)rel));

		cairo_rectangle(cr, x, y, 1, ROW_H);
	}
	cairo_fill(cr);
}

static void draw_ruler(cairo_t *cr, const lttv_view *v, const lttv_layout *l)
{
	double step = tick_step(v, l);
	int decimals;
	char buf[64];

	if (step <= 0)
		return;
	decimals = 9 - (int)floor(log10(step));
	decimals = decimals < 0 ? 0 : decimals > 9 ? 9 : decimals;
	{
		int64_t first = (int64_t)(ceil((double)(v->t0 - v->doc->origin_ns) / step) * step);

		for (double rel = (double)first; v->doc->origin_ns + rel <= v->t1; rel += step) {
			double x = floor(lttv_time_to_x(v, l, v->doc->origin_ns + (int64_t)rel)) + 0.5;

			set_rgb(cr, 90, 90, 90);
			cairo_move_to(cr, x, l->header_h - 8);
			cairo_line_to(cr, x, l->header_h);
			cairo_stroke(cr);
			for (int m = 1; m < 5; m++) {
				double xm = floor(lttv_time_to_x(v, l, v->doc->origin_ns +
								(int64_t)(rel + m * step / 5))) + 0.5;

				if (xm < l->x1) {
					cairo_move_to(cr, xm, l->header_h - 4);
					cairo_line_to(cr, xm, l->header_h);
					cairo_stroke(cr);
				}
			}
			format_rel(buf, sizeof(buf), (int64_t)rel, decimals);
			set_rgb(cr, 30, 30, 30);
			{
				cairo_text_extents_t e;

				cairo_text_extents(cr, buf, &e);
				if (x + 2 + e.x_advance < l->x1 - 2)
					text(cr, x + 2, l->header_h - 11, buf);
			}
		}
	}
	lttv_format_duration(v->t1 - v->t0, buf, sizeof(buf));
	{
		char what[96];
		cairo_text_extents_t e;

		snprintf(what, sizeof(what), "window %s", buf);
		cairo_text_extents(cr, what, &e);
		set_rgb(cr, 80, 80, 80);
		text(cr, l->x1 - e.x_advance - 6, 12, what);
	}
}

static void draw_legend(cairo_t *cr, const lttv_view *v, const lttv_layout *l)
{
	static const ltt_state_kind proc_kinds[] = {
		LTT_STATE_KIND_USER, LTT_STATE_KIND_SYSCALL, LTT_STATE_KIND_TRAP,
		LTT_STATE_KIND_IRQ, LTT_STATE_KIND_SOFTIRQ, LTT_STATE_KIND_WAIT,
		LTT_STATE_KIND_WAIT_CPU, LTT_STATE_KIND_WAIT_FORK, LTT_STATE_KIND_EXIT,
		LTT_STATE_KIND_ZOMBIE, LTT_STATE_KIND_IDLE,
	};
	static const ltt_state_kind res_kinds[] = {
		LTT_STATE_KIND_USER, LTT_STATE_KIND_SYSCALL, LTT_STATE_KIND_TRAP,
		LTT_STATE_KIND_IRQ, LTT_STATE_KIND_SOFTIRQ, LTT_STATE_KIND_IDLE,
	};
	const ltt_state_kind *ks = v->resources ? res_kinds : proc_kinds;
	size_t n = v->resources ? G_N_ELEMENTS(res_kinds) : G_N_ELEMENTS(proc_kinds);
	double x = 6, y = l->height - l->legend_h;

	set_rgb(cr, 240, 240, 240);
	cairo_rectangle(cr, 0, y, l->width, l->legend_h);
	cairo_fill(cr);
	for (size_t i = 0; i < n; i++) {
		double rgb[3];
		cairo_text_extents_t e;
		const char *s = lttv_kind_label(ks[i]);

		lttv_kind_rgb(ks[i], rgb);
		cairo_set_source_rgb(cr, rgb[0], rgb[1], rgb[2]);
		if (is_running(ks[i]) || ks[i] == LTT_STATE_KIND_IDLE)
			cairo_rectangle(cr, x, y + 7, 14, 12);
		else
			cairo_rectangle(cr, x, y + 10, 14, 6);
		cairo_fill(cr);
		set_rgb(cr, 20, 20, 20);
		text(cr, x + 18, y + 17, s);
		cairo_text_extents(cr, s, &e);
		x += 18 + e.x_advance + 14;
	}
	if (v->doc->events_lost || v->doc->corrupted) {
		char buf[128];

		snprintf(buf, sizeof(buf), "LOST %" PRIu64 " EVENTS, %" PRIu64
			 " corrupted sub-buffers", v->doc->events_lost, v->doc->corrupted);
		set_rgb(cr, 220, 0, 0);
		cairo_rectangle(cr, x, y + 3, 10 + 7.0 * (double)strlen(buf), l->legend_h - 6);
		cairo_fill(cr);
		set_rgb(cr, 255, 255, 255);
		text(cr, x + 5, y + 17, buf);
	}
}

static void row_text(cairo_t *cr, const lttv_view *v, const lttv_layout *l,
		     const lttv_row *row, double y)
{
	const ltt_state *st = ltt_state_index_state(v->doc->idx);
	char buf[LTTV_NUM_COLS][64];
	double base = y + ROW_H - 6;

	set_rgb(cr, 20, 20, 20);
	if (row->type == LTT_STATE_ROW_PROCESS) {
		ltt_state_process_info p;

		if (ltt_state_process(st, row->index, &p) < 0)
			return;
		text_in(cr, l->col_x[0], base, proc_cols[0], *p.name ? p.name : "-");
		snprintf(buf[1], 64, "%u", p.pid);
		snprintf(buf[2], 64, "%u", p.tgid);
		snprintf(buf[3], 64, "%u", p.ppid);
		if (p.cpu >= 0)
			snprintf(buf[4], 64, "%d", p.cpu);
		else
			snprintf(buf[4], 64, "-");
		if (p.before_trace)
			snprintf(buf[5], 64, "before");
		else
			format_rel(buf[5], 64, p.birth_ns - v->doc->origin_ns, 6);
		lttv_format_short(lttv_busy_ns(&p), buf[6], 64);
		for (int c = 1; c < LTTV_NUM_COLS; c++)
			text_right(cr, l->col_x[c], base, proc_cols[c], buf[c]);
	} else if (row->type == LTT_STATE_ROW_CPU) {
		snprintf(buf[0], 64, "CPU %u", row->index);
		text_in(cr, 0, base, l->col_x[1], buf[0]);
	} else if (row->type == LTT_STATE_ROW_IRQ) {
		ltt_state_irq_info q;

		if (ltt_state_irq(st, row->index, &q) < 0)
			return;
		snprintf(buf[0], 64, "IRQ %u %s", q.id, q.name);
		text_in(cr, 0, base, l->col_x[1], buf[0]);
	} else {
		ltt_state_softirq_info q;

		if (ltt_state_softirq(st, row->index, &q) < 0)
			return;
		snprintf(buf[0], 64, "softirq %u %s", q.id, q.name);
		text_in(cr, 0, base, l->col_x[1], buf[0]);
	}
}

static void draw_cursor(cairo_t *cr, const lttv_view *v, const lttv_layout *l,
			int64_t t, int r, int g, int b, const char *name)
{
	double x;

	if (t == INT64_MIN || t < v->t0 || t > v->t1)
		return;
	x = floor(lttv_time_to_x(v, l, t)) + 0.5;
	set_rgb(cr, r, g, b);
	cairo_move_to(cr, x, l->header_h - 14);
	cairo_line_to(cr, x, l->height - l->legend_h);
	cairo_stroke(cr);
	text(cr, x + 3, l->header_h - 2, name);
}

void lttv_draw(cairo_t *cr, const lttv_view *v, int width, int height)
{
	lttv_layout l;
	char buf[128];

	lttv_layout_get(v, width, height, &l);
	cairo_save(cr);
	cairo_set_line_width(cr, 1);
	cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL,
			       CAIRO_FONT_WEIGHT_NORMAL);
	cairo_set_font_size(cr, FONT_SIZE);
	set_rgb(cr, 255, 255, 255);
	cairo_paint(cr);

	/* header: column titles, then the ruler */
	set_rgb(cr, 232, 232, 236);
	cairo_rectangle(cr, 0, 0, width, l.header_h);
	cairo_fill(cr);
	set_rgb(cr, 20, 20, 20);
	if (v->resources) {
		text_in(cr, 0, l.header_h - 11, l.col_x[1], "Resource");
	} else {
		for (int c = 0; c < LTTV_NUM_COLS; c++) {
			snprintf(buf, sizeof(buf), "%s%s", proc_titles[c],
				 v->doc->sort_col == c ? (v->doc->sort_desc ? " v" : " ^") : "");
			text_in(cr, l.col_x[c], l.header_h - 11, proc_cols[c], buf);
		}
	}

	/* rows */
	cairo_save(cr);
	cairo_rectangle(cr, 0, l.y0, width, height - l.y0 - l.legend_h);
	cairo_clip(cr);
	for (unsigned i = 0; i < l.rows_fit && v->first_row + i < v->nrows; i++) {
		unsigned r = v->first_row + i;
		double y = l.y0 + (double)i * ROW_H;
		int64_t res = (v->t1 - v->t0) / (l.x1 - l.x0);
		bar_ctx b = { cr, v, &l, y, v->rows[r].type, 0 };
		ltt_state_process_info pi;

		if (v->rows[r].type == LTT_STATE_ROW_PROCESS &&
		    ltt_state_process(ltt_state_index_state(v->doc->idx), v->rows[r].index,
				      &pi) == 0)
			b.idle_task = pi.pid == 0;

		if ((int)r == v->selected)
			set_rgb(cr, 200, 220, 255);
		else if (r % 2)
			set_rgb(cr, 246, 246, 246);
		else
			set_rgb(cr, 255, 255, 255);
		cairo_rectangle(cr, 0, y, width, ROW_H);
		cairo_fill(cr);
		row_text(cr, v, &l, &v->rows[r], y);
		cairo_save(cr);
		cairo_rectangle(cr, l.x0, y, l.x1 - l.x0, ROW_H);
		cairo_clip(cr);
		cairo_set_antialias(cr, CAIRO_ANTIALIAS_NONE);
		draw_grid(cr, v, &l, y);
		ltt_state_index_intervals(v->doc->idx, v->rows[r].type, v->rows[r].index,
					  v->t0, v->t1, res > 0 ? res : 1, draw_interval, &b);
		cairo_restore(cr);
	}
	cairo_restore(cr);
	set_rgb(cr, 160, 160, 160);
	cairo_move_to(cr, l.x0 - 0.5, 0);
	cairo_line_to(cr, l.x0 - 0.5, height - l.legend_h);
	cairo_move_to(cr, 0, l.header_h - 0.5);
	cairo_line_to(cr, width, l.header_h - 0.5);
	cairo_stroke(cr);

	cairo_save(cr);
	cairo_rectangle(cr, l.x0, 0, l.x1 - l.x0, height);
	cairo_clip(cr);
	draw_ruler(cr, v, &l);
	if (v->sel_a != INT64_MIN && v->sel_b != INT64_MIN) {
		double xa = lttv_time_to_x(v, &l, v->sel_a), xb = lttv_time_to_x(v, &l, v->sel_b);

		cairo_set_source_rgba(cr, 0.2, 0.4, 1, 0.25);
		cairo_rectangle(cr, MIN(xa, xb), l.header_h, fabs(xb - xa),
				height - l.header_h - l.legend_h);
		cairo_fill(cr);
	}
	draw_cursor(cr, v, &l, v->cursor_a, 220, 0, 0, "A");
	draw_cursor(cr, v, &l, v->cursor_b, 0, 0, 220, "B");
	cairo_restore(cr);
	if (v->cursor_a != INT64_MIN && v->cursor_b != INT64_MIN) {
		char d[64];

		lttv_format_duration(v->cursor_b - v->cursor_a, d, sizeof(d));
		snprintf(buf, sizeof(buf), "B - A = %s", d);
		set_rgb(cr, 0, 0, 0);
		text(cr, l.x0 + 6, 12, buf);
	}
	if (v->message) {
		set_rgb(cr, 0, 90, 200);
		text(cr, l.col_x[0] + 4, 12, v->message);
	}
	if (v->legend)
		draw_legend(cr, v, &l);
	cairo_restore(cr);
}
