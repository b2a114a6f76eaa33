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
#define FONT_SIZE	11.0
#define TREE_INDENT	8.0		/* a level of the process tree, pixels */

static const int proc_cols[LTTV_NUM_COLS] = { 130, 50, 50, 50, 35, 80, 75 };
static const char *const proc_titles[LTTV_NUM_COLS] = {
	"Process", "PID", "TGID", "PPID", "CPU", "Birth (s)", "CPU time" };

/*
 * The colours of the states: LTTV's (the viewer this one revives, whose
 * users read them), except where a state would not show or would be taken
 * for another; docs/viewer.md has the table, with Trace Compass's.
 */
static const unsigned char kind_rgb[LTT_STATE_NUM_KINDS][3] = {
	[LTT_STATE_KIND_USER] = { 0, 200, 0 },		/* green, both */
	[LTT_STATE_KIND_SYSCALL] = { 1, 158, 255 },	/* LTTV's pale blue */
	[LTT_STATE_KIND_TRAP] = { 240, 210, 0 },	/* LTTV's yellow, deeper */
	[LTT_STATE_KIND_IRQ] = { 255, 94, 0 },		/* LTTV's orange */
	[LTT_STATE_KIND_SOFTIRQ] = { 255, 148, 150 },	/* LTTV's pink */
	[LTT_STATE_KIND_RUN_UNKNOWN] = { 150, 230, 150 },	/* pale green */
	[LTT_STATE_KIND_IDLE] = { 200, 200, 200 },	/* Trace Compass's grey */
	[LTT_STATE_KIND_WAIT] = { 102, 0, 0 },		/* LTTV's dark red */
	[LTT_STATE_KIND_WAIT_CPU] = { 119, 119, 0 },	/* LTTV's dark yellow */
	[LTT_STATE_KIND_WAIT_FORK] = { 7, 100, 0 },	/* LTTV's dark green */
	[LTT_STATE_KIND_EXIT] = { 200, 0, 200 },	/* LTTV's magenta, lighter */
	[LTT_STATE_KIND_ZOMBIE] = { 100, 0, 93 },	/* LTTV's dark purple */
	[LTT_STATE_KIND_DEAD] = { 0, 0, 0 },		/* LTTV's black: a thin line */
	[LTT_STATE_KIND_UNKNOWN] = { 100, 100, 100 },	/* Trace Compass's grey */
};

static const char *const kind_labels[LTT_STATE_NUM_KINDS] = {
	"user mode", "system call", "trap", "IRQ", "softirq", "running (mode ?)",
	"idle", "waiting", "waiting for CPU", "new (waits to run)", "exiting",
	"zombie", "dead", "unknown",
};

/* An idle interrupt line, a preempted idle task: nothing to see, a hairline. */
#define HAIRLINE_GREY 204

void lttv_kind_rgb(ltt_state_kind k, double rgb[3])
{
	for (int i = 0; i < 3; i++)
		rgb[i] = (unsigned)k < LTT_STATE_NUM_KINDS ? kind_rgb[k][i] / 255.0 : 0;
}

const char *lttv_kind_label(ltt_state_kind k)
{
	return (unsigned)k < LTT_STATE_NUM_KINDS ? kind_labels[k] : "?";
}

static int legend_height(const lttv_view *v, int width);

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
	l->legend_h = legend_height(v, width);
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

int lttv_natural_height(const lttv_view *v, int width)
{
	return HEADER_H + (int)v->nrows * ROW_H + legend_height(v, width);
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
	unsigned *drawn;		/* bit k: kind k drawn; NUM_KINDS: a hairline */
} bar_ctx;

/* How a state is drawn: its height in a row, centred. */
typedef enum bar_shape {
	SHAPE_RUN,			/* running: nearly the row's height */
	SHAPE_WAIT,			/* not running: a middle bar */
	SHAPE_UNKNOWN,			/* 2 pixels */
	SHAPE_LINE,			/* dead: 1 pixel */
	SHAPE_HAIRLINE,			/* nothing to see: 1 grey pixel */
} bar_shape;

static bar_shape shape_of(ltt_state_kind k)
{
	if (is_running(k) || k == LTT_STATE_KIND_IDLE)
		return SHAPE_RUN;
	if (k == LTT_STATE_KIND_UNKNOWN)
		return SHAPE_UNKNOWN;
	if (k == LTT_STATE_KIND_DEAD)
		return SHAPE_LINE;
	return SHAPE_WAIT;
}

/* A bar of a shape over [xs, xe) in a row whose middle is at y. */
static void bar(cairo_t *cr, double xs, double xe, double mid, bar_shape sh)
{
	static const double h[] = { ROW_H - 6, 6, 2, 1, 1 };

	cairo_rectangle(cr, xs, mid - floor(h[sh] / 2), xe - xs, h[sh]);
}

static void set_kind(cairo_t *cr, ltt_state_kind k, bar_shape sh)
{
	double rgb[3];

	if (sh == SHAPE_HAIRLINE) {
		cairo_set_source_rgb(cr, HAIRLINE_GREY / 255.0, HAIRLINE_GREY / 255.0,
				     HAIRLINE_GREY / 255.0);
		return;
	}
	lttv_kind_rgb(k, rgb);
	cairo_set_source_rgb(cr, rgb[0], rgb[1], rgb[2]);
}

static void draw_interval(void *user, int64_t s, int64_t e, ltt_state_kind k)
{
	bar_ctx *b = user;
	double xs = floor(lttv_time_to_x(b->v, b->l, s));
	double xe = floor(lttv_time_to_x(b->v, b->l, e));
	bar_shape sh = shape_of(k);

	if (xs < b->l->x0)
		xs = b->l->x0;
	if (xe > b->l->x1)
		xe = b->l->x1;
	if (xe <= xs)
		xe = xs + 1;
	if ((k == LTT_STATE_KIND_IDLE &&
	     (b->type == LTT_STATE_ROW_IRQ || b->type == LTT_STATE_ROW_SOFTIRQ)) ||
	    (b->idle_task && k == LTT_STATE_KIND_WAIT_CPU))
		sh = SHAPE_HAIRLINE;
	set_kind(b->cr, k, sh);
	bar(b->cr, xs, xe, b->y + ROW_H / 2, sh);
	cairo_fill(b->cr);
	*b->drawn |= 1u << (sh == SHAPE_HAIRLINE ? LTT_STATE_NUM_KINDS : k);
}

/* The event filter's matches (marks.c): a small dark triangle at the top
 * of the row, pointing down at the event's time; over the bars, which
 * stay the states. */
#define MARK_RGB 30, 30, 110

typedef struct mark_ctx {
	cairo_t *cr;
	const lttv_view *v;
	const lttv_layout *l;
	double y;
	unsigned n;
} mark_ctx;

static void draw_mark(void *user, int64_t t)
{
	mark_ctx *m = user;
	double x = floor(lttv_time_to_x(m->v, m->l, t)) + 0.5;

	cairo_move_to(m->cr, x - 3, m->y);
	cairo_line_to(m->cr, x + 3.5, m->y);
	cairo_line_to(m->cr, x + 0.25, m->y + 5);
	cairo_close_path(m->cr);
	m->n++;
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

/*
 * The legend: every way a state can be drawn in this view, with its shape,
 * laid out on as many lines as the width needs. The widths are estimated
 * from the length of the labels, so that the layout (lttv_layout_get) knows
 * the legend's height without a cairo context.
 */
typedef struct legend_item {
	ltt_state_kind k;
	bar_shape sh;
	const char *label;		/* NULL: the kind's */
} legend_item;

static const legend_item cf_legend[] = {
	{ LTT_STATE_KIND_USER, SHAPE_RUN, NULL },
	{ LTT_STATE_KIND_SYSCALL, SHAPE_RUN, NULL },
	{ LTT_STATE_KIND_TRAP, SHAPE_RUN, NULL },
	{ LTT_STATE_KIND_IRQ, SHAPE_RUN, NULL },
	{ LTT_STATE_KIND_SOFTIRQ, SHAPE_RUN, NULL },
	{ LTT_STATE_KIND_RUN_UNKNOWN, SHAPE_RUN, NULL },
	{ LTT_STATE_KIND_EXIT, SHAPE_RUN, NULL },
	{ LTT_STATE_KIND_WAIT, SHAPE_WAIT, NULL },
	{ LTT_STATE_KIND_WAIT_CPU, SHAPE_WAIT, NULL },
	{ LTT_STATE_KIND_WAIT_FORK, SHAPE_WAIT, NULL },
	{ LTT_STATE_KIND_ZOMBIE, SHAPE_WAIT, NULL },
	{ LTT_STATE_KIND_DEAD, SHAPE_LINE, NULL },
	{ LTT_STATE_KIND_UNKNOWN, SHAPE_UNKNOWN, NULL },
	{ LTT_STATE_KIND_IDLE, SHAPE_RUN, "idle task" },
	{ LTT_STATE_KIND_IDLE, SHAPE_HAIRLINE, "idle task preempted" },
};

static const legend_item res_legend[] = {
	{ LTT_STATE_KIND_USER, SHAPE_RUN, NULL },
	{ LTT_STATE_KIND_SYSCALL, SHAPE_RUN, NULL },
	{ LTT_STATE_KIND_TRAP, SHAPE_RUN, NULL },
	{ LTT_STATE_KIND_IRQ, SHAPE_RUN, NULL },
	{ LTT_STATE_KIND_SOFTIRQ, SHAPE_RUN, NULL },
	{ LTT_STATE_KIND_RUN_UNKNOWN, SHAPE_RUN, NULL },
	{ LTT_STATE_KIND_IDLE, SHAPE_RUN, "CPU idle" },
	{ LTT_STATE_KIND_UNKNOWN, SHAPE_UNKNOWN, NULL },
	{ LTT_STATE_KIND_IDLE, SHAPE_HAIRLINE, "IRQ line idle" },
};

#define LEGEND_LINE_H 18
#define LEGEND_CHAR_W 6.6		/* an estimate of the font's average advance */

static const legend_item *legend_items(const lttv_view *v, size_t *n)
{
	*n = v->resources ? G_N_ELEMENTS(res_legend) : G_N_ELEMENTS(cf_legend);
	return v->resources ? res_legend : cf_legend;
}

static const char *item_label(const legend_item *it)
{
	return it->label ? it->label : lttv_kind_label(it->k);
}

static void marks_text(const lttv_view *v, char *buf, size_t len)
{
	*buf = 0;
	if (v->doc && v->doc->marks)
		snprintf(buf, len, "matches of %.60s: %" PRIu64 "%s%s",
			 lttv_marks_expr(v->doc->marks), lttv_marks_total(v->doc->marks),
			 lttv_marks_complete(v->doc->marks) ? "" : " (too many to mark all)",
			 v->doc->only_marked && !v->resources ? ", rows without any hidden" : "");
}

static void lost_text(const lttv_view *v, char *buf, size_t len)
{
	*buf = 0;
	if (v->doc && (v->doc->events_lost || v->doc->corrupted))
		snprintf(buf, len, "LOST %" PRIu64 " EVENTS, %" PRIu64 " corrupted sub-buffers",
			 v->doc->events_lost, v->doc->corrupted);
}

/*
 * Place the legend's items (and the lost-events box, last) from left to
 * right, wrapping at width: x[i] and line[i] of each; returns the number
 * of lines.
 */
/* The links drawn over the control flow (analysis-links.c), in the legend
 * after the states: link k is the wakeup arrow (k = 0) or the critical
 * path's kind k - 1; 1 if it is drawn in v. */
#define LINK_ITEMS (1 + LTT_PATH_NUM_KINDS)

static int link_shown(const lttv_view *v, size_t k)
{
	return !v->resources && v->analysis && (k == 0 ? v->arrows : v->critical);
}

static const char *link_label(size_t k)
{
	return k == 0 ? "wakeup (who woke whom)" : lttv_path_label((unsigned)k - 1);
}

static int legend_place(const lttv_view *v, int width, double *x, int *line)
{
	size_t n;
	const legend_item *items = legend_items(v, &n);
	char lost[128], marks[160];
	double pos = 6;
	int ln = 0;

	lost_text(v, lost, sizeof(lost));
	marks_text(v, marks, sizeof(marks));
	for (size_t i = 0; i < n + 2 + LINK_ITEMS; i++) {
		double w = i < n ? 18 + LEGEND_CHAR_W * (double)strlen(item_label(&items[i])) + 14
			 : i == n ? 10 + 7.0 * (double)strlen(lost)
			 : i == n + 1 ? 18 + 7.0 * (double)strlen(marks)
				      : 18 + LEGEND_CHAR_W * (double)strlen(link_label(i - n - 2)) + 14;

		if ((i == n && !*lost) || (i == n + 1 && !*marks) ||
		    (i >= n + 2 && !link_shown(v, i - n - 2)))
			continue;
		if (pos > 6 && pos + w > width - 4) {
			pos = 6;
			ln++;
		}
		x[i] = pos;
		line[i] = ln;
		pos += w;
	}
	return ln + 1;
}

static int legend_height(const lttv_view *v, int width)
{
	double x[G_N_ELEMENTS(cf_legend) + 2 + LINK_ITEMS];
	int line[G_N_ELEMENTS(cf_legend) + 2 + LINK_ITEMS];

	if (!v->legend)
		return 0;
	return 8 + LEGEND_LINE_H * legend_place(v, width, x, line);
}

static void draw_legend(cairo_t *cr, const lttv_view *v, const lttv_layout *l,
			unsigned drawn)
{
	size_t n;
	const legend_item *items = legend_items(v, &n);
	double x[G_N_ELEMENTS(cf_legend) + 2 + LINK_ITEMS], y0 = l->height - l->legend_h + 4;
	int line[G_N_ELEMENTS(cf_legend) + 2 + LINK_ITEMS];
	char lost[128], marks[160];

	legend_place(v, l->width, x, line);
	set_rgb(cr, 240, 240, 240);
	cairo_rectangle(cr, 0, l->height - l->legend_h, l->width, l->legend_h);
	cairo_fill(cr);
	for (size_t i = 0; i < n; i++) {
		double y = y0 + line[i] * LEGEND_LINE_H;
		int here = drawn & (1u << (items[i].sh == SHAPE_HAIRLINE ? LTT_STATE_NUM_KINDS
									  : items[i].k));

		set_kind(cr, items[i].k, items[i].sh);
		bar(cr, x[i], x[i] + 14, y + LEGEND_LINE_H / 2, items[i].sh);
		cairo_fill(cr);
		/* the states not in the picture are named in grey */
		if (here)
			set_rgb(cr, 20, 20, 20);
		else
			set_rgb(cr, 130, 130, 130);
		text(cr, x[i] + 18, y + 13, item_label(&items[i]));
	}
	lost_text(v, lost, sizeof(lost));
	if (*lost) {
		double y = y0 + line[n] * LEGEND_LINE_H;

		set_rgb(cr, 220, 0, 0);
		cairo_rectangle(cr, x[n], y - 1, 10 + 7.0 * (double)strlen(lost), LEGEND_LINE_H);
		cairo_fill(cr);
		set_rgb(cr, 255, 255, 255);
		text(cr, x[n] + 5, y + 13, lost);
	}
	marks_text(v, marks, sizeof(marks));
	if (*marks) {
		double y = y0 + line[n + 1] * LEGEND_LINE_H;

		set_rgb(cr, MARK_RGB);
		cairo_move_to(cr, x[n + 1] + 4, y + 4);
		cairo_line_to(cr, x[n + 1] + 14, y + 4);
		cairo_line_to(cr, x[n + 1] + 9, y + 12);
		cairo_close_path(cr);
		cairo_fill(cr);
		set_rgb(cr, 20, 20, 20);
		text(cr, x[n + 1] + 18, y + 13, marks);
	}
	for (size_t k = 0; k < LINK_ITEMS; k++) {
		double y, xs, rgb[3];

		if (!link_shown(v, k))
			continue;	/* not placed */
		y = y0 + line[n + 2 + k] * LEGEND_LINE_H;
		xs = x[n + 2 + k];
		if (k == 0) {	/* an arrow down, as analysis-links.c draws them */
			lttv_arrow_rgb(rgb);
			cairo_set_source_rgb(cr, rgb[0], rgb[1], rgb[2]);
			cairo_set_line_width(cr, 1);
			cairo_move_to(cr, xs + 7.5, y + 2);
			cairo_line_to(cr, xs + 7.5, y + 10);
			cairo_stroke(cr);
			cairo_move_to(cr, xs + 7.5, y + 15);
			cairo_line_to(cr, xs + 4, y + 9);
			cairo_line_to(cr, xs + 11, y + 9);
			cairo_close_path(cr);
			cairo_fill(cr);
		} else {	/* the path's thick line */
			lttv_path_rgb((unsigned)k - 1, rgb);
			cairo_set_source_rgb(cr, rgb[0], rgb[1], rgb[2]);
			cairo_rectangle(cr, xs, y + LEGEND_LINE_H / 2 - 2, 14, 4);
			cairo_fill(cr);
		}
		set_rgb(cr, 20, 20, 20);
		text(cr, xs + 18, y + 13, link_label(k));
	}
}

static void row_text(cairo_t *cr, const lttv_view *v, const lttv_layout *l,
		     const lttv_row *row, double y)
{
	const ltt_state *st = ltt_state_index_state(v->doc->view);
	char buf[LTTV_NUM_COLS][64], *label;	/* label: names from the trace, shown safely */
	double base = y + ROW_H - 6;

	set_rgb(cr, 20, 20, 20);
	if (row->type == LTT_STATE_ROW_PROCESS) {
		ltt_state_process_info p;

		if (ltt_state_process(st, row->index, &p) < 0)
			return;
		/* in the tree, indented by its depth (at most half the column) */
		double indent = MIN(row->depth * TREE_INDENT, proc_cols[0] / 2.0);

		text_in(cr, l->col_x[0] + indent, base, proc_cols[0] - indent,
			*p.name ? ltt_text_safe(p.name) : "-");
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
		label = g_strdup_printf("IRQ %u %s", q.id, ltt_text_safe(q.name));
		text_in(cr, 0, base, l->col_x[1], label);
		g_free(label);
	} else {
		ltt_state_softirq_info q;

		if (ltt_state_softirq(st, row->index, &q) < 0)
			return;
		label = g_strdup_printf("softirq %u %s", q.id, ltt_text_safe(q.name));
		text_in(cr, 0, base, l->col_x[1], label);
		g_free(label);
	}
}

/* Bookmarks: a green line at each (a band to the end of a range), named
 * in the ruler. */
static void draw_bookmarks(cairo_t *cr, const lttv_view *v, const lttv_layout *l)
{
	for (unsigned i = 0; i < v->nbookmarks; i++) {
		const lttv_bookmark *b = &v->bookmarks[i];
		double x0, x1;

		if (b->t1 < v->t0 || b->t0 > v->t1)
			continue;
		x0 = floor(lttv_time_to_x(v, l, MAX(b->t0, v->t0))) + 0.5;
		x1 = floor(lttv_time_to_x(v, l, MIN(b->t1, v->t1))) + 0.5;
		if (x1 > x0 + 1) {
			cairo_set_source_rgba(cr, 0.0, 0.6, 0.2, 0.12);
			cairo_rectangle(cr, x0, l->header_h, x1 - x0, l->height - l->legend_h -
					l->header_h);
			cairo_fill(cr);
		}
		set_rgb(cr, 0, 150, 50);
		cairo_move_to(cr, x0, l->header_h - 14);
		cairo_line_to(cr, x0, l->height - l->legend_h);
		cairo_stroke(cr);
		text(cr, x0 + 3, l->header_h - 16, b->label);
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
	unsigned drawn = 0;		/* the kinds drawn, for the legend */

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
			snprintf(buf, sizeof(buf), "%s%s%s", proc_titles[c],
				 c == 0 && v->doc->tree ? " (tree)" : "",
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
		bar_ctx b = { cr, v, &l, y, v->rows[r].type, 0, &drawn };
		ltt_state_process_info pi;

		if (v->rows[r].type == LTT_STATE_ROW_PROCESS &&
		    ltt_state_process(ltt_state_index_state(v->doc->view), v->rows[r].index,
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
		ltt_state_index_intervals(v->doc->view, v->rows[r].type, v->rows[r].index,
					  v->t0, v->t1, res > 0 ? res : 1, draw_interval, &b);
		if (v->doc->marks) {
			mark_ctx m = { cr, v, &l, y + 1, 0 };

			lttv_marks_each(v->doc->marks, v->rows[r].type, v->rows[r].index,
					v->t0, v->t1, res > 0 ? res : 1, draw_mark, &m);
			set_rgb(cr, MARK_RGB);
			cairo_fill(cr);
		}
		cairo_restore(cr);
		/* a row the filter matches nothing on, in the whole trace: faded */
		if (v->doc->marks && (v->rows[r].type == LTT_STATE_ROW_PROCESS ||
		     v->rows[r].type == LTT_STATE_ROW_CPU) &&
		    !lttv_marks_count(v->doc->marks, v->rows[r].type, v->rows[r].index)) {
			cairo_set_source_rgba(cr, 1, 1, 1, 0.6);
			cairo_rectangle(cr, 0, y, width, ROW_H);
			cairo_fill(cr);
		}
	}
	cairo_restore(cr);
	/* wakeup arrows and the critical path, over the rows (analysis-links.c) */
	if (v->analysis && !v->resources && (v->arrows || v->critical))
		lttv_draw_links(cr, v, &l);
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
	draw_bookmarks(cr, v, &l);
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
		draw_legend(cr, v, &l, drawn);
	cairo_restore(cr);
}

/* A dark band, the trace's name in bold white: it reads as the start of
 * another trace, not as one more row. */
void lttv_draw_group_header(cairo_t *cr, const char *title, int width)
{
	cairo_save(cr);
	set_rgb(cr, 60, 70, 90);
	cairo_rectangle(cr, 0, 0, width, LTTV_GROUP_H);
	cairo_fill(cr);
	cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL,
			       CAIRO_FONT_WEIGHT_BOLD);
	cairo_set_font_size(cr, FONT_SIZE + 2);
	set_rgb(cr, 255, 255, 255);
	text_in(cr, 4, LTTV_GROUP_H - 8, width - 4, title);
	cairo_restore(cr);
}
