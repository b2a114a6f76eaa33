/* SPDX-License-Identifier: GPL-2.0-or-later */
/* window.h - what the parts of the lttv-gtk window share (private). */
#ifndef LTTV_WINDOW_H
#define LTTV_WINDOW_H

#include <gtk/gtk.h>

#include "lttv-gtk.h"
#include "lttv-filter.h"

#define LIST_LINE_H 17

typedef struct app app;

typedef struct view_ui {
	app *a;
	lttv_view v;
	lttv_row *rows;
	GtkWidget *area, *scrollbar;
	GtkAdjustment *vadj;
	int press_button, dragging, selecting;
	double press_x, press_y;
	int64_t press_t0, press_t1;
	guint press_state;
	int dirty;			/* rows to rebuild (sort, filter, indexing) */
	unsigned rows_gen;		/* rebuilds of rows */
	unsigned reselect;		/* pid + 1 to select once its row is
					 * indexed (the trace opened again) */
	/* the last picture and what it was drawn from: GTK asks for a redraw
	 * for many reasons (a label resized, a tooltip); unchanged, the view
	 * is copied from here, not drawn again */
	cairo_surface_t *cache;
	struct draw_key {
		const void *doc, *view;
		unsigned rows_gen, nrows, first_row;
		int selected, width, height, sort_col, sort_desc, resources;
		int64_t t0, t1, cursor_a, cursor_b, sel_a, sel_b;
		const void *marks;
		int only_marked;
		unsigned bookmarks_gen;
		char message[64];
	} cache_key;
} view_ui;

/* One line of the event list: its columns, and all of them as one text. */
enum { LIST_TIME, LIST_CPU, LIST_PID, LIST_NAME, LIST_EVENT, LIST_FIELDS, LIST_NCOLS };

typedef struct list_line {
	int64_t t;
	unsigned cpu;
	int pid;			/* -1 unknown */
	char col[LIST_NCOLS][200];
	char text[LIST_NCOLS * 200 + 32];
} list_line;

/* indexer.c: the worker that builds the index and publishes snapshots */
typedef struct lttv_indexer {
	GThread *thread;
	gint stop;			/* set: the worker stops after its slice */
	unsigned gen;			/* one per start: older messages are dropped */
	int done;			/* the last snapshot has everything (or an error) */
	char *error;			/* why reading stopped, if it did */
	unsigned draws_while_indexing;
	/* what the window's last redraw of a snapshot cost it (us, its rows
	 * and the draw): the worker posts snapshots the less often (indexer.c) */
	gint frame_us;
} lttv_indexer;

/* eventlist.c: the lines on screen, filled from an anchor time, in slices */
typedef struct lttv_list {
	GtkWidget *area;
	GtkAdjustment *vadj;		/* its place in the trace, in ns */
	int adj_busy;			/* set while the list moves vadj itself */
	int64_t anchor;			/* the first line is the first event ... */
	unsigned skip;			/* ... after skipping this many at anchor */
	int scrolled;			/* the user moved the list itself: it
					 * stays while its first line is in view */
	list_line *lines;
	unsigned nlines, want;
	int selected;
	ltt_state *state;		/* the model as the fill reads on */
	guint idle;			/* a refresh is queued */
	/* the fill in progress: reading on from the anchor */
	ltt_iter *it;
	unsigned skip_left;
	guint fill_source;
	char *error;			/* reading stopped: shown in the list */
} lttv_list;

/* the notebook's pages, in their order (window.c builds it) */
enum {
	LTTV_PAGE_CONTROL_FLOW,
	LTTV_PAGE_RESOURCES,
	LTTV_PAGE_STATISTICS,
	LTTV_PAGE_ANALYSES,
};

/* stall-meter.c: the longest times (us) the main loop went without
 * turning since it started: in the thread's CPU time, on the clock less
 * the time it waited for a CPU, and on the clock */
typedef struct lttv_stall_meter {
	guint source;
	unsigned ticks;
	gint64 last_wall, last_queued, last_cpu;
	gint64 max_cpu, max_own, max_wall;
	int no_schedstat;		/* no /proc/thread-self/schedstat */
} lttv_stall_meter;
void lttv_stall_meter_start(lttv_stall_meter *m);
void lttv_stall_meter_stop(lttv_stall_meter *m);

typedef struct lttv_compare lttv_compare;	/* compare.c */
typedef struct lttv_find_job lttv_find_job;	/* find.c */
typedef struct lttv_selftest lttv_selftest;	/* selftest.c */

/*
 * The window: its widgets, the open document and what the user set on it
 * (range, cursors, filter), and one part per job that runs beside it.
 */
struct app {
	GtkApplication *gapp;
	GtkWidget *win, *notebook, *progress, *status, *row_filter, *event_filter;
	GtkWidget *goto_entry, *hidden_btn, *lost_bar;
	GtkWidget *filter_error;
	GtkWidget *find_stop;			/* shown while a search runs */
	GtkWidget *control_dlg, *control_msg;	/* while the dialog is open */
	GtkWidget *help;			/* the help dialog, while open */
	char **trace_paths;		/* -t, NULL-terminated */
	char *range;			/* --range, for the first trace opened */
	int exit_code;			/* set when the command line was wrong */
	lttv_doc *doc;
	view_ui cf, res;
	int64_t t0, t1, cursor_a, cursor_b;
	/* the search's word (progress, "no match..."): the status bar shows it
	 * after the window range until the next one or cursor A moves, so a
	 * redraw (a worker finishing) does not wipe it */
	char status_note[128];
	int64_t last_sel_a, last_sel_b;
	lttv_filter *filter;
	char *filter_text;		/* the expression of a->filter */
	ltt_state *tip_state;		/* the model at a hovered time */
	char *tip_shown;		/* the last tooltip given to GTK, or NULL */
	guint tip_requery;		/* GTK to ask it again (window.c) */
	lttv_indexer ix;
	lttv_list list;
	lttv_find_job *find;		/* a search running, or NULL */
	/* the event filter on the time line (marks.c): a->doc->marks once
	 * the worker is done */
	lttv_marks_job *marks_job;	/* marking, or NULL */
	guint marks_timer;		/* its progress, while it runs */
	GtkWidget *only_marked;		/* the "only rows with matches" toggle */
	int find_hold;			/* self-test: the next search waits for
					 * lttv_find_release before it reads */
	struct lttv_stats_job *stats_job;	/* statistics being computed */
	struct lttv_stats_tab *stats_tab;	/* the Statistics tab's widgets */
	lttv_selftest *selftest;	/* --self-test, or NULL */
	struct lttv_atab *atab;		/* the Analyses tab (analysis-view.c) */
	/* bookmarks and --session (session.c) */
	GArray *bookmarks;		/* lttv_bookmark */
	unsigned bookmarks_gen;		/* changes to them: the views redraw */
	char *session;			/* --session FILE, or NULL */
	GKeyFile *session_restore;	/* read at the start, applied once open */
	/* --follow (live.c) */
	int follow;
	guint live_timer;
	guint64 live_bytes;		/* of the trace's files (sizes and times),
					 * when last opened */
	GtkWidget *live_label;		/* what is not read yet, and why */
	unsigned live_reloads;
	int64_t live_mark;
	gint64 live_mark_time;
	gint64 live_grew_time;		/* when it was last opened again */
	int64_t live_opened;		/* CLOCK_REALTIME ns when it was */
	unsigned live_carried, live_reindexed;	/* openings whose index went on,
						 * was built again */
	unsigned live_still;		/* ticks without a change since */
	/* self-test: the control flow's draws, as lttv_drawn (live.c; for
	 * bench/live.py's latency) */
	GArray *drawn;
	/* --side-by-side (compare.c): the first trace is a->doc, with every
	 * tool; the others are drawn under it. NULL: one doc (merged). */
	lttv_compare *cmp;
	/* LTTV_GTK_BENCH set (bench/viewer.py): 1 until the first frame of
	 * the control flow is drawn, 2 until the first after indexing */
	int bench;
	lttv_stall_meter bench_meter;	/* from the first frame to the indexed one */
};


/* window.c */
/* The state of a row at t, whole (its true start s and end e, not cut at
 * the view's edges): lttv_whole_interval fills s, e, kind; 0, or -1 when
 * the row has no state there. */
typedef struct lttv_hit {
	int64_t t, s, e;
	int kind;
} lttv_hit;
int lttv_whole_interval(const lttv_doc *d, const lttv_row *row, lttv_hit *h);
void lttv_view_sync(app *a, view_ui *vu);
void lttv_rows_changed(app *a);
void lttv_show_help(app *a);
void lttv_show_problem(app *a, const char *msg);
void lttv_queue_redraw(app *a);
/* sets a->status_note (NULL clears it) and shows it */
void lttv_status_note(app *a, const char *note);
void lttv_set_range(app *a, int64_t t0, int64_t t1);
void lttv_zoom(app *a, double factor, int64_t center);
void lttv_zoom_fit(app *a);
view_ui *lttv_current_view(app *a);
void lttv_set_cursor(app *a, int64_t t, int which_b);
void lttv_select_row(view_ui *vu, int r);
int lttv_row_of_pid(view_ui *vu, unsigned pid);
void lttv_hide_selected(app *a);
void lttv_show_hidden(app *a);
void lttv_sort_by(app *a, int col);
void lttv_layout_of(view_ui *vu, lttv_layout *l);
void lttv_mouse_press(view_ui *vu, double x, double y, guint button, guint state);
void lttv_mouse_motion(view_ui *vu, double x, double y);
void lttv_mouse_release(view_ui *vu, double x, double y);
void lttv_mouse_scroll(view_ui *vu, double x, double dy, guint state);
char *lttv_tooltip_text(view_ui *vu, double x, double y);
void lttv_on_event_filter(GtkEntry *e, gpointer data);
void lttv_on_row_filter(GtkSearchEntry *e, gpointer data);
void lttv_on_goto(GtkEntry *e, gpointer data);
void lttv_on_zoom_sel(GtkButton *b, gpointer data);
void lttv_on_stats_refresh(GtkButton *b, gpointer data);
int lttv_key(app *a, guint key, guint state);

/* indexer.c */
void lttv_indexer_start(app *a);
void lttv_indexer_stop(app *a);

/* eventlist.c */
void lttv_list_refresh(app *a);
void lttv_list_queue_refresh(app *a);
void lttv_list_cancel(app *a);
/* The view moved to [t0, t1]: the list follows it (see eventlist.c). */
void lttv_list_follow(app *a, int64_t t0, int64_t t1);
void lttv_on_list_vadj(GtkAdjustment *adj, gpointer data);
void lttv_list_scroll(app *a, int n);
gboolean lttv_on_list_draw(GtkWidget *w, cairo_t *cr, gpointer data);
void lttv_list_click(app *a, double y);
gboolean lttv_on_list_press(GtkWidget *w, GdkEventButton *e, gpointer data);
gboolean lttv_on_list_scroll(GtkWidget *w, GdkEventScroll *e, gpointer data);
void lttv_on_list_size(GtkWidget *w, GdkRectangle *r, gpointer data);
int lttv_list_key(app *a, guint key);

/* find.c: search in a worker, with progress and a stop button */
/* Start a search for the next (dir > 0) or previous event that matches
 * the expression typed in the event filter entry. 0: started; -1: the
 * expression is wrong (said under the toolbar). */
int lttv_find(app *a, int dir);
int lttv_find_running(const app *a);
/* Stop the search, if one runs (it says so in the status bar). */
void lttv_find_cancel(app *a);
/* Let a search held by a->find_hold read (the self-test holds one so that
 * it can look at the window while the search is surely running). */
void lttv_find_release(app *a);

/* window.c: the event filter's marks (marks.c) */
void lttv_marks_restart(app *a);
void lttv_marks_stop(app *a);

/* stats.c */
typedef struct lttv_stats_job lttv_stats_job;
typedef struct lttv_stats_tab lttv_stats_tab;
GtkWidget *lttv_stats_widget(app *a);
void lttv_stats_free(app *a);
/* self-test: the tab as text (the summary, each table's title and rows as
 * shown, cells joined by one space; g_free it), and its commands (as
 * lttv_atab_script) */
char *lttv_stats_shown(app *a);
int lttv_stats_script(app *a, char **w, int n, int *again, char *buf, size_t size, int *ok);
void lttv_stats_refresh(app *a);
void lttv_stats_cancel(app *a);
/* The view or the cursors moved: the tab, if shown, is computed again
 * once they settle. */
void lttv_stats_follow(app *a);

/* control.c */
void lttv_on_control(GtkButton *button, gpointer data);
gboolean lttv_control_idle(gpointer data);

/* Opens the trace again (it grew): 0, or -1 if it cannot be read now
 * (the window keeps what it has). window.c */
int lttv_reload_doc(app *a);

/* session.c: b adds a bookmark at cursor A (A..B with both), B removes
 * the last; --session FILE is read at the start (traces, range, cursors,
 * filters, hidden rows, bookmarks), applied once the trace is open, and
 * written by Ctrl+S and at the end. */
void lttv_bookmark_add(app *a);
void lttv_bookmark_remove_last(app *a);
void lttv_session_read(app *a);
void lttv_session_apply(app *a);
int lttv_session_write(app *a);

/* LTTV_GTK_BENCH=analyses: the analyses are done, say the memory and quit
 * (window.c). */
void lttv_bench_analyses_done(app *a);

/* live.c: --follow */
void lttv_live_start(app *a);
void lttv_live_stop(app *a);
/* The trace could not be opened (error), or was (NULL): say what is not
 * read yet under the toolbar, or nothing. */
void lttv_live_say(app *a, const char *error);
/* The doc's traces opened again, their index carried on where it can
 * (lttv_doc_reopen; said on stderr where it cannot), or NULL with *error. */
lttv_doc *lttv_live_reopen(app *a, char **error);
/* Opens the traces of the command line (window.c): 0, or -1 (said). */
int lttv_open_trace_paths(app *a);
int lttv_live_script(app *a, char **w, int n, int *again, char *buf, size_t size, int *ok);
/* the control flow was drawn again (self-test: every draw remembered,
 * what it showed up to and when, for print-drawn and wait-drawn) */
void lttv_live_drawn(app *a, const lttv_view *v);

/* compare.c: --side-by-side in the window. The first trace is a->doc (all
 * the tools); the others, each its own doc indexed by a worker, are drawn
 * in a pane under the control flow as multi.c draws them, on the shared
 * axis (T of the axis is doc->origin_ns + T in each), following a->t0..t1
 * and the cursors; click, drag and wheel there act on the window. */
lttv_compare *lttv_compare_new(char *const *paths, unsigned n, const int64_t *offsets);
/* The control flow's page: the first trace's band over view (the control
 * flow's widget) and the pane of the others under it. */
GtkWidget *lttv_compare_page(app *a, GtkWidget *view);
/* Opens the others and starts indexing them: 0, or -1 (said on stderr). */
int lttv_compare_open(app *a);
/* A doc opened as the first trace: on the shared axis (its origin_ns). */
void lttv_compare_place(app *a, lttv_doc *d);
/* What the first trace's paths are: the first -t only. */
unsigned lttv_compare_first(const app *a);
/* The axis's extent in the first trace's ns (first: a->doc, or the doc
 * about to be): every trace's first to last event; first's alone without
 * --side-by-side. */
void lttv_compare_extent(app *a, const lttv_doc *first, int64_t *lo, int64_t *hi);
void lttv_compare_redraw(app *a);
void lttv_compare_stop(app *a);		/* the worker: before the window goes */
void lttv_compare_free(lttv_compare *c);
int lttv_compare_script(app *a, char **w, int n, int *again, char *buf, size_t size, int *ok);

/* analysis-view.c: the Analyses tab */
GtkWidget *lttv_atab_widget(app *a);
/* A new trace: the old pass goes; the new one starts when it is wanted. */
void lttv_atab_doc_changed(app *a);
/* The analyses are wanted (their tab shown, their links drawn, the index
 * done): their pass starts unless it ran or runs for this trace. */
void lttv_atab_want(app *a);
/* Stops the analyses' worker and forgets its pass (before the doc goes). */
void lttv_atab_stop(app *a);
void lttv_atab_redraw(app *a);
void lttv_atab_free(app *a);
/* The tab drawn once off screen, width x height, over the window's range
 * (LTTV_GTK_BENCH=analyses: the memory once it is shown). */
void lttv_atab_draw_offscreen(app *a, int width, int height);
/* its self-test commands: 1 if w[0] is one (*ok: -1 no check, else the
 * result of the check described in buf) */
int lttv_atab_script(app *a, char **w, int n, int *again, char *buf, size_t size,
		     int *ok);

/* selftest.c */
lttv_selftest *lttv_selftest_new(const char *script, const char *screenshot);
void lttv_selftest_start(app *a);
void lttv_selftest_stop(app *a);
int lttv_selftest_failures(const lttv_selftest *s);
void lttv_selftest_free(lttv_selftest *s);

#endif
