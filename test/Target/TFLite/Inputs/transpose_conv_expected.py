"""Expected output of qnn-tflite-gen --model=transpose_conv_{same,valid}:
TFLite's reference_integer_ops::TransposeConv written out in Python, on the
generator's formula weights w[o][y][x][i] = (7o + 5y + 3x + i) % 11 - 5 and
biases 10o - 20: scatter-accumulate (x - input_zp) * w into the output at
in * stride - pad + tap, add the bias, rescale per channel with TFLite's
fixed point (MultiplyByQuantizedMultiplier, single rounding as in TFLite
2.x), add the output zero point, clamp (RELU: at the zero point).

usage: transpose_conv_expected.py same|valid INPUT.bin OUTPUT.bin"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tflite_math import f32, quantize_multiplier, multiply_single  # noqa: E402


CASES = {
    #        in shape       O  KH KW SH SW  SAME   out shape      bias  relu
    "same": ((1, 3, 4, 5), 6, 3, 3, 2, 2, True, (1, 6, 8, 6), True, True),
    "valid": ((1, 3, 3, 2), 3, 2, 4, 3, 2, False, (1, 8, 8, 3), False, False),
}


def pad_before(same, out, k, s):
    if not same:
        return 0
    conv_out = (out + s - 1) // s
    total = max((conv_out - 1) * s + k - out, 0)
    return total // 2


def main():
    (n, h, w, c), o, kh, kw, sh, sw, same, (_, oh, ow, _), bias, relu = CASES[sys.argv[1]]
    data = open(sys.argv[2], "rb").read()
    x = [b - 256 if b > 127 else b for b in data]
    izp, ozp = -3, 5
    in_s, out_s = f32(0.05), f32(0.04)
    wgt = lambda oc, y, xx, i: (oc * 7 + y * 5 + xx * 3 + i) % 11 - 5
    pt, pl = pad_before(same, oh, kh, sh), pad_before(same, ow, kw, sw)
    acc = [0] * (n * oh * ow * o)
    for b in range(n):
        for iy in range(h):
            for ix in range(w):
                for i in range(c):
                    v = x[((b * h + iy) * w + ix) * c + i] - izp
                    for fy in range(kh):
                        for fx in range(kw):
                            oy, ox = iy * sh - pt + fy, ix * sw - pl + fx
                            if 0 <= oy < oh and 0 <= ox < ow:
                                for oc in range(o):
                                    acc[((b * oh + oy) * ow + ox) * o + oc] += v * wgt(oc, fy, fx, i)
    out = []
    for idx, a in enumerate(acc):
        oc = idx % o
        if bias:
            a += 10 * oc - 20
        ws = f32(f32(0.02) * (oc + 1))  # the generator: 0.02f * float(c + 1)
        m, shift = quantize_multiplier(in_s * ws / out_s)
        y = multiply_single(a, m, shift) + ozp
        lo = ozp if relu else -128
        out.append(max(lo, min(127, y)) & 0xFF)
    open(sys.argv[3], "wb").write(bytes(out))


main()
