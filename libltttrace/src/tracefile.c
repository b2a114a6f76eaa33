/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * tracefile.c - one file of sub-buffers: map it, check every block header,
 * and read its events one after the other.
 *
 * Every block header is validated when the file is opened, so that reading
 * events later only has to check the events themselves. Reads never go past
 * `buf_size - lost_size` of a block.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cursor.h"

#define HEADER_SIZE sizeof(struct ltt_block_start_header)

/* Checks one block header against the first one of the trace. */
static int check_block(ltt_trace *trace, ltt_tracefile *tf, unsigned b,
		       const struct ltt_block_start_header *h, ltt_error **err)
{
	const struct ltt_trace_header *th = &h->trace;
	ltt_trace_info *info = &trace->info;
	uint64_t off = (uint64_t)b * tf->subbuf_size;

	if (th->magic_number != LTT_TRACER_MAGIC_NUMBER) {
		if (th->magic_number == GUINT32_SWAP_LE_BE(LTT_TRACER_MAGIC_NUMBER))
			ltt_set_error(err, "sub-buffer %u at offset 0x%" PRIx64
				      ": byte-swapped magic 0x%08x: traces of the other "
				      "byte order are not supported", b, off,
				      th->magic_number);
		else
			ltt_set_error(err, "sub-buffer %u at offset 0x%" PRIx64
				      ": bad magic number 0x%08x (want 0x%08x)", b,
				      off, th->magic_number, LTT_TRACER_MAGIC_NUMBER);
		return -1;
	}
	if (th->major_version != LTT_TRACER_VERSION_MAJOR ||
	    th->minor_version != LTT_TRACER_VERSION_MINOR) {
		ltt_set_error(err, "sub-buffer %u at offset 0x%" PRIx64
			      ": format version %u.%u, this reader knows %u.%u", b,
			      off, th->major_version, th->minor_version,
			      LTT_TRACER_VERSION_MAJOR, LTT_TRACER_VERSION_MINOR);
		return -1;
	}
	if (h->buf_size != tf->subbuf_size) {
		ltt_set_error(err, "sub-buffer %u at offset 0x%" PRIx64
			      ": buf_size %u differs from the file's sub-buffer size %u",
			      b, off, h->buf_size, tf->subbuf_size);
		return -1;
	}
	if (h->lost_size > h->buf_size - HEADER_SIZE) {
		ltt_set_error(err, "sub-buffer %u at offset 0x%" PRIx64
			      ": lost_size %u larger than the sub-buffer's room for "
			      "events (%u - %zu)", b, off, h->lost_size, h->buf_size,
			      HEADER_SIZE);
		return -1;
	}
	if (th->arch_size != 4 && th->arch_size != 8) {
		ltt_set_error(err, "sub-buffer %u: arch_size %u (want 4 or 8)", b,
			      th->arch_size);
		return -1;
	}
	if (th->has_alignment != 0 && th->has_alignment != 1 &&
	    th->has_alignment != 2 && th->has_alignment != 4 &&
	    th->has_alignment != 8) {
		ltt_set_error(err, "sub-buffer %u: has_alignment %u (want 0, 1, 2, 4 or 8)",
			      b, th->has_alignment);
		return -1;
	}
	if (th->freq_scale == 0 || th->start_freq == 0) {
		ltt_set_error(err, "sub-buffer %u: frequency is 0 (start_freq %" PRIu64
			      ", freq_scale %u)", b, (uint64_t)th->start_freq, th->freq_scale);
		return -1;
	}
	/* bounded so that every time computed from it fits in int64 ns */
	if (th->start_time_sec > 4000000000ULL || th->start_time_usec >= 1000000) {
		ltt_set_error(err, "sub-buffer %u: impossible start time %" PRIu64
			      " s %" PRIu64 " us", b, (uint64_t)th->start_time_sec,
			      (uint64_t)th->start_time_usec);
		return -1;
	}
	if (info->arch_size == 0) {	/* the first block of the trace */
		info->arch_type = th->arch_type;
		info->arch_variant = th->arch_variant;
		info->arch_size = th->arch_size;
		info->major = th->major_version;
		info->minor = th->minor_version;
		info->mode = th->flight_recorder;
		info->has_heartbeat = th->has_heartbeat;
		info->has_alignment = th->has_alignment;
		info->freq_scale = th->freq_scale;
		info->start_freq = th->start_freq;
		info->start_tsc = th->start_tsc;
		info->start_monotonic = th->start_monotonic;
		info->start_time_ns = (int64_t)th->start_time_sec * 1000000000 +
				      (int64_t)th->start_time_usec * 1000;
		return 0;
	}
	if (th->has_heartbeat != info->has_heartbeat ||
	    th->has_alignment != info->has_alignment ||
	    th->arch_size != info->arch_size ||
	    th->freq_scale != info->freq_scale ||
	    th->start_freq != info->start_freq ||
	    th->start_tsc != info->start_tsc) {
		ltt_set_error(err, "sub-buffer %u: its trace header disagrees with the "
			      "first sub-buffer of the trace (heartbeat, alignment, "
			      "arch size or clock)", b);
		return -1;
	}
	return 0;
}

int ltt_tracefile_open(ltt_trace *trace, const char *relpath,
		       ltt_tracefile *tf, ltt_error **err)
{
	char *path = g_build_filename(trace->path, relpath, NULL);
	struct stat st;
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);

	tf->trace = trace;
	tf->relpath = g_strdup(relpath);
	g_free(path);
	if (fd < 0 || fstat(fd, &st) < 0) {
		ltt_set_error(err, "%s: %s", relpath, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		ltt_set_error(err, "%s: not a regular file", relpath);
		close(fd);
		return -1;
	}
	tf->map_size = (size_t)st.st_size;
	if (tf->map_size == 0) {	/* a CPU that logged nothing */
		close(fd);
		return 0;
	}
	if (tf->map_size < HEADER_SIZE) {
		ltt_set_error(err, "%s: %zu bytes, shorter than one block header (%zu): "
			      "truncated", relpath, tf->map_size, HEADER_SIZE);
		close(fd);
		return -1;
	}
	tf->map = mmap(NULL, tf->map_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (tf->map == MAP_FAILED) {
		tf->map = NULL;
		ltt_set_error(err, "%s: mmap: %s", relpath, strerror(errno));
		return -1;
	}
	madvise((void *)tf->map, tf->map_size, MADV_SEQUENTIAL);

	{
		struct ltt_block_start_header h;

		memcpy(&h, tf->map, HEADER_SIZE);
		tf->subbuf_size = h.buf_size;
	}
	if (tf->subbuf_size < HEADER_SIZE || tf->subbuf_size > (1U << 30)) {
		ltt_set_error(err, "%s: first sub-buffer: buf_size %u is impossible "
			      "(a corrupt header?)", relpath, tf->subbuf_size);
		return -1;
	}
	if (tf->map_size % tf->subbuf_size) {
		ltt_set_error(err, "%s: size %zu is not a multiple of the sub-buffer "
			      "size %u: truncated file", relpath, tf->map_size,
			      tf->subbuf_size);
		return -1;
	}
	tf->num_blocks = (unsigned)(tf->map_size / tf->subbuf_size);
	tf->blocks = g_new(ltt_block, tf->num_blocks);
	for (unsigned b = 0; b < tf->num_blocks; b++) {
		struct ltt_block_start_header h;

		memcpy(&h, tf->map + (size_t)b * tf->subbuf_size, HEADER_SIZE);
		if (check_block(trace, tf, b, &h, err) < 0) {
			ltt_prefix_error(err, "%s", relpath);
			return -1;
		}
		tf->blocks[b].begin_cycles = h.begin.cycle_count;
		tf->blocks[b].end_cycles = h.end.cycle_count;
		tf->blocks[b].data_end = h.buf_size - h.lost_size;
	}
	/* the headers just read touched a page of every block: hand them
	 * back until the events are read */
	madvise((void *)tf->map, tf->map_size, MADV_DONTNEED);
	return 0;
}

void ltt_tracefile_unmap(ltt_tracefile *tf)
{
	if (tf->map)
		munmap((void *)tf->map, tf->map_size);
	tf->map = NULL;
	g_free(tf->blocks);
	g_free(tf->name);
	g_free(tf->relpath);
}

void ltt_cursor_init(ltt_cursor *c, ltt_tracefile *tf)
{
	memset(c, 0, sizeof(*c));
	c->tf = tf;
	c->ev.trace = tf->trace;
	c->ev.tf = tf;
	ltt_cursor_seek_block(c, 0);
}

void ltt_cursor_seek_block(ltt_cursor *c, unsigned block)
{
	const ltt_tracefile *tf = c->tf;

	c->block = block;
	c->offset = HEADER_SIZE;
	c->at_end = block >= tf->num_blocks;
	c->data_end = 0;
	if (!c->at_end) {
		c->last_cycles = tf->blocks[block].begin_cycles;
		c->data_end = tf->blocks[block].data_end;
		c->base_offset = (uint64_t)block * tf->subbuf_size;
		c->base = tf->map + c->base_offset;
	}
}

/*
 * A block read to its end is handed back to the page cache: a dump of a
 * big trace then keeps one sub-buffer per tracefile resident, not the
 * whole file (the pages come back from the cache if the block is read
 * again). Only whole pages inside the block are dropped.
 */
static void release_block(const ltt_tracefile *tf, unsigned block)
{
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
	uintptr_t start = (uintptr_t)tf->map + (uintptr_t)block * tf->subbuf_size;
	uintptr_t end = start + tf->subbuf_size;

	start = (start + page - 1) & ~(page - 1);
	end &= ~(page - 1);
	if (end > start)
		madvise((void *)start, end - start, MADV_DONTNEED);
}

/* ---- the unusual cases of ltt_cursor_next() (cursor.h) ---- */

int ltt_cursor_next_block(ltt_cursor *c)
{
	while (c->offset >= c->data_end) {
		if (c->at_end)
			return 0;
		release_block(c->tf, c->block);
		ltt_cursor_seek_block(c, c->block + 1);
	}
	return 1;
}

int ltt_cursor_bad_header(const ltt_cursor *c, size_t off, ltt_error **err)
{
	ltt_set_error(err, "%s: sub-buffer %u: event header at offset 0x%zx "
		      "runs past the end of the data (0x%zx)", c->tf->relpath,
		      c->block, (size_t)c->base_offset + off,
		      (size_t)c->base_offset + c->data_end);
	return -1;
}

int ltt_cursor_finish_unusual(ltt_cursor *c, size_t off, unsigned size,
			      uint64_t ts, ltt_error **err)
{
	ltt_tracefile *tf = c->tf;
	ltt_event *ev = &c->ev;
	size_t end = c->data_end;

	if (size == LTT_EVENT_SIZE_UNKNOWN) {
		int64_t computed = ev->type && off <= end
			? ltt_event_type_payload_size(ev->type, ev->payload, end - off)
			: -1;

		if (computed < 0) {
			ltt_set_error(err, "%s: event at offset 0x%" PRIx64 " has size "
				      "0xFFFF and its size cannot be computed from a "
				      "description", tf->relpath, ev->file_offset);
			return -1;
		}
		size = (unsigned)computed;
	}
	if (off > end || size > end - off) {
		ltt_set_error(err, "%s: sub-buffer %u: event at offset 0x%" PRIx64
			      " (%u bytes of payload) runs past the end of the "
			      "sub-buffer data", tf->relpath, c->block,
			      ev->file_offset, size);
		return -1;
	}
	ev->size = size;
	c->offset = (uint32_t)(off + size);
	c->last_cycles = ts;
	return 1;
}

/* ---- facts of the whole file, read once when the trace is opened ---- */

/* The first event of block b, if the block has one: 1, else 0. */
static int first_event_of(ltt_cursor *c, unsigned b)
{
	ltt_cursor_seek_block(c, b);
	return ltt_cursor_next(c, NULL) > 0 && c->block == b;
}

/*
 * The loss counters: the kernel writes channel.buffer_stats (cumulative)
 * as the first event of a sub-buffer whenever a counter changed, so the
 * largest pair over the first events of all blocks is the file's total,
 * however far anyone reads. One event header per block.
 */
void ltt_tracefile_read_losses(ltt_tracefile *tf)
{
	ltt_cursor c;

	ltt_cursor_init(&c, tf);
	for (unsigned b = 0; b < tf->num_blocks; b++) {
		uint64_t lost, bad;

		if (!first_event_of(&c, b) || !c.ev.type || !c.ev.type->is_buffer_stats)
			continue;
		lost = ltt_event_get_uint(&c.ev, "events_lost", 0);
		bad = ltt_event_get_uint(&c.ev, "corrupted_subbuffers", 0);
		if (lost > tf->events_lost)
			tf->events_lost = lost;
		if (bad > tf->corrupted)
			tf->corrupted = bad;
	}
	if (tf->map)
		madvise((void *)tf->map, tf->map_size, MADV_DONTNEED);
}

/*
 * Times of the first and last events of the file (the block headers'
 * times bracket them: a sub-buffer is closed after its last event, by a
 * timer, sometimes long after). The first non-empty block gives the first
 * event; the last non-empty one is read to its end for the last. 0, or
 * -1 if the file has no readable event.
 */
int ltt_tracefile_event_span(ltt_tracefile *tf, int64_t *first, int64_t *last)
{
	ltt_cursor c;
	int found = 0;

	ltt_cursor_init(&c, tf);
	for (unsigned b = 0; b < tf->num_blocks && !found; b++)
		if (first_event_of(&c, b)) {
			*first = c.ev.time_ns;
			found = 1;
		}
	for (unsigned b = tf->num_blocks; found && b-- > 0;) {
		int r;

		if (!first_event_of(&c, b))
			continue;
		*last = c.ev.time_ns;
		while ((r = ltt_cursor_next(&c, NULL)) > 0 && c.block == b)
			if (c.ev.time_ns > *last)
				*last = c.ev.time_ns;
		break;
	}
	if (tf->map)
		madvise((void *)tf->map, tf->map_size, MADV_DONTNEED);
	return found ? 0 : -1;
}
