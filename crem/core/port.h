/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The portable core's view of its platform.
 *
 * Every file of the portable core (crem/core/, crem/fec/) includes this
 * header and nothing from the kernel or the C library directly, so that the
 * same sources build into crem.ko and into libcremcore.a for userspace tests,
 * fuzzers and benchmarks.  This is the only file of the core that looks at
 * __KERNEL__.
 */
#ifndef CREM_CORE_PORT_H
#define CREM_CORE_PORT_H

#ifdef __KERNEL__
#include <linux/bitops.h>
#include <linux/bug.h>
#include <linux/crc32.h>
#include <linux/errno.h>
#include <linux/math64.h>
#include <linux/stddef.h>
#include <linux/string.h>
#include <linux/types.h>

#define CREM_WARN_ON_ONCE(cond) WARN_ON_ONCE(cond)
#define crem_popcount64(x) hweight64(x)
#define crem_crc32_le(crc, p, len) crc32_le(crc, p, len)
#define crem_div64(a, b) div64_u64(a, b)
#else
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/*
 * A broken rule of the core's interfaces (a context or argument contract):
 * WARN_ON_ONCE() in the kernel; here a message and a count that tests can
 * assert to be zero.
 */
extern unsigned long crem_port_warnings;
#define CREM_WARN_ON_ONCE(cond) ({					\
	bool __cond = !!(cond);						\
	static bool __warned;						\
	if (__cond) {							\
		crem_port_warnings++;					\
		if (!__warned) {					\
			__warned = true;				\
			fprintf(stderr, "crem: WARNING at %s:%d: %s\n",	\
				__FILE__, __LINE__, #cond);		\
		}							\
	}								\
	__cond;								\
})

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int8_t s8;
typedef int16_t s16;
typedef int32_t s32;
typedef int64_t s64;

#define crem_popcount64(x) __builtin_popcountll(x)

/*
 * CRC-32 (reflected, polynomial 0xEDB88320) without the initial or final
 * inversion, the kernel's crc32_le(): the caller seeds and inverts.
 */
u32 crem_crc32_le(u32 crc, const u8 *p, size_t len);

#define crem_div64(a, b) ((u64)(a) / (u64)(b))

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#endif
#endif /* __KERNEL__ */

#endif /* CREM_CORE_PORT_H */
