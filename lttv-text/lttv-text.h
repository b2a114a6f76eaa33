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
	const char *output;	/* -o FILE, opened once the traces are */
	FILE *out;		/* stdout, or that file (set by lttv_dump) */
} lttv_options;

/* Statistics gathered while dumping (stats.c). */
typedef struct lttv_stats lttv_stats;
lttv_stats *lttv_stats_new(void);
/* lttv_stats_add(), per event, is inline in stats.h */
void lttv_stats_print(lttv_stats *st, ltt_trace *const *traces, unsigned n,
		      int cpu_stats, int summary, int64_t origin_ns, FILE *out);
void lttv_stats_free(lttv_stats *st);

/* The state columns of one line and the per-process table (state-print.c). */
void lttv_state_print_line(FILE *out, const ltt_state *st, const ltt_event *ev);
/* CPU time per process in [t0, t1]: from = the model at t0 (NULL: the
 * start), to = the model at t1 (ltt_state_cpu_times()). */
void lttv_state_print_process_stats(FILE *out, const ltt_state *from, int64_t t0,
				    const ltt_state *to, int64_t t1);

/* Prints the events; returns the exit status (see lttv-text.c). */
int lttv_dump(lttv_options *o);

#endif
