/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * stats.h - the per-event part of the statistics (-c, -S), inline in the
 * dump loop: it runs for every event of a decode-only pass, where a call
 * and its register saves were a fifth of the time. Printing and the
 * rare paths are in stats.c.
 */
#ifndef LTTV_TEXT_STATS_H
#define LTTV_TEXT_STATS_H

#include "lttv-text.h"

typedef struct lttv_cpu_stat {
	uint64_t events;
	int64_t first_ns, last_ns;
} lttv_cpu_stat;

/* Counted by the (facility name, event name) pointers the library hands
 * out, which stay the same for a trace's lifetime: no string is built or
 * hashed per event. A direct-mapped cache sits in front of the hash
 * table; names are joined only when printing. */
#define LTTV_STATS_CACHE 1024

struct lttv_stats {
	struct {
		const char *facility, *event;
		uint64_t *count;
	} cache[LTTV_STATS_CACHE];
	lttv_cpu_stat *cpus;	/* num_cpus of them, indexed by CPU */
	unsigned num_cpus;
	GHashTable *by_ptr;	/* type key -> count (uint64_t*) */
	GHashTable *types;	/* "facility.event" -> count, when printing */
	uint64_t total;
};

/* The slow paths: a CPU beyond the array, a miss in the cache. */
void lttv_stats_grow_cpus(lttv_stats *st, unsigned cpu);
uint64_t *lttv_stats_lookup(lttv_stats *st, unsigned slot,
			    const char *facility, const char *event);

/* Adds one CPU's statistics (s->events > 0) to dst's. */
void lttv_stats_merge_cpu(lttv_stats *dst, unsigned cpu, const lttv_cpu_stat *s);

/* The statistics of a CPU (made when first asked for). */
static inline lttv_cpu_stat *lttv_stats_cpu(lttv_stats *st, unsigned cpu)
{
	if (__builtin_expect(cpu >= st->num_cpus, 0))
		lttv_stats_grow_cpus(st, cpu);
	return &st->cpus[cpu];
}

/* Counts ev, of time t (ltt_event_time_ns(), which the caller has), on
 * the CPU whose statistics are c. */
static inline void lttv_stats_add_on(lttv_stats *st, lttv_cpu_stat *c,
				     const ltt_event *ev, int64_t t)
{
	const char *facility = ltt_event_facility_name(ev);
	const char *event = ltt_event_name(ev);
	unsigned slot = (unsigned)(((uintptr_t)facility >> 4) ^ ((uintptr_t)event >> 3))
			% LTTV_STATS_CACHE;
	uint64_t *n;

	if (c->events++ == 0)
		c->first_ns = t;
	c->last_ns = t;
	if (__builtin_expect(st->cache[slot].facility == facility &&
			     st->cache[slot].event == event, 1))
		n = st->cache[slot].count;
	else
		n = lttv_stats_lookup(st, slot, facility, event);
	(*n)++;
	st->total++;
}

/* t: the event's time (ltt_event_time_ns), which the caller has. */
static inline void lttv_stats_add(lttv_stats *st, const ltt_event *ev, int64_t t)
{
	lttv_stats_add_on(st, lttv_stats_cpu(st, ltt_event_cpu(ev)), ev, t);
}

#endif
