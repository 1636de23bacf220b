/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The netfilter hooks of a namespace (see hooks.c).
 */
#ifndef CREM_HOOKS_H
#define CREM_HOOKS_H

struct crem_net;

/* Context: process, under cfg_mutex.  Return: 0 or -errno. */
int crem_hooks_register(struct crem_net *cn);
/* Returns after every running hook has finished.  Context: process. */
void crem_hooks_unregister(struct crem_net *cn);

#endif /* CREM_HOOKS_H */
