/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The engine's environment in the kernel (crem/core/env.h): the clock, one
 * hrtimer per flow, sending through the CREM socket, packets back into the
 * stack (reinject.h), randomness, memory and the coding scratch.
 *
 * Memory: every engine buffer is charged, at the size the allocator
 * really hands out, to its flow and namespace, against flow-mem-limit and
 * mem-limit (a namespace other than the initial one never above the
 * initial one's), and to the memory cgroup of whoever configured the
 * namespace (__GFP_ACCOUNT with that cgroup active).  The flow objects
 * are charged to the namespace too.  Strangers' flows (security.rst)
 * share at most half of mem-limit.  Buffers come from
 * kmalloc(GFP_ATOMIC), in any context; none is larger than the largest
 * engine structure or a sender's block.  A buffer too large for
 * kmalloc()'s slab caches comes from the page allocator, which costs
 * more than a packet's worth of rxe's work in the lab's emulated guests:
 * one given back is kept, as one of the flow's spares, or beyond those
 * and at the flow's end in a small pool of its namespace's, for the next
 * of its size class (what kmalloc() hands out for it; krealloc() fits it
 * to the size asked).  A pooled buffer goes at the pool's next use
 * after 2 s unused, when the namespace has no flow left, at its
 * mem-limit and at a memory cgroup change.
 *
 * The coding scratch (about 260 KiB) is taken by a flow's engine work for
 * as long as it runs, from a pool of one per CPU: decoding runs outside
 * the flow's lock and may be preempted.
 */
#ifndef CREM_ENV_H
#define CREM_ENV_H

#include "core/env.h"

struct crem_flow;

int crem_env_init(void);
void crem_env_exit(void);

/* The environment of @flow (its ops and context). */
void crem_env_attach(struct crem_flow *flow);

/* A coding scratch for the engine work; may sleep.  Put it back after. */
struct crem_fec_work *crem_scratch_get(void);
/* One if the pool has one free now, else NULL; any context. */
struct crem_fec_work *crem_scratch_try_get(void);
void crem_scratch_put(struct crem_fec_work *work);

/* Free the flow's spare buffers (it ends).  Under the flow's lock. */
void crem_env_free_spares(struct crem_flow *flow);

/*
 * Could receiver @flow, just started, ever take its traffic state within
 * its per-flow memory limit (crem_crf_traffic_bytes(), as this allocator
 * charges)?  Counts flow_mem_limit when not.  Under the flow's lock.
 */
bool crem_env_crf_could_fit(struct crem_flow *flow);

struct crem_net;

/**
 * crem_env_alloc_flow() - allocate a flow object, charged
 * @cn: the namespace whose mem-limit and memory cgroup pay for it
 * @size: its size in octets
 *
 * The object is zeroed and charged like the engine's buffers.
 * crem_env_free_flow() frees it and its charge.  Context: any.
 *
 * Return: the object, or NULL at the limit or without memory.
 */
void *crem_env_alloc_flow(struct crem_net *cn, size_t size);

/**
 * crem_env_free_flow() - free a flow object and its charge
 * @cn: the namespace crem_env_alloc_flow() charged
 * @mem: the object, or NULL
 * @size: the size it was allocated with
 */
void crem_env_free_flow(struct crem_net *cn, void *mem, size_t size);

/**
 * crem_env_charge_skb() - charge a packet crem keeps to its namespace
 * @flow: the flow keeping it
 * @truesize: what the packet takes (its skb's truesize, with crem's
 *	record of it if any)
 *
 * Held RoCEv2 packets, restored ones waiting to be handed on and CREM
 * messages waiting in a flow's inbox are memory crem keeps: ``mem_bytes``
 * counts them, against mem-limit, and a stranger's flow's also against
 * the strangers' half of it.  The skb itself is not charged to a memory
 * cgroup again: the stack allocated it.
 *
 * Context: any but a hard interrupt.
 * Return: false (nothing charged; counted as ``mem_limit_packets``) past
 * either limit: the caller then keeps nothing.
 */
bool crem_env_charge_skb(struct crem_flow *flow, unsigned int truesize);

/**
 * crem_env_uncharge_skb() - give back what crem_env_charge_skb() took
 * @cn: the flow's namespace
 * @stranger: whether the flow's peer is a stranger
 * @truesize: the same @truesize
 *
 * Context: any.
 */
void crem_env_uncharge_skb(struct crem_net *cn, bool stranger,
			   unsigned int truesize);

/*
 * Free the buffers the namespace keeps for its next flows.  Any context
 * but a hard interrupt (it takes a BH-disabling lock).
 */
void crem_env_pool_drain(struct crem_net *cn);
/*
 * The namespace's memory is charged to another cgroup from now on: the
 * buffers of flows allocated under the old one are no longer kept.
 */
void crem_env_pool_new_epoch(struct crem_net *cn);

#endif /* CREM_ENV_H */
