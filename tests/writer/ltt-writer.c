// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * ltt-writer.c - write LTT trace directories, sub-buffer by sub-buffer.
 *
 * A tracefile under construction holds one sub-buffer in memory:
 *
 *	0            106                          off            size
 *	| block hdr  | ev | pad | ev | ... | ev   | (lost_size)   |
 *
 * lttw_event() computes, from `off`, the padding before the event header,
 * the header, the padding after it and the payload (docs/format.md,
 * "Alignment").  When that does not reach past the end it is copied at
 * `off`; otherwise the sub-buffer is closed (lost_size = size - off, end
 * cycle count = last event) and written to the file, and a new one is
 * opened whose begin cycle count is the new event's.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ltt-writer.h"

#define BLOCK_HEADER_SIZE	106u	/* sizeof(struct ltt_block_start_header) */
#define HEARTBEAT_GAP		(1ull << 31)

_Static_assert(sizeof(struct ltt_block_start_header) == BLOCK_HEADER_SIZE,
	       "block header is 106 bytes");
_Static_assert(sizeof(struct ltt_event_header_hb) == 8, "hb header");
_Static_assert(sizeof(struct ltt_event_header_nohb) == 12, "nohb header");

struct lttw_file {
	lttw_trace *trace;
	lttw_file *next;
	unsigned cpu;
	char *path;
	int fd;
	uint32_t size;			/* sub-buffer size */
	unsigned char *sb;		/* the sub-buffer being filled */
	uint32_t off;			/* 0: no sub-buffer open */
	uint64_t begin_tsc, last_tsc;
	int have_last;			/* last_tsc is valid */
	unsigned nsubbufs;		/* written to the file */
	unsigned keep_last;
	uint32_t lost, corrupted;	/* cumulative counters */
	uint32_t lost_written, corrupted_written;
	int failed;
};

struct lttw_trace {
	char *dir;
	lttw_config c;
	unsigned hdr_size;		/* 8 or 12 */
	lttw_file *files;
	uint64_t *next_beat;		/* per CPU, with heartbeat_period */
	unsigned nbeat;
	int failed;
};

static _Thread_local char last_error[512];

const char *lttw_last_error(void)
{
	return last_error;
}

__attribute__((format(printf, 1, 2)))
static void set_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(last_error, sizeof(last_error), fmt, ap);
	va_end(ap);
}

void lttw_config_default(lttw_config *c)
{
	memset(c, 0, sizeof(*c));
	c->arch_size = 8;
	c->int_size = 4;
	c->alignment = 8;
	c->has_heartbeat = 1;
	c->mode = LTT_TRACE_MODE_NORMAL;
	c->arch_type = LTT_ARCH_TYPE_X86_64;
	c->arch_variant = LTT_ARCH_VARIANT_NONE;
	c->subbuf_size = 4096;
	c->freq_scale = 1000;
	c->start_freq = 2000000;	/* 2 GHz in kHz */
	c->start_tsc = 1000000000ull;
	c->start_monotonic = 5000000000ull;
	c->start_time_sec = 1159000000;	/* September 2006 */
	c->start_time_usec = 0;
	c->auto_heartbeat = 1;
	c->channel_facility_id = -1;
}

static int mkdir_p(const char *path)
{
	char buf[4096];
	size_t n = strlen(path);

	if (n >= sizeof(buf)) {
		set_error("%s: path too long", path);
		return -1;
	}
	memcpy(buf, path, n + 1);
	for (char *s = buf + 1; ; s++) {
		if (*s == '/' || *s == '\0') {
			char c = *s;

			*s = '\0';
			if (mkdir(buf, 0777) && errno != EEXIST) {
				set_error("cannot create %s: %s", buf, strerror(errno));
				return -1;
			}
			*s = c;
			if (c == '\0')
				break;
		}
	}
	return 0;
}

static char *path_join(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	char *s = malloc(la + lb + 2);

	if (!s)
		return NULL;
	memcpy(s, a, la);
	s[la] = '/';
	memcpy(s + la + 1, b, lb + 1);
	return s;
}

lttw_trace *lttw_trace_create(const char *dir, const lttw_config *c)
{
	lttw_trace *t;
	char *sub;

	if (c->arch_size != 4 && c->arch_size != 8) {
		set_error("arch_size %u: must be 4 or 8", c->arch_size);
		return NULL;
	}
	if (c->alignment != 0 && c->alignment != 1 && c->alignment != 2 &&
	    c->alignment != 4 && c->alignment != 8) {
		set_error("alignment %u: must be 0, 1, 2, 4 or 8", c->alignment);
		return NULL;
	}
	if (c->subbuf_size < BLOCK_HEADER_SIZE) {
		set_error("sub-buffer size %u is smaller than the block header",
			  c->subbuf_size);
		return NULL;
	}
	t = calloc(1, sizeof(*t));
	if (!t || !(t->dir = strdup(dir))) {
		free(t);
		set_error("out of memory");
		return NULL;
	}
	t->c = *c;
	if (t->c.int_size == 0)
		t->c.int_size = 4;
	t->hdr_size = c->has_heartbeat ? 8 : 12;
	if (mkdir_p(dir))
		goto fail;
	sub = path_join(dir, LTT_CONTROL_ROOT);
	if (!sub || mkdir_p(sub)) {
		free(sub);
		goto fail;
	}
	free(sub);
	sub = path_join(dir, LTT_EVENTDEFS_DIR);
	if (!sub || mkdir_p(sub)) {
		free(sub);
		goto fail;
	}
	free(sub);
	return t;
fail:
	free(t->dir);
	free(t);
	return NULL;
}

const lttw_config *lttw_trace_config(const lttw_trace *t)
{
	return &t->c;
}

const char *lttw_trace_dir(const lttw_trace *t)
{
	return t->dir;
}

lttw_file *lttw_file_open(lttw_trace *t, const char *channel, unsigned cpu,
			  uint32_t subbuf_size)
{
	lttw_file *f;
	char name[512];
	char *slash;

	if (subbuf_size == 0)
		subbuf_size = t->c.subbuf_size;
	if (subbuf_size < BLOCK_HEADER_SIZE) {
		set_error("%s_%u: sub-buffer size %u is smaller than the block header",
			  channel, cpu, subbuf_size);
		return NULL;
	}
	snprintf(name, sizeof(name), "%s_%u", channel, cpu);
	f = calloc(1, sizeof(*f));
	if (!f) {
		set_error("out of memory");
		return NULL;
	}
	if (t->c.has_heartbeat && t->c.heartbeat_period && cpu >= t->nbeat) {
		uint64_t *nb = realloc(t->next_beat, (cpu + 1) * sizeof(*nb));

		if (!nb) {
			set_error("out of memory");
			free(f);
			return NULL;
		}
		for (unsigned i = t->nbeat; i <= cpu; i++)
			nb[i] = t->c.start_tsc + t->c.heartbeat_first;
		t->next_beat = nb;
		t->nbeat = cpu + 1;
	}
	f->trace = t;
	f->cpu = cpu;
	f->size = subbuf_size;
	f->fd = -1;
	f->path = path_join(t->dir, name);
	f->sb = malloc(subbuf_size);
	if (!f->path || !f->sb) {
		set_error("out of memory");
		goto fail;
	}
	slash = strrchr(f->path, '/');
	*slash = '\0';
	if (mkdir_p(f->path))
		goto fail;
	*slash = '/';
	f->fd = open(f->path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	if (f->fd < 0) {
		set_error("cannot create %s: %s", f->path, strerror(errno));
		goto fail;
	}
	f->next = t->files;
	t->files = f;
	return f;
fail:
	free(f->path);
	free(f->sb);
	free(f);
	return NULL;
}

/* Fill the block header of the sub-buffer being opened at `tsc`. */
static void subbuf_open(lttw_file *f, uint64_t tsc)
{
	const lttw_config *c = &f->trace->c;
	struct ltt_block_start_header h;

	memset(&h, 0, sizeof(h));
	h.begin.cycle_count = tsc;
	h.begin.freq = c->start_freq;
	h.end.freq = c->start_freq;
	h.buf_size = f->size;
	h.trace.magic_number = LTT_TRACER_MAGIC_NUMBER;
	h.trace.arch_type = c->arch_type;
	h.trace.arch_variant = c->arch_variant;
	h.trace.float_word_order = c->float_word_order;
	h.trace.arch_size = (__u8)c->arch_size;
	h.trace.major_version = LTT_TRACER_VERSION_MAJOR;
	h.trace.minor_version = LTT_TRACER_VERSION_MINOR;
	h.trace.flight_recorder = (__u8)c->mode;
	h.trace.has_heartbeat = (__u8)c->has_heartbeat;
	h.trace.has_alignment = (__u8)c->alignment;
	h.trace.freq_scale = c->freq_scale;
	h.trace.start_freq = c->start_freq;
	h.trace.start_tsc = c->start_tsc;
	h.trace.start_monotonic = c->start_monotonic;
	h.trace.start_time_sec = c->start_time_sec;
	h.trace.start_time_usec = c->start_time_usec;
	memcpy(f->sb, &h, sizeof(h));
	f->off = BLOCK_HEADER_SIZE;
	f->begin_tsc = tsc;
}

/* Close the open sub-buffer: lost_size, end cycle count, write it out. */
static int subbuf_close(lttw_file *f)
{
	struct ltt_block_start_header *h = (void *)f->sb;
	uint32_t lost = f->size - f->off;
	uint64_t end = f->have_last ? f->last_tsc : f->begin_tsc;
	size_t done = 0;

	if (f->off == 0)
		return 0;
	memset(f->sb + f->off, 0, lost);
	memcpy(&h->lost_size, &lost, sizeof(lost));
	memcpy(&h->end.cycle_count, &end, sizeof(end));
	while (done < f->size) {
		ssize_t n = write(f->fd, f->sb + done, f->size - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			set_error("%s: write: %s", f->path,
				  n < 0 ? strerror(errno) : "short write");
			f->failed = 1;
			return -1;
		}
		done += (size_t)n;
	}
	f->off = 0;
	f->nsubbufs++;
	return 0;
}

int lttw_file_switch(lttw_file *f)
{
	return subbuf_close(f);
}

/* Padding before the event header: to min(header size, A), a power of 2. */
static unsigned header_pad(uint32_t off, unsigned hdr_size, unsigned a)
{
	unsigned n;

	if (a == 0)
		return 0;
	n = hdr_size < a ? hdr_size : a;
	while (n & (n - 1))		/* round down to a power of two */
		n &= n - 1;
	return (n - off % n) % n;
}

size_t lttw_event_place(uint32_t off, unsigned has_heartbeat, unsigned a,
			size_t len, unsigned *pre, unsigned *post)
{
	unsigned hdr_size = has_heartbeat ? 8 : 12;
	uint32_t hdr_end;

	*pre = header_pad(off, hdr_size, a);
	hdr_end = off + *pre + hdr_size;
	*post = a ? (a - hdr_end % a) % a : 0;
	return *pre + hdr_size + *post + len;
}

static int buffer_stats(lttw_file *f, uint64_t tsc);

/* Copy one event at f->off; the sub-buffer is open and it fits. */
static void put_event(lttw_file *f, uint64_t tsc, unsigned fac, unsigned ev,
		      const void *payload, size_t len, unsigned pre, unsigned post)
{
	lttw_trace *t = f->trace;
	unsigned char *d = f->sb + f->off;
	uint16_t size = len >= LTT_EVENT_SIZE_UNKNOWN ? LTT_EVENT_SIZE_UNKNOWN
						      : (uint16_t)len;

	memset(d, 0, pre);
	d += pre;
	if (t->c.has_heartbeat) {
		struct ltt_event_header_hb h;

		h.timestamp = (uint32_t)tsc;
		h.facility_id = (__u8)fac;
		h.event_id = (__u8)ev;
		h.event_size = size;
		memcpy(d, &h, sizeof(h));
	} else {
		struct ltt_event_header_nohb h;

		h.timestamp = tsc;
		h.facility_id = (__u8)fac;
		h.event_id = (__u8)ev;
		h.event_size = size;
		memcpy(d, &h, sizeof(h));
	}
	d += t->hdr_size;
	memset(d, 0, post);
	d += post;
	if (len)
		memcpy(d, payload, len);
	f->off += pre + t->hdr_size + post + (uint32_t)len;
	f->last_tsc = tsc;
	f->have_last = 1;
}

/* Bytes the event takes at offset off: fills *pre and *post. */
static size_t event_span(const lttw_trace *t, uint32_t off, size_t len,
			 unsigned *pre, unsigned *post)
{
	return lttw_event_place(off, t->c.has_heartbeat, t->c.alignment, len,
				pre, post);
}

static int event_at(lttw_file *f, uint64_t tsc, unsigned fac, unsigned ev,
		    const void *payload, size_t len)
{
	unsigned pre, post;
	size_t span;

	if (f->off == 0) {
		subbuf_open(f, tsc);
		if (buffer_stats(f, tsc))
			return -1;
	}
	span = event_span(f->trace, f->off, len, &pre, &post);
	if (f->off + span > f->size) {
		if (f->off > BLOCK_HEADER_SIZE ||
		    (f->lost != f->lost_written ||
		     f->corrupted != f->corrupted_written)) {
			/* not the first event of its sub-buffer: switch */
			if (subbuf_close(f))
				return -1;
			subbuf_open(f, tsc);
			if (buffer_stats(f, tsc))
				return -1;
			span = event_span(f->trace, f->off, len, &pre, &post);
		}
		if (f->off + span > f->size) {
			f->lost++;
			set_error("%s: event %u.%u of %zu bytes does not fit in a "
				  "%u-byte sub-buffer", f->path, fac, ev, len, f->size);
			return -1;
		}
	}
	put_event(f, tsc, fac, ev, payload, len, pre, post);
	return 0;
}

/* At the start of a sub-buffer: the loss counters, if they changed. */
static int buffer_stats(lttw_file *f, uint64_t tsc)
{
	lttw_trace *t = f->trace;
	unsigned char pl[8];
	unsigned pre, post;
	size_t span;

	if (t->c.channel_facility_id < 0 ||
	    (f->lost == f->lost_written && f->corrupted == f->corrupted_written))
		return 0;
	/* two uint_fixed size=4 fields: offsets 0 and 4 whatever A is */
	memcpy(pl, &f->lost, 4);
	memcpy(pl + 4, &f->corrupted, 4);
	span = event_span(t, f->off, sizeof(pl), &pre, &post);
	if (f->off + span > f->size)
		return 0;	/* tiny sub-buffers: no room, skip */
	put_event(f, tsc, (unsigned)t->c.channel_facility_id, 0, pl, sizeof(pl),
		  pre, post);
	f->lost_written = f->lost;
	f->corrupted_written = f->corrupted;
	return 0;
}

/*
 * The heartbeat timer of cpu, up to tsc: at each period, a heartbeat in
 * every tracefile of that CPU (at its last event's time if that is later:
 * a tracefile never goes back in time).
 */
static int heartbeats(lttw_trace *t, unsigned cpu, uint64_t tsc)
{
	if (cpu >= t->nbeat)
		return 0;
	while (t->next_beat[cpu] <= tsc) {
		uint64_t at = t->next_beat[cpu];

		for (lttw_file *g = t->files; g; g = g->next) {
			uint64_t when = g->have_last && g->last_tsc > at ? g->last_tsc : at;

			if (g->cpu != cpu || g->failed)
				continue;
			if (event_at(g, when, LTT_CORE_FACILITY_ID,
				     LTT_EVENT_CORE_TIME_HEARTBEAT, NULL, 0))
				return -1;
		}
		t->next_beat[cpu] += t->c.heartbeat_period;
	}
	return 0;
}

int lttw_event(lttw_file *f, uint64_t tsc, unsigned facility_id,
	       unsigned event_id, const void *payload, size_t len)
{
	lttw_trace *t = f->trace;

	if (facility_id > 255 || event_id > 255) {
		set_error("%s: facility id %u or event id %u out of range",
			  f->path, facility_id, event_id);
		return -1;
	}
	if (f->have_last && tsc < f->last_tsc) {
		set_error("%s: cycle count goes back from %llu to %llu", f->path,
			  (unsigned long long)f->last_tsc, (unsigned long long)tsc);
		return -1;
	}
	{
		/* an event that cannot fit even in an empty sub-buffer is lost */
		unsigned pre, post;

		if (BLOCK_HEADER_SIZE + event_span(t, BLOCK_HEADER_SIZE, len,
						   &pre, &post) > f->size) {
			f->lost++;
			set_error("%s: event %u.%u of %zu bytes does not fit in a "
				  "%u-byte sub-buffer", f->path, facility_id,
				  event_id, len, f->size);
			return -1;
		}
	}
	if (t->nbeat && !(f->have_last && tsc < f->last_tsc) &&
	    heartbeats(t, f->cpu, tsc))
		return -1;
	if (t->c.has_heartbeat && t->c.auto_heartbeat) {
		/* the reader can rebuild at most 2^32 cycles between events */
		uint64_t last = f->have_last ? f->last_tsc
			      : f->off ? f->begin_tsc : tsc;

		while (tsc - last >= HEARTBEAT_GAP) {
			last += HEARTBEAT_GAP - 1;
			if (event_at(f, last, LTT_CORE_FACILITY_ID,
				     LTT_EVENT_CORE_TIME_HEARTBEAT, NULL, 0))
				return -1;
		}
	}
	return event_at(f, tsc, facility_id, event_id, payload, len);
}

void lttw_file_add_losses(lttw_file *f, uint32_t events_lost,
			  uint32_t corrupted_subbuffers)
{
	f->lost += events_lost;
	f->corrupted += corrupted_subbuffers;
}

uint32_t lttw_file_events_lost(const lttw_file *f)
{
	return f->lost;
}

uint32_t lttw_file_corrupted(const lttw_file *f)
{
	return f->corrupted;
}

void lttw_file_keep_last(lttw_file *f, unsigned n)
{
	f->keep_last = n;
}

size_t lttw_file_room(const lttw_file *f)
{
	uint32_t off = f->off ? f->off : BLOCK_HEADER_SIZE;
	unsigned pre, post;
	size_t span = event_span(f->trace, off, 0, &pre, &post);

	if (off + span > f->size)
		return 0;
	return f->size - off - span;
}

uint64_t lttw_file_offset(const lttw_file *f)
{
	return (uint64_t)f->nsubbufs * f->size + f->off;
}

unsigned lttw_file_num_subbufs(const lttw_file *f)
{
	return f->nsubbufs + (f->off != 0);
}

/* Flight recorder: move the last keep_last sub-buffers to the front. */
static int keep_last(lttw_file *f)
{
	unsigned first = f->nsubbufs - f->keep_last;
	unsigned char *buf = f->sb;

	for (unsigned i = 0; i < f->keep_last; i++) {
		off_t from = (off_t)(first + i) * f->size;
		off_t to = (off_t)i * f->size;

		if (pread(f->fd, buf, f->size, from) != (ssize_t)f->size ||
		    pwrite(f->fd, buf, f->size, to) != (ssize_t)f->size) {
			set_error("%s: cannot rewrite: %s", f->path, strerror(errno));
			return -1;
		}
	}
	if (ftruncate(f->fd, (off_t)f->keep_last * f->size)) {
		set_error("%s: truncate: %s", f->path, strerror(errno));
		return -1;
	}
	f->nsubbufs = f->keep_last;
	return 0;
}

static int file_close(lttw_file *f)
{
	int ret = f->failed ? -1 : 0;

	if (subbuf_close(f))
		ret = -1;
	if (ret == 0 && f->keep_last && f->nsubbufs > f->keep_last) {
		/* pread needs a readable descriptor */
		int rfd = open(f->path, O_RDWR | O_CLOEXEC);

		if (rfd < 0) {
			set_error("%s: %s", f->path, strerror(errno));
			ret = -1;
		} else {
			close(f->fd);
			f->fd = rfd;
			if (keep_last(f))
				ret = -1;
		}
	}
	if (close(f->fd) && ret == 0) {
		set_error("%s: close: %s", f->path, strerror(errno));
		ret = -1;
	}
	free(f->sb);
	free(f->path);
	free(f);
	return ret;
}

int lttw_trace_close(lttw_trace *t)
{
	int ret = t->failed ? -1 : 0;
	lttw_file *f, *next;
	uint64_t end = 0;
	int any = 0;

	/* the heartbeat timers ran until the stop: the last event */
	for (f = t->files; f; f = f->next)
		if (f->have_last && (!any || f->last_tsc > end)) {
			end = f->last_tsc;
			any = 1;
		}
	for (unsigned cpu = 0; any && cpu < t->nbeat; cpu++)
		if (heartbeats(t, cpu, end))
			ret = -1;
	free(t->next_beat);
	for (f = t->files; f; f = next) {
		next = f->next;
		if (file_close(f))
			ret = -1;
	}
	free(t->dir);
	free(t);
	return ret;
}

/* ---- Facility descriptions and facility_load ----------------------------- */

static int write_file(const char *path, const void *data, size_t len)
{
	FILE *out = fopen(path, "wb");

	if (!out) {
		set_error("cannot create %s: %s", path, strerror(errno));
		return -1;
	}
	if (fwrite(data, 1, len, out) != len) {
		set_error("%s: write failed", path);
		fclose(out);
		return -1;
	}
	if (fclose(out)) {
		set_error("%s: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

int lttw_eventdef_write(lttw_trace *t, const char *name, const char *text)
{
	char *dir = path_join(t->dir, LTT_EVENTDEFS_DIR);
	char *path = dir ? path_join(dir, name) : NULL;
	int ret = -1;

	if (path)
		ret = write_file(path, text, strlen(text));
	else
		set_error("out of memory");
	free(dir);
	free(path);
	return ret;
}

int lttw_eventdef_copy(lttw_trace *t, const char *xml_path)
{
	FILE *in = fopen(xml_path, "rb");
	const char *base = strrchr(xml_path, '/');
	char *text = NULL;
	size_t len = 0, cap = 0;
	int ret;

	if (!in) {
		set_error("cannot open %s: %s", xml_path, strerror(errno));
		return -1;
	}
	for (;;) {
		size_t n;

		if (len + 4096 + 1 > cap) {
			char *nt = realloc(text, cap = cap * 2 + 8192);

			if (!nt) {
				free(text);
				fclose(in);
				set_error("out of memory");
				return -1;
			}
			text = nt;
		}
		n = fread(text + len, 1, 4096, in);
		len += n;
		if (n < 4096)
			break;
	}
	fclose(in);
	text[len] = '\0';
	ret = lttw_eventdef_write(t, base ? base + 1 : xml_path, text);
	free(text);
	return ret;
}

int lttw_facility_load(lttw_file *f, uint64_t tsc, const char *name,
		       uint32_t checksum, unsigned id, int state_dump)
{
	const lttw_config *c = &f->trace->c;
	lttw_payload p;
	int ret;

	lttw_payload_init(&p, f->trace);
	lttw_put_string(&p, name);
	lttw_put_uint(&p, checksum);
	lttw_put_uint(&p, id);
	lttw_put_uint(&p, c->int_size);
	lttw_put_uint(&p, c->arch_size);	/* long */
	lttw_put_uint(&p, c->arch_size);	/* pointer */
	lttw_put_uint(&p, c->arch_size);	/* size_t */
	lttw_put_uint(&p, c->alignment);
	if (p.failed) {
		lttw_payload_free(&p);
		set_error("out of memory");
		return -1;
	}
	ret = lttw_event(f, tsc, LTT_CORE_FACILITY_ID,
			 state_dump ? LTT_EVENT_CORE_STATE_DUMP_FACILITY_LOAD
				    : LTT_EVENT_CORE_FACILITY_LOAD, p.buf, p.len);
	lttw_payload_free(&p);
	return ret;
}

/* ---- Payload buffers ----------------------------------------------------- */

void lttw_payload_init_raw(lttw_payload *p, unsigned max_align,
			   unsigned arch_size)
{
	memset(p, 0, sizeof(*p));
	p->max_align = max_align;
	p->int_size = 4;
	p->long_size = arch_size;
	p->pointer_size = arch_size;
	p->size_t_size = arch_size;
	lttw_payload_reserve(p, 256);
}

void lttw_payload_init(lttw_payload *p, const lttw_trace *t)
{
	lttw_payload_init_raw(p, t->c.alignment, t->c.arch_size);
	p->int_size = t->c.int_size;
	p->fpa_doubles = t->c.float_word_order == 4321;
}

void lttw_payload_free(lttw_payload *p)
{
	free(p->buf);
	p->buf = NULL;
	p->len = p->cap = 0;
}

int lttw_payload_reserve(lttw_payload *p, size_t more)
{
	size_t cap = p->cap ? p->cap : 256;
	unsigned char *nb;

	if (p->failed)
		return -1;
	while (cap < p->len + more)
		cap *= 2;
	if (cap == p->cap)
		return 0;
	nb = realloc(p->buf, cap);
	if (!nb) {
		p->failed = 1;
		return -1;
	}
	p->buf = nb;
	p->cap = cap;
	return 0;
}

void lttw_put_float(lttw_payload *p, double v, unsigned size)
{
	if (size == 4) {
		float x = (float)v;
		uint32_t bits;

		memcpy(&bits, &x, 4);
		lttw_put_uint_n(p, bits, 4);
	} else {
		uint64_t bits;

		memcpy(&bits, &v, 8);
		if (p->fpa_doubles)	/* the two words in the other order */
			bits = (bits << 32) | (bits >> 32);
		lttw_put_uint_n(p, bits, 8);
	}
}
