#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The demo's guest side (make demo): ib_write_bw from host B to host A over
# a 10 ms round trip: without loss, with 1 % loss on the data direction,
# and with that loss and crem protecting the flow (host mode, both hosts).
# Host B prints the goodputs as "# goodput RUN MB/s"; both hosts print
# crem's counters as "# counter NAME VALUE", and host A its losses on the
# link by their end as "# breakdown ...".
#
#   host A 192.0.2.1 --- netem delay 5ms ---------> host B
#   host A <------------ netem delay 5ms [loss 1%] --- host B (writes)
. ./guest.sh

require_tool ib_write_bw "$TC" jq
iters=${CREM_ITERS:-200}
size=${CREM_SIZE:-65536}

ktap_plan 5
ktap_check "netem: 5 ms each way" \
	"$TC" qdisc add dev eth0 root netem delay 5ms

ktap_transfer "ib_write_bw, 10 ms RTT, no loss" "clean" \
	ib_write_bw /tmp/bw_clean -s "$size" -n "$iters"

# Loss on B's egress only: RDMA writes are lost, acknowledgements are not.
[ "$CREM_ROLE" = b ] &&
	"$TC" qdisc change dev eth0 root netem delay 5ms loss 1%
ktap_transfer "ib_write_bw, 10 ms RTT, 1 % loss" "lossy" \
	ib_write_bw /tmp/bw_lossy -s "$size" -n "$iters"

# crem on both hosts: B sends for its writes, A receives.
ktap_check "crem on: host mode, port 7700" crem_start "$CREM_PEER_IP/32"
lab_sync crem-ready
ktap_transfer "ib_write_bw, 10 ms RTT, 1 % loss, crem on" "crem" \
	ib_write_bw /tmp/bw_crem -s "$size" -n "$iters"
stats=$("$CREMCTL" -j stats)
echo "$stats" | jq -r 'to_entries[] | select(.value > 0) | "# counter \(.key) \(.value)"'
[ "$CREM_ROLE" = a ] && crem_losses "$stats" | sed 's/^/# breakdown /'
"$CREMCTL" flows | sed 's/^/# flows: /'
lab_sync crem-done
rmmod crem
ktap_finish
