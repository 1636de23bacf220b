/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A small libmnl helper for talking to the crem generic netlink family.
 */
#ifndef CREMCTL_NL_H
#define CREMCTL_NL_H

#include <stdint.h>

#include <libmnl/libmnl.h>

struct crem_nl {
	struct mnl_socket *sock;
	unsigned int portid;
	unsigned int seq;
	uint16_t family_id;
	uint32_t events_group;	/* the "events" multicast group, or 0 */
	char *buf;		/* CREMCTL_NL_BUF bytes (nl.c) */
};

/*
 * Open a socket and resolve the "crem" family.  Returns 0, -ENOENT when the
 * module is not loaded, or another negative errno.
 */
int crem_nl_open(struct crem_nl *nl);
void crem_nl_close(struct crem_nl *nl);

/* Start a request for @cmd in nl->buf. */
struct nlmsghdr *crem_nl_request(struct crem_nl *nl, uint8_t cmd,
				 uint16_t flags);

/*
 * Send @nlh and run @cb on every reply until the final ACK or DONE.
 * Returns 0 or a negative errno; the kernel's extack message, if any, is
 * copied into @why (NUL-terminated, may be empty).
 */
int crem_nl_talk(struct crem_nl *nl, struct nlmsghdr *nlh, mnl_cb_t cb,
		 void *data, char *why, size_t why_len);

/* Join the events group; then read with crem_nl_listen().  0 or -errno. */
int crem_nl_join_events(struct crem_nl *nl);

/* Wait for notifications and run @cb on each; returns -errno on error. */
int crem_nl_listen(struct crem_nl *nl, mnl_cb_t cb, void *data);

#endif /* CREMCTL_NL_H */
