/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_trace.c - libFuzzer harness for the trace reader.
 *
 * The input is one tracefile. It is written as both cpu_0 and
 * control/facilities_0 of a scratch trace (so that facility_load events in
 * it are read too), then the trace is opened, iterated to the end with
 * every field formatted and visited, and seeked. Any crash, leak or
 * sanitizer report is a bug; errors are the expected outcome.
 * Run with `make fuzz` (seeds: the tracefiles under traces/).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ltttrace.h"

static char dir[64], cpu_path[96], fac_path[128];

static int count_fields(void *user, const char *name, int depth, const ltt_value *v)
{
	(*(unsigned *)user)++;
	return 0;
}

static void put(const char *path, const uint8_t *data, size_t size)
{
	FILE *f = fopen(path, "wb");

	if (!f)
		abort();
	if (size && fwrite(data, 1, size, f) != size)
		abort();
	fclose(f);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	ltt_trace *t;
	ltt_iter *it;
	const ltt_event *ev;
	char buf[512];
	unsigned n = 0, fields = 0;

	if (!dir[0]) {
		char ctl[96];

		snprintf(dir, sizeof(dir), "/tmp/ltt-fuzz-%d", (int)getpid());
		snprintf(ctl, sizeof(ctl), "%s/control", dir);
		mkdir(dir, 0700);
		mkdir(ctl, 0700);
		snprintf(cpu_path, sizeof(cpu_path), "%s/cpu_0", dir);
		snprintf(fac_path, sizeof(fac_path), "%s/facilities_0", ctl);
	}
	put(cpu_path, data, size);
	put(fac_path, data, size);
	t = ltt_trace_open(dir, NULL, NULL);
	if (!t)
		return 0;
	it = ltt_iter_new(&t, 1, NULL);
	while (it && n < 100000 && ltt_iter_next(it, &ev, NULL) > 0) {
		ltt_event_format_fields(ev, LTT_FORMAT_NAMES, buf, sizeof(buf));
		ltt_event_visit_fields(ev, count_fields, &fields);
		n++;
	}
	if (it && n) {
		ltt_iter_seek_time(it, ltt_trace_get_info(t)->start_time_ns, NULL);
		ltt_iter_next(it, &ev, NULL);
	}
	ltt_iter_free(it);
	ltt_trace_close(t);
	return 0;
}
