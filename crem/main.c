// SPDX-License-Identifier: GPL-2.0
/*
 * crem: CREM, the Congestion-Aware Reliability Enhancement Mechanism, for
 * RoCEv2 flows over long, lossy paths.
 *
 * This is the front door.  Subsystems start in dependency order and stop in
 * reverse; Documentation/crem/design.rst describes each one.
 */
#include <linux/init.h>
#include <linux/module.h>
#include <net/genetlink.h>

#include <linux/crem_netlink.h>

#include "compat.h"
#include "core/version.h"
#include "fec/fec.h"
#include "flow.h"
#include "netlink/genl.h"
#include "netns.h"

static int __init crem_mod_init(void)
{
	int ret;

	/*
	 * Field tables, and the best coder for this CPU that agrees with the
	 * scalar one; nothing to undo.
	 */
	crem_fec_init();

	/* The engines' coding scratch and crem's workqueue. */
	ret = crem_flow_work_init();
	if (ret)
		goto err_work;

	/* Per-namespace state next: netlink handlers look it up. */
	ret = crem_netns_init();
	if (ret)
		goto err_netns;

	ret = crem_genl_init();
	if (ret)
		goto err_genl;

	pr_info("crem " CREM_VERSION " loaded, coder %s (self-tested)\n",
		crem_gf_isa_name(crem_gf_isa()));
	return 0;

err_genl:
	crem_netns_exit();
err_netns:
	crem_flow_work_exit();
err_work:
	return ret;
}

/*
 * Netlink first (no more configuration), then every namespace's hooks,
 * socket and flows (crem_netns_exit() waits for all of them), then the
 * scratch, then the flows' memory after their grace period.
 */
static void __exit crem_mod_exit(void)
{
	crem_genl_exit();
	crem_netns_exit();
	crem_flow_work_exit();
	rcu_barrier();
	pr_info("crem " CREM_VERSION " unloaded\n");
}

module_init(crem_mod_init);
module_exit(crem_mod_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("CREM: erasure coding and coded retransmission for RoCEv2 over long, lossy paths");
MODULE_VERSION(CREM_VERSION);
MODULE_ALIAS_GENL_FAMILY(CREM_GENL_NAME);
