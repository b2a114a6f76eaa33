// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ltt-reencode - do the writer's rules and the reader agree on a trace,
 * byte for byte?
 *
 *	ltt-reencode [-f FACILITY_DIR] TRACE_DIR
 *
 * For every event of every tracefile (read by libltttrace) it checks, on
 * the file's own bytes, what the independent writer (tests/writer) would
 * have written:
 *
 *   - where the event lies: the padding before its header from the end of
 *     the previous event of its sub-buffer (or of the block header), the
 *     header (timestamp, facility id, event id, event_size), the padding
 *     after it;
 *   - its payload: the values the reader decoded, laid out again with the
 *     writer's puts (lttw_put_*: the alignment rules of docs/format.md)
 *     from the event's description, must be the
 *     payload's bytes exactly, and exactly event_size of them;
 *   - each sub-buffer's data ends where its last event ends (lost_size).
 *
 * The reader decodes the values and gives the descriptions; the placement,
 * the sizes and the encoding are the writer's, computed here without the
 * library's layout code.  Exit 0 when every byte agrees, 1 otherwise (the
 * first disagreements are printed), 2 on usage errors.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ltt-writer.h"
#include "ltttrace.h"

#define BLOCK_HEADER_SIZE	106u
#define MAX_REPORTS		20

/* The native sizes of a facility, from its facility_load. */
struct sizes {
	unsigned int_size, long_size, pointer_size, size_t_size, alignment;
	int known;
};

static struct sizes fac_sizes[256];
static unsigned reports;

__attribute__((format(printf, 1, 2)))
static void report(const char *fmt, ...)
{
	va_list ap;

	if (reports++ >= MAX_REPORTS)
		return;
	va_start(ap, fmt);
	fputs("ltt-reencode: ", stdout);
	vprintf(fmt, ap);
	putchar('\n');
	va_end(ap);
}

/* ---- the writer's view of a type ---------------------------------------- */

static unsigned scalar_size(const ltt_field_type *t, const struct sizes *z)
{
	const char *x = ltt_field_type_xml_name(t);

	/* int, uint and enum: always int_size (a size attribute is the era's
	 * decoration, docs/format.md) */
	if (!strcmp(x, "int") || !strcmp(x, "uint") || !strcmp(x, "enum"))
		return z->int_size;
	if (!strcmp(x, "float"))
		return ltt_field_type_declared_size(t) ? ltt_field_type_declared_size(t) : 8;
	if (!strcmp(x, "int_fixed") || !strcmp(x, "uint_fixed"))
		return ltt_field_type_declared_size(t);
	if (!strcmp(x, "char") || !strcmp(x, "uchar"))
		return 1;
	if (!strcmp(x, "short") || !strcmp(x, "ushort"))
		return 2;
	if (!strcmp(x, "long") || !strcmp(x, "ulong"))
		return z->long_size;
	if (!strcmp(x, "pointer"))
		return z->pointer_size;
	if (!strcmp(x, "size_t") || !strcmp(x, "ssize_t") || !strcmp(x, "off_t"))
		return z->size_t_size;
	return 0;
}

static unsigned alignment(const ltt_field_type *t, const struct sizes *z)
{
	unsigned a = 1, m;

	switch (ltt_field_type_kind(t)) {
	case LTT_KIND_STRING:
		return 1;
	case LTT_KIND_ARRAY:
		return alignment(ltt_field_type_element(t), z);
	case LTT_KIND_SEQUENCE:
		a = alignment(ltt_field_type_length_type(t), z);
		m = alignment(ltt_field_type_element(t), z);
		return a > m ? a : m;
	case LTT_KIND_STRUCT:
	case LTT_KIND_UNION:
		for (unsigned i = 0; i < ltt_field_type_num_members(t); i++) {
			m = alignment(ltt_field_type_member(t, i), z);
			if (m > a)
				a = m;
		}
		return a;
	default:
		return scalar_size(t, z);
	}
}

/* ---- the values the reader decoded, in payload order -------------------- */

struct values {
	ltt_value *v;
	size_t n, cap, next;
};

static int collect(void *user, const char *name, int depth, const ltt_value *v)
{
	struct values *vs = user;

	if (vs->n == vs->cap) {
		vs->cap = vs->cap ? 2 * vs->cap : 64;
		vs->v = realloc(vs->v, vs->cap * sizeof(*vs->v));
		if (!vs->v) {
			fprintf(stderr, "ltt-reencode: out of memory\n");
			exit(2);
		}
	}
	vs->v[vs->n++] = *v;
	return 0;
}

/* Lays out the next value of type t with the writer's puts. */
static int encode(lttw_payload *p, const ltt_field_type *t, struct values *vs,
		  const struct sizes *z)
{
	const ltt_value *v;
	unsigned size;

	if (vs->next >= vs->n)
		return -1;
	v = &vs->v[vs->next++];
	switch (ltt_field_type_kind(t)) {
	case LTT_KIND_STRING:
		lttw_put_string(p, v->str);
		return 0;
	case LTT_KIND_ARRAY:
		lttw_align(p, alignment(t, z));
		for (uint64_t i = 0; i < v->u; i++)
			if (encode(p, ltt_field_type_element(t), vs, z) < 0)
				return -1;
		return 0;
	case LTT_KIND_SEQUENCE: {
		const ltt_field_type *el = ltt_field_type_element(t);

		lttw_put_seq_len(p, v->u, scalar_size(ltt_field_type_length_type(t), z),
				 alignment(el, z));
		for (uint64_t i = 0; i < v->u; i++)
			if (encode(p, el, vs, z) < 0)
				return -1;
		lttw_seq_end(p);
		return 0;
	}
	case LTT_KIND_STRUCT:
		lttw_align(p, alignment(t, z));
		for (unsigned i = 0; i < ltt_field_type_num_members(t); i++)
			if (encode(p, ltt_field_type_member(t, i), vs, z) < 0)
				return -1;
		return 0;
	case LTT_KIND_UNION: {
		/* every member at the same place: the longest one's bytes */
		size_t start, best = 0;
		unsigned char *keep = NULL;

		lttw_align(p, alignment(t, z));
		start = p->len;
		for (unsigned i = 0; i < ltt_field_type_num_members(t); i++) {
			p->len = start;
			if (encode(p, ltt_field_type_member(t, i), vs, z) < 0) {
				free(keep);
				return -1;
			}
			if (p->len - start > best) {
				best = p->len - start;
				free(keep);
				keep = malloc(best);
				if (keep)
					memcpy(keep, p->buf + start, best);
			}
		}
		p->len = start;
		if (keep)
			lttw_put_raw(p, keep, best);
		free(keep);
		return 0;
	}
	case LTT_KIND_FLOAT:
		lttw_put_float(p, v->f, v->size);
		return 0;
	case LTT_KIND_INT:
		size = scalar_size(t, z);
		if (size != v->size)
			return -1;
		lttw_put_int_n(p, v->i, size);
		return 0;
	default:
		size = scalar_size(t, z);
		if (size != v->size)
			return -1;
		lttw_put_uint_n(p, v->u, size);
		return 0;
	}
}

/* ---- one tracefile ------------------------------------------------------- */

struct ev {
	uint64_t offset, cycles;
	unsigned fac, id;
	size_t size;
	const unsigned char *payload;
	unsigned char *bytes;	/* the re-encoded payload, or NULL */
	size_t blen;
	int encoded;
};

static unsigned char *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	unsigned char *buf = NULL;
	size_t cap = 0, n = 0;

	if (!f)
		return NULL;
	for (;;) {
		if (n == cap) {
			cap = cap ? 2 * cap : 1 << 16;
			buf = realloc(buf, cap);
			if (!buf)
				break;
		}
		size_t r = fread(buf + n, 1, cap - n, f);

		n += r;
		if (r == 0)
			break;
	}
	fclose(f);
	*len = n;
	return buf;
}

static int cmp_offset(const void *a, const void *b)
{
	const struct ev *x = a, *y = b;

	return x->offset < y->offset ? -1 : x->offset > y->offset;
}

/*
 * Checks one tracefile's events (sorted by offset) against its bytes: the
 * placement and header of each event, its re-encoded payload, the end of
 * the data of each sub-buffer.
 */
static unsigned check_file(const char *path, const char *rel, struct ev *evs,
			   size_t n, unsigned hb, unsigned a)
{
	size_t len;
	unsigned char *b = read_file(path, &len);
	unsigned bad = 0;
	size_t i = 0;
	uint32_t subbuf;
	unsigned hsize = hb ? 8 : 12;

	if (!b) {
		report("%s: cannot read: %s", rel, strerror(errno));
		return 1;
	}
	if (len < BLOCK_HEADER_SIZE) {
		free(b);
		return n != 0;
	}
	memcpy(&subbuf, b + 36, 4);
	for (size_t blk = 0; blk * subbuf < len; blk++) {
		size_t base = blk * subbuf;
		uint32_t lost, bsize;
		uint64_t off = BLOCK_HEADER_SIZE;	/* in the sub-buffer */

		memcpy(&lost, b + base + 32, 4);
		memcpy(&bsize, b + base + 36, 4);
		for (; i < n && evs[i].offset < base + subbuf; i++) {
			struct ev *e = &evs[i];
			unsigned pre, post;
			uint64_t want;
			unsigned fac, id, esize;

			lttw_event_place((uint32_t)off, hb, a, e->size, &pre, &post);
			want = base + off + pre;
			if (e->offset != want) {
				report("%s: event %zu (%u.%u) at 0x%" PRIx64 ", the writer "
				       "puts it at 0x%" PRIx64, rel, i, e->fac, e->id,
				       e->offset, want);
				bad++;
			}
			fac = b[e->offset + hsize - 4];
			id = b[e->offset + hsize - 3];
			esize = b[e->offset + hsize - 2] | (unsigned)b[e->offset + hsize - 1] << 8;
			if (fac != e->fac || id != e->id ||
			    (esize != (e->size >= 0xFFFF ? 0xFFFF : e->size))) {
				report("%s: event %zu header says %u.%u size %u, the reader "
				       "%u.%u size %zu", rel, i, fac, id, esize, e->fac,
				       e->id, e->size);
				bad++;
			}
			if (hb) {
				uint32_t ts;

				memcpy(&ts, b + e->offset, 4);
				if (ts != (uint32_t)e->cycles) {
					report("%s: event %zu timestamp 0x%08x, cycles "
					       "0x%" PRIx64, rel, i, ts, e->cycles);
					bad++;
				}
			}
			off = e->offset - base + hsize + post + e->size;
			if (e->encoded) {
				size_t pl = e->offset + hsize + post;

				if (e->blen != e->size ||
				    memcmp(b + pl, e->bytes, e->size) != 0) {
					size_t k = 0;

					while (k < e->blen && k < e->size && b[pl + k] == e->bytes[k])
						k++;
					report("%s: event %zu (%u.%u) at 0x%" PRIx64 ": %zu "
					       "bytes of payload, the writer's rules give %zu; "
					       "first difference at +%zu", rel, i, e->fac, e->id,
					       e->offset, e->size, e->blen, k);
					bad++;
				}
			}
		}
		if (bsize != subbuf || (uint64_t)subbuf - lost != off) {
			report("%s: sub-buffer %zu: data ends at %u (lost_size %u), its "
			       "last event at %" PRIu64, rel, blk, subbuf - lost, lost, off);
			bad++;
		}
	}
	free(b);
	return bad;
}

int main(int argc, char **argv)
{
	ltt_trace *t;
	ltt_error *err = NULL;
	const ltt_trace_info *info;
	unsigned ntf, bad = 0;
	uint64_t total = 0, encoded = 0;

	const char *dirs[2] = { NULL, NULL };
	ltt_open_options opt = { .size = sizeof(opt), .facility_dirs = dirs };

	if (argc == 4 && strcmp(argv[1], "-f") == 0) {
		dirs[0] = argv[2];
		argv += 2;
		argc -= 2;
	}
	if (argc != 2) {
		fprintf(stderr, "usage: ltt-reencode [-f FACILITY_DIR] TRACE_DIR\n");
		return 2;
	}
	t = ltt_trace_open(argv[1], &opt, &err);
	if (!t) {
		fprintf(stderr, "ltt-reencode: %s\n", ltt_error_message(err));
		ltt_error_free(err);
		return 1;
	}
	info = ltt_trace_get_info(t);
	ntf = ltt_trace_num_tracefiles(t);

	/* the facilities' sizes, from their loads */
	{
		ltt_iter *it = ltt_iter_new(&t, 1, &err);
		const ltt_event *ev;

		while (it && ltt_iter_next(it, &ev, &err) > 0) {
			uint64_t id;

			if (ltt_event_facility_id(ev) != LTT_CORE_FACILITY_ID ||
			    (ltt_event_id(ev) != LTT_EVENT_CORE_FACILITY_LOAD &&
			     ltt_event_id(ev) != LTT_EVENT_CORE_STATE_DUMP_FACILITY_LOAD))
				continue;
			id = ltt_event_get_uint(ev, "id", 256);
			if (id >= 256)
				continue;
			fac_sizes[id] = (struct sizes){
				.int_size = (unsigned)ltt_event_get_uint(ev, "int_size", 0),
				.long_size = (unsigned)ltt_event_get_uint(ev, "long_size", 0),
				.pointer_size = (unsigned)ltt_event_get_uint(ev, "pointer_size", 0),
				.size_t_size = (unsigned)ltt_event_get_uint(ev, "size_t_size", 0),
				.alignment = (unsigned)ltt_event_get_uint(ev, "has_alignment", 0),
				.known = 1,
			};
		}
		ltt_iter_free(it);
	}
	/* core before its own load is read: the trace header's sizes */
	if (!fac_sizes[0].known)
		fac_sizes[0] = (struct sizes){ 4, info->arch_size, info->arch_size,
					       info->arch_size, info->has_alignment, 1 };

	for (unsigned f = 0; f < ntf; f++) {
		ltt_tracefile *tf = ltt_trace_tracefile(t, f);
		ltt_iter *it = ltt_iter_new(&t, 1, &err);
		const ltt_event *ev;
		struct ev *evs = NULL;
		size_t n = 0, cap = 0;
		char *path;

		while (it && ltt_iter_next(it, &ev, &err) > 0) {
			struct ev *e;
			size_t size;

			if (ltt_event_tracefile(ev) != tf)
				continue;
			if (n == cap) {
				cap = cap ? 2 * cap : 1024;
				evs = realloc(evs, cap * sizeof(*evs));
				if (!evs)
					return 2;
			}
			e = &evs[n++];
			memset(e, 0, sizeof(*e));
			e->offset = ltt_event_file_offset(ev);
			e->cycles = ltt_event_cycles(ev);
			e->fac = ltt_event_facility_id(ev);
			e->id = ltt_event_id(ev);
			ltt_event_payload(ev, &size);
			e->size = size;
			if (ltt_event_is_known(ev) && fac_sizes[e->fac].known) {
				const ltt_facility *fac = ltt_trace_facility(t, e->fac);
				const ltt_description *d = fac ? ltt_facility_description(fac) : NULL;
				struct values vs = { 0 };
				lttw_payload p;
				int r = 0;

				if (!d) {
					report("%s: facility %u has no description", ltt_tracefile_relpath(tf), e->fac);
					bad++;
					continue;
				}
				ltt_event_visit_fields(ev, collect, &vs);
				lttw_payload_init_raw(&p, fac_sizes[e->fac].alignment,
						      fac_sizes[e->fac].pointer_size);
				p.int_size = fac_sizes[e->fac].int_size;
				p.long_size = fac_sizes[e->fac].long_size;
				p.size_t_size = fac_sizes[e->fac].size_t_size;
				for (unsigned i = 0; r == 0 && i < ltt_description_num_fields(d, e->id); i++) {
					const ltt_field_type *ft = ltt_description_field_type(d, e->id, i);

					lttw_align(&p, alignment(ft, &fac_sizes[e->fac]));
					r = encode(&p, ft, &vs, &fac_sizes[e->fac]);
				}
				if (r < 0 || vs.next != vs.n) {
					report("%s: event at 0x%" PRIx64 " (%u.%u): its values do "
					       "not fit its description", ltt_tracefile_relpath(tf),
					       e->offset, e->fac, e->id);
					bad++;
				} else {
					e->encoded = 1;
					e->bytes = malloc(p.len ? p.len : 1);
					if (!e->bytes)
						return 2;
					if (p.len)
						memcpy(e->bytes, p.buf, p.len);
					e->blen = p.len;
					encoded++;
				}
				lttw_payload_free(&p);
				free(vs.v);
			}
		}
		ltt_iter_free(it);
		if (err) {
			fprintf(stderr, "ltt-reencode: %s\n", ltt_error_message(err));
			return 1;
		}
		if (n)	/* an empty tracefile has no array at all */
			qsort(evs, n, sizeof(*evs), cmp_offset);
		path = malloc(strlen(argv[1]) + strlen(ltt_tracefile_relpath(tf)) + 2);
		if (!path)
			return 2;
		sprintf(path, "%s/%s", argv[1], ltt_tracefile_relpath(tf));
		bad += check_file(path, ltt_tracefile_relpath(tf), evs, n,
				  info->has_heartbeat, info->has_alignment);
		free(path);
		total += n;
		for (size_t i = 0; i < n; i++)
			free(evs[i].bytes);
		free(evs);
	}
	printf("ltt-reencode: %s: %" PRIu64 " events in %u tracefiles, %" PRIu64
	       " payloads laid out again by the writer's rules: %s\n", argv[1],
	       total, ntf, encoded, bad ? "DIFFERENT" : "byte for byte the same");
	ltt_trace_close(t);
	return bad ? 1 : 0;
}
