// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * ltt-writer-bad.c - spoil a valid trace directory in one precise way.
 *
 * Each kind changes a trace the writer produced (bytes patched in place,
 * files truncated or removed) so that a reader meets exactly one defect.
 * The offsets used here are the ones of docs/format.md, written out as
 * numbers on purpose: they do not come from the reader's code.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ltt-writer-bad.h"
#include "ltt-writer.h"

/* Block header fields (docs/format.md) */
#define OFF_LOST_SIZE		32
#define OFF_BUF_SIZE		36
#define OFF_MAGIC		40
#define OFF_ARCH_SIZE		(40 + 16)
#define OFF_MINOR		(40 + 18)
#define OFF_START_FREQ		(40 + 26)
#define OFF_HAS_HEARTBEAT	(40 + 20)
#define OFF_HAS_ALIGNMENT	(40 + 21)
#define BLOCK_HEADER		106

static const lttw_bad_kind kinds[] = {
	{ "truncated", "fail", "cpu_0 is cut in the middle of a sub-buffer" },
	{ "zero-length", "ok", "cpu_1 is empty: valid, a CPU that logged nothing" },
	{ "all-empty", "fail", "every tracefile is empty: no block header at all" },
	{ "bad-magic", "fail", "first sub-buffer of cpu_0 has magic 0x12345678" },
	{ "swapped-magic", "fail", "every magic is byte-swapped (0xEDB7D600): other byte order" },
	{ "big-endian", "fail", "every block header as a big-endian machine writes it: magic, "
	  "buf_size, lost_size and cycle counts byte-swapped" },
	{ "bad-version", "fail", "second sub-buffer of cpu_0 says version 0.6" },
	{ "bad-arch-size", "fail", "first sub-buffer of cpu_0 says arch_size 3" },
	{ "buf-size-zero", "fail", "first sub-buffer of cpu_0 says buf_size 0" },
	{ "buf-size-mismatch", "fail", "second sub-buffer of cpu_0 says twice the buf_size" },
	{ "lost-size-too-big", "fail", "last sub-buffer of cpu_0 says lost_size = buf_size + 16" },
	{ "lost-size-edge", "fail", "last sub-buffer of cpu_0 says lost_size = buf_size - 105" },
	{ "header-mismatch", "fail", "second sub-buffer of cpu_0 flips has_heartbeat" },
	{ "freq-zero", "fail", "every sub-buffer of cpu_0 says start_freq 0" },
	{ "event-past-subbuf", "fail", "first event of cpu_0 has a size running past its sub-buffer" },
	{ "event-past-subbuf-late", "raw", "the second event of cpu_0's middle sub-buffer runs past "
	  "it: the trace opens, reading stops there" },
	{ "unknown-facility", "raw", "first event of cpu_0 has facility id 200, never loaded" },
	{ "unknown-facility-big", "fail", "the same with event_size 0xFFFF: its size cannot be known" },
	{ "bad-xml", "fail", "eventdefs/process.xml is malformed XML" },
	{ "no-eventdefs", "raw", "eventdefs/ is missing: no description for any facility but core" },
	{ NULL, NULL, NULL },
};

const lttw_bad_kind *lttw_bad_kinds(void)
{
	return kinds;
}

static char errbuf[512];

const char *lttw_bad_error(void)
{
	return errbuf;
}

static int fail(const char *what, const char *path)
{
	snprintf(errbuf, sizeof(errbuf), "%s %s: %s", what, path, strerror(errno));
	return -1;
}

static char *join(const char *dir, const char *name)
{
	size_t n = strlen(dir) + strlen(name) + 2;
	char *s = malloc(n);

	if (s)
		snprintf(s, n, "%s/%s", dir, name);
	return s;
}

static int patch(const char *path, off_t off, const void *data, size_t n)
{
	int fd = open(path, O_RDWR | O_CLOEXEC);

	if (fd < 0)
		return fail("cannot open", path);
	if (pwrite(fd, data, n, off) != (ssize_t)n) {
		close(fd);
		return fail("cannot patch", path);
	}
	close(fd);
	return 0;
}

static int peek(const char *path, off_t off, void *data, size_t n)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return fail("cannot open", path);
	if (pread(fd, data, n, off) != (ssize_t)n) {
		close(fd);
		errno = errno ? errno : EIO;
		return fail("cannot read", path);
	}
	close(fd);
	return 0;
}

static off_t file_size(const char *path)
{
	struct stat st;

	if (stat(path, &st))
		return -1;
	return st.st_size;
}

static int patch_u32(const char *path, off_t off, uint32_t v)
{
	return patch(path, off, &v, 4);
}

/* Apply fn to every tracefile of dir (cpu_N, flight-*, control/...). */
static int each_tracefile(const char *dir, int (*fn)(const char *path))
{
	const char *subs[] = { "", LTT_CONTROL_ROOT };
	int ret = 0;

	for (unsigned i = 0; i < 2 && ret == 0; i++) {
		char *d = *subs[i] ? join(dir, subs[i]) : strdup(dir);
		DIR *dh = d ? opendir(d) : NULL;
		struct dirent *e;

		if (!dh) {
			ret = fail("cannot list", d ? d : dir);
			free(d);
			break;
		}
		while ((e = readdir(dh)) && ret == 0) {
			char *p;
			struct stat st;

			if (e->d_name[0] == '.' || !strchr(e->d_name, '_'))
				continue;
			p = join(d, e->d_name);
			if (p && stat(p, &st) == 0 && S_ISREG(st.st_mode))
				ret = fn(p);
			free(p);
		}
		closedir(dh);
		free(d);
	}
	return ret;
}

static int truncate_to_zero(const char *path)
{
	return truncate(path, 0) ? fail("cannot truncate", path) : 0;
}

/* fn(path, offset) on the block header of every sub-buffer of path (its
 * size: the first header's buf_size, read before any is changed). */
static int each_header(const char *path, int (*fn)(const char *path, off_t o))
{
	uint32_t bs;
	off_t size = file_size(path);

	if (size <= 0)
		return 0;
	if (peek(path, OFF_BUF_SIZE, &bs, 4))
		return -1;
	for (off_t o = 0; o + (off_t)bs <= size && bs; o += bs)
		if (fn(path, o))
			return -1;
	return 0;
}

static int swap_magic(const char *path, off_t o)
{
	return patch_u32(path, o + OFF_MAGIC, __builtin_bswap32(LTT_TRACER_MAGIC_NUMBER));
}

static int swap_magics(const char *path)
{
	return each_header(path, swap_magic);
}

/* The block headers as a big-endian machine writes them: each 32-bit and
 * 64-bit field that a reader looks at first byte-swapped (the sizes too,
 * so that a reader that trusts buf_size before the magic goes wrong). */
static int swap_u32_at(const char *path, off_t off)
{
	uint32_t v;

	return peek(path, off, &v, 4) || patch_u32(path, off, __builtin_bswap32(v)) ? -1 : 0;
}

static int big_endian_header(const char *path, off_t o)
{
	for (off_t f = 0; f < 32; f += 8) {	/* begin, end: cycle_count, freq */
		uint32_t lo, hi;

		if (peek(path, o + f, &lo, 4) || peek(path, o + f + 4, &hi, 4) ||
		    patch_u32(path, o + f, __builtin_bswap32(hi)) ||
		    patch_u32(path, o + f + 4, __builtin_bswap32(lo)))
			return -1;
	}
	return swap_u32_at(path, o + OFF_LOST_SIZE) || swap_u32_at(path, o + OFF_BUF_SIZE) ||
	       swap_u32_at(path, o + OFF_MAGIC) ? -1 : 0;
}

static int big_endian_headers(const char *path)
{
	return each_header(path, big_endian_header);
}

/* Offset of the first event header of the first sub-buffer of path. */
static int first_event(const char *path, off_t *hdr, unsigned *hdr_size)
{
	unsigned char hb, al;
	unsigned a, n;

	if (peek(path, OFF_HAS_HEARTBEAT, &hb, 1) ||
	    peek(path, OFF_HAS_ALIGNMENT, &al, 1))
		return -1;
	*hdr_size = hb ? 8 : 12;
	a = al;
	n = *hdr_size < a ? *hdr_size : a;
	while (n & (n - 1))
		n &= n - 1;
	*hdr = BLOCK_HEADER + (n ? (n - BLOCK_HEADER % n) % n : 0);
	return 0;
}

int lttw_bad_apply(const char *dir, const char *kind)
{
	char *cpu0 = join(dir, "cpu_0");
	char *cpu1 = join(dir, "cpu_1");
	char *defs = join(dir, LTT_EVENTDEFS_DIR);
	int ret = -1;
	uint32_t bs = 0;
	off_t size;

	errbuf[0] = '\0';
	if (!cpu0 || !cpu1 || !defs) {
		snprintf(errbuf, sizeof(errbuf), "out of memory");
		goto out;
	}
	size = file_size(cpu0);
	if (size < BLOCK_HEADER || peek(cpu0, OFF_BUF_SIZE, &bs, 4) ||
	    bs < BLOCK_HEADER || size < 2 * (off_t)bs) {
		snprintf(errbuf, sizeof(errbuf), "%s: not a tracefile of two sub-buffers or more",
			 cpu0);
		goto out;
	}
	if (!strcmp(kind, "truncated")) {
		ret = truncate(cpu0, size - bs / 2) ? fail("cannot truncate", cpu0) : 0;
	} else if (!strcmp(kind, "zero-length")) {
		ret = truncate_to_zero(cpu1);
	} else if (!strcmp(kind, "all-empty")) {
		ret = each_tracefile(dir, truncate_to_zero);
	} else if (!strcmp(kind, "bad-magic")) {
		ret = patch_u32(cpu0, OFF_MAGIC, 0x12345678);
	} else if (!strcmp(kind, "swapped-magic")) {
		ret = each_tracefile(dir, swap_magics);
	} else if (!strcmp(kind, "big-endian")) {
		ret = each_tracefile(dir, big_endian_headers);
	} else if (!strcmp(kind, "bad-version")) {
		unsigned char minor = 6;

		ret = patch(cpu0, bs + OFF_MINOR, &minor, 1);
	} else if (!strcmp(kind, "bad-arch-size")) {
		unsigned char as = 3;

		ret = patch(cpu0, OFF_ARCH_SIZE, &as, 1);
	} else if (!strcmp(kind, "buf-size-mismatch")) {
		ret = patch_u32(cpu0, bs + OFF_BUF_SIZE, bs * 2);
	} else if (!strcmp(kind, "lost-size-edge")) {
		ret = patch_u32(cpu0, size - bs + OFF_LOST_SIZE, bs - 105);
	} else if (!strcmp(kind, "header-mismatch")) {
		unsigned char hb;

		ret = peek(cpu0, bs + OFF_HAS_HEARTBEAT, &hb, 1);
		hb = !hb;
		if (ret == 0)
			ret = patch(cpu0, bs + OFF_HAS_HEARTBEAT, &hb, 1);
	} else if (!strcmp(kind, "freq-zero")) {
		uint64_t zero = 0;

		ret = 0;
		for (off_t o = 0; o + bs <= size && ret == 0; o += bs)
			ret = patch(cpu0, o + OFF_START_FREQ, &zero, 8);
	} else if (!strcmp(kind, "buf-size-zero")) {
		ret = patch_u32(cpu0, OFF_BUF_SIZE, 0);
	} else if (!strcmp(kind, "lost-size-too-big")) {
		ret = patch_u32(cpu0, size - bs + OFF_LOST_SIZE, bs + 16);
	} else if (!strcmp(kind, "event-past-subbuf") ||
		   !strcmp(kind, "unknown-facility") ||
		   !strcmp(kind, "unknown-facility-big")) {
		off_t hdr;
		unsigned hs;
		uint32_t lost;

		if (first_event(cpu0, &hdr, &hs) || peek(cpu0, OFF_LOST_SIZE, &lost, 4))
			goto out;
		if (hdr + hs > (off_t)(bs - lost)) {
			snprintf(errbuf, sizeof(errbuf), "%s: first sub-buffer has no event",
				 cpu0);
			goto out;
		}
		if (!strcmp(kind, "event-past-subbuf")) {
			/* ends 1 byte past the end of the sub-buffer */
			uint16_t sz = (uint16_t)(bs - (hdr + hs) + 1);

			if (bs - (hdr + hs) + 1 >= LTT_EVENT_SIZE_UNKNOWN) {
				snprintf(errbuf, sizeof(errbuf),
					 "sub-buffer too big for event-past-subbuf");
				goto out;
			}
			ret = patch(cpu0, hdr + hs - 2, &sz, 2);
		} else {
			unsigned char id = 200;
			uint16_t sz = LTT_EVENT_SIZE_UNKNOWN;

			ret = patch(cpu0, hdr + hs - 4, &id, 1);
			if (ret == 0 && !strcmp(kind, "unknown-facility-big"))
				ret = patch(cpu0, hdr + hs - 2, &sz, 2);
		}
	} else if (!strcmp(kind, "event-past-subbuf-late")) {
		/* the middle sub-buffer's second event: nothing that an open
		 * looks at (first and last events), but a reader meets it */
		off_t o = (size / (off_t)bs) / 2 * (off_t)bs, hdr;
		unsigned hs;
		uint32_t lost;
		uint16_t first_size, sz;
		off_t second;

		if (o == 0 || first_event(cpu0, &hdr, &hs) || peek(cpu0, o + OFF_LOST_SIZE, &lost, 4) ||
		    peek(cpu0, o + hdr + hs - 2, &first_size, 2))
			goto out;
		/* the second header, after the first payload (aligned as the
		 * header is: 8 at most) */
		second = hdr + hs + first_size;
		second = (second + 7) / 8 * 8;
		if (first_size == LTT_EVENT_SIZE_UNKNOWN || second + hs > (off_t)(bs - lost)) {
			snprintf(errbuf, sizeof(errbuf), "%s: the middle sub-buffer has no second "
				 "event of a known size", cpu0);
			goto out;
		}
		sz = (uint16_t)(bs - (second + hs) + 1);
		ret = patch(cpu0, o + second + hs - 2, &sz, 2);
	} else if (!strcmp(kind, "bad-xml")) {
		char *p = join(defs, "process.xml");
		FILE *f = p ? fopen(p, "w") : NULL;

		if (!f) {
			ret = fail("cannot write", p ? p : defs);
		} else {
			fputs("<?xml version=\"1.0\"?>\n<facility name=\"process\">\n"
			      "  <event name=\"fork\">\n    <field name=\"parent_pid\"><uint/>\n"
			      "  </event\n", f);
			ret = fclose(f) ? fail("cannot write", p) : 0;
		}
		free(p);
	} else if (!strcmp(kind, "no-eventdefs")) {
		DIR *dh = opendir(defs);
		struct dirent *e;

		ret = 0;
		while (dh && (e = readdir(dh)) && ret == 0) {
			char *p;

			if (e->d_name[0] == '.')
				continue;
			p = join(defs, e->d_name);
			if (!p || unlink(p))
				ret = fail("cannot remove", p ? p : defs);
			free(p);
		}
		if (dh)
			closedir(dh);
		if (ret == 0 && rmdir(defs))
			ret = fail("cannot remove", defs);
	} else {
		snprintf(errbuf, sizeof(errbuf), "unknown kind of bad trace: %s", kind);
	}
out:
	free(cpu0);
	free(cpu1);
	free(defs);
	return ret;
}
