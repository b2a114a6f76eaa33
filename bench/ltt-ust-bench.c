// SPDX-License-Identifier: GPL-2.0
/*
 * ltt-ust-bench - bench/tracer.py's user-space load for LTTng-UST 2.13,
 * run in the QEMU guest (built by bench/guest.py, linked with
 * liblttng-ust: it cannot be static like ltt-bench-tool):
 *
 *   ltt-ust-bench N SIZE
 *        N events ltt_bench:tick (ltt_bench_tp.h): a 32-bit sequence
 *        number and a string, SIZE bytes in all, as ltt-bench-tool's
 *        "generic" writes through our door
 *
 * Prints ltt-bench-tool's line "WHAT N TOTAL_NS NS_PER_OP FAILED"
 * (FAILED is always 0: a tracepoint says nothing back).
 */
#define LTTNG_UST_TRACEPOINT_DEFINE
#define LTTNG_UST_TRACEPOINT_CREATE_PROBES
#include "ltt_bench_tp.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static long parse(const char *s, long min, long max, const char *what)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || v < min || v > max) {
		fprintf(stderr, "ltt-ust-bench: bad %s '%s' (%ld to %ld)\n", what, s, min, max);
		exit(2);
	}
	return v;
}

int main(int argc, char **argv)
{
	char text[1024];
	long n, size;
	long long t0, dt;

	if (argc != 3) {
		fprintf(stderr, "usage: ltt-ust-bench N SIZE\n");
		return 2;
	}
	n = parse(argv[1], 1, 1000000000L, "count");
	size = parse(argv[2], 5, (long)sizeof(text) + 4, "size");
	/* the string takes what the sequence number leaves, its NUL included */
	memset(text, 'x', sizeof(text));
	text[size - 4 - 1] = '\0';
	t0 = now_ns();
	for (long i = 0; i < n; i++)
		lttng_ust_tracepoint(ltt_bench, tick, (uint32_t)i, text);
	dt = now_ns() - t0;
	printf("ust %ld %lld %.1f 0\n", n, dt, (double)dt / n);
	return 0;
}
