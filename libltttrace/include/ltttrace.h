/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * ltttrace.h - read Linux Trace Toolkit traces.
 *
 * The one public header of libltttrace. Handles are opaque; GLib is used
 * inside but never appears here. Every call that can fail takes an
 * `ltt_error **err` (may be NULL) and, on failure, sets it to an error that
 * carries the chain of causes ("cannot open trace out: cpu_1: sub-buffer 3
 * at offset 0x60000: bad magic 0x12345678"). Free it with ltt_error_free().
 *
 * Typical use:
 *
 *	ltt_trace *t = ltt_trace_open("out", NULL, &err);
 *	ltt_iter *it = ltt_iter_new(&t, 1, &err);
 *	const ltt_event *ev;
 *	while (ltt_iter_next(it, &ev, &err) > 0)
 *		printf("%s.%s\n", ltt_event_facility_name(ev), ltt_event_name(ev));
 *
 * Times are int64_t nanoseconds since the Unix epoch (wall clock), computed
 * from cycles as docs/format.md says. The format itself is described in
 * docs/format.md and its layouts live in <ltt/ltt-abi.h>.
 *
 * ---- Contracts -------------------------------------------------------------
 *
 * Errors. A function that fails returns NULL, -1 or 0 as it says, and sets
 * *err when err is not NULL and *err is NULL (the first, most precise cause
 * is kept); ltt_error_get_code() says what kind of failure it is. An
 * iterator that failed stays failed: every later ltt_iter_next() and
 * ltt_iter_seek_time() returns -1 and the same error again; free it.
 * Events of a trace that can be read but not decoded (no description) are
 * not errors: ltt_event_is_known() is 0 and the trace has a warning.
 *
 * Strings and objects the library returns belong to what they came from
 * and live as long as it; never free them:
 *   - ltt_version_string(), ltt_error_code_name(), the ltt_state_*_name()
 *     strings: static; ltt_default_facilities_dir(): static, or the
 *     environment's $LTT_FACILITIES_DIR (until the environment changes);
 *   - an error's message: until ltt_error_free();
 *   - a description's names, descriptions and types: until
 *     ltt_description_free(), or ltt_trace_close() for a trace's own;
 *   - a trace's path, warnings, tracefiles, facilities, info and the names
 *     of its events and fields: until ltt_trace_close();
 *   - an event, its payload and the strings of its field values
 *     (ltt_value.str points into the trace's data): until the next call on
 *     the iterator that returned it (next, seek or free);
 *   - the name and value a field visitor receives: during the call;
 *   - the names in ltt_state_*_info: until the model changes (the next
 *     ltt_state_process_event(), ltt_state_copy() or ltt_state_index_seek()
 *     into it) or is freed; mode_name until the trace closes.
 * ltt_event_format_fields() writes into the caller's buffer.
 *
 * Threads. Objects are not locked: each is used by one thread at a time.
 * A trace and what reads it (its iterators, the events they return, a
 * state index over it) count as one object: the library notes warnings in
 * the trace as it reads. Different traces, opened separately, may be read
 * by different threads at once: the library keeps no other mutable global
 * state (its tables are built once, thread-safely, and the text buffers of
 * ltt_event_format_fields() are per thread). ltttrace-state.h says how a
 * viewer reads an index from another thread (snapshots).
 *
 * Limits, from the format and from this reader:
 *   - facility ids and event ids 0..255 (one byte each in an event header);
 *   - a facility description: a regular file of at most
 *     LTT_DESCRIPTION_MAX_BYTES, types nested at most 32 levels (typerefs
 *     count), at most 131072 values in one event's fields, at most 64
 *     values per payload byte in a sequence; beyond: LTT_ERROR_DESCRIPTION;
 *   - times: int64 nanoseconds, which saturate rather than wrap for cycle
 *     counts far beyond the trace;
 *   - any number of traces in one iterator or index (memory permitting);
 *   - the state model: CPUs 0..4095, softirqs 0..31, 16 nested modes per
 *     process, names of LTT_STATE_NAME_MAX - 1 bytes (ltttrace-state.h):
 *     beyond, events are counted as ignored or names cut, never an error.
 *
 * Sized structs. A struct that crosses the boundary may gain members at the
 * end in a later version without breaking a program built before:
 *   - options the caller fills (ltt_open_options, ltt_state_index_options)
 *     start with `size_t size`, which the caller sets to sizeof the struct
 *     (0 is refused with LTT_ERROR_INVALID, and so are members set that the
 *     library does not know); a NULL pointer gives the defaults;
 *   - structs the library fills for the caller (ltt_value, the
 *     ltt_state_*_info, ltt_state_cpu_time rows, and every result of
 *     ltttrace-analysis.h: occurrences, groups and their statistics, rows,
 *     path segments) are passed with their size by the macros of the same
 *     name (ltt_event_field() calls ltt_event_field_sized(...,
 *     sizeof(*out))): the library fills what it and the caller both know
 *     and zeroes the rest, arrays at the caller's stride; a size below
 *     0.7.0's is refused (-1, or no result);
 *   - no public struct holds another by value (ltt_latency_group points at
 *     its ltt_latency_stats), so that each can grow on its own;
 *   - ltt_trace_info is the library's own (a const pointer): never allocate
 *     one.
 * tests/t74-exports.sh checks the rules a compiler cannot: every *_sized
 * call has its macro, no struct is embedded in another.
 * Every other type is opaque: a handle, created and freed by the library.
 */
#ifndef LTTTRACE_H
#define LTTTRACE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ltttrace-version.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * The library is compiled with -fvisibility=hidden: what this header and
 * those it includes (ltttrace-state.h, ltttrace-analysis.h) declare is its
 * whole exported interface, nothing else (tests/t74-exports.sh checks
 * libltttrace.so's symbols against them).
 */
#if defined(__GNUC__) && __GNUC__ >= 4
#pragma GCC visibility push(default)
#endif

/* ---- Version ------------------------------------------------------------ */

/*
 * The library a program runs with, which may be newer than the
 * LTTTRACE_VERSION_* it was compiled against: "0.7.0" and
 * LTTTRACE_VERSION_NUMBER's encoding of it. The string is static.
 */
const char *ltt_version_string(void);
unsigned ltt_version_number(void);

/* ---- Errors ------------------------------------------------------------- */

typedef struct ltt_error ltt_error;

/*
 * What went wrong, for a program to act on; the message says where and
 * why. The code is the innermost cause's: "cannot open trace out: cpu_1:
 * sub-buffer 3 at offset 0x60000: bad magic 0x12345678" is CORRUPT.
 */
typedef enum ltt_error_code {
	LTT_ERROR_NONE = 0,	/* no error (a NULL ltt_error) */
	LTT_ERROR_IO,		/* the system refused: a file missing, unreadable,
				 * not of the right type, changed while read */
	LTT_ERROR_NOMEM,	/* out of memory */
	LTT_ERROR_NOT_A_TRACE,	/* a folder without tracefiles, or only empty ones */
	LTT_ERROR_CORRUPT,	/* data that contradicts the format: headers,
				 * sizes, times, events past their sub-buffer */
	LTT_ERROR_UNSUPPORTED,	/* a trace this library cannot read: another
				 * format version, the other byte order */
	LTT_ERROR_DESCRIPTION,	/* a facility description (XML) that is malformed,
				 * beyond the limits below, or cannot describe
				 * its events */
	LTT_ERROR_INVALID,	/* a call the library cannot honour (a bad
				 * argument, an object in the wrong state) */
} ltt_error_code;

/* The whole chain, outermost cause first, joined with ": "; "no error"
 * for NULL. Valid until ltt_error_free(err). */
const char *ltt_error_message(const ltt_error *err);
ltt_error_code ltt_error_get_code(const ltt_error *err);
/* "io", "nomem", "not-a-trace", "corrupt", "unsupported", "description",
 * "invalid", "none"; static. */
const char *ltt_error_code_name(ltt_error_code code);
void ltt_error_free(ltt_error *err);

/* The kinds of field values and types. */
typedef enum ltt_kind {
	LTT_KIND_NONE = 0,
	LTT_KIND_INT,		/* int, int_fixed, char, short, long, ssize_t, off_t */
	LTT_KIND_UINT,		/* uint, uint_fixed, uchar, ushort, ulong, size_t */
	LTT_KIND_POINTER,
	LTT_KIND_ENUM,
	LTT_KIND_FLOAT,
	LTT_KIND_STRING,
	LTT_KIND_ARRAY,
	LTT_KIND_SEQUENCE,
	LTT_KIND_STRUCT,
	LTT_KIND_UNION,
} ltt_kind;

/* ---- Facility descriptions (the XML catalogue) -------------------------- */

typedef struct ltt_description ltt_description;

/* Parse one facility description file: a regular file of at most
 * LTT_DESCRIPTION_MAX_BYTES (the largest facility file of the era is
 * 40 KB), so that a FIFO, a device or a huge file is refused, not read. */
#define LTT_DESCRIPTION_MAX_BYTES (1 << 20)
ltt_description *ltt_description_load(const char *xml_path, ltt_error **err);
/* Parse from memory (for fuzzing and tests); `origin` names it in errors. */
ltt_description *ltt_description_parse(const char *text, size_t len,
					const char *origin, ltt_error **err);
void ltt_description_free(ltt_description *desc);
const char *ltt_description_name(const ltt_description *desc);
/* The genevent checksum (docs/format.md, "The checksum"). */
uint32_t ltt_description_checksum(const ltt_description *desc);
unsigned ltt_description_num_events(const ltt_description *desc);
const char *ltt_description_event_name(const ltt_description *desc, unsigned id);
const char *ltt_description_event_description(const ltt_description *desc, unsigned id);
/* The channel its events go to (the channel="..." attribute of the event,
 * else of the facility; not part of the checksum), or NULL. */
const char *ltt_description_event_channel(const ltt_description *desc, unsigned id);

/*
 * Types of the fields, for exporters (CTF) and generic tools. A type is
 * described independently of a trace; its byte size depends on the sizes
 * a facility was loaded with: ltt_facility_type_size().
 */
typedef struct ltt_field_type ltt_field_type;
unsigned ltt_description_num_fields(const ltt_description *desc, unsigned event);
const char *ltt_description_field_name(const ltt_description *desc,
				       unsigned event, unsigned field);
const ltt_field_type *ltt_description_field_type(const ltt_description *desc,
						 unsigned event, unsigned field);
ltt_kind ltt_field_type_kind(const ltt_field_type *type);
/* ARRAY: element count. */
unsigned ltt_field_type_length(const ltt_field_type *type);
/* ARRAY, SEQUENCE: element type; SEQUENCE: the length's type. */
const ltt_field_type *ltt_field_type_element(const ltt_field_type *type);
const ltt_field_type *ltt_field_type_length_type(const ltt_field_type *type);
/* STRUCT, UNION: members. */
unsigned ltt_field_type_num_members(const ltt_field_type *type);
const char *ltt_field_type_member_name(const ltt_field_type *type, unsigned i);
const ltt_field_type *ltt_field_type_member(const ltt_field_type *type, unsigned i);
/* The XML element of the type ("uint", "long", "enum"...) and its size
 * attribute (0 when absent: a native size; always 0 for int, uint and
 * enum, which are int_size whatever the file says: docs/format.md). */
const char *ltt_field_type_xml_name(const ltt_field_type *type);
unsigned ltt_field_type_declared_size(const ltt_field_type *type);
/* Bytes of a scalar type for a writer with these native sizes (as a
 * facility_load announces them); 0 for compound kinds and strings. */
unsigned ltt_field_type_size(const ltt_field_type *type, unsigned int_size,
			     unsigned long_size, unsigned pointer_size,
			     unsigned size_t_size);
/* ENUM: labels. */
unsigned ltt_field_type_num_labels(const ltt_field_type *type);
const char *ltt_field_type_label(const ltt_field_type *type, unsigned i,
				 int64_t *value);

/* ---- Traces ------------------------------------------------------------- */

typedef struct ltt_trace ltt_trace;
typedef struct ltt_tracefile ltt_tracefile;

/* Options, from the caller: set .size, members may be added at the end
 * ("Sized structs" above). */
typedef struct ltt_open_options {
	size_t size;		/* sizeof(ltt_open_options) */
	/* extra folders to search for facility XML, NULL-terminated (-f) */
	const char *const *facility_dirs;
	/* 1: the trace is being written (lttv-gtk --follow). A tracefile's
	 * last sub-buffer that is not whole yet is not read (it is the one
	 * lttd writes); a tracefile that does not open (a first header not
	 * written yet, a file that cannot be read) is left out, and said by
	 * ltt_trace_left_out(), instead of failing the open; a sub-buffer
	 * after the first that does not check ends the file there. */
	unsigned live;
} ltt_open_options;

/*
 * Open a trace directory: map every tracefile, validate every block header,
 * read the facilities channel and load the facility descriptions. Problems
 * that do not stop reading (a facility without a description) become
 * warnings, see ltt_trace_warning().
 */
ltt_trace *ltt_trace_open(const char *dir, const ltt_open_options *opt,
			  ltt_error **err);
void ltt_trace_close(ltt_trace *trace);

const char *ltt_trace_path(const ltt_trace *trace);
/*
 * 1 when writing `path` could change what the trace reads: a path inside
 * its directory (through links too, a dangling one included, and through
 * another view of its folders: a bind mount, found by device and inode),
 * or one of the files it read (a tracefile, a description) under any
 * name, a symbolic or a hard link.
 * Tools refuse such an output before they create it.
 */
int ltt_trace_path_is_input(const ltt_trace *trace, const char *path);
unsigned ltt_trace_num_warnings(const ltt_trace *trace);
const char *ltt_trace_warning(const ltt_trace *trace, unsigned i);
/* Opened with .live: the tracefiles left out, each as "cpu_1: why"
 * (none otherwise). They are not warnings: the next open may read them. */
unsigned ltt_trace_num_left_out(const ltt_trace *trace);
const char *ltt_trace_left_out(const ltt_trace *trace, unsigned i);

/* What the block headers say of the whole trace. Owned by the trace (never
 * allocate one): members may be added at the end. */
typedef struct ltt_trace_info {
	uint32_t arch_type, arch_variant;
	unsigned arch_size;		/* 4 or 8 */
	unsigned major, minor;
	unsigned mode;			/* LTT_TRACE_MODE_* of ltt-abi.h */
	unsigned has_heartbeat;
	unsigned has_alignment;
	uint32_t freq_scale;
	uint64_t start_freq;
	uint64_t start_tsc;
	uint64_t start_monotonic;
	int64_t start_time_ns;		/* wall clock at start_tsc */
	int64_t first_event_ns;		/* earliest event (block begin if none) */
	int64_t last_event_ns;		/* latest event (block end if none) */
	uint64_t num_events;		/* filled by ltt_trace_count_events() */
	/* the kernel's loss counters (channel.buffer_stats) of every file,
	 * summed: read by ltt_trace_open(), whatever is read later */
	uint64_t events_lost;
	uint64_t corrupted_subbuffers;
} ltt_trace_info;
const ltt_trace_info *ltt_trace_get_info(const ltt_trace *trace);

unsigned ltt_trace_num_tracefiles(const ltt_trace *trace);
ltt_tracefile *ltt_trace_tracefile(const ltt_trace *trace, unsigned i);
/* "cpu", "control/facilities", "flight-cpu", ... (no CPU suffix) */
const char *ltt_tracefile_name(const ltt_tracefile *tf);
/* path relative to the trace, e.g. "control/facilities_0" */
const char *ltt_tracefile_relpath(const ltt_tracefile *tf);
unsigned ltt_tracefile_cpu(const ltt_tracefile *tf);
unsigned ltt_tracefile_num_blocks(const ltt_tracefile *tf);
uint32_t ltt_tracefile_subbuf_size(const ltt_tracefile *tf);
uint64_t ltt_tracefile_events_lost(const ltt_tracefile *tf);
uint64_t ltt_tracefile_corrupted_subbuffers(const ltt_tracefile *tf);

/* Facilities loaded in this trace, by id (NULL if that id is unused). */
typedef struct ltt_facility ltt_facility;
const ltt_facility *ltt_trace_facility(const ltt_trace *trace, unsigned id);
const char *ltt_facility_name(const ltt_facility *fac);
uint32_t ltt_facility_checksum(const ltt_facility *fac);
/* NULL when no description with that name and checksum was found */
const ltt_description *ltt_facility_description(const ltt_facility *fac);

/* Bytes of a scalar type (INT, UINT, POINTER, ENUM, FLOAT) in this
 * facility's events; 0 for other kinds. */
unsigned ltt_facility_type_size(const ltt_facility *fac, const ltt_field_type *type);

/* Conversions, with the trace's own frequency and start. */
int64_t ltt_trace_cycles_to_ns(const ltt_trace *trace, uint64_t cycles);
/* Inverse (rounded down), for seeking by time. */
uint64_t ltt_trace_ns_to_cycles(const ltt_trace *trace, int64_t wall_ns);

/* ---- Events -------------------------------------------------------------- */

typedef struct ltt_event ltt_event;

/* An event is valid until the next call on the iterator that returned it. */
int64_t ltt_event_time_ns(const ltt_event *ev);	/* wall clock */
uint64_t ltt_event_cycles(const ltt_event *ev);		/* rebuilt 64-bit */
const ltt_trace *ltt_event_trace(const ltt_event *ev);
const ltt_tracefile *ltt_event_tracefile(const ltt_event *ev);
unsigned ltt_event_cpu(const ltt_event *ev);
unsigned ltt_event_facility_id(const ltt_event *ev);
unsigned ltt_event_id(const ltt_event *ev);
/* "core", or "facility_<id>" when the id was never loaded */
const char *ltt_event_facility_name(const ltt_event *ev);
/* The facility load the event belongs to, NULL when its id was never
 * loaded. An id can be reused by another facility after an unload: the
 * id alone does not say which description an event has. */
const ltt_facility *ltt_event_facility(const ltt_event *ev);
/* "facility_load", or "event_<id>" when there is no description */
const char *ltt_event_name(const ltt_event *ev);
/* 1 when the event's fields can be decoded */
int ltt_event_is_known(const ltt_event *ev);
const void *ltt_event_payload(const ltt_event *ev, size_t *size);
/* Where the event header starts, for error messages and tools. */
uint64_t ltt_event_file_offset(const ltt_event *ev);

/* ---- Field values -------------------------------------------------------- */


/* One decoded scalar (or, for compound kinds, its element count). Filled by
 * ltt_event_field(), which passes its size ("Sized structs" above). */
typedef struct ltt_value {
	ltt_kind kind;
	unsigned size;		/* bytes of the scalar in the payload */
	union {
		int64_t i;
		uint64_t u;	/* UINT, POINTER, ENUM; count for ARRAY/SEQUENCE/STRUCT */
		double f;
	};
	/* STRING: points into the trace, NUL-terminated; ARRAY, SEQUENCE of
	 * <uchar/> (text): its u bytes, not NUL-terminated (NULL if they run
	 * past the payload) */
	const char *str;
	const char *label;	/* ENUM: the label, or NULL */
} ltt_value;

/*
 * Top-level fields by index. Resolve the index once per event type with
 * ltt_event_field_index() and reuse it: it is the same for every event with
 * the same (facility id, event id) in a trace. Returns 0 on success, -1
 * when the payload is too short or the field does not exist.
 */
int ltt_event_num_fields(const ltt_event *ev);
const char *ltt_event_field_name(const ltt_event *ev, int index);
int ltt_event_field_index(const ltt_event *ev, const char *name);
int ltt_event_field_sized(const ltt_event *ev, int index, ltt_value *out,
			  size_t size);
#define ltt_event_field(ev, index, out) \
	ltt_event_field_sized((ev), (index), (out), sizeof(*(out)))
/* Convenience for scalars: value as int64/uint64, `dflt` when absent. */
int64_t ltt_event_get_int(const ltt_event *ev, const char *name, int64_t dflt);
uint64_t ltt_event_get_uint(const ltt_event *ev, const char *name, uint64_t dflt);
/* String field (NULL when absent). */
const char *ltt_event_get_string(const ltt_event *ev, const char *name);

/*
 * Visit every field, recursively, in payload order. `path` is the dotted
 * name ("args.fd", "list[3]"); `depth` 0 is a top-level field. For compound
 * kinds the callback is called once before their members. Return non-zero
 * from the callback to stop. Returns -1 if the payload is malformed.
 */
typedef int (*ltt_field_visitor)(void *user, const char *name, int depth,
				 const ltt_value *value);
int ltt_event_visit_fields(const ltt_event *ev, ltt_field_visitor fn,
			   void *user);

/* Text of the fields, "a = 1, b = \"x\"" (with names) or "1, \"x\"". */
enum {
	LTT_FORMAT_NAMES = 1 << 0,
};
/* Writes into buf (always NUL-terminated); returns the length it needed. */
size_t ltt_event_format_fields(const ltt_event *ev, unsigned flags,
			       char *buf, size_t size);

/* ---- Iteration in time order ---------------------------------------------- */

typedef struct ltt_iter ltt_iter;

/*
 * Merge all tracefiles of one or more traces into one stream ordered by
 * time (ties: by trace, then tracefile order). The traces must outlive the
 * iterator.
 */
ltt_iter *ltt_iter_new(ltt_trace *const *traces, size_t n, ltt_error **err);
void ltt_iter_free(ltt_iter *it);
/* 1: *ev is the next event; 0: end of the traces; -1: error (corrupt data) */
int ltt_iter_next(ltt_iter *it, const ltt_event **ev, ltt_error **err);
/* Position so that the next event returned is the first with time >= t. */
int ltt_iter_seek_time(ltt_iter *it, int64_t wall_ns, ltt_error **err);

/* ---- One tracefile, in file order ------------------------------------------ */

typedef struct ltt_reader ltt_reader;

/*
 * The events of one tracefile in the order they were written, not merged
 * with the other tracefiles': for a pass that does not need the events of
 * all CPUs in time order (counts, statistics, a check of the whole trace).
 * Tracefiles are independent: readers of different tracefiles may run in
 * different threads at once (at most one reader per tracefile, and no
 * ltt_iter on the same traces meanwhile). The warnings a reader meets are
 * added to the trace's when it is freed, so that freeing the readers in
 * tracefile order gives the same warnings in the same order however the
 * threads ran.
 */
ltt_reader *ltt_reader_new(ltt_tracefile *tf);
/* 1: *ev is the next event (valid until the next call); 0: the end;
 * -1: error (corrupt data), and every later call fails the same way */
int ltt_reader_next(ltt_reader *r, const ltt_event **ev, ltt_error **err);
/*
 * The next events, up to a few hundred at once (of one sub-buffer): *evs
 * is an array of n of them, valid until the next call. n > 0: events; 0:
 * the end; -1: error, as for ltt_reader_next() (the events before the
 * error come first). A pass over millions of small events takes them this
 * way: a call per event costs as much as reading one.
 */
int ltt_reader_next_batch(ltt_reader *r, const ltt_event *const **evs,
			  ltt_error **err);
void ltt_reader_free(ltt_reader *r);

/* Counts events and fills ltt_trace_info.num_events (a full pass). */
int ltt_trace_count_events(ltt_trace *trace, ltt_error **err);

/*
 * Parses a time as the tools print it: [-]SECONDS[.FRACTION], up to
 * nanoseconds ("1159000000.250000000", "0.5", "-3"). 0, or -1 if the text
 * is not such a number or does not fit in int64 nanoseconds.
 */
int ltt_parse_seconds(const char *text, int64_t *ns);

/* ---- Showing text from a trace ------------------------------------------ */

/*
 * Names and strings in a trace are chosen by whoever was traced; a tool
 * shows every one of them (process, file, IRQ handler, facility, event,
 * field and label names, string values) through this one rule, whether
 * it prints or draws them: backslash and double quote as \\ and \",
 * newline, tab and carriage return as \n \t \r, other C0 controls, DEL
 * and bytes that are not valid UTF-8 as \xHH, and code points that
 * control the display (C1 controls, bidirectional and invisible format
 * characters, U+2028/U+2029, tag characters) as <U+XXXX>; the rest of
 * UTF-8 is kept. The result is valid UTF-8 with no control character
 * (libltttrace/src/safe-text.c lists the code points).
 */
/* s[0..n) escaped into buf (always NUL-terminated when size > 0, and cut
 * only between characters and escapes); returns the length it needed, as
 * snprintf() does. */
size_t ltt_text_escape(char *buf, size_t size, const char *s, size_t n);
/* The C string s as it may be shown: s itself when nothing needs escaping,
 * else its escaped copy in a per-thread buffer valid until eight more
 * calls in the same thread ("(null)" for NULL). */
const char *ltt_text_safe(const char *s);

/*
 * Where facility descriptions are looked up after the trace's eventdefs/:
 * $LTT_FACILITIES_DIR when set; else share/ltt/facilities in the folder
 * above the running program's (/usr/share/... for /usr/bin/TOOL), when it
 * exists; else the folder `make install` put them in. The string is static
 * or the environment's.
 */
const char *ltt_default_facilities_dir(void);

#include "ltttrace-state.h"
#include "ltttrace-analysis.h"

#if defined(__GNUC__) && __GNUC__ >= 4
#pragma GCC visibility pop
#endif

#ifdef __cplusplus
}
#endif
#endif /* LTTTRACE_H */
