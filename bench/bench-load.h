/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bench-load.h - what the guest's load programs of bench/tracer.py share
 * (ltt-bench-tool.c, ltt-ust-bench.c): the clock they time with, their
 * argument check and their result line "WHAT N TOTAL_NS NS_PER_OP FAILED",
 * which bench/tracer.py parses.  A header of static functions: the two
 * are built apart (one static, one linked with liblttng-ust).  Define
 * BENCH_PROG, the program's name for parse()'s messages, before it.
 */
#ifndef LTT_BENCH_LOAD_H
#define LTT_BENCH_LOAD_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* a number in [min, max], or a message and exit 2 */
static long parse(const char *s, long min, long max, const char *what)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || v < min || v > max) {
		fprintf(stderr, BENCH_PROG ": bad %s '%s' (%ld to %ld)\n", what, s, min, max);
		exit(2);
	}
	return v;
}

static void report(const char *what, long n, long long dt, long failed)
{
	printf("%s %ld %lld %.1f %ld\n", what, n, dt, (double)dt / n, failed);
}

#endif
