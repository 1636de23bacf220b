#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Capture RoCEv2 packets that rxe really sends, for crem's test vectors
# (tools/capture_rocev2.sh runs this in the lab and keeps some of them).
#
#   host A 192.0.2.1 (server) <---- writes, reads, atomics ----> host B
#
# Host B captures on its link while perftest runs a few operations of each
# kind, then prints the pcap in base64 between CREM-PCAP markers.
. ./guest.sh

require_tool tcpdump ib_write_bw ib_read_bw ib_atomic_bw
ktap_plan 4

if [ "$CREM_ROLE" = b ]; then
	tcpdump -Z root -i eth0 -U -s 0 -w /tmp/cap.pcap udp port 4791 2>/tmp/tcpdump.err &
	dump=$!
	wait_for 20 grep -q listening /tmp/tcpdump.err
fi
ktap_check "ib_write_bw" perftest_bw ib_write_bw /tmp/w -s 2048 -n 5
ktap_check "ib_read_bw" perftest_bw ib_read_bw /tmp/r -s 3000 -n 5
ktap_check "ib_atomic_bw" perftest_bw ib_atomic_bw /tmp/a -n 5
if [ "$CREM_ROLE" = b ]; then
	sleep 1
	kill "$dump"
	wait "$dump"
	echo "CREM-PCAP-BEGIN"
	base64 /tmp/cap.pcap
	echo "CREM-PCAP-END"
	# More than the 24-byte pcap header: packets were captured.
	if [ "$(wc -c < /tmp/cap.pcap)" -gt 24 ]; then
		ktap_ok "captured RoCEv2 packets"
	else
		ktap_fail "captured RoCEv2 packets"
		sed 's/^/# /' /tmp/tcpdump.err
	fi
else
	ktap_ok "host A serves"
fi
ktap_finish
