#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The demo's guest side (make demo): ib_write_bw from host B to host A over
# a 10 ms round trip, first without loss, then with 1 % loss on the data
# direction.  Host B prints the goodputs as "# goodput LINK MB/s".
#
#   host A 192.0.2.1 --- netem delay 5ms ---------> host B
#   host A <------------ netem delay 5ms [loss 1%] --- host B (writes)
. ./guest.sh

require_tool ib_write_bw "$TC"
iters=${CREM_ITERS:-200}
size=${CREM_SIZE:-65536}

ktap_plan 3
ktap_check "netem: 5 ms each way" \
	"$TC" qdisc add dev eth0 root netem delay 5ms

if perftest_bw ib_write_bw /tmp/bw_clean -s "$size" -n "$iters"; then
	[ "$CREM_ROLE" = b ] && echo "# goodput clean $(cat /tmp/bw_clean)"
	ktap_ok "ib_write_bw, 10 ms RTT, no loss"
else
	ktap_fail "ib_write_bw, 10 ms RTT, no loss"
fi

# Loss on B's egress only: RDMA writes are lost, acknowledgements are not.
[ "$CREM_ROLE" = b ] &&
	"$TC" qdisc change dev eth0 root netem delay 5ms loss 1%
if perftest_bw ib_write_bw /tmp/bw_lossy -s "$size" -n "$iters"; then
	[ "$CREM_ROLE" = b ] && echo "# goodput lossy $(cat /tmp/bw_lossy)"
	ktap_ok "ib_write_bw, 10 ms RTT, 1 % loss"
else
	ktap_fail "ib_write_bw, 10 ms RTT, 1 % loss"
fi
ktap_finish
