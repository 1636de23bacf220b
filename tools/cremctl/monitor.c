// SPDX-License-Identifier: GPL-2.0
/*
 * cremctl monitor: print crem's events as they happen (flows up and down,
 * configuration changes, the circuit breaker, fallbacks), one line each.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/genetlink.h>

#include <linux/crem.h>
#include <linux/crem_netlink.h>

#include "cremctl.h"
#include "json.h"
#include "nl.h"

struct event {
	char kind[32];
	uint32_t flow_id, block, lost;
	uint16_t reason;
	uint8_t role, config_id, k, m, tripped;
	bool has_config, has_tripped, has_block, has_reason;
};

struct watch {
	const struct options *opt;
	long left;		/* events still to print; -1: no end */
};

/* The draft's CLOSE reasons, as the flow-down event carries them. */
static const char *close_reason_name(uint16_t reason)
{
	switch (reason) {
	case CREM_CLOSE_NORMAL:
		return "normal";
	case CREM_CLOSE_FLOW_ENDED:
		return "flow ended";
	case CREM_CLOSE_PARAM_SYNC_FAILED:
		return "parameter sync failed";
	case CREM_CLOSE_RESOURCES_EXHAUSTED:
		return "resources exhausted";
	case CREM_CLOSE_CIRCUIT_BREAKER:
		return "circuit breaker";
	default:
		return "unknown";
	}
}

static int event_attr_cb(const struct nlattr *attr, void *data)
{
	struct event *e = data;

	switch (mnl_attr_get_type(attr)) {
	case CREM_A_EVENT_KIND:
		snprintf(e->kind, sizeof(e->kind), "%s", mnl_attr_get_str(attr));
		break;
	case CREM_A_EVENT_FLOW_ID:
		e->flow_id = mnl_attr_get_u32(attr);
		break;
	case CREM_A_EVENT_ROLE:
		e->role = mnl_attr_get_u8(attr);
		break;
	case CREM_A_EVENT_CONFIG_ID:
		e->config_id = mnl_attr_get_u8(attr);
		e->has_config = true;
		break;
	case CREM_A_EVENT_K:
		e->k = mnl_attr_get_u8(attr);
		break;
	case CREM_A_EVENT_M:
		e->m = mnl_attr_get_u8(attr);
		break;
	case CREM_A_EVENT_TRIPPED:
		e->tripped = mnl_attr_get_u8(attr);
		e->has_tripped = true;
		break;
	case CREM_A_EVENT_BLOCK:
		e->block = mnl_attr_get_u32(attr);
		e->has_block = true;
		break;
	case CREM_A_EVENT_LOST:
		e->lost = mnl_attr_get_u32(attr);
		break;
	case CREM_A_EVENT_REASON:
		e->reason = mnl_attr_get_u16(attr);
		e->has_reason = true;
		break;
	}
	return MNL_CB_OK;
}

static void print_event(const struct options *opt, const struct event *e)
{
	const char *role = e->role == 1 ? "sender" : "receiver";
	struct json j;

	if (!opt->json) {
		printf("%s flow %u (%s)", e->kind, e->flow_id, role);
		if (e->has_config)
			printf(" config %u k %u m %u", e->config_id, e->k, e->m);
		if (e->has_tripped)
			printf(" %s", e->tripped ? "tripped" : "cleared");
		if (e->has_block)
			printf(" block %u lost %u", e->block, e->lost);
		if (e->has_reason)
			printf(" reason %u (%s)", e->reason,
			       close_reason_name(e->reason));
		printf("\n");
		fflush(stdout);
		return;
	}
	json_init(&j, stdout, opt->pretty);
	json_object_begin(&j, NULL);
	json_string(&j, "event", e->kind);
	json_u64(&j, "flow_id", e->flow_id);
	json_string(&j, "role", role);
	if (e->has_config) {
		json_u64(&j, "config_id", e->config_id);
		json_u64(&j, "k", e->k);
		json_u64(&j, "m", e->m);
	}
	if (e->has_tripped)
		json_u64(&j, "tripped", e->tripped);
	if (e->has_block) {
		json_u64(&j, "block", e->block);
		json_u64(&j, "lost", e->lost);
	}
	if (e->has_reason) {
		json_u64(&j, "reason", e->reason);
		json_string(&j, "reason_name", close_reason_name(e->reason));
	}
	json_object_end(&j);
	json_finish(&j);
	fflush(stdout);
}

static int top_attr_cb(const struct nlattr *attr, void *data)
{
	struct event *e = data;

	if (mnl_attr_get_type(attr) == CREM_A_EVENT)
		mnl_attr_parse_nested(attr, event_attr_cb, e);
	return MNL_CB_OK;
}

static int notify_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct genlmsghdr *genl = mnl_nlmsg_get_payload(nlh);
	struct watch *w = data;
	struct event e;

	if (genl->cmd != CREM_CMD_EVENT)
		return MNL_CB_OK;
	memset(&e, 0, sizeof(e));
	mnl_attr_parse(nlh, sizeof(*genl), top_attr_cb, &e);
	print_event(w->opt, &e);
	if (w->left > 0 && !--w->left)
		return MNL_CB_STOP;
	return MNL_CB_OK;
}

int cmd_monitor(const struct options *opt, int argc, char **argv)
{
	struct watch w = { .opt = opt, .left = -1 };
	struct crem_nl nl;
	char *end;
	int ret;

	if (argc == 3 && !strcmp(argv[1], "count")) {
		w.left = strtol(argv[2], &end, 0);
		if (*end || w.left <= 0) {
			fprintf(stderr, "%s: monitor count: '%s' is not a positive number\n",
				prog, argv[2]);
			return 2;
		}
	} else if (argc != 1) {
		fprintf(stderr, "usage: %s monitor [count N]\n", prog);
		return 2;
	}
	ret = crem_nl_open(&nl);
	if (ret)
		return report(ret, "connect", NULL);
	ret = crem_nl_join_events(&nl);
	if (!ret)
		ret = crem_nl_listen(&nl, notify_cb, &w);
	crem_nl_close(&nl);
	return ret ? report(ret, "monitor", NULL) : 0;
}
