/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ltt_sample_tp.h - the tracepoints of ltt-ust-sample (tests/lttng-ust/):
 * one event per kind of CTF field LTTng-UST 2.13 writes, so that the
 * bundled trace traces/lttng-ust-sample exercises every decoder path.
 */
#undef LTTNG_UST_TRACEPOINT_PROVIDER
#define LTTNG_UST_TRACEPOINT_PROVIDER ltt_sample

#undef LTTNG_UST_TRACEPOINT_INCLUDE
#define LTTNG_UST_TRACEPOINT_INCLUDE "./ltt_sample_tp.h"

#if !defined(LTT_SAMPLE_TP_H) || defined(LTTNG_UST_TRACEPOINT_HEADER_MULTI_READ)
#define LTT_SAMPLE_TP_H

#include <lttng/tracepoint.h>
#include <stdint.h>

LTTNG_UST_TRACEPOINT_ENUM(ltt_sample, state,
	LTTNG_UST_TP_ENUM_VALUES(
		lttng_ust_field_enum_value("IDLE", 0)
		lttng_ust_field_enum_value("RUNNING", 1)
		lttng_ust_field_enum_range("WAITING", 10, 19)
		lttng_ust_field_enum_auto("AUTO_NEXT")
	)
)

LTTNG_UST_TRACEPOINT_ENUM(ltt_sample, signed_state,
	LTTNG_UST_TP_ENUM_VALUES(
		lttng_ust_field_enum_value("MINUS_ONE", -1)
		lttng_ust_field_enum_value("ZERO", 0)
	)
)

LTTNG_UST_TRACEPOINT_EVENT(ltt_sample, integers,
	LTTNG_UST_TP_ARGS(int8_t, s8, uint8_t, u8, int16_t, s16, uint16_t, u16,
			  int32_t, s32, uint32_t, u32, int64_t, s64, uint64_t, u64),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_integer(int8_t, s8, s8)
		lttng_ust_field_integer(uint8_t, u8, u8)
		lttng_ust_field_integer(int16_t, s16, s16)
		lttng_ust_field_integer(uint16_t, u16, u16)
		lttng_ust_field_integer(int32_t, s32, s32)
		lttng_ust_field_integer(uint32_t, u32, u32)
		lttng_ust_field_integer(int64_t, s64, s64)
		lttng_ust_field_integer_hex(uint64_t, u64_hex, u64)
		lttng_ust_field_integer_network(uint32_t, u32_net, u32)
		lttng_ust_field_integer_network_hex(uint16_t, u16_net_hex, u16)
	)
)

LTTNG_UST_TRACEPOINT_EVENT(ltt_sample, floats,
	LTTNG_UST_TP_ARGS(float, f, double, d),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_float(float, f, f)
		lttng_ust_field_float(double, d, d)
	)
)

LTTNG_UST_TRACEPOINT_EVENT(ltt_sample, texts,
	LTTNG_UST_TP_ARGS(const char *, s, const char *, name16, unsigned, len),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_string(str, s)
		lttng_ust_field_array_text(char, name16, name16, 16)
		lttng_ust_field_sequence_text(char, seqtext, s, unsigned int, len)
	)
)

LTTNG_UST_TRACEPOINT_EVENT(ltt_sample, arrays,
	LTTNG_UST_TP_ARGS(const int32_t *, a, const uint16_t *, seq, size_t, n),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_array(int32_t, arr4, a, 4)
		lttng_ust_field_sequence(uint16_t, seq16, seq, size_t, n)
		lttng_ust_field_sequence(uint8_t, seq8, seq, uint8_t, n)
		lttng_ust_field_integer(int, after, 42)
	)
)

LTTNG_UST_TRACEPOINT_EVENT(ltt_sample, enums,
	LTTNG_UST_TP_ARGS(int, st, int, sst),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_enum(ltt_sample, state, int, st_field, st)
		lttng_ust_field_enum(ltt_sample, signed_state, int8_t, sst_field, sst)
	)
)

LTTNG_UST_TRACEPOINT_EVENT(ltt_sample, empty,
	LTTNG_UST_TP_ARGS(),
	LTTNG_UST_TP_FIELDS()
)

#endif

#include <lttng/tracepoint-event.h>
