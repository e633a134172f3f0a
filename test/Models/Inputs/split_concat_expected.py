#!/usr/bin/env python3
"""Expected outputs of split_concat.tflite, computed independently.

The graph (all tensors share scale 1/128 and zero point 128, so it only moves
bytes): x = concat(a[..3], b[..1], c[..2]) along channels (6 channels), then
outputs x[..0], x[..2], x[..4], x[..1], concat(x[..3], x[..5]).
usage: split_concat_expected.py A B C OUTPREFIX   (writes OUTPREFIX0..4)
"""
import sys

a, b, c = (open(p, "rb").read() for p in sys.argv[1:4])
pixels = 64
x = []
for p in range(pixels):
    x.append(a[3 * p:3 * p + 3] + b[p:p + 1] + c[2 * p:2 * p + 2])
outs = [bytes(x[p][0] for p in range(pixels)),
        bytes(x[p][2] for p in range(pixels)),
        bytes(x[p][4] for p in range(pixels)),
        bytes(x[p][1] for p in range(pixels)),
        b"".join(bytes([x[p][3], x[p][5]]) for p in range(pixels))]
for i, o in enumerate(outs):
    open(sys.argv[4] + str(i), "wb").write(o)
