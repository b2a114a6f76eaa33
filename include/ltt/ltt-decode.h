/* SPDX-License-Identifier: GPL-2.0 OR LGPL-2.1 */
/*
 * ltt-decode.h - the rules for reading what ltt-abi.h lays out, for every
 * reader of sub-buffers: libltttrace (which decodes everything) and lttd
 * (static, GLib-free, which walks the events only for the kernel's loss
 * counters).  Each rule has this one home; docs/format.md explains them.
 *
 * Static inline only, C99, no GLib: it adds no symbol to any library.  It
 * is not installed (no public header includes it).  Not part of the
 * kernel's copy of the ABI: the kernel writes, it never reads back.
 *
 * The payload layouts of core.facility_load and channel.buffer_stats have
 * their home in facilities/core.xml and channel.xml; the readers here are
 * what code that cannot compile a description (lttd) uses, and the library
 * uses them too so that both read the same bytes.  tests/unit/test_api.c
 * checks them against the descriptions on every bundled trace.
 */
#ifndef LTT_DECODE_H
#define LTT_DECODE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <ltt/ltt-abi.h>

/* The events of a sub-buffer lie in [LTT_BLOCK_HEADER_SIZE, buf_size - lost_size). */
#define LTT_BLOCK_HEADER_SIZE	sizeof(struct ltt_block_start_header)	/* 106 */

/*
 * Where the description of an architecture's facility is.  A facility
 * whose name ends in "_arch" (kernel_arch: the system calls) has one
 * description per architecture, in the file NAME_ARCH.xml, ARCH named
 * from the trace header's arch_type (kernel_arch_x86_64.xml), as the 2006
 * reader looks it up (ltt_get_facility_description in LTTV 0.8's
 * ltt/tracefile.c).  ltt_arch_name() is NULL for an arch_type without a
 * name.
 */
static inline int ltt_facility_is_arch(const char *name)
{
	size_t n = strlen(name);

	return n >= 5 && strcmp(name + n - 5, "_arch") == 0;
}

static inline const char *ltt_arch_name(unsigned arch_type)
{
	static const char *const names[] = {
		[LTT_ARCH_TYPE_I386] = "i386",
		[LTT_ARCH_TYPE_PPC] = "ppc",
		[LTT_ARCH_TYPE_SH] = "sh",
		[LTT_ARCH_TYPE_S390] = "s390",
		[LTT_ARCH_TYPE_MIPS] = "mips",
		[LTT_ARCH_TYPE_ARM] = "arm",
		[LTT_ARCH_TYPE_PPC64] = "ppc64",
		[LTT_ARCH_TYPE_X86_64] = "x86_64",
		[LTT_ARCH_TYPE_C2] = "c2",
		[LTT_ARCH_TYPE_POWERPC] = "powerpc",
	};

	return arch_type < sizeof(names) / sizeof(names[0]) ? names[arch_type] : NULL;
}

/* has_alignment values a trace may have: 0 (packed) or a power of two up to 8. */
static inline int ltt_valid_alignment(unsigned a)
{
	return a == 0 || a == 1 || a == 2 || a == 4 || a == 8;
}

/*
 * The alignment rule.  In a trace whose header says has_alignment = a, an
 * object of natural size n starts at a multiple of min(n, a), rounded down
 * to a power of two (a 12-byte event header aligns to 8); a = 0 is packed.
 * The mask is that multiple minus one: the padding before offset off is
 * (-off) & mask.
 */
static inline size_t ltt_align_mask(size_t n, unsigned a)
{
	size_t m = a;

	if (!a || n <= 1)
		return 0;
	if (n < m)
		m = n;
	while (m & (m - 1))	/* round down to a power of two */
		m &= m - 1;
	return m - 1;
}

static inline size_t ltt_align_pad(size_t off, size_t n, unsigned a)
{
	return (-off) & ltt_align_mask(n, a);
}

/*
 * An event: padding to the alignment of its header (ltt_align_pad with the
 * header's size), the header, padding to the trace's alignment (n = a: the
 * payload's largest member may need all of it), the payload of event_size
 * bytes (LTT_EVENT_SIZE_UNKNOWN: computed from its description).
 */
static inline size_t ltt_event_header_size(unsigned has_heartbeat)
{
	return has_heartbeat ? sizeof(struct ltt_event_header_hb)
			     : sizeof(struct ltt_event_header_nohb);
}

static inline size_t ltt_event_header_mask(unsigned has_heartbeat, unsigned a)
{
	return ltt_align_mask(ltt_event_header_size(has_heartbeat), a);
}

static inline size_t ltt_event_payload_mask(unsigned a)
{
	return ltt_align_mask(a, a);
}

/* The fields of an event header; timestamp holds 32 bits (has_heartbeat) or 64. */
struct ltt_event_header_fields {
	uint64_t timestamp;
	unsigned facility_id;
	unsigned event_id;
	unsigned event_size;
};

/* hsize: ltt_event_header_size() of the trace; p may be unaligned. */
static inline __attribute__((always_inline))
void ltt_event_header_read(const void *p, size_t hsize,
			   struct ltt_event_header_fields *f)
{
	if (hsize == sizeof(struct ltt_event_header_hb)) {
		struct ltt_event_header_hb h;

		memcpy(&h, p, sizeof(h));
		f->timestamp = h.timestamp;
		f->facility_id = h.facility_id;
		f->event_id = h.event_id;
		f->event_size = h.event_size;
	} else {
		struct ltt_event_header_nohb h;

		memcpy(&h, p, sizeof(h));
		f->timestamp = h.timestamp;
		f->facility_id = h.facility_id;
		f->event_id = h.event_id;
		f->event_size = h.event_size;
	}
}

/*
 * core.facility_load and core.state_dump_facility_load (core.xml): the
 * name (a NUL-terminated string) and the realignment that ends every
 * string (to a multiple of min(pointer_size, a): pointer_size is the core
 * facility's, the trace header's arch_size; docs/format.md, Alignment),
 * then seven uint, each 4 bytes (the core facility's int) at the
 * alignment rule of the trace: checksum, id, int_size, long_size,
 * pointer_size, size_t_size, has_alignment.
 */
struct ltt_facility_load_fields {
	const char *name;	/* points into the payload */
	uint32_t checksum;
	uint32_t id;
	uint32_t int_size;
	uint32_t long_size;
	uint32_t pointer_size;
	uint32_t size_t_size;
	uint32_t has_alignment;
};

#define LTT_FACILITY_LOAD_UINTS	7

/* 0, or -1 if the size bytes at payload do not hold them all. */
static inline int ltt_facility_load_read(const void *payload, size_t size,
					 unsigned a, unsigned pointer_size,
					 struct ltt_facility_load_fields *f)
{
	const unsigned char *p = (const unsigned char *)payload;
	const unsigned char *nul = (const unsigned char *)memchr(p, '\0', size);
	uint32_t v[LTT_FACILITY_LOAD_UINTS];
	size_t o;

	if (!nul)
		return -1;
	o = (size_t)(nul - p) + 1;
	o += ltt_align_pad(o, pointer_size, a);	/* the string's realignment */
	for (int i = 0; i < LTT_FACILITY_LOAD_UINTS; i++) {
		o += ltt_align_pad(o, 4, a);
		if (o > size || size - o < 4)
			return -1;
		memcpy(&v[i], p + o, 4);
		o += 4;
	}
	f->name = (const char *)p;
	f->checksum = v[0];
	f->id = v[1];
	f->int_size = v[2];
	f->long_size = v[3];
	f->pointer_size = v[4];
	f->size_t_size = v[5];
	f->has_alignment = v[6];
	return 0;
}

/*
 * channel.buffer_stats (channel.xml): two uint_fixed size=4, cumulative,
 * at offsets 0 and 4 whatever the alignment.  0, or -1 if size is not 8.
 */
#define LTT_BUFFER_STATS_SIZE	8

static inline int ltt_buffer_stats_read(const void *payload, size_t size,
					uint32_t *events_lost,
					uint32_t *corrupted_subbuffers)
{
	if (size != LTT_BUFFER_STATS_SIZE)
		return -1;
	memcpy(events_lost, payload, 4);
	memcpy(corrupted_subbuffers, (const unsigned char *)payload + 4, 4);
	return 0;
}

#endif /* LTT_DECODE_H */
