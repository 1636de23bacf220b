/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A userspace stand-in for <kunit/test.h>.
 *
 * The portable core's suites are written once against the KUnit API.  In a
 * kernel they build against the real header; in userspace (make unit) this
 * header takes its place, so that the same file runs under ASan and UBSan in
 * a second.  It offers only what Linux 6.1's KUnit offers, so that a suite
 * that builds here also builds in the oldest kernel crem supports.
 *
 * Suites register themselves in the "crem_kunit_suites" section; shim.c walks
 * that section and prints KTAP as the kernel's KUnit does.
 */
#ifndef CREM_KUNIT_SHIM_TEST_H
#define CREM_KUNIT_SHIM_TEST_H

#include <setjmp.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "crem/core/port.h"

typedef unsigned int gfp_t;
#define GFP_KERNEL 0u

enum kunit_status {
	KUNIT_SUCCESS,
	KUNIT_FAILURE,
	KUNIT_SKIPPED,
};

struct kunit {
	const char *name;
	enum kunit_status status;
	char status_comment[256];
	jmp_buf abort;		/* taken by a failed KUNIT_ASSERT_*() */
	void **allocs;		/* freed when the case ends */
	size_t nr_allocs;
	struct crem_kunit_map *maps;	/* unmapped when the case ends */
	void *priv;
};

struct kunit_case {
	void (*run_case)(struct kunit *test);
	const char *name;
};

struct kunit_suite {
	const char *name;
	int (*suite_init)(struct kunit_suite *suite);
	void (*suite_exit)(struct kunit_suite *suite);
	int (*init)(struct kunit *test);
	void (*exit)(struct kunit *test);
	struct kunit_case *test_cases;
};

#define KUNIT_CASE(fn) { .run_case = fn, .name = #fn }

#define kunit_test_suites(...)						\
	static struct kunit_suite *const				\
	__attribute__((used, section("crem_kunit_suites"),		\
		       aligned(sizeof(void *))))			\
	CREM_KUNIT_UNIQUE(crem_kunit_suite_)[] = { __VA_ARGS__ }
#define kunit_test_suite(suite) kunit_test_suites(&(suite))

#define CREM_KUNIT_CAT2(a, b) a##b
#define CREM_KUNIT_CAT(a, b) CREM_KUNIT_CAT2(a, b)
#define CREM_KUNIT_UNIQUE(prefix) CREM_KUNIT_CAT(prefix, __LINE__)

void *kunit_kmalloc(struct kunit *test, size_t size, gfp_t gfp);
void *kunit_kzalloc(struct kunit *test, size_t size, gfp_t gfp);
void *kunit_kmalloc_array(struct kunit *test, size_t n, size_t size,
			  gfp_t gfp);
void *kunit_kcalloc(struct kunit *test, size_t n, size_t size, gfp_t gfp);
void kunit_kfree(struct kunit *test, const void *ptr);

/*
 * Not part of KUnit: a buffer of @len bytes whose last byte is followed by
 * an inaccessible page, so that any overrun faults at once.  Freed when
 * the case ends.  tests/kunit/test_util.h maps it to kunit_kmalloc() in a
 * kernel.
 */
struct crem_kunit_map;
void *crem_kunit_alloc_guarded(struct kunit *test, size_t len);

void crem_kunit_log(struct kunit *test, const char *level, const char *fmt,
		    ...) __attribute__((format(printf, 3, 4)));
void crem_kunit_fail(struct kunit *test, bool assertion, const char *file,
		     int line, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
void crem_kunit_mark_skipped(struct kunit *test, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
__attribute__((noreturn)) void crem_kunit_abort(struct kunit *test);

#define kunit_info(test, fmt, ...) crem_kunit_log(test, "", fmt, ##__VA_ARGS__)
#define kunit_warn(test, fmt, ...) crem_kunit_log(test, "warning: ", fmt, ##__VA_ARGS__)
#define kunit_err(test, fmt, ...) crem_kunit_log(test, "error: ", fmt, ##__VA_ARGS__)

#define kunit_mark_skipped(test, fmt, ...)				\
	crem_kunit_mark_skipped(test, fmt, ##__VA_ARGS__)
#define kunit_skip(test, fmt, ...) do {					\
		crem_kunit_mark_skipped(test, fmt, ##__VA_ARGS__);	\
		crem_kunit_abort(test);					\
	} while (0)

/* One failure path for every check: report, then abort if asserting. */
#define CREM_KUNIT_CHECK(test, assertion, ok, fmt, ...) do {		\
		if (!(ok)) {						\
			crem_kunit_fail(test, assertion, __FILE__,	\
					__LINE__, fmt, ##__VA_ARGS__);	\
			if (assertion)					\
				crem_kunit_abort(test);			\
		}							\
	} while (0)

#define CREM_KUNIT_INT(test, assertion, left, op, right, msgfmt, ...) do { \
		const __typeof__(left) __left = (left);			\
		const __typeof__(right) __right = (right);		\
		CREM_KUNIT_CHECK(test, assertion, __left op __right,	\
				 "Expected %s %s %s, but %s == %lld (0x%llx), %s == %lld (0x%llx)" msgfmt, \
				 #left, #op, #right,			\
				 #left, (long long)__left,		\
				 (unsigned long long)__left,		\
				 #right, (long long)__right,		\
				 (unsigned long long)__right,		\
				 ##__VA_ARGS__);			\
	} while (0)

#define CREM_KUNIT_PTR(test, assertion, left, op, right, msgfmt, ...) do { \
		const void *__left = (left);				\
		const void *__right = (right);				\
		CREM_KUNIT_CHECK(test, assertion, __left op __right,	\
				 "Expected %s %s %s, but %s == %p, %s == %p" msgfmt, \
				 #left, #op, #right, #left, __left,	\
				 #right, __right, ##__VA_ARGS__);	\
	} while (0)

#define CREM_KUNIT_STR(test, assertion, left, op, right, msgfmt, ...) do { \
		const char *__left = (left);				\
		const char *__right = (right);				\
		CREM_KUNIT_CHECK(test, assertion,			\
				 __left && __right &&			\
				 strcmp(__left, __right) op 0,		\
				 "Expected %s %s %s, but %s == \"%s\", %s == \"%s\"" msgfmt, \
				 #left, #op, #right, #left,		\
				 __left ? __left : "(null)", #right,	\
				 __right ? __right : "(null)",		\
				 ##__VA_ARGS__);			\
	} while (0)

#define CREM_KUNIT_BOOL(test, assertion, cond, want, msgfmt, ...)	\
	CREM_KUNIT_CHECK(test, assertion, (!!(cond)) == (want),		\
			 "Expected %s to be %s" msgfmt, #cond,		\
			 (want) ? "true" : "false", ##__VA_ARGS__)

#define CREM_KUNIT_MSG(fmt, ...) "\n    " fmt

#define KUNIT_FAIL(test, fmt, ...)					\
	crem_kunit_fail(test, false, __FILE__, __LINE__, fmt, ##__VA_ARGS__)

#define KUNIT_EXPECT_TRUE(t, c) CREM_KUNIT_BOOL(t, false, c, true, "")
#define KUNIT_EXPECT_FALSE(t, c) CREM_KUNIT_BOOL(t, false, c, false, "")
#define KUNIT_ASSERT_TRUE(t, c) CREM_KUNIT_BOOL(t, true, c, true, "")
#define KUNIT_ASSERT_FALSE(t, c) CREM_KUNIT_BOOL(t, true, c, false, "")
#define KUNIT_EXPECT_TRUE_MSG(t, c, f, ...) \
	CREM_KUNIT_BOOL(t, false, c, true, CREM_KUNIT_MSG(f), ##__VA_ARGS__)
#define KUNIT_EXPECT_FALSE_MSG(t, c, f, ...) \
	CREM_KUNIT_BOOL(t, false, c, false, CREM_KUNIT_MSG(f), ##__VA_ARGS__)
#define KUNIT_ASSERT_TRUE_MSG(t, c, f, ...) \
	CREM_KUNIT_BOOL(t, true, c, true, CREM_KUNIT_MSG(f), ##__VA_ARGS__)
#define KUNIT_ASSERT_FALSE_MSG(t, c, f, ...) \
	CREM_KUNIT_BOOL(t, true, c, false, CREM_KUNIT_MSG(f), ##__VA_ARGS__)

#define KUNIT_EXPECT_EQ(t, l, r) CREM_KUNIT_INT(t, false, l, ==, r, "")
#define KUNIT_EXPECT_NE(t, l, r) CREM_KUNIT_INT(t, false, l, !=, r, "")
#define KUNIT_EXPECT_LT(t, l, r) CREM_KUNIT_INT(t, false, l, <, r, "")
#define KUNIT_EXPECT_LE(t, l, r) CREM_KUNIT_INT(t, false, l, <=, r, "")
#define KUNIT_EXPECT_GT(t, l, r) CREM_KUNIT_INT(t, false, l, >, r, "")
#define KUNIT_EXPECT_GE(t, l, r) CREM_KUNIT_INT(t, false, l, >=, r, "")
#define KUNIT_ASSERT_EQ(t, l, r) CREM_KUNIT_INT(t, true, l, ==, r, "")
#define KUNIT_ASSERT_NE(t, l, r) CREM_KUNIT_INT(t, true, l, !=, r, "")
#define KUNIT_ASSERT_LT(t, l, r) CREM_KUNIT_INT(t, true, l, <, r, "")
#define KUNIT_ASSERT_LE(t, l, r) CREM_KUNIT_INT(t, true, l, <=, r, "")
#define KUNIT_ASSERT_GT(t, l, r) CREM_KUNIT_INT(t, true, l, >, r, "")
#define KUNIT_ASSERT_GE(t, l, r) CREM_KUNIT_INT(t, true, l, >=, r, "")
#define KUNIT_EXPECT_EQ_MSG(t, l, r, f, ...) \
	CREM_KUNIT_INT(t, false, l, ==, r, CREM_KUNIT_MSG(f), ##__VA_ARGS__)
#define KUNIT_EXPECT_NE_MSG(t, l, r, f, ...) \
	CREM_KUNIT_INT(t, false, l, !=, r, CREM_KUNIT_MSG(f), ##__VA_ARGS__)
#define KUNIT_ASSERT_EQ_MSG(t, l, r, f, ...) \
	CREM_KUNIT_INT(t, true, l, ==, r, CREM_KUNIT_MSG(f), ##__VA_ARGS__)
#define KUNIT_ASSERT_NE_MSG(t, l, r, f, ...) \
	CREM_KUNIT_INT(t, true, l, !=, r, CREM_KUNIT_MSG(f), ##__VA_ARGS__)
#define KUNIT_EXPECT_LT_MSG(t, l, r, f, ...) \
	CREM_KUNIT_INT(t, false, l, <, r, CREM_KUNIT_MSG(f), ##__VA_ARGS__)
#define KUNIT_EXPECT_LE_MSG(t, l, r, f, ...) \
	CREM_KUNIT_INT(t, false, l, <=, r, CREM_KUNIT_MSG(f), ##__VA_ARGS__)
#define KUNIT_EXPECT_GT_MSG(t, l, r, f, ...) \
	CREM_KUNIT_INT(t, false, l, >, r, CREM_KUNIT_MSG(f), ##__VA_ARGS__)
#define KUNIT_EXPECT_GE_MSG(t, l, r, f, ...) \
	CREM_KUNIT_INT(t, false, l, >=, r, CREM_KUNIT_MSG(f), ##__VA_ARGS__)
#define KUNIT_ASSERT_LT_MSG(t, l, r, f, ...) \
	CREM_KUNIT_INT(t, true, l, <, r, CREM_KUNIT_MSG(f), ##__VA_ARGS__)
#define KUNIT_ASSERT_LE_MSG(t, l, r, f, ...) \
	CREM_KUNIT_INT(t, true, l, <=, r, CREM_KUNIT_MSG(f), ##__VA_ARGS__)
#define KUNIT_ASSERT_GT_MSG(t, l, r, f, ...) \
	CREM_KUNIT_INT(t, true, l, >, r, CREM_KUNIT_MSG(f), ##__VA_ARGS__)
#define KUNIT_ASSERT_GE_MSG(t, l, r, f, ...) \
	CREM_KUNIT_INT(t, true, l, >=, r, CREM_KUNIT_MSG(f), ##__VA_ARGS__)

#define KUNIT_EXPECT_PTR_EQ(t, l, r) CREM_KUNIT_PTR(t, false, l, ==, r, "")
#define KUNIT_EXPECT_PTR_NE(t, l, r) CREM_KUNIT_PTR(t, false, l, !=, r, "")
#define KUNIT_ASSERT_PTR_EQ(t, l, r) CREM_KUNIT_PTR(t, true, l, ==, r, "")
#define KUNIT_ASSERT_PTR_NE(t, l, r) CREM_KUNIT_PTR(t, true, l, !=, r, "")
#define KUNIT_EXPECT_NULL(t, p) CREM_KUNIT_PTR(t, false, p, ==, NULL, "")
#define KUNIT_EXPECT_NOT_NULL(t, p) CREM_KUNIT_PTR(t, false, p, !=, NULL, "")
#define KUNIT_ASSERT_NULL(t, p) CREM_KUNIT_PTR(t, true, p, ==, NULL, "")
#define KUNIT_ASSERT_NOT_NULL(t, p) CREM_KUNIT_PTR(t, true, p, !=, NULL, "")

#define KUNIT_EXPECT_STREQ(t, l, r) CREM_KUNIT_STR(t, false, l, ==, r, "")
#define KUNIT_EXPECT_STRNEQ(t, l, r) CREM_KUNIT_STR(t, false, l, !=, r, "")
#define KUNIT_ASSERT_STREQ(t, l, r) CREM_KUNIT_STR(t, true, l, ==, r, "")
#define KUNIT_ASSERT_STRNEQ(t, l, r) CREM_KUNIT_STR(t, true, l, !=, r, "")

#endif /* CREM_KUNIT_SHIM_TEST_H */
