/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Big-endian field access on unaligned wire buffers, for the parsers and
 * builders of the portable core.
 */
#ifndef CREM_CORE_BYTES_H
#define CREM_CORE_BYTES_H

#include "port.h"

static inline u16 crem_get16(const u8 *p)
{
	return (u16)(p[0] << 8 | p[1]);
}

static inline u32 crem_get24(const u8 *p)
{
	return (u32)p[0] << 16 | (u32)p[1] << 8 | p[2];
}

static inline u32 crem_get32(const u8 *p)
{
	return (u32)p[0] << 24 | crem_get24(p + 1);
}

static inline u64 crem_get64(const u8 *p)
{
	return (u64)crem_get32(p) << 32 | crem_get32(p + 4);
}

/* The ICRC is the one little-endian field RoCEv2 carries. */
static inline u32 crem_get_le32(const u8 *p)
{
	return (u32)p[0] | (u32)p[1] << 8 | (u32)p[2] << 16 | (u32)p[3] << 24;
}

static inline void crem_put16(u8 *p, u16 v)
{
	p[0] = v >> 8;
	p[1] = v & 0xff;
}

static inline void crem_put24(u8 *p, u32 v)
{
	p[0] = (v >> 16) & 0xff;
	p[1] = (v >> 8) & 0xff;
	p[2] = v & 0xff;
}

static inline void crem_put32(u8 *p, u32 v)
{
	p[0] = v >> 24;
	crem_put24(p + 1, v);
}

static inline void crem_put64(u8 *p, u64 v)
{
	crem_put32(p, v >> 32);
	crem_put32(p + 4, (u32)v);
}

#endif /* CREM_CORE_BYTES_H */
