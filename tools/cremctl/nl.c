// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <linux/genetlink.h>
#include <linux/netlink.h>

#include <linux/crem_netlink.h>

#include "nl.h"

/*
 * One receive takes a whole message: the stats reply is a few hundred
 * nests, up to four pages (crem_reply_start()), and libmnl's default
 * buffer of one page truncated it once the counters grew.
 */
#define CREMCTL_NL_BUF (32 * 1024)

#ifndef NETLINK_EXT_ACK
#define NETLINK_EXT_ACK 11
#endif

static struct nlmsghdr *put_genl_header(char *buf, uint16_t type,
					uint8_t cmd, uint8_t version,
					uint16_t flags, unsigned int seq)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct genlmsghdr *genl;

	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = NLM_F_REQUEST | flags;
	nlh->nlmsg_seq = seq;
	genl = mnl_nlmsg_put_extra_header(nlh, sizeof(*genl));
	genl->cmd = cmd;
	genl->version = version;
	return nlh;
}

/* What one request's callbacks share: the caller's callback and the error. */
struct talk_ctx {
	mnl_cb_t cb;
	void *data;
	char *why;
	size_t why_len;
};

static int data_cb(const struct nlmsghdr *nlh, void *data)
{
	struct talk_ctx *ctx = data;

	return ctx->cb ? ctx->cb(nlh, ctx->data) : MNL_CB_OK;
}

static int extack_attr_cb(const struct nlattr *attr, void *data)
{
	struct talk_ctx *ctx = data;

	if (mnl_attr_get_type(attr) == NLMSGERR_ATTR_MSG &&
	    mnl_attr_validate(attr, MNL_TYPE_NUL_STRING) >= 0)
		snprintf(ctx->why, ctx->why_len, "%s", mnl_attr_get_str(attr));
	return MNL_CB_OK;
}

/* NLMSG_DONE ends a dump (libmnl's default, lost with our own table). */
static int done_cb(const struct nlmsghdr *nlh, void *data)
{
	return MNL_CB_STOP;
}

/* NLMSG_ERROR: an ACK stops the loop; an error keeps its extack message. */
static int error_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlmsgerr *err = mnl_nlmsg_get_payload(nlh);
	unsigned int offset = sizeof(*err);

	if (nlh->nlmsg_len < mnl_nlmsg_size(sizeof(*err))) {
		errno = EBADMSG;
		return MNL_CB_ERROR;
	}
	if (!err->error)
		return MNL_CB_STOP;
	if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
		offset += err->msg.nlmsg_len - sizeof(err->msg);
	if ((nlh->nlmsg_flags & NLM_F_ACK_TLVS) &&
	    mnl_nlmsg_size(offset) < nlh->nlmsg_len)
		mnl_attr_parse(nlh, offset, extack_attr_cb, data);
	errno = -err->error;
	return MNL_CB_ERROR;
}

int crem_nl_talk(struct crem_nl *nl, struct nlmsghdr *nlh, mnl_cb_t cb,
		 void *data, char *why, size_t why_len)
{
	mnl_cb_t ctl[NLMSG_MIN_TYPE] = {
		[NLMSG_ERROR] = error_cb, [NLMSG_DONE] = done_cb,
	};
	struct talk_ctx ctx = {
		.cb = cb, .data = data, .why = why, .why_len = why_len,
	};
	unsigned int seq = nlh->nlmsg_seq;
	ssize_t len;
	int ret;

	if (why_len)
		why[0] = '\0';
	nlh->nlmsg_flags |= NLM_F_ACK;
	if (mnl_socket_sendto(nl->sock, nlh, nlh->nlmsg_len) < 0)
		return -errno;
	do {
		len = mnl_socket_recvfrom(nl->sock, nl->buf,
					  CREMCTL_NL_BUF);
		if (len < 0)
			return -errno;
		errno = 0;
		ret = mnl_cb_run2(nl->buf, len, seq, nl->portid, data_cb, &ctx,
				  ctl, NLMSG_MIN_TYPE);
	} while (ret > MNL_CB_STOP);
	if (ret < 0)
		return errno ? -errno : -EPROTO;
	return 0;
}

struct family_ctx {
	uint16_t id;
	uint32_t events;
	uint32_t grp_id;
	char grp_name[32];
};

static int grp_attr_cb(const struct nlattr *attr, void *data)
{
	struct family_ctx *ctx = data;

	if (mnl_attr_get_type(attr) == CTRL_ATTR_MCAST_GRP_ID &&
	    mnl_attr_validate(attr, MNL_TYPE_U32) >= 0)
		ctx->grp_id = mnl_attr_get_u32(attr);
	else if (mnl_attr_get_type(attr) == CTRL_ATTR_MCAST_GRP_NAME &&
		 mnl_attr_validate(attr, MNL_TYPE_NUL_STRING) >= 0)
		snprintf(ctx->grp_name, sizeof(ctx->grp_name), "%s",
			 mnl_attr_get_str(attr));
	return MNL_CB_OK;
}

static int grps_attr_cb(const struct nlattr *attr, void *data)
{
	struct family_ctx *ctx = data;

	ctx->grp_id = 0;
	ctx->grp_name[0] = '\0';
	mnl_attr_parse_nested(attr, grp_attr_cb, ctx);
	if (!strcmp(ctx->grp_name, CREM_MCGRP_EVENTS))
		ctx->events = ctx->grp_id;
	return MNL_CB_OK;
}

static int family_attr_cb(const struct nlattr *attr, void *data)
{
	struct family_ctx *ctx = data;

	if (mnl_attr_get_type(attr) == CTRL_ATTR_FAMILY_ID &&
	    mnl_attr_validate(attr, MNL_TYPE_U16) >= 0)
		ctx->id = mnl_attr_get_u16(attr);
	else if (mnl_attr_get_type(attr) == CTRL_ATTR_MCAST_GROUPS)
		mnl_attr_parse_nested(attr, grps_attr_cb, ctx);
	return MNL_CB_OK;
}

static int family_cb(const struct nlmsghdr *nlh, void *data)
{
	mnl_attr_parse(nlh, sizeof(struct genlmsghdr), family_attr_cb, data);
	return MNL_CB_OK;
}

int crem_nl_open(struct crem_nl *nl)
{
	struct family_ctx fam = { 0 };
	struct nlmsghdr *nlh;
	char why[256];
	int one = 1, ret;

	memset(nl, 0, sizeof(*nl));
	nl->buf = malloc(CREMCTL_NL_BUF);
	if (!nl->buf)
		return -ENOMEM;
	nl->sock = mnl_socket_open(NETLINK_GENERIC);
	if (!nl->sock || mnl_socket_bind(nl->sock, 0, MNL_SOCKET_AUTOPID) < 0) {
		ret = -errno;
		crem_nl_close(nl);
		return ret;
	}
	mnl_socket_setsockopt(nl->sock, NETLINK_EXT_ACK, &one, sizeof(one));
	nl->portid = mnl_socket_get_portid(nl->sock);
	nl->seq = (unsigned int)time(NULL);

	nlh = put_genl_header(nl->buf, GENL_ID_CTRL, CTRL_CMD_GETFAMILY, 1, 0,
			      ++nl->seq);
	mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, CREM_GENL_NAME);
	ret = crem_nl_talk(nl, nlh, family_cb, &fam, why, sizeof(why));
	if (!ret && !fam.id)
		ret = -EPROTO;
	if (ret) {
		crem_nl_close(nl);
		return ret;
	}
	nl->family_id = fam.id;
	nl->events_group = fam.events;
	return 0;
}

int crem_nl_join_events(struct crem_nl *nl)
{
	int group = nl->events_group;

	if (!group)
		return -ENOENT;
	if (mnl_socket_setsockopt(nl->sock, NETLINK_ADD_MEMBERSHIP, &group,
				  sizeof(group)) < 0)
		return -errno;
	return 0;
}

int crem_nl_listen(struct crem_nl *nl, mnl_cb_t cb, void *data)
{
	for (;;) {
		ssize_t len = mnl_socket_recvfrom(nl->sock, nl->buf,
						  CREMCTL_NL_BUF);

		if (len < 0)
			return -errno;
		if (mnl_cb_run(nl->buf, len, 0, 0, cb, data) < MNL_CB_OK)
			return errno ? -errno : 0;
	}
}

void crem_nl_close(struct crem_nl *nl)
{
	if (nl->sock)
		mnl_socket_close(nl->sock);
	free(nl->buf);
	memset(nl, 0, sizeof(*nl));
}

struct nlmsghdr *crem_nl_request(struct crem_nl *nl, uint8_t cmd,
				 uint16_t flags)
{
	return put_genl_header(nl->buf, nl->family_id, cmd, CREM_GENL_VERSION,
			       flags, ++nl->seq);
}
