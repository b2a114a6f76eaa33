/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * ctf-trace.c - an LTTng 2 trace (CTF 1.8) behind the library's trace,
 * tracefile and cursor: a folder holding `metadata` and its stream files,
 * or a session folder holding several such folders (kernel/,
 * ust/uid/1000/64-bit/, ...), read as one trace.
 *
 *   - each stream file is a tracefile ("kernel/channel0_1"), each of its
 *     packets a block: indexed at open from the packet headers and
 *     contexts (sizes checked against the file, the discarded-events
 *     counter as the file's losses, packet_seq_num gaps as lost packets);
 *   - the event classes become facilities of at most 256 events, one per
 *     provider ("ltt_sample" of "ltt_sample:integers") for user space and
 *     one per first word of the name ("sched" of "sched_switch") for the
 *     kernel, with the stream's and the event's contexts as their first
 *     fields ("context.vtid"), then the payload's;
 *   - times are nanoseconds since the epoch (the clock's offset added),
 *     and the trace's own clock is that: its "cycles" are nanoseconds, so
 *     that seeking and the whole-file facts work as for the 2006 format;
 *     an event's cycles are the raw clock value.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ctf.h"

#define MAX_PACKET_BYTES (256u << 20)
#define MAX_META_DEPTH 6	/* folders below a session folder */
#define MAX_DENSE_IDS 65536

/* Per stream class of a metadata file: its event classes by id. */
typedef struct ctf_ids {
	const ctf_stream_class *sc;
	ctf_event_class **dense;	/* by id, below num_dense */
	uint64_t num_dense;
	ctf_fast_header header;		/* of sc's event header */
} ctf_ids;

struct ctf_stream_extra {
	ctf_ids ids;
	int64_t base_ns;	/* offset_s * 1e9 + offset at 1 GHz */
	uint64_t freq;
	int64_t offset_s, offset;
};

/* ---- finding the metadata ---- */

static bool has_metadata(const char *dir)
{
	char *p = g_build_filename(dir, "metadata", NULL);
	bool ok = g_file_test(p, G_FILE_TEST_IS_REGULAR);

	g_free(p);
	return ok;
}

static gint cmp_strings(gconstpointer a, gconstpointer b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The folders below dir (relative, sorted) that hold metadata. */
static void find_metadata(const char *top, const char *rel, int depth, GPtrArray *out)
{
	char *dir = rel ? g_build_filename(top, rel, NULL) : g_strdup(top);
	GPtrArray *subs = g_ptr_array_new_with_free_func(g_free);
	GDir *d;
	const char *name;

	if (has_metadata(dir)) {
		g_ptr_array_add(out, g_strdup(rel ? rel : ""));
		g_free(dir);
		g_ptr_array_free(subs, TRUE);
		return;
	}
	if (depth >= MAX_META_DEPTH || !(d = g_dir_open(dir, 0, NULL))) {
		g_free(dir);
		g_ptr_array_free(subs, TRUE);
		return;
	}
	while ((name = g_dir_read_name(d))) {
		char *full = g_build_filename(dir, name, NULL);
		struct stat st;

		if (name[0] != '.' && lstat(full, &st) == 0 && S_ISDIR(st.st_mode))
			g_ptr_array_add(subs, g_strdup(name));
		g_free(full);
	}
	g_dir_close(d);
	g_ptr_array_sort(subs, cmp_strings);
	for (guint i = 0; i < subs->len; i++) {
		char *r = rel ? g_build_filename(rel, subs->pdata[i], NULL) : g_strdup(subs->pdata[i]);

		find_metadata(top, r, depth + 1, out);
		g_free(r);
	}
	g_free(dir);
	g_ptr_array_free(subs, TRUE);
}

bool ltt_ctf_is_trace(const char *dir)
{
	GPtrArray *found;
	bool yes;

	if (has_metadata(dir))
		return true;
	found = g_ptr_array_new_with_free_func(g_free);
	find_metadata(dir, NULL, 0, found);
	yes = found->len > 0;
	g_ptr_array_free(found, TRUE);
	return yes;
}

/* ---- facilities from event classes ---- */

typedef struct builder {
	ltt_description *desc;
	GHashTable *done;	/* ctf_type* -> ltt_type* */
	/* labels that enum ranges may still expand to, for the whole trace:
	 * a metadata file of many enums of wide ranges must not take the
	 * memory (past it, a range is named by its first value only) */
	uint64_t *labels_left;
} builder;

static ltt_type *new_ltype(builder *b, ltt_xtype x)
{
	ltt_type *t = g_new0(ltt_type, 1);

	t->xtype = x;
	t->state = TYPE_CHECKED;
	g_ptr_array_add(b->desc->types, t);
	return t;
}

static ltt_field_desc *new_field(builder *b, const char *prefix, const char *name,
				 ltt_type *type)
{
	ltt_field_desc *fd = g_new0(ltt_field_desc, 1);

	fd->name = g_strconcat(prefix, name, NULL);
	fd->type = type;
	g_ptr_array_add(b->desc->field_descs, fd);
	return fd;
}

static ltt_type *int_ltype(builder *b, bool is_signed, unsigned bytes)
{
	ltt_type *t = new_ltype(b, is_signed ? X_INT_FIXED : X_UINT_FIXED);

	t->size = bytes;
	return t;
}

/* The enum's labels, ranges expanded (up to a limit: past it, a range
 * keeps the name of its first value only), as values of the output's
 * width (ctf-decode.c writes signed ones sign-extended to it). */
static void add_labels(builder *b, ltt_type *t, const ctf_type *c)
{
	uint64_t mask = t->size >= 8 ? UINT64_MAX : ((uint64_t)1 << (t->size * 8)) - 1;
	unsigned total = 0;

	t->labels = g_ptr_array_new();
	for (unsigned k = 0; k < c->num_maps; k++) {
		const ctf_mapping *mp = &c->maps[k];
		uint64_t span = (uint64_t)mp->hi - (uint64_t)mp->lo;

		for (uint64_t i = 0;; i++) {
			ltt_label *l = g_new0(ltt_label, 1);

			l->name = g_strdup(mp->label);
			l->value = (int64_t)(((uint64_t)mp->lo + i) & mask);
			g_ptr_array_add(t->labels, l);
			if (*b->labels_left)
				--*b->labels_left;
			if (i == span || ++total >= CTF_MAX_ENUM_VALUES || !*b->labels_left)
				break;
		}
	}
}

static ltt_type *to_ltype(builder *b, const ctf_type *c)
{
	ltt_type *t = g_hash_table_lookup(b->done, c);

	if (t)
		return t;
	if (ltt_ctf_is_text(c)) {
		t = new_ltype(b, X_STRING);
		g_hash_table_insert(b->done, (gpointer)c, t);
		return t;
	}
	switch (c->kind) {
	case CTF_INT:
		t = int_ltype(b, c->is_signed, ltt_ctf_out_int_size(c->bits));
		break;
	case CTF_ENUM:
		t = new_ltype(b, X_ENUM);
		t->size = ltt_ctf_out_int_size(c->bits);
		add_labels(b, t, c);
		break;
	case CTF_FLOAT:
		t = new_ltype(b, X_FLOAT);
		t->size = c->bits == 32 ? 4 : 8;
		break;
	case CTF_STRING:
		t = new_ltype(b, X_STRING);
		break;
	case CTF_ARRAY:
		t = new_ltype(b, X_ARRAY);
		t->length = (unsigned)c->length;
		t->elem = to_ltype(b, c->elem);
		break;
	case CTF_SEQUENCE:
		t = new_ltype(b, X_SEQUENCE);
		t->len_type = int_ltype(b, false, 4);
		t->elem = to_ltype(b, c->elem);
		break;
	case CTF_STRUCT:
	case CTF_VARIANT:
		t = new_ltype(b, X_STRUCT);
		t->fields = g_ptr_array_new();
		for (unsigned i = 0; i < c->num_members; i++) {
			ltt_type *m = to_ltype(b, c->members[i].type);

			if (c->kind == CTF_VARIANT) {	/* 0 or 1 of it: ctf-decode.c */
				ltt_type *opt = new_ltype(b, X_SEQUENCE);

				opt->len_type = int_ltype(b, false, 1);
				opt->elem = m;
				m = opt;
			}
			g_ptr_array_add(t->fields, new_field(b, "", c->members[i].name, m));
		}
		break;
	}
	g_hash_table_insert(b->done, (gpointer)c, t);
	return t;
}

static void add_struct_fields(builder *b, ltt_event_desc *ed, const char *prefix,
			      const ctf_type *st)
{
	for (unsigned i = 0; st && i < st->num_members; i++)
		g_ptr_array_add(ed->fields, new_field(b, prefix, st->members[i].name,
						      to_ltype(b, st->members[i].type)));
}

/* The facility an event class goes to: "provider" of "provider:event",
 * else the name's first word ("sched" of "sched_switch"). */
static char *group_of(const char *name)
{
	const char *colon = strchr(name, ':');
	const char *us = strchr(name, '_');

	if (colon)
		return g_strndup(name, (size_t)(colon - name));
	if (us && us != name)
		return g_strndup(name, (size_t)(us - name));
	return g_strdup(name);
}

/* The event's name within its facility: what follows "provider:". */
static const char *short_name(const char *name)
{
	const char *colon = strchr(name, ':');

	return colon ? colon + 1 : name;
}

typedef struct group {
	char *name;		/* display name: "sched", "sched_2" past 256 */
	const ctf_stream_class *sc;
	const ctf_meta *meta;
	GPtrArray *events;	/* ctf_event_class* */
} group;

static void free_group(gpointer p)
{
	group *g = p;

	g_free(g->name);
	g_ptr_array_free(g->events, TRUE);
	g_free(g);
}

static int build_facilities(ltt_trace *t, ltt_error **err)
{
	GPtrArray *groups = g_ptr_array_new_with_free_func(free_group);
	const ltt_sizes sizes = { 4, 8, 8, 8, 0 };	/* packed: ctf-decode.c */
	uint64_t labels_left = CTF_MAX_LABELS;
	int ret = 0;

	for (guint mi = 0; mi < t->ctf->metas->len; mi++) {
		const ctf_meta *m = t->ctf->metas->pdata[mi];

		for (guint i = 0; i < m->events->len; i++) {
			ctf_event_class *e = m->events->pdata[i];
			const ctf_stream_class *sc = ltt_ctf_meta_stream(m, e->stream_id);
			char *gname = group_of(e->name);
			group *g = NULL;
			unsigned n = 0;

			for (guint k = groups->len; k-- > 0 && !g;) {
				group *x = groups->pdata[k];

				if (x->meta == m && x->sc == sc && g_str_has_prefix(x->name, gname) &&
				    (x->name[strlen(gname)] == '\0' || x->name[strlen(gname)] == '#'))
					g = x;
			}
			if (g && g->events->len >= 256) {
				for (guint k = 0; k < groups->len; k++) {
					group *x = groups->pdata[k];

					n += x->meta == m && x->sc == sc &&
					     g_str_has_prefix(x->name, gname);
				}
				g = NULL;
			}
			if (!g) {
				g = g_new0(group, 1);
				g->name = n ? g_strdup_printf("%s#%u", gname, n + 1) : g_strdup(gname);
				g->sc = sc;
				g->meta = m;
				g->events = g_ptr_array_new();
				g_ptr_array_add(groups, g);
			}
			g_free(gname);
			g_ptr_array_add(g->events, e);
		}
	}
	if (groups->len > LTT_MAX_FACILITIES) {
		ltt_set_error(err, LTT_ERROR_UNSUPPORTED, "%u groups of events (providers, "
			      "subsystems) in the metadata: at most %u are read", groups->len,
			      LTT_MAX_FACILITIES);
		ret = -1;
	}
	for (guint k = 0; k < groups->len && ret == 0; k++) {
		group *g = groups->pdata[k];
		ltt_description *d = ltt_description_new_empty(g->name, g->meta->path);
		builder b = { d, g_hash_table_new(NULL, NULL), &labels_left };
		ltt_facility *fac;

		g_ptr_array_add(t->own_descriptions, d);
		for (guint i = 0; i < g->events->len; i++) {
			const ctf_event_class *e = g->events->pdata[i];
			ltt_event_desc *ed = g_new0(ltt_event_desc, 1);

			ed->name = g_strdup(short_name(e->name));
			ed->fields = g_ptr_array_new();
			add_struct_fields(&b, ed, "context.", g->sc->event_context);
			add_struct_fields(&b, ed, "context.", e->context);
			add_struct_fields(&b, ed, "", e->fields);
			g_ptr_array_add(d->events, ed);
		}
		g_hash_table_destroy(b.done);
		fac = ltt_facility_new(g->name, 0, k, &sizes, d, err);
		if (!fac) {
			ret = -1;
			break;
		}
		fac->load_ns = INT64_MIN;
		ltt_trace_add_facility(t, fac);
		for (guint i = 0; i < g->events->len; i++) {
			ctf_event_class *e = g->events->pdata[i];

			e->fac = fac;
			e->type = &fac->event_types[i];
		}
	}
	g_ptr_array_free(groups, TRUE);
	return ret;
}

/* ---- streams and packets ---- */

/* Nanoseconds since the epoch of a clock value, saturated far inside
 * int64 (as ltt_cycles_to_ns_abs() does) whatever the metadata says. */
static int64_t clock_ns(const struct ctf_stream_extra *x, uint64_t cycles)
{
	__int128 ns;

	if (x->freq == 1000000000)
		ns = (__int128)x->base_ns + cycles;
	else
		ns = (__int128)x->offset_s * 1000000000 +
		     ((__int128)x->offset + cycles) * 1000000000 / (__int128)x->freq;
	if (ns > (__int128)LTT_NS_SATURATE)
		return (int64_t)LTT_NS_SATURATE;
	if (ns < -(__int128)LTT_NS_SATURATE)
		return -(int64_t)LTT_NS_SATURATE;
	return (int64_t)ns;
}

typedef struct stream_priv {
	ctf_stream pub;
	struct ctf_stream_extra x;
} stream_priv;

static stream_priv *priv_of(const ltt_tracefile *tf)
{
	return (stream_priv *)tf->ctf;
}

static const ctf_ids *ids_for(ltt_trace *t, const ctf_meta *m, const ctf_stream_class *sc)
{
	GHashTable *cache = t->ctf->ids;
	ctf_ids *ids = g_hash_table_lookup(cache, sc);

	(void)m;
	if (ids)
		return ids;
	ids = g_new0(ctf_ids, 1);
	ids->sc = sc;
	ltt_ctf_fast_header_init(&ids->header, sc->event_header);
	for (guint i = 0; i < sc->events->len; i++) {
		const ctf_event_class *e = sc->events->pdata[i];

		if (e->id < MAX_DENSE_IDS && e->id + 1 > ids->num_dense)
			ids->num_dense = e->id + 1;
	}
	ids->dense = g_new0(ctf_event_class *, ids->num_dense ? ids->num_dense : 1);
	for (guint i = 0; i < sc->events->len; i++) {
		ctf_event_class *e = sc->events->pdata[i];

		if (e->id < ids->num_dense)
			ids->dense[e->id] = e;
	}
	g_hash_table_insert(cache, (gpointer)sc, ids);
	return ids;
}

static void free_ids(gpointer p)
{
	ctf_ids *ids = p;

	g_free(ids->dense);
	g_free(ids);
}

/* Reads the packet header and context at off of a file of file_size
 * bytes into d (slots filled). */
static int read_packet_head(ltt_tracefile *tf, const ctf_meta *m, uint64_t off,
			    uint64_t file_size, ctf_decoder *d, uint8_t *buf,
			    const ctf_stream_class **sc, ltt_error **err)
{
	size_t want = file_size - off < 65536 ? (size_t)(file_size - off) : 65536;
	ssize_t got = pread(tf->fd, buf, want, (off_t)off);

	if (got != (ssize_t)want) {
		ltt_set_error(err, LTT_ERROR_IO, "%s: packet at offset 0x%" PRIx64 ": %s",
			      tf->relpath, off, got < 0 ? strerror(errno) : "the file shrank");
		return -1;
	}
	d->buf = buf;
	d->pos = 0;
	d->end = (uint64_t)want * 8;
	d->budget = d->end + 65536;
	d->clock_update = false;
	d->slots[CTF_SLOT_STREAM_ID] = 0;
	d->slots[CTF_SLOT_MAGIC] = CTF_MAGIC;
	d->slots[CTF_SLOT_CONTENT_SIZE] = UINT64_MAX;
	d->slots[CTF_SLOT_PACKET_SIZE] = UINT64_MAX;
	d->slots[CTF_SLOT_TS_BEGIN] = d->slots[CTF_SLOT_TS_END] = 0;
	d->slots[CTF_SLOT_DISCARDED] = 0;
	d->slots[CTF_SLOT_SEQ_NUM] = UINT64_MAX;
	d->slots[CTF_SLOT_CPU_ID] = UINT64_MAX;
	if (m->packet_header && ltt_ctf_decode(d, m->packet_header, false) < 0)
		goto bad;
	if (d->slots[CTF_SLOT_MAGIC] != CTF_MAGIC) {
		ltt_set_error(err, LTT_ERROR_CORRUPT, "%s: packet at offset 0x%" PRIx64
			      ": bad magic 0x%08" PRIx64 " (not a CTF packet)", tf->relpath,
			      off, d->slots[CTF_SLOT_MAGIC]);
		return -1;
	}
	*sc = ltt_ctf_meta_stream(m, d->slots[CTF_SLOT_STREAM_ID]);
	if (!*sc) {
		ltt_set_error(err, LTT_ERROR_CORRUPT, "%s: packet at offset 0x%" PRIx64
			      ": stream id %" PRIu64 " is not in the metadata", tf->relpath,
			      off, d->slots[CTF_SLOT_STREAM_ID]);
		return -1;
	}
	if ((*sc)->packet_context && ltt_ctf_decode(d, (*sc)->packet_context, false) < 0)
		goto bad;
	return 0;
bad:
	ltt_set_error(err, LTT_ERROR_CORRUPT, "%s: packet at offset 0x%" PRIx64
		      ": its header or context at offset 0x%" PRIx64 ": %s", tf->relpath,
		      off, off + d->fail_pos / 8, d->fail);
	return -1;
}

/* Indexes the packets of one stream file. */
static int index_packets(ltt_trace *t, ltt_tracefile *tf, const ctf_meta *m,
			 ltt_error **err)
{
	stream_priv *sp = priv_of(tf);
	GArray *packets = g_array_new(FALSE, FALSE, sizeof(ctf_packet));
	GArray *blocks = g_array_new(FALSE, FALSE, sizeof(ltt_block));
	uint8_t *buf = g_malloc(65536);
	ctf_decoder d = { 0 };
	uint64_t off = 0, prev_seq = UINT64_MAX, prev_discarded = 0;
	const ctf_stream_class *first_sc = NULL;
	int ret = -1;

	d.slots = g_new0(uint64_t, m->num_slots);
	while (off < tf->file_size) {
		const ctf_stream_class *sc;
		ctf_packet p = { .offset = off };
		ltt_block blk;
		uint64_t content, size;

		if (read_packet_head(tf, m, off, tf->file_size, &d, buf, &sc, err) < 0)
			goto out;
		if (first_sc && sc != first_sc) {
			ltt_set_error(err, LTT_ERROR_CORRUPT, "%s: packet at offset 0x%" PRIx64
				      ": stream %" PRIu64 " in a file of stream %" PRIu64,
				      tf->relpath, off, sc->id, first_sc->id);
			goto out;
		}
		first_sc = sc;
		size = d.slots[CTF_SLOT_PACKET_SIZE];
		content = d.slots[CTF_SLOT_CONTENT_SIZE];
		if (size == UINT64_MAX)
			size = content != UINT64_MAX ? (content + 7) / 8 * 8
						     : (tf->file_size - off) * 8;
		if (content == UINT64_MAX)
			content = size;
		if (size % 8 || size == 0 || content > size || content < d.pos ||
		    size / 8 > tf->file_size - off || size / 8 > MAX_PACKET_BYTES) {
			ltt_set_error(err, LTT_ERROR_CORRUPT, "%s: packet %u at offset 0x%" PRIx64
				      ": packet size %" PRIu64 " bits, content size %" PRIu64
				      " bits, its header and context %" PRIu64 " bits, %" PRIu64
				      " bytes left in the file%s", tf->relpath, packets->len, off,
				      size, content, d.pos, tf->file_size - off,
				      size / 8 > tf->file_size - off ? " (a truncated stream?)" : "");
			goto out;
		}
		p.size = size / 8;
		p.content_bits = content;
		p.data_bits = d.pos;
		p.ts_begin = d.slots[CTF_SLOT_TS_BEGIN];
		if (packets->len == 0 && d.slots[CTF_SLOT_CPU_ID] != UINT64_MAX)
			tf->cpu = (unsigned)d.slots[CTF_SLOT_CPU_ID];
		if (d.slots[CTF_SLOT_SEQ_NUM] != UINT64_MAX) {
			uint64_t seq = d.slots[CTF_SLOT_SEQ_NUM];

			if (prev_seq != UINT64_MAX && seq != prev_seq + 1) {
				if (seq > prev_seq) {
					tf->corrupted += seq - prev_seq - 1;
					ltt_trace_warn(t, "%s: packet at offset 0x%" PRIx64 ": %"
						       PRIu64 " packets lost before it "
						       "(packet_seq_num %" PRIu64 " after %" PRIu64 ")",
						       tf->relpath, off, seq - prev_seq - 1, seq, prev_seq);
				} else {
					ltt_trace_warn(t, "%s: packet at offset 0x%" PRIx64
						       ": packet_seq_num %" PRIu64 " after %" PRIu64,
						       tf->relpath, off, seq, prev_seq);
				}
			}
			prev_seq = seq;
		}
		if (d.slots[CTF_SLOT_DISCARDED] < prev_discarded)
			ltt_trace_warn(t, "%s: packet at offset 0x%" PRIx64 ": events_discarded "
				       "went back from %" PRIu64 " to %" PRIu64, tf->relpath, off,
				       prev_discarded, d.slots[CTF_SLOT_DISCARDED]);
		else
			prev_discarded = d.slots[CTF_SLOT_DISCARDED];
		blk.begin_cycles = (uint64_t)clock_ns(&sp->x, d.slots[CTF_SLOT_TS_BEGIN]);
		blk.end_cycles = (uint64_t)clock_ns(&sp->x, d.slots[CTF_SLOT_TS_END]);
		if (d.slots[CTF_SLOT_TS_END] < d.slots[CTF_SLOT_TS_BEGIN])
			blk.end_cycles = blk.begin_cycles;
		blk.data_end = (uint32_t)(content / 8);
		g_array_append_val(packets, p);
		g_array_append_val(blocks, blk);
		if (p.size > sp->pub.max_packet)
			sp->pub.max_packet = p.size;
		off += p.size;
	}
	tf->events_lost = prev_discarded;
	sp->pub.sc = first_sc;
	if (first_sc)
		sp->x.ids = *ids_for(t, m, first_sc);
	ret = 0;
out:
	tf->num_blocks = packets->len;
	sp->pub.packets = (ctf_packet *)g_array_free(packets, FALSE);
	tf->blocks = (ltt_block *)g_array_free(blocks, FALSE);
	tf->subbuf_size = (uint32_t)sp->pub.max_packet;
	g_free(d.slots);
	g_free(buf);
	return ret;
}

static bool is_stream_file(const char *name)
{
	return name[0] != '.' && strcmp(name, "metadata") != 0;
}

/* One stream file, open at fd (owned from here on, even on failure),
 * whose stat is st: a tracefile of t, its packets indexed. */
static int add_stream(ltt_trace *t, const ctf_meta *m, char *relpath, int fd,
		      const struct stat *st, ltt_error **err)
{
	int open_errno = errno;	/* of the open that gave fd, when it failed */
	const char *file = strrchr(relpath, '/') ? strrchr(relpath, '/') + 1 : relpath;
	const char *us = strrchr(file, '_');
	ltt_tracefile *tf = g_new0(ltt_tracefile, 1);
	stream_priv *sp = g_new0(stream_priv, 1);
	__int128 base;

	sp->pub.meta = m;
	if (m->clock) {
		sp->x.freq = m->clock->freq;
		sp->x.offset_s = m->clock->offset_s;
		sp->x.offset = m->clock->offset;
	} else {
		sp->x.freq = 1000000000;
	}
	base = (__int128)sp->x.offset_s * 1000000000 + sp->x.offset;
	sp->x.base_ns = base > (__int128)LTT_NS_SATURATE ? (int64_t)LTT_NS_SATURATE
		      : base < -(__int128)LTT_NS_SATURATE
		      ? -(int64_t)LTT_NS_SATURATE : (int64_t)base;
	tf->trace = t;
	tf->index = t->tracefiles->len;
	tf->ctf = &sp->pub;
	tf->relpath = relpath;
	tf->name = us && us != file && us[1] >= '0' && us[1] <= '9'
		   ? g_strndup(relpath, strlen(relpath) - strlen(us)) : g_strdup(relpath);
	tf->cpu = us && us[1] >= '0' && us[1] <= '9' ? (unsigned)atoi(us + 1) : 0;
	tf->fd = fd;
	tf->file_size = (uint64_t)st->st_size;
	tf->dev = st->st_dev;
	tf->ino = st->st_ino;
	g_ptr_array_add(t->tracefiles, tf);
	if (tf->fd < 0) {
		ltt_set_error(err, LTT_ERROR_IO, "%s: %s", relpath, strerror(open_errno));
		return -1;
	}
	return index_packets(t, tf, m, err);
}

/* The stream files of one metadata folder (rel: relative to the trace). */
static int add_streams(ltt_trace *t, const ctf_meta *m, const char *rel, ltt_error **err)
{
	char *dir = *rel ? g_build_filename(t->path, rel, NULL) : g_strdup(t->path);
	GPtrArray *names = g_ptr_array_new_with_free_func(g_free);
	GError *gerr = NULL;
	GDir *d = g_dir_open(dir, 0, &gerr);
	const char *name;
	int ret = 0;

	if (!d) {
		ltt_set_error(err, LTT_ERROR_IO, "%s", gerr->message);
		g_error_free(gerr);
		g_free(dir);
		g_ptr_array_free(names, TRUE);
		return -1;
	}
	while ((name = g_dir_read_name(d)))
		if (is_stream_file(name))
			g_ptr_array_add(names, g_strdup(name));
	g_dir_close(d);
	g_ptr_array_sort(names, cmp_strings);
	for (guint i = 0; i < names->len && ret == 0; i++) {
		const char *file = names->pdata[i];
		char *relpath = *rel ? g_build_filename(rel, file, NULL) : g_strdup(file);
		char *full = g_build_filename(dir, file, NULL);
		struct stat st;

		if (stat(full, &st) < 0 || !S_ISREG(st.st_mode)) {
			if (!(stat(full, &st) == 0 && S_ISDIR(st.st_mode)))	/* index/ */
				ltt_trace_warn(t, "%s: not a regular file: not read", relpath);
			g_free(relpath);
			g_free(full);
			continue;
		}
		ret = add_stream(t, m, relpath, open(full, O_RDONLY | O_CLOEXEC), &st, err);
		g_free(full);
	}
	g_free(dir);
	g_ptr_array_free(names, TRUE);
	return ret;
}

/* own: the metadata files are the trace's, freed with it. */
static void ctf_trace_new(ltt_trace *t, bool own)
{
	t->ctf = g_new0(ctf_trace, 1);
	t->ctf->metas = g_ptr_array_new_with_free_func(
		own ? (GDestroyNotify)ltt_ctf_meta_free : NULL);
	t->ctf->ids = g_hash_table_new_full(NULL, NULL, NULL, free_ids);
}

int ltt_ctf_open(ltt_trace *t, ltt_error **err)
{
	GPtrArray *rels = g_ptr_array_new_with_free_func(g_free);
	int ret = -1;

	ctf_trace_new(t, true);
	find_metadata(t->path, NULL, 0, rels);
	for (guint i = 0; i < rels->len; i++) {
		const char *rel = rels->pdata[i];
		char *path = g_build_filename(t->path, rel, "metadata", NULL);
		ctf_meta *m = ltt_ctf_meta_load(path, err);

		g_free(path);
		if (!m)
			goto out;
		g_ptr_array_add(t->ctf->metas, m);
	}
	if (build_facilities(t, err) < 0)
		goto out;
	for (guint i = 0; i < rels->len; i++)
		if (add_streams(t, t->ctf->metas->pdata[i], rels->pdata[i], err) < 0)
			goto out;
	if (t->tracefiles->len == 0) {
		ltt_set_error(err, LTT_ERROR_NOT_A_TRACE, "metadata but no stream file");
		goto out;
	}
	ret = 0;
out:
	g_ptr_array_free(rels, TRUE);
	return ret;
}

int ltt_ctf_open_fd(ltt_trace *t, ctf_meta *m, const char *relpath, int fd, ltt_error **err)
{
	struct stat st;

	ctf_trace_new(t, false);
	g_ptr_array_add(t->ctf->metas, m);
	if (build_facilities(t, err) < 0)
		return -1;
	if (fstat(fd, &st) < 0) {
		ltt_set_error(err, LTT_ERROR_IO, "%s: %s", relpath, strerror(errno));
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		ltt_set_error(err, LTT_ERROR_IO, "%s: not a regular file", relpath);
		return -1;
	}
	return add_stream(t, m, g_strdup(relpath), fcntl(fd, F_DUPFD_CLOEXEC, 0), &st, err);
}

void ltt_ctf_close(ltt_trace *t)
{
	if (!t->ctf)
		return;
	g_hash_table_destroy(t->ctf->ids);
	g_ptr_array_free(t->ctf->metas, TRUE);
	g_free(t->ctf);
	t->ctf = NULL;
}

void ltt_ctf_tracefile_close(ltt_tracefile *tf)
{
	stream_priv *sp = priv_of(tf);

	if (!sp)
		return;
	g_free(sp->pub.packets);
	g_free(sp);
	tf->ctf = NULL;
}

/* ---- the cursor ---- */

struct ctf_cursor {
	ctf_decoder d;
	uint64_t last_clock;
};

void ltt_ctf_cursor_seek_block(ltt_cursor *c, unsigned block)
{
	c->block = block;
	c->at_end = block >= c->tf->num_blocks;
	c->loaded = false;
	c->offset = 0;
	c->data_end = 0;
}

void ltt_ctf_cursor_fini(ltt_cursor *c)
{
	if (c->ctf) {
		ltt_ctf_decoder_fini(&c->ctf->d);
		g_free(c->ctf->d.slots);
		g_free(c->ctf);
		c->ctf = NULL;
	}
	g_free(c->buf);
	c->buf = NULL;
	c->base = NULL;
}

static int cursor_error(ltt_cursor *c, const ctf_packet *p, uint64_t at, const char *what,
			ltt_error **err)
{
	ltt_set_error(err, LTT_ERROR_CORRUPT, "%s: packet %u at offset 0x%" PRIx64
		      ": event at offset 0x%" PRIx64 ": %s", c->tf->relpath, c->block,
		      p->offset, p->offset + at / 8, what);
	return -1;
}

static int load_packet(ltt_cursor *c, ltt_error **err)
{
	stream_priv *sp = priv_of(c->tf);
	const ctf_packet *p = &sp->pub.packets[c->block];
	ctf_decoder *d;
	ssize_t got;

	if (!c->ctf) {
		c->ctf = g_new0(struct ctf_cursor, 1);
		c->ctf->d.slots = g_new0(uint64_t, sp->pub.meta->num_slots);
	}
	if (!c->buf)
		c->buf = g_try_malloc(sp->pub.max_packet ? sp->pub.max_packet : 1);
	if (!c->buf) {
		ltt_set_error(err, LTT_ERROR_NOMEM, "%s: no memory for a packet of %" PRIu64
			      " bytes", c->tf->relpath, sp->pub.max_packet);
		return -1;
	}
	got = pread(c->tf->fd, c->buf, (size_t)p->size, (off_t)p->offset);
	if (got != (ssize_t)p->size) {
		ltt_set_error(err, LTT_ERROR_IO, "%s: packet %u at offset 0x%" PRIx64 ": %s",
			      c->tf->relpath, c->block, p->offset,
			      got < 0 ? strerror(errno) : "the file shrank since it was opened");
		return -1;
	}
	d = &c->ctf->d;
	d->buf = c->buf;
	d->pos = p->data_bits;
	d->end = p->content_bits;
	d->clock = p->ts_begin;
	ltt_ctf_out_reset(d);
	c->base = c->buf;
	c->base_offset = p->offset;
	c->loaded = true;
	c->offset = (uint32_t)(d->pos / 8);
	c->data_end = (uint32_t)((d->end + 7) / 8);
	c->last_cycles = p->ts_begin;
	return 0;
}

int ltt_ctf_cursor_next(ltt_cursor *c, ltt_error **err)
{
	stream_priv *sp = priv_of(c->tf);
	const ctf_stream_class *sc = sp->pub.sc;
	ltt_event *ev = c->out;
	const ctf_event_class *e;
	const ctf_packet *p;
	ctf_decoder *d;
	uint64_t start, id;
	uint8_t *out;

	for (;;) {
		if (c->at_end)
			return 0;
		if (!c->loaded && load_packet(c, err) < 0)
			return -1;
		d = &c->ctf->d;
		if (d->pos < d->end)
			break;
		ltt_ctf_cursor_seek_block(c, c->block + 1);
	}
	p = &sp->pub.packets[c->block];
	start = d->pos;
	d->budget = (d->end - d->pos) + 65536;
	d->slots[CTF_SLOT_EVENT_ID] = 0;
	d->clock_update = true;
	if (sc->event_header && ltt_ctf_decode_header(d, sc->event_header, &sp->x.ids.header) < 0)
		return cursor_error(c, p, d->fail_pos, d->fail, err);
	d->clock_update = false;
	id = d->slots[CTF_SLOT_EVENT_ID];
	e = sc->single ? sc->single
	    : id < sp->x.ids.num_dense ? sp->x.ids.dense[id]
	    : g_hash_table_lookup(sc->by_id, &id);
	if (!e) {
		char what[96];

		snprintf(what, sizeof(what), "event id %" PRIu64 " is not in stream %" PRIu64
			 " of the metadata", id, sc->id);
		return cursor_error(c, p, start, what, err);
	}
	out = ltt_ctf_out_reserve(d, 64);
	if (!out)
		return cursor_error(c, p, start, "no memory", err);
	d->event_start = out;
	if ((sc->event_context && ltt_ctf_decode(d, sc->event_context, true) < 0) ||
	    (e->context && ltt_ctf_decode(d, e->context, true) < 0) ||
	    (e->fields && ltt_ctf_decode(d, e->fields, true) < 0)) {
		d->event_start = NULL;
		return cursor_error(c, p, d->fail_pos, d->fail, err);
	}
	ev->payload = d->event_start;
	ev->size = (size_t)(d->out - d->event_start);
	d->event_start = NULL;
	if (d->clock < c->last_cycles && !(c->tf->seen & LTT_SEEN_BACKWARDS) && !c->quiet) {
		c->tf->seen |= LTT_SEEN_BACKWARDS;
		ltt_trace_warn(c->tf->trace, "%s: packet %u at offset 0x%" PRIx64 ": an event "
			       "before the one before it", c->tf->relpath, c->block, p->offset);
	}
	c->last_cycles = d->clock;
	ev->cycles = d->clock;
	ev->time_ns = clock_ns(&sp->x, d->clock);
	ev->file_offset = p->offset + start / 8;
	ev->fac = e->fac;
	ev->type = e->type;
	ev->fac_id = e->fac->id;
	ev->ev_id = e->type->id;
	c->offset = (uint32_t)((d->pos + 7) / 8);
	return 1;
}

/* The first and last event times of a stream file: the first event of
 * its first packet that has one, the last of its last. */
int ltt_ctf_read_facts(ltt_tracefile *tf, int64_t *first, int64_t *last)
{
	ltt_cursor c;
	int r = -1;
	ltt_error *err = NULL;

	*first = *last = -1;
	ltt_cursor_init(&c, tf);
	c.quiet = true;
	for (unsigned b = 0; b < tf->num_blocks; b++) {
		ltt_ctf_cursor_seek_block(&c, b);
		if (ltt_ctf_cursor_next(&c, &err) > 0 && c.block == b) {
			*first = c.ev.time_ns;
			r = 0;
			break;
		}
		ltt_error_free(err);
		err = NULL;
	}
	for (unsigned b = tf->num_blocks; r == 0 && b-- > 0;) {
		bool any = false;

		ltt_ctf_cursor_seek_block(&c, b);
		while (ltt_ctf_cursor_next(&c, &err) > 0 && c.block == b) {
			*last = c.ev.time_ns;
			any = true;
		}
		ltt_error_free(err);
		err = NULL;
		if (any)
			break;
	}
	ltt_cursor_fini(&c);
	return r;
}
