// SPDX-License-Identifier: GPL-2.0
/*
 * relay.c - the real channels: relayfs files, their ioctls and their map.
 *
 * Opening a channel asks it for its geometry (RELAYFS_GET_N_SUBBUFS,
 * RELAYFS_GET_SUBBUF_SIZE); a file that does not answer them is not a
 * relayfs channel and is refused before anything is written.  The whole
 * buffer is then mapped read-only: the kernel allows only a map of exactly
 * n_subbufs * subbuf_size bytes.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <ltt/ltt-abi.h>

#include "lttd.h"

static int relay_get(struct lttd_channel *ch, uint32_t *offset)
{
	__u32 off = 0;

	if (ioctl(ch->fd, RELAYFS_GET_SUBBUF, &off) < 0)
		return -errno;
	*offset = off;
	return 0;
}

static int relay_put(struct lttd_channel *ch, uint32_t offset)
{
	__u32 off = offset;

	if (ioctl(ch->fd, RELAYFS_PUT_SUBBUF, &off) < 0)
		return -errno;
	return 0;
}

static int relay_poll(struct lttd_worker *w, struct pollfd *fds, nfds_t nfds,
		      int timeout_ms)
{
	return poll(fds, nfds, timeout_ms);
}

const struct lttd_chan_ops lttd_relay_ops = {
	.get_subbuf = relay_get,
	.put_subbuf = relay_put,
	.poll = relay_poll,
};

static int is_pow2(uint32_t v)
{
	return v && !(v & (v - 1));
}

/* Opens and maps one channel; on error says why (one line) and returns -1. */
int lttd_relay_open(struct lttd_channel *ch, const char *file)
{
	__u32 n = 0, size = 0;
	void *map;

	ch->fd = open(file, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (ch->fd < 0) {
		if (errno == EBUSY)
			lttd_err("%s: already being read (one reader per "
				 "channel: is another lttd running?)", file);
		else
			lttd_err("%s: cannot open: %s", file, strerror(errno));
		return -1;
	}
	if (ioctl(ch->fd, RELAYFS_GET_N_SUBBUFS, &n) < 0 ||
	    ioctl(ch->fd, RELAYFS_GET_SUBBUF_SIZE, &size) < 0) {
		if (errno == ENOTTY || errno == EINVAL)
			lttd_err("%s: not a relayfs channel (it does not answer "
				 "RELAYFS_GET_N_SUBBUFS)", file);
		else
			lttd_err("%s: cannot read the channel geometry: %s",
				 file, strerror(errno));
		goto fail;
	}
	/* the free-running __u32 offset wraps cleanly only on a power of 2 */
	if (!is_pow2(n) || !is_pow2(size) || (uint64_t)n * size > 1ULL << 31) {
		lttd_err("%s: unusable geometry: %u sub-buffers of %u bytes",
			 file, n, size);
		goto fail;
	}
	ch->n_subbufs = n;
	ch->subbuf_size = size;
	ch->buf_size = (size_t)n * size;
	map = mmap(NULL, ch->buf_size, PROT_READ, MAP_PRIVATE, ch->fd, 0);
	if (map == MAP_FAILED) {
		lttd_err("%s: cannot map its %zu-byte buffer: %s", file,
			 ch->buf_size, strerror(errno));
		goto fail;
	}
	ch->map = map;
	return 0;
fail:
	close(ch->fd);
	ch->fd = -1;
	return -1;
}

void lttd_relay_close(struct lttd_channel *ch)
{
	if (ch->map)
		munmap((void *)ch->map, ch->buf_size);
	ch->map = NULL;
	if (ch->fd >= 0)
		close(ch->fd);
	ch->fd = -1;
}
