/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The protocol engine's environment.
 *
 * The CSF and CRF engines are plain C: everything they need from the world
 * comes through these operations, implemented by the kernel glue in crem.ko
 * and by the deterministic pair harness in userspace (tests/harness/).
 *
 * Time is a monotonic nanosecond clock.  The engine owns no timers: each
 * flow tells the environment its next deadline through arm(), and the
 * environment calls the flow's timeout entry point at or after that time
 * (once; a later arm() replaces an earlier deadline, and U64_MAX cancels).
 * This keeps the engine free of environment-specific timer structures: the
 * kernel arms one hrtimer per flow, the harness keeps one event queue.
 *
 * Packets: the engine sends CREM messages only to the peer bound at HELLO
 * (the environment remembers that binding per owner); it delivers restored
 * packets as complete IP packets and lets held packets go by handle.
 *
 * Memory: block buffers come from alloc() and go back through free() with
 * the same size, so that the environment can charge them to the flow and
 * its namespace and refuse past a limit (the engine then counts the refusal
 * and leaves the data to the RDMA transport).
 *
 * Context: the kernel calls the operations from softirq or process
 * context with the flow's lock held; none may sleep or call back into the
 * engine for the same flow.
 */
#ifndef CREM_CORE_ENV_H
#define CREM_CORE_ENV_H

#include "port.h"

struct crem_fec_work;

#define CREM_NO_DEADLINE ((u64)~0ull)

/* Things worth telling the world (tracepoints, netlink events). */
enum crem_event_type {
	CREM_EV_CONFIG_CHANGED,		/* a: Config ID, b: k, c: m */
	CREM_EV_CODED_RETX_SENT,	/* start; a: X, b: M, c: Request ID */
	CREM_EV_CODED_RETX_ANSWERED,	/* start; a: symbols, c: Request ID */
	CREM_EV_BLOCK_DECODED,		/* start; a: restored, b: repairs, c: cost */
	CREM_EV_FALLBACK,		/* start; a: lost; b: 1 Source Copy */
	CREM_EV_BREAKER,		/* a: 1 tripped, 0 cleared */
	CREM_EV_FLOW_DOWN,		/* a: the CLOSE reason */
};

struct crem_event {
	u8 type;			/* enum crem_event_type */
	u32 flow_id;
	u32 block_start;
	u32 a, b, c;
};

struct crem_env_ops {
	/* Monotonic time in nanoseconds. */
	u64 (*now_ns)(void *ctx);
	/* @owner's earliest deadline is now @deadline_ns (or none). */
	void (*arm)(void *ctx, void *owner, u64 deadline_ns);
	/*
	 * Send a CREM message to @owner's bound peer on the CREM port, with
	 * DSCP @dscp and an ECN-capable codepoint.  Returns 0 or -errno; the
	 * engine counts failures and never retries synchronously.
	 */
	int (*send)(void *ctx, void *owner, const u8 *msg, size_t len, u8 dscp);
	/* Hand a restored IP packet to the RDMA receiver, as from the wire. */
	void (*deliver)(void *ctx, void *owner, const u8 *ip_pkt, size_t len);
	/* Let a packet the engine held (see the CRF's hold time) go on. */
	void (*release)(void *ctx, void *owner, void *held);
	/* Fill @buf with random bytes (nonces, Flow IDs). */
	void (*random)(void *ctx, void *buf, size_t len);
	/*
	 * @size bytes for @owner, or NULL (out of memory or over a limit).
	 * Their contents are undefined: the engine initialises what it
	 * reads (the environment need not zero megabytes it will overwrite).
	 */
	void *(*alloc)(void *ctx, void *owner, size_t size);
	void (*free)(void *ctx, void *owner, void *mem, size_t size);
	/*
	 * Coding scratch (about 260 KiB) for the current call into the
	 * engine; the kernel's is per CPU, so it is only valid until the
	 * engine returns.
	 */
	struct crem_fec_work *(*work)(void *ctx);
	/* Optional: an event of @owner's. */
	void (*event)(void *ctx, void *owner, const struct crem_event *ev);
};


struct crem_env {
	const struct crem_env_ops *ops;
	void *ctx;
};

/* Report @ev through @env if it listens. */
static inline void crem_env_event(const struct crem_env *env, void *owner,
				  const struct crem_event *ev)
{
	if (env->ops->event)
		env->ops->event(env->ctx, owner, ev);
}

#endif /* CREM_CORE_ENV_H */
