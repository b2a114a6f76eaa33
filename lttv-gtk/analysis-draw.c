/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * analysis-draw.c - the Analyses tab, drawn with cairo only (the window and
 * --export --view analyses call the same lttv_analysis_draw()), four
 * panels over the visible time range, top to bottom:
 *
 *   event density   events per slice of the trace (LTTV's event-rate
 *                   histogram), bars scaled to the busiest visible slice
 *   CPU usage       each CPU's busy share per few pixels, 0..100 %
 *   latency scatter each occurrence of the chosen kind (system calls,
 *                   waits for a CPU, IRQs, softirqs, file I/O) at its
 *                   start time and duration, on a log scale; the 8 names
 *                   with the most time in their own colours
 *   latency histogram  the same occurrences by duration, base-2 buckets
 *                   (the ones lttv-text --histogram prints)
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "lttv-gtk.h"

#define LEFT 80
#define RIGHT 12
#define TITLE_H 18
#define GAP 10
#define NCOLOURS 8
#define KEY_H 18	/* the scatter's key, a band above its points */
#define AXIS_H 16	/* the time axis' labels, under the scatter */

static const double palette[NCOLOURS][3] = {
	{ 0.12, 0.47, 0.71 }, { 1.00, 0.50, 0.05 }, { 0.17, 0.63, 0.17 },
	{ 0.84, 0.15, 0.16 }, { 0.58, 0.40, 0.74 }, { 0.55, 0.34, 0.29 },
	{ 0.89, 0.47, 0.76 }, { 0.09, 0.75, 0.81 },
};

void lttv_alayout_get(const lttv_aview *v, int width, int height, lttv_alayout *l)
{
	int free_h;

	memset(l, 0, sizeof(*l));
	l->x0 = LEFT;
	l->x1 = width - RIGHT;
	l->dens_y = TITLE_H;
	l->dens_h = 70;
	l->cpu_y = l->dens_y + l->dens_h + GAP + TITLE_H;
	l->cpu_h = 70;
	l->sc_y = l->cpu_y + l->cpu_h + GAP + TITLE_H;
	free_h = height - l->sc_y - 2 * GAP - TITLE_H - 16 - AXIS_H;
	if (free_h < 120)
		free_h = 120;
	l->sc_h = free_h * 3 / 5;
	l->plot_y = l->sc_y + KEY_H + 4;
	l->axis_y = l->sc_y + l->sc_h + AXIS_H - 3;
	l->hist_y = l->sc_y + l->sc_h + AXIS_H + GAP + TITLE_H;
	l->hist_h = free_h - l->sc_h;
	/* durations from 1 us (or less) to the longest, as powers of ten */
	l->lmin = 2.0;		/* 100 ns */
	l->lmax = 3.0;
	if (v->an) {
		ltt_latency *longest;
		uint64_t most = 1;

		if (ltt_analysis_longest(v->an, v->kind, INT64_MIN, INT64_MAX, 1, &longest) &&
		    longest[0].duration_ns > most)
			most = longest[0].duration_ns;
		free(longest);
		l->lmax = ceil(log10((double)most));
		if (l->lmax <= l->lmin)
			l->lmax = l->lmin + 1;
	}
}

int lttv_anatural_height(void)
{
	return 720;
}

double lttv_ax_of(const lttv_aview *v, const lttv_alayout *l, int64_t t)
{
	return l->x0 + (double)(t - v->t0) / (double)(v->t1 - v->t0) * (l->x1 - l->x0);
}

static double y_of_duration(const lttv_alayout *l, uint64_t ns)
{
	double lv = log10(ns ? (double)ns : 1.0), h = l->sc_y + l->sc_h - 4 - l->plot_y;

	if (lv < l->lmin)
		lv = l->lmin;
	return l->sc_y + l->sc_h - 4 - (lv - l->lmin) / (l->lmax - l->lmin) * h;
}

static void text(cairo_t *cr, double x, double y, const char *s, double size)
{
	cairo_set_font_size(cr, size);
	cairo_move_to(cr, x, y);
	cairo_show_text(cr, s);
}

unsigned lttv_aaxis_ticks(const lttv_aview *v, const lttv_alayout *l, int64_t *t,
			  char (*label)[32], unsigned max)
{
	double span = (double)(v->t1 - v->t0), px = l->x1 - l->x0, step = 1;
	int64_t origin = v->doc ? v->doc->origin_ns : 0, first, k;
	unsigned n = 0;
	int decimals;

	if (span <= 0 || px <= 0)
		return 0;
	/* the smallest 1, 2, 5 x 10^k ns at least 90 pixels apart */
	while (step / span * px < 90) {
		double d = step;

		step = d * 2;
		if (step / span * px >= 90)
			break;
		step = d * 5;
		if (step / span * px >= 90)
			break;
		step = d * 10;
	}
	decimals = step >= 1e9 ? 0 : (int)ceil(9 - log10(step) - 1e-9);
	first = (int64_t)ceil((double)(v->t0 - origin) / step);
	for (k = first; n < max; k++) {
		int64_t rel = (int64_t)((double)k * step);

		if (origin + rel > v->t1)
			break;
		t[n] = origin + rel;
		snprintf(label[n], sizeof(label[n]), "%.*f", decimals, rel / 1e9);
		n++;
	}
	return n;
}

/* The time axis: faint lines through the time panels, labels under the
 * scatter (seconds from the trace's start). */
static void draw_axis(cairo_t *cr, const lttv_aview *v, const lttv_alayout *l)
{
	int64_t t[64];
	char label[64][32];
	unsigned n = lttv_aaxis_ticks(v, l, t, label, 64);
	const int panels[3][2] = { { l->dens_y, l->dens_h }, { l->cpu_y, l->cpu_h },
				   { l->plot_y, l->sc_y + l->sc_h - l->plot_y } };

	cairo_set_line_width(cr, 1);
	for (unsigned i = 0; i < n; i++) {
		double x = floor(lttv_ax_of(v, l, t[i])) + 0.5;
		cairo_text_extents_t e;

		cairo_set_source_rgba(cr, 0.4, 0.4, 0.4, 0.35);
		for (int p = 0; p < 3; p++) {
			cairo_move_to(cr, x, panels[p][0] + 1);
			cairo_line_to(cr, x, panels[p][0] + panels[p][1] - 1);
		}
		cairo_stroke(cr);
		cairo_set_source_rgb(cr, 0, 0, 0);
		cairo_set_font_size(cr, 10);
		cairo_text_extents(cr, label[i], &e);
		text(cr, fmin(fmax(x - e.x_advance / 2, l->x0), l->x1 - e.x_advance), l->axis_y,
		     label[i], 10);
	}
	text(cr, 4, l->axis_y, "time (s)", 10);
}

void lttv_analysis_describe(const lttv_aview *v, const ltt_latency *o, char *buf,
			    size_t size)
{
	ltt_state_process_info pi;
	char d[32], who[96] = "?";
	double from = (o->start_ns - (v->doc ? v->doc->origin_ns : 0)) / 1e9;

	if (o->process >= 0 &&
	    ltt_state_process(ltt_analysis_state(v->an), (unsigned)o->process, &pi) == 0)
		snprintf(who, sizeof(who), "%u %s", pi.pid, *pi.name ? ltt_text_safe(pi.name) : "-");
	lttv_format_short(o->duration_ns, d, sizeof(d));
	if (v->kind == LTT_LATENCY_SCHED)
		snprintf(buf, size, "%s: waited %s for a CPU, from %.9f s", who, d, from);
	else
		snprintf(buf, size, "%s: %s %s, %s, from %.9f s", who,
			 ltt_latency_kind_name(v->kind),
			 ltt_text_safe(ltt_analysis_id_name(v->an, v->kind, o->id)),
			 d, from);
}

static void frame(cairo_t *cr, const lttv_alayout *l, int y, int h, const char *title)
{
	cairo_set_source_rgb(cr, 0.97, 0.97, 0.97);
	cairo_rectangle(cr, l->x0, y, l->x1 - l->x0, h);
	cairo_fill(cr);
	cairo_set_source_rgb(cr, 0.6, 0.6, 0.6);
	cairo_set_line_width(cr, 1);
	cairo_rectangle(cr, l->x0 + 0.5, y + 0.5, l->x1 - l->x0 - 1, h - 1);
	cairo_stroke(cr);
	cairo_set_source_rgb(cr, 0, 0, 0);
	text(cr, l->x0, y - 5, title, 12);
}

/* The ids with the most time in range, most first: their colours. */
static unsigned top_ids(const lttv_aview *v, uint32_t ids[NCOLOURS])
{
	ltt_latency_group *g;
	unsigned n = ltt_analysis_groups(v->an, v->kind,
					 v->kind == LTT_LATENCY_SCHED ? LTT_GROUP_PROCESS
								      : LTT_GROUP_ID,
					 v->t0, v->t1, &g), m = n < NCOLOURS ? n : NCOLOURS;

	for (unsigned i = 0; i < m; i++)
		ids[i] = v->kind == LTT_LATENCY_SCHED ? (uint32_t)g[i].process : g[i].id;
	free(g);
	return m;
}

static int colour_of(const lttv_aview *v, const ltt_latency *o, const uint32_t *ids,
		     unsigned nids)
{
	uint32_t key = v->kind == LTT_LATENCY_SCHED ? (uint32_t)o->process : o->id;

	for (unsigned i = 0; i < nids; i++)
		if (ids[i] == key)
			return (int)i;
	return -1;
}

static const char *label_of(const lttv_aview *v, uint32_t key, char *buf, size_t size)
{
	ltt_state_process_info pi;

	if (v->kind != LTT_LATENCY_SCHED)
		return ltt_text_safe(ltt_analysis_id_name(v->an, v->kind, key));
	if (ltt_state_process(ltt_analysis_state(v->an), key, &pi) < 0)
		return "?";
	snprintf(buf, size, "%u %s", pi.pid, ltt_text_safe(pi.name));
	lttv_utf8_cut(buf);
	return buf;
}

static void draw_density(cairo_t *cr, const lttv_aview *v, const lttv_alayout *l,
			 lttv_adraw_stats *ds)
{
	const uint64_t *bins = lttv_adata_density(v->data);
	const lttv_doc *d = v->doc;
	unsigned b0 = lttv_density_bin(d, v->t0), b1 = lttv_density_bin(d, v->t1);
	uint64_t most = 1;
	double span = (double)(d->end_ns - d->start_ns);
	char buf[64];

	frame(cr, l, l->dens_y, l->dens_h, "event density (events per 1/1024 of the trace)");
	for (unsigned b = b0; b <= b1; b++)
		if (bins[b] > most)
			most = bins[b];
	cairo_set_source_rgb(cr, 0.25, 0.35, 0.6);
	for (unsigned b = b0; b <= b1; b++) {
		int64_t ta = d->start_ns + (int64_t)(span * b / LTTV_DENSITY_BINS);
		int64_t tb = d->start_ns + (int64_t)(span * (b + 1) / LTTV_DENSITY_BINS);
		double xa = fmax(lttv_ax_of(v, l, ta), l->x0), xb = fmin(lttv_ax_of(v, l, tb), l->x1);
		double h = (double)bins[b] / (double)most * (l->dens_h - 4);

		ds->density_events += bins[b];
		if (!bins[b])
			continue;
		if (xb - xa < 1)
			xb = xa + 1;
		cairo_rectangle(cr, xa, l->dens_y + l->dens_h - h, xb - xa, h);
	}
	cairo_fill(cr);
	cairo_set_source_rgb(cr, 0, 0, 0);
	snprintf(buf, sizeof(buf), "%" PRIu64, most);
	text(cr, 4, l->dens_y + 12, buf, 10);
	text(cr, 4, l->dens_y + l->dens_h, "0", 10);
}

static void draw_cpu(cairo_t *cr, const lttv_aview *v, const lttv_alayout *l)
{
	unsigned ncpus = ltt_state_num_cpus(ltt_analysis_state(v->an));
	int step = 4;

	frame(cr, l, l->cpu_y, l->cpu_h, "CPU usage (% busy)");
	cairo_set_source_rgb(cr, 0, 0, 0);
	text(cr, 4, l->cpu_y + 12, "100 %", 10);
	text(cr, 4, l->cpu_y + l->cpu_h, "0 %", 10);
	for (unsigned c = 0; c < ncpus; c++) {
		const double *rgb = palette[c % NCOLOURS];
		char buf[32];

		cairo_set_source_rgb(cr, rgb[0], rgb[1], rgb[2]);
		cairo_set_line_width(cr, 1.5);
		for (int x = l->x0; x < l->x1; x += step) {
			int64_t ta = v->t0 + (int64_t)((double)(x - l->x0) / (l->x1 - l->x0) *
						       (double)(v->t1 - v->t0));
			int64_t tb = v->t0 + (int64_t)((double)(x + step - l->x0) / (l->x1 - l->x0) *
						       (double)(v->t1 - v->t0));
			double share = tb > ta ? (double)ltt_analysis_cpu_busy_ns(v->an, c, ta, tb) /
						 (double)(tb - ta) : 0;
			double y = l->cpu_y + l->cpu_h - 1 - share * (l->cpu_h - 3);

			if (x == l->x0)
				cairo_move_to(cr, x, y);
			else
				cairo_line_to(cr, x + step / 2.0, y);
		}
		cairo_stroke(cr);
		snprintf(buf, sizeof(buf), "cpu %u", c);
		text(cr, l->x1 - 50.0 * (ncpus - c), l->cpu_y - 5, buf, 11);
	}
}

typedef struct scatter {
	cairo_t *cr;
	const lttv_aview *v;
	const lttv_alayout *l;
	uint32_t ids[NCOLOURS];
	unsigned nids;
	lttv_adraw_stats *ds;
} scatter;

/* One point of the scatter (ltt_analysis_each). */
static int draw_point(const ltt_latency *o, void *data)
{
	scatter *sc = data;
	int c = colour_of(sc->v, o, sc->ids, sc->nids);
	double x, y;

	if (c >= 0)
		cairo_set_source_rgb(sc->cr, palette[c][0], palette[c][1], palette[c][2]);
	else
		cairo_set_source_rgb(sc->cr, 0.55, 0.55, 0.55);
	x = floor(lttv_ax_of(sc->v, sc->l, o->start_ns));
	y = floor(y_of_duration(sc->l, o->duration_ns));
	cairo_rectangle(sc->cr, x - 1, y - 1, 3, 3);
	cairo_fill(sc->cr);
	sc->ds->points++;
	return 0;
}

static void draw_scatter(cairo_t *cr, const lttv_aview *v, const lttv_alayout *l,
			 lttv_adraw_stats *ds)
{
	scatter sc = { cr, v, l, { 0 }, 0, ds };
	uint32_t *ids = sc.ids;
	unsigned nids = sc.nids = top_ids(v, ids);
	char buf[96], title[128];

	snprintf(title, sizeof(title), "latency of each %s: start time, duration (log scale); "
		 "click one to go to it", ltt_latency_kind_name(v->kind));
	frame(cr, l, l->sc_y, l->sc_h, title);
	cairo_set_source_rgb(cr, 0, 0, 0);
	for (double e = l->lmin; e <= l->lmax; e += 1) {
		double y = y_of_duration(l, (uint64_t)pow(10, e));

		lttv_format_short((uint64_t)pow(10, e), buf, sizeof(buf));
		text(cr, 4, y + 4, buf, 10);
		cairo_set_source_rgb(cr, 0.85, 0.85, 0.85);
		cairo_move_to(cr, l->x0, floor(y) + 0.5);
		cairo_line_to(cr, l->x1, floor(y) + 0.5);
		cairo_stroke(cr);
		cairo_set_source_rgb(cr, 0, 0, 0);
	}
	ltt_analysis_each(v->an, v->kind, v->t0, v->t1, draw_point, &sc);
	if (v->selected) {
		double x = lttv_ax_of(v, l, v->selected->start_ns);
		double y = y_of_duration(l, v->selected->duration_ns);

		cairo_set_source_rgb(cr, 0.9, 0, 0);
		cairo_set_line_width(cr, 2);
		cairo_arc(cr, x, y, 6, 0, 2 * M_PI);
		cairo_stroke(cr);
	}
	/* the key: the ids in colour, in a band of its own above the points */
	cairo_set_source_rgb(cr, 0.8, 0.8, 0.8);
	cairo_move_to(cr, l->x0, l->sc_y + KEY_H + 0.5);
	cairo_line_to(cr, l->x1, l->sc_y + KEY_H + 0.5);
	cairo_stroke(cr);
	for (unsigned i = 0; i < nids; i++) {
		cairo_set_source_rgb(cr, palette[i][0], palette[i][1], palette[i][2]);
		cairo_rectangle(cr, l->x0 + 6 + 130.0 * i, l->sc_y + 6, 8, 8);
		cairo_fill(cr);
		cairo_set_source_rgb(cr, 0, 0, 0);
		text(cr, l->x0 + 18 + 130.0 * i, l->sc_y + 14, label_of(v, ids[i], buf, sizeof(buf)), 10);
	}
}

static void draw_histogram(cairo_t *cr, const lttv_aview *v, const lttv_alayout *l,
			   lttv_adraw_stats *ds)
{
	ltt_latency_group *g;
	unsigned n = ltt_analysis_groups(v->an, v->kind, LTT_GROUP_ALL, v->t0, v->t1, &g);
	unsigned lo = 0, hi = 0;
	uint64_t most = 1;
	char buf[128];

	snprintf(buf, sizeof(buf), "histogram of %s latency (base-2 buckets)",
		 ltt_latency_kind_name(v->kind));
	frame(cr, l, l->hist_y, l->hist_h, buf);
	if (n) {
		const ltt_latency_stats *s = g[0].stats;
		double w;

		lo = LTT_LATENCY_HIST_BUCKETS;
		for (unsigned b = 0; b < LTT_LATENCY_HIST_BUCKETS; b++)
			if (s->hist[b]) {
				lo = lo < b ? lo : b;
				hi = b;
				most = s->hist[b] > most ? s->hist[b] : most;
			}
		w = (double)(l->x1 - l->x0 - 8) / (hi - lo + 1);
		for (unsigned b = lo; b <= hi; b++) {
			double h = (double)s->hist[b] / (double)most * (l->hist_h - 30);
			double x = l->x0 + 4 + w * (b - lo);

			ds->hist[b] = s->hist[b];
			cairo_set_source_rgb(cr, 0.25, 0.35, 0.6);
			cairo_rectangle(cr, x + 1, l->hist_y + l->hist_h - 16 - h, w - 2, h);
			cairo_fill(cr);
			cairo_set_source_rgb(cr, 0, 0, 0);
			lttv_format_short(b ? (uint64_t)1 << b : 0, buf, sizeof(buf));
			text(cr, x + 2, l->hist_y + l->hist_h - 4, buf, 9);
			if (s->hist[b]) {
				snprintf(buf, sizeof(buf), "%" PRIu64, s->hist[b]);
				text(cr, x + 2, l->hist_y + l->hist_h - 18 - h, buf, 9);
			}
		}
		snprintf(buf, sizeof(buf), "%" PRIu64 " in range, p50 ", s->count);
		lttv_format_short(s->p50, buf + strlen(buf), sizeof(buf) - strlen(buf));
		strcat(buf, ", p99 ");
		lttv_format_short(s->p99, buf + strlen(buf), sizeof(buf) - strlen(buf));
		strcat(buf, ", max ");
		lttv_format_short(s->max, buf + strlen(buf), sizeof(buf) - strlen(buf));
		text(cr, l->x1 - 330, l->hist_y - 5, buf, 11);
	}
	free(g);
}

void lttv_analysis_draw(cairo_t *cr, const lttv_aview *v, int width, int height,
			lttv_adraw_stats *stats)
{
	lttv_adraw_stats ignored;
	lttv_alayout l;

	if (!stats)
		stats = &ignored;
	memset(stats, 0, sizeof(*stats));
	cairo_set_source_rgb(cr, 1, 1, 1);
	cairo_paint(cr);
	cairo_select_font_face(cr, "sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
	if (!v->an || v->t1 <= v->t0) {
		cairo_set_source_rgb(cr, 0, 0, 0);
		text(cr, 20, 30, v->message ? v->message : "no analysis yet", 14);
		return;
	}
	lttv_alayout_get(v, width, height, &l);
	draw_density(cr, v, &l, stats);
	draw_cpu(cr, v, &l);
	draw_scatter(cr, v, &l, stats);
	draw_axis(cr, v, &l);
	draw_histogram(cr, v, &l, stats);
	if (v->message) {
		cairo_set_source_rgb(cr, 0.7, 0, 0);
		text(cr, l.x0 + 400, 13, v->message, 12);
	}
}

typedef struct hit {
	const lttv_aview *v;
	const lttv_alayout *l;
	double x, y, best_d;
	ltt_latency *best;
	int found;
} hit;

/* The nearest point so far (ltt_analysis_each). */
static int near_point(const ltt_latency *o, void *data)
{
	hit *h = data;
	double dx = lttv_ax_of(h->v, h->l, o->start_ns) - h->x;
	double dy = y_of_duration(h->l, o->duration_ns) - h->y;

	if (dx * dx + dy * dy < h->best_d) {
		h->best_d = dx * dx + dy * dy;
		*h->best = *o;
		h->found = 1;
	}
	return 0;
}

int lttv_analysis_hit(const lttv_aview *v, int width, int height, double x, double y,
		      ltt_latency *out)
{
	lttv_alayout l;
	hit h = { v, &l, x, y, 6 * 6, out, 0 };

	if (!v->an || v->t1 <= v->t0)
		return 0;
	lttv_alayout_get(v, width, height, &l);
	if (y < l.sc_y || y > l.sc_y + l.sc_h || x < l.x0 || x > l.x1)
		return 0;
	/* only the points within 6 pixels of x can be near: their starts,
	 * a narrow range whose blocks the store alone reads */
	{
		double px = (double)(v->t1 - v->t0) / (l.x1 - l.x0);
		int64_t lo = v->t0 + (int64_t)floor((x - 7 - l.x0) * px);
		int64_t hi = v->t0 + (int64_t)ceil((x + 7 - l.x0) * px);

		ltt_analysis_each(v->an, v->kind, lo > v->t0 ? lo : v->t0, hi < v->t1 ? hi : v->t1,
				  near_point, &h);
	}
	return h.found;
}

int lttv_same_occurrence(const ltt_latency *x, const ltt_latency *y)
{
	return x->start_ns == y->start_ns && x->duration_ns == y->duration_ns &&
	       x->process == y->process && x->cpu == y->cpu && x->id == y->id;
}

int lttv_parse_latency_kind(const char *s, ltt_latency_kind *k)
{
	for (unsigned i = 0; i < LTT_LATENCY_NUM_KINDS; i++)
		if (!strcmp(s, ltt_latency_kind_name((ltt_latency_kind)i))) {
			*k = (ltt_latency_kind)i;
			return 0;
		}
	return -1;
}
