# SPDX-License-Identifier: GPL-2.0
#
# Helpers for tests that run inside a lab guest (sourced, busybox sh).
#
# The environment gives CREM_ROLE (a or b), CREM_SELF_IP, CREM_PEER_IP and
# any crem.KEY=VALUE of the kernel command line as CREM_KEY.  Tests print
# TAP version 13 through the ktap_* helpers and end with ktap_finish,
# whose exit code the host reads: 0 pass, 1 fail, 4 (ksft_skip) skip.

ksft_skip=4
IP=/usr/sbin/ip		# busybox's shell prefers its own ip and tc applets
TC=/usr/sbin/tc
CREMCTL=/crem/cremctl
CREM_KO=/crem/crem.ko
LAB_SYNC_PORT=7123

ktap_nr=0
ktap_failed=0
ktap_skipped=0

ktap_plan() {
	ktap_planned=$1
	echo "TAP version 13"
	echo "1..$1"
}

ktap_ok() {
	ktap_nr=$((ktap_nr + 1))
	echo "ok $ktap_nr $CREM_ROLE: $*"
}

ktap_fail() {
	ktap_nr=$((ktap_nr + 1))
	ktap_failed=$((ktap_failed + 1))
	echo "not ok $ktap_nr $CREM_ROLE: $*"
}

ktap_skip() {
	local what=$1
	shift
	ktap_nr=$((ktap_nr + 1))
	ktap_skipped=$((ktap_skipped + 1))
	echo "ok $ktap_nr $CREM_ROLE: $what # SKIP $*"
}

# ktap_check DESCRIPTION COMMAND...: one result from a command's status.
ktap_check() {
	local what=$1
	shift
	if "$@"; then
		ktap_ok "$what"
	else
		ktap_fail "$what"
	fi
}

ktap_diag() {
	echo "$*" | sed 's/^/# /'
}

ktap_finish() {
	if [ "$ktap_failed" -gt 0 ]; then
		exit 1
	elif [ -n "${ktap_planned:-}" ] && [ "$ktap_nr" -ne "$ktap_planned" ]; then
		# A result that never ran is not a pass.
		ktap_diag "planned $ktap_planned results, ran $ktap_nr"
		exit 1
	elif [ "$ktap_skipped" -gt 0 ] && [ "$ktap_skipped" -eq "$ktap_nr" ]; then
		exit "$ksft_skip"
	fi
	exit 0
}

# The whole test is skipped: a tool it needs is missing.
ktap_skip_all() {
	echo "TAP version 13"
	echo "1..0 # SKIP $*"
	exit "$ksft_skip"
}

require_tool() {
	local t
	for t in "$@"; do
		[ -x "$t" ] || command -v "$t" >/dev/null 2>&1 ||
			ktap_skip_all "$t is not available in the guest"
	done
}

# wait_for SECONDS COMMAND...: poll until COMMAND succeeds.
wait_for() {
	local deadline=$(( $(date +%s) + $1 ))
	shift
	until "$@"; do
		[ "$(date +%s)" -ge "$deadline" ] && return 1
		sleep 0.2
	done
}

# bounded SECONDS COMMAND...: COMMAND's status, or 124 when it has not
# ended within SECONDS.  A task stuck in the kernel (rmmod behind a
# namespace's cleanup, a process in uninterruptible sleep) cannot be
# killed, and waiting for it would only end with the lab's timeout and
# no result; this leaves it, shows where it sleeps and what the kernel
# said, and lets the test go on to its verdict.
bounded() {
	local secs=$1 pid
	shift
	"$@" &
	pid=$!
	if wait_for "$secs" sh -c "! kill -0 $pid 2> /dev/null"; then
		wait "$pid"
		return
	fi
	ktap_diag "'$*' has not ended after $secs s; it sleeps in $(cat "/proc/$pid/wchan" 2>/dev/null):"
	task_stack "$pid"
	dmesg | tail -n 30 | sed 's/^/#   dmesg: /'
	return 124
}

# comm_pids NAME: the PIDs of the processes whose command is NAME (the
# guest's busybox has no pgrep or pkill).
comm_pids() {
	local p
	for p in /proc/[0-9]*; do
		[ "$(cat "$p/comm" 2>/dev/null)" = "$1" ] && echo "${p#/proc/}"
	done
	return 0
}

# kill_comm NAME: SIGTERM to every process whose command is NAME.
kill_comm() {
	local pid
	for pid in $(comm_pids "$1"); do
		kill "$pid" 2>/dev/null
	done
	return 0
}

# comm_alive NAME: some process's command is NAME.
comm_alive() {
	[ -n "$(comm_pids "$1")" ]
}

# task_stack PID: the task's kernel stack, as diagnostics.
task_stack() {
	sed "s/^/#   $1 stack: /" "/proc/$1/stack" 2>/dev/null
	return 0
}

# comm_stacks NAME: the kernel stacks of the processes named NAME.
comm_stacks() {
	local pid
	for pid in $(comm_pids "$1"); do
		task_stack "$pid"
	done
}

# lab_sync NAME: both guests reach the same point before either goes on.
# Guest A listens, guest B connects; the name guards against mismatches.
lab_sync() {
	local got
	if [ "$CREM_ROLE" = a ]; then
		got=$(echo "$1" | timeout 120 nc -l -p "$LAB_SYNC_PORT")
	else
		got=
		wait_for 120 sh -c "echo '$1' | nc -w 2 '$CREM_PEER_IP' $LAB_SYNC_PORT > /tmp/sync.$$ 2>/dev/null && [ -s /tmp/sync.$$ ]" &&
			got=$(cat /tmp/sync.$$)
		rm -f /tmp/sync.$$
	fi
	[ "$got" = "$1" ]
}

# rxe_gid_index GID: the index under which rxe0 port 1 lists GID.
rxe_gid_index() {
	local f
	for f in /sys/class/infiniband/rxe0/ports/1/gids/*; do
		if [ "$(cat "$f" 2>/dev/null)" = "$1" ]; then
			basename "$f"
			return 0
		fi
	done
	return 1
}

# The GID index of rxe0 that carries our IPv4 address (RoCEv2 over IPv4).
rxe_ipv4_gid_index() {
	local want f
	want=$(echo "$CREM_SELF_IP" | awk -F. '{printf "0000:0000:0000:0000:0000:ffff:%02x%02x:%02x%02x", $1, $2, $3, $4}')
	rxe_gid_index "$want"
}

# The GID index of rxe0 that carries IPv6 address $1 (RoCEv2 over IPv6).
rxe_ipv6_gid_index() {
	local want f
	want=$(echo "$1" | awk -F: '{
		n = NF; out = "";
		for (i = 1; i <= NF; i++) {
			if ($i == "" && i > 1 && i < NF) { for (z = 0; z < 9 - NF; z++) out = out "0000:"; continue }
			out = out sprintf("%04s:", $i)
		}
		gsub(/ /, "0", out); print substr(out, 1, 39) }')
	rxe_gid_index "$want"
}

# perftest_why: what a failed perftest said.  Its errors go to stderr
# unbuffered, ahead of the header that stdout flushes at exit, so they
# are picked out as well as the last lines.
perftest_why() {
	grep -i -E "err|fail|unable|couldn|cannot|invalid" /tmp/perftest.out |
		head -n 8 | sed 's/^/# error: /'
	sed 's/^/# /' /tmp/perftest.out | tail -n 8
}

# perftest_bw TOOL OUT [ARGS...]: run a perftest benchmark between the
# guests, A serving and B connecting; B's average bandwidth in MB/s goes to
# OUT (B only).  Returns the tool's status.  CREM_GID picks the local GID
# index (default: the IPv4 one), CREM_QP_TIMEOUT perftest's -u where the
# caller gives none.  B connects again only while A's server is not
# listening yet; a run that fails otherwise fails.
perftest_bw() {
	local tool=$1 out=$2 gid deadline rc result
	shift 2
	# A layer's QP timeout (perftest's -u), unless the caller sets one.
	case " $* " in
	*" -u "*) ;;
	*) [ -n "${CREM_QP_TIMEOUT:-}" ] && set -- "$@" -u "$CREM_QP_TIMEOUT" ;;
	esac
	gid=${CREM_GID:-$(rxe_ipv4_gid_index)} || return 1
	lab_sync "$tool-server" || return 1
	if [ "$CREM_ROLE" = a ]; then
		timeout 300 "$tool" -d rxe0 -x "$gid" -F "$@" > /tmp/perftest.out 2>&1
		rc=$?
		if [ "$rc" != 0 ]; then
			perftest_why
			echo "# $tool (server) exited with status $rc"
		fi
		return "$rc"
	fi
	deadline=$(( $(date +%s) + 60 ))
	while :; do
		timeout 300 "$tool" -d rxe0 -x "$gid" -F "$@" "$CREM_PEER_IP" \
			> /tmp/perftest.out 2>&1
		rc=$?
		[ "$rc" = 0 ] && break
		grep -q "Couldn't connect" /tmp/perftest.out &&
			[ "$(date +%s)" -lt "$deadline" ] || {
			perftest_why
			echo "# $tool exited with status $rc"
			return "$rc"
		}
		sleep 0.2
	done
	# The line after the header holds: bytes iterations peak average rate.
	result=$(awk '/BW average/ { getline; print; exit }' /tmp/perftest.out)
	if [ -z "$result" ]; then
		: > "$out"
		return 1
	fi
	echo "$result" | awk '{ print $4 }' > "$out"
	# perftest times a run by the CPU's cycle counter, which an emulated
	# CPU now and then gets wrong: a run that completed with no bandwidth
	# and no message rate either (a slow run of atomics, 8 bytes each,
	# shows 0.00 MB/s but its rate) was not measured, and leaves OUT
	# empty (medians skip it).
	if ! echo "$result" | awk '{ exit !($4 > 0 || $5 > 0) }'; then
		echo "# $tool completed but measured no bandwidth: $result; not measured"
		: > "$out"
	fi
}

# crem_load: insmod crem.ko, after the UDP tunnel modules it needs.
crem_load() {
	modprobe udp_tunnel 2>/dev/null
	modprobe ip6_udp_tunnel 2>/dev/null
	insmod "$CREM_KO"
}

# crem_stats_diag: the flows, with their counters that are not zero, and
# every namespace counter that is not zero, as diagnostics.
crem_stats_diag() {
	"$CREMCTL" -j flows | jq -c '.[] | {role, state, qp, id, m,
		stats: (.stats | with_entries(select(.value > 0)))}' \
		2>/dev/null | sed 's/^/# flow /'
	{
		"$CREMCTL" -j stats | jq -r 'to_entries[] |
			select(.value > 0) | "\(.key) \(.value)"' 2>/dev/null |
			tr '\n' ' '
		echo
	} | fold -s -w 160 | sed 's/^/# /'
}

# crem_counter NAME: one of the namespace's counters (cremctl stats).
crem_counter() {
	"$CREMCTL" -j stats | jq -r ".$1"
}

# crem_protect PREFIX [peer ADDR] [-- WRAPPER...]: crem's defaults, as a
# user runs them (`set port` and `protect add`, nothing else: k, H and the
# allowance per flow, engine.rst), on port 7700, protecting PREFIX;
# WRAPPER runs cremctl elsewhere (ip netns exec gw).  CREM_LAB_SETTINGS,
# if set, adds settings to `set` (crem_gateway's, testing.rst says why).
CREM_LAB_PORT=7700
crem_protect() {
	local prefix=$1 wrap=
	shift
	local peer=
	if [ "$1" = peer ]; then
		peer="peer $2"
		shift 2
	fi
	[ "$1" = -- ] && shift && wrap="$*"
	$wrap "$CREMCTL" set port "$CREM_LAB_PORT" ${CREM_LAB_SETTINGS:-} &&
		$wrap "$CREMCTL" protect add "$prefix" $peer
}

# crem_start PREFIX [peer ADDR] [-- WRAPPER...]: crem_load, then
# crem_protect.
crem_start() {
	crem_load && crem_protect "$@"
}

# What the kernel prints when something is wrong: warnings, BUGs, oopses,
# sanitizers, lockdep, sleeping in atomic context, hung tasks, leaks.
CREM_SPLAT='WARNING:|BUG:|kernel BUG at|Oops|general protection fault|UBSAN:|KASAN:|KFENCE:|possible circular locking|inconsistent lock state|possible recursive locking|suspicious RCU usage|lock held when returning|sleeping function called from invalid context|scheduling while atomic|blocked for more than|suspected memory leak|Call Trace:'

# Taint bits crem itself causes: O (out-of-tree, 4096) and E (unsigned,
# 8192).  Anything else is a finding.
CREM_TAINT_OK=12288

# test_dmesg [before]: the kernel's messages since the guest's init
# marked the test's start (lab/init), or with "before", those until then.
# With no mark (a lost ring buffer), everything is the test's.
test_dmesg() {
	dmesg | awk -v want="${1:-after}" '
		!seen && /crem-lab: the test begins/ { seen = 1; next }
		{ if (seen) after[++na] = $0; else before[++nb] = $0 }
		END {
			if (want == "before") {
				for (i = 1; seen && i <= nb; i++) print before[i]
			} else if (seen) {
				for (i = 1; i <= na; i++) print after[i]
			} else {
				for (i = 1; i <= nb; i++) print before[i]
			}
		}'
}

# ktap_no_splat: one result: nothing of CREM_SPLAT in dmesg since the test
# began, no taint but crem's own, and on a kernel with kmemleak, no leak
# after a scan.  What the kernel reported before (the debug kernel under
# TCG, in its first 10 ms, now and then), while the guest booted and set
# up rxe and before crem was loaded, is shown, and its taint allowed.
ktap_no_splat() {
	local taint bad leaks=0 kml=/sys/kernel/debug/kmemleak boot log
	local boot_taint=${CREM_BOOT_TAINT:-0}
	taint=$(cat /proc/sys/kernel/tainted)
	bad=$((taint & ~CREM_TAINT_OK & ~boot_taint))
	boot=$(test_dmesg before | grep -E -m 3 "$CREM_SPLAT")
	if [ -n "$boot" ]; then
		echo "# before the test (taint $boot_taint), not judged:"
		echo "$boot" | sed 's/^/# boot: /'
	fi
	if [ -w "$kml" ]; then
		# Twice: kmemleak reports an object only once it has stayed
		# unreferenced over two scans.
		echo scan > "$kml"
		echo scan > "$kml"
		leaks=$(grep -c '^unreferenced object' "$kml")
	fi
	log=$(test_dmesg)
	if echo "$log" | grep -Eq "$CREM_SPLAT" || [ "$bad" != 0 ] ||
	   [ "$leaks" != 0 ]; then
		ktap_fail "no splat, taint $taint (allowed $CREM_TAINT_OK), kmemleak: $leaks leaks"
		echo "$log" | grep -E -A20 "$CREM_SPLAT" | head -n 60 |
			sed 's/^/# /'
		[ -r "$kml" ] && head -n 40 "$kml" | sed 's/^/# kmemleak: /'
	else
		ktap_ok "no splat, taint $taint (crem's own at most), kmemleak: $leaks leaks"
	fi
}

# ktap_transfer WHAT LABEL TOOL OUT [ARGS...]: one result, WHAT: the
# perftest_bw run completes.  On B, with a LABEL, the goodput is printed
# as "# goodput LABEL MB/s" (the demo and the ratio checks read it).
ktap_transfer() {
	local what=$1 label=$2
	shift 2
	if perftest_bw "$@"; then
		[ -n "$label" ] && [ "$CREM_ROLE" = b ] &&
			echo "# goodput $label $(cat "$2")"
		ktap_ok "$what"
	else
		ktap_fail "$what"
		sed 's/^/# /' /tmp/perftest.out 2>/dev/null | tail -n 5
		# perftest, killed, may have printed nothing: what crem
		# did with the flows is the rest of the story.
		if [ -d /sys/module/crem ]; then
			crem_stats_diag
		fi
		rxe_diag
	fi
}

# rxe_diag: rxe's QPs and its counters that are not zero, for a transfer
# that failed or hung (what state its QPs were left in).
rxe_diag() {
	rdma res show qp 2>/dev/null | sed 's/^/# rxe qp: /' | head -n 20
	{
		rxe_counts | awk '$2 != 0' | tr '\n' ' '
		echo
	} | fold -s -w 160 | sed 's/^/# rxe: /'
}

# rxe_counts: rxe0's counters as "name value" lines.
rxe_counts() {
	local f
	for f in /sys/class/infiniband/rxe0/ports/1/hw_counters/*; do
		[ -r "$f" ] && echo "$(basename "$f") $(cat "$f")"
	done
	return 0
}

# ktap_other_verbs SUFFIX: one result each for RDMA READ, SEND and atomics
# run host to host (A serves), named by the tool and SUFFIX.
ktap_other_verbs() {
	local suffix=$1 tool args
	for tool in ib_read_bw ib_send_bw ib_atomic_bw; do
		case $tool in
		ib_atomic_bw) args="-n 2000" ;;
		*) args="-s 65536 -n 50" ;;
		esac
		ktap_transfer "$tool$suffix" "$tool on" \
			"$tool" "/tmp/$tool" $args
	done
}

# crem_losses STATS: from `cremctl -j stats` output, the receiver's
# losses on the link by their end (engine.rst, "Every loss accounted
# for"), as one line.
crem_losses() {
	echo "$1" | jq -r '"losses \(.flow_losses): restored \(.flow_losses_restored), restored late \(.flow_losses_restored_late); left to RDMA: unprotected \(.flow_losses_rdma_unprotected), no repairs \(.flow_losses_rdma_no_repairs), hold expired \(.flow_losses_rdma_hold_expired), coded late \(.flow_losses_rdma_coded_late), incomplete \(.flow_losses_rdma_incomplete), limits \(.flow_losses_rdma_limits)"'
}

# losses_fit STATS: losses were counted, and no more of them were
# restored than packets were (less the early restores of reordered
# originals, which are no losses).
losses_fit() {
	echo "$1" | jq -e '.flow_losses > 0 and
		.flow_losses_restored + .flow_losses_restored_late <=
		.flow_restored - .flow_sources_reordered' > /dev/null
}

# ktap_coded STATS RECEIVER SENDER [KIND]: one result from `cremctl -j
# stats` output: on A (RECEIVER) packets were restored, none failed its
# ICRC, and the losses fit them (losses_fit; printed); on B (SENDER)
# repairs were sent.
ktap_coded() {
	local stats=$1 receiver=$2 sender=$3 kind=${4:+$4 } restored icrc sent acked
	if [ "$CREM_ROLE" = a ]; then
		restored=$(echo "$stats" | jq -r '.flow_restored')
		icrc=$(echo "$stats" | jq -r '.flow_icrc_failures')
		crem_losses "$stats" | sed "s/^/# $receiver: /"
		if [ "$restored" -gt 0 ] 2>/dev/null && [ "$icrc" = 0 ] &&
			losses_fit "$stats"; then
			ktap_ok "$receiver restored $restored ${kind}packets, none failed its ICRC, losses counted"
		else
			ktap_fail "$receiver restored '$restored', ICRC failures '$icrc', or losses that do not fit"
		fi
	else
		sent=$(echo "$stats" | jq -r '.flow_repairs_sent')
		acked=$(echo "$stats" | jq -r '.flow_blocks_acked')
		# Blocks are acknowledged by the RDMA ACKs the hook matches.
		if [ "$sent" -gt 0 ] 2>/dev/null && [ "$acked" -gt 0 ] 2>/dev/null; then
			ktap_ok "$sender sent $sent repairs, $acked blocks acknowledged"
		else
			ktap_fail "$sender sent repairs: '$sent', blocks acknowledged: '$acked'"
		fi
	fi
}

# lab_iters N: a transfer of N iterations, scaled to CREM_SCALE percent
# (default 100; the debug kernel's layer runs shorter ones), at least 10.
lab_iters() {
	local n=$(( $1 * ${CREM_SCALE:-100} / 100 ))
	[ "$n" -ge 10 ] || n=10
	echo "$n"
}

# ktap_interleaved WRAP TOOL ARGS...: CREM_RUNS (default 3) pairs of
# transfers, crem off then on (cremctl set enabled, run through WRAP, for
# instance "ip netns exec gw"), one result each; B's goodputs go to
# /tmp/bw_off.N and /tmp/bw_on.N for ktap_goodput_gain.
ktap_interleaved() {
	local wrap=$1 tool=$2 i
	shift 2
	rm -f /tmp/bw_off.* /tmp/bw_on.*
	for i in $(seq "${CREM_RUNS:-3}"); do
		$wrap "$CREMCTL" set enabled off > /dev/null
		ktap_transfer "$tool run $i, crem off" "off" \
			"$tool" "/tmp/bw_off.$i" "$@"
		$wrap "$CREMCTL" set enabled on > /dev/null
		ktap_transfer "$tool run $i, crem on" "on" \
			"$tool" "/tmp/bw_on.$i" "$@"
	done
}

# median FILE...: the median of the numbers in FILEs (one each; an empty
# FILE, a run not measured, counts for nothing).
median() {
	cat "$@" 2>/dev/null | sort -n | awk '{ v[NR] = $1 }
		END { if (NR) print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# interleaved_quiet TOOL ARGS...: as ktap_interleaved, without a result
# per run; a run that fails leaves its goodput at 0.
interleaved_quiet() {
	local tool=$1 i
	shift
	rm -f /tmp/bw_off.* /tmp/bw_on.*
	for i in $(seq "${CREM_RUNS:-3}"); do
		"$CREMCTL" set enabled off > /dev/null
		perftest_bw "$tool" "/tmp/bw_off.$i" "$@" || echo 0 > "/tmp/bw_off.$i"
		"$CREMCTL" set enabled on > /dev/null
		perftest_bw "$tool" "/tmp/bw_on.$i" "$@" || echo 0 > "/tmp/bw_on.$i"
	done
}

# ktap_ratio WHAT MIN: one result; on B, the sender, the median goodput
# with crem (the runs above) is at least MIN times the median without.
# CREM_COMPARE=0 (the debug kernel's layer, whose checkers slow the guests
# several times over and which runs each transfer once) makes it a skip.
ktap_ratio() {
	local what=$1 min=$2 off on
	if [ "${CREM_COMPARE:-1}" = 0 ]; then
		ktap_skip "$what" "not compared in this layer (CREM_COMPARE=0)"
		return
	fi
	if [ "$CREM_ROLE" != b ]; then
		ktap_ok "$what: compared at the sender"
		return
	fi
	off=$(median /tmp/bw_off.*)
	on=$(median /tmp/bw_on.*)
	echo "# ratio $what: on/off $(awk -v off="$off" -v on="$on" 'BEGIN { if (off > 0) printf "%.2f", on / off }') ($on / $off MB/s, medians)"
	if awk -v off="$off" -v on="$on" -v m="$min" \
		'BEGIN { exit !(off > 0 && on >= m * off) }'; then
		ktap_ok "$what: median with crem ($on MB/s) at least $min x without ($off MB/s)"
	else
		ktap_fail "$what: median with crem ($on MB/s) at least $min x without ($off MB/s)"
		ktap_diag "off: $(cat /tmp/bw_off.* | tr '\n' ' ') on: $(cat /tmp/bw_on.* | tr '\n' ' ')"
	fi
}

# The goodput with crem must beat the goodput without by this factor.
CREM_GAIN_MARGIN=1.05

# ktap_goodput_gain: one result: the median goodput with crem is at least
# CREM_GAIN_MARGIN times the median without (ktap_interleaved's runs).
ktap_goodput_gain() {
	ktap_ratio "goodput gain" "$CREM_GAIN_MARGIN"
}
