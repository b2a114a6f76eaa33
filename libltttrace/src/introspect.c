/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * introspect.c - the type trees of descriptions, read-only, for exporters.
 * An ltt_field_type is an ltt_type with its typerefs followed.
 */
#include "internal.h"

static const ltt_type *T(const ltt_field_type *t)
{
	return ltt_type_resolve((const ltt_type *)t);
}

static const ltt_field_desc *field_at(const ltt_description *d, unsigned ev,
				      unsigned i)
{
	const ltt_event_desc *e;

	if (ev >= d->events->len)
		return NULL;
	e = d->events->pdata[ev];
	return i < e->fields->len ? e->fields->pdata[i] : NULL;
}

unsigned ltt_description_num_fields(const ltt_description *d, unsigned ev)
{
	return ev < d->events->len ? ((ltt_event_desc *)d->events->pdata[ev])->fields->len : 0;
}

const char *ltt_description_field_name(const ltt_description *d, unsigned ev,
				       unsigned i)
{
	const ltt_field_desc *f = field_at(d, ev, i);

	return f ? f->name : NULL;
}

const ltt_field_type *ltt_description_field_type(const ltt_description *d,
						 unsigned ev, unsigned i)
{
	const ltt_field_desc *f = field_at(d, ev, i);

	return f ? (const ltt_field_type *)ltt_type_resolve(f->type) : NULL;
}

ltt_kind ltt_field_type_kind(const ltt_field_type *type)
{
	switch (T(type)->xtype) {
	case X_INT: case X_INT_FIXED: case X_CHAR: case X_SHORT: case X_LONG:
	case X_SSIZE_T: case X_OFF_T:
		return LTT_KIND_INT;
	case X_UINT: case X_UINT_FIXED: case X_UCHAR: case X_USHORT:
	case X_ULONG: case X_SIZE_T:
		return LTT_KIND_UINT;
	case X_POINTER: return LTT_KIND_POINTER;
	case X_ENUM: return LTT_KIND_ENUM;
	case X_FLOAT: return LTT_KIND_FLOAT;
	case X_STRING: return LTT_KIND_STRING;
	case X_ARRAY: return LTT_KIND_ARRAY;
	case X_SEQUENCE: return LTT_KIND_SEQUENCE;
	case X_STRUCT: return LTT_KIND_STRUCT;
	case X_UNION: return LTT_KIND_UNION;
	default: return LTT_KIND_NONE;
	}
}

unsigned ltt_field_type_length(const ltt_field_type *type)
{
	return T(type)->xtype == X_ARRAY ? T(type)->length : 0;
}

const ltt_field_type *ltt_field_type_element(const ltt_field_type *type)
{
	const ltt_type *t = T(type);

	return t->elem ? (const ltt_field_type *)ltt_type_resolve(t->elem) : NULL;
}

const ltt_field_type *ltt_field_type_length_type(const ltt_field_type *type)
{
	const ltt_type *t = T(type);

	return t->len_type ? (const ltt_field_type *)ltt_type_resolve(t->len_type) : NULL;
}

unsigned ltt_field_type_num_members(const ltt_field_type *type)
{
	const ltt_type *t = T(type);

	return t->fields ? t->fields->len : 0;
}

const char *ltt_field_type_member_name(const ltt_field_type *type, unsigned i)
{
	const ltt_type *t = T(type);

	return t->fields && i < t->fields->len
	       ? ((ltt_field_desc *)t->fields->pdata[i])->name : NULL;
}

const ltt_field_type *ltt_field_type_member(const ltt_field_type *type, unsigned i)
{
	const ltt_type *t = T(type);

	return t->fields && i < t->fields->len
	       ? (const ltt_field_type *)ltt_type_resolve(((ltt_field_desc *)t->fields->pdata[i])->type)
	       : NULL;
}

unsigned ltt_field_type_num_labels(const ltt_field_type *type)
{
	const ltt_type *t = T(type);

	return t->labels ? t->labels->len : 0;
}

const char *ltt_field_type_label(const ltt_field_type *type, unsigned i,
				 int64_t *value)
{
	const ltt_type *t = T(type);
	const ltt_label *l;

	if (!t->labels || i >= t->labels->len)
		return NULL;
	l = t->labels->pdata[i];
	if (value)
		*value = l->value;
	return l->name;
}

unsigned ltt_facility_type_size(const ltt_facility *fac, const ltt_field_type *type)
{
	return ltt_layout_scalar_size(&fac->sizes, T(type));
}

unsigned ltt_field_type_size(const ltt_field_type *type, unsigned int_size,
			     unsigned long_size, unsigned pointer_size,
			     unsigned size_t_size)
{
	ltt_sizes s = {
		.int_size = int_size, .long_size = long_size,
		.pointer_size = pointer_size, .size_t_size = size_t_size,
	};

	return ltt_layout_scalar_size(&s, T(type));
}

const char *ltt_field_type_xml_name(const ltt_field_type *type)
{
	static const char *const names[] = {
		[X_INT] = "int", [X_UINT] = "uint", [X_INT_FIXED] = "int_fixed",
		[X_UINT_FIXED] = "uint_fixed", [X_CHAR] = "char", [X_UCHAR] = "uchar",
		[X_SHORT] = "short", [X_USHORT] = "ushort", [X_LONG] = "long",
		[X_ULONG] = "ulong", [X_POINTER] = "pointer", [X_SIZE_T] = "size_t",
		[X_SSIZE_T] = "ssize_t", [X_OFF_T] = "off_t", [X_FLOAT] = "float",
		[X_STRING] = "string", [X_ENUM] = "enum", [X_ARRAY] = "array",
		[X_SEQUENCE] = "sequence", [X_STRUCT] = "struct", [X_UNION] = "union",
	};
	ltt_xtype x = T(type)->xtype;

	return x < G_N_ELEMENTS(names) && names[x] ? names[x] : "";
}

unsigned ltt_field_type_declared_size(const ltt_field_type *type)
{
	return T(type)->size;
}
