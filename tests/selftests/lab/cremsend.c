// SPDX-License-Identifier: GPL-2.0
/*
 * cremsend: craft and send CREM messages and RoCEv2 packets in the lab,
 * from any source address and port (raw sockets with the IP header
 * included), for the tests of hostile peers, held packets and devices.
 * Messages are built with crem's own encoder (crem/core/wire.c), RoCEv2
 * packets carry a valid ICRC (crem/core/roce.c).  Built static for the
 * guests by lab.sh.
 *
 * Usage: cremsend [options] MESSAGE
 *   -6                 IPv6 (default IPv4)
 *   -S ADDR            source address (default: the route's)
 *   -s PORT            source port (default 7700)
 *   -d ADDR            destination address (required)
 *   -p PORT            destination port of CREM messages (default 7700)
 *   -c COUNT           send the message COUNT times (default 1)
 *   -g USEC            between sends (default 0)
 *   -F FLOWS           do it all for FLOWS flows (default 1): flow i's
 *                      QP and nonce are those given plus i
 *   -a                 and flow i sends from the source address plus i,
 *                      a hello's flow source plus i too
 * MESSAGE:
 *   hello QP NONCE FSRC FDST     HELLO for the flow FSRC -> FDST, QP
 *   close FLOW_ID REASON         CLOSE
 *   param FLOW_ID K M            PARAM_UPDATE to Config 1 (scheme 1,
 *                                T 1090, from PSN 0)
 *   repair FLOW_ID START K       an ordinary REPAIR (scheme 1, Config 1,
 *                                T 1090, all present, symbol of zeros)
 *   roce QP PSN N [SKIP...]      N RC SEND-middle packets to UDP 4791,
 *                                PSNs from PSN, minus offsets SKIP
 *   gso SEGMENT N                N segments of SEGMENT octets to UDP 4791
 *                                in one send with UDP_SEGMENT (one GSO
 *                                packet), from a normal socket
 * Exit: 0 sent, 1 a send failed, 2 usage.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/ip.h>
#include <netinet/ip6.h>
#include <netinet/udp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "crem/core/bytes.h"
#include "crem/core/roce.h"
#include "crem/core/wire.h"

#ifndef UDP_SEGMENT
#define UDP_SEGMENT 103
#endif
#ifndef IPV6_HDRINCL
#define IPV6_HDRINCL 36
#endif

struct opts {
	int af;
	u8 src[16], dst[16];
	int have_src;
	u16 sport, dport;
	unsigned long count, gap_us, flows;
	unsigned long flow;	/* the one being sent, of flows */
	int step_addr;		/* -a */
};

/* @a plus @n, in its last 32 bits (all of an IPv4 address). */
static void addr_add(int af, u8 *a, unsigned long n)
{
	u8 *w = af == 6 ? a + 12 : a;

	crem_put32(w, crem_get32(w) + (u32)n);
}

static void usage(void)
{
	fprintf(stderr, "usage: cremsend [-6] [-S src] [-s sport] -d dst "
		"[-p dport] [-c count] [-g usec] [-F flows [-a]] MESSAGE (see the source)\n");
	exit(2);
}

static int addr(int af, const char *s, u8 *out)
{
	memset(out, 0, 16);
	return inet_pton(af == 6 ? AF_INET6 : AF_INET, s, out) == 1 ? 0 : -1;
}

static u16 csum_fold(u32 sum)
{
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (u16)~sum;
}

static u32 csum_add(u32 sum, const u8 *p, size_t len)
{
	size_t i;

	for (i = 0; i + 1 < len; i += 2)
		sum += (u32)p[i] << 8 | p[i + 1];
	if (len & 1)
		sum += (u32)p[len - 1] << 8;
	return sum;
}

/*
 * Wrap @payload in IP and UDP headers into @pkt.  @ecn_ect: ECT(0).
 * Return: the IP packet's length.
 */
static size_t wrap(const struct opts *o, u16 dport, const u8 *payload,
		   size_t len, u8 *pkt)
{
	size_t iph = o->af == 6 ? 40 : 20, ulen = 8 + len;
	u8 *udp = pkt + iph;
	u32 sum;

	memset(pkt, 0, iph + 8);
	if (o->af == 6) {
		pkt[0] = 0x60;
		crem_put16(pkt + 4, ulen);
		pkt[6] = IPPROTO_UDP;
		pkt[7] = 64;
		memcpy(pkt + 8, o->src, 16);
		memcpy(pkt + 24, o->dst, 16);
	} else {
		pkt[0] = 0x45;
		crem_put16(pkt + 2, iph + ulen);
		pkt[6] = 0x40;		/* DF */
		pkt[8] = 64;
		pkt[9] = IPPROTO_UDP;
		memcpy(pkt + 12, o->src, 4);
		memcpy(pkt + 16, o->dst, 4);
		crem_put16(pkt + 10, csum_fold(csum_add(0, pkt, 20)));
	}
	crem_put16(udp, o->sport);
	crem_put16(udp + 2, dport);
	crem_put16(udp + 4, ulen);
	memcpy(udp + 8, payload, len);
	/* The pseudo-header, then the datagram. */
	if (o->af == 6) {
		sum = csum_add(0, pkt + 8, 32);
		sum += ulen + IPPROTO_UDP;
	} else {
		sum = csum_add(0, pkt + 12, 8);
		sum += ulen + IPPROTO_UDP;
	}
	sum = csum_add(sum, udp, ulen);
	crem_put16(udp + 6, csum_fold(sum) ?: 0xffff);
	return iph + ulen;
}

static int raw_socket(const struct opts *o)
{
	int one = 1, fd;

	if (o->af == 6) {
		fd = socket(AF_INET6, SOCK_RAW, IPPROTO_RAW);
		if (fd >= 0 && setsockopt(fd, IPPROTO_IPV6, IPV6_HDRINCL, &one,
					  sizeof(one)) < 0) {
			close(fd);
			return -1;
		}
		return fd;
	}
	return socket(AF_INET, SOCK_RAW, IPPROTO_RAW);
}

/*
 * Send one IP packet.  A full queue on the way out (ENOBUFS: the lab's
 * netem holds 1000 packets) is waited out, a millisecond at a time, for
 * a second at most.
 */
static int send_ip(int fd, const struct opts *o, const u8 *pkt, size_t len)
{
	struct sockaddr_in6 s6 = { .sin6_family = AF_INET6 };
	struct sockaddr_in s4 = { .sin_family = AF_INET };
	void *to = &s4;
	socklen_t tolen = sizeof(s4);
	int tries;

	if (o->af == 6) {
		memcpy(&s6.sin6_addr, o->dst, 16);
		to = &s6;
		tolen = sizeof(s6);
	} else {
		memcpy(&s4.sin_addr, o->dst, 4);
	}
	for (tries = 0; tries < 1000; tries++) {
		if (sendto(fd, pkt, len, 0, to, tolen) == (ssize_t)len)
			return 0;
		if (errno != ENOBUFS)
			return -1;
		usleep(1000);
	}
	return -1;
}

/* The source address the route to the destination would use. */
static int route_source(struct opts *o)
{
	struct sockaddr_storage ss = { 0 };
	socklen_t sl = sizeof(ss);
	int fd = socket(o->af == 6 ? AF_INET6 : AF_INET, SOCK_DGRAM, 0);
	int ret = -1;

	if (fd < 0)
		return -1;
	if (o->af == 6) {
		struct sockaddr_in6 d = { .sin6_family = AF_INET6,
					  .sin6_port = htons(9) };

		memcpy(&d.sin6_addr, o->dst, 16);
		if (!connect(fd, (void *)&d, sizeof(d)) &&
		    !getsockname(fd, (void *)&ss, &sl)) {
			memcpy(o->src, &((struct sockaddr_in6 *)&ss)->sin6_addr,
			       16);
			ret = 0;
		}
	} else {
		struct sockaddr_in d = { .sin_family = AF_INET,
					 .sin_port = htons(9) };

		memcpy(&d.sin_addr, o->dst, 4);
		if (!connect(fd, (void *)&d, sizeof(d)) &&
		    !getsockname(fd, (void *)&ss, &sl)) {
			memcpy(o->src, &((struct sockaddr_in *)&ss)->sin_addr,
			       4);
			ret = 0;
		}
	}
	close(fd);
	return ret;
}

/* A CREM message built with crem's encoder into @buf. */
static int build_msg(const struct opts *o, int argc, char **argv, u8 *buf,
		     size_t cap)
{
	static u8 zeros[2048];
	struct crem_msg m;
	unsigned int j;

	memset(&m, 0, sizeof(m));
	if (!strcmp(argv[0], "hello") && argc == 5) {
		m.type = CREM_MSG_HELLO;
		m.hello.flow_kind = CREM_FLOW_ROCEV2;
		m.hello.af = o->af == 6 ? CREM_AF_INET6 : CREM_AF_INET;
		m.hello.schemes = 1u << CREM_FEC_CAUCHY_RS |
				  1u << CREM_FEC_SOURCE_COPY;
		m.hello.max_k = 64;
		m.hello.max_m = 16;
		m.hello.max_t = 4162;
		m.hello.rdma_mtu = 1024;
		m.hello.flow_label = (strtoul(argv[1], NULL, 0) + o->flow) &
				     0xffffff;
		m.hello.nonce = strtoull(argv[2], NULL, 0) + o->flow;
		if (addr(o->af, argv[3], m.hello.src) ||
		    addr(o->af, argv[4], m.hello.dst))
			return -1;
		if (o->step_addr)
			addr_add(o->af, m.hello.src, o->flow);
	} else if (!strcmp(argv[0], "close") && argc == 3) {
		m.type = CREM_MSG_CLOSE;
		m.flow_id = strtoul(argv[1], NULL, 0);
		m.close.reason = strtoul(argv[2], NULL, 0);
	} else if (!strcmp(argv[0], "param") && argc == 4) {
		m.type = CREM_MSG_PARAM_UPDATE;
		m.flow_id = strtoul(argv[1], NULL, 0);
		m.param_update.config_id = 1;
		m.param_update.scheme = CREM_FEC_CAUCHY_RS;
		m.param_update.k = strtoul(argv[2], NULL, 0);
		m.param_update.m = strtoul(argv[3], NULL, 0);
		m.param_update.symbol_len = 1090;
	} else if (!strcmp(argv[0], "repair") && argc == 4) {
		m.type = CREM_MSG_REPAIR;
		m.flow_id = strtoul(argv[1], NULL, 0);
		m.repair.config_id = 1;
		m.repair.scheme = CREM_FEC_CAUCHY_RS;
		m.repair.block_start = strtoul(argv[2], NULL, 0) & 0xffffff;
		m.repair.k = strtoul(argv[3], NULL, 0);
		m.repair.symbol_len = 1090;
		m.repair.symbol = zeros;
		for (j = 0; j < m.repair.k; j++)
			crem_set_add(&m.repair.present, j);
	} else {
		return -1;
	}
	return crem_wire_build(&m, buf, cap);
}

/* One RC SEND-middle packet to 4791 at @psn, with its ICRC. */
static size_t build_roce(const struct opts *o, u32 qp, u32 psn, u8 *pkt)
{
	u8 bth[12 + 1024 + 4];
	size_t len;
	u32 icrc;

	memset(bth, 0, sizeof(bth));
	bth[0] = CREM_ROCE_RC | CREM_ROCE_OP_SEND_MIDDLE;
	bth[1] = 0x40;			/* migration state, no pad */
	crem_put16(bth + 2, 0xffff);	/* default P_Key */
	crem_put24(bth + 5, qp);
	crem_put24(bth + 9, psn & 0xffffff);
	memset(bth + 12, 0xa5, 1024);
	len = wrap(o, CREM_ROCEV2_PORT, bth, sizeof(bth), pkt);
	icrc = crem_roce_icrc(pkt, len);
	memcpy(pkt + len - 4, &icrc, 4);
	return len;
}

static int send_gso(const struct opts *o, unsigned int seg, unsigned int n)
{
	struct sockaddr_storage d = { 0 };
	int fd, val = seg;
	size_t len = (size_t)seg * n;
	u8 *buf = calloc(1, len);
	socklen_t dl;
	int ret;

	fd = socket(o->af == 6 ? AF_INET6 : AF_INET, SOCK_DGRAM, 0);
	if (!buf || fd < 0 ||
	    setsockopt(fd, SOL_UDP, UDP_SEGMENT, &val, sizeof(val)) < 0) {
		perror("cremsend: gso");
		free(buf);
		return 1;
	}
	if (o->af == 6) {
		struct sockaddr_in6 *s = (void *)&d;

		s->sin6_family = AF_INET6;
		s->sin6_port = htons(CREM_ROCEV2_PORT);
		memcpy(&s->sin6_addr, o->dst, 16);
		dl = sizeof(*s);
	} else {
		struct sockaddr_in *s = (void *)&d;

		s->sin_family = AF_INET;
		s->sin_port = htons(CREM_ROCEV2_PORT);
		memcpy(&s->sin_addr, o->dst, 4);
		dl = sizeof(*s);
	}
	ret = sendto(fd, buf, len, 0, (void *)&d, dl) == (ssize_t)len ? 0 : 1;
	if (ret)
		perror("cremsend: gso send");
	close(fd);
	free(buf);
	return ret;
}

/* What one flow sends.  Return: 0, or 1 if a send failed. */
static int send_flow(int fd, const struct opts *o, int argc, char **argv)
{
	u8 msg[4096], pkt[4200];
	unsigned long i;
	int len;

	if (!strcmp(argv[0], "roce") && argc >= 4) {
		u32 qp = strtoul(argv[1], NULL, 0) + o->flow;
		u32 psn = strtoul(argv[2], NULL, 0);
		unsigned long n = strtoul(argv[3], NULL, 0), j;
		int k, skip;

		for (j = 0; j < n; j++) {
			for (skip = 0, k = 4; k < argc; k++)
				skip |= strtoul(argv[k], NULL, 0) == j;
			if (skip)
				continue;
			if (send_ip(fd, o, pkt, build_roce(o, qp, psn + j, pkt))) {
				perror("cremsend: send");
				return 1;
			}
			if (o->gap_us)
				usleep(o->gap_us);
		}
		return 0;
	}
	len = build_msg(o, argc, argv, msg, sizeof(msg));
	if (len < 0)
		usage();
	len = wrap(o, o->dport, msg, len, pkt);
	for (i = 0; i < o->count; i++) {
		if (send_ip(fd, o, pkt, len)) {
			perror("cremsend: send");
			return 1;
		}
		if (o->gap_us)
			usleep(o->gap_us);
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct opts o = { .af = 4, .sport = 7700, .dport = 7700, .count = 1,
			  .flows = 1 };
	const char *src = NULL, *dst = NULL;
	u8 base[16];
	int c, fd;

	while ((c = getopt(argc, argv, "6S:s:d:p:c:g:F:a")) != -1) {
		switch (c) {
		case '6':
			o.af = 6;
			break;
		case 'S':
			src = optarg;
			break;
		case 's':
			o.sport = strtoul(optarg, NULL, 0);
			break;
		case 'd':
			dst = optarg;
			break;
		case 'p':
			o.dport = strtoul(optarg, NULL, 0);
			break;
		case 'c':
			o.count = strtoul(optarg, NULL, 0);
			break;
		case 'g':
			o.gap_us = strtoul(optarg, NULL, 0);
			break;
		case 'F':
			o.flows = strtoul(optarg, NULL, 0);
			break;
		case 'a':
			o.step_addr = 1;
			break;
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (!dst || argc < 1 || addr(o.af, dst, o.dst))
		usage();
	if (src ? addr(o.af, src, o.src) : route_source(&o)) {
		fprintf(stderr, "cremsend: no source address\n");
		return 2;
	}
	if (!strcmp(argv[0], "gso") && argc == 3)
		return send_gso(&o, strtoul(argv[1], NULL, 0),
				strtoul(argv[2], NULL, 0));
	fd = raw_socket(&o);
	if (fd < 0) {
		perror("cremsend: raw socket");
		return 1;
	}
	memcpy(base, o.src, 16);
	for (o.flow = 0; o.flow < o.flows; o.flow++) {
		memcpy(o.src, base, 16);
		if (o.step_addr)
			addr_add(o.af, o.src, o.flow);
		if (send_flow(fd, &o, argc, argv))
			return 1;
	}
	return 0;
}
