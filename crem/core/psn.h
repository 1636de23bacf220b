/* SPDX-License-Identifier: GPL-2.0 */
/*
 * 24-bit packet sequence number arithmetic.
 *
 * RoCEv2 PSNs and every PSN field of CREM are 24 bits wide and wrap modulo
 * 2^24.  All PSN comparisons in crem go through these helpers, so that a
 * wrap is handled in exactly one place.  "Before" and "after" follow serial
 * number arithmetic: a is before b when b lies in the half of the PSN space
 * that follows a.
 */
#ifndef CREM_CORE_PSN_H
#define CREM_CORE_PSN_H

#include "port.h"

#define CREM_PSN_BITS	24
#define CREM_PSN_MOD	(1u << CREM_PSN_BITS)
#define CREM_PSN_MASK	(CREM_PSN_MOD - 1)
/* Largest distance that still orders two PSNs unambiguously. */
#define CREM_PSN_HALF	(CREM_PSN_MOD / 2)

/**
 * crem_psn_add() - advance a PSN
 * @psn: a PSN (only the low 24 bits are used)
 * @n: how many positions to advance; may be negative
 *
 * Return: @psn + @n modulo 2^24.
 */
static inline u32 crem_psn_add(u32 psn, s32 n)
{
	return (psn + (u32)n) & CREM_PSN_MASK;
}

/**
 * crem_psn_diff() - signed distance between two PSNs
 * @a: a PSN
 * @b: a PSN
 *
 * Return: the d in [-2^23, 2^23) for which @b + d == @a modulo 2^24.
 */
static inline s32 crem_psn_diff(u32 a, u32 b)
{
	u32 d = (a - b) & CREM_PSN_MASK;

	return d >= CREM_PSN_HALF ? (s32)d - (s32)CREM_PSN_MOD : (s32)d;
}

/**
 * crem_psn_before() - serial-number order of two PSNs
 * @a: a PSN
 * @b: a PSN
 *
 * Return: true if @a comes strictly before @b.
 */
static inline bool crem_psn_before(u32 a, u32 b)
{
	return crem_psn_diff(a, b) < 0;
}

/**
 * crem_psn_after() - serial-number order of two PSNs
 * @a: a PSN
 * @b: a PSN
 *
 * Return: true if @a comes strictly after @b.
 */
static inline bool crem_psn_after(u32 a, u32 b)
{
	return crem_psn_diff(a, b) > 0;
}

/**
 * crem_psn_offset() - position of a PSN inside a range that may wrap
 * @psn: the PSN to place
 * @start: first PSN of the range
 *
 * Return: (@psn - @start) modulo 2^24, in [0, 2^24).
 */
static inline u32 crem_psn_offset(u32 psn, u32 start)
{
	return (psn - start) & CREM_PSN_MASK;
}

/**
 * crem_psn_in_range() - membership of a PSN in a range that may wrap
 * @psn: the PSN to test
 * @start: first PSN of the range
 * @count: number of PSNs in the range, at most 2^24
 *
 * Return: true if @psn is one of @start .. @start + @count - 1 (mod 2^24).
 */
static inline bool crem_psn_in_range(u32 psn, u32 start, u32 count)
{
	return crem_psn_offset(psn, start) < count;
}

#endif /* CREM_CORE_PSN_H */
