// SPDX-License-Identifier: GPL-2.0
/*
 * stats.c - the kernel's loss counters, read from the sub-buffers lttd writes.
 *
 * The kernel writes channel.buffer_stats (two uint_fixed 4: events_lost,
 * corrupted_subbuffers; cumulative) as the first event of a sub-buffer when
 * a counter changed, and at the stop anywhere in the last sub-buffer (the
 * losses of a buffer still full then).  The facility id of "channel" is only
 * known from the facility_load events of the facilities channels, which
 * another worker may copy later, so for every channel we keep, per facility
 * id, the largest pair seen in an event of id 0 and payload size 8, and pick
 * the "channel" row at exit: the rows of other facilities' look-alikes are
 * never read.  Cost: a walk of the event headers (each says its size).
 * The decoding rules (event header, alignment, the payloads of
 * facility_load and buffer_stats) are include/ltt/ltt-decode.h, shared with
 * libltttrace; layout: docs/format.md.
 */
#include <stdlib.h>
#include <string.h>

#include <ltt/ltt-abi.h>
#include <ltt/ltt-decode.h>

#include "lttd.h"

static int channel_fac_id = -1;		/* written and read atomically */

void lttd_stats_reset(void)
{
	__atomic_store_n(&channel_fac_id, -1, __ATOMIC_RELAXED);
}

int lttd_stats_channel_facility(void)
{
	return __atomic_load_n(&channel_fac_id, __ATOMIC_RELAXED);
}

static uint32_t rd32(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

/* core.facility_load / state_dump_facility_load: the id of "channel" */
static void facility_load(const unsigned char *p, size_t size, unsigned a,
			  unsigned arch)
{
	struct ltt_facility_load_fields f;

	if (ltt_facility_load_read(p, size, a, arch, &f) == 0 &&
	    strcmp(f.name, "channel") == 0 && f.id < LTTD_MAX_FACILITIES)
		__atomic_store_n(&channel_fac_id, (int)f.id, __ATOMIC_RELAXED);
}

void lttd_stats_commit(struct lttd_channel *ch,
		       const struct lttd_stats_hit *hit)
{
	if (!hit->found)
		return;
	if (!ch->bstats)
		ch->bstats = calloc(LTTD_MAX_FACILITIES, sizeof(*ch->bstats));
	if (!ch->bstats)
		return;		/* the report will say "no loss": rare enough */

	for (int i = 0; i < hit->found; i++) {
		if (hit->c[i].fac >= LTTD_MAX_FACILITIES)
			continue;

		struct lttd_bufstats *b = &ch->bstats[hit->c[i].fac];

		/* cumulative counters: the largest is the latest */
		if (hit->c[i].events_lost > b->events_lost)
			b->events_lost = hit->c[i].events_lost;
		if (hit->c[i].corrupted > b->corrupted)
			b->corrupted = hit->c[i].corrupted;
		b->seen = 1;
	}
}

/* One more candidate (largest per facility id); the channel's is kept first. */
static void candidate(struct lttd_stats_hit *hit, unsigned fac, uint32_t lost,
		      uint32_t corrupted)
{
	int i;

	for (i = 0; i < hit->found; i++)
		if (hit->c[i].fac == fac)
			break;
	if (i == hit->found) {
		if (hit->found == LTTD_STATS_CANDIDATES) {
			/* full of look-alikes: make room for the real one */
			if ((int)fac != lttd_stats_channel_facility())
				return;
			i = 0;
		} else {
			hit->found++;
		}
		hit->c[i].fac = fac;
		hit->c[i].events_lost = 0;
		hit->c[i].corrupted = 0;
	}
	if (lost > hit->c[i].events_lost)
		hit->c[i].events_lost = lost;
	if (corrupted > hit->c[i].corrupted)
		hit->c[i].corrupted = corrupted;
}

void lttd_stats_scan(const struct lttd_channel *ch, const unsigned char *sb,
		     size_t len, struct lttd_stats_hit *hit)
{
	const struct ltt_block_start_header *h = (const void *)sb;

	hit->found = 0;
	if (len < LTT_BLOCK_HEADER_SIZE ||
	    rd32(sb + offsetof(struct ltt_block_start_header, trace.magic_number))
	    != LTT_TRACER_MAGIC_NUMBER)
		return;
	uint32_t buf_size = rd32(sb + offsetof(struct ltt_block_start_header,
					       buf_size));
	uint32_t lost = rd32(sb + offsetof(struct ltt_block_start_header,
					   lost_size));
	if (buf_size > len || lost > buf_size - LTT_BLOCK_HEADER_SIZE)
		return;
	size_t end = buf_size - lost;
	unsigned hb = h->trace.has_heartbeat;
	unsigned a = h->trace.has_alignment;
	size_t hsize = ltt_event_header_size(hb);
	size_t hmask = ltt_event_header_mask(hb, a);
	size_t pmask = ltt_event_payload_mask(a);
	size_t o = LTT_BLOCK_HEADER_SIZE;

	if (!ltt_valid_alignment(a))	/* the readers refuse such a trace */
		return;
	for (;;) {
		struct ltt_event_header_fields eh;
		uint32_t elost, ecorrupted;

		o += (-o) & hmask;
		if (o + hsize > end)
			return;
		ltt_event_header_read(sb + o, hsize, &eh);
		o += hsize;
		o += (-o) & pmask;
		if (eh.event_size == LTT_EVENT_SIZE_UNKNOWN ||
		    o + eh.event_size > end)
			return;
		if (eh.event_id == 0 &&
		    ltt_buffer_stats_read(sb + o, eh.event_size, &elost,
					  &ecorrupted) == 0)
			candidate(hit, eh.facility_id, elost, ecorrupted);
		if (ch->facilities && eh.facility_id == LTT_CORE_FACILITY_ID &&
		    (eh.event_id == LTT_EVENT_CORE_FACILITY_LOAD ||
		     eh.event_id == LTT_EVENT_CORE_STATE_DUMP_FACILITY_LOAD))
			facility_load(sb + o, eh.event_size, a,
				      h->trace.arch_size);
		o += eh.event_size;
	}
}
