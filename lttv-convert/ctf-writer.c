/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ctf-writer.c - write an LTT trace as a CTF 1.8 trace.
 *
 * Layout of the output:
 *   metadata          TSDL text: the clock, one stream class, one event
 *                     class per (description, event, type sizes) met in
 *                     the trace: a facility id reused by another facility
 *                     after an unload gets its own classes
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
 *
 * The trace comes from another machine (issue 16): names that are not
 * identifiers are renamed (every other character becomes '_'), twins in
 * one struct numbered, strings in the metadata (event names, enum
 * labels) lose the quotes and backslashes that would end them, enum
 * labels that their container cannot hold are left out. A malformed
 * event is exported as raw bytes under a class of its own. An event whose
 * time goes back in its stream (a broken clock, a duplicated sub-buffer)
 * is written at the time of the one before it, and counted: CTF readers
 * refuse a stream that goes back in time.
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
	uint64_t first_ns, last_ns;	/* of the packet, as written */
	uint64_t written_ns;	/* the last time written in the stream */
	uint64_t lost;		/* the last channel.buffer_stats of the stream so far */
	unsigned cpu;
	const ltt_tracefile *tf;
	int open;
} stream;

typedef struct event_class {
	unsigned id;
	char *name;
	const ltt_facility *fac;	/* NULL: raw bytes */
	const ltt_description *desc;
	unsigned desc_event;
} event_class;

/* What an event's class is found by, per event: its facility load. */
typedef struct load_key {
	const ltt_facility *fac;	/* NULL: never loaded, then by id */
	unsigned fac_id, ev_id;
	int raw;			/* malformed: written as raw bytes */
} load_key;

struct ctf_writer {
	char *dir;
	ltt_trace *trace;
	GHashTable *streams;		/* ltt_tracefile* -> stream* */
	GHashTable *by_load;		/* load_key* -> event_class* */
	GHashTable *by_signature;	/* char* -> event_class* (owned) */
	GPtrArray *classes;		/* by id */
	GByteArray *payload;		/* scratch for one event */
	uint64_t clamped, malformed;
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

uint64_t ctf_writer_clamped(const ctf_writer *w)
{
	return w->clamped;
}

uint64_t ctf_writer_malformed(const ctf_writer *w)
{
	return w->malformed;
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

static guint load_hash(gconstpointer p)
{
	const load_key *k = p;

	return g_direct_hash(k->fac) ^ (k->fac_id * 65599u + k->ev_id * 31u + (guint)k->raw);
}

static gboolean load_equal(gconstpointer a, gconstpointer b)
{
	const load_key *x = a, *y = b;

	return x->fac == y->fac && x->fac_id == y->fac_id && x->ev_id == y->ev_id &&
	       x->raw == y->raw;
}

ctf_writer *ctf_writer_new(const char *dir, ltt_trace *trace)
{
	ctf_writer *w = g_new0(ctf_writer, 1);

	w->dir = g_strdup(dir);
	w->trace = trace;
	w->streams = g_hash_table_new_full(NULL, NULL, NULL, free_stream);
	w->by_load = g_hash_table_new_full(load_hash, load_equal, g_free, NULL);
	w->by_signature = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	w->classes = g_ptr_array_new_with_free_func(free_class);
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
	put_u64(h, s->first_ns);		/* timestamp_begin */
	put_u64(h, s->last_ns);			/* timestamp_end */
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

/* s as it can stand in a TSDL string: no quote or backslash to end it,
 * printable ASCII. */
static char *tsdl_string(const char *s)
{
	char *out = g_strdup(s ? s : "");

	for (char *p = out; *p; p++)
		if (*p == '"' || *p == '\\' || (unsigned char)*p < 0x20 ||
		    (unsigned char)*p >= 0x7f)
			*p = '_';
	return out;
}

/* The sizes a facility load gives the scalars of a type, as text: two
 * loads of one description with other sizes need other classes. */
static void append_sizes(GString *sig, const ltt_facility *fac,
			 const ltt_field_type *t)
{
	if (!t)
		return;
	switch (ltt_field_type_kind(t)) {
	case LTT_KIND_ARRAY:
		append_sizes(sig, fac, ltt_field_type_element(t));
		return;
	case LTT_KIND_SEQUENCE:
		append_sizes(sig, fac, ltt_field_type_length_type(t));
		append_sizes(sig, fac, ltt_field_type_element(t));
		return;
	case LTT_KIND_STRUCT:
	case LTT_KIND_UNION:
		for (unsigned i = 0; i < ltt_field_type_num_members(t); i++)
			append_sizes(sig, fac, ltt_field_type_member(t, i));
		return;
	default:
		g_string_append_printf(sig, "%u", ltt_facility_type_size(fac, t));
	}
}

/* The class of an event: found by its facility load, else by its
 * description, event and sizes (or, raw, by its facility and event id);
 * made on first sight. */
static event_class *class_of(ctf_writer *w, const ltt_event *ev, int raw)
{
	const ltt_facility *fac = ltt_event_facility(ev);
	load_key key = { fac, ltt_event_facility_id(ev), ltt_event_id(ev), raw };
	event_class *c = g_hash_table_lookup(w->by_load, &key);
	const ltt_description *desc;
	GString *sig;
	char *name;

	if (c)
		return c;
	desc = fac && ltt_event_is_known(ev) && !raw ? ltt_facility_description(fac) : NULL;
	sig = g_string_new(NULL);
	if (desc) {
		g_string_printf(sig, "known %p %u ", (const void *)desc, key.ev_id);
		for (unsigned f = 0; f < ltt_description_num_fields(desc, key.ev_id); f++)
			append_sizes(sig, fac, ltt_description_field_type(desc, key.ev_id, f));
	} else {
		g_string_printf(sig, "raw %s %08X %u %u %d", ltt_event_facility_name(ev),
				fac ? ltt_facility_checksum(fac) : 0, key.fac_id,
				key.ev_id, raw);
	}
	c = g_hash_table_lookup(w->by_signature, sig->str);
	if (!c) {
		c = g_new0(event_class, 1);
		c->id = w->classes->len;
		name = g_strdup_printf("%s.%s%s", ltt_event_facility_name(ev),
				       ltt_event_name(ev), raw ? " (malformed)" : "");
		c->name = tsdl_string(name);
		g_free(name);
		c->fac = desc ? fac : NULL;
		c->desc = desc;
		c->desc_event = key.ev_id;
		g_ptr_array_add(w->classes, c);
		g_hash_table_insert(w->by_signature, g_string_free(sig, FALSE), c);
	} else {
		g_string_free(sig, TRUE);
	}
	g_hash_table_insert(w->by_load, g_memdup2(&key, sizeof(key)), c);
	return c;
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

static void put_raw(GByteArray *b, const ltt_event *ev)
{
	size_t size;
	const void *p = ltt_event_payload(ev, &size);

	put_u32(b, (uint32_t)size);
	put(b, p, size);
}

int ctf_writer_event(ctf_writer *w, const ltt_event *ev)
{
	const ltt_tracefile *tf = ltt_event_tracefile(ev);
	stream *s = stream_of(w, tf);
	uint64_t block = ltt_event_file_offset(ev) / ltt_tracefile_subbuf_size(tf);
	int64_t t = ltt_event_time_ns(ev);
	uint64_t ts = t < 0 ? 0 : (uint64_t)t;
	event_class *c;
	int raw = 0;

	if (w->failed)
		return -1;
	/* a stream never goes back in time (see the top of the file) */
	if (ts < s->written_ns || t < 0) {
		ts = ts < s->written_ns ? s->written_ns : ts;
		w->clamped++;
	}
	s->written_ns = ts;
	g_byte_array_set_size(w->payload, 0);
	if (ltt_event_is_known(ev)) {
		if (ltt_event_visit_fields(ev, encode, w->payload) < 0) {
			g_byte_array_set_size(w->payload, 0);
			put_raw(w->payload, ev);
			w->malformed++;
			raw = 1;
		}
	} else {
		put_raw(w->payload, ev);
	}
	if (s->packet->len && block != s->block)
		flush_packet(w, s);
	if (!s->packet->len) {
		s->block = block;
		s->first_ns = ts;
	}
	s->last_ns = ts;
	if (!raw && !strcmp(ltt_event_name(ev), "buffer_stats") &&
	    !strcmp(ltt_event_facility_name(ev), "channel")) {
		uint64_t lost = ltt_event_get_uint(ev, "events_lost", 0);

		if (lost > s->lost)
			s->lost = lost;
	}
	c = class_of(w, ev, raw);
	put_u32(s->packet, c->id);
	put_u64(s->packet, ts);
	put(s->packet, w->payload->data, w->payload->len);
	return 0;
}

/* ---- metadata ---- */

/*
 * A field name as a TSDL identifier: "_" + the name with every character
 * that cannot be in an identifier made '_', numbered ("_x_2") when the
 * struct already has it. The names of one struct share a scope.
 */
static char *tsdl_name(GHashTable *scope, const char *name)
{
	GString *id = g_string_new("_");
	char *base;

	for (const char *p = name; p && *p; p++)
		g_string_append_c(id, g_ascii_isalnum(*p) ? *p : '_');
	/* the three TSDL keywords that begin with an underscore */
	if (!strcmp(id->str, "_Bool") || !strcmp(id->str, "_Complex") ||
	    !strcmp(id->str, "_Imaginary"))
		g_string_append_c(id, '_');
	/* readers show "_x" as "x" and check a new name, as written, against
	 * those they show: a name is taken in both forms */
	base = g_strdup(id->str);
	for (unsigned n = 2; g_hash_table_contains(scope, id->str) ||
			     g_hash_table_contains(scope, id->str + 1); n++)
		g_string_printf(id, "%s_%u", base, n);
	g_free(base);
	g_hash_table_add(scope, g_strdup(id->str));
	g_hash_table_add(scope, g_strdup(id->str + 1));
	return g_string_free(id, FALSE);
}

static GHashTable *new_scope(void)
{
	return g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
}

static void tsdl_type(GString *m, const ltt_facility *fac, const ltt_field_type *t,
		      const char *decl, int indent, GHashTable *scope);

static void tsdl_integer(GString *m, unsigned bytes, int is_signed, int hex)
{
	g_string_append_printf(m, "integer { size = %u; align = 8; signed = %s;%s }",
			       bytes * 8, is_signed ? "true" : "false",
			       hex ? " base = 16;" : "");
}

/* An array or sequence of <uchar/>: text (docs/format.md), whose bytes
 * babeltrace2 prints as a string when the element says UTF8. */
static int is_text(const ltt_field_type *t)
{
	const ltt_field_type *e = ltt_field_type_element(t);

	return e && strcmp(ltt_field_type_xml_name(e), "uchar") == 0;
}

/* "ELEMENT decl;" of text: bytes in a UTF8 encoding */
static void tsdl_text(GString *m, const char *decl)
{
	g_string_append_printf(m, "integer { size = 8; align = 8; signed = false; "
			       "encoding = UTF8; } %s;\n", decl);
}

/* A field named `name` (as in the description) of a struct whose names
 * are in scope. */
static void tsdl_field(GString *m, const ltt_facility *fac, const ltt_field_type *t,
		       const char *name, int indent, GHashTable *scope)
{
	char *id = tsdl_name(scope, name);

	g_string_append_printf(m, "%*s", indent, "");
	tsdl_type(m, fac, t, id, indent, scope);
	g_free(id);
}

/* The labels an unsigned container of `bytes` can hold, as the reader
 * matches them (the raw value equals the label's): " "A" = 1, ..." */
static unsigned tsdl_labels(GString *m, const ltt_field_type *t, unsigned bytes)
{
	unsigned n = 0;

	for (unsigned i = 0; i < ltt_field_type_num_labels(t); i++) {
		int64_t v;
		const char *l = ltt_field_type_label(t, i, &v);
		char *label;

		if (bytes < 8 && (v < 0 || (uint64_t)v >> (bytes * 8)))
			continue;
		label = tsdl_string(l);
		g_string_append_printf(m, "%s \"%s\" = %" PRIu64, n++ ? "," : "", label,
				       (uint64_t)v);
		g_free(label);
	}
	return n;
}

/* Writes "TYPE decl;\n": decl is the field's identifier with its array
 * dimensions ("_x[4][_x_length]"); a sequence's length is a field of the
 * scope before it. */
static void tsdl_type(GString *m, const ltt_facility *fac, const ltt_field_type *t,
		      const char *decl, int indent, GHashTable *scope)
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
	case LTT_KIND_ENUM: {
		GString *labels = g_string_new(NULL);

		/* an enum of no label a reader can match: its integer */
		if (tsdl_labels(labels, t, size)) {
			g_string_append(m, "enum : ");
			tsdl_integer(m, size, 0, 0);
			g_string_append_printf(m, " {%s }", labels->str);
		} else {
			tsdl_integer(m, size, 0, 0);
		}
		g_string_free(labels, TRUE);
		break;
	}
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
		char *inner = g_strdup_printf("%s[%u]", decl, ltt_field_type_length(t));

		if (is_text(t))
			tsdl_text(m, inner);
		else
			tsdl_type(m, fac, ltt_field_type_element(t), inner, indent, scope);
		g_free(inner);
		return;
	}
	case LTT_KIND_SEQUENCE: {
		GHashTable *own = NULL;
		char *len, *v, *inner;

		if (strchr(decl, '[')) {
			/* inside an array or a sequence: its length cannot be a
			 * field beside it, so each element is a struct of the
			 * length and the sequence */
			g_string_append(m, "struct {\n");
			own = new_scope();
			scope = own;
			indent += 8;
			g_string_append_printf(m, "%*s", indent, "");
		}
		/* a length is shown as "_x_length" (readers drop one "_"),
		 * told from the fields by its underscore */
		if (own) {
			len = tsdl_name(scope, "_length");
			v = tsdl_name(scope, "v");
		} else {	/* "_x": "__x_length" beside it */
			char *want = g_strdup_printf("%s_length", decl);

			len = tsdl_name(scope, want);
			v = g_strdup(decl);
			g_free(want);
		}
		tsdl_integer(m, 4, 0, 0);
		g_string_append_printf(m, " %s;\n%*s", len, indent, "");
		inner = g_strdup_printf("%s[%s]", v, len);
		g_free(v);
		if (is_text(t))
			tsdl_text(m, inner);
		else
			tsdl_type(m, fac, ltt_field_type_element(t), inner, indent, scope);
		g_free(len);
		g_free(inner);
		if (own) {
			indent -= 8;
			g_string_append_printf(m, "%*s} align(8) %s;\n", indent, "", decl);
			g_hash_table_destroy(own);
		}
		return;
	}
	case LTT_KIND_STRUCT:
	case LTT_KIND_UNION: {
		GHashTable *members = new_scope();

		g_string_append(m, "struct {\n");
		for (unsigned i = 0; i < ltt_field_type_num_members(t); i++)
			tsdl_field(m, fac, ltt_field_type_member(t, i),
				   ltt_field_type_member_name(t, i), indent + 8, members);
		g_string_append_printf(m, "%*s} align(8)", indent, "");
		g_hash_table_destroy(members);
		break;
	}
	default:
		break;
	}
	g_string_append_printf(m, " %s;\n", decl);
}

static void write_metadata(ctf_writer *w)
{
	GString *m = g_string_new("/* CTF 1.8 */\n\n");
	const ltt_trace_info *info = ltt_trace_get_info(w->trace);
	char *path, *base;

	g_string_append(m,
		"typealias integer { size = 8; align = 8; signed = false; } := uint8_t;\n"
		"typealias integer { size = 32; align = 8; signed = false; } := uint32_t;\n"
		"typealias integer { size = 64; align = 8; signed = false; } := uint64_t;\n\n"
		"trace {\n"
		"\tmajor = 1;\n\tminor = 8;\n\tbyte_order = le;\n"
		"\tpacket.header := struct {\n"
		"\t\tuint32_t magic;\n\t\tuint32_t stream_id;\n"
		"\t} align(8);\n};\n\n");
	{
		char *dir = g_path_get_basename(ltt_trace_path(w->trace));

		base = tsdl_string(dir);
		g_free(dir);
	}
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
	for (guint i = 0; i < w->classes->len; i++) {
		const event_class *c = w->classes->pdata[i];

		g_string_append_printf(m, "event {\n\tname = \"%s\";\n\tid = %u;\n"
				       "\tstream_id = 0;\n\tfields := struct {\n",
				       c->name, c->id);
		if (c->desc) {
			GHashTable *scope = new_scope();

			for (unsigned f = 0; f < ltt_description_num_fields(c->desc, c->desc_event); f++)
				tsdl_field(m, c->fac,
					   ltt_description_field_type(c->desc, c->desc_event, f),
					   ltt_description_field_name(c->desc, c->desc_event, f),
					   16, scope);
			g_hash_table_destroy(scope);
		} else {
			g_string_append(m, "\t\tuint32_t __raw_length;\n"
					   "\t\tuint8_t _raw[__raw_length];\n");
		}
		g_string_append(m, "\t} align(8);\n};\n\n");
	}
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
	g_hash_table_destroy(w->by_load);
	g_hash_table_destroy(w->by_signature);
	g_ptr_array_free(w->classes, TRUE);
	g_byte_array_free(w->payload, TRUE);
	g_free(w->dir);
	g_free(w);
}
