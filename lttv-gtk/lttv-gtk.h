/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * lttv-gtk.h - the viewer's parts:
 *
 *   doc.c      the traces, their state index (built by the window's
 *              worker, which publishes snapshots of it; synchronously by
 *              the export) and the row lists (sorted, filtered, hidden)
 *   draw.c     everything drawn, with cairo only: the widget and the
 *              export call the same lttv_draw(), so the export test
 *              checks what users see
 *   export.c   --export FILE.png|.svg without a display
 *   multi.c    --side-by-side: traces compared, each its own doc and
 *              group of rows, on one axis (--offset); the export draws
 *              them all, the window (compare.c) those after the first
 *   stats-calc.c  the statistics of a range (the Statistics tab, --stats)
 *   bench.c    --bench: the window's work when it opens a trace and
 *              zooms, timed, without a display
 *   filter.c   the event filter language (lttv-filter.h); filter-cli.c
 *              is --filter EXPR
 *   marks.c    the event filter's matches, marked on the rows (a worker
 *              of the window's; at once for the export)
 *   window.c   the GtkApplication window, with indexer.c (the worker
 *              that indexes), eventlist.c, find.c (search in a worker),
 *              stats.c, control.c, compare.c (--side-by-side) and
 *              selftest.c (they share window.h)
 *   main.c     options
 *
 * Prefix lttv_. GTK appears only in the window's files.
 */
#ifndef LTTV_GTK_H
#define LTTV_GTK_H

#include <cairo.h>
#include <inttypes.h>
#include <stdatomic.h>
#include <glib.h>
#include <stdint.h>

#include "ltttrace.h"

/*
 * Text drawn or shown holds names from the trace through the one rule
 * (ltt_text_safe(), ltt_text_escape()): valid UTF-8, no control. A fixed
 * buffer that cut it may have split a character: this drops the part left
 * (GTK and cairo refuse text that is not UTF-8, and draw nothing).
 */
static inline void lttv_utf8_cut(char *s)
{
	const gchar *end;

	if (!g_utf8_validate(s, -1, &end))
		*(char *)end = '\0';
}

/* ---- doc.c ---- */

/* The columns of the control flow; LTTV_COL_BUSY: CPU time in the trace,
 * the first sort (descending), so that what did something comes first. */
enum { LTTV_COL_NAME, LTTV_COL_PID, LTTV_COL_TGID, LTTV_COL_PPID, LTTV_COL_CPU,
       LTTV_COL_BIRTH, LTTV_COL_BUSY, LTTV_NUM_COLS };

typedef struct lttv_marks lttv_marks;	/* marks.c */

typedef struct lttv_row {
	ltt_state_row_type type;
	unsigned index;
	unsigned depth;			/* in the process tree (doc->tree), else 0 */
} lttv_row;

/*
 * Two threads, no lock: the index (idx) is built by one thread, reading
 * traces; the other (the window's) reads only view, an immutable snapshot
 * of idx that the indexing thread publishes now and then, and rtraces, the
 * same traces opened again (two threads must not read one ltt_trace).
 * Without a window (export, --stats), one thread does everything: view is
 * idx and rtraces is traces.
 */
typedef struct lttv_doc {
	char *path;			/* the paths, joined with " + " */
	char **paths;			/* NULL-terminated */
	ltt_trace **traces;		/* read by the indexing thread */
	ltt_trace **rtraces;		/* read by the thread that reads view */
	unsigned ntraces;
	ltt_state_index *idx;		/* the indexing thread's */
	ltt_state_index *view;		/* what the window reads: idx, or a snapshot */
	int64_t start_ns, end_ns;	/* first and last event */
	int64_t origin_ns;		/* 0 of relative times, as lttv-text -r */
	uint64_t events_lost, corrupted;
	int sort_col, sort_desc;
	int tree;			/* processes under their parents, threads
					 * under their process (t), siblings sorted */
	char *filter;			/* name substring or pid; NULL: all */
	lttv_marks *marks;		/* the event filter's matches, or NULL */
	int only_marked;		/* with marks: only the processes with some */
	GHashTable *hidden;		/* hidden rows: "pid", or "0/cpu" (doc.c) */
	unsigned *warned;		/* per trace: its warnings printed so far */
} lttv_doc;

/* From now on, every trace is opened as one being written (--follow:
 * ltt_open_options.live) and a warning printed once is not again. */
void lttv_set_live(void);
/* A trace, opened as lttv_set_live() says. */
ltt_trace *lttv_trace_open(const char *path, ltt_error **err);
/* Open traces (merged when more than one), or NULL with *error. */
lttv_doc *lttv_doc_open(const char *const *paths, unsigned n, char **error);
/* --follow: the traces of old opened again as a new doc. Its index is
 * old's carried on over what they hold now (old keeps what it shows, and
 * no index: free it once the window moved to the new doc); or, when it
 * cannot be (*why says why: g_free it), indexed from their start. NULL
 * with *error if they do not open. */
lttv_doc *lttv_doc_reopen(lttv_doc *old, char **error, char **why);
/* Whether `file`, an output (of option opt), is an input: a file of one of
 * d's traces or a path into one, whatever links or mounts lead there
 * (ltt_trace_path_is_input). 1 after saying so on stderr, else 0. */
int lttv_doc_output_is_input(const lttv_doc *d, const char *opt, const char *file);
/* Prints on stderr the warnings of a trace from *printed on (the library
 * adds some while reading: call again after a pass, with the trace not
 * being read by another thread). */
void lttv_report_warnings(const ltt_trace *t, unsigned *printed);
/* Whether any warning was printed: the exit status says it (3). */
int lttv_warnings_reported(void);
/* The same for every trace of d. */
void lttv_doc_report_warnings(lttv_doc *d);
void lttv_doc_free(lttv_doc *d);
/* For a window: open the traces again for its thread (rtraces) and make
 * view a snapshot, before another thread indexes. 0, or -1 with *error. */
int lttv_doc_open_reader(lttv_doc *d, char **error);
/* The n traces opened again, for a reader or worker of their own: all of
 * them, or NULL and *err (those opened before the failure are closed). */
ltt_trace **lttv_open_traces(char *const *paths, unsigned n, ltt_error **err);
/* Closes the n traces of lttv_open_traces (t may be NULL) and frees t. */
void lttv_close_traces(ltt_trace **t, unsigned n);
/* The window's thread: read this snapshot of idx from now on (taken by
 * the indexing thread, with rtraces for its seeks). */
void lttv_doc_publish(lttv_doc *d, ltt_state_index *snapshot);
/* Index everything now (export, tests). 0, or -1 with *error set. */
int lttv_doc_index_all(lttv_doc *d, char **error);
/* The rows of a view, in order, from d->view. g_free() them. */
unsigned lttv_doc_rows(lttv_doc *d, int resources, lttv_row **out);
/* Hide the row of a process (index in d->view's state); copy the rows
 * hidden in another doc (the same trace opened again). */
void lttv_doc_hide(lttv_doc *d, unsigned process);
void lttv_doc_copy_hidden(lttv_doc *d, const lttv_doc *from);
/* Time a process ran, the idle task's idle time left out. */
uint64_t lttv_busy_ns(const ltt_state_process_info *p);

/* ---- marks.c: the event filter's matches on the rows ---- */

/* One pass over the traces: the events expr matches, per process (index
 * in the state index) and per CPU. stop and at may be NULL (else: stop
 * when set; how far it read). NULL when stopped, or with *error; after a
 * read error, the marks up to it with *error set. */
lttv_marks *lttv_marks_compute(const char *const *paths, unsigned ntraces, const char *expr,
			       int64_t origin_ns, atomic_int *stop, _Atomic int64_t *at,
			       char **error);
lttv_marks *lttv_marks_now(const lttv_doc *d, const char *expr, char **error);
void lttv_marks_free(lttv_marks *m);
const char *lttv_marks_expr(const lttv_marks *m);
uint64_t lttv_marks_total(const lttv_marks *m);
/* 0: too many to keep every time (the counts are exact, not the marks) */
int lttv_marks_complete(const lttv_marks *m);
/* Matches on a row (process or CPU; 0 for the others). */
uint64_t lttv_marks_count(const lttv_marks *m, ltt_state_row_type type, unsigned index);
/* fn for the first mark of each step (ns) of [t0, t1] that holds any;
 * returns the calls. */
unsigned lttv_marks_each(const lttv_marks *m, ltt_state_row_type type, unsigned index,
			 int64_t t0, int64_t t1, int64_t step,
			 void (*fn)(void *user, int64_t t), void *user);
/* The window's: in a worker thread; done(m or NULL, error) called from
 * the main loop unless cancelled (m is then the caller's). */
typedef struct lttv_marks_job lttv_marks_job;
lttv_marks_job *lttv_marks_start(const lttv_doc *d, const char *expr,
				 void (*done)(lttv_marks *m, const char *error, void *user),
				 void *user);
double lttv_marks_progress(lttv_marks_job *j);
void lttv_marks_cancel(lttv_marks_job *j);

/* ---- draw.c ---- */

/* A bookmark: a time (t1 == t0) or a range, named (session.c). */
typedef struct lttv_bookmark {
	int64_t t0, t1;
	char label[48];
} lttv_bookmark;

typedef struct lttv_view {
	lttv_doc *doc;
	int resources;			/* 0: control flow, 1: resources */
	const lttv_row *rows;
	unsigned nrows, first_row;
	int selected;			/* index in rows, or -1 */
	int64_t t0, t1;			/* visible range, wall ns */
	int64_t cursor_a, cursor_b;	/* INT64_MIN: none */
	int64_t sel_a, sel_b;		/* a drag selection; INT64_MIN: none */
	int legend;
	const char *message;		/* e.g. "indexing 42%" */
	/* analysis-links.c: over the control flow, from a finished analysis */
	const struct lttv_adata *analysis;	/* NULL: no links drawn */
	int arrows;			/* wakeup arrows, waker row -> woken row */
	int critical;			/* the selected process's critical path */
	const lttv_bookmark *bookmarks;	/* drawn over the time area */
	unsigned nbookmarks;
} lttv_view;

typedef struct lttv_layout {
	int width, height;
	int x0, x1;			/* the time area */
	int y0;				/* first row */
	int row_h, header_h, legend_h;
	int col_x[LTTV_NUM_COLS + 1];	/* left edges of the text columns */
	unsigned rows_fit;
} lttv_layout;

void lttv_layout_get(const lttv_view *v, int width, int height, lttv_layout *l);
/* Height that shows every row and the legend, at this width. */
int lttv_natural_height(const lttv_view *v, int width);
void lttv_draw(cairo_t *cr, const lttv_view *v, int width, int height);
double lttv_time_to_x(const lttv_view *v, const lttv_layout *l, int64_t t);
int64_t lttv_x_to_time(const lttv_view *v, const lttv_layout *l, double x);
/* Row (index in v->rows) under y, or -1. */
int lttv_y_to_row(const lttv_view *v, const lttv_layout *l, double y);
/* Column under x in the text area, or -1. */
int lttv_x_to_col(const lttv_layout *l, double x);
void lttv_kind_rgb(ltt_state_kind k, double rgb[3]);
const char *lttv_kind_label(ltt_state_kind k);
/* "1.234 567 s", relative to nothing: a duration */
void lttv_format_duration(int64_t ns, char *buf, size_t len);
/* "12.3 ms": a duration in a narrow column */
void lttv_format_short(uint64_t ns, char *buf, size_t len);

/* ---- export.c ---- */

/*
 * A time: seconds from the trace start ("0.25"), or wall-clock seconds as
 * lttv-text prints them ("1159000000.400006287", 9 digits or more before
 * the point), exact to the nanosecond. 0, or -1 if malformed.
 */
int lttv_parse_time(const char *s, int64_t start_ns, int64_t *out);
/* "A..B", each as lttv_parse_time(), B after A. */
int lttv_parse_range(const char *s, int64_t start_ns, int64_t *a, int64_t *b);
/*
 * --range of a command line, for doc d: 0 with *a, *b set; else -1 with a
 * message in *error (malformed, or nothing of the trace in it).
 */
int lttv_range_arg(const lttv_doc *d, const char *s, int64_t *a, int64_t *b, char **error);
/* layout: print the layout (rows, times, colours) on standard output. */
/* marks: an event filter whose matches are marked (NULL: none);
 * only_marked: the processes with none are left out. */
int lttv_export(const char *const *traces, unsigned ntraces, const char *file,
		const char *range, const char *view, const char *size, int layout,
		int arrows, int critical_pid, const char *marks, int only_marked);

/* Shared with multi.c: a row as --layout names it ("process pid=52
 * name=cat", "cpu 1", "irq 0 name=timer"); --size WxH (-1 said on
 * stderr); the kind of FILE (1 SVG, 0 PNG, -1 said on stderr); FILE
 * written through paint() beside it, then renamed over it (0, or 1 said). */
void lttv_print_row(const ltt_state *st, const lttv_row *r);
int lttv_size_arg(const char *size, int *width, int *height);
int lttv_export_kind(const char *file);
int lttv_export_write(const char *file, int svg, int width, int height,
		      void (*paint)(cairo_t *cr, void *user), void *user);

/* ---- multi.c: --side-by-side, each trace its own group of rows ---- */

/* The band over a group that names its trace (draw.c). */
#define LTTV_GROUP_H 26
void lttv_draw_group_header(cairo_t *cr, const char *title, int width);
/* No offset beyond 2^50 ns (13 days): the view's arithmetic stays far
 * from int64's ends, as --range's does. */
#define LTTV_OFFSET_MAX ((int64_t)1 << 50)
/* --offset N:SECONDS, each: trace N (1 = the first -t) shifted by SECONDS
 * (signed) on the shared axis; offsets[] (ntraces) set, 0 for the others.
 * 0, or -1 with *error (malformed, N out of range or given twice). */
int lttv_parse_offsets(char *const *specs, unsigned ntraces, int64_t *offsets,
		       char **error);
/*
 * A trace of a comparison: its own doc (origin_ns: its first event less
 * its offset, so that a time T of the shared axis is origin_ns + T in it),
 * its view and rows, the band naming it over them, drawn at y. The export
 * draws every trace so; the window (compare.c) the traces after the first.
 */
typedef struct lttv_group {
	lttv_doc *doc;
	lttv_view v;
	lttv_row *rows;
	int64_t offset;			/* --offset, ns */
	char *title;			/* the band's text */
	int y, height;			/* the band's top; band and rows */
} lttv_group;
/* Opens trace i (from 0) as g, not indexed: 0, or -1 with *error. */
int lttv_group_open(lttv_group *g, unsigned i, const char *path, int64_t offset,
		    char **error);
/* Puts the doc of trace i on the shared axis (its origin_ns: its first
 * event less offset) and returns the band's title (g_free it). */
char *lttv_group_place(lttv_doc *d, unsigned i, int64_t offset);
/* Indexes it whole (stop, if set, stops it: -1 without *error). 0, or -1. */
int lttv_group_index(lttv_group *g, atomic_int *stop, char **error);
/* Its rows (indexed) and its height at width. */
void lttv_group_rows(lttv_group *g, int width);
/* Its view over [t0, t1] of the shared axis, the cursors (INT64_MIN: none)
 * at those axis times. */
void lttv_group_axis(lttv_group *g, int64_t t0, int64_t t1, int64_t cursor_a,
		     int64_t cursor_b);
/* The band and the rows, at g->y. */
void lttv_group_paint(cairo_t *cr, const lttv_group *g, int width);
void lttv_group_free(lttv_group *g);
/* --layout's lines: the axis of v (drawn width x height); a group whose
 * rows are drawn from y_rows (its band above), height high. */
void lttv_group_print_axis(const lttv_view *v, int width, int height, unsigned ngroups);
void lttv_group_print(const lttv_group *g, unsigned i, int width, int height, int y_rows);
/* --range with --side-by-side: in seconds of the shared axis, of which
 * [*t0, *t1] (ns) holds every trace; narrowed to it: 0, or -1 with *error
 * (malformed, or no trace in it). */
int lttv_axis_range(const char *range, int64_t *t0, int64_t *t1, char **error);
/* --export FILE --side-by-side [--offset N:S...] [--view] [--range] [--size]
 * [--layout] */
int lttv_export_side_by_side(const char *const *traces, unsigned ntraces,
			     char *const *offsets, const char *file, const char *range,
			     const char *view, const char *size, int layout);

/* ---- stats-calc.c ---- */

/*
 * The statistics of [t0, t1] clamped to the data (the Statistics tab,
 * --stats). Calls on a doc being indexed hold d->lock. filter_text:
 * only matching events are counted (NULL: all).
 */
typedef struct lttv_stats_calc lttv_stats_calc;
lttv_stats_calc *lttv_stats_calc_new(lttv_doc *d, int64_t t0, int64_t t1,
				     const char *filter_text);
/* Reads up to max_events more: 1 while there is more to read, 0 when done. */
int lttv_stats_calc_step(lttv_stats_calc *c, unsigned max_events);
uint64_t lttv_stats_calc_events(const lttv_stats_calc *c);
/* The text of --stats (g_free it); after a read error, 1 from _failed(). */
char *lttv_stats_calc_text(const lttv_stats_calc *c);
/* What the tables do not say: the losses, the range, the number of
 * events, the events the state engine ignored, an error (g_free it). */
char *lttv_stats_calc_summary(const lttv_stats_calc *c);

/*
 * The tables of the statistics, the one home of their figures: the text
 * above lays them out as text, the Statistics tab (stats.c) as tables a
 * click on a header sorts. A cell is a number (num) or, in a TEXT column,
 * a text safe to show (text).
 */
typedef enum lttv_stats_kind {
	LTTV_STATS_TEXT,		/* a name */
	LTTV_STATS_COUNT,		/* a count, a pid */
	LTTV_STATS_NS,			/* a duration in ns, shown in seconds */
} lttv_stats_kind;

#define LTTV_STATS_NONE UINT64_MAX	/* a number not known: shown empty */

typedef struct lttv_stats_column {
	const char *name;		/* "user", "events" */
	const char *unit;		/* "s", or NULL */
	lttv_stats_kind kind;
	int width;			/* in the text; < 0: left-aligned */
} lttv_stats_column;

typedef struct lttv_stats_table {
	const char *id;			/* "cpu-time", "types", "cpus", "processes" */
	const char *title;
	unsigned ncols, nrows;
	const lttv_stats_column *cols;
	int has_total;			/* the last row is the total ("all") */
	uint64_t *num;			/* [row * ncols + col] */
	char **text;			/* [row * ncols + col], TEXT columns only */
} lttv_stats_table;

/* The tables in the order of the text; rows in its order (busiest first). */
unsigned lttv_stats_calc_tables(const lttv_stats_calc *c, lttv_stats_table **out);
void lttv_stats_tables_free(lttv_stats_table *t, unsigned n);
/* A cell as it is shown: seconds with 6 decimals, cut as lttv-text cuts
 * them; a count in decimal; LTTV_STATS_NONE empty (numeric kinds). */
void lttv_stats_format(lttv_stats_kind kind, uint64_t num, char *buf, size_t size);
int lttv_stats_calc_failed(const lttv_stats_calc *c);
void lttv_stats_calc_free(lttv_stats_calc *c);
/* lttv-gtk -t TRACE --stats [--range A..B]: the tab's text on stdout. */
int lttv_stats_cli(const char *const *traces, unsigned ntraces, const char *range);

/* ---- bench.c ---- */

/* --bench: open, index and draw as the window does, timed (bench/viewer.py). */
int lttv_bench(const char *const *traces, unsigned ntraces, const char *size);

/* ---- analysis-calc.c, analysis-draw.c: the Analyses tab ---- */

/* The data: one pass of the library's analyses over d's traces, in slices,
 * and the events counted per 1/LTTV_DENSITY_BINS of the trace. */
#define LTTV_DENSITY_BINS 1024
typedef struct lttv_adata lttv_adata;
lttv_adata *lttv_adata_new(lttv_doc *d);
void lttv_adata_free(lttv_adata *x);
/* Reads up to max_events more: 1 while there is more, 0 when done (or on
 * a read error: lttv_adata_error()). */
int lttv_adata_step(lttv_adata *x, unsigned max_events);
int lttv_adata_done(const lttv_adata *x);
const char *lttv_adata_error(const lttv_adata *x);
const ltt_analysis *lttv_adata_analysis(const lttv_adata *x);
const uint64_t *lttv_adata_density(const lttv_adata *x);
uint64_t lttv_adata_events(const lttv_adata *x);
unsigned lttv_density_bin(const lttv_doc *d, int64_t t);

typedef struct lttv_aview {
	const lttv_doc *doc;
	const lttv_adata *data;
	const ltt_analysis *an;		/* lttv_adata_analysis(data), NULL: none yet */
	int64_t t0, t1;			/* visible range */
	ltt_latency_kind kind;		/* of the scatter and histogram */
	const ltt_latency *selected;	/* circled in the scatter, or NULL */
	const char *message;
} lttv_aview;

typedef struct lttv_alayout {
	int x0, x1;			/* the time area */
	int dens_y, dens_h, cpu_y, cpu_h, sc_y, sc_h, hist_y, hist_h;
	int plot_y;			/* scatter: its points start under its key */
	int axis_y;			/* the time axis' labels, under the scatter */
	double lmin, lmax;		/* scatter: log10 of the durations shown */
} lttv_alayout;

/* The time axis of the Analyses tab: up to max ticks, 1-2-5 steps at
 * least 90 pixels apart; *t and label of each (seconds from the trace's
 * start, as the control flow's ruler). Returns how many. */
unsigned lttv_aaxis_ticks(const lttv_aview *v, const lttv_alayout *l, int64_t *t,
			  char (*label)[32], unsigned max);
/* What the scatter's point o is, for its tooltip: "37 sh: sched 1.234 ms,
 * from 4.567890123 s". */
void lttv_analysis_describe(const lttv_aview *v, const ltt_latency *o, char *buf,
			    size_t size);

/* What was drawn, for --layout and tests. */
typedef struct lttv_adraw_stats {
	uint64_t density_events;	/* events in the density bars drawn */
	uint64_t points;		/* scatter points */
	uint64_t hist[LTT_LATENCY_HIST_BUCKETS];
} lttv_adraw_stats;

void lttv_alayout_get(const lttv_aview *v, int width, int height, lttv_alayout *l);
int lttv_anatural_height(void);
double lttv_ax_of(const lttv_aview *v, const lttv_alayout *l, int64_t t);
/* stats may be NULL */
void lttv_analysis_draw(cairo_t *cr, const lttv_aview *v, int width, int height,
			lttv_adraw_stats *stats);
/* The scatter's occurrence under (x, y), copied into *out: 1, or 0 when
 * there is none. */
int lttv_analysis_hit(const lttv_aview *v, int width, int height, double x, double y,
		      ltt_latency *out);
/* Whether two occurrences are the same one. */
int lttv_same_occurrence(const ltt_latency *x, const ltt_latency *y);
/* "syscall", "sched", "irq", "softirq", "file": 0, or -1. */
int lttv_parse_latency_kind(const char *s, ltt_latency_kind *k);
/* --export FILE --view analyses [--latency KIND] (analysis-export.c) */
int lttv_export_analyses(const char *const *traces, unsigned ntraces, const char *file,
			 const char *range, const char *kind_name, const char *size,
			 int layout);

/* analysis-links.c: wakeup arrows and the critical path over the rows of
 * the control flow (called by lttv_draw when v->analysis is set). At most
 * one arrow per LTTV_ARROW_PX pixels: beyond, zoom in. */
#define LTTV_ARROW_PX 6
void lttv_draw_links(cairo_t *cr, const lttv_view *v, const lttv_layout *l);
/* The arrows drawn and the wakeups they stand for, in view. */
void lttv_arrows_count(const lttv_view *v, const lttv_layout *l, size_t *drawn, size_t *total);
/* The colour of a critical-path segment of kind k (ltt_path_kind), its
 * legend's label; the wakeup arrows' colour. */
void lttv_path_rgb(unsigned k, double rgb[3]);
const char *lttv_path_label(unsigned k);
void lttv_arrow_rgb(double rgb[3]);
/* The critical path drawn for v's selected process (its whole life; the
 * view draws what overlaps it): owned by analysis-links.c, valid until the
 * next call. 0 if none. */
size_t lttv_view_path(const lttv_view *v, const ltt_path_segment **segs);

/* ---- window.c ---- */

/* follow: open the trace again as it grows (live.c); side_by_side: the
 * traces compared (compare.c), offsets as lttv_parse_offsets() gives them */
int lttv_window_run(const char *const *traces, unsigned ntraces, const char *range,
		    const char *self_test, const char *screenshot, int follow,
		    const char *session, int side_by_side, const int64_t *offsets);

#endif
