/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bench.c - lttv-gtk -t TRACE --bench [--size WxH]: what the window does
 * when it opens a trace and when the user zooms, timed, without a
 * display (bench/viewer.py runs it). One line of key=value per step:
 *
 * (ms: wall clock; cpu_ms: CPU time of the process: the index's two
 * threads, see ltt_state_index_options.threads)
 *
 *   bench open ms=... cpu_ms=... ltt_trace_open + the index's first checkpoint
 *   bench first-frame ms=...     open, the window's first indexing slice,
 *                                one draw of the whole trace (what the
 *                                window shows while it indexes the rest)
 *   bench index ms=... events=... checkpoints=... changes=... processes=...
 *                index_kb=... rss_kb=... peak_kb=...
 *   bench frame ms=... rows=... on_screen=...
 *                                the whole trace, once everything is indexed
 *   bench zoom=Z ms=... intervals=...
 *                                a redraw of 1/Z of the trace, centred,
 *                                median of BENCH_DRAWS draws
 *
 * The draws are those of the window (lttv_draw() at the window's default
 * size, on an image surface): the same rows, text and bars.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lttv-gtk.h"

#define BENCH_SLICE	50000	/* the window's indexing slice (window.c) */
#define BENCH_DRAWS	7

static double now_ms(void)
{
	return (double)g_get_monotonic_time() / 1000.0;
}

/* CPU time of this process (the indexing's two threads): on a machine
 * shared with other work, the wall clock also counts the time others had
 * the CPU. */
static double cpu_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* VmRSS and VmHWM (peak) of this process, in kB; 0 if unknown. */
static void memory_kb(long *rss, long *peak)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];

	*rss = *peak = 0;
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "VmRSS:", 6))
			*rss = atol(line + 6);
		else if (!strncmp(line, "VmHWM:", 6))
			*peak = atol(line + 6);
	}
	fclose(f);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* A span of time, on both clocks. */
typedef struct stamp {
	double wall, cpu;
} stamp;

static stamp stamp_now(void)
{
	return (stamp){ now_ms(), cpu_ms() };
}

static stamp since(stamp a)
{
	stamp b = stamp_now();

	return (stamp){ b.wall - a.wall, b.cpu - a.cpu };
}

/* Draws the view once on s; returns the time it took. */
static stamp draw_once(cairo_surface_t *s, const lttv_view *v, int width, int height)
{
	cairo_t *cr = cairo_create(s);
	stamp t = stamp_now();

	lttv_draw(cr, v, width, height);
	cairo_surface_flush(s);
	t = since(t);
	cairo_destroy(cr);
	return t;
}

static void count_interval(void *user, int64_t s, int64_t e, ltt_state_kind k)
{
	(*(long *)user)++;
}

int lttv_bench(const char *const *traces, unsigned ntraces, const char *size)
{
	int width = 1200, height = 800;
	char *error = NULL;
	lttv_doc *d;
	lttv_view v = { 0 };
	lttv_row *rows = NULL;
	cairo_surface_t *s;
	ltt_error *err = NULL;
	stamp t0, t_open, t_first = { 0, 0 }, t_index = { 0, 0 }, t, f;
	long rss, peak;
	int r;

	if (size && (sscanf(size, "%dx%d", &width, &height) != 2 || width < 200 ||
		     width > 20000 || height < 100 || height > 20000)) {
		fprintf(stderr, "lttv-gtk: --size WIDTHxHEIGHT, e.g. 1200x800\n");
		return 2;
	}
	s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, width, height);
	t0 = stamp_now();
	d = lttv_doc_open(traces, ntraces, &error);
	if (!d) {
		fprintf(stderr, "lttv-gtk: %s\n", error);
		g_free(error);
		cairo_surface_destroy(s);
		return 1;
	}
	t_open = since(t0);
	v.doc = d;
	v.legend = 1;
	v.selected = -1;
	v.cursor_a = v.cursor_b = v.sel_a = v.sel_b = INT64_MIN;
	v.t0 = d->start_ns;
	v.t1 = d->end_ns;

	/* the window: the worker indexes a slice, the view draws what is there */
	r = ltt_state_index_run(d->idx, BENCH_SLICE, &err);
	if (r >= 0) {
		v.nrows = lttv_doc_rows(d, 0, &rows);
		v.rows = rows;
		draw_once(s, &v, width, height);
		t_first = since(t0);
		t = stamp_now();
		while (r > 0)
			r = ltt_state_index_run(d->idx, BENCH_SLICE, &err);
		t = since(t);
		t_index = (stamp){ t_open.wall + t.wall, t_open.cpu + t.cpu };
	}
	if (r < 0) {
		fprintf(stderr, "lttv-gtk: %s\n", ltt_error_message(err));
		ltt_error_free(err);
		g_free(rows);
		lttv_doc_free(d);
		cairo_surface_destroy(s);
		return 1;
	}
	memory_kb(&rss, &peak);
	printf("bench open ms=%.3f cpu_ms=%.3f\n", t_open.wall, t_open.cpu);
	printf("bench first-frame ms=%.3f cpu_ms=%.3f\n", t_first.wall, t_first.cpu);
	printf("bench index ms=%.3f cpu_ms=%.3f events=%" PRIu64 " checkpoints=%u changes=%"
	       PRIu64 " processes=%u index_kb=%zu rss_kb=%ld peak_kb=%ld\n",
	       t_index.wall, t_index.cpu, ltt_state_index_num_events(d->idx),
	       ltt_state_index_num_checkpoints(d->idx), ltt_state_index_num_changes(d->idx),
	       ltt_state_num_processes(ltt_state_index_state(d->idx)),
	       ltt_state_index_memory(d->idx) / 1024, rss, peak);

	g_free(rows);
	v.nrows = lttv_doc_rows(d, 0, &rows);
	v.rows = rows;
	f = draw_once(s, &v, width, height);
	{
		lttv_layout l;

		lttv_layout_get(&v, width, height, &l);
		printf("bench frame ms=%.3f cpu_ms=%.3f rows=%u on_screen=%u\n", f.wall,
		       f.cpu, v.nrows, MIN(l.rows_fit, v.nrows));
	}

	for (int64_t zoom = 1; zoom <= 100000; zoom *= 10) {
		int64_t span = (d->end_ns - d->start_ns) / zoom, mid;
		double wall[BENCH_DRAWS], cpu[BENCH_DRAWS];
		lttv_layout l;
		long n = 0;

		if (span < 1000)	/* below a microsecond for the whole view */
			break;
		mid = d->start_ns + (d->end_ns - d->start_ns) / 2;
		v.t0 = mid - span / 2;
		v.t1 = v.t0 + span;
		for (int i = 0; i < BENCH_DRAWS; i++) {
			f = draw_once(s, &v, width, height);
			wall[i] = f.wall;
			cpu[i] = f.cpu;
		}
		qsort(wall, BENCH_DRAWS, sizeof(wall[0]), cmp_double);
		qsort(cpu, BENCH_DRAWS, sizeof(cpu[0]), cmp_double);
		/* the bars behind it: intervals of the rows on screen */
		lttv_layout_get(&v, width, height, &l);
		for (unsigned i = 0; i < l.rows_fit && i < v.nrows; i++)
			ltt_state_index_intervals(d->idx, rows[i].type, rows[i].index,
						  v.t0, v.t1, MAX(span / (l.x1 - l.x0), 1),
						  count_interval, &n);
		printf("bench zoom=%" PRId64 " ms=%.3f cpu_ms=%.3f intervals=%ld span_ns=%"
		       PRId64 "\n", zoom, wall[BENCH_DRAWS / 2], cpu[BENCH_DRAWS / 2], n, span);
	}
	g_free(rows);
	lttv_doc_free(d);
	cairo_surface_destroy(s);
	cairo_debug_reset_static_data();
	return 0;
}
