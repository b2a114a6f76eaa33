/* rand.h - one deterministic generator (xorshift64*) for the unit tests
 * that draw random cases: the same sequence on every run and machine, so
 * that a failure is repeated by running the test again. */
#ifndef LTT_TESTS_RAND_H
#define LTT_TESTS_RAND_H

#include <stdint.h>

static uint64_t rng = 0x9E3779B97F4A7C15ull;

static inline uint64_t rnd(void)
{
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return rng * 0x2545F4914F6CDD1Dull;
}

#endif
