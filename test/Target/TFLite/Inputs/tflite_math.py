"""TFLite's fixed-point helpers written out in Python for the expected-output
scripts of this folder (independent of qnn-mlir's C++): float32 rounding,
QuantizeMultiplier, and MultiplyByQuantizedMultiplier with TFLite 2.x's
single rounding or gemmlowp's double rounding."""
import math
import struct


def f32(v):
    """v rounded to float32."""
    return struct.unpack("f", struct.pack("f", v))[0]


def quantize_multiplier(real):
    """TFLite's QuantizeMultiplier: a Q31 significand (rounded half away from
    zero, 2^31 renormalised) and a power-of-two exponent."""
    if real == 0.0:
        return 0, 0
    q, shift = math.frexp(real)
    q_fixed = round(q * (1 << 31))
    if q_fixed == (1 << 31):
        q_fixed //= 2
        shift += 1
    return q_fixed, shift


def multiply_single(x, m, shift):
    """TFLITE_SINGLE_ROUNDING: one rounding (halves up) of the exact
    product."""
    left = shift if shift > 0 else 0
    total = 31 - (shift if shift < 0 else 0)
    return ((x << left) * m + (1 << (total - 1))) >> total


def multiply_double(x, m, shift):
    """gemmlowp's SaturatingRoundingDoublingHighMul then RoundingDivideByPOT
    (both round halves away from zero)."""
    left = shift if shift > 0 else 0
    right = -shift if shift < 0 else 0
    ab = (x << left) * m
    nudge = (1 << 30) if ab >= 0 else (1 - (1 << 30))
    high = int((ab + nudge) / (1 << 31))  # truncation toward zero
    mask = (1 << right) - 1
    remainder = high & mask
    threshold = (mask >> 1) + (1 if high < 0 else 0)
    return (high >> right) + (1 if remainder > threshold else 0)


def signed_bytes(data):
    return [b - 256 if b > 127 else b for b in data]
