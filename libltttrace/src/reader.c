/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * reader.c - the events of one tracefile in file order (ltttrace.h,
 * "One tracefile, in file order"): a cursor, an error that sticks, and
 * the warnings held until the reader ends.
 */
#include "cursor.h"

#define BATCH 64

struct ltt_reader {
	ltt_cursor c;
	ltt_error *failed;	/* the error that ended it, or NULL */
	ltt_event batch[BATCH];	/* ltt_reader_next_batch()'s */
	const ltt_event *ptrs[BATCH];
};

ltt_reader *ltt_reader_new(ltt_tracefile *tf)
{
	ltt_reader *r = g_new0(ltt_reader, 1);

	ltt_cursor_init(&r->c, tf);
	for (unsigned i = 0; i < BATCH; i++) {
		r->batch[i].trace = tf->trace;
		r->batch[i].tf = tf;
		r->ptrs[i] = &r->batch[i];
	}
	if (!tf->held_warnings)
		tf->held_warnings = g_ptr_array_new();
	return r;
}

int ltt_reader_next(ltt_reader *r, const ltt_event **ev, ltt_error **err)
{
	int ret;

	if (__builtin_expect(r->failed != NULL, 0)) {
		ltt_pass_error(err, ltt_error_copy(r->failed));
		return -1;
	}
	r->c.out = &r->c.ev;
	ret = ltt_cursor_next(&r->c, &r->failed);
	if (__builtin_expect(ret > 0, 1)) {
		*ev = &r->c.ev;
		return 1;
	}
	if (ret < 0)
		ltt_pass_error(err, ltt_error_copy(r->failed));
	return ret;
}

int ltt_reader_next_batch(ltt_reader *r, const ltt_event *const **evs,
			  ltt_error **err)
{
	ltt_cursor *c = &r->c;
	unsigned n = 0;
	int ret;

	if (__builtin_expect(r->failed != NULL, 0)) {
		ltt_pass_error(err, ltt_error_copy(r->failed));
		return -1;
	}
	/* the events point into the cursor's sub-buffer: the batch ends
	 * before the cursor reads another one. The cursor writes each
	 * straight into its slot: a copy of an event just written field by
	 * field stalled on the stores it read back. */
	do {
		c->out = &r->batch[n];
		ret = ltt_cursor_next(c, &r->failed);
		if (__builtin_expect(ret <= 0, 0))
			break;
		n++;
	} while (n < BATCH && c->offset < c->data_end);
	c->out = &c->ev;
	*evs = r->ptrs;
	if (n)
		return (int)n;	/* an error waits for the next call */
	if (ret < 0)
		ltt_pass_error(err, ltt_error_copy(r->failed));
	else if (ret == 0)	/* the end: its buffer, for another reader */
		ltt_cursor_fini(c);
	return ret;
}

void ltt_reader_free(ltt_reader *r)
{
	ltt_tracefile *tf;

	if (!r)
		return;
	tf = r->c.tf;
	if (tf->held_warnings) {
		GPtrArray *held = tf->held_warnings;

		tf->held_warnings = NULL;
		for (guint i = 0; i < held->len; i++)
			ltt_trace_add_warning(tf->trace, held->pdata[i]);
		g_ptr_array_free(held, TRUE);
	}
	ltt_cursor_fini(&r->c);
	ltt_error_free(r->failed);
	g_free(r);
}
