/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * multi.c - lttv-gtk --side-by-side: traces compared, not merged. Each
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
 * x: where it is drawn. Only the export has it so far: the window
 * merges the traces (it refuses --side-by-side).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lttv-gtk.h"

/* No offset beyond 2^50 ns (13 days): the view's arithmetic stays far
 * from int64's ends, as --range's does. */
#define LTTV_OFFSET_MAX ((int64_t)1 << 50)

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

typedef struct group {
	lttv_doc *doc;
	lttv_view v;
	lttv_row *rows;
	int64_t offset;
	char *title;
	int y, height;			/* the band's top; band and rows */
} group;

typedef struct groups {
	group *g;
	unsigned n;
	int width;
} groups;

static void paint_groups(cairo_t *cr, void *user)
{
	const groups *gs = user;

	cairo_set_source_rgb(cr, 1, 1, 1);
	cairo_paint(cr);
	for (unsigned i = 0; i < gs->n; i++) {
		const group *g = &gs->g[i];

		cairo_save(cr);
		cairo_translate(cr, 0, g->y);
		lttv_draw_group_header(cr, g->title, gs->width);
		/* lttv_draw() paints its whole clip white: the band is outside */
		cairo_rectangle(cr, 0, LTTV_GROUP_H, gs->width, g->height - LTTV_GROUP_H);
		cairo_clip(cr);
		cairo_translate(cr, 0, LTTV_GROUP_H);
		lttv_draw(cr, &g->v, gs->width, g->height - LTTV_GROUP_H);
		cairo_restore(cr);
	}
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

static void print_groups(const groups *gs)
{
	lttv_layout l;

	lttv_layout_get(&gs->g[0].v, gs->width, gs->g[0].height - LTTV_GROUP_H, &l);
	printf("sidebyside groups=%u x0=%d x1=%d t0=%" PRId64 " t1=%" PRId64 "\n", gs->n,
	       l.x0, l.x1, gs->g[0].v.t0 - gs->g[0].doc->origin_ns,
	       gs->g[0].v.t1 - gs->g[0].doc->origin_ns);
	for (unsigned i = 0; i < gs->n; i++) {
		const group *g = &gs->g[i];
		const ltt_state *st = ltt_state_index_state(g->doc->idx);

		lttv_layout_get(&g->v, gs->width, g->height - LTTV_GROUP_H, &l);
		printf("group %u y=%d rows=%u offset=%" PRId64 " trace=%s\n", i, g->y, g->v.nrows,
		       g->offset, g->doc->path);
		for (unsigned r = 0; r < g->v.nrows; r++) {
			first_change f = { 0, 0, INT64_MIN };

			printf("row %u group=%u y=%d ", r, i,
			       g->y + LTTV_GROUP_H + l.y0 + (int)r * l.row_h);
			lttv_print_row(st, &g->rows[r]);
			ltt_state_index_intervals(g->doc->idx, g->rows[r].type, g->rows[r].index,
						  g->doc->start_ns, g->doc->end_ns, 1, on_interval,
						  &f);
			if (f.at == INT64_MIN)
				printf(" first=- x=-\n");
			else
				printf(" first=%" PRId64 " x=%.1f\n", f.at - g->doc->origin_ns,
				       lttv_time_to_x(&g->v, &l, f.at));
		}
	}
}

static void free_groups(groups *gs)
{
	for (unsigned i = 0; i < gs->n; i++) {
		g_free(gs->g[i].rows);
		g_free(gs->g[i].title);
		lttv_doc_free(gs->g[i].doc);
	}
	g_free(gs->g);
}

/* Opens and indexes trace i as group i: 0; 1, a read error said on
 * stderr; 2, FILE is one of the trace's (said). */
static int open_group(groups *gs, unsigned i, const char *path, const char *file)
{
	group *g = &gs->g[i];
	const char *one[1] = { path };
	char *error = NULL, *base, sign = g->offset < 0 ? '-' : '+';
	uint64_t mag = g->offset < 0 ? (uint64_t)-g->offset : (uint64_t)g->offset;

	gs->n = i + 1;			/* freed by free_groups() whatever happens */
	g->doc = lttv_doc_open(one, 1, &error);
	if (g->doc && lttv_doc_output_is_input(g->doc, "--export", file))
		return 2;
	if (!g->doc) {			/* the message names the trace */
		fprintf(stderr, "lttv-gtk: %s\n", error);
		g_free(error);
		return 1;
	}
	if (lttv_doc_index_all(g->doc, &error) < 0) {
		fprintf(stderr, "lttv-gtk: %s: %s\n", path, error);
		g_free(error);
		return 1;
	}
	g->doc->origin_ns = g->doc->start_ns - g->offset;
	base = g_filename_display_basename(path);
	g->title = g_strdup_printf("trace %u: %s   (first event at %c%" PRIu64 ".%09" PRIu64
				   " s)", i + 1, base, sign, mag / 1000000000,
				   mag % 1000000000);
	g_free(base);
	return 0;
}

int lttv_export_side_by_side(const char *const *traces, unsigned ntraces,
			     char *const *offsets, const char *file, const char *range,
			     const char *view_name, const char *size, int layout)
{
	int64_t *off = g_new0(int64_t, ntraces + 1), t0 = INT64_MAX, t1 = INT64_MIN;
	groups gs = { g_new0(group, ntraces + 1), 0, 1200 };
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
	for (unsigned i = 0; rc == 0 && i < ntraces; i++) {
		gs.g[i].offset = off[i];
		rc = open_group(&gs, i, traces[i], file);
	}
	if (rc)
		goto out;
	/* the axis: from the earliest first event to the latest last one */
	for (unsigned i = 0; i < gs.n; i++) {
		const lttv_doc *d = gs.g[i].doc;

		t0 = MIN(t0, d->start_ns - d->origin_ns);
		t1 = MAX(t1, d->end_ns - d->origin_ns);
	}
	if (range) {
		int64_t a, b;

		if (lttv_parse_range(range, 0, &a, &b) < 0 || b <= t0 || a >= t1) {
			fprintf(stderr, "lttv-gtk: --range A..B in seconds of the shared axis "
				"(each trace's first event at 0, then its --offset), within "
				"%.9f .. %.9f, not \"%s\"\n", t0 / 1e9, t1 / 1e9, range);
			rc = 2;
			goto out;
		}
		t0 = MAX(a, t0 - LTTV_OFFSET_MAX);	/* as --range is without it */
		t1 = MIN(b, t1 + LTTV_OFFSET_MAX);
	}
	for (unsigned i = 0; i < gs.n; i++) {
		group *g = &gs.g[i];
		lttv_view *v = &g->v;

		v->doc = g->doc;
		v->resources = view_name && !strcmp(view_name, "resources");
		/* a legend per group: its colours in grey where that trace has
		 * none, its losses in its red bar (one legend would say only
		 * the last trace's) */
		v->legend = 1;
		v->selected = -1;
		v->cursor_a = v->cursor_b = v->sel_a = v->sel_b = INT64_MIN;
		v->t0 = g->doc->origin_ns + t0;
		v->t1 = g->doc->origin_ns + t1;
		v->nrows = lttv_doc_rows(g->doc, v->resources, &g->rows);
		v->rows = g->rows;
		g->y = y;
		g->height = LTTV_GROUP_H + lttv_natural_height(v, gs.width);
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
