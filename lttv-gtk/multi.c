/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * multi.c - lttv-gtk --export --side-by-side: traces compared, not merged. Each
 * trace is opened as its own doc (its own state index: pid 52 of run A
 * and pid 52 of run B are two rows), its rows drawn as a group under a
 * band naming it, the groups one under the other on one time axis.
 *
 * The shared axis: each trace's first event at 0 ("align starts": two
 * runs started minutes or boots apart line up), then --offset N:SECONDS
 * moves trace N by SECONDS. A time T of the axis is, in trace i, the wall
 * time origin_i + T with origin_i = first event_i - offset_i; each doc's
 * origin_ns is set so, and its ruler, birth column and --range read T.
 *
 * --layout prints, besides the picture:
 *   sidebyside groups=2 x0=416 x1=1200 t0=T0 t1=T1       (axis times, ns)
 *   group G y=Y rows=K offset=NS trace=DIR
 *   row R group=G y=Y process pid=52 name=cat first=T x=X
 * first: the row's first change of state on the axis (ns; "-" if none),
 * x: where it is drawn. The window draws the same groups (compare.c):
 * its first trace in the control flow, the others through lttv_group_*.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lttv-gtk.h"

int lttv_parse_offsets(char *const *specs, unsigned ntraces, int64_t *offsets,
		       char **error)
{
	char *given = g_new0(char, ntraces + 1);

	memset(offsets, 0, ntraces * sizeof(*offsets));
	for (unsigned s = 0; specs && specs[s]; s++) {
		const char *spec = specs[s], *colon = strchr(spec, ':'), *secs;
		char *end;
		unsigned long n;
		int64_t ns;

		errno = 0;
		n = strtoul(spec, &end, 10);
		if (!colon || end != colon || !g_ascii_isdigit(*spec) || errno) {
			*error = g_strdup_printf("--offset N:SECONDS (N: which -t, from 1; e.g. "
						 "2:+1.25 or 2:-0.5), not \"%s\"", spec);
			g_free(given);
			return -1;
		}
		secs = colon + 1 + (colon[1] == '+');	/* "+1.25": the sign, once */
		if (ltt_parse_seconds(secs, &ns) < 0 || (secs > colon + 1 && *secs == '-') ||
		    ns > LTTV_OFFSET_MAX || ns < -LTTV_OFFSET_MAX) {
			*error = g_strdup_printf("--offset %s: \"%s\" is not a number of seconds "
						 "(within 13 days), e.g. +1.25 or -0.5", spec,
						 colon + 1);
			g_free(given);
			return -1;
		}
		if (n < 1 || n > ntraces) {
			*error = g_strdup_printf("--offset %s: there is no trace %lu (%u given "
						 "with -t, counted from 1)", spec, n, ntraces);
			g_free(given);
			return -1;
		}
		if (given[n - 1]++) {
			*error = g_strdup_printf("--offset %s: trace %lu has an offset already",
						 spec, n);
			g_free(given);
			return -1;
		}
		offsets[n - 1] = ns;
	}
	g_free(given);
	return 0;
}

/* Opens trace i (from 0) of a comparison as group g, not indexed yet. */
int lttv_group_open(lttv_group *g, unsigned i, const char *path, int64_t offset,
		    char **error)
{
	const char *one[1] = { path };

	memset(g, 0, sizeof(*g));
	g->offset = offset;
	g->doc = lttv_doc_open(one, 1, error);	/* the message names the trace */
	if (!g->doc)
		return -1;
	g->title = lttv_group_place(g->doc, i, offset);
	return 0;
}

char *lttv_group_place(lttv_doc *d, unsigned i, int64_t offset)
{
	char *base, *title, sign = offset < 0 ? '-' : '+', lost[96] = "";
	uint64_t mag = offset < 0 ? (uint64_t)-offset : (uint64_t)offset;

	d->origin_ns = d->start_ns - offset;
	if (d->events_lost || d->corrupted)	/* the window draws no legend */
		snprintf(lost, sizeof(lost), "   %" PRIu64 " events lost, %" PRIu64
			 " sub-buffers corrupted", d->events_lost, d->corrupted);
	base = g_filename_display_basename(d->paths[0]);
	title = g_strdup_printf("trace %u: %s   (first event at %c%" PRIu64 ".%09" PRIu64
				" s)%s", i + 1, base, sign, mag / 1000000000, mag % 1000000000,
				lost);
	g_free(base);
	return title;
}

int lttv_group_index(lttv_group *g, atomic_int *stop, char **error)
{
	ltt_error *err = NULL;
	int r;

	while ((r = ltt_state_index_run(g->doc->idx, 1 << 20, &err)) > 0)
		if (stop && atomic_load(stop))
			return -1;
	lttv_doc_report_warnings(g->doc);
	if (r < 0) {
		*error = g_strdup_printf("%s: %s", g->doc->path, ltt_error_message(err));
		ltt_error_free(err);
		return -1;
	}
	return 0;
}

void lttv_group_rows(lttv_group *g, int width)
{
	g_free(g->rows);
	g->v.doc = g->doc;
	g->v.nrows = lttv_doc_rows(g->doc, g->v.resources, &g->rows);
	g->v.rows = g->rows;
	g->height = LTTV_GROUP_H + lttv_natural_height(&g->v, width);
}

void lttv_group_axis(lttv_group *g, int64_t t0, int64_t t1, int64_t cursor_a,
		     int64_t cursor_b)
{
	int64_t o = g->doc->origin_ns;

	g->v.t0 = o + t0;
	g->v.t1 = o + t1;
	g->v.cursor_a = cursor_a == INT64_MIN ? INT64_MIN : o + cursor_a;
	g->v.cursor_b = cursor_b == INT64_MIN ? INT64_MIN : o + cursor_b;
}

void lttv_group_paint(cairo_t *cr, const lttv_group *g, int width)
{
	cairo_save(cr);
	cairo_translate(cr, 0, g->y);
	lttv_draw_group_header(cr, g->title, width);
	/* lttv_draw() paints its whole clip white: the band is outside */
	cairo_rectangle(cr, 0, LTTV_GROUP_H, width, g->height - LTTV_GROUP_H);
	cairo_clip(cr);
	cairo_translate(cr, 0, LTTV_GROUP_H);
	lttv_draw(cr, &g->v, width, g->height - LTTV_GROUP_H);
	cairo_restore(cr);
}

void lttv_group_free(lttv_group *g)
{
	g_free(g->rows);
	g_free(g->title);
	lttv_doc_free(g->doc);
	memset(g, 0, sizeof(*g));
}

typedef struct first_change {
	int n;
	ltt_state_kind kind;
	int64_t at;
} first_change;

static void on_interval(void *user, int64_t s, int64_t e, ltt_state_kind k)
{
	first_change *f = user;

	if (f->n++ == 0)
		f->kind = k;
	else if (f->at == INT64_MIN && k != f->kind)
		f->at = s;
}

void lttv_group_print_axis(const lttv_view *v, int width, int height, unsigned ngroups)
{
	lttv_layout l;

	lttv_layout_get(v, width, height, &l);
	printf("sidebyside groups=%u x0=%d x1=%d t0=%" PRId64 " t1=%" PRId64 "\n", ngroups,
	       l.x0, l.x1, v->t0 - v->doc->origin_ns, v->t1 - v->doc->origin_ns);
}

void lttv_group_print(const lttv_group *g, unsigned i, int width, int height, int y_rows)
{
	const ltt_state *st = ltt_state_index_state(g->doc->view);
	lttv_layout l;

	lttv_layout_get(&g->v, width, height, &l);
	printf("group %u y=%d rows=%u offset=%" PRId64 " trace=%s\n", i, y_rows - LTTV_GROUP_H,
	       g->v.nrows, g->offset, g->doc->path);
	for (unsigned r = 0; r < g->v.nrows; r++) {
		first_change f = { 0, 0, INT64_MIN };

		printf("row %u group=%u y=%d ", r, i,
		       y_rows + l.y0 + ((int)r - (int)g->v.first_row) * l.row_h);
		lttv_print_row(st, &g->v.rows[r]);
		ltt_state_index_intervals(g->doc->view, g->v.rows[r].type, g->v.rows[r].index,
					  g->doc->start_ns, g->doc->end_ns, 1, on_interval, &f);
		if (f.at == INT64_MIN)
			printf(" first=- x=-\n");
		else
			printf(" first=%" PRId64 " x=%.1f\n", f.at - g->doc->origin_ns,
			       lttv_time_to_x(&g->v, &l, f.at));
	}
}

int lttv_axis_range(const char *range, int64_t *t0, int64_t *t1, char **error)
{
	int64_t a, b;

	if (lttv_parse_range(range, 0, &a, &b) < 0 || b <= *t0 || a >= *t1) {
		*error = g_strdup_printf("--range A..B in seconds of the shared axis (each "
					 "trace's first event at 0, then its --offset), within "
					 "%.9f .. %.9f, not \"%s\"", *t0 / 1e9, *t1 / 1e9, range);
		return -1;
	}
	*t0 = MAX(a, *t0 - LTTV_OFFSET_MAX);	/* as --range is without it */
	*t1 = MIN(b, *t1 + LTTV_OFFSET_MAX);
	return 0;
}

typedef struct groups {
	lttv_group *g;
	unsigned n;
	int width;
} groups;

static void paint_groups(cairo_t *cr, void *user)
{
	const groups *gs = user;

	cairo_set_source_rgb(cr, 1, 1, 1);
	cairo_paint(cr);
	for (unsigned i = 0; i < gs->n; i++)
		lttv_group_paint(cr, &gs->g[i], gs->width);
}

static void print_groups(const groups *gs)
{
	lttv_group_print_axis(&gs->g[0].v, gs->width, gs->g[0].height - LTTV_GROUP_H, gs->n);
	for (unsigned i = 0; i < gs->n; i++)
		lttv_group_print(&gs->g[i], i, gs->width, gs->g[i].height - LTTV_GROUP_H,
				 gs->g[i].y + LTTV_GROUP_H);
}

static void free_groups(groups *gs)
{
	for (unsigned i = 0; i < gs->n; i++)
		lttv_group_free(&gs->g[i]);
	g_free(gs->g);
}

/* Opens and indexes trace i as group i: 0; 1, a read error said on
 * stderr; 2, FILE is one of the trace's (said). */
static int open_group(groups *gs, unsigned i, const char *path, int64_t offset,
		      const char *file)
{
	lttv_group *g = &gs->g[i];
	char *error = NULL;

	if (lttv_group_open(g, i, path, offset, &error) < 0) {
		fprintf(stderr, "lttv-gtk: %s\n", error);
		g_free(error);
		return 1;
	}
	gs->n = i + 1;			/* freed by free_groups() whatever happens */
	if (lttv_doc_output_is_input(g->doc, "--export", file))
		return 2;
	if (lttv_group_index(g, NULL, &error) < 0) {
		fprintf(stderr, "lttv-gtk: %s\n", error);
		g_free(error);
		return 1;
	}
	return 0;
}

int lttv_export_side_by_side(const char *const *traces, unsigned ntraces,
			     char *const *offsets, const char *file, const char *range,
			     const char *view_name, const char *size, int layout)
{
	int64_t *off = g_new0(int64_t, ntraces + 1), t0 = INT64_MAX, t1 = INT64_MIN;
	groups gs = { g_new0(lttv_group, ntraces + 1), 0, 1200 };
	int height = 0, svg, rc = 0, y = 0;
	char *error = NULL;

	if (view_name && strcmp(view_name, "controlflow") && strcmp(view_name, "resources")) {
		fprintf(stderr, "lttv-gtk: --side-by-side shows controlflow or resources, not "
			"\"%s\"\n", view_name);
		rc = 2;
	} else if (lttv_size_arg(size, &gs.width, &height) < 0 ||
		   (svg = lttv_export_kind(file)) < 0) {
		rc = 2;
	} else if (lttv_parse_offsets(offsets, ntraces, off, &error) < 0) {
		fprintf(stderr, "lttv-gtk: %s\n", error);
		rc = 2;
	}
	for (unsigned i = 0; rc == 0 && i < ntraces; i++)
		rc = open_group(&gs, i, traces[i], off[i], file);
	if (rc)
		goto out;
	/* the axis: from the earliest first event to the latest last one */
	for (unsigned i = 0; i < gs.n; i++) {
		const lttv_doc *d = gs.g[i].doc;

		t0 = MIN(t0, d->start_ns - d->origin_ns);
		t1 = MAX(t1, d->end_ns - d->origin_ns);
	}
	if (range && lttv_axis_range(range, &t0, &t1, &error) < 0) {
		fprintf(stderr, "lttv-gtk: %s\n", error);
		rc = 2;
		goto out;
	}
	for (unsigned i = 0; i < gs.n; i++) {
		lttv_group *g = &gs.g[i];
		lttv_view *v = &g->v;

		v->resources = view_name && !strcmp(view_name, "resources");
		/* a legend per group: its colours in grey where that trace has
		 * none, its losses in its red bar (one legend would say only
		 * the last trace's) */
		v->legend = 1;
		v->selected = -1;
		v->sel_a = v->sel_b = INT64_MIN;
		lttv_group_axis(g, t0, t1, INT64_MIN, INT64_MIN);
		lttv_group_rows(g, gs.width);
		g->y = y;
		y += g->height;
	}
	if (height && height != y)
		fprintf(stderr, "lttv-gtk: warning: --side-by-side draws every row: %d "
			"pixels high, not %d\n", y, height);
	if (!svg && y > 32767) {
		fprintf(stderr, "lttv-gtk: --side-by-side: %d pixels high, more than a PNG "
			"holds (32767): export an SVG\n", y);
		rc = 1;
		goto out;
	}
	rc = lttv_export_write(file, svg, gs.width, y, paint_groups, &gs);
	if (rc == 0 && layout)
		print_groups(&gs);
out:
	g_free(error);
	g_free(off);
	free_groups(&gs);
	cairo_debug_reset_static_data();
	return rc;
}
