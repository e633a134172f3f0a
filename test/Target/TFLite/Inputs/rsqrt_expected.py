"""Expected output of qnn-tflite-gen --model=rsqrt on every int8 value:
TFLite's RsqrtEvalQuantized written out independently. v = q - (-100);
v == 0 gives 127 (v < 0, which TFLite refuses at run time, too); else
data = MBQM(1, inv_sqrt(v)) with the shift + 20, y = MBQM(data, m, s - 20)
- 128 clamped, (m, s) = QuantizeMultiplier(1 / (sqrtf(0.05) * 0.02)) with
the square root and product in float32. Single rounding as TFLite 2.x, or
gemmlowp's double rounding with --double.
usage: rsqrt_expected.py IN OUT [--double]"""
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tflite_math import (f32, inv_sqrt_multiplier, multiply_double,  # noqa: E402
                         multiply_single, quantize_multiplier, signed_bytes)

rescale = multiply_double if "--double" in sys.argv else multiply_single
m, s = quantize_multiplier(1.0 / f32(f32(math.sqrt(f32(0.05))) * f32(0.02)))
out = []
for q in signed_bytes(open(sys.argv[1], "rb").read()):
    v = q + 100
    if v <= 0:
        out.append(127)
        continue
    im, ish = inv_sqrt_multiplier(v)
    data = rescale(1, im, ish + 20)
    out.append(max(-128, min(127, rescale(data, m, s - 20) - 128)))
open(sys.argv[2], "wb").write(bytes(y & 0xFF for y in out))
