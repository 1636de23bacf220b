#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""RoCEv2 test vectors for crem's parser, built with scapy's contrib.roce.

    gen_roce_vectors.py header OUT.h     the C vectors for tests/kunit
    gen_roce_vectors.py check OUT.h      exit 1 if OUT.h is out of date
    gen_roce_vectors.py pcap OUT.pcap    the same packets for tshark

Each vector is an IP packet with its expected classification.  The
expected fields come from scapy's dissection of the bytes, not from crem.
IPv4 ICRCs are scapy's; scapy has none for IPv6, so those are computed
here from rxe's definition (drivers/infiniband/sw/rxe/rxe_icrc.c).
Packets captured from rxe in the lab are read from rxe_capture.txt.
"""

import logging
import os
import struct
import sys
import zlib

# scapy warns that it has no IPv6 ICRC; this script computes those itself.
logging.getLogger("scapy.runtime").setLevel(logging.ERROR)

from scapy.all import IP, IPv6, UDP, Ether, Raw, wrpcap, raw
from scapy.contrib.roce import BTH, AETH, CNPPadding, cnp
from scapy.fields import XIntField, XLongField, XBitField
from scapy.packet import Packet

HERE = os.path.dirname(os.path.abspath(__file__))
MTU = 1024
A4 = ("192.0.2.1", "192.0.2.2")
A6 = ("2001:db8::1", "2001:db8::2")


# Extension headers scapy lacks (InfiniBand spec 9.3; masked CmpSwap per
# seed 002's operand order; T/C AETH per seed 004, 30 bytes).
class RETH(Packet):
    name = "RETH"
    fields_desc = [XLongField("va", 0), XIntField("rkey", 0), XIntField("dlen", 0)]


class AtomicETH(Packet):
    name = "AtomicETH"
    fields_desc = [XLongField("va", 0), XIntField("rkey", 0),
                   XLongField("swapdt", 0), XLongField("cmpdt", 0)]


class MaskedCmpSwapETH(Packet):
    name = "MaskedCmpSwapETH"
    fields_desc = [XLongField("va", 0), XIntField("rkey", 0),
                   XLongField("swapdt", 0), XLongField("swapmask", 0),
                   XLongField("cmpdt", 0), XLongField("cmpmask", 0)]


class AtomicAckETH(Packet):
    name = "AtomicAckETH"
    fields_desc = [XLongField("origdt", 0)]


class ImmDt(Packet):
    name = "ImmDt"
    fields_desc = [XIntField("imm", 0)]


class TCAETH(Packet):
    name = "TCAETH"
    fields_desc = [XBitField("segnum", 0, 24), XBitField("lastfin", 0, 24),
                   XBitField("s1l", 0, 24), XBitField("s1r", 0, 24),
                   XBitField("s2l", 0, 24), XBitField("s2r", 0, 24),
                   XBitField("s3l", 0, 24), XBitField("s3r", 0, 24),
                   XBitField("rsvd", 0, 48)]


def icrc_ipv6(pkt_bytes):
    """rxe's ICRC for an IPv6 packet whose last four bytes are the ICRC."""
    b = bytearray(pkt_bytes[:-4])
    b[0] |= 0x0f
    b[1:4] = b"\xff\xff\xff"
    b[7] = 0xff
    b[40 + 6:40 + 8] = b"\xff\xff"
    b[48 + 4] = 0xff
    crc = zlib.crc32(b"\xff" * 8 + bytes(b)) & 0xffffffff
    return bytes(pkt_bytes[:-4]) + struct.pack("<I", crc)


def v4(bth_and_rest, sport=49152):
    return IP(src=A4[0], dst=A4[1], tos=0x68) / UDP(sport=sport, dport=4791, chksum=0) / bth_and_rest


def v6(bth_and_rest, sport=50000):
    p = IPv6(src=A6[0], dst=A6[1], tc=0x68) / UDP(sport=sport, dport=4791, chksum=0) / bth_and_rest
    return icrc_ipv6(raw(p))


PAY = bytes((i * 7 + 3) & 0xff for i in range(MTU))


def build():
    """(name, class, ip bytes) for every synthetic vector."""
    qp, psn = 0x000123, 0xfffffe
    rc = lambda op, **kw: BTH(opcode=op, dqpn=qp, psn=psn, **kw)
    v = [
        ("write_first", "REQUEST", v4(rc(0x06) / RETH(va=0x7f0000001000, rkey=0x1234, dlen=3 * MTU) / Raw(PAY))),
        ("write_middle", "REQUEST", v4(BTH(opcode=0x07, dqpn=qp, psn=0xffffff) / Raw(PAY))),
        ("write_last", "REQUEST", v4(BTH(opcode=0x08, dqpn=qp, psn=0x000000, ackreq=1) / Raw(PAY))),
        ("write_only", "REQUEST", v4(rc(0x0a) / RETH(va=0x1000, rkey=0x55, dlen=100) / Raw(PAY[:100]))),
        ("write_only_imm", "REQUEST", v4(rc(0x0b, solicited=1) / RETH(va=0x2000, rkey=0x66, dlen=64) / ImmDt(imm=0xdeadbeef) / Raw(PAY[:64]))),
        ("send_only_pad", "REQUEST", v4(rc(0x04, padcount=2) / Raw(PAY[:30] + b"\0\0"))),
        ("send_last_imm", "REQUEST", v4(rc(0x03) / ImmDt(imm=7) / Raw(PAY[:256]))),
        ("read_request", "REQUEST", v4(rc(0x0c, ackreq=1) / RETH(va=0x3000, rkey=0x77, dlen=4000))),
        ("read_response_first", "READ_RESPONSE", v4(rc(0x0d) / AETH(syndrome=0x1f, msn=5) / Raw(PAY))),
        ("read_response_middle", "READ_RESPONSE", v4(rc(0x0e) / Raw(PAY))),
        ("read_response_only", "READ_RESPONSE", v4(rc(0x10) / AETH(syndrome=0x1f, msn=6) / Raw(PAY[:200]))),
        ("fetch_add", "REQUEST", v4(rc(0x14, ackreq=1) / AtomicETH(va=0x4000, rkey=0x88, swapdt=1, cmpdt=0))),
        ("cmp_swap", "REQUEST", v4(rc(0x13, ackreq=1) / AtomicETH(va=0x4008, rkey=0x88, swapdt=2, cmpdt=3))),
        ("cmp_swap_masked", "REQUEST", v4(rc(0x13, ackreq=1) / MaskedCmpSwapETH(va=0x4010, rkey=0x88, swapdt=4, swapmask=0xff, cmpdt=5, cmpmask=0xf0))),
        ("ack", "ACK", v4(rc(0x11) / AETH(syndrome=0x1f, msn=9))),
        ("nak_psn_error", "NAK", v4(rc(0x11) / AETH(syndrome=0x60, msn=9))),
        ("rnr_nak", "NAK", v4(rc(0x11) / AETH(syndrome=0x21, msn=9))),
        ("ack_tc_aeth", "ACK", v4(rc(0x11) / AETH(syndrome=0x1f, msn=10) / TCAETH(segnum=3, lastfin=199, s1l=300, s1r=399, s2l=500, s2r=599))),
        ("atomic_ack", "ATOMIC_ACKNOWLEDGE", v4(rc(0x12) / AETH(syndrome=0x1f, msn=11) / AtomicAckETH(origdt=0x1122334455667788))),
        ("atomic_ack_tc_aeth", "ATOMIC_ACKNOWLEDGE", v4(rc(0x12) / AETH(syndrome=0x1f, msn=12) / TCAETH(segnum=1, lastfin=42) / AtomicAckETH(origdt=9))),
        ("cnp", "CNP_PACKET", v4(cnp(qp))),
        ("uc_send_only", "REQUEST", v4(BTH(opcode=0x24, dqpn=qp, psn=17) / Raw(PAY[:512]))),
    ]
    out = [(name, cls, raw(p)) for name, cls, p in v]
    out.append(("ipv6_send_only", "REQUEST", v6(rc(0x04) / Raw(PAY[:300]))))
    out.append(("ipv6_write_first", "REQUEST", v6(rc(0x06) / RETH(va=1, rkey=2, dlen=2048) / Raw(PAY))))
    return out


def captured():
    """Packets rxe sent in the lab, as hex lines in rxe_capture.txt."""
    path = os.path.join(HERE, "rxe_capture.txt")
    out = []
    with open(path) as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            name, cls, hexbytes = line.split(None, 2)
            out.append((name, cls, bytes.fromhex(hexbytes.replace(" ", ""))))
    return out


def expected(ip_bytes):
    """What scapy reads from the bytes: opcode, dest QP, PSN, payload."""
    p = IP(ip_bytes) if ip_bytes[0] >> 4 == 4 else IPv6(ip_bytes)
    bth = p[BTH]
    return bth.opcode, bth.dqpn, bth.psn, bth.ackreq


def span(name, ip_bytes):
    if name == "read_request" or name.startswith("captured_read_request"):
        p = IP(ip_bytes)
        dlen = struct.unpack("!I", raw(p[BTH])[12 + 12:12 + 16])[0]
        return max(1, -(-dlen // MTU))
    return 1


def header(vectors):
    out = ["/* SPDX-License-Identifier: GPL-2.0 */",
           "/*",
           " * Do not edit: generated by tests/vectors/gen_roce_vectors.py",
           " * (make vectors) with scapy's contrib.roce, plus packets rxe sent in",
           " * the lab (tests/vectors/rxe_capture.txt).",
           " */",
           "#ifndef CREM_TEST_ROCE_VECTORS_H",
           "#define CREM_TEST_ROCE_VECTORS_H",
           "",
           "#define ROCE_VECTOR_MTU %d" % MTU,
           ""]
    for i, (name, cls, b) in enumerate(vectors):
        out.append("static const u8 roce_vec_%d[%d] = {" % (i, len(b)))
        for j in range(0, len(b), 12):
            out.append("\t" + " ".join("0x%02x," % x for x in b[j:j + 12]))
        out.append("};")
    out += ["", "static const struct roce_vector {",
            "\tconst char *name;",
            "\tconst u8 *bytes;",
            "\tunsigned int len;",
            "\tenum crem_roce_class class;",
            "\tu8 opcode;",
            "\tu32 dest_qp;",
            "\tu32 psn;",
            "\tbool ackreq;",
            "\tu32 span;",
            "} roce_vectors[] = {"]
    for i, (name, cls, b) in enumerate(vectors):
        op, qp, psn, ackreq = expected(b)
        out.append('\t{ "%s", roce_vec_%d, %d, CREM_ROCE_%s, 0x%02x, 0x%06x, 0x%06x, %s, %d },'
                   % (name, i, len(b), cls, op, qp, psn, "true" if ackreq else "false",
                      span(name, b)))
    out += ["};", "", "#endif /* CREM_TEST_ROCE_VECTORS_H */", ""]
    return "\n".join(out)


def main(argv):
    if len(argv) != 3 or argv[1] not in ("header", "check", "pcap"):
        print(__doc__, file=sys.stderr)
        return 2
    vectors = build() + captured()
    if argv[1] == "pcap":
        frames = [Ether(src="52:54:00:c3:e0:01", dst="52:54:00:c3:e0:02",
                        type=0x0800 if b[0] >> 4 == 4 else 0x86dd) / Raw(b)
                  for _, _, b in vectors]
        wrpcap(argv[2], frames)
        return 0
    text = header(vectors)
    if argv[1] == "check":
        try:
            with open(argv[2]) as f:
                if f.read() == text:
                    return 0
        except FileNotFoundError:
            pass
        print("gen_roce_vectors: %s is out of date (make vectors)" % argv[2], file=sys.stderr)
        return 1
    with open(argv[2], "w") as f:
        f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
