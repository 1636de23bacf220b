#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Seed corpora for the fuzz targets: make_seeds.py WIRE_DIR ROCE_DIR.

Wire seeds are one valid message of each CREM type, written here with
struct from the draft's layouts; RoCE seeds are the test vectors.
"""

import os
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "vectors"))
import gen_roce_vectors  # noqa: E402


def hdr(t, flags, body, flow=0xbeef):
    return struct.pack("!BBHI", 0x10 | t, flags, 8 + len(body), flow) + body


def wire_seeds():
    sym = bytes(range(16))
    yield hdr(1, 0x80, bytes.fromhex("01010402001000000007 0010 f0000000 e0000000".replace(" ", "")) + sym)
    yield hdr(1, 0x20, bytes.fromhex("01012003abcdef000000 0000 ffffffff".replace(" ", "")))
    yield hdr(2, 0, struct.pack("!BBHBBHHHQ", 1, 4, 3, 32, 8, 1100, 1024, 0, 42) + bytes(4) + bytes(4) + struct.pack("!I", 0x12))
    yield hdr(2, 0, struct.pack("!BBHBBHHHQ", 1, 6, 3, 32, 8, 1100, 1024, 0, 42) + bytes(32) + struct.pack("!I", 0x12))
    yield hdr(3, 0, struct.pack("!BBHBBHHHQHH", 1, 4, 3, 64, 8, 1100, 1024, 0, 42, 16, 0))
    yield hdr(4, 0, struct.pack("!BBBBHHI", 2, 1, 32, 4, 1100, 0, 0x00abcd00))
    yield hdr(5, 0, struct.pack("!BBH", 2, 0, 0))
    yield hdr(6, 0, struct.pack("!BBBBIHH", 1, 1, 4, 2, 0x00100001, 7, 0) + bytes.fromhex("e0000000"))
    yield hdr(6, 0x30, struct.pack("!HH", 9, 2) + struct.pack("!I", 0x00100005) + struct.pack("!I", 0xfffffe02))
    yield hdr(7, 0, struct.pack("!8I", 1000, 100, 99, 1, 0, 0, 4, 0))
    yield hdr(8, 0x80, struct.pack("!BBBB", 3, 1, 4, 0) + bytes(8) + struct.pack("!I", 0x12)
              + struct.pack("!IIIiBBH", 7, 1, 2, -5, 1, 1, 0) + struct.pack("!I", 0x00100003))
    yield hdr(9, 0, struct.pack("!HH", 4, 0))


def main(argv):
    if len(argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    for d in argv[1:]:
        os.makedirs(d, exist_ok=True)
    for i, s in enumerate(wire_seeds()):
        with open(os.path.join(argv[1], "seed%02d" % i), "wb") as f:
            f.write(s)
    vectors = gen_roce_vectors.build() + gen_roce_vectors.captured()
    for name, _, b in vectors:
        with open(os.path.join(argv[2], name), "wb") as f:
            f.write(b)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
