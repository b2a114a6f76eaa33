// SPDX-License-Identifier: GPL-2.0
/*
 * ltt-instr-tool - guest helper of tests/q20-qemu-instrumentation.sh.
 *
 *   ltt-instr-tool getpid N    make N getpid() system calls, print
 *                              "getpid N TOTAL_NS NS_PER_CALL"
 *
 * Used to compare the cost of a system call with and without an active
 * trace in one boot (TCG times mean nothing alone; their ratio does).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	long n, i;
	long long t0, t1;

	if (argc != 3 || strcmp(argv[1], "getpid") != 0 || (n = atol(argv[2])) <= 0) {
		fprintf(stderr, "usage: ltt-instr-tool getpid N\n");
		return 2;
	}
	t0 = now_ns();
	for (i = 0; i < n; i++)
		syscall(SYS_getpid);
	t1 = now_ns();
	printf("getpid %ld %lld %.1f\n", n, t1 - t0, (double)(t1 - t0) / n);
	return 0;
}
