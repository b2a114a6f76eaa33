/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_trace.c - libFuzzer harness for the trace reader.
 *
 * The input becomes a trace (scratch-trace.h: the facilities channel and
 * one CPU), which is opened, iterated to the end with every field
 * formatted and visited, the state engine fed, then seeked. Descriptions
 * come from facilities/ and tests/facilities/ (the types scenario). Any
 * crash, leak, sanitizer report or hang is a bug; errors and warnings are
 * the expected outcome; so is text shown raw that the one rule escapes
 * (shown-safely.h: the formatted fields, the warnings). Run with `make fuzz` (seeds: tests/fuzz/seed.py).
 */
#include "ltttrace.h"
#include "scratch-trace.h"
#include "shown-safely.h"

static int count_fields(void *user, const char *name, int depth, const ltt_value *v)
{
	(*(unsigned *)user)++;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const dirs[] = { LTT_TEST_FACILITIES_DIR, NULL };
	ltt_open_options opt = { .size = sizeof(opt), .facility_dirs = dirs };
	const char *dir = scratch_trace(data, size);
	ltt_trace *t;
	ltt_iter *it;
	ltt_state *st;
	const ltt_event *ev;
	char buf[512];
	unsigned n = 0, fields = 0;

	t = ltt_trace_open(dir, &opt, NULL);
	if (!t)
		return 0;
	it = ltt_iter_new(&t, 1, NULL);
	st = ltt_state_new();
	while (it && n < 100000 && ltt_iter_next(it, &ev, NULL) > 0) {
		ltt_event_format_fields(ev, LTT_FORMAT_NAMES, buf, sizeof(buf));
		must_be_shown_safely(buf);
		must_be_shown_safely(ltt_text_safe(ltt_event_facility_name(ev)));
		must_be_shown_safely(ltt_text_safe(ltt_event_name(ev)));
		ltt_event_visit_fields(ev, count_fields, &fields);
		ltt_state_process_event(st, ev);
		n++;
	}
	for (unsigned i = 0; i < ltt_trace_num_warnings(t); i++)
		must_be_shown_safely(ltt_trace_warning(t, i));	/* NULL: a crash */
	if (it && n) {
		const ltt_trace_info *info = ltt_trace_get_info(t);

		ltt_iter_seek_time(it, info->start_time_ns, NULL);
		ltt_iter_next(it, &ev, NULL);
		ltt_iter_seek_time(it, info->last_event_ns, NULL);
		ltt_iter_next(it, &ev, NULL);
	}
	ltt_state_free(st);
	ltt_iter_free(it);
	ltt_trace_close(t);
	return 0;
}
