/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * stats.c - counts gathered during the dump: per CPU (events, first and
 * last time) and per event type, printed after the events.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

/* The key of the hash table behind the cache (stats.h). */
typedef struct type_key {
	const char *facility, *event;
} type_key;

static guint key_hash(gconstpointer p)
{
	const type_key *k = p;

	return g_direct_hash(k->facility) * 31 + g_direct_hash(k->event);
}

static gboolean key_equal(gconstpointer a, gconstpointer b)
{
	const type_key *x = a, *y = b;

	return x->facility == y->facility && x->event == y->event;
}

lttv_stats *lttv_stats_new(void)
{
	lttv_stats *st = g_new0(lttv_stats, 1);

	st->by_ptr = g_hash_table_new_full(key_hash, key_equal, g_free, g_free);
	st->types = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
	return st;
}

void lttv_stats_grow_cpus(lttv_stats *st, unsigned cpu)
{
	st->cpus = g_renew(lttv_cpu_stat, st->cpus, cpu + 1);
	memset(st->cpus + st->num_cpus, 0,
	       (cpu + 1 - st->num_cpus) * sizeof(*st->cpus));
	st->num_cpus = cpu + 1;
}

uint64_t *lttv_stats_lookup(lttv_stats *st, unsigned slot,
			    const char *facility, const char *event)
{
	type_key key = { facility, event };
	uint64_t *n = g_hash_table_lookup(st->by_ptr, &key);

	if (!n) {
		n = g_new0(uint64_t, 1);
		g_hash_table_insert(st->by_ptr, g_memdup2(&key, sizeof(key)), n);
	}
	st->cache[slot].facility = facility;
	st->cache[slot].event = event;
	st->cache[slot].count = n;
	return n;
}

static int cmp_count(const void *a, const void *b, void *types)
{
	const char *x = *(char *const *)a, *y = *(char *const *)b;
	uint64_t cx = *(uint64_t *)g_hash_table_lookup(types, x);
	uint64_t cy = *(uint64_t *)g_hash_table_lookup(types, y);

	if (cx != cy)
		return cx > cy ? -1 : 1;
	return strcmp(x, y);
}

static void print_ns(FILE *out, int64_t ns)
{
	uint64_t a = ns < 0 ? (uint64_t)-ns : (uint64_t)ns;

	fprintf(out, "%s%" PRIu64 ".%09" PRIu64, ns < 0 ? "-" : "",
		a / 1000000000, a % 1000000000);
}

void lttv_stats_print(lttv_stats *st, ltt_trace *const *traces, unsigned n,
		      int cpu_stats, int summary, int64_t origin_ns, FILE *out)
{
	if (cpu_stats) {
		fprintf(out, "\n== per-CPU statistics ==\n");
		for (unsigned cpu = 0; cpu < st->num_cpus; cpu++) {
			const lttv_cpu_stat *c = &st->cpus[cpu];
			uint64_t lost = 0;

			for (unsigned t = 0; t < n; t++)
				for (unsigned i = 0; i < ltt_trace_num_tracefiles(traces[t]); i++) {
					ltt_tracefile *tf = ltt_trace_tracefile(traces[t], i);

					if (ltt_tracefile_cpu(tf) == cpu)
						lost += ltt_tracefile_events_lost(tf);
				}
			fprintf(out, "cpu %u: %" PRIu64 " events", cpu, c->events);
			if (c->events) {
				fprintf(out, ", from ");
				print_ns(out, c->first_ns - origin_ns);
				fprintf(out, " to ");
				print_ns(out, c->last_ns - origin_ns);
			}
			fprintf(out, ", %" PRIu64 " lost\n", lost);
		}
		fprintf(out, "total: %" PRIu64 " events\n", st->total);
	}
	if (summary) {
		GHashTableIter hi;
		gpointer k, v;
		guint len;

		g_hash_table_iter_init(&hi, st->by_ptr);
		while (g_hash_table_iter_next(&hi, &k, &v)) {
			const type_key *key = k;
			char *name = g_strdup_printf("%s.%s", ltt_text_safe(key->facility),
						     ltt_text_safe(key->event));
			uint64_t *count = g_hash_table_lookup(st->types, name);

			if (!count) {
				count = g_new0(uint64_t, 1);
				g_hash_table_insert(st->types, name, count);
			} else {
				g_free(name);
			}
			*count += *(uint64_t *)v;
		}
		char **keys = (char **)g_hash_table_get_keys_as_array(st->types, &len);

		g_qsort_with_data(keys, (gint)len, sizeof(char *), cmp_count, st->types);
		fprintf(out, "\n== events per type ==\n");
		for (guint i = 0; i < len; i++)
			fprintf(out, "%10" PRIu64 "  %s\n",
				*(uint64_t *)g_hash_table_lookup(st->types, keys[i]), keys[i]);
		g_free(keys);
	}
}

void lttv_stats_merge_cpu(lttv_stats *dst, unsigned cpu, const lttv_cpu_stat *s)
{
	lttv_cpu_stat *d = lttv_stats_cpu(dst, cpu);

	if (!d->events || s->first_ns < d->first_ns)
		d->first_ns = s->first_ns;
	if (!d->events || s->last_ns > d->last_ns)
		d->last_ns = s->last_ns;
	d->events += s->events;
}

void lttv_stats_merge(lttv_stats *dst, const lttv_stats *src)
{
	GHashTableIter hi;
	gpointer k, v;

	if (src->num_cpus > dst->num_cpus)
		lttv_stats_grow_cpus(dst, src->num_cpus - 1);
	for (unsigned cpu = 0; cpu < src->num_cpus; cpu++)
		if (src->cpus[cpu].events)
			lttv_stats_merge_cpu(dst, cpu, &src->cpus[cpu]);
	g_hash_table_iter_init(&hi, src->by_ptr);
	while (g_hash_table_iter_next(&hi, &k, &v)) {
		const type_key *key = k;

		*lttv_stats_lookup(dst, 0, key->facility, key->event) += *(uint64_t *)v;
	}
	dst->total += src->total;
}

void lttv_stats_free(lttv_stats *st)
{
	g_free(st->cpus);
	g_hash_table_destroy(st->by_ptr);
	g_hash_table_destroy(st->types);
	g_free(st);
}
