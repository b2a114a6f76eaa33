/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * session.c - bookmarks, and the window's session (--session FILE):
 *
 *   b, Shift+B    a bookmark at cursor A, or over A..B when both are set,
 *                 named #1, #2...; the last one removed
 *   --session F   read at the start: the traces (when -t gives none), then,
 *                 once they are open, the visible range, the cursors, the
 *                 row and event filters, the hidden rows, the bookmarks and
 *                 the process tree (t);
 *                 written by Ctrl+S and when the window closes
 *
 * The file is a GLib key file, times in ns as lttv-text prints them
 * without -r (the traces' own clock), so that a session reopens on the
 * same trace wherever it lies.
 */
#include <stdlib.h>
#include <string.h>

#include "window.h"

#define GROUP "session"

void lttv_bookmark_add(app *a)
{
	lttv_bookmark b = { 0 };

	if (!a->doc || a->cursor_a == INT64_MIN) {
		g_strlcpy(a->status_note, "a bookmark needs cursor A (click)", sizeof(a->status_note));
		lttv_queue_redraw(a);
		return;
	}
	b.t0 = a->cursor_b != INT64_MIN ? MIN(a->cursor_a, a->cursor_b) : a->cursor_a;
	b.t1 = a->cursor_b != INT64_MIN ? MAX(a->cursor_a, a->cursor_b) : a->cursor_a;
	snprintf(b.label, sizeof(b.label), "#%u", a->bookmarks->len + 1);
	g_array_append_val(a->bookmarks, b);
	a->bookmarks_gen++;
	lttv_queue_redraw(a);
}

void lttv_bookmark_remove_last(app *a)
{
	if (a->bookmarks->len)
		g_array_set_size(a->bookmarks, a->bookmarks->len - 1);
	a->bookmarks_gen++;
	lttv_queue_redraw(a);
}

void lttv_session_read(app *a)
{
	GKeyFile *k;
	GError *err = NULL;

	if (!a->session || !g_file_test(a->session, G_FILE_TEST_EXISTS))
		return;		/* a new session: written at the end */
	k = g_key_file_new();
	if (!g_key_file_load_from_file(k, a->session, G_KEY_FILE_NONE, &err)) {
		char *msg = g_strdup_printf("session %s not read: %s", a->session, err->message);

		g_printerr("lttv-gtk: %s\n", msg);
		lttv_show_problem(a, msg);
		g_free(msg);
		g_error_free(err);
		g_key_file_free(k);
		return;
	}
	if (!a->trace_paths)
		a->trace_paths = g_key_file_get_string_list(k, GROUP, "traces", NULL, NULL);
	a->session_restore = k;
}

static int64_t get_ns(GKeyFile *k, const char *key, int64_t dflt)
{
	char *v = g_key_file_get_value(k, GROUP, key, NULL);
	int64_t r = v && *v ? g_ascii_strtoll(v, NULL, 10) : dflt;

	g_free(v);
	return r;
}

void lttv_session_apply(app *a)
{
	GKeyFile *k = a->session_restore;
	char **hidden, **marks, *text;
	int64_t t0, t1;

	if (!k || !a->doc)
		return;
	a->session_restore = NULL;
	t0 = get_ns(k, "t0", a->t0);
	t1 = get_ns(k, "t1", a->t1);
	if (t1 > t0)
		lttv_set_range(a, t0, t1);
	a->cursor_a = get_ns(k, "cursor_a", INT64_MIN);
	a->cursor_b = get_ns(k, "cursor_b", INT64_MIN);
	if (a->cursor_a != INT64_MIN)
		lttv_set_cursor(a, a->cursor_a, 0);
	a->doc->tree = g_key_file_get_boolean(k, GROUP, "tree", NULL);	/* absent: FALSE */
	hidden = g_key_file_get_string_list(k, GROUP, "hidden", NULL, NULL);
	for (char **h = hidden; h && *h; h++)
		g_hash_table_add(a->doc->hidden, g_strdup(*h));
	g_strfreev(hidden);
	if ((text = g_key_file_get_string(k, GROUP, "rows", NULL)) && *text)
		gtk_entry_set_text(GTK_ENTRY(a->row_filter), text);	/* applies it */
	g_free(text);
	if ((text = g_key_file_get_string(k, GROUP, "events", NULL)) && *text) {
		gtk_entry_set_text(GTK_ENTRY(a->event_filter), text);
		lttv_on_event_filter(GTK_ENTRY(a->event_filter), a);
	}
	g_free(text);
	marks = g_key_file_get_string_list(k, GROUP, "bookmarks", NULL, NULL);
	for (char **m = marks; m && *m; m++) {
		lttv_bookmark b = { 0 };
		char *rest;

		/* "T0 T1 LABEL" */
		b.t0 = g_ascii_strtoll(*m, &rest, 10);
		b.t1 = g_ascii_strtoll(rest, &rest, 10);
		g_strlcpy(b.label, g_strchug(rest), sizeof(b.label));
		if (b.t1 >= b.t0)
			g_array_append_val(a->bookmarks, b);
	}
	g_strfreev(marks);
	a->bookmarks_gen++;
	lttv_rows_changed(a);
	lttv_queue_redraw(a);
	g_key_file_free(k);
}

static void set_ns(GKeyFile *k, const char *key, int64_t v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%" G_GINT64_FORMAT, v);
	g_key_file_set_value(k, GROUP, key, buf);
}

int lttv_session_write(app *a)
{
	GKeyFile *k = g_key_file_new();
	GPtrArray *hidden = g_ptr_array_new(), *marks = g_ptr_array_new_with_free_func(g_free);
	GHashTableIter it;
	gpointer key;
	GError *err = NULL;
	int rc = 0;

	if (!a->doc) {
		g_key_file_free(k);
		g_ptr_array_free(hidden, TRUE);
		g_ptr_array_free(marks, TRUE);
		return -1;
	}
	{	/* absolute: the session may be opened from elsewhere */
		char **abs = g_new0(char *, a->doc->ntraces + 1);

		for (unsigned i = 0; i < a->doc->ntraces; i++)
			abs[i] = g_canonicalize_filename(a->doc->paths[i], NULL);
		g_key_file_set_string_list(k, GROUP, "traces", (const char *const *)abs,
					   a->doc->ntraces);
		g_strfreev(abs);
	}
	set_ns(k, "t0", a->t0);
	set_ns(k, "t1", a->t1);
	if (a->cursor_a != INT64_MIN)
		set_ns(k, "cursor_a", a->cursor_a);
	if (a->cursor_b != INT64_MIN)
		set_ns(k, "cursor_b", a->cursor_b);
	g_key_file_set_string(k, GROUP, "rows", a->doc->filter ? a->doc->filter : "");
	g_key_file_set_boolean(k, GROUP, "tree", a->doc->tree);
	g_key_file_set_string(k, GROUP, "events", a->filter_text ? a->filter_text : "");
	g_hash_table_iter_init(&it, a->doc->hidden);
	while (g_hash_table_iter_next(&it, &key, NULL))
		g_ptr_array_add(hidden, key);
	g_key_file_set_string_list(k, GROUP, "hidden", (const char *const *)hidden->pdata,
				   hidden->len);
	for (guint i = 0; i < a->bookmarks->len; i++) {
		const lttv_bookmark *b = &g_array_index(a->bookmarks, lttv_bookmark, i);

		g_ptr_array_add(marks, g_strdup_printf("%" G_GINT64_FORMAT " %" G_GINT64_FORMAT
						       " %s", b->t0, b->t1, b->label));
	}
	g_key_file_set_string_list(k, GROUP, "bookmarks", (const char *const *)marks->pdata,
				   marks->len);
	/* written whole or not at all: a rename over the old one */
	if (!g_key_file_save_to_file(k, a->session, &err)) {
		g_printerr("lttv-gtk: session %s not written: %s\n", a->session, err->message);
		g_error_free(err);
		rc = -1;
	}
	g_ptr_array_free(hidden, TRUE);
	g_ptr_array_free(marks, TRUE);
	g_key_file_free(k);
	return rc;
}
