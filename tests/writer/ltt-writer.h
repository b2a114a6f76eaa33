/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * ltt-writer.h - write LTT traces (format 0.7) for tests and benchmarks.
 *
 * A second, independent implementation of docs/format.md, on the writing
 * side: it shares no code with libltttrace's decoder, so that a
 * misreading of the format cannot hide in both.  Layouts and constants come
 * from <ltt/ltt-abi.h>; the payload alignment rules are implemented here.
 *
 *	lttw_config c;  lttw_config_default(&c);  c.has_heartbeat = 1;
 *	lttw_trace *t = lttw_trace_create("out", &c);
 *	lttw_file *ctl = lttw_file_open(t, "control/facilities", 0, 0);
 *	lttw_file *cpu = lttw_file_open(t, "cpu", 0, 0);
 *	lttw_eventdef_copy(t, "facilities/core.xml");
 *	lttw_facility_load(ctl, tsc, "process", 0x12345678, 1, 1);
 *
 *	lttw_payload p;  lttw_payload_init(&p, t);
 *	lttw_put_uint(&p, 42);  lttw_put_uint(&p, 7);  lttw_put_uint_n(&p, 0, 4);
 *	lttw_event(cpu, tsc, 1, 6, p.buf, p.len);
 *	...
 *	if (lttw_trace_close(t)) fprintf(stderr, "%s\n", lttw_last_error());
 *
 * Each tracefile is written one sub-buffer at a time: a sub-buffer is
 * filled in memory and written when the next event does not fit (or at
 * close).  Events must come in non-decreasing cycle order per tracefile.
 * Errors: functions return -1 (or NULL) and lttw_last_error() says why.
 */
#ifndef LTT_WRITER_H
#define LTT_WRITER_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <ltt/ltt-abi.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What goes into every block header, and how events are laid out. */
typedef struct lttw_config {
	unsigned arch_size;		/* 4 or 8: sizes of long, pointer, size_t */
	unsigned int_size;		/* size of <int/>, <uint/> (4) */
	unsigned alignment;		/* has_alignment: 0 (packed), 4 or 8 */
	unsigned has_heartbeat;		/* 1: 8-byte headers, 32-bit timestamps */
	unsigned mode;			/* LTT_TRACE_MODE_* */
	uint32_t arch_type;		/* LTT_ARCH_TYPE_* */
	uint32_t arch_variant;
	uint32_t subbuf_size;		/* default sub-buffer size of tracefiles */
	uint32_t freq_scale;		/* Hz = start_freq * freq_scale */
	uint64_t start_freq;		/* kHz (with freq_scale 1000) */
	uint64_t start_tsc;
	uint64_t start_monotonic;	/* ns */
	uint64_t start_time_sec;
	uint64_t start_time_usec;
	/*
	 * With has_heartbeat: write a core.time_heartbeat before an event
	 * that comes 2^31 cycles or more after the previous one of its
	 * tracefile, as the kernel guarantees.  0 makes ambiguous traces.
	 */
	unsigned auto_heartbeat;
	/* facility id of "channel" for buffer_stats events; -1: none */
	int channel_facility_id;
	/*
	 * With has_heartbeat: the kernel's heartbeat timer (kernel patch 0003).
	 * From start_tsc + heartbeat_first, every heartbeat_period cycles, a
	 * core.time_heartbeat goes into every tracefile of a CPU, written when
	 * an event of that CPU reaches that time, and at close up to the
	 * trace's last event, so that no tracefile of a heartbeat trace is
	 * empty.  0: none (only auto_heartbeat's).
	 */
	uint64_t heartbeat_period;
	uint64_t heartbeat_first;
	/* of the block headers: 0 (the kernel's, no floats) or the byte
	 * order of the floats, 1234 little endian (the era's reader wants it
	 * for any <float> field) */
	uint32_t float_word_order;
} lttw_config;

/* x86_64, 8-byte alignment, heartbeat on, 4 KiB sub-buffers, 2 GHz. */
void lttw_config_default(lttw_config *c);

typedef struct lttw_trace lttw_trace;
typedef struct lttw_file lttw_file;

/* The reason of the last failure (thread-local, never NULL). */
const char *lttw_last_error(void);

/* Create the trace directory (and control/, eventdefs/). */
lttw_trace *lttw_trace_create(const char *dir, const lttw_config *c);
const lttw_config *lttw_trace_config(const lttw_trace *t);
const char *lttw_trace_dir(const lttw_trace *t);
/* Flush and close every tracefile, free t. 0, or -1 if anything failed. */
int lttw_trace_close(lttw_trace *t);

/*
 * A tracefile: `channel` is "cpu", "control/facilities", "flight-cpu"...;
 * the file is <dir>/<channel>_<cpu>.  subbuf_size 0: the trace default.
 * The file exists (possibly empty) from now on; it is owned by the trace.
 */
lttw_file *lttw_file_open(lttw_trace *t, const char *channel, unsigned cpu,
			  uint32_t subbuf_size);

/*
 * Append one event.  The payload is written as given (build it with
 * lttw_payload); event_size is len, or 0xFFFF when len >= 65535.
 * Returns 0; -1 if the event cannot fit in an empty sub-buffer (it is then
 * counted as lost, as the kernel does) or on an I/O error.
 */
int lttw_event(lttw_file *f, uint64_t tsc, unsigned facility_id,
	       unsigned event_id, const void *payload, size_t len);

/* Close the current sub-buffer now (the next event opens a new one). */
int lttw_file_switch(lttw_file *f);

/*
 * Loss counters of the buffer (cumulative).  When they changed since the
 * last channel.buffer_stats written in this file, the next sub-buffer
 * opened starts with a channel.buffer_stats event.
 */
void lttw_file_add_losses(lttw_file *f, uint32_t events_lost,
			  uint32_t corrupted_subbuffers);
uint32_t lttw_file_events_lost(const lttw_file *f);
uint32_t lttw_file_corrupted(const lttw_file *f);

/*
 * Flight recorder: keep only the last n sub-buffers of this file when it
 * is closed (the older ones were overwritten).  0: keep everything.
 */
void lttw_file_keep_last(lttw_file *f, unsigned n);

/*
 * The largest payload the next event can have and still fit in the open
 * sub-buffer (0 if none fits; with no sub-buffer open, the room of an empty
 * one, not counting a channel.buffer_stats it may start with).  With it a
 * test can end an event exactly k bytes before the end of a sub-buffer.
 */
size_t lttw_file_room(const lttw_file *f);

/*
 * Where an event goes in a sub-buffer whose events so far end at offset off
 * (docs/format.md, Alignment): *pre bytes of padding, the header (8 bytes
 * with heartbeat timestamps, else 12), *post bytes of padding, len bytes of
 * payload.  Returns the bytes it takes from off.
 */
size_t lttw_event_place(uint32_t off, unsigned has_heartbeat, unsigned alignment,
			size_t len, unsigned *pre, unsigned *post);

/* Where the next event's header will go if it fits (for tests). */
uint64_t lttw_file_offset(const lttw_file *f);
unsigned lttw_file_num_subbufs(const lttw_file *f);

/* Copy a facility description into <trace>/eventdefs/. */
int lttw_eventdef_copy(lttw_trace *t, const char *xml_path);
/* Write text as <trace>/eventdefs/<name> (for malformed descriptions). */
int lttw_eventdef_write(lttw_trace *t, const char *name, const char *text);

/*
 * Write a core.facility_load (state_dump 0) or
 * core.state_dump_facility_load (1) event on f (a control/facilities file)
 * with the trace's int, long, pointer and size_t sizes and alignment.
 */
int lttw_facility_load(lttw_file *f, uint64_t tsc, const char *name,
		       uint32_t checksum, unsigned id, int state_dump);

/* ---- Payloads, field by field -------------------------------------------
 *
 * Every put aligns the field first: a scalar of size s to min(s, A), a
 * string to 1; compounds call lttw_align() with their largest member's
 * alignment before their first member (sequences: lttw_put_seq_len()).  A is the trace's has_alignment (0:
 * nothing is padded).  Offsets are from the payload start.  After a string
 * (lttw_put_string() does it) and after a sequence's last element (call
 * lttw_seq_end()) the payload is realigned on min(pointer_size, A), the
 * seeds' rule (docs/format.md, "Alignment"), even after the last field.
 */
typedef struct lttw_payload {
	unsigned char *buf;
	size_t len, cap;
	unsigned max_align;		/* A */
	unsigned int_size, long_size, pointer_size, size_t_size;
	int failed;			/* out of memory: buf is unusable */
	int fpa_doubles;		/* float_word_order 4321: a double's high
					 * word first (ARM's FPA) */
} lttw_payload;

void lttw_payload_init(lttw_payload *p, const lttw_trace *t);
/* Without a trace: A and arch_size given (int_size 4). */
void lttw_payload_init_raw(lttw_payload *p, unsigned max_align,
			   unsigned arch_size);
void lttw_payload_free(lttw_payload *p);
/* Grow the buffer; the slow path of the puts below. */
int lttw_payload_reserve(lttw_payload *p, size_t more);

static inline void lttw_payload_reset(lttw_payload *p)
{
	p->len = 0;
}

/* Padding bytes to bring offset `off` to a multiple of min(n, A). */
static inline size_t lttw_pad(size_t off, unsigned n, unsigned max_align)
{
	unsigned a;

	if (max_align == 0 || n <= 1)
		return 0;
	a = n < max_align ? n : max_align;
	return (a - off % a) % a;
}

/* Align the payload for a compound whose largest member aligns to n. */
static inline void lttw_align(lttw_payload *p, unsigned n)
{
	size_t pad = lttw_pad(p->len, n, p->max_align);

	if (p->len + pad > p->cap && lttw_payload_reserve(p, pad))
		return;
	memset(p->buf + p->len, 0, pad);
	p->len += pad;
}

/* Unaligned raw bytes (the caller aligned them). */
static inline void lttw_put_raw(lttw_payload *p, const void *data, size_t n)
{
	if (p->len + n > p->cap && lttw_payload_reserve(p, n))
		return;
	memcpy(p->buf + p->len, data, n);
	p->len += n;
}

/* n zero bytes, unaligned: e.g. a union member smaller than the union. */
static inline void lttw_put_zeros(lttw_payload *p, size_t n)
{
	if (p->len + n > p->cap && lttw_payload_reserve(p, n))
		return;
	memset(p->buf + p->len, 0, n);
	p->len += n;
}

/* An integer of `size` bytes (1, 2, 4, 8), naturally aligned. */
static inline void lttw_put_uint_n(lttw_payload *p, uint64_t v, unsigned size)
{
	size_t pad = lttw_pad(p->len, size, p->max_align);
	unsigned char *d;

	if (p->len + pad + size > p->cap && lttw_payload_reserve(p, pad + size))
		return;
	d = p->buf + p->len;
	memset(d, 0, pad);
	d += pad;
	switch (size) {
	case 1: { uint8_t x = (uint8_t)v; memcpy(d, &x, 1); break; }
	case 2: { uint16_t x = (uint16_t)v; memcpy(d, &x, 2); break; }
	case 4: { uint32_t x = (uint32_t)v; memcpy(d, &x, 4); break; }
	default: memcpy(d, &v, 8); size = 8; break;
	}
	p->len += pad + size;
}

static inline void lttw_put_int_n(lttw_payload *p, int64_t v, unsigned size)
{
	lttw_put_uint_n(p, (uint64_t)v, size);
}

/* <uint/>, <int/>, <long/>, <ulong/>, <pointer/>, <size_t/> of the trace */
static inline void lttw_put_uint(lttw_payload *p, uint64_t v)
{
	lttw_put_uint_n(p, v, p->int_size);
}
static inline void lttw_put_int(lttw_payload *p, int64_t v)
{
	lttw_put_int_n(p, v, p->int_size);
}
static inline void lttw_put_long(lttw_payload *p, int64_t v)
{
	lttw_put_int_n(p, v, p->long_size);
}
static inline void lttw_put_ulong(lttw_payload *p, uint64_t v)
{
	lttw_put_uint_n(p, v, p->long_size);
}
static inline void lttw_put_pointer(lttw_payload *p, uint64_t v)
{
	lttw_put_uint_n(p, v, p->pointer_size);
}
static inline void lttw_put_size_t(lttw_payload *p, uint64_t v)
{
	lttw_put_uint_n(p, v, p->size_t_size);
}

/*
 * The length of a <sequence>: the sequence as a whole aligns to the larger
 * of its length's size and its element's alignment (as genevent's
 * generated code does), then the length is written; put the elements
 * after it, each aligned as usual.
 */
static inline void lttw_put_seq_len(lttw_payload *p, uint64_t n,
				    unsigned len_size, unsigned elem_align)
{
	lttw_align(p, len_size > elem_align ? len_size : elem_align);
	lttw_put_uint_n(p, n, len_size);
}

/* After a sequence's last element (or its length, when it has none): the
 * realignment on min(pointer_size, A) that ends every sequence. */
static inline void lttw_seq_end(lttw_payload *p)
{
	lttw_align(p, p->pointer_size);
}

/* <sequence><uint/><uchar/></sequence>: text without its NUL (the era's
 * fs.exec filename): the length at int_size, the bytes, the realignment. */
static inline void lttw_put_text(lttw_payload *p, const char *s)
{
	size_t n = strlen(s);

	lttw_put_seq_len(p, n, p->int_size, 1);
	lttw_put_raw(p, s, n);
	lttw_seq_end(p);
}

/* <float size="4"/> or <float size="8"/> */
void lttw_put_float(lttw_payload *p, double v, unsigned size);

/* <string/>: the bytes and the NUL (never padded before), then the
 * realignment on min(pointer_size, A) that ends every string. */
static inline void lttw_put_string(lttw_payload *p, const char *s)
{
	lttw_put_raw(p, s, strlen(s) + 1);
	lttw_align(p, p->pointer_size);
}

#ifdef __cplusplus
}
#endif
#endif /* LTT_WRITER_H */
