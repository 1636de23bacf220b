/* SPDX-License-Identifier: GPL-2.0 */
#ifndef CREM_CORE_VERSION_H
#define CREM_CORE_VERSION_H

/* Version of crem, reported by the module and by cremctl. */
#define CREM_VERSION "0.1.0"

#endif /* CREM_CORE_VERSION_H */
