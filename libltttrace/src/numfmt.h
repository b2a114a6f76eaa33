/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * numfmt.h - numbers to text without printf: most of what a text dump
 * prints is integers, and printf's parsing of its format and its locale
 * handling cost more than the conversion itself. Each function writes
 * into buf, which has room for the longest result (LTT_NUMFMT_MAX), and
 * returns the length; nothing is NUL-terminated.
 */
#ifndef LTTTRACE_NUMFMT_H
#define LTTTRACE_NUMFMT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define LTT_NUMFMT_MAX 32

#ifndef LTT_HIDDEN
#define LTT_HIDDEN __attribute__((visibility("hidden")))
#endif

/* "00" "01" ... "99": two digits per division by 100. */
LTT_HIDDEN extern const char ltt_digit_pairs[200];

/* Two digits of v < 100 at p. */
static inline void ltt_put2(char *p, uint32_t v)
{
	memcpy(p, ltt_digit_pairs + 2 * v, 2);
}

/* Exactly eight digits of v < 10^8 at p, leading zeros included: 32-bit
 * arithmetic only. */
static inline void ltt_put8(char *p, uint32_t v)
{
	uint32_t hi = v / 10000, lo = v % 10000;

	ltt_put2(p, hi / 100);
	ltt_put2(p + 2, hi % 100);
	ltt_put2(p + 4, lo / 100);
	ltt_put2(p + 6, lo % 100);
}

/* v < 10^8 in decimal. */
static inline size_t ltt_fmt_u32_small(char *buf, uint32_t v)
{
	unsigned n = v < 10000 ? (v < 100 ? (v < 10 ? 1 : 2) : (v < 1000 ? 3 : 4))
			       : (v < 1000000 ? (v < 100000 ? 5 : 6) : (v < 10000000 ? 7 : 8));
	char *p = buf + n;

	while (v >= 100) {
		p -= 2;
		ltt_put2(p, v % 100);
		v /= 100;
	}
	if (v >= 10)
		ltt_put2(p - 2, v);
	else
		p[-1] = (char)('0' + v);
	return n;
}

/* v in decimal: in pieces of eight digits, each converted in 32 bits. */
static inline size_t ltt_fmt_u64(char *buf, uint64_t v)
{
	size_t n;

	if (v < 100000000)
		return ltt_fmt_u32_small(buf, (uint32_t)v);
	if (v < 10000000000000000ULL) {
		n = ltt_fmt_u32_small(buf, (uint32_t)(v / 100000000));
		ltt_put8(buf + n, (uint32_t)(v % 100000000));
		return n + 8;
	}
	n = ltt_fmt_u32_small(buf, (uint32_t)(v / 10000000000000000ULL));
	v %= 10000000000000000ULL;
	ltt_put8(buf + n, (uint32_t)(v / 100000000));
	ltt_put8(buf + n + 8, (uint32_t)(v % 100000000));
	return n + 16;
}

/* v in decimal, with its sign. */
static inline size_t ltt_fmt_i64(char *buf, int64_t v)
{
	if (v >= 0)
		return ltt_fmt_u64(buf, (uint64_t)v);
	buf[0] = '-';
	return 1 + ltt_fmt_u64(buf + 1, -(uint64_t)v);
}

/* Eight hex digits of v, most significant first, as one 64-bit word:
 * each nibble spread to a byte, then made a digit, all at once. */
static inline uint64_t ltt_hex8(uint32_t v)
{
	uint64_t x = v, letters;

	x = (x | x << 16) & 0x0000FFFF0000FFFFULL;
	x = (x | x << 8) & 0x00FF00FF00FF00FFULL;
	x = (x | x << 4) & 0x0F0F0F0F0F0F0F0FULL;
	/* nibble k is byte k: in memory, the least significant comes first
	 * on a little-endian machine, where it must come last */
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	x = __builtin_bswap64(x);
#endif
	letters = ((x + 0x0606060606060606ULL) >> 4) & 0x0101010101010101ULL;
	return x + 0x3030303030303030ULL + letters * ('a' - '0' - 10);
}

/* v in lower-case hexadecimal, no prefix ("0" for 0). */
static inline size_t ltt_fmt_hex(char *buf, uint64_t v)
{
	unsigned n = v ? (unsigned)(64 - __builtin_clzll(v) + 3) / 4 : 1;
	uint64_t d[2] = { ltt_hex8((uint32_t)(v >> 32)), ltt_hex8((uint32_t)v) };

	memcpy(buf, (const char *)d + 16 - n, n);
	return n;
}

/* v as printf's "%g" prints it (6 significant digits, the shorter of %e
 * and %f, no trailing zeros), to the same last digit: the decimal value
 * is rounded from the exact binary one, ties to even (numfmt.c). */
LTT_HIDDEN size_t ltt_fmt_g(char *buf, double v);

#endif
