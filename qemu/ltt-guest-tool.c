// SPDX-License-Identifier: GPL-2.0
/*
 * ltt-guest-tool - small helpers for the QEMU test of the LTT kernel.
 *
 *   ltt-guest-tool load N [SIZE]   write N user_generic.string events
 *                                  "seq NNNNNNNN" padded to SIZE bytes
 *   ltt-guest-tool big SIZE        write one user_generic.string event of
 *                                  SIZE bytes (up to 8000)
 *   ltt-guest-tool badmsg          send malformed control messages over
 *                                  NETLINK_LTT (544 and 528 bytes); each
 *                                  must be refused; then good ones of
 *                                  both forms
 *   ltt-guest-tool open2 FILE      a relayfs channel admits one reader:
 *                                  the second open must fail with EBUSY
 *   ltt-guest-tool ioctls FILE     GET_N_SUBBUFS, GET_SUBBUF_SIZE, and
 *                                  PUT_SUBBUF of a wrong offset refused
 *   ltt-guest-tool polltest TRACE CPU  on a normal trace created with
 *                                  4 KiB x 2 cpu sub-buffers, not started:
 *                                  poll, GET/PUT, mmap and ENODATA through
 *                                  start, fill, stop and drain
 *   ltt-guest-tool pollstates TRACE CPU  the same with 4 sub-buffers:
 *                                  POLLIN alone, POLLPRI alone in the
 *                                  last free one, POLLHUP alone at the end
 *   ltt-guest-tool pushtest FILE CPU   on a flight channel of CPU: take a
 *                                  sub-buffer, make the writer wrap the
 *                                  buffer, then PUT_SUBBUF must say EIO
 *   ltt-guest-tool flightpoll FILE     on a stopped flight channel: POLLIN
 *                                  alone, drained, then POLLHUP alone
 *
 * Exit status 0 when the kernel behaved as expected; each check is
 * printed on its own line.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>
#include <linux/netlink.h>

#include <ltt/ltt-abi.h>

static int load(int argc, char **argv)
{
	long n = argc > 2 ? atol(argv[2]) : 100;
	int size = argc > 3 ? atoi(argv[3]) : 32;
	char buf[1100];
	int fd = open("/proc/ltt_user_generic", O_WRONLY);

	if (fd < 0) {
		perror("/proc/ltt_user_generic");
		return 1;
	}
	if (size < 13 || size > 1024)
		size = 32;
	for (long i = 0; i < n; i++) {
		int len = snprintf(buf, sizeof(buf), "seq %08ld ", i);

		memset(buf + len, 'x', size - len);
		if (write(fd, buf, size) != size) {
			perror("write");
			return 1;
		}
	}
	close(fd);
	return 0;
}

/*
 * Sends one request with the netlink flags given; returns the error of its
 * ack as the tracer sent it (0 = accepted; the tracer answers errno > 0, as
 * the 2006 one did), or LOCAL_ERROR when no ack came.
 */
#define LOCAL_ERROR (-100000)
static int send_raw(int fd, const void *payload, size_t len, int type,
		    unsigned int seq, int flags)
{
	char req[NLMSG_SPACE(sizeof(struct ltt_control_msg) + 64)];
	struct nlmsghdr *h = (struct nlmsghdr *)req;
	char ans[NLMSG_SPACE(sizeof(struct nlmsgerr) + sizeof(req)) + 256];

	memset(req, 0, sizeof(req));
	h->nlmsg_len = NLMSG_LENGTH(len);
	h->nlmsg_type = type;
	h->nlmsg_flags = flags;
	h->nlmsg_seq = seq;
	memcpy(NLMSG_DATA(h), payload, len);
	if (send(fd, req, NLMSG_ALIGN(h->nlmsg_len), 0) < 0) {
		perror("send");
		return LOCAL_ERROR;
	}
	for (;;) {
		ssize_t r = recv(fd, ans, sizeof(ans), 0);
		struct nlmsghdr *a = (struct nlmsghdr *)ans;

		if (r < 0) {
			perror("recv (no ack)");
			return LOCAL_ERROR;
		}
		for (; NLMSG_OK(a, (size_t)r); a = NLMSG_NEXT(a, r)) {
			if (a->nlmsg_seq != seq || a->nlmsg_type != NLMSG_ERROR)
				continue;
			return ((struct nlmsgerr *)NLMSG_DATA(a))->error;
		}
	}
}

static void good_msg(struct ltt_control_msg *m, const char *name, int op)
{
	memset(m, 0, sizeof(*m));
	strcpy(m->trace_name, name);
	strcpy(m->trace_type, "relay");
	m->op = op;
}

/*
 * The message of the lttctl from before the hybrid mode: the layout of
 * struct ltt_control_msg up to subbuf_size_med, with one geometry where
 * subbuf_size_low and n_subbufs_low are (<linux/ltt-abi.h>).
 */
#define PRE_HYBRID_LEN \
	offsetof(struct ltt_control_msg, args.new_trace.subbuf_size_med)

/* "SIZExN" of a channel file of trace @trace, or "open failed" */
static const char *geometry(const char *trace, const char *file)
{
	static char out[64];
	char path[256];
	__u32 n = 0, size = 0;
	int fd;

	snprintf(path, sizeof(path), "/mnt/relayfs/ltt/%s/%s", trace, file);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return "open failed";
	if (ioctl(fd, RELAYFS_GET_N_SUBBUFS, &n) || ioctl(fd, RELAYFS_GET_SUBBUF_SIZE, &size))
		n = size = 0;
	close(fd);
	snprintf(out, sizeof(out), "%ux%u", size, n);
	return out;
}

static int badmsg(void)
{
	struct ltt_control_msg m;
	char big[sizeof(m) + 8];
	int fd = socket(AF_NETLINK, SOCK_RAW, NETLINK_LTT);
	struct sockaddr_nl me = { .nl_family = AF_NETLINK };
	struct timeval tv = { .tv_sec = 5 };
	unsigned int seq = 1;
	int bad = 0, e;

	if (fd < 0 || bind(fd, (struct sockaddr *)&me, sizeof(me)) < 0) {
		perror("netlink");
		return 1;
	}
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));

/* refused with exactly errno want (> 0, as the 2006 tracer answered) */
#define REFUSED(what, want, expr) do {					\
		e = (expr);						\
		printf("%-40s %s (%d, want %d)\n", what,		\
		       e == (want) ? "refused" :			\
		       e == 0 ? "ACCEPTED" : "WRONG ERROR", e, (want));	\
		if (e != (want))					\
			bad++;						\
	} while (0)
#define SEND(m, len) send_raw(fd, m, len, LTTCTLM_CONTROL, seq++, ACK)
#define ACK (NLM_F_REQUEST | NLM_F_ACK)

	good_msg(&m, "badmsg", LTT_OP_CREATE);
	REFUSED("short by one byte", EINVAL, SEND(&m, sizeof(m) - 1));
	memset(big, 0, sizeof(big));
	memcpy(big, &m, sizeof(m));
	REFUSED("long by eight bytes", EINVAL, SEND(big, sizeof(big)));
	REFUSED("empty payload", EINVAL, SEND(&m, 0));
	REFUSED("wrong message type", EOPNOTSUPP,
		send_raw(fd, &m, sizeof(m), LTTCTLM_CONTROL + 1, seq++, ACK));
	good_msg(&m, "badmsg", LTT_OP_CREATE);
	memset(m.trace_name, 'a', sizeof(m.trace_name));
	REFUSED("unterminated trace name", EINVAL, SEND(&m, sizeof(m)));
	good_msg(&m, "badmsg", LTT_OP_CREATE);
	memset(m.trace_type, 'r', sizeof(m.trace_type));
	REFUSED("unterminated transport name", EINVAL, SEND(&m, sizeof(m)));
	good_msg(&m, "", LTT_OP_CREATE);
	REFUSED("empty trace name", EINVAL, SEND(&m, sizeof(m)));
	good_msg(&m, "a/b", LTT_OP_CREATE);
	REFUSED("trace name with a slash", EINVAL, SEND(&m, sizeof(m)));
	good_msg(&m, "..", LTT_OP_CREATE);
	REFUSED("trace name ..", EINVAL, SEND(&m, sizeof(m)));
	good_msg(&m, "a b", LTT_OP_CREATE);
	REFUSED("trace name with a space", EINVAL, SEND(&m, sizeof(m)));
	good_msg(&m, "badmsg", 99);
	REFUSED("unknown op", EBADRQC, SEND(&m, sizeof(m)));
	good_msg(&m, "badmsg", 4);	/* the 2006 OP_ALIGN */
	REFUSED("op 4 (OP_ALIGN of 2006)", EBADRQC, SEND(&m, sizeof(m)));
	good_msg(&m, "badmsg", LTT_OP_CREATE);
	m.args.new_trace.mode = 7;
	REFUSED("unknown mode", EINVAL, SEND(&m, sizeof(m)));
	good_msg(&m, "badmsg", LTT_OP_CREATE);
	m.args.new_trace.subbuf_size_low = 12345;
	REFUSED("sub-buffer size not a power of 2", EINVAL, SEND(&m, sizeof(m)));
	good_msg(&m, "badmsg", LTT_OP_CREATE);
	m.args.new_trace.n_subbufs_high = 3;
	REFUSED("sub-buffer count not a power of 2", EINVAL, SEND(&m, sizeof(m)));
	good_msg(&m, "badmsg", LTT_OP_CREATE);
	m.args.new_trace.subbuf_size_med = 1U << 31;
	REFUSED("sub-buffer size far too big", EINVAL, SEND(&m, sizeof(m)));
	good_msg(&m, "badmsg", LTT_OP_CREATE);
	strcpy(m.trace_type, "nosuchtransport");
	REFUSED("unknown transport", ENOENT, SEND(&m, sizeof(m)));
	/* the 528-byte form: exact length, and checked like the other */
	good_msg(&m, "badmsg", LTT_OP_CREATE);
	REFUSED("528-byte form short by one byte", EINVAL, SEND(&m, PRE_HYBRID_LEN - 1));
	REFUSED("528-byte form long by one byte", EINVAL, SEND(&m, PRE_HYBRID_LEN + 1));
	memset(m.trace_name, 'a', sizeof(m.trace_name));
	REFUSED("528-byte form, unterminated trace name", EINVAL, SEND(&m, PRE_HYBRID_LEN));
	good_msg(&m, "a/b", LTT_OP_CREATE);
	REFUSED("528-byte form, name with a slash", EINVAL, SEND(&m, PRE_HYBRID_LEN));
	good_msg(&m, "badmsg", 4);
	REFUSED("528-byte form, op 4", EBADRQC, SEND(&m, PRE_HYBRID_LEN));
	good_msg(&m, "badmsg", LTT_OP_CREATE);
	m.args.new_trace.mode = 7;
	REFUSED("528-byte form, unknown mode", EINVAL, SEND(&m, PRE_HYBRID_LEN));
	good_msg(&m, "badmsg", LTT_OP_CREATE);
	m.args.new_trace.subbuf_size_low = 12345;	/* its subbuf_size */
	REFUSED("528-byte form, size not a power of 2", EINVAL, SEND(&m, PRE_HYBRID_LEN));
	good_msg(&m, "badmsg", LTT_OP_CREATE);
	m.args.new_trace.n_subbufs_low = 3;		/* its n_subbufs */
	REFUSED("528-byte form, count not a power of 2", EINVAL, SEND(&m, PRE_HYBRID_LEN));
	good_msg(&m, "badmsg", LTT_OP_CREATE);
	m.args.new_trace.subbuf_size_low = 1U << 31;
	REFUSED("528-byte form, size far too big", EINVAL, SEND(&m, PRE_HYBRID_LEN));
	good_msg(&m, "nosuchtrace", LTT_OP_START);
	REFUSED("528-byte start of no such trace", ENOENT, SEND(&m, PRE_HYBRID_LEN));
	good_msg(&m, "nosuchtrace", LTT_OP_START);
	REFUSED("start of a trace that does not exist", ENOENT,
		SEND(&m, sizeof(m)));
	good_msg(&m, "nosuchtrace", LTT_OP_START);
	REFUSED("the same without NLM_F_ACK: acked too", ENOENT,
		send_raw(fd, &m, sizeof(m), LTTCTLM_CONTROL, seq++,
			 NLM_F_REQUEST));

	/*
	 * A good one still works afterwards: create, start, stop, destroy,
	 * the last three without NLM_F_ACK as the 2006 lttctl sends them (it
	 * waits for an ack all the same), the create's padding and the
	 * others' transport as it leaves them: zero, empty.
	 */
	good_msg(&m, "afterbad", LTT_OP_CREATE);
	e = SEND(&m, sizeof(m));
	printf("%-40s %s (%d)\n", "good create after the bad ones", e ? "FAILED" : "ok", e);
	bad += e != 0;
	static const struct { int op; const char *what; } rest[] = {
		{ LTT_OP_START, "start it, no NLM_F_ACK" },
		{ LTT_OP_STOP, "stop it, no NLM_F_ACK" },
		{ LTT_OP_DESTROY, "destroy it, no NLM_F_ACK" },
	};
	for (unsigned int i = 0; i < sizeof(rest) / sizeof(rest[0]); i++) {
		good_msg(&m, "afterbad", rest[i].op);
		m.trace_type[0] = '\0';
		e = send_raw(fd, &m, sizeof(m), LTTCTLM_CONTROL, seq++,
			     NLM_F_REQUEST);
		printf("%-40s %s (%d)\n", rest[i].what, e ? "FAILED" : "ok", e);
		bad += e != 0;
	}

	/*
	 * The 528-byte form as the lttctl before the hybrid mode sends it:
	 * its one geometry goes to the cpu channel, the control channels
	 * get what a 544-byte create with no sizes gives them.
	 */
	char want_fac[64], want_proc[64], got[64];

	good_msg(&m, "new544", LTT_OP_CREATE);
	e = SEND(&m, sizeof(m));
	snprintf(want_fac, sizeof(want_fac), "%s", geometry("new544", "control/facilities_0"));
	snprintf(want_proc, sizeof(want_proc), "%s", geometry("new544", "control/processes_0"));
	good_msg(&m, "new544", LTT_OP_DESTROY);
	e |= SEND(&m, sizeof(m));
	printf("%-40s %s (%d: facilities %s, processes %s)\n", "544-byte create of defaults",
	       e ? "FAILED" : "ok", e, want_fac, want_proc);
	bad += e != 0;
	good_msg(&m, "old528", LTT_OP_CREATE);
	m.args.new_trace.subbuf_size_low = 8192;	/* subbuf_size */
	m.args.new_trace.n_subbufs_low = 4;		/* n_subbufs */
	e = SEND(&m, PRE_HYBRID_LEN);
	printf("%-40s %s (%d)\n", "528-byte create", e ? "FAILED" : "ok", e);
	bad += e != 0;
	snprintf(got, sizeof(got), "%s", geometry("old528", "cpu_0"));
	printf("%-40s %s (%s)\n", "528-byte create: cpu_0 8192x4",
	       strcmp(got, "8192x4") ? "FAILED" : "ok", got);
	bad += strcmp(got, "8192x4") != 0;
	e = strcmp(geometry("old528", "control/facilities_0"), want_fac) ||
	    strcmp(geometry("old528", "control/processes_0"), want_proc) ||
	    !strcmp(want_fac, "8192x4") || !strcmp(want_proc, "8192x4");
	printf("%-40s %s (facilities %s", "528-byte create: control defaults",
	       e ? "FAILED" : "ok", geometry("old528", "control/facilities_0"));
	printf(", processes %s)\n", geometry("old528", "control/processes_0"));
	bad += e != 0;
	for (unsigned int i = 0; i < sizeof(rest) / sizeof(rest[0]); i++) {
		char what[64];

		good_msg(&m, "old528", rest[i].op);
		m.trace_type[0] = '\0';
		e = send_raw(fd, &m, PRE_HYBRID_LEN, LTTCTLM_CONTROL, seq++,
			     NLM_F_REQUEST);
		snprintf(what, sizeof(what), "528-byte %s", rest[i].what);
		printf("%-40s %s (%d)\n", what, e ? "FAILED" : "ok", e);
		bad += e != 0;
	}
	good_msg(&m, "old528f", LTT_OP_CREATE);
	m.args.new_trace.mode = LTT_TRACE_MODE_FLIGHT;
	e = SEND(&m, PRE_HYBRID_LEN);
	snprintf(got, sizeof(got), "%s", geometry("old528f", "flight-cpu_0"));
	good_msg(&m, "old528f", LTT_OP_DESTROY);
	e |= SEND(&m, PRE_HYBRID_LEN);
	printf("%-40s %s (%d, flight-cpu_0 %s)\n", "528-byte flight create and destroy",
	       e || !strcmp(got, "open failed") ? "FAILED" : "ok", e, got);
	bad += e || !strcmp(got, "open failed");
	close(fd);
	return bad != 0;
}

static int open2(const char *file)
{
	int a = open(file, O_RDONLY), b;

	if (a < 0) {
		perror(file);
		return 1;
	}
	b = open(file, O_RDONLY);
	if (b >= 0) {
		printf("second open of %s succeeded\n", file);
		return 1;
	}
	printf("second open: %s\n", strerror(errno));
	close(a);
	return errno != EBUSY;
}

static int ioctls(const char *file)
{
	__u32 n = 0, size = 0, off = 12345;
	int fd = open(file, O_RDONLY);

	if (fd < 0) {
		perror(file);
		return 1;
	}
	if (ioctl(fd, RELAYFS_GET_N_SUBBUFS, &n) || ioctl(fd, RELAYFS_GET_SUBBUF_SIZE, &size)) {
		perror("geometry");
		return 1;
	}
	printf("n_subbufs %u subbuf_size %u\n", n, size);
	if (ioctl(fd, RELAYFS_PUT_SUBBUF, &off) == 0) {
		printf("PUT_SUBBUF of a wrong offset accepted\n");
		return 1;
	}
	printf("PUT_SUBBUF of a wrong offset: %s\n", strerror(errno));
	return !(n >= 2 && size >= 4096 && !(n & (n - 1)) && !(size & (size - 1)));
}

static short poll_now(int fd);

static int pushtest(const char *file, int cpu)
{
	__u32 n = 0, size = 0, off = 0;
	char buf[128];
	cpu_set_t set;
	long i, written = 0;
	int fd, ev;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		perror("sched_setaffinity");
		return 1;
	}
	fd = open(file, O_RDONLY);
	ev = open("/proc/ltt_user_generic", O_WRONLY);
	if (fd < 0 || ev < 0) {
		perror("open");
		return 1;
	}
	ioctl(fd, RELAYFS_GET_N_SUBBUFS, &n);
	ioctl(fd, RELAYFS_GET_SUBBUF_SIZE, &size);
	memset(buf, 'p', sizeof(buf));
	/* until one sub-buffer is complete */
	for (i = 0; i < 100000; i++) {
		if (ioctl(fd, RELAYFS_GET_SUBBUF, &off) == 0)
			break;
		if (errno != EAGAIN) {
			perror("GET_SUBBUF");
			return 1;
		}
		written += write(ev, buf, sizeof(buf)) > 0;
	}
	printf("got sub-buffer at %u after %ld events\n", off, written);
	/* a flight recorder is never "full": POLLIN alone, never POLLPRI */
	if (poll_now(fd) != POLLIN) {
		printf("flight, a sub-buffer ready: revents %#x, not POLLIN\n",
		       poll_now(fd));
		return 1;
	}
	/* wrap the whole buffer: the writer must push us */
	for (i = 0; i < 2L * n * size / (long)sizeof(buf); i++)
		if (write(ev, buf, sizeof(buf)) < 0) {
			perror("write");
			return 1;
		}
	if (ioctl(fd, RELAYFS_PUT_SUBBUF, &off) == 0) {
		printf("PUT_SUBBUF accepted a sub-buffer the writer overwrote\n");
		return 1;
	}
	printf("PUT_SUBBUF after the push: %s\n", strerror(errno));
	if (errno != EIO)
		return 1;
	/* the reader goes on from where the writer left it */
	if (ioctl(fd, RELAYFS_GET_SUBBUF, &off) || ioctl(fd, RELAYFS_PUT_SUBBUF, &off)) {
		perror("GET/PUT after the push");
		return 1;
	}
	printf("GET/PUT after the push: ok at %u\n", off);
	return 0;
}

static short poll_now(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN | POLLPRI };

	if (poll(&p, 1, 0) < 0)
		return -1;
	return p.revents;
}

static int lttctl_op(const char *trace, const char *op)
{
	char cmd[256];

	snprintf(cmd, sizeof(cmd), "lttctl -n %s %s >/dev/null", trace, op);
	return system(cmd);
}

#define EXPECT(what, cond) do {						\
		int ok_ = (cond);					\
		printf("%-50s %s\n", what, ok_ ? "ok" : "FAILED");	\
		bad += !ok_;						\
	} while (0)

/*
 * The set-up of polltest and pollstates: pinned on @cpu, the channel file
 * cpu_@cpu of @trace opened non-blocking (@fd), /proc/ltt_user_generic
 * opened to write events on that CPU (@ev), and the channel's geometry.
 */
static int open_cpu_channel(const char *trace, int cpu, int *fd, int *ev,
			    __u32 *n, __u32 *size)
{
	char file[256];
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		perror("sched_setaffinity");
		return -1;
	}
	snprintf(file, sizeof(file), "/mnt/relayfs/ltt/%s/cpu_%d", trace, cpu);
	*fd = open(file, O_RDONLY | O_NONBLOCK);
	*ev = open("/proc/ltt_user_generic", O_WRONLY);
	if (*fd < 0 || *ev < 0) {
		perror("open");
		return -1;
	}
	ioctl(*fd, RELAYFS_GET_N_SUBBUFS, n);
	ioctl(*fd, RELAYFS_GET_SUBBUF_SIZE, size);
	return 0;
}

static int polltest(const char *trace, int cpu)
{
	__u32 n = 0, size = 0, off = 0, off2 = 0;
	char buf[100];
	short r;
	int fd, ev, bad = 0, i;
	void *map;

	if (open_cpu_channel(trace, cpu, &fd, &ev, &n, &size))
		return 1;
	EXPECT("geometry 2 x 4096", n == 2 && size == 4096);
	map = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
	EXPECT("mmap of one sub-buffer refused", map == MAP_FAILED);
	map = mmap(NULL, (size_t)n * size, PROT_READ, MAP_PRIVATE, fd, 0);
	EXPECT("mmap of the whole buffer", map != MAP_FAILED);
	EXPECT("not started: poll says nothing", poll_now(fd) == 0);
	EXPECT("not started: GET_SUBBUF says EAGAIN",
	       ioctl(fd, RELAYFS_GET_SUBBUF, &off) < 0 && errno == EAGAIN);
	EXPECT("not started: PUT_SUBBUF refused", ioctl(fd, RELAYFS_PUT_SUBBUF, &off) < 0);
	if (lttctl_op(trace, "-s"))
		return 1;
	memset(buf, 'q', sizeof(buf));
	for (i = 0; i < 10000 && !poll_now(fd); i++)
		if (write(ev, buf, sizeof(buf)) < 0)
			return 1;
	r = poll_now(fd);
	printf("after %d events: revents %#x\n", i, r);
	/* one of POLLIN, POLLPRI, POLLHUP at a time: the 2006 lttd needs it */
	EXPECT("2 sub-buffers, one complete, the writer in the last: "
	       "POLLPRI alone", r == POLLPRI);
	off2 = 0;
	EXPECT("PUT_SUBBUF of the ready sub-buffer without GET_SUBBUF: EINVAL",
	       ioctl(fd, RELAYFS_PUT_SUBBUF, &off2) < 0 && errno == EINVAL);
	EXPECT("GET_SUBBUF gives offset 0", ioctl(fd, RELAYFS_GET_SUBBUF, &off) == 0 && off == 0);
	EXPECT("its block header is in the map (magic)",
	       map != MAP_FAILED && *(__u32 *)((char *)map + 40) == LTT_TRACER_MAGIC_NUMBER);
	EXPECT("PUT_SUBBUF gives it back", ioctl(fd, RELAYFS_PUT_SUBBUF, &off) == 0);
	EXPECT("then nothing more to read: EAGAIN",
	       ioctl(fd, RELAYFS_GET_SUBBUF, &off2) < 0 && errno == EAGAIN);
	EXPECT("and poll says nothing", poll_now(fd) == 0);
	if (lttctl_op(trace, "-q"))
		return 1;
	r = poll_now(fd);
	EXPECT("stopped: the flushed sub-buffer, POLLIN or POLLPRI alone "
	       "(no POLLHUP while data remains)", r == POLLIN || r == POLLPRI);
	/* kernel events (lttctl's own system calls...) may have filled more */
	for (i = 0; i < (int)n && ioctl(fd, RELAYFS_GET_SUBBUF, &off) == 0; i++) {
		printf("drained sub-buffer at %u\n", off);
		if (off % size || ioctl(fd, RELAYFS_PUT_SUBBUF, &off))
			break;
	}
	EXPECT("stopped: 1 or 2 sub-buffers to drain, at sub-buffer offsets",
	       i >= 1 && off % size == 0);
	r = poll_now(fd);
	EXPECT("stopped and drained: POLLHUP alone", r == POLLHUP);
	EXPECT("stopped and drained: GET_SUBBUF says ENODATA",
	       ioctl(fd, RELAYFS_GET_SUBBUF, &off) < 0 && errno == ENODATA);
	return bad != 0;
}

/*
 * poll's answer through the states of a normal channel of 4 sub-buffers
 * (a trace created with 4 KiB x 4 cpu sub-buffers, not started), one bit
 * at a time as the 2006 lttd needs: nothing while empty, POLLIN alone
 * once a sub-buffer is ready, POLLPRI alone once the writer is in its
 * last free one (3 ready), POLLIN alone again once the reader has taken
 * one, nothing when drained, and after the stop POLLIN or POLLPRI alone
 * while data remains, then POLLHUP alone.
 */
static int pollstates(const char *trace, int cpu)
{
	char buf[100];
	__u32 n = 0, size = 0, off = 0;
	short r;
	int fd, ev, bad = 0, i, got;

	if (open_cpu_channel(trace, cpu, &fd, &ev, &n, &size))
		return 1;
	EXPECT("geometry 4 x 4096", n == 4 && size == 4096);
	EXPECT("not started: poll says nothing", poll_now(fd) == 0);
	if (lttctl_op(trace, "-s"))
		return 1;
	EXPECT("started, empty: poll says nothing", poll_now(fd) == 0);
	memset(buf, 's', sizeof(buf));
	for (i = 0; i < 10000 && !poll_now(fd); i++)
		if (write(ev, buf, sizeof(buf)) < 0)
			return 1;
	r = poll_now(fd);
	printf("first change after %d events: revents %#x\n", i, r);
	EXPECT("1 sub-buffer ready, the writer in the 2nd of 4: POLLIN alone",
	       r == POLLIN);
	for (i = 0; i < 10000 && poll_now(fd) == POLLIN; i++)
		if (write(ev, buf, sizeof(buf)) < 0)
			return 1;
	r = poll_now(fd);
	printf("next change after %d more events: revents %#x\n", i, r);
	EXPECT("then, nothing read: POLLPRI alone", r == POLLPRI);
	for (got = 0; got < (int)n && ioctl(fd, RELAYFS_GET_SUBBUF, &off) == 0; got++) {
		if (ioctl(fd, RELAYFS_PUT_SUBBUF, &off))
			break;
		if (got == 0) {
			r = poll_now(fd);
			EXPECT("one taken: POLLIN alone", r == POLLIN);
		}
	}
	printf("drained %d sub-buffers\n", got);
	EXPECT("POLLPRI came with 3 sub-buffers ready: the writer in the last",
	       got == (int)n - 1);
	EXPECT("drained: poll says nothing", poll_now(fd) == 0);
	if (lttctl_op(trace, "-q"))
		return 1;
	r = poll_now(fd);
	EXPECT("stopped with data: POLLIN or POLLPRI alone",
	       r == POLLIN || r == POLLPRI);
	for (i = 0; i < (int)n && ioctl(fd, RELAYFS_GET_SUBBUF, &off) == 0; i++)
		if (ioctl(fd, RELAYFS_PUT_SUBBUF, &off))
			break;
	r = poll_now(fd);
	EXPECT("stopped and drained: POLLHUP alone", r == POLLHUP);
	return bad != 0;
}

/*
 * A stopped flight channel: POLLIN alone while complete sub-buffers
 * remain (the 2006 lttd reads it like any other), then POLLHUP alone.
 */
static int flightpoll(const char *file)
{
	__u32 n = 0, off = 0;
	int fd = open(file, O_RDONLY | O_NONBLOCK), bad = 0, i;
	short r;

	if (fd < 0) {
		perror(file);
		return 1;
	}
	ioctl(fd, RELAYFS_GET_N_SUBBUFS, &n);
	r = poll_now(fd);
	EXPECT("stopped flight channel with data: POLLIN alone", r == POLLIN);
	for (i = 0; i < (int)n && ioctl(fd, RELAYFS_GET_SUBBUF, &off) == 0; i++)
		if (ioctl(fd, RELAYFS_PUT_SUBBUF, &off))
			break;
	EXPECT("drained: at most n_subbufs sub-buffers", i >= 1 && i <= (int)n);
	r = poll_now(fd);
	EXPECT("stopped flight channel, drained: POLLHUP alone", r == POLLHUP);
	EXPECT("and GET_SUBBUF says ENODATA",
	       ioctl(fd, RELAYFS_GET_SUBBUF, &off) < 0 && errno == ENODATA);
	return bad != 0;
}

static int big(int size)
{
	static char buf[8000];
	int fd = open("/proc/ltt_user_generic", O_WRONLY);

	if (fd < 0 || size < 1 || size > (int)sizeof(buf)) {
		perror("/proc/ltt_user_generic");
		return 1;
	}
	memset(buf, 'B', size);
	return write(fd, buf, size) != size;
}

int main(int argc, char **argv)
{
	if (argc > 2 && !strcmp(argv[1], "big"))
		return big(atoi(argv[2]));
	if (argc > 3 && !strcmp(argv[1], "polltest"))
		return polltest(argv[2], atoi(argv[3]));
	if (argc > 3 && !strcmp(argv[1], "pollstates"))
		return pollstates(argv[2], atoi(argv[3]));
	if (argc > 2 && !strcmp(argv[1], "flightpoll"))
		return flightpoll(argv[2]);
	if (argc > 3 && !strcmp(argv[1], "pushtest"))
		return pushtest(argv[2], atoi(argv[3]));
	if (argc > 1 && !strcmp(argv[1], "load"))
		return load(argc, argv);
	if (argc > 1 && !strcmp(argv[1], "badmsg"))
		return badmsg();
	if (argc > 2 && !strcmp(argv[1], "open2"))
		return open2(argv[2]);
	if (argc > 2 && !strcmp(argv[1], "ioctls"))
		return ioctls(argv[2]);
	fprintf(stderr, "usage: ltt-guest-tool load N [SIZE] | big SIZE | badmsg | open2 FILE | ioctls FILE | pushtest FILE CPU | flightpoll FILE | polltest TRACE CPU | pollstates TRACE CPU\n");
	return 2;
}
