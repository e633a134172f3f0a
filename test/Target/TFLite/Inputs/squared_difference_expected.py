"""Expected output of qnn-tflite-gen --model=squared_difference: TFLite's
int8 SQUARED_DIFFERENCE (left shift 7, three multipliers, single rounding
as in TFLite 2.x) in Python. usage: squared_difference_expected.py IN OUT"""
import math
import struct
import sys


def f32(v):
    return struct.unpack("f", struct.pack("f", v))[0]


def quantize_multiplier(real):
    q, shift = math.frexp(real)
    q_fixed = round(q * (1 << 31))
    if q_fixed == (1 << 31):
        q_fixed //= 2
        shift += 1
    return q_fixed, shift


def multiply(x, m, shift):
    # Single rounding (TFLITE_SINGLE_ROUNDING) on the 64-bit product.
    left = shift if shift > 0 else 0
    total = 31 - (shift if shift < 0 else 0)
    return ((x << left) * m + (1 << (total - 1))) >> total


ls, lzp, rs, rzp, os_, ozp = f32(0.05), -5, f32(0.08), 3, f32(0.2), -120
rhs = [-120 + 16 * i for i in range(16)]
twice_max = 2 * max(ls, rs)
m1 = quantize_multiplier(ls / twice_max)
m2 = quantize_multiplier(rs / twice_max)
mo = quantize_multiplier(twice_max * twice_max / f32(16384 * os_))
out = []
for i, b in enumerate(open(sys.argv[1], "rb").read()):
    x = b - 256 if b > 127 else b
    a = multiply((x - lzp) << 7, *m1)
    c = multiply((rhs[i % 16] - rzp) << 7, *m2)
    y = multiply((a - c) * (a - c), *mo) + ozp
    out.append(max(-128, min(127, y)) & 0xFF)
open(sys.argv[2], "wb").write(bytes(out))
