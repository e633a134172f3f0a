"""Expected output of qnn-tflite-gen --model=batch_matmul: TFLite's int8
BATCH_MATMUL (reference_ops::BatchMatMul) in Python: lhs [2, 3, 4, 5], rhs
[2, 3, 6, 5] with adj_y, sum over k of (lhs - lhs_zp) * (rhs - rhs_zp), the
multiplier of double(lhs_scale) * double(rhs_scale) / double(output_scale)
with TFLite 2.x's single rounding, + output zp, clamped.
usage: batch_matmul_expected.py LHS RHS OUT"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tflite_math import f32, quantize_multiplier, multiply_single  # noqa: E402


signed = lambda data: [b - 256 if b > 127 else b for b in data]
lhs = signed(open(sys.argv[1], "rb").read())
rhs = signed(open(sys.argv[2], "rb").read())
B, M, K, N = 6, 4, 5, 6
m, shift = quantize_multiplier(f32(0.04) * f32(0.03) / f32(0.3))
out = []
for b in range(B):
    for i in range(M):
        for j in range(N):
            acc = sum((lhs[(b * M + i) * K + k] + 6) * (rhs[(b * N + j) * K + k] - 9)
                      for k in range(K))
            out.append(max(-128, min(127, multiply_single(acc, m, shift) - 2)) & 0xFF)
open(sys.argv[3], "wb").write(bytes(out))
