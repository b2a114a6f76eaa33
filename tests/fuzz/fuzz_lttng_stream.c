/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_lttng_stream.c - libFuzzer harness for the LTTng stream reader
 * (libltttrace/src/ctf-trace.c, ctf-decode.c): the input is one stream
 * file of traces/lttng-ust-sample (every field type LTTng-UST writes),
 * read whole, every event in time order through an iterator, each
 * event's fields formatted. Any input must give events and an end or an
 * error, never a crash, a hang or a leak. Seeds: the sample's stream
 * files.
 *
 * The sample's metadata is parsed once, and each input is opened
 * against it (ltt_ctf_trace_open_fd(), ctf.h) from a file kept in memory
 * (memfd) and rewritten per input: the packets are indexed, read with
 * pread and decoded as ltt_trace_open() does, without the TSDL parse,
 * the file writing and the folder walk of each open, which took 70 % of
 * an execution's CPU time (the parser has its own harness,
 * fuzz_lttng_meta). docs/fuzzing.md.
 */
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "ctf.h"

#ifndef LTT_FUZZ_LTTNG_METADATA
#error "LTT_FUZZ_LTTNG_METADATA: the metadata file the streams go with"
#endif

static ctf_meta *meta;
static int stream_fd = -1;

/* The stream file made this input's bytes, in place (pwrite, then
 * ftruncate to the new size). */
static void put(const uint8_t *data, size_t size)
{
	size_t done = 0;

	while (done < size) {
		ssize_t w = pwrite(stream_fd, data + done, size - done, (off_t)done);

		if (w <= 0)
			abort();
		done += (size_t)w;
	}
	if (ftruncate(stream_fd, (off_t)size) < 0)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	ltt_error *err = NULL;
	ltt_trace *t;

	if (!meta) {
		meta = ltt_ctf_meta_load(LTT_FUZZ_LTTNG_METADATA, &err);
		stream_fd = memfd_create("texts_0", MFD_CLOEXEC);
		if (!meta || stream_fd < 0)
			abort();
	}
	put(data, size);
	t = ltt_ctf_trace_open_fd("fuzz", meta, "texts_0", stream_fd, &err);
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
