"""Expected output of qnn-tflite-gen --model=squared_difference: TFLite's
int8 SQUARED_DIFFERENCE (left shift 7, three multipliers, single rounding
as in TFLite 2.x) in Python. usage: squared_difference_expected.py IN OUT"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tflite_math import f32, quantize_multiplier, multiply_single  # noqa: E402


ls, lzp, rs, rzp, os_, ozp = f32(0.05), -5, f32(0.08), 3, f32(0.2), -120
rhs = [-120 + 16 * i for i in range(16)]
twice_max = 2 * max(ls, rs)
m1 = quantize_multiplier(ls / twice_max)
m2 = quantize_multiplier(rs / twice_max)
mo = quantize_multiplier(twice_max * twice_max / f32(16384 * os_))
out = []
for i, b in enumerate(open(sys.argv[1], "rb").read()):
    x = b - 256 if b > 127 else b
    a = multiply_single((x - lzp) << 7, *m1)
    c = multiply_single((rhs[i % 16] - rzp) << 7, *m2)
    y = multiply_single((a - c) * (a - c), *mo) + ozp
    out.append(max(-128, min(127, y)) & 0xFF)
open(sys.argv[2], "wb").write(bytes(out))
