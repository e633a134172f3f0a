"""Expected output of qnn-tflite-gen --model=mean: TFLite's reference MEAN
(reference_ops::QuantizedMeanOrSum) over H and W of a [1, 3, 3, 4] int8
tensor (scale 0.1, zp -9) to scale 0.05, zp -20: the multiplier of
0.1 / 0.05 with the count 9 folded in (m' = (m << k) / 9, k = 3), one
rescale of sum - zp * 9 (single rounding as TFLite 2.x, or gemmlowp's
double rounding with --double), + zp, clamped.
usage: mean_expected.py IN OUT [--double]"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tflite_math import f32, quantize_multiplier, multiply_double, multiply_single  # noqa: E402


data = open(sys.argv[1], "rb").read()
x = [b - 256 if b > 127 else b for b in data]
n_el, zp_in, zp_out = 9, -9, -20
m, e = quantize_multiplier(f32(0.1) / f32(0.05))
k = min(n_el.bit_length() - 1, 32, 31 + e)
m, e = (m << k) // n_el, e - k
rescale = multiply_double if "--double" in sys.argv else multiply_single
out = []
for c in range(4):
    s = sum(x[(h * 3 + w) * 4 + c] for h in range(3) for w in range(3))
    out.append(max(-128, min(127, rescale(s - zp_in * n_el, m, e) + zp_out)) & 0xFF)
open(sys.argv[2], "wb").write(bytes(out))
