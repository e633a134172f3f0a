"""Expected outputs of qnn-tflite-gen --model=batch_matmul_broadcast:
TFLite's int8 BATCH_MATMUL with numpy broadcasting of the batch dimensions,
written out independently: sum over k of (lhs - lhs_zp) * (rhs - rhs_zp),
rescaled by double(lhs_scale) * double(rhs_scale) / double(out_scale) with
TFLite 2.x's single rounding, + out zp, clamped.
  a [2, 1, 4, 5] (0.04, -6) x b [3, 5, 6] (0.03, 9) -> [2, 3, 4, 6] (0.3, -2)
  c [2, 4, 5] (0.05, 4) x the constant weights [6, 5] (0.02, 0; adj_y:
  w[j][k] = (5j + k) * 37 % 255 - 127) -> [2, 4, 6] (0.4, 1)
usage: batch_matmul_broadcast_expected.py A B C OUT_AB OUT_CW"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tflite_math import f32, multiply_single, quantize_multiplier, signed_bytes  # noqa: E402

a = signed_bytes(open(sys.argv[1], "rb").read())
b = signed_bytes(open(sys.argv[2], "rb").read())
c = signed_bytes(open(sys.argv[3], "rb").read())


def requantize(acc, scale, zp):
    m, s = quantize_multiplier(scale)
    return max(-128, min(127, multiply_single(acc, m, s) + zp)) & 0xFF


out = []
for i in range(2):          # a's batch (b broadcasts over it)
    for j in range(3):      # b's batch (a broadcasts over it)
        for r in range(4):
            for col in range(6):
                acc = sum((a[(i * 4 + r) * 5 + k] + 6) * (b[(j * 5 + k) * 6 + col] - 9)
                          for k in range(5))
                out.append(requantize(acc, f32(0.04) * f32(0.03) / f32(0.3), -2))
open(sys.argv[4], "wb").write(bytes(out))

w = [(i * 37) % 255 - 127 for i in range(30)]
out = []
for i in range(2):
    for r in range(4):
        for col in range(6):
            acc = sum((c[(i * 4 + r) * 5 + k] - 4) * w[col * 5 + k] for k in range(5))
            out.append(requantize(acc, f32(0.05) * f32(0.02) / f32(0.4), 1))
open(sys.argv[5], "wb").write(bytes(out))
