#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# crem in the two-guest lab: load, talk over netlink, carry RDMA, unload.
#
#   host A 192.0.2.1 (rxe0) <---- link ----> host B 192.0.2.2 (rxe0)
#          ib_write_bw server                      ib_write_bw client
#
# Runs in both guests (lab.sh); each asserts its own side.
. ./guest.sh

require_tool "$CREMCTL" jq ib_write_bw
[ -f "$CREM_KO" ] || ktap_skip_all "no crem.ko in the guest image"

ktap_plan 13

# says NAME STATUS TEXT CMD...: one result, CMD exits with STATUS and
# prints TEXT (on either stream).
says() {
	local what=$1 want=$2 text=$3 out rc
	shift 3
	out=$("$@" 2>&1)
	rc=$?
	if [ "$rc" -eq "$want" ] && echo "$out" | grep -q "$text"; then
		ktap_ok "$what"
	else
		ktap_fail "$what"
		ktap_diag "rc=$rc: $out"
	fi
}

# Before loading: cremctl must say clearly that the module is missing,
# but name a bad argument first.
says "cremctl explains that crem is not loaded" 1 \
	"crem module is not loaded" "$CREMCTL" show
says "cremctl set checks its arguments before asking crem" 2 \
	"k: '300' is not a number up to 255" "$CREMCTL" set k 300

dmesg -c > /dev/null
ktap_check "insmod crem.ko" insmod "$CREM_KO"
ktap_check "crem is loaded (/sys/module/crem)" test -d /sys/module/crem

module_version=$(cat /sys/module/crem/version 2>/dev/null)
json=$("$CREMCTL" -j show)
if echo "$json" | jq -e --arg v "$module_version" \
	'.version == $v and (.stats | type == "object")' > /dev/null; then
	ktap_ok "cremctl -j show: valid JSON with version $module_version"
else
	ktap_fail "cremctl -j show: valid JSON with version '$module_version'"
	ktap_diag "$json"
fi

# The coder crem.ko chose at load time, as the kernel log and netlink say:
# of the coders it measured, the fastest.
coder=$(echo "$json" | jq -r '.coder')
fastest=$(dmesg | sed -n 's/.*crem: coder \([a-z0-9-]*\): \([0-9]*\) MB\/s$/\2 \1/p' |
	sort -n | tail -n 1)
ktap_diag "coders measured at load: $(dmesg | sed -n 's/.*crem: coder \(.*\) MB\/s$/\1/p' | tr '\n' ' ')"
if [ -n "$coder" ] && [ "${fastest#* }" = "$coder" ] &&
   dmesg | grep -q "crem .* loaded, coder $coder (self-tested, fastest here)\$"; then
	ktap_ok "cremctl reports the coder the module chose, the fastest it measured: $coder (${fastest% *} MB/s)"
else
	ktap_fail "cremctl reports the coder the module chose: '$coder', fastest measured '$fastest'"
	dmesg | grep crem | sed 's/^/# /'
fi

# Each show is two requests (version, stats), counted before the reply.
before=$(echo "$json" | jq -r '.stats.ctl_requests')
after=$("$CREMCTL" -j show | jq -r '.stats.ctl_requests')
if [ "$before" -ge 2 ] 2>/dev/null && [ "$after" -eq $((before + 2)) ]; then
	ktap_ok "ctl_requests counts exactly the requests served ($before -> $after)"
else
	ktap_fail "ctl_requests counts exactly the requests served ($before -> $after)"
fi

# show reports the measured speed; the policy prices repairs at a speed
# only when told to (coder-mbs), and 0, the default, turns that off again.
measured=$(echo "$json" | jq -r '.coder_measured_mbs')
default=$("$CREMCTL" -j config | jq -r '.coder_mbs')
unpriced=$("$CREMCTL" config | grep -c "repairs not priced")
"$CREMCTL" set coder-mbs "$measured" > /dev/null
priced=$("$CREMCTL" config | grep -c "repairs priced at a coder of $measured MB/s")
"$CREMCTL" set coder-mbs 0 > /dev/null
after=$("$CREMCTL" -j config | jq -r '.coder_mbs')
if [ -n "$fastest" ] && [ "$measured" = "${fastest% *}" ] &&
   [ "$default" = 0 ] && [ "$unpriced" = 1 ] && [ "$priced" = 1 ] &&
   [ "$after" = 0 ]; then
	ktap_ok "show reports the coder's measured $measured MB/s; repairs are priced at it only when set (coder-mbs)"
else
	ktap_fail "coder speed: show says '$measured', measured '${fastest% *}'; coder-mbs by default '$default', after 0 '$after'; priced lines $unpriced/$priced"
fi

# Copies for the RDMA receiver's resends are off unless asked for
# (engine.rst, "Resends"), and the setting goes both ways.
copies_default=$("$CREMCTL" -j config | jq -r '.resend_copies')
copies_line=$("$CREMCTL" config | grep -c "resends: off (resend-copies)")
"$CREMCTL" set resend-copies on > /dev/null
copies_on=$("$CREMCTL" -j config | jq -r '.resend_copies')
"$CREMCTL" set resend-copies off > /dev/null
copies_off=$("$CREMCTL" -j config | jq -r '.resend_copies')
if [ "$copies_default" = 0 ] && [ "$copies_line" = 1 ] &&
   [ "$copies_on" = 1 ] && [ "$copies_off" = 0 ]; then
	ktap_ok "resend-copies: off by default, on and off when set"
else
	ktap_fail "resend-copies: default '$copies_default' (config line $copies_line), on '$copies_on', off '$copies_off'"
fi

text=$("$CREMCTL" version)
ktap_check "cremctl version prints the module's version" \
	sh -c "echo '$text' | grep -q '^crem $module_version '"

if perftest_bw ib_write_bw /tmp/bw -s 65536 -n "$(lab_iters 200)"; then
	if [ "$CREM_ROLE" = b ]; then
		bw=$(cat /tmp/bw)
		if awk -v bw="$bw" 'BEGIN { exit !(bw > 0) }'; then
			ktap_ok "ib_write_bw to host A: $bw MB/s"
		else
			ktap_fail "ib_write_bw to host A: bandwidth '$bw'"
			sed 's/^/# /' /tmp/perftest.out | tail -n 12
		fi
	else
		ktap_ok "ib_write_bw server completed"
	fi
else
	ktap_fail "ib_write_bw between the guests"
	sed 's/^/# /' /tmp/perftest.out 2>/dev/null
fi

ktap_check "rmmod crem" bounded 120 rmmod crem
log=$(dmesg)
if echo "$log" | grep -qE 'WARNING:|BUG:|Oops|general protection|refcount_t|leak|UBSAN|KASAN'; then
	ktap_fail "no WARN, BUG or leak report in dmesg"
	echo "$log" | sed 's/^/# /'
else
	ktap_ok "no WARN, BUG or leak report in dmesg"
fi

ktap_finish
