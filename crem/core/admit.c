// SPDX-License-Identifier: GPL-2.0
/*
 * Rate limits by peer address (see admit.h).
 */
#include <linux/crem.h>

#include "admit.h"
#include "bytes.h"

bool crem_rate_take(u64 *tat, const struct crem_rate *rate, u64 now_ns)
{
	u64 t = *tat > now_ns ? *tat : now_ns;

	if (!rate->burst ||
	    t - now_ns > (u64)(rate->burst - 1) * rate->interval_ns)
		return false;
	*tat = t + rate->interval_ns;
	return true;
}

void crem_admit_init(struct crem_admit *a, u64 key, unsigned int v6_prefix)
{
	memset(a, 0, sizeof(*a));
	a->key = key;
	a->v6_octets = v6_prefix >= 128 ? 16 : v6_prefix / 8;
}

/*
 * A keyed mix of the address (multiply and xor-shift per 64-bit word, the
 * finaliser of MurmurHash3): not a cryptographic hash, but with the key
 * unknown a sender cannot tell which addresses share a slot.
 */
static unsigned int slot_of(const struct crem_admit *a, u8 af,
			    const u8 *addr)
{
	unsigned int i, n = af == CREM_AF_INET6 ? a->v6_octets : 16;
	u8 counted[16] = { 0 };
	u64 h = a->key ^ af;

	memcpy(counted, addr, n);
	for (i = 0; i < 16; i += 8) {
		h ^= crem_get64(counted + i);
		h *= 0xff51afd7ed558ccdull;
		h ^= h >> 33;
		h *= 0xc4ceb9fe1a85ec53ull;
		h ^= h >> 33;
	}
	return h % CREM_ADMIT_SLOTS;
}

bool crem_admit(struct crem_admit *a, const struct crem_rate *rate, u8 af,
		const u8 *addr, u64 now_ns)
{
	return crem_rate_take(&a->tat[slot_of(a, af, addr)], rate, now_ns);
}
