/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * selftest.c - lttv-gtk --self-test "cmd; cmd; ...": drives the window
 * through the same handlers as the mouse and keys (and, with xdotool, real
 * X input), one command every 120 ms; expect-* commands print ok / not ok
 * lines (tests/t43-gui.sh turns them into checks). The commands are a
 * table: a name, the words it needs, whether it needs a trace open, and a
 * small function. "sleep MS" pauses the script.
 *
 * "meter" starts the stall meter (stall-meter.c), "expect-stall-under"
 * reads it: so a test can say that the window never froze.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ltt/tool-output.h"
#include "window.h"

struct lttv_selftest {
	char **script;
	unsigned pos;
	char *screenshot;		/* saved at the end */
	int failures, checks;
	guint wait;			/* the next step's timer */
	int soon;			/* the next step at the next turn */
	unsigned hovered;		/* hover-rows: the rows done */
	lttv_stall_meter meter;
};

/* A command's words: w[0] the command, w[1..n-1] its arguments; rest: the
 * text after the command word (for arguments with spaces). */
typedef struct cmd {
	app *a;
	char **w;
	int n;
	const char *rest;
	lttv_layout l;			/* the control flow's */
} cmd;

static void expect(app *a, int cond, const char *fmt, ...) G_GNUC_PRINTF(3, 4);

static void expect(app *a, int cond, const char *fmt, ...)
{
	va_list ap;

	a->selftest->checks++;
	if (!cond)
		a->selftest->failures++;
	printf("%s - ", cond ? "ok" : "not ok");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
}

/* The window as a PNG: never into a trace shown, written whole (as
 * --export) */
static int save_window(app *a, const char *file)
{
	GdkWindow *gw = gtk_widget_get_window(a->win);
	GdkPixbuf *pb;
	char *tmp;
	int ok;

	if (!gw || (a->doc && lttv_doc_output_is_input(a->doc, "screenshot", file)))
		return -1;
	pb = gdk_pixbuf_get_from_window(gw, 0, 0, gdk_window_get_width(gw),
					gdk_window_get_height(gw));
	if (!pb)
		return -1;
	tmp = ltt_output_begin(file);
	ok = tmp && gdk_pixbuf_save(pb, tmp, "png", NULL, NULL);
	g_object_unref(pb);
	if (tmp && ltt_output_finish(tmp, file, ok) < 0)
		ok = 0;
	return ok ? 0 : -1;
}

static int64_t rel_time(app *a, const char *s)
{
	return a->doc->origin_ns + llround(g_ascii_strtod(s, NULL) * 1e9);
}

/* The y of the middle of a pid's row in the control flow. */
static double row_y(cmd *c, unsigned pid)
{
	int r = lttv_row_of_pid(&c->a->cf, pid);

	return c->l.y0 + ((double)r - c->a->cf.v.first_row) * c->l.row_h + c->l.row_h / 2.0;
}

static guint modifier(const char *s)
{
	return !s ? 0 : !strcmp(s, "ctrl") ? GDK_CONTROL_MASK : !strcmp(s, "shift") ? GDK_SHIFT_MASK : 0;
}

static const char *label_text(GtkWidget *w)
{
	return gtk_label_get_text(GTK_LABEL(w));
}

/* ---- waiting ---- */

static int cmd_wait_index(cmd *c) { return c->a->doc && !c->a->ix.done; }
static int cmd_wait_stats(cmd *c) { return c->a->stats_job != NULL; }
/* until the first rows are drawn, or indexing ends: what "the window is
 * usable before indexing ends" waits for, however slow the machine */
static int cmd_wait_rows(cmd *c)
{
	return c->a->doc && !c->a->ix.done &&
	       (c->a->cf.v.nrows == 0 || c->a->ix.draws_while_indexing == 0);
}
static int cmd_wait_find(cmd *c) { return lttv_find_running(c->a); }
static int cmd_wait_marks(cmd *c) { return c->a->marks_job != NULL; }

/* ---- acting ---- */

static int cmd_size(cmd *c)
{
	gtk_window_resize(GTK_WINDOW(c->a->win), atoi(c->w[1]), atoi(c->w[2]));
	return 0;
}

static int cmd_range(cmd *c)
{
	int64_t x, y;

	if (lttv_parse_range(c->w[1], c->a->doc->origin_ns, &x, &y) == 0)
		lttv_set_range(c->a, x, y);
	return 0;
}

static int cmd_key(cmd *c)
{
	lttv_key(c->a, gdk_keyval_from_name(c->w[1]), modifier(c->n > 2 ? c->w[2] : NULL));
	return 0;
}

/* click-time T PID [shift]: a click at a time (seconds) on a pid's row */
static int cmd_click_time(cmd *c)
{
	double x = lttv_time_to_x(&c->a->cf.v, &c->l, rel_time(c->a, c->w[1]));
	double y = row_y(c, (unsigned)atoi(c->w[2]));

	lttv_mouse_press(&c->a->cf, x, y, 1, modifier(c->n > 3 ? c->w[3] : NULL));
	lttv_mouse_release(&c->a->cf, x, y);
	return 0;
}

/* drag T0 T1 [BUTTON [shift|ctrl]]: from one time to another with button 1
 * (pan; with shift: select A..B) or 3 (zoom) */
static int cmd_drag(cmd *c)
{
	double x0 = lttv_time_to_x(&c->a->cf.v, &c->l, rel_time(c->a, c->w[1]));
	double x1 = lttv_time_to_x(&c->a->cf.v, &c->l, rel_time(c->a, c->w[2]));
	double y = c->l.y0 + 5;

	lttv_mouse_press(&c->a->cf, x0, y, c->n > 3 ? (guint)atoi(c->w[3]) : 1,
			 modifier(c->n > 4 ? c->w[4] : NULL));
	lttv_mouse_motion(&c->a->cf, (x0 + x1) / 2, y);
	lttv_mouse_motion(&c->a->cf, x1, y);
	lttv_mouse_release(&c->a->cf, x1, y);
	return 0;
}

/* scroll T up|down [ctrl|shift] */
static int cmd_scroll(cmd *c)
{
	double x = lttv_time_to_x(&c->a->cf.v, &c->l, rel_time(c->a, c->w[1]));

	lttv_mouse_scroll(&c->a->cf, x, !strcmp(c->w[2], "down") ? 1 : -1,
			  modifier(c->n > 3 ? c->w[3] : NULL));
	return 0;
}

/* sort COLUMN: a click on its title */
static int cmd_sort(cmd *c)
{
	int col = atoi(c->w[1]);

	if (col >= 0 && col < LTTV_NUM_COLS) {
		lttv_mouse_press(&c->a->cf, c->l.col_x[col] + 5, 5, 1, 0);
		lttv_mouse_release(&c->a->cf, c->l.col_x[col] + 5, 5);
	}
	return 0;
}

static int cmd_filter_rows(cmd *c)
{
	gtk_entry_set_text(GTK_ENTRY(c->a->row_filter), c->n > 1 ? c->w[1] : "");
	lttv_on_row_filter(GTK_SEARCH_ENTRY(c->a->row_filter), c->a);
	return 0;
}

static int cmd_filter_events(cmd *c)
{
	gtk_entry_set_text(GTK_ENTRY(c->a->event_filter), c->rest);
	lttv_on_event_filter(GTK_ENTRY(c->a->event_filter), c->a);
	return 0;
}

/* find-text EXPR: typed in the event filter entry, not applied */
static int cmd_find_text(cmd *c)
{
	gtk_entry_set_text(GTK_ENTRY(c->a->event_filter), c->rest);
	return 0;
}

static int cmd_find_stop(cmd *c)
{
	if (gtk_widget_get_visible(c->a->find_stop))
		gtk_button_clicked(GTK_BUTTON(c->a->find_stop));
	return 0;
}

/* find-hold: the next search waits before it reads, until find-release
 * (or find-stop): a look at the window in between sees it running,
 * however fast the search would have been. */
static int cmd_find_hold(cmd *c)
{
	c->a->find_hold = 1;
	return 0;
}

static int cmd_find_release(cmd *c)
{
	lttv_find_release(c->a);
	return 0;
}

/* Select the row of a pid; while indexing, wait for the row to be there. */
static int cmd_select_pid(cmd *c)
{
	int r = lttv_row_of_pid(&c->a->cf, (unsigned)atoi(c->w[1]));

	if (r < 0 && !c->a->ix.done)
		return 1;
	lttv_select_row(&c->a->cf, r);
	return 0;
}

/* hide-pid PID: select its row and hide it in one step (no reopening by
 * --follow in between); while indexing, wait for the row to be there */
static int cmd_hide_pid(cmd *c)
{
	int r = lttv_row_of_pid(&c->a->cf, (unsigned)atoi(c->w[1]));

	if (r < 0 && !c->a->ix.done)
		return 1;
	lttv_select_row(&c->a->cf, r);
	lttv_hide_selected(c->a);
	return 0;
}

/*
 * Until the control flow has a row of the pid: under --follow a task
 * appears when the sub-buffer holding its first event arrives, which may
 * be after the first load. 60 s at most, then the next command says.
 */
static int cmd_wait_row_of(cmd *c)
{
	static gint64 since;
	gint64 now = g_get_monotonic_time();

	if (lttv_row_of_pid(&c->a->cf, (unsigned)atoi(c->w[1])) >= 0 ||
	    (since && now - since > 60 * G_USEC_PER_SEC)) {
		since = 0;
		return 0;
	}
	if (!since)
		since = now;
	return 1;
}

static int cmd_goto(cmd *c)
{
	gtk_entry_set_text(GTK_ENTRY(c->a->goto_entry), c->w[1]);
	lttv_on_goto(GTK_ENTRY(c->a->goto_entry), c->a);
	return 0;
}

static int cmd_view(cmd *c)
{
	gtk_notebook_set_current_page(GTK_NOTEBOOK(c->a->notebook),
				      !strcmp(c->w[1], "resources") ? LTTV_PAGE_RESOURCES :
				      !strcmp(c->w[1], "statistics") ? LTTV_PAGE_STATISTICS :
				      !strcmp(c->w[1], "analyses") ? LTTV_PAGE_ANALYSES :
				      LTTV_PAGE_CONTROL_FLOW);
	return 0;
}

static int cmd_list_key(cmd *c)
{
	gtk_widget_grab_focus(c->a->list.area);
	lttv_key(c->a, gdk_keyval_from_name(c->w[1]), 0);
	return 0;
}

/* list-scrollbar T: the list's scrollbar moved to a time (seconds) */
static int cmd_list_scrollbar(cmd *c)
{
	gtk_adjustment_set_value(c->a->list.vadj, g_ascii_strtod(c->w[1], NULL) * 1e9);
	return 0;
}

static int cmd_list_click(cmd *c)
{
	lttv_list_click(c->a, (atoi(c->w[1]) + 1) * LIST_LINE_H + 3);
	return 0;
}

/* only-matching on|off: the toggle of the toolbar */
static int cmd_only_matching(cmd *c)
{
	gtk_toggle_button_set_active(GTK_TOGGLE_BUTTON(c->a->only_marked),
				     !strcmp(c->w[1], "on"));
	return 0;
}

static int cmd_show_hidden(cmd *c)
{
	lttv_show_hidden(c->a);
	return 0;
}

static int cmd_close_help(cmd *c)
{
	if (c->a->help)
		gtk_widget_destroy(c->a->help);
	return 0;
}

/* tracing: the dialog runs its own loop, so it opens from an idle callback */
static int cmd_tracing(cmd *c)
{
	g_idle_add(lttv_control_idle, c->a);
	return 0;
}

static int cmd_tracing_button(cmd *c)
{
	if (c->a->control_dlg)
		gtk_dialog_response(GTK_DIALOG(c->a->control_dlg),
				    !strcmp(c->w[0], "tracing-start") ? 1 :
				    !strcmp(c->w[0], "tracing-stop") ? 2 : GTK_RESPONSE_CLOSE);
	return 0;
}

/* xclick|xscroll|xhover T PID ...: real X input (xdotool, XTEST) at a time
 * on a pid's row */
static int cmd_xinput(cmd *c)
{
	double x = lttv_time_to_x(&c->a->cf.v, &c->l, rel_time(c->a, c->w[1]));
	double y = row_y(c, (unsigned)atoi(c->w[2]));
	int rx = 0, ry = 0;
	char *line;

	gdk_window_get_origin(gtk_widget_get_window(c->a->cf.area), &rx, &ry);
	if (!strcmp(c->w[0], "xhover")) {
		line = g_strdup_printf("xdotool mousemove %d %d", rx + (int)x, ry + (int)y);
	} else {
		const char *mod = c->n > 4 ? c->w[4] : NULL;
		int button = !strcmp(c->w[0], "xclick") ? (c->n > 3 ? atoi(c->w[3]) : 1)
			     : (c->n > 3 && !strcmp(c->w[3], "up") ? 4 : 5);

		line = g_strdup_printf("xdotool mousemove %d %d %s%s click %d %s%s",
				       rx + (int)x, ry + (int)y, mod ? "keydown " : "",
				       mod ? mod : "", button, mod ? "keyup " : "", mod ? mod : "");
	}
	if (!g_spawn_command_line_sync(line, NULL, NULL, NULL, NULL))
		printf("# could not run %s\n", line);
	g_free(line);
	return 0;
}

static int cmd_run(cmd *c)
{
	if (!g_spawn_command_line_sync(c->rest, NULL, NULL, NULL, NULL))
		printf("# could not run %s\n", c->rest);
	return 0;
}

static int cmd_screenshot(cmd *c)
{
	expect(c->a, save_window(c->a, c->w[1]) == 0, "window saved to %s", c->w[1]);
	return 0;
}

static int cmd_quit(cmd *c)
{
	printf("# self-test: %d checks, %d failed\n", c->a->selftest->checks,
	       c->a->selftest->failures);
	fflush(stdout);
	gtk_widget_destroy(c->a->win);
	return 0;
}

/* ---- the stall meter ---- */

static int cmd_meter(cmd *c)
{
	lttv_stall_meter_start(&c->a->selftest->meter);
	return 0;
}

/*
 * expect-stall-under MS [WAIT_MS]: since "meter", the window never worked
 * MS of its thread's CPU time without turning its main loop, nor went
 * WAIT_MS (default 1000) without turning but for the time other processes
 * had the CPU. The first is the window's own doing, whatever the machine;
 * the second also counts what it waited for (a lock, a read, the X server,
 * which a loaded machine delays too), so its bound is looser: it is there
 * for a window that waits seconds for a worker.
 */
static int cmd_expect_stall(cmd *c)
{
	lttv_stall_meter *s = &c->a->selftest->meter;
	double ms = g_ascii_strtod(c->w[1], NULL);
	double wait_ms = c->n > 2 ? g_ascii_strtod(c->w[2], NULL) : 1000;

	lttv_stall_meter_stop(s);
	expect(c->a, s->ticks > 10 && s->max_cpu / 1000.0 < ms && s->max_own / 1000.0 < wait_ms,
	       "the window's main loop turned at least every %s ms of its work (longest %.1f "
	       "ms) and every %.0f ms of waiting (longest %.1f ms%s; %.1f ms on the clock), "
	       "%u ticks", c->w[1], s->max_cpu / 1000.0, wait_ms, s->max_own / 1000.0,
	       s->no_schedstat ? ", no schedstat: on the clock" : "",
	       s->max_wall / 1000.0, s->ticks);
	return 0;
}

/* ---- checking ---- */

/* The rows of the control flow, "pid:name" joined by spaces. */
static char *row_names(app *a)
{
	GString *s = g_string_new(NULL);
	const ltt_state *st = ltt_state_index_state(a->doc->view);

	for (unsigned r = 0; r < a->cf.v.nrows; r++) {
		ltt_state_process_info p;

		ltt_state_process(st, a->cf.rows[r].index, &p);
		g_string_append_printf(s, "%s%u:%s", r ? " " : "", p.pid, p.name);
	}
	return g_string_free(s, FALSE);
}

static int cmd_expect_rows(cmd *c)
{
	char *names = row_names(c->a);

	expect(c->a, !strcmp(names, c->rest), "rows are \"%s\" (got \"%s\")", c->rest, names);
	g_free(names);
	return 0;
}

/* print-rows: "rows: pid:name ..." (a test sorts them itself to compare) */
static int cmd_print_rows(cmd *c)
{
	char *names = row_names(c->a);

	printf("rows: %s\n", names);
	fflush(stdout);
	g_free(names);
	return 0;
}

/* print-tree: a line "tree DEPTH PID PPID TGID" per row of the control flow */
static int cmd_print_tree(cmd *c)
{
	const ltt_state *st = ltt_state_index_state(c->a->doc->view);

	for (unsigned r = 0; r < c->a->cf.v.nrows; r++) {
		ltt_state_process_info p;

		if (ltt_state_process(st, c->a->cf.rows[r].index, &p) == 0)
			printf("tree %u %u %u %u\n", c->a->cf.rows[r].depth, p.pid, p.ppid,
			       p.tgid);
	}
	fflush(stdout);
	return 0;
}

/* the pid of the process of row r of the control flow, or -1 */
static int row_pid(app *a, int r)
{
	ltt_state_process_info p;

	if (r < 0 || (unsigned)r >= a->cf.v.nrows ||
	    ltt_state_process(ltt_state_index_state(a->doc->view), a->cf.rows[r].index, &p) < 0)
		return -1;
	return (int)p.pid;
}

static int cmd_expect_row(cmd *c)
{
	int got = row_pid(c->a, atoi(c->w[1]));

	expect(c->a, got == atoi(c->w[2]), "row %s is pid %s (got %d)", c->w[1], c->w[2], got);
	return 0;
}

/* expect-no-row PID: no row of the control flow has that pid (hidden);
 * expect-row-of PID: one has; once indexed */
static int cmd_expect_no_row(cmd *c)
{
	int r = lttv_row_of_pid(&c->a->cf, (unsigned)atoi(c->w[1]));
	int want_none = !strcmp(c->w[0], "expect-no-row");

	if (!c->a->ix.done)	/* all the rows there (--follow opens it again) */
		return 1;
	expect(c->a, (r < 0) == want_none && c->a->cf.v.nrows > 0,
	       "%s of pid %s among %u (got row %d)", want_none ? "no row" : "a row", c->w[1],
	       c->a->cf.v.nrows, r);
	return 0;
}

static gint cmp_pointer(gconstpointer x, gconstpointer y)
{
	return (GPOINTER_TO_SIZE(x) > GPOINTER_TO_SIZE(y)) - (GPOINTER_TO_SIZE(x) < GPOINTER_TO_SIZE(y));
}

/*
 * print-marks: the event filter's matches per pid, as "marks pid=P n=N"
 * lines (all the processes of that pid), and "marks total=N", for a test
 * to compare with lttv-text; a check that marks are there.
 */
static int cmd_print_marks(cmd *c)
{
	app *a = c->a;
	const ltt_state *st = ltt_state_index_state(a->doc->view);
	const lttv_marks *m = a->doc->marks;
	GHashTable *per = g_hash_table_new(g_direct_hash, g_direct_equal);
	GList *pids, *l;

	expect(a, m != NULL, "the event filter's matches are marked");
	for (unsigned i = 0; m && i < ltt_state_num_processes(st); i++) {
		ltt_state_process_info p;
		uint64_t n = lttv_marks_count(m, LTT_STATE_ROW_PROCESS, i);
		gpointer k;

		if (!n || ltt_state_process(st, i, &p) < 0)
			continue;
		k = GUINT_TO_POINTER(p.pid + 1);
		g_hash_table_insert(per, k, GSIZE_TO_POINTER(
			GPOINTER_TO_SIZE(g_hash_table_lookup(per, k)) + n));
	}
	pids = g_list_sort(g_hash_table_get_keys(per), cmp_pointer);
	for (l = pids; l; l = l->next)
		printf("marks pid=%u n=%zu\n", GPOINTER_TO_UINT(l->data) - 1,
		       GPOINTER_TO_SIZE(g_hash_table_lookup(per, l->data)));
	if (m)
		printf("marks total=%" PRIu64 "\n", lttv_marks_total(m));
	fflush(stdout);
	g_list_free(pids);
	g_hash_table_destroy(per);
	return 0;
}

/* expect-marks-none: no filter, no marks, none being made */
static int cmd_expect_marks_none(cmd *c)
{
	expect(c->a, !c->a->doc->marks && !c->a->marks_job, "no marks without an event filter");
	return 0;
}

/* expect-bookmarks N [LABEL]: N bookmarks, the last one named LABEL */
static int cmd_expect_bookmarks(cmd *c)
{
	GArray *b = c->a->bookmarks;
	const char *last = b->len ? g_array_index(b, lttv_bookmark, b->len - 1).label : "";

	expect(c->a, b->len == (guint)atoi(c->w[1]) && (c->n < 3 || !strcmp(last, c->w[2])),
	       "%s bookmarks%s%s (got %u, the last \"%s\")", c->w[1], c->n > 2 ? ", the last " : "",
	       c->n > 2 ? c->w[2] : "", b->len, last);
	return 0;
}

/* expect-no-warnings: GLib and GTK logged no warning nor critical since
 * the start (an invalid cast, a wrong widget...) */
static int log_warnings;

static GLogWriterOutput count_warnings(GLogLevelFlags level, const GLogField *fields,
				       gsize n, gpointer user)
{
	if (level & (G_LOG_LEVEL_WARNING | G_LOG_LEVEL_CRITICAL | G_LOG_LEVEL_ERROR))
		g_atomic_int_inc(&log_warnings);
	return g_log_writer_default(level, fields, n, user);
}

static int cmd_expect_no_warnings(cmd *c)
{
	int n = g_atomic_int_get(&log_warnings);

	expect(c->a, n == 0, "no GLib/GTK warning or critical logged (got %d, on stderr)", n);
	return 0;
}

static int cmd_expect_nrows(cmd *c)
{
	expect(c->a, c->a->cf.v.nrows == (unsigned)atoi(c->w[1]), "%s rows (got %u)", c->w[1],
	       c->a->cf.v.nrows);
	return 0;
}

static int cmd_expect_selected(cmd *c)
{
	int got = row_pid(c->a, c->a->cf.v.selected);

	expect(c->a, got >= 0 && got == atoi(c->w[1]), "selected row is pid %s (got %d)",
	       c->w[1], got);
	return 0;
}

static int cmd_expect_range(cmd *c)
{
	app *a = c->a;
	double s0 = (a->t0 - a->doc->origin_ns) / 1e9, s1 = (a->t1 - a->doc->origin_ns) / 1e9;
	double w0 = g_ascii_strtod(c->w[1], NULL), w1 = g_ascii_strtod(c->w[2], NULL);
	double tol = 1e-6 * (w1 - w0 + 1e-9) * 1e3 + 2e-9;

	expect(a, fabs(s0 - w0) < tol && fabs(s1 - w1) < tol,
	       "visible range %.9f..%.9f s (got %.9f..%.9f)", w0, w1, s0, s1);
	return 0;
}

static int cmd_expect_cursor(cmd *c)
{
	app *a = c->a;
	int64_t t = !strcmp(c->w[1], "b") ? a->cursor_b : a->cursor_a;
	double got = t == INT64_MIN ? -1 : (t - a->doc->origin_ns) / 1e9;
	double want = g_ascii_strtod(c->w[2], NULL);

	expect(a, fabs(got - want) <= (a->t1 - a->t0) / 1e9 / 500, "cursor %s at %.9f s (got %.9f)",
	       c->w[1], want, got);
	return 0;
}

/* expect-list TEXT: the first line of the list, once it is filled */
static int cmd_expect_list(cmd *c)
{
	lttv_list *l = &c->a->list;

	if (l->idle || l->fill_source)
		return 1;

	expect(c->a, l->nlines && strstr(l->lines[0].text, c->rest),
	       "first event line contains \"%s\" (got \"%.120s\")", c->rest,
	       l->nlines ? l->lines[0].text : "");
	return 0;
}

static int cmd_expect_label(cmd *c, GtkWidget *w, const char *what)
{
	const char *txt = label_text(w);
	int shown = gtk_widget_get_visible(w);

	expect(c->a, shown && strstr(txt, c->rest), "%s says \"%s\" (got \"%.150s\")", what,
	       c->rest, shown ? txt : "(hidden)");
	return 0;
}

static int cmd_expect_status(cmd *c) { return cmd_expect_label(c, c->a->status, "status bar"); }

static int cmd_expect_filter_error(cmd *c)
{
	return cmd_expect_label(c, c->a->filter_error, "the line under the toolbar");
}

static int cmd_expect_lost(cmd *c)
{
	return cmd_expect_label(c, gtk_bin_get_child(GTK_BIN(c->a->lost_bar)), "the red bar");
}

static int cmd_expect_tracing(cmd *c)
{
	const char *txt = c->a->control_msg ? label_text(c->a->control_msg) : "(no dialog)";

	expect(c->a, strstr(txt, c->rest) != NULL, "tracing dialog says \"%s\" (got \"%.150s\")",
	       c->rest, txt);
	return 0;
}

static int cmd_expect_indexing(cmd *c)
{
	app *a = c->a;
	double f = ltt_state_index_progress(a->doc->view);
	int done = ltt_state_index_done(a->doc->view);

	expect(a, !done && f < 1 && a->cf.v.nrows > 0 && a->ix.draws_while_indexing > 0 &&
		  gtk_widget_get_visible(a->progress),
	       "still indexing (%.0f%%), %u rows drawn %u times already, progress bar shown",
	       f * 100, a->cf.v.nrows, a->ix.draws_while_indexing);
	return 0;
}

static int cmd_expect_indexed(cmd *c)
{
	expect(c->a, c->a->ix.done && !gtk_widget_get_visible(c->a->progress),
	       "indexing finished, progress bar gone");
	return 0;
}

/* A tooltip's text on one line, its lines joined by "|"; "(none)" for
 * no tooltip. */
static char *one_line(const char *tip)
{
	return g_strdelimit(g_strdup(tip ? tip : "(none)"), "\n", '|');
}

/* The tooltip of a view at (x, y) has want. */
static void expect_tip(cmd *c, view_ui *vu, double x, double y, const char *want,
		       const char *what)
{
	char *tip = lttv_tooltip_text(vu, x, y), *line = one_line(tip);

	expect(c->a, tip && strstr(line, want), "%s has \"%s\" (got \"%s\")", what, want, line);
	g_free(line);
	g_free(tip);
}

/* expect-tip T PID TEXT: the tooltip at a time on a pid's row */
static int cmd_expect_tip(cmd *c)
{
	expect_tip(c, &c->a->cf, lttv_time_to_x(&c->a->cf.v, &c->l, rel_time(c->a, c->w[1])),
		   row_y(c, (unsigned)atoi(c->w[2])), strstr(c->rest, c->w[3]), "tooltip");
	return 0;
}

/* The tooltip of each row on screen at x, as the pointer would ask. */
static void hover_at(cmd *c, double x, unsigned from, unsigned to)
{
	for (unsigned i = from; i < to && i < c->l.rows_fit &&
	     c->a->cf.v.first_row + i < c->a->cf.v.nrows; i++)
		g_free(lttv_tooltip_text(&c->a->cf, x, c->l.y0 + (double)i * c->l.row_h +
					 c->l.row_h / 2.0));
}

/*
 * hover-rows: GTK asks for the tooltip of every row on screen where
 * nothing is indexed yet (halfway from what the view has indexed to the
 * time line's end), all in one turn of the main loop: the stall meter
 * times the sum, which a replay of the trace for each row (what an
 * unindexed place once cost: from the last checkpoint up to the pointer)
 * takes far past the bound. Not the middle of the time line: once the
 * index has passed it, each row's tooltip is a real seek, and all of them
 * in one turn, which no pointer asks, can pass the bound (t56 failed the
 * more often, the faster the index; docs/performance.md). If everything on
 * the time line is indexed already, it says so and hovers the middle, one
 * row a turn, as GTK asks once per pointer move.
 */
static int cmd_hover_rows(cmd *c)
{
	lttv_selftest *s = c->a->selftest;
	const lttv_view *v = &c->a->cf.v;
	int64_t end = ltt_state_index_indexed_ns(c->a->doc->view);

	if (s->hovered == 0 && end < v->t1) {
		hover_at(c, lttv_time_to_x(v, &c->l, MAX(end, v->t0) + (v->t1 - MAX(end, v->t0)) / 2),
			 0, G_MAXUINT);
		return 0;
	}
	if (s->hovered == 0)
		printf("# hover-rows: the time line is indexed already: its middle, a row a turn\n");
	if (s->hovered >= c->l.rows_fit || v->first_row + s->hovered >= v->nrows) {
		s->hovered = 0;
		return 0;
	}
	hover_at(c, (c->l.x0 + c->l.x1) / 2.0, s->hovered, s->hovered + 1);
	s->hovered++;
	s->soon = 1;
	return 1;
}

/*
 * expect-tip-current [PID]: the tooltip GTK last showed over a view is what
 * the view says now at the pointer (the pointer resting while the rows are
 * sorted, zoomed or indexed must not leave a tooltip naming a process or
 * an interval no longer under it); with PID, it is that process's.
 */
static int cmd_expect_tip_current(cmd *c)
{
	GdkWindow *w = gtk_widget_get_window(c->a->cf.area);
	GdkDevice *ptr = gdk_seat_get_pointer(gdk_display_get_default_seat(gdk_window_get_display(w)));
	const char *shown = c->a->tip_shown;
	char want[32] = "";
	char *now;
	int x = 0, y = 0;

	gdk_window_get_device_position(w, ptr, &x, &y, NULL);
	now = lttv_tooltip_text(&c->a->cf, x, y);
	if (c->n > 1)
		snprintf(want, sizeof(want), "(pid %s)", c->w[1]);
	expect(c->a, shown && now && !strcmp(shown, now) && strstr(now, want),
	       "the tooltip shown at (%d, %d) is the view's there now%s%s", x, y,
	       *want ? ", " : "", want);
	if (!shown || !now || strcmp(shown, now)) {
		char *a = one_line(shown), *b = one_line(now);

		printf("#   shown: %s\n#   now:   %s\n", a, b);
		g_free(a);
		g_free(b);
	}
	g_free(now);
	return 0;
}

/* expect-res-tip T ROW TEXT: the same on a row of the resource view */
static int cmd_expect_res_tip(cmd *c)
{
	lttv_layout rl;

	lttv_layout_of(&c->a->res, &rl);
	expect_tip(c, &c->a->res, lttv_time_to_x(&c->a->res.v, &rl, rel_time(c->a, c->w[1])),
		   rl.y0 + ((double)atoi(c->w[2]) - c->a->res.v.first_row) * rl.row_h +
		   rl.row_h / 2.0, strstr(c->rest, c->w[3]), "resource tooltip");
	return 0;
}

static int cmd_expect_help(cmd *c)
{
	GtkWidget *h = c->a->help;
	GList *kids = h ? gtk_container_get_children(GTK_CONTAINER(
		gtk_dialog_get_content_area(GTK_DIALOG(h)))) : NULL;
	const char *txt = kids ? label_text(kids->data) : "";

	expect(c->a, h && gtk_widget_get_visible(h) && strstr(txt, c->rest),
	       "help shown, with \"%s\"", c->rest);
	g_list_free(kids);
	return 0;
}

/* the text of the tab, a row as its cells joined by one space */
static int cmd_expect_stats(cmd *c)
{
	char *txt = lttv_stats_shown(c->a);

	expect(c->a, strstr(txt, c->rest) != NULL, "statistics contain \"%s\"", c->rest);
	if (!strstr(txt, c->rest))
		printf("# %s\n", txt);
	g_free(txt);
	return 0;
}

typedef struct command {
	const char *name;
	int min_words;			/* with the command's own */
	int needs_trace;
	int (*fn)(cmd *c);		/* 1: not done, call again later */
} command;

static const command commands[] = {
	{ "wait-index", 1, 0, cmd_wait_index },
	{ "wait-stats", 1, 0, cmd_wait_stats },
	{ "wait-rows", 1, 0, cmd_wait_rows },
	{ "wait-find", 1, 0, cmd_wait_find },
	{ "wait-marks", 1, 0, cmd_wait_marks },
	{ "only-matching", 2, 1, cmd_only_matching },
	{ "print-marks", 1, 1, cmd_print_marks },
	{ "print-rows", 1, 1, cmd_print_rows },
	{ "print-tree", 1, 1, cmd_print_tree },
	{ "expect-no-row", 2, 1, cmd_expect_no_row },
	{ "expect-row-of", 2, 1, cmd_expect_no_row },
	{ "expect-marks-none", 1, 1, cmd_expect_marks_none },
	{ "expect-bookmarks", 2, 0, cmd_expect_bookmarks },
	{ "expect-no-warnings", 1, 0, cmd_expect_no_warnings },
	{ "size", 3, 0, cmd_size },
	{ "range", 2, 1, cmd_range },
	{ "key", 2, 1, cmd_key },
	{ "click-time", 3, 1, cmd_click_time },
	{ "drag", 3, 1, cmd_drag },
	{ "scroll", 3, 1, cmd_scroll },
	{ "sort", 2, 1, cmd_sort },
	{ "filter-rows", 1, 1, cmd_filter_rows },
	{ "filter-events", 1, 1, cmd_filter_events },
	{ "find-text", 1, 1, cmd_find_text },
	{ "find-stop", 1, 1, cmd_find_stop },
	{ "find-hold", 1, 1, cmd_find_hold },
	{ "find-release", 1, 1, cmd_find_release },
	{ "select-pid", 2, 1, cmd_select_pid },
	{ "hide-pid", 2, 1, cmd_hide_pid },
	{ "wait-row-of", 2, 1, cmd_wait_row_of },
	{ "goto", 2, 1, cmd_goto },
	{ "view", 2, 1, cmd_view },
	{ "list-key", 2, 1, cmd_list_key },
	{ "list-scrollbar", 2, 1, cmd_list_scrollbar },
	{ "list-click", 2, 1, cmd_list_click },
	{ "show-hidden", 1, 1, cmd_show_hidden },
	{ "close-help", 1, 0, cmd_close_help },
	{ "tracing", 1, 0, cmd_tracing },
	{ "tracing-start", 1, 0, cmd_tracing_button },
	{ "tracing-stop", 1, 0, cmd_tracing_button },
	{ "tracing-close", 1, 0, cmd_tracing_button },
	{ "xclick", 3, 1, cmd_xinput },
	{ "xscroll", 3, 1, cmd_xinput },
	{ "xhover", 3, 1, cmd_xinput },
	{ "expect-tip-current", 1, 1, cmd_expect_tip_current },
	{ "run", 2, 0, cmd_run },
	{ "screenshot", 2, 0, cmd_screenshot },
	{ "quit", 1, 0, cmd_quit },
	{ "meter", 1, 0, cmd_meter },
	{ "expect-stall-under", 2, 0, cmd_expect_stall },
	{ "expect-rows", 1, 1, cmd_expect_rows },
	{ "expect-row", 3, 1, cmd_expect_row },
	{ "expect-nrows", 2, 1, cmd_expect_nrows },
	{ "expect-selected", 2, 1, cmd_expect_selected },
	{ "expect-range", 3, 1, cmd_expect_range },
	{ "expect-cursor", 3, 1, cmd_expect_cursor },
	{ "expect-list", 2, 1, cmd_expect_list },
	{ "expect-status", 2, 1, cmd_expect_status },
	{ "expect-filter-error", 2, 1, cmd_expect_filter_error },
	{ "expect-lost", 2, 0, cmd_expect_lost },
	{ "expect-tracing", 2, 0, cmd_expect_tracing },
	{ "expect-indexing", 1, 1, cmd_expect_indexing },
	{ "expect-indexed", 1, 1, cmd_expect_indexed },
	{ "expect-tip", 4, 1, cmd_expect_tip },
	{ "hover-rows", 1, 1, cmd_hover_rows },
	{ "expect-res-tip", 4, 1, cmd_expect_res_tip },
	{ "expect-help", 2, 0, cmd_expect_help },
	{ "expect-stats", 2, 1, cmd_expect_stats },
};

/* The commands of other parts of the window: 1 if w[0] is one of them. */
static int other_command(app *a, char **w, int n, int *again)
{
	char buf[256];
	int ok = -1;

	if (!lttv_live_script(a, w, n, again, buf, sizeof(buf), &ok) &&
	    !lttv_atab_script(a, w, n, again, buf, sizeof(buf), &ok) &&
	    !lttv_stats_script(a, w, n, again, buf, sizeof(buf), &ok) &&
	    !lttv_compare_script(a, w, n, again, buf, sizeof(buf), &ok))
		return 0;
	if (ok >= 0)
		expect(a, ok, "%s", buf);
	return 1;
}

/* One command; returns 1 to be called again later (waiting), 0 when done. */
static int run_command(app *a, const char *line)
{
	char *text = g_strstrip(g_strdup(line));
	cmd c = { a, g_strsplit_set(text, " ", 0), 0, NULL };
	const command *k = NULL;
	int again = 0;

	c.n = (int)g_strv_length(c.w);
	c.rest = strchr(text, ' ') ? strchr(text, ' ') + 1 : "";
	if (a->doc) {
		lttv_view_sync(a, &a->cf);
		lttv_view_sync(a, &a->res);
	}
	lttv_layout_of(&a->cf, &c.l);
	for (size_t i = 0; c.n && *c.w[0] && i < G_N_ELEMENTS(commands); i++)
		if (!strcmp(c.w[0], commands[i].name))
			k = &commands[i];
	if (!c.n || !*c.w[0]) {
		/* empty */
	} else if (!k && other_command(a, c.w, c.n, &again)) {
		/* the Analyses tab's or --follow's (analysis-view.c, live.c) */
	} else if (!k || c.n < k->min_words) {
		expect(a, 0, "self-test command \"%s\" %s", text, k ? "lacks words" : "is unknown");
	} else if (k->needs_trace && !a->doc) {
		expect(a, 0, "%s: no trace is open", c.w[0]);
	} else {
		again = k->fn(&c);
	}
	g_strfreev(c.w);
	g_free(text);
	return again;
}

static gboolean step(gpointer data)
{
	app *a = data;
	lttv_selftest *s = a->selftest;
	const char *line = s->script[s->pos];

	s->wait = 0;
	if (!line) {
		if (s->screenshot)
			expect(a, save_window(a, s->screenshot) == 0, "final screenshot saved");
		printf("# self-test: %d checks, %d failed\n", s->checks, s->failures);
		fflush(stdout);
		if (a->win)
			gtk_widget_destroy(a->win);
		return G_SOURCE_REMOVE;
	}
	if (!strncmp(g_strchug((char *)line), "sleep ", 6)) {
		s->pos++;
		s->wait = g_timeout_add((guint)atoi(line + 6), step, a);
		return G_SOURCE_REMOVE;
	}
	if (!run_command(a, line))
		s->pos++;
	/* the window may be gone (quit) */
	if (a->win)
		s->wait = g_timeout_add(s->soon ? 0 : 120, step, a);
	s->soon = 0;
	return G_SOURCE_REMOVE;
}

lttv_selftest *lttv_selftest_new(const char *script, const char *screenshot)
{
	lttv_selftest *s = g_new0(lttv_selftest, 1);

	s->script = g_strsplit(script, ";", 0);
	g_log_set_writer_func(count_warnings, NULL, NULL);
	s->screenshot = g_strdup(screenshot);
	return s;
}

void lttv_selftest_start(app *a)
{
	a->selftest->wait = g_timeout_add(300, step, a);
}

void lttv_selftest_stop(app *a)
{
	lttv_selftest *s = a->selftest;

	if (!s)
		return;
	if (s->wait)
		g_source_remove(s->wait);
	s->wait = 0;
	lttv_stall_meter_stop(&s->meter);
}

int lttv_selftest_failures(const lttv_selftest *s)
{
	return s ? s->failures : 0;
}

void lttv_selftest_free(lttv_selftest *s)
{
	if (!s)
		return;
	g_strfreev(s->script);
	g_free(s->screenshot);
	g_free(s);
}
