/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * filter-cli.c - lttv-gtk -t TRACE --filter EXPR: print the events the
 * expression keeps (time from the trace start, CPU, pid, name, event) and
 * their count, so that the language is testable without a display. A parse
 * error is printed with a caret under its column; exit status 2.
 */
#include <stdio.h>

#include "lttv-gtk.h"
#include "lttv-filter.h"

int lttv_filter_cli(const char *trace, const char *expr)
{
	ltt_error *err = NULL;
	ltt_trace *t;
	ltt_iter *it;
	ltt_state *st;
	const ltt_event *ev;
	lttv_filter *f;
	char *error = NULL;
	uint64_t n = 0;
	unsigned warned = 0;
	int64_t origin;
	int r;

	t = ltt_trace_open(trace, NULL, &err);
	if (!t) {
		fprintf(stderr, "lttv-gtk: %s\n", ltt_error_message(err));
		ltt_error_free(err);
		return 1;
	}
	lttv_report_warnings(t, &warned);
	origin = ltt_trace_get_info(t)->start_time_ns;	/* as lttv-text -r */
	f = lttv_filter_parse(expr, origin, &t, 1, &error);
	if (!f) {
		int col = 0;

		sscanf(error, "column %d", &col);
		fprintf(stderr, "lttv-gtk: filter: %s\n  %s\n  %*s^\n", error, expr,
			col > 0 ? col - 1 : 0, "");
		g_free(error);
		ltt_trace_close(t);
		return 2;
	}
	it = ltt_iter_new(&t, 1, &err);
	st = ltt_state_new();
	while ((r = ltt_iter_next(it, &ev, &err)) > 0) {
		int i;
		ltt_state_process_info pi = { 0 };

		ltt_state_process_event(st, ev);
		if (!lttv_filter_match(f, ev, st))
			continue;
		n++;
		i = ltt_state_cpu_process(st, ltt_event_cpu(ev));
		if (i < 0 || ltt_state_process(st, (unsigned)i, &pi) < 0)
			pi.name = "?";
		printf("%.9f cpu %u pid %u %s %s.%s\n", (ltt_event_time_ns(ev) - origin) / 1e9,
		       ltt_event_cpu(ev), pi.pid, pi.name, ltt_event_facility_name(ev),
		       ltt_event_name(ev));
	}
	if (r < 0)
		fprintf(stderr, "lttv-gtk: %s\n", ltt_error_message(err));
	lttv_report_warnings(t, &warned);
	printf("%" PRIu64 " events match\n", n);
	ltt_error_free(err);
	ltt_state_free(st);
	ltt_iter_free(it);
	lttv_filter_free(f);
	ltt_trace_close(t);
	return r < 0 ? 1 : 0;
}
