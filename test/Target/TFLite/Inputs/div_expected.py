"""Expected outputs of qnn-tflite-gen --model=div on every pair of bytes
(lhs = i / 256, rhs = i % 256): TFLite's DIV (reference DivElementwise,
gemmlowp's fixed-point reciprocal and double rounding) written out
independently. uint8: lhs (0.05, 128) / rhs (0.03, 100) -> (0.1, 128);
int8: lhs (0.02, -3) / rhs (0.07, 10) -> (0.01, -5); the output multiplier
of the float32 lhs_scale / (rhs_scale * out_scale). Where TFLite's result
is undefined, qnn-mlir's rule: a divisor at its zero point gives the
maximum (minimum for a negative dividend, the zero point for 0 / 0); a final
right shift above 31 gives the exact 0.
usage: div_expected.py OUT_U8 OUT_I8"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tflite_math import div_quantized, f32, quantize_multiplier  # noqa: E402


def table(signed, zl, zr, zo, sl, sr, so):
    m, shift = quantize_multiplier(f32(f32(sl) / f32(f32(sr) * f32(so))))
    lo, hi = (-128, 127) if signed else (0, 255)
    out = []
    for i in range(65536):
        ql, qr = i // 256, i % 256
        if signed:
            ql, qr = ql - 256 * (ql > 127), qr - 256 * (qr > 127)
        a, b = ql - zl, qr - zr
        if b == 0:
            y = hi if a > 0 else lo if a < 0 else zo
        else:
            q = div_quantized(a, b, m, shift)
            y = max(lo, min(hi, (0 if q is None else q) + zo))
        out.append(y & 0xFF)
    return bytes(out)


open(sys.argv[1], "wb").write(table(False, 128, 100, 128, 0.05, 0.03, 0.1))
open(sys.argv[2], "wb").write(table(True, -3, 10, -5, 0.02, 0.07, 0.01))
