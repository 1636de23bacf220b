// SPDX-License-Identifier: GPL-2.0
/*
 * crem: CREM, the Congestion-Aware Reliability Enhancement Mechanism, for
 * RoCEv2 flows over long, lossy paths.
 *
 * This is the front door.  Subsystems start in dependency order and stop in
 * reverse; Documentation/crem/design.rst describes each one.
 */
#include <linux/init.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/slab.h>

#include <linux/crem_netlink.h>

#include "compat.h"
#include "core/version.h"
#include "env.h"
#include "fec/dot.h"
#include "fec/fec.h"
#include "flow.h"
#include "hooks.h"
#include "netlink/genl.h"
#include "netns.h"
#include "reinject.h"

/* Time spent measuring each coder at load, in each of three rounds. */
#define CREM_CODER_MEASURE_NS (1 * NSEC_PER_MSEC)

static u64 __init coder_clock(void)
{
	return ktime_get_ns();
}

/*
 * The coder this machine runs fastest, measured as lib/raid6 measures its
 * algorithms: the widest vector unit is not always the quickest (a guest
 * under binary translation, a CPU that slows for wide registers).  Without
 * memory to measure in, the widest stays.
 */
static void __init select_coder(void)
{
	u32 mbs[CREM_SIMD_NR_ISA];
	enum crem_simd_isa isa;
	u8 *buf;

	buf = kmalloc(CREM_GF_MEASURE_BYTES, GFP_KERNEL);
	if (!buf)
		return;
	crem_gf_select_fastest(buf, coder_clock, CREM_CODER_MEASURE_NS, mbs);
	kfree(buf);
	for (isa = CREM_SIMD_SCALAR; isa < CREM_SIMD_NR_ISA; isa++)
		if (mbs[isa])
			pr_info("crem: coder %s: %u MB/s\n",
				crem_gf_isa_name(isa), mbs[isa]);
}

static int __init crem_mod_init(void)
{
	int ret;

	/*
	 * Field tables, and of the coders this CPU offers that agree with the
	 * scalar one the fastest here; nothing to undo.
	 */
	crem_fec_init();
	select_coder();

	/* The engines' coding scratch. */
	ret = crem_env_init();
	if (ret)
		goto err_env;

	ret = crem_flow_work_init();
	if (ret)
		goto err_work;

	/* The hooks' copy buffers, then the way back into the stack. */
	ret = crem_hooks_init();
	if (ret)
		goto err_hooks;

	ret = crem_reinject_init();
	if (ret)
		goto err_reinject;

	/* Per-namespace state next: netlink handlers look it up. */
	ret = crem_netns_init();
	if (ret)
		goto err_netns;

	/* Devices and modules that go: their handlers walk the flows. */
	ret = crem_reinject_start();
	if (ret)
		goto err_start;

	ret = crem_genl_init();
	if (ret)
		goto err_genl;

	pr_info("crem " CREM_VERSION " loaded, coder %s (self-tested, fastest here)\n",
		crem_gf_isa_name(crem_gf_isa()));
	return 0;

err_genl:
	crem_reinject_stop();
err_start:
	crem_netns_exit();
err_netns:
	rcu_barrier();
	crem_reinject_exit();
err_reinject:
	crem_hooks_exit();
err_hooks:
	crem_flow_work_exit();
err_work:
	crem_env_exit();
err_env:
	return ret;
}

/*
 * Every namespace stops first (flows end with CLOSE and their flow-down
 * events), while netlink still works; then netlink goes, waiting for its
 * running handlers; then the device and module notifiers, which walk the
 * namespaces' flows; then the namespaces' state, once their last flow is
 * freed; then what the flows used.
 */
static void __exit crem_mod_exit(void)
{
	crem_netns_stop_all();
	crem_genl_exit();
	crem_reinject_stop();
	crem_netns_exit();
	/* The flows' and configurations' RCU callbacks have all run. */
	rcu_barrier();
	crem_reinject_exit();
	crem_hooks_exit();
	crem_flow_work_exit();
	crem_env_exit();
	pr_info("crem " CREM_VERSION " unloaded\n");
}

module_init(crem_mod_init);
module_exit(crem_mod_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("CREM: erasure coding and coded retransmission for RoCEv2 over long, lossy paths");
MODULE_VERSION(CREM_VERSION);
MODULE_ALIAS_GENL_FAMILY(CREM_GENL_NAME);
