// SPDX-License-Identifier: GPL-2.0
/*
 * fec_bench: crem's coders against ISA-L, side by side in one process.
 *
 * k = 32 sources of T = 4096 bytes.  For each test both libraries code the
 * same data with the same Cauchy coefficient matrix (C(i, j) of scheme 1);
 * their outputs are compared byte for byte before anything is timed.  The
 * figures are GB/s of source data on one core, the median of RUNS runs,
 * with crem and ISA-L interleaved so that both see the same machine.
 *
 *   encode m hot    one block, cache-resident
 *   encode m cold   blocks cycled over 64 MiB
 *   decode u        u of k sources lost, u ordinary repairs held;
 *                   crem inverts the u x u submatrix and makes one pass,
 *                   ISA-L as in its examples inverts the k x k matrix,
 *                   builds tables and encodes; matrix time included
 *   stream m        per-packet update of m repairs as sources arrive
 *                   (ISA-L: ec_encode_data_update)
 *
 * ISA-L is a reference here only; crem.ko and cremctl never link it.
 * Usage: fec_bench [RUNS]   (default 7)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <isa-l/erasure_code.h>

#include "crem/fec/fec.h"

#define K 32
#define T 4096
#define BLOCK (K * T)
#define COLD_BYTES (64u << 20)
#define COLD_BLOCKS (COLD_BYTES / BLOCK)
#define MAX_M 8
#define MIN_SECONDS 0.15

struct bench {
	u8 *cold_src;			/* COLD_BLOCKS blocks of K symbols */
	u8 *cold_out;			/* COLD_BLOCKS x MAX_M repairs */
	u8 *hot_out_crem[MAX_M], *hot_out_isal[MAX_M];
	u8 *recovered[MAX_M];
	struct crem_fec_work *work;
	u8 isal_tables[32 * K * MAX_M];
	u8 matrix[MAX_M * K];
};

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void *xalloc(size_t n)
{
	void *p = aligned_alloc(64, (n + 63) / 64 * 64);

	if (!p) {
		perror("fec_bench");
		exit(1);
	}
	return p;
}

static void sources_of(struct bench *b, unsigned int block, u8 **src)
{
	unsigned int j;

	for (j = 0; j < K; j++)
		src[j] = b->cold_src + (size_t)block * BLOCK + (size_t)j * T;
}

static void cauchy_matrix(u8 *a, unsigned int m)
{
	unsigned int r, j;

	/* ISA-L wants rows of coefficients: a[r * K + j] = C(r, j). */
	for (r = 0; r < m; r++)
		for (j = 0; j < K; j++)
			a[r * K + j] = crem_crs_coef(r, j);
}

/* One timed measurement: calls fn(arg, i) until MIN_SECONDS pass. */
typedef void (*bench_fn)(struct bench *b, unsigned int m, unsigned int i);

static double measure(bench_fn fn, struct bench *b, unsigned int m,
		      size_t bytes_per_call)
{
	unsigned int i = 0, calls = 0;
	double start = now(), t;

	fn(b, m, i++);			/* warm */
	start = now();
	do {
		fn(b, m, i++);
		calls++;
		t = now() - start;
	} while (t < MIN_SECONDS);
	return (double)bytes_per_call * calls / t / 1e9;
}

static struct crem_fec_set all_positions(void)
{
	struct crem_fec_set s;
	unsigned int j;

	crem_set_clear(&s);
	for (j = 0; j < K; j++)
		crem_set_add(&s, j);
	return s;
}

static void crem_encode_block(struct bench *b, unsigned int m,
			      unsigned int block, u8 *const *out)
{
	static const u8 idx[MAX_M] = { 0, 1, 2, 3, 4, 5, 6, 7 };
	struct crem_fec_set present = all_positions();
	u8 *src[K];

	sources_of(b, block, src);
	crem_crs_encode(K, &present, (const u8 *const *)src, T, idx, m, out,
			b->work);
}

static void isal_encode_block(struct bench *b, unsigned int m,
			      unsigned int block, u8 **out)
{
	u8 *src[K];

	sources_of(b, block, src);
	ec_encode_data(T, K, m, b->isal_tables, src, out);
}

static void cold_outputs(struct bench *b, unsigned int block, u8 **out)
{
	unsigned int r;

	for (r = 0; r < MAX_M; r++)
		out[r] = b->cold_out + ((size_t)block * MAX_M + r) * T;
}

static void crem_hot(struct bench *b, unsigned int m, unsigned int i)
{
	crem_encode_block(b, m, 0, b->hot_out_crem);
}

static void isal_hot(struct bench *b, unsigned int m, unsigned int i)
{
	isal_encode_block(b, m, 0, b->hot_out_isal);
}

static void crem_cold(struct bench *b, unsigned int m, unsigned int i)
{
	u8 *out[MAX_M];

	cold_outputs(b, i % COLD_BLOCKS, out);
	crem_encode_block(b, m, i % COLD_BLOCKS, out);
}

static void isal_cold(struct bench *b, unsigned int m, unsigned int i)
{
	u8 *out[MAX_M];

	cold_outputs(b, i % COLD_BLOCKS, out);
	isal_encode_block(b, m, i % COLD_BLOCKS, out);
}

/* Decode: the first u sources of block 0 are lost; repairs 0..u-1 held. */
static void crem_decode(struct bench *b, unsigned int u, unsigned int i)
{
	struct crem_fec_set present = all_positions(), held = present;
	struct crem_fec_repair rep[MAX_M];
	u8 *io[K];
	unsigned int j;

	sources_of(b, 0, io);
	for (j = 0; j < u; j++) {
		crem_set_del(&held, j);
		io[j] = b->recovered[j];
		rep[j] = (struct crem_fec_repair){
			.index = j, .lset = present, .symbol = b->hot_out_isal[j],
		};
	}
	if (crem_crs_decode(K, &present, &held, io, T, rep, u, b->work)) {
		fprintf(stderr, "fec_bench: crem decode failed\n");
		exit(1);
	}
}

static void isal_decode(struct bench *b, unsigned int u, unsigned int i)
{
	u8 encode[(K + MAX_M) * K], survivors[K * K], inverse[K * K];
	u8 decode[MAX_M * K], tables[32 * K * MAX_M];
	u8 *in[K], *src[K];
	unsigned int r, j, row = 0;

	/* The systematic generator: identity over the Cauchy rows. */
	memset(encode, 0, K * K);
	for (j = 0; j < K; j++)
		encode[j * K + j] = 1;
	cauchy_matrix(encode + K * K, u);
	sources_of(b, 0, src);
	for (j = u; j < K; j++) {		/* surviving sources */
		memcpy(survivors + row * K, encode + j * K, K);
		in[row++] = src[j];
	}
	for (r = 0; r < u; r++) {		/* then the repairs */
		memcpy(survivors + row * K, encode + (K + r) * K, K);
		in[row++] = b->hot_out_isal[r];
	}
	if (gf_invert_matrix(survivors, inverse, K)) {
		fprintf(stderr, "fec_bench: ISA-L inversion failed\n");
		exit(1);
	}
	for (r = 0; r < u; r++)			/* lost source r */
		memcpy(decode + r * K, inverse + r * K, K);
	ec_init_tables(K, u, decode, tables);
	ec_encode_data(T, K, u, tables, in, b->recovered);
}

/* Streaming: add one source per call; a block's worth restarts. */
static struct crem_crs_stream stream;

static void crem_stream(struct bench *b, unsigned int m, unsigned int i)
{
	unsigned int pos = i % K;
	u8 *src[K];

	if (!pos)
		crem_crs_stream_start(&stream, K, m, T, b->hot_out_crem);
	sources_of(b, 0, src);
	crem_crs_stream_add(&stream, 1, &pos, (const u8 *const *)&src[pos]);
}

static void isal_stream(struct bench *b, unsigned int m, unsigned int i)
{
	unsigned int pos = i % K, r;
	u8 *src[K];

	if (!pos)
		for (r = 0; r < m; r++)
			memset(b->hot_out_isal[r], 0, T);
	sources_of(b, 0, src);
	ec_encode_data_update(T, K, m, pos, b->isal_tables, src[pos],
			      b->hot_out_isal);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static void verify(const char *what, u8 *const *a, u8 *const *b,
		   unsigned int n)
{
	unsigned int r;

	for (r = 0; r < n; r++)
		if (memcmp(a[r], b[r], T)) {
			fprintf(stderr, "fec_bench: %s: crem and ISA-L differ in output %u\n",
				what, r);
			exit(1);
		}
}

static void row(const char *name, struct bench *b, unsigned int m,
		size_t bytes, bench_fn crem, bench_fn isal, int runs)
{
	double c[32], s[32], rc, rs;
	int i;

	for (i = 0; i < runs; i++) {
		c[i] = measure(crem, b, m, bytes);
		s[i] = measure(isal, b, m, bytes);
	}
	qsort(c, runs, sizeof(c[0]), cmp_double);
	qsort(s, runs, sizeof(s[0]), cmp_double);
	rc = c[runs / 2];
	rs = s[runs / 2];
	printf("  %-22s %8.2f %8.2f %7.2fx\n", name, rc, rs, rc / rs);
	fflush(stdout);
}

static void prepare_isal(struct bench *b, unsigned int m)
{
	cauchy_matrix(b->matrix, m);
	ec_init_tables(K, m, b->matrix, b->isal_tables);
}

int main(int argc, char **argv)
{
	static const unsigned int ms[] = { 1, 4, 8 };
	struct bench *b = calloc(1, sizeof(*b));
	int runs = argc > 1 ? atoi(argv[1]) : 7;
	unsigned int i, r, isa;
	char name[64];
	u8 *lost[MAX_M];

	if (!b || runs < 1 || runs > 32) {
		fprintf(stderr, "usage: fec_bench [RUNS (1..32)]\n");
		return 2;
	}
	crem_fec_init();
	b->work = xalloc(sizeof(*b->work));
	b->cold_src = xalloc(COLD_BYTES);
	b->cold_out = xalloc((size_t)COLD_BLOCKS * MAX_M * T);
	for (i = 0; i < COLD_BYTES; i++)
		b->cold_src[i] = (u8)(i * 2654435761u >> 13);
	memset(b->cold_out, 0, (size_t)COLD_BLOCKS * MAX_M * T);
	for (r = 0; r < MAX_M; r++) {
		b->hot_out_crem[r] = xalloc(T);
		b->hot_out_isal[r] = xalloc(T);
		b->recovered[r] = xalloc(T);
	}

	/* Same bytes first: encode, decode and the streaming update. */
	for (i = 0; i < 3; i++) {
		prepare_isal(b, ms[i]);
		crem_hot(b, ms[i], 0);
		isal_hot(b, ms[i], 0);
		verify("encode", b->hot_out_crem, b->hot_out_isal, ms[i]);
	}
	sources_of(b, 0, lost);
	for (i = 0; i < 3; i++) {
		isal_decode(b, ms[i], 0);
		verify("ISA-L decode", b->recovered, lost, ms[i]);
		memset(b->recovered[0], 0, T);
		crem_decode(b, ms[i], 0);
		verify("crem decode", b->recovered, lost, ms[i]);
	}
	prepare_isal(b, 4);
	for (i = 0; i < K; i++) {
		crem_stream(b, 4, i);
		isal_stream(b, 4, i);
	}
	verify("stream", b->hot_out_crem, b->hot_out_isal, 4);

	printf("crem FEC benchmark: k=%d, T=%d, GB/s of source data per core, median of %d runs\n",
	       K, T, runs);
	printf("crem coder: %s; reference: ISA-L ec_encode_data (libisal 2.30), same Cauchy matrix; bytes verified equal\n",
	       crem_gf_isa_name(crem_gf_isa()));
	printf("  %-22s %8s %8s %8s\n", "test", "crem", "ISA-L", "ratio");
	for (i = 0; i < 3; i++) {
		prepare_isal(b, ms[i]);
		snprintf(name, sizeof(name), "encode m=%u hot", ms[i]);
		row(name, b, ms[i], BLOCK, crem_hot, isal_hot, runs);
		snprintf(name, sizeof(name), "encode m=%u cold", ms[i]);
		row(name, b, ms[i], BLOCK, crem_cold, isal_cold, runs);
	}
	prepare_isal(b, MAX_M);
	isal_hot(b, MAX_M, 0);
	for (i = 0; i < 3; i++) {
		snprintf(name, sizeof(name), "decode u=%u of %d", ms[i], K);
		row(name, b, ms[i], BLOCK, crem_decode, isal_decode, runs);
	}
	for (i = 0; i < 3; i++) {
		prepare_isal(b, ms[i]);
		snprintf(name, sizeof(name), "stream update m=%u", ms[i]);
		row(name, b, ms[i], T, crem_stream, isal_stream, runs);
	}

	printf("crem's coders, encode m=4 hot, GB/s:");
	prepare_isal(b, 4);
	for (isa = CREM_SIMD_SCALAR; isa < CREM_SIMD_NR_ISA; isa++) {
		double c[32];

		if (crem_gf_set_isa(isa))
			continue;
		for (i = 0; i < (unsigned int)runs; i++)
			c[i] = measure(crem_hot, b, 4, BLOCK);
		qsort(c, runs, sizeof(c[0]), cmp_double);
		printf(" %s %.2f", crem_gf_isa_name(isa), c[runs / 2]);
	}
	printf("\n");
	return 0;
}
