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

int lttv_filter_cli(const char *const *traces, unsigned ntraces, const char *expr)
{
	ltt_error *err = NULL;
	ltt_trace **t = g_new0(ltt_trace *, ntraces);
	ltt_iter *it = NULL;
	ltt_state *st;
	const ltt_event *ev;
	lttv_filter *f = NULL;
	char *error = NULL;
	uint64_t n = 0;
	int64_t origin = INT64_MAX;
	int r = -1, rc = 1;
	unsigned opened;
	unsigned *warned = g_new0(unsigned, ntraces ? ntraces : 1);

	for (opened = 0; opened < ntraces; opened++) {
		t[opened] = ltt_trace_open(traces[opened], NULL, &err);
		if (!t[opened]) {
			fprintf(stderr, "lttv-gtk: %s\n", ltt_error_message(err));
			goto out;
		}
		/* times from the start, as lttv-text -r */
		if (ltt_trace_get_info(t[opened])->start_time_ns < origin)
			origin = ltt_trace_get_info(t[opened])->start_time_ns;
	}
	for (unsigned i = 0; i < ntraces; i++)
		lttv_report_warnings(t[i], &warned[i]);
	f = lttv_filter_parse(expr, origin, t, ntraces, &error);
	if (!f) {
		int col = 0;

		sscanf(error, "column %d", &col);
		fprintf(stderr, "lttv-gtk: filter: %s\n  %s\n  %*s^\n", error, expr,
			col > 0 ? col - 1 : 0, "");
		g_free(error);
		rc = 2;
		goto out;
	}
	it = ltt_iter_new(t, ntraces, &err);
	st = ltt_state_new();
	while (it && (r = ltt_iter_next(it, &ev, &err)) > 0) {
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
		       ltt_event_cpu(ev), pi.pid, ltt_text_safe(pi.name),
		       ltt_text_safe(ltt_event_facility_name(ev)), ltt_text_safe(ltt_event_name(ev)));
	}
	if (r < 0)
		fprintf(stderr, "lttv-gtk: %s\n", ltt_error_message(err));
	for (unsigned i = 0; i < ntraces; i++)
		lttv_report_warnings(t[i], &warned[i]);
	printf("%" PRIu64 " events match\n", n);
	rc = r < 0 ? 1 : 0;
	ltt_state_free(st);
out:
	ltt_error_free(err);
	ltt_iter_free(it);
	lttv_filter_free(f);
	for (unsigned i = 0; i < opened; i++)
		ltt_trace_close(t[i]);
	g_free(t);
	g_free(warned);
	return rc;
}
