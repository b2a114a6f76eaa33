/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * lttv-text - print the events of LTT traces as text, one line each, in
 * time order. A thin client of libltttrace: option parsing here, the line
 * format in dump.c, the statistics in stats.c.
 *
 * Exit status: 0 all read and decoded; 1 a trace could not be read (the
 * events before the problem are printed); 2 bad command line; 3 read to
 * the end, but something was not read or decoded (events shown raw, a
 * tracefile skipped, ...): each problem is said once on stderr.
 */
#include <errno.h>
#include <limits.h>
#include <popt.h>
#include <stdlib.h>
#include <string.h>

#include "lttv-text.h"
#include "ltt/tool-output.h"
#include "ltt/tool-memory.h"
#include "ltt/tool-stdout.h"

int main(int argc, const char **argv)
{
	lttv_options o = { .worst = 5, .buckets = 10, .critical_pid = -1 };
	int write_failed = 0;	/* -o FILE: then left as it was */
	/* popt allocates string arguments: the arrays own them */
	GPtrArray *traces_arg = g_ptr_array_new_with_free_func(free);
	GPtrArray *fac_dirs = g_ptr_array_new_with_free_func(free);
	GPtrArray *events = g_ptr_array_new_with_free_func(free);
	char *arg_trace = NULL, *arg_fac = NULL, *arg_event = NULL;
	char *begin = NULL, *end = NULL, *output = NULL, *by = NULL;
	int rc, version = 0, all_analyses = 0;
	int threads = INT_MIN;	/* INT_MIN: --threads not given */
	enum { OPT_TRACE = 1, OPT_FAC, OPT_EVENT };
	struct poptOption table[] = {
		{ "trace", 't', POPT_ARG_STRING, &arg_trace, OPT_TRACE,
		  "trace directory to read (repeat to merge traces)", "DIR" },
		{ "facilities", 'f', POPT_ARG_STRING, &arg_fac, OPT_FAC,
		  "also look for facility descriptions in DIR (repeatable)", "DIR" },
		{ "event", 'e', POPT_ARG_STRING, &arg_event, OPT_EVENT,
		  "only events whose facility.event matches GLOB; without a dot, the "
		  "event name in any facility (repeatable)", "GLOB" },
		{ "begin", 0, POPT_ARG_STRING, &begin, 0,
		  "first time to show (seconds[.ns], as printed)", "TIME" },
		{ "end", 0, POPT_ARG_STRING, &end, 0,
		  "last time to show (seconds[.ns], as printed)", "TIME" },
		{ "field-names", 'n', POPT_ARG_NONE, &o.field_names, 0,
		  "print fields as name = value", NULL },
		{ "relative", 'r', POPT_ARG_NONE, &o.relative, 0,
		  "times relative to the start of the trace", NULL },
		{ "cycles", 0, POPT_ARG_NONE, &o.cycles, 0,
		  "print the raw 64-bit cycle count instead of the time", NULL },
		{ "cpu-stats", 'c', POPT_ARG_NONE, &o.cpu_stats, 0,
		  "after the events, per-CPU statistics", NULL },
		{ "summary", 'S', POPT_ARG_NONE, &o.summary, 0,
		  "after the events, a count per event type", NULL },
		{ "state", 's', POPT_ARG_NONE, &o.state, 0,
		  "add the pid, tgid, name and mode of the running process", NULL },
		{ "process-stats", 0, POPT_ARG_NONE, &o.process_stats, 0,
		  "after the events, CPU time per process and mode (between --begin and --end)", NULL },
		{ "syscalls", 0, POPT_ARG_NONE, &o.syscalls, 0,
		  "after the events, system-call latency per name (between --begin and --end)", NULL },
		{ "schedlat", 0, POPT_ARG_NONE, &o.schedlat, 0,
		  "after the events, scheduling latency (wakeup to switch-in) per process", NULL },
		{ "irqs", 0, POPT_ARG_NONE, &o.irqs, 0,
		  "after the events, IRQ handler time per line and softirq time per vector", NULL },
		{ "file-io", 0, POPT_ARG_NONE, &o.file_io, 0,
		  "after the events, reads and writes per file and per process", NULL },
		{ "cpu-top", 0, POPT_ARG_NONE, &o.cpu_top, 0,
		  "after the events, CPU usage per CPU and process, and over time", NULL },
		{ "analyses", 'A', POPT_ARG_NONE, &all_analyses, 0,
		  "all of --syscalls --schedlat --irqs --file-io --cpu-top", NULL },
		{ "by", 0, POPT_ARG_STRING, &by, 0,
		  "group latencies by name, process, cpu, process-name or all", "KEY" },
		{ "worst", 0, POPT_ARG_INT, &o.worst, 0,
		  "list the N longest occurrences of each analysis (default 5; 0: none)", "N" },
		{ "histogram", 0, POPT_ARG_NONE, &o.histogram, 0,
		  "print each group's latency histogram (base-2 buckets)", NULL },
		{ "buckets", 0, POPT_ARG_INT, &o.buckets, 0,
		  "slices of --cpu-top's usage over time (default 10)", "N" },
		{ "critical-path", 0, POPT_ARG_INT, &o.critical_pid, 0,
		  "after the events, the critical path of process PID: what it waited on, "
		  "who woke it (between --begin and --end)", "PID" },
		{ "stable", 0, POPT_ARG_NONE, &o.stable, 0,
		  "a dump that diffs across runs: relative times, pids renumbered, no addresses", NULL },
		{ "addresses", 0, POPT_ARG_NONE, &o.addresses, 0,
		  "with --stable, keep pointer values", NULL },
		{ "quiet", 'q', POPT_ARG_NONE, &o.quiet, 0,
		  "do not print events (only statistics and warnings)", NULL },
		{ "threads", 0, POPT_ARG_INT, &threads, 0,
		  "with -q and without -s: read the tracefiles in N threads (0, the default: one per "
		  "CPU)", "N" },
		{ "output", 'o', POPT_ARG_STRING, &output, 0,
		  "write to FILE instead of standard output", "FILE" },
		{ "version", 0, POPT_ARG_NONE, &version, 0,
		  "print the version and exit", NULL },
		POPT_AUTOHELP
		POPT_TABLEEND
	};
	poptContext ctx = poptGetContext("lttv-text", argc, argv, table, 0);

	ltt_check_stdout_at_exit("lttv-text");	/* --help, --version too */
	ltt_exit_on_out_of_memory("lttv-text");
	poptSetOtherOptionHelp(ctx, "-t TRACE [-t TRACE2...] [OPTION...]");
	while ((rc = poptGetNextOpt(ctx)) > 0) {
		switch (rc) {
		case OPT_TRACE: g_ptr_array_add(traces_arg, arg_trace); break;
		case OPT_FAC: g_ptr_array_add(fac_dirs, arg_fac); break;
		case OPT_EVENT: g_ptr_array_add(events, arg_event); break;
		}
	}
	if (rc < -1) {
		fprintf(stderr, "lttv-text: %s: %s\n",
			poptBadOption(ctx, POPT_BADOPTION_NOALIAS), poptStrerror(rc));
		rc = 2;
		goto done;
	}
	if (version) {
		printf("lttv-text (Linux Trace Toolkit) %s\n", LTTTRACE_VERSION_STRING);
		rc = 0;
		goto done;
	}
	if (poptPeekArg(ctx)) {
		fprintf(stderr, "lttv-text: unexpected argument \"%s\" (traces are "
			"given with -t)\n", poptPeekArg(ctx));
		rc = 2;
		goto done;
	}
	if (traces_arg->len == 0) {
		fprintf(stderr, "lttv-text: no trace given: use -t TRACE_DIR "
			"(--help for all options)\n");
		rc = 2;
		goto done;
	}
	if (all_analyses)
		o.syscalls = o.schedlat = o.irqs = o.file_io = o.cpu_top = 1;
	if (by) {
		if (lttv_parse_group_by(by, &o.group_by) < 0) {
			fprintf(stderr, "lttv-text: --by %s: want name, process, cpu, "
				"process-name or all\n", by);
			rc = 2;
			goto done;
		}
		o.has_group_by = 1;
	}
	if (o.critical_pid < -1) {
		fprintf(stderr, "lttv-text: --critical-path wants a pid\n");
		rc = 2;
		goto done;
	}
	if (o.worst < 0 || o.buckets < 0 || o.buckets > 100000) {
		fprintf(stderr, "lttv-text: --worst and --buckets want a count (--buckets "
			"at most 100000)\n");
		rc = 2;
		goto done;
	}
	if (o.stable) {
		o.relative = 1;
		o.pids = g_hash_table_new(g_direct_hash, g_direct_equal);
	}
	/* --threads where the events are followed in time order would be
	 * ignored: say so rather than run on one thread unasked */
	if (threads != INT_MIN && !lttv_reads_unordered(&o)) {
		fprintf(stderr, "lttv-text: --threads works only with -q and without -s, "
			"--process-stats or an analysis (they follow the events in time order)\n");
		rc = 2;
		goto done;
	}
	if (threads == INT_MIN)
		threads = 0;
	if (threads < 0 || threads > 1024) {
		fprintf(stderr, "lttv-text: --threads %d: from 0 to 1024 (0: one per CPU)\n",
			threads);
		rc = 2;
		goto done;
	}
	o.threads = (unsigned)threads;
	o.has_begin = begin != NULL;
	o.has_end = end != NULL;
	if ((begin && ltt_parse_seconds(begin, &o.begin_ns) < 0) ||
	    (end && ltt_parse_seconds(end, &o.end_ns) < 0)) {
		fprintf(stderr, "lttv-text: bad time \"%s\": want SECONDS[.NANOSECONDS]\n",
			begin && ltt_parse_seconds(begin, &o.begin_ns) < 0 ? begin : end);
		rc = 2;
		goto done;
	}
	if (o.has_begin && o.has_end && o.end_ns < o.begin_ns) {
		fprintf(stderr, "lttv-text: --end is before --begin\n");
		rc = 2;
		goto done;
	}
	g_ptr_array_add(fac_dirs, NULL);	/* NULL-terminated for the library */
	g_ptr_array_add(events, NULL);
	o.traces = (const char *const *)traces_arg->pdata;
	o.num_traces = traces_arg->len;
	o.facility_dirs = (const char *const *)fac_dirs->pdata;
	o.event_globs = (const char *const *)events->pdata;
	o.output = output;
	o.out = output ? NULL : stdout;	/* -o: opened by lttv_dump, after the traces */
	rc = lttv_dump(&o);
	if (o.out && (fflush(o.out) != 0 || ferror(o.out))) {
		fprintf(stderr, "lttv-text: write error: %s\n", strerror(errno));
		if (!output)
			ltt_stdout_error_said();
		rc = 1;
		write_failed = 1;
	}
	if (output && o.out && fclose(o.out) != 0 && rc != 1) {
		fprintf(stderr, "lttv-text: write error: %s\n", strerror(errno));
		rc = 1;
		write_failed = 1;
	}
	/* -o: the new file in place of FILE, unless its writing failed */
	if (o.output_tmp && ltt_output_finish(o.output_tmp, output, o.out && !write_failed) < 0 &&
	    o.out && !write_failed) {
		fprintf(stderr, "lttv-text: cannot write %s: %s\n", output, strerror(errno));
		rc = 1;
	}
done:
	poptFreeContext(ctx);
	if (o.pids)
		g_hash_table_destroy(o.pids);
	free(by);
	free(begin);
	free(end);
	free(output);
	g_ptr_array_free(traces_arg, TRUE);
	g_ptr_array_free(fac_dirs, TRUE);
	g_ptr_array_free(events, TRUE);
	return rc;
}
