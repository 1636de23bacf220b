/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a namespace's sender flows measured of each path, for the next flows
 * to the same peer (path.c).
 */
#ifndef CREM_PATH_H
#define CREM_PATH_H

#include <linux/spinlock.h>
#include <linux/types.h>

#include "core/policy.h"

/* Paths remembered per namespace: a gateway or host has few peers. */
#define CREM_NET_PATHS 64

/**
 * struct crem_path - one peer's latest estimate
 * @af: CREM_AF_INET or CREM_AF_INET6; 0 if the entry is free
 * @peer: the CREM peer's address (IPv4 in the first four bytes)
 * @est: the estimate
 * @stamp: jiffies when it was noted
 */
struct crem_path {
	u8 af;
	u8 peer[16];
	struct crem_path_estimate est;
	unsigned long stamp;
};

/**
 * struct crem_paths - a namespace's paths
 * @lock: guards @slot; taken after a flow's lock, never before, and
 *	nothing is taken under it
 * @slot: by a hash of the peer; a newer peer takes its slot over
 */
struct crem_paths {
	spinlock_t lock;
	struct crem_path slot[CREM_NET_PATHS];
};

void crem_paths_init(struct crem_paths *paths);
void crem_path_note(struct crem_paths *paths, u8 af, const u8 *peer,
		    const struct crem_path_estimate *est);
bool crem_path_recall(struct crem_paths *paths, u8 af, const u8 *peer,
		      struct crem_path_estimate *est);

#endif /* CREM_PATH_H */
