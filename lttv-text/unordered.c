/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * unordered.c - the passes that print no event (-q, with or without the
 * statistics): they need no time order across tracefiles, so each
 * tracefile is read on its own (ltt_reader), in as many threads as there
 * are cores (--threads), and the counts are added up at the end.
 *
 * What comes out is what the merged pass gives: the same counts, the
 * first and last time of each CPU (the earliest and the latest of its
 * events), the same warnings, said in tracefile order, and the first
 * error in tracefile order. Where a trace's time goes backwards inside a
 * tracefile (a warning says so), the merged pass's "last" event of a CPU
 * is whichever its merge met last; here it is the latest.
 */
#include <inttypes.h>
#include <string.h>
#include <unistd.h>

#include "stats.h"

/* One tracefile's pass. */
typedef struct job {
	ltt_tracefile *tf;
	uint64_t bytes;		/* to start with the biggest */
	ltt_reader *reader;
	lttv_cpu_stat cpu;	/* its events, first and last time */
	uint64_t undecodable;
	ltt_error *err;		/* what ended it, or NULL */
} job;

typedef struct pass {
	const lttv_options *o;
	GPatternSpec *const *specs;
	int64_t origin;
	job *jobs;		/* in tracefile order */
	unsigned *start;	/* job indexes, the biggest first */
	unsigned num_jobs;
	gint next;		/* in start[], the next job to take (atomic) */
	/* the counts per type, one set per thread (sums: they add up in
	 * any order); NULL: no statistics asked. A set per job cost more
	 * to make (its cache, its tables, their first-touched pages) than
	 * a small tracefile's events. */
	lttv_stats **thread_st;
	gint next_thread;	/* in thread_st[] (atomic) */
} pass;

static void run_job(const pass *ps, job *j, lttv_stats *st)
{
	const lttv_options *o = ps->o;
	const int filtered = o->has_begin || o->has_end || ps->specs[0];
	lttv_cpu_stat *cs = &j->cpu;
	const ltt_event *const *evs;
	int n;

	j->reader = ltt_reader_new(j->tf);
	while ((n = ltt_reader_next_batch(j->reader, &evs, &j->err)) > 0) {
		for (int i = 0; i < n; i++) {
			const ltt_event *ev = evs[i];
			int64_t t = ltt_event_time_ns(ev);

			if (filtered) {
				int64_t shown = o->relative ? t - ps->origin : t;

				if ((o->has_end && shown > o->end_ns) ||
				    !lttv_wanted(o, ps->specs, ev, shown))
					continue;
			}
			if (!ltt_event_is_known(ev))
				j->undecodable++;
			if (!st)
				continue;
			lttv_stats_add_on(st, cs, ev, t);
		}
	}
}

static gpointer worker(gpointer data)
{
	pass *ps = data;
	lttv_stats *st = NULL;
	gint k;

	if (ps->thread_st)
		st = ps->thread_st[g_atomic_int_add(&ps->next_thread, 1)] = lttv_stats_new();
	while ((k = g_atomic_int_add(&ps->next, 1)) < (gint)ps->num_jobs)
		run_job(ps, &ps->jobs[ps->start[k]], st);
	return NULL;
}

static const job *sort_jobs;

static int bigger_first(const void *a, const void *b)
{
	uint64_t x = sort_jobs[*(const unsigned *)a].bytes;
	uint64_t y = sort_jobs[*(const unsigned *)b].bytes;

	return x < y ? 1 : x > y ? -1 : 0;
}

int lttv_count_unordered(const lttv_options *o, ltt_trace *const *traces,
			 GPatternSpec *const *specs, int64_t origin,
			 lttv_stats *st, uint64_t *undecodable, ltt_error **err)
{
	pass ps = { .o = o, .specs = specs, .origin = origin };
	unsigned n = 0, threads = o->threads;
	int status = 0;

	for (unsigned i = 0; i < o->num_traces; i++)
		n += ltt_trace_num_tracefiles(traces[i]);
	ps.jobs = g_new0(job, n ? n : 1);
	ps.start = g_new(unsigned, n ? n : 1);
	for (unsigned i = 0; i < o->num_traces; i++)
		for (unsigned f = 0; f < ltt_trace_num_tracefiles(traces[i]); f++) {
			job *j = &ps.jobs[ps.num_jobs];

			j->tf = ltt_trace_tracefile(traces[i], f);
			j->bytes = (uint64_t)ltt_tracefile_num_blocks(j->tf) *
				   ltt_tracefile_subbuf_size(j->tf);
			ps.start[ps.num_jobs] = ps.num_jobs;
			ps.num_jobs++;
		}
	/* the biggest first, so that the threads end together */
	sort_jobs = ps.jobs;
	qsort(ps.start, ps.num_jobs, sizeof(*ps.start), bigger_first);
	if (threads == 0)
		threads = (unsigned)sysconf(_SC_NPROCESSORS_ONLN);
	if (threads > ps.num_jobs)
		threads = ps.num_jobs;
	if (threads < 1)
		threads = 1;
	if (st)
		ps.thread_st = g_new0(lttv_stats *, threads);
	if (threads <= 1) {
		worker(&ps);
	} else {
		GThread **th = g_new(GThread *, threads - 1);

		for (unsigned t = 0; t < threads - 1; t++)
			th[t] = g_thread_new("lttv-text", worker, &ps);
		worker(&ps);
		for (unsigned t = 0; t < threads - 1; t++)
			g_thread_join(th[t]);
		g_free(th);
	}
	/* the results, in tracefile order */
	for (unsigned k = 0; k < ps.num_jobs; k++) {
		job *j = &ps.jobs[k];

		ltt_reader_free(j->reader);	/* adds its warnings */
		*undecodable += j->undecodable;
		if (st && j->cpu.events)
			lttv_stats_merge_cpu(st, ltt_tracefile_cpu(j->tf), &j->cpu);
		if (j->err && !status) {
			*err = j->err;
			j->err = NULL;
			status = 1;
		}
		ltt_error_free(j->err);
	}
	for (unsigned t = 0; st && t < threads; t++) {
		lttv_stats_merge(st, ps.thread_st[t]);
		lttv_stats_free(ps.thread_st[t]);
	}
	g_free(ps.thread_st);
	g_free(ps.start);
	g_free(ps.jobs);
	return status;
}
