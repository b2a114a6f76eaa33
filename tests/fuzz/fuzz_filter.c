/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_filter.c - libFuzzer harness for lttv-gtk's filter language
 * (lttv-gtk/filter.c). The input is an expression: it must parse, or be
 * refused with a column; a parsed filter is matched against the first
 * events of the sample trace with the state engine behind it. Any crash
 * or sanitizer report is a bug. Seeds: tests/fuzz/filter.seeds.
 */
#include <stdlib.h>
#include <string.h>

#include "lttv-filter.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static ltt_trace *t;
	char *text = g_strndup((const char *)data, size), *error = NULL;
	lttv_filter *f;

	if (!t && !(t = ltt_trace_open(LTT_FUZZ_FILTER_TRACE, NULL, NULL)))
		abort();
	f = lttv_filter_parse(text, ltt_trace_get_info(t)->start_time_ns, &t, 1, &error);
	if (!f && (!error || strncmp(error, "column ", 7)))
		abort();	/* refused without saying where */
	if (f) {
		ltt_iter *it = ltt_iter_new(&t, 1, NULL);
		ltt_state *st = ltt_state_new();
		const ltt_event *ev;
		unsigned n = 0;

		while (n++ < 100 && ltt_iter_next(it, &ev, NULL) > 0) {
			ltt_state_process_event(st, ev);
			(void)lttv_filter_match(f, ev, st);
		}
		ltt_state_free(st);
		ltt_iter_free(it);
	}
	lttv_filter_free(f);
	g_free(error);
	g_free(text);
	return 0;
}
