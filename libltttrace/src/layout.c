/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * layout.c - where fields lie in a payload, and what they hold.
 *
 * A description says which types an event has; a facility_load says how big
 * `int`, `long`, pointers and `size_t` were for the writer and whether it
 * aligned fields. Together they give the layout (docs/format.md,
 * "Alignment"), compiled once per facility load into nodes (internal.h):
 * sizes, alignments, fixed sizes and enum labels by value are computed
 * when the facility is loaded, not for every event. Every read is
 * bounds-checked against the payload length: a corrupt trace yields -1,
 * never a read past the buffer.
 */
#include <string.h>

#include <ltt/ltt-decode.h>

#include "internal.h"
#include "scan.h"

unsigned ltt_layout_scalar_size(const ltt_sizes *s, const ltt_type *t)
{
	switch (t->xtype) {
	case X_INT: case X_UINT:
		return s->int_size;
	case X_ENUM:	/* a size only from CTF (ctf-trace.c): XML refuses one */
		return t->size ? t->size : s->int_size;
	case X_INT_FIXED: case X_UINT_FIXED:
		return t->size;
	case X_CHAR: case X_UCHAR:
		return 1;
	case X_SHORT: case X_USHORT:
		return 2;
	case X_LONG: case X_ULONG:
		return s->long_size;
	case X_POINTER:
		return s->pointer_size;
	case X_SIZE_T: case X_SSIZE_T: case X_OFF_T:	/* off_t: as the era's reader */
		return s->size_t_size;
	case X_FLOAT:
		return t->size ? t->size : 8;
	default:
		return 0;
	}
}

/* ---- compiling types into nodes ---- */

typedef struct compiler {
	const ltt_sizes *s;
	GHashTable *done;	/* ltt_type* -> ltt_node*: each type once */
	GPtrArray *owned;	/* the facility's: what is allocated here */
} compiler;

static void *owned(compiler *c, void *p)
{
	g_ptr_array_add(c->owned, p);
	return p;
}

/* a label's value and its place in the description */
typedef struct label_order {
	uint64_t value;
	unsigned index;
} label_order;

static int cmp_label_order(const void *a, const void *b)
{
	const label_order *x = a, *y = b;

	if (x->value != y->value)
		return x->value < y->value ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index;
}

/* An enum's labels by value: the first label of each value wins, as a
 * search in the description's order would find it. */
#define ENUM_SMALL_MAX 256
static void compile_labels(compiler *c, ltt_node *n, const ltt_type *t)
{
	unsigned len = t->labels ? t->labels->len : 0, num = 0;
	ltt_enum_value *vals = owned(c, g_new0(ltt_enum_value, len ? len : 1));
	const char **small;
	uint64_t max_small = 0;

	for (unsigned i = 0; i < len; i++) {
		const ltt_label *l = t->labels->pdata[i];

		vals[i].value = (uint64_t)l->value;
		vals[i].label = l->name;
		if (vals[i].value < ENUM_SMALL_MAX && vals[i].value + 1 > max_small)
			max_small = vals[i].value + 1;
	}
	small = owned(c, g_new0(const char *, max_small ? max_small : 1));
	for (unsigned i = len; i-- > 0;)
		if (vals[i].value < max_small)
			small[vals[i].value] = vals[i].label;
	/* the others sorted by value, then by place (qsort is not stable),
	 * so that the first of a run of equal values is the description's
	 * first: n log n, for an LTTng enum's ranges expanded to thousands
	 * of labels (ctf-trace.c) */
	{
		label_order *ord = g_new(label_order, len ? len : 1);
		const char **names = g_new(const char *, len ? len : 1);

		for (unsigned i = 0; i < len; i++) {
			ord[i] = (label_order){ vals[i].value, i };
			names[i] = vals[i].label;
		}
		qsort(ord, len, sizeof(*ord), cmp_label_order);
		for (unsigned k = 0; k < len; k++)
			if (ord[k].value >= max_small &&
			    (k == 0 || ord[k].value != ord[k - 1].value))
				vals[num++] = (ltt_enum_value){ ord[k].value, names[ord[k].index] };
		g_free(ord);
		g_free(names);
	}
	n->small = small;
	n->num_small = (unsigned)max_small;
	n->values = vals;
	n->num_values = num;
}

static const ltt_node *compile(compiler *c, const ltt_type *t);

static ltt_node *compile_fields(compiler *c, ltt_node *n, const GPtrArray *fields)
{
	ltt_member *m = owned(c, g_new0(ltt_member, fields->len ? fields->len : 1));
	int64_t total = 0;

	n->count = fields->len;
	n->natural = 1;
	for (guint i = 0; i < fields->len; i++) {
		const ltt_field_desc *fd = fields->pdata[i];
		const ltt_node *f = compile(c, fd->type);

		m[i].name = fd->name;
		m[i].node = f;
		if (f->natural > n->natural)
			n->natural = f->natural;
		if (total < 0 || f->fixed < 0)
			total = -1;
		else if (n->op == LTT_OP_STRUCT)
			total += (int64_t)(((uint64_t)-total) & f->pad_mask) + f->fixed;
		else if (f->fixed > total)
			total = f->fixed;
	}
	n->members = m;
	n->fixed = total;
	return n;
}

static const ltt_node *compile(compiler *c, const ltt_type *t)
{
	ltt_node *n;

	t = ltt_type_resolve(t);
	n = g_hash_table_lookup(c->done, t);
	if (n)
		return n;
	n = owned(c, g_new0(ltt_node, 1));
	g_hash_table_insert(c->done, (gpointer)t, n);
	switch (t->xtype) {
	case X_STRING:
		n->op = LTT_OP_STRING;
		n->natural = 1;
		n->fixed = -1;
		n->tail_mask = (unsigned)ltt_align_mask(c->s->pointer_size, c->s->alignment);
		break;
	case X_ARRAY: {
		const ltt_node *e = compile(c, t->elem);
		int64_t total = 0;

		n->op = LTT_OP_ARRAY;
		n->elem = e;
		n->text = ltt_type_resolve(t->elem)->xtype == X_UCHAR;
		n->count = t->length;
		n->natural = e->natural;
		/* elements are aligned one after the other */
		for (uint64_t i = 0; i < n->count && e->fixed >= 0; i++)
			total += (int64_t)(((uint64_t)-total) & e->pad_mask) + e->fixed;
		n->fixed = e->fixed >= 0 ? total : -1;
		break;
	}
	case X_SEQUENCE: {
		const ltt_node *e = compile(c, t->elem);

		n->op = LTT_OP_SEQUENCE;
		n->elem = e;
		n->text = ltt_type_resolve(t->elem)->xtype == X_UCHAR;
		n->size = ltt_layout_scalar_size(c->s, ltt_type_resolve(t->len_type));
		n->natural = n->size > e->natural ? n->size : e->natural;
		n->fixed = -1;
		n->tail_mask = (unsigned)ltt_align_mask(c->s->pointer_size, c->s->alignment);
		break;
	}
	case X_STRUCT:
	case X_UNION:
		n->op = t->xtype == X_STRUCT ? LTT_OP_STRUCT : LTT_OP_UNION;
		compile_fields(c, n, t->fields);
		break;
	default:
		n->size = ltt_layout_scalar_size(c->s, t);
		n->natural = n->size;
		n->fixed = n->size;
		switch (t->xtype) {
		case X_INT: case X_INT_FIXED: case X_CHAR: case X_SHORT: case X_LONG:
		case X_SSIZE_T: case X_OFF_T:
			n->op = LTT_OP_INT;
			break;
		case X_POINTER:
			n->op = LTT_OP_POINTER;
			break;
		case X_ENUM:
			n->op = LTT_OP_ENUM;
			compile_labels(c, n, t);
			break;
		case X_FLOAT:
			n->op = LTT_OP_FLOAT;
			break;
		default:
			n->op = LTT_OP_UINT;
			break;
		}
	}
	n->pad_mask = (unsigned)ltt_align_mask(n->natural, c->s->alignment);
	return n;
}

const char *ltt_node_label(const ltt_node *n, uint64_t v)
{
	size_t lo = 0, hi = n->num_values;

	if (v < n->num_small)
		return n->small[v];
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (n->values[mid].value == v)
			return n->values[mid].label;
		if (n->values[mid].value < v)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* ---- sizes of values in a payload ---- */

/* Size from `start` to the end of count elements starting at off (arrays
 * and sequences), or -1 past the payload. */
static inline __attribute__((always_inline))
int64_t elements_size(const ltt_node *e, uint64_t count, const uint8_t *p,
			     size_t len, size_t off, size_t start)
{
	/* elements of a fixed size that keeps them aligned follow each other
	 * without padding: one check covers them all */
	if (e->fixed > 0 && count && ((uint64_t)e->fixed & e->pad_mask) == 0) {
		uint64_t bytes;

		off += ((size_t)-off) & e->pad_mask;
		/* count * fixed > len - off, without a division: a product
		 * that overflows is larger than any length */
		if (off > len || __builtin_mul_overflow(count, (uint64_t)e->fixed, &bytes) ||
		    bytes > len - off)
			return -1;
		return (int64_t)(off + bytes - start);
	}
	for (uint64_t i = 0; i < count; i++) {
		int64_t one;

		off += ((size_t)-off) & e->pad_mask;
		one = e->fixed >= 0 ? e->fixed : ltt_node_size(e, p, len, off);
		if (one < 0 || off + (uint64_t)one > len)
			return -1;
		off += (size_t)one;
	}
	return (int64_t)(off - start);
}

/*
 * Size of the value of node n starting at `off` (already aligned for it).
 * For fixed-size types this needs no payload but the bounds; strings and
 * sequences read it.
 */
int64_t ltt_node_size(const ltt_node *n, const uint8_t *p, size_t len, size_t off)
{
	size_t start = off;

	/* a fixed size ends inside the payload or not: every value inside
	 * it ends before its end */
	if (n->fixed > 0)
		return off <= len && (uint64_t)n->fixed <= len - off ? n->fixed : -1;
	switch (n->op) {
	case LTT_OP_STRING:
		if (off >= len || (off = ltt_scan_nul(p, off, len)) == len)
			return -1;
		off++;
		off += ltt_node_tail(n, off);	/* the realignment after it */
		return off <= len ? (int64_t)(off - start) : -1;
	case LTT_OP_SEQUENCE: {
		uint64_t count;

		if (n->size == 0 || off > len || n->size > len - off)
			return -1;
		switch (n->size) {
		case 1: count = p[off]; break;
		case 2: { uint16_t x; memcpy(&x, p + off, 2); count = x; break; }
		case 4: { uint32_t x; memcpy(&x, p + off, 4); count = x; break; }
		case 8: memcpy(&count, p + off, 8); break;
		default: return -1;
		}
		off += n->size;
		if (count > len)	/* cannot hold more elements than bytes */
			return -1;
		{
			int64_t sz = elements_size(n->elem, count, p, len, off, start);

			if (sz < 0)
				return -1;
			off = start + (size_t)sz;
			off += ltt_node_tail(n, off);	/* the realignment after it */
			return off <= len ? (int64_t)(off - start) : -1;
		}
	}
	case LTT_OP_ARRAY:
		return elements_size(n->elem, n->count, p, len, off, start);
	case LTT_OP_STRUCT:
		for (uint64_t i = 0; i < n->count; i++) {
			const ltt_node *f = n->members[i].node;
			int64_t one;

			off += ((size_t)-off) & f->pad_mask;
			one = ltt_node_size(f, p, len, off);
			if (one < 0 || off + (uint64_t)one > len)
				return -1;
			off += (size_t)one;
		}
		return (int64_t)(off - start);
	case LTT_OP_UNION: {
		int64_t max = 0;

		for (uint64_t i = 0; i < n->count; i++) {
			int64_t one = ltt_node_size(n->members[i].node, p, len, off);

			if (one < 0)
				return -1;
			if (one > max)
				max = one;
		}
		return max;
	}
	default:	/* a scalar of no size: never in a checked description */
		return -1;
	}
}

ltt_facility *ltt_facility_new(const char *name, uint32_t checksum,
			       unsigned id, const ltt_sizes *sizes,
			       const ltt_description *desc, ltt_error **err)
{
	ltt_facility *fac = g_new0(ltt_facility, 1);
	compiler c;

	fac->name = g_strdup(name);
	fac->checksum = checksum;
	fac->id = id;
	fac->sizes = *sizes;
	fac->desc = desc;
	fac->display_name = g_strdup(name && *name ? name : "facility");
	if (!desc)
		return fac;

	fac->compiled = g_ptr_array_new_with_free_func(g_free);
	c = (compiler){ &fac->sizes, g_hash_table_new(NULL, NULL), fac->compiled };
	fac->num_event_types = desc->events->len;
	fac->event_types = g_new0(ltt_event_type, fac->num_event_types);
	for (unsigned e = 0; e < fac->num_event_types; e++) {
		ltt_event_type *et = &fac->event_types[e];
		const ltt_event_desc *ed = desc->events->pdata[e];
		ltt_member *fields;
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
		fields = owned(&c, g_new0(ltt_member, et->num_fields ? et->num_fields : 1));
		for (unsigned i = 0; i < et->num_fields; i++) {
			const ltt_field_desc *fd = ed->fields->pdata[i];
			const ltt_node *n = compile(&c, fd->type);

			fields[i].name = fd->name;
			fields[i].node = n;
			g_hash_table_insert(et->index_by_name, fd->name,
					    GUINT_TO_POINTER(i + 1));
			if (off >= 0) {
				off += (int64_t)(((uint64_t)-off) & n->pad_mask);
				et->fixed_offset[i] = (int)off;
				off = n->fixed < 0 ? -1 : off + n->fixed;
			} else {
				et->fixed_offset[i] = -1;
			}
		}
		et->fields = fields;
		for (unsigned i = 0; i < et->num_fields; i++)
			if (et->fixed_offset[i] >= 0)
				et->var_from = i;
		/* the size an event of fixed fields has: checked per event by
		 * the reader's fast path; anything else gets a closer look */
		et->expect_size = off >= 0 && off < LTT_EVENT_SIZE_UNKNOWN
				  ? (uint32_t)off : UINT32_MAX;
	}
	g_hash_table_destroy(c.done);
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
	if (fac->compiled)
		g_ptr_array_free(fac->compiled, TRUE);
	g_free(fac->event_types);
	g_free(fac->name);
	g_free(fac->display_name);
	g_free(fac);
}

int64_t ltt_event_type_field_offset(const ltt_event_type *et, unsigned index,
				    const uint8_t *p, size_t len)
{
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
		int64_t sz = ltt_node_size(et->fields[i].node, p, len, off);

		if (sz < 0)
			return -1;
		off += (size_t)sz;
		off += ((size_t)-off) & et->fields[i + 1].node->pad_mask;
	}
	return (int64_t)off;
}

/* ltt_node_size(), with its common cases inline: a value of fixed size, a
 * string. */
static inline __attribute__((always_inline))
int64_t value_size(const ltt_node *n, const uint8_t *p, size_t len, size_t off)
{
	if (n->fixed > 0)
		return off <= len && (uint64_t)n->fixed <= len - off ? n->fixed : -1;
	if (n->op == LTT_OP_STRING) {
		size_t end;

		if (off >= len || (end = ltt_scan_nul(p, off, len)) == len)
			return -1;
		end++;
		end += ltt_node_tail(n, end);
		return end <= len ? (int64_t)(end - off) : -1;
	}
	return ltt_node_size(n, p, len, off);
}

/*
 * What ltt_event_type_field_offset() of the last field plus its size
 * gives, in one walk: from the first field whose offset depends on the
 * payload (var_from; the ones before it are where the description says),
 * each field's size, then the padding before the next. It runs for every
 * event of variable size whose header gives its size (the reader checks
 * it against this), so the walk is flat.
 */
int64_t ltt_event_type_payload_size(const ltt_event_type *et,
				    const uint8_t *p, size_t len)
{
	const unsigned last = et->num_fields - 1;
	size_t off;

	if (et->num_fields == 0)
		return 0;
	off = (size_t)et->fixed_offset[et->var_from];
	for (unsigned i = et->var_from;; i++) {
		int64_t sz = value_size(et->fields[i].node, p, len, off);

		if (sz < 0)
			return -1;
		off += (size_t)sz;
		if (i == last)
			return (int64_t)off;
		off += ((size_t)-off) & et->fields[i + 1].node->pad_mask;
	}
}
