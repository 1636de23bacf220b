// SPDX-License-Identifier: GPL-2.0
/*
 * Userspace runner for the KUnit suites (see kunit/test.h beside this file).
 *
 * Usage: crem_unit [SUITE...]
 * Runs every registered suite, or only the named ones, and prints KTAP
 * version 1 in the layout of the kernel's KUnit.  Exits 1 if any case
 * failed, 0 otherwise.
 */
#include <stdarg.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include <kunit/test.h>

extern struct kunit_suite *const __start_crem_kunit_suites[];
extern struct kunit_suite *const __stop_crem_kunit_suites[];

static void *track(struct kunit *test, void *p)
{
	void **grown;

	if (!p)
		return NULL;
	grown = realloc(test->allocs, (test->nr_allocs + 1) * sizeof(*grown));
	if (!grown) {
		free(p);
		return NULL;
	}
	test->allocs = grown;
	test->allocs[test->nr_allocs++] = p;
	return p;
}

void *kunit_kmalloc(struct kunit *test, size_t size, gfp_t gfp)
{
	(void)gfp;
	return track(test, malloc(size ? size : 1));
}

void *kunit_kzalloc(struct kunit *test, size_t size, gfp_t gfp)
{
	(void)gfp;
	return track(test, calloc(1, size ? size : 1));
}

void *kunit_kmalloc_array(struct kunit *test, size_t n, size_t size,
			  gfp_t gfp)
{
	if (size && n > (size_t)-1 / size)
		return NULL;
	return kunit_kmalloc(test, n * size, gfp);
}

void *kunit_kcalloc(struct kunit *test, size_t n, size_t size, gfp_t gfp)
{
	(void)gfp;
	return track(test, calloc(n ? n : 1, size ? size : 1));
}

void kunit_kfree(struct kunit *test, const void *ptr)
{
	size_t i;

	for (i = 0; i < test->nr_allocs; i++) {
		if (test->allocs[i] == ptr) {
			free(test->allocs[i]);
			test->allocs[i] = test->allocs[--test->nr_allocs];
			return;
		}
	}
}

struct crem_kunit_map {
	struct crem_kunit_map *next;
	void *base;
	size_t size;
};

void *crem_kunit_alloc_guarded(struct kunit *test, size_t len)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	size_t body = (len + page - 1) / page * page;
	struct crem_kunit_map *map;
	u8 *base;

	map = malloc(sizeof(*map));
	if (!map)
		return NULL;
	base = mmap(NULL, body + page, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (base == MAP_FAILED || mprotect(base + body, page, PROT_NONE)) {
		free(map);
		return NULL;
	}
	map->base = base;
	map->size = body + page;
	map->next = test->maps;
	test->maps = map;
	return base + body - len;
}

static void release_allocs(struct kunit *test)
{
	while (test->nr_allocs)
		free(test->allocs[--test->nr_allocs]);
	free(test->allocs);
	test->allocs = NULL;
	while (test->maps) {
		struct crem_kunit_map *map = test->maps;

		test->maps = map->next;
		munmap(map->base, map->size);
		free(map);
	}
}

void crem_kunit_log(struct kunit *test, const char *level, const char *fmt,
		    ...)
{
	va_list ap;

	printf("        # %s: %s", test->name, level);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

void crem_kunit_fail(struct kunit *test, bool assertion, const char *file,
		     int line, const char *fmt, ...)
{
	va_list ap;

	test->status = KUNIT_FAILURE;
	printf("        # %s: %s:%d\n        %s ", test->name, file, line,
	       assertion ? "ASSERTION FAILED" : "EXPECTATION FAILED");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

void crem_kunit_mark_skipped(struct kunit *test, const char *fmt, ...)
{
	va_list ap;

	test->status = KUNIT_SKIPPED;
	va_start(ap, fmt);
	vsnprintf(test->status_comment, sizeof(test->status_comment), fmt, ap);
	va_end(ap);
}

void crem_kunit_abort(struct kunit *test)
{
	longjmp(test->abort, 1);
}

static bool run_case(struct kunit_suite *suite, struct kunit_case *tc,
		     unsigned int nr)
{
	struct kunit test = { .name = tc->name, .status = KUNIT_SUCCESS };

	if (!setjmp(test.abort)) {
		if (suite->init && suite->init(&test)) {
			crem_kunit_fail(&test, true, __FILE__, __LINE__,
					"suite init failed");
		} else {
			tc->run_case(&test);
		}
	}
	if (suite->exit)
		suite->exit(&test);
	release_allocs(&test);

	if (test.status == KUNIT_SKIPPED)
		printf("    ok %u %s # SKIP %s\n", nr, tc->name,
		       test.status_comment);
	else
		printf("    %s %u %s\n",
		       test.status == KUNIT_FAILURE ? "not ok" : "ok", nr,
		       tc->name);
	return test.status != KUNIT_FAILURE;
}

static bool run_suite(struct kunit_suite *suite, unsigned int nr)
{
	struct kunit_case *tc;
	unsigned int cases = 0, i = 0;
	bool ok = true;

	for (tc = suite->test_cases; tc->run_case; tc++)
		cases++;
	printf("    KTAP version 1\n    # Subtest: %s\n    1..%u\n",
	       suite->name, cases);
	if (suite->suite_init && suite->suite_init(suite)) {
		printf("not ok %u %s # suite_init failed\n", nr, suite->name);
		return false;
	}
	for (tc = suite->test_cases; tc->run_case; tc++)
		ok &= run_case(suite, tc, ++i);
	if (suite->suite_exit)
		suite->suite_exit(suite);
	printf("%s %u %s\n", ok ? "ok" : "not ok", nr, suite->name);
	return ok;
}

static bool selected(const char *name, int argc, char **argv)
{
	int i;

	if (argc < 2)
		return true;
	for (i = 1; i < argc; i++)
		if (!strcmp(argv[i], name))
			return true;
	return false;
}

int main(int argc, char **argv)
{
	struct kunit_suite *const *s;
	unsigned int total = 0, nr = 0;
	bool ok = true;

	setvbuf(stdout, NULL, _IOLBF, 0);
	for (s = __start_crem_kunit_suites; s < __stop_crem_kunit_suites; s++)
		total += selected((*s)->name, argc, argv);
	if (!total) {
		fprintf(stderr, "crem_unit: no suite matches\n");
		return 2;
	}
	printf("KTAP version 1\n1..%u\n", total);
	for (s = __start_crem_kunit_suites; s < __stop_crem_kunit_suites; s++)
		if (selected((*s)->name, argc, argv))
			ok &= run_suite(*s, ++nr);
	return ok ? 0 : 1;
}
