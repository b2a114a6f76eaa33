// SPDX-License-Identifier: GPL-2.0
/*
 * ctl.c - lttctl's checks and its netlink exchange with the tracer.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include <linux/netlink.h>

#include "lttctl.h"

int lttctl_parse_mode(const char *s)
{
	if (strcmp(s, "normal") == 0)
		return LTT_TRACE_MODE_NORMAL;
	if (strcmp(s, "flight") == 0)
		return LTT_TRACE_MODE_FLIGHT;
	if (strcmp(s, "hybrid") == 0)
		return LTT_TRACE_MODE_HYBRID;
	return -1;
}

int lttctl_parse_u32(const char *s, uint32_t *out, char *err, size_t errlen)
{
	char *end;
	unsigned long long v;

	if (!s || !*s || *s == '-' || *s == '+' || *s == ' ')
		goto bad;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || end == s)
		goto bad;
	unsigned shift = 0;

	if (*end == 'k' || *end == 'K')
		shift = 10;
	else if (*end == 'M')
		shift = 20;
	else if (*end == 'G')
		shift = 30;
	if (shift)
		end++;
	if (*end)
		goto bad;
	if (v > (0xFFFFFFFFULL >> shift)) {
		snprintf(err, errlen, "'%s' is too large", s);
		return -1;
	}
	*out = (uint32_t)(v << shift);
	return 0;
bad:
	snprintf(err, errlen, "'%s' is not a number (digits, then optionally "
		 "k, M or G)", s ? s : "");
	return -1;
}

static int is_pow2(uint32_t v)
{
	return v && !(v & (v - 1));
}

int lttctl_check_class(const char *cls, uint32_t size, uint32_t n,
		       uint32_t def_size, uint32_t def_n,
		       char *err, size_t errlen)
{
	if (size && (!is_pow2(size) || size < LTTCTL_MIN_SUBBUF_SIZE ||
		     size > LTTCTL_MAX_SUBBUF_SIZE)) {
		snprintf(err, errlen, "%s sub-buffer size %u: want a power of "
			 "two from %u to %u", cls, size,
			 LTTCTL_MIN_SUBBUF_SIZE, LTTCTL_MAX_SUBBUF_SIZE);
		return -1;
	}
	if (n && (!is_pow2(n) || n < LTTCTL_MIN_N_SUBBUFS ||
		  n > LTTCTL_MAX_N_SUBBUFS)) {
		snprintf(err, errlen, "%s sub-buffer count %u: want a power of "
			 "two from %u to %u", cls, n, LTTCTL_MIN_N_SUBBUFS,
			 LTTCTL_MAX_N_SUBBUFS);
		return -1;
	}
	uint64_t total = (uint64_t)(size ? size : def_size) * (n ? n : def_n);

	if (total > LTTCTL_MAX_BUFFER) {
		snprintf(err, errlen, "%s channels: %llu bytes per CPU is more "
			 "than %u", cls, (unsigned long long)total,
			 LTTCTL_MAX_BUFFER);
		return -1;
	}
	return 0;
}

static int put_name(char *dst, const char *src, const char *what,
		    char *err, size_t errlen)
{
	size_t len = strlen(src);

	if (len == 0 || len >= LTT_CONTROL_NAME_LEN) {
		snprintf(err, errlen, "%s of %zu characters: want 1 to %d",
			 what, len, LTT_CONTROL_NAME_LEN - 1);
		return -1;
	}
	if (strchr(src, '/') || strcmp(src, ".") == 0 ||
	    strcmp(src, "..") == 0) {
		snprintf(err, errlen, "%s '%s': must not be '.', '..' or "
			 "contain '/'", what, src);
		return -1;
	}
	/*
	 * The kernel's rule too (ltt_name_ok): no space nor control
	 * character.  Bytes above 0x7f are left to it (its ctype is Latin-1).
	 */
	for (const char *c = src; *c; c++)
		if ((unsigned char)*c <= ' ' || *c == 0x7f) {
			snprintf(err, errlen, "%s: character 0x%02x: want no "
				 "space nor control character", what,
				 (unsigned char)*c);
			return -1;
		}
	memcpy(dst, src, len + 1);
	return 0;
}

int lttctl_build(struct ltt_control_msg *m, enum ltt_control_op op,
		 const char *trace, const char *transport, uint32_t mode,
		 const uint32_t sizes[6], char *err, size_t errlen)
{
	memset(m, 0, sizeof(*m));
	if (put_name(m->trace_name, trace, "trace name", err, errlen) < 0 ||
	    put_name(m->trace_type, transport, "transport", err, errlen) < 0)
		return -1;
	m->op = op;
	m->args.new_trace.mode = mode;
	m->args.new_trace.subbuf_size_low = sizes[0];
	m->args.new_trace.n_subbufs_low = sizes[1];
	m->args.new_trace.subbuf_size_med = sizes[2];
	m->args.new_trace.n_subbufs_med = sizes[3];
	m->args.new_trace.subbuf_size_high = sizes[4];
	m->args.new_trace.n_subbufs_high = sizes[5];
	return 0;
}

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int lttctl_transact(int fd, const struct ltt_control_msg *m, uint32_t seq,
		    int timeout_ms)
{
	struct {
		struct nlmsghdr h;
		struct ltt_control_msg m;
	} req;
	_Static_assert(sizeof(req) == NLMSG_LENGTH(sizeof(*m)),
		       "the request has no padding");

	memset(&req, 0, sizeof(req));
	req.h.nlmsg_len = NLMSG_LENGTH(sizeof(*m));
	req.h.nlmsg_type = LTTCTLM_CONTROL;
	req.h.nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	req.h.nlmsg_seq = seq;
	req.m = *m;

	for (;;) {
		ssize_t w = send(fd, &req, sizeof(req), 0);

		if (w == (ssize_t)sizeof(req))
			break;
		if (w < 0 && errno == EINTR)
			continue;
		return w < 0 ? -errno : -EIO;
	}

	long long deadline = now_ms() + timeout_ms;

	for (;;) {
		/* room for an ack that echoes the whole request */
		union {
			struct nlmsghdr h;
			char bytes[NLMSG_SPACE(sizeof(struct nlmsgerr) +
					       sizeof(req)) + 256];
		} buf;
		struct pollfd p = { .fd = fd, .events = POLLIN };
		long long left = deadline - now_ms();

		if (left <= 0)
			return -ETIMEDOUT;
		int r = poll(&p, 1, (int)left);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -errno;
		if (r == 0)
			return -ETIMEDOUT;
		ssize_t n = recv(fd, &buf, sizeof(buf), 0);

		if (n < 0) {
			if (errno == EINTR || errno == EAGAIN)
				continue;
			return -errno;
		}
		size_t len = (size_t)n;

		for (struct nlmsghdr *h = &buf.h; NLMSG_OK(h, len);
		     h = NLMSG_NEXT(h, len)) {
			if (h->nlmsg_seq != seq)
				continue;	/* not ours: a stale answer */
			if (h->nlmsg_type != NLMSG_ERROR)
				continue;
			if (h->nlmsg_len < NLMSG_LENGTH(sizeof(int)))
				return -EPROTO;
			int e;

			memcpy(&e, NLMSG_DATA(h), sizeof(e));
			/* errno, as the 2006 tracer acked; -errno elsewhere */
			return e < 0 ? -e : e;
		}
	}
}

const char *lttctl_op_name(enum ltt_control_op op)
{
	switch (op) {
	case LTT_OP_CREATE:
		return "create";
	case LTT_OP_DESTROY:
		return "destroy";
	case LTT_OP_START:
		return "start";
	case LTT_OP_STOP:
		return "stop";
	}
	return "?";
}

const char *lttctl_explain(enum ltt_control_op op, int err, const char *trace,
			   const char *transport, char *buf, size_t buflen)
{
	const char *verb = lttctl_op_name(op);

	switch (err) {
	case ENOENT:
		if (op == LTT_OP_CREATE)
			snprintf(buf, buflen, "cannot create trace '%s': the "
				 "kernel has no transport '%s'", trace,
				 transport);
		else
			snprintf(buf, buflen, "cannot %s trace '%s': no such "
				 "trace", verb, trace);
		break;
	case EEXIST:
		snprintf(buf, buflen, "cannot create trace '%s': it already "
			 "exists", trace);
		break;
	case EPERM:
	case EACCES:
		snprintf(buf, buflen, "cannot %s trace '%s': permission denied "
			 "(controlling LTT needs root)", verb, trace);
		break;
	case EBUSY:
		snprintf(buf, buflen, "cannot %s trace '%s': it is busy "
			 "(active, or another trace is)", verb, trace);
		break;
	case EINVAL:
		snprintf(buf, buflen, "cannot %s trace '%s': the kernel refused "
			 "the request as invalid (mode, sizes or name)", verb,
			 trace);
		break;
	case ENOMEM:
		snprintf(buf, buflen, "cannot %s trace '%s': the kernel is out "
			 "of memory (try fewer or smaller sub-buffers)", verb,
			 trace);
		break;
	case EBADRQC:
		snprintf(buf, buflen, "cannot %s trace '%s': the kernel does "
			 "not know this operation", verb, trace);
		break;
	default:
		snprintf(buf, buflen, "cannot %s trace '%s': %s", verb, trace,
			 strerror(err));
		break;
	}
	return buf;
}
