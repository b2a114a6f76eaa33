/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * numfmt.c - "%g" without printf, to the same last digit.
 *
 * printf rounds the exact binary value: a double is m * 2^e exactly, and
 * its six significant digits are D = m * 2^e * 10^k rounded to the
 * nearest integer (ties to even), k = 5 - X, X the decimal exponent. D is
 * computed exactly, as a quotient of two big integers N / Dn (N = m *
 * 10^k * 2^e, Dn = 10^-k * 2^-e, each factor only where its exponent is
 * positive), and the remainder says which way to round. For everyday
 * values the integers are one to four 32-bit words; a denormal or a huge
 * value needs about 25 (round_scaled()).
 */
#include <math.h>
#include <pthread.h>
#include <string.h>

#include "numfmt.h"

const char ltt_digit_pairs[200] =
	"00010203040506070809" "10111213141516171819" "20212223242526272829"
	"30313233343536373839" "40414243444546474849" "50515253545556575859"
	"60616263646566676869" "70717273747576777879" "80818283848586878889"
	"90919293949596979899";

/* ---- big unsigned integers, 32-bit words, least significant first ---- */

#define BN_WORDS 40	/* 1280 bits: 5^330 * 2^53, 5^310 * 2^64, with room */

typedef struct bn {
	unsigned n;		/* words in use; 0 is the number 0 */
	uint32_t w[BN_WORDS];
} bn;

static void bn_set(bn *b, uint64_t v)
{
	b->n = 0;
	while (v) {
		b->w[b->n++] = (uint32_t)v;
		v >>= 32;
	}
}

static void bn_mul_small(bn *b, uint32_t f)
{
	uint64_t carry = 0;

	for (unsigned i = 0; i < b->n; i++) {
		uint64_t x = (uint64_t)b->w[i] * f + carry;

		b->w[i] = (uint32_t)x;
		carry = x >> 32;
	}
	if (carry)
		b->w[b->n++] = (uint32_t)carry;
}

static void bn_shl(bn *b, unsigned bits)
{
	unsigned words = bits / 32, s = bits % 32;

	if (b->n == 0)
		return;
	if (s) {
		uint32_t carry = 0;

		for (unsigned i = 0; i < b->n; i++) {
			uint32_t x = b->w[i];

			b->w[i] = x << s | carry;
			carry = x >> (32 - s);
		}
		if (carry)
			b->w[b->n++] = carry;
	}
	if (words) {
		memmove(b->w + words, b->w, b->n * sizeof(uint32_t));
		memset(b->w, 0, words * sizeof(uint32_t));
		b->n += words;
	}
}

static int bn_cmp(const bn *a, const bn *b)
{
	if (a->n != b->n)
		return a->n < b->n ? -1 : 1;
	for (unsigned i = a->n; i-- > 0;)
		if (a->w[i] != b->w[i])
			return a->w[i] < b->w[i] ? -1 : 1;
	return 0;
}

/* a -= b, a >= b */
static void bn_sub(bn *a, const bn *b)
{
	int64_t borrow = 0;

	for (unsigned i = 0; i < a->n; i++) {
		int64_t x = (int64_t)a->w[i] - (i < b->n ? b->w[i] : 0) - borrow;

		borrow = x < 0;
		a->w[i] = (uint32_t)(x + (borrow << 32));
	}
	while (a->n && a->w[a->n - 1] == 0)
		a->n--;
}

/* a += b */
static void bn_add(bn *a, const bn *b)
{
	uint64_t carry = 0;
	unsigned n = a->n > b->n ? a->n : b->n;

	for (unsigned i = 0; i < n; i++) {
		uint64_t x = (uint64_t)(i < a->n ? a->w[i] : 0) + (i < b->n ? b->w[i] : 0) + carry;

		a->w[i] = (uint32_t)x;
		carry = x >> 32;
	}
	a->n = n;
	if (carry)
		a->w[a->n++] = (uint32_t)carry;
}

/* ---- six significant digits ---- */

/* b *= f */
static void bn_mul_u64(bn *b, uint64_t f)
{
	unsigned __int128 carry = 0;

	for (unsigned i = 0; i < b->n; i++) {
		unsigned __int128 x = (unsigned __int128)b->w[i] * f + carry;

		b->w[i] = (uint32_t)x;
		carry = x >> 32;
	}
	while (carry) {
		b->w[b->n++] = (uint32_t)carry;
		carry >>= 32;
	}
}

/* 5^(13 j), j = 0..26 (5^338): made once, then each 5^k is a copy and
 * one multiplication. */
#define POW5_STEP 13
#define POW5_BIG 27
static bn pow5_big[POW5_BIG];
static pthread_once_t pow5_once = PTHREAD_ONCE_INIT;

static void pow5_init(void)
{
	bn_set(&pow5_big[0], 1);
	for (unsigned j = 1; j < POW5_BIG; j++) {
		pow5_big[j] = pow5_big[j - 1];
		bn_mul_small(&pow5_big[j], 1220703125);		/* 5^13 */
	}
}

/* 5^k, k < 28 */
static uint64_t pow5_64(int k)
{
	uint64_t p = 1;

	for (; k >= 13; k -= 13)
		p *= 1220703125;
	static const uint32_t small[13] = { 1, 5, 25, 125, 625, 3125, 15625, 78125,
					    390625, 1953125, 9765625, 48828125,
					    244140625 };
	return p * small[k];
}

/* b = f * 5^k, k <= 350 */
static void bn_set_pow5(bn *b, uint64_t f, int k)
{
	static const uint32_t p5[POW5_STEP] = { 1, 5, 25, 125, 625, 3125, 15625, 78125,
						390625, 1953125, 9765625, 48828125,
						244140625 };

	uint32_t r = p5[k % POW5_STEP];

	pthread_once(&pow5_once, pow5_init);
	*b = pow5_big[k / POW5_STEP];
	if (f < (1ULL << 36)) {		/* r < 2^28: one pass */
		bn_mul_u64(b, f * r);
	} else {
		bn_mul_u64(b, f);
		bn_mul_small(b, r);
	}
}

/* Bit i of b. */
static unsigned bn_bit(const bn *b, unsigned i)
{
	return i / 32 < b->n ? (b->w[i / 32] >> (i % 32)) & 1 : 0;
}

/* Bits [s, s + 32) of b. */
static uint32_t bn_bits32(const bn *b, unsigned s)
{
	uint64_t lo = s / 32 < b->n ? b->w[s / 32] : 0;
	uint64_t hi = s / 32 + 1 < b->n ? b->w[s / 32 + 1] : 0;

	return (uint32_t)((lo | hi << 32) >> (s % 32));
}

/* Any bit below bit s? */
static int bn_any_below(const bn *b, unsigned s)
{
	for (unsigned i = 0; i < s / 32 && i < b->n; i++)
		if (b->w[i])
			return 1;
	return s % 32 && s / 32 < b->n && (b->w[s / 32] & ((1U << (s % 32)) - 1));
}

/*
 * m * 2^e * 10^k, rounded (ties to even); the caller knows it is below
 * 2^31. 10^k = 5^k * 2^k: with k >= 0 (values below 10^6, denormals
 * included) the divisor is a power of two, and the quotient and the
 * remainder are bits of m * 5^k. Otherwise `approx`, the same product in
 * floating point, gives the quotient to within one, and products of the
 * divisor check it.
 */
static uint32_t round_scaled(uint64_t m, int e, int k, double approx)
{
	bn num, den, prod, rem;
	uint32_t q;
	int c, s;

	if (k >= 0 && k < 28 && e + k > -128) {	/* m * 5^k < 2^116: in 128 bits */
		unsigned __int128 x = (unsigned __int128)m * pow5_64(k);

		s = -(e + k);
		if (s <= 0)
			return (uint32_t)(x << -s);
		q = (uint32_t)(x >> s);
		if ((x >> (s - 1)) & 1 &&
		    ((q & 1) || (x & (((unsigned __int128)1 << (s - 1)) - 1))))
			q++;
		return q;
	}
	if (k >= 0) {
		bn_set_pow5(&num, m, k);
		s = -(e + k);
		if (s <= 0)		/* an integer, below 2^31 */
			return (uint32_t)(((uint64_t)num.w[0] | (num.n > 1 ? (uint64_t)num.w[1] << 32 : 0))
					  << -s);
		q = bn_bits32(&num, (unsigned)s);
		if (bn_bit(&num, (unsigned)s - 1) &&
		    ((q & 1) || bn_any_below(&num, (unsigned)s - 1)))
			q++;
		return q;
	}
	/* num / den = m * 2^(e + k) / 5^-k */
	bn_set(&num, m);
	bn_set_pow5(&den, 1, -k);
	s = e + k;
	if (s > 0)
		bn_shl(&num, (unsigned)s);
	else
		bn_shl(&den, (unsigned)-s);
	q = approx < 0 ? 0 : (uint32_t)approx;
	prod = den;
	bn_mul_small(&prod, q);
	if (q == 0)
		prod.n = 0;
	while (bn_cmp(&prod, &num) > 0) {
		bn_sub(&prod, &den);
		q--;
	}
	rem = num;
	bn_sub(&rem, &prod);
	while (bn_cmp(&rem, &den) >= 0) {
		bn_sub(&rem, &den);
		q++;
	}
	/* round: compare twice the remainder with the divisor */
	bn_add(&rem, &rem);
	c = bn_cmp(&rem, &den);
	if (c > 0 || (c == 0 && (q & 1)))
		q++;
	return q;
}

/* |v| * 10^k in floating point, for the estimate: steps that stay in
 * range (the result is near 10^5), each off by half an ulp at most. */
static double scale10(double v, int k)
{
	static const double p10[23] = {
		1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
		1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
	};

	for (; k > 22; k -= 22)
		v *= 1e22;
	for (; k < -22; k += 22)
		v /= 1e22;
	return k >= 0 ? v * p10[k] : v / p10[-k];
}

size_t ltt_fmt_g(char *buf, double v)
{
	uint64_t bits, m;
	int bexp, e, x, k;
	uint32_t d;
	char digits[6];
	char *p = buf;
	double a;

	memcpy(&bits, &v, sizeof(bits));
	if (bits >> 63)
		*p++ = '-';
	bexp = (int)((bits >> 52) & 0x7ff);
	m = bits & ((1ULL << 52) - 1);
	if (bexp == 0x7ff) {		/* as glibc prints them: nan, -nan, inf */
		memcpy(p, m ? "nan" : "inf", 3);
		return (size_t)(p + 3 - buf);
	}
	if (bexp == 0 && m == 0) {
		*p++ = '0';
		return (size_t)(p - buf);
	}
	if (bexp) {
		m |= 1ULL << 52;
		e = bexp - 1075;
	} else {
		e = -1074;
	}
	a = fabs(v);
	/* the decimal exponent: the binary one's, times log10(2) (78913 /
	 * 2^18), is X or one below; the digits say which */
	x = (int)(((int64_t)(e + 63 - __builtin_clzll(m)) * 78913) >> 18);
	for (;;) {
		k = 5 - x;
		d = round_scaled(m, e, k, scale10(a, k));
		if (d >= 1000000)
			x++;
		else if (d < 100000)
			x--;
		else
			break;
	}
	for (int i = 5; i >= 0; i--, d /= 10)
		digits[i] = (char)('0' + d % 10);
	if (x < -4 || x >= 6) {		/* d.ddddde+XX */
		int n = 6;

		while (n > 1 && digits[n - 1] == '0')
			n--;
		*p++ = digits[0];
		if (n > 1) {
			*p++ = '.';
			memcpy(p, digits + 1, (size_t)n - 1);
			p += n - 1;
		}
		*p++ = 'e';
		*p++ = x < 0 ? '-' : '+';
		x = x < 0 ? -x : x;
		if (x >= 100)
			*p++ = (char)('0' + x / 100);
		memcpy(p, ltt_digit_pairs + 2 * (x % 100), 2);
		p += 2;
	} else {			/* ddd.ddd, 0.000ddd */
		int n = 6, point = x + 1;	/* digits before the point */

		while (n > point && n > 0 && digits[n - 1] == '0')
			n--;
		if (point <= 0) {
			*p++ = '0';
			*p++ = '.';
			memset(p, '0', (size_t)-point);
			p += -point;
			memcpy(p, digits, (size_t)n);
			p += n;
		} else {
			memcpy(p, digits, (size_t)point);
			p += point;
			if (n > point) {
				*p++ = '.';
				memcpy(p, digits + point, (size_t)(n - point));
				p += n - point;
			}
		}
	}
	return (size_t)(p - buf);
}
