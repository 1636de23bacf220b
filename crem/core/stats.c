// SPDX-License-Identifier: GPL-2.0
#include "stats.h"

static const char *const crem_stat_names[] = {
	[CREM_STAT_CTL_REQUESTS] = "ctl_requests",
	[CREM_STAT_ROCE_SEEN] = "roce_seen",
	[CREM_STAT_ROCE_BAD] = "roce_bad",
	[CREM_STAT_UNPROTECTED] = "unprotected",
	[CREM_STAT_MSGS_RECEIVED] = "msgs_received",
	[CREM_STAT_MSGS_NO_FLOW] = "msgs_no_flow",
	[CREM_STAT_MSGS_WRONG_PEER] = "msgs_wrong_peer",
	[CREM_STAT_MSGS_INBOX_FULL] = "msgs_inbox_full",
	[CREM_STAT_HELLO_REFUSED] = "hello_refused",
	[CREM_STAT_REPORTS_REFUSED] = "reports_refused",
	[CREM_STAT_FLOW_LIMIT] = "flow_limit",
	[CREM_STAT_MEM_LIMIT] = "mem_limit",
	[CREM_STAT_MEM_LIMIT_PACKETS] = "mem_limit_packets",
	[CREM_STAT_FLOW_MEM_LIMIT] = "flow_mem_limit",
	[CREM_STAT_RESTORED_INJECTED] = "restored_injected",
	[CREM_STAT_HELD_REINJECTED] = "held_reinjected",
	[CREM_STAT_RESTORE_NOMEM] = "restore_nomem",
	[CREM_STAT_INJECT_NO_DEV] = "inject_no_dev",
	[CREM_STAT_SEND_ERRORS] = "send_errors",
	[CREM_STAT_HANDOFF_DEV_GONE] = "handoff_dev_gone",
	[CREM_STAT_RX_PKT_NOMEM] = "rx_pkt_nomem",
	[CREM_STAT_ORDER_KEPT] = "order_kept",
	[CREM_STAT_GSO_PASSED] = "gso_passed",
	[CREM_STAT_TOO_LONG] = "too_long",
	[CREM_STAT_NONLINEAR_PASSED] = "nonlinear_passed",
	[CREM_STAT_MEM_LARGE_ALLOCS] = "mem_large_allocs",
	[CREM_STAT_MEM_POOL_REUSED] = "mem_pool_reused",
	[CREM_STAT_HELLO_RATE_LIMITED] = "hello_rate_limited",
	[CREM_STAT_STRANGER_FLOW_LIMIT] = "stranger_flow_limit",
	[CREM_STAT_STRANGER_MEM_LIMIT] = "stranger_mem_limit",
	[CREM_STAT_FLOW_CANDIDATES] = "flow_candidates",
	[CREM_STAT_FLOWS_REPLACED] = "flows_replaced",
	[CREM_STAT_CANDIDATES_REFUSED] = "candidates_refused",
	[CREM_STAT_CLOSES_UNKNOWN_SENT] = "closes_unknown_sent",
	[CREM_STAT_CLOSES_UNKNOWN_LIMITED] = "closes_unknown_limited",
	[CREM_STAT_COST_TX_SAMPLES] = "cost_tx_samples",
	[CREM_STAT_COST_TX_NS] = "cost_tx_ns",
	[CREM_STAT_COST_RX_SAMPLES] = "cost_rx_samples",
	[CREM_STAT_COST_RX_NS] = "cost_rx_ns",
};

_Static_assert(ARRAY_SIZE(crem_stat_names) == CREM_STAT_COUNT, "a name for each");

const char *crem_stat_name(unsigned int stat)
{
	return stat < CREM_STAT_COUNT ? crem_stat_names[stat] : NULL;
}
