// SPDX-License-Identifier: GPL-2.0
/*
 * cremctl config | set | protect | reporter: the namespace's configuration.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/genetlink.h>

#include <linux/crem_netlink.h>

#include "cremctl.h"
#include "json.h"
#include "nl.h"

#define MAX_PREFIXES 64

struct prefix {
	uint8_t family, len;
	bool has_peer;
	uint8_t addr[16], peer[16];
};

struct config {
	uint16_t port;
	uint8_t role, enabled, k, m, adaptive, m_cong, auto_timing;
	uint8_t resend_copies, has_resend_copies;	/* older modules: none */
	uint32_t epsilon_ppm, hold_us, reorder_us, max_flows, hello_rate;
	uint32_t coder_mbs;
	uint16_t max_open_blocks;
	uint64_t mem_limit, flow_mem_limit;
	unsigned int nprefixes, nreporters;
	struct prefix prefix[MAX_PREFIXES], reporter[MAX_PREFIXES];
};

static void addr_str(uint8_t family, const uint8_t *addr, char *buf,
		     size_t len)
{
	inet_ntop(family == 4 ? AF_INET : AF_INET6, addr, buf, len);
}

static int prefix_attr_cb(const struct nlattr *attr, void *data)
{
	struct prefix *p = data;
	size_t n = mnl_attr_get_payload_len(attr);

	switch (mnl_attr_get_type(attr)) {
	case CREM_A_PREFIX_FAMILY:
		p->family = mnl_attr_get_u8(attr);
		break;
	case CREM_A_PREFIX_LEN:
		p->len = mnl_attr_get_u8(attr);
		break;
	case CREM_A_PREFIX_ADDR:
		memcpy(p->addr, mnl_attr_get_payload(attr), n > 16 ? 16 : n);
		break;
	case CREM_A_PREFIX_PEER:
		memcpy(p->peer, mnl_attr_get_payload(attr), n > 16 ? 16 : n);
		p->has_peer = true;
		break;
	}
	return MNL_CB_OK;
}

static int config_attr_cb(const struct nlattr *attr, void *data)
{
	struct config *c = data;

	switch (mnl_attr_get_type(attr)) {
	case CREM_A_PORT:
		c->port = mnl_attr_get_u16(attr);
		break;
	case CREM_A_ROLE:
		c->role = mnl_attr_get_u8(attr);
		break;
	case CREM_A_ENABLED:
		c->enabled = mnl_attr_get_u8(attr);
		break;
	case CREM_A_K:
		c->k = mnl_attr_get_u8(attr);
		break;
	case CREM_A_M:
		c->m = mnl_attr_get_u8(attr);
		break;
	case CREM_A_ADAPTIVE:
		c->adaptive = mnl_attr_get_u8(attr);
		break;
	case CREM_A_M_CONG:
		c->m_cong = mnl_attr_get_u8(attr);
		break;
	case CREM_A_EPSILON_PPM:
		c->epsilon_ppm = mnl_attr_get_u32(attr);
		break;
	case CREM_A_HOLD_US:
		c->hold_us = mnl_attr_get_u32(attr);
		break;
	case CREM_A_REORDER_US:
		c->reorder_us = mnl_attr_get_u32(attr);
		break;
	case CREM_A_MAX_FLOWS:
		c->max_flows = mnl_attr_get_u32(attr);
		break;
	case CREM_A_MAX_OPEN_BLOCKS:
		c->max_open_blocks = mnl_attr_get_u16(attr);
		break;
	case CREM_A_MEM_LIMIT:
		c->mem_limit = mnl_attr_get_u64(attr);
		break;
	case CREM_A_FLOW_MEM_LIMIT:
		c->flow_mem_limit = mnl_attr_get_u64(attr);
		break;
	case CREM_A_HELLO_RATE:
		c->hello_rate = mnl_attr_get_u32(attr);
		break;
	case CREM_A_AUTO_TIMING:
		c->auto_timing = mnl_attr_get_u8(attr);
		break;
	case CREM_A_CODER_MBS:
		c->coder_mbs = mnl_attr_get_u32(attr);
		break;
	case CREM_A_RESEND_COPIES:
		c->resend_copies = mnl_attr_get_u8(attr);
		c->has_resend_copies = 1;
		break;
	case CREM_A_PREFIX:
		if (c->nprefixes < MAX_PREFIXES)
			mnl_attr_parse_nested(attr, prefix_attr_cb,
					      &c->prefix[c->nprefixes++]);
		break;
	case CREM_A_REPORTER:
		if (c->nreporters < MAX_PREFIXES)
			mnl_attr_parse_nested(attr, prefix_attr_cb,
					      &c->reporter[c->nreporters++]);
		break;
	}
	return MNL_CB_OK;
}

static int config_cb(const struct nlmsghdr *nlh, void *data)
{
	return mnl_attr_parse(nlh, sizeof(struct genlmsghdr), config_attr_cb,
			      data);
}

/* Send a request built by @build (may be NULL); @cb reads the reply. */
static int request(uint8_t cmd, const char *what,
		   int (*build)(struct nlmsghdr *nlh, void *arg), void *arg,
		   mnl_cb_t cb, void *data)
{
	struct crem_nl nl;
	struct nlmsghdr *nlh;
	char why[256];
	int ret;

	ret = crem_nl_open(&nl);
	if (ret)
		return report(ret, "connect", NULL);
	nlh = crem_nl_request(&nl, cmd, 0);
	if (build) {
		ret = build(nlh, arg);
		if (ret) {
			crem_nl_close(&nl);
			return ret;
		}
	}
	ret = crem_nl_talk(&nl, nlh, cb, data, why, sizeof(why));
	crem_nl_close(&nl);
	return ret ? report(ret, what, why) : 0;
}

static const char *role_name(uint8_t role)
{
	return role == 1 ? "sender" : role == 2 ? "receiver" : "both";
}

static void print_prefix(const struct prefix *p, bool json, struct json *j)
{
	char a[INET6_ADDRSTRLEN], peer[INET6_ADDRSTRLEN], buf[80];

	addr_str(p->family, p->addr, a, sizeof(a));
	snprintf(buf, sizeof(buf), "%s/%u", a, p->len);
	if (p->has_peer)
		addr_str(p->family, p->peer, peer, sizeof(peer));
	if (!json) {
		printf("    %s%s%s\n", buf, p->has_peer ? " peer " : "",
		       p->has_peer ? peer : "");
		return;
	}
	json_object_begin(j, NULL);
	json_string(j, "prefix", buf);
	if (p->has_peer)
		json_string(j, "peer", peer);
	json_object_end(j);
}

int cmd_config(const struct options *opt, int argc, char **argv)
{
	struct config *c = calloc(1, sizeof(*c));
	unsigned int i;
	struct json j;

	if (!c || request(CREM_CMD_GET_CONFIG, "config", NULL, NULL, config_cb,
			  c)) {
		free(c);
		return 1;
	}
	if (!opt->json) {
		printf("port: %u%s\nrole: %s\nenabled: %s\n", c->port,
		       c->port ? "" : " (off: no port)", role_name(c->role),
		       c->enabled ? "yes" : "no");
		printf("k: %u  m: %u  adaptive: %s  m_cong: %u  epsilon: %u ppm\n",
		       c->k, c->m, c->adaptive ? "yes" : "no", c->m_cong,
		       c->epsilon_ppm);
		if (c->adaptive && c->coder_mbs)
			printf("repairs priced at a coder of %u MB/s\n",
			       c->coder_mbs);
		else if (c->adaptive)
			printf("repairs not priced (coder-mbs 0)\n");
		if (c->auto_timing)
			printf("hold and reorder allowance: per flow (auto-timing)\n");
		else
			printf("hold: %u us  reorder allowance: %u us\n",
			       c->hold_us, c->reorder_us);
		if (c->has_resend_copies)
			printf("copies for the RDMA receiver's resends: %s\n",
			       c->resend_copies ? "on" : "off (resend-copies)");
		printf("max flows: %u  max open blocks: %u  memory limit: %llu bytes, %llu per flow\n",
		       c->max_flows, c->max_open_blocks,
		       (unsigned long long)c->mem_limit,
		       (unsigned long long)c->flow_mem_limit);
		printf("new flows: %u a second from an address, %u from a peer\n",
		       c->hello_rate, 4 * c->hello_rate);
		printf("protected:%s\n", c->nprefixes ? "" : " none");
		for (i = 0; i < c->nprefixes; i++)
			print_prefix(&c->prefix[i], false, NULL);
		printf("reporters:%s\n", c->nreporters ? "" : " none");
		for (i = 0; i < c->nreporters; i++)
			print_prefix(&c->reporter[i], false, NULL);
		free(c);
		return 0;
	}
	json_init(&j, stdout, opt->pretty);
	json_object_begin(&j, NULL);
	json_u64(&j, "port", c->port);
	json_string(&j, "role", role_name(c->role));
	json_u64(&j, "enabled", c->enabled);
	json_u64(&j, "k", c->k);
	json_u64(&j, "m", c->m);
	json_u64(&j, "adaptive", c->adaptive);
	json_u64(&j, "m_cong", c->m_cong);
	json_u64(&j, "epsilon_ppm", c->epsilon_ppm);
	json_u64(&j, "hold_us", c->hold_us);
	json_u64(&j, "reorder_us", c->reorder_us);
	json_u64(&j, "auto_timing", c->auto_timing);
	json_u64(&j, "max_flows", c->max_flows);
	json_u64(&j, "max_open_blocks", c->max_open_blocks);
	json_u64(&j, "mem_limit", c->mem_limit);
	json_u64(&j, "flow_mem_limit", c->flow_mem_limit);
	json_u64(&j, "hello_rate", c->hello_rate);
	json_u64(&j, "coder_mbs", c->coder_mbs);
	if (c->has_resend_copies)
		json_u64(&j, "resend_copies", c->resend_copies);
	json_array_begin(&j, "protected");
	for (i = 0; i < c->nprefixes; i++)
		print_prefix(&c->prefix[i], true, &j);
	json_array_end(&j);
	json_array_begin(&j, "reporters");
	for (i = 0; i < c->nreporters; i++)
		print_prefix(&c->reporter[i], true, &j);
	json_array_end(&j);
	json_object_end(&j);
	json_finish(&j);
	free(c);
	return 0;
}

static int parse_uint(const char *s, unsigned long long max,
		      unsigned long long *v, const char *what)
{
	char *end;

	errno = 0;
	*v = strtoull(s, &end, 0);
	if (errno || *end || !*s || *v > max) {
		fprintf(stderr, "%s: %s: '%s' is not a number up to %llu\n",
			prog, what, s, max);
		return 2;
	}
	return 0;
}

static int parse_bool(const char *s, unsigned long long *v, const char *what)
{
	if (!strcmp(s, "on") || !strcmp(s, "yes") || !strcmp(s, "1"))
		*v = 1;
	else if (!strcmp(s, "off") || !strcmp(s, "no") || !strcmp(s, "0"))
		*v = 0;
	else {
		fprintf(stderr, "%s: %s: '%s' is not on or off\n", prog, what,
			s);
		return 2;
	}
	return 0;
}

struct set_args {
	int argc;
	char **argv;
};

static const struct {
	const char *name;
	int type;		/* CREM_A_* */
	int width;		/* bytes; 0: on/off */
	unsigned long long max;
	unsigned long long min;
} settings[] = {
	{ "port", CREM_A_PORT, 2, 65535, 0 },
	{ "enabled", CREM_A_ENABLED, 0, 1, 0 },
	{ "k", CREM_A_K, 1, 255, 1 },
	{ "m", CREM_A_M, 1, 255, 0 },
	{ "adaptive", CREM_A_ADAPTIVE, 0, 1, 0 },
	{ "m-cong", CREM_A_M_CONG, 1, 255, 0 },
	{ "epsilon-ppm", CREM_A_EPSILON_PPM, 4, 999999, 1 },
	{ "hold-us", CREM_A_HOLD_US, 4, 10000000, 0 },
	{ "reorder-us", CREM_A_REORDER_US, 4, 10000000, 0 },
	{ "auto-timing", CREM_A_AUTO_TIMING, 0, 1, 0 },
	{ "max-flows", CREM_A_MAX_FLOWS, 4, 1000000, 0 },
	{ "max-open-blocks", CREM_A_MAX_OPEN_BLOCKS, 2, 65535, 1 },
	{ "mem-limit", CREM_A_MEM_LIMIT, 8, ~0ull, 0 },
	{ "flow-mem-limit", CREM_A_FLOW_MEM_LIMIT, 8, ~0ull, 0 },
	{ "hello-rate", CREM_A_HELLO_RATE, 4, 250000, 1 },
	{ "coder-mbs", CREM_A_CODER_MBS, 4, 1000000, 0 },
	{ "resend-copies", CREM_A_RESEND_COPIES, 0, 1, 0 },
};

static int build_set(struct nlmsghdr *nlh, void *arg)
{
	struct set_args *a = arg;
	unsigned long long v;
	int i, s;

	for (i = 1; i < a->argc; i += 2) {
		for (s = 0; s < (int)(sizeof(settings) / sizeof(settings[0])); s++)
			if (!strcmp(a->argv[i], settings[s].name))
				break;
		if (!strcmp(a->argv[i], "role")) {
			if (i + 1 >= a->argc)
				goto missing;
			v = !strcmp(a->argv[i + 1], "sender") ? 1 :
			    !strcmp(a->argv[i + 1], "receiver") ? 2 :
			    !strcmp(a->argv[i + 1], "both") ? 3 : 0;
			if (!v) {
				fprintf(stderr, "%s: role: sender, receiver or both\n",
					prog);
				return 2;
			}
			mnl_attr_put_u8(nlh, CREM_A_ROLE, v);
			continue;
		}
		if (s == (int)(sizeof(settings) / sizeof(settings[0]))) {
			fprintf(stderr, "%s: set: unknown setting '%s'\n", prog,
				a->argv[i]);
			return 2;
		}
		if (i + 1 >= a->argc)
			goto missing;
		if (settings[s].width ?
		    parse_uint(a->argv[i + 1], settings[s].max, &v,
			       settings[s].name) :
		    parse_bool(a->argv[i + 1], &v, settings[s].name))
			return 2;
		if (v < settings[s].min) {
			fprintf(stderr, "%s: %s: '%s' is not a number from %llu to %llu\n",
				prog, settings[s].name, a->argv[i + 1],
				settings[s].min, settings[s].max);
			return 2;
		}
		switch (settings[s].width) {
		case 0:
		case 1:
			mnl_attr_put_u8(nlh, settings[s].type, v);
			break;
		case 2:
			mnl_attr_put_u16(nlh, settings[s].type, v);
			break;
		case 4:
			mnl_attr_put_u32(nlh, settings[s].type, v);
			break;
		default:
			mnl_attr_put_u64(nlh, settings[s].type, v);
			break;
		}
	}
	return 0;
missing:
	fprintf(stderr, "%s: set: '%s' needs a value\n", prog, a->argv[i]);
	return 2;
}

/* Each setting once, and role: more pairs than that are a mistake. */
#define MAX_SET_PAIRS (sizeof(settings) / sizeof(settings[0]) + 1)

int cmd_set(const struct options *opt, int argc, char **argv)
{
	struct set_args a = { argc, argv };
	/* a header and MAX_SET_PAIRS attributes of at most 12 bytes */
	static char scratch[1024];
	int ret;

	(void)opt;
	if (argc < 3) {
		fprintf(stderr, "usage: %s set SETTING VALUE [SETTING VALUE]...\n"
			"settings: port role enabled k m adaptive m-cong epsilon-ppm hold-us\n"
			"          reorder-us auto-timing max-flows max-open-blocks mem-limit\n"
			"          flow-mem-limit hello-rate coder-mbs resend-copies\n",
			prog);
		return 2;
	}
	if ((size_t)(argc - 1) > 2 * MAX_SET_PAIRS) {
		fprintf(stderr, "%s: set: at most %zu settings at once\n", prog,
			MAX_SET_PAIRS);
		return 2;
	}
	/* Every setting is checked before crem is asked anything. */
	ret = build_set(mnl_nlmsg_put_header(scratch), &a);
	if (ret)
		return ret;
	return request(CREM_CMD_SET_CONFIG, "set", build_set, &a, NULL, NULL);
}

/* "ADDR[/LEN]" into @p. */
static int parse_prefix(const char *s, struct prefix *p)
{
	char buf[80], *slash;
	unsigned long long len;

	snprintf(buf, sizeof(buf), "%s", s);
	slash = strchr(buf, '/');
	if (slash)
		*slash = '\0';
	memset(p, 0, sizeof(*p));
	if (inet_pton(AF_INET, buf, p->addr) == 1)
		p->family = 4;
	else if (inet_pton(AF_INET6, buf, p->addr) == 1)
		p->family = 6;
	else {
		fprintf(stderr, "%s: '%s' is not an address or prefix\n", prog,
			s);
		return 2;
	}
	p->len = p->family == 4 ? 32 : 128;
	if (slash) {
		if (parse_uint(slash + 1, p->len, &len, "prefix length"))
			return 2;
		p->len = len;
	}
	return 0;
}

struct prefix_req {
	int type;
	struct prefix p;
};

static int build_prefix(struct nlmsghdr *nlh, void *arg)
{
	struct prefix_req *r = arg;
	unsigned int alen = r->p.family == 4 ? 4 : 16;
	struct nlattr *nest = mnl_attr_nest_start(nlh, r->type);

	mnl_attr_put_u8(nlh, CREM_A_PREFIX_FAMILY, r->p.family);
	mnl_attr_put(nlh, CREM_A_PREFIX_ADDR, alen, r->p.addr);
	mnl_attr_put_u8(nlh, CREM_A_PREFIX_LEN, r->p.len);
	if (r->p.has_peer)
		mnl_attr_put(nlh, CREM_A_PREFIX_PEER, alen, r->p.peer);
	mnl_attr_nest_end(nlh, nest);
	return 0;
}

static int prefix_cmd(const struct options *opt, int argc, char **argv,
		      bool reporter)
{
	struct prefix_req r = {
		.type = reporter ? CREM_A_REPORTER : CREM_A_PREFIX,
	};
	const char *usage = reporter ?
		"usage: %s reporter add|del PREFIX\n" :
		"usage: %s protect add PREFIX [peer ADDR] | del PREFIX | list\n";
	bool add;

	if (argc == 2 && !strcmp(argv[1], "list"))
		return cmd_config(opt, 1, argv);
	if (argc < 3 || (strcmp(argv[1], "add") && strcmp(argv[1], "del"))) {
		fprintf(stderr, usage, prog);
		return 2;
	}
	add = !strcmp(argv[1], "add");
	if (parse_prefix(argv[2], &r.p))
		return 2;
	if (argc == 5 && !reporter && add && !strcmp(argv[3], "peer")) {
		struct prefix peer;

		if (parse_prefix(argv[4], &peer))
			return 2;
		if (peer.family != r.p.family) {
			fprintf(stderr, "%s: the peer's family is not the prefix's\n",
				prog);
			return 2;
		}
		memcpy(r.p.peer, peer.addr, 16);
		r.p.has_peer = true;
	} else if (argc != 3) {
		fprintf(stderr, usage, prog);
		return 2;
	}
	return request(reporter ? (add ? CREM_CMD_REPORTER_ADD :
				   CREM_CMD_REPORTER_DEL) :
			(add ? CREM_CMD_PROTECT_ADD : CREM_CMD_PROTECT_DEL),
		       argv[0], build_prefix, &r, NULL, NULL);
}

int cmd_protect(const struct options *opt, int argc, char **argv)
{
	return prefix_cmd(opt, argc, argv, false);
}

int cmd_reporter(const struct options *opt, int argc, char **argv)
{
	return prefix_cmd(opt, argc, argv, true);
}
