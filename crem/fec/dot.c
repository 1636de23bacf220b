// SPDX-License-Identifier: GPL-2.0
#include "dot.h"
#include "gf.h"

/* Source bytes coded per claim of the vector registers. */
#define DOT_SECTION_BYTES (64 * 1024)

static enum crem_simd_isa crem_gf_active = CREM_SIMD_SCALAR;
/* Its speed as crem_gf_select_fastest() measured it; 0: not measured. */
static u32 crem_gf_active_mbs;

static const char *const isa_names[CREM_SIMD_NR_ISA] = {
	"scalar", "ssse3", "avx2", "gfni-avx2", "avx512bw", "gfni-avx512",
};

const char *crem_gf_isa_name(enum crem_simd_isa isa)
{
	return isa < CREM_SIMD_NR_ISA ? isa_names[isa] : "unknown";
}

bool crem_gf_isa_available(enum crem_simd_isa isa)
{
	if (isa == CREM_SIMD_SCALAR)
		return true;
	return isa < CREM_SIMD_NR_ISA && crem_gf_arch_kernels(isa) &&
	       crem_simd_cpu_supports(isa);
}

enum crem_simd_isa crem_gf_isa(void)
{
	return crem_gf_active;
}

u32 crem_gf_isa_mbs(void)
{
	return crem_gf_active_mbs;
}

int crem_gf_set_isa(enum crem_simd_isa isa)
{
	if (!crem_gf_isa_available(isa))
		return -EOPNOTSUPP;
	crem_gf_active = isa;
	crem_gf_active_mbs = 0;
	return 0;
}

/* The reference: one 256-byte row of the multiplication table per term. */
static void dot_scalar(unsigned int m, const struct crem_gf_dot_args *a,
		       size_t start, size_t end)
{
	unsigned int r, j;
	size_t b;

	for (r = 0; r < m; r++) {
		u8 *d = a->dst[r];

		if (!a->accumulate)
			memset(d + start, 0, end - start);
		for (j = 0; j < a->nsrc; j++) {
			const u8 *row = crem_gf_mul_table[a->coefs[j * a->stride + r]];
			const u8 *s = a->src[j];

			for (b = start; b < end; b++)
				d[b] ^= row[s[b]];
		}
	}
}

/* Rows in groups of DOT_MAX_ROWS, each group one pass over the sources. */
static void dot_simd(const struct crem_gf_kernels *k, unsigned int m,
		     const struct crem_gf_dot_args *a)
{
	struct crem_gf_dot_args group = *a;
	unsigned int row, rows;

	for (row = 0; row < m; row += rows) {
		rows = m - row < DOT_MAX_ROWS ? m - row : DOT_MAX_ROWS;
		group.dst = a->dst + row;
		group.coefs = a->coefs + row;
		if (a->nsrc == 1 && a->accumulate)
			k->mad[rows - 1](&group);
		else
			k->fn[rows - 1](&group);
	}
}

static bool overlaps(const u8 *a, const u8 *b, size_t len)
{
	return a < b + len && b < a + len;
}

static bool args_valid(unsigned int m, const struct crem_gf_dot_args *a)
{
	unsigned int r, j;

	for (r = 0; r < m; r++)
		for (j = 0; j < a->nsrc; j++)
			if (overlaps(a->dst[r], a->src[j], a->end))
				return false;
	return true;
}

static void dot(enum crem_simd_isa isa, bool held, unsigned int m,
		unsigned int nsrc, size_t len, const u8 *coefs,
		const u8 *const *src, u8 *const *dst, bool accumulate)
{
	const struct crem_gf_dot_args a = {
		.src = src, .dst = dst, .coefs = coefs, .nsrc = nsrc,
		.stride = m, .start = 0, .end = len, .accumulate = accumulate,
	};
	const struct crem_gf_kernels *k = NULL;
	size_t simd_end = 0, section, pos;

	if (!m || !len || CREM_WARN_ON_ONCE(!args_valid(m, &a)))
		return;
	if (isa != CREM_SIMD_SCALAR && nsrc)
		k = crem_gf_arch_kernels(isa);
	if (k) {
		struct crem_gf_dot_args part = a;

		simd_end = len - len % k->width;
		/* Whole pairs of stripes, about DOT_SECTION_BYTES of input. */
		section = DOT_SECTION_BYTES / nsrc;
		section -= section % (2 * k->width);
		if (held || section < 2 * k->width)
			section = held ? simd_end : 2 * k->width;
		for (pos = 0; pos < simd_end; pos += section) {
			part.start = pos;
			part.end = simd_end - pos < section ? simd_end : pos + section;
			if (!held && !crem_simd_begin()) {
				simd_end = pos;
				break;
			}
			dot_simd(k, m, &part);
			if (!held)
				crem_simd_end();
		}
	}
	if (simd_end < len)
		dot_scalar(m, &a, simd_end, len);
}

/*
 * One small product on @isa and on the scalar code, which must agree: a
 * stripe pair, a single stripe and a tail; a source pair and a lone
 * source; both modes.  It runs wherever crem starts, so a coder that
 * misbehaves on this machine or kernel is never chosen.  Its buffers stay
 * under 1.5 KiB of stack.
 */
static bool self_test(enum crem_simd_isa isa)
{
	enum { LEN = 128 + 64 + 5, ROWS = 2, SRCS = 3 };
	u8 in[SRCS][LEN], want[ROWS][LEN], got[ROWS][LEN], coefs[SRCS * ROWS];
	const u8 *src[SRCS] = { in[0], in[1], in[2] };
	u8 *w[ROWS] = { want[0], want[1] };
	u8 *g[ROWS] = { got[0], got[1] };
	unsigned int i, pass;
	u32 x = 0x2545f491;

	for (i = 0; i < sizeof(in); i++) {
		x = x * 1103515245 + 12345;
		((u8 *)in)[i] = x >> 16;
	}
	for (i = 0; i < sizeof(coefs); i++)
		coefs[i] = (u8)(i * 37 + 1);
	for (pass = 0; pass < 2; pass++) {
		if (!pass) {
			memset(want, 0x11, sizeof(want));
			memset(got, 0x11, sizeof(got));
		}
		dot(CREM_SIMD_SCALAR, false, ROWS, SRCS, LEN, coefs, src, w, pass);
		dot(isa, false, ROWS, SRCS, LEN, coefs, src, g, pass);
		if (memcmp(want, got, sizeof(want)))
			return false;
	}
	return true;
}

void crem_gf_select_best(void)
{
	int isa;

	for (isa = CREM_SIMD_NR_ISA - 1; isa > CREM_SIMD_SCALAR; isa--)
		if (crem_gf_isa_available(isa) && !CREM_WARN_ON_ONCE(!self_test(isa)))
			break;
	crem_gf_active = isa;
	crem_gf_active_mbs = 0;
}

u32 crem_gf_measure(enum crem_simd_isa isa, u8 *buf, u64 (*now_ns)(void),
		    u64 budget_ns)
{
	static const u8 coefs[CREM_GF_MEASURE_SRCS * CREM_GF_MEASURE_ROWS] = {
		0x8e, 0x47, 0xad, 0xd8, 0x6c, 0x36, 0x1b, 0x83,
	};
	const u8 *src[CREM_GF_MEASURE_SRCS];
	u8 *dst[CREM_GF_MEASURE_ROWS];
	u64 start, elapsed, bytes = 0, mbs;
	unsigned int j;

	if (!crem_gf_isa_available(isa))
		return 0;
	for (j = 0; j < CREM_GF_MEASURE_SRCS * CREM_GF_MEASURE_LEN; j++)
		buf[j] = (u8)(j * 131 + (j >> 8));
	for (j = 0; j < CREM_GF_MEASURE_SRCS; j++)
		src[j] = buf + j * CREM_GF_MEASURE_LEN;
	for (j = 0; j < CREM_GF_MEASURE_ROWS; j++)
		dst[j] = buf + (CREM_GF_MEASURE_SRCS + j) * CREM_GF_MEASURE_LEN;
	/*
	 * Once untimed, the very call that is timed: a binary translator's
	 * first pass over code is not its speed.
	 */
	dot(isa, false, CREM_GF_MEASURE_ROWS, CREM_GF_MEASURE_SRCS,
	    CREM_GF_MEASURE_LEN, coefs, src, dst, true);
	start = now_ns();
	do {
		dot(isa, false, CREM_GF_MEASURE_ROWS, CREM_GF_MEASURE_SRCS,
		    CREM_GF_MEASURE_LEN, coefs, src, dst, true);
		bytes += CREM_GF_MEASURE_SRCS * CREM_GF_MEASURE_LEN;
		elapsed = now_ns() - start;
	} while (elapsed < budget_ns);
	mbs = crem_div64(bytes * 1000, elapsed ? elapsed : 1);
	return mbs > 0xffffffffull ? 0xffffffffu : (u32)mbs;
}

/*
 * Rounds of measurement, each coder once a round: a coder's speed is its
 * best round, so that an interrupt or a busy host in one short window
 * does not decide.
 */
#define SELECT_ROUNDS 3

enum crem_simd_isa crem_gf_select_fastest(u8 *buf, u64 (*now_ns)(void),
					  u64 budget_ns,
					  u32 mbs[CREM_SIMD_NR_ISA])
{
	enum crem_simd_isa isa, best = CREM_SIMD_SCALAR;
	bool usable[CREM_SIMD_NR_ISA];
	unsigned int round;
	u32 speed;

	for (isa = CREM_SIMD_SCALAR; isa < CREM_SIMD_NR_ISA; isa++) {
		usable[isa] = crem_gf_isa_available(isa) &&
			      (isa == CREM_SIMD_SCALAR ||
			       !CREM_WARN_ON_ONCE(!self_test(isa)));
		mbs[isa] = 0;
	}
	for (round = 0; round < SELECT_ROUNDS; round++) {
		for (isa = CREM_SIMD_SCALAR; isa < CREM_SIMD_NR_ISA; isa++) {
			if (!usable[isa])
				continue;
			speed = crem_gf_measure(isa, buf, now_ns, budget_ns);
			if (speed > mbs[isa])
				mbs[isa] = speed;
		}
	}
	for (isa = CREM_SIMD_SCALAR; isa < CREM_SIMD_NR_ISA; isa++)
		if (mbs[isa] > mbs[best])
			best = isa;
	crem_gf_active = best;
	crem_gf_active_mbs = mbs[best];
	return best;
}

void crem_gf_dot(unsigned int m, unsigned int nsrc, size_t len,
		 const u8 *coefs, const u8 *const *src, u8 *const *dst,
		 bool accumulate)
{
	dot(crem_gf_active, false, m, nsrc, len, coefs, src, dst, accumulate);
}

void crem_gf_dot_isa(enum crem_simd_isa isa, unsigned int m,
		     unsigned int nsrc, size_t len, const u8 *coefs,
		     const u8 *const *src, u8 *const *dst, bool accumulate)
{
	if (CREM_WARN_ON_ONCE(!crem_gf_isa_available(isa)))
		isa = CREM_SIMD_SCALAR;
	dot(isa, false, m, nsrc, len, coefs, src, dst, accumulate);
}

void crem_gf_dot_held(unsigned int m, unsigned int nsrc, size_t len,
		      const u8 *coefs, const u8 *const *src, u8 *const *dst,
		      bool accumulate)
{
	dot(crem_gf_active, true, m, nsrc, len, coefs, src, dst, accumulate);
}
