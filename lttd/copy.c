// SPDX-License-Identifier: GPL-2.0
/*
 * copy.c - the copy loop of lttd: from a channel's sub-buffers to its file.
 *
 * One worker owns a fixed set of channels and loops:
 *
 *   poll(normal channels + stop pipe [+ end-of-trace pipe])
 *     stop pipe readable     -> leave the loop
 *     POLLPRI (buffer full)  -> one sub-buffer from each such channel,
 *                               then poll again, so full buffers go first
 *     POLLIN                 -> one sub-buffer from each such channel
 *     POLLHUP / POLLERR      -> the channel is finalized and empty: done;
 *                               and the trace is over (see below)
 *   until no normal channel is left and, if the worker has flight
 *   channels, the trace is known to be over; then, after the loop:
 *     drain every normal channel still open (what is ready now: at most
 *     n_subbufs each, so that a running writer cannot keep us here)
 *     dump every flight channel once (at most n_subbufs each)
 *
 * The kernel reports exactly one of POLLIN, POLLPRI and POLLHUP, as the
 * 2006 transport did: POLLHUP only when the channel is finalized and
 * empty.  A flight channel is left alone until the end, so it is never
 * empty and never hangs up by itself; but the kernel finalizes every
 * channel of a trace at once, after flushing them all, so the first hang-up
 * of any channel, seen by any worker, says that the trace is over: it is
 * latched in the end-of-trace pipe, which the workers waiting only for
 * their flight channels poll.
 *
 * A sub-buffer is given back to the kernel only after it is on disk, so the
 * only way to lose a complete one is the writer pushing the reader in
 * flight mode, which PUT_SUBBUF reports as -EIO: that copy is cut off the
 * file again (its content is a mix of old and new data) and counted.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <syslog.h>
#include <unistd.h>

#include <ltt/ltt-abi.h>

#include "lttd.h"

/* ---- messages ------------------------------------------------------------ */

static int use_syslog;

void lttd_log_to_syslog(void)
{
	openlog("lttd", LOG_PID, LOG_DAEMON);
	use_syslog = 1;
}

static void vlog(int prio, const char *fmt, va_list ap)
{
	if (use_syslog) {
		vsyslog(prio, fmt, ap);
		return;
	}
	/* one fprintf per line so that threads do not interleave words */
	char line[1024];

	vsnprintf(line, sizeof(line), fmt, ap);
	fprintf(stderr, "lttd: %s\n", line);
}

void lttd_err(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vlog(LOG_ERR, fmt, ap);
	va_end(ap);
}

void lttd_info(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vlog(LOG_INFO, fmt, ap);
	va_end(ap);
}

/* ---- stopping: a flag and a self-pipe that every worker polls ----------- */

static volatile sig_atomic_t stop_flag;
static int stop_pipe[2] = { -1, -1 };

/* the end of the trace: a latch and a pipe, written once, never read */
static atomic_int ended_flag;
static int ended_pipe[2] = { -1, -1 };

int lttd_stop_init(void)
{
	if (stop_pipe[0] < 0 && pipe2(stop_pipe, O_CLOEXEC | O_NONBLOCK) < 0)
		return -errno;
	if (ended_pipe[0] < 0 && pipe2(ended_pipe, O_CLOEXEC | O_NONBLOCK) < 0)
		return -errno;
	return 0;
}

void lttd_note_trace_end(void)
{
	if (atomic_exchange(&ended_flag, 1))
		return;
	if (ended_pipe[1] >= 0 && write(ended_pipe[1], "x", 1) < 0) {
		/* cannot be full: one byte */
	}
}

int lttd_trace_ended(void)
{
	return atomic_load(&ended_flag);
}

void lttd_request_stop(void)
{
	int saved = errno;

	stop_flag = 1;
	/* the byte stays in the pipe: every poller keeps seeing it */
	if (stop_pipe[1] >= 0 && write(stop_pipe[1], "x", 1) < 0) {
		/* pipe full: it is readable anyway */
	}
	errno = saved;
}

int lttd_stop_requested(void)
{
	return stop_flag;
}

int lttd_stop_fd(void)
{
	return stop_pipe[0];
}

void lttd_stop_reset(void)
{
	char buf[64];

	stop_flag = 0;
	if (stop_pipe[0] >= 0)
		while (read(stop_pipe[0], buf, sizeof(buf)) > 0)
			;
	atomic_store(&ended_flag, 0);
	if (ended_pipe[0] >= 0)
		while (read(ended_pipe[0], buf, sizeof(buf)) > 0)
			;
}

/* ---- output -------------------------------------------------------------- */

/* Writes all of buf, retrying on EINTR and short writes: 0, or -1 + errno. */
int lttd_write_full(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len > 0) {
		ssize_t w = write(fd, p, len);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (w == 0) {
			errno = EIO;
			return -1;
		}
		p += w;
		len -= (size_t)w;
	}
	return 0;
}

/*
 * A tracefile holds sub-buffers of one size: refuse to append ours to a
 * file whose first sub-buffer says another (files that do not start with a
 * block header are not judged).
 */
static int check_geometry(struct lttd_channel *ch, const char *out_path)
{
	struct ltt_block_start_header h;
	ssize_t n = pread(ch->out_fd, &h, sizeof(h), 0);

	if (n < 0) {
		lttd_err("%s: cannot read: %s", out_path, strerror(errno));
		return -1;
	}
	if (n == (ssize_t)sizeof(h) &&
	    h.trace.magic_number == LTT_TRACER_MAGIC_NUMBER &&
	    h.buf_size != ch->subbuf_size) {
		lttd_err("%s: holds %u-byte sub-buffers, this channel has %u; "
			 "refusing to append to it", out_path, h.buf_size,
			 ch->subbuf_size);
		return -1;
	}
	return 0;
}

/*
 * Opens the tracefile of ch.  Without append, the file must not exist (we
 * never overwrite a trace); with append, an existing file must hold whole
 * sub-buffers of this channel's size, or appending would corrupt it.
 */
int lttd_open_output(struct lttd_channel *ch, const char *out_path, int append)
{
	int flags = O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC;
	struct stat st;

	if (!append)
		flags |= O_EXCL;
	ch->out_fd = open(out_path, flags, 0644);
	if (ch->out_fd < 0) {
		if (errno == EEXIST)
			lttd_err("%s: already exists (use -a to append to it)",
				 out_path);
		else
			lttd_err("%s: cannot open for writing: %s", out_path,
				 strerror(errno));
		return -1;
	}
	if (fstat(ch->out_fd, &st) < 0) {
		lttd_err("%s: %s", out_path, strerror(errno));
		goto fail;
	}
	if (!S_ISREG(st.st_mode)) {
		lttd_err("%s: not a regular file", out_path);
		goto fail;
	}
	if (ch->subbuf_size && st.st_size % ch->subbuf_size) {
		lttd_err("%s: %lld bytes is not a whole number of %u-byte "
			 "sub-buffers; refusing to append to it", out_path,
			 (long long)st.st_size, ch->subbuf_size);
		goto fail;
	}
	if (st.st_size > 0 && check_geometry(ch, out_path) < 0)
		goto fail;
	ch->out_size = st.st_size;
	return 0;
fail:
	close(ch->out_fd);
	ch->out_fd = -1;
	return -1;
}

/* ---- the copy ------------------------------------------------------------ */

static void fail_output(struct lttd_worker *w, struct lttd_channel *ch, int err)
{
	lttd_err("%s: cannot write the tracefile: %s", ch->path, strerror(err));
	ch->failed = 1;
	ch->done = 1;
	w->fatal = 1;
	/* the other workers stop too: they drain what is ready and leave */
	lttd_request_stop();
}

/* Takes back a partial or pushed copy: the file ends at a sub-buffer again. */
static int cut_back(struct lttd_channel *ch)
{
	if (ftruncate(ch->out_fd, ch->out_size) < 0) {
		lttd_err("%s: cannot cut a lost sub-buffer off the tracefile: %s",
			 ch->path, strerror(errno));
		return -1;
	}
	return 0;
}

/* Copies one sub-buffer of ch to its file, if one is ready. */
enum lttd_serve lttd_serve_one(struct lttd_worker *w, struct lttd_channel *ch)
{
	const struct lttd_chan_ops *ops = w->ops;
	uint32_t off;
	size_t pos;
	int r;

	if (ch->done)
		return ch->failed ? LTTD_FAILED : LTTD_FINALIZED;
	r = ops->get_subbuf(ch, &off);
	if (r == -EAGAIN || r == -EWOULDBLOCK)
		return LTTD_EMPTY;
	if (r == -ENODATA)
		return LTTD_FINALIZED;
	if (r == -EINTR)
		return LTTD_EMPTY;	/* poll again, the stop flag is seen there */
	if (r < 0) {
		lttd_err("%s: cannot get a sub-buffer: %s", ch->path,
			 strerror(-r));
		ch->failed = 1;
		ch->done = 1;
		return LTTD_FAILED;
	}

	pos = off % ch->buf_size;
	if (pos % ch->subbuf_size) {
		lttd_err("%s: the kernel gave offset %u, not at a sub-buffer "
			 "boundary", ch->path, off);
		ops->put_subbuf(ch, off);
		ch->failed = 1;
		ch->done = 1;
		return LTTD_FAILED;
	}

	const unsigned char *sb = (const unsigned char *)ch->map + pos;

	if (lttd_write_full(ch->out_fd, sb, ch->subbuf_size) < 0) {
		int err = errno;
		struct stat st;

		/* a partial sub-buffer must not stay in a tracefile */
		if (fstat(ch->out_fd, &st) == 0 && S_ISREG(st.st_mode) &&
		    st.st_size != ch->out_size)
			cut_back(ch);
		ops->put_subbuf(ch, off);
		fail_output(w, ch, err);
		return LTTD_FAILED;
	}

	/*
	 * Read the loss counters before giving the sub-buffer back: after
	 * put_subbuf the kernel may write over it.  They count only if the
	 * copy is kept.
	 */
	struct lttd_stats_hit hit;

	lttd_stats_scan(ch, sb, ch->subbuf_size, &hit);

	r = ops->put_subbuf(ch, off);
	if (r == -EIO) {
		/* the writer pushed us: the copy is not trustworthy */
		ch->pushed++;
		if (cut_back(ch) < 0) {
			/* the file now holds a bad sub-buffer: keep going,
			 * but say so and count it as written */
			ch->out_size += ch->subbuf_size;
		}
		return LTTD_SERVED;
	}
	lttd_stats_commit(ch, &hit);
	ch->out_size += ch->subbuf_size;
	ch->written++;
	if (r < 0) {
		lttd_err("%s: cannot release sub-buffer at offset %u: %s",
			 ch->path, off, strerror(-r));
		ch->failed = 1;
		ch->done = 1;
		return LTTD_FAILED;
	}
	return LTTD_SERVED;
}

/*
 * Copies what is ready now, and at most one buffer's worth, so that a writer
 * that keeps producing cannot hold us here.  Returns the sub-buffers served;
 * marks the channel done when it is finalized or failed.
 */
size_t lttd_drain(struct lttd_worker *w, struct lttd_channel *ch)
{
	size_t n = 0;

	while (n < ch->n_subbufs) {
		enum lttd_serve s = lttd_serve_one(w, ch);

		if (s == LTTD_SERVED) {
			n++;
			continue;
		}
		if (s == LTTD_FINALIZED)
			ch->done = 1;
		break;
	}
	return n;
}

/*
 * Fills the poll set: the worker's channels, the stop pipe, and the
 * end-of-trace pipe when only flight channels are left to wait for.
 * Returns how many normal channels are still polled; *flights, how many
 * flight channels wait for their dump.
 */
static size_t fill_pollset(struct lttd_worker *w, struct pollfd *pfd,
			   size_t *flights)
{
	size_t live = 0;

	*flights = 0;
	for (size_t i = 0; i < w->n; i++) {
		struct lttd_channel *ch = w->chans[i];

		pfd[i].revents = 0;
		if (ch->done) {
			pfd[i].fd = -1;
			pfd[i].events = 0;
			continue;
		}
		pfd[i].fd = ch->fd;
		/* flight channels: only a hang-up (or an error) until the end */
		pfd[i].events = ch->flight ? 0 : POLLIN | POLLPRI;
		if (ch->flight)
			(*flights)++;
		else
			live++;
	}
	pfd[w->n].fd = lttd_stop_fd();
	pfd[w->n].events = POLLIN;
	pfd[w->n].revents = 0;
	/* readable for good once set: polled only when nothing else is */
	pfd[w->n + 1].fd = live ? -1 : ended_pipe[0];
	pfd[w->n + 1].events = POLLIN;
	pfd[w->n + 1].revents = 0;
	return live;
}

static void poll_loop(struct lttd_worker *w, struct pollfd *pfd)
{
	for (;;) {
		size_t flights;

		if (lttd_stop_requested())
			return;
		if (fill_pollset(w, pfd, &flights) == 0 &&
		    (flights == 0 || lttd_trace_ended()))
			return;
		int r = w->ops->poll(w, pfd, w->n + 2, -1);

		if (r < 0) {
			if (errno == EINTR)
				continue;
			lttd_err("poll: %s", strerror(errno));
			w->fatal = 1;
			return;
		}
		if (pfd[w->n].revents)
			return;		/* asked to stop */

		/* buffers about to overflow first: one sub-buffer each */
		int urgent = 0;

		for (size_t i = 0; i < w->n; i++) {
			if (!(pfd[i].revents & POLLPRI))
				continue;
			urgent = 1;
			if (lttd_serve_one(w, w->chans[i]) == LTTD_FINALIZED)
				w->chans[i]->done = 1;
		}
		if (urgent)
			continue;

		for (size_t i = 0; i < w->n; i++) {
			struct lttd_channel *ch = w->chans[i];
			short re = pfd[i].revents;

			if (re & POLLNVAL) {
				lttd_err("%s: the channel descriptor is invalid",
					 ch->path);
				ch->failed = ch->done = 1;
				continue;
			}
			if ((re & POLLIN) &&
			    lttd_serve_one(w, ch) == LTTD_FINALIZED)
				ch->done = 1;
			if ((re & (POLLHUP | POLLERR)) && !ch->done) {
				/*
				 * Finalized (and empty, for the kernels that
				 * report one event at a time): the trace is
				 * over.  A normal channel is drained in case
				 * the kernel hung up with data left; a flight
				 * channel is dumped after the loop.
				 */
				lttd_note_trace_end();
				if (!ch->flight)
					lttd_drain(w, ch);
				ch->done = 1;
			}
		}
	}
}

/*
 * Runs one worker until all its channels are finalized, or a stop is
 * requested; then drains and dumps as described at the top of this file.
 * Returns 0, or -1 if an output error makes the trace incomplete.
 */
int lttd_worker_run(struct lttd_worker *w)
{
	struct pollfd pfd[w->n + 2];

	if (!w->flight_only)
		poll_loop(w, pfd);

	/* what is ready in the normal channels (a stop or a poll error) */
	for (size_t i = 0; i < w->n; i++) {
		struct lttd_channel *ch = w->chans[i];

		if (!ch->flight && !ch->done)
			lttd_drain(w, ch);
	}
	/* the flight recorders, once */
	for (size_t i = 0; i < w->n; i++) {
		struct lttd_channel *ch = w->chans[i];

		if (!ch->flight || ch->failed)
			continue;
		ch->done = 0;
		lttd_drain(w, ch);
		ch->done = 1;
	}
	return w->fatal ? -1 : 0;
}
