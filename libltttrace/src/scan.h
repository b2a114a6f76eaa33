/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * scan.h - the end of a string in a payload, for the size check of every
 * event that holds one: inline, eight bytes at a time.
 *
 * A string of a payload is short (a command name, a path): no call, no
 * setup for long scans. Sixteen bytes are read at a time (SSE2, every
 * x86_64) where all of them lie inside the bound; the last few, as the
 * last sixteen bytes of p[0, len) when there are so many, else a word or
 * a byte at a time. Nothing before p[0] or at p[len] and after is ever
 * read (tests/unit/test_scan checks both scans against a guard page).
 */
#ifndef LTTTRACE_SCAN_H
#define LTTTRACE_SCAN_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* The offset of the first NUL byte of p[from, len), or len when there is
 * none, eight bytes at a time: where there is no SSE2, and tested beside
 * ltt_scan_nul() where there is. from <= len. */
static inline size_t ltt_scan_nul_words(const uint8_t *p, size_t from, size_t len)
{
	size_t i = from;

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	while (len - i >= 8) {
		uint64_t w, z;

		memcpy(&w, p + i, 8);
		/* the lowest byte that is 0 sets its top bit here (a borrow can
		 * only set bits above a 0 byte, never below one) */
		z = (w - 0x0101010101010101ULL) & ~w & 0x8080808080808080ULL;
		if (z)
			return i + ((unsigned)__builtin_ctzll(z) >> 3);
		i += 8;
	}
#endif
	while (i < len && p[i])
		i++;
	return i;
}

/* The offset of the first NUL byte of p[from, len), or len when there is
 * none. from <= len. */
static inline size_t ltt_scan_nul(const uint8_t *p, size_t from, size_t len)
{
#if defined(__SSE2__)
	const __m128i zero = _mm_setzero_si128();
	size_t i = from;
	unsigned m;

	while (len - i >= 16) {
		m = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(
			_mm_loadu_si128((const __m128i *)(const void *)(p + i)), zero));
		if (m)
			return i + (unsigned)__builtin_ctz(m);
		i += 16;
	}
	if (i == len)
		return len;
	/* fewer than 16 bytes left: the last 16 of p[0, len), which end
	 * there, those before p[i] dropped */
	if (len >= 16) {
		m = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(
			_mm_loadu_si128((const __m128i *)(const void *)(p + len - 16)), zero));
		m >>= 16 - (len - i);
		return m ? i + (unsigned)__builtin_ctz(m) : len;
	}
	return ltt_scan_nul_words(p, i, len);
#else
	return ltt_scan_nul_words(p, from, len);
#endif
}

#endif
