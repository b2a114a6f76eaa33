/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lttd.h - the inside of the LTT daemon: channels, the copy loop, workers.
 *
 * lttd empties the relayfs buffers of a trace into files.  For each channel
 * (one per CPU per channel class) the kernel keeps a ring of n_subbufs
 * sub-buffers that lttd has mapped read-only:
 *
 *     map: | sb 0 | sb 1 | ... | sb n-1 |        buf_size = n * subbuf_size
 *
 *   get_subbuf(&off)  the kernel hands over the oldest complete sub-buffer;
 *                     off is its consumed offset, a free-running __u32,
 *                     so the sub-buffer lies at map + off % buf_size
 *   write             lttd appends those subbuf_size bytes to the tracefile
 *   put_subbuf(off)   lttd gives it back; -EIO means the writer (flight
 *                     mode) overwrote it while we copied: the copy on disk is
 *                     cut off again and the sub-buffer is counted as lost
 *
 * The channel operations (get, put, poll) sit behind struct lttd_chan_ops so
 * that the loop runs on the host against a fake channel (the unit test) and
 * against relayfs in the guest (relay.c).  Nothing in copy.c knows about
 * ioctls.
 */
#ifndef LTTD_LTTD_H
#define LTTD_LTTD_H

#include <poll.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct lttd_channel;
struct lttd_worker;

/*
 * What a channel source provides.  get_subbuf and put_subbuf return 0 or a
 * negative errno: get_subbuf returns -EAGAIN when no sub-buffer is complete
 * yet and -ENODATA when the channel is finalized and empty.  poll behaves as
 * poll(2) on the descriptors of the worker's channels (entries with fd < 0
 * are ignored) and must also honour the extra entries after them (the stop
 * and end-of-trace pipes).  A channel reports one of POLLPRI (a sub-buffer
 * is ready and the writer is in its last free one), POLLIN (a sub-buffer
 * is ready) and POLLHUP (finalized and empty), or nothing.
 */
struct lttd_chan_ops {
	int (*get_subbuf)(struct lttd_channel *ch, uint32_t *offset);
	int (*put_subbuf)(struct lttd_channel *ch, uint32_t offset);
	int (*poll)(struct lttd_worker *w, struct pollfd *fds, nfds_t nfds,
		    int timeout_ms);
};

/* Loss counters from the channel.buffer_stats events (stats.c). */
#define LTTD_MAX_FACILITIES	256
struct lttd_bufstats {
	uint32_t events_lost;
	uint32_t corrupted;
	int seen;
};

struct lttd_channel {
	char *path;		/* relative to the trace root: "control/facilities_0" */
	int fd;			/* the channel, or -1 (fake channels may use any) */
	int out_fd;		/* the tracefile */
	const char *map;	/* the whole buffer, read-only */
	size_t buf_size;	/* n_subbufs * subbuf_size */
	uint32_t subbuf_size;
	uint32_t n_subbufs;
	int flight;		/* a flight-* channel: dumped once, at the end */
	int facilities;		/* a control/facilities_N channel */
	void *priv;		/* for the ops */

	/* state, touched only by the owning worker */
	int done;		/* finalized or failed: no longer polled */
	int failed;
	off_t out_size;		/* bytes in the tracefile */

	/* what the exit report says */
	uint64_t written;	/* sub-buffers written */
	uint64_t pushed;	/* sub-buffers lost: PUT_SUBBUF said -EIO */
	struct lttd_bufstats *bstats;	/* [LTTD_MAX_FACILITIES], or NULL */
};

struct lttd_worker {
	const struct lttd_chan_ops *ops;
	struct lttd_channel **chans;
	size_t n;
	int flight_only;	/* -f: dump the flight channels now, poll nothing */
	int fatal;		/* an output error happened */
};

/* Outcome of serving one sub-buffer. */
enum lttd_serve {
	LTTD_SERVED,		/* one sub-buffer copied (or counted as pushed) */
	LTTD_EMPTY,		/* nothing complete right now */
	LTTD_FINALIZED,		/* the channel is finalized and empty */
	LTTD_FAILED,		/* the channel or the output failed; said why */
};

/* copy.c */
int lttd_stop_init(void);		/* the self-pipe; 0 or -errno */
void lttd_request_stop(void);		/* async-signal-safe */
int lttd_stop_requested(void);
void lttd_stop_reset(void);		/* tests: forget a previous stop */
int lttd_stop_fd(void);			/* read end, polled by every worker */
/* A channel hung up: the trace is over (flight channels can be dumped). */
void lttd_note_trace_end(void);
int lttd_trace_ended(void);

int lttd_write_full(int fd, const void *buf, size_t len);
enum lttd_serve lttd_serve_one(struct lttd_worker *w, struct lttd_channel *ch);
size_t lttd_drain(struct lttd_worker *w, struct lttd_channel *ch);
int lttd_worker_run(struct lttd_worker *w);	/* 0, or -1 on fatal error */
int lttd_open_output(struct lttd_channel *ch, const char *out_path,
		     int append);

/* Messages: stderr, or syslog once daemonized. */
void lttd_log_to_syslog(void);
void lttd_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void lttd_info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * stats.c: the loss counters of channel.buffer_stats, from written data.
 * scan looks at a sub-buffer (and learns facility ids from a facilities
 * channel); commit records what it found, once the sub-buffer is kept.
 */
#define LTTD_STATS_CANDIDATES	8
struct lttd_stats_hit {
	int found;		/* candidates in fac[] etc. */
	struct {
		unsigned fac;
		uint32_t events_lost, corrupted;
	} c[LTTD_STATS_CANDIDATES];
};
void lttd_stats_scan(const struct lttd_channel *ch, const unsigned char *sb,
		     size_t len, struct lttd_stats_hit *hit);
void lttd_stats_commit(struct lttd_channel *ch,
		       const struct lttd_stats_hit *hit);
int lttd_stats_channel_facility(void);	/* its facility id, or -1 */
void lttd_stats_reset(void);

/* relay.c: the real channels */
extern const struct lttd_chan_ops lttd_relay_ops;
int lttd_relay_open(struct lttd_channel *ch, const char *file);
void lttd_relay_close(struct lttd_channel *ch);

#endif
