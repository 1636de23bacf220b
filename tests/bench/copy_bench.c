// SPDX-License-Identifier: GPL-2.0
/*
 * copy_bench: what copying 1 KiB costs with each x86-64 copy idiom, run in
 * the lab's guests (make copy-bench) to show what the emulated CPU makes
 * of them.  With ERMS, 6.1's memcpy() is "rep movsb" (else "rep movsq"),
 * and 6.12's is with FSRM (else a loop of 8-byte moves, memcpy_orig);
 * QEMU's TCG runs "rep movsb" one byte per step (testing.rst, "The
 * emulated CPU").  Prints ns per 1 KiB copy for each idiom, and each one's ratio to
 * the 8-byte loop measured in the same run.
 *
 * Usage: copy_bench [COPIES]   (default 20000)
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define LEN 1024
#define SLOTS 1000

static _Alignas(64) uint8_t src[LEN];
static _Alignas(64) uint8_t dst[SLOTS * LEN];

static double now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e9 + t.tv_nsec;
}

static void copy_movsb(void *d, const void *s, size_t n)
{
	asm volatile("rep movsb" : "+D"(d), "+S"(s), "+c"(n) : : "memory");
}

static void copy_movsq(void *d, const void *s, size_t n)
{
	n /= 8;
	asm volatile("rep movsq" : "+D"(d), "+S"(s), "+c"(n) : : "memory");
}

/* Four 8-byte moves a step, as the kernel's memcpy_orig does. */
static void copy_loop(void *d, const void *s, size_t n)
{
	uint64_t *a = d;
	const uint64_t *b = s;
	size_t i;

	for (i = 0; i < n / 8; i += 4) {
		uint64_t w0 = b[i], w1 = b[i + 1], w2 = b[i + 2], w3 = b[i + 3];

		asm volatile("" : "+r"(w0), "+r"(w1), "+r"(w2), "+r"(w3));
		a[i] = w0;
		a[i + 1] = w1;
		a[i + 2] = w2;
		a[i + 3] = w3;
	}
}

static double per_copy(void (*copy)(void *, const void *, size_t), int n)
{
	double t = now_ns();
	int i;

	for (i = 0; i < n; i++) {
		copy(dst + (size_t)(i % SLOTS) * LEN, src, LEN);
		asm volatile("" : : "r"(dst) : "memory");
	}
	return (now_ns() - t) / n;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 20000;
	double loop, movsb, movsq;

	if (n <= 0) {
		fprintf(stderr, "usage: copy_bench [COPIES > 0]\n");
		return 2;
	}
	memset(src, 0x5a, sizeof(src));
	memset(dst, 0, sizeof(dst));
	loop = per_copy(copy_loop, n);
	movsb = per_copy(copy_movsb, n);
	movsq = per_copy(copy_movsq, n);
	printf("copy of 1 KiB, 8-byte loop (reference): %.0f ns\n", loop);
	printf("copy of 1 KiB, rep movsq: %.0f ns, %.2f x the loop\n", movsq,
	       movsq / loop);
	printf("copy of 1 KiB, rep movsb: %.0f ns, %.2f x the loop\n", movsb,
	       movsb / loop);
	return 0;
}
