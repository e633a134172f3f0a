"""Expected outputs of qnn-tflite-gen --model=sum_mean: TFLite's reference
QuantizedMeanOrSum, written out independently.
  SUM of a [2, 5, 3, 4] int8 tensor (scale 0.02, zp -7) over axes 1 and 3
  to scale 0.3, zp 4: y = rescale(sum - zp * 20, m, e) + 4, clamped, with
  (m, e) = QuantizeMultiplier(0.02 / 0.3).
  MEAN of a [2, 6, 5] uint8 tensor (scale 0.05, zp 120) over axis 1 to
  scale 0.04, zp 100: the same with the count 6 folded into the multiplier
  (m' = (m << k) // 6, e' = e - k, k = min(floor(log2 6), 32, 31 + e)).
Single rounding as TFLite 2.x, or gemmlowp's double rounding with --double.
usage: sum_mean_expected.py A B SUM_OUT MEAN_OUT [--double]"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tflite_math import (f32, quantize_multiplier, multiply_double,  # noqa: E402
                         multiply_single, signed_bytes)

rescale = multiply_double if "--double" in sys.argv else multiply_single

a = signed_bytes(open(sys.argv[1], "rb").read())
m, e = quantize_multiplier(f32(0.02) / f32(0.3))
sums = []
for n in range(2):
    for h in range(3):
        s = sum(a[((n * 5 + c) * 3 + h) * 4 + w] for c in range(5) for w in range(4))
        y = rescale(s - (-7) * 20, m, e) + 4
        sums.append(max(-128, min(127, y)) & 0xFF)
open(sys.argv[3], "wb").write(bytes(sums))

b = list(open(sys.argv[2], "rb").read())
m, e = quantize_multiplier(f32(0.05) / f32(0.04))
k = min(6 .bit_length() - 1, 32, 31 + e)
m, e = (m << k) // 6, e - k
means = []
for n in range(2):
    for c in range(5):
        s = sum(b[(n * 6 + i) * 5 + c] for i in range(6))
        means.append(max(0, min(255, rescale(s - 120 * 6, m, e) + 100)))
open(sys.argv[4], "wb").write(bytes(means))
