/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * layout.c - where fields lie in a payload, and what they hold.
 *
 * A description says which types an event has; a facility_load says how big
 * `int`, `long`, pointers and `size_t` were for the writer and whether it
 * aligned fields. Together they give the layout (docs/format.md,
 * "Alignment"). Every read is bounds-checked against the payload length:
 * a corrupt trace yields -1, never a read past the mapping.
 */
#include <string.h>

#include "internal.h"

unsigned ltt_layout_scalar_size(const ltt_sizes *s, const ltt_type *t)
{
	switch (t->xtype) {
	case X_INT: case X_UINT: case X_ENUM:
		return t->size ? t->size : s->int_size;
	case X_INT_FIXED: case X_UINT_FIXED:
		return t->size;
	case X_CHAR: case X_UCHAR:
		return 1;
	case X_SHORT: case X_USHORT:
		return 2;
	case X_LONG: case X_ULONG: case X_OFF_T:
		return s->long_size;
	case X_POINTER:
		return s->pointer_size;
	case X_SIZE_T: case X_SSIZE_T:
		return s->size_t_size;
	case X_FLOAT:
		return t->size ? t->size : 8;
	default:
		return 0;
	}
}

/* Natural alignment of a type, before the cap at s->alignment. */
static unsigned natural_alignment(const ltt_sizes *s, const ltt_type *t)
{
	unsigned a = 1, m;

	t = ltt_type_resolve(t);
	switch (t->xtype) {
	case X_STRING:
		return 1;
	case X_ARRAY:
		return natural_alignment(s, t->elem);
	case X_SEQUENCE:
		a = natural_alignment(s, t->len_type);
		m = natural_alignment(s, t->elem);
		return a > m ? a : m;
	case X_STRUCT:
	case X_UNION:
		for (guint i = 0; i < t->fields->len; i++) {
			m = natural_alignment(s, ((ltt_field_desc *)t->fields->pdata[i])->type);
			if (m > a)
				a = m;
		}
		return a;
	default:
		return ltt_layout_scalar_size(s, t);
	}
}

unsigned ltt_layout_alignment(const ltt_sizes *s, const ltt_type *t)
{
	return natural_alignment(s, t);
}

size_t ltt_layout_align(const ltt_sizes *s, size_t off, unsigned n)
{
	unsigned a = s->alignment;

	if (!a || n <= 1)
		return 0;
	if (n < a)
		a = n;
	/* round a down to a power of two (a 12-byte header aligns to 8) */
	while (a & (a - 1))
		a &= a - 1;
	return (a - (off & (a - 1))) & (a - 1);
}

int64_t ltt_layout_fixed_size(const ltt_sizes *s, const ltt_type *t)
{
	int64_t total = 0, m;

	t = ltt_type_resolve(t);
	switch (t->xtype) {
	case X_STRING:
	case X_SEQUENCE:
		return -1;
	case X_ARRAY: {
		int64_t one = ltt_layout_fixed_size(s, t->elem);
		unsigned a = natural_alignment(s, t->elem);

		if (one < 0)
			return -1;
		/* elements are aligned one after the other */
		for (unsigned i = 0; i < t->length; i++)
			total += (int64_t)ltt_layout_align(s, (size_t)total, a) + one;
		return total;
	}
	case X_STRUCT:
		for (guint i = 0; i < t->fields->len; i++) {
			const ltt_type *ft = ((ltt_field_desc *)t->fields->pdata[i])->type;

			m = ltt_layout_fixed_size(s, ft);
			if (m < 0)
				return -1;
			total += (int64_t)ltt_layout_align(s, (size_t)total,
							   natural_alignment(s, ft)) + m;
		}
		return total;
	case X_UNION:
		for (guint i = 0; i < t->fields->len; i++) {
			m = ltt_layout_fixed_size(s, ((ltt_field_desc *)t->fields->pdata[i])->type);
			if (m < 0)
				return -1;
			if (m > total)
				total = m;
		}
		return total;
	default:
		return ltt_layout_scalar_size(s, t);
	}
}

static int read_uint(const uint8_t *p, unsigned size, uint64_t *out)
{
	uint8_t b1;
	uint16_t b2;
	uint32_t b4;
	uint64_t b8;

	switch (size) {
	case 1: memcpy(&b1, p, 1); *out = b1; return 0;
	case 2: memcpy(&b2, p, 2); *out = b2; return 0;
	case 4: memcpy(&b4, p, 4); *out = b4; return 0;
	case 8: memcpy(&b8, p, 8); *out = b8; return 0;
	default: return -1;
	}
}

static int64_t sign_extend(uint64_t v, unsigned size)
{
	if (size >= 8)
		return (int64_t)v;
	unsigned shift = 64 - size * 8;
	return (int64_t)(v << shift) >> shift;
}

/* Size from `start` to the end of n elements of type elem starting at off
 * (arrays and sequences), or -1 past the payload. */
static int64_t elements_size(const ltt_sizes *s, const ltt_type *elem,
			     uint64_t n, const uint8_t *p, size_t len, size_t off,
			     size_t start)
{
	unsigned ea = natural_alignment(s, elem);
	int64_t fixed = ltt_layout_fixed_size(s, elem);

	for (uint64_t i = 0; i < n; i++) {
		int64_t one;

		off += ltt_layout_align(s, off, ea);
		one = fixed >= 0 ? fixed : ltt_layout_size(s, elem, p, len, off);
		if (one < 0 || off + (uint64_t)one > len)
			return -1;
		off += (size_t)one;
	}
	return (int64_t)(off - start);
}

/*
 * Size of the value of type t starting at `off` (already aligned for t).
 * For fixed-size types this needs no payload; strings and sequences read it.
 */
int64_t ltt_layout_size(const ltt_sizes *s, const ltt_type *t,
			const uint8_t *p, size_t len, size_t off)
{
	size_t start = off;

	t = ltt_type_resolve(t);
	switch (t->xtype) {
	case X_STRING: {
		const void *nul;

		if (off >= len)
			return -1;
		nul = memchr(p + off, 0, len - off);
		if (!nul)
			return -1;
		return (const uint8_t *)nul - (p + off) + 1;
	}
	case X_SEQUENCE: {
		unsigned lsize = ltt_layout_scalar_size(s, ltt_type_resolve(t->len_type));
		uint64_t n;

		if (lsize == 0 || off + lsize > len || read_uint(p + off, lsize, &n))
			return -1;
		off += lsize;
		if (n > len)	/* cannot hold more elements than bytes */
			return -1;
		return elements_size(s, t->elem, n, p, len, off, start);
	}
	case X_ARRAY:
		return elements_size(s, t->elem, t->length, p, len, off, start);
	case X_STRUCT:
		for (guint i = 0; i < t->fields->len; i++) {
			const ltt_type *ft = ((ltt_field_desc *)t->fields->pdata[i])->type;
			int64_t one;

			off += ltt_layout_align(s, off, natural_alignment(s, ft));
			one = ltt_layout_size(s, ft, p, len, off);
			if (one < 0 || off + (uint64_t)one > len)
				return -1;
			off += (size_t)one;
		}
		return (int64_t)(off - start);
	case X_UNION: {
		int64_t max = 0;

		for (guint i = 0; i < t->fields->len; i++) {
			int64_t one = ltt_layout_size(s, ((ltt_field_desc *)t->fields->pdata[i])->type,
						      p, len, off);

			if (one < 0)
				return -1;
			if (one > max)
				max = one;
		}
		return max;
	}
	default: {
		unsigned size = ltt_layout_scalar_size(s, t);

		if (size == 0 || off + size > len)
			return -1;
		return size;
	}
	}
}

int ltt_layout_value(const ltt_sizes *s, const ltt_type *t, const uint8_t *p,
		     size_t len, size_t off, ltt_value *v)
{
	uint64_t raw = 0;
	unsigned size;

	memset(v, 0, sizeof(*v));
	t = ltt_type_resolve(t);
	switch (t->xtype) {
	case X_STRING:
		if (off >= len || !memchr(p + off, 0, len - off))
			return -1;
		v->kind = LTT_KIND_STRING;
		v->str = (const char *)p + off;
		v->size = (unsigned)strlen(v->str) + 1;
		return 0;
	case X_ARRAY:
		v->kind = LTT_KIND_ARRAY;
		v->u = t->length;
		return 0;
	case X_SEQUENCE:
		size = ltt_layout_scalar_size(s, ltt_type_resolve(t->len_type));
		if (off + size > len || read_uint(p + off, size, &raw))
			return -1;
		v->kind = LTT_KIND_SEQUENCE;
		v->size = size;
		v->u = raw;
		return 0;
	case X_STRUCT:
		v->kind = LTT_KIND_STRUCT;
		v->u = t->fields->len;
		return 0;
	case X_UNION:
		v->kind = LTT_KIND_UNION;
		v->u = t->fields->len;
		return 0;
	default:
		break;
	}
	size = ltt_layout_scalar_size(s, t);
	if (size == 0 || off + size > len || read_uint(p + off, size, &raw))
		return -1;
	v->size = size;
	switch (t->xtype) {
	case X_INT: case X_INT_FIXED: case X_CHAR: case X_SHORT: case X_LONG:
	case X_SSIZE_T: case X_OFF_T:
		v->kind = LTT_KIND_INT;
		v->i = sign_extend(raw, size);
		return 0;
	case X_POINTER:
		v->kind = LTT_KIND_POINTER;
		v->u = raw;
		return 0;
	case X_ENUM:
		v->kind = LTT_KIND_ENUM;
		v->u = raw;
		for (guint i = 0; i < t->labels->len; i++) {
			const ltt_label *l = t->labels->pdata[i];

			if ((uint64_t)l->value == raw) {
				v->label = l->name;
				break;
			}
		}
		return 0;
	case X_FLOAT:
		v->kind = LTT_KIND_FLOAT;
		if (size == 4) {
			float f;
			uint32_t r32 = (uint32_t)raw;

			memcpy(&f, &r32, 4);
			v->f = f;
		} else {
			memcpy(&v->f, &raw, 8);
		}
		return 0;
	default:
		v->kind = LTT_KIND_UINT;
		v->u = raw;
		return 0;
	}
}

ltt_facility *ltt_facility_new(const char *name, uint32_t checksum,
			       unsigned id, const ltt_sizes *sizes,
			       const ltt_description *desc, ltt_error **err)
{
	ltt_facility *fac = g_new0(ltt_facility, 1);

	fac->name = g_strdup(name);
	fac->checksum = checksum;
	fac->id = id;
	fac->sizes = *sizes;
	fac->desc = desc;
	fac->display_name = g_strdup(name && *name ? name : "facility");
	if (!desc)
		return fac;

	fac->num_event_types = desc->events->len;
	fac->event_types = g_new0(ltt_event_type, fac->num_event_types);
	for (unsigned e = 0; e < fac->num_event_types; e++) {
		ltt_event_type *et = &fac->event_types[e];
		const ltt_event_desc *ed = desc->events->pdata[e];
		int64_t off = 0;

		if (e < G_N_ELEMENTS(fac->by_id))
			fac->by_id[e] = et;
		et->desc = ed;
		et->facility = fac;
		et->id = e;
		et->num_fields = ed->fields->len;
		et->named_field = -1;
		et->is_buffer_stats = strcmp(name, "channel") == 0 &&
				      strcmp(ed->name, "buffer_stats") == 0;
		et->fixed_offset = g_new(int, et->num_fields ? et->num_fields : 1);
		et->index_by_name = g_hash_table_new(g_str_hash, g_str_equal);
		for (unsigned i = 0; i < et->num_fields; i++) {
			const ltt_field_desc *fd = ed->fields->pdata[i];

			g_hash_table_insert(et->index_by_name, fd->name,
					    GUINT_TO_POINTER(i + 1));
			if (off >= 0) {
				off += (int64_t)ltt_layout_align(sizes, (size_t)off,
						natural_alignment(sizes, fd->type));
				et->fixed_offset[i] = (int)off;
				int64_t sz = ltt_layout_fixed_size(sizes, fd->type);
				off = sz < 0 ? -1 : off + sz;
			} else {
				et->fixed_offset[i] = -1;
			}
		}
		/* the size an event of fixed fields has: checked per event by
		 * the reader's fast path; anything else gets a closer look */
		et->expect_size = off >= 0 && off < LTT_EVENT_SIZE_UNKNOWN
				  ? (uint32_t)off : UINT32_MAX;
	}
	return fac;
}

void ltt_facility_free(ltt_facility *fac)
{
	if (!fac)
		return;
	for (unsigned e = 0; e < fac->num_event_types; e++) {
		g_free(fac->event_types[e].fixed_offset);
		if (fac->event_types[e].index_by_name)
			g_hash_table_destroy(fac->event_types[e].index_by_name);
	}
	g_free(fac->event_types);
	g_free(fac->name);
	g_free(fac->display_name);
	g_free(fac);
}

int64_t ltt_event_type_field_offset(const ltt_event_type *et, unsigned index,
				    const uint8_t *p, size_t len)
{
	const ltt_sizes *s = &et->facility->sizes;
	const GPtrArray *fields = et->desc->fields;
	size_t off = 0;
	unsigned i = index;

	if (index >= et->num_fields)
		return -1;
	if (et->fixed_offset[index] >= 0)
		return et->fixed_offset[index];
	/* walk from the last field whose offset is fixed */
	while (i > 0 && et->fixed_offset[i] < 0)
		i--;
	off = (size_t)et->fixed_offset[i];
	for (; i < index; i++) {
		int64_t sz = ltt_layout_size(s, ((ltt_field_desc *)fields->pdata[i])->type,
					     p, len, off);

		if (sz < 0)
			return -1;
		off += (size_t)sz;
		off += ltt_layout_align(s, off,
			natural_alignment(s, ((ltt_field_desc *)fields->pdata[i + 1])->type));
	}
	return (int64_t)off;
}

int64_t ltt_event_type_payload_size(const ltt_event_type *et,
				    const uint8_t *p, size_t len)
{
	int64_t off, sz;
	unsigned last;

	if (et->num_fields == 0)
		return 0;
	last = et->num_fields - 1;
	off = ltt_event_type_field_offset(et, last, p, len);
	if (off < 0)
		return -1;
	sz = ltt_layout_size(&et->facility->sizes,
			     ((ltt_field_desc *)et->desc->fields->pdata[last])->type,
			     p, len, (size_t)off);
	return sz < 0 ? -1 : off + sz;
}
