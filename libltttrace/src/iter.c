/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * iter.c - all tracefiles of one or more traces as one stream in time order.
 *
 * Each tracefile has a cursor holding its next event; a binary min-heap of
 * cursors keyed by (time, trace, tracefile) gives the earliest. The cursor
 * whose event was returned last is advanced lazily, at the next call, so
 * that the returned event stays valid until then. Seeking binary-searches
 * each tracefile's block begin times, then reads forward inside one block.
 *
 * The heap holds the keys themselves, not only cursor indexes: the
 * comparisons read one small array. Cursors are numbered trace by trace,
 * tracefile by tracefile, so (trace, tracefile) order is cursor order and
 * the key is (time, cursor). Events come in runs from one tracefile, so
 * the iterator also keeps the smallest key after the root's: as long as
 * the advanced cursor's next event comes before it, the heap is left as
 * it is, at the cost of one comparison per event.
 *
 * An error is sticky: the iterator keeps it, and every later call returns
 * it again (a copy), rather than going on past the tracefile that failed
 * with the events of the others, or returning the broken event.
 */
#include <string.h>

#include "cursor.h"

typedef struct heap_entry {
	int64_t time_ns;
	unsigned cursor;
} heap_entry;

struct ltt_iter {
	ltt_cursor *cursors;
	unsigned num_cursors;
	heap_entry *heap;
	unsigned heap_len;
	heap_entry runner_up;	/* the smallest key but the root's */
	ltt_cursor *pending;	/* to advance at the next call, or NULL */
	ltt_trace *const *traces;
	size_t num_traces;
	ltt_error *failed;	/* the error that ended it, or NULL */
};

static inline bool before(const heap_entry *x, const heap_entry *y)
{
	if (x->time_ns != y->time_ns)
		return x->time_ns < y->time_ns;
	return x->cursor < y->cursor;
}

static void sift_down(ltt_iter *it, unsigned i)
{
	heap_entry *h = it->heap, moving = h[i];
	unsigned len = it->heap_len;

	for (;;) {
		unsigned l = 2 * i + 1, m;

		if (l >= len)
			break;
		m = l + 1 < len && before(&h[l + 1], &h[l]) ? l + 1 : l;
		if (!before(&h[m], &moving))
			break;
		h[i] = h[m];
		i = m;
	}
	h[i] = moving;
}

static void heapify(ltt_iter *it)
{
	for (unsigned i = it->heap_len / 2; i-- > 0;)
		sift_down(it, i);
}

/* The second smallest key is one of the root's children; with one
 * cursor left, a key that nothing comes after (times saturate far below
 * INT64_MAX). */
static void find_runner_up(ltt_iter *it)
{
	const heap_entry *h = it->heap;

	if (it->heap_len < 2)
		it->runner_up = (heap_entry){ INT64_MAX, ~0U };
	else if (it->heap_len == 2 || before(&h[1], &h[2]))
		it->runner_up = h[1];
	else
		it->runner_up = h[2];
}

static int fill_heap(ltt_iter *it, bool seek, int64_t wall_ns);

/* -1, and a copy of the iterator's error for the caller. */
static int failed(ltt_iter *it, ltt_error **err)
{
	it->pending = NULL;
	ltt_pass_error(err, ltt_error_copy(it->failed));
	return -1;
}

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
	it->heap = g_new0(heap_entry, total ? total : 1);
	for (size_t t = 0; t < n; t++)
		for (guint i = 0; i < traces[t]->tracefiles->len; i++, k++)
			ltt_cursor_init(&it->cursors[k], traces[t]->tracefiles->pdata[i]);
	if (fill_heap(it, false, 0) < 0) {
		failed(it, err);
		ltt_iter_free(it);
		return NULL;
	}
	return it;
}

void ltt_iter_free(ltt_iter *it)
{
	if (!it)
		return;
	for (unsigned i = 0; i < it->num_cursors; i++)
		ltt_cursor_fini(&it->cursors[i]);
	g_free(it->cursors);
	g_free(it->heap);
	ltt_error_free(it->failed);
	g_free(it);
}

int ltt_iter_next(ltt_iter *it, const ltt_event **ev, ltt_error **err)
{
	ltt_cursor *c = it->pending;

	if (c) {
		int r = ltt_cursor_next(c, &it->failed);

		if (__builtin_expect(r > 0, 1)) {
			it->heap[0].time_ns = c->ev.time_ns;
			if (before(&it->heap[0], &it->runner_up)) {	/* still the earliest */
				*ev = &c->ev;
				return 1;
			}
		} else if (r == 0) {
			it->heap[0] = it->heap[--it->heap_len];
		} else {
			return failed(it, err);
		}
		if (it->heap_len == 2 && r > 0) {
			/* two tracefiles (two CPUs), the runner-up came first:
			 * they trade places */
			heap_entry tmp = it->heap[0];

			it->heap[0] = it->heap[1];
			it->heap[1] = it->runner_up = tmp;
		} else {
			if (it->heap_len > 1)
				sift_down(it, 0);
			find_runner_up(it);
		}
	} else if (__builtin_expect(it->failed != NULL, 0)) {
		return failed(it, err);	/* sticky: not the broken event again */
	}
	if (it->heap_len == 0) {
		it->pending = NULL;
		return 0;
	}
	it->pending = &it->cursors[it->heap[0].cursor];
	*ev = &it->pending->ev;
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
static int fill_heap(ltt_iter *it, bool seek, int64_t wall_ns)
{
	it->heap_len = 0;
	it->pending = NULL;
	for (unsigned i = 0; i < it->num_cursors; i++) {
		ltt_cursor *c = &it->cursors[i];
		ltt_tracefile *tf = c->tf;
		int r;

		if (seek) {
			uint64_t cycles = ltt_trace_ns_to_cycles(tf->trace, wall_ns);

			ltt_cursor_seek_block(c, tf->num_blocks ? find_block(tf, cycles) : 0);
		}
		while ((r = ltt_cursor_next(c, &it->failed)) > 0 && seek &&
		       c->ev.time_ns < wall_ns)
			;
		if (r < 0)
			return -1;
		if (r > 0)
			it->heap[it->heap_len++] = (heap_entry){ c->ev.time_ns, i };
	}
	heapify(it);
	find_runner_up(it);
	return 0;
}

int ltt_iter_seek_time(ltt_iter *it, int64_t wall_ns, ltt_error **err)
{
	if (it->failed || fill_heap(it, true, wall_ns) < 0)
		return failed(it, err);
	return 0;
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
		ltt_cursor_fini(&c);
		if (r < 0)
			return -1;
	}
	trace->info.num_events = n;
	return 0;
}
