/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * trace.c - a trace directory: find and open its tracefiles, then read the
 * facilities channel to learn which facility each id stands for.
 *
 * The core facility is known before anything is read (id 0, the built-in
 * core.xml, sizes from the trace header), so that the facility_load events
 * themselves can be decoded. Descriptions of the other facilities are looked
 * up by name and checksum: first in the trace's eventdefs/, then in the
 * installed folder, then in the folders the caller gives. A facility of an
 * architecture (kernel_arch) is looked up in the file of the trace's
 * architecture alone, kernel_arch_x86_64.xml, as the 2006 reader does
 * (ltt_arch_name() in ltt-decode.h).
 */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <string.h>
#include <sys/stat.h>

#include "cursor.h"
#include "safe-text.h"

void ltt_trace_add_warning(ltt_trace *t, char *msg)
{
	msg = ltt_safe_message(msg);	/* it may name what the trace holds */
	g_mutex_lock(&t->warn_lock);
	for (guint i = 0; i < t->warnings->len; i++)
		if (strcmp(t->warnings->pdata[i], msg) == 0) {
			g_free(msg);
			msg = NULL;
			break;
		}
	if (msg)
		g_ptr_array_add(t->warnings, msg);
	g_mutex_unlock(&t->warn_lock);
}

void ltt_trace_warn(ltt_trace *t, const char *fmt, ...)
{
	va_list ap;
	char *msg;

	va_start(ap, fmt);
	msg = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	ltt_trace_add_warning(t, msg);
}

/* ---- time ---- */

/*
 * floor(d * 10^9 / f), exactly. The per-event path is the inline
 * ltt_cycles_to_ns_abs() in internal.h (a multiplication by the
 * reciprocal); distances too large for its product (days at a kHz clock)
 * come here and take the division. Saturates far beyond any real trace
 * so that the caller's additions cannot overflow.
 */
uint64_t ltt_cycles_to_ns_slow(const ltt_trace *t, uint64_t d)
{
	unsigned __int128 q = (unsigned __int128)d * 1000000000U / t->freq_hz;

	return q > LTT_NS_SATURATE ? LTT_NS_SATURATE : (uint64_t)q;
}

int64_t ltt_trace_cycles_to_ns(const ltt_trace *t, uint64_t cycles)
{
	return ltt_cycles_to_ns_inline(t, cycles);
}

/* Saturates at 0 and UINT64_MAX: a time far before or after the trace
 * (a command line's --begin -9000000000) seeks to its start or its end,
 * never wraps around. */
uint64_t ltt_trace_ns_to_cycles(const ltt_trace *t, int64_t wall_ns)
{
	__int128 rel = (__int128)wall_ns - t->info.start_time_ns;
	unsigned __int128 a = rel < 0 ? (unsigned __int128)-rel : (unsigned __int128)rel;
	unsigned __int128 d = (a / 1000000000U) * t->freq_hz +
			      (a % 1000000000U) * t->freq_hz / 1000000000U;

	if (rel < 0)
		return d > t->info.start_tsc ? 0 : t->info.start_tsc - (uint64_t)d;
	return d > UINT64_MAX - t->info.start_tsc ? UINT64_MAX
						  : t->info.start_tsc + (uint64_t)d;
}

int ltt_parse_seconds(const char *text, int64_t *ns)
{
	const char *p = text;
	int neg = 0, digits = 0;
	int64_t sec = 0, frac = 0;

	if (*p == '-') {
		neg = 1;
		p++;
	}
	if (!g_ascii_isdigit(*p))
		return -1;
	for (; g_ascii_isdigit(*p); p++) {
		if (sec > (INT64_MAX / 1000000000 - 9) / 10)
			return -1;
		sec = sec * 10 + (*p - '0');
	}
	if (*p == '.')
		for (p++; g_ascii_isdigit(*p); p++, digits++)
			if (digits < 9)
				frac = frac * 10 + (*p - '0');
	if (*p)
		return -1;
	for (; digits < 9; digits++)
		frac *= 10;
	*ns = sec * 1000000000 + frac;
	if (neg)
		*ns = -*ns;
	return 0;
}

/* ---- descriptions ---- */

static gint cmp_names(gconstpointer a, gconstpointer b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Loads the descriptions of a folder: the trace's eventdefs/ (own: the
 * trace's copies) or another (shared by the process: parsed once). A live
 * trace shares its own too: opened again as it grows, its state index
 * carried on holds the names of their enumerations (ltt_state_index_extend). */
static int load_dir(ltt_trace *t, const char *dir, bool fatal, bool own,
		    ltt_error **err)
{
	GDir *d;
	const char *name;
	GPtrArray *names;

	if (g_hash_table_contains(t->dirs_loaded, dir))
		return 0;
	g_hash_table_add(t->dirs_loaded, g_strdup(dir));
	d = g_dir_open(dir, 0, NULL);
	if (!d)
		return 0;	/* a folder that does not exist holds nothing */
	names = g_ptr_array_new_with_free_func(g_free);
	while ((name = g_dir_read_name(d)))
		if (g_str_has_suffix(name, ".xml"))
			g_ptr_array_add(names, g_strdup(name));
	g_dir_close(d);
	/* sorted, so that which file wins a tie does not depend on the fs */
	g_ptr_array_sort(names, cmp_names);
	for (guint i = 0; i < names->len; i++) {
		const char *file = *(char **)((char **)names->pdata + i);
		char *path = g_build_filename(dir, file, NULL);
		ltt_error *e = NULL;
		const ltt_description *desc;

		if (own && !t->live) {
			ltt_description *mine = ltt_description_load(path, &e);

			if (mine)
				g_ptr_array_add(t->own_descriptions, mine);
			desc = mine;
		} else {
			desc = ltt_description_load_shared(path, &e);
		}
		g_free(path);
		if (desc) {
			g_ptr_array_add(t->descriptions, (gpointer)desc);
			continue;
		}
		if (fatal) {
			ltt_pass_error(err, e);
			g_ptr_array_free(names, TRUE);
			return -1;
		}
		ltt_trace_warn(t, "ignoring a bad facility description: %s",
			       ltt_error_message(e));
		ltt_error_free(e);
	}
	g_ptr_array_free(names, TRUE);
	return 0;
}

/* The file a facility of an architecture must be described in
 * ("kernel_arch_x86_64.xml"), or NULL for any other facility; "" when the
 * trace's architecture has no name (then nothing describes it). */
static char *arch_file(const ltt_trace *t, const char *name)
{
	const char *arch = ltt_arch_name(t->info.arch_type);

	if (!ltt_facility_is_arch(name))
		return NULL;
	return arch ? g_strdup_printf("%s_%s.xml", name, arch) : g_strdup("");
}

static bool from_file(const ltt_description *d, const char *file)
{
	const char *base;

	if (!d->origin)
		return false;
	base = strrchr(d->origin, '/');
	return strcmp(base ? base + 1 : d->origin, file) == 0;
}

/* Finds the description of (name, checksum), loading folders as needed. */
static const ltt_description *find_description(ltt_trace *t, const char *name,
					       uint32_t checksum, ltt_error **err)
{
	char *file = arch_file(t, name);

	for (guint pass = 0; pass <= t->search_dirs->len; pass++) {
		for (guint i = 0; i < t->descriptions->len; i++) {
			const ltt_description *d = t->descriptions->pdata[i];

			if (d->checksum == checksum && strcmp(d->name, name) == 0 &&
			    (!file || from_file(d, file))) {
				g_free(file);
				return d;
			}
		}
		if (pass == t->search_dirs->len)
			break;
		/* the installed folder (index 1) is not the trace's fault */
		if (load_dir(t, t->search_dirs->pdata[pass], pass != 1, pass == 0, err) < 0) {
			g_free(file);
			return NULL;
		}
	}
	g_free(file);
	if (strcmp(name, LTT_CORE_FACILITY_NAME) == 0 &&
	    checksum == ltt_core_description()->checksum)
		return ltt_core_description();
	return NULL;
}

static char *describe_search(const ltt_trace *t)
{
	GString *s = g_string_new(NULL);

	for (guint i = 0; i < t->search_dirs->len; i++)
		g_string_append_printf(s, "%s%s", i ? ", " : "",
				       (char *)t->search_dirs->pdata[i]);
	return g_string_free(s, FALSE);
}

/* ---- the facility table ---- */

void ltt_trace_add_facility(ltt_trace *t, ltt_facility *fac)
{
	if (!t->facilities[fac->id])
		t->facilities[fac->id] = g_ptr_array_new();
	g_ptr_array_add(t->facilities[fac->id], fac);
	g_ptr_array_add(t->all_facilities, fac);
	t->single_load[fac->id] = t->facilities[fac->id]->len == 1 ? fac : NULL;
}

/* ltt_trace_facility_at() when the id was loaded more than once, or never. */
const ltt_facility *ltt_trace_facility_search(const ltt_trace *t, unsigned id,
					      int64_t ns)
{
	GPtrArray *loads = id < LTT_MAX_FACILITIES ? t->facilities[id] : NULL;
	const ltt_facility *best;

	if (!loads || loads->len == 0)
		return NULL;
	best = loads->pdata[0];
	/* the last load at or before the event; events before any load use
	 * the first (a trace may start after the load was written) */
	for (guint i = 1; i < loads->len; i++) {
		const ltt_facility *f = loads->pdata[i];

		if (f->load_ns <= ns)
			best = f;
	}
	return best;
}

static bool valid_size(uint64_t v)
{
	return v == 1 || v == 2 || v == 4 || v == 8;
}

typedef struct pending_load {
	int64_t ns;
	char *name;
	uint64_t checksum, id, int_size, long_size, pointer_size, size_t_size,
		 has_alignment;
	char *where;
} pending_load;

static int cmp_load(const void *a, const void *b)
{
	const pending_load *x = a, *y = b;

	return x->ns < y->ns ? -1 : x->ns > y->ns;
}

/* Reads every facilities tracefile and builds the facility table. */
static int read_facilities(ltt_trace *t, ltt_error **err)
{
	GArray *loads = g_array_new(FALSE, TRUE, sizeof(pending_load));
	int ret = 0;

	for (guint i = 0; i < t->tracefiles->len && ret == 0; i++) {
		ltt_tracefile *tf = t->tracefiles->pdata[i];
		ltt_cursor c;
		int r;

		if (!tf->is_facilities)
			continue;
		ltt_cursor_init(&c, tf);
		c.facility_scan = true;
		while ((r = ltt_cursor_next(&c, err)) > 0) {
			const ltt_event *ev = &c.ev;
			pending_load l = { .ns = ev->time_ns };
			struct ltt_facility_load_fields f;
			bool whole;

			if (ev->fac_id != LTT_CORE_FACILITY_ID ||
			    (ev->ev_id != LTT_EVENT_CORE_FACILITY_LOAD &&
			     ev->ev_id != LTT_EVENT_CORE_STATE_DUMP_FACILITY_LOAD))
				continue;
			/* lttd reads it with the same code (ltt-decode.h) */
			whole = ltt_facility_load_read(ev->payload, ev->size,
						       t->info.has_alignment,
						       t->info.arch_size, &f) == 0;
			if (whole) {
				l.checksum = f.checksum;
				l.id = f.id;
				l.int_size = f.int_size;
				l.long_size = f.long_size;
				l.pointer_size = f.pointer_size;
				l.size_t_size = f.size_t_size;
				l.has_alignment = f.has_alignment;
			}
			l.where = g_strdup_printf("%s at offset 0x%" PRIx64,
						  tf->relpath, ev->file_offset);
			if (!whole ||
			    l.id >= LTT_MAX_FACILITIES || !valid_size(l.int_size) ||
			    !valid_size(l.long_size) || !valid_size(l.pointer_size) ||
			    !valid_size(l.size_t_size) ||
			    (l.has_alignment != 0 && !valid_size(l.has_alignment))) {
				ltt_set_error(err, LTT_ERROR_CORRUPT, "%s: malformed facility_load "
					      "(name, id or sizes out of range)", l.where);
				g_free(l.where);
				ret = -1;
				break;
			}
			l.name = g_strdup(f.name);
			g_array_append_val(loads, l);
		}
		ltt_cursor_fini(&c);
		if (r < 0)
			ret = -1;
	}
	g_array_sort(loads, cmp_load);
	for (guint i = 0; i < loads->len && ret == 0; i++) {
		pending_load *l = &g_array_index(loads, pending_load, i);
		ltt_sizes sizes = {
			.int_size = (unsigned)l->int_size,
			.long_size = (unsigned)l->long_size,
			.pointer_size = (unsigned)l->pointer_size,
			.size_t_size = (unsigned)l->size_t_size,
			.alignment = (unsigned)l->has_alignment,
		};
		const ltt_description *desc;
		ltt_facility *fac;
		GPtrArray *prev = t->facilities[l->id];

		/* the bootstrap core facility already stands for this load */
		if (l->id == LTT_CORE_FACILITY_ID && prev && prev->len == 1 &&
		    strcmp(l->name, LTT_CORE_FACILITY_NAME) == 0 &&
		    l->checksum == ltt_core_description()->checksum)
			continue;
		ltt_error *bad_dir = NULL;

		desc = find_description(t, l->name, (uint32_t)l->checksum, &bad_dir);
		if (bad_dir) {
			ltt_pass_error(err, bad_dir);
			ret = -1;
			break;
		}
		if (!desc) {
			char *dirs = describe_search(t);
			char *file = arch_file(t, l->name);
			char *in_file = !file ? g_strdup("")
				: *file ? g_strdup_printf(" (the file %s, for the trace's "
							  "architecture)", file)
				: g_strdup_printf(" (the trace's architecture, %u, has no "
						  "name: no file describes it)", t->info.arch_type);

			ltt_trace_warn(t, "facility %s (checksum 0x%08" PRIX64 ", id %"
				       PRIu64 "): no description with that name and "
				       "checksum in %s%s; its events are shown raw",
				       l->name, l->checksum, l->id, dirs, in_file);
			g_free(in_file);
			g_free(file);
			g_free(dirs);
		}
		fac = ltt_facility_new(l->name, (uint32_t)l->checksum,
				       (unsigned)l->id, &sizes, desc, err);
		fac->load_ns = l->ns;
		ltt_trace_add_facility(t, fac);
	}
	for (guint i = 0; i < loads->len; i++) {
		g_free(g_array_index(loads, pending_load, i).name);
		g_free(g_array_index(loads, pending_load, i).where);
	}
	g_array_free(loads, TRUE);
	return ret;
}

/* ---- tracefiles ---- */

/* "cpu_0" -> name "cpu", cpu 0; false if the name is not a tracefile's */
static bool parse_tracefile_name(const char *base, char **name, unsigned *cpu)
{
	const char *us = strrchr(base, '_');
	char *end;
	unsigned long n;

	if (!us || us == base || !g_ascii_isdigit(us[1]))
		return false;
	errno = 0;
	n = strtoul(us + 1, &end, 10);
	if (*end || errno || n > 65535)
		return false;
	for (const char *p = base; p < us; p++)
		if (!g_ascii_isalnum(*p) && *p != '-' && *p != '_')
			return false;
	*name = g_strndup(base, (gsize)(us - base));
	*cpu = (unsigned)n;
	return true;
}

static const char *file_kind(mode_t mode)
{
	return S_ISDIR(mode) ? "a directory" : S_ISFIFO(mode) ? "a FIFO" :
	       S_ISCHR(mode) ? "a character device" : S_ISBLK(mode) ? "a block device" :
	       S_ISSOCK(mode) ? "a socket" : "not a file";
}

/*
 * Adds the tracefiles of the trace directory (sub NULL) or of its folder
 * sub. A name that says "tracefile" (cpu_1) on something that cannot be
 * read as one (a FIFO, a folder, a broken link) is skipped, with a
 * warning: never in silence, and never opened (a FIFO would block).
 */
static int add_tracefiles(ltt_trace *t, const char *sub, ltt_error **err)
{
	char *dir = sub ? g_build_filename(t->path, sub, NULL) : g_strdup(t->path);
	GPtrArray *names = g_ptr_array_new_with_free_func(g_free);
	GError *gerr = NULL;
	GDir *d = g_dir_open(dir, 0, &gerr);
	const char *base;
	int ret = 0;

	g_free(dir);
	if (!d) {
		/* no control/ at all: an old or partial trace, whose events
		 * are then reported as undecoded; one that is there but
		 * cannot be listed is a problem to say */
		if (!sub)
			ltt_set_error(err, LTT_ERROR_IO, "%s", gerr->message);
		else if (!g_error_matches(gerr, G_FILE_ERROR, G_FILE_ERROR_NOENT))
			ltt_trace_warn(t, "%s: cannot list its tracefiles: %s", sub,
				       gerr->message);
		g_error_free(gerr);
		g_ptr_array_free(names, TRUE);
		return sub ? 0 : -1;
	}
	while ((base = g_dir_read_name(d)))
		g_ptr_array_add(names, g_strdup(base));
	g_dir_close(d);
	g_ptr_array_sort(names, cmp_names);
	for (guint i = 0; i < names->len && ret == 0; i++) {
		const char *file = *((char **)names->pdata + i);
		char *rel = sub ? g_build_filename(sub, file, NULL) : g_strdup(file);
		char *full = g_build_filename(t->path, rel, NULL);
		ltt_tracefile *tf;
		struct stat st;
		char *name;
		unsigned cpu;

		if (!parse_tracefile_name(file, &name, &cpu)) {
			g_free(rel);
			g_free(full);
			continue;
		}
		if (stat(full, &st) < 0 || !S_ISREG(st.st_mode)) {
			if (stat(full, &st) < 0)
				ltt_trace_warn(t, "%s: %s: not read", rel, strerror(errno));
			else
				ltt_trace_warn(t, "%s: not a regular file (%s): not read",
					       rel, file_kind(st.st_mode));
			g_free(name);
			g_free(rel);
			g_free(full);
			continue;
		}
		g_free(full);
		tf = g_new0(ltt_tracefile, 1);
		tf->index = t->tracefiles->len;
		tf->name = sub ? g_build_filename(sub, name, NULL) : g_strdup(name);
		tf->cpu = cpu;
		tf->is_facilities = sub && strcmp(name, LTT_FACILITIES_CHANNEL) == 0;
		g_free(name);
		g_ptr_array_add(t->tracefiles, tf);
		if (t->live) {
			ltt_error *e = NULL;

			if (ltt_tracefile_open(t, rel, tf, &e) < 0) {
				/* being written: the others are read, this one
				 * at the next open */
				g_ptr_array_add(t->left_out, g_strdup(ltt_error_message(e)));
				ltt_error_free(e);
				g_ptr_array_remove_index(t->tracefiles, t->tracefiles->len - 1);
			}
		} else {
			ret = ltt_tracefile_open(t, rel, tf, err);
		}
		g_free(rel);
	}
	g_ptr_array_free(names, TRUE);
	return ret;
}

static void free_tracefile(gpointer p)
{
	ltt_tracefile_close(p);
	g_free(p);
}

/* prefix + decimal n */
static char *numbered_name(const char *prefix, unsigned n)
{
	char digits[12], *p = digits + sizeof(digits);

	*--p = '\0';
	do {
		*--p = (char)('0' + n % 10);
		n /= 10;
	} while (n);
	return g_strconcat(prefix, p, NULL);
}

/* "facility_<id>" and "event_<id>", made once for the process and shared
 * by its traces: 512 strings per open were a measurable part of it. */
static char *const *unknown_names(int events)
{
	static gsize once;
	static char *names[2][256];

	if (g_once_init_enter(&once)) {
		for (unsigned i = 0; i < 256; i++) {
			names[0][i] = numbered_name("facility_", i);
			names[1][i] = numbered_name("event_", i);
		}
		g_once_init_leave(&once, 1);
	}
	return names[events];
}

void ltt_trace_close(ltt_trace *t)
{
	if (!t)
		return;
	g_ptr_array_free(t->tracefiles, TRUE);
	ltt_ctf_close(t);
	g_ptr_array_free(t->warnings, TRUE);
	g_ptr_array_free(t->left_out, TRUE);
	g_mutex_clear(&t->warn_lock);
	for (unsigned i = 0; i < LTT_SPARE_BUFS; i++)
		g_free(t->spare_bufs[i].buf);
	g_mutex_clear(&t->buf_lock);
	for (unsigned i = 0; i < LTT_MAX_FACILITIES; i++)
		if (t->facilities[i])
			g_ptr_array_free(t->facilities[i], TRUE);
	for (guint i = 0; i < t->all_facilities->len; i++)
		ltt_facility_free(t->all_facilities->pdata[i]);
	g_ptr_array_free(t->all_facilities, TRUE);
	g_ptr_array_free(t->search_dirs, TRUE);
	g_ptr_array_free(t->descriptions, TRUE);
	g_ptr_array_free(t->own_descriptions, TRUE);
	g_hash_table_destroy(t->dirs_loaded);
	for (unsigned i = 0; i < t->num_irq_names; i++)
		g_free(t->irq_names[i]);
	g_free(t->irq_names);
	g_free(t->path);
	g_free(t);
}

/*
 * What the viewers must know before reading anything: the loss counters
 * of every file (a count that grew as an iterator passed them would
 * depend on how far someone read), and the span of the events. A trace
 * whose files hold no readable event falls back on the block headers.
 */
static void read_whole_file_facts(ltt_trace *t)
{
	int64_t hdr_first = INT64_MAX, hdr_last = INT64_MIN;

	t->info.first_event_ns = INT64_MAX;
	t->info.last_event_ns = INT64_MIN;
	for (guint i = 0; i < t->tracefiles->len; i++) {
		ltt_tracefile *tf = t->tracefiles->pdata[i];
		int64_t first, last;

		int span = ltt_tracefile_read_facts(tf, &first, &last);

		t->info.events_lost += tf->events_lost;
		t->info.corrupted_subbuffers += tf->corrupted;
		if (span == 0) {
			if (first < t->info.first_event_ns)
				t->info.first_event_ns = first;
			if (last > t->info.last_event_ns)
				t->info.last_event_ns = last;
		}
		for (unsigned b = 0; b < tf->num_blocks; b++) {
			int64_t begin = ltt_trace_cycles_to_ns(t, tf->blocks[b].begin_cycles);
			int64_t end = ltt_trace_cycles_to_ns(t, tf->blocks[b].end_cycles);

			if (begin < hdr_first)
				hdr_first = begin;
			if (end > hdr_last)
				hdr_last = end;
			if (begin > hdr_last)
				hdr_last = begin;
			if (b == 0)
				continue;
			if (tf->blocks[b].begin_cycles < tf->blocks[b - 1].begin_cycles)
				ltt_trace_warn(t, "%s: sub-buffer %u begins before the one "
					       "before it; seeking in this file may miss "
					       "events", tf->relpath, b);
			else if (tf->blocks[b].begin_cycles < tf->blocks[b - 1].end_cycles ||
				 (tf->blocks[b].begin_cycles == tf->blocks[b - 1].begin_cycles &&
				  tf->blocks[b].end_cycles == tf->blocks[b - 1].end_cycles))
				ltt_trace_warn(t, "%s: sub-buffer %u begins before sub-buffer "
					       "%u ends: a duplicated or overlapping "
					       "sub-buffer (its events may be shown twice)",
					       tf->relpath, b, b - 1);
		}
	}
	if (t->info.first_event_ns == INT64_MAX) {
		t->info.first_event_ns = hdr_first;
		t->info.last_event_ns = hdr_last;
	}
}

/* The reciprocal of t->freq_hz that the per-event conversion uses. */
static void set_ns_mult(ltt_trace *t)
{
	unsigned __int128 mult = ((unsigned __int128)1000000000U << 64) / t->freq_hz;
	unsigned __int128 limit = ~(unsigned __int128)0 / mult;

	t->ns_mult_hi = (uint64_t)(mult >> 64);
	t->ns_mult_lo = (uint64_t)mult;
	t->ns_mult_limit = limit > UINT64_MAX ? UINT64_MAX : (uint64_t)limit;
}

/* An LTTng trace (CTF, ctf-trace.c): its "cycles" are nanoseconds since
 * the epoch, so that block times, seeks and the whole-file facts need
 * nothing of their own. */
static void ctf_clock_and_facts(ltt_trace *t)
{
	t->freq_hz = 1000000000;
	t->info.start_freq = 1000000000;
	t->info.freq_scale = 1;
	t->info.arch_size = 8;
	t->info.major = 1;
	t->info.minor = 8;
	set_ns_mult(t);
	read_whole_file_facts(t);
}

static int open_ctf(ltt_trace *t, ltt_error **err)
{
	if (ltt_ctf_open(t, err) < 0)
		return -1;
	ctf_clock_and_facts(t);
	return 0;
}

/* A trace as ltt_trace_open() begins it: nothing read yet. */
static ltt_trace *trace_new(const char *dir, const ltt_open_options *opt)
{
	ltt_trace *t = g_new0(ltt_trace, 1);

	t->path = g_strdup(dir);
	t->tracefiles = g_ptr_array_new_with_free_func(free_tracefile);
	t->warnings = g_ptr_array_new_with_free_func(g_free);
	t->live = opt->live != 0;
	t->left_out = g_ptr_array_new_with_free_func(g_free);
	g_mutex_init(&t->warn_lock);
	g_mutex_init(&t->buf_lock);
	t->all_facilities = g_ptr_array_new();
	t->search_dirs = g_ptr_array_new_with_free_func(g_free);
	t->descriptions = g_ptr_array_new();
	t->own_descriptions = g_ptr_array_new_with_free_func(
		(GDestroyNotify)ltt_description_free);
	t->dirs_loaded = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	g_ptr_array_add(t->search_dirs, g_build_filename(dir, LTT_EVENTDEFS_DIR, NULL));
	g_ptr_array_add(t->search_dirs, g_strdup(ltt_default_facilities_dir()));
	for (const char *const *f = opt->facility_dirs; f && *f; f++)
		g_ptr_array_add(t->search_dirs, g_strdup(*f));
	t->unknown_names = unknown_names(0);
	t->unknown_event_names = unknown_names(1);
	return t;
}

ltt_trace *ltt_ctf_trace_open_fd(const char *dir, ctf_meta *m, const char *relpath, int fd,
				 ltt_error **err)
{
	ltt_open_options o = { 0 };
	ltt_trace *t = trace_new(dir, &o);

	if (ltt_ctf_open_fd(t, m, relpath, fd, err) < 0) {
		ltt_prefix_error(err, "cannot open trace %s", dir);
		ltt_trace_close(t);
		return NULL;
	}
	ctf_clock_and_facts(t);
	return t;
}

ltt_trace *ltt_trace_open(const char *dir, const ltt_open_options *options,
			  ltt_error **err)
{
	ltt_open_options o;
	const ltt_open_options *opt = &o;
	ltt_trace *t;
	ltt_sizes core_sizes;
	ltt_facility *core;
	struct stat st;

	if (ltt_sized_in(&o, sizeof(o), options,
			 LTT_END_OF(ltt_open_options, facility_dirs),
			 "ltt_open_options", err) < 0)
		return NULL;
	if (stat(dir, &st) < 0) {
		ltt_set_error(err, LTT_ERROR_IO, "cannot open trace %s: %s", dir, strerror(errno));
		return NULL;
	}
	if (!S_ISDIR(st.st_mode)) {
		ltt_set_error(err, LTT_ERROR_IO, "cannot open trace %s: not a directory (a trace "
			      "is the folder lttd wrote)", dir);
		return NULL;
	}
	t = trace_new(dir, opt);
	if (ltt_ctf_is_trace(dir)) {
		if (open_ctf(t, err) < 0)
			goto fail;
		return t;
	}
	if (add_tracefiles(t, NULL, err) < 0 ||
	    add_tracefiles(t, LTT_CONTROL_ROOT, err) < 0)
		goto fail;
	if (t->tracefiles->len == 0) {
		ltt_set_error(err, LTT_ERROR_NOT_A_TRACE, "no tracefiles (cpu_N, control/*_N)");
		goto fail;
	}
	if (t->info.arch_size == 0) {
		ltt_set_error(err, LTT_ERROR_NOT_A_TRACE, "every tracefile is empty: no sub-buffer to read");
		goto fail;
	}
	t->freq_hz = t->info.start_freq * t->info.freq_scale;
	if (t->info.start_freq > UINT64_MAX / t->info.freq_scale || t->freq_hz > (1ULL << 44)) {
		ltt_set_error(err, LTT_ERROR_CORRUPT, "impossible clock frequency (%" PRIu64 " x %u)",
			      t->info.start_freq, t->info.freq_scale);
		goto fail;
	}
	set_ns_mult(t);

	/* the core facility, before any facility_load can be read */
	core_sizes = (ltt_sizes){
		.int_size = 4, .long_size = t->info.arch_size,
		.pointer_size = t->info.arch_size, .size_t_size = t->info.arch_size,
		.alignment = t->info.has_alignment,
	};
	t->header_sizes = core_sizes;
	t->event_header_size = (unsigned)ltt_event_header_size(t->info.has_heartbeat);
	t->header_align_mask = (unsigned)ltt_event_header_mask(t->info.has_heartbeat,
							      t->info.has_alignment);
	t->payload_align_mask = (unsigned)ltt_event_payload_mask(t->info.has_alignment);
	if (!ltt_core_description()) {
		ltt_set_error(err, LTT_ERROR_DESCRIPTION, "the built-in core.xml does not parse");
		goto fail;
	}
	core = ltt_facility_new(LTT_CORE_FACILITY_NAME,
				ltt_core_description()->checksum,
				LTT_CORE_FACILITY_ID, &core_sizes,
				ltt_core_description(), err);
	core->load_ns = INT64_MIN;
	ltt_trace_add_facility(t, core);

	if (read_facilities(t, err) < 0)
		goto fail;

	read_whole_file_facts(t);
	ltt_trace_name_values(t);
	return t;
fail:
	ltt_prefix_error(err, "cannot open trace %s", dir);
	ltt_trace_close(t);
	return NULL;
}
const char *ltt_trace_path(const ltt_trace *t)
{
	return t->path;
}

unsigned ltt_trace_num_warnings(const ltt_trace *t)
{
	return t->warnings->len;
}

const char *ltt_trace_warning(const ltt_trace *t, unsigned i)
{
	return i < t->warnings->len ? t->warnings->pdata[i] : NULL;
}

unsigned ltt_trace_num_left_out(const ltt_trace *t)
{
	return t->left_out->len;
}

const char *ltt_trace_left_out(const ltt_trace *t, unsigned i)
{
	return i < t->left_out->len ? t->left_out->pdata[i] : NULL;
}

const ltt_trace_info *ltt_trace_get_info(const ltt_trace *t)
{
	return &t->info;
}

unsigned ltt_trace_num_tracefiles(const ltt_trace *t)
{
	return t->tracefiles->len;
}

ltt_tracefile *ltt_trace_tracefile(const ltt_trace *t, unsigned i)
{
	return i < t->tracefiles->len ? t->tracefiles->pdata[i] : NULL;
}

const char *ltt_tracefile_name(const ltt_tracefile *tf) { return tf->name; }
const char *ltt_tracefile_relpath(const ltt_tracefile *tf) { return tf->relpath; }
unsigned ltt_tracefile_cpu(const ltt_tracefile *tf) { return tf->cpu; }
unsigned ltt_tracefile_num_blocks(const ltt_tracefile *tf) { return tf->num_blocks; }
uint32_t ltt_tracefile_subbuf_size(const ltt_tracefile *tf) { return tf->subbuf_size; }
uint64_t ltt_tracefile_events_lost(const ltt_tracefile *tf) { return tf->events_lost; }
uint64_t ltt_tracefile_corrupted_subbuffers(const ltt_tracefile *tf) { return tf->corrupted; }

const ltt_facility *ltt_trace_facility(const ltt_trace *t, unsigned id)
{
	GPtrArray *loads = id < LTT_MAX_FACILITIES ? t->facilities[id] : NULL;

	return loads && loads->len ? loads->pdata[loads->len - 1] : NULL;
}

const char *ltt_facility_name(const ltt_facility *f) { return f->name; }
uint32_t ltt_facility_checksum(const ltt_facility *f) { return f->checksum; }
const ltt_description *ltt_facility_description(const ltt_facility *f) { return f->desc; }
