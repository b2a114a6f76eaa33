// SPDX-License-Identifier: GPL-2.0
/*
 * stats.c - the kernel's loss counters, read from the sub-buffers lttd writes.
 *
 * The kernel writes channel.buffer_stats (two uint_fixed 4: events_lost,
 * corrupted_subbuffers; cumulative) as the first event of a sub-buffer when
 * a counter changed.  The facility id of "channel" is only known from the
 * facility_load events of the facilities channels, which another worker may
 * copy later, so for every channel we keep, per facility id, the largest pair
 * seen in a first event of id 0 and payload size 8, and pick the "channel"
 * row at exit.  Cost: a look at one event header per sub-buffer, plus a walk
 * of the (small) facilities channels.  Layout: docs/format.md.
 */
#include <stdlib.h>
#include <string.h>

#include <ltt/ltt-abi.h>

#include "lttd.h"

#define HDR_SIZE	sizeof(struct ltt_block_start_header)	/* 106 */

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

static uint16_t rd16(const unsigned char *p)
{
	uint16_t v;

	memcpy(&v, p, 2);
	return v;
}

/* Padding that brings offset o to a multiple of min(n, a); a = 0: packed. */
static size_t pad(size_t o, size_t n, size_t a)
{
	if (a == 0)
		return 0;
	if (n > a)
		n = a;
	return (n - o % n) % n;
}

/* core.facility_load / state_dump_facility_load: name, checksum, id, ... */
static void facility_load(const unsigned char *p, size_t size, size_t a)
{
	const unsigned char *nul = memchr(p, '\0', size);

	if (!nul)
		return;
	size_t o = (size_t)(nul - p) + 1;

	o += pad(o, 4, a);		/* checksum */
	o += 4;
	o += pad(o, 4, a);		/* id */
	if (o + 4 > size)
		return;
	if (strcmp((const char *)p, "channel") == 0) {
		uint32_t id = rd32(p + o);

		if (id < LTTD_MAX_FACILITIES)
			__atomic_store_n(&channel_fac_id, (int)id,
					 __ATOMIC_RELAXED);
	}
}

void lttd_stats_commit(struct lttd_channel *ch,
		       const struct lttd_stats_hit *hit)
{
	if (!hit->found || hit->fac >= LTTD_MAX_FACILITIES)
		return;
	if (!ch->bstats)
		ch->bstats = calloc(LTTD_MAX_FACILITIES, sizeof(*ch->bstats));
	if (!ch->bstats)
		return;		/* the report will say "no loss": rare enough */

	struct lttd_bufstats *b = &ch->bstats[hit->fac];

	/* cumulative counters: the largest is the latest */
	if (hit->events_lost > b->events_lost)
		b->events_lost = hit->events_lost;
	if (hit->corrupted > b->corrupted)
		b->corrupted = hit->corrupted;
	b->seen = 1;
}

void lttd_stats_scan(const struct lttd_channel *ch, const unsigned char *sb,
		     size_t len, struct lttd_stats_hit *hit)
{
	const struct ltt_block_start_header *h = (const void *)sb;

	hit->found = 0;
	if (len < HDR_SIZE || rd32(sb + offsetof(struct ltt_block_start_header,
					       trace.magic_number))
			      != LTT_TRACER_MAGIC_NUMBER)
		return;
	uint32_t buf_size = rd32(sb + offsetof(struct ltt_block_start_header,
					       buf_size));
	uint32_t lost = rd32(sb + offsetof(struct ltt_block_start_header,
					   lost_size));
	if (buf_size > len || lost > buf_size - HDR_SIZE)
		return;
	size_t end = buf_size - lost;
	size_t hb = h->trace.has_heartbeat;
	size_t a = h->trace.has_alignment;
	size_t hsize = hb ? sizeof(struct ltt_event_header_hb)
			  : sizeof(struct ltt_event_header_nohb);
	size_t o = HDR_SIZE;

	for (int first = 1;; first = 0) {
		o += pad(o, 8, a);
		if (o + hsize > end)
			return;
		const unsigned char *eh = sb + o;
		unsigned fac = eh[hsize - 4], ev = eh[hsize - 3];
		size_t size = rd16(eh + hsize - 2);

		o += hsize;
		o += pad(o, a ? a : 1, a);
		if (size == LTT_EVENT_SIZE_UNKNOWN || o + size > end)
			return;
		if (first && ev == 0 && size == 8) {
			hit->found = 1;
			hit->fac = fac;
			hit->events_lost = rd32(sb + o);
			hit->corrupted = rd32(sb + o + 4);
		}
		if (!ch->facilities)
			return;		/* only the first event matters here */
		if (fac == LTT_CORE_FACILITY_ID &&
		    (ev == LTT_EVENT_CORE_FACILITY_LOAD ||
		     ev == LTT_EVENT_CORE_STATE_DUMP_FACILITY_LOAD))
			facility_load(sb + o, size, a);
		o += size;
	}
}
