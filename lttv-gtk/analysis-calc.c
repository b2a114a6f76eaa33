/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * analysis-calc.c - the data of the Analyses tab: one pass of libltttrace's
 * analyses (ltttrace-analysis.h) over the open traces, in slices so that
 * the window never waits for it, and the events counted in LTTV_DENSITY_BINS
 * equal slices of the trace for the event-density histogram. The pass
 * opens the traces again, its own handles: it shares nothing with the
 * index being built in the window's worker, so neither waits for the other.
 * It opens them in its first step, in the caller's worker: opening reads
 * every block header, 0.7 s of the window's thread for 100 M events.
 */
#include <stdlib.h>

#include "lttv-gtk.h"

struct lttv_adata {
	lttv_doc *doc;
	ltt_trace **traces;		/* our own handles on doc's traces */
	unsigned ntraces;
	ltt_iter *it;
	ltt_analysis *an;
	uint64_t density[LTTV_DENSITY_BINS];
	uint64_t events;
	int done, failed;
	char *error;
};

lttv_adata *lttv_adata_new(lttv_doc *d)
{
	lttv_adata *x = g_new0(lttv_adata, 1);

	x->doc = d;
	x->an = ltt_analysis_new();
	return x;
}

/* Opens our own handles on the doc's traces: 0, or -1 (x failed). */
static int open_traces(lttv_adata *x)
{
	ltt_error *err = NULL;

	x->traces = lttv_open_traces(x->doc->paths, x->doc->ntraces, &err);
	x->ntraces = x->traces ? x->doc->ntraces : 0;
	if (x->traces)
		x->it = ltt_iter_new(x->traces, x->ntraces, &err);
	if (!x->it) {
		x->failed = x->done = 1;
		x->error = g_strdup(ltt_error_message(err));
		ltt_error_free(err);
		return -1;
	}
	return 0;
}

void lttv_adata_free(lttv_adata *x)
{
	if (!x)
		return;
	ltt_iter_free(x->it);
	ltt_analysis_free(x->an);
	lttv_close_traces(x->traces, x->ntraces);
	g_free(x->error);
	g_free(x);
}

unsigned lttv_density_bin(const lttv_doc *d, int64_t t)
{
	int64_t span = d->end_ns - d->start_ns;
	int64_t b;

	if (t <= d->start_ns || span <= 0)
		return 0;
	b = (int64_t)((double)(t - d->start_ns) / (double)span * LTTV_DENSITY_BINS);
	return b >= LTTV_DENSITY_BINS ? LTTV_DENSITY_BINS - 1 : (unsigned)b;
}

int lttv_adata_step(lttv_adata *x, unsigned max_events)
{
	const ltt_event *ev;
	ltt_error *err = NULL;
	int r = 1;

	if (x->done || (!x->it && open_traces(x) < 0))
		return 0;
	for (unsigned n = 0; n < max_events; n++) {
		r = ltt_iter_next(x->it, &ev, &err);
		if (r <= 0)
			break;
		ltt_analysis_process_event(x->an, ev);
		x->density[lttv_density_bin(x->doc, ltt_event_time_ns(ev))]++;
		x->events++;
	}
	if (r < 0) {
		x->failed = 1;
		x->error = g_strdup(ltt_error_message(err));
		ltt_error_free(err);
	}
	if (r <= 0)
		x->done = 1;
	return !x->done;
}

int lttv_adata_done(const lttv_adata *x) { return x->done; }
const char *lttv_adata_error(const lttv_adata *x) { return x->failed ? x->error : NULL; }
const ltt_analysis *lttv_adata_analysis(const lttv_adata *x) { return x->an; }
const uint64_t *lttv_adata_density(const lttv_adata *x) { return x->density; }
uint64_t lttv_adata_events(const lttv_adata *x) { return x->events; }
