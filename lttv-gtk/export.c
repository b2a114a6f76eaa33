/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * export.c - lttv-gtk --export FILE.png|FILE.svg: index the trace, draw a
 * view with draw.c (what the window shows) on a cairo image or SVG
 * surface. No display needed. With --layout, prints the layout on
 * standard output, so that a test can find rows, times and colours in the
 * picture:
 *
 *   layout x0=416 x1=1200 y0=32 row_h=20 t0=... t1=... rows=6
 *   kind USER rgb=0,180,0 label=user mode     (the colour of each kind)
 *   row 0 process pid=0 name=swapper/0
 *   (with --filter EXPR: " marks=N" on each row, the events it matches
 *   there in the whole trace, and "marks total=N expr=EXPR" at the end)
 *
 * --arrows and --critical-path PID draw the links of analysis-links.c
 * (the wakeups, the path of PID, selected) over the control flow.
 */
#include <cairo-svg.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ltt/tool-output.h"
#include "lttv-gtk.h"
#include "lttv-filter.h"

int lttv_parse_time(const char *s, int64_t start_ns, int64_t *out)
{
	int64_t ns;

	if (ltt_parse_seconds(s, &ns) < 0)
		return -1;
	/* 9 digits or more before the point: a wall-clock time as lttv-text
	 * prints it; otherwise seconds from the trace start (saturated: a
	 * time far off is far off, never wrapped around) */
	if (strspn(s, "0123456789") >= 9)
		*out = ns;
	else if (__builtin_add_overflow(start_ns, ns, out))
		*out = ns > 0 ? INT64_MAX : INT64_MIN;
	return 0;
}

int lttv_parse_range(const char *s, int64_t start_ns, int64_t *a, int64_t *b)
{
	const char *dots = strstr(s, "..");
	char *first;
	int r;

	if (!dots)
		return -1;
	first = g_strndup(s, (gsize)(dots - s));
	r = lttv_parse_time(first, start_ns, a);
	g_free(first);
	if (r < 0 || lttv_parse_time(dots + 2, start_ns, b) < 0 || *b <= *a)
		return -1;
	return 0;
}

#define LTTV_RANGE_MARGIN ((int64_t)1 << 50)

int lttv_range_arg(const lttv_doc *d, const char *s, int64_t *a, int64_t *b, char **error)
{
	if (lttv_parse_range(s, d->origin_ns, a, b) < 0) {
		*error = g_strdup_printf("--range A..B in seconds from the trace start (e.g. "
					 "0.1..0.25) or as lttv-text prints them, not \"%s\"", s);
		return -1;
	}
	/* no view reaches more than 2^50 ns (13 days) past the trace: the
	 * drawing's arithmetic on t1 - t0 stays far from int64's ends */
	if (*a < d->start_ns - LTTV_RANGE_MARGIN)
		*a = d->start_ns - LTTV_RANGE_MARGIN;
	if (*b > d->end_ns + LTTV_RANGE_MARGIN)
		*b = d->end_ns + LTTV_RANGE_MARGIN;
	if (*b <= d->start_ns || *a >= d->end_ns) {
		*error = g_strdup_printf("--range %s shows nothing of the trace, which spans "
					 "%.9f .. %.9f s from its start (%" PRId64 ".%09" PRId64
					 " .. %" PRId64 ".%09" PRId64 ")", s,
					 (d->start_ns - d->origin_ns) / 1e9,
					 (d->end_ns - d->origin_ns) / 1e9,
					 d->start_ns / 1000000000, d->start_ns % 1000000000,
					 d->end_ns / 1000000000, d->end_ns % 1000000000);
		return -1;
	}
	return 0;
}

/* The critical path drawn (--critical-path), the segments in view, as
 * lttv-text --critical-path prints them: "path START END PID KIND". */
static void print_path(const lttv_view *v)
{
	const ltt_state *ast = v->critical && v->analysis ?
			       ltt_analysis_state(lttv_adata_analysis(v->analysis)) : NULL;
	const ltt_path_segment *segs;
	size_t n = ast ? lttv_view_path(v, &segs) : 0;

	for (size_t i = 0; i < n; i++) {
		ltt_state_process_info pi;

		if (segs[i].end_ns <= v->t0 || segs[i].start_ns >= v->t1 ||
		    ltt_state_process(ast, (unsigned)segs[i].process, &pi) < 0)
			continue;
		printf("path %" PRId64 ".%09" PRId64 " %" PRId64 ".%09" PRId64 " %u %s\n",
		       segs[i].start_ns / 1000000000, segs[i].start_ns % 1000000000,
		       segs[i].end_ns / 1000000000, segs[i].end_ns % 1000000000, pi.pid,
		       ltt_path_kind_name((ltt_path_kind)segs[i].kind));
	}
}

void lttv_print_row(const ltt_state *st, const lttv_row *r)
{
	if (r->type == LTT_STATE_ROW_PROCESS) {
		ltt_state_process_info p;

		ltt_state_process(st, r->index, &p);
		printf("process pid=%u name=%s", p.pid, *p.name ? ltt_text_safe(p.name) : "-");
	} else if (r->type == LTT_STATE_ROW_CPU) {
		printf("cpu %u", r->index);
	} else if (r->type == LTT_STATE_ROW_IRQ) {
		ltt_state_irq_info q;

		ltt_state_irq(st, r->index, &q);
		printf("irq %u name=%s", q.id, ltt_text_safe(q.name));
	} else {
		ltt_state_softirq_info q;

		ltt_state_softirq(st, r->index, &q);
		printf("softirq %u name=%s", q.id, ltt_text_safe(q.name));
	}
}

int lttv_size_arg(const char *size, int *width, int *height)
{
	if (size && (sscanf(size, "%dx%d", width, height) < 1 || *width < 200 ||
		     *width > 20000 || *height < 0 || *height > 20000)) {
		fprintf(stderr, "lttv-gtk: --size WIDTHxHEIGHT, e.g. 1200x600 (height 0: "
			"all rows)\n");
		return -1;
	}
	return 0;
}

int lttv_export_kind(const char *file)
{
	if (g_str_has_suffix(file, ".svg"))
		return 1;
	if (g_str_has_suffix(file, ".png"))
		return 0;
	fprintf(stderr, "lttv-gtk: --export writes .png or .svg files, not %s\n", file);
	return -1;
}

int lttv_export_write(const char *file, int svg, int width, int height,
		      void (*paint)(cairo_t *cr, void *user), void *user)
{
	cairo_surface_t *s;
	cairo_t *cr;
	cairo_status_t cs;
	char *tmp;

	/* written beside FILE, renamed over it once complete */
	if (!(tmp = ltt_output_begin(file))) {
		fprintf(stderr, "lttv-gtk: cannot write %s: %s\n", file, g_strerror(errno));
		return 1;
	}
	if (svg)
		s = cairo_svg_surface_create(tmp, width, height);
	else
		s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, width, height);
	cr = cairo_create(s);
	paint(cr, user);
	cairo_destroy(cr);
	cs = svg ? (cairo_surface_finish(s), cairo_surface_status(s))
		 : cairo_surface_write_to_png(s, tmp);
	cairo_surface_destroy(s);
	if (cs != CAIRO_STATUS_SUCCESS || ltt_output_finish(tmp, file, 1) < 0) {
		fprintf(stderr, "lttv-gtk: cannot write %s: %s\n", file,
			cs != CAIRO_STATUS_SUCCESS ? cairo_status_to_string(cs) : g_strerror(errno));
		if (cs != CAIRO_STATUS_SUCCESS)
			ltt_output_finish(tmp, file, 0);
		return 1;
	}
	return 0;
}

typedef struct sized_view {
	const lttv_view *v;
	int width, height;
} sized_view;

static void paint_view(cairo_t *cr, void *user)
{
	const sized_view *sv = user;

	lttv_draw(cr, sv->v, sv->width, sv->height);
}

static void print_layout(const lttv_view *v, const lttv_row *rows, int width, int height)
{
	const ltt_state *st = ltt_state_index_state(v->doc->idx);
	lttv_layout l;

	lttv_layout_get(v, width, height, &l);
	printf("layout x0=%d x1=%d y0=%d row_h=%d legend_h=%d t0=%" PRId64 " t1=%" PRId64
	       " rows=%u\n", l.x0, l.x1, l.y0, l.row_h, l.legend_h, v->t0, v->t1, v->nrows);
	for (int k = 0; k < LTT_STATE_NUM_KINDS; k++) {
		double rgb[3];

		lttv_kind_rgb((ltt_state_kind)k, rgb);
		printf("kind %s rgb=%.0f,%.0f,%.0f label=%s\n",
		       ltt_state_kind_name((ltt_state_kind)k), rgb[0] * 255,
		       rgb[1] * 255, rgb[2] * 255, lttv_kind_label((ltt_state_kind)k));
	}
	for (unsigned i = 0; i < v->nrows; i++) {
		printf("row %u ", i);
		lttv_print_row(st, &rows[i]);
		/* the event filter's matches on the row, in the whole trace */
		if (v->doc->marks)
			printf(" marks=%" PRIu64,
			       lttv_marks_count(v->doc->marks, rows[i].type, rows[i].index));
		printf("\n");
	}
	if (v->doc->marks)
		printf("marks total=%" PRIu64 " expr=%s\n", lttv_marks_total(v->doc->marks),
		       lttv_marks_expr(v->doc->marks));
	print_path(v);
	if (v->arrows) {
		size_t drawn, total;

		lttv_arrows_count(v, &l, &drawn, &total);
		printf("arrows drawn=%zu wakeups=%zu\n", drawn, total);
	}
	if (v->arrows || v->critical) {
		double rgb[3];

		lttv_arrow_rgb(rgb);
		printf("link arrow rgb=%.0f,%.0f,%.0f\n", rgb[0] * 255, rgb[1] * 255, rgb[2] * 255);
		for (unsigned k = 0; k < LTT_PATH_NUM_KINDS; k++) {
			lttv_path_rgb(k, rgb);
			printf("link path-%s rgb=%.0f,%.0f,%.0f\n", ltt_path_kind_name((ltt_path_kind)k),
			       rgb[0] * 255, rgb[1] * 255, rgb[2] * 255);
		}
	}
}

#define LTTV_PNG_MAX 32767	/* cairo's largest image side */

int lttv_export(const char *const *traces, unsigned ntraces, const char *file,
		const char *range, const char *view_name, const char *size, int layout,
		int arrows, int critical_pid, const char *marks, int only_marked)
{
	lttv_adata *data = NULL;
	char *error = NULL;
	lttv_doc *d;
	lttv_view v = { 0 };
	lttv_row *rows = NULL;
	sized_view sv;
	int width = 1200, height = 0, svg, rc = 0;

	if (view_name && strcmp(view_name, "controlflow") && strcmp(view_name, "resources")) {
		fprintf(stderr, "lttv-gtk: --view is controlflow or resources, not \"%s\"\n",
			view_name);
		return 2;
	}
	if (lttv_size_arg(size, &width, &height) < 0 || (svg = lttv_export_kind(file)) < 0)
		return 2;
	d = lttv_doc_open(traces, ntraces, &error);
	if (d && lttv_doc_output_is_input(d, "--export", file)) {
		lttv_doc_free(d);
		return 2;
	}
	if (d) {
		v.t0 = d->start_ns;
		v.t1 = d->end_ns;
	}
	if (d && range && lttv_range_arg(d, range, &v.t0, &v.t1, &error) < 0) {
		fprintf(stderr, "lttv-gtk: %s\n", error);
		g_free(error);
		lttv_doc_free(d);
		return 2;
	}
	if (!d || lttv_doc_index_all(d, &error) < 0) {
		fprintf(stderr, "lttv-gtk: %s\n", error);
		g_free(error);
		lttv_doc_free(d);
		return 1;
	}
	if (marks) {
		/* a wrong expression is a wrong command line (2); a read error, 1 */
		lttv_filter *f = lttv_filter_parse(marks, d->origin_ns, d->traces, d->ntraces,
						   &error);

		lttv_filter_free(f);
		if (f)
			d->marks = lttv_marks_now(d, marks, &error);
		if (!d->marks || error) {
			fprintf(stderr, "lttv-gtk: --filter: %s\n", error);
			g_free(error);
			lttv_doc_free(d);
			return f ? 1 : 2;
		}
		d->only_marked = only_marked;
	}
	v.doc = d;
	v.resources = view_name && !strcmp(view_name, "resources");
	v.legend = 1;
	v.selected = -1;
	v.cursor_a = v.cursor_b = v.sel_a = v.sel_b = INT64_MIN;
	v.nrows = lttv_doc_rows(d, v.resources, &rows);
	v.rows = rows;
	if (arrows || critical_pid >= 0) {
		/* the links of analysis-links.c: one pass of the analyses */
		data = lttv_adata_new(d);
		while (lttv_adata_step(data, 1 << 20) > 0)
			;
		if (!lttv_adata_error(data)) {
			v.analysis = data;
			v.arrows = arrows;
			v.critical = critical_pid >= 0;
		}
		for (unsigned r = 0; critical_pid >= 0 && r < v.nrows; r++) {
			ltt_state_process_info pi;

			if (rows[r].type == LTT_STATE_ROW_PROCESS &&
			    ltt_state_process(ltt_state_index_state(d->idx), rows[r].index, &pi) == 0 &&
			    pi.pid == (unsigned)critical_pid)
				v.selected = (int)r;
		}
		if (critical_pid >= 0 && v.selected < 0) {
			fprintf(stderr, "lttv-gtk: --critical-path %d: no process with that pid\n",
				critical_pid);
			lttv_adata_free(data);
			g_free(rows);
			lttv_doc_free(d);
			return 2;
		}
	}
	if (height == 0) {
		height = lttv_natural_height(&v, width);
		/* cairo's images stop at 32767 pixels (a trace of thousands
		 * of processes): show the rows that fit, and say so */
		if (!svg && height > LTTV_PNG_MAX) {
			fprintf(stderr, "lttv-gtk: warning: %u rows do not fit in one PNG "
				"(%d pixels high, at most %d): the first ones are drawn; "
				"--size WxH or an SVG for more\n", v.nrows, height,
				LTTV_PNG_MAX);
			height = LTTV_PNG_MAX;
		}
	}
	sv = (sized_view){ &v, width, height };
	rc = lttv_export_write(file, svg, width, height, paint_view, &sv);
	if (rc == 0 && layout)
		print_layout(&v, rows, width, height);
	g_free(rows);
	lttv_adata_free(data);
	lttv_doc_free(d);
	/* cairo's font caches (fontconfig's stay: see tests/t40-export.sh) */
	cairo_debug_reset_static_data();
	return rc;
}
