/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * lttv-convert - convert an LTT trace to another format.
 *
 *   lttv-convert --ctf OUT -t TRACE [-f DIR] [--replace]
 *
 * writes a CTF 1.8 trace that babeltrace2 and Trace Compass read, whole:
 * into a new folder renamed to OUT at the end (out-folder.c); an OUT that
 * is not empty is refused unless --replace (then, a CTF trace, replaced
 * whole). Exit
 * status: 0 done; 1 the trace could not be read or OUT written; 2 bad
 * command line; 3 done, but something was not read or decoded (events
 * without description are exported as raw bytes), each problem said on
 * stderr.
 */
#include <popt.h>
#include <stdlib.h>
#include <string.h>

#include "ctf-writer.h"
#include "out-folder.h"
#include "ltt/tool-memory.h"
#include "ltt/tool-stdout.h"

int main(int argc, const char **argv)
{
	char *trace_dir = NULL, *ctf = NULL, *fac = NULL, *tmp = NULL;
	int version = 0, replace = 0;
	GPtrArray *fac_dirs = g_ptr_array_new_with_free_func(free);
	struct poptOption table[] = {
		{ "trace", 't', POPT_ARG_STRING, &trace_dir, 0, "trace to convert", "DIR" },
		{ "ctf", 0, POPT_ARG_STRING, &ctf, 0, "write a CTF 1.8 trace into OUT", "OUT" },
		{ "facilities", 'f', POPT_ARG_STRING, &fac, 'f',
		  "also look for facility descriptions in DIR (repeatable)", "DIR" },
		{ "replace", 0, POPT_ARG_NONE, &replace, 0,
		  "replace OUT if it is a CTF trace already (else a folder that is not "
		  "empty is refused)", NULL },
		{ "version", 0, POPT_ARG_NONE, &version, 0,
		  "print the version and exit", NULL },
		POPT_AUTOHELP
		POPT_TABLEEND
	};
	poptContext ctx = poptGetContext("lttv-convert", argc, argv, table, 0);
	ltt_open_options opt = { .size = sizeof(opt) };
	ltt_error *err = NULL;
	ltt_trace *trace = NULL;
	ltt_iter *it = NULL;
	ctf_writer *w = NULL;
	const ltt_event *ev;
	uint64_t raw = 0;
	unsigned warned = 0;
	int rc, status = 0;

	ltt_check_stdout_at_exit("lttv-convert");	/* --help, --version too */
	ltt_exit_on_out_of_memory("lttv-convert");
	while ((rc = poptGetNextOpt(ctx)) > 0)
		if (rc == 'f') {
			g_ptr_array_add(fac_dirs, fac);
			fac = NULL;
		}
	if (rc == -1 && version) {
		printf("lttv-convert (Linux Trace Toolkit) %s\n", LTTTRACE_VERSION_STRING);
		goto out;
	}
	if (rc < -1 || poptPeekArg(ctx) || !trace_dir || !ctf) {
		if (rc < -1)
			fprintf(stderr, "lttv-convert: %s: %s\n",
				poptBadOption(ctx, POPT_BADOPTION_NOALIAS), poptStrerror(rc));
		else
			fprintf(stderr, "lttv-convert: usage: lttv-convert --ctf OUT -t TRACE "
				"[-f DIR] (--help for more)\n");
		status = 2;
		goto out;
	}
	g_ptr_array_add(fac_dirs, NULL);
	opt.facility_dirs = (const char *const *)fac_dirs->pdata;
	trace = ltt_trace_open(trace_dir, &opt, &err);
	if (!trace) {
		fprintf(stderr, "lttv-convert: %s\n", ltt_error_message(err));
		status = 1;
		goto out;
	}
	for (; warned < ltt_trace_num_warnings(trace); warned++)
		fprintf(stderr, "lttv-convert: warning: %s\n", ltt_trace_warning(trace, warned));
	if (ltt_trace_path_is_input(trace, ctf)) {
		/* it would write over the files it reads (SIGBUS, or a trace
		 * with a CTF inside): never */
		fprintf(stderr, "lttv-convert: --ctf %s: it is an input (the trace "
			"%s, or inside it): refused\n", ctf, trace_dir);
		status = 2;
		goto out;
	}
	tmp = out_folder_begin(ctf, replace);
	if (!tmp) {
		status = 2;
		goto out;
	}
	/* removed if memory runs out (tool-memory.h) */
	ltt_partial_output = tmp;
	ltt_partial_output_is_folder = 1;
	it = ltt_iter_new(&trace, 1, &err);
	w = ctf_writer_new(tmp, trace);
	while (it && (rc = ltt_iter_next(it, &ev, &err)) > 0) {
		if (!ltt_event_is_known(ev))
			raw++;
		if (ctf_writer_event(w, ev) < 0)
			break;
	}
	if (!it || rc < 0) {
		fprintf(stderr, "lttv-convert: %s\n", ltt_error_message(err));
		status = 1;
	}
	if (ctf_writer_close(w) < 0) {
		fprintf(stderr, "lttv-convert: %s\n", ctf_writer_error(w));
		status = 1;
	}
	if (!status && ctf_writer_malformed(w))
		fprintf(stderr, "lttv-convert: %" G_GUINT64_FORMAT " malformed events "
			"were exported as raw bytes\n", ctf_writer_malformed(w));
	if (!status && ctf_writer_clamped(w))
		fprintf(stderr, "lttv-convert: %" G_GUINT64_FORMAT " events went back "
			"in time in their stream: written at the time of the event "
			"before them (CTF readers refuse a stream that goes back)\n",
			ctf_writer_clamped(w));
	/* what the library found while reading, once each */
	for (; warned < ltt_trace_num_warnings(trace); warned++)
		fprintf(stderr, "lttv-convert: warning: %s\n", ltt_trace_warning(trace, warned));
	if (!status && raw)
		fprintf(stderr, "lttv-convert: %" G_GUINT64_FORMAT " events without "
			"description were exported as raw bytes\n", raw);
	if (!status && (raw || warned || ctf_writer_malformed(w) || ctf_writer_clamped(w)))
		status = 3;
	/* complete: in place of OUT; else OUT stays as it was */
	ltt_partial_output = NULL;
	if (status == 1)
		out_folder_abandon(tmp);
	else if (out_folder_commit(tmp, ctf) < 0)
		status = 1;
out:
	ctf_writer_free(w);
	ltt_iter_free(it);
	ltt_trace_close(trace);
	ltt_error_free(err);
	poptFreeContext(ctx);
	g_ptr_array_free(fac_dirs, TRUE);
	free(trace_dir);
	free(ctf);
	free(fac);
	g_free(tmp);
	return status;
}
