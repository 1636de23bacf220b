/* SPDX-License-Identifier: GPL-2.0 */
#ifndef CREM_NETLINK_GENL_H
#define CREM_NETLINK_GENL_H

int crem_genl_init(void);
void crem_genl_exit(void);

#endif /* CREM_NETLINK_GENL_H */
