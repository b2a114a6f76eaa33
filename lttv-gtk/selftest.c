/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * selftest.c - lttv-gtk --self-test "cmd; cmd; ...": drives the window
 * through the same handlers as the mouse and keys (and, with xdotool, real
 * X input), one command every 120 ms; expect-* commands print ok / not ok
 * lines (tests/t43-gui.sh turns them into checks).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "window.h"

/* ---- self-test ------------------------------------------------------------- */

static void expect(app *a, int cond, const char *what)
{
	a->checks++;
	if (!cond)
		a->failures++;
	printf("%s - %s\n", cond ? "ok" : "not ok", what);
	fflush(stdout);
}

static int save_window(app *a, const char *file)
{
	GdkWindow *gw = gtk_widget_get_window(a->win);
	GdkPixbuf *pb;
	int ok;

	if (!gw)
		return -1;
	pb = gdk_pixbuf_get_from_window(gw, 0, 0, gdk_window_get_width(gw),
					gdk_window_get_height(gw));
	if (!pb)
		return -1;
	ok = gdk_pixbuf_save(pb, file, "png", NULL, NULL);
	g_object_unref(pb);
	return ok ? 0 : -1;
}

/* Rows of the control flow, "pid:name" joined by spaces, for expect-rows. */
static char *row_names(app *a)
{
	GString *s = g_string_new(NULL);
	const ltt_state *st;

	g_mutex_lock(&a->doc->lock);
	st = ltt_state_index_state(a->doc->idx);
	for (unsigned r = 0; r < a->cf.v.nrows; r++) {
		ltt_state_process_info p;

		ltt_state_process(st, a->cf.rows[r].index, &p);
		g_string_append_printf(s, "%s%u:%s", r ? " " : "", p.pid, p.name);
	}
	g_mutex_unlock(&a->doc->lock);
	return g_string_free(s, FALSE);
}

static int64_t rel_time(app *a, const char *s)
{
	return a->doc->origin_ns + llround(g_ascii_strtod(s, NULL) * 1e9);
}

static void sync_views(app *a)
{
	if (!a->doc)
		return;
	g_mutex_lock(&a->doc->lock);
	lttv_view_sync(a, &a->cf);
	lttv_view_sync(a, &a->res);
	g_mutex_unlock(&a->doc->lock);
}

/* One command; returns 1 to be called again later (waiting), 0 when done. */
static int run_command(app *a, const char *cmd)
{
	char **w = g_strsplit_set(g_strstrip((char *)cmd), " ", 0);
	int n = (int)g_strv_length(w), again = 0, ok;
	lttv_layout l;
	char buf[256];

	sync_views(a);
	lttv_layout_of(&a->cf, &l);
	if (n == 0 || !*w[0]) {
		/* empty */
	} else if (!a->doc && strcmp(w[0], "wait-index") && strcmp(w[0], "expect-lost") &&
		   strcmp(w[0], "wait-stats") &&
		   strcmp(w[0], "quit") && strcmp(w[0], "run") && strcmp(w[0], "screenshot")) {
		snprintf(buf, sizeof(buf), "%s: no trace is open", w[0]);
		expect(a, 0, buf);
	} else if (!strcmp(w[0], "wait-stats")) {
		again = a->stats_job != NULL;
	} else if (!strcmp(w[0], "wait-index")) {
		again = a->doc && !a->indexed_done;
	} else if (!strcmp(w[0], "size") && n == 3) {
		gtk_window_resize(GTK_WINDOW(a->win), atoi(w[1]), atoi(w[2]));
	} else if (!strcmp(w[0], "range") && n == 2) {
		int64_t x, y;

		if (lttv_parse_range(w[1], a->doc->origin_ns, &x, &y) == 0)
			lttv_set_range(a, x, y);
	} else if (!strcmp(w[0], "key") && n >= 2) {
		lttv_key(a, gdk_keyval_from_name(w[1]),
			      n > 2 && !strcmp(w[2], "ctrl") ? GDK_CONTROL_MASK :
			      n > 2 && !strcmp(w[2], "shift") ? GDK_SHIFT_MASK : 0);
	} else if (!strcmp(w[0], "click-time") && n >= 3) {
		/* click at a time (seconds) on the row of a pid */
		int64_t t = rel_time(a, w[1]);
		int r = lttv_row_of_pid(&a->cf, (unsigned)atoi(w[2]));
		double x = lttv_time_to_x(&a->cf.v, &l, t);
		double y = l.y0 + ((double)r - a->cf.v.first_row) * l.row_h + l.row_h / 2.0;
		guint st = n > 3 && !strcmp(w[3], "shift") ? GDK_SHIFT_MASK : 0;

		lttv_mouse_press(&a->cf, x, y, 1, st);
		lttv_mouse_release(&a->cf, x, y);
	} else if (!strcmp(w[0], "drag") && n >= 3) {
		/* drag from one time to another (seconds) with button 1 or 3 */
		double x0 = lttv_time_to_x(&a->cf.v, &l, rel_time(a, w[1]));
		double x1 = lttv_time_to_x(&a->cf.v, &l, rel_time(a, w[2]));
		guint button = n > 3 ? (guint)atoi(w[3]) : 1;

		lttv_mouse_press(&a->cf, x0, l.y0 + 5, button, 0);
		lttv_mouse_motion(&a->cf, (x0 + x1) / 2, l.y0 + 5);
		lttv_mouse_motion(&a->cf, x1, l.y0 + 5);
		lttv_mouse_release(&a->cf, x1, l.y0 + 5);
	} else if (!strcmp(w[0], "scroll") && n >= 3) {
		double x = lttv_time_to_x(&a->cf.v, &l, rel_time(a, w[1]));

		lttv_mouse_scroll(&a->cf, x, !strcmp(w[2], "down") ? 1 : -1,
			     n > 3 && !strcmp(w[3], "ctrl") ? GDK_CONTROL_MASK :
			     n > 3 && !strcmp(w[3], "shift") ? GDK_SHIFT_MASK : 0);
	} else if (!strcmp(w[0], "sort") && n == 2) {
		lttv_mouse_press(&a->cf, l.col_x[atoi(w[1])] + 5, 5, 1, 0);
		lttv_mouse_release(&a->cf, l.col_x[atoi(w[1])] + 5, 5);
	} else if (!strcmp(w[0], "filter-rows")) {
		gtk_entry_set_text(GTK_ENTRY(a->row_filter), n > 1 ? w[1] : "");
		lttv_on_row_filter(GTK_SEARCH_ENTRY(a->row_filter), a);
	} else if (!strcmp(w[0], "filter-events")) {
		const char *e = strchr(cmd, ' ');

		gtk_entry_set_text(GTK_ENTRY(a->event_filter), e ? e + 1 : "");
		lttv_on_event_filter(GTK_ENTRY(a->event_filter), a);
	} else if (!strcmp(w[0], "select-pid") && n == 2) {
		lttv_select_row(&a->cf, lttv_row_of_pid(&a->cf, (unsigned)atoi(w[1])));
	} else if (!strcmp(w[0], "goto") && n == 2) {
		gtk_entry_set_text(GTK_ENTRY(a->goto_entry), w[1]);
		lttv_on_goto(GTK_ENTRY(a->goto_entry), a);
	} else if (!strcmp(w[0], "view") && n == 2) {
		gtk_notebook_set_current_page(GTK_NOTEBOOK(a->notebook),
					      !strcmp(w[1], "resources") ? 1 :
					      !strcmp(w[1], "statistics") ? 2 :
					      !strcmp(w[1], "analyses") ? 3 : 0);
	} else if (!strcmp(w[0], "list-key") && n == 2) {
		gtk_widget_grab_focus(a->list_area);
		lttv_key(a, gdk_keyval_from_name(w[1]), 0);
	} else if (!strcmp(w[0], "list-scrollbar") && n == 2) {
		/* move the list's scrollbar to a time (seconds) */
		gtk_adjustment_set_value(a->list_vadj, g_ascii_strtod(w[1], NULL) * 1e9);
	} else if (!strcmp(w[0], "list-click") && n == 2) {
		lttv_list_click(a, (atoi(w[1]) + 1) * LIST_LINE_H + 3);
	} else if (!strcmp(w[0], "expect-rows")) {
		char *names = row_names(a);
		const char *want = strchr(cmd, ' ');

		snprintf(buf, sizeof(buf), "rows are \"%s\" (got \"%s\")", want ? want + 1 : "",
			 names);
		expect(a, !strcmp(names, want ? want + 1 : ""), buf);
		g_free(names);
	} else if (!strcmp(w[0], "tracing")) {
		/* the dialog runs its own loop: open it from an idle callback */
		g_idle_add(lttv_control_idle, a);
	} else if (!strcmp(w[0], "tracing-start") || !strcmp(w[0], "tracing-stop") ||
		   !strcmp(w[0], "tracing-close")) {
		if (a->control_dlg)
			gtk_dialog_response(GTK_DIALOG(a->control_dlg),
					    !strcmp(w[0], "tracing-start") ? 1 :
					    !strcmp(w[0], "tracing-stop") ? 2 : GTK_RESPONSE_CLOSE);
	} else if (!strcmp(w[0], "expect-tracing") && n >= 2) {
		const char *want = strchr(cmd, ' ') + 1;
		const char *txt = a->control_msg ? gtk_label_get_text(GTK_LABEL(a->control_msg))
						 : "(no dialog)";

		snprintf(buf, sizeof(buf), "tracing dialog says \"%s\" (got \"%.150s\")", want, txt);
		expect(a, strstr(txt, want) != NULL, buf);
	} else if (!strcmp(w[0], "expect-lost") && n >= 2) {
		const char *want = strchr(cmd, ' ') + 1;
		const char *txt = gtk_label_get_text(GTK_LABEL(gtk_bin_get_child(GTK_BIN(a->lost_bar))));

		snprintf(buf, sizeof(buf), "lost-events bar says \"%s\" (got \"%.120s\")", want,
			 gtk_widget_get_visible(a->lost_bar) ? txt : "(hidden)");
		expect(a, gtk_widget_get_visible(a->lost_bar) && strstr(txt, want), buf);
	} else if (!strcmp(w[0], "expect-indexing")) {
		double f;
		int done;

		g_mutex_lock(&a->doc->lock);
		f = ltt_state_index_progress(a->doc->idx);
		done = ltt_state_index_done(a->doc->idx);
		g_mutex_unlock(&a->doc->lock);
		snprintf(buf, sizeof(buf), "still indexing (%.0f%%), %u rows drawn %u times "
			 "already, progress bar shown", f * 100, a->cf.v.nrows,
			 a->draws_while_indexing);
		expect(a, !done && f < 1 && a->cf.v.nrows > 0 && a->draws_while_indexing > 0 &&
			  gtk_widget_get_visible(a->progress), buf);
	} else if (!strcmp(w[0], "expect-indexed")) {
		expect(a, a->indexed_done && !gtk_widget_get_visible(a->progress),
		       "indexing finished, progress bar gone");
	} else if (!strcmp(w[0], "expect-status") && n >= 2) {
		const char *want = strchr(cmd, ' ') + 1;
		const char *txt = gtk_label_get_text(GTK_LABEL(a->status));

		snprintf(buf, sizeof(buf), "status bar says \"%s\" (got \"%.150s\")", want, txt);
		expect(a, strstr(txt, want) != NULL, buf);
	} else if (!strcmp(w[0], "expect-tip") && n >= 4) {
		/* the tooltip at a time on a pid's row contains the rest */
		int r = lttv_row_of_pid(&a->cf, (unsigned)atoi(w[2]));
		double x = lttv_time_to_x(&a->cf.v, &l, rel_time(a, w[1]));
		double y = l.y0 + ((double)r - a->cf.v.first_row) * l.row_h + l.row_h / 2.0;
		char *tip = lttv_tooltip_text(&a->cf, x, y), *nl;
		const char *want = strstr(cmd, w[3]);

		for (nl = tip; nl && *nl; nl++)
			if (*nl == '\n')
				*nl = '|';
		snprintf(buf, sizeof(buf), "tooltip has \"%s\" (got \"%s\")", want,
			 tip ? tip : "(none)");
		expect(a, tip && strstr(tip, want), buf);
		g_free(tip);
	} else if (!strcmp(w[0], "expect-help") && n >= 2) {
		const char *want = strchr(cmd, ' ') + 1;
		GList *kids = a->help ? gtk_container_get_children(GTK_CONTAINER(
			gtk_dialog_get_content_area(GTK_DIALOG(a->help)))) : NULL;
		const char *txt = kids ? gtk_label_get_text(GTK_LABEL(kids->data)) : "";

		snprintf(buf, sizeof(buf), "help shown, with \"%s\"", want);
		expect(a, a->help && gtk_widget_get_visible(a->help) && strstr(txt, want), buf);
		g_list_free(kids);
	} else if (!strcmp(w[0], "close-help")) {
		if (a->help)
			gtk_widget_destroy(a->help);
	} else if (!strcmp(w[0], "expect-res-tip") && n >= 4) {
		/* the tooltip at a time on a row of the resource view */
		lttv_layout rl;
		int row = atoi(w[2]);
		char *tip, *nl;
		const char *want = strstr(cmd, w[3]);
		double x, y;

		lttv_layout_of(&a->res, &rl);
		x = lttv_time_to_x(&a->res.v, &rl, rel_time(a, w[1]));
		y = rl.y0 + ((double)row - a->res.v.first_row) * rl.row_h + rl.row_h / 2.0;
		tip = lttv_tooltip_text(&a->res, x, y);
		for (nl = tip; nl && *nl; nl++)
			if (*nl == '\n')
				*nl = '|';
		snprintf(buf, sizeof(buf), "resource tooltip has \"%s\" (got \"%s\")", want,
			 tip ? tip : "(none)");
		expect(a, tip && strstr(tip, want), buf);
		g_free(tip);
	} else if (!strcmp(w[0], "find-text")) {
		/* type an expression in the event filter entry, without applying it */
		const char *e = strchr(cmd, ' ');

		gtk_entry_set_text(GTK_ENTRY(a->event_filter), e ? e + 1 : "");
	} else if (!strcmp(w[0], "show-hidden")) {
		lttv_show_hidden(a);
	} else if (!strcmp(w[0], "expect-row") && n == 3) {
		unsigned r = (unsigned)atoi(w[1]);
		ltt_state_process_info p = { 0 };

		g_mutex_lock(&a->doc->lock);
		if (r < a->cf.v.nrows)
			ltt_state_process(ltt_state_index_state(a->doc->idx), a->cf.rows[r].index, &p);
		g_mutex_unlock(&a->doc->lock);
		snprintf(buf, sizeof(buf), "row %u is pid %s (got %d)", r, w[2],
			 r < a->cf.v.nrows ? (int)p.pid : -1);
		expect(a, r < a->cf.v.nrows && p.pid == (unsigned)atoi(w[2]), buf);
	} else if (!strcmp(w[0], "expect-nrows") && n == 2) {
		snprintf(buf, sizeof(buf), "%s rows (got %u)", w[1], a->cf.v.nrows);
		expect(a, a->cf.v.nrows == (unsigned)atoi(w[1]), buf);
	} else if (!strcmp(w[0], "expect-selected") && n == 2) {
		int sel = a->cf.v.selected;
		ltt_state_process_info p = { 0 };

		g_mutex_lock(&a->doc->lock);
		if (sel >= 0)
			ltt_state_process(ltt_state_index_state(a->doc->idx),
					  a->cf.rows[sel].index, &p);
		g_mutex_unlock(&a->doc->lock);
		snprintf(buf, sizeof(buf), "selected row is pid %s (got %d)", w[1],
			 sel >= 0 ? (int)p.pid : -1);
		expect(a, sel >= 0 && p.pid == (unsigned)atoi(w[1]), buf);
	} else if (!strcmp(w[0], "expect-range") && n == 3) {
		double s0 = (a->t0 - a->doc->origin_ns) / 1e9, s1 = (a->t1 - a->doc->origin_ns) / 1e9;
		double w0 = g_ascii_strtod(w[1], NULL), w1 = g_ascii_strtod(w[2], NULL);

		snprintf(buf, sizeof(buf), "visible range %.9f..%.9f s (got %.9f..%.9f)", w0, w1,
			 s0, s1);
		expect(a, fabs(s0 - w0) < 1e-6 * (w1 - w0 + 1e-9) * 1e3 + 2e-9 &&
			  fabs(s1 - w1) < 1e-6 * (w1 - w0 + 1e-9) * 1e3 + 2e-9, buf);
	} else if (!strcmp(w[0], "expect-cursor") && n == 3) {
		int64_t c = !strcmp(w[1], "b") ? a->cursor_b : a->cursor_a;
		double got = c == INT64_MIN ? -1 : (c - a->doc->origin_ns) / 1e9;
		double want = g_ascii_strtod(w[2], NULL);

		snprintf(buf, sizeof(buf), "cursor %s at %.9f s (got %.9f)", w[1], want, got);
		expect(a, fabs(got - want) <= (a->t1 - a->t0) / 1e9 / 500, buf);
	} else if (!strcmp(w[0], "expect-list") && n >= 2) {
		const char *want = strchr(cmd, ' ') + 1;

		snprintf(buf, sizeof(buf), "first event line contains \"%s\" (got \"%.120s\")",
			 want, a->nlines ? a->lines[0].text : "");
		expect(a, a->nlines && strstr(a->lines[0].text, want), buf);
	} else if (!strcmp(w[0], "expect-filter-error") && n >= 2) {
		const char *txt = gtk_label_get_text(GTK_LABEL(a->filter_error));
		const char *want = strchr(cmd, ' ') + 1;

		snprintf(buf, sizeof(buf), "filter error shown: \"%s\" (got \"%s\")", want, txt);
		expect(a, gtk_widget_get_visible(a->filter_error) && strstr(txt, want), buf);
	} else if (!strcmp(w[0], "expect-stats") && n >= 2) {
		GtkTextBuffer *b = gtk_text_view_get_buffer(GTK_TEXT_VIEW(a->stats_view));
		GtkTextIter s, e;
		char *txt, *want = strchr(cmd, ' ') + 1;

		gtk_text_buffer_get_bounds(b, &s, &e);
		txt = gtk_text_buffer_get_text(b, &s, &e, FALSE);
		snprintf(buf, sizeof(buf), "statistics contain \"%s\"", want);
		expect(a, strstr(txt, want) != NULL, buf);
		if (!strstr(txt, want))
			printf("# %s\n", txt);
		g_free(txt);
	} else if ((!strcmp(w[0], "xclick") || !strcmp(w[0], "xscroll") ||
		    !strcmp(w[0], "xhover")) && n >= 3) {
		/* real X input (xdotool, XTEST) at a time on a pid's row */
		int64_t t = rel_time(a, w[1]);
		int r = lttv_row_of_pid(&a->cf, (unsigned)atoi(w[2])), rx = 0, ry = 0;
		double x = lttv_time_to_x(&a->cf.v, &l, t);
		double y = l.y0 + ((double)r - a->cf.v.first_row) * l.row_h + l.row_h / 2.0;
		char *c;

		gdk_window_get_origin(gtk_widget_get_window(a->cf.area), &rx, &ry);
		if (!strcmp(w[0], "xhover")) {
			c = g_strdup_printf("xdotool mousemove %d %d", rx + (int)x, ry + (int)y);
		} else {
			const char *mod = n > 4 ? w[4] : NULL;
			int button = !strcmp(w[0], "xclick") ? (n > 3 ? atoi(w[3]) : 1)
				     : (n > 3 && !strcmp(w[3], "up") ? 4 : 5);

			c = g_strdup_printf("xdotool mousemove %d %d %s%s click %d %s%s",
					    rx + (int)x, ry + (int)y, mod ? "keydown " : "",
					    mod ? mod : "", button, mod ? "keyup " : "",
					    mod ? mod : "");
		}
		if (!g_spawn_command_line_sync(c, NULL, NULL, NULL, NULL))
			printf("# could not run %s\n", c);
		g_free(c);
	} else if (!strcmp(w[0], "run") && n >= 2) {
		if (!g_spawn_command_line_sync(strchr(cmd, ' ') + 1, NULL, NULL, NULL, NULL))
			printf("# could not run %s\n", strchr(cmd, ' ') + 1);
	} else if (!strcmp(w[0], "screenshot") && n == 2) {
		snprintf(buf, sizeof(buf), "window saved to %s", w[1]);
		expect(a, save_window(a, w[1]) == 0, buf);
	} else if (!strcmp(w[0], "sleep") && n == 2) {
		/* handled by the caller */
	} else if (!strcmp(w[0], "quit")) {
		printf("# self-test: %d checks, %d failed\n", a->checks, a->failures);
		fflush(stdout);
		gtk_widget_destroy(a->win);
	} else if (lttv_live_script(a, w, n, &again, buf, sizeof(buf), &ok) ||
		   lttv_atab_script(a, w, n, &again, buf, sizeof(buf), &ok)) {
		if (ok >= 0)
			expect(a, ok, buf);
	} else {
		printf("not ok - unknown self-test command \"%s\"\n", cmd);
		a->failures++;
	}
	g_strfreev(w);
	return again;
}

gboolean lttv_script_step(gpointer data)
{
	app *a = data;

	if (!a->script || !a->script[a->script_pos]) {
		a->script_wait = 0;
		if (a->screenshot)
			expect(a, save_window(a, a->screenshot) == 0, "final screenshot saved");
		printf("# self-test: %d checks, %d failed\n", a->checks, a->failures);
		fflush(stdout);
		if (a->win)
			gtk_widget_destroy(a->win);
		return G_SOURCE_REMOVE;
	}
	if (!strncmp(a->script[a->script_pos], "sleep ", 6)) {
		unsigned ms = (unsigned)atoi(a->script[a->script_pos] + 6);

		a->script_pos++;
		a->script_wait = g_timeout_add(ms, lttv_script_step, a);
		return G_SOURCE_REMOVE;
	}
	if (!run_command(a, a->script[a->script_pos]))
		a->script_pos++;
	a->script_wait = g_timeout_add(120, lttv_script_step, a);
	return G_SOURCE_REMOVE;
}
