// SPDX-License-Identifier: GPL-2.0
/*
 * ltt-bench-tool - the timed loads of bench/tracer.py and bench/lttd.py,
 * run inside the QEMU guest (built static by bench/qemu-bench.sh).
 *
 *   ltt-bench-tool write FILE N SIZE [RATE]
 *        N write()s of SIZE bytes ("seq NNNNNNNN xxx...") to FILE: one
 *        user event each into /proc/ltt_user_generic (our tracer) or
 *        /sys/kernel/tracing/trace_marker (ftrace); /dev/null is the bare
 *        system call.  RATE events per second (0: as fast as possible).
 *   ltt-bench-tool generic N SIZE CHECKSUM
 *        registers the facility usertrace_example (libltt-usertrace's
 *        example, whose XML checksum is CHECKSUM) with the
 *        ltt_register_generic system call, then N ltt_trace_generic calls
 *        writing its event "tick" (a 32-bit sequence number and a string
 *        padded to SIZE bytes in all), non-blocking
 *   ltt-bench-tool alternate ROUNDS BATCH SIZE CHECKSUM TARGET...
 *        interleaved batches: each round times BATCH calls on every TARGET
 *        in turn, a file written as above or "generic" (ltt_trace_generic
 *        as above).  The order rotates every round, so that no target
 *        always runs after the same one.  Prints "targets BATCH T1 T2...",
 *        then "round R NS1 NS2..." (each target's batch in ns, in the
 *        targets' order), then "failed F1 F2...".  With every tracer on
 *        at once, the difference of two targets in one round is one
 *        event's cost measured a millisecond apart, not a whole run apart.
 *   ltt-bench-tool getpid N          N getpid() system calls
 *   ltt-bench-tool pipe N            N round trips of one byte between this
 *                                    process and a child over two pipes:
 *                                    on one CPU, two context switches each
 *
 * Prints one line "WHAT N TOTAL_NS NS_PER_OP FAILED": FAILED counts the
 * writes the kernel refused (trace_marker says EBADF when ftrace is off);
 * they are timed like the others.  TCG times mean nothing alone, only
 * their ratios within one boot.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <ltt/ltt-abi.h>
#include "ltt-usertrace.h"

#define BENCH_PROG "ltt-bench-tool"
#include "bench-load.h"

/*
 * Paced: event i is not written before t0 + i / rate.  The clock is read
 * every 16 events only, so that pacing costs little at high rates.
 */
static int do_write(const char *file, long n, long size, long rate)
{
	char buf[1024];
	long failed = 0;
	long long t0, t1;
	int fd = open(file, O_WRONLY);

	if (fd < 0) {
		fprintf(stderr, "ltt-bench-tool: %s: %s\n", file, strerror(errno));
		return 1;
	}
	t0 = now_ns();
	for (long i = 0; i < n; i++) {
		int len = snprintf(buf, sizeof(buf), "seq %08ld ", i);

		if (len < size)
			memset(buf + len, 'x', size - len);
		if (rate > 0 && (i & 15) == 0) {
			long long due = t0 + (long long)((double)i * 1e9 / rate);

			while (now_ns() < due)
				;
		}
		if (write(fd, buf, size) != size)
			failed++;
	}
	t1 = now_ns();
	close(fd);
	report("write", n, t1 - t0, failed);
	return 0;
}

/* usertrace_example's id from ltt_register_generic, or -1 with a message */
static long register_example(unsigned long checksum)
{
	struct ltt_user_facility_info info;
	__u32 id;
	long err;

	memset(&info, 0, sizeof(info));
	strcpy(info.name, "usertrace_example");
	info.checksum = (__u32)checksum;
	info.num_events = 3;		/* hello, tick, child */
	info.int_size = sizeof(int);
	info.long_size = sizeof(long);
	info.pointer_size = sizeof(void *);
	info.size_t_size = sizeof(size_t);
	info.alignment = sizeof(void *);
	/* libltt-usertrace's door, as every program of ours uses it */
	err = ltt_register_generic(&id, &info);
	if (err) {
		fprintf(stderr, "ltt-bench-tool: ltt_register_generic: %s\n", strerror((int)-err));
		return -1;
	}
	return id;
}

static int do_generic(long n, long size, unsigned long checksum)
{
	unsigned char buf[1024];
	long id = register_example(checksum);
	long failed = 0;
	long long t0;

	if (id < 0)
		return 1;
	memset(buf, 'x', sizeof(buf));
	buf[size - 1] = '\0';
	t0 = now_ns();
	for (long i = 0; i < n; i++) {
		unsigned int seq = (unsigned int)i;

		memcpy(buf, &seq, sizeof(seq));
		if (ltt_trace_generic((__u32)id, 1, buf, (size_t)size, 0, 0))
			failed++;
	}
	report("generic", n, now_ns() - t0, failed);
	return 0;
}

#define MAX_TARGETS 8

/* see the comment at the top; fd -1 is "generic" */
static int do_alternate(long rounds, long batch, long size, unsigned long checksum,
			int ntargets, char **targets)
{
	char wbuf[1024];
	unsigned char gbuf[1024];
	int fd[MAX_TARGETS];
	long failed[MAX_TARGETS] = { 0 };
	long long ns[MAX_TARGETS];
	long id = -1, seq = 0;

	for (int t = 0; t < ntargets; t++) {
		if (!strcmp(targets[t], "generic")) {
			fd[t] = -1;
			if (id < 0 && (id = register_example(checksum)) < 0)
				return 1;
			continue;
		}
		fd[t] = open(targets[t], O_WRONLY);
		if (fd[t] < 0) {
			fprintf(stderr, "ltt-bench-tool: %s: %s\n", targets[t], strerror(errno));
			return 1;
		}
	}
	memset(gbuf, 'x', sizeof(gbuf));
	gbuf[size - 1] = '\0';
	printf("targets %ld", batch);
	for (int t = 0; t < ntargets; t++)
		printf(" %s", targets[t]);
	printf("\n");
	for (long r = 0; r < rounds; r++) {
		for (int k = 0; k < ntargets; k++) {
			int t = (int)((k + r) % ntargets);
			long long t0 = now_ns();

			/* both buffers made for every call, whichever is used */
			for (long i = 0; i < batch; i++, seq++) {
				int len = snprintf(wbuf, sizeof(wbuf), "seq %08ld ", seq);
				unsigned int s32 = (unsigned int)seq;

				if (len < size)
					memset(wbuf + len, 'x', size - len);
				memcpy(gbuf, &s32, sizeof(s32));
				if (fd[t] >= 0 ? write(fd[t], wbuf, size) != size
					       : ltt_trace_generic((__u32)id, 1, gbuf, (size_t)size, 0, 0) != 0)
					failed[t]++;
			}
			ns[t] = now_ns() - t0;
		}
		printf("round %ld", r);
		for (int t = 0; t < ntargets; t++)
			printf(" %lld", ns[t]);
		printf("\n");
	}
	printf("failed");
	for (int t = 0; t < ntargets; t++) {
		printf(" %ld", failed[t]);
		if (fd[t] >= 0)
			close(fd[t]);
	}
	printf("\n");
	return 0;
}

static int do_getpid(long n)
{
	long long t0 = now_ns();

	for (long i = 0; i < n; i++)
		syscall(SYS_getpid);
	report("getpid", n, now_ns() - t0, 0);
	return 0;
}

static int do_pipe(long n)
{
	int ping[2], pong[2];
	char c = 'x';
	long long t0;
	pid_t child;
	int status;

	if (pipe(ping) || pipe(pong)) {
		perror("ltt-bench-tool: pipe");
		return 1;
	}
	child = fork();
	if (child < 0) {
		perror("ltt-bench-tool: fork");
		return 1;
	}
	if (child == 0) {	/* echo every byte back until EOF */
		close(ping[1]);
		close(pong[0]);
		while (read(ping[0], &c, 1) == 1)
			if (write(pong[1], &c, 1) != 1)
				_exit(1);
		_exit(0);
	}
	close(ping[0]);
	close(pong[1]);
	t0 = now_ns();
	for (long i = 0; i < n; i++) {
		if (write(ping[1], &c, 1) != 1 || read(pong[0], &c, 1) != 1) {
			perror("ltt-bench-tool: ping-pong");
			return 1;
		}
	}
	report("pipe", n, now_ns() - t0, 0);
	close(ping[1]);
	if (waitpid(child, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status)) {
		fprintf(stderr, "ltt-bench-tool: the echo child failed\n");
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc >= 5 && argc <= 6 && !strcmp(argv[1], "write"))
		return do_write(argv[2], parse(argv[3], 1, 1L << 40, "N"),
				parse(argv[4], 13, 1024, "SIZE"),
				argc == 6 ? parse(argv[5], 0, 1L << 40, "RATE") : 0);
	if (argc == 5 && !strcmp(argv[1], "generic"))
		return do_generic(parse(argv[2], 1, 1L << 40, "N"), parse(argv[3], 13, 1024, "SIZE"),
				  strtoul(argv[4], NULL, 0));
	if (argc >= 7 && argc <= 6 + MAX_TARGETS && !strcmp(argv[1], "alternate"))
		return do_alternate(parse(argv[2], 1, 1L << 30, "ROUNDS"),
				    parse(argv[3], 1, 1L << 30, "BATCH"),
				    parse(argv[4], 13, 1024, "SIZE"), strtoul(argv[5], NULL, 0),
				    argc - 6, argv + 6);
	if (argc == 3 && !strcmp(argv[1], "getpid"))
		return do_getpid(parse(argv[2], 1, 1L << 40, "N"));
	if (argc == 3 && !strcmp(argv[1], "pipe"))
		return do_pipe(parse(argv[2], 1, 1L << 40, "N"));
	fprintf(stderr, "usage: ltt-bench-tool write FILE N SIZE [RATE] | generic N SIZE CHECKSUM |\n"
		"       alternate ROUNDS BATCH SIZE CHECKSUM TARGET... | getpid N | pipe N\n");
	return 2;
}
