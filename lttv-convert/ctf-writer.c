/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ctf-writer.c - write an LTT trace as a CTF 1.8 trace.
 *
 * Layout of the output:
 *   metadata          TSDL text: the clock, one stream class, one event
 *                     class per (facility, event) met in the trace
 *   <tracefile>       one data stream per LTT tracefile ("cpu_0",
 *                     "control_facilities_0"), one packet per LTT sub-buffer
 *
 * Every field is byte-aligned (TSDL align = 8 bits) and re-encoded from the
 * decoded values, so the CTF side does not depend on the LTT alignment
 * rules. Times are written in nanoseconds since the epoch on a 1 GHz clock:
 * exactly the times lttv-text prints. A sequence gets a 32-bit length
 * field before it; a union is written as a struct of all its readings;
 * events without a description become a byte sequence `raw`.
 * Field names are written with a leading underscore, which CTF readers
 * remove, so that names like "type" or "string" cannot clash with TSDL.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "ctf-writer.h"

#define CTF_MAGIC 0xC1FC1FC1U
/* packet header (8) + context (8+8+8+8+8+4) */
#define PACKET_HEADER_BYTES 52

typedef struct stream {
	char *path;
	FILE *file;
	GByteArray *packet;	/* events of the packet being built */
	uint64_t block;		/* LTT sub-buffer of that packet */
	int64_t first_ns, last_ns;
	unsigned cpu;
	const ltt_tracefile *tf;
	int open;
	uint64_t lost;		/* the last channel.buffer_stats of the stream so far */
} stream;

typedef struct event_class {
	unsigned fac_id, ev_id;
	char *name;
	const ltt_facility *fac;	/* NULL: raw */
	const ltt_description *desc;
	unsigned desc_event;
} event_class;

struct ctf_writer {
	char *dir;
	ltt_trace *trace;
	GHashTable *streams;		/* ltt_tracefile* -> stream* */
	GHashTable *classes;		/* id -> event_class* */
	GByteArray *payload;		/* scratch for one event */
	int failed;
	char error[512];
};

static void fail(ctf_writer *w, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void fail(ctf_writer *w, const char *fmt, ...)
{
	va_list ap;

	if (w->failed)
		return;
	w->failed = 1;
	va_start(ap, fmt);
	vsnprintf(w->error, sizeof(w->error), fmt, ap);
	va_end(ap);
}

const char *ctf_writer_error(const ctf_writer *w)
{
	return w->error;
}

static void free_stream(gpointer p)
{
	stream *s = p;

	if (s->file)
		fclose(s->file);
	g_byte_array_free(s->packet, TRUE);
	g_free(s->path);
	g_free(s);
}

static void free_class(gpointer p)
{
	event_class *c = p;

	g_free(c->name);
	g_free(c);
}

ctf_writer *ctf_writer_new(const char *dir, ltt_trace *trace)
{
	ctf_writer *w = g_new0(ctf_writer, 1);

	w->dir = g_strdup(dir);
	w->trace = trace;
	w->streams = g_hash_table_new_full(NULL, NULL, NULL, free_stream);
	w->classes = g_hash_table_new_full(NULL, NULL, NULL, free_class);
	w->payload = g_byte_array_new();
	if (g_mkdir_with_parents(dir, 0755) < 0)
		fail(w, "cannot create %s: %s", dir, strerror(errno));
	return w;
}

static void put(GByteArray *b, const void *p, size_t n)
{
	g_byte_array_append(b, p, (guint)n);
}

static void put_u64(GByteArray *b, uint64_t v)
{
	put(b, &v, 8);	/* little endian: the TSDL says byte_order = le */
}

static void put_u32(GByteArray *b, uint32_t v)
{
	put(b, &v, 4);
}

static void flush_packet(ctf_writer *w, stream *s)
{
	GByteArray *h;
	uint64_t bits;

	if (!s->packet->len || w->failed)
		return;
	h = g_byte_array_sized_new(PACKET_HEADER_BYTES);
	bits = (uint64_t)(PACKET_HEADER_BYTES + s->packet->len) * 8;
	put_u32(h, CTF_MAGIC);
	put_u32(h, 0);				/* stream_id */
	put_u64(h, (uint64_t)s->first_ns);	/* timestamp_begin */
	put_u64(h, (uint64_t)s->last_ns);	/* timestamp_end */
	put_u64(h, bits);			/* content_size */
	put_u64(h, bits);			/* packet_size */
	put_u64(h, s->lost);			/* events_discarded, cumulative */
	put_u32(h, s->cpu);			/* cpu_id */
	if (fwrite(h->data, 1, h->len, s->file) != h->len ||
	    fwrite(s->packet->data, 1, s->packet->len, s->file) != s->packet->len)
		fail(w, "writing %s: %s", s->path, strerror(errno));
	g_byte_array_free(h, TRUE);
	g_byte_array_set_size(s->packet, 0);
}

static stream *stream_of(ctf_writer *w, const ltt_tracefile *tf)
{
	stream *s = g_hash_table_lookup(w->streams, tf);
	char *name;

	if (s)
		return s;
	s = g_new0(stream, 1);
	s->tf = tf;
	s->cpu = ltt_tracefile_cpu(tf);
	s->packet = g_byte_array_new();
	name = g_strdup(ltt_tracefile_relpath(tf));
	g_strdelimit(name, "/", '_');
	s->path = g_build_filename(w->dir, name, NULL);
	g_free(name);
	s->file = fopen(s->path, "wb");
	if (!s->file)
		fail(w, "cannot write %s: %s", s->path, strerror(errno));
	g_hash_table_insert(w->streams, (gpointer)tf, s);
	return s;
}

static unsigned class_id(const ltt_event *ev)
{
	return ltt_event_facility_id(ev) * 256 + ltt_event_id(ev);
}

static void note_class(ctf_writer *w, const ltt_event *ev)
{
	unsigned id = class_id(ev);
	event_class *c;
	const ltt_facility *fac;

	if (g_hash_table_contains(w->classes, GUINT_TO_POINTER(id)))
		return;
	c = g_new0(event_class, 1);
	c->fac_id = ltt_event_facility_id(ev);
	c->ev_id = ltt_event_id(ev);
	c->name = g_strdup_printf("%s.%s", ltt_event_facility_name(ev), ltt_event_name(ev));
	fac = ltt_trace_facility(w->trace, c->fac_id);
	if (ltt_event_is_known(ev) && fac && ltt_facility_description(fac)) {
		c->fac = fac;
		c->desc = ltt_facility_description(fac);
		c->desc_event = c->ev_id;
	}
	g_hash_table_insert(w->classes, GUINT_TO_POINTER(id), c);
}

/* Re-encodes one decoded value; compounds write nothing themselves but a
 * sequence writes its 32-bit length. */
static int encode(void *user, const char *name, int depth, const ltt_value *v)
{
	GByteArray *b = user;

	switch (v->kind) {
	case LTT_KIND_INT:
	case LTT_KIND_UINT:
	case LTT_KIND_POINTER:
	case LTT_KIND_ENUM:
		put(b, &v->u, v->size);	/* the low bytes: little endian */
		break;
	case LTT_KIND_FLOAT:
		if (v->size == 4) {
			float f = (float)v->f;

			put(b, &f, 4);
		} else {
			put(b, &v->f, 8);
		}
		break;
	case LTT_KIND_STRING:
		put(b, v->str, strlen(v->str) + 1);
		break;
	case LTT_KIND_SEQUENCE:
		put_u32(b, (uint32_t)v->u);
		break;
	default:
		break;
	}
	return 0;
}

int ctf_writer_event(ctf_writer *w, const ltt_event *ev)
{
	const ltt_tracefile *tf = ltt_event_tracefile(ev);
	stream *s = stream_of(w, tf);
	uint64_t block = ltt_event_file_offset(ev) / ltt_tracefile_subbuf_size(tf);
	int64_t t = ltt_event_time_ns(ev);

	if (w->failed)
		return -1;
	if (s->packet->len && block != s->block)
		flush_packet(w, s);
	if (!s->packet->len) {
		s->block = block;
		s->first_ns = t;
	}
	s->last_ns = t;
	if (!strcmp(ltt_event_name(ev), "buffer_stats") &&
	    !strcmp(ltt_event_facility_name(ev), "channel")) {
		uint64_t lost = ltt_event_get_uint(ev, "events_lost", 0);

		if (lost > s->lost)
			s->lost = lost;
	}
	note_class(w, ev);
	put_u32(s->packet, class_id(ev));
	put_u64(s->packet, (uint64_t)t);
	g_byte_array_set_size(w->payload, 0);
	if (ltt_event_is_known(ev)) {
		if (ltt_event_visit_fields(ev, encode, w->payload) < 0) {
			fail(w, "%s at offset 0x%" PRIx64 ": malformed payload",
			     ltt_tracefile_relpath(tf), ltt_event_file_offset(ev));
			return -1;
		}
	} else {
		size_t size;
		const void *p = ltt_event_payload(ev, &size);

		put_u32(w->payload, (uint32_t)size);
		put(w->payload, p, size);
	}
	put(s->packet, w->payload->data, w->payload->len);
	return 0;
}

/* ---- metadata ---- */

static void tsdl_type(GString *m, const ltt_facility *fac,
		      const ltt_field_type *t, const char *name, int indent);

static void tsdl_integer(GString *m, unsigned bytes, int is_signed, int hex)
{
	g_string_append_printf(m, "integer { size = %u; align = 8; signed = %s;%s }",
			       bytes * 8, is_signed ? "true" : "false",
			       hex ? " base = 16;" : "");
}

static void tsdl_field(GString *m, const ltt_facility *fac,
		       const ltt_field_type *t, const char *name, int indent)
{
	g_string_append_printf(m, "%*s", indent, "");
	tsdl_type(m, fac, t, name, indent);
}

/* Writes "TYPE _name[...];\n" for the field. */
static void tsdl_type(GString *m, const ltt_facility *fac,
		      const ltt_field_type *t, const char *name, int indent)
{
	unsigned size = ltt_facility_type_size(fac, t);

	switch (ltt_field_type_kind(t)) {
	case LTT_KIND_INT:
		tsdl_integer(m, size, 1, 0);
		break;
	case LTT_KIND_UINT:
		tsdl_integer(m, size, 0, 0);
		break;
	case LTT_KIND_POINTER:
		tsdl_integer(m, size, 0, 1);
		break;
	case LTT_KIND_ENUM:
		g_string_append(m, "enum : ");
		tsdl_integer(m, size, 0, 0);
		g_string_append(m, " {");
		for (unsigned i = 0; i < ltt_field_type_num_labels(t); i++) {
			int64_t v;
			const char *l = ltt_field_type_label(t, i, &v);

			g_string_append_printf(m, "%s \"%s\" = %" PRId64, i ? "," : "", l, v);
		}
		g_string_append(m, " }");
		break;
	case LTT_KIND_FLOAT:
		if (size == 4)
			g_string_append(m, "floating_point { exp_dig = 8; mant_dig = 24; align = 8; }");
		else
			g_string_append(m, "floating_point { exp_dig = 11; mant_dig = 53; align = 8; }");
		break;
	case LTT_KIND_STRING:
		g_string_append(m, "string");
		break;
	case LTT_KIND_ARRAY: {
		/* TSDL puts the dimension after the name: write the element
		 * type, then "_name[N]" */
		const ltt_field_type *e = ltt_field_type_element(t);
		char *inner = g_strdup_printf("%s[%u]", name, ltt_field_type_length(t));

		tsdl_type(m, fac, e, inner, indent);
		g_free(inner);
		return;
	}
	case LTT_KIND_SEQUENCE: {
		char *len = g_strdup_printf("_%s_length", name);
		char *inner = g_strdup_printf("%s[%s]", name, len);

		tsdl_integer(m, 4, 0, 0);
		g_string_append_printf(m, " %s;\n%*s", len, indent, "");
		tsdl_type(m, fac, ltt_field_type_element(t), inner, indent);
		g_free(len);
		g_free(inner);
		return;
	}
	case LTT_KIND_STRUCT:
	case LTT_KIND_UNION:
		g_string_append(m, "struct {\n");
		for (unsigned i = 0; i < ltt_field_type_num_members(t); i++) {
			char *member = g_strdup_printf("_%s", ltt_field_type_member_name(t, i));

			tsdl_field(m, fac, ltt_field_type_member(t, i), member, indent + 8);
			g_free(member);
		}
		g_string_append_printf(m, "%*s} align(8)", indent, "");
		break;
	default:
		break;
	}
	g_string_append_printf(m, " %s;\n", name);
}

static gint cmp_uint(gconstpointer a, gconstpointer b)
{
	unsigned x = GPOINTER_TO_UINT(*(gpointer *)a), y = GPOINTER_TO_UINT(*(gpointer *)b);

	return x < y ? -1 : x > y;
}

static void write_metadata(ctf_writer *w)
{
	GString *m = g_string_new("/* CTF 1.8 */\n\n");
	const ltt_trace_info *info = ltt_trace_get_info(w->trace);
	GPtrArray *ids = g_ptr_array_new();
	GHashTableIter hi;
	gpointer key;
	char *path;

	g_hash_table_iter_init(&hi, w->classes);
	while (g_hash_table_iter_next(&hi, &key, NULL))
		g_ptr_array_add(ids, key);

	g_string_append(m,
		"typealias integer { size = 8; align = 8; signed = false; } := uint8_t;\n"
		"typealias integer { size = 32; align = 8; signed = false; } := uint32_t;\n"
		"typealias integer { size = 64; align = 8; signed = false; } := uint64_t;\n\n"
		"trace {\n"
		"\tmajor = 1;\n\tminor = 8;\n\tbyte_order = le;\n"
		"\tpacket.header := struct {\n"
		"\t\tuint32_t magic;\n\t\tuint32_t stream_id;\n"
		"\t} align(8);\n};\n\n");
	char *base = g_path_get_basename(ltt_trace_path(w->trace));

	g_strdelimit(base, "\"\\", '_');
	g_string_append_printf(m,
		"env {\n\ttrace_name = \"%s\";\n\tdomain = \"kernel\";\n\ttracer_name = \"ltt\";\n"
		"\ttracer_major = %u;\n\ttracer_minor = %u;\n"
		"\tltt_start_tsc = %" PRIu64 ";\n\tltt_frequency_hz = %" PRIu64 ";\n};\n\n",
		base, info->major, info->minor, info->start_tsc,
		info->start_freq * info->freq_scale);
	g_free(base);
	g_string_append(m,
		"clock {\n\tname = \"ltt\";\n"
		"\tdescription = \"LTT cycle counter, converted to ns since the epoch\";\n"
		"\tfreq = 1000000000;\n\tprecision = 1;\n\toffset_s = 0;\n\toffset = 0;\n"
		"\tabsolute = true;\n};\n\n"
		"typealias integer { size = 64; align = 8; signed = false; map = clock.ltt.value; } := uint64_clock_t;\n\n"
		"stream {\n\tid = 0;\n"
		"\tpacket.context := struct {\n"
		"\t\tuint64_clock_t timestamp_begin;\n\t\tuint64_clock_t timestamp_end;\n"
		"\t\tuint64_t content_size;\n\t\tuint64_t packet_size;\n"
		"\t\tuint64_t events_discarded;\n\t\tuint32_t cpu_id;\n"
		"\t} align(8);\n"
		"\tevent.header := struct {\n"
		"\t\tuint32_t id;\n\t\tuint64_clock_t timestamp;\n"
		"\t} align(8);\n};\n\n");
	g_ptr_array_sort(ids, cmp_uint);
	for (guint i = 0; i < ids->len; i++) {
		event_class *c = g_hash_table_lookup(w->classes, ids->pdata[i]);

		g_string_append_printf(m, "event {\n\tname = \"%s\";\n\tid = %u;\n"
				       "\tstream_id = 0;\n\tfields := struct {\n",
				       c->name, GPOINTER_TO_UINT(ids->pdata[i]));
		if (c->desc) {
			for (unsigned f = 0; f < ltt_description_num_fields(c->desc, c->desc_event); f++) {
				char *name = g_strdup_printf("_%s",
					ltt_description_field_name(c->desc, c->desc_event, f));

				tsdl_field(m, c->fac, ltt_description_field_type(c->desc, c->desc_event, f),
					   name, 16);
				g_free(name);
			}
		} else {
			g_string_append(m, "\t\tuint32_t __raw_length;\n"
					   "\t\tuint8_t _raw[__raw_length];\n");
		}
		g_string_append(m, "\t} align(8);\n};\n\n");
	}
	g_ptr_array_free(ids, TRUE);
	path = g_build_filename(w->dir, "metadata", NULL);
	if (!g_file_set_contents(path, m->str, (gssize)m->len, NULL))
		fail(w, "cannot write %s", path);
	g_free(path);
	g_string_free(m, TRUE);
}

int ctf_writer_close(ctf_writer *w)
{
	GHashTableIter hi;
	gpointer key, value;
	int ret;

	g_hash_table_iter_init(&hi, w->streams);
	while (g_hash_table_iter_next(&hi, &key, &value)) {
		stream *s = value;

		flush_packet(w, s);
		if (s->file && fclose(s->file) != 0)
			fail(w, "writing %s: %s", s->path, strerror(errno));
		s->file = NULL;
	}
	if (!w->failed)
		write_metadata(w);
	ret = w->failed ? -1 : 0;
	return ret;
}

void ctf_writer_free(ctf_writer *w)
{
	if (!w)
		return;
	g_hash_table_destroy(w->streams);
	g_hash_table_destroy(w->classes);
	g_byte_array_free(w->payload, TRUE);
	g_free(w->dir);
	g_free(w);
}
