// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of what a receiver lets strangers make it do: the rate
 * limits by peer address (crem/core/admit.h) and the replacement rule for
 * a HELLO that names a live flow (crem_crf_hello_action()).  The same
 * file runs in userspace (make unit) and in a KUnit kernel.
 */
#include <kunit/test.h>

#include "crem/core/admit.h"
#include "crem/core/crf.h"
#include "crem/core/prefix.h"

#define MS 1000000ull

static const struct crem_rate four_per_ms = { .interval_ns = MS, .burst = 4 };

/* A burst at once, then one per interval, and a full burst after a rest. */
static void rate_burst_then_interval(struct kunit *test)
{
	u64 tat = 0, t = 5 * MS;
	unsigned int i;

	for (i = 0; i < 4; i++)
		KUNIT_EXPECT_TRUE(test, crem_rate_take(&tat, &four_per_ms, t));
	KUNIT_EXPECT_FALSE(test, crem_rate_take(&tat, &four_per_ms, t));
	/* Refused events are not counted: still one interval to wait. */
	KUNIT_EXPECT_FALSE(test, crem_rate_take(&tat, &four_per_ms,
						t + MS - 1));
	KUNIT_EXPECT_TRUE(test, crem_rate_take(&tat, &four_per_ms, t + MS));
	KUNIT_EXPECT_FALSE(test, crem_rate_take(&tat, &four_per_ms, t + MS));
	t += 100 * MS;
	for (i = 0; i < 4; i++)
		KUNIT_EXPECT_TRUE(test, crem_rate_take(&tat, &four_per_ms, t));
	KUNIT_EXPECT_FALSE(test, crem_rate_take(&tat, &four_per_ms, t));
}

/* Over a long run the meter lets through its rate and its burst, no more. */
static void rate_holds_over_time(struct kunit *test)
{
	u64 tat = 0, t, taken = 0;

	/* One try every 100 us for a second: ten a millisecond asked. */
	for (t = MS; t < 1001 * MS; t += MS / 10)
		taken += crem_rate_take(&tat, &four_per_ms, t);
	KUNIT_EXPECT_GE(test, taken, 1000);
	KUNIT_EXPECT_LE(test, taken, 1000 + 4);
}

static void rate_zero_burst_allows_none(struct kunit *test)
{
	const struct crem_rate none = { .interval_ns = MS, .burst = 0 };
	u64 tat = 0;

	KUNIT_EXPECT_FALSE(test, crem_rate_take(&tat, &none, 0));
	KUNIT_EXPECT_FALSE(test, crem_rate_take(&tat, &none, 1000 * MS));
}

static void v4(u8 *addr, u32 host)
{
	memset(addr, 0, 16);
	addr[0] = 192;
	addr[1] = 0;
	addr[2] = (u8)(host >> 8);
	addr[3] = (u8)host;
}

/*
 * One address's burst spent leaves the others theirs: of 64 other
 * addresses, at most a few share its slot (one in 256 each).
 */
static void admit_is_per_address(struct kunit *test)
{
	struct crem_admit *a = kunit_kzalloc(test, sizeof(*a), GFP_KERNEL);
	unsigned int i, admitted = 0;
	u8 addr[16];

	KUNIT_ASSERT_NOT_NULL(test, a);
	crem_admit_init(a, 0x0123456789abcdefull, 128);
	v4(addr, 1);
	for (i = 0; i < 4; i++)
		KUNIT_EXPECT_TRUE(test, crem_admit(a, &four_per_ms,
						   CREM_AF_INET, addr, MS));
	KUNIT_EXPECT_FALSE(test, crem_admit(a, &four_per_ms, CREM_AF_INET,
					    addr, MS));
	for (i = 2; i < 66; i++) {
		v4(addr, i);
		admitted += crem_admit(a, &four_per_ms, CREM_AF_INET, addr, MS);
	}
	KUNIT_EXPECT_GE(test, admitted, 60);
	/* The same octets as IPv6 are another address. */
	v4(addr, 1);
	KUNIT_EXPECT_TRUE(test, crem_admit(a, &four_per_ms, CREM_AF_INET6,
					   addr, MS));
}

/*
 * One event each for 64 addresses of 2001:db8:0:7::/64, in a table that
 * tells IPv6 senders apart by @v6_prefix bits: how many it admitted.
 */
static unsigned int admit_one_64(struct crem_admit *a, unsigned int v6_prefix)
{
	u8 addr[16] = { 0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 7 };
	unsigned int i, admitted = 0;

	crem_admit_init(a, 0x0123456789abcdefull, v6_prefix);
	for (i = 0; i < 64; i++) {
		addr[15] = (u8)i;
		addr[9] = (u8)(i * 37);
		admitted += crem_admit(a, &four_per_ms, CREM_AF_INET6, addr, MS);
	}
	return admitted;
}

/*
 * A table that tells IPv6 senders apart by /64 gives one /64 one meter,
 * however many of its addresses send: a host that holds the whole /64
 * gets one address's rate.  One that counts /128s meters them apart.
 */
static void admit_counts_ipv6_by_prefix(struct kunit *test)
{
	struct crem_admit *a = kunit_kzalloc(test, sizeof(*a), GFP_KERNEL);
	unsigned int i, by64;
	u8 addr[16];

	KUNIT_ASSERT_NOT_NULL(test, a);
	KUNIT_EXPECT_EQ(test, admit_one_64(a, 64), 4);
	KUNIT_EXPECT_GE(test, admit_one_64(a, 128), 60);
	/* IPv4 addresses count whole in either table. */
	crem_admit_init(a, 0x0123456789abcdefull, 64);
	by64 = 0;
	for (i = 2; i < 66; i++) {
		v4(addr, i);
		by64 += crem_admit(a, &four_per_ms, CREM_AF_INET, addr, MS);
	}
	KUNIT_EXPECT_GE(test, by64, 60);
}

/*
 * Which addresses share a slot depends on the key: one that shares the
 * spent address's slot under one key does not, for most keys, under
 * another.
 */
static void admit_slots_follow_the_key(struct kunit *test)
{
	struct crem_admit *a = kunit_kzalloc(test, sizeof(*a), GFP_KERNEL);
	unsigned int i, apart = 0, keys;
	u8 spent[16], other[16];
	u32 host;

	KUNIT_ASSERT_NOT_NULL(test, a);
	v4(spent, 1);
	/* An address in the spent one's slot under key 1. */
	crem_admit_init(a, 1, 128);
	for (i = 0; i < 4; i++)
		crem_admit(a, &four_per_ms, CREM_AF_INET, spent, MS);
	for (host = 2; host < 20000; host++) {
		v4(other, host);
		if (!crem_admit(a, &four_per_ms, CREM_AF_INET, other, MS))
			break;
	}
	KUNIT_ASSERT_LT(test, host, 20000);
	for (keys = 2; keys < 18; keys++) {
		crem_admit_init(a, keys * 0x9e3779b97f4a7c15ull, 128);
		for (i = 0; i < 4; i++)
			crem_admit(a, &four_per_ms, CREM_AF_INET, spent, MS);
		apart += crem_admit(a, &four_per_ms, CREM_AF_INET, other, MS);
	}
	KUNIT_EXPECT_GE(test, apart, 14);
}

static void v6(u8 *addr, u16 a0, u16 a1, u16 a2, u16 last)
{
	memset(addr, 0, 16);
	addr[0] = (u8)(a0 >> 8);
	addr[1] = (u8)a0;
	addr[2] = (u8)(a1 >> 8);
	addr[3] = (u8)a1;
	addr[4] = (u8)(a2 >> 8);
	addr[5] = (u8)a2;
	addr[14] = (u8)(last >> 8);
	addr[15] = (u8)last;
}

static bool may_start(const struct crem_prefix *list, unsigned int n,
		      u8 af, const u8 *src, const u8 *from)
{
	return crem_prefix_may_start(list, n, af, src, af, from);
}

/*
 * Who speaks for a flow: a configured source only through its own CSF
 * (the prefix's peer gateway, or the address itself), an unconfigured
 * one through anyone.  The case that mattered: a stranger claiming a
 * configured host's flow from its own address, spoofing nothing.
 */
static void only_its_csf_starts_a_configured_flow(struct kunit *test)
{
	struct crem_prefix list[4] = {
		/* gateway mode: 10.2.0.0/24 behind 192.0.2.2 */
		{ .af = CREM_AF_INET, .len = 24, .has_peer = true,
		  .addr = { 10, 2, 0, 0 }, .peer = { 192, 0, 2, 2 } },
		/* its upper half without a peer: longest match wins */
		{ .af = CREM_AF_INET, .len = 25, .addr = { 10, 2, 0, 128 } },
		/* host mode: 192.0.2.1 */
		{ .af = CREM_AF_INET, .len = 32, .addr = { 192, 0, 2, 1 } },
		/* IPv6 gateway mode: 2001:db8:1::/48 behind 2001:db8::2 */
		{ .af = CREM_AF_INET6, .len = 48, .has_peer = true },
	};
	const u8 gw[16] = { 192, 0, 2, 2 }, host[16] = { 192, 0, 2, 1 };
	const u8 site[16] = { 10, 2, 0, 5 }, upper[16] = { 10, 2, 0, 130 };
	const u8 stranger[16] = { 192, 0, 2, 99 };
	const u8 other[16] = { 198, 51, 100, 7 };
	u8 src6[16], gw6[16], x6[16];

	v6(list[3].addr, 0x2001, 0xdb8, 1, 0);
	v6(list[3].peer, 0x2001, 0xdb8, 0, 2);
	v6(src6, 0x2001, 0xdb8, 1, 5);
	v6(gw6, 0x2001, 0xdb8, 0, 2);
	v6(x6, 0x2001, 0xdb8, 0, 99);

	/* gateway mode: only the peer gateway */
	KUNIT_EXPECT_TRUE(test, may_start(list, 4, CREM_AF_INET, site, gw));
	KUNIT_EXPECT_FALSE(test, may_start(list, 4, CREM_AF_INET, site, site));
	KUNIT_EXPECT_FALSE(test, may_start(list, 4, CREM_AF_INET, site,
					   stranger));
	KUNIT_EXPECT_TRUE(test, may_start(list, 4, CREM_AF_INET6, src6, gw6));
	KUNIT_EXPECT_FALSE(test, may_start(list, 4, CREM_AF_INET6, src6, x6));
	/* a peer of another family is not the peer */
	KUNIT_EXPECT_FALSE(test, crem_prefix_may_start(list, 4, CREM_AF_INET6,
						       src6, CREM_AF_INET, gw));
	/* the longest prefix decides: the upper half has no peer */
	KUNIT_EXPECT_TRUE(test, may_start(list, 4, CREM_AF_INET, upper, upper));
	KUNIT_EXPECT_FALSE(test, may_start(list, 4, CREM_AF_INET, upper, gw));
	/* host mode, and a peer gateway's own flows: only the address */
	KUNIT_EXPECT_TRUE(test, may_start(list, 4, CREM_AF_INET, host, host));
	KUNIT_EXPECT_FALSE(test, may_start(list, 4, CREM_AF_INET, host,
					   stranger));
	KUNIT_EXPECT_FALSE(test, may_start(list, 4, CREM_AF_INET, host, gw));
	KUNIT_EXPECT_TRUE(test, may_start(list, 4, CREM_AF_INET, gw, gw));
	KUNIT_EXPECT_FALSE(test, may_start(list, 4, CREM_AF_INET, gw, host));
	/* a source nobody configured: anyone, itself included */
	KUNIT_EXPECT_TRUE(test, may_start(list, 4, CREM_AF_INET, other,
					  stranger));
	KUNIT_EXPECT_TRUE(test, may_start(list, 4, CREM_AF_INET, other, other));
	KUNIT_EXPECT_TRUE(test, may_start(list, 0, CREM_AF_INET, host,
					  stranger));

	/* configured peers: inside a prefix, or a prefix's peer gateway */
	KUNIT_EXPECT_TRUE(test, crem_prefix_known_peer(list, 4, CREM_AF_INET,
						       gw));
	KUNIT_EXPECT_TRUE(test, crem_prefix_known_peer(list, 4, CREM_AF_INET,
						       site));
	KUNIT_EXPECT_TRUE(test, crem_prefix_known_peer(list, 4, CREM_AF_INET6,
						       gw6));
	KUNIT_EXPECT_FALSE(test, crem_prefix_known_peer(list, 4, CREM_AF_INET,
							stranger));
	KUNIT_EXPECT_FALSE(test, crem_prefix_known_peer(list, 4, CREM_AF_INET6,
							host));
}

/*
 * The replacement rule: a HELLO with a nonce of its own never goes to the
 * live flow; it makes a candidate, and a repeat of it goes to that
 * candidate.  Only a PARAM_UPDATE or REPAIR confirms a candidate.
 */
static void hello_never_replaces_a_live_flow(struct kunit *test)
{
	struct crem_crf *live = kunit_kzalloc(test, sizeof(*live), GFP_KERNEL);
	struct crem_crf *cand = kunit_kzalloc(test, sizeof(*cand), GFP_KERNEL);
	struct crem_msg hello = { .type = CREM_MSG_HELLO };
	static const u8 types[] = {
		CREM_MSG_REPAIR, CREM_MSG_HELLO, CREM_MSG_HELLO_ACK,
		CREM_MSG_PARAM_UPDATE, CREM_MSG_PARAM_ACK,
		CREM_MSG_REPAIR_REQUEST, CREM_MSG_LOSS_REPORT,
		CREM_MSG_PATH_REPORT, CREM_MSG_CLOSE,
	};
	unsigned int i, confirming = 0;

	KUNIT_ASSERT_NOT_NULL(test, live);
	KUNIT_ASSERT_NOT_NULL(test, cand);
	live->nonce = 0x1111;
	cand->nonce = 0x2222;

	hello.hello.nonce = 0x1111;
	KUNIT_EXPECT_EQ(test, crem_crf_hello_action(NULL, NULL, &hello),
			CREM_HELLO_NEW_FLOW);
	KUNIT_EXPECT_EQ(test, crem_crf_hello_action(live, NULL, &hello),
			CREM_HELLO_TO_LIVE);
	KUNIT_EXPECT_EQ(test, crem_crf_hello_action(live, cand, &hello),
			CREM_HELLO_TO_LIVE);
	hello.hello.nonce = 0x2222;
	KUNIT_EXPECT_EQ(test, crem_crf_hello_action(live, NULL, &hello),
			CREM_HELLO_NEW_CANDIDATE);
	KUNIT_EXPECT_EQ(test, crem_crf_hello_action(live, cand, &hello),
			CREM_HELLO_TO_CANDIDATE);
	/* Its live flow ended: the candidate still answers its own nonce. */
	KUNIT_EXPECT_EQ(test, crem_crf_hello_action(NULL, cand, &hello),
			CREM_HELLO_TO_CANDIDATE);
	hello.hello.nonce = 0x3333;
	KUNIT_EXPECT_EQ(test, crem_crf_hello_action(live, cand, &hello),
			CREM_HELLO_NEW_CANDIDATE);

	for (i = 0; i < ARRAY_SIZE(types); i++) {
		struct crem_msg m = { .type = types[i], .flow_id = 7 };
		bool c = crem_crf_confirms(&m);

		confirming += c;
		KUNIT_EXPECT_EQ(test, c, types[i] == CREM_MSG_REPAIR ||
					 types[i] == CREM_MSG_PARAM_UPDATE);
	}
	KUNIT_EXPECT_EQ(test, confirming, 2);
}

static struct kunit_case crem_admit_test_cases[] = {
	KUNIT_CASE(rate_burst_then_interval),
	KUNIT_CASE(rate_holds_over_time),
	KUNIT_CASE(rate_zero_burst_allows_none),
	KUNIT_CASE(admit_is_per_address),
	KUNIT_CASE(admit_slots_follow_the_key),
	KUNIT_CASE(admit_counts_ipv6_by_prefix),
	KUNIT_CASE(only_its_csf_starts_a_configured_flow),
	KUNIT_CASE(hello_never_replaces_a_live_flow),
	{}
};

static struct kunit_suite crem_admit_test_suite = {
	.name = "crem_admit",
	.test_cases = crem_admit_test_cases,
};

kunit_test_suite(crem_admit_test_suite);
