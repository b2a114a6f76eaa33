// SPDX-License-Identifier: GPL-2.0
/*
 * test_lttd_ctl.c - lttctl's checks and its netlink exchange, against a
 * fake kernel: the other end of a datagram socket pair, which answers with
 * the NLMSG_ERROR acknowledgement a tracer would send.
 */
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <sys/socket.h>
#include <unistd.h>
#include <linux/netlink.h>

#include "../../lttd/lttctl.h"
#include "tap.h"

static void test_parse(void)
{
	uint32_t v = 0;
	char err[256];

	ok(lttctl_parse_u32("4096", &v, err, sizeof(err)) == 0 && v == 4096,
	   "parse: 4096");
	ok(lttctl_parse_u32("64k", &v, err, sizeof(err)) == 0 && v == 65536,
	   "parse: 64k is 65536");
	ok(lttctl_parse_u32("1M", &v, err, sizeof(err)) == 0 && v == 1 << 20,
	   "parse: 1M");
	ok(lttctl_parse_u32("3G", &v, err, sizeof(err)) == 0 &&
	   v == 3U << 30, "parse: 3G fits in 32 bits");
	is_int(lttctl_parse_u32("4G", &v, err, sizeof(err)), -1,
	       "parse: 4G is too large");
	ok(strstr(err, "too large") != NULL, "parse: and says so: %s", err);
	is_int(lttctl_parse_u32("12x", &v, err, sizeof(err)), -1,
	       "parse: 12x refused");
	is_int(lttctl_parse_u32("-1", &v, err, sizeof(err)), -1,
	       "parse: -1 refused");
	is_int(lttctl_parse_u32("", &v, err, sizeof(err)), -1,
	       "parse: empty refused");
	is_int(lttctl_parse_u32("99999999999999999999", &v, err, sizeof(err)),
	       -1, "parse: overflow refused");

	is_int(lttctl_parse_mode("normal"), LTT_TRACE_MODE_NORMAL, "mode normal");
	is_int(lttctl_parse_mode("flight"), LTT_TRACE_MODE_FLIGHT, "mode flight");
	is_int(lttctl_parse_mode("hybrid"), LTT_TRACE_MODE_HYBRID, "mode hybrid");
	is_int(lttctl_parse_mode("Flight"), -1, "mode: unknown refused");
}

static int check(uint32_t size, uint32_t n, char *err)
{
	return lttctl_check_class("low", size, n, LTT_DEFAULT_SUBBUF_SIZE_LOW,
				  LTT_DEFAULT_N_SUBBUFS_LOW, err, 256);
}

static void test_sizes(void)
{
	char err[256];

	is_int(check(0, 0, err), 0, "sizes: defaults");
	is_int(check(65536, 4, err), 0, "sizes: 64k x 4");
	is_int(check(4096, 2, err), 0, "sizes: the smallest, 4k x 2");
	is_int(check(64 << 20, 4, err), 0, "sizes: 64M x 4 = 256M");
	is_int(check(3000, 0, err), -1, "sizes: 3000 is not a power of two");
	ok(strstr(err, "power of two") != NULL, "sizes: says why: %s", err);
	is_int(check(2048, 0, err), -1, "sizes: 2k is below the minimum");
	is_int(check(128 << 20, 2, err), -1, "sizes: 128M is above the maximum");
	is_int(check(0, 3, err), -1, "sizes: 3 sub-buffers refused");
	is_int(check(0, 1, err), -1, "sizes: 1 sub-buffer refused");
	is_int(check(0, 512, err), -1, "sizes: 512 sub-buffers refused");
	is_int(check(64 << 20, 8, err), -1, "sizes: 64M x 8 = 512M refused");
	ok(strstr(err, "per CPU") != NULL, "sizes: says why: %s", err);
	/* the default size counts in the product */
	is_int(lttctl_check_class("high", 0, 256, 2 << 20, 2, err, 256), -1,
	       "sizes: 256 x a default of 2M refused");
}

/*
 * The control message of the 2006 tracer, declared here as LTTng 0.5.108
 * declares it (seed 005, ltt-control.h: lttctl_peer_msg_t; seed 002,
 * ltt-core.h: enum trace_mode, union ltt_control_args), with its C types,
 * NAME_MAX and enums, and without our header: the layout our
 * struct ltt_control_msg must have byte for byte.
 */
enum era_trace_op { ERA_OP_CREATE, ERA_OP_DESTROY, ERA_OP_START, ERA_OP_STOP,
		    ERA_OP_ALIGN, ERA_OP_NONE };
enum era_trace_mode { ERA_TRACE_NORMAL, ERA_TRACE_FLIGHT, ERA_TRACE_HYBRID };
union era_control_args {
	struct {
		enum era_trace_mode mode;
		unsigned subbuf_size_low;
		unsigned n_subbufs_low;
		unsigned subbuf_size_med;
		unsigned n_subbufs_med;
		unsigned subbuf_size_high;
		unsigned n_subbufs_high;
	} new_trace;
};
struct era_peer_msg {
	char trace_name[NAME_MAX];
	char trace_type[NAME_MAX];
	enum era_trace_op op;
	union era_control_args args;
};

#define SAME_OFFSET(f)							\
	is_int(offsetof(struct ltt_control_msg, f),			\
	       offsetof(struct era_peer_msg, f), "layout: " #f " at %zu", \
	       offsetof(struct era_peer_msg, f))

static void test_layout(void)
{
	is_int(NAME_MAX, 255, "layout: NAME_MAX is 255 here, as in 2006");
	is_int(sizeof(struct ltt_control_msg), sizeof(struct era_peer_msg),
	       "layout: %zu bytes, the 2006 message's size",
	       sizeof(struct era_peer_msg));
	is_int(sizeof(((struct ltt_control_msg *)0)->trace_name), NAME_MAX,
	       "layout: trace_name is NAME_MAX bytes");
	is_int(sizeof(((struct ltt_control_msg *)0)->trace_type), NAME_MAX,
	       "layout: trace_type is NAME_MAX bytes");
	SAME_OFFSET(trace_type);
	SAME_OFFSET(op);
	SAME_OFFSET(args);
	SAME_OFFSET(args.new_trace.mode);
	SAME_OFFSET(args.new_trace.subbuf_size_low);
	SAME_OFFSET(args.new_trace.n_subbufs_low);
	SAME_OFFSET(args.new_trace.subbuf_size_med);
	SAME_OFFSET(args.new_trace.n_subbufs_med);
	SAME_OFFSET(args.new_trace.subbuf_size_high);
	SAME_OFFSET(args.new_trace.n_subbufs_high);
	is_int(sizeof(((struct ltt_control_msg *)0)->op),
	       sizeof(enum era_trace_op), "layout: op is an enum's size");
	is_int(sizeof(((struct ltt_control_msg *)0)->args),
	       sizeof(union era_control_args), "layout: args, the union's size");
	is_int(LTT_OP_CREATE, ERA_OP_CREATE, "enum: OP_CREATE");
	is_int(LTT_OP_DESTROY, ERA_OP_DESTROY, "enum: OP_DESTROY");
	is_int(LTT_OP_START, ERA_OP_START, "enum: OP_START");
	is_int(LTT_OP_STOP, ERA_OP_STOP, "enum: OP_STOP");
	is_int(LTT_TRACE_MODE_NORMAL, ERA_TRACE_NORMAL, "enum: LTT_TRACE_NORMAL");
	is_int(LTT_TRACE_MODE_FLIGHT, ERA_TRACE_FLIGHT, "enum: LTT_TRACE_FLIGHT");
	is_int(LTT_TRACE_MODE_HYBRID, ERA_TRACE_HYBRID, "enum: LTT_TRACE_HYBRID");
}

static void test_build(void)
{
	struct ltt_control_msg m;
	struct era_peer_msg era;
	uint32_t sizes[6] = { 65536, 4, 0, 0, 1 << 20, 8 };
	char err[256], name[NAME_MAX + 2];

	is_int(lttctl_build(&m, LTT_OP_CREATE, "trace1", "relay",
			    LTT_TRACE_MODE_FLIGHT, sizes, err, sizeof(err)), 0,
	       "build: a create");
	/* the bytes we send, read as the 2006 tracer read them */
	memcpy(&era, &m, sizeof(era));
	ok(strcmp(era.trace_name, "trace1") == 0 &&
	   strcmp(era.trace_type, "relay") == 0 && era.op == ERA_OP_CREATE &&
	   era.args.new_trace.mode == ERA_TRACE_FLIGHT &&
	   era.args.new_trace.subbuf_size_low == 65536 &&
	   era.args.new_trace.n_subbufs_low == 4 &&
	   era.args.new_trace.subbuf_size_med == 0 &&
	   era.args.new_trace.n_subbufs_med == 0 &&
	   era.args.new_trace.subbuf_size_high == 1 << 20 &&
	   era.args.new_trace.n_subbufs_high == 8,
	   "build: every field where the 2006 tracer reads it");
	ok(m.trace_name[6] == 0 && m.trace_name[NAME_MAX - 1] == 0 &&
	   m.pad[0] == 0 && m.pad[1] == 0,
	   "build: the names NUL-padded, the padding zero");

	memset(name, 'a', NAME_MAX - 1);
	name[NAME_MAX - 1] = '\0';
	is_int(lttctl_build(&m, LTT_OP_START, name, "relay", 0, sizes, err,
			    sizeof(err)), 0, "build: a %d-character name fits",
	       NAME_MAX - 1);
	ok(m.trace_name[NAME_MAX - 1] == 0, "build: and ends with its NUL");
	name[NAME_MAX - 1] = 'a';
	name[NAME_MAX] = '\0';
	is_int(lttctl_build(&m, LTT_OP_START, name, "relay", 0, sizes, err,
			    sizeof(err)), -1, "build: %d characters do not",
	       NAME_MAX);
	ok(strstr(err, "of 255 characters: want 1 to 254") != NULL, "build: says so: %s",
	   err);
	is_int(lttctl_build(&m, LTT_OP_START, "t1", name, 0, sizes, err,
			    sizeof(err)), -1, "build: nor a transport of %d",
	       NAME_MAX);
	is_int(lttctl_build(&m, LTT_OP_START, "", "relay", 0, sizes, err,
			    sizeof(err)), -1, "build: empty name refused");
	is_int(lttctl_build(&m, LTT_OP_START, "a/b", "relay", 0, sizes, err,
			    sizeof(err)), -1, "build: a '/' refused");
	is_int(lttctl_build(&m, LTT_OP_START, "..", "relay", 0, sizes, err,
			    sizeof(err)), -1, "build: '..' refused");
	is_int(lttctl_build(&m, LTT_OP_START, ".", "relay", 0, sizes, err,
			    sizeof(err)), -1, "build: '.' refused");
	is_int(lttctl_build(&m, LTT_OP_START, "my trace", "relay", 0, sizes,
			    err, sizeof(err)), -1, "build: a space refused");
	ok(strstr(err, "0x20") != NULL, "build: names it: %s", err);
	is_int(lttctl_build(&m, LTT_OP_START, "a\tb", "relay", 0, sizes, err,
			    sizeof(err)), -1, "build: a tab refused");
	is_int(lttctl_build(&m, LTT_OP_START, "a\x7f", "relay", 0, sizes, err,
			    sizeof(err)), -1, "build: DEL refused");
	is_int(lttctl_build(&m, LTT_OP_START, "t-1.x_Y", "relay", 0, sizes,
			    err, sizeof(err)), 0, "build: t-1.x_Y is fine");
}

/* ---- the exchange -------------------------------------------------------- */

/* Queues, as the fake kernel, an NLMSG_ERROR with error e for seq. */
static void ack(int kfd, uint32_t seq, int e, size_t cut)
{
	struct {
		struct nlmsghdr h;
		struct nlmsgerr err;
	} a;

	memset(&a, 0, sizeof(a));
	a.h.nlmsg_len = (uint32_t)(sizeof(a) - cut);
	a.h.nlmsg_type = NLMSG_ERROR;
	a.h.nlmsg_seq = seq;
	a.err.error = e;
	if (send(kfd, &a, sizeof(a) - cut, 0) < 0)
		perror("send");
}

static void test_exchange(void)
{
	struct ltt_control_msg m;
	uint32_t sizes[6] = { 0 };
	char err[256];
	int sv[2];

	if (socketpair(AF_UNIX, SOCK_DGRAM, 0, sv) < 0) {
		ok(0, "socketpair: %s", strerror(errno));
		return;
	}
	lttctl_build(&m, LTT_OP_START, "trace1", "relay", 0, sizes, err,
		     sizeof(err));

	/* the request as the kernel sees it */
	ack(sv[1], 42, 0, 0);
	is_int(lttctl_transact(sv[0], &m, 42, 1000), 0, "exchange: acked");

	struct {
		struct nlmsghdr h;
		struct ltt_control_msg m;
		char extra[64];
	} req;
	ssize_t n = recv(sv[1], &req, sizeof(req), 0);

	is_int(n, NLMSG_LENGTH(sizeof(struct era_peer_msg)),
	       "exchange: %zu bytes sent", (size_t)n);
	is_int(req.h.nlmsg_len, NLMSG_LENGTH(sizeof(struct era_peer_msg)),
	       "exchange: nlmsg_len %u, what the 2006 tracer checks",
	       req.h.nlmsg_len);
	is_int(req.h.nlmsg_type, LTTCTLM_CONTROL, "exchange: LTTCTLM_CONTROL");
	is_int(req.h.nlmsg_flags, NLM_F_REQUEST | NLM_F_ACK,
	       "exchange: NLM_F_REQUEST | NLM_F_ACK");
	is_int(req.h.nlmsg_seq, 42, "exchange: our seq");
	ok(memcmp(&req.m, &m, sizeof(m)) == 0, "exchange: the payload as built");

	ack(sv[1], 43, -ENOENT, 0);
	is_int(lttctl_transact(sv[0], &m, 43, 1000), ENOENT,
	       "exchange: -ENOENT comes back as ENOENT");
	recv(sv[1], &req, sizeof(req), 0);

	ack(sv[1], 43, -EEXIST, 0);	/* stale: an earlier request's */
	ack(sv[1], 44, -EPERM, 0);
	is_int(lttctl_transact(sv[0], &m, 44, 1000), EPERM,
	       "exchange: a stale ack is skipped");
	recv(sv[1], &req, sizeof(req), 0);

	ack(sv[1], 45, EACCES, 0);	/* the 2006 tracer sent errno > 0 */
	is_int(lttctl_transact(sv[0], &m, 45, 1000), EACCES,
	       "exchange: a positive errno is understood too");
	recv(sv[1], &req, sizeof(req), 0);

	ack(sv[1], 46, 0, sizeof(struct nlmsgerr));
	is_int(lttctl_transact(sv[0], &m, 46, 1000), -EPROTO,
	       "exchange: a truncated ack is a protocol error");
	recv(sv[1], &req, sizeof(req), 0);

	is_int(lttctl_transact(sv[0], &m, 47, 100), -ETIMEDOUT,
	       "exchange: no answer: a timeout, not a hang");
	recv(sv[1], &req, sizeof(req), 0);

	close(sv[1]);
	ok(lttctl_transact(sv[0], &m, 48, 100) < 0,
	   "exchange: a dead peer is an error");
	close(sv[0]);
}

static void test_explain(void)
{
	char buf[256];

	ok(strstr(lttctl_explain(LTT_OP_START, ENOENT, "t1", "relay", buf,
				 sizeof(buf)), "no such trace") != NULL,
	   "explain: start ENOENT: %s", buf);
	ok(strstr(lttctl_explain(LTT_OP_CREATE, ENOENT, "t1", "relay", buf,
				 sizeof(buf)), "transport 'relay'") != NULL,
	   "explain: create ENOENT: %s", buf);
	ok(strstr(lttctl_explain(LTT_OP_CREATE, EEXIST, "t1", "relay", buf,
				 sizeof(buf)), "already exists") != NULL,
	   "explain: create EEXIST: %s", buf);
	ok(strstr(lttctl_explain(LTT_OP_STOP, EPERM, "t1", "relay", buf,
				 sizeof(buf)), "root") != NULL,
	   "explain: EPERM: %s", buf);
	ok(strstr(lttctl_explain(LTT_OP_DESTROY, EACCES, "t1", "relay", buf,
				 sizeof(buf)), "root") != NULL,
	   "explain: EACCES: %s", buf);
	ok(strstr(lttctl_explain(LTT_OP_DESTROY, EIO, "t1", "relay", buf,
				 sizeof(buf)), strerror(EIO)) != NULL,
	   "explain: others by strerror: %s", buf);
}

static void test_open_here(void)
{
	char err[256] = "";
	int fd = lttctl_open(err, sizeof(err));

	if (fd >= 0) {
		close(fd);
		ok(1, "open # SKIP this kernel has a NETLINK_LTT socket");
		return;
	}
	if (errno == EPROTONOSUPPORT)
		is_str(err, "this kernel has no LTT support (NETLINK_LTT 31 not "
		       "available)", "open: a kernel without LTT is named");
	else
		ok(err[0] != '\0', "open: fails with a message: %s", err);
}

int main(void)
{
	test_parse();
	test_sizes();
	test_layout();
	test_build();
	test_exchange();
	test_explain();
	test_open_here();
	return tap_done();
}
