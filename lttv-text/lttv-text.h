/* SPDX-License-Identifier: GPL-2.0-or-later */
/* lttv-text.h - what the option parser hands to the dumper. */
#ifndef LTTV_TEXT_H
#define LTTV_TEXT_H

#include <glib.h>
#include <stdint.h>
#include <stdio.h>

#include "ltttrace.h"

typedef struct lttv_options {
	const char *const *traces;
	unsigned num_traces;
	const char *const *facility_dirs;	/* NULL-terminated */
	const char *const *event_globs;		/* NULL-terminated */
	int has_begin, has_end;
	int64_t begin_ns, end_ns;	/* as printed: relative with --relative */
	int field_names, relative, cycles;
	int cpu_stats, summary, quiet;
	int state, process_stats;	/* -s, --process-stats (state-print.c) */
	unsigned threads;		/* --threads: 0 = one per CPU */
	/* analyses.c */
	int syscalls, schedlat, irqs, file_io, cpu_top, histogram;
	int worst, buckets;		/* --worst N, --buckets N */
	int critical_pid;		/* --critical-path PID, -1: none */
	int has_group_by, group_by;	/* --by: an ltt_group_by */
	/* --stable: times from the trace start, pids renumbered in order of
	 * appearance, addresses hidden unless --addresses */
	int stable, addresses;
	GHashTable *pids;		/* --stable: pid -> shown pid */
	const char *output;	/* -o FILE, opened once the traces are */
	char *output_tmp;	/* what is written, renamed to FILE at the end
				 * (ltt/tool-output.h) */
	FILE *out;		/* stdout, or that file (set by lttv_dump) */
} lttv_options;

/* Statistics gathered while dumping (stats.c). */
typedef struct lttv_stats lttv_stats;
lttv_stats *lttv_stats_new(void);
/* lttv_stats_add(), per event, is inline in stats.h */
void lttv_stats_print(lttv_stats *st, ltt_trace *const *traces, unsigned n,
		      int cpu_stats, int summary, int64_t origin_ns, FILE *out);
void lttv_stats_free(lttv_stats *st);
/* Adds what src counted to dst (the passes of several tracefiles). */
void lttv_stats_merge(lttv_stats *dst, const lttv_stats *src);

/* Is the event shown: inside --begin/--end, matching -e (dump.c)? */
int lttv_wanted(const lttv_options *o, GPatternSpec *const *specs,
		const ltt_event *ev, int64_t shown_ns);
/* Does the dump need no time order (-q without the state: no -s,
 * --process-stats or analysis)? Then --threads applies (dump.c). */
int lttv_reads_unordered(const lttv_options *o);
/* -q without the state: each tracefile read on its own, in threads
 * (unordered.c). Counts into st (if any) and *undecodable; 1 and *err on
 * the first error in tracefile order, else 0. */
int lttv_count_unordered(const lttv_options *o, ltt_trace *const *traces,
			 GPatternSpec *const *specs, int64_t origin,
			 lttv_stats *st, uint64_t *undecodable, ltt_error **err);

/* The state columns of one line and the per-process table (state-print.c). */
void lttv_state_print_line(const lttv_options *o, const ltt_state *st,
			   const ltt_event *ev);
/* CPU time per process in [t0, t1]: from = the model at t0 (NULL: the
 * start), to = the model at t1 (ltt_state_cpu_times()). */
void lttv_state_print_process_stats(const lttv_options *o, const ltt_state *from,
				    int64_t t0, const ltt_state *to, int64_t t1);

/* The analyses asked for, over [t0, t1]; times shown minus origin. */
void lttv_analyses_print(const lttv_options *o, const ltt_analysis *a, int64_t t0,
			 int64_t t1, int64_t origin);
/* --critical-path: the path over the process's whole life (a has read the
 * whole trace), the segments that overlap [t0, t1] (not cut). */
void lttv_critical_path_print(const lttv_options *o, const ltt_analysis *a, int64_t t0,
			      int64_t t1, int64_t origin);
/* --by NAME: 0, or -1 if NAME is not one of name, process, cpu,
 * process-name, all. */
int lttv_parse_group_by(const char *s, int *by);

/* The pid as shown: itself, or with --stable its number in order of first
 * appearance (0 stays 0) (stable.c). */
unsigned lttv_pid_shown(const lttv_options *o, unsigned pid);
/* --stable: the fields of ev with pids renumbered and addresses hidden,
 * appended to out. */
void lttv_stable_fields(const lttv_options *o, const ltt_event *ev, GString *out);

/* Prints the events; returns the exit status (see lttv-text.c). */
int lttv_dump(lttv_options *o);

#endif
