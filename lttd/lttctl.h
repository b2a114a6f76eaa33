/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lttctl.h - what lttctl needs to talk to the kernel, kept apart from its
 * main() so that the unit test drives it against a fake kernel.
 *
 * One request is one netlink message, acknowledged by one NLMSG_ERROR:
 *
 *   struct nlmsghdr  len 560, type LTTCTLM_CONTROL, NLM_F_REQUEST|NLM_F_ACK
 *   struct ltt_control_msg  (544 bytes, include/ltt/ltt-abi.h)
 *        ---->  NETLINK_LTT
 *   struct nlmsghdr  type NLMSG_ERROR, same seq
 *   struct nlmsgerr  error = 0 or errno (> 0, as the 2006 tracer answered;
 *                    -errno is understood too)
 *        <----
 */
#ifndef LTTD_LTTCTL_H
#define LTTD_LTTCTL_H

#include <stddef.h>
#include <stdint.h>

#include <ltt/ltt-abi.h>

/*
 * Sub-buffer bounds that lttctl accepts: those of the tracer's create
 * (kernel/ltt/ltt-core.c, ltt_geometry), checked here first so that a bad
 * value gets a precise message instead of the kernel's bare EINVAL.  They
 * belong in ltt-abi.h, next to the defaults.
 */
#define LTTCTL_MIN_SUBBUF_SIZE	4096U		/* a page */
#define LTTCTL_MAX_SUBBUF_SIZE	(64U << 20)
#define LTTCTL_MIN_N_SUBBUFS	2U
#define LTTCTL_MAX_N_SUBBUFS	256U
#define LTTCTL_MAX_BUFFER	(256U << 20)	/* size * count, per CPU */

#define LTTCTL_ACK_TIMEOUT_MS	5000

/* "normal", "flight", "hybrid" -> LTT_TRACE_MODE_*, or -1. */
int lttctl_parse_mode(const char *s);

/* A size or count with an optional k, M or G suffix; 0 or -1 (err says). */
int lttctl_parse_u32(const char *s, uint32_t *out, char *err, size_t errlen);

/*
 * Checks one channel class ("low", "med", "high"): size and count are 0
 * (the default) or powers of two in the bounds above, and their product,
 * with defaults filled in, is at most LTTCTL_MAX_BUFFER.  0 or -1.
 */
int lttctl_check_class(const char *cls, uint32_t size, uint32_t n,
		       uint32_t def_size, uint32_t def_n,
		       char *err, size_t errlen);

/* Fills m; the names must fit (checked: -1 and err otherwise). */
int lttctl_build(struct ltt_control_msg *m, enum ltt_control_op op,
		 const char *trace, const char *transport, uint32_t mode,
		 const uint32_t sizes[6], char *err, size_t errlen);

/* The netlink socket to the tracer: fd, or -1 and a clear message. */
int lttctl_open(char *err, size_t errlen);

/*
 * Sends m on fd and waits (timeout_ms) for its acknowledgement.  Returns 0,
 * a positive errno the kernel answered, or a negative errno of our own
 * (-ETIMEDOUT: no answer; -EPROTO: a malformed answer).
 */
int lttctl_transact(int fd, const struct ltt_control_msg *m, uint32_t seq,
		    int timeout_ms);

/* A one-line explanation of the kernel's answer err (> 0) to op. */
const char *lttctl_explain(enum ltt_control_op op, int err, const char *trace,
			   const char *transport, char *buf, size_t buflen);

const char *lttctl_op_name(enum ltt_control_op op);

#endif
