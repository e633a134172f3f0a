#!/usr/bin/env python3
"""npu programs for the execution tests of the npu lowering (npu-kernels*.test).

Prints one module: one function per case, each taking 8-bit inputs and
returning the npu operator's result. Weights, biases and scales are
deterministic pseudo-random values (a fixed-seed LCG, so the file is the
same on every machine). The tests run each entry natively on every target
and compare it with the reference evaluator's npu semantics
(qnn-run --compare-reference); this file computes no expected values.

Cases cover what decides the lowering: kernels with their epilogue inside
(pointwise, 3x3, strided, depthwise with and without its own padding,
dense), each activation kind (clip, relu, lut, leaky_relu), each rounding
rule (tflite, tflite_single, upward), per-channel and per-tensor scales,
u8 and i8, weight zero points; and the fallbacks (a generic epilogue):
padded output channels (on the AVX-512 targets the kernels store those
themselves, masked: the cases after conv_grouped), a depthwise channel
multiplier, a bias that is not a constant, a grouped convolution.
"""
import sys


class Rng:
    def __init__(self, seed):
        self.s = seed & 0xFFFFFFFF

    def next(self):
        self.s = (1103515245 * self.s + 12345) & 0x7FFFFFFF
        return self.s

    def int(self, lo, hi):
        # The high bits: the low ones of this LCG have short periods.
        return lo + (self.next() >> 8) % (hi - lo + 1)

    def scale(self, lo, hi):
        return lo + (hi - lo) * ((self.next() >> 8) % 10000) / 10000.0


def ttype(shape, t):
    return "tensor<%sx%s>" % ("x".join(str(d) for d in shape), t)


def dense(values, shape, t):
    """A constant of any shape from its flat row-major values (hex form)."""
    width = 4 if t == "i32" else 1
    data = b"".join((v % (1 << (8 * width))).to_bytes(width, "little")
                    for v in values)
    return 'arith.constant dense<"0x%s"> : %s' % (data.hex().upper(),
                                                   ttype(shape, t))


def storage(t):
    return (0, 255) if t == "ui8" else (-128, 127)


def f32(v):
    return "%.6e : f32" % v


def lut_table(rng, t):
    lo, hi = storage(t)
    return [rng.int(lo, hi) for _ in range(256)]


def activation(rng, kind, t, out_zp):
    """The activation attributes (act_min/max inside the storage range)."""
    lo, hi = storage(t)
    if kind == "none":
        return "act_min = %d : i32, act_max = %d : i32" % (lo, hi)
    if kind == "clip":
        return ("activation = #npu.activation<clip>, act_min = %d : i32, "
                "act_max = %d : i32" % (lo + 20, hi - 30))
    if kind == "relu":
        return ("activation = #npu.activation<relu>, act_min = %d : i32, "
                "act_max = %d : i32" % (max(lo, out_zp), hi))
    if kind == "lut":
        return ("activation = #npu.activation<lut>, act_min = %d : i32, "
                "act_max = %d : i32, lut = array<i32: %s>" % (
                    lo + 5, hi - 7,
                    ", ".join(str(v) for v in lut_table(rng, t))))
    if kind == "leaky":
        return ("activation = #npu.activation<leaky_relu>, act_min = %d : "
                "i32, act_max = %d : i32, leaky_params = array<i32: "
                "1518500250, 0, 1288490189, -3, %d>" % (lo, hi, out_zp + 1))
    raise ValueError(kind)


def conv_case(name, rng, t, H, W, C, O, kh, kw, strides, pads, groups=1,
              wt="i8", wzp=0, per_channel=True, bias="const", act="clip",
              rounding="tflite", n=1, dilations=(1, 1)):
    """An npu.conv2d entry @name(x[, bias]) -> y (batch n)."""
    lo, hi = storage(t)
    izp = rng.int(lo + 10, hi - 10)
    out_zp = rng.int(lo + 10, hi - 10)
    cin = C // groups
    wlo, whi = storage(wt)
    weights = [rng.int(wlo, whi) for _ in range(O * kh * kw * cin)]
    OH = (H + pads[0] + pads[2] - dilations[0] * (kh - 1) - 1) // strides[0] + 1
    OW = (W + pads[1] + pads[3] - dilations[1] * (kw - 1) - 1) // strides[1] + 1
    ws = [rng.scale(0.002, 0.02) for _ in range(O if per_channel else 1)]
    args = ["%%x: %s" % ttype([n, H, W, C], t)]
    body = ["  %%w = %s" % dense(weights, [O, kh, kw, cin], wt)]
    operands = "%x, %w"
    types = [ttype([n, H, W, C], t), ttype([O, kh, kw, cin], wt)]
    if bias == "const":
        body.append("  %%b = %s" % dense(
            [rng.int(-3000, 3000) for _ in range(O)], [O], "i32"))
    if bias == "arg":
        args.append("%%b: %s" % ttype([O], "i32"))
    if bias:
        operands += ", %b"
        types.append(ttype([O], "i32"))
    attrs = ("input_scale = %s, input_zero_point = %d : i32, weight_scale = "
             "array<f32: %s>, weight_zero_point = %d : i32, output_scale = %s, "
             "output_zero_point = %d : i32, rounding = #qnn.rounding<%s>, "
             "strides = array<i64: %d, %d>, padding = array<i64: %d, %d, %d, "
             "%d>, dilations = array<i64: %d, %d>, groups = %d : i64, "
             "pad_value = %d : i32, %s" % (
                 f32(rng.scale(0.01, 0.05)), izp,
                 ", ".join("%.6e" % s for s in ws), wzp,
                 f32(rng.scale(0.05, 0.2)), out_zp, rounding, strides[0],
                 strides[1], pads[0], pads[1], pads[2], pads[3],
                 dilations[0], dilations[1], groups, izp,
                 activation(rng, act, t, out_zp)))
    result = ttype([n, OH, OW, O], t)
    body.append("  %%y = npu.conv2d %s {%s} : (%s) -> %s" % (
        operands, attrs, ", ".join(types), result))
    body.append("  return %y : " + result)
    return ["func.func @%s(%s) -> %s {" % (name, ", ".join(args), result)] + \
        body + ["}"]


def fc_case(name, rng, t, N, K, O, act="lut", rounding="tflite_single"):
    lo, hi = storage(t)
    izp = rng.int(lo + 10, hi - 10)
    out_zp = rng.int(lo + 10, hi - 10)
    weights = [rng.int(-127, 127) for _ in range(O * K)]
    ws = [rng.scale(0.002, 0.02) for _ in range(O)]
    result = ttype([N, O], t)
    attrs = ("input_scale = %s, input_zero_point = %d : i32, weight_scale = "
             "array<f32: %s>, weight_zero_point = 0 : i32, output_scale = %s, "
             "output_zero_point = %d : i32, rounding = #qnn.rounding<%s>, %s" % (
                 f32(rng.scale(0.01, 0.05)), izp,
                 ", ".join("%.6e" % s for s in ws), f32(rng.scale(0.1, 0.4)),
                 out_zp, rounding, activation(rng, act, t, out_zp)))
    return [
        "func.func @%s(%%x: %s) -> %s {" % (name, ttype([N, K], t), result),
        "  %%w = %s" % dense(weights, [O, K], "i8"),
        "  %%b = %s" % dense([rng.int(-5000, 5000) for _ in range(O)], [O],
                             "i32"),
        "  %%y = npu.fully_connected %%x, %%w, %%b {%s} : (%s, %s, %s) -> %s" % (
            attrs, ttype([N, K], t), ttype([O, K], "i8"), ttype([O], "i32"),
            result),
        "  return %y : " + result,
        "}"]


def main():
    rng = Rng(20261125)
    out = ["// Generated by npu_cases.py: npu programs for npu-kernels*.test."]
    # Kernels with the epilogue inside.
    out += conv_case("conv3x3_clip", rng, "i8", 9, 9, 16, 32, 3, 3, (1, 1),
                     (1, 1, 1, 1))
    out += conv_case("pw_lut_single", rng, "i8", 8, 8, 32, 16, 1, 1, (1, 1),
                     (0, 0, 0, 0), bias=None, act="lut",
                     rounding="tflite_single")
    out += conv_case("conv_s2_u8_relu", rng, "ui8", 11, 10, 4, 16, 3, 3,
                     (2, 2), (0, 0, 1, 1), wt="ui8", wzp=131,
                     per_channel=False, act="relu")
    out += conv_case("conv_upward_leaky", rng, "i8", 7, 7, 8, 16, 3, 3, (1, 1),
                     (1, 1, 1, 1), act="leaky", rounding="upward")
    out += conv_case("dw_selfpad", rng, "i8", 10, 9, 32, 32, 3, 3, (1, 1),
                     (1, 1, 1, 1), groups=32, act="relu")
    out += conv_case("dw_s2_u8_lut", rng, "ui8", 9, 9, 16, 16, 3, 3, (2, 2),
                     (0, 0, 1, 1), groups=16, wt="ui8", wzp=120,
                     per_channel=False, act="lut")
    out += conv_case("dw_padcopy_leaky", rng, "i8", 6, 6, 16, 16, 5, 5, (2, 2),
                     (2, 2, 2, 2), groups=16, wzp=0, act="leaky",
                     rounding="tflite_single")
    out += fc_case("fc_lut", rng, "i8", 3, 64, 48)
    out += fc_case("fc_none_u8", rng, "ui8", 2, 40, 32, act="none",
                   rounding="tflite")
    # Fallbacks: the accumulator of a qnn operator, a generic epilogue.
    # (8 of 16 channels: on avx512-vnni a kernel that pairs pixels, the
    # epilogue inside; a fallback on the 16-lane int16 flavor.)
    out += conv_case("conv_o8_padded", rng, "i8", 6, 6, 8, 8, 3, 3, (1, 1),
                     (1, 1, 1, 1), act="lut")
    out += conv_case("dw_mult2", rng, "i8", 6, 6, 16, 32, 3, 3, (1, 1),
                     (1, 1, 1, 1), groups=16, act="clip")
    out += conv_case("conv_bias_arg", rng, "i8", 6, 6, 16, 16, 1, 1, (1, 1),
                     (0, 0, 0, 0), bias="arg", act="leaky")
    out += conv_case("conv_grouped", rng, "i8", 5, 5, 16, 16, 3, 3, (1, 1),
                     (1, 1, 1, 1), groups=4, act="clip")
    # Output channels that do not fill the last 16-lane block: on
    # avx512-vnni and int16-avx512bw the kernel stores them itself, the
    # last block's stores masked (KernelSpec::oc), where at most a quarter
    # of the channels are padding. One group of two or three blocks (a
    # constant mask; pointwise kernels are software-pipelined, 3x3 ones
    # plain tiles), loops over single blocks (a mask computed per block),
    # a dense layer; 20 of 32 channels take the fallback.
    out += conv_case("pw_o24", rng, "i8", 7, 9, 40, 24, 1, 1, (1, 1),
                     (0, 0, 0, 0), act="clip", rounding="tflite_single")
    out += conv_case("pw_o40_u8", rng, "ui8", 5, 7, 20, 40, 1, 1, (1, 1),
                     (0, 0, 0, 0), wt="ui8", wzp=120, per_channel=False,
                     act="lut")
    out += conv_case("pw_o72", rng, "i8", 6, 6, 64, 72, 1, 1, (1, 1),
                     (0, 0, 0, 0), act="relu")
    out += conv_case("conv_o20_s2", rng, "i8", 9, 9, 8, 20, 3, 3, (2, 2),
                     (1, 1, 1, 1), act="leaky")
    out += conv_case("conv_o100", rng, "i8", 7, 7, 16, 100, 3, 3, (1, 1),
                     (1, 1, 1, 1), act="clip", rounding="upward")
    out += fc_case("fc_o37", rng, "i8", 2, 64, 37)
    out += conv_case("conv_o28", rng, "i8", 6, 6, 8, 28, 3, 3, (1, 1),
                     (1, 1, 1, 1), act="relu", rounding="tflite_single")
    print("\n".join(out))


if __name__ == "__main__":
    main()
