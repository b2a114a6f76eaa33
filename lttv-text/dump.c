/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dump.c - one line per event:
 *
 *   facility.event: SECONDS.NANOSECONDS (tracefile) cpu N { fields }
 *
 * Strings are quoted, enums shown by label, pointers in hex (the library's
 * formatter). Unknown events show why and their raw size.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ltt/tool-output.h"
#include "stats.h"

/*
 * Lines are built in one growing buffer, numbers converted by hand, and
 * written a batch at a time (LINE_BATCH bytes): printf and stdio's
 * per-piece calls dominated the profile of a dump, then one fwrite per
 * line did. What repeats from line to line is built once: the
 * "facility.event: " of each event type and the "(tracefile) cpu N" of
 * each tracefile are kept in small caches keyed by the library's
 * pointers, which stay the same for a trace's lifetime.
 */
#define LINE_BATCH 65536

typedef struct line {
	char *p;
	size_t len, cap;
} line;

static void line_reserve(line *l, size_t more)
{
	if (l->len + more > l->cap) {
		l->cap = (l->len + more) * 2;
		l->p = g_realloc(l->p, l->cap);
	}
}

static inline void line_add(line *l, const char *s, size_t n)
{
	line_reserve(l, n);
	memcpy(l->p + l->len, s, n);
	l->len += n;
}

static inline void line_str(line *l, const char *s)
{
	line_add(l, s, strlen(s));
}

static void line_uint(line *l, uint64_t v)
{
	char buf[24], *p = buf + sizeof(buf);

	do {
		*--p = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	line_add(l, p, (size_t)(buf + sizeof(buf) - p));
}

/* Writes what the buffer holds. */
static void line_flush(line *l, FILE *out)
{
	if (l->len)
		fwrite_unlocked(l->p, 1, l->len, out);
	l->len = 0;
}

/* "00" .. "99" */
static const char two_digits[201] =
	"00010203040506070809" "10111213141516171819" "20212223242526272829"
	"30313233343536373839" "40414243444546474849" "50515253545556575859"
	"60616263646566676869" "70717273747576777879" "80818283848586878889"
	"90919293949596979899";

static void line_time(line *l, int64_t ns)
{
	/* the seconds change rarely from one event to the next: keep their
	 * digits */
	static __thread int64_t last_sec = -1;
	static __thread char sec_digits[24];
	static __thread size_t sec_len;
	uint64_t a = ns < 0 ? -(uint64_t)ns : (uint64_t)ns;
	int64_t sec = (int64_t)(a / 1000000000);
	uint32_t f = (uint32_t)(a % 1000000000), hi, lo;
	char *p;

	if (ns < 0)
		line_add(l, "-", 1);
	if (sec != last_sec) {
		char *q = sec_digits + sizeof(sec_digits);
		uint64_t v = (uint64_t)sec;

		do {
			*--q = (char)('0' + v % 10);
			v /= 10;
		} while (v);
		sec_len = (size_t)(sec_digits + sizeof(sec_digits) - q);
		memmove(sec_digits, q, sec_len);
		last_sec = sec;
	}
	line_reserve(l, sec_len + 10);
	p = l->p + l->len;
	memcpy(p, sec_digits, sec_len);
	p += sec_len;
	/* ".nnnnnnnnn": one digit, then four pairs in 32 bits */
	p[0] = '.';
	p[1] = (char)('0' + f / 100000000);
	f %= 100000000;
	hi = f / 10000;
	lo = f % 10000;
	memcpy(p + 2, two_digits + 2 * (hi / 100), 2);
	memcpy(p + 4, two_digits + 2 * (hi % 100), 2);
	memcpy(p + 6, two_digits + 2 * (lo / 100), 2);
	memcpy(p + 8, two_digits + 2 * (lo % 100), 2);
	l->len += sec_len + 10;
}

/* What a line begins with, built once per key (an event type's names, a
 * tracefile) in a direct-mapped cache. */
#define PIECE_CACHE 256
typedef struct piece {
	const void *k1, *k2;
	char *text;
	size_t len;
} piece;

static const piece *piece_of(piece *cache, const void *k1, const void *k2,
			     char *(*make)(const void *, const void *))
{
	piece *pc = &cache[(((uintptr_t)k1 >> 4) ^ ((uintptr_t)k2 >> 3)) % PIECE_CACHE];

	if (G_UNLIKELY(pc->k1 != k1 || pc->k2 != k2 || !pc->text)) {
		g_free(pc->text);
		pc->k1 = k1;
		pc->k2 = k2;
		pc->text = make(k1, k2);
		pc->len = strlen(pc->text);
	}
	return pc;
}

static void pieces_free(piece *cache)
{
	for (unsigned i = 0; i < PIECE_CACHE; i++)
		g_free(cache[i].text);
}

/* "facility.event: " from the two names, shown safely (a trace's own
 * eventdefs may name them anything) */
static char *make_names(const void *facility, const void *event)
{
	return g_strconcat(ltt_text_safe(facility), ".", ltt_text_safe(event), ": ", NULL);
}

/* " (cpu_0) cpu 0" of a tracefile */
static char *make_where(const void *tf, const void *unused)
{
	return g_strdup_printf(" (%s) cpu %u", ltt_text_safe(ltt_tracefile_relpath(tf)),
			       ltt_tracefile_cpu(tf));
}

/* Appends the event's fields, formatted by the library in place. */
static void line_fields(line *l, const ltt_event *ev, unsigned flags)
{
	size_t room, need;

	line_reserve(l, 256);
	room = l->cap - l->len;
	need = ltt_event_format_fields(ev, flags, l->p + l->len, room);
	if (need >= room) {
		line_reserve(l, need + 1);
		ltt_event_format_fields(ev, flags, l->p + l->len, l->cap - l->len);
	}
	l->len += need;
}

int lttv_wanted(const lttv_options *o, GPatternSpec *const *specs,
		const ltt_event *ev, int64_t shown_ns)
{
	if (o->has_begin && shown_ns < o->begin_ns)
		return 0;
	if (o->has_end && shown_ns > o->end_ns)
		return 0;
	if (specs[0]) {
		char name[256];

		snprintf(name, sizeof(name), "%s.%s", ltt_event_facility_name(ev),
			 ltt_event_name(ev));
		for (GPatternSpec *const *s = specs; *s; s++)
			if (g_pattern_spec_match_string(*s, name))
				return 1;
		return 0;
	}
	return 1;
}

/* Prints the warnings of trace i not printed yet (the library adds some
 * while reading); returns how many there are in all. */
static unsigned print_warnings(const lttv_options *o, ltt_trace **traces,
			       unsigned i, unsigned *printed)
{
	unsigned n = ltt_trace_num_warnings(traces[i]);

	for (; *printed < n; (*printed)++)
		fprintf(stderr, "lttv-text: warning: %s: %s\n", o->traces[i],
			ltt_trace_warning(traces[i], *printed));
	return n;
}

/*
 * Names the empty tracefiles of trace i: channels lttd got no sub-buffer
 * from (in a heartbeat trace the kernel's heartbeat timer writes into
 * every channel of every CPU from the start, so each has one; without
 * heartbeats a channel no event reached is empty, and said so too).
 * Nothing in them went unread, so the status stays as it is.
 * Said once the trace is read: a trace that cannot be read gets its one
 * line of error only.
 */
static void warn_empty_tracefiles(const lttv_options *o, ltt_trace *t,
				  unsigned i)
{
	GString *names = g_string_new(NULL);
	unsigned n = 0;

	for (unsigned k = 0; k < ltt_trace_num_tracefiles(t); k++) {
		const ltt_tracefile *tf = ltt_trace_tracefile(t, k);

		if (ltt_tracefile_num_blocks(tf) == 0)
			g_string_append_printf(names, "%s%s", n++ ? ", " : "",
					       ltt_text_safe(ltt_tracefile_relpath(tf)));
	}
	if (n == 1)
		fprintf(stderr, "lttv-text: warning: %s: %s: empty tracefile (0 "
			"bytes): no event from it\n", o->traces[i], names->str);
	else if (n)
		fprintf(stderr, "lttv-text: warning: %s: %u empty tracefiles (0 "
			"bytes): no event from them: %s\n", o->traces[i], n,
			names->str);
	g_string_free(names, TRUE);
}

/*
 * -e GLOB matches "facility.event"; a GLOB without a dot names the event in
 * any facility ("fork" is "*.fork"), as the viewer's event.name does.
 */
static GPatternSpec *event_spec(const char *glob)
{
	GPatternSpec *spec;
	char *any;

	if (strchr(glob, '.'))
		return g_pattern_spec_new(glob);
	any = g_strconcat("*.", glob, NULL);
	spec = g_pattern_spec_new(any);
	g_free(any);
	return spec;
}

/* A -e that no event type of the traces' facilities can match is said:
 * an empty output must not look like a quiet trace. */
static void warn_unmatched(const lttv_options *o, GPatternSpec **specs,
			   ltt_trace *const *traces)
{
	for (size_t g = 0; specs[g]; g++) {
		int found = 0;

		for (unsigned i = 0; !found && i < o->num_traces; i++) {
			for (unsigned id = 0; !found && id < 256; id++) {
				const ltt_facility *f = ltt_trace_facility(traces[i], id);
				const ltt_description *d = f ? ltt_facility_description(f) : NULL;

				for (unsigned e = 0; d && !found &&
				     e < ltt_description_num_events(d); e++) {
					char *name = g_strconcat(ltt_facility_name(f), ".",
						ltt_description_event_name(d, e), NULL);

					found = g_pattern_spec_match_string(specs[g], name);
					g_free(name);
				}
			}
		}
		if (!found)
			fprintf(stderr, "lttv-text: warning: -e '%s' matches no event "
				"type of the trace's facilities\n", o->event_globs[g]);
	}
}

/* a + b, saturated: times from the command line go to the ends of int64 */
static int64_t add_sat(int64_t a, int64_t b)
{
	int64_t r;

	if (__builtin_add_overflow(a, b, &r))
		return b > 0 ? INT64_MAX : INT64_MIN;
	return r;
}

static int wants_analyses(const lttv_options *o)
{
	return o->syscalls || o->schedlat || o->irqs || o->file_io || o->cpu_top ||
	       o->critical_pid >= 0;
}

int lttv_reads_unordered(const lttv_options *o)
{
	return o->quiet && !wants_analyses(o) && !o->state && !o->process_stats;
}

int lttv_dump(lttv_options *o)
{
	ltt_trace **traces = g_new0(ltt_trace *, o->num_traces);
	unsigned *warned = g_new0(unsigned, o->num_traces), warnings = 0;
	ltt_open_options opt = { .size = sizeof(opt), .facility_dirs = o->facility_dirs };
	GPatternSpec **specs;
	ltt_iter *it = NULL;
	ltt_error *err = NULL;
	const ltt_event *ev, *past_end = NULL;
	lttv_stats *st = o->cpu_stats || o->summary ? lttv_stats_new() : NULL;
	ltt_analysis *an = wants_analyses(o) ? ltt_analysis_new() : NULL;
	/* the analyses keep their own model: -s and --process-stats read it */
	ltt_state *own = !an && (o->state || o->process_stats) ? ltt_state_new() : NULL;
	const ltt_state *state = an ? ltt_analysis_state(an) : own;
	GString *stable_buf = o->stable ? g_string_new(NULL) : NULL;
	ltt_state *at_begin = NULL;	/* --process-stats: the model at --begin */
	int64_t origin = INT64_MAX, data_end = INT64_MIN;
	uint64_t undecodable = 0;
	size_t nglobs = 0;
	line lb = { 0 };
	piece *names_cache = g_new0(piece, PIECE_CACHE);
	piece *where_cache = g_new0(piece, PIECE_CACHE);
	int r, status = 0;

	while (o->event_globs[nglobs])
		nglobs++;
	specs = g_new0(GPatternSpec *, nglobs + 1);
	for (size_t i = 0; i < nglobs; i++)
		specs[i] = event_spec(o->event_globs[i]);

	for (unsigned i = 0; i < o->num_traces; i++) {
		const ltt_trace_info *info;

		traces[i] = ltt_trace_open(o->traces[i], &opt, &err);
		if (!traces[i]) {
			fprintf(stderr, "lttv-text: %s\n", ltt_error_message(err));
			status = 1;
			goto out;
		}
		print_warnings(o, traces, i, &warned[i]);
		info = ltt_trace_get_info(traces[i]);
		if (info->start_time_ns < origin)
			origin = info->start_time_ns;
		if (info->last_event_ns > data_end)
			data_end = info->last_event_ns;
	}
	warn_unmatched(o, specs, traces);
	/* the output, now that the inputs are known: never one of them */
	for (unsigned i = 0; o->output && i < o->num_traces; i++)
		if (ltt_trace_path_is_input(traces[i], o->output)) {
			fprintf(stderr, "lttv-text: -o %s: it is an input (a file of the "
				"trace %s, or inside the trace): refused\n", o->output,
				o->traces[i]);
			status = 2;
			goto out;
		}
	/* written beside it, renamed over it once complete (lttv-text.c):
	 * a full disk leaves an existing file as it was */
	if (o->output && (!(o->output_tmp = ltt_output_begin(o->output)) ||
			  !(o->out = fopen(o->output_tmp, "w")))) {
		fprintf(stderr, "lttv-text: cannot write %s: %s\n", o->output,
			strerror(errno));
		status = 1;
		goto out;
	}
	/* printing no event, with no state: no time order needed, the
	 * tracefiles are read apart, in threads (unordered.c) */
	if (lttv_reads_unordered(o)) {
		if (lttv_count_unordered(o, traces, specs, origin, st, &undecodable, &err)) {
			fprintf(stderr, "lttv-text: %s\n", ltt_error_message(err));
			status = 1;
		}
		goto counted;
	}
	it = ltt_iter_new(traces, o->num_traces, &err);
	if (!it) {
		fprintf(stderr, "lttv-text: %s\n", ltt_error_message(err));
		status = 1;
		goto out;
	}
	/* the state needs every event from the start */
	if (o->has_begin && !state &&
	    ltt_iter_seek_time(it, o->relative ? add_sat(origin, o->begin_ns) : o->begin_ns,
			       &err) < 0) {
		fprintf(stderr, "lttv-text: %s\n", ltt_error_message(err));
		status = 1;
		goto out;
	}
	/* the options, in locals: the loop's calls would make the compiler
	 * read them again through o for every event */
	const int relative = o->relative, has_end = o->has_end, quiet = o->quiet;
	const int filtered = o->has_begin || specs[0];
	const int64_t end_ns = o->end_ns;
	/* a terminal shows each line as it comes */
	const size_t batch = isatty(fileno(o->out)) ? 1 : LINE_BATCH;

	while ((r = ltt_iter_next(it, &ev, &err)) > 0) {
		int64_t t = ltt_event_time_ns(ev);
		int64_t shown = relative ? t - origin : t;

		if (has_end && shown > end_ns) {
			/* the data goes on: what ran at --end ran up to it */
			if (an)
				ltt_analysis_extend(an, t - (shown - end_ns));
			past_end = ev;
			break;
		}
		if (o->process_stats && o->has_begin && !at_begin && shown >= o->begin_ns) {
			at_begin = ltt_state_new();
			ltt_state_copy(at_begin, state);
		}
		if (an)
			ltt_analysis_process_event(an, ev);
		else if (own)
			ltt_state_process_event(own, ev);
		if (filtered && !lttv_wanted(o, specs, ev, shown))
			continue;
		if (!ltt_event_is_known(ev))
			undecodable++;
		if (st)
			lttv_stats_add(st, ev, t);
		if (quiet)
			continue;
		{
			const piece *names = piece_of(names_cache, ltt_event_facility_name(ev),
						      ltt_event_name(ev), make_names);
			const ltt_tracefile *tf = ltt_event_tracefile(ev);
			const piece *where = piece_of(where_cache, tf, NULL, make_where);

			line_add(&lb, names->text, names->len);
			if (o->cycles)
				line_uint(&lb, ltt_event_cycles(ev));
			else
				line_time(&lb, shown);
			line_add(&lb, where->text, where->len);
		}
		if (o->state) {
			line_flush(&lb, o->out);
			lttv_state_print_line(o, state, ev);
		}
		if (ltt_event_num_fields(ev) || !ltt_event_is_known(ev)) {
			line_add(&lb, " { ", 3);
			if (stable_buf) {
				g_string_truncate(stable_buf, 0);
				lttv_stable_fields(o, ev, stable_buf);
				line_add(&lb, stable_buf->str, stable_buf->len);
			} else {
				line_fields(&lb, ev, o->field_names ? LTT_FORMAT_NAMES : 0);
			}
			line_add(&lb, " }", 2);
		}
		line_add(&lb, "\n", 1);
		if (lb.len >= batch)
			line_flush(&lb, o->out);
	}
	line_flush(&lb, o->out);
	if (r < 0) {
		fprintf(stderr, "lttv-text: %s\n", ltt_error_message(err));
		status = 1;
	}
counted:
	if (st)
		lttv_stats_print(st, traces, o->num_traces, o->cpu_stats, o->summary,
				 o->relative ? origin : 0, o->out);
	if (o->process_stats) {
		/* the range shown, where there is data: [--begin, --end] */
		int64_t shift = o->relative ? origin : 0;
		int64_t t0 = o->has_begin ? add_sat(o->begin_ns, shift) : INT64_MIN;
		int64_t t1 = o->has_end && add_sat(o->end_ns, shift) < data_end
			     ? add_sat(o->end_ns, shift)
									 : data_end;

		if (o->has_begin && !at_begin) {	/* nothing after --begin */
			at_begin = ltt_state_new();
			ltt_state_copy(at_begin, state);
		}
		lttv_state_print_process_stats(o, at_begin, t0, state, t1);
	}
	if (an) {
		int64_t shift = o->relative ? origin : 0;

		lttv_analyses_print(o, an, o->has_begin ? o->begin_ns + shift : INT64_MIN,
				    o->has_end ? o->end_ns + shift : INT64_MAX, shift);
	}
	if (an && o->critical_pid >= 0) {
		int64_t shift = o->relative ? origin : 0;

		/* the path is the process's whole life, whatever --end: the
		 * rest of the trace, once the rest is printed */
		if (past_end) {
			ltt_analysis_process_event(an, past_end);
			while ((r = ltt_iter_next(it, &ev, &err)) > 0)
				ltt_analysis_process_event(an, ev);
			if (r < 0) {
				fprintf(stderr, "lttv-text: %s\n", ltt_error_message(err));
				status = 1;
			}
		}
		lttv_critical_path_print(o, an, o->has_begin ? o->begin_ns + shift : INT64_MIN,
					 o->has_end ? o->end_ns + shift : INT64_MAX, shift);
	}
	if (state && ltt_state_num_ignored(state)) {
		fprintf(stderr, "lttv-text: warning: the state engine ignored %" PRIu64
			" events: %s\n", ltt_state_num_ignored(state),
			ltt_state_ignored_reason(state));
		warnings++;	/* said: the status says so too (3) */
	}
	for (unsigned i = 0; i < o->num_traces; i++) {
		const ltt_trace_info *info = ltt_trace_get_info(traces[i]);

		warnings += print_warnings(o, traces, i, &warned[i]);
		if (status != 1)	/* a trace that could not be read: its error only */
			warn_empty_tracefiles(o, traces[i], i);
		if (info->events_lost || info->corrupted_subbuffers)
			fprintf(stderr, "lttv-text: warning: %s: the kernel lost %" PRIu64
				" events and delivered %" PRIu64 " corrupted sub-buffers\n",
				o->traces[i], info->events_lost, info->corrupted_subbuffers);
	}
	if (undecodable && status == 0)
		fprintf(stderr, "lttv-text: %" PRIu64 " events could not be decoded "
			"(no description); they are shown raw\n", undecodable);
	/* every problem was said once, above: the status says there was one */
	if ((undecodable || warnings) && status == 0)
		status = 3;
out:
	ltt_error_free(err);
	ltt_iter_free(it);
	for (unsigned i = 0; i < o->num_traces; i++)
		ltt_trace_close(traces[i]);
	g_free(traces);
	g_free(warned);
	for (size_t i = 0; i < nglobs; i++)
		g_pattern_spec_free(specs[i]);
	g_free(specs);
	g_free(lb.p);
	pieces_free(names_cache);
	pieces_free(where_cache);
	g_free(names_cache);
	g_free(where_cache);
	if (st)
		lttv_stats_free(st);
	ltt_state_free(own);
	ltt_analysis_free(an);
	ltt_state_free(at_begin);
	if (stable_buf)
		g_string_free(stable_buf, TRUE);
	return status;
}
