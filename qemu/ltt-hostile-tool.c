// SPDX-License-Identifier: GPL-2.0
/*
 * ltt-hostile-tool - the guest side of tests/q50-qemu-hostile.sh: what an
 * unprivileged user, a racing reader or a buggy program does to the
 * tracer.  Each command prints what the kernel answered ("name ERRNO", OK
 * for success) for the host to check; it does not judge.
 *
 *   open FILE            open read-only, then close
 *   openrace DIR SECS    open, mmap, ioctl, poll and close DIR's channel
 *                        files in a loop for SECS seconds (while a script
 *                        creates and destroys the trace)
 *   register NAME CK INT [SECS]  register a facility (int_size INT), keep
 *                        it SECS seconds
 *   exhaust N SECS       register N distinct facilities, keep them SECS s
 *   flood N              up to N times: a child registers a new facility,
 *                        exits; stops after 10 refusals in a row
 *   big SIZE             usertrace_example: a "hello" event of SIZE bytes
 *                        whose bytes after the first fields are forged
 *                        events (word "FORGED"), between two
 *                        /proc/ltt_user_generic marks "before big",
 *                        "after big"
 *   execkeep             register usertrace_example, then execve() this
 *                        tool, which writes with the id: "after_exec E"
 *   wakeups TRACE K      a blocking writer stuck on CPU 0's full buffer;
 *                        meanwhile K sub-buffers read and given back on
 *                        CPU 1: "woken N" (times the writer woke)
 *   procwrite TEXT       one write() of TEXT to /proc/ltt_user_generic
 *   bigload N SIZE       N user_generic events of SIZE bytes ("seq %08d ...")
 *   priflood N SIZE      register usertrace_example, then N high-priority
 *                        (processes channel) events of SIZE bytes, not
 *                        blocking: "priflood N written W again A other O"
 *                        (A: refused with EAGAIN, O: any other error)
 *   nlcreate NAME        ask the kernel over netlink to create trace NAME
 *   gap FILE N           on CPU 1: a mark "gap before T", then N written
 *                        to FILE (ltt-gap-test.ko's spin: CPU 1 silent
 *                        for N cycles), then a mark "gap after T"; T is
 *                        the cycle counter read just before each mark
 */

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/netlink.h>
#include <ltt/ltt-abi.h>
#include "ltt-user-facility-usertrace_example.h"

static const char *ename(long err)
{
	static char other[32];

	switch (-err) {
	case 0: return "OK";
	case EFAULT: return "EFAULT";
	case EINVAL: return "EINVAL";
	case EPERM: return "EPERM";
	case EACCES: return "EACCES";
	case ENOSPC: return "ENOSPC";
	case EDQUOT: return "EDQUOT";
	case EAGAIN: return "EAGAIN";
	case EEXIST: return "EEXIST";
	case ENOENT: return "ENOENT";
	case ENODEV: return "ENODEV";
	case EBUSY: return "EBUSY";
	case ENOMEM: return "ENOMEM";
	case E2BIG: return "E2BIG";
	case EINTR: return "EINTR";
	}
	snprintf(other, sizeof(other), "errno%ld", -err);
	return other;
}

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

static long proc_write(const void *buf, size_t n)
{
	int fd = open("/proc/ltt_user_generic", O_WRONLY);
	long r;

	if (fd < 0)
		return -errno;
	r = write(fd, buf, n) < 0 ? -errno : 0;
	close(fd);
	return r;
}

static long reg(uint32_t *id, const char *name, uint32_t ck, int int_size,
		unsigned int num_events)
{
	struct ltt_user_facility_info i;

	memset(&i, 0, sizeof(i));
	snprintf(i.name, sizeof(i.name), "%s", name);
	i.checksum = ck;
	i.num_events = num_events;
	i.int_size = (uint8_t)int_size;
	i.long_size = sizeof(long);
	i.pointer_size = sizeof(void *);
	i.size_t_size = sizeof(size_t);
	i.alignment = sizeof(void *);
	return ltt_register_generic(id, &i);
}

static int cmd_open(const char *file)
{
	int fd = open(file, O_RDONLY);

	printf("open %s\n", ename(fd < 0 ? -errno : 0));
	if (fd >= 0)
		close(fd);
	return fd < 0;
}

/* One go at a channel file: whatever state it is in, nothing may break. */
static int poke(const char *file)
{
	int fd = open(file, O_RDONLY | O_NONBLOCK);
	uint32_t n = 0, size = 0, off;
	struct pollfd p;
	void *map;

	if (fd < 0)
		return 0;
	if (!ioctl(fd, RELAYFS_GET_N_SUBBUFS, &n) &&
	    !ioctl(fd, RELAYFS_GET_SUBBUF_SIZE, &size) && n && size) {
		map = mmap(NULL, (size_t)n * size, PROT_READ, MAP_SHARED, fd, 0);
		if (map != MAP_FAILED) {
			volatile const char *c = map;

			(void)c[0];
			(void)c[(size_t)n * size - 1];
			if (!ioctl(fd, RELAYFS_GET_SUBBUF, &off))
				ioctl(fd, RELAYFS_PUT_SUBBUF, &off);
			munmap(map, (size_t)n * size);
		}
	}
	p.fd = fd;
	p.events = POLLIN | POLLPRI;
	poll(&p, 1, 0);
	close(fd);
	return 1;
}

static int cmd_openrace(const char *dir, double secs)
{
	static const char *const files[] = {
		"cpu_0", "cpu_1", "control/facilities_0", "control/processes_1",
	};
	double end = now() + secs;
	unsigned long tries = 0, opened = 0;
	char path[512];

	/* a lower priority: the script that creates and destroys gets on */
	if (nice(10) < 0)
		perror("nice");

	while (now() < end) {
		snprintf(path, sizeof(path), "%s/%s", dir, files[tries % 4]);
		opened += poke(path);
		tries++;
	}
	printf("openrace opened %lu of %lu\n", opened, tries);
	return 0;
}

static int cmd_register(const char *name, uint32_t ck, int int_size, int secs)
{
	uint32_t id = 0;
	long r = reg(&id, name, ck, int_size, 3);

	printf("register %s\n", ename(r));
	fflush(stdout);
	if (!r && secs > 0)
		sleep(secs);
	return r != 0;
}

static int cmd_exhaust(int n, int secs)
{
	char name[64];
	long r, first = 0;
	int ok = 0;
	uint32_t id;

	for (int i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "exh_%d_%d", (int)getpid(), i);
		r = reg(&id, name, 0x1000 + i, sizeof(int), 1);
		if (!r)
			ok++;
		else if (!first)
			first = r;
	}
	printf("exhaust ok %d first_error %s\n", ok, ename(first));
	fflush(stdout);
	if (secs > 0)
		sleep(secs);
	return 0;
}

static int cmd_flood(int n)
{
	int counts[4] = { 0 };
	/*
	 * Once the channel keeps refusing, more tries only make the trace
	 * longer, and a trace without a reader fills its facilities channel
	 * with heartbeats (the debug kernel under load took 30 s for 300).
	 */
	int refused = 0;

	for (int i = 0; i < n && refused < 10; i++) {
		pid_t c = fork();
		int st;

		if (c < 0)
			break;
		if (c == 0) {
			char name[64];
			uint32_t id;
			long r;

			snprintf(name, sizeof(name), "flood_%d", i);
			r = reg(&id, name, 0x2000 + i, sizeof(int), 1);
			_exit(r == 0 ? 0 : r == -EAGAIN ? 1 : r == -EDQUOT ? 2 : 3);
		}
		if (waitpid(c, &st, 0) < 0 || !WIFEXITED(st))
			continue;
		counts[WEXITSTATUS(st) & 3]++;
		refused = WEXITSTATUS(st) == 1 ? refused + 1 : 0;
	}
	printf("flood ok %d eagain %d edquot %d other %d\n", counts[0],
	       counts[1], counts[2], counts[3]);
	return 0;
}

/*
 * The payload of a usertrace_example.hello whose first fields are short
 * (count, delta, small, word "w", values []), followed by bytes that a
 * reader computing the size from the description would take for more
 * events of the same facility: "hello" events whose word is "FORGED".
 */
static void forge(unsigned char *p, size_t size, uint32_t fid)
{
	size_t o = 0;

	memset(p, 0, size);
	p[0] = 1;				/* count */
	memcpy(p + 16, "\1\0", 2);		/* small */
	memcpy(p + 18, "w", 2);			/* word */
	/* values: length 0 at 20; the forged events from offset 24 on */
	for (o = 24; o + 64 <= size; o += 48) {
		struct ltt_event_header_hb h = {
			.timestamp = 0x10000000u + (uint32_t)o,
			.facility_id = (uint8_t)fid,
			.event_id = 0,
			.event_size = 40,
		};
		unsigned char *e = p + o + sizeof(h);

		memcpy(p + o, &h, sizeof(h));
		e[0] = 7;			/* count */
		memcpy(e + 18, "FORGED", 7);	/* word */
	}
}

/* usertrace_example, as libltt-usertrace describes it: 0 or -errno. */
static long reg_example(uint32_t *id)
{
	return reg(id, "usertrace_example", LTT_FACILITY_USERTRACE_EXAMPLE_CHECKSUM,
		   sizeof(int), 3);
}

static int cmd_big(size_t size)
{
	static unsigned char payload[70000];
	uint32_t id = 0;
	long r;

	if (size > sizeof(payload))
		return 2;
	r = reg_example(&id);
	printf("register %s\n", ename(r));
	if (r)
		return 1;
	forge(payload, size, id);
	pin(1);
	proc_write("before big", 11);
	r = ltt_trace_generic(id, 0, payload, size, 0, 0);
	printf("big %zu %s\n", size, ename(r));
	proc_write("after big", 10);
	return 0;
}

static int cmd_execkeep(const char *self)
{
	uint32_t id = 0;
	long r = reg_example(&id);
	char arg[32];

	printf("register %s\n", ename(r));
	if (r)
		return 1;
	/* the process may write with its facility before the exec */
	printf("before_exec %s\n", ename(ltt_trace_generic(id, 2, "\0\0\0\0", 4, 0, 0)));
	fflush(stdout);
	snprintf(arg, sizeof(arg), "%u", id);
	execl(self, self, "afterexec", arg, (char *)NULL);
	perror("execl");
	return 1;
}

static int cmd_afterexec(unsigned int id)
{
	printf("after_exec %s\n", ename(ltt_trace_generic(id, 2, "\0\0\0\0", 4, 0, 0)));
	return 0;
}

/* voluntary_ctxt_switches of @pid, or -1 */
static long vswitches(pid_t pid)
{
	char path[64], line[256];
	long v = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "voluntary_ctxt_switches: %ld", &v) == 1)
			break;
	fclose(f);
	return v;
}

static int cmd_wakeups(const char *trace, int k)
{
	static char pad[1000];
	char file[256];
	uint32_t off;
	int fd, ev, i, served = 0;
	long before, after, prev;
	pid_t c;

	c = fork();
	if (c == 0) {
		uint32_t id;

		pin(0);
		if (reg_example(&id))
			_exit(1);
		memset(pad, 'p', sizeof(pad));
		for (;;)	/* blocks once CPU 0's cpu buffer is full */
			if (ltt_trace_generic(id, 1, pad, sizeof(pad), 1, 0))
				_exit(2);
	}
	/* wait until the writer sleeps for good */
	prev = -1;
	for (i = 0; i < 100; i++) {
		usleep(100 * 1000);
		before = vswitches(c);
		if (before >= 0 && before == prev)
			break;
		prev = before;
	}
	pin(1);
	snprintf(file, sizeof(file), "/mnt/relayfs/ltt/%s/cpu_1", trace);
	fd = open(file, O_RDONLY | O_NONBLOCK);
	ev = open("/proc/ltt_user_generic", O_WRONLY);
	if (fd < 0 || ev < 0) {
		perror("open");
		kill(c, SIGKILL);
		return 1;
	}
	memset(pad, 'q', 200);
	before = vswitches(c);
	for (i = 0; i < k * 100 && served < k; i++) {
		struct pollfd p = { .fd = fd, .events = POLLIN | POLLPRI };

		if (write(ev, pad, 200) < 0)
			break;
		if (poll(&p, 1, 0) > 0 && !ioctl(fd, RELAYFS_GET_SUBBUF, &off) &&
		    !ioctl(fd, RELAYFS_PUT_SUBBUF, &off)) {
			served++;
			/* time for a woken writer to run and sleep again */
			usleep(20 * 1000);
		}
	}
	usleep(200 * 1000);
	after = vswitches(c);
	printf("served %d woken %ld\n", served, after - before);
	kill(c, SIGKILL);
	waitpid(c, NULL, 0);
	close(fd);
	close(ev);
	return 0;
}

/* A create request over NETLINK_LTT: the errno of the kernel's answer. */
static int cmd_nlcreate(const char *name)
{
	char req[NLMSG_SPACE(sizeof(struct ltt_control_msg))], ans[1024];
	struct nlmsghdr *h = (struct nlmsghdr *)req;
	struct ltt_control_msg *m = NLMSG_DATA(h);
	struct sockaddr_nl me = { .nl_family = AF_NETLINK };
	struct timeval tv = { .tv_sec = 5 };
	int fd = socket(AF_NETLINK, SOCK_RAW, NETLINK_LTT);
	long err = 0;

	if (fd < 0 || bind(fd, (struct sockaddr *)&me, sizeof(me)) < 0) {
		printf("nlcreate %s\n", ename(-errno));
		return 1;
	}
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	memset(req, 0, sizeof(req));
	h->nlmsg_len = NLMSG_LENGTH(sizeof(*m));
	h->nlmsg_type = LTTCTLM_CONTROL;
	h->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	h->nlmsg_seq = 1;
	snprintf(m->trace_name, sizeof(m->trace_name), "%s", name);
	snprintf(m->trace_type, sizeof(m->trace_type), "relay");
	m->op = LTT_OP_CREATE;
	if (send(fd, req, h->nlmsg_len, 0) < 0) {
		printf("nlcreate %s\n", ename(-errno));
		return 1;
	}
	for (int acked = 0; !acked;) {
		ssize_t r = recv(fd, ans, sizeof(ans), 0);
		struct nlmsghdr *a = (struct nlmsghdr *)ans;

		if (r < 0) {
			printf("nlcreate no answer: %s\n", ename(-errno));
			close(fd);
			return 1;
		}
		for (; NLMSG_OK(a, (size_t)r); a = NLMSG_NEXT(a, r))
			if (a->nlmsg_type == NLMSG_ERROR) {
				err = ((struct nlmsgerr *)NLMSG_DATA(a))->error;
				acked = 1;
			}
	}
	/* the tracer acks with errno > 0, as the 2006 one did */
	printf("nlcreate %s%s\n", err < 0 ? "negative " : "", ename(-labs(err)));
	close(fd);
	return err != 0;
}

static int cmd_priflood(long n, size_t size)
{
	static unsigned char payload[70000];
	long written = 0, again = 0, other = 0;
	uint32_t id = 0;
	long r;

	if (size > sizeof(payload))
		return 2;
	r = reg_example(&id);
	if (r) {
		printf("register %s\n", ename(r));
		return 1;
	}
	memset(payload, 'p', size);
	for (long i = 0; i < n; i++) {
		r = ltt_trace_generic(id, 0, payload, size, 0, 1);
		if (!r)
			written++;
		else if (r == -EAGAIN)
			again++;
		else
			other++;
	}
	printf("priflood %ld written %ld again %ld other %ld\n", n, written, again, other);
	return 0;
}

static int cmd_bigload(long n, int size)
{
	static char buf[8192];
	int fd = open("/proc/ltt_user_generic", O_WRONLY);

	if (fd < 0 || size < 13 || size > (int)sizeof(buf)) {
		printf("bigload %s\n", ename(fd < 0 ? -errno : -EINVAL));
		return 1;
	}
	for (long i = 0; i < n; i++) {
		int l = snprintf(buf, sizeof(buf), "seq %08ld ", i);

		memset(buf + l, 'b', size - l);
		if (write(fd, buf, size) != size) {
			printf("bigload %s at %ld\n", ename(-errno), i);
			return 1;
		}
	}
	printf("bigload %ld OK\n", n);
	close(fd);
	return 0;
}

/*
 * The cycle counter, as the tracer reads it (rdtsc): each mark carries the
 * value read just before it is written, so the host compares the time the
 * trace gives the mark with the counter itself, not only with the mark
 * before.
 */
static unsigned long long cycles(void)
{
	unsigned int lo, hi;

	__asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
	return (unsigned long long)hi << 32 | lo;
}

static int cmd_gap(const char *file, const char *n)
{
	char buf[64];
	long r;
	int fd, l;

	pin(1);
	fd = open(file, O_WRONLY);
	if (fd < 0) {
		printf("gap open %s\n", ename(-errno));
		return 1;
	}
	l = snprintf(buf, sizeof(buf), "gap before %llu", cycles());
	r = proc_write(buf, l);
	if (!r)
		r = write(fd, n, strlen(n)) < 0 ? -errno : 0;
	if (!r) {
		l = snprintf(buf, sizeof(buf), "gap after %llu", cycles());
		r = proc_write(buf, l);
	}
	close(fd);
	printf("gap %s\n", ename(r));
	return r != 0;
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc == 3 && !strcmp(argv[1], "open"))
		return cmd_open(argv[2]);
	if (argc == 4 && !strcmp(argv[1], "openrace"))
		return cmd_openrace(argv[2], atof(argv[3]));
	if (argc >= 5 && !strcmp(argv[1], "register"))
		return cmd_register(argv[2], strtoul(argv[3], NULL, 0),
				    atoi(argv[4]), argc > 5 ? atoi(argv[5]) : 0);
	if (argc == 4 && !strcmp(argv[1], "exhaust"))
		return cmd_exhaust(atoi(argv[2]), atoi(argv[3]));
	if (argc == 3 && !strcmp(argv[1], "flood"))
		return cmd_flood(atoi(argv[2]));
	if (argc == 3 && !strcmp(argv[1], "big"))
		return cmd_big(strtoul(argv[2], NULL, 0));
	if (argc == 2 && !strcmp(argv[1], "execkeep"))
		return cmd_execkeep("/proc/self/exe");
	if (argc == 3 && !strcmp(argv[1], "afterexec"))
		return cmd_afterexec(strtoul(argv[2], NULL, 0));
	if (argc == 4 && !strcmp(argv[1], "wakeups"))
		return cmd_wakeups(argv[2], atoi(argv[3]));
	if (argc == 4 && !strcmp(argv[1], "priflood"))
		return cmd_priflood(atol(argv[2]), strtoul(argv[3], NULL, 0));
	if (argc == 4 && !strcmp(argv[1], "bigload"))
		return cmd_bigload(atol(argv[2]), atoi(argv[3]));
	if (argc == 3 && !strcmp(argv[1], "nlcreate"))
		return cmd_nlcreate(argv[2]);
	if (argc == 4 && !strcmp(argv[1], "gap"))
		return cmd_gap(argv[2], argv[3]);
	if (argc == 3 && !strcmp(argv[1], "procwrite")) {
		long r = proc_write(argv[2], strlen(argv[2]));

		printf("procwrite %s\n", ename(r));
		return r != 0;
	}
	fprintf(stderr, "usage: see the comment at the top of %s\n", __FILE__);
	return 2;
}
