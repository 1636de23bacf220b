/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Everything that differs between the kernel series crem supports.
 *
 * crem builds against Debian 12's two kernel series, 6.1 (linux-image-amd64)
 * and 6.12 (bookworm-backports).  Each difference is bridged here, once,
 * with a crem_ helper; no other file tests LINUX_VERSION_CODE.
 */
#ifndef CREM_COMPAT_H
#define CREM_COMPAT_H

#include <linux/version.h>

#if KERNEL_VERSION(6, 1, 0) > LINUX_VERSION_CODE
#error "crem needs Linux 6.1 or later"
#endif

#endif /* CREM_COMPAT_H */
