// SPDX-License-Identifier: GPL-2.0
/*
 * cremctl flows | flow close | stats: the namespace's flows and counters.
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

#define MAX_FLOW_STATS 96

struct stat_value {
	char name[48];
	uint64_t value;
};

struct stats {
	unsigned int n;
	struct stat_value v[256];
};

struct flow {
	uint8_t family, role, scheme, k, m, config_id, congestion, breaker;
	uint32_t qp, id, srtt_us, hold_us, loss_ppm;
	uint16_t t;
	uint64_t mem;
	char state[24];
	uint8_t src[16], dst[16], peer[16];
	unsigned int nstats;
	struct stat_value stats[MAX_FLOW_STATS];
};

struct dump {
	const struct options *opt;
	FILE *out;		/* this attempt's output, kept until it is whole */
	struct json j;
	unsigned int n;
};

/* Dumps that flows interrupted (NLM_F_DUMP_INTR) are tried again. */
#define DUMP_ATTEMPTS 10

static int stat_cb(const struct nlattr *attr, void *data)
{
	struct stat_value *s = data;

	if (mnl_attr_get_type(attr) == CREM_A_STAT_NAME)
		snprintf(s->name, sizeof(s->name), "%s", mnl_attr_get_str(attr));
	else if (mnl_attr_get_type(attr) == CREM_A_STAT_VALUE)
		s->value = mnl_attr_get_u64(attr);
	return MNL_CB_OK;
}

static void copy_addr(uint8_t *dst, const struct nlattr *attr)
{
	size_t n = mnl_attr_get_payload_len(attr);

	memcpy(dst, mnl_attr_get_payload(attr), n > 16 ? 16 : n);
}

static int flow_attr_cb(const struct nlattr *attr, void *data)
{
	struct flow *f = data;

	switch (mnl_attr_get_type(attr)) {
	case CREM_A_FLOW_FAMILY:
		f->family = mnl_attr_get_u8(attr);
		break;
	case CREM_A_FLOW_SRC:
		copy_addr(f->src, attr);
		break;
	case CREM_A_FLOW_DST:
		copy_addr(f->dst, attr);
		break;
	case CREM_A_FLOW_PEER:
		copy_addr(f->peer, attr);
		break;
	case CREM_A_FLOW_QP:
		f->qp = mnl_attr_get_u32(attr);
		break;
	case CREM_A_FLOW_ROLE:
		f->role = mnl_attr_get_u8(attr);
		break;
	case CREM_A_FLOW_ID:
		f->id = mnl_attr_get_u32(attr);
		break;
	case CREM_A_FLOW_STATE:
		snprintf(f->state, sizeof(f->state), "%s",
			 mnl_attr_get_str(attr));
		break;
	case CREM_A_FLOW_SCHEME:
		f->scheme = mnl_attr_get_u8(attr);
		break;
	case CREM_A_FLOW_K:
		f->k = mnl_attr_get_u8(attr);
		break;
	case CREM_A_FLOW_M:
		f->m = mnl_attr_get_u8(attr);
		break;
	case CREM_A_FLOW_T:
		f->t = mnl_attr_get_u16(attr);
		break;
	case CREM_A_FLOW_CONFIG_ID:
		f->config_id = mnl_attr_get_u8(attr);
		break;
	case CREM_A_FLOW_SRTT_US:
		f->srtt_us = mnl_attr_get_u32(attr);
		break;
	case CREM_A_FLOW_HOLD_US:
		f->hold_us = mnl_attr_get_u32(attr);
		break;
	case CREM_A_FLOW_LOSS_PPM:
		f->loss_ppm = mnl_attr_get_u32(attr);
		break;
	case CREM_A_FLOW_CONGESTION:
		f->congestion = mnl_attr_get_u8(attr);
		break;
	case CREM_A_FLOW_BREAKER:
		f->breaker = mnl_attr_get_u8(attr);
		break;
	case CREM_A_FLOW_MEM:
		f->mem = mnl_attr_get_u64(attr);
		break;
	case CREM_A_FLOW_STATS:
		if (f->nstats < MAX_FLOW_STATS)
			mnl_attr_parse_nested(attr, stat_cb,
					      &f->stats[f->nstats++]);
		break;
	}
	return MNL_CB_OK;
}

static unsigned long long flow_stat(const struct flow *f, const char *name)
{
	unsigned int i;

	for (i = 0; i < f->nstats; i++)
		if (!strcmp(f->stats[i].name, name))
			return f->stats[i].value;
	return 0;
}

/*
 * A receiver's losses by their end (engine.rst, "Every loss accounted
 * for"); a loss is counted once its end is known.
 */
static void print_losses(FILE *out, const struct flow *f)
{
	unsigned long long n = flow_stat(f, "losses");

	if (!n)
		return;
	fprintf(out, "  losses %llu: restored %llu, restored late %llu; "
		"left to RDMA: unprotected %llu, no repairs %llu, "
		"hold expired %llu, coded late %llu, incomplete %llu, "
		"limits %llu\n", n, flow_stat(f, "losses_restored"),
		flow_stat(f, "losses_restored_late"),
		flow_stat(f, "losses_rdma_unprotected"),
		flow_stat(f, "losses_rdma_no_repairs"),
		flow_stat(f, "losses_rdma_hold_expired"),
		flow_stat(f, "losses_rdma_coded_late"),
		flow_stat(f, "losses_rdma_incomplete"),
		flow_stat(f, "losses_rdma_limits"));
}

static void print_flow(struct dump *d, const struct flow *f)
{
	char src[INET6_ADDRSTRLEN], dst[INET6_ADDRSTRLEN];
	char peer[INET6_ADDRSTRLEN];
	int af = f->family == 4 ? AF_INET : AF_INET6;
	const char *role = f->role == 1 ? "sender" : "receiver";
	unsigned int i;

	inet_ntop(af, f->src, src, sizeof(src));
	inet_ntop(af, f->dst, dst, sizeof(dst));
	inet_ntop(af, f->peer, peer, sizeof(peer));
	if (!d->opt->json) {
		fprintf(d->out, "flow %u (%s, %s): %s -> %s qp 0x%x, peer %s\n",
			f->id, role, f->state, src, dst, f->qp, peer);
		fprintf(d->out, "  config %u: scheme %u k %u m %u T %u; srtt %u us; hold %u us",
			f->config_id, f->scheme, f->k, f->m, f->t, f->srtt_us,
			f->hold_us);
		if (f->role == 1)
			fprintf(d->out, "; loss %u ppm, %s%s", f->loss_ppm,
				f->congestion ? "congestion" : "transmission loss",
				f->breaker ? ", circuit breaker" : "");
		fprintf(d->out, "; %llu bytes\n", (unsigned long long)f->mem);
		if (f->role != 1)
			print_losses(d->out, f);
		/* A receiver's losses are on their own line above. */
		for (i = 0; i < f->nstats; i++)
			if (f->stats[i].value &&
			    (f->role == 1 ||
			     strncmp(f->stats[i].name, "losses", 6)))
				fprintf(d->out, "    %-26s %llu\n",
					f->stats[i].name,
					(unsigned long long)f->stats[i].value);
		return;
	}
	json_object_begin(&d->j, NULL);
	json_u64(&d->j, "id", f->id);
	json_string(&d->j, "role", role);
	json_string(&d->j, "state", f->state);
	json_string(&d->j, "src", src);
	json_string(&d->j, "dst", dst);
	json_u64(&d->j, "qp", f->qp);
	json_string(&d->j, "peer", peer);
	json_u64(&d->j, "config_id", f->config_id);
	json_u64(&d->j, "scheme", f->scheme);
	json_u64(&d->j, "k", f->k);
	json_u64(&d->j, "m", f->m);
	json_u64(&d->j, "t", f->t);
	json_u64(&d->j, "srtt_us", f->srtt_us);
	json_u64(&d->j, "hold_us", f->hold_us);
	if (f->role == 1) {
		json_u64(&d->j, "loss_ppm", f->loss_ppm);
		json_string(&d->j, "loss_class",
			    f->congestion ? "congestion" : "transmission");
		json_u64(&d->j, "breaker", f->breaker);
	}
	json_u64(&d->j, "mem", f->mem);
	json_object_begin(&d->j, "stats");
	for (i = 0; i < f->nstats; i++)
		json_u64(&d->j, f->stats[i].name, f->stats[i].value);
	json_object_end(&d->j);
	json_object_end(&d->j);
}

static int flows_attr_cb(const struct nlattr *attr, void *data)
{
	struct dump *d = data;
	struct flow *f;

	if (mnl_attr_get_type(attr) != CREM_A_FLOW)
		return MNL_CB_OK;
	f = calloc(1, sizeof(*f));
	if (!f)
		return MNL_CB_ERROR;
	mnl_attr_parse_nested(attr, flow_attr_cb, f);
	print_flow(d, f);
	d->n++;
	free(f);
	return MNL_CB_OK;
}

static int flows_cb(const struct nlmsghdr *nlh, void *data)
{
	return mnl_attr_parse(nlh, sizeof(struct genlmsghdr), flows_attr_cb,
			      data);
}

/* One attempt at the whole dump, into @d->out; @opened: connected. */
static int dump_flows(struct dump *d, char *why, size_t why_len, bool *opened)
{
	struct crem_nl nl;
	int ret;

	ret = crem_nl_open(&nl);
	*opened = !ret;
	if (ret)
		return ret;
	if (d->opt->json) {
		json_init(&d->j, d->out, d->opt->pretty);
		json_array_begin(&d->j, NULL);
	}
	ret = crem_nl_talk(&nl, crem_nl_request(&nl, CREM_CMD_GET_FLOWS,
						NLM_F_DUMP),
			   flows_cb, d, why, why_len);
	crem_nl_close(&nl);
	if (d->opt->json) {
		json_array_end(&d->j);
		json_finish(&d->j);
	} else if (!ret && !d->n) {
		fprintf(d->out, "no flows\n");
	}
	return ret;
}

/*
 * The flows, from one consistent dump: flows made or ended while the dump
 * ran across several messages interrupt it (EINTR from libmnl), and it is
 * run again; only a whole one is printed.
 */
int cmd_flows(const struct options *opt, int argc, char **argv)
{
	char why[256] = "", *text = NULL;
	bool opened = false;
	size_t size = 0;
	int ret = -EINTR, attempt;

	if (argc > 1) {
		fprintf(stderr, "%s: flows takes no arguments\n", prog);
		return 2;
	}
	for (attempt = 0; attempt < DUMP_ATTEMPTS && ret == -EINTR; attempt++) {
		struct dump d = { .opt = opt };

		free(text);
		text = NULL;
		d.out = open_memstream(&text, &size);
		if (!d.out)
			return report(-errno, "flows", NULL);
		ret = dump_flows(&d, why, sizeof(why), &opened);
		fclose(d.out);
	}
	if (!ret)
		fwrite(text, 1, size, stdout);
	free(text);
	if (!opened)
		return report(ret, "connect", NULL);
	if (ret == -EINTR)
		return report(ret, "flows",
			      "the flows changed during every attempt");
	return ret ? report(ret, "flows", why) : 0;
}

struct close_req {
	uint32_t id;
	uint8_t role;
};

int cmd_flow(const struct options *opt, int argc, char **argv)
{
	struct close_req r;
	struct crem_nl nl;
	struct nlmsghdr *nlh;
	char why[256], *end;
	int ret;

	(void)opt;
	if (argc != 4 || strcmp(argv[1], "close") ||
	    (strcmp(argv[3], "sender") && strcmp(argv[3], "receiver"))) {
		fprintf(stderr, "usage: %s flow close ID sender|receiver\n", prog);
		return 2;
	}
	errno = 0;
	r.id = strtoul(argv[2], &end, 0);
	if (errno || *end || !argv[2][0]) {
		fprintf(stderr, "%s: flow close: '%s' is not a Flow ID\n", prog,
			argv[2]);
		return 2;
	}
	r.role = !strcmp(argv[3], "sender") ? 1 : 2;
	ret = crem_nl_open(&nl);
	if (ret)
		return report(ret, "connect", NULL);
	nlh = crem_nl_request(&nl, CREM_CMD_CLOSE_FLOW, 0);
	mnl_attr_put_u32(nlh, CREM_A_CLOSE_ID, r.id);
	mnl_attr_put_u8(nlh, CREM_A_CLOSE_ROLE, r.role);
	ret = crem_nl_talk(&nl, nlh, NULL, NULL, why, sizeof(why));
	crem_nl_close(&nl);
	return ret ? report(ret, "flow close", why) : 0;
}

static int stats_attr_cb(const struct nlattr *attr, void *data)
{
	struct stats *s = data;

	if (mnl_attr_get_type(attr) == CREM_A_STATS &&
	    s->n < sizeof(s->v) / sizeof(s->v[0]))
		mnl_attr_parse_nested(attr, stat_cb, &s->v[s->n++]);
	return MNL_CB_OK;
}

static int stats_cb(const struct nlmsghdr *nlh, void *data)
{
	return mnl_attr_parse(nlh, sizeof(struct genlmsghdr), stats_attr_cb,
			      data);
}

int cmd_stats(const struct options *opt, int argc, char **argv)
{
	struct stats *s = calloc(1, sizeof(*s));
	struct crem_nl nl;
	char why[256];
	unsigned int i;
	struct json j;
	int ret;

	if (!s)
		return 1;
	if (argc > 1) {
		fprintf(stderr, "%s: stats takes no arguments\n", prog);
		free(s);
		return 2;
	}
	ret = crem_nl_open(&nl);
	if (ret) {
		free(s);
		return report(ret, "connect", NULL);
	}
	ret = crem_nl_talk(&nl, crem_nl_request(&nl, CREM_CMD_GET_STATS, 0),
			   stats_cb, s, why, sizeof(why));
	crem_nl_close(&nl);
	if (ret) {
		free(s);
		return report(ret, "stats", why);
	}
	if (opt->json) {
		json_init(&j, stdout, opt->pretty);
		json_object_begin(&j, NULL);
		for (i = 0; i < s->n; i++)
			json_u64(&j, s->v[i].name, s->v[i].value);
		json_object_end(&j);
		json_finish(&j);
	} else {
		for (i = 0; i < s->n; i++)
			printf("%-32s %llu\n", s->v[i].name,
			       (unsigned long long)s->v[i].value);
	}
	free(s);
	return 0;
}
