/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * ctf.h - the CTF 1.8 reader's private structures (LTTng 2 traces).
 *
 *   ctf-meta.c    TSDL metadata (text or packetized) -> ctf_meta: the
 *                 trace, clocks, stream and event classes, as type trees
 *   ctf-decode.c  one value of a type tree at a bit position of a packet,
 *                 decoded and written out in libltttrace's own payload
 *                 layout (packed, native integers of 1, 2, 4 or 8 bytes)
 *   ctf-trace.c   a trace directory holding metadata (or a session
 *                 directory holding several): streams, their packets,
 *                 the facilities built from the event classes, the cursor
 *
 * An event is decoded once, into a payload that the 2006 format's nodes
 * (layout.c) describe: its stream's event context, its own context, then
 * its fields, as one flat list of fields. So the accessors, the text
 * formatter and the state engine of event.c read CTF events as they read
 * the 2006 format's, and nothing downstream knows which format it reads.
 */
#ifndef LTTTRACE_CTF_H
#define LTTTRACE_CTF_H

#include "internal.h"

/* ---- ctf-meta.c ---- */
typedef enum ctf_kind {
	CTF_INT, CTF_FLOAT, CTF_STRING, CTF_ENUM, CTF_STRUCT, CTF_VARIANT,
	CTF_ARRAY, CTF_SEQUENCE,
} ctf_kind;

typedef struct ctf_type ctf_type;

typedef struct ctf_mapping {
	char *label;
	int64_t lo, hi;		/* inclusive; as unsigned when the container is */
} ctf_mapping;

typedef struct ctf_member {
	char *name;		/* one leading '_' stripped, as babeltrace2 does */
	ctf_type *type;
	int slot;		/* >= 0: its integer value is kept there (a length, a tag, a role) */
} ctf_member;

struct ctf_type {
	ctf_kind kind;
	unsigned bits;		/* integer, float (exp + mant), enum's container */
	unsigned align;		/* in bits, a power of two */
	bool is_signed, big_endian, text, clock;	/* clock: mapped to the clock */
	unsigned base;		/* 10, 16, 8, 2 */
	unsigned exp_dig, mant_dig;
	ctf_mapping *maps;	/* enum */
	unsigned num_maps;
	ctf_member *members;	/* struct, variant: options */
	unsigned num_members;
	char *ref;		/* variant tag, sequence length: the path written */
	int ref_slot;		/* ... resolved to a slot, -1 before */
	uint64_t length;	/* array */
	ctf_type *elem;		/* array, sequence */
	const ctf_type *tag;	/* variant: its tag's enum */
	unsigned *map_option;	/* variant: the option of each of the tag's labels */
	bool resolved;		/* references resolved (each type once) */
	/* a little-endian integer or enum of 8, 16, 32 or 64 bits, not the
	 * clock: read and written out as its bytes (ctf-decode.c) */
	bool plain;
	const char *where;	/* "metadata:LINE" where it was declared */
};

typedef struct ctf_clock {
	char *name;
	uint64_t freq;
	int64_t offset_s;
	int64_t offset;		/* cycles */
} ctf_clock;

typedef struct ctf_event_class {
	char *name;
	uint64_t id;
	uint64_t stream_id;
	ctf_type *context, *fields;	/* structs, or NULL */
	/* filled by ctf-trace.c */
	const ltt_facility *fac;
	const ltt_event_type *type;
} ctf_event_class;

typedef struct ctf_stream_class {
	uint64_t id;
	ctf_type *packet_context, *event_header, *event_context;
	GPtrArray *events;		/* ctf_event_class* of this stream */
	GHashTable *by_id;		/* event id -> ctf_event_class* */
	ctf_event_class *single;	/* the only event, when there is no header */
} ctf_stream_class;

/* The slots of the integers a reader needs by name (ctf_member.slot). */
enum {
	CTF_SLOT_EVENT_ID, CTF_SLOT_TS_BEGIN, CTF_SLOT_TS_END,
	CTF_SLOT_CONTENT_SIZE, CTF_SLOT_PACKET_SIZE, CTF_SLOT_DISCARDED,
	CTF_SLOT_SEQ_NUM, CTF_SLOT_CPU_ID, CTF_SLOT_STREAM_ID, CTF_SLOT_MAGIC,
	CTF_SLOT_FIRST_FREE,
};
#define CTF_MAGIC 0xC1FC1FC1u

typedef struct ctf_meta {
	char *path;		/* of the metadata file */
	bool big_endian;	/* the trace's byte order */
	ctf_type *packet_header;
	ctf_clock *clock;	/* the one clock (LTTng writes one), or NULL */
	char *domain;		/* env.domain: "kernel", "ust", or NULL */
	GPtrArray *streams;	/* ctf_stream_class* */
	GPtrArray *events;	/* ctf_event_class*, in metadata order */
	unsigned num_slots;
	GPtrArray *owned;	/* every allocation, for freeing */
	GPtrArray *where;	/* the "metadata:LINE" strings */
} ctf_meta;

/* Limits that a hostile metadata file meets before it can hurt. */
#define CTF_MAX_DEPTH 64		/* nesting of types */
#define CTF_MAX_METADATA (16u << 20)	/* bytes of metadata text (LTTng's
					 * kernel metadata: about 1 MiB) */
#define CTF_MAX_ENUM_VALUES 65536	/* labels one enum's ranges expand to */
#define CTF_MAX_LABELS (1u << 20)	/* ... all enums of a trace */

/* Parses the metadata file at path (text, or packetized as LTTng writes
 * it). NULL, and an error naming the file, line and construct, if it is
 * not the TSDL subset LTTng 2.13 writes. */
LTT_HIDDEN ctf_meta *ltt_ctf_meta_load(const char *path, ltt_error **err);
/* The same from memory (the fuzzer; origin names it in errors). */
LTT_HIDDEN ctf_meta *ltt_ctf_meta_parse(const uint8_t *data, size_t len,
					const char *origin, ltt_error **err);
LTT_HIDDEN void ltt_ctf_meta_free(ctf_meta *m);
LTT_HIDDEN ctf_stream_class *ltt_ctf_meta_stream(const ctf_meta *m, uint64_t id);

/* ---- ctf-decode.c ---- */
/* What one decode of a packet's values needs; the output grows in
 * chunks that never move, so that the events of a reader's batch keep
 * their payloads until the cursor leaves the packet. */
typedef struct ctf_out_chunk ctf_out_chunk;
typedef struct ctf_decoder {
	const uint8_t *buf;	/* the packet */
	uint64_t pos, end;	/* bits; end: its content size */
	uint64_t *slots;	/* ctf_meta.num_slots */
	uint64_t clock;		/* the clock, extended across wraps */
	bool clock_update;	/* integers mapped to the clock set it */
	uint64_t budget;	/* values the event may still hold */
	uint8_t *out, *out_end;	/* where the next byte of output goes */
	uint8_t *event_start;	/* the event's output so far moves with it */
	ctf_out_chunk *chunks;	/* this packet's, the current first */
	ctf_out_chunk *spare;	/* kept for the next packet */
	const char *fail;	/* what went wrong (static or in fail_buf) */
	char fail_buf[160];
	uint64_t fail_pos;	/* at which bit */
} ctf_decoder;

/* Decodes a value of t at d->pos; emit: writes it to the output too.
 * 0, or -1 with d->fail and d->fail_pos set. */
LTT_HIDDEN int ltt_ctf_decode(ctf_decoder *d, const ctf_type *t, bool emit);
/* The output's current position, after making room for at least `need`
 * bytes in one piece. NULL: no memory. */
LTT_HIDDEN uint8_t *ltt_ctf_out_reserve(ctf_decoder *d, size_t need);
/* Forgets the output (a new packet): the chunks are kept for reuse. */
LTT_HIDDEN void ltt_ctf_out_reset(ctf_decoder *d);
LTT_HIDDEN void ltt_ctf_decoder_fini(ctf_decoder *d);
/* The bytes a value of t takes in the output layout, for the type that
 * layout.c compiles (the same sizes: ctf-decode.c is their one home). */
LTT_HIDDEN unsigned ltt_ctf_out_int_size(unsigned bits);
/* An array or sequence of text: written out as a string. */
LTT_HIDDEN bool ltt_ctf_is_text(const ctf_type *t);
/* The event header as LTTng writes it, `struct { enum id; variant <id> {
 * struct { timestamp; } compact; ... } v; }`, recognised once per stream
 * class, so that the common case, the compact option, is read without
 * the generic walk's five calls (a quarter of the decode-only time of a
 * kernel trace, whose events are small). */
typedef struct ctf_fast_header {
	bool ok;
	unsigned id_align, id_bits;	/* bits */
	const ctf_type *variant;
	unsigned compact;		/* the variant's compact option */
	unsigned ts_align, ts_bits;
} ctf_fast_header;
LTT_HIDDEN void ltt_ctf_fast_header_init(ctf_fast_header *f, const ctf_type *h);
/* ltt_ctf_decode(d, h, false) of that header h, the same slots and clock. */
LTT_HIDDEN int ltt_ctf_decode_header(ctf_decoder *d, const ctf_type *h,
				     const ctf_fast_header *f);

/* ---- ctf-trace.c ---- */
typedef struct ctf_packet {
	uint64_t offset;	/* in the file, bytes */
	uint64_t size;		/* bytes */
	uint64_t content_bits;
	uint64_t data_bits;	/* where its first event header begins */
	uint64_t ts_begin;	/* the clock's raw value */
} ctf_packet;

typedef struct ctf_stream {
	const ctf_meta *meta;
	const ctf_stream_class *sc;
	ctf_packet *packets;	/* num_blocks of them (ltt_tracefile) */
	uint64_t max_packet;	/* bytes: the cursor's buffer */
} ctf_stream;

/* The trace's CTF part: its metadata files (one per domain/ABI folder). */
typedef struct ctf_trace {
	GPtrArray *metas;	/* ctf_meta* */
	GHashTable *ids;	/* ctf_stream_class* -> its event classes by id */
} ctf_trace;

/* dir holds metadata, or is a session directory (kernel/, ust/...) with
 * metadata in its folders? */
LTT_HIDDEN bool ltt_ctf_is_trace(const char *dir);
/* Opens the CTF trace at t->path into t: tracefiles (one per stream
 * file), facilities, clock. 0, or -1 with err set. */
LTT_HIDDEN int ltt_ctf_open(ltt_trace *t, ltt_error **err);
/* The same for one stream file open at fd (read through a duplicate: the
 * caller keeps fd), named relpath, against m, parsed beforehand and kept
 * by the caller: t reads it until it is closed, and m's event classes
 * point to t's facilities (one trace at a time per m). For the stream
 * reader's fuzzer (tests/fuzz/fuzz_lttng_stream.c), which parses its
 * metadata once: the packets are indexed and read as ltt_ctf_open()'s. */
LTT_HIDDEN int ltt_ctf_open_fd(ltt_trace *t, ctf_meta *m, const char *relpath, int fd,
			       ltt_error **err);
/* ltt_trace_open() of such a stream (trace.c): dir only names it. */
LTT_HIDDEN ltt_trace *ltt_ctf_trace_open_fd(const char *dir, ctf_meta *m,
					    const char *relpath, int fd, ltt_error **err);
LTT_HIDDEN void ltt_ctf_close(ltt_trace *t);
LTT_HIDDEN void ltt_ctf_tracefile_close(ltt_tracefile *tf);
/* The cursor's work for a CTF tracefile (cursor.h, tracefile.c call them). */
LTT_HIDDEN int ltt_ctf_cursor_next(ltt_cursor *c, ltt_error **err);
LTT_HIDDEN void ltt_ctf_cursor_seek_block(ltt_cursor *c, unsigned block);
LTT_HIDDEN void ltt_ctf_cursor_fini(ltt_cursor *c);
/* ltt_tracefile_read_facts() of a stream file. */
LTT_HIDDEN int ltt_ctf_read_facts(ltt_tracefile *tf, int64_t *first, int64_t *last);

#endif
