/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ltt-ust-sample - a small program whose LTTng-UST tracepoints
 * (ltt_sample_tp.h) fill traces/lttng-ust-sample: every field type, edge
 * values (the extremes of each integer size, negative numbers, NaN-free
 * floats, empty and long strings and sequences), from two threads so
 * that the trace holds two vtids.  tests/lttng-ust/record.sh runs it.
 */
#define LTTNG_UST_TRACEPOINT_DEFINE
#define LTTNG_UST_TRACEPOINT_CREATE_PROBES
#include "ltt_sample_tp.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static void burst(int seed)
{
	static const char *const words[] = {
		"", "a", "hello, world", "tab\there \"quoted\" back\\slash",
		"utf-8: \xc3\xa9t\xc3\xa9",
		"a longer string that goes past sixteen bytes of the text array",
	};
	int32_t arr[4] = { INT32_MIN, -1, 0, INT32_MAX };
	uint16_t seq[300];

	for (unsigned i = 0; i < 300; i++)
		seq[i] = (uint16_t)(i * 257 + seed);
	for (int i = 0; i < 40; i++) {
		const char *w = words[(unsigned)(i + seed) % 6];
		size_t n = (size_t)(i * 7) % 300;

		lttng_ust_tracepoint(ltt_sample, integers, INT8_MIN + i, UINT8_MAX - i,
				     INT16_MIN + i, UINT16_MAX - i, INT32_MIN + i,
				     UINT32_MAX - (uint32_t)i, INT64_MIN + i,
				     UINT64_MAX - (uint64_t)i * 0x1000001);
		lttng_ust_tracepoint(ltt_sample, floats, (float)i / 3.0f,
				     -1e300 / (i + 1) + i * 0.125);
		lttng_ust_tracepoint(ltt_sample, texts, w, w, (unsigned)strlen(w));
		lttng_ust_tracepoint(ltt_sample, arrays, arr, seq, n % 256);
		lttng_ust_tracepoint(ltt_sample, enums, i % 22, (i & 1) ? -1 : 0);
		lttng_ust_tracepoint(ltt_sample, empty);
	}
}

static void *thread_main(void *arg)
{
	burst((int)(intptr_t)arg);
	return NULL;
}

/* ltt-ust-sample [ROUNDS]: ROUNDS times (default 1) a burst, one from
 * a second thread, another (bench/decode.py records millions of events) */
int main(int argc, char **argv)
{
	long rounds = argc > 1 ? strtol(argv[1], NULL, 10) : 1;

	for (long r = 0; r < rounds; r++) {
		pthread_t th;

		burst(0);
		if (pthread_create(&th, NULL, thread_main, (void *)(intptr_t)1) == 0)
			pthread_join(th, NULL);
		burst(2);
	}
	return 0;
}
