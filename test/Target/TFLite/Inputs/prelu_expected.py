"""Expected output of qnn-tflite-gen --model=prelu: TFLite's quantized PRELU
(PreluPrepare's float32 multipliers, BroadcastPrelu4DSlow) in Python with
the single rounding of TFLite 2.x. usage: prelu_expected.py IN OUT"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tflite_math import f32, quantize_multiplier, multiply_single  # noqa: E402


in_s, a_s, out_s = f32(0.06), f32(0.01), f32(0.05)
in_zp, a_zp, out_zp = -4, 2, 7
alpha = [-8, 3, 40, -100]
m1 = quantize_multiplier(f32(in_s / out_s))
m2 = quantize_multiplier(f32(f32(in_s * a_s) / out_s))
data = open(sys.argv[1], "rb").read()
out = []
for i, b in enumerate(data):
    x = (b - 256 if b > 127 else b) - in_zp
    if x >= 0:
        y = multiply_single(x, *m1)
    else:
        y = multiply_single(x * (alpha[i % 4] - a_zp), *m2)
    out.append(max(-128, min(127, y + out_zp)) & 0xFF)
open(sys.argv[2], "wb").write(bytes(out))
