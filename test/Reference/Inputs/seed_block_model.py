#!/usr/bin/env python3
"""An independent model of examples/mobilenet_block_tflite.mlir.

Written in Python from the op descriptions (not from QuantMath.cpp), using
the block parameters of scripts/gen_seed_blocks.py, to cross-check the C++
reference evaluator. Prints the expected result values, or with --bytes
writes them raw.

Usage: seed_block_model.py SRC_ROOT INPUT.bin [--bytes]
"""
import math
import struct
import sys

sys.path.insert(0, sys.argv[1] + "/scripts")
import gen_seed_blocks as g  # noqa: E402


def f32(x):
    return struct.unpack("<f", struct.pack("<f", x))[0]


def round_half_away(x):
    return int(math.floor(abs(x) + 0.5)) * (1 if x >= 0 else -1)


def quantize_multiplier(real):
    if real == 0:
        return 0, 0
    sig, exp = math.frexp(real)
    q = round_half_away(sig * (1 << 31))
    if q == 1 << 31:
        q //= 2
        exp += 1
    if exp < -31:
        return 0, 0
    return q, exp


def srdhm(a, b):
    if a == b == -(1 << 31):
        return (1 << 31) - 1
    p = a * b
    nudge = (1 << 30) if p >= 0 else 1 - (1 << 30)
    v = p + nudge
    # Division truncating toward zero.
    q = abs(v) // (1 << 31)
    return q if v >= 0 else -q


def rdbpot(x, e):
    if e == 0:
        return x
    # x / 2^e, halves away from zero.
    q, r = divmod(abs(x), 1 << e)
    if 2 * r >= (1 << e):
        q += 1
    return q if x >= 0 else -q


def mbqm(x, m, s):
    left = max(s, 0)
    right = max(-s, 0)
    shifted = x * (1 << left)
    return rdbpot(srdhm(shifted, m), right)


def conv(x, h, cin, layer, weights, pad, in_zp):
    k, cout, stride, groups = layer["k"], layer["cout"], layer["stride"], layer["groups"]
    wzp = layer["wzp"]
    oh = (h + pad[0] + pad[2] - k) // stride + 1
    cg = cin // groups
    og = cout // groups
    out = [[[0] * cout for _ in range(oh)] for _ in range(oh)]
    for r in range(oh):
        for c in range(oh):
            for o in range(cout):
                grp = o // og
                acc = 0
                for kh in range(k):
                    ih = r * stride + kh - pad[0]
                    if not 0 <= ih < h:
                        continue
                    for kw in range(k):
                        iw = c * stride + kw - pad[1]
                        if not 0 <= iw < h:
                            continue
                        for i in range(cg):
                            xv = x[ih][iw][grp * cg + i]
                            if groups == 1:  # OHWI [cout, k, k, cin]
                                wv = weights[((o * k + kh) * k + kw) * cin + i]
                            else:  # IHWO [1, k, k, cout]
                                wv = weights[(kh * k + kw) * cout + o]
                            acc += (xv - in_zp) * (wv - wzp)
                out[r][c][o] = acc
    return out, oh


def main():
    data = open(sys.argv[2], "rb").read()
    h, cin = 8, 3
    x = [[[data[(r * h + c) * cin + ch] for ch in range(cin)]
          for c in range(h)] for r in range(h)]
    in_s, in_zp = g.IN_S, g.IN_ZP
    for idx, (layer, pad) in enumerate([(g.C0, [0, 0, 1, 1]),
                                        (g.C1, [1, 1, 1, 1]),
                                        (g.C2, [0, 0, 0, 0])]):
        acc, oh = conv(x, h, cin, layer, g.weights(layer, idx), pad, in_zp)
        bias = g.biases(layer, idx)
        real = (f32(in_s) * f32(layer["ws"])) / f32(layer["os"])
        m, s = quantize_multiplier(real)
        x = [[[min(255, max(0, mbqm(acc[r][c][o] + bias[o], m, s) + layer["ozp"]))
               for o in range(layer["cout"])] for c in range(oh)]
             for r in range(oh)]
        h, cin, in_s, in_zp = oh, layer["cout"], layer["os"], layer["ozp"]
    pooled = []
    for ch in range(cin):
        total = sum(x[r][c][ch] for r in range(h) for c in range(h))
        n = h * h
        pooled.append((total + n // 2) // n)
    real = [f32(f32(in_s) * (q - in_zp)) for q in pooled]
    mx = max(real)
    exps = [f32(math.exp(f32(v - mx))) for v in real]
    total = f32(0.0)
    for e in exps:
        total = f32(total + e)
    probs = [f32(e / total) for e in exps]
    out = [min(255, max(0, round_half_away(f32(p / f32(0.00390625)))))
           for p in probs]
    if "--bytes" in sys.argv:
        sys.stdout.buffer.write(bytes(out))
    else:
        print("[" + ", ".join(map(str, out)) + "]")


main()
