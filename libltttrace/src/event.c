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

static int event_field(const ltt_event *ev, int index, ltt_value *out)
{
	int64_t off;

	memset(out, 0, sizeof(*out));
	if (!ev->type || index < 0 || (unsigned)index >= ev->type->num_fields)
		return -1;
	off = ltt_event_type_field_offset(ev->type, (unsigned)index,
					  ev->payload, ev->size);
	if (off < 0 ||
	    ltt_layout_value(&ev->type->facility->sizes,
			     ((ltt_field_desc *)ev->type->desc->fields->pdata[index])->type,
			     ev->payload, ev->size, (size_t)off, out) < 0)
		return -1;
	if (index == ev->type->named_field && ltt_value_name(ev->type, index, out))
		out->label = ltt_value_name(ev->type, index, out);
	return 0;
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

typedef struct walker {
	const ltt_sizes *s;
	const uint8_t *p;
	size_t len;
	ltt_field_visitor fn;	/* visit: callback per value */
	void *user;
	GString *path;
	GString *out;		/* format: text */
	unsigned flags;
	int stopped;
	const ltt_event_type *et;	/* top level: its named field */
	int field;			/* the top-level field being walked */
} walker;

/* GString appends without GLib's generic insert path: the fast case is a
 * memcpy into room that is already there. */
static inline void out_add(GString *s, const char *p, size_t n)
{
	if (G_LIKELY(s->len + n < s->allocated_len)) {
		memcpy(s->str + s->len, p, n);
		s->len += n;
		s->str[s->len] = '\0';
	} else {
		g_string_append_len(s, p, (gssize)n);
	}
}

static inline void out_str(GString *s, const char *p)
{
	out_add(s, p, strlen(p));
}

static inline void out_chr(GString *s, char c)
{
	out_add(s, &c, 1);
}

static void append_string(GString *out, const char *s)
{
	out_chr(out, '"');
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		switch (c) {
		case '"': out_str(out, "\\\""); break;
		case '\\': out_str(out, "\\\\"); break;
		case '\n': out_str(out, "\\n"); break;
		case '\t': out_str(out, "\\t"); break;
		case '\r': out_str(out, "\\r"); break;
		default:
			if (c < 0x20 || c == 0x7f)
				g_string_append_printf(out, "\\x%02x", c);
			else
				out_chr(out, (char)c);
		}
	}
	out_chr(out, '"');
}

/* Integers are most of what a dump prints: convert them by hand rather
 * than through printf. */
static void append_uint(GString *out, uint64_t v, unsigned base)
{
	static const char digits[] = "0123456789abcdef";
	char buf[24], *p = buf + sizeof(buf);

	do {
		*--p = digits[v % base];
		v /= base;
	} while (v);
	out_add(out, p, (size_t)(buf + sizeof(buf) - p));
}

static void append_scalar(GString *out, const ltt_value *v)
{
	switch (v->kind) {
	case LTT_KIND_INT:
		if (v->i < 0) {
			out_chr(out, '-');
			append_uint(out, -(uint64_t)v->i, 10);
		} else {
			append_uint(out, (uint64_t)v->i, 10);
		}
		break;
	case LTT_KIND_UINT:
		append_uint(out, v->u, 10);
		if (v->label) {		/* a system call, trap, IRQ: "257 [openat]" */
			out_add(out, " [", 2);
			out_str(out, v->label);
			out_chr(out, ']');
		}
		break;
	case LTT_KIND_POINTER:
		out_add(out, "0x", 2);
		append_uint(out, v->u, 16);
		break;
	case LTT_KIND_ENUM:
		if (v->label)
			out_str(out, v->label);
		else
			append_uint(out, v->u, 10);
		break;
	case LTT_KIND_FLOAT:
		g_string_append_printf(out, "%g", v->f);
		break;
	case LTT_KIND_STRING:
		append_string(out, v->str);
		break;
	default:
		break;
	}
}

/* Text before the i-th member of a struct or event: ", name = ". */
static void begin_member(walker *w, unsigned i, const char *name)
{
	if (!w->out)
		return;
	if (i)
		out_add(w->out, ", ", 2);
	if (w->flags & LTT_FORMAT_NAMES) {
		out_str(w->out, name);
		out_add(w->out, " = ", 3);
	}
}

/* Walks the value of type t at off (aligned by the caller). Returns its
 * size, or -1 if the payload is malformed. */
static int64_t walk(walker *w, const ltt_type *t, size_t off, int depth)
{
	ltt_value v;
	size_t start = off, pathlen = w->path->len;
	const ltt_sizes *s = w->s;

	t = ltt_type_resolve(t);
	if (ltt_layout_value(s, t, w->p, w->len, off, &v) < 0)
		return -1;
	if (depth == 0 && w->field == w->et->named_field && ltt_value_name(w->et, w->field, &v))
		v.label = ltt_value_name(w->et, w->field, &v);
	if (w->fn && !w->stopped && w->fn(w->user, w->path->str, depth, &v))
		w->stopped = 1;

	switch (t->xtype) {
	case X_ARRAY:
	case X_SEQUENCE: {
		unsigned ea = ltt_layout_alignment(s, t->elem);
		uint64_t n = v.u;

		if (t->xtype == X_SEQUENCE)
			off += v.size;
		if (n > w->len)
			return -1;
		if (w->out)
			out_str(w->out, "[ ");
		for (uint64_t i = 0; i < n; i++) {
			int64_t one;

			off += ltt_layout_align(s, off, ea);
			if (w->fn)	/* paths are for visitors only */
				g_string_append_printf(w->path, "[%" PRIu64 "]", i);
			if (w->out && i)
				out_str(w->out, ", ");
			one = walk(w, t->elem, off, depth + 1);
			g_string_truncate(w->path, pathlen);
			if (one < 0)
				return -1;
			off += (size_t)one;
		}
		if (w->out)
			out_str(w->out, n ? " ]" : "]");
		return (int64_t)(off - start);
	}
	case X_STRUCT:
	case X_UNION: {
		int64_t max = 0;

		if (w->out)
			out_str(w->out, "{ ");
		for (guint i = 0; i < t->fields->len; i++) {
			const ltt_field_desc *fd = t->fields->pdata[i];
			int64_t one;
			size_t at = off;

			if (t->xtype == X_STRUCT)
				at += ltt_layout_align(s, off, ltt_layout_alignment(s, fd->type));
			else
				at = start;
			if (w->fn) {
				if (pathlen)
					g_string_append_c(w->path, '.');
				g_string_append(w->path, fd->name);
			}
			begin_member(w, i, fd->name);
			one = walk(w, fd->type, at, depth + 1);
			g_string_truncate(w->path, pathlen);
			if (one < 0)
				return -1;
			if (t->xtype == X_STRUCT)
				off = at + (size_t)one;
			else if (one > max)
				max = one;
		}
		if (w->out)
			out_str(w->out, t->fields->len ? " }" : "}");
		return t->xtype == X_STRUCT ? (int64_t)(off - start) : max;
	}
	default:
		if (w->out)
			append_scalar(w->out, &v);
		return v.size;
	}
}

/* Walks the top-level fields of an event. */
static int walk_event(walker *w, const ltt_event *ev)
{
	const ltt_event_type *et = ev->type;
	size_t off = 0;

	w->s = &et->facility->sizes;
	w->p = ev->payload;
	w->len = ev->size;
	w->et = et;
	for (unsigned i = 0; i < et->num_fields && !w->stopped; i++) {
		const ltt_field_desc *fd = et->desc->fields->pdata[i];
		int64_t one;

		off += ltt_layout_align(w->s, off, ltt_layout_alignment(w->s, fd->type));
		if (w->fn)
			g_string_assign(w->path, fd->name);
		begin_member(w, i, fd->name);
		w->field = (int)i;
		one = walk(w, fd->type, off, 0);
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
	ret = walk_event(&w, ev);
	g_string_free(w.path, TRUE);
	return ret;
}

size_t ltt_event_format_fields(const ltt_event *ev, unsigned flags,
			       char *buf, size_t size)
{
	static __thread GString *out_buf, *path_buf;
	walker w = { .flags = flags };
	size_t need;

	if (!out_buf) {
		out_buf = g_string_sized_new(256);
		path_buf = g_string_sized_new(64);
	}
	w.out = g_string_truncate(out_buf, 0);
	w.path = g_string_truncate(path_buf, 0);
	if (!ev->type) {
		if (ev->fac)
			g_string_append_printf(w.out, "<no description of %s 0x%08X: "
					       "%zu bytes>", ev->fac->name,
					       ev->fac->checksum, ev->size);
		else
			g_string_append_printf(w.out, "<facility id %u never loaded: "
					       "%zu bytes>", ev->fac_id, ev->size);
	} else if (walk_event(&w, ev) < 0) {
		g_string_append_printf(w.out, "%s<malformed payload: %zu bytes>",
				       w.out->len ? " " : "", ev->size);
	}
	need = w.out->len;
	if (size) {
		size_t n = need < size - 1 ? need : size - 1;

		memcpy(buf, w.out->str, n);
		buf[n] = '\0';
	}
	return need;
}
