/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * tracefile.c - one file of sub-buffers: open it, check every block header,
 * and read its events one after the other.
 *
 * Every block header is validated when the file is opened, so that reading
 * events later only has to check the events themselves. Reads never go past
 * `buf_size - lost_size` of a block. The file is read with pread, a block
 * at a time, never mapped: a file cut while it is read (by another
 * program, or a live trace) must give an error, not a SIGBUS.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cursor.h"
#include "prefault.h"

#define HEADER_SIZE LTT_BLOCK_HEADER_SIZE

/*
 * The magic number, checked before anything else of a header is trusted:
 * a trace of the other byte order has every field swapped (its buf_size
 * too: it was called truncated, or "buf_size 1 is impossible"). Such a
 * trace (a big-endian machine's) is said to be one, and not read: every
 * field of every header and event would need swapping.
 */
static int check_magic(const struct ltt_trace_header *th, unsigned b, uint64_t off,
		       ltt_error **err)
{
	if (th->magic_number == LTT_TRACER_MAGIC_NUMBER)
		return 0;
	if (th->magic_number == GUINT32_SWAP_LE_BE(LTT_TRACER_MAGIC_NUMBER))
		ltt_set_error(err, LTT_ERROR_UNSUPPORTED, "sub-buffer %u at offset 0x%" PRIx64
			      ": byte-swapped magic 0x%08x: a trace of the other byte "
			      "order (written by a big-endian machine), which this "
			      "reader does not read", b, off, th->magic_number);
	else
		ltt_set_error(err, LTT_ERROR_CORRUPT, "sub-buffer %u at offset 0x%" PRIx64
			      ": bad magic number 0x%08x (want 0x%08x)", b,
			      off, th->magic_number, LTT_TRACER_MAGIC_NUMBER);
	return -1;
}

/* Checks one block header against the first one of the trace. */
static int check_block(ltt_trace *trace, ltt_tracefile *tf, unsigned b,
		       const struct ltt_block_start_header *h, ltt_error **err)
{
	const struct ltt_trace_header *th = &h->trace;
	ltt_trace_info *info = &trace->info;
	uint64_t off = (uint64_t)b * tf->subbuf_size;

	if (check_magic(th, b, off, err) < 0)
		return -1;
	if (th->major_version != LTT_TRACER_VERSION_MAJOR ||
	    th->minor_version != LTT_TRACER_VERSION_MINOR) {
		ltt_set_error(err, LTT_ERROR_UNSUPPORTED, "sub-buffer %u at offset 0x%" PRIx64
			      ": format version %u.%u, this reader knows %u.%u", b,
			      off, th->major_version, th->minor_version,
			      LTT_TRACER_VERSION_MAJOR, LTT_TRACER_VERSION_MINOR);
		return -1;
	}
	if (h->buf_size != tf->subbuf_size) {
		ltt_set_error(err, LTT_ERROR_CORRUPT, "sub-buffer %u at offset 0x%" PRIx64
			      ": buf_size %u differs from the file's sub-buffer size %u",
			      b, off, h->buf_size, tf->subbuf_size);
		return -1;
	}
	if (h->lost_size > h->buf_size - HEADER_SIZE) {
		ltt_set_error(err, LTT_ERROR_CORRUPT, "sub-buffer %u at offset 0x%" PRIx64
			      ": lost_size %u larger than the sub-buffer's room for "
			      "events (%u - %zu)", b, off, h->lost_size, h->buf_size,
			      HEADER_SIZE);
		return -1;
	}
	if (th->arch_size != 4 && th->arch_size != 8) {
		ltt_set_error(err, LTT_ERROR_CORRUPT, "sub-buffer %u: arch_size %u (want 4 or 8)", b,
			      th->arch_size);
		return -1;
	}
	if (!ltt_valid_alignment(th->has_alignment)) {
		ltt_set_error(err, LTT_ERROR_CORRUPT, "sub-buffer %u: has_alignment %u (want 0, 1, 2, 4 or 8)",
			      b, th->has_alignment);
		return -1;
	}
	if (th->freq_scale == 0 || th->start_freq == 0) {
		ltt_set_error(err, LTT_ERROR_CORRUPT, "sub-buffer %u: frequency is 0 (start_freq %" PRIu64
			      ", freq_scale %u)", b, (uint64_t)th->start_freq, th->freq_scale);
		return -1;
	}
	/* bounded so that every time computed from it fits in int64 ns */
	if (th->start_time_sec > 4000000000ULL || th->start_time_usec >= 1000000) {
		ltt_set_error(err, LTT_ERROR_CORRUPT, "sub-buffer %u: impossible start time %" PRIu64
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
		/* doubles of ARM's FPA: words swapped back (event.c); an
		 * order we do not know: said, doubles read as 1234 */
		trace->fpa_doubles = th->float_word_order == 4321;
		if (th->float_word_order != 0 && th->float_word_order != 1234 &&
		    th->float_word_order != 4321)
			ltt_trace_warn(trace, "float_word_order %u is neither 1234 nor 4321: "
				       "doubles are read as 1234 (little endian), and may "
				       "be wrong", th->float_word_order);
		return 0;
	}
	if (th->has_heartbeat != info->has_heartbeat ||
	    th->has_alignment != info->has_alignment ||
	    th->arch_size != info->arch_size ||
	    th->freq_scale != info->freq_scale ||
	    th->start_freq != info->start_freq ||
	    th->start_tsc != info->start_tsc) {
		ltt_set_error(err, LTT_ERROR_CORRUPT, "sub-buffer %u: its trace header disagrees with the "
			      "first sub-buffer of the trace (heartbeat, alignment, "
			      "arch size or clock)", b);
		return -1;
	}
	return 0;
}

/* Reads n bytes at off; -1 with err set when the file no longer has
 * them (it was cut or rewritten since it was opened). */
static int read_at(const ltt_tracefile *tf, void *buf, size_t n, uint64_t off,
		   ltt_error **err)
{
	size_t got = 0;

	while (got < n) {
		ssize_t r = pread(tf->fd, (uint8_t *)buf + got, n - got, (off_t)(off + got));

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			ltt_set_error(err, LTT_ERROR_IO, "%s: read at offset 0x%" PRIx64 ": %s",
				      tf->relpath, off + got, strerror(errno));
			return -1;
		}
		if (r == 0) {	/* its size now, not where the read was */
			struct stat st;

			if (fstat(tf->fd, &st) == 0)
				ltt_set_error(err, LTT_ERROR_IO, "%s: the file changed while it "
					      "was read: %" PRIu64 " bytes when opened, %" PRIu64
					      " now (cut by another program, or a live trace "
					      "rewritten?)", tf->relpath, tf->file_size,
					      (uint64_t)st.st_size);
			else
				ltt_set_error(err, LTT_ERROR_IO, "%s: the file changed while it "
					      "was read: %" PRIu64 " bytes when opened, it ends "
					      "before offset 0x%" PRIx64 " now (cut by another "
					      "program, or a live trace rewritten?)", tf->relpath,
					      tf->file_size, off + got);
			return -1;
		}
		got += (size_t)r;
	}
	return 0;
}

int ltt_tracefile_open(ltt_trace *trace, const char *relpath,
		       ltt_tracefile *tf, ltt_error **err)
{
	char *path = g_build_filename(trace->path, relpath, NULL);
	struct stat st;
	/* O_NONBLOCK: a FIFO put in place of the file must not block */
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	struct ltt_block_start_header h;

	tf->trace = trace;
	tf->relpath = g_strdup(relpath);
	tf->fd = -1;
	g_free(path);
	if (fd < 0 || fstat(fd, &st) < 0) {
		ltt_set_error(err, LTT_ERROR_IO, "%s: %s", relpath, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		ltt_set_error(err, LTT_ERROR_IO, "%s: not a regular file", relpath);
		close(fd);
		return -1;
	}
	tf->file_size = (uint64_t)st.st_size;
	tf->dev = (uint64_t)st.st_dev;
	tf->ino = (uint64_t)st.st_ino;
	if (tf->file_size == 0) {	/* a CPU that logged nothing */
		close(fd);
		return 0;
	}
	if (trace->live && tf->file_size < HEADER_SIZE) {
		/* being written: no sub-buffer of it whole yet, as if empty */
		tf->file_size = 0;
		close(fd);
		return 0;
	}
	tf->fd = fd;
	if (tf->file_size < HEADER_SIZE) {
		ltt_set_error(err, LTT_ERROR_CORRUPT, "%s: %" PRIu64 " bytes, shorter than one block "
			      "header (%zu): truncated", relpath, tf->file_size,
			      HEADER_SIZE);
		return -1;
	}
	if (read_at(tf, &h, HEADER_SIZE, 0, err) < 0)
		return -1;
	if (check_magic(&h.trace, 0, 0, err) < 0) {	/* before its buf_size is trusted */
		ltt_prefix_error(err, "%s", relpath);
		return -1;
	}
	tf->subbuf_size = h.buf_size;
	if (tf->subbuf_size < HEADER_SIZE || tf->subbuf_size > (1U << 30)) {
		ltt_set_error(err, LTT_ERROR_CORRUPT, "%s: first sub-buffer: buf_size %u is impossible "
			      "(a corrupt header?)", relpath, tf->subbuf_size);
		return -1;
	}
	if (trace->live)	/* the sub-buffer lttd writes now is read next time */
		tf->file_size -= tf->file_size % tf->subbuf_size;
	if (tf->file_size % tf->subbuf_size) {
		ltt_set_error(err, LTT_ERROR_CORRUPT, "%s: size %" PRIu64 " is not a multiple of the "
			      "sub-buffer size %u: truncated file", relpath,
			      tf->file_size, tf->subbuf_size);
		return -1;
	}
	tf->num_blocks = (unsigned)(tf->file_size / tf->subbuf_size);
	tf->blocks = g_new(ltt_block, tf->num_blocks);
	for (unsigned b = 0; b < tf->num_blocks; b++) {
		if (read_at(tf, &h, HEADER_SIZE, (uint64_t)b * tf->subbuf_size, err) < 0)
			return -1;
		ltt_error *bad = NULL;

		if (check_block(trace, tf, b, &h, &bad) < 0) {
			if (trace->live && b > 0) {
				/* being written? read up to it: the next open
				 * tries it again */
				ltt_error_free(bad);
				tf->num_blocks = b;
				tf->file_size = (uint64_t)b * tf->subbuf_size;
				break;
			}
			ltt_pass_error(err, bad);
			ltt_prefix_error(err, "%s", relpath);
			return -1;
		}
		tf->blocks[b].begin_cycles = h.begin.cycle_count;
		tf->blocks[b].end_cycles = h.end.cycle_count;
		tf->blocks[b].data_end = h.buf_size - h.lost_size;
	}
	return 0;
}

void ltt_tracefile_close(ltt_tracefile *tf)
{
	ltt_ctf_tracefile_close(tf);
	if (tf->fd >= 0)
		close(tf->fd);
	tf->fd = -1;
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
	c->out = &c->ev;
	ltt_cursor_seek_block(c, 0);
}

/* The cursor's buffer of subbuf_size bytes: one a cursor gave back, or
 * a new one. */
static uint8_t *take_buf(ltt_cursor *c)
{
	ltt_trace *t = c->tf->trace;
	uint32_t size = c->tf->subbuf_size;
	uint8_t *buf = NULL;

	c->buf_ready = 0;
	g_mutex_lock(&t->buf_lock);
	for (unsigned i = 0; i < LTT_SPARE_BUFS && !buf; i++)
		if (t->spare_bufs[i].buf && t->spare_bufs[i].size == size) {
			buf = t->spare_bufs[i].buf;
			c->buf_ready = t->spare_bufs[i].ready;
			t->spare_bufs[i].buf = NULL;
		}
	g_mutex_unlock(&t->buf_lock);
	return buf ? buf : g_try_malloc(size);
}

/* Gives a cursor's buffer back to its trace (freed when it keeps enough). */
static void give_buf(ltt_cursor *c)
{
	ltt_trace *t = c->tf->trace;
	uint8_t *buf = c->buf;

	g_mutex_lock(&t->buf_lock);
	for (unsigned i = 0; i < LTT_SPARE_BUFS && buf; i++)
		if (!t->spare_bufs[i].buf) {
			t->spare_bufs[i].buf = buf;
			t->spare_bufs[i].size = c->tf->subbuf_size;
			t->spare_bufs[i].ready = c->buf_ready;
			buf = NULL;
		}
	g_mutex_unlock(&t->buf_lock);
	g_free(buf);
}

/* Before n bytes are read into the buffer at from: the pages of it never
 * touched yet, brought in by one call rather than by a fault per page
 * inside the read (prefault.h). */
static void ready_buf(ltt_cursor *c, size_t from, size_t n)
{
	size_t end = from + n;

	if (end <= c->buf_ready)
		return;
	ltt_prefault(c->buf + c->buf_ready, end - c->buf_ready);
	c->buf_ready = (uint32_t)end;
}

void ltt_cursor_fini(ltt_cursor *c)
{
	if (c->tf->ctf) {
		ltt_ctf_cursor_fini(c);
		return;
	}
	if (c->buf)
		give_buf(c);
	c->buf = NULL;
	c->base = NULL;
}

/* Positions at the start of a block; it is read at the next event. */
void ltt_cursor_seek_block(ltt_cursor *c, unsigned block)
{
	const ltt_tracefile *tf = c->tf;

	if (tf->ctf) {
		ltt_ctf_cursor_seek_block(c, block);
		return;
	}
	c->block = block;
	c->offset = HEADER_SIZE;
	c->at_end = block >= tf->num_blocks;
	c->data_end = 0;
	c->loaded = false;
	c->full = false;
	if (!c->at_end) {
		c->last_cycles = tf->blocks[block].begin_cycles;
		c->end_cycles = tf->blocks[block].end_cycles;
		c->base_offset = (uint64_t)block * tf->subbuf_size;
	}
}

/* ---- the unusual cases of ltt_cursor_next() (cursor.h) ---- */

/* What a peeking cursor reads of a block: the first event, unless it is
 * a big one (then the rest is read too). */
#define PEEK_BYTES 4096
/*
 * A block is read a piece at a time, each piece as its events are
 * reached: a piece is read and decoded while it is in the processor's
 * cache, where a whole sub-buffer (a megabyte) read at once would have
 * left it before its events were.
 */
#define PIECE_BYTES 262144

/* Reads the next block that has events: 1, 0 at the end, -1 on error. */
int ltt_cursor_next_block(ltt_cursor *c, ltt_error **err)
{
	const ltt_tracefile *tf = c->tf;

	while (c->offset >= c->data_end) {
		uint32_t end, n;

		if (c->at_end)
			return 0;
		end = tf->blocks[c->block].data_end;
		if (c->full || end <= HEADER_SIZE) {
			ltt_cursor_seek_block(c, c->block + 1);
			continue;
		}
		if (c->loaded) {	/* its next piece (0 would be all the rest) */
			if (ltt_cursor_read_more(c, (size_t)c->data_end + PIECE_BYTES, err) < 0)
				return -1;
			continue;
		}
		if (!c->buf)
			c->buf = take_buf(c);
		if (!c->buf) {
			ltt_set_error(err, LTT_ERROR_NOMEM, "%s: no memory for a sub-buffer of %u bytes",
				      tf->relpath, tf->subbuf_size);
			return -1;
		}
		n = c->peek ? PEEK_BYTES : PIECE_BYTES;
		if (n > end)
			n = end;
		ready_buf(c, 0, n);
		if (read_at(tf, c->buf, n, c->base_offset, err) < 0)
			return -1;
		c->base = c->buf;
		c->loaded = true;
		c->full = n == end;
		c->data_end = n;
	}
	return 1;
}

/* More of the block: up to `upto` (its end if 0), and at least a piece
 * (what is there of it). What was read stays where it is: events read
 * before keep pointing into the buffer. 1, or -1 on error. */
int ltt_cursor_read_more(ltt_cursor *c, size_t upto, ltt_error **err)
{
	const ltt_tracefile *tf = c->tf;
	uint32_t end = tf->blocks[c->block].data_end;
	uint64_t want = upto ? upto : end;

	if (want < (uint64_t)c->data_end + PIECE_BYTES)
		want = (uint64_t)c->data_end + PIECE_BYTES;
	if (want > end)
		want = end;
	ready_buf(c, c->data_end, want - c->data_end);
	if (read_at(tf, c->buf + c->data_end, want - c->data_end,
		    c->base_offset + c->data_end, err) < 0)
		return -1;
	c->data_end = (uint32_t)want;
	c->full = want == end;
	return 1;
}

int ltt_cursor_bad_header(ltt_cursor *c, size_t off, ltt_error **err)
{
	if (!c->full)	/* only the start of the block was read */
		return ltt_cursor_read_more(c, off + c->tf->trace->event_header_size, err) < 0
		       ? -1 : ltt_cursor_next(c, err);
	ltt_set_error(err, LTT_ERROR_CORRUPT, "%s: sub-buffer %u: event header at offset 0x%zx "
		      "runs past the end of the data (0x%zx)", c->tf->relpath,
		      c->block, (size_t)c->base_offset + off,
		      (size_t)c->base_offset + c->data_end);
	return -1;
}

/* A warning about this tracefile: to the trace, or kept by its reader. */
__attribute__((format(printf, 2, 3)))
static void tf_warn(ltt_tracefile *tf, const char *fmt, ...)
{
	va_list ap;
	char *msg;

	va_start(ap, fmt);
	msg = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	if (tf->held_warnings)
		g_ptr_array_add(tf->held_warnings, msg);
	else
		ltt_trace_add_warning(tf->trace, msg);
}

/* Says a problem of this tracefile once: the first event that has it. */
static bool first_time(ltt_tracefile *tf, unsigned what)
{
	if (tf->seen & what)
		return false;
	tf->seen |= what;
	return true;
}

/* An event whose time is outside its block's span, or before the event
 * before it: reported, and read as it is. */
static void check_time(ltt_cursor *c, uint64_t ts)
{
	ltt_tracefile *tf = c->tf;
	const ltt_trace *t = tf->trace;
	const ltt_block *b = &tf->blocks[c->block];
	int64_t at = ltt_cycles_to_ns_inline(t, ts);

	if (ts < b->begin_cycles || ts > b->end_cycles) {
		bool before = ts < b->begin_cycles;
		int64_t edge = ltt_cycles_to_ns_inline(t, before ? b->begin_cycles
								: b->end_cycles);
		uint64_t d = before ? (uint64_t)(edge - at) : (uint64_t)(at - edge);

		if (first_time(tf, LTT_SEEN_OUTSIDE_BLOCK))
			tf_warn(tf, "%s: sub-buffer %u: the event at "
				"offset 0x%" PRIx64 " is %" PRIu64 ".%09" PRIu64
				" s %s the sub-buffer's time span: its time "
				"is wrong (a broken clock or a corrupt "
				"event; the first such event of this file)",
				tf->relpath, c->block, c->out->file_offset,
				d / 1000000000, d % 1000000000,
				before ? "before" : "after");
	} else if (ts < c->last_cycles) {
		uint64_t d = (uint64_t)(ltt_cycles_to_ns_inline(t, c->last_cycles) - at);

		if (first_time(tf, LTT_SEEN_BACKWARDS))
			tf_warn(tf, "%s: sub-buffer %u: the event at "
				"offset 0x%" PRIx64 " is %" PRIu64 ".%09" PRIu64
				" s before the event before it: time goes "
				"backwards (the first such event of this "
				"file)", tf->relpath, c->block,
				c->out->file_offset, d / 1000000000,
				d % 1000000000);
	}
}

/* An event that cannot be decoded: said once per file and kind. */
static void check_unknown(ltt_tracefile *tf, const ltt_event *ev)
{
	if (!ev->fac) {
		if (first_time(tf, LTT_SEEN_NEVER_LOADED))
			tf_warn(tf, "%s: the event at offset 0x%" PRIx64
				" is of facility id %u, which was never "
				"loaded: such events are shown raw (the first "
				"of this file)", tf->relpath, ev->file_offset,
				ev->fac_id);
	} else if (ev->fac->desc) {	/* no description: said at the open */
		if (first_time(tf, LTT_SEEN_UNKNOWN_EVENT))
			tf_warn(tf, "%s: the event at offset 0x%" PRIx64
				" is event %u of facility %s, whose description "
				"has %u events: such events are shown raw (the "
				"first of this file)", tf->relpath,
				ev->file_offset, ev->ev_id, ev->fac->name,
				ev->fac->num_event_types);
	}
}

/* A known event whose size its header gives: does the description agree? */
static void check_size(ltt_tracefile *tf, const ltt_event *ev, unsigned size)
{
	int64_t need = ltt_event_type_payload_size(ev->type, ev->payload, size);

	if (need < 0) {
		if (first_time(tf, LTT_SEEN_TOO_SMALL))
			tf_warn(tf, "%s: the event %s.%s at offset 0x%"
				PRIx64 " has %u bytes of payload, which do "
				"not hold the fields of its description: it "
				"is malformed (the first such event of this "
				"file)", tf->relpath, ev->fac->display_name,
				ev->type->desc->name, ev->file_offset, size);
	} else if ((uint64_t)need < size) {
		if (first_time(tf, LTT_SEEN_TOO_BIG))
			tf_warn(tf, "%s: the event %s.%s at offset 0x%"
				PRIx64 " says %u bytes of payload, but its "
				"description needs %" PRId64 ": %" PRId64 " bytes "
				"after its fields were skipped unread (the "
				"first such event of this file)", tf->relpath,
				ev->fac->display_name, ev->type->desc->name,
				ev->file_offset, size, need, (int64_t)size - need);
	}
}

int ltt_cursor_finish_unusual(ltt_cursor *c, size_t off, unsigned size,
			      uint64_t ts, ltt_error **err)
{
	ltt_tracefile *tf = c->tf;
	ltt_event *ev = c->out;
	size_t end = c->data_end;

	/* only the start of the block was read: what the event needs (all
	 * of the block when its size must be computed), and again */
	if (!c->full && (size == LTT_EVENT_SIZE_UNKNOWN || off > end || size > end - off))
		return ltt_cursor_read_more(c, size == LTT_EVENT_SIZE_UNKNOWN ? 0 : off + size,
					    err) < 0 ? -1 : ltt_cursor_next(c, err);
	if (size == LTT_EVENT_SIZE_UNKNOWN) {
		int64_t computed = ev->type && off <= end
			? ltt_event_type_payload_size(ev->type, ev->payload, end - off)
			: -1;

		if (computed < 0) {
			ltt_set_error(err, LTT_ERROR_DESCRIPTION, "%s: event at offset 0x%" PRIx64 " has size "
				      "0xFFFF and its size cannot be computed from a "
				      "description", tf->relpath, ev->file_offset);
			return -1;
		}
		size = (unsigned)computed;
	} else if (ev->type && size != ev->type->expect_size &&
		   off <= end && size <= end - off && !c->quiet) {
		check_size(tf, ev, size);
	}
	if (off > end || size > end - off) {
		ltt_set_error(err, LTT_ERROR_CORRUPT, "%s: sub-buffer %u: event at offset 0x%" PRIx64
			      " (%u bytes of payload) runs past the end of the "
			      "sub-buffer data", tf->relpath, c->block,
			      ev->file_offset, size);
		return -1;
	}
	if (!ev->type && !c->facility_scan && !c->quiet)
		check_unknown(tf, ev);
	if ((ts < c->last_cycles || ts > c->end_cycles) && !c->quiet)
		check_time(c, ts);
	ev->size = size;
	c->offset = (uint32_t)(off + size);
	c->last_cycles = ts;
	return 1;
}

/* ---- facts of the whole file, read once when the trace is opened ---- */

/* The first event of block b, if the block has one: 1, else 0. The
 * cursor peeks: it reads the start of the block, not all of it. */
static int first_event_of(ltt_cursor *c, unsigned b)
{
	ltt_cursor_seek_block(c, b);
	c->peek = true;
	return ltt_cursor_next(c, NULL) > 0 && c->block == b;
}

/* A channel.buffer_stats event: its counters, if larger, are the file's. */
static void take_losses(ltt_tracefile *tf, const ltt_event *ev)
{
	uint32_t lost, bad;

	/* lttd reads it with the same code (ltt-decode.h) */
	if (!ev->type || !ev->type->is_buffer_stats ||
	    ltt_buffer_stats_read(ev->payload, ev->size, &lost, &bad) < 0)
		return;
	if (lost > tf->events_lost)
		tf->events_lost = lost;
	if (bad > tf->corrupted)
		tf->corrupted = bad;
}

/*
 * The facts of the whole file, read once when the trace is opened, in one
 * pass over it:
 *
 * - the loss counters: the kernel writes channel.buffer_stats (cumulative)
 *   as the first event of a sub-buffer whenever a counter changed, and at
 *   the stop, after the last events of the last sub-buffer (the losses of
 *   a buffer still full then). So the largest pair over the first events
 *   of all blocks and the events of the last non-empty one is the file's
 *   total, however far anyone reads;
 * - the times of the first and last events (the block headers' times
 *   bracket them: a sub-buffer is closed after its last event, by a timer,
 *   sometimes long after): the first non-empty block's first event, and
 *   the latest event of the last non-empty block.
 *
 * One event header per block, and the last non-empty block read whole,
 * once for both. 0, or -1 (*first and *last untouched) if the file has no
 * readable event.
 */
int ltt_tracefile_read_facts(ltt_tracefile *tf, int64_t *first, int64_t *last)
{
	ltt_cursor c;
	unsigned last_block = tf->num_blocks;

	if (tf->ctf)
		return ltt_ctf_read_facts(tf, first, last);
	ltt_cursor_init(&c, tf);
	for (unsigned b = 0; b < tf->num_blocks; b++) {
		if (!first_event_of(&c, b))
			continue;
		if (last_block == tf->num_blocks)
			*first = c.ev.time_ns;
		last_block = b;
		take_losses(tf, &c.ev);
	}
	if (last_block < tf->num_blocks && first_event_of(&c, last_block)) {
		c.peek = false;		/* the whole block, this one */
		*last = c.ev.time_ns;
		while (ltt_cursor_next(&c, NULL) > 0 && c.block == last_block) {
			take_losses(tf, &c.ev);
			if (c.ev.time_ns > *last)
				*last = c.ev.time_ns;
		}
	}
	ltt_cursor_fini(&c);
	return last_block < tf->num_blocks ? 0 : -1;
}
