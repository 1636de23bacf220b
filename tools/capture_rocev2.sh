#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Refresh tests/vectors/rxe_capture.txt from packets rxe sends in the lab:
# boots the two guests with tests/selftests/capture_rocev2.sh, decodes the
# pcap host B printed, and keeps the first packet of each opcode.  Then run
# `make vectors` to rebuild the C vectors.  (make capture)

set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
out=$repo/build/capture
"$repo/tests/selftests/lab/lab.sh" run capture_rocev2.sh "$out"
tr -d '\r' < "$out/b.console" |
	sed -n '/^CREM-PCAP-BEGIN/,/^CREM-PCAP-END/p' | sed '1d;$d' |
	base64 -d > "$out/rxe.pcap"
/usr/bin/python3 - "$out/rxe.pcap" "$repo/tests/vectors/rxe_capture.txt" <<'PY'
import logging
import sys

logging.getLogger("scapy.runtime").setLevel(logging.ERROR)
from scapy.all import rdpcap, raw, IP

# The class of a packet from its opcode and AETH syndrome alone (IBA 9.2).
def klass(b):
    ihl = (b[0] & 15) * 4
    op = b[ihl + 8] & 0x1f
    if op <= 0x0c or op in (0x13, 0x14, 0x16, 0x17):
        return "REQUEST"
    if 0x0d <= op <= 0x10:
        return "READ_RESPONSE"
    if op == 0x11:
        return "NAK" if (b[ihl + 8 + 12] >> 5) & 3 else "ACK"
    if op == 0x12:
        return "ATOMIC_ACKNOWLEDGE"
    raise SystemExit("unexpected opcode 0x%02x" % op)

names = {0x06: "write_first", 0x07: "write_middle", 0x08: "write_last",
         0x0a: "write_only", 0x0c: "read_request", 0x0d: "read_response_first",
         0x0e: "read_response_middle", 0x0f: "read_response_last",
         0x10: "read_response_only", 0x11: "ack", 0x12: "atomic_ack",
         0x13: "cmp_swap", 0x14: "fetch_add", 0x04: "send_only"}
seen = {}
for pkt in rdpcap(sys.argv[1]):
    if IP not in pkt:
        continue
    b = raw(pkt[IP])
    op = b[(b[0] & 15) * 4 + 8]
    if op in seen or (op & 0x1f) not in names:
        continue
    seen[op] = b
with open(sys.argv[2], "w") as f:
    f.write("# RoCEv2 packets sent by rxe (Linux 6.1, soft-RoCE) in the lab, captured\n"
            "# on the guests' link by tools/capture_rocev2.sh (make capture).\n"
            "# Format: NAME CLASS HEX (the IP packet, ICRC last).\n")
    for op in sorted(seen):
        b = seen[op]
        f.write("captured_%s %s %s\n" % (names[op & 0x1f], klass(b), b.hex()))
print("kept %d packets of %d opcodes" % (len(seen), len(seen)))
PY
