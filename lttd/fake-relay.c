// SPDX-License-Identifier: GPL-2.0
/*
 * fake-relay.c - a stand-in for relay.c, for the test-only lttd-fakerelay.
 *
 * Linked instead of relay.c, it lets tests/t20-lttd.sh run the whole lttd
 * binary on the host: the walk, the outputs, the threads, signals, -D and
 * the exit report.  A "channel" is a regular file holding whole sub-buffers
 * (LTTD_FAKE_SUBBUF_SIZE bytes, default 4096); the fake writer feeds them,
 * one per poll, into a ring of LTTD_FAKE_N_SUBBUFS (default 4): a normal
 * channel's writer waits for room, a flight channel's overwrites the oldest.
 * Its poll reports one of POLLPRI (the ring is full), POLLIN (a sub-buffer
 * is ready) and POLLHUP (the writer is done and the ring empty), as the
 * kernel does; unless LTTD_FAKE_HOLD is set, when the writer is never done:
 * then only a signal ends lttd.  LTTD_FAKE_EIO=k makes the put of the
 * k-th sub-buffer (from 1) of every channel fail with EIO.  A file that is
 * not a whole number of sub-buffers is refused as not a channel.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lttd.h"

struct fake_chan {
	uint32_t total, produced, consumed;
	uint32_t eio_at;
	int hold;
	unsigned char *ring;
};

static uint32_t env_u32(const char *name, uint32_t def)
{
	const char *s = getenv(name);

	return s && *s ? (uint32_t)strtoul(s, NULL, 0) : def;
}

/* The writer: the next sub-buffer of the file, if the ring has room. */
static void feed(struct lttd_channel *ch)
{
	struct fake_chan *f = ch->priv;

	if (f->produced == f->total)
		return;
	if (f->produced - f->consumed == ch->n_subbufs) {
		if (!ch->flight)
			return;		/* normal mode: the writer waits */
		f->consumed++;		/* flight mode: the oldest is overwritten */
	}
	size_t slot = (size_t)(f->produced % ch->n_subbufs) * ch->subbuf_size;

	if (pread(ch->fd, f->ring + slot, ch->subbuf_size,
		  (off_t)f->produced * ch->subbuf_size) !=
	    (ssize_t)ch->subbuf_size)
		memset(f->ring + slot, 0xEE, ch->subbuf_size);
	f->produced++;
}

static int fake_get(struct lttd_channel *ch, uint32_t *off)
{
	struct fake_chan *f = ch->priv;

	/* a flight writer never waited for us: it has written everything */
	while (ch->flight && f->produced < f->total)
		feed(ch);
	if (f->produced == f->consumed)
		return f->produced == f->total && !f->hold ? -ENODATA : -EAGAIN;
	*off = f->consumed * ch->subbuf_size;
	return 0;
}

static int fake_put(struct lttd_channel *ch, uint32_t off)
{
	struct fake_chan *f = ch->priv;

	if (off != f->consumed * ch->subbuf_size)
		return -EINVAL;
	f->consumed++;
	return f->consumed == f->eio_at ? -EIO : 0;
}

static int fake_poll(struct lttd_worker *w, struct pollfd *fds, nfds_t nfds,
		     int timeout_ms)
{
	int ready = 0;

	for (size_t i = 0; i < w->n; i++) {
		struct lttd_channel *ch = w->chans[i];
		struct fake_chan *f = ch->priv;
		short re = 0;

		fds[i].revents = 0;
		if (fds[i].fd < 0)
			continue;
		feed(ch);
		/* one of them, as the kernel says it (relay.c) */
		if (f->produced - f->consumed == ch->n_subbufs && !ch->flight)
			re = POLLPRI;
		else if (f->produced != f->consumed)
			re = POLLIN;
		else if (f->produced == f->total && !f->hold)
			re = POLLHUP;	/* finalized and empty */
		re &= fds[i].events | POLLHUP;
		fds[i].revents = re;
		ready += re != 0;
	}
	/* the stop pipe is real: block on it only when no channel is ready */
	int r = poll(fds + w->n, nfds - w->n, ready ? 0 : timeout_ms);

	if (r < 0)
		return r;
	return ready + r;
}

const struct lttd_chan_ops lttd_relay_ops = {
	.get_subbuf = fake_get,
	.put_subbuf = fake_put,
	.poll = fake_poll,
};

int lttd_relay_open(struct lttd_channel *ch, const char *file)
{
	struct fake_chan *f = calloc(1, sizeof(*f));
	struct stat st;

	ch->subbuf_size = env_u32("LTTD_FAKE_SUBBUF_SIZE", 4096);
	ch->n_subbufs = env_u32("LTTD_FAKE_N_SUBBUFS", 4);
	ch->buf_size = (size_t)ch->subbuf_size * ch->n_subbufs;
	ch->fd = open(file, O_RDONLY | O_CLOEXEC);
	if (!f || ch->fd < 0 || fstat(ch->fd, &st) < 0) {
		lttd_err("%s: cannot open: %s", file, strerror(errno));
		goto fail;
	}
	if (!S_ISREG(st.st_mode) || st.st_size % ch->subbuf_size) {
		lttd_err("%s: not a relayfs channel (fake: not whole "
			 "sub-buffers)", file);
		goto fail;
	}
	f->total = (uint32_t)(st.st_size / ch->subbuf_size);
	f->eio_at = env_u32("LTTD_FAKE_EIO", 0);
	f->hold = getenv("LTTD_FAKE_HOLD") != NULL;
	f->ring = calloc(ch->n_subbufs, ch->subbuf_size);
	if (!f->ring) {
		lttd_err("out of memory");
		goto fail;
	}
	ch->map = (const char *)f->ring;
	ch->priv = f;
	return 0;
fail:
	if (ch->fd >= 0)
		close(ch->fd);
	ch->fd = -1;
	free(f);
	return -1;
}

void lttd_relay_close(struct lttd_channel *ch)
{
	struct fake_chan *f = ch->priv;

	if (f) {
		free(f->ring);
		free(f);
	}
	ch->priv = NULL;
	ch->map = NULL;
	if (ch->fd >= 0)
		close(ch->fd);
	ch->fd = -1;
}
