// SPDX-License-Identifier: GPL-2.0
#include "gf.h"

u8 crem_gf_exp[512];
u8 crem_gf_log[256];
u8 crem_gf_inv_table[256];
u8 crem_gf_mul_table[256][256];
_Alignas(64) u8 crem_gf_nibble_table[256][32];
_Alignas(64) u64 crem_gf_affine_table[256];

static u8 slow_mul(unsigned int a, unsigned int b)
{
	unsigned int r = 0;

	while (b) {
		if (b & 1)
			r ^= a;
		a <<= 1;
		if (a & 0x100)
			a ^= CREM_GF_POLY;
		b >>= 1;
	}
	return r;
}

static u64 affine_matrix(u8 c)
{
	u64 m = 0;
	unsigned int i, j;

	for (i = 0; i < 8; i++) {
		u8 row = 0;

		for (j = 0; j < 8; j++)
			if (slow_mul(c, 1u << j) & (1u << i))
				row |= 1u << j;
		m |= (u64)row << (8 * (7 - i));
	}
	return m;
}

void crem_gf_init(void)
{
	unsigned int i, a, b, x = 1;

	for (i = 0; i < 255; i++) {
		crem_gf_exp[i] = x;
		crem_gf_exp[i + 255] = x;
		crem_gf_log[x] = i;
		x = slow_mul(x, 2);
	}
	crem_gf_exp[510] = crem_gf_exp[0];
	crem_gf_exp[511] = crem_gf_exp[1];
	crem_gf_log[0] = 0;	/* undefined; never read for 0 */

	for (a = 0; a < 256; a++) {
		for (b = 0; b < 256; b++)
			crem_gf_mul_table[a][b] = (a && b) ?
				crem_gf_exp[crem_gf_log[a] + crem_gf_log[b]] : 0;
		crem_gf_inv_table[a] = a ? crem_gf_exp[255 - crem_gf_log[a]] : 0;
		for (b = 0; b < 16; b++) {
			crem_gf_nibble_table[a][b] = crem_gf_mul_table[a][b];
			crem_gf_nibble_table[a][16 + b] =
				crem_gf_mul_table[a][b << 4];
		}
		crem_gf_affine_table[a] = affine_matrix(a);
	}
}

int crem_gf_invert_matrix(u8 *a, u8 *inv, unsigned int n)
{
	unsigned int row, col, k;

	memset(inv, 0, n * n);
	for (row = 0; row < n; row++)
		inv[row * n + row] = 1;

	for (col = 0; col < n; col++) {
		u8 pivot, scale;

		/* Find a row with a nonzero pivot and swap it up. */
		for (row = col; row < n && !a[row * n + col]; row++)
			;
		if (row == n)
			return -1;
		if (row != col) {
			for (k = 0; k < n; k++) {
				u8 t = a[row * n + k];

				a[row * n + k] = a[col * n + k];
				a[col * n + k] = t;
				t = inv[row * n + k];
				inv[row * n + k] = inv[col * n + k];
				inv[col * n + k] = t;
			}
		}
		pivot = crem_gf_inv(a[col * n + col]);
		for (k = 0; k < n; k++) {
			a[col * n + k] = crem_gf_mul(a[col * n + k], pivot);
			inv[col * n + k] = crem_gf_mul(inv[col * n + k], pivot);
		}
		for (row = 0; row < n; row++) {
			if (row == col || !a[row * n + col])
				continue;
			scale = a[row * n + col];
			for (k = 0; k < n; k++) {
				a[row * n + k] ^= crem_gf_mul(scale, a[col * n + k]);
				inv[row * n + k] ^= crem_gf_mul(scale, inv[col * n + k]);
			}
		}
	}
	memcpy(a, inv, n * n);
	return 0;
}
