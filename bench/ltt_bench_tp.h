/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ltt_bench_tp.h - the LTTng-UST tracepoint of ltt-ust-bench.c: the same
 * payload as ltt-bench-tool's "generic" tick (a 32-bit sequence number and
 * a string, SIZE bytes in all), so that bench/tracer.py compares our
 * user-space events with LTTng-UST's on equal events.
 */
#undef LTTNG_UST_TRACEPOINT_PROVIDER
#define LTTNG_UST_TRACEPOINT_PROVIDER ltt_bench

#undef LTTNG_UST_TRACEPOINT_INCLUDE
#define LTTNG_UST_TRACEPOINT_INCLUDE "./ltt_bench_tp.h"

#if !defined(LTT_BENCH_TP_H) || defined(LTTNG_UST_TRACEPOINT_HEADER_MULTI_READ)
#define LTT_BENCH_TP_H

#include <lttng/tracepoint.h>
#include <stdint.h>

LTTNG_UST_TRACEPOINT_EVENT(ltt_bench, tick,
	LTTNG_UST_TP_ARGS(uint32_t, seq, const char *, text),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_integer(uint32_t, seq, seq)
		lttng_ust_field_string(text, text)
	)
)

#endif

#include <lttng/tracepoint-event.h>
