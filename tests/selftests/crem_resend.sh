#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# crem's copies for a go-back-N receiver's resend rounds never make the
# RDMA sender renumber its packets (engine.rst, "Resends").  Host mode,
# crem on both hosts at its defaults but with the copies on (they are off
# by default), 10 ms round trip, 1 % loss on B's
# egress: ib_write_bw and ib_send_bw with 8 QPs, CREM_RESEND_RUNS times
# each (default 10), with tcpdump on A.  Every run must complete, and no
# PSN of any QP may come from B twice with a different opcode or length.
#
# The CRF's first copies handed on a NAK's whole window at once, ahead of
# the sender's resend: A then acknowledged messages B had not sent again
# yet, and 6.12's rxe requester, retrying one of them later, sent a
# zero-length WRITE_ONLY or SEND_ONLY at the next message's first PSN and
# numbered everything after it one too high (IBV_WC_REM_INV_REQ_ERR, or a
# zero-length SEND delivered).  That build renumbered a retry in 7 of 82
# such runs.
. ./guest.sh

require_tool ib_write_bw ib_send_bw tcpdump "$TC" jq
runs=${CREM_RESEND_RUNS:-10}
tools="ib_write_bw ib_send_bw"
ktap_plan $((1 + 2 * 2 + 2))

link="delay 5ms limit 100000"
[ "$CREM_ROLE" = b ] && link="$link loss 1%"
"$TC" qdisc add dev eth0 root netem $link
crem_load && "$CREMCTL" set port "$CREM_LAB_PORT" > /dev/null &&
	"$CREMCTL" protect add "$CREM_PEER_IP/32" > /dev/null &&
	"$CREMCTL" set resend-copies on > /dev/null
ktap_check "crem on at its defaults, with resend-copies on" test $? = 0

# renumbered PCAP: each PSN (per destination QP) of B's that came again
# with another opcode or UDP length, from the capture's hex (tcpdump -x:
# the IPv4 header first, 20 octets without options, then UDP and the
# BTH), one line each; then "packets N resent R other O": what the
# capture held, how many came again (B's resends, and crem's copies,
# which the capture sees as they are handed on), and how many were not
# IPv4 without options (not read).
renumbered() {
	tcpdump -Z root -r "$1" -nn -x 2>/dev/null | awk '
	function hex2dec(x,  i, v) {
		v = 0
		for (i = 1; i <= length(x); i++)
			v = v * 16 + index("0123456789abcdef", substr(x, i, 1)) - 1
		return v
	}
	function packet() {
		if (hex == "")
			return
		if (substr(hex, 1, 2) != "45") {
			other++
			hex = ""
			return
		}
		packets++
		key = "qp " substr(hex, 67, 6) " psn " substr(hex, 75, 6)
		len = hex2dec(substr(hex, 49, 4))
		what = "opcode 0x" substr(hex, 57, 2) " length " len
		if (!(key in seen))
			seen[key] = what
		else if (seen[key] != what)
			print key ": " seen[key] ", then " what
		else
			resent++
		hex = ""
	}
	/^[0-9]/ { packet(); next }
	/0x[0-9a-f]+:/ { for (i = 2; i <= NF; i++) hex = hex $i }
	END {
		packet()
		printf "packets %d resent %d other %d\n", packets, resent, other
	}'
}

for tool in $tools; do
	ok=0 bad=0 i=0 unread=0 packets=0 resent=0 dropped=0
	: > /tmp/renumbered
	while [ "$i" -lt "$runs" ]; do
		i=$((i + 1))
		if [ "$CREM_ROLE" = a ]; then
			rm -f /tmp/tcpdump.err
			tcpdump -Z root -U -i eth0 -s 96 -B 16384 \
				-w /tmp/resend.pcap \
				"udp dst port 4791 and src host $CREM_PEER_IP" \
				2> /tmp/tcpdump.err &
			cap=$!
			wait_for 20 grep -q listening /tmp/tcpdump.err ||
				unread=$((unread + 1))
		fi
		perftest_bw "$tool" /tmp/bw_resend -q 8 -s 65536 -n 5 &&
			ok=$((ok + 1))
		if [ "$CREM_ROLE" = a ]; then
			# What is still on the wire of this run.
			sleep 1
			kill "$cap"
			wait "$cap" 2> /dev/null
			renumbered /tmp/resend.pcap > /tmp/renumbered.run
			tail -n 1 /tmp/renumbered.run > /tmp/renumbered.sum
			read -r _ n _ r _ o < /tmp/renumbered.sum
			# A run whose capture holds nothing, or anything but
			# IPv4, was not read.
			if [ "${n:-0}" = 0 ] || [ "${o:-1}" != 0 ]; then
				unread=$((unread + 1))
			fi
			# What the capture missed is said beside the result.
			d=$(awk '/packets dropped by kernel/ { print $1 }' \
				/tmp/tcpdump.err)
			dropped=$((dropped + ${d:-0}))
			packets=$((packets + ${n:-0}))
			resent=$((resent + ${r:-0}))
			sed '$d' /tmp/renumbered.run > /tmp/renumbered.pairs
			if [ -s /tmp/renumbered.pairs ]; then
				bad=$((bad + 1))
				head -n 3 /tmp/renumbered.pairs >> /tmp/renumbered
			fi
		fi
	done
	ktap_check "$tool -q 8, 1 % loss: $ok of $runs runs complete" \
		test "$ok" = "$runs"
	if [ "$CREM_ROLE" = a ]; then
		sed 's/^/# renumbered: /' /tmp/renumbered
		# Read: every run's capture, and B's go-back-N resends in
		# them (what the copies act on).
		if [ "$bad" = 0 ] && [ "$unread" = 0 ] && [ "$resent" -gt 0 ]; then
			ok_capture=1
		else
			ok_capture=0
		fi
		ktap_check "$tool -q 8, 1 % loss: B renumbered a retry in $bad of $runs runs ($packets packets captured, $resent again, $dropped dropped by the capture, $unread runs not read)" \
			test "$ok_capture" = 1
	else
		ktap_skip "$tool: B's packets, as A captured them" "captured on A"
	fi
done

"$CREMCTL" -j flows | jq -r '[.[].stats.copies_resent // 0] | add // 0' |
	sed 's/^/# copies for resends handed on by the flows still up: /'
lab_sync resend-done
ktap_check "rmmod crem" bounded 120 rmmod crem
ktap_no_splat
ktap_finish
