/* SPDX-License-Identifier: GPL-2.0-or-later */
/* lttv-filter.h - the event filter language of filter.c. */
#ifndef LTTV_FILTER_H
#define LTTV_FILTER_H

#include <glib.h>

#include "ltttrace.h"

typedef struct lttv_filter lttv_filter;

/* NULL with *error = "column N: what was expected" (g_free it; error may
 * be NULL). Times in the expression (event.time) are seconds from
 * origin_ns. Field names are checked against the events the traces
 * describe (traces NULL: not checked). */
lttv_filter *lttv_filter_parse(const char *text, int64_t origin_ns,
			       ltt_trace *const *traces, size_t ntraces, char **error);
void lttv_filter_free(lttv_filter *f);
/* f NULL matches everything; st (the state after ev) may be NULL. */
int lttv_filter_match(const lttv_filter *f, const ltt_event *ev, const ltt_state *st);

/* lttv-gtk -t TRACE --filter EXPR: the matching events, as text. */
int lttv_filter_cli(const char *const *traces, unsigned ntraces, const char *expr);

#endif
