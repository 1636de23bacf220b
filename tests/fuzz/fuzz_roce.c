// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the RoCEv2 parser and the ICRC.  Inputs are IP
 * packets, copied to a buffer of their exact size so that ASan sees any
 * read past the end.  An accepted packet's parts must lie inside it.
 */
#include <stdlib.h>

#include "crem/core/roce.h"

int LLVMFuzzerTestOneInput(const u8 *data, size_t size);

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	u8 *copy = malloc(size ? size : 1);
	struct crem_roce_pkt p;

	if (!copy)
		return 0;
	memcpy(copy, data, size);
	if (crem_roce_parse_ip(copy, size, &p) == CREM_ROCE_OK) {
		if (p.ip_len > size || (p.payload &&
		    (p.payload < copy || p.payload + p.payload_len > copy + size)))
			abort();
		(void)crem_roce_icrc_ok(copy, p.ip_len);
		/* The RDMA MTU comes from the flow: 0 while unknown. */
		(void)crem_roce_psn_span(&p, (data[size - 1] & 3) ?
					 128u << (data[size - 1] & 3) : 0);
	}
	(void)crem_roce_parse_bth(copy, size, &p);
	/* Their guards against what the parser would have refused. */
	(void)crem_roce_icrc_ok(copy, size);
	(void)crem_roce_icrc(copy, size);
	free(copy);
	return 0;
}
