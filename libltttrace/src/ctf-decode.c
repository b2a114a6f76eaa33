/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * ctf-decode.c - a CTF value at a bit position of a packet, decoded, and
 * written out in the library's own payload layout, which layout.c's nodes
 * describe (ctf-trace.c builds the descriptions with the same sizes):
 *
 *   integer, enum   1, 2, 4 or 8 bytes (the smallest that holds its
 *                   bits), native byte order, sign-extended if signed
 *   floating_point  4 or 8 bytes, native
 *   string          its bytes and the NUL
 *   text            an array or sequence of 8-bit UTF8/ASCII integers: a
 *                   string, its bytes up to the first NUL (as babeltrace2
 *                   shows them: a name padded with NULs is the name)
 *   array           its elements one after the other, no padding
 *   sequence        a 4-byte count, then the elements
 *   struct          its members
 *   variant         one byte per option, 1 for the chosen one (then its
 *                   value), 0 for the others: a struct of sequences of at
 *                   most one element, which the existing walker prints
 *
 * Every read is checked against the packet's content size; every count
 * against the bits left, and each event has a budget of values so that
 * no description (empty structs in huge arrays) can make a read last.
 */
#include <inttypes.h>
#include <stdio.h>

#include "ctf.h"

struct ctf_out_chunk {
	ctf_out_chunk *next;
	size_t size;
	uint8_t data[];
};

#define CHUNK_BYTES (64u << 10)

static inline bool is_text(const ctf_type *t)
{
	const ctf_type *e = t->elem;

	return (t->kind == CTF_ARRAY || t->kind == CTF_SEQUENCE) && e->kind == CTF_INT &&
	       e->text && e->bits == 8 && e->align <= 8 && !e->clock;
}

bool ltt_ctf_is_text(const ctf_type *t)
{
	return is_text(t);
}

unsigned ltt_ctf_out_int_size(unsigned bits)
{
	return bits <= 8 ? 1 : bits <= 16 ? 2 : bits <= 32 ? 4 : 8;
}

uint8_t *ltt_ctf_out_reserve(ctf_decoder *d, size_t need)
{
	ctf_out_chunk *c;
	size_t size, partial;

	if ((size_t)(d->out_end - d->out) >= need)
		return d->out;
	/* the event decoded so far moves to the new chunk: a payload is
	 * one piece */
	partial = d->event_start ? (size_t)(d->out - d->event_start) : 0;
	need += partial;
	size = need > CHUNK_BYTES ? need : CHUNK_BYTES;
	if (d->spare && d->spare->size >= size) {
		c = d->spare;
		d->spare = c->next;
	} else {
		c = g_try_malloc(sizeof(*c) + size);
		if (!c)
			return NULL;
		c->size = size;
	}
	c->next = d->chunks;
	d->chunks = c;
	if (partial)
		memcpy(c->data, d->event_start, partial);
	if (d->event_start)
		d->event_start = c->data;
	d->out = c->data + partial;
	d->out_end = c->data + size;
	return d->out;
}

void ltt_ctf_out_reset(ctf_decoder *d)
{
	while (d->chunks) {
		ctf_out_chunk *c = d->chunks;

		d->chunks = c->next;
		if (c->size == CHUNK_BYTES && !d->spare) {
			c->next = NULL;
			d->spare = c;
		} else {
			g_free(c);
		}
	}
	d->out = d->out_end = d->event_start = NULL;
}

void ltt_ctf_decoder_fini(ctf_decoder *d)
{
	ltt_ctf_out_reset(d);
	g_free(d->spare);
	d->spare = NULL;
}

static int fail_at(ctf_decoder *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail_at(ctf_decoder *d, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(d->fail_buf, sizeof(d->fail_buf), fmt, ap);
	va_end(ap);
	d->fail = d->fail_buf;
	d->fail_pos = d->pos;
	return -1;
}

static inline int align_to(ctf_decoder *d, unsigned align)
{
	uint64_t p = (d->pos + align - 1) & ~(uint64_t)(align - 1);

	if (p > d->end)
		return fail_at(d, "alignment to %u bits past the end of the packet's content",
			       align);
	d->pos = p;
	return 0;
}

/* The raw bits of an integer (or float) of t at d->pos, which moves past it. */
static inline int read_bits(ctf_decoder *d, const ctf_type *t, uint64_t *out)
{
	unsigned bits = t->bits;
	const uint8_t *p;
	uint64_t v;

	if (align_to(d, t->align) < 0)
		return -1;
	if (bits > d->end - d->pos)
		return fail_at(d, "a %u-bit value past the end of the packet's content", bits);
	p = d->buf + (d->pos >> 3);
	if (__builtin_expect((d->pos & 7) == 0 && (bits & 7) == 0, 1)) {
		switch (bits) {
		case 8: v = p[0]; break;
		case 16: { uint16_t x; memcpy(&x, p, 2); v = t->big_endian ? __builtin_bswap16(x) : x; break; }
		case 32: { uint32_t x; memcpy(&x, p, 4); v = t->big_endian ? __builtin_bswap32(x) : x; break; }
		case 64: { uint64_t x; memcpy(&x, p, 8); v = t->big_endian ? __builtin_bswap64(x) : x; break; }
		default: goto general;
		}
		d->pos += bits;
		*out = v;
		return 0;
	}
general: {
		unsigned shift = (unsigned)(d->pos & 7);
		unsigned nbytes = (shift + bits + 7) / 8;	/* at most 9 */
		unsigned __int128 acc = 0;

		if (t->big_endian) {
			for (unsigned i = 0; i < nbytes; i++)
				acc = (acc << 8) | p[i];
			acc >>= nbytes * 8 - shift - bits;
		} else {
			for (unsigned i = nbytes; i-- > 0;)
				acc = (acc << 8) | p[i];
			acc >>= shift;
		}
		v = (uint64_t)acc;
		if (bits < 64)
			v &= ((uint64_t)1 << bits) - 1;
	}
	d->pos += bits;
	*out = v;
	return 0;
}

static inline uint64_t sign_extend(uint64_t v, unsigned bits)
{
	unsigned s = 64 - bits;

	return bits < 64 ? (uint64_t)((int64_t)(v << s) >> s) : v;
}

static inline void emit_int(ctf_decoder *d, uint64_t v, unsigned bits)
{
	switch (ltt_ctf_out_int_size(bits)) {
	case 1: { uint8_t x = (uint8_t)v; memcpy(d->out, &x, 1); d->out += 1; break; }
	case 2: { uint16_t x = (uint16_t)v; memcpy(d->out, &x, 2); d->out += 2; break; }
	case 4: { uint32_t x = (uint32_t)v; memcpy(d->out, &x, 4); d->out += 4; break; }
	default: memcpy(d->out, &v, 8); d->out += 8; break;
	}
}

/* The clock: an n-bit sample of it sets its low n bits; a sample below
 * the previous one's low bits means the clock wrapped past 2^n once. */
static inline void update_clock(ctf_decoder *d, uint64_t v, unsigned bits)
{
	if (bits >= 64) {
		d->clock = v;
	} else {
		uint64_t mask = ((uint64_t)1 << bits) - 1;
		uint64_t c = (d->clock & ~mask) | v;

		if (v < (d->clock & mask))
			c += mask + 1;
		d->clock = c;
	}
}

static int decode(ctf_decoder *d, const ctf_type *t, bool emit, uint64_t *ival, int depth);

static int elements(ctf_decoder *d, const ctf_type *t, uint64_t count, bool emit, int depth)
{
	const ctf_type *e = t->elem;

	if (count > d->end - d->pos && count > d->budget)
		return fail_at(d, "%" PRIu64 " elements cannot fit in the %" PRIu64
			       " bits left in the packet", count, d->end - d->pos);
	if (is_text(t)) {
		const uint8_t *s = d->buf + (d->pos >> 3), *nul;
		size_t n;

		if ((d->pos & 7) || count * 8 > d->end - d->pos)
			return fail_at(d, "%" PRIu64 " bytes of text past the end of the "
				       "packet's content", count);
		nul = memchr(s, 0, (size_t)count);
		n = nul ? (size_t)(nul - s) : (size_t)count;
		if (emit) {
			if (!ltt_ctf_out_reserve(d, n + 1))
				return fail_at(d, "no memory");
			memcpy(d->out, s, n);
			d->out[n] = '\0';
			d->out += n + 1;
		}
		d->pos += count * 8;
		return 0;
	}
	/* plain integers that follow each other without padding (their
	 * alignment at most their size): their bytes are the output, one copy */
	if (e->plain && e->align <= e->bits && (d->pos & (e->align - 1)) == 0 &&
	    (d->pos & 7) == 0) {
		uint64_t bytes = count * (e->bits >> 3);

		if (count > (d->end - d->pos) / e->bits)
			return fail_at(d, "%" PRIu64 " values of %u bits past the end of the "
				       "packet's content", count, e->bits);
		if (emit) {
			if (!ltt_ctf_out_reserve(d, (size_t)bytes))
				return fail_at(d, "no memory");
			memcpy(d->out, d->buf + (d->pos >> 3), (size_t)bytes);
			d->out += bytes;
		}
		d->pos += bytes * 8;
		return 0;
	}
	for (uint64_t i = 0; i < count; i++)
		if (decode(d, e, emit, NULL, depth + 1) < 0)
			return -1;
	return 0;
}

static int decode(ctf_decoder *d, const ctf_type *t, bool emit, uint64_t *ival, int depth)
{
	uint64_t v;

	if (__builtin_expect(d->budget == 0, 0))
		return fail_at(d, "more values in one event than its packet can hold");
	d->budget--;
	if (depth > CTF_MAX_DEPTH)	/* ctf-meta.c refuses these: a second guard */
		return fail_at(d, "values nested deeper than %d", CTF_MAX_DEPTH);
	switch (t->kind) {
	case CTF_INT:
	case CTF_ENUM:
		if (read_bits(d, t, &v) < 0)
			return -1;
		if (t->is_signed)
			v = sign_extend(v, t->bits);
		if (t->clock && d->clock_update)
			update_clock(d, v, t->bits);
		if (ival)
			*ival = v;
		if (emit) {
			if (!ltt_ctf_out_reserve(d, 8))
				return fail_at(d, "no memory");
			emit_int(d, v, t->bits);
		}
		return 0;
	case CTF_FLOAT:
		if (read_bits(d, t, &v) < 0)
			return -1;
		if (emit) {
			if (!ltt_ctf_out_reserve(d, 8))
				return fail_at(d, "no memory");
			emit_int(d, v, t->bits);
		}
		return 0;
	case CTF_STRING: {
		const uint8_t *s, *nul;
		size_t left;

		if (align_to(d, 8) < 0)
			return -1;
		s = d->buf + (d->pos >> 3);
		left = (size_t)((d->end - d->pos) >> 3);
		nul = memchr(s, 0, left);
		if (!nul)
			return fail_at(d, "a string without its NUL before the end of the "
				       "packet's content");
		left = (size_t)(nul - s) + 1;
		if (emit) {
			if (!ltt_ctf_out_reserve(d, left))
				return fail_at(d, "no memory");
			memcpy(d->out, s, left);
			d->out += left;
		}
		d->pos += left * 8;
		return 0;
	}
	case CTF_ARRAY:
		if (align_to(d, t->align) < 0)
			return -1;
		return elements(d, t, t->length, emit, depth);
	case CTF_SEQUENCE: {
		uint64_t count = d->slots[t->ref_slot];

		if (count > UINT32_MAX)
			return fail_at(d, "a sequence of %" PRIu64 " elements (its length "
				       "field %s)", count, t->ref);
		if (align_to(d, t->align) < 0)
			return -1;
		if (emit && !is_text(t)) {
			uint32_t n = (uint32_t)count;

			if (!ltt_ctf_out_reserve(d, 4))
				return fail_at(d, "no memory");
			memcpy(d->out, &n, 4);
			d->out += 4;
		}
		return elements(d, t, count, emit, depth);
	}
	case CTF_STRUCT:
		if (align_to(d, t->align) < 0)
			return -1;
		for (unsigned i = 0; i < t->num_members; i++) {
			const ctf_member *m = &t->members[i];
			const ctf_type *mt = m->type;

			/* the common member, without a call: a little-endian
			 * integer on a byte, whose output is its own bytes (the
			 * host is little-endian: the output is native) */
			if (__builtin_expect(mt->plain && (d->pos & 7) == 0 &&
					     d->budget > 0, 1)) {
				unsigned nb = mt->bits >> 3;
				const uint8_t *p;

				d->pos = (d->pos + mt->align - 1) & ~(uint64_t)(mt->align - 1);
				if (d->pos > d->end || mt->bits > d->end - d->pos)
					return fail_at(d, "a %u-bit value past the end of the "
						       "packet's content", mt->bits);
				d->budget--;
				p = d->buf + (d->pos >> 3);
				d->pos += mt->bits;
				/* copies of a constant size, not calls to memcpy */
				switch (nb) {
				case 1: v = p[0]; break;
				case 2: { uint16_t x; memcpy(&x, p, 2); v = x; break; }
				case 4: { uint32_t x; memcpy(&x, p, 4); v = x; break; }
				default: memcpy(&v, p, 8); break;
				}
				if (emit) {
					if (__builtin_expect(d->out_end - d->out < 8, 0) &&
					    !ltt_ctf_out_reserve(d, 8))
						return fail_at(d, "no memory");
					memcpy(d->out, &v, 8);	/* little-endian: its nb bytes first */
					d->out += nb;
				}
				if (m->slot >= 0) {
					if (mt->is_signed)
						v = sign_extend(v, mt->bits);
					d->slots[m->slot] = v;
				}
				continue;
			}
			/* a short text array on a byte (LTTng's procname, char[16]):
			 * its bytes up to the first NUL, then a NUL, without the calls
			 * of the generic walk; anything unusual takes that walk */
			if (mt->kind == CTF_ARRAY && mt->length <= 64 && mt->align <= 8 && is_text(mt) &&
			    (d->pos & 7) == 0 && d->budget > 0 &&
			    mt->length * 8 <= d->end - d->pos) {
				unsigned len = (unsigned)mt->length, n = 0;
				const uint8_t *p = d->buf + (d->pos >> 3);

				while (n < len && p[n])
					n++;
				d->budget--;
				d->pos += (uint64_t)len * 8;
				if (emit) {
					if (!ltt_ctf_out_reserve(d, n + 1))
						return fail_at(d, "no memory");
					/* LTTng's are 16 bytes (the kernel's TASK_COMM_LEN):
					 * one copy of a constant size, then the NUL */
					if (len == 16)
						memcpy(d->out, p, 16);
					else
						memcpy(d->out, p, n);
					d->out[n] = '\0';
					d->out += n + 1;
				}
				continue;
			}
			if (decode(d, mt, emit, &v, depth + 1) < 0)
				return -1;
			if (m->slot >= 0)
				d->slots[m->slot] = v;
		}
		return 0;
	case CTF_VARIANT: {
		uint64_t tag = d->slots[t->ref_slot];
		const ctf_type *tt = t->tag;
		unsigned opt = UINT32_MAX;

		for (unsigned k = 0; k < tt->num_maps && opt == UINT32_MAX; k++) {
			const ctf_mapping *mp = &tt->maps[k];
			bool in = tt->is_signed
				? (int64_t)tag >= mp->lo && (int64_t)tag <= mp->hi
				: tag >= (uint64_t)mp->lo && tag <= (uint64_t)mp->hi;

			if (in)
				opt = t->map_option[k];
		}
		if (opt == UINT32_MAX)
			return fail_at(d, "variant tag %s = %" PRIu64 " selects no option",
				       t->ref, tag);
		for (unsigned i = 0; i < t->num_members; i++) {
			if (emit) {
				if (!ltt_ctf_out_reserve(d, 1))
					return fail_at(d, "no memory");
				*d->out++ = i == opt;
			}
			if (i == opt && decode(d, t->members[i].type, emit, &v, depth + 1) < 0)
				return -1;
		}
		return 0;
	}
	}
	return fail_at(d, "a type of unknown kind");
}

int ltt_ctf_decode(ctf_decoder *d, const ctf_type *t, bool emit)
{
	return decode(d, t, emit, NULL, 0);
}

/* A little-endian unsigned integer of 1, 2, 4 or 8 bytes (on a
 * little-endian host): a copy of a constant size, not a call to memcpy. */
static inline uint64_t load_le(const uint8_t *p, unsigned nbytes)
{
	switch (nbytes) {
	case 1: return p[0];
	case 2: { uint16_t x; memcpy(&x, p, 2); return x; }
	case 4: { uint32_t x; memcpy(&x, p, 4); return x; }
	default: { uint64_t x; memcpy(&x, p, 8); return x; }
	}
}

static unsigned max_align(unsigned a, unsigned b)
{
	return a > b ? a : b;
}

void ltt_ctf_fast_header_init(ctf_fast_header *f, const ctf_type *h)
{
	const ctf_member *id, *v;
	const ctf_type *c, *ts;

	memset(f, 0, sizeof(*f));
	if (!h || h->kind != CTF_STRUCT || h->num_members != 2)
		return;
	id = &h->members[0];
	v = &h->members[1];
	/* the id: a little-endian enum of whole bytes, kept as the event id */
	if (id->type->kind != CTF_ENUM || !id->type->plain || id->type->is_signed ||
	    id->slot != CTF_SLOT_EVENT_ID)
		return;
	/* the variant on it, whose value nobody keeps */
	if (v->type->kind != CTF_VARIANT || v->type->tag != id->type || v->slot >= 0 ||
	    v->type->ref_slot != CTF_SLOT_EVENT_ID)
		return;
	for (unsigned i = 0; i < v->type->num_members; i++) {
		c = v->type->members[i].type;
		if (c->kind != CTF_STRUCT || c->num_members != 1 || c->members[0].slot >= 0)
			continue;
		ts = c->members[0].type;
		/* the timestamp: a little-endian unsigned integer of whole
		 * bytes mapped to the clock (plain but for the clock) */
		if (ts->kind != CTF_INT || !ts->clock || ts->is_signed || ts->big_endian ||
		    __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__ ||
		    (ts->bits != 8 && ts->bits != 16 && ts->bits != 32 && ts->bits != 64))
			continue;
		f->ok = true;
		f->id_align = max_align(h->align, id->type->align);
		f->id_bits = id->type->bits;
		f->variant = v->type;
		f->compact = i;
		f->ts_align = max_align(c->align, ts->align);
		f->ts_bits = ts->bits;
		return;
	}
}

int ltt_ctf_decode_header(ctf_decoder *d, const ctf_type *h, const ctf_fast_header *f)
{
	const ctf_type *tag;
	uint64_t start = d->pos, pos, id, ts;
	unsigned opt = UINT32_MAX;

	if (!f->ok)
		return ltt_ctf_decode(d, h, false);
	pos = (start + f->id_align - 1) & ~(uint64_t)(f->id_align - 1);
	if ((pos & 7) || pos > d->end || f->id_bits > d->end - pos)
		return ltt_ctf_decode(d, h, false);	/* its error, or bit fields */
	id = load_le(d->buf + (pos >> 3), f->id_bits >> 3);
	pos += f->id_bits;
	tag = f->variant->tag;
	for (unsigned k = 0; k < tag->num_maps; k++)
		if (id >= (uint64_t)tag->maps[k].lo && id <= (uint64_t)tag->maps[k].hi) {
			opt = f->variant->map_option[k];
			break;
		}
	if (opt != f->compact)
		return ltt_ctf_decode(d, h, false);	/* the extended option, or none */
	pos = (pos + f->ts_align - 1) & ~(uint64_t)(f->ts_align - 1);
	if (pos > d->end || f->ts_bits > d->end - pos)
		return ltt_ctf_decode(d, h, false);
	ts = load_le(d->buf + (pos >> 3), f->ts_bits >> 3);
	d->pos = pos + f->ts_bits;
	d->slots[CTF_SLOT_EVENT_ID] = id;
	if (d->clock_update)
		update_clock(d, ts, f->ts_bits);
	return 0;
}
