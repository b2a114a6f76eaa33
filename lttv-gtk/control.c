/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * control.c - the tracing-control dialog: runs lttctl (the one next to
 * lttv-gtk, else from PATH) to start (-d: create, lttd, start) or stop a
 * trace, and shows what it said; on a kernel without LTT, says so.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "window.h"

/* ---- tracing control ------------------------------------------------------------ */

void lttv_on_control(GtkButton *button, gpointer data)
{
	app *a = data;
	GtkWidget *dlg = gtk_dialog_new_with_buttons("Tracing control", GTK_WINDOW(a->win),
		GTK_DIALOG_MODAL | GTK_DIALOG_DESTROY_WITH_PARENT, "Start", 1, "Stop", 2,
		"Close", GTK_RESPONSE_CLOSE, NULL);
	GtkWidget *box = gtk_dialog_get_content_area(GTK_DIALOG(dlg));
	GtkWidget *grid = gtk_grid_new(), *name = gtk_entry_new(), *out = gtk_entry_new();
	GtkWidget *mode = gtk_combo_box_text_new(), *msg = gtk_label_new("");
	char *dir = g_build_filename(g_get_tmp_dir(), "ltt-trace", NULL);
	int resp;

	gtk_entry_set_text(GTK_ENTRY(name), "trace1");
	gtk_entry_set_text(GTK_ENTRY(out), dir);
	g_free(dir);
	gtk_combo_box_text_append_text(GTK_COMBO_BOX_TEXT(mode), "normal");
	gtk_combo_box_text_append_text(GTK_COMBO_BOX_TEXT(mode), "flight");
	gtk_combo_box_text_append_text(GTK_COMBO_BOX_TEXT(mode), "hybrid");
	gtk_combo_box_set_active(GTK_COMBO_BOX(mode), 0);
	gtk_grid_set_row_spacing(GTK_GRID(grid), 6);
	gtk_grid_set_column_spacing(GTK_GRID(grid), 6);
	gtk_grid_attach(GTK_GRID(grid), gtk_label_new("Trace name"), 0, 0, 1, 1);
	gtk_grid_attach(GTK_GRID(grid), name, 1, 0, 1, 1);
	gtk_grid_attach(GTK_GRID(grid), gtk_label_new("Output folder"), 0, 1, 1, 1);
	gtk_grid_attach(GTK_GRID(grid), out, 1, 1, 1, 1);
	gtk_grid_attach(GTK_GRID(grid), gtk_label_new("Mode"), 0, 2, 1, 1);
	gtk_grid_attach(GTK_GRID(grid), mode, 1, 2, 1, 1);
	gtk_label_set_line_wrap(GTK_LABEL(msg), TRUE);
	gtk_label_set_selectable(GTK_LABEL(msg), TRUE);
	gtk_grid_attach(GTK_GRID(grid), msg, 0, 3, 2, 1);
	gtk_container_set_border_width(GTK_CONTAINER(grid), 10);
	gtk_container_add(GTK_CONTAINER(box), grid);
	gtk_widget_show_all(dlg);
	a->control_dlg = dlg;
	a->control_msg = msg;
	while ((resp = gtk_dialog_run(GTK_DIALOG(dlg))) == 1 || resp == 2) {
		char *self = g_file_read_link("/proc/self/exe", NULL);
		char *bindir = self ? g_path_get_dirname(self) : g_strdup(".");
		char *lttctl = g_build_filename(bindir, "lttctl", NULL);
		char *mode_s = gtk_combo_box_text_get_active_text(GTK_COMBO_BOX_TEXT(mode));
		char *argv_start[] = { lttctl, "-n", (char *)gtk_entry_get_text(GTK_ENTRY(name)),
			"-d", "-t", (char *)gtk_entry_get_text(GTK_ENTRY(out)), "-m", mode_s, NULL };
		char *argv_stop[] = { lttctl, "-n", (char *)gtk_entry_get_text(GTK_ENTRY(name)),
			"-q", "-r", NULL };
		char *sout = NULL, *serr = NULL, *text;
		GError *gerr = NULL;
		int status = 0;

		if (!g_file_test(lttctl, G_FILE_TEST_IS_EXECUTABLE)) {
			g_free(lttctl);
			lttctl = g_strdup("lttctl");
			argv_start[0] = argv_stop[0] = lttctl;
		}
		if (!g_spawn_sync(NULL, resp == 1 ? argv_start : argv_stop, NULL,
				  G_SPAWN_SEARCH_PATH, NULL, NULL, &sout, &serr, &status, &gerr))
			text = g_strdup_printf("cannot run lttctl: %s", gerr->message);
		else if (g_spawn_check_wait_status(status, NULL))
			text = g_strdup_printf("%s: done.\n%s%s", resp == 1 ? "Started" : "Stopped",
					       sout, resp == 2 ? "Open the trace folder with Ctrl+O." : "");
		else
			text = g_strdup_printf("lttctl failed%s:\n%s%s",
					       strstr(serr ? serr : "", "NETLINK") ||
					       strstr(serr ? serr : "", "netlink") ?
					       " (this kernel has no LTT tracer: boot a kernel "
					       "with the patches of kernel/)" : "", serr, sout);
		gtk_label_set_text(GTK_LABEL(msg), text);
		if (gerr)
			g_error_free(gerr);
		g_free(text);
		g_free(sout);
		g_free(serr);
		g_free(mode_s);
		g_free(lttctl);
		g_free(bindir);
		g_free(self);
	}
	a->control_dlg = a->control_msg = NULL;
	gtk_widget_destroy(dlg);
}

gboolean lttv_control_idle(gpointer data)
{
	lttv_on_control(NULL, data);
	return G_SOURCE_REMOVE;
}
