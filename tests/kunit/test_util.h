/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the suites: a seeded PRNG, so that every run codes the
 * same cases and a failure reproduces, and buffers that end at a guard page
 * in userspace.
 */
#ifndef CREM_TEST_UTIL_H
#define CREM_TEST_UTIL_H

#include <kunit/test.h>

#include "crem/core/port.h"
#include "crem/fec/fec.h"

struct test_prng {
	u64 state;
};

/* splitmix64 */
static inline u64 test_prng_next(struct test_prng *p)
{
	u64 z = (p->state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* Uniform in [0, n); n > 0. */
static inline u32 test_prng_below(struct test_prng *p, u32 n)
{
	return (u32)(((test_prng_next(p) >> 32) * n) >> 32);
}

static inline void test_prng_fill(struct test_prng *p, u8 *buf, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		buf[i] = (u8)test_prng_next(p);
}

/* suite_init of every suite that codes: the field tables and the coder. */
static inline int test_fec_suite_init(struct kunit_suite *suite)
{
	crem_fec_init();
	return 0;
}

#ifdef __KERNEL__
static inline void *test_alloc_guarded(struct kunit *test, size_t len)
{
	return kunit_kmalloc(test, len ? len : 1, GFP_KERNEL);
}
#else
#define test_alloc_guarded crem_kunit_alloc_guarded
#endif

#endif /* CREM_TEST_UTIL_H */
