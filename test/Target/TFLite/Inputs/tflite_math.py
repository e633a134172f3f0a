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


INT32_MIN, INT32_MAX = -(1 << 31), (1 << 31) - 1


def srdhm(a, b):
    """gemmlowp's SaturatingRoundingDoublingHighMul."""
    if a == b == INT32_MIN:
        return INT32_MAX
    ab = a * b
    nudge = (1 << 30) if ab >= 0 else (1 - (1 << 30))
    return int((ab + nudge) / (1 << 31))  # truncation toward zero


def rounding_divide_by_pot(x, exponent):
    """gemmlowp's RoundingDivideByPOT (halves away from zero)."""
    mask = (1 << exponent) - 1
    remainder = x & mask
    threshold = (mask >> 1) + (1 if x < 0 else 0)
    return (x >> exponent) + (1 if remainder > threshold else 0)


def saturating_shift_left(x, exponent):
    """gemmlowp's SaturatingRoundingMultiplyByPOT<exponent > 0>."""
    return max(INT32_MIN, min(INT32_MAX, x << exponent))


def inv_sqrt_multiplier(value):
    """TFLite's GetInvSqrtQuantizedMultiplierExp(value, kReverseShift):
    (Q31 multiplier, left shift) of 1 / sqrt(value), from five gemmlowp
    Newton-Raphson steps in Q3.28."""
    if value <= 1:
        return INT32_MAX, 0
    shift = 11
    while value >= (1 << 29):
        value //= 4
        shift += 1
    max_left_shift_bits = (32 - value.bit_length()) - 1
    pairs = max_left_shift_bits // 2 - 1
    shift -= pairs
    value <<= 2 * pairs
    half_input = rounding_divide_by_pot(value >> 1, 1)
    half_three = (1 << 28) + (1 << 27)
    x = 1 << 28
    for _ in range(5):
        x3 = saturating_shift_left(srdhm(srdhm(x, x), x), 6)
        x = saturating_shift_left(srdhm(half_three, x) - srdhm(half_input, x3), 3)
    x = srdhm(x, 1518500250)
    if shift < 0:
        x = ((x << -shift) + (1 << 31)) % (1 << 32) - (1 << 31)  # int32 wrap
        shift = 0
    return x, -shift


def one_over_one_plus_x(a):
    """gemmlowp's one_over_one_plus_x_for_x_in_0_1 on a Q0.31 raw value."""
    wrap = lambda v: (v + (1 << 31)) % (1 << 32) - (1 << 31)
    total = a + INT32_MAX
    half_denominator = int((total + (1 if total >= 0 else -1)) / 2)
    x = wrap(1515870810 + srdhm(half_denominator, -1010580540))
    for _ in range(3):
        one_minus = wrap((1 << 29) - srdhm(half_denominator, x))
        x = wrap(x + saturating_shift_left(srdhm(x, one_minus), 2))
    return saturating_shift_left(x, 1)


def div_quantized(a, b, m, shift):
    """TFLite's DIV on centred values a, b (b != 0) with the output
    multiplier (m, shift), gemmlowp's double rounding throughout; None where
    the final right shift exceeds 31 (undefined in gemmlowp)."""
    if b < 0:
        a, b = -a, -b
    clz = 32 - b.bit_length()
    recip_shift = 31 - clz
    inverse = one_over_one_plus_x((b << clz) - (1 << 31))
    headroom = (32 - a.bit_length() - 1) if a >= 0 else (32 - (2 * (-a) - 1).bit_length())
    unscaled = srdhm(a << headroom, inverse)
    right = recip_shift + headroom - shift
    if right > 31:
        return None
    if right < 0:
        shifted = ((unscaled << -right) + (1 << 31)) % (1 << 32) - (1 << 31)
        return srdhm(shifted, m)
    return rounding_divide_by_pot(srdhm(unscaled, m), right)
