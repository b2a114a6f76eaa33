/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * ltt-usertrace.h - tracing a program's own events into the kernel's LTT
 * traces (libltt-usertrace).
 *
 * A program's events are described in a facility XML, like the kernel's
 * (facilities/NAME.xml); `genevent --user -o DIR my.xml` writes
 * DIR/ltt-user-facility-NAME.h with one
 *
 *	static inline int trace_NAME_EVENT(fields...);
 *
 * per event, which lays the fields out as the reader expects
 * (docs/format.md) and calls ltt_usertrace_write().  The facility is
 * registered with the kernel (ltt_register_generic) on the first event;
 * the trace decodes its events with the XML whose name and checksum the
 * kernel announces (core.facility_load), so give lttv-text the XML
 * (the trace's eventdefs/, or -f DIR).
 *
 * Every function returns 0 or a negative errno (the errors of
 * <ltt/ltt-abi.h>); with no active trace an event costs one system call
 * (a pwrite() on the kernel's door, /proc/ltt_user_generic, opened once
 * per process and close-on-exec).  Works on the patched kernel and on
 * Debian's own with the tracer's modules alike.  Thread-safe; a child of
 * fork() keeps its parent's facilities (it shares the door).
 */
#ifndef LTT_USERTRACE_H
#define LTT_USERTRACE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <ltt/ltt-abi.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A facility of the program (one static instance per generated header). */
struct ltt_usertrace_facility {
	const char *name;
	uint32_t checksum;
	uint32_t num_events;
	int id;			/* kernel id once registered, else -1 */
	int blocking;		/* 1: wait for room rather than lose events */
	int high_priority;	/* 1: the processes channel rather than cpu */
};

#define LTT_USERTRACE_FACILITY_INIT(_name, _checksum, _num_events) \
	{ (_name), (_checksum), (_num_events), -1, 0, 0 }

/*
 * Payload alignment: the kernel's (CONFIG_LTT_ALIGNMENT: sizeof(void *)),
 * which it checks at registration; the reader aligns with the trace's
 * has_alignment.
 */
#define LTT_USERTRACE_ALIGNMENT	sizeof(void *)

/* Registers @f if it is not yet (idempotent); 0 or -errno. */
int ltt_usertrace_register(struct ltt_usertrace_facility *f);

/* One event of @f: @len payload bytes at @data, already laid out. */
int ltt_usertrace_write(struct ltt_usertrace_facility *f, unsigned int event,
			const void *data, size_t len);

/* The description sent to the kernel for @f (for tests and tools). */
void ltt_usertrace_info(const struct ltt_usertrace_facility *f,
			struct ltt_user_facility_info *info);

/*
 * 1 if the running kernel has the tracer's door (LTT_USER_DOOR); without
 * it every function returns -ENOSYS.
 */
int ltt_usertrace_available(void);

/*
 * The two requests of the 2006 system calls, through the door: 0 or
 * -errno (-EPERM if the caller may not open it: the group ltt_user.gid).
 */
long ltt_register_generic(uint32_t *facility_id,
			  const struct ltt_user_facility_info *info);
long ltt_trace_generic(unsigned int facility_id, unsigned int event_id,
		       const void *data, size_t data_size, int blocking,
		       int high_priority);

/* ---- Payload layout (used by the generated functions) ------------------- */

struct ltt_payload {
	unsigned char *data;
	size_t len;
	size_t cap;
	int overflow;		/* a put did not fit: the event is refused */
};

/* Padding bringing @offset to a multiple of min(@size, alignment),
 * rounded down to a power of two (docs/format.md, Alignment). */
static inline size_t ltt_payload_align(size_t offset, size_t size)
{
	size_t a = size < LTT_USERTRACE_ALIGNMENT ? size : LTT_USERTRACE_ALIGNMENT;

	if (!a)
		return 0;
	while (a & (a - 1))
		a &= a - 1;
	return (a - offset % a) % a;
}

static inline size_t ltt_payload_min(size_t a, size_t b)
{
	return a < b ? a : b;
}

static inline size_t ltt_payload_max(size_t a, size_t b)
{
	return a > b ? a : b;
}

static inline void ltt_payload_put(struct ltt_payload *p, const void *v,
				   size_t size, size_t align)
{
	size_t pad = ltt_payload_align(p->len, align);

	if (p->len + pad + size > p->cap) {
		p->overflow = 1;
		return;
	}
	memset(p->data + p->len, 0, pad);
	if (size)
		memcpy(p->data + p->len + pad, v, size);
	p->len += pad + size;
}

/*
 * The padding that ends every string and sequence: the next field starts at
 * a multiple of min(sizeof(void *), alignment) from the payload start, as
 * the seeds' generated code did; it counts in the payload's size, even
 * after the last field (docs/format.md, Alignment).
 */
static inline void ltt_payload_realign(struct ltt_payload *p)
{
	ltt_payload_put(p, NULL, 0, sizeof(void *));
}

/* A string field: at most @max bytes of @s, then its NUL and the
 * realignment (ltt_payload_realign). (Not strnlen:
 * the header must compile as plain C11.) */
static inline void ltt_payload_put_string(struct ltt_payload *p, const char *s,
					  size_t max)
{
	size_t n = 0;

	while (n < max && s[n])
		n++;
	if (p->len + n + 1 > p->cap) {
		p->overflow = 1;
		return;
	}
	for (size_t i = 0; i < n; i++)
		p->data[p->len + i] = (unsigned char)s[i];
	p->data[p->len + n] = '\0';
	p->len += n + 1;
	ltt_payload_realign(p);
}

/* Like ltt_usertrace_write, refusing (-EOVERFLOW) a payload that overflowed. */
int ltt_usertrace_write_payload(struct ltt_usertrace_facility *f,
				unsigned int event, const struct ltt_payload *p);

#ifdef __cplusplus
}
#endif
#endif /* LTT_USERTRACE_H */
