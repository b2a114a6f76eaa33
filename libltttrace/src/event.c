/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * event.c - what a tool can ask of an event: its time, its names, its
 * fields as values, as text, or visited one by one.
 *
 * One recursive walker serves both the visitor and the text formatter, so
 * that the two can never disagree about where a field lies.
 */
#include <inttypes.h>
#include <string.h>

#include "internal.h"
#include "numfmt.h"
#include "safe-text.h"

int64_t ltt_event_time_ns(const ltt_event *ev) { return ev->time_ns; }
uint64_t ltt_event_cycles(const ltt_event *ev) { return ev->cycles; }
const ltt_trace *ltt_event_trace(const ltt_event *ev) { return ev->trace; }
const ltt_tracefile *ltt_event_tracefile(const ltt_event *ev) { return ev->tf; }
unsigned ltt_event_cpu(const ltt_event *ev) { return ev->tf->cpu; }
unsigned ltt_event_facility_id(const ltt_event *ev) { return ev->fac_id; }
unsigned ltt_event_id(const ltt_event *ev) { return ev->ev_id; }
uint64_t ltt_event_file_offset(const ltt_event *ev) { return ev->file_offset; }
int ltt_event_is_known(const ltt_event *ev) { return ev->type != NULL; }
const ltt_facility *ltt_event_facility(const ltt_event *ev) { return ev->fac; }

const char *ltt_event_facility_name(const ltt_event *ev)
{
	return ev->fac ? ev->fac->display_name : ev->trace->unknown_names[ev->fac_id];
}

const char *ltt_event_name(const ltt_event *ev)
{
	return ev->type ? ev->type->desc->name : ev->trace->unknown_event_names[ev->ev_id];
}

const void *ltt_event_payload(const ltt_event *ev, size_t *size)
{
	if (size)
		*size = ev->size;
	return ev->payload;
}

int ltt_event_num_fields(const ltt_event *ev)
{
	return ev->type ? (int)ev->type->num_fields : 0;
}

const char *ltt_event_field_name(const ltt_event *ev, int index)
{
	if (!ev->type || index < 0 || (unsigned)index >= ev->type->num_fields)
		return NULL;
	return ((ltt_field_desc *)ev->type->desc->fields->pdata[index])->name;
}

int ltt_event_field_index(const ltt_event *ev, const char *name)
{
	gpointer v;

	if (!ev->type)
		return -1;
	v = g_hash_table_lookup(ev->type->index_by_name, name);
	return v ? GPOINTER_TO_INT(v) - 1 : -1;
}

/* A double of a trace whose float_word_order is 4321 (ARM's FPA): its
 * two words were read in the wrong order: swapped back. */
static inline void ltt_value_fpa(const ltt_trace *t, const ltt_node *n, ltt_value *v)
{
	if (G_UNLIKELY(t->fpa_doubles) && v->kind == LTT_KIND_FLOAT && n->size == 8) {
		uint64_t raw;

		memcpy(&raw, &v->f, 8);
		raw = (raw << 32) | (raw >> 32);
		memcpy(&v->f, &raw, 8);
	}
}

/*
 * A field where the description puts it is read without a call (the state
 * engine reads two or three fields of nearly every event: this was a third
 * of its time), and *out is cleared only when there is no value to give
 * (ltt_node_value() sets every member of a value it decodes).
 */
static int event_field(const ltt_event *ev, int index, ltt_value *out)
{
	const ltt_event_type *et = ev->type;
	int64_t off;

	if (!et || index < 0 || (unsigned)index >= et->num_fields)
		goto none;
	off = et->fixed_offset[index];
	if (off < 0)
		off = ltt_event_type_field_offset(et, (unsigned)index, ev->payload, ev->size);
	if (off < 0 ||
	    ltt_node_value(et->fields[index].node, ev->payload, ev->size, (size_t)off, out) < 0)
		goto none;
	ltt_value_fpa(ev->trace, et->fields[index].node, out);
	ltt_value_named(et, index, out);
	return 0;
none:
	memset(out, 0, sizeof(*out));
	return -1;
}

int ltt_event_field_sized(const ltt_event *ev, int index, ltt_value *out,
			  size_t size)
{
	ltt_value v;
	int r;

	if (__builtin_expect(size == sizeof(v), 1))
		return event_field(ev, index, out);
	r = event_field(ev, index, &v);
	if (ltt_sized_out(out, size, &v, sizeof(v), LTT_END_OF(ltt_value, label)) < 0)
		return -1;
	return r;
}

int64_t ltt_event_get_int(const ltt_event *ev, const char *name, int64_t dflt)
{
	ltt_value v;

	if (ltt_event_field(ev, ltt_event_field_index(ev, name), &v) < 0)
		return dflt;
	switch (v.kind) {
	case LTT_KIND_INT: return v.i;
	case LTT_KIND_UINT: case LTT_KIND_POINTER: case LTT_KIND_ENUM:
		return (int64_t)v.u;
	default: return dflt;
	}
}

uint64_t ltt_event_get_uint(const ltt_event *ev, const char *name, uint64_t dflt)
{
	ltt_value v;

	if (ltt_event_field(ev, ltt_event_field_index(ev, name), &v) < 0)
		return dflt;
	switch (v.kind) {
	case LTT_KIND_INT: return (uint64_t)v.i;
	case LTT_KIND_UINT: case LTT_KIND_POINTER: case LTT_KIND_ENUM:
		return v.u;
	default: return dflt;
	}
}

const char *ltt_event_get_string(const ltt_event *ev, const char *name)
{
	ltt_value v;

	if (ltt_event_field(ev, ltt_event_field_index(ev, name), &v) < 0 ||
	    v.kind != LTT_KIND_STRING)
		return NULL;
	return v.str;
}

/* ---- the walker ---- */

/*
 * Text goes straight into the caller's buffer; what does not fit is
 * counted, so that the caller learns the length it needed.
 */
typedef struct out {
	char *p, *end;		/* end: the last byte, kept for the NUL */
	size_t over;		/* bytes that did not fit */
} out;

/* What does not fit: the part that does, cut between characters (the
 * text is UTF-8: a GUI cannot draw half a character), then no more. */
static void out_spill(out *o, const char *s, size_t n)
{
	size_t room = (size_t)(o->end - o->p), take = room;

	while (take && ((unsigned char)s[take] & 0xc0) == 0x80)
		take--;
	memcpy(o->p, s, take);
	o->p += take;
	o->over += n - take;
	o->end = o->p;
}

static inline void out_add(out *o, const char *s, size_t n)
{
	if (G_LIKELY((size_t)(o->end - o->p) >= n)) {
		memcpy(o->p, s, n);
		o->p += n;
	} else {
		out_spill(o, s, n);
	}
}

static inline void out_str(out *o, const char *s)
{
	out_add(o, s, strlen(s));
}

/* A number converted by fmt: in place when there is room for the
 * longest, else through a copy. */
#define OUT_NUM(o, fmt, v) do {						\
	if (G_LIKELY((o)->end - (o)->p >= LTT_NUMFMT_MAX)) {		\
		(o)->p += fmt((o)->p, (v));				\
	} else {							\
		char tmp_[LTT_NUMFMT_MAX];				\
		out_add((o), tmp_, fmt(tmp_, (v)));			\
	}								\
} while (0)

/* The n bytes of s as the one rule shows them (safe-text.c): runs that
 * need nothing are copied at once. */
static void append_escaped(out *o, const char *s, size_t n)
{
	while (n) {
		size_t k = ltt_safe_prefix(s, n, 0), used;
		char unit[LTT_SAFE_UNIT_MAX];

		if (k) {
			out_add(o, s, k);
			used = k;
		} else {
			out_add(o, unit, ltt_safe_escape_unit(s, n, unit, &used));
		}
		s += used;
		n -= used;
	}
}

static inline void out_safe(out *o, const char *s)
{
	append_escaped(o, s, strlen(s));
}

/* A string, or text (an array or sequence of <uchar/>, any bytes, NULs
 * included): its n bytes in double quotes, escaped. */
static void append_string(out *o, const char *s, size_t n)
{
	out_add(o, "\"", 1);
	append_escaped(o, s, n);
	out_add(o, "\"", 1);
}

static void append_scalar(out *o, const ltt_value *v)
{
	switch (v->kind) {
	case LTT_KIND_INT:
		OUT_NUM(o, ltt_fmt_i64, v->i);
		break;
	case LTT_KIND_UINT:
		OUT_NUM(o, ltt_fmt_u64, v->u);
		if (v->label) {		/* a system call, trap, IRQ: "257 [openat]" */
			out_add(o, " [", 2);
			out_safe(o, v->label);
			out_add(o, "]", 1);
		}
		break;
	case LTT_KIND_POINTER:
		out_add(o, "0x", 2);
		OUT_NUM(o, ltt_fmt_hex, v->u);
		break;
	case LTT_KIND_ENUM:
		if (v->label)
			out_safe(o, v->label);
		else
			OUT_NUM(o, ltt_fmt_u64, v->u);
		break;
	case LTT_KIND_FLOAT:
		OUT_NUM(o, ltt_fmt_g, v->f);
		break;
	case LTT_KIND_STRING:	/* its size counts the NUL */
		append_string(o, v->str, v->size - 1);
		break;
	default:
		break;
	}
}

typedef struct walker {
	const uint8_t *p;
	size_t len;
	ltt_field_visitor fn;	/* visit: callback per value */
	void *user;
	GString *path;		/* visit: the value's name */
	out *out;		/* format: text */
	unsigned flags;
	int stopped;
	const ltt_event_type *et;	/* top level: its named field */
	int field;			/* the top-level field being walked */
	const ltt_trace *trace;		/* its float_word_order */
} walker;

/* Text before the i-th member of a struct or event: ", name = ". */
static inline void begin_member(walker *w, uint64_t i, const char *name)
{
	if (i)
		out_add(w->out, ", ", 2);
	if (w->flags & LTT_FORMAT_NAMES) {
		out_safe(w->out, name);
		out_add(w->out, " = ", 3);
	}
}

static int64_t walk_text(walker *w, const ltt_node *n, size_t off, int depth);
static int64_t walk_visit(walker *w, const ltt_node *n, size_t off, int depth);

/*
 * Walks the value of node n at off (aligned by the caller), visiting it
 * (calling w->fn for it and each value inside it) or printing it (into
 * w->out). Returns its size, or -1 if the payload is malformed. One walk
 * for both, so that they never disagree about where a value lies; the
 * compiler makes one function of each (walk_text, walk_visit), so that
 * neither pays for the other's tests.
 */
static inline __attribute__((always_inline))
int64_t walk(walker *w, const ltt_node *n, size_t off, int depth, const bool visit)
{
	ltt_value v;
	size_t start = off, pathlen = visit ? w->path->len : 0;

	if (ltt_node_value(n, w->p, w->len, off, &v) < 0)
		return -1;
	ltt_value_fpa(w->trace, n, &v);
	if (depth == 0)
		ltt_value_named(w->et, w->field, &v);
	if (visit && !w->stopped && w->fn(w->user, w->path->str, depth, &v))
		w->stopped = 1;

	switch (n->op) {
	case LTT_OP_ARRAY:
	case LTT_OP_SEQUENCE: {
		const ltt_node *e = n->elem;
		uint64_t count = v.u;

		off += v.size;		/* a sequence's length */
		if (count > w->len)
			return -1;
		if (!visit && v.str) {
			/* text (<uchar/> elements): one quoted string, as
			 * the era's names and paths read (docs/format.md) */
			append_string(w->out, v.str, (size_t)count);
			off += (size_t)count;
			off += ltt_node_tail(n, off);
			if (off > w->len)
				return -1;
			return (int64_t)(off - start);
		}
		if (!visit)
			out_add(w->out, "[ ", 2);
		for (uint64_t i = 0; i < count; i++) {
			int64_t one;

			off += ((size_t)-off) & e->pad_mask;
			if (visit) {
				g_string_append_printf(w->path, "[%" PRIu64 "]", i);
				one = walk_visit(w, e, off, depth + 1);
				g_string_truncate(w->path, pathlen);
			} else {
				if (i)
					out_add(w->out, ", ", 2);
				one = walk_text(w, e, off, depth + 1);
			}
			if (one < 0)
				return -1;
			off += (size_t)one;
		}
		if (!visit)
			out_add(w->out, count ? " ]" : "]", count ? 2 : 1);
		off += ltt_node_tail(n, off);	/* a sequence's realignment */
		if (off > w->len)
			return -1;
		return (int64_t)(off - start);
	}
	case LTT_OP_STRUCT:
	case LTT_OP_UNION: {
		int64_t max = 0;
		bool is_struct = n->op == LTT_OP_STRUCT;

		if (!visit)
			out_add(w->out, "{ ", 2);
		for (uint64_t i = 0; i < n->count; i++) {
			const ltt_member *m = &n->members[i];
			int64_t one;
			size_t at = is_struct ? off + (((size_t)-off) & m->node->pad_mask) : start;

			if (visit) {
				if (pathlen)
					g_string_append_c(w->path, '.');
				g_string_append(w->path, m->name);
				one = walk_visit(w, m->node, at, depth + 1);
				g_string_truncate(w->path, pathlen);
			} else {
				begin_member(w, i, m->name);
				one = walk_text(w, m->node, at, depth + 1);
			}
			if (one < 0)
				return -1;
			if (is_struct)
				off = at + (size_t)one;
			else if (one > max)
				max = one;
		}
		if (!visit)
			out_add(w->out, n->count ? " }" : "}", n->count ? 2 : 1);
		return is_struct ? (int64_t)(off - start) : max;
	}
	default:
		if (!visit)
			append_scalar(w->out, &v);
		/* a string's realignment (0 for scalars) */
		if (start + v.size + ltt_node_tail(n, start + v.size) > w->len)
			return -1;
		return v.size + ltt_node_tail(n, start + v.size);
	}
}

static int64_t walk_text(walker *w, const ltt_node *n, size_t off, int depth)
{
	return walk(w, n, off, depth, false);
}

static int64_t walk_visit(walker *w, const ltt_node *n, size_t off, int depth)
{
	return walk(w, n, off, depth, true);
}

/* Walks the top-level fields of an event. */
static inline __attribute__((always_inline))
int walk_event(walker *w, const ltt_event *ev, const bool visit)
{
	const ltt_event_type *et = ev->type;
	size_t off = 0;

	w->p = ev->payload;
	w->len = ev->size;
	w->et = et;
	w->trace = ev->trace;
	for (unsigned i = 0; i < et->num_fields && !w->stopped; i++) {
		const ltt_member *f = &et->fields[i];
		int64_t one;

		off += ((size_t)-off) & f->node->pad_mask;
		w->field = (int)i;
		if (visit) {
			g_string_assign(w->path, f->name);
			one = walk_visit(w, f->node, off, 0);
		} else if (f->node->op <= LTT_OP_STRING) {
			/* a scalar or a string, the common case: printed
			 * here, without a call */
			ltt_value v;

			begin_member(w, i, f->name);
			if (ltt_node_value(f->node, w->p, w->len, off, &v) < 0)
				return -1;
			ltt_value_fpa(w->trace, f->node, &v);
			ltt_value_named(et, (int)i, &v);
			append_scalar(w->out, &v);
			one = v.size + ltt_node_tail(f->node, off + v.size);
			if (off + (size_t)one > w->len)
				return -1;
		} else {
			begin_member(w, i, f->name);
			one = walk_text(w, f->node, off, 0);
		}
		if (one < 0)
			return -1;
		off += (size_t)one;
	}
	return 0;
}

int ltt_event_visit_fields(const ltt_event *ev, ltt_field_visitor fn, void *user)
{
	walker w = { .fn = fn, .user = user };
	int ret;

	if (!ev->type)
		return -1;
	w.path = g_string_new(NULL);
	ret = walk_event(&w, ev, true);
	g_string_free(w.path, TRUE);
	return ret;
}

size_t ltt_event_format_fields(const ltt_event *ev, unsigned flags,
			       char *buf, size_t size)
{
	char none[1];
	out o = size ? (out){ buf, buf + size - 1, 0 } : (out){ none, none, 0 };
	walker w = { .flags = flags, .out = &o };
	char *msg = NULL;

	if (!ev->type) {
		if (ev->fac)
			msg = g_strdup_printf("<no description of %s 0x%08X: %zu bytes>",
					      ltt_text_safe(ev->fac->name), ev->fac->checksum, ev->size);
		else
			msg = g_strdup_printf("<facility id %u never loaded: %zu bytes>",
					      ev->fac_id, ev->size);
	} else if (walk_event(&w, ev, false) < 0) {
		msg = g_strdup_printf("%s<malformed payload: %zu bytes>",
				      o.p > buf || o.over ? " " : "", ev->size);
	}
	if (msg) {
		out_str(&o, msg);
		g_free(msg);
	}
	if (size)
		*o.p = '\0';
	return (size_t)(o.p - (size ? buf : none)) + o.over;
}
