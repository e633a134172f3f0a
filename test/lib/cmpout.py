#!/usr/bin/env python3
"""Compares two raw 8-bit output tensors (ours, an independent executor's).

    cmpout.py OURS THEIRS DTYPE TOLERANCE

Prints `argmax=A/B maxdiff=D` and exits 1 when the arg-maxes differ or any
element differs by more than TOLERANCE units.
"""
import struct
import sys

ours, theirs, dtype, tol = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
fmt = {"u8": "B", "i8": "b"}[dtype]
a = open(ours, "rb").read()
b = open(theirs, "rb").read()
if len(a) != len(b):
    print("size mismatch: %d vs %d bytes" % (len(a), len(b)))
    sys.exit(1)
va = struct.unpack("<%d%s" % (len(a), fmt), a)
vb = struct.unpack("<%d%s" % (len(b), fmt), b)
am = max(range(len(va)), key=lambda i: va[i])
bm = max(range(len(vb)), key=lambda i: vb[i])
diff = max(abs(x - y) for x, y in zip(va, vb))
print("argmax=%d/%d maxdiff=%d" % (am, bm, diff))
sys.exit(0 if am == bm and diff <= tol else 1)
