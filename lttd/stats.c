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
 * Layout: docs/format.md.
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

	for (;;) {
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
		if (ev == 0 && size == 8)
			candidate(hit, fac, rd32(sb + o), rd32(sb + o + 4));
		if (ch->facilities && fac == LTT_CORE_FACILITY_ID &&
		    (ev == LTT_EVENT_CORE_FACILITY_LOAD ||
		     ev == LTT_EVENT_CORE_STATE_DUMP_FACILITY_LOAD))
			facility_load(sb + o, size, a);
		o += size;
	}
}
