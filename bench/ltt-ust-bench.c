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

#define BENCH_PROG "ltt-ust-bench"
#include "bench-load.h"

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
	report("ust", n, dt, 0);
	return 0;
}
