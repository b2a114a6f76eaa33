/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_lttng_stream.c - libFuzzer harness for the LTTng stream reader
 * (libltttrace/src/ctf-trace.c, ctf-decode.c): the input is one stream
 * file beside the metadata of traces/lttng-ust-sample (every field type
 * LTTng-UST writes), read whole through the public API, each event's
 * fields formatted. Any input must give events and an end or an error,
 * never a crash, a hang or a leak. Seeds: the sample's stream files.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <glib.h>

#include "ltttrace.h"

#ifndef LTT_FUZZ_LTTNG_METADATA
#error "LTT_FUZZ_LTTNG_METADATA: the metadata file the streams go with"
#endif

static char dir[96];

static void put(const char *name, const uint8_t *data, size_t size)
{
	char path[160];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "wb");
	if (!f || (size && fwrite(data, 1, size, f) != size) || fclose(f) != 0)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	ltt_error *err = NULL;
	ltt_trace *t;

	if (!dir[0]) {
		gchar *meta;
		gsize len;

		snprintf(dir, sizeof(dir), "%s/ltt-fuzz-lttng-%d",
			 access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp", (int)getpid());
		if (g_mkdir_with_parents(dir, 0700) < 0 ||
		    !g_file_get_contents(LTT_FUZZ_LTTNG_METADATA, &meta, &len, NULL))
			abort();
		put("metadata", (const uint8_t *)meta, len);
		g_free(meta);
	}
	put("texts_0", data, size);
	t = ltt_trace_open(dir, NULL, &err);
	if (t) {
		ltt_iter *it = ltt_iter_new(&t, 1, &err);
		const ltt_event *ev;
		char buf[512];

		while (it && ltt_iter_next(it, &ev, &err) > 0)
			ltt_event_format_fields(ev, 0, buf, sizeof(buf));
		ltt_iter_free(it);
		ltt_trace_close(t);
	} else if (!err) {
		abort();	/* failure without a reason */
	}
	ltt_error_free(err);
	return 0;
}
