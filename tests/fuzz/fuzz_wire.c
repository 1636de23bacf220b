// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the CREM message parser.
 *
 * Besides memory safety (ASan, UBSan, and inputs copied to a buffer of
 * their exact size), it checks that whatever the parser accepts, the
 * builder reproduces: parse -> build -> parse succeeds, and building
 * again gives the same bytes.
 */
#include <stdlib.h>

#include "crem/core/wire.h"

static struct crem_psn_range ranges[16384];
static u32 dropped[CREM_PATH_MAX_ENTRIES][256];

/* Give a parsed message's raw lists to the builder. */
static void lists_from_raw(struct crem_msg *m)
{
	unsigned int i, e;

	if (m->type == CREM_MSG_REPAIR_REQUEST && (m->flags & CREM_REQ_F_RANGES)) {
		for (i = 0; i < m->request.nranges; i++)
			ranges[i] = crem_wire_range(m, i);
		m->request.ranges = ranges;
	}
	if (m->type == CREM_MSG_PATH_REPORT) {
		for (e = 0; e < m->path_report.nentries; e++) {
			struct crem_wire_hop *h = &m->path_report.hop[e];

			for (i = 0; i < h->npsns; i++)
				dropped[e][i] = crem_wire_dropped_psn(h, i);
			h->dropped = dropped[e];
		}
	}
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size);

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	static u8 first[70000], second[70000];
	static struct crem_wire_stats stats;
	struct crem_msg m, again;
	u8 *copy = malloc(size ? size : 1);
	int len, len2;

	if (!copy)
		return 0;
	memcpy(copy, data, size);
	if (crem_wire_parse(copy, size, &m, &stats) == CREM_WIRE_OK) {
		lists_from_raw(&m);
		len = crem_wire_build(&m, first, sizeof(first));
		if (len <= 0 || crem_wire_parse(first, len, &again, NULL))
			abort();
		lists_from_raw(&again);
		len2 = crem_wire_build(&again, second, sizeof(second));
		if (len2 != len || memcmp(first, second, len))
			abort();
	}
	free(copy);
	return 0;
}
