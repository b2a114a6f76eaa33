// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ltt-usertrace-tool - the guest side of tests/q30-qemu-usertrace.sh:
 * user-space tracing through libltt-usertrace and the raw system calls.
 *
 *   errnos              every hostile argument: prints "case errno" lines
 *                       (errno name, or OK) for the host to check
 *   limits              registers LTT_USER_MAX_FACILITIES facilities, then
 *                       one more: prints "case errno" lines
 *   inherit             registers usertrace_example, forks a child that
 *                       writes usertrace_example.child; prints "id N",
 *                       "parent E", "child E" (0 or an errno name)
 *   hold SECONDS        registers usertrace_example, prints "id N", sleeps
 *   write ID            writes event 0 with facility id ID without
 *                       registering anything: prints the errno name
 *   flood N block|drop  N usertrace_example.tick events (seq 0..N-1),
 *                       blocking or not; prints "written N" or an error
 *   numbers             every system call number past 6.1's table that
 *                       upstream has defined or may define (451..1023):
 *                       prints "upstream ENOSYS" if each answers ENOSYS,
 *                       else "upstream NR errno" lines; then the tracer's
 *                       own two numbers: "own_register E", "own_trace E"
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ltt-user-facility-usertrace_example.h"

static const char *ename(long err)
{
	static char other[32];

	switch (-err) {
	case 0: return "OK";
	case EFAULT: return "EFAULT";
	case EINVAL: return "EINVAL";
	case EPERM: return "EPERM";
	case ENOSPC: return "ENOSPC";
	case ENAMETOOLONG: return "ENAMETOOLONG";
	case EEXIST: return "EEXIST";
	case ENOSYS: return "ENOSYS";
	case EINTR: return "EINTR";
	}
	snprintf(other, sizeof(other), "errno%ld", -err);
	return other;
}

/* One write() to /proc/ltt_user_generic: 0 or -errno. */
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

/* One pwrite() of ltt_trace_generic on descriptor @fd at @pos: 0 or -errno. */
static long door_pwrite(int fd, const void *data, size_t n, unsigned long long pos)
{
	ssize_t r = pwrite(fd, data, n, (off_t)pos);

	if (r < 0)
		return -errno;
	return (size_t)r == n ? 0 : -ERANGE;
}

static void info_of(struct ltt_user_facility_info *i, const char *name, uint32_t ck)
{
	struct ltt_usertrace_facility f = LTT_USERTRACE_FACILITY_INIT(name, ck, 3);

	ltt_usertrace_info(&f, i);
}

#define SAY(name, expr) printf("%s %s\n", name, ename(expr))

static int errnos(void)
{
	struct ltt_user_facility_info i;
	uint32_t id, id2;
	char big[8192];
	int n = -1;	/* the payload of the child events written here */

	memset(big, 'x', sizeof(big));
	info_of(&i, "usertrace_example", LTT_FACILITY_USERTRACE_EXAMPLE_CHECKSUM);
	SAY("reg_info_null", ltt_register_generic(&id, NULL));
	SAY("reg_info_bad", ltt_register_generic(&id, (void *)8));
	SAY("reg_id_bad", ltt_register_generic((void *)8, &i));
	info_of(&i, "x", 1);
	memset(i.name, 'a', sizeof(i.name));
	SAY("reg_name_unterminated", ltt_register_generic(&id, &i));
	info_of(&i, "", 1);
	SAY("reg_name_empty", ltt_register_generic(&id, &i));
	info_of(&i, "../etc", 1);
	SAY("reg_name_bad", ltt_register_generic(&id, &i));
	info_of(&i, "ok_name", 1);
	i.num_events = 0;
	SAY("reg_no_events", ltt_register_generic(&id, &i));
	i.num_events = 257;
	SAY("reg_257_events", ltt_register_generic(&id, &i));
	info_of(&i, "ok_name", 1);
	i.int_size = 3;
	SAY("reg_int_size_3", ltt_register_generic(&id, &i));
	info_of(&i, "ok_name", 1);
	i.alignment = 1;
	SAY("reg_alignment", ltt_register_generic(&id, &i));
	info_of(&i, "ok_name", 1);
	i.reserved[1] = 1;
	SAY("reg_reserved", ltt_register_generic(&id, &i));
	info_of(&i, "core", LTT_CORE_FACILITY_CHECKSUM);
	SAY("reg_kernel_facility", ltt_register_generic(&id, &i));

	info_of(&i, "usertrace_example", LTT_FACILITY_USERTRACE_EXAMPLE_CHECKSUM);
	SAY("reg_ok", ltt_register_generic(&id, &i));
	SAY("reg_again_same_id", ltt_register_generic(&id2, &i) ?: (id2 == id ? 0 : -ERANGE));
	SAY("trace_ok", ltt_trace_generic(id, 2, &n, sizeof(n), 0, 0));
	SAY("trace_core", ltt_trace_generic(LTT_CORE_FACILITY_ID, 0, &n, sizeof(n), 0, 0));
	SAY("trace_unregistered", ltt_trace_generic(200, 0, &n, sizeof(n), 0, 0));
	SAY("trace_id_huge", ltt_trace_generic(1u << 31, 0, &n, sizeof(n), 0, 0));
	SAY("trace_event_id", ltt_trace_generic(id, 3, &n, sizeof(n), 0, 0));
	SAY("trace_data_bad", ltt_trace_generic(id, 2, (void *)8, 16, 0, 0));
	SAY("trace_data_kernel", ltt_trace_generic(id, 2, (void *)0xffffffff81000000ul, 16, 0, 0));
	/*
	 * The kernel copies the payload with page faults disabled, after
	 * faulting it in: a page never touched must work, and a payload
	 * running into an unmapped page must fail before anything is written.
	 */
	{
		long pg = sysconf(_SC_PAGESIZE);
		char *m = mmap(NULL, 2 * pg, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (m == MAP_FAILED || munmap(m + pg, pg)) {
			perror("mmap");
			return 1;
		}
		SAY("trace_data_untouched", ltt_trace_generic(id, 2, m + pg - 8, 4, 0, 0));
		SAY("trace_data_straddle", ltt_trace_generic(id, 2, m + pg - 2, 4, 0, 0));
		/* the same through /proc/ltt_user_generic (patch 0006) */
		SAY("proc_data_untouched", proc_write(m + pg - 8, 4));
		SAY("proc_data_straddle", proc_write(m + pg - 2, 4));
		SAY("proc_data_bad", proc_write((void *)8, 16));
		munmap(m, pg);
	}
	SAY("trace_size_subbuf", ltt_trace_generic(id, 2, big, sizeof(big), 0, 0));
	SAY("trace_size_max", ltt_trace_generic(id, 2, big, LTT_USER_MAX_EVENT_SIZE + 1, 0, 0));
	SAY("trace_blocking_2", ltt_trace_generic(id, 2, &n, sizeof(n), 2, 0));
	SAY("trace_priority_2", ltt_trace_generic(id, 2, &n, sizeof(n), 0, -1));
	SAY("trace_high_priority", ltt_trace_generic(id, 2, &n, sizeof(n), 0, 1));
	/*
	 * The door without the library: the pwrite() whose offset names
	 * the event (LTT_USER_POS()), its hostile offsets, and the ioctl the
	 * library keeps for what an offset cannot say.  The facility table
	 * is the open file's: @fd registers, @other does not.  The payloads
	 * 4242 (pwrite), 4243 (pwrite, high priority) and 4343 (ioctl) are
	 * looked for in the trace.
	 */
	{
		int fd = open(LTT_USER_DOOR, O_WRONLY | O_CLOEXEC);
		int other = open(LTT_USER_DOOR, O_WRONLY | O_CLOEXEC);
		struct ltt_user_register_req rq = {
			.facility_id = (uintptr_t)&id2, .info = (uintptr_t)&i,
		};
		int p1 = 4242, p2 = 4243, p3 = 4343;
		struct ltt_user_trace_req tq = {
			.facility_id = id, .event_id = 2, .data = (uintptr_t)&p3,
			.data_size = sizeof(p3),
		};
		unsigned long long pos = LTT_USER_POS(id, 2, 0, 0);

		if (fd < 0 || other < 0) {
			perror(LTT_USER_DOOR);
			return 1;
		}
		info_of(&i, "usertrace_example", LTT_FACILITY_USERTRACE_EXAMPLE_CHECKSUM);
		SAY("door_register", ioctl(fd, LTT_USER_IOC_REGISTER_GENERIC, &rq) ? -errno :
				     id2 == id ? 0 : -ERANGE);
		SAY("pos_ok", door_pwrite(fd, &p1, sizeof(p1), pos));
		SAY("pos_high_priority", door_pwrite(fd, &p2, sizeof(p2), LTT_USER_POS(id, 2, 0, 1)));
		SAY("pos_other_door", door_pwrite(other, &p1, sizeof(p1), pos));
		SAY("pos_reserved_bit", door_pwrite(fd, &p1, sizeof(p1), pos | 1ULL << 2));
		SAY("pos_high_bit", door_pwrite(fd, &p1, sizeof(p1), pos | 1ULL << 61));
		SAY("pos_no_trace_bit", door_pwrite(fd, &p1, sizeof(p1), pos & ~LTT_USER_POS_TRACE));
		SAY("pos_negative", door_pwrite(fd, &p1, sizeof(p1), pos | 1ULL << 63));
		SAY("pos_unregistered", door_pwrite(fd, &p1, sizeof(p1), LTT_USER_POS(200, 0, 0, 0)));
		SAY("pos_core", door_pwrite(fd, &p1, sizeof(p1),
					    LTT_USER_POS(LTT_CORE_FACILITY_ID, 0, 0, 0)));
		SAY("pos_event_id", door_pwrite(fd, &p1, sizeof(p1), LTT_USER_POS(id, 3, 0, 0)));
		SAY("pos_data_bad", door_pwrite(fd, (void *)8, 16, pos));
		SAY("pos_size_max", door_pwrite(fd, big, LTT_USER_MAX_EVENT_SIZE + 1, pos));
		SAY("ioctl_trace_ok", ioctl(fd, LTT_USER_IOC_TRACE_GENERIC, &tq) ? -errno : 0);
		close(fd);
		close(other);
	}
	return 0;
}

/*
 * The per-process limit: 32 in all, usertrace_example included.  Run
 * before the trace starts: facilities without a description would only
 * make the decoder warn.
 */
static int limits(void)
{
	struct ltt_user_facility_info i;
	uint32_t id2;
	int n;

	SAY("reg_first", ltt_usertrace_register(&ltt_facility_usertrace_example));
	for (n = 1; n < LTT_USER_MAX_FACILITIES; n++) {
		char name[32];
		long err;

		snprintf(name, sizeof(name), "limit_%d", n);
		info_of(&i, name, (uint32_t)n);
		err = ltt_register_generic(&id2, &i);
		if (err) {
			printf("reg_up_to_limit %s at %d\n", ename(err), n);
			break;
		}
	}
	if (n == LTT_USER_MAX_FACILITIES)
		SAY("reg_up_to_limit", 0);
	info_of(&i, "limit_over", 99);
	SAY("reg_over_limit", ltt_register_generic(&id2, &i));
	return 0;
}

static int inherit(void)
{
	int err = ltt_usertrace_register(&ltt_facility_usertrace_example);
	pid_t pid;
	int st;

	printf("id %d\n", ltt_facility_usertrace_example.id);
	printf("pid %d\n", (int)getpid());
	printf("parent %s\n", ename(err));
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		printf("child %s\n", ename(trace_usertrace_example_child((int)getppid())));
		printf("child_pid %d\n", (int)getpid());
		fflush(stdout);
		_exit(0);
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
		return 1;
	return err ? 1 : 0;
}

static int flood(long n, int block)
{
	char pad[200];

	memset(pad, '.', sizeof(pad) - 1);
	pad[sizeof(pad) - 1] = '\0';
	ltt_facility_usertrace_example.blocking = block;
	for (long s = 0; s < n; s++) {
		int err = trace_usertrace_example_tick((uint32_t)s, pad);

		if (err) {
			printf("flood %s at %ld\n", ename(err), s);
			return 1;
		}
	}
	printf("written %ld\n", n);
	return 0;
}

/*
 * Upstream numbers its calls one after the other from 6.1's last (450):
 * cachestat is 451 since 6.5, fchmodat2 452 since 6.6, and so on.  A
 * program built for a newer kernel tries them and falls back only on
 * ENOSYS, so the tracer must leave every one of them alone.  They are
 * called with zero arguments: on a 6.1 kernel none of them exists.
 */
static int numbers(void)
{
	int n = -1, bad = 0;

	for (long nr = 451; nr < 1024; nr++) {
		long r = syscall(nr, 0, 0, 0, 0, 0, 0);

		if (r != -1 || errno != ENOSYS) {
			printf("upstream %ld %s\n", nr, r == -1 ? ename(-errno) : "OK");
			bad = 1;
		}
	}
	if (!bad)
		printf("upstream ENOSYS\n");
	/* the tracer's numbers: a NULL info, an id nobody registered */
	printf("own_register %s\n",
	       ename(syscall(LTT_SYSCALL_REGISTER_GENERIC, NULL, NULL) ? -errno : 0));
	printf("own_trace %s\n",
	       ename(syscall(LTT_SYSCALL_TRACE_GENERIC, 200, 0, &n, sizeof(n), 0, 0) ?
		     -errno : 0));
	return 0;
}

int main(int argc, char **argv)
{
	int n;

	if (argc == 2 && !strcmp(argv[1], "errnos"))
		return errnos();
	if (argc == 2 && !strcmp(argv[1], "limits"))
		return limits();
	if (argc == 2 && !strcmp(argv[1], "inherit"))
		return inherit();
	if (argc == 3 && !strcmp(argv[1], "hold")) {
		n = ltt_usertrace_register(&ltt_facility_usertrace_example);
		printf("id %d %s\n", ltt_facility_usertrace_example.id, ename(n));
		fflush(stdout);
		sleep((unsigned int)atoi(argv[2]));
		return n ? 1 : 0;
	}
	if (argc == 3 && !strcmp(argv[1], "write")) {
		printf("%s\n", ename(ltt_trace_generic((unsigned int)atoi(argv[2]), 0,
							  &n, sizeof(n), 0, 0)));
		return 0;
	}
	if (argc == 2 && !strcmp(argv[1], "numbers"))
		return numbers();
	if (argc == 4 && !strcmp(argv[1], "flood") &&
	    (!strcmp(argv[3], "block") || !strcmp(argv[3], "drop")))
		return flood(atol(argv[2]), !strcmp(argv[3], "block"));
	fprintf(stderr, "usage: ltt-usertrace-tool errnos | limits | inherit | hold S | write ID | flood N block|drop | numbers\n");
	return 2;
}
