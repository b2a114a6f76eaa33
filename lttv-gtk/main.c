/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * lttv-gtk - the graphical viewer of LTT traces.
 *
 *   lttv-gtk [-t TRACE [-t TRACE2...]] [--range A..B] [--follow] [--session FILE]
 *                                         the window (a file dialog without -t);
 *                                         several traces are merged, as by lttv-text
 *   lttv-gtk -t TRACE --export F.png|F.svg [--range A..B] [--view controlflow|resources]
 *            [--size WxH] [--layout]      draw without a display
 *   lttv-gtk -t A -t B --side-by-side [--offset 2:+1.25] [--export F.png]
 *                                         the traces compared, not merged: in
 *                                         the window (compare.c) or a picture
 *                                         (multi.c)
 *   lttv-gtk -t TRACE --export F.png --view analyses [--latency KIND]
 *                                         the Analyses tab without a display
 *            [--filter EXPR [--only-matching]]  mark the events EXPR matches
 *   lttv-gtk -t TRACE --filter EXPR           print the events a filter keeps
 *   lttv-gtk -t TRACE --stats [--range A..B]  print the Statistics tab
 *   lttv-gtk -t TRACE --bench [--size WxH]    time indexing and drawing (bench/)
 *
 * Exit status: 0 ok, 1 trace or file error, 2 bad command line, 3 done,
 * but something was not read or decoded (each problem said on stderr, as
 * lttv-text does).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lttv-gtk.h"
#include "lttv-filter.h"
#include "ltt/tool-memory.h"
#include "ltt/tool-stdout.h"

int main(int argc, char **argv)
{
	char **traces = NULL, *export = NULL, *range = NULL, *view = NULL, *size = NULL;
	char *self_test = NULL, *screenshot = NULL, *filter = NULL, *latency = NULL;
	char *session = NULL, **offsets = NULL;
	gboolean bench = FALSE, stats = FALSE, layout = FALSE, version = FALSE, arrows = FALSE;
	gboolean follow = FALSE, only_matching = FALSE, side_by_side = FALSE;
	gint critical_pid = -1;
	GError *gerr = NULL;
	GOptionEntry entries[] = {
		{ "trace", 't', 0, G_OPTION_ARG_FILENAME_ARRAY, &traces,
		  "trace directory (repeat to merge traces, as lttv-text does)", "DIR" },
		{ "side-by-side", 0, 0, G_OPTION_ARG_NONE, &side_by_side,
		  "each trace its own group of rows under its name, not merged; every "
		  "trace's first event at 0 of one time axis. In the window, the other "
		  "traces' control flow is drawn under the first's, sharing its zoom, "
		  "scroll and cursors (drag a trace's band to move it in time); the event "
		  "list, filters, hidden rows, Resources, Statistics and Analyses are the "
		  "first trace's only", NULL },
		{ "offset", 0, 0, G_OPTION_ARG_STRING_ARRAY, &offsets,
		  "with --side-by-side: move the Nth trace (-t, from 1) by SECONDS on the "
		  "axis, e.g. 2:+1.25 (repeat for others)", "N:SECONDS" },
		{ "export", 0, 0, G_OPTION_ARG_FILENAME, &export,
		  "draw the view into FILE (.png or .svg) and exit; no display needed", "FILE" },
		{ "range", 0, 0, G_OPTION_ARG_STRING, &range,
		  "the time range to show: A..B in seconds from the trace start, or times "
		  "as lttv-text prints them", "A..B" },
		{ "view", 0, 0, G_OPTION_ARG_STRING, &view,
		  "with --export: controlflow (default), resources or analyses", "VIEW" },
		{ "latency", 0, 0, G_OPTION_ARG_STRING, &latency,
		  "with --export --view analyses: the latency shown, syscall (default), "
		  "sched, irq, softirq or file", "KIND" },
		{ "follow", 0, 0, G_OPTION_ARG_NONE, &follow,
		  "follow the trace while lttd writes it: the time line grows as it does",
		  NULL },
		{ "session", 0, 0, G_OPTION_ARG_FILENAME, &session,
		  "the window's session: read at the start (traces, range, cursors, filters, "
		  "hidden rows, bookmarks), written by Ctrl+S and at the end", "FILE" },
		{ "arrows", 0, 0, G_OPTION_ARG_NONE, &arrows,
		  "with --export: wakeup arrows between the rows of the control flow", NULL },
		{ "critical-path", 0, 0, G_OPTION_ARG_INT, &critical_pid,
		  "with --export: the critical path of process PID over the control flow", "PID" },
		{ "size", 0, 0, G_OPTION_ARG_STRING, &size,
		  "with --export: WIDTHxHEIGHT in pixels (default 1200 wide, all rows)", "WxH" },
		{ "layout", 0, 0, G_OPTION_ARG_NONE, &layout,
		  "with --export: print where the rows, times and colours are (for tests)",
		  NULL },
		{ "filter", 0, 0, G_OPTION_ARG_STRING, &filter,
		  "print the events that match a filter expression and exit; with --export: "
		  "mark them on the rows", "EXPR" },
		{ "only-matching", 0, 0, G_OPTION_ARG_NONE, &only_matching,
		  "with --export --filter: only the processes with a matching event", NULL },
		{ "stats", 0, 0, G_OPTION_ARG_NONE, &stats,
		  "print the Statistics tab of the trace (or of --range) and exit; "
		  "no display needed", NULL },
		{ "bench", 0, 0, G_OPTION_ARG_NONE, &bench,
		  "time opening, indexing and drawing at several zoom levels, "
		  "without a display (--size: the view, default 1200x800)", NULL },
		{ "self-test", 0, 0, G_OPTION_ARG_STRING, &self_test,
		  "drive the window with a script of commands (for tests), then quit", "SCRIPT" },
		{ "screenshot", 0, 0, G_OPTION_ARG_FILENAME, &screenshot,
		  "with --self-test: save the window into FILE (PNG) at the end", "FILE" },
		{ "version", 0, 0, G_OPTION_ARG_NONE, &version, "print the version and exit", NULL },
		{ NULL }
	};
	GOptionContext *ctx = g_option_context_new("- view LTT traces");
	unsigned ntraces;
	int rc;

	ltt_check_stdout_at_exit("lttv-gtk");	/* --help, --version too */
	ltt_exit_on_out_of_memory("lttv-gtk");
	g_option_context_add_main_entries(ctx, entries, NULL);
	g_option_context_set_ignore_unknown_options(ctx, FALSE);
	if (!g_option_context_parse(ctx, &argc, &argv, &gerr)) {
		fprintf(stderr, "lttv-gtk: %s (--help for the options)\n", gerr->message);
		g_error_free(gerr);
		g_option_context_free(ctx);
		return 2;
	}
	g_option_context_free(ctx);
	if (argc > 1) {
		fprintf(stderr, "lttv-gtk: unexpected argument \"%s\" (traces are given "
			"with -t)\n", argv[1]);
		return 2;
	}
	ntraces = traces ? g_strv_length(traces) : 0;
	if (version) {
		printf("lttv-gtk (Linux Trace Toolkit) %s\n", LTTTRACE_VERSION_STRING);
		rc = 0;
	} else if ((bench || stats || filter || export) && ntraces == 0) {
		fprintf(stderr, "lttv-gtk: --%s needs a trace: -t DIR\n",
			bench ? "bench" : stats ? "stats" : filter ? "filter" : "export");
		rc = 2;
	} else if ((view || layout) && !export) {
		fprintf(stderr, "lttv-gtk: --view and --layout go with --export\n");
		rc = 2;
	} else if ((arrows || critical_pid != -1) &&
		   (!export || (view && strcmp(view, "controlflow")))) {
		fprintf(stderr, "lttv-gtk: --arrows and --critical-path go with --export of the "
			"control flow\n");
		rc = 2;
	} else if (only_matching && (!export || !filter)) {
		fprintf(stderr, "lttv-gtk: --only-matching goes with --export and --filter\n");
		rc = 2;
	} else if (export && filter && view && !strcmp(view, "analyses")) {
		fprintf(stderr, "lttv-gtk: --filter marks the control flow or the resources, "
			"not the analyses\n");
		rc = 2;
	} else if (follow && (export || stats || filter || bench)) {
		fprintf(stderr, "lttv-gtk: --follow is for the window\n");
		rc = 2;
	} else if (session && (export || stats || filter || bench)) {
		fprintf(stderr, "lttv-gtk: --session is for the window\n");
		rc = 2;
	} else if (critical_pid < -1) {
		fprintf(stderr, "lttv-gtk: --critical-path wants a pid\n");
		rc = 2;
	} else if (latency && (!export || !view || strcmp(view, "analyses"))) {
		fprintf(stderr, "lttv-gtk: --latency goes with --export --view analyses\n");
		rc = 2;
	} else if (offsets && !side_by_side) {
		fprintf(stderr, "lttv-gtk: --offset goes with --side-by-side (merged traces "
			"share one clock)\n");
		rc = 2;
	} else if (side_by_side && (filter || arrows || critical_pid != -1 || stats || bench ||
				    (view && !strcmp(view, "analyses")))) {
		fprintf(stderr, "lttv-gtk: --side-by-side goes with the window or --export of "
			"the control flow or the resources, without --filter, --arrows, "
			"--critical-path, --stats, --bench\n");
		rc = 2;
	} else if (side_by_side && !export && (follow || session || ntraces < 2)) {
		fprintf(stderr, "lttv-gtk: the window compares traces side by side with two "
			"or more -t, without --follow or --session\n");
		rc = 2;
	} else if (side_by_side && !export) {
		int64_t *off = g_new0(int64_t, ntraces);
		char *error = NULL;

		if (lttv_parse_offsets(offsets, ntraces, off, &error) < 0) {
			fprintf(stderr, "lttv-gtk: %s\n", error);
			g_free(error);
			rc = 2;
		} else {
			rc = lttv_window_run((const char *const *)traces, ntraces, range,
					     self_test, screenshot, 0, NULL, 1, off);
		}
		g_free(off);
	} else if (side_by_side) {
		rc = lttv_export_side_by_side((const char *const *)traces, ntraces, offsets,
					      export, range, view, size, layout);
	} else if (bench) {
		rc = lttv_bench((const char *const *)traces, ntraces, size);
	} else if (stats) {
		rc = lttv_stats_cli((const char *const *)traces, ntraces, range);
	} else if (filter && !export) {
		rc = lttv_filter_cli((const char *const *)traces, ntraces, filter);
	} else if (export && view && !strcmp(view, "analyses")) {
		rc = lttv_export_analyses((const char *const *)traces, ntraces, export, range,
					  latency, size, layout);
	} else if (export) {
		rc = lttv_export((const char *const *)traces, ntraces, export, range, view, size,
				 layout, arrows, critical_pid, filter, only_matching);
	} else {
		rc = lttv_window_run((const char *const *)traces, ntraces, range, self_test,
				     screenshot, follow, session, 0, NULL);
	}
	/* what could not be printed was not done (--filter, --layout, --bench) */
	if ((fflush(stdout) != 0 || ferror(stdout)) && rc != 2) {
		fprintf(stderr, "lttv-gtk: write error on standard output: %s\n",
			g_strerror(errno));
		ltt_stdout_error_said();
		rc = 1;
	}
	if (rc == 0 && lttv_warnings_reported())
		rc = 3;
	g_strfreev(traces);
	g_strfreev(offsets);
	g_free(export);
	g_free(range);
	g_free(view);
	g_free(size);
	g_free(self_test);
	g_free(screenshot);
	g_free(filter);
	g_free(latency);
	g_free(session);
	return rc;
}
