/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The netfilter hooks of a namespace (see hooks.c).
 */
#ifndef CREM_HOOKS_H
#define CREM_HOOKS_H

struct crem_net;

int crem_hooks_init(void);
void crem_hooks_exit(void);

/* Context: process, under cfg_mutex.  Return: 0 or -errno. */
int crem_hooks_register(struct crem_net *cn);
/*
 * No hook call starts after this; running ones may go on until a grace
 * period has passed.  Context: process, under cfg_mutex.
 */
void crem_hooks_unregister(struct crem_net *cn);
/* Free what unregister left, a grace period later.  Under cfg_mutex. */
void crem_hooks_free(struct crem_net *cn);

#endif /* CREM_HOOKS_H */
