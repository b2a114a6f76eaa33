/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * description.c - parse facility descriptions (the genevent XML language)
 * with GLib's GMarkup, and compute their checksum.
 *
 * The parser keeps a stack of open elements; each type element attaches
 * itself to the element that contains it (a field, a named type, an array
 * or sequence, an enum's labels). After parsing, typerefs are resolved and
 * every type is checked, so that the decoder never meets an incomplete tree.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"

/* The genevent checksum: CRC-32 with genksyms' table (polynomial 0xEDB88320,
 * reflected). The table is computed once rather than spelled out. */
static uint32_t crc_table[256];

static void crc_init(void)
{
	static gsize done;

	if (g_once_init_enter(&done)) {
		for (uint32_t i = 0; i < 256; i++) {
			uint32_t c = i;

			for (int k = 0; k < 8; k++)
				c = (c & 1) ? (c >> 1) ^ 0xEDB88320U : c >> 1;
			crc_table[i] = c;
		}
		g_once_init_leave(&done, 1);
	}
}

static uint32_t crc_partial(const char *s, uint32_t crc)
{
	for (; *s; s++)
		crc = crc_table[(crc ^ (uint8_t)*s) & 0xff] ^ (crc >> 8);
	return crc;
}

typedef enum frame_kind {
	F_ROOT, F_FACILITY, F_EVENT, F_FIELD, F_NAMED, F_TYPE, F_DESCRIPTION,
	F_LABEL,
} frame_kind;

typedef struct frame {
	frame_kind kind;
	void *obj;		/* ltt_event_desc*, ltt_field_desc*, ltt_type* */
	GString *text;		/* F_DESCRIPTION */
} frame;

typedef struct parser {
	ltt_description *desc;
	GArray *stack;		/* frame */
	bool seen_facility;
	int64_t next_label;
	bool next_label_overflows;	/* the label before was INT64_MAX */
} parser;

static const struct {
	const char *name;
	ltt_xtype xtype;
} type_names[] = {
	{ "int", X_INT }, { "uint", X_UINT },
	{ "int_fixed", X_INT_FIXED }, { "uint_fixed", X_UINT_FIXED },
	{ "char", X_CHAR }, { "uchar", X_UCHAR },
	{ "short", X_SHORT }, { "ushort", X_USHORT },
	{ "long", X_LONG }, { "ulong", X_ULONG },
	{ "pointer", X_POINTER }, { "size_t", X_SIZE_T },
	{ "ssize_t", X_SSIZE_T }, { "off_t", X_OFF_T },
	{ "float", X_FLOAT }, { "string", X_STRING },
	{ "enum", X_ENUM }, { "array", X_ARRAY },
	{ "sequence", X_SEQUENCE }, { "struct", X_STRUCT },
	{ "union", X_UNION }, { "typeref", X_TYPEREF },
};

static ltt_xtype xtype_of(const char *element)
{
	for (size_t i = 0; i < G_N_ELEMENTS(type_names); i++)
		if (strcmp(type_names[i].name, element) == 0)
			return type_names[i].xtype;
	return X_NONE;
}

static frame *top(parser *p)
{
	return &g_array_index(p->stack, frame, p->stack->len - 1);
}

static void fail(GMarkupParseContext *ctx, GError **error, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void fail(GMarkupParseContext *ctx, GError **error, const char *fmt, ...)
{
	va_list ap;
	char *msg;
	int line, col;

	va_start(ap, fmt);
	msg = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	g_markup_parse_context_get_position(ctx, &line, &col);
	g_set_error(error, G_MARKUP_ERROR, G_MARKUP_ERROR_INVALID_CONTENT,
		    "line %d: %s", line, msg);
	g_free(msg);
}

static const char *attr(const char **names, const char **values,
			const char *want)
{
	for (; *names; names++, values++)
		if (strcmp(*names, want) == 0)
			return *values;
	return NULL;
}

/* Parses a non-negative number attribute; -1 if malformed. */
static int64_t number_attr(const char *s)
{
	char *end;
	long long v;

	if (!s || !*s)
		return -1;
	errno = 0;
	v = strtoll(s, &end, 0);
	if (errno || *end || v < 0)
		return -1;
	return v;
}

static bool attach_type(parser *p, ltt_type *t, GMarkupParseContext *ctx,
			GError **error)
{
	frame *f = top(p);
	ltt_field_desc *fd;
	ltt_type *parent;

	switch (f->kind) {
	case F_FIELD:
		fd = f->obj;
		if (fd->type) {
			fail(ctx, error, "field \"%s\" has more than one type", fd->name);
			return false;
		}
		fd->type = t;
		return true;
	case F_NAMED:
		parent = f->obj;
		if (parent->ref) {
			fail(ctx, error, "type \"%s\" has more than one definition", parent->name);
			return false;
		}
		parent->ref = t;
		return true;
	case F_TYPE:
		parent = f->obj;
		if (parent->xtype == X_ARRAY && !parent->elem) {
			parent->elem = t;
			return true;
		}
		if (parent->xtype == X_SEQUENCE) {
			if (!parent->len_type) {
				parent->len_type = t;
				return true;
			}
			if (!parent->elem) {
				parent->elem = t;
				return true;
			}
		}
		fail(ctx, error, "too many types inside an array, sequence or enum "
		     "(struct and union members need a <field>)");
		return false;
	default:
		fail(ctx, error, "a type must be inside a field or a named type");
		return false;
	}
}

static void on_start(GMarkupParseContext *ctx, const char *element,
		     const char **names, const char **values, gpointer data,
		     GError **error)
{
	parser *p = data;
	ltt_description *d = p->desc;
	frame *f = top(p);
	frame nf = { 0 };
	ltt_xtype xt;

	if (strcmp(element, "facility") == 0) {
		const char *name = attr(names, values, "name");

		if (f->kind != F_ROOT || p->seen_facility) {
			fail(ctx, error, "<facility> must be the single root element");
			return;
		}
		if (!name || !*name) {
			fail(ctx, error, "<facility> has no name");
			return;
		}
		p->seen_facility = true;
		d->name = g_strdup(name);
		d->channel = g_strdup(attr(names, values, "channel"));
		nf.kind = F_FACILITY;
	} else if (strcmp(element, "description") == 0) {
		nf.kind = F_DESCRIPTION;
		nf.text = g_string_new(NULL);
	} else if (strcmp(element, "event") == 0) {
		const char *name = attr(names, values, "name");
		ltt_event_desc *ev;

		if (f->kind != F_FACILITY) {
			fail(ctx, error, "<event> must be inside <facility>");
			return;
		}
		if (!name || !*name) {
			fail(ctx, error, "<event> has no name");
			return;
		}
		ev = g_new0(ltt_event_desc, 1);
		ev->name = g_strdup(name);
		ev->channel = g_strdup(attr(names, values, "channel"));
		ev->fields = g_ptr_array_new();
		g_ptr_array_add(d->events, ev);
		nf.kind = F_EVENT;
		nf.obj = ev;
	} else if (strcmp(element, "field") == 0) {
		const char *name = attr(names, values, "name");
		ltt_field_desc *fd;
		GPtrArray *into;

		if (f->kind == F_EVENT)
			into = ((ltt_event_desc *)f->obj)->fields;
		else if (f->kind == F_TYPE &&
			 (((ltt_type *)f->obj)->xtype == X_STRUCT ||
			  ((ltt_type *)f->obj)->xtype == X_UNION))
			into = ((ltt_type *)f->obj)->fields;
		else {
			fail(ctx, error, "<field> must be inside <event>, <struct> or <union>");
			return;
		}
		if (!name || !*name) {
			fail(ctx, error, "<field> has no name");
			return;
		}
		fd = g_new0(ltt_field_desc, 1);
		fd->name = g_strdup(name);
		g_ptr_array_add(d->field_descs, fd);
		g_ptr_array_add(into, fd);
		nf.kind = F_FIELD;
		nf.obj = fd;
	} else if (strcmp(element, "type") == 0) {
		const char *name = attr(names, values, "name");
		ltt_type *t;

		if (f->kind != F_FACILITY) {
			fail(ctx, error, "<type> must be inside <facility>");
			return;
		}
		if (!name || !*name) {
			fail(ctx, error, "<type> has no name");
			return;
		}
		if (g_hash_table_contains(d->named, name)) {
			fail(ctx, error, "type \"%s\" is defined twice", name);
			return;
		}
		t = g_new0(ltt_type, 1);
		t->xtype = X_TYPEREF;	/* a named type refers to its body */
		t->name = g_strdup(name);
		g_ptr_array_add(d->types, t);
		g_hash_table_insert(d->named, t->name, t);
		nf.kind = F_NAMED;
		nf.obj = t;
	} else if (strcmp(element, "label") == 0) {
		ltt_type *t = f->kind == F_TYPE ? f->obj : NULL;
		const char *name = attr(names, values, "name");
		const char *value = attr(names, values, "value");
		ltt_label *l;

		if (!t || t->xtype != X_ENUM) {
			fail(ctx, error, "<label> must be inside <enum>");
			return;
		}
		if (!name || !*name) {
			fail(ctx, error, "<label> has no name");
			return;
		}
		l = g_new0(ltt_label, 1);
		l->name = g_strdup(name);
		if (value) {
			char *end;

			errno = 0;
			l->value = strtoll(value, &end, 0);
			if (errno || *end || !*value) {
				g_free(l->name);
				g_free(l);
				fail(ctx, error, "label \"%s\" has a bad value \"%s\"", name, value);
				return;
			}
		} else if (p->next_label_overflows) {
			g_free(l->name);
			g_free(l);
			fail(ctx, error, "label \"%s\" has no value and the one before "
			     "is the largest: its value overflows", name);
			return;
		} else {
			l->value = p->next_label;
		}
		/* the next label without a value is this one's plus one */
		p->next_label_overflows = l->value == INT64_MAX;
		p->next_label = p->next_label_overflows ? 0 : l->value + 1;
		g_ptr_array_add(t->labels, l);
		nf.kind = F_LABEL;
	} else if ((xt = xtype_of(element)) != X_NONE) {
		ltt_type *t = g_new0(ltt_type, 1);
		const char *size = attr(names, values, "size");
		const char *lengthsize = attr(names, values, "lengthsize");
		const char *format = attr(names, values, "format");

		t->xtype = xt;
		g_ptr_array_add(d->types, t);
		if (size) {
			int64_t v = number_attr(size);

			if (v <= 0 || v > (1 << 20)) {
				fail(ctx, error, "<%s> has a bad size \"%s\"", element, size);
				return;
			}
			t->size = (unsigned)v;
		}
		/* The one rule of the era's parser (docs/format.md): int, uint
		 * and enum are the trace's int_size.  Its catalogue writes
		 * <uint size="4"/>, a size it reads and ignores, so do we; an
		 * enum with a size it refuses ("Enum has fixed size of target
		 * int"), so do we rather than lay it out otherwise. */
		if (xt == X_ENUM && size) {
			fail(ctx, error, "<enum> has a size \"%s\": an enum is the trace's "
			     "int_size (the era's parser refuses a size on an enum)", size);
			return;
		}
		if (xt == X_INT || xt == X_UINT)
			t->size = 0;
		if (format)
			t->format = g_strdup(format);
		if (xt == X_ARRAY) {
			t->length = t->size;
			t->size = 0;
			if (!t->length) {
				fail(ctx, error, "<array> needs a size (its element count)");
				return;
			}
		}
		if (xt == X_SEQUENCE && lengthsize) {
			/* old form: <sequence lengthsize="4"> elem </sequence> */
			int64_t v = number_attr(lengthsize);
			ltt_type *len = g_new0(ltt_type, 1);

			g_ptr_array_add(d->types, len);
			len->xtype = X_UINT_FIXED;
			len->size = (unsigned)v;
			if (v != 1 && v != 2 && v != 4 && v != 8) {
				fail(ctx, error, "<sequence> has a bad lengthsize \"%s\"", lengthsize);
				return;
			}
			t->len_type = len;
		}
		if (xt == X_ENUM) {
			t->labels = g_ptr_array_new();
			p->next_label = 0;
			p->next_label_overflows = false;
		}
		if (xt == X_STRUCT || xt == X_UNION)
			t->fields = g_ptr_array_new();
		if (xt == X_TYPEREF) {
			const char *name = attr(names, values, "name");

			if (!name || !*name) {
				fail(ctx, error, "<typeref> has no name");
				return;
			}
			t->name = g_strdup(name);
		}
		if (!attach_type(p, t, ctx, error))
			return;
		nf.kind = F_TYPE;
		nf.obj = t;
	} else {
		fail(ctx, error, "unknown element <%s>", element);
		return;
	}
	g_array_append_val(p->stack, nf);
}

static void on_end(GMarkupParseContext *ctx, const char *element,
		   gpointer data, GError **error)
{
	parser *p = data;
	frame f = *top(p);
	frame *parent;
	char *text;

	g_array_set_size(p->stack, p->stack->len - 1);
	if (f.kind != F_DESCRIPTION)
		return;
	text = g_strstrip(g_string_free(f.text, FALSE));
	parent = top(p);
	switch (parent->kind) {
	case F_FACILITY:
		g_free(p->desc->description);
		p->desc->description = text;
		return;
	case F_EVENT:
		g_free(((ltt_event_desc *)parent->obj)->description);
		((ltt_event_desc *)parent->obj)->description = text;
		return;
	case F_FIELD:
		g_free(((ltt_field_desc *)parent->obj)->description);
		((ltt_field_desc *)parent->obj)->description = text;
		return;
	default:
		g_free(text);	/* descriptions of types are free text */
	}
}

static void on_text(GMarkupParseContext *ctx, const char *text, gsize len,
		    gpointer data, GError **error)
{
	parser *p = data;
	frame *f = top(p);

	if (f->kind == F_DESCRIPTION) {
		g_string_append_len(f->text, text, (gssize)len);
		return;
	}
	for (gsize i = 0; i < len; i++)
		if (!g_ascii_isspace(text[i])) {
			fail(ctx, error, "unexpected text \"%.20s\"", text + i);
			return;
		}
}

/*
 * Bounds on what a description may make the reader do. Depth: every walk
 * of a type recurses that deep (typerefs count). Values: what one event's
 * fields hold, arrays multiplied out (the values a walk of its fixed part
 * visits): it bounds every size and offset far below overflow (8 bytes
 * and 7 of padding per value at most) and the work per event. Values per
 * byte, for a sequence's element: the work of a sequence is then bounded
 * by the bytes of its payload. A typeref DAG or nested arrays would
 * otherwise expand exponentially (issue 16).
 */
#define MAX_DEPTH 32
#define MAX_VALUES (1U << 17)
#define MAX_VALUES_PER_BYTE 64

static uint64_t sat_add(uint64_t a, uint64_t b)
{
	return a + b < a || a + b > MAX_VALUES + 1ULL ? MAX_VALUES + 1ULL : a + b;
}

static uint64_t sat_mul(uint64_t a, uint64_t b)
{
	return b && a > (MAX_VALUES + 1ULL) / b ? MAX_VALUES + 1ULL : sat_add(a * b, 0);
}

static bool type_error(GError **error, const char *where, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static bool type_error(GError **error, const char *where, const char *fmt, ...)
{
	va_list ap;
	char *msg;

	va_start(ap, fmt);
	msg = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	g_set_error(error, G_MARKUP_ERROR, G_MARKUP_ERROR_INVALID_CONTENT,
		    "%s: %s", where, msg);
	g_free(msg);
	return false;
}

/*
 * Checks a type tree and measures it (t->height, t->values, t->min_size),
 * each type once: a type that many fields share (a typeref) is not
 * walked again, so a DAG costs its size, not its expansion. `depth` is
 * where t is met; the depth bound holds for every path through t since
 * height is the longest path below it.
 */
static bool check_type(ltt_description *d, ltt_type *t, int depth,
		       const char *where, GError **error)
{
	ltt_type *kids[2] = { NULL, NULL };
	unsigned nkids = 0;

	if (t->state == TYPE_CHECKED) {
		if (depth + t->height > MAX_DEPTH)
			return type_error(error, where, "types nest too deep (more "
					  "than %d levels, typerefs included)", MAX_DEPTH);
		return true;
	}
	if (t->state == TYPE_CHECKING || depth > MAX_DEPTH)
		return type_error(error, where, "types nest too deep (more than %d "
				  "levels, typerefs included; a typeref cycle?)",
				  MAX_DEPTH);
	t->state = TYPE_CHECKING;
	t->values = 1;
	t->min_size = 1;
	switch (t->xtype) {
	case X_TYPEREF:
		if (!t->ref && t->name) {
			ltt_type *named = g_hash_table_lookup(d->named, t->name);

			/* the named type's own node is a typeref to its body */
			t->ref = named;
		}
		if (t->ref == t)
			return type_error(error, where, "type \"%s\" has no definition",
					  t->name);
		if (!t->ref)
			return type_error(error, where, "type \"%s\" is not defined",
					  t->name);
		if (!check_type(d, t->ref, depth + 1, where, error))
			return false;
		t->height = t->ref->height + 1;
		t->values = t->ref->values;
		t->min_size = t->ref->min_size;
		break;
	case X_INT_FIXED:
	case X_UINT_FIXED:
		if (t->size != 1 && t->size != 2 && t->size != 4 && t->size != 8)
			return type_error(error, where, "fixed-size integer needs size "
					  "1, 2, 4 or 8");
		t->min_size = t->size;
		break;
	case X_INT: case X_UINT: case X_ENUM:
		t->min_size = 1;	/* int_size, known only with the trace */
		break;
	case X_FLOAT:
		if (t->size && t->size != 4 && t->size != 8)
			return type_error(error, where, "float size must be 4 or 8");
		t->min_size = t->size ? t->size : 4;
		break;
	case X_SHORT: case X_USHORT:
		t->min_size = 2;
		break;
	case X_ARRAY:
		if (!t->elem)
			return type_error(error, where, "<array> has no element type");
		if (!check_type(d, t->elem, depth + 1, where, error))
			return false;
		t->height = t->elem->height + 1;
		t->values = sat_add(1, sat_mul(t->length, t->elem->values));
		t->min_size = sat_mul(t->length, t->elem->min_size);
		break;
	case X_SEQUENCE: {
		const ltt_type *len, *el;

		if (!t->len_type || !t->elem)
			return type_error(error, where, "<sequence> needs a length type "
					  "and an element type");
		kids[0] = t->len_type;
		kids[1] = t->elem;
		for (nkids = 0; nkids < 2; nkids++)
			if (!check_type(d, kids[nkids], depth + 1, where, error))
				return false;
		len = ltt_type_resolve(t->len_type);
		if (len->xtype != X_UINT && len->xtype != X_UINT_FIXED &&
		    len->xtype != X_UCHAR && len->xtype != X_USHORT &&
		    len->xtype != X_ULONG && len->xtype != X_SIZE_T &&
		    len->xtype != X_INT && len->xtype != X_INT_FIXED)
			return type_error(error, where, "a sequence length must be an "
					  "integer");
		el = t->elem;
		if (el->min_size == 0)
			return type_error(error, where, "a sequence of elements that take "
					  "no room (empty structs?): its length would "
					  "not be bounded by its bytes");
		if (el->values > MAX_VALUES_PER_BYTE * el->min_size)
			return type_error(error, where, "a sequence whose elements hold "
					  "%llu values in %llu bytes: more than %d values "
					  "per byte", (unsigned long long)el->values,
					  (unsigned long long)el->min_size,
					  MAX_VALUES_PER_BYTE);
		t->height = (t->len_type->height > el->height ? t->len_type->height
							      : el->height) + 1;
		t->values = sat_add(1, sat_add(t->len_type->values, el->values));
		t->min_size = t->len_type->min_size;
		break;
	}
	case X_STRUCT:
	case X_UNION:
		t->min_size = 0;
		for (guint i = 0; i < t->fields->len; i++) {
			ltt_field_desc *fd = t->fields->pdata[i];

			if (!fd->type)
				return type_error(error, where, "field \"%s\" has no type",
						  fd->name);
			if (!check_type(d, fd->type, depth + 1, where, error))
				return false;
			if (fd->type->height + 1 > t->height)
				t->height = fd->type->height + 1;
			t->values = sat_add(t->values, fd->type->values);
			if (t->xtype == X_STRUCT)
				t->min_size = sat_add(t->min_size, fd->type->min_size);
			else if (fd->type->min_size > t->min_size)
				t->min_size = fd->type->min_size;
		}
		break;
	default:	/* char, long, pointer, size_t, string...: a byte or more */
		break;
	}
	t->state = TYPE_CHECKED;
	if (t->values > MAX_VALUES)
		return type_error(error, where, "its type holds more than %u values "
				  "(nested arrays, or a typeref DAG)", MAX_VALUES);
	return true;
}

const ltt_type *ltt_type_resolve(const ltt_type *t)
{
	for (int i = 0; t && t->xtype == X_TYPEREF && i < 64; i++)
		t = t->ref;
	return t;
}

static const char *checksum_string(const ltt_type *t, char *buf, size_t size)
{
	static const char *const ints[] = { "int8_t", "int16_t", "int32_t", "int64_t" };
	static const char *const uints[] = { "uint8_t", "uint16_t", "uint32_t", "uint64_t" };
	int idx = t->size == 1 ? 0 : t->size == 2 ? 1 : t->size == 4 ? 2 : 3;

	switch (t->xtype) {
	case X_INT_FIXED: return ints[idx];
	case X_UINT_FIXED: return uints[idx];
	case X_POINTER: return "void *";
	case X_CHAR: return "signed char";
	case X_UCHAR: return "unsigned char";
	case X_SHORT: return "short";
	case X_USHORT: return "unsigned short";
	case X_INT: return "int";
	case X_UINT: return "uint";
	case X_LONG: return "long";
	case X_ULONG: return "unsigned long";
	case X_SIZE_T: return "size_t";
	case X_SSIZE_T: return "ssize_t";
	case X_OFF_T: return "off_t";
	case X_FLOAT: return t->size == 4 ? "float" : "double";
	case X_STRING: return "string";
	case X_ENUM: return "enum";
	case X_ARRAY:
		g_snprintf(buf, size, "array %u", t->length);
		return buf;
	case X_SEQUENCE: return "sequence ";
	case X_STRUCT: return "struct";
	case X_UNION: return "union";
	default: return "";
	}
}

static uint32_t type_checksum(const ltt_type *t, uint32_t crc)
{
	char buf[32];

	t = ltt_type_resolve(t);
	crc = crc_partial(checksum_string(t, buf, sizeof(buf)), crc);
	if (t->format)
		crc = crc_partial(t->format, crc);
	switch (t->xtype) {
	case X_ARRAY:
		return type_checksum(t->elem, crc);
	case X_SEQUENCE:
		crc = type_checksum(t->len_type, crc);
		return type_checksum(t->elem, crc);
	case X_STRUCT:
	case X_UNION:
		for (guint i = 0; i < t->fields->len; i++) {
			const ltt_field_desc *fd = t->fields->pdata[i];

			crc = crc_partial(fd->name, crc);
			crc = type_checksum(fd->type, crc);
		}
		return crc;
	case X_ENUM:
		for (guint i = 0; i < t->labels->len; i++)
			crc = crc_partial(((ltt_label *)t->labels->pdata[i])->name, crc);
		return crc;
	default:
		return crc;
	}
}

static uint32_t description_checksum(const ltt_description *d)
{
	uint32_t crc;

	crc_init();
	crc = crc_partial(d->name, 0xFFFFFFFFU) ^ 0xFFFFFFFFU;
	for (guint e = 0; e < d->events->len; e++) {
		const ltt_event_desc *ev = d->events->pdata[e];

		crc = crc_partial(ev->name, crc);
		for (guint i = 0; i < ev->fields->len; i++) {
			const ltt_field_desc *fd = ev->fields->pdata[i];

			crc = crc_partial(fd->name, crc);
			crc = type_checksum(fd->type, crc);
		}
	}
	return crc;
}

static void free_type(gpointer data)
{
	ltt_type *t = data;

	g_free(t->format);
	g_free(t->name);
	if (t->labels) {
		for (guint i = 0; i < t->labels->len; i++) {
			ltt_label *l = t->labels->pdata[i];

			g_free(l->name);
			g_free(l);
		}
		g_ptr_array_free(t->labels, TRUE);
	}
	if (t->fields)
		g_ptr_array_free(t->fields, TRUE);
	g_free(t);
}

static void free_field_desc(gpointer data)
{
	ltt_field_desc *fd = data;

	g_free(fd->name);
	g_free(fd->description);
	g_free(fd);
}

static void free_event_desc(gpointer data)
{
	ltt_event_desc *ev = data;

	g_free(ev->name);
	g_free(ev->description);
	g_free(ev->channel);
	g_ptr_array_free(ev->fields, TRUE);
	g_free(ev);
}

void ltt_description_free(ltt_description *d)
{
	if (!d)
		return;
	g_free(d->name);
	g_free(d->description);
	g_free(d->channel);
	g_free(d->origin);
	g_ptr_array_free(d->events, TRUE);
	g_ptr_array_free(d->types, TRUE);
	g_ptr_array_free(d->field_descs, TRUE);
	g_hash_table_destroy(d->named);
	g_free(d);
}

ltt_description *ltt_description_new_empty(const char *name, const char *origin)
{
	ltt_description *d = g_new0(ltt_description, 1);

	d->name = g_strdup(name);
	d->origin = g_strdup(origin);
	d->events = g_ptr_array_new_with_free_func(free_event_desc);
	d->types = g_ptr_array_new_with_free_func(free_type);
	d->field_descs = g_ptr_array_new_with_free_func(free_field_desc);
	d->named = g_hash_table_new(g_str_hash, g_str_equal);
	return d;
}

ltt_description *ltt_description_parse(const char *text, size_t len,
				       const char *origin, ltt_error **err)
{
	static const GMarkupParser callbacks = {
		.start_element = on_start,
		.end_element = on_end,
		.text = on_text,
	};
	ltt_description *d = g_new0(ltt_description, 1);
	parser p = { .desc = d };
	frame root = { .kind = F_ROOT };
	GMarkupParseContext *ctx;
	GError *gerr = NULL;
	bool ok;

	d->origin = g_strdup(origin ? origin : "(memory)");
	d->events = g_ptr_array_new_with_free_func(free_event_desc);
	d->types = g_ptr_array_new_with_free_func(free_type);
	d->field_descs = g_ptr_array_new_with_free_func(free_field_desc);
	d->named = g_hash_table_new(g_str_hash, g_str_equal);
	p.stack = g_array_new(FALSE, TRUE, sizeof(frame));
	g_array_append_val(p.stack, root);

	ctx = g_markup_parse_context_new(&callbacks, 0, &p, NULL);
	ok = g_markup_parse_context_parse(ctx, text, (gssize)len, &gerr) &&
	     g_markup_parse_context_end_parse(ctx, &gerr);
	g_markup_parse_context_free(ctx);
	/* free description buffers left open by an error */
	for (guint i = 0; i < p.stack->len; i++) {
		frame *f = &g_array_index(p.stack, frame, i);

		if (f->kind == F_DESCRIPTION && f->text)
			g_string_free(f->text, TRUE);
	}
	g_array_free(p.stack, TRUE);

	if (ok && !p.seen_facility) {
		g_set_error(&gerr, G_MARKUP_ERROR, G_MARKUP_ERROR_EMPTY,
			    "no <facility> element");
		ok = false;
	}
	for (guint e = 0; ok && e < d->events->len; e++) {
		ltt_event_desc *ev = d->events->pdata[e];

		if (e >= 256) {
			g_set_error(&gerr, G_MARKUP_ERROR, G_MARKUP_ERROR_INVALID_CONTENT,
				    "more than 256 events (event ids are one byte)");
			ok = false;
			break;
		}
		uint64_t values = 0;

		for (guint i = 0; ok && i < ev->fields->len; i++) {
			ltt_field_desc *fd = ev->fields->pdata[i];
			char *where = g_strdup_printf("event \"%s\" field \"%s\"",
						      ev->name, fd->name);

			if (!fd->type) {
				g_set_error(&gerr, G_MARKUP_ERROR, G_MARKUP_ERROR_INVALID_CONTENT,
					    "%s has no type", where);
				ok = false;
			} else {
				ok = check_type(d, fd->type, 0, where, &gerr);
				values = ok ? sat_add(values, fd->type->values) : values;
			}
			g_free(where);
		}
		if (ok && values > MAX_VALUES) {
			g_set_error(&gerr, G_MARKUP_ERROR, G_MARKUP_ERROR_INVALID_CONTENT,
				    "event \"%s\": its fields hold more than %u values",
				    ev->name, MAX_VALUES);
			ok = false;
		}
	}
	if (!ok) {
		ltt_set_error(err, LTT_ERROR_DESCRIPTION, "%s: %s", d->origin,
			      gerr ? gerr->message : "invalid description");
		g_clear_error(&gerr);
		ltt_description_free(d);
		return NULL;
	}
	d->checksum = description_checksum(d);
	return d;
}

/*
 * The whole of a description file, which comes with a trace from another
 * machine: only a regular file (a FIFO would block, a device never end),
 * of at most LTT_DESCRIPTION_MAX_BYTES, read once.
 */
static char *read_description_file(const char *path, size_t *len,
				   struct stat *st_out, ltt_error **err)
{
	/* O_NONBLOCK: opening a FIFO must not wait for a writer */
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	struct stat st;
	size_t size, got = 0;
	char *buf;

	if (fd < 0 || fstat(fd, &st) < 0) {
		ltt_set_error(err, LTT_ERROR_IO, "cannot read %s: %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	if (!S_ISREG(st.st_mode)) {
		ltt_set_error(err, LTT_ERROR_IO, "%s: not a regular file", path);
		close(fd);
		return NULL;
	}
	if (st.st_size > LTT_DESCRIPTION_MAX_BYTES) {
		ltt_set_error(err, LTT_ERROR_DESCRIPTION, "%s: larger than %d bytes: not a facility "
			      "description", path, LTT_DESCRIPTION_MAX_BYTES);
		close(fd);
		return NULL;
	}
	size = (size_t)st.st_size;
	buf = g_malloc(size + 1);
	while (got <= size) {	/* a byte more than announced: it grew */
		ssize_t r = read(fd, buf + got, size + 1 - got);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			ltt_set_error(err, LTT_ERROR_IO, "cannot read %s: %s", path, strerror(errno));
			close(fd);
			g_free(buf);
			return NULL;
		}
		if (r == 0)
			break;
		got += (size_t)r;
	}
	close(fd);
	if (got > size) {
		ltt_set_error(err, LTT_ERROR_IO, "%s: changed while it was read", path);
		g_free(buf);
		return NULL;
	}
	buf[got] = '\0';
	*len = got;
	*st_out = st;
	return buf;
}

ltt_description *ltt_description_load(const char *path, ltt_error **err)
{
	size_t len;
	struct stat st;
	char *text = read_description_file(path, &len, &st, err);
	ltt_description *d;

	if (!text)
		return NULL;
	d = ltt_description_parse(text, len, path, err);
	g_free(text);
	if (d) {
		d->file_dev = (uint64_t)st.st_dev;
		d->file_ino = (uint64_t)st.st_ino;
	}
	return d;
}

/*
 * The descriptions of the installed folder and of the -f folders, shared
 * by every trace of the process: a viewer that opens trace after trace,
 * or a tool that opens many, parses each of those files once. A file is
 * known by its identity (device, inode, size, modification and change
 * times): a changed file is read again. Shared descriptions live as long
 * as the process (one per file version: a few). A trace's own eventdefs/
 * are not shared, each trace has its copies, but for a live one (trace.c).
 */
static GMutex shared_lock;
static GHashTable *shared;	/* "dev ino size mtime ctime" -> ltt_description* */

static char *file_key(const struct stat *st)
{
	return g_strdup_printf("%ju %ju %jd %jd.%09ld %jd.%09ld", (uintmax_t)st->st_dev,
			       (uintmax_t)st->st_ino, (intmax_t)st->st_size,
			       (intmax_t)st->st_mtim.tv_sec, st->st_mtim.tv_nsec,
			       (intmax_t)st->st_ctim.tv_sec, st->st_ctim.tv_nsec);
}

const ltt_description *ltt_description_load_shared(const char *path, ltt_error **err)
{
	struct stat st;
	char *key, *text;
	size_t len;
	ltt_description *d = NULL;

	if (stat(path, &st) == 0 && S_ISREG(st.st_mode)) {
		key = file_key(&st);
		g_mutex_lock(&shared_lock);
		d = shared ? g_hash_table_lookup(shared, key) : NULL;
		g_mutex_unlock(&shared_lock);
		g_free(key);
		if (d)
			return d;
	}
	text = read_description_file(path, &len, &st, err);
	if (!text)
		return NULL;
	d = ltt_description_parse(text, len, path, err);
	g_free(text);
	if (!d)
		return NULL;
	d->file_dev = (uint64_t)st.st_dev;
	d->file_ino = (uint64_t)st.st_ino;
	key = file_key(&st);	/* the identity of what was read */
	g_mutex_lock(&shared_lock);
	if (!shared)
		shared = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
					       (GDestroyNotify)ltt_description_free);
	if (g_hash_table_contains(shared, key)) {	/* another thread was first */
		ltt_description_free(d);
		d = g_hash_table_lookup(shared, key);
		g_free(key);
	} else {
		g_hash_table_insert(shared, key, d);
	}
	g_mutex_unlock(&shared_lock);
	return d;
}

const char *ltt_description_name(const ltt_description *d)
{
	return d->name;
}

uint32_t ltt_description_checksum(const ltt_description *d)
{
	return d->checksum;
}

unsigned ltt_description_num_events(const ltt_description *d)
{
	return d->events->len;
}

const char *ltt_description_event_channel(const ltt_description *d, unsigned id)
{
	const ltt_event_desc *ev;

	if (id >= d->events->len)
		return NULL;
	ev = d->events->pdata[id];
	return ev->channel ? ev->channel : d->channel;
}

const char *ltt_description_event_description(const ltt_description *d, unsigned id)
{
	return id < d->events->len ? ((ltt_event_desc *)d->events->pdata[id])->description : NULL;
}

const char *ltt_description_event_name(const ltt_description *d, unsigned id)
{
	if (id >= d->events->len)
		return NULL;
	return ((ltt_event_desc *)d->events->pdata[id])->name;
}

/* core.xml, compiled in by the build (core-xml.c is generated from
 * facilities/core.xml: the XML stays the one home of the catalogue). */
extern const char ltt_core_xml[];
extern const size_t ltt_core_xml_len;

const ltt_description *ltt_core_description(void)
{
	static gsize once;
	static ltt_description *core;

	if (g_once_init_enter(&once)) {
		core = ltt_description_parse(ltt_core_xml, ltt_core_xml_len,
					     "built-in core.xml", NULL);
		g_once_init_leave(&once, 1);
	}
	return core;
}
