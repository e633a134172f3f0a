"""Expected outputs of qnn-tflite-gen --model=l2_norm: TFLite's integer
L2_NORMALIZATION written out independently, row by row along the last axis:
acc = sum((q - zp)^2), (m, s) = GetInvSqrtQuantizedMultiplierExp(acc);
int8 (reference_integer_ops): MBQM(q - zp, m, s + 7), clamped;
uint8 (its uint8 kernel): MBQM(128 * (q - zp), m, s) + 128, clamped, always
with gemmlowp's double rounding (as LiteRT 2.5.3 computes it).
Input a: int8 [2, 3, 8], zp -3; input b: uint8 [4, 16], zp 120. The int8
rescale rounds once as TFLite 2.x, or twice (gemmlowp) with --double.
usage: l2_norm_expected.py A B OUT_A OUT_B [--double]"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tflite_math import (inv_sqrt_multiplier, multiply_double,  # noqa: E402
                         multiply_single, signed_bytes)

rescale = multiply_double if "--double" in sys.argv else multiply_single


def normalize(values, zp, depth, unsigned):
    out = []
    for row in range(0, len(values), depth):
        diffs = [v - zp for v in values[row:row + depth]]
        m, s = inv_sqrt_multiplier(sum(d * d for d in diffs))
        for d in diffs:
            if unsigned:
                out.append(max(0, min(255, multiply_double(128 * d, m, s) + 128)))
            else:
                out.append(max(-128, min(127, rescale(d, m, s + 7))) & 0xFF)
    return bytes(out)


a = signed_bytes(open(sys.argv[1], "rb").read())
b = list(open(sys.argv[2], "rb").read())
open(sys.argv[3], "wb").write(normalize(a, -3, 8, False))
open(sys.argv[4], "wb").write(normalize(b, 120, 16, True))
