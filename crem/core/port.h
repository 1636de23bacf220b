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
#include <linux/types.h>
#include <linux/string.h>
#include <linux/stddef.h>
#else
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int8_t s8;
typedef int16_t s16;
typedef int32_t s32;
typedef int64_t s64;

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#endif
#endif /* __KERNEL__ */

#endif /* CREM_CORE_PORT_H */
