/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * cursor.h - the read of the next event of one tracefile, inline: it runs
 * for every event that any tool reads, so it lives where its callers
 * (the iterator, the facility scan, the event count) can inline it.
 *
 * The fast path holds only the common case: an event inside the current
 * block, in time order, of a known type of fixed size which its header
 * repeats, or of variable size which its header gives and its fields fill
 * exactly (the walk of ltt_event_type_payload_size(), flat, with strings
 * scanned inline: scan.h). What can be known in advance lives in the
 * cursor (the block's data end, base pointer, file offset and end time)
 * and in the trace (header size, alignment masks). Block changes, errors,
 * sizes computed from a description or disagreeing with it, events that
 * cannot be decoded and the channel's buffer statistics go to tracefile.c.
 */
#ifndef LTTTRACE_CURSOR_H
#define LTTTRACE_CURSOR_H

#include <string.h>

#include <ltt/ltt-decode.h>

#include "ctf.h"

/* 1: *c->out (c->ev unless a reader said otherwise) holds the next
 * event; 0: end; -1: corrupt (err set). */
static inline __attribute__((always_inline))
int ltt_cursor_next(ltt_cursor *c, ltt_error **err)
{
	const ltt_trace *trace = c->tf->trace;
	const size_t hsize = trace->event_header_size;
	ltt_event *ev = c->out;
	const ltt_facility *fac;
	struct ltt_event_header_fields h;
	unsigned fac_id, ev_id, size;
	size_t off;
	uint64_t ts;

	if (__builtin_expect(c->tf->ctf != NULL, 0))	/* an LTTng trace */
		return ltt_ctf_cursor_next(c, err);
	if (__builtin_expect(c->offset >= c->data_end, 0)) {
		int r = ltt_cursor_next_block(c, err);

		if (r <= 0)
			return r;
	}
	off = c->offset + ((-(size_t)c->offset) & trace->header_align_mask);
	if (__builtin_expect(off + hsize > c->data_end, 0))
		return ltt_cursor_bad_header(c, off, err);
	ltt_event_header_read(c->base + off, hsize, &h);
	fac_id = h.facility_id;
	ev_id = h.event_id;
	size = h.event_size;
	ts = h.timestamp;
	if (hsize == sizeof(struct ltt_event_header_hb)) {
		/* rebuild 64 bits: carry when the low 32 bits went backwards */
		ts |= c->last_cycles & ~(uint64_t)0xFFFFFFFF;
		if ((uint32_t)h.timestamp < (uint32_t)c->last_cycles)
			ts += (uint64_t)1 << 32;
	}
	ev->file_offset = c->base_offset + off;
	off += hsize;
	off += (-off) & trace->payload_align_mask;
	ev->cycles = ts;
	ev->time_ns = ltt_cycles_to_ns_inline(trace, ts);
	ev->fac_id = fac_id;
	ev->ev_id = ev_id;
	ev->fac = fac = ltt_trace_facility_at(trace, fac_id, ev->time_ns);
	ev->type = fac ? fac->by_id[ev_id] : NULL;
	ev->payload = c->base + off;
	/* the common case: a known event of the size its description says,
	 * inside the block, in time order within the block's time span */
	if (__builtin_expect(!ev->type || size != ev->type->expect_size ||
			     off > c->data_end || size > c->data_end - off ||
			     ts < c->last_cycles || ts > c->end_cycles, 0)) {
		/* next to it: a known event of variable size (strings,
		 * sequences) inside the block and in time order, whose size
		 * its header gives and its fields fill exactly */
		if (!ev->type || ev->type->expect_size != UINT32_MAX ||
		    size == LTT_EVENT_SIZE_UNKNOWN ||
		    off > c->data_end || size > c->data_end - off ||
		    ts < c->last_cycles || ts > c->end_cycles ||
		    ltt_event_type_payload_size(ev->type, ev->payload, size) != (int64_t)size)
			return ltt_cursor_finish_unusual(c, off, size, ts, err);
	}
	ev->size = size;
	c->offset = (uint32_t)(off + size);
	c->last_cycles = ts;
	return 1;
}

#endif
