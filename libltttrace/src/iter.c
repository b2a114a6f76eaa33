/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * iter.c - all tracefiles of one or more traces as one stream in time order.
 *
 * Each tracefile has a cursor holding its next event; a binary min-heap of
 * cursors keyed by (time, trace, tracefile) gives the earliest. The cursor
 * whose event was returned last is advanced lazily, at the next call, so
 * that the returned event stays valid until then. Seeking binary-searches
 * each tracefile's block begin times, then reads forward inside one block.
 */
#include <string.h>

#include "internal.h"

struct ltt_iter {
	ltt_cursor *cursors;
	unsigned num_cursors;
	unsigned *trace_index;	/* per cursor, for tie-breaking */
	unsigned *heap;		/* cursor indexes */
	unsigned heap_len;
	int pending;		/* cursor to advance at the next call, or -1 */
	ltt_trace *const *traces;
	size_t num_traces;
};

static bool before(const ltt_iter *it, unsigned a, unsigned b)
{
	const ltt_event *x = &it->cursors[a].ev, *y = &it->cursors[b].ev;

	if (x->time_ns != y->time_ns)
		return x->time_ns < y->time_ns;
	if (it->trace_index[a] != it->trace_index[b])
		return it->trace_index[a] < it->trace_index[b];
	return x->tf->index < y->tf->index;
}

static void sift_down(ltt_iter *it, unsigned i)
{
	for (;;) {
		unsigned l = 2 * i + 1, r = l + 1, m = i, tmp;

		if (l < it->heap_len && before(it, it->heap[l], it->heap[m]))
			m = l;
		if (r < it->heap_len && before(it, it->heap[r], it->heap[m]))
			m = r;
		if (m == i)
			return;
		tmp = it->heap[i];
		it->heap[i] = it->heap[m];
		it->heap[m] = tmp;
		i = m;
	}
}

static void heapify(ltt_iter *it)
{
	for (unsigned i = it->heap_len / 2; i-- > 0;)
		sift_down(it, i);
}

static int fill_heap(ltt_iter *it, bool seek, int64_t wall_ns, ltt_error **err);

ltt_iter *ltt_iter_new(ltt_trace *const *traces, size_t n, ltt_error **err)
{
	ltt_iter *it = g_new0(ltt_iter, 1);
	unsigned total = 0, k = 0;

	for (size_t t = 0; t < n; t++)
		total += traces[t]->tracefiles->len;
	it->traces = traces;
	it->num_traces = n;
	it->num_cursors = total;
	it->cursors = g_new0(ltt_cursor, total ? total : 1);
	it->trace_index = g_new0(unsigned, total ? total : 1);
	it->heap = g_new0(unsigned, total ? total : 1);
	for (size_t t = 0; t < n; t++)
		for (guint i = 0; i < traces[t]->tracefiles->len; i++, k++) {
			ltt_cursor_init(&it->cursors[k], traces[t]->tracefiles->pdata[i]);
			it->trace_index[k] = (unsigned)t;
		}
	if (fill_heap(it, false, 0, err) < 0) {
		ltt_iter_free(it);
		return NULL;
	}
	return it;
}

void ltt_iter_free(ltt_iter *it)
{
	if (!it)
		return;
	g_free(it->cursors);
	g_free(it->trace_index);
	g_free(it->heap);
	g_free(it);
}

int ltt_iter_next(ltt_iter *it, const ltt_event **ev, ltt_error **err)
{
	if (it->pending >= 0) {
		int r = ltt_cursor_next(&it->cursors[it->pending], err);

		it->pending = -1;
		if (r < 0)
			return -1;
		if (r == 0)
			it->heap[0] = it->heap[--it->heap_len];
		if (it->heap_len)
			sift_down(it, 0);
	}
	if (it->heap_len == 0)
		return 0;
	it->pending = (int)it->heap[0];
	*ev = &it->cursors[it->pending].ev;
	return 1;
}

/* The last block of tf that begins at or before cycles (0 if none). */
static unsigned find_block(const ltt_tracefile *tf, uint64_t cycles)
{
	unsigned lo = 0, hi = tf->num_blocks;

	while (hi - lo > 1) {
		unsigned mid = lo + (hi - lo) / 2;

		if (tf->blocks[mid].begin_cycles <= cycles)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

/*
 * Reads the next event of every cursor and builds the heap. With `seek`,
 * each cursor first moves to the block holding wall_ns and skips the
 * events before it.
 */
static int fill_heap(ltt_iter *it, bool seek, int64_t wall_ns, ltt_error **err)
{
	it->heap_len = 0;
	it->pending = -1;
	for (unsigned i = 0; i < it->num_cursors; i++) {
		ltt_cursor *c = &it->cursors[i];
		ltt_tracefile *tf = c->tf;
		int r;

		if (seek) {
			uint64_t cycles = ltt_trace_ns_to_cycles(tf->trace, wall_ns);

			ltt_cursor_seek_block(c, tf->num_blocks ? find_block(tf, cycles) : 0);
		}
		while ((r = ltt_cursor_next(c, err)) > 0 && seek && c->ev.time_ns < wall_ns)
			;
		if (r < 0)
			return -1;
		if (r > 0)
			it->heap[it->heap_len++] = i;
	}
	heapify(it);
	return 0;
}

int ltt_iter_seek_time(ltt_iter *it, int64_t wall_ns, ltt_error **err)
{
	return fill_heap(it, true, wall_ns, err);
}

int ltt_trace_count_events(ltt_trace *trace, ltt_error **err)
{
	uint64_t n = 0;

	for (guint i = 0; i < trace->tracefiles->len; i++) {
		ltt_cursor c;
		int r;

		ltt_cursor_init(&c, trace->tracefiles->pdata[i]);
		while ((r = ltt_cursor_next(&c, err)) > 0)
			n++;
		if (r < 0)
			return -1;
	}
	trace->info.num_events = n;
	return 0;
}
