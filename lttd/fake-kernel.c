// SPDX-License-Identifier: GPL-2.0
/*
 * fake-kernel.c - a stand-in for ctl-socket.c, for the test-only
 * lttctl-fakekernel: lttctl_open() forks a process that plays the tracer
 * on the other end of a socket pair, so that tests/t21-lttctl.sh can run
 * the one-shot form (-d) on the host.
 *
 * The fake tracer checks each request as the real one does (length, type,
 * flags), logs it as one line to $LTTCTL_FAKE_LOG:
 *
 *     create NAME TRANSPORT mode=M low=SxN med=SxN high=SxN
 *     start NAME
 *
 * and acknowledges it, as the tracer does, with 0 or a positive errno: the
 * one of the operation named in $LTTCTL_FAKE_FAIL ("start:1" answers EPERM
 * to start).  A create makes
 * $LTTCTL_FAKE_RELAYFS/NAME with cpu_0 (3 sub-buffers of 4096 bytes) and
 * an empty control/facilities_0, the files lttd-fakerelay reads; with
 * $LTTCTL_FAKE_BADCHAN, cpu_1 holds a partial sub-buffer, which lttd
 * refuses.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>
#include <linux/netlink.h>

#include "lttctl.h"

static void put_file(const char *dir, const char *name, size_t len)
{
	char path[4096];
	FILE *f;

	if (snprintf(path, sizeof(path), "%s/%s", dir, name) >=
	    (int)sizeof(path))
		return;
	f = fopen(path, "w");
	if (!f)
		return;
	for (size_t i = 0; i < len; i++)
		fputc((int)((i * 31 + i / 4096) & 0xff), f);
	fclose(f);
}

static int fake_create(const struct ltt_control_msg *m)
{
	const char *root = getenv("LTTCTL_FAKE_RELAYFS");
	char dir[4096], sub[4200];

	if (!root || !*root)
		return 0;		/* no channels: the directory never appears */
	if (snprintf(dir, sizeof(dir), "%s/%s", root, m->trace_name) >=
	    (int)sizeof(dir))
		return ENAMETOOLONG;
	if (mkdir(dir, 0755) < 0)
		return errno == EEXIST ? EEXIST : EIO;
	if (snprintf(sub, sizeof(sub), "%s/control", dir) >= (int)sizeof(sub))
		return ENAMETOOLONG;
	mkdir(sub, 0755);
	put_file(dir, "cpu_0", 3 * 4096);
	put_file(sub, "facilities_0", 0);
	if (getenv("LTTCTL_FAKE_BADCHAN"))
		put_file(dir, "cpu_1", 100);
	return 0;
}

static int answer(const struct ltt_control_msg *m)
{
	const char *fail = getenv("LTTCTL_FAKE_FAIL");
	const char *op = lttctl_op_name((enum ltt_control_op)m->op);
	size_t len = strlen(op);

	if (fail && strncmp(fail, op, len) == 0 && fail[len] == ':')
		return atoi(fail + len + 1);
	if (m->op == LTT_OP_CREATE)
		return fake_create(m);
	return 0;
}

static void log_request(const struct ltt_control_msg *m)
{
	const char *path = getenv("LTTCTL_FAKE_LOG");
	FILE *f = path ? fopen(path, "a") : NULL;

	if (!f)
		return;
	if (m->op == LTT_OP_CREATE)
		fprintf(f, "create %s %s mode=%u low=%ux%u med=%ux%u "
			"high=%ux%u\n", m->trace_name, m->trace_type,
			m->args.new_trace.mode,
			m->args.new_trace.subbuf_size_low,
			m->args.new_trace.n_subbufs_low,
			m->args.new_trace.subbuf_size_med,
			m->args.new_trace.n_subbufs_med,
			m->args.new_trace.subbuf_size_high,
			m->args.new_trace.n_subbufs_high);
	else
		fprintf(f, "%s %s\n",
			lttctl_op_name((enum ltt_control_op)m->op),
			m->trace_name);
	fclose(f);
}

static void serve(int fd)
{
	for (;;) {
		struct {
			struct nlmsghdr h;
			struct ltt_control_msg m;
			char extra[64];
		} req;
		struct {
			struct nlmsghdr h;
			struct nlmsgerr e;
		} ack;
		ssize_t n = recv(fd, &req, sizeof(req), 0);

		if (n <= 0)
			return;		/* lttctl is gone */
		memset(&ack, 0, sizeof(ack));
		ack.h.nlmsg_len = sizeof(ack);
		ack.h.nlmsg_type = NLMSG_ERROR;
		ack.h.nlmsg_seq = req.h.nlmsg_seq;
		ack.e.msg = req.h;
		if (n != (ssize_t)NLMSG_LENGTH(sizeof(req.m)) ||
		    req.h.nlmsg_len != n || req.h.nlmsg_type != LTTCTLM_CONTROL ||
		    req.h.nlmsg_flags != (NLM_F_REQUEST | NLM_F_ACK) ||
		    !memchr(req.m.trace_name, 0, LTT_CONTROL_NAME_LEN) ||
		    !memchr(req.m.trace_type, 0, LTT_CONTROL_NAME_LEN)) {
			ack.e.error = EINVAL;
		} else {
			log_request(&req.m);
			ack.e.error = answer(&req.m);
		}
		if (send(fd, &ack, sizeof(ack), 0) < 0)
			return;
	}
}

int lttctl_open(char *err, size_t errlen)
{
	int sv[2];

	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0) {
		snprintf(err, errlen, "fake kernel: socketpair: %s",
			 strerror(errno));
		return -1;
	}
	fflush(NULL);
	pid_t pid = fork();

	if (pid < 0) {
		snprintf(err, errlen, "fake kernel: fork: %s", strerror(errno));
		return -1;
	}
	if (pid == 0) {
		close(sv[0]);
		serve(sv[1]);
		_exit(0);
	}
	close(sv[1]);
	return sv[0];
}
