// SPDX-License-Identifier: GPL-2.0
/*
 * ltt-instr-tool - guest helper of tests/q20-qemu-instrumentation.sh.
 *
 *   ltt-instr-tool getpid N    make N getpid() system calls, print
 *                              "getpid N TOTAL_NS NS_PER_CALL"
 *   ltt-instr-tool pingpong N  N round trips of a byte between two
 *                              processes on CPU 0 and CPU 1, over two
 *                              pipes, print "pingpong N TOTAL_NS NS_PER_TRIP"
 *
 * getpid compares the cost of a system call with and without an active
 * trace in one boot (TCG times mean nothing alone; their ratio does).
 * pingpong makes each side wake the other while it goes to sleep: a wake-up
 * from the other CPU can change the sleeper's state while it is still in
 * __schedule(), the race a switch probe must not fall into (q20 compares
 * the states with ftrace's).
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set) < 0)
		perror("ltt-instr-tool: sched_setaffinity");
}

/* N round trips between this process (CPU 0) and a child (CPU 1); -1 on
 * a failed pipe, fork, read or write. */
static int pingpong(long n)
{
	int there[2], back[2], status;
	char c = 'x';
	pid_t child;
	long i;

	if (pipe(there) < 0 || pipe(back) < 0)
		return -1;
	child = fork();
	if (child < 0)
		return -1;
	if (child == 0) {
		pin(1);
		for (i = 0; i < n; i++)
			if (read(there[0], &c, 1) != 1 || write(back[1], &c, 1) != 1)
				_exit(1);
		_exit(0);
	}
	pin(0);
	for (i = 0; i < n; i++)
		if (write(there[1], &c, 1) != 1 || read(back[0], &c, 1) != 1)
			return -1;
	return waitpid(child, &status, 0) == child && WIFEXITED(status) &&
	       WEXITSTATUS(status) == 0 ? 0 : -1;
}

int main(int argc, char **argv)
{
	long n, i;
	long long t0, t1;
	int ping;

	if (argc != 3 || (strcmp(argv[1], "getpid") && strcmp(argv[1], "pingpong")) ||
	    (n = atol(argv[2])) <= 0) {
		fprintf(stderr, "usage: ltt-instr-tool getpid|pingpong N\n");
		return 2;
	}
	ping = !strcmp(argv[1], "pingpong");
	t0 = now_ns();
	if (ping) {
		if (pingpong(n) < 0) {
			perror("ltt-instr-tool: pingpong");
			return 1;
		}
	} else {
		for (i = 0; i < n; i++)
			syscall(SYS_getpid);
	}
	t1 = now_ns();
	printf("%s %ld %lld %.1f\n", argv[1], n, t1 - t0, (double)(t1 - t0) / n);
	return 0;
}
