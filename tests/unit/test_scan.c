/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_scan - the end of a string in a payload (libltttrace/src/scan.h:
 * ltt_scan_nul, and ltt_scan_nul_words, its fallback), which the reader runs on every string of every event
 * whose size it checks: the first NUL of p[from, len), or len when there
 * is none, reading nothing at or past p[len].
 *
 * Strings are laid against a page that may not be read (PROT_NONE): a
 * read of one byte too many is a crash, not a silent pass. Every bound
 * from 0 to 80 bytes, every start and every place of the NUL (or none)
 * at every alignment, then random buffers against a byte-by-byte scan.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "../../libltttrace/src/scan.h"
#include "rand.h"
#include "tap.h"

typedef size_t scan_fn(const uint8_t *, size_t, size_t);

static size_t naive(const uint8_t *p, size_t from, size_t len)
{
	while (from < len && p[from])
		from++;
	return from;
}


static void check(const char *name, scan_fn *scan, uint8_t *guard)
{
	unsigned bad = 0, cases = 0;

	/* the bound ends at the guard page: p + len == guard */
	for (size_t len = 0; len <= 80; len++) {
		uint8_t *p = guard - len;

		for (size_t from = 0; from <= len; from++) {
			/* no NUL in [from, len): the scan runs to the bound */
			memset(p, 'x', len);
			cases++;
			if (scan(p, from, len) != len && bad++ < 10)
				printf("#   len %zu from %zu, no NUL: got %zu\n", len, from,
				       scan(p, from, len));
			/* a NUL at each place; another one after it */
			for (size_t nul = from; nul < len; nul++) {
				memset(p, 'x', len);
				p[nul] = 0;
				if (nul + 3 < len)
					p[nul + 3] = 0;
				cases++;
				if (scan(p, from, len) != nul && bad++ < 10)
					printf("#   len %zu from %zu, NUL at %zu: got %zu\n",
					       len, from, nul, scan(p, from, len));
			}
			/* NULs only before from: not seen */
			memset(p, 0, from);
			memset(p + from, 0x80, len - from);	/* high bytes */
			cases++;
			if (scan(p, from, len) != len && bad++ < 10)
				printf("#   len %zu from %zu, NULs before from: got %zu\n",
				       len, from, scan(p, from, len));
		}
	}
	ok(bad == 0, "%s: strings that end at an unreadable page: %u cases, %u wrong",
	   name, cases, bad);

	/* a byte 0x01 or 0x80 next to a NUL (the borrows of a word-at-a-time
	 * test), random contents of few distinct bytes, random bounds */
	bad = 0;
	for (unsigned k = 0; k < 200000; k++) {
		static const uint8_t bytes[] = { 0, 1, 0x80, 0x81, 0xff, 0x7f, 'a' };
		size_t len = (size_t)(rnd() % 200), from = len ? (size_t)(rnd() % (len + 1)) : 0;
		uint8_t *p = guard - len;
		unsigned zeros = (unsigned)(rnd() % 4);

		for (size_t i = 0; i < len; i++)
			p[i] = bytes[1 + rnd() % (sizeof(bytes) - 1)];
		for (unsigned z = 0; z < zeros && len; z++)
			p[rnd() % len] = 0;
		if (scan(p, from, len) != naive(p, from, len) && bad++ < 10)
			printf("#   random case %u (len %zu from %zu): got %zu, want %zu\n", k,
			       len, from, scan(p, from, len), naive(p, from, len));
	}
	ok(bad == 0, "%s: random buffers against a byte-by-byte scan: %u wrong", name, bad);
}

int main(void)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	uint8_t *map = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (!ok(map != MAP_FAILED, "two pages mapped"))
		return tap_done();
	ok(mprotect(map + page, page, PROT_NONE) == 0, "the second one unreadable");
	check("ltt_scan_nul", ltt_scan_nul, map + page);
	check("ltt_scan_nul_words", ltt_scan_nul_words, map + page);
	munmap(map, 2 * page);
	return tap_done();
}
