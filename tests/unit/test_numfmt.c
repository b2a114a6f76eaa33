/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_numfmt - the library's number conversions (numfmt.h, numfmt.c)
 * against printf, which they replace in the text of every dump: the
 * decimal and hex integers and "%g" must give the same characters for
 * every value, not only the ones the bundled traces hold. Edge values,
 * then random ones: all bit patterns of a double (denormals, huge values,
 * NaNs), values of every magnitude, and decimal fractions whose %g
 * rounding is a tie or close to one.
 */
#include <float.h>
#include <math.h>	/* INFINITY, NAN */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "../../libltttrace/src/numfmt.h"
#include "rand.h"
#include "tap.h"


static unsigned bad_shown;

/* Compares one conversion with printf's: 0 if the same. */
static int differs(const char *what, const char *got, size_t n, const char *want)
{
	if (n == strlen(want) && memcmp(got, want, n) == 0)
		return 0;
	if (bad_shown++ < 10)
		printf("#   %s: got \"%.*s\", printf gives \"%s\"\n", what, (int)n, got, want);
	return 1;
}

static int check_u64(uint64_t v)
{
	char got[LTT_NUMFMT_MAX], want[64], hex[LTT_NUMFMT_MAX];
	size_t n = ltt_fmt_u64(got, v), h = ltt_fmt_hex(hex, v);
	int bad;

	snprintf(want, sizeof(want), "%" PRIu64, v);
	bad = differs("u64", got, n, want);
	snprintf(want, sizeof(want), "%" PRIx64, v);
	return bad | differs("hex", hex, h, want);
}

static int check_i64(int64_t v)
{
	char got[LTT_NUMFMT_MAX], want[64];
	size_t n = ltt_fmt_i64(got, v);

	snprintf(want, sizeof(want), "%" PRId64, v);
	return differs("i64", got, n, want);
}

static int check_g(double v)
{
	char got[LTT_NUMFMT_MAX], want[64];
	size_t n = ltt_fmt_g(got, v);

	snprintf(want, sizeof(want), "%g", v);
	return differs("%g", got, n, want);
}

/* 10^e, near enough: the values only have to be of that magnitude
 * (no libm for the tests) */
static double ten_to(int e)
{
	double r = 1;

	for (; e > 0; e--)
		r *= 10;
	for (; e < 0; e++)
		r /= 10;
	return r;
}

static double from_bits(uint64_t b)
{
	double d;

	memcpy(&d, &b, sizeof(d));
	return d;
}

int main(void)
{
	unsigned bad = 0;
	uint64_t p10 = 1;

	/* integers: around every power of ten and of two, the ends, random
	 * values of every length */
	bad += check_u64(0) + check_u64(UINT64_MAX) + check_i64(INT64_MIN) +
	       check_i64(INT64_MAX) + check_i64(0) + check_i64(-1);
	for (int i = 0; i < 20; i++, p10 *= 10)
		for (int d = -1; d <= 1; d++) {
			bad += check_u64(p10 + (uint64_t)d);
			bad += check_i64((int64_t)(0 - (p10 + (uint64_t)d)));
		}
	for (int i = 0; i < 64; i++)
		bad += check_u64((1ull << i) - 1) + check_u64(1ull << i) +
		       check_i64((int64_t)(0 - (1ull << i)));
	for (int i = 0; i < 200000; i++) {
		uint64_t v = rnd() >> (rnd() % 64);

		bad += check_u64(v) + check_i64((int64_t)v) + check_i64((int64_t)(0 - v));
	}
	is_int(bad, 0, "decimal and hex integers as printf prints them (edges, 200000 random)");

	/* %g: special values, the ends of the range, where %g switches
	 * between its two forms, and rounding at the sixth digit */
	bad = 0;
	bad_shown = 0;
	{
		static const double edges[] = {
			0.0, -0.0, 1.0, -1.0, 0.5, 0.1, 0.0001, 0.00001, 0.000099999949,
			0.0000999995, 99999.95, 999999.0, 999999.5, 999999.4999,
			9999995.0, 1e6, 1e-5, 123456.5, 123457.5, 1.5, 2.5, 1e100,
			1e-100, 1e300, 1e-300, 3.14159265358979, 2.718281828,
			DBL_MAX, -DBL_MAX, DBL_MIN, DBL_TRUE_MIN, FLT_MAX, FLT_MIN,
			4.9406564584124654e-324, 2.2250738585072009e-308,
		};

		for (size_t i = 0; i < sizeof(edges) / sizeof(edges[0]); i++)
			bad += check_g(edges[i]) + check_g(-edges[i]);
		bad += check_g(INFINITY) + check_g(-INFINITY) + check_g(NAN) + check_g(-NAN);
	}
	is_int(bad, 0, "%%g of edge values (0, -0, inf, nan, denormals, DBL_MAX, form switches, ties)");

	bad = 0;
	for (int i = 0; i < 300000; i++)
		bad += check_g(from_bits(rnd()));
	is_int(bad, 0, "%%g of 300000 random bit patterns");

	bad = 0;
	for (int i = 0; i < 300000; i++) {
		/* magnitudes a trace holds: 1e-12 .. 1e15, both signs */
		double v = (double)(rnd() >> 11) / 9007199254740992.0;
		int e = (int)(rnd() % 28) - 12;

		v *= ten_to(e);
		bad += check_g(i % 2 ? v : -v);
		bad += check_g((float)v);	/* a float field, widened */
	}
	is_int(bad, 0, "%%g of 600000 random values from 1e-12 to 1e15 (doubles and floats)");

	bad = 0;
	for (int i = 0; i < 300000; i++) {
		/* decimal numbers with 7 digits ending in 5: %g's rounding
		 * of the sixth digit meets its near-ties */
		uint64_t m = (rnd() % 900000) * 10 + 1000000 + 5;
		int e = (int)(rnd() % 40) - 20;

		bad += check_g((double)m * ten_to(e - 6));
		bad += check_g((double)(m - 5 + rnd() % 10) / 4096.0);
	}
	is_int(bad, 0, "%%g of 600000 near-ties at the sixth digit");
	return tap_done();
}
