// SPDX-License-Identifier: GPL-2.0
/* Userspace side of crem/core/port.h. */
#include "port.h"

unsigned long crem_port_warnings;

u32 crem_crc32_le(u32 crc, const u8 *p, size_t len)
{
	static u32 table[256];
	static bool ready;
	size_t i;

	if (!ready) {
		for (i = 0; i < 256; i++) {
			u32 c = (u32)i;
			int bit;

			for (bit = 0; bit < 8; bit++)
				c = c & 1 ? (c >> 1) ^ 0xedb88320u : c >> 1;
			table[i] = c;
		}
		ready = true;
	}
	for (i = 0; i < len; i++)
		crc = table[(crc ^ p[i]) & 0xff] ^ (crc >> 8);
	return crc;
}
