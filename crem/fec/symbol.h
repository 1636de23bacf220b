/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Source symbols: S = uint16(len(P)) || P || zero padding to T octets,
 * where P is the packet's UDP payload (for RoCEv2, from the BTH through the
 * ICRC).  The length prefix lets the receiver restore P exactly.
 */
#ifndef CREM_FEC_SYMBOL_H
#define CREM_FEC_SYMBOL_H

#include "../core/port.h"

/* Largest payload a symbol can carry: the prefix is 16 bits. */
#define CREM_SYMBOL_MAX_PAYLOAD 0xffff

/* Symbol buffers are padded to this, so coding never takes a scalar tail. */
#define CREM_SYMBOL_ALIGN 64

/* Bytes of a buffer for symbols of length @symbol_len (zero beyond it). */
static inline size_t crem_symbol_stride(size_t symbol_len)
{
	return (symbol_len + CREM_SYMBOL_ALIGN - 1) &
	       ~(size_t)(CREM_SYMBOL_ALIGN - 1);
}

/**
 * crem_symbol_from_packet() - build a source symbol
 * @sym: T bytes of output
 * @T: symbol length
 * @payload: the packet's UDP payload
 * @len: its length
 *
 * Return: 0, or -EINVAL if @len + 2 > @T or @len > CREM_SYMBOL_MAX_PAYLOAD.
 */
int crem_symbol_from_packet(u8 *sym, size_t T, const u8 *payload, size_t len);

/**
 * crem_symbol_to_packet() - find the payload inside a source symbol
 * @sym: T bytes
 * @T: symbol length
 * @len: set to the payload's length, which starts at @sym + 2
 *
 * The exact inverse of crem_symbol_from_packet().  A recovered symbol is
 * untrusted: its prefix is checked against T.
 *
 * Return: 0, or -EBADMSG if the prefix exceeds T - 2 (or T < 2).
 */
int crem_symbol_to_packet(const u8 *sym, size_t T, size_t *len);

#endif /* CREM_FEC_SYMBOL_H */
