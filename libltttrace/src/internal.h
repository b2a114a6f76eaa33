/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * internal.h - libltttrace's private structures, shared by its .c files.
 *
 * Layers, bottom up:
 *   error.c        the error chain and its code
 *   sized.c        structs that carry their size across the API (sized.h)
 *   description.c  facility XML -> type trees (GMarkup), checksum
 *   layout.c       a type tree + a facility's sizes -> offsets and values
 *   tracefile.c    one mapped file of sub-buffers: validation, event reads
 *   trace.c        a trace directory: tracefiles, facility table
 *   iter.c         many tracefiles merged in time order, seeking
 *   event.c        the public accessors of an event and its fields
 *   ctf-*.c        LTTng 2 traces (CTF 1.8) behind the same tracefiles,
 *                  cursors and event types (ctf.h, docs/ctf.md)
 */
#ifndef LTTTRACE_INTERNAL_H
#define LTTTRACE_INTERNAL_H

#include <glib.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "ltt/ltt-abi.h"
#include "ltttrace.h"
#include "sized.h"

#define LTT_HIDDEN __attribute__((visibility("hidden")))

/* ---- error.c ---- */
struct ltt_error {
	char *message;
	ltt_error_code code;
};
LTT_HIDDEN void ltt_set_error(ltt_error **err, ltt_error_code code,
			      const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Prefix an existing error with an outer cause: "outer: inner" (the
 * code stays the inner one's). */
LTT_HIDDEN void ltt_prefix_error(ltt_error **err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Hand e (or nothing) to *err, which keeps its first error: e is freed
 * when *err already has one, or when err is NULL. */
LTT_HIDDEN void ltt_pass_error(ltt_error **err, ltt_error *e);
LTT_HIDDEN ltt_error *ltt_error_copy(const ltt_error *e);


/* ---- description.c: the type trees ---- */
typedef enum ltt_xtype {
	X_NONE, X_INT, X_UINT, X_INT_FIXED, X_UINT_FIXED, X_CHAR, X_UCHAR,
	X_SHORT, X_USHORT, X_LONG, X_ULONG, X_POINTER, X_SIZE_T, X_SSIZE_T,
	X_OFF_T, X_FLOAT, X_STRING, X_ENUM, X_ARRAY, X_SEQUENCE, X_STRUCT,
	X_UNION, X_TYPEREF,
} ltt_xtype;

typedef struct ltt_label {
	char *name;
	int64_t value;
} ltt_label;

typedef struct ltt_type ltt_type;
typedef struct ltt_field_desc {
	char *name;
	char *description;
	ltt_type *type;
} ltt_field_desc;

struct ltt_type {
	ltt_xtype xtype;
	unsigned size;		/* size attribute, 0 if absent */
	char *format;
	char *name;		/* typeref target name / named type name */
	ltt_type *ref;		/* resolved typeref */
	GPtrArray *labels;	/* enum: ltt_label* */
	unsigned length;	/* array */
	ltt_type *len_type;	/* sequence length */
	ltt_type *elem;		/* array/sequence element */
	GPtrArray *fields;	/* struct/union: ltt_field_desc* */
	/* measured when the description is checked (description.c) */
	enum { TYPE_NEW, TYPE_CHECKING, TYPE_CHECKED } state;
	int height;		/* longest path of types below it */
	uint64_t values;	/* values it holds, arrays multiplied out */
	uint64_t min_size;	/* bytes it takes at least */
};

typedef struct ltt_event_desc {
	char *name;
	char *description;
	char *channel;		/* channel="..." attribute, or NULL */
	GPtrArray *fields;	/* ltt_field_desc* */
} ltt_event_desc;

struct ltt_description {
	char *name;
	char *description;
	char *channel;		/* default channel of its events, or NULL */
	char *origin;		/* file it came from */
	uint64_t file_dev, file_ino;	/* that file (0, 0: from memory) */
	uint32_t checksum;
	GPtrArray *events;	/* ltt_event_desc* */
	GPtrArray *types;	/* every ltt_type, for freeing */
	GPtrArray *field_descs;	/* every ltt_field_desc, for freeing */
	GHashTable *named;	/* name -> ltt_type* */
};

/* A description of a file outside any trace (installed, -f), parsed once
 * per process and file version, owned by the library: never freed by the
 * caller. */
LTT_HIDDEN const ltt_description *ltt_description_load_shared(const char *path,
							      ltt_error **err);
/* Follows typerefs. */
LTT_HIDDEN const ltt_type *ltt_type_resolve(const ltt_type *t);
/* An empty description that ltt_description_free() frees, for types
 * built from elsewhere (ctf-trace.c: a CTF trace's event classes). */
LTT_HIDDEN ltt_description *ltt_description_new_empty(const char *name,
						      const char *origin);
/* The compiled-in core.xml, parsed once. */
LTT_HIDDEN const ltt_description *ltt_core_description(void);

/* ---- layout.c: a description instantiated with a trace's sizes ---- */
typedef struct ltt_sizes {
	unsigned int_size, long_size, pointer_size, size_t_size;
	unsigned alignment;	/* 0: packed */
} ltt_sizes;

/*
 * A type compiled for one facility load's sizes: what reading a value
 * needs, computed once (typerefs followed, sizes, alignments, enum labels
 * by value), so that a walk of an event is a walk of these nodes. Types
 * shared by typerefs share their node: a typeref DAG compiles to its size.
 */
typedef enum ltt_op {	/* the scalars first, up to LTT_OP_FLOAT, then strings */
	LTT_OP_INT, LTT_OP_UINT, LTT_OP_POINTER, LTT_OP_ENUM, LTT_OP_FLOAT,
	LTT_OP_STRING, LTT_OP_ARRAY, LTT_OP_SEQUENCE, LTT_OP_STRUCT, LTT_OP_UNION,
} ltt_op;

typedef struct ltt_node ltt_node;
typedef struct ltt_member {
	const char *name;
	const ltt_node *node;
} ltt_member;

typedef struct ltt_enum_value {
	uint64_t value;
	const char *label;
} ltt_enum_value;

struct ltt_node {
	ltt_op op;
	unsigned size;		/* scalar: its bytes; sequence: its length's */
	unsigned pad_mask;	/* (-off) & pad_mask: the padding before a value */
	unsigned natural;	/* natural alignment, before the trace's cap */
	/* string, sequence: (-end) & tail_mask is the padding after the
	 * value, which realigns the payload on the pointer size (the seeds'
	 * rule, docs/format.md "Alignment"); it is part of the value's
	 * size. 0 for every other node. */
	unsigned tail_mask;
	/* array, sequence of <uchar/>: its bytes are text (a name, a path:
	 * the era's fs.exec filename), shown as one quoted string and given
	 * to readers as ltt_value.str (docs/format.md, "Text") */
	bool text;
	int64_t fixed;		/* the bytes it takes, or -1: its payload says */
	uint64_t count;		/* array: elements; struct, union: members */
	const ltt_node *elem;		/* array, sequence */
	const ltt_member *members;	/* struct, union */
	/* enum: the first label of each value: by value below num_small,
	 * else searched in values (sorted) */
	const char *const *small;
	unsigned num_small, num_values;
	const ltt_enum_value *values;
};

/* the padding after a value of node n that ends at payload offset end */
static inline size_t ltt_node_tail(const ltt_node *n, size_t end)
{
	return ((size_t)-end) & n->tail_mask;
}

typedef struct ltt_event_type {
	const ltt_event_desc *desc;
	const struct ltt_facility *facility;
	unsigned id;
	unsigned num_fields;
	const ltt_member *fields;	/* compiled, num_fields of them */
	/* offset of each top-level field when every field before it has a
	 * fixed size, else -1 from that field on */
	int *fixed_offset;
	unsigned var_from;	/* the last field of fixed offset (0: none) */
	GHashTable *index_by_name;	/* name -> index + 1 */
	bool is_buffer_stats;		/* channel.buffer_stats */
	/* the event_size its events must have when the description says
	 * it alone (every field of fixed size); UINT32_MAX when it must be
	 * computed from the payload */
	uint32_t expect_size;
	/* the top-level field whose numbers have names (a system call, a
	 * trap, an IRQ; names.c), -1 if none; names[value] or NULL, or no
	 * table when the field is an enum (its labels are the names) */
	int named_field;
	const char *const *names;
	unsigned num_names;
	/* non-NULL: the names are this trace's IRQ names, read from its
	 * state dump when first asked for (ltt_trace_irq_names()) */
	ltt_trace *irq_names_of;
} ltt_event_type;

struct ltt_facility {
	char *name;
	uint32_t checksum;
	unsigned id;
	ltt_sizes sizes;
	const ltt_description *desc;	/* NULL: no description found */
	ltt_event_type *event_types;	/* desc->events->len of them */
	unsigned num_event_types;
	/* event id (a byte) -> &event_types[id], NULL past the last: the
	 * per-event lookup without a bounds check */
	const ltt_event_type *by_id[256];
	char *display_name;		/* name, or "facility_<id>" */
	int64_t load_ns;		/* when it was loaded */
	GPtrArray *compiled;		/* what the nodes hold, for freeing */
};

/* Scalar size of a basic type with these sizes (0 for compound). */
LTT_HIDDEN unsigned ltt_layout_scalar_size(const ltt_sizes *s, const ltt_type *t);
/* Size in bytes of a value at offset off in payload p (of len bytes); -1
 * if malformed / past the end. */
LTT_HIDDEN int64_t ltt_node_size(const ltt_node *n, const uint8_t *p, size_t len,
				 size_t off);
/* The label of an enum's value, or NULL. */
LTT_HIDDEN const char *ltt_node_label(const ltt_node *n, uint64_t v);

/* Decodes the scalar (or compound header) at off into *v: 0, or -1 if
 * the payload is too short. Inline: the walker of every event's fields
 * calls it for each value. */
static inline __attribute__((always_inline))
int ltt_node_value(const ltt_node *n, const uint8_t *p,
				 size_t len, size_t off, ltt_value *v)
{
	uint64_t raw;

	v->str = NULL;
	v->label = NULL;
	v->size = n->size;
	switch (n->op) {
	case LTT_OP_STRING: {
		const void *nul = off < len ? memchr(p + off, 0, len - off) : NULL;

		if (!nul)
			return -1;
		v->kind = LTT_KIND_STRING;
		v->str = (const char *)p + off;
		v->size = (unsigned)((const uint8_t *)nul - (p + off)) + 1;
		v->u = 0;
		return 0;
	}
	case LTT_OP_ARRAY:
		v->kind = LTT_KIND_ARRAY;
		v->size = 0;
		v->u = n->count;
		/* bytes of text: readers get them without a walk */
		if (n->text && off <= len && n->count <= len - off)
			v->str = (const char *)p + off;
		return 0;
	case LTT_OP_STRUCT:
	case LTT_OP_UNION:
		v->kind = n->op == LTT_OP_STRUCT ? LTT_KIND_STRUCT : LTT_KIND_UNION;
		v->size = 0;
		v->u = n->count;
		return 0;
	default:
		break;
	}
	if (off > len || n->size > len - off)
		return -1;
	switch (n->size) {
	case 1: raw = p[off]; break;
	case 2: { uint16_t x; memcpy(&x, p + off, 2); raw = x; break; }
	case 4: { uint32_t x; memcpy(&x, p + off, 4); raw = x; break; }
	case 8: memcpy(&raw, p + off, 8); break;
	default: return -1;
	}
	switch (n->op) {
	case LTT_OP_INT: {
		unsigned shift = 64 - n->size * 8;

		v->kind = LTT_KIND_INT;
		v->i = (int64_t)(raw << shift) >> shift;
		return 0;
	}
	case LTT_OP_POINTER:
		v->kind = LTT_KIND_POINTER;
		v->u = raw;
		return 0;
	case LTT_OP_ENUM:
		v->kind = LTT_KIND_ENUM;
		v->u = raw;
		v->label = raw < n->num_small ? n->small[raw] : ltt_node_label(n, raw);
		return 0;
	case LTT_OP_FLOAT:	/* (FPA doubles: ltt_value_fpa(), event.c) */
		v->kind = LTT_KIND_FLOAT;
		if (n->size == 4) {
			float f;
			uint32_t r32 = (uint32_t)raw;

			memcpy(&f, &r32, 4);
			v->f = f;
		} else {
			memcpy(&v->f, &raw, 8);
		}
		return 0;
	case LTT_OP_SEQUENCE:
		v->kind = LTT_KIND_SEQUENCE;
		v->u = raw;
		/* text: the bytes follow the length (1-byte elements, no
		 * padding); NULL when they run past the payload */
		if (n->text && raw <= len - off - n->size)
			v->str = (const char *)p + off + n->size;
		return 0;
	default:
		v->kind = LTT_KIND_UINT;
		v->u = raw;
		return 0;
	}
}

LTT_HIDDEN ltt_facility *ltt_facility_new(const char *name, uint32_t checksum,
					  unsigned id, const ltt_sizes *sizes,
					  const ltt_description *desc,
					  ltt_error **err);
LTT_HIDDEN void ltt_facility_free(ltt_facility *fac);
/* Offset of top-level field `index` within the payload, or -1. */
LTT_HIDDEN int64_t ltt_event_type_field_offset(const ltt_event_type *et,
					       unsigned index, const uint8_t *p,
					       size_t len);
/* Total payload size computed from the description, or -1. */
LTT_HIDDEN int64_t ltt_event_type_payload_size(const ltt_event_type *et,
					       const uint8_t *p, size_t len);

/* ---- tracefile.c ---- */
typedef struct ltt_block {
	uint64_t begin_cycles, end_cycles;
	uint32_t data_end;	/* buf_size - lost_size */
} ltt_block;

/* Problems met while reading a tracefile, each warned about once. */
enum {
	LTT_SEEN_OUTSIDE_BLOCK = 1 << 0,	/* time outside [begin, end] */
	LTT_SEEN_BACKWARDS = 1 << 1,		/* time before the previous event's */
	LTT_SEEN_TOO_BIG = 1 << 2,		/* event_size > the description's */
	LTT_SEEN_TOO_SMALL = 1 << 3,		/* event_size < the description's */
	LTT_SEEN_NEVER_LOADED = 1 << 4,		/* facility id never loaded */
	LTT_SEEN_UNKNOWN_EVENT = 1 << 5,	/* event id past the description */
};

struct ltt_tracefile {
	ltt_trace *trace;
	struct ctf_stream *ctf;	/* a CTF stream file (ctf-trace.c), else NULL */
	unsigned index;		/* in trace->tracefiles */
	char *name;		/* "cpu", "control/facilities" */
	char *relpath;		/* "cpu_0" */
	unsigned cpu;
	bool is_facilities;
	int fd;			/* read with pread, block by block; -1: empty */
	uint64_t file_size;	/* when opened */
	uint64_t dev, ino;	/* the file: an output must not be it */
	uint32_t subbuf_size;
	unsigned num_blocks;
	ltt_block *blocks;
	/* from channel.buffer_stats, read at open: ltt_tracefile_read_facts() */
	uint64_t events_lost, corrupted;
	unsigned seen;		/* LTT_SEEN_*: warned about already */
	/* a reader's (ltt_reader_new): its warnings, kept until it ends,
	 * so that the trace's come in tracefile order whatever the threads
	 * did; NULL: straight to the trace's */
	GPtrArray *held_warnings;
};

struct ltt_event {
	ltt_trace *trace;
	ltt_tracefile *tf;
	uint64_t cycles;
	int64_t time_ns;
	unsigned fac_id, ev_id;
	const uint8_t *payload;
	size_t size;
	uint64_t file_offset;
	const ltt_facility *fac;	/* NULL: id never loaded */
	const ltt_event_type *type;	/* NULL: unknown */
};

/*
 * A read position in one tracefile. The block being read is copied into
 * buf: a tracefile is never mapped, so that a file cut or rewritten while
 * it is read (another tool, a live trace) is an error, never a SIGBUS.
 * Events point into buf until the cursor leaves the block.
 */
typedef struct ltt_cursor {
	ltt_tracefile *tf;
	unsigned block;
	uint32_t offset;	/* within the block */
	uint32_t data_end;	/* of what is read of the block; 0 before */
	const uint8_t *base;	/* the block's first byte: buf */
	uint64_t base_offset;	/* the block's offset in the file */
	uint64_t last_cycles;
	uint64_t end_cycles;	/* of the block: no event after it */
	bool at_end;
	bool loaded;		/* buf holds the block (or its start) */
	bool full;		/* ... all of it: data_end is the block's */
	bool peek;		/* read only the start of the next block */
	bool facility_scan;	/* at the open: facilities not known yet */
	bool quiet;		/* warns of nothing it meets: names.c's scans,
				 * which run in whichever thread first asks,
				 * beside that file's own readers */
	uint8_t *buf;		/* subbuf_size bytes, allocated on first use */
	uint32_t buf_ready;	/* its first bytes whose pages are in memory */
	ltt_event ev;		/* the current event, once read */
	struct ctf_cursor *ctf;	/* a CTF stream's decoder (ctf-trace.c) */
	/* where the next event is written: &ev, or a reader's batch slot
	 * (reader.c), which then needs no copy */
	ltt_event *out;
} ltt_cursor;

LTT_HIDDEN int ltt_tracefile_open(ltt_trace *trace, const char *relpath,
				  ltt_tracefile *tf, ltt_error **err);
LTT_HIDDEN void ltt_tracefile_close(ltt_tracefile *tf);
LTT_HIDDEN void ltt_cursor_init(ltt_cursor *c, ltt_tracefile *tf);
/* Frees the cursor's block buffer. */
LTT_HIDDEN void ltt_cursor_fini(ltt_cursor *c);
LTT_HIDDEN void ltt_cursor_seek_block(ltt_cursor *c, unsigned block);
/* ltt_cursor_next(), the per-event read, is inline in cursor.h; these
 * are its unusual cases. */
LTT_HIDDEN int ltt_cursor_next_block(ltt_cursor *c, ltt_error **err);
LTT_HIDDEN int ltt_cursor_read_more(ltt_cursor *c, size_t upto, ltt_error **err);
LTT_HIDDEN int ltt_cursor_bad_header(ltt_cursor *c, size_t off,
				     ltt_error **err);
/* Read at open, in one pass: the loss counters, and the first and last
 * event times (0, or -1 when the file has no readable event). */
LTT_HIDDEN int ltt_tracefile_read_facts(ltt_tracefile *tf, int64_t *first,
				       int64_t *last);
LTT_HIDDEN int ltt_cursor_finish_unusual(ltt_cursor *c, size_t off,
					 unsigned size, uint64_t ts,
					 ltt_error **err);

/* ---- trace.c ---- */
#define LTT_SPARE_BUFS 4
struct ltt_trace {
	char *path;
	struct ctf_trace *ctf;	/* a CTF trace's metadata (ctf-trace.c), else NULL */
	ltt_trace_info info;
	/* float_word_order 4321 (ARM's FPA): a double's two 32-bit words
	 * high first, each little endian; swapped back when decoded */
	bool fpa_doubles;
	ltt_sizes header_sizes;		/* for core: int 4, others arch_size */
	GPtrArray *tracefiles;		/* ltt_tracefile* */
	GPtrArray *warnings;		/* char*, added under warn_lock */
	bool live;			/* ltt_open_options.live */
	GPtrArray *left_out;		/* char*: tracefiles not read (live) */
	GMutex warn_lock;		/* readers of tracefiles run in threads */
	/* sub-buffer buffers that cursors gave back (tracefile.c), for the
	 * next cursor: pages already in memory, where a new buffer's first
	 * touch costs a page fault per 4 KiB. Under buf_lock. */
	struct {
		uint8_t *buf;
		uint32_t size, ready;	/* ready: as the cursor's buf_ready */
	} spare_bufs[LTT_SPARE_BUFS];
	GMutex buf_lock;
	/* facility id -> GPtrArray of ltt_facility* in load order */
	GPtrArray *facilities[LTT_MAX_FACILITIES];
	GPtrArray *all_facilities;	/* for freeing */
	char *const *unknown_names;		/* "facility_<id>", shared */
	char *const *unknown_event_names;	/* "event_<id>", shared */
	/* description search */
	GPtrArray *search_dirs;		/* char*, in order */
	GPtrArray *descriptions;	/* ltt_description* found, in search order */
	GPtrArray *own_descriptions;	/* those of eventdefs/: owned */
	GHashTable *dirs_loaded;	/* dir -> 1 */
	uint64_t freq_hz;
	/* 10^9 * 2^64 / freq_hz, rounded down, in two 64-bit halves: the
	 * high one is 0 for clocks faster than 1 GHz, so that the common
	 * conversion is one 64 x 64 -> 128 multiplication */
	uint64_t ns_mult_hi, ns_mult_lo;
	uint64_t ns_mult_limit;		/* largest d with d * ns_mult < 2^128 */
	/* the event header, from the trace header: its size and the masks
	 * that align it and the payload after it (0: packed) */
	unsigned event_header_size;
	unsigned header_align_mask, payload_align_mask;
	/* the facility of each id when it was loaded only once: the common
	 * case, looked up without a search for every event */
	const ltt_facility *single_load[LTT_MAX_FACILITIES];
	/* IRQ number -> handler name from the state dump (names.c), read
	 * once, when a tool first asks (irq_names_read: g_once) */
	char **irq_names;
	unsigned num_irq_names;
	gsize irq_names_read;
};

/* ---- names.c: names of the numbers in kernel events ---- */
/* Attach the tables of names to the trace's event types (the IRQ names
 * to be read at their first use). */
LTT_HIDDEN void ltt_trace_name_values(ltt_trace *t);
/* The trace's IRQ names, read from its state dump at the first call, in
 * whichever thread makes it (the others wait for it). */
LTT_HIDDEN void ltt_trace_irq_names(ltt_trace *t, const char *const **names,
				    unsigned *n);
/* The name of the value of top-level field `index` of an event type, or NULL. */
static inline const char *ltt_value_name(const ltt_event_type *et, int index,
					 const ltt_value *v)
{
	const char *const *names = et->names;
	unsigned n = et->num_names;

	if (index != et->named_field)
		return NULL;
	if (v->kind == LTT_KIND_ENUM)	/* kernel_arch's syscall_name */
		return v->label;
	if (v->kind != LTT_KIND_UINT && v->kind != LTT_KIND_INT)
		return NULL;
	if (__builtin_expect(et->irq_names_of != NULL, 0))
		ltt_trace_irq_names(et->irq_names_of, &names, &n);
	if (v->u >= n)
		return NULL;
	return names[v->u];
}

/* A named number is shown as one ("257 [openat]"), whether its name
 * comes from a table or from its enum: an enum's value becomes a uint. */
static inline void ltt_value_named(const ltt_event_type *et, int index, ltt_value *v)
{
	const char *name;

	if (index != et->named_field || !(name = ltt_value_name(et, index, v)))
		return;
	v->label = name;
	if (v->kind == LTT_KIND_ENUM)
		v->kind = LTT_KIND_UINT;
}

LTT_HIDDEN void ltt_trace_add_facility(ltt_trace *t, ltt_facility *fac);
LTT_HIDDEN const ltt_facility *ltt_trace_facility_search(const ltt_trace *t,
							 unsigned id, int64_t ns);

/* The facility that id stands for at time ns. Inline: it runs for every
 * event, and a facility is nearly always loaded once. */
static inline const ltt_facility *ltt_trace_facility_at(const ltt_trace *t,
							unsigned id, int64_t ns)
{
	if (id < LTT_MAX_FACILITIES && t->single_load[id])
		return t->single_load[id];
	return ltt_trace_facility_search(t, id, ns);
}

/* floor(d * 10^9 / freq_hz), saturated; see trace.c. */
LTT_HIDDEN uint64_t ltt_cycles_to_ns_slow(const ltt_trace *t, uint64_t d);
#define LTT_NS_SATURATE ((uint64_t)INT64_MAX / 4)

/*
 * The same, inline for the per-event path: multiply by the precomputed
 * reciprocal. It is rounded down and d < 2^64, so the quotient q falls at
 * most one short; the remainder d * 10^9 - q * f is then below 2 f
 * (< 2^45), so it can be computed modulo 2^64, and q takes the missing
 * one when the remainder reaches f. Exact: never a rounding that differs
 * from the division.
 */
static inline uint64_t ltt_cycles_to_ns_abs(const ltt_trace *t, uint64_t d)
{
	uint64_t q;

	if (__builtin_expect(d > t->ns_mult_limit, 0))
		return ltt_cycles_to_ns_slow(t, d);
	q = d * t->ns_mult_hi +
	    (uint64_t)(((unsigned __int128)d * t->ns_mult_lo) >> 64);
	if (d * 1000000000U - q * t->freq_hz >= t->freq_hz)
		q++;
	return q > LTT_NS_SATURATE ? LTT_NS_SATURATE : q;
}

static inline int64_t ltt_cycles_to_ns_inline(const ltt_trace *t, uint64_t cycles)
{
	if (__builtin_expect(cycles >= t->info.start_tsc, 1))
		return t->info.start_time_ns +
		       (int64_t)ltt_cycles_to_ns_abs(t, cycles - t->info.start_tsc);
	return t->info.start_time_ns -
	       (int64_t)ltt_cycles_to_ns_abs(t, t->info.start_tsc - cycles);
}
LTT_HIDDEN void ltt_trace_warn(ltt_trace *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Adds msg (owned) unless the trace has it already; any thread. */
LTT_HIDDEN void ltt_trace_add_warning(ltt_trace *t, char *msg);

#endif
