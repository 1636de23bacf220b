// SPDX-License-Identifier: GPL-2.0
/*
 * cremctl: configure and observe crem through its generic netlink family.
 *
 * In the style of wg(8) and ip(8): a table of subcommands, plain `cremctl`
 * means `cremctl show`, human output by default and JSON with -j.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/genetlink.h>

#include <linux/crem_netlink.h>

#include "crem/core/version.h"
#include "cremctl.h"
#include "json.h"
#include "nl.h"

#define MAX_STATS 256
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

struct crem_stat_value {
	char name[64];
	uint64_t value;
};

struct crem_info {
	char version[64];
	char coder[64];
	uint32_t coder_mbs;	/* measured at load; 0: not measured or told */
	unsigned int nr_stats;
	struct crem_stat_value stats[MAX_STATS];
};

const char *prog = "cremctl";

int report(int err, const char *what, const char *why)
{
	if (err == -ENOENT && !strcmp(what, "connect"))
		fprintf(stderr,
			"%s: the crem module is not loaded (no generic netlink family \"%s\"); load it with: insmod crem.ko\n",
			prog, CREM_GENL_NAME);
	else if (err == -EPERM)
		fprintf(stderr, "%s: %s: permission denied: crem needs CAP_NET_ADMIN\n",
			prog, what);
	else if (why && why[0])
		fprintf(stderr, "%s: %s: %s (%s)\n", prog, what, why,
			strerror(-err));
	else
		fprintf(stderr, "%s: %s: %s\n", prog, what, strerror(-err));
	return 1;
}

static int version_attr_cb(const struct nlattr *attr, void *data)
{
	struct crem_info *info = data;

	if (mnl_attr_get_type(attr) == CREM_A_CODER_MEASURED_MBS) {
		if (mnl_attr_validate(attr, MNL_TYPE_U32) >= 0)
			info->coder_mbs = mnl_attr_get_u32(attr);
		return MNL_CB_OK;
	}
	if (mnl_attr_validate(attr, MNL_TYPE_NUL_STRING) < 0)
		return MNL_CB_OK;
	if (mnl_attr_get_type(attr) == CREM_A_VERSION)
		snprintf(info->version, sizeof(info->version), "%s",
			 mnl_attr_get_str(attr));
	else if (mnl_attr_get_type(attr) == CREM_A_CODER)
		snprintf(info->coder, sizeof(info->coder), "%s",
			 mnl_attr_get_str(attr));
	return MNL_CB_OK;
}

static int version_cb(const struct nlmsghdr *nlh, void *data)
{
	return mnl_attr_parse(nlh, sizeof(struct genlmsghdr), version_attr_cb,
			      data);
}

static int stat_attr_cb(const struct nlattr *attr, void *data)
{
	struct crem_stat_value *stat = data;

	switch (mnl_attr_get_type(attr)) {
	case CREM_A_STAT_NAME:
		if (mnl_attr_validate(attr, MNL_TYPE_NUL_STRING) >= 0)
			snprintf(stat->name, sizeof(stat->name), "%s",
				 mnl_attr_get_str(attr));
		break;
	case CREM_A_STAT_VALUE:
		if (mnl_attr_validate(attr, MNL_TYPE_U64) >= 0)
			stat->value = mnl_attr_get_u64(attr);
		break;
	}
	return MNL_CB_OK;
}

static int stats_attr_cb(const struct nlattr *attr, void *data)
{
	struct crem_info *info = data;
	struct crem_stat_value *stat;

	if (mnl_attr_get_type(attr) != CREM_A_STATS ||
	    mnl_attr_validate(attr, MNL_TYPE_NESTED) < 0 ||
	    info->nr_stats == MAX_STATS)
		return MNL_CB_OK;
	stat = &info->stats[info->nr_stats];
	memset(stat, 0, sizeof(*stat));
	mnl_attr_parse_nested(attr, stat_attr_cb, stat);
	if (stat->name[0])
		info->nr_stats++;
	return MNL_CB_OK;
}

static int stats_cb(const struct nlmsghdr *nlh, void *data)
{
	return mnl_attr_parse(nlh, sizeof(struct genlmsghdr), stats_attr_cb,
			      data);
}

/* Run one request without attributes; @what names it in errors. */
static int query(struct crem_nl *nl, uint8_t cmd, mnl_cb_t cb,
		 struct crem_info *info, const char *what)
{
	char why[256];
	int ret;

	ret = crem_nl_talk(nl, crem_nl_request(nl, cmd, 0), cb, info, why,
			   sizeof(why));
	return ret ? report(ret, what, why) : 0;
}

static int fetch(struct crem_info *info, bool with_stats)
{
	struct crem_nl nl;
	int ret;

	memset(info, 0, sizeof(*info));
	ret = crem_nl_open(&nl);
	if (ret)
		return report(ret, "connect", NULL);
	ret = query(&nl, CREM_CMD_GET_VERSION, version_cb, info, "version");
	if (!ret && with_stats)
		ret = query(&nl, CREM_CMD_GET_STATS, stats_cb, info, "stats");
	crem_nl_close(&nl);
	return ret;
}

/* For commands without arguments: argv[0] is the command's name. */
static bool extra_args(int argc, char **argv)
{
	if (argc <= 1)
		return false;
	fprintf(stderr, "%s: %s takes no arguments (got '%s')\n", prog,
		argv[0], argv[1]);
	return true;
}

static int cmd_version(const struct options *opt, int argc, char **argv)
{
	struct crem_info info;
	struct json j;

	if (extra_args(argc, argv))
		return 2;
	if (fetch(&info, false))
		return 1;
	if (!opt->json) {
		printf("crem %s (cremctl %s)\n", info.version, CREM_VERSION);
		return 0;
	}
	json_init(&j, stdout, opt->pretty);
	json_object_begin(&j, NULL);
	json_string(&j, "version", info.version);
	json_string(&j, "cremctl_version", CREM_VERSION);
	json_object_end(&j);
	json_finish(&j);
	return 0;
}

static int cmd_show(const struct options *opt, int argc, char **argv)
{
	struct crem_info info;
	unsigned int i;
	struct json j;

	if (extra_args(argc, argv))
		return 2;
	if (fetch(&info, true))
		return 1;
	if (!opt->json) {
		printf("crem %s\n", info.version);
		if (info.coder_mbs)
			printf("  coder: %s (%u MB/s measured at load)\n",
			       info.coder, info.coder_mbs);
		else
			printf("  coder: %s\n", info.coder);
		printf("  counters:\n");
		for (i = 0; i < info.nr_stats; i++)
			printf("    %-24s %llu\n", info.stats[i].name,
			       (unsigned long long)info.stats[i].value);
		return 0;
	}
	json_init(&j, stdout, opt->pretty);
	json_object_begin(&j, NULL);
	json_string(&j, "version", info.version);
	json_string(&j, "coder", info.coder);
	json_u64(&j, "coder_measured_mbs", info.coder_mbs);
	json_object_begin(&j, "stats");
	for (i = 0; i < info.nr_stats; i++)
		json_u64(&j, info.stats[i].name, info.stats[i].value);
	json_object_end(&j);
	json_object_end(&j);
	json_finish(&j);
	return 0;
}

static int cmd_help(const struct options *opt, int argc, char **argv);

static const struct {
	const char *name;
	int (*run)(const struct options *opt, int argc, char **argv);
	const char *help;
} commands[] = {
	{ "show", cmd_show, "the module's version and counters (default)" },
	{ "version", cmd_version, "the module's version" },
	{ "config", cmd_config, "the namespace's configuration" },
	{ "set", cmd_set, "change settings: set port 7000 k 32 ..." },
	{ "protect", cmd_protect, "protect add PREFIX [peer ADDR] | del PREFIX | list" },
	{ "reporter", cmd_reporter, "reporter add|del PREFIX: PATH_REPORT sources" },
	{ "flows", cmd_flows, "the protected flows, with their counters" },
	{ "flow", cmd_flow, "flow close ID sender|receiver" },
	{ "stats", cmd_stats, "every counter of the namespace" },
	{ "monitor", cmd_monitor, "print events as they happen [count N]" },
	{ "help", cmd_help, "this text" },
};

static void usage(FILE *out)
{
	size_t i;

	fprintf(out, "Usage: %s [-j] [-p] [COMMAND [ARGS]]\n\n", prog);
	fprintf(out, "Options:\n");
	fprintf(out, "  -j, --json     print JSON\n");
	fprintf(out, "  -p, --pretty   print indented JSON (implies -j)\n\n");
	fprintf(out, "Commands:\n");
	for (i = 0; i < ARRAY_SIZE(commands); i++)
		fprintf(out, "  %-10s %s\n", commands[i].name,
			commands[i].help);
}

static int cmd_help(const struct options *opt, int argc, char **argv)
{
	(void)opt;
	(void)argc;
	(void)argv;
	usage(stdout);
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option long_opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "pretty", no_argument, NULL, 'p' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static char *default_command[] = { "show", NULL };
	struct options opt = { 0 };
	size_t i;
	int c;

	while ((c = getopt_long(argc, argv, "+jph", long_opts, NULL)) != -1) {
		switch (c) {
		case 'j':
			opt.json = true;
			break;
		case 'p':
			opt.json = true;
			opt.pretty = true;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	argc -= optind;
	argv += optind;
	if (!argc) {
		argc = 1;
		argv = default_command;
	}
	for (i = 0; i < ARRAY_SIZE(commands); i++)
		if (!strcmp(commands[i].name, argv[0]))
			return commands[i].run(&opt, argc, argv);
	fprintf(stderr, "%s: unknown command '%s'\n", prog, argv[0]);
	usage(stderr);
	return 2;
}
