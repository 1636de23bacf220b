/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What cremctl's command files share.
 */
#ifndef CREMCTL_H
#define CREMCTL_H

#include <stdbool.h>
#include <stdint.h>

struct options {
	bool json;
	bool pretty;
};

extern const char *prog;

/* Print why @what failed (@why: the kernel's extack text); returns 1. */
int report(int err, const char *what, const char *why);

/* config.c */
int cmd_config(const struct options *opt, int argc, char **argv);
int cmd_set(const struct options *opt, int argc, char **argv);
int cmd_protect(const struct options *opt, int argc, char **argv);
int cmd_reporter(const struct options *opt, int argc, char **argv);

/* monitor.c */
int cmd_monitor(const struct options *opt, int argc, char **argv);

/* flows.c */
int cmd_flows(const struct options *opt, int argc, char **argv);
int cmd_flow(const struct options *opt, int argc, char **argv);
int cmd_stats(const struct options *opt, int argc, char **argv);

#endif /* CREMCTL_H */
