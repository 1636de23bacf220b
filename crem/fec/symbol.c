// SPDX-License-Identifier: GPL-2.0
#include "symbol.h"

int crem_symbol_from_packet(u8 *sym, size_t T, const u8 *payload, size_t len)
{
	if (len > CREM_SYMBOL_MAX_PAYLOAD || T < 2 || len > T - 2)
		return -EINVAL;
	sym[0] = len >> 8;
	sym[1] = len & 0xff;
	memcpy(sym + 2, payload, len);
	memset(sym + 2 + len, 0, T - 2 - len);
	return 0;
}

int crem_symbol_to_packet(const u8 *sym, size_t T, size_t *len)
{
	size_t n;

	if (T < 2)
		return -EBADMSG;
	n = (size_t)sym[0] << 8 | sym[1];
	if (n > T - 2)
		return -EBADMSG;
	*len = n;
	return 0;
}
