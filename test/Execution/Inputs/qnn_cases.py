#!/usr/bin/env python3
"""Generates execution tests for the qnn lowering.

For a named case this prints an MLIR file: a function @model with qnn
operators, a @main that calls it on deterministic pseudo-random data and
prints the result with printMemrefI32, and FileCheck lines holding the
expected integers. The expectations are computed here, independently of the
C++ code, straight from the formulas in the qnn op descriptions (TFLite's
integer arithmetic), with Python's unbounded integers.

Usage: qnn_cases.py CASE
"""
import math
import struct
import sys


class Rng:
    def __init__(self, seed):
        self.state = seed

    def next(self):
        self.state = (self.state * 6364136223846793005 + 1442695040888963407) % (1 << 64)
        return self.state >> 33

    def ints(self, n, lo, hi):
        return [lo + self.next() % (hi - lo + 1) for _ in range(n)]


def f32(x):
    return struct.unpack("f", struct.pack("f", x))[0]


def wrap32(x):
    x &= 0xFFFFFFFF
    return x - (1 << 32) if x >= 1 << 31 else x


def round_half_away(x):
    return math.floor(x + 0.5) if x >= 0 else -math.floor(-x + 0.5)


def quantize_multiplier(real):
    if real == 0.0:
        return 0, 0
    sig, exp = math.frexp(real)
    fixed = round_half_away(sig * (1 << 31))
    if fixed == 1 << 31:
        fixed //= 2
        exp += 1
    if exp < -31:
        return 0, 0
    return fixed, exp


def srdhm(a, b):
    if a == b == -(1 << 31):
        return (1 << 31) - 1
    p = a * b
    nudge = (1 << 30) if p >= 0 else 1 - (1 << 30)
    q = p + nudge
    # Division by 2^31 truncating toward zero.
    return q // (1 << 31) if q >= 0 else -((-q) // (1 << 31))


def rdbpot(x, e):
    mask = (1 << e) - 1
    rem = x & mask
    thr = (mask >> 1) + (1 if x < 0 else 0)
    return (x >> e) + (1 if rem > thr else 0)


def mbqm(x, m, s):
    left = s if s > 0 else 0
    right = 0 if s > 0 else -s
    return rdbpot(srdhm(wrap32(x << left), m), right)


def mbqm_single(x, m, s):
    """TFLite's MultiplyByQuantizedMultiplier with TFLITE_SINGLE_ROUNDING=1:
    one rounding of x * m / 2^(31 - s), halves up, saturated to i32."""
    total = 31 - s
    y = (x * m + (1 << (total - 1))) >> total
    return max(-(1 << 31), min((1 << 31) - 1, y))


def rescale(x, m, s, rule):
    if rule == "tflite":
        return mbqm(wrap32(x), m, s)
    if rule == "tflite_single":
        return mbqm_single(wrap32(x), m, s)
    left = max(s, 0)
    right = 31 + max(-s, 0)
    p = (x << left) * m
    rnd = 1 << (right - 1)
    if rule == "tonearest" and p < 0:
        rnd -= 1
    y = (p + rnd) >> right
    return max(-(1 << 31), min((1 << 31) - 1, y))


def storage(t):
    return {"ui8": (0, 255), "i8": (-128, 127), "i16": (-32768, 32767),
            "i32": (-(1 << 31), (1 << 31) - 1)}[t]


def requantize_onnx(x, in_scale, in_zp, out_scale, out_zp, t):
    """ONNX Runtime's requantize (MlasRequantizeOutput) in float32: factor
    = float32(float32(in_scale) / out_scale), v = float32(float32(x - zp) *
    factor), rounded half to even (Python's round), + out_zp, saturated.
    Products and quotients of two float32 values are exact or correctly
    rounded in double, so f32() of them is the float32 operation."""
    lo, hi = storage(t)
    factor = f32(f32(in_scale) / out_scale)
    v = f32(f32(x - in_zp) * factor)
    return max(lo, min(hi, round(v) + out_zp))


def requantize(x, in_scale, in_zp, out_scale, out_zp, t, rule="tflite"):
    if rule == "onnx":
        return requantize_onnx(x, in_scale, in_zp, out_scale, out_zp, t)
    m, s = quantize_multiplier(in_scale / out_scale)
    lo, hi = storage(t)
    return max(lo, min(hi, rescale(x - in_zp, m, s, rule) + out_zp))


def dense_str(vals, shape, t):
    def rec(v, sh):
        if len(sh) == 1:
            return "[" + ", ".join(str(x) for x in v) + "]"
        step = len(v) // sh[0]
        return "[" + ", ".join(rec(v[i * step:(i + 1) * step], sh[1:])
                               for i in range(sh[0])) + "]"
    return "dense<%s> : tensor<%sx%s>" % (rec(vals, shape),
                                          "x".join(map(str, shape)), t)


def ttype(shape, t):
    return "tensor<%sx%s>" % ("x".join(map(str, shape)), t)


def emit(model_args, model_body, result_shape, result_t, expected,
         target_note=""):
    """model_args: list of (name, shape, type, values)."""
    out = []
    sig = ", ".join("%%%s: %s" % (n, ttype(s, t)) for n, s, t, _ in model_args)
    out.append("func.func @model(%s) -> %s {" % (sig, ttype(result_shape, result_t)))
    out += ["  " + l for l in model_body]
    out.append("}")
    out.append("func.func private @printMemrefI32(memref<*xi32>)")
    out.append("func.func @main() {")
    names = []
    for n, s, t, v in model_args:
        out.append("  %%c_%s = arith.constant %s" % (n, dense_str(v, s, t)))
        names.append("%c_" + n)
    # Not inlined: inlined, the kernel of the model's last layer would fuse
    # the printing's widening cast into its epilogue and store i32 values,
    # so the narrowing stores of a model's output (ConvKernelEpilogue.cpp,
    # packBytes) would never run here.
    out.append("  %%r = call @model(%s) {no_inline} : (%s) -> %s" % (
        ", ".join(names), ", ".join(ttype(s, t) for _, s, t, _ in model_args),
        ttype(result_shape, result_t)))
    total = 1
    for d in result_shape:
        total *= d
    cur = "%r"
    if result_t != "i32":
        out.append("  %%w = tosa.cast %%r : (%s) -> %s" % (
            ttype(result_shape, result_t), ttype(result_shape, "i32")))
        cur = "%w"
    groups = "[" + ", ".join(str(i) for i in range(len(result_shape))) + "]"
    out.append("  %%flat = tensor.collapse_shape %s [%s] : %s into tensor<%dxi32>"
               % (cur, groups, ttype(result_shape, "i32"), total))
    out.append("  %%m = bufferization.to_buffer %%flat : tensor<%dxi32> to memref<%dxi32>"
               % (total, total))
    out.append("  %%u = memref.cast %%m : memref<%dxi32> to memref<*xi32>" % total)
    out.append("  call @printMemrefI32(%u) : (memref<*xi32>) -> ()")
    out.append("  return")
    out.append("}")
    out.append("// CHECK: data =")
    out.append("// CHECK-NEXT: [" + ", ".join(str(v) for v in expected) + "]")
    print("\n".join(out))


def conv2d(x, xs, w, ws, izp, wzp, strides, pads, dil, groups, layout, klayout):
    """Naive grouped convolution straight from the qnn.conv2d formula."""
    if layout == "NHWC":
        N, H, W, C = xs
        xat = lambda n, h, w_, c: x[((n * H + h) * W + w_) * C + c]
    else:
        N, C, H, W = xs
        xat = lambda n, h, w_, c: x[((n * C + c) * H + h) * W + w_]
    dims = {"HWIO": "hwio", "OHWI": "ohwi", "OIHW": "oihw", "IHWO": "ihwo"}[klayout]
    size = dict(zip(dims, ws))
    O, I, KH, KW = size["o"], size["i"], size["h"], size["w"]

    def wat(o, i, h, w_):
        idx = {"o": o, "i": i, "h": h, "w": w_}
        flat = 0
        for dch in dims:
            flat = flat * size[dch] + idx[dch]
        return w[flat]
    OH = (H + pads[0] + pads[2] - dil[0] * (KH - 1) - 1) // strides[0] + 1
    OW = (W + pads[1] + pads[3] - dil[1] * (KW - 1) - 1) // strides[1] + 1
    cg, fg = C // groups, O // groups
    out = {}
    for n in range(N):
        for oh in range(OH):
            for ow in range(OW):
                for o in range(O):
                    g = o // fg
                    acc = 0
                    for kh in range(KH):
                        for kw in range(KW):
                            for i in range(cg):
                                ih = oh * strides[0] + kh * dil[0] - pads[0]
                                iw = ow * strides[1] + kw * dil[1] - pads[1]
                                if 0 <= ih < H and 0 <= iw < W:
                                    xv = xat(n, ih, iw, g * cg + i) - izp
                                else:
                                    xv = 0
                                acc += xv * (wat(o, i, kh, kw) - wzp)
                    out[(n, oh, ow, o)] = wrap32(acc)
    if layout == "NHWC":
        shape = [N, OH, OW, O]
        flat = [out[(n, a, b, o)] for n in range(N) for a in range(OH)
                for b in range(OW) for o in range(O)]
    else:
        shape = [N, O, OH, OW]
        flat = [out[(n, a, b, o)] for n in range(N) for o in range(O)
                for a in range(OH) for b in range(OW)]
    return flat, shape


def fmt_f(v):
    return repr(float(v))


def case_conv(args):
    """3x3 stride-2 padded conv, u8 with both zero points, + bias,
    per-tensor tflite requantize to u8."""
    layout, klayout, groups, dil, t, wconst = args
    rng = Rng(hash(str(args)) & 0xFFFF if False else 1234 + groups)
    if layout == "NHWC":
        xs = [1, 7, 7, 4]
    else:
        xs = [1, 4, 7, 7]
    C = 4
    O = 8 if groups != C else 8
    cg = C // groups
    kh = kw = 3
    wsh = {"HWIO": [kh, kw, cg, O], "OHWI": [O, kh, kw, cg],
           "OIHW": [O, cg, kh, kw], "IHWO": [cg, kh, kw, O]}[klayout]
    lo, hi = storage(t)
    x = rng.ints(math.prod(xs), lo, hi)
    w = rng.ints(math.prod(wsh), lo if t == "ui8" else -127, hi)
    izp = 128 if t == "ui8" else -7
    wzp = 122 if t == "ui8" else 0
    strides, pads = [2, 1], [1, 0, 1, 2]
    acc, oshape = conv2d(x, xs, w, wsh, izp, wzp, strides, pads, dil, groups,
                         layout, klayout)
    O_ = O
    bias = rng.ints(O_, -500, 500)
    in_scale, w_scale, out_scale = f32(0.0078125), f32(0.02), f32(0.1523)
    prod = in_scale * w_scale
    out_zp = 5 if t == "ui8" else -3
    cidx = 3 if layout == "NHWC" else 1
    res = []
    for idx, a in enumerate(acc):
        # channel index of flat position
        stride = math.prod(oshape[cidx + 1:])
        o = (idx // stride) % oshape[cidx]
        res.append(requantize(wrap32(a + bias[o]), prod, 0, out_scale, out_zp, t))
    bshape = [1, 1, 1, O_] if layout == "NHWC" else [1, O_, 1, 1]
    attrs = ("{data_layout = #qnn.layout<%s>, dilations = array<i64: %d, %d>, "
             "groups = %d : i64, input_scale = %s : f32, input_zero_point = %d : i32, "
             "kernel_layout = #qnn.kernel_layout<%s>, padding = array<i64: %s>, "
             "strides = array<i64: %d, %d>, weight_scale = array<f32: %s>, "
             "weight_zero_point = %d : i32}") % (
        layout, dil[0], dil[1], groups, fmt_f(in_scale), izp, klayout,
        ", ".join(map(str, pads)), strides[0], strides[1], fmt_f(w_scale), wzp)
    model_args = [("x", xs, t, x)]
    body = []
    if wconst:
        body.append("%%w = arith.constant %s" % dense_str(w, wsh, t))
    else:
        model_args.append(("w", wsh, t, w))
    body += [
        "%%b = arith.constant %s" % dense_str(bias, bshape, "i32"),
        "%%acc = qnn.conv2d %%x, %%w %s : (%s, %s) -> %s" % (
            attrs, ttype(xs, t), ttype(wsh, t), ttype(oshape, "i32")),
        "%%sum = tosa.add %%acc, %%b : (%s, %s) -> %s" % (
            ttype(oshape, "i32"), ttype(bshape, "i32"), ttype(oshape, "i32")),
        ("%%y = qnn.requantize %%sum {input_scale = array<f64: %s>, "
         "input_zero_point = 0 : i32, output_scale = %s : f32, "
         "output_zero_point = %d : i32} : %s -> %s") % (
            fmt_f(prod), fmt_f(out_scale), out_zp, ttype(oshape, "i32"),
            ttype(oshape, t)),
        "return %%y : %s" % ttype(oshape, t),
    ]
    body = [l.replace("%%", "%") for l in body]
    emit(model_args, body, oshape, t, res)


def case_dense(t, wzp, izp, K=20, N=3, O=6):
    """Fully connected layer, per-channel requantize."""
    rng = Rng(77 + wzp)
    lo, hi = storage(t)
    x = rng.ints(N * K, lo, hi)
    w = rng.ints(O * K, lo if t == "ui8" else -127, hi)
    in_scale = f32(0.05)
    w_scales = [f32(0.01 * (i + 1)) for i in range(O)]
    out_scale = f32(0.3)
    acc = [wrap32(sum((x[n * K + k] - izp) * (w[o * K + k] - wzp)
                      for k in range(K))) for n in range(N) for o in range(O)]
    prods = [in_scale * ws for ws in w_scales]
    res = [requantize(acc[i], prods[i % O], 0, out_scale, 3, t)
           for i in range(N * O)]
    body = [
        "%%w = arith.constant %s" % dense_str(w, [O, K], t),
        ("%%acc = qnn.dense %%x, %%w {input_scale = %s : f32, input_zero_point = %d : i32, "
         "weight_scale = array<f32: %s>, weight_zero_point = %d : i32} : (%s, %s) -> %s") % (
            fmt_f(in_scale), izp, ", ".join(map(fmt_f, w_scales)), wzp,
            ttype([N, K], t), ttype([O, K], t), ttype([N, O], "i32")),
        ("%%y = qnn.requantize %%acc {axis = 1 : i64, input_scale = array<f64: %s>, "
         "input_zero_point = 0 : i32, output_scale = %s : f32, "
         "output_zero_point = 3 : i32} : %s -> %s") % (
            ", ".join(map(fmt_f, prods)), fmt_f(out_scale),
            ttype([N, O], "i32"), ttype([N, O], t)),
        "return %%y : %s" % ttype([N, O], t),
    ]
    emit([("x", [N, K], t, x)], [l.replace("%%", "%") for l in body],
         [N, O], t, res)


def case_requantize(rule, out_t, in_t="i32"):
    """Requantize of hand-picked and random values: ties, negative values,
    large magnitudes, a multiplier > 1 (left shift), per-channel."""
    rng = Rng(5)
    special = [0, 1, -1, 7, -7, 8, -8, 15, -15, 16, -16, 17, -17, 24, -24,
               (1 << 31) - 1, -(1 << 31), 1 << 30, -(1 << 30), 123456789,
               -123456789, 1000, -1000, 999, -999]
    lo, hi = storage(in_t)
    vals = [max(lo, min(hi, v)) for v in special]
    vals += rng.ints(64 - len(vals), lo, hi)
    C = 4
    scales = [2.0 ** -4, 0.00012 * 3, 3.0 / 7.0, 1.75]
    out_scale = f32(1.0)
    in_zp = 3 if in_t == "i32" else lo + 10
    out_zp = -5 if out_t != "ui8" else 7
    res = [requantize(vals[i], scales[i % C], in_zp, out_scale, out_zp, out_t,
                      rule) for i in range(len(vals))]
    shape = [len(vals) // C, C]
    body = [
        ("%%y = qnn.requantize %%x {axis = 1 : i64, input_scale = array<f64: %s>, "
         "input_zero_point = %d : i32, output_scale = %s : f32, "
         "output_zero_point = %d : i32, rounding = #qnn.rounding<%s>} : %s -> %s") % (
            ", ".join(map(fmt_f, scales)), in_zp, fmt_f(out_scale), out_zp, rule,
            ttype(shape, in_t), ttype(shape, out_t)),
        "return %%y : %s" % ttype(shape, out_t),
    ]
    emit([("x", shape, in_t, vals)], [l.replace("%%", "%") for l in body],
         shape, out_t, res)


def case_requantize_shifts(rule, out_t):
    """Per-channel requantize over the whole range of right shifts: 0
    (ratios in [0.5, 1)), 1, 4 with a multiplier of exactly 2^30 (ties),
    11, 20, 29, a left shift (1.75), and i32 input values at both ends of
    the range, around ties and around -2^30 / M (where the double rounding's
    one-shift form switches its correction on)."""
    rng = Rng(13)
    scales = [0.75, 0.5, 2.0 ** -4, 0.00036, 3.0 / 7.0, 1.75,
              1.5e-6, 2.5e-9]
    C = len(scales)
    special = [0, 1, -1, 2, -2, 3, -3, 7, -7, 8, -8, 9, -9, 15, -15, 16,
               -16, 17, -17, 24, -24, (1 << 31) - 1, -(1 << 31),
               (1 << 31) - 2, -(1 << 31) + 1, 1 << 30, -(1 << 30),
               (1 << 30) + 1, -(1 << 30) - 1, 123456789, -123456789,
               1 << 20, -(1 << 20), 999, -999, 536870912, -536870913]
    # Every special value in every channel, then random values.
    vals = [v for v in special for _ in range(C)]
    vals += rng.ints(C * 12, -(1 << 31), (1 << 31) - 1)
    vals += rng.ints(C * 12, -5000, 5000)
    res = [requantize(vals[i], scales[i % C], 0, f32(1.0), 0, out_t, rule)
           for i in range(len(vals))]
    shape = [len(vals) // C, C]
    body = [
        ("%%y = qnn.requantize %%x {axis = 1 : i64, input_scale = array<f64: %s>, "
         "input_zero_point = 0 : i32, output_scale = %s : f32, "
         "output_zero_point = 0 : i32, rounding = #qnn.rounding<%s>} : %s -> %s") % (
            ", ".join(map(fmt_f, scales)), fmt_f(f32(1.0)), rule,
            ttype(shape, "i32"), ttype(shape, out_t)),
        "return %%y : %s" % ttype(shape, out_t),
    ]
    emit([("x", shape, "i32", vals)], [l.replace("%%", "%") for l in body],
         shape, out_t, res)


def case_requantize_per_tensor(rule):
    rng = Rng(9)
    vals = [0, 1, -1, 7, -7, 8, -8, 23, -23, 24, -24, 25, -25]
    vals += rng.ints(27, -3000, 3000)
    # A multiplier of exactly 2^-4: ties and the double rounding of the
    # tflite rule (7 -> 1) separate the three rules.
    scale = 0.0625
    out_scale = f32(1.0)
    res = [requantize(v, scale, 0, out_scale, 0, "i8", rule) for v in vals]
    body = [
        ("%%y = qnn.requantize %%x {input_scale = array<f64: %s>, "
         "input_zero_point = 0 : i32, output_scale = %s : f32, "
         "output_zero_point = 0 : i32, rounding = #qnn.rounding<%s>} : %s -> %s") % (
            fmt_f(scale), fmt_f(out_scale), rule, ttype([40], "i32"),
            ttype([40], "i8")),
        "return %%y : %s" % ttype([40], "i8"),
    ]
    emit([("x", [40], "i32", vals)], [l.replace("%%", "%") for l in body],
         [40], "i8", res)


def case_pool(kind, t, layout, k=(3, 2), st=(2, 2), pads=(1, 0, 1, 1), W=6,
              C=3):
    rng = Rng(11)
    N, H = 1, 5
    lo, hi = storage(t)
    xs = [N, H, W, C] if layout == "NHWC" else [N, C, H, W]
    x = rng.ints(N * H * W * C, lo, hi)

    def at(h, w, c):
        if layout == "NHWC":
            return x[(h * W + w) * C + c]
        return x[(c * H + h) * W + w]
    OH = (H + pads[0] + pads[2] - k[0]) // st[0] + 1
    OW = (W + pads[1] + pads[3] - k[1]) // st[1] + 1
    out = {}
    for oh in range(OH):
        for ow in range(OW):
            for c in range(C):
                # The input rows/columns inside the window (the window may be
                # far larger than the input: only its overlap is visited).
                h0, w0 = oh * st[0] - pads[0], ow * st[1] - pads[1]
                vals = [at(h, w, c)
                        for h in range(max(h0, 0), min(h0 + k[0], H))
                        for w in range(max(w0, 0), min(w0 + k[1], W))]
                if kind == "max":
                    out[(oh, ow, c)] = max(vals)
                else:
                    s, n = sum(vals), len(vals)
                    q = (s + n // 2) if s >= 0 else (s - n // 2)
                    out[(oh, ow, c)] = int(q / n) if q >= 0 else -((-q) // n)
    if layout == "NHWC":
        osh = [N, OH, OW, C]
        res = [out[(a, b, c)] for a in range(OH) for b in range(OW) for c in range(C)]
    else:
        osh = [N, C, OH, OW]
        res = [out[(a, b, c)] for c in range(C) for a in range(OH) for b in range(OW)]
    op = "avg_pool2d" if kind == "avg" else "max_pool2d"
    body = [
        ("%%y = qnn.%s %%x {data_layout = #qnn.layout<%s>, kernel = array<i64: %d, %d>, "
         "padding = array<i64: %s>, strides = array<i64: %d, %d>} : %s -> %s") % (
            op, layout, k[0], k[1], ", ".join(map(str, pads)), st[0], st[1],
            ttype(xs, t), ttype(osh, t)),
        "return %%y : %s" % ttype(osh, t),
    ]
    emit([("x", xs, t, x)], [l.replace("%%", "%") for l in body], osh, t, res)


def tvm_fixed_point(x, real, rule):
    """TVM's FixedPointMultiply (relay/qnn/utils.cc): the Q31 multiplier and
    shift of `real`, the exact product in 64 bits, one rounding: UPWARD adds
    2^(n-1), TONEAREST 2^(n-1) - 1 for a negative product, then >> n."""
    m, sh = quantize_multiplier(real)
    left, n = (sh, 31) if sh > 0 else (0, 31 - sh)
    prod = (x << left) * m
    rnd = 1 << (n - 1)
    if rule == "tonearest" and prod < 0:
        rnd -= 1
    return (prod + rnd) >> n


def emit_binary(kind, t, rule, params, lhs, rhs, osh, res):
    """A program of one qnn.<kind> (params: ls, lz, rs, rz, os_, oz) of the
    constants lhs and rhs ((shape, values) each), expecting `res`."""
    ls, lz, rs, rz, os_, oz = params
    (ash, a), (bsh, b) = lhs, rhs
    body = [
        ("%%y = qnn.%s %%a, %%b {lhs_scale = %s : f32, lhs_zero_point = %d : i32, "
         "output_scale = %s : f32, output_zero_point = %d : i32, rhs_scale = %s : f32, "
         "rhs_zero_point = %d : i32, rounding = #qnn.rounding<%s>} : (%s, %s) -> %s") % (
            kind, fmt_f(ls), lz, fmt_f(os_), oz, fmt_f(rs), rz, rule,
            ttype(ash, t), ttype(bsh, t), ttype(osh, t)),
        "return %%y : %s" % ttype(osh, t),
    ]
    emit([("a", ash, t, a), ("b", bsh, t, b)],
         [l.replace("%%", "%") for l in body], osh, t, res)


def tflite_add(kind, mul, x, y, ls, lz, rs, rz, os_, oz):
    """TFLite's ADD (SUB: the rhs multiplier negated) before the clamp."""
    twice = 2.0 * max(ls, rs)
    lm, lsft = quantize_multiplier(ls / twice)
    rm, rsft = quantize_multiplier(rs / twice)
    if kind == "subtract":
        rm = -rm
    om, osft = quantize_multiplier(twice / ((1 << 20) * os_))
    xa = wrap32((x - lz) << 20)
    yb = wrap32((y - rz) << 20)
    s = wrap32(mul(xa, lm, lsft) + mul(yb, rm, rsft))
    return mul(s, om, osft) + oz


def case_binary_pairs(kind, t, rule, params):
    """TFLite's ADD or SUB on every pair of stored values: a 256x1 lhs of
    every value broadcast against a 1x256 rhs of every value."""
    mul = mbqm_single if rule == "tflite_single" else mbqm
    lo, hi = storage(t)
    ls, lz, rs, rz, os_, oz = params
    ls, rs, os_ = f32(ls), f32(rs), f32(os_)
    values = list(range(lo, hi + 1))
    res = [max(lo, min(hi, tflite_add(kind, mul, x, y, ls, lz, rs, rz, os_, oz)))
           for x in values for y in values]
    ash, bsh, osh = [256, 1], [1, 256], [256, 256]
    emit_binary(kind, t, rule, (ls, lz, rs, rz, os_, oz), (ash, values),
                (bsh, values), osh, res)


def case_binary(kind, t, rule="tflite", scales=None):
    rng = Rng(13)
    mul = mbqm_single if rule == "tflite_single" else mbqm
    lo, hi = storage(t)
    ash, bsh, osh = [2, 3, 4], [3, 1], [2, 3, 4]
    a = rng.ints(24, lo, hi)
    b = rng.ints(3, lo, hi)
    ls, lz, rs, rz, os_, oz = f32(0.05), lo + 100, f32(0.02), lo + 120, f32(0.07), lo + 128
    if scales:
        ls, rs, os_ = (f32(v) for v in scales)
    res = []
    for i in range(2):
        for j in range(3):
            for k in range(4):
                x, y = a[(i * 3 + j) * 4 + k], b[j]
                if rule in ("upward", "tonearest") and kind == "mul":
                    # TVM's qnn.mul: the i32 product requantized from the
                    # float32 scale ls * rs (zero point 0).
                    v = tvm_fixed_point((x - lz) * (y - rz), f32(ls * rs) / os_,
                                        rule) + oz
                elif rule in ("upward", "tonearest"):
                    # TVM's qnn.add/subtract: each operand requantized to the
                    # output parameters, then Q_a' +- Q_b' -+ zp_c.
                    def req(q, sc, zp):
                        if sc == os_ and zp == oz:
                            return q
                        return tvm_fixed_point(q - zp, sc / os_, rule) + oz
                    qa, qb = req(x, ls, lz), req(y, rs, rz)
                    v = qa - qb + oz if kind == "subtract" else qa + qb - oz
                elif rule == "onnx":
                    # ONNX's QLinearAdd in float32: dequantize both,
                    # add/subtract, divide by the output scale, round
                    # half to even (Python's round).
                    xa = f32(ls * f32(x - lz))
                    yb = f32(rs * f32(y - rz))
                    s = f32(xa - yb) if kind == "subtract" else f32(xa + yb)
                    v = round(f32(s / os_)) + oz
                elif kind in ("add", "subtract"):
                    v = tflite_add(kind, mul, x, y, ls, lz, rs, rz, os_, oz)
                else:
                    m, sh = quantize_multiplier(ls * rs / os_)
                    v = mul(wrap32((x - lz) * (y - rz)), m, sh) + oz
                res.append(max(lo, min(hi, v)))
    emit_binary(kind, t, rule, (ls, lz, rs, rz, os_, oz), (ash, a), (bsh, b),
                osh, res)


def case_quantize_roundtrip(t):
    """dequantize then quantize with other parameters (float32 arithmetic)."""
    rng = Rng(17)
    lo, hi = storage(t)
    x = list(range(lo, hi + 1, 5))
    n = len(x)
    s1, z1, s2, z2 = f32(0.037), lo + 61, f32(0.05), lo + 100
    res = []
    for q in x:
        real = f32(s1 * f32(q - z1))
        y = f32(real / s2)
        r = round_half_away(y)
        res.append(max(lo, min(hi, int(r) + z2)))
    body = [
        ("%%f = qnn.dequantize %%x {scale = array<f32: %s>, zero_point = array<i32: %d>} "
         ": %s -> %s") % (fmt_f(s1), z1, ttype([n], t), ttype([n], "f32")),
        ("%%y = qnn.quantize %%f {scale = array<f32: %s>, zero_point = array<i32: %d>} "
         ": %s -> %s") % (fmt_f(s2), z2, ttype([n], "f32"), ttype([n], t)),
        "return %%y : %s" % ttype([n], t),
    ]
    emit([("x", [n], t, x)], [l.replace("%%", "%") for l in body], [n], t, res)


def case_pointwise(t, H, W, C, O, izp, klayout="OHWI", rule="tflite"):
    """1x1 convolution with int8 weights (zero point 0), per-channel
    requantize: the shape the avx512-vnni target lowers to vpdpbusd."""
    rng = Rng(C * 1000 + O + H)
    lo, hi = storage(t)
    xs = [1, H, W, C]
    wsh = [O, 1, 1, C] if klayout == "OHWI" else [1, 1, C, O]
    x = rng.ints(H * W * C, lo, hi)
    w = rng.ints(O * C, -127, 127)
    acc, oshape = conv2d(x, xs, w, wsh, izp, 0, [1, 1], [0, 0, 0, 0], [1, 1],
                         1, "NHWC", klayout)
    in_scale, out_scale = f32(0.05), f32(0.4)
    w_scales = [f32(0.002 * (1 + i % 5)) for i in range(O)]
    prods = [in_scale * ws for ws in w_scales]
    out_zp = lo + 120
    res = [requantize(a, prods[i % O], 0, out_scale, out_zp, t, rule)
           for i, a in enumerate(acc)]
    attrs = ("{data_layout = #qnn.layout<NHWC>, dilations = array<i64: 1, 1>, "
             "groups = 1 : i64, input_scale = %s : f32, input_zero_point = %d : i32, "
             "kernel_layout = #qnn.kernel_layout<%s>, padding = array<i64: 0, 0, 0, 0>, "
             "strides = array<i64: 1, 1>, weight_scale = array<f32: %s>, "
             "weight_zero_point = 0 : i32}") % (
        fmt_f(in_scale), izp, klayout, ", ".join(map(fmt_f, w_scales)))
    body = [
        "%%w = arith.constant %s" % dense_str(w, wsh, "i8"),
        "%%acc = qnn.conv2d %%x, %%w %s : (%s, %s) -> %s" % (
            attrs, ttype(xs, t), ttype(wsh, "i8"), ttype(oshape, "i32")),
        ("%%y = qnn.requantize %%acc {axis = 3 : i64, input_scale = array<f64: %s>, "
         "input_zero_point = 0 : i32, output_scale = %s : f32, "
         "output_zero_point = %d : i32, rounding = #qnn.rounding<%s>} : %s -> %s") % (
            ", ".join(map(fmt_f, prods)), fmt_f(out_scale), out_zp, rule,
            ttype(oshape, "i32"), ttype(oshape, t)),
        "return %%y : %s" % ttype(oshape, t),
    ]
    emit([("x", xs, t, x)], [l.replace("%%", "%") for l in body], oshape, t, res)


def case_random_conv(seed, wide=False, rule="tflite", packed=False,
                     small_c=False, nchw=False, halved=False, spread=False):
    """A convolution with random shape and parameters (NHWC): kernel 1x1,
    3x3, 5x5 or 1x3, stride 1 or 2, padding, dilation, dense or depthwise
    (with a depth multiplier), odd channel counts; u8 per-tensor with a
    weight zero point or i8 per-channel, + bias, requantize with a fused
    clamp range. The same seed gives the same case. With `nchw`, the
    function takes the input as NCHW and transposes it to NHWC first
    (tosa.transpose, as PyTorch-like models begin). With `halved`, packed
    single-rounding layers whose right shifts are 2 or 3 (the kernels'
    halved tails, ConvKernelEpilogue.cpp halvedTail): inputs near the zero point,
    at random or all at one end of the range (accumulators that saturate
    16 bits), output zero points at the ends of the range. With `spread`
    too, i8 per-channel layers whose shifts run from 2 to 20, too far apart
    for one common shift (ConvKernelEpilogue.cpp, commonShift): per-lane 64-bit
    and i32 shifts."""
    rng = Rng(1000003 * seed + 17)
    for _ in range(seed % 5):
        rng.next()
    pick = lambda xs: xs[rng.next() % len(xs)]
    t = "ui8" if seed % 2 and not spread else "i8"
    depthwise = rng.next() % 3 == 0
    kh, kw = pick([(1, 1), (3, 3), (3, 3), (5, 5), (1, 3)])
    sh, sw = pick([(1, 1), (2, 2), (2, 1)])
    dil = pick([(1, 1), (1, 1), (2, 2)])
    H, W = 3 + rng.next() % 9, 3 + rng.next() % 9
    C = 1 + rng.next() % (24 if depthwise else 40)
    mult = pick([1, 1, 2, 3]) if depthwise else 1
    O = C * mult if depthwise else 1 + rng.next() % 40
    if wide:
        # Channel counts that fill whole vectors, so that the kernels'
        # fused epilogues (qnn-fuse-kernel-epilogues) are taken.
        C = 16 * (1 + rng.next() % 2) if depthwise else 1 + rng.next() % 40
        mult = 1
        O = C if depthwise else 16 * (1 + rng.next() % 3)
    if small_c:
        # 1-3 input channels (first convolutions: the kernels pad them to 4
        # with vector code, 16 pixels at a time), rows of 5, 19 or 33
        # pixels (partial tiles), dense.
        depthwise, mult = False, 1
        C = 1 + seed % 3
        W = 5 + 14 * (seed % 3)
        O = 1 + rng.next() % 40
    if packed:
        # Whole groups of vectors for the kernels' packed 8-bit stores:
        # 32 to 128 output channels (two or four channel blocks per pixel),
        # depthwise rows of at least 8 pixels (tiles of 8 or 4).
        O = C if depthwise else 32 * (1 + seed % 4)
        W += 8
    groups = C if depthwise else 1
    pads = [rng.next() % (kh if kh > 1 else 1), rng.next() % (kw if kw > 1 else 1),
            rng.next() % kh, rng.next() % kw]
    while (H + pads[0] + pads[2] - dil[0] * (kh - 1) - 1) < 0:
        H += 1
    while (W + pads[1] + pads[3] - dil[1] * (kw - 1) - 1) < 0:
        W += 1
    xs = [1, H, W, C]
    cg = C // groups
    wsh = [O, kh, kw, cg] if not depthwise else [1, kh, kw, O]
    klayout = "OHWI" if not depthwise else "IHWO"
    lo, hi = storage(t)
    x = rng.ints(H * W * C, lo, hi)
    if t == "ui8":
        w = rng.ints(O * kh * kw * cg, 0, 255)
        izp, wzp = rng.next() % 256, rng.next() % 256
        w_scales = [f32(0.003)]
    else:
        w = rng.ints(O * kh * kw * cg, -127, 127)
        izp, wzp = -128 + rng.next() % 256, 0
        w_scales = [f32(0.001 * (1 + rng.next() % 7)) for _ in range(O)]
    if halved:
        # in_scale * w_scale / out_scale in [1/16, 1/4): shifts 2 and 3
        # (per tensor: 3/16, shift 2).
        if t == "ui8":
            w_scales = [f32(0.375)]
        elif spread:
            # in_scale * w_scale / out_scale in [2^-(r+1), 2^-r), r in
            # [2, 20]; channels 0 and 1 take the ends.
            shifts = [2, 20] + [2 + rng.next() % 19 for _ in range(O - 2)]
            w_scales = [f32(2.0 ** -r * (1 + (rng.next() % 1000) / 1000.0))
                        for r in shifts[:O]]
        else:
            w_scales = [f32(0.125 + 0.375 * (rng.next() % 1000) / 1000.0)
                        for _ in range(O)]
        # The mode of each band of 3 rows (a 3x3 window then often sees
        # one mode only).
        for p in range(H * W):
            mode = [0, 0, 1, 2, 3][(p // W // 3 + seed) % 5]
            for c in range(C):
                if mode == 0:
                    v = izp
                elif mode == 1:
                    v = izp - 1 + rng.next() % 3
                elif mode == 2:
                    v = lo + rng.next() % (hi - lo + 1)
                else:
                    v = hi if (p + seed) % 2 else lo
                x[p * C + c] = max(lo, min(hi, v))
    acc, oshape = conv2d(x, xs, w, wsh, izp, wzp, [sh, sw], pads, dil, groups,
                         "NHWC", klayout)
    bias = rng.ints(O, -3000, 3000)
    in_scale, out_scale = f32(0.02), f32(0.05 + 0.01 * (rng.next() % 10))
    if halved:
        in_scale, out_scale = f32(0.5), f32(1.0)
        bias = [b // 30 for b in bias]
    prods = [in_scale * w_scales[i % len(w_scales)] for i in range(O)]
    out_zp = lo + rng.next() % 200
    clamp_lo, clamp_hi = lo + rng.next() % 30, hi - rng.next() % 30
    if halved:
        out_zp = [lo, hi, out_zp][seed % 3]
        if seed % 2:
            clamp_lo, clamp_hi = lo, hi
    res = [max(clamp_lo, min(clamp_hi, requantize(wrap32(a + bias[i % O]),
                                                    prods[i % O], 0, out_scale,
                                                    out_zp, t, rule)))
           for i, a in enumerate(acc)]
    attrs = ("{data_layout = #qnn.layout<NHWC>, dilations = array<i64: %d, %d>, "
             "groups = %d : i64, input_scale = %s : f32, input_zero_point = %d : i32, "
             "kernel_layout = #qnn.kernel_layout<%s>, padding = array<i64: %s>, "
             "strides = array<i64: %d, %d>, weight_scale = array<f32: %s>, "
             "weight_zero_point = %d : i32}") % (
        dil[0], dil[1], groups, fmt_f(in_scale), izp, klayout,
        ", ".join(map(str, pads)), sh, sw, ", ".join(map(fmt_f, w_scales)), wzp)
    bshape = [1, 1, 1, O]
    clamp_attr = ("min_val = %d : %s, max_val = %d : %s" % (
        clamp_lo, t, clamp_hi, t))
    body = [
        "%%w = arith.constant %s" % dense_str(w, wsh, t),
        "%%b = arith.constant %s" % dense_str(bias, bshape, "i32"),
        "%%acc = qnn.conv2d %%%s, %%w %s : (%s, %s) -> %s" % (
            "xt" if nchw else "x", attrs, ttype(xs, t), ttype(wsh, t),
            ttype(oshape, "i32")),
        "%%sum = tosa.add %%acc, %%b : (%s, %s) -> %s" % (
            ttype(oshape, "i32"), ttype(bshape, "i32"), ttype(oshape, "i32")),
        ("%%q = qnn.requantize %%sum {axis = 3 : i64, input_scale = array<f64: %s>, "
         "input_zero_point = 0 : i32, output_scale = %s : f32, "
         "output_zero_point = %d : i32, rounding = #qnn.rounding<%s>} : %s -> %s") % (
            ", ".join(map(fmt_f, prods)), fmt_f(out_scale), out_zp, rule,
            ttype(oshape, "i32"), ttype(oshape, t)),
        "%%y = tosa.clamp %%q {%s} : (%s) -> %s" % (
            clamp_attr, ttype(oshape, t), ttype(oshape, t)),
        "return %%y : %s" % ttype(oshape, t),
    ]
    if nchw:
        cs = [1, C, H, W]
        body.insert(0, "%%xt = tosa.transpose %%x {perms = array<i32: 0, 2, 3, 1>} "
                    ": (%s) -> %s" % (ttype(cs, t), ttype(xs, t)))
        x = [x[(hh * W + ww) * C + cc]
             for cc in range(C) for hh in range(H) for ww in range(W)]
        xs = cs
    emit([("x", xs, t, x)], [l.replace("%%", "%") for l in body], oshape, t, res)


def case_double_edges(t, depthwise, big_bias=False, relu=False,
                      near_bound=False):
    """gemmlowp's double rounding (#qnn.rounding<tflite>) at its edges, for
    the kernels' compare-free form (ConvKernelEpilogue.cpp,
    doubleRoundedHighHalves): per-channel right shifts e from 1 to 12,
    every fourth channel's multiplier an exact power of two (M = 2^30,
    so the first rounding halves and the second meets ties of both
    signs, and an accumulator of -1 rounds to 0 before the second),
    the others random mantissas; weights scaled per channel so that the
    results spread over the whole output range, biases of both signs, an
    output zero point. A 1x1 convolution or a 3x3 depthwise one (padded),
    48 channels. With `big_bias`, the kernels' compare form instead (a bias
    of 2^30 or more rules the compare-free form out): power-of-two
    multipliers 2^-22 to 2^-24, weights of -1, 0 and 1, and biases of both
    signs, up to 64.5 * 2^24, within 30 of a tie (n + 1/2) * 2^k, so that
    the small accumulators put many sums exactly on it (where the
    compare's correction decides). With `relu`, a tosa.clamp at the output
    zero point (-3 for i8) or, for u8, the zero point 0: the kernels then
    drop the accumulator's sign term (clampsNonPositive), as the clamp
    takes every result below the zero point to it, and the x86 ones take
    the offset form (OffsetProduct). With `near_bound` (and `relu`),
    biases of both signs within 2^26 + 2^24 of 2^30, the largest that the
    compare-free form allows beside these accumulators, and right shifts of
    22 to 24: the offset form's accumulators a + D then come within 2^26 of
    0 and of 2^31 + 2^29."""
    rng = Rng(4242 + (7 if depthwise else 0) + (1 if t == "ui8" else 0))
    lo, hi = storage(t)
    H, W = (6, 12) if depthwise else (3, 16)
    C = 48 if depthwise else 16
    O = 48
    kh = kw = 3 if depthwise else 1
    izp = 128 if t == "ui8" else 2
    xs = [1, H, W, C]
    wsh = [1, kh, kw, O] if depthwise else [O, 1, 1, C]
    klayout = "IHWO" if depthwise else "OHWI"
    ks = [2 + (i * 5) % 12 for i in range(O)]       # r in [2^-k, 2^-(k-1))
    if big_bias:
        ks = [24 if i == 0 else 22 + i % 3 for i in range(O)]
    if near_bound:
        ks = [23 + i % 3 for i in range(O)]
    ratios = [f32(2.0 ** -k if i % 4 == 0 or big_bias else
                  2.0 ** -k * (1 + (rng.next() % 997) / 1000.0))
              for i, k in enumerate(ks)]
    terms = kh * kw if depthwise else C
    # |acc| up to about 200 * 2^k: results over the whole range and past it.
    wr = [1 if big_bias else max(1, min(127, (200 << k) // (terms * 6)))
          for k in ks]
    x = [izp - 6 + rng.next() % 13 for _ in range(H * W * C)]
    if depthwise:
        w = [0] * (kh * kw * O)
        for j in range(kh * kw):
            for o in range(O):
                w[j * O + o] = -wr[o] + rng.next() % (2 * wr[o] + 1)
    else:
        w = [-wr[o] + rng.next() % (2 * wr[o] + 1)
             for o in range(O) for _ in range(C)]
    pads = [1, 1, 1, 1] if depthwise else [0, 0, 0, 0]
    acc, oshape = conv2d(x, xs, w, wsh, izp, 0, [1, 1], pads, [1, 1],
                         C if depthwise else 1, "NHWC", klayout)
    bias = [(-1) ** o * (rng.next() % (8 << ks[o])) for o in range(O)]
    if big_bias:
        # (n + 1/2) * 2^k plus or minus up to 30; channel 0: n = 64.
        ns = [64] + [rng.next() % 61 for _ in range(O - 1)]
        bias = [(-1) ** o * (((2 * n + 1) << ks[o]) // 2) +
                rng.next() % 61 - 30 for o, n in enumerate(ns)]
    if near_bound:
        bias = [(-1) ** o * ((1 << 30) - (1 << 26) - rng.next() % (1 << 24))
                for o in range(O)]
    out_zp = -3 if t == "i8" else (0 if relu else 125)
    res = [requantize(wrap32(a + bias[i % O]), ratios[i % O], 0, f32(1.0),
                      out_zp, t, "tflite") for i, a in enumerate(acc)]
    if relu:
        res = [max(v, out_zp) for v in res]
    attrs = ("{data_layout = #qnn.layout<NHWC>, dilations = array<i64: 1, 1>, "
             "groups = %d : i64, input_scale = 1.0 : f32, input_zero_point = %d : i32, "
             "kernel_layout = #qnn.kernel_layout<%s>, padding = array<i64: %s>, "
             "strides = array<i64: 1, 1>, weight_scale = array<f32: %s>, "
             "weight_zero_point = 0 : i32}") % (
        C if depthwise else 1, izp, klayout, ", ".join(map(str, pads)),
        ", ".join(map(fmt_f, ratios)))
    bshape = [1, 1, 1, O]
    body = [
        "%%w = arith.constant %s" % dense_str(w, wsh, "i8"),
        "%%b = arith.constant %s" % dense_str(bias, bshape, "i32"),
        "%%acc = qnn.conv2d %%x, %%w %s : (%s, %s) -> %s" % (
            attrs, ttype(xs, t), ttype(wsh, "i8"), ttype(oshape, "i32")),
        "%%sum = tosa.add %%acc, %%b : (%s, %s) -> %s" % (
            ttype(oshape, "i32"), ttype(bshape, "i32"), ttype(oshape, "i32")),
        ("%%y = qnn.requantize %%sum {axis = 3 : i64, input_scale = array<f64: %s>, "
         "input_zero_point = 0 : i32, output_scale = 1.0 : f32, "
         "output_zero_point = %d : i32, rounding = #qnn.rounding<tflite>} : %s -> %s") % (
            ", ".join(map(fmt_f, ratios)), out_zp,
            ttype(oshape, "i32"), ttype(oshape, t)),
        "return %%y : %s" % ttype(oshape, t),
    ]
    if relu and t == "i8":
        body[-1:] = [
            "%%r = tosa.clamp %%y {min_val = %d : i8, max_val = 127 : i8} "
            ": (%s) -> %s" % (out_zp, ttype(oshape, t), ttype(oshape, t)),
            "return %%r : %s" % ttype(oshape, t)]
    emit([("x", xs, t, x)], [l.replace("%%", "%") for l in body], oshape, t, res)


def case_concat(t):
    """TFLite's ConcatenationWithScaling in float32: every operation rounded
    to float32 (a product of two floats is exact in a double, so rounding it
    once gives IEEE float32 multiplication; the sums here are exact too)."""
    lo, hi = storage(t)
    a = list(range(lo, hi + 1))               # every value, input 0
    b = [lo + (i * 37) % (hi - lo + 1) for i in range(len(a))]
    c = [lo + (i * 11) % (hi - lo + 1) for i in range(len(a))]
    # (scale, zero point) of a, b, c and of the output; c copies.
    params = [(f32(0.1), lo + 3), (f32(0.7), lo + 128), (f32(0.3), lo + 100)]
    os_, oz = f32(0.3), lo + 100
    n = len(a)
    res = []
    for row, (sc, zp) in zip((a, b, c), params):
        scale = f32(sc * f32(1.0 / os_))
        bias = f32(float(-zp) * scale)
        for x in row:
            if (sc, zp) == (os_, oz):
                res.append(x)
                continue
            v = round_half_away(f32(f32(x * scale) + bias))
            res.append(max(lo, min(hi, v + oz)))
    sh = [1, n]
    osh = [3, n]
    body = [
        ("%%y = qnn.concatenate %%a, %%b, %%c {axis = 0 : i64, input_scales = "
         "array<f32: %s, %s, %s>, input_zero_points = array<i32: %d, %d, %d>, "
         "output_scale = %s : f32, output_zero_point = %d : i32} : "
         "(%s, %s, %s) -> %s") % (
            fmt_f(params[0][0]), fmt_f(params[1][0]), fmt_f(params[2][0]),
            params[0][1], params[1][1], params[2][1], fmt_f(os_), oz,
            ttype(sh, t), ttype(sh, t), ttype(sh, t), ttype(osh, t)),
        "return %%y : %s" % ttype(osh, t),
    ]
    emit([("a", sh, t, a), ("b", sh, t, b), ("c", sh, t, c)],
         [l.replace("%%", "%") for l in body], osh, t, res)


CASES = {
    "double_edges_pointwise_i8": lambda: case_double_edges("i8", False),
    "double_edges_pointwise_u8": lambda: case_double_edges("ui8", False),
    "double_edges_depthwise_i8": lambda: case_double_edges("i8", True),
    "double_edges_depthwise_u8": lambda: case_double_edges("ui8", True),
    "double_big_bias_pointwise_i8": lambda: case_double_edges("i8", False, True),
    "double_big_bias_depthwise_u8": lambda: case_double_edges("ui8", True, True),
    "double_relu_pointwise_i8": lambda: case_double_edges("i8", False, relu=True),
    "double_relu_pointwise_u8": lambda: case_double_edges("ui8", False, relu=True),
    "double_relu_depthwise_i8": lambda: case_double_edges("i8", True, relu=True),
    "double_relu_depthwise_u8": lambda: case_double_edges("ui8", True, relu=True),
    "double_near_bound_pointwise_i8":
        lambda: case_double_edges("i8", False, relu=True, near_bound=True),
    "double_near_bound_depthwise_u8":
        lambda: case_double_edges("ui8", True, relu=True, near_bound=True),
    "conv_nhwc_ohwi_u8": lambda: case_conv(("NHWC", "OHWI", 1, [1, 1], "ui8", True)),
    "conv_nhwc_hwio_i8_dilated": lambda: case_conv(("NHWC", "HWIO", 1, [2, 1], "i8", True)),
    "conv_nhwc_ihwo_depthwise_i8": lambda: case_conv(("NHWC", "IHWO", 4, [1, 1], "i8", True)),
    "conv_nchw_oihw_grouped_u8": lambda: case_conv(("NCHW", "OIHW", 2, [1, 1], "ui8", True)),
    "conv_nhwc_ohwi_u8_weight_arg": lambda: case_conv(("NHWC", "OHWI", 2, [1, 1], "ui8", False)),
    "dense_u8_wzp": lambda: case_dense("ui8", 100, 7),
    "dense_i8": lambda: case_dense("i8", 0, -3),
    "dense_i8_vnni_shape": lambda: case_dense("i8", 0, -3, 32, 5, 16),
    "requantize_tflite_i8": lambda: case_requantize("tflite", "i8"),
    "requantize_upward_i32": lambda: case_requantize("upward", "i32"),
    "requantize_tonearest_u8": lambda: case_requantize("tonearest", "ui8"),
    "requantize_tflite_from_u8": lambda: case_requantize("tflite", "i8", "ui8"),
    "requantize_tensor_tflite": lambda: case_requantize_per_tensor("tflite"),
    "requantize_shifts_tflite_i32": lambda: case_requantize_shifts("tflite", "i32"),
    "requantize_shifts_tflite_i8": lambda: case_requantize_shifts("tflite", "i8"),
    "requantize_tensor_upward": lambda: case_requantize_per_tensor("upward"),
    "requantize_tensor_tonearest": lambda: case_requantize_per_tensor("tonearest"),
    "requantize_tflite_single_i8": lambda: case_requantize("tflite_single", "i8"),
    "requantize_tflite_single_from_u8": lambda: case_requantize("tflite_single", "ui8", "ui8"),
    "requantize_tensor_tflite_single": lambda: case_requantize_per_tensor("tflite_single"),
    "avg_pool_u8_nhwc": lambda: case_pool("avg", "ui8", "NHWC"),
    "avg_pool_i8_nchw": lambda: case_pool("avg", "i8", "NCHW"),
    "max_pool_i8_nhwc": lambda: case_pool("max", "i8", "NHWC"),
    "max_pool_u8_nchw": lambda: case_pool("max", "ui8", "NCHW"),
    # NHWC with 4 or more channels: vectorized along C (24: i64 sums in
    # tiles of 8; 40 bytes: one vector).
    "avg_pool_i8_nhwc_c24": lambda: case_pool("avg", "i8", "NHWC", C=24),
    "avg_pool_u8_nhwc_c32_same": lambda: case_pool(
        "avg", "ui8", "NHWC", k=(3, 3), st=(1, 1), pads=(1, 1, 1, 1), C=32),
    "max_pool_u8_nhwc_c40": lambda: case_pool("max", "ui8", "NHWC", C=40),
    "max_pool_i8_nhwc_c16": lambda: case_pool("max", "i8", "NHWC", C=16),
    # A window of 2^30 columns (found by fuzzing: the lowering padded the
    # input to 2^30 columns and the evaluator visited every one).
    "avg_pool_huge_window": lambda: case_pool(
        "avg", "i8", "NHWC", k=(3, 1 << 30), pads=(1, 536870911, 1, 536870912),
        W=5),
    "max_pool_huge_window": lambda: case_pool(
        "max", "ui8", "NCHW", k=(1 << 30, 2), pads=(536870911, 1, 536870912, 1),
        st=(3, 1)),
    "add_u8": lambda: case_binary("add", "ui8"),
    # TVM's sequences; scales 0.5 and 0.25 over 1 make ties common, where
    # UPWARD and TONEAREST differ on negative values.
    "add_i8_upward": lambda: case_binary("add", "i8", "upward", (0.5, 0.25, 1.0)),
    "add_i8_tonearest": lambda: case_binary("add", "i8", "tonearest", (0.5, 0.25, 1.0)),
    "subtract_u8_upward": lambda: case_binary("subtract", "ui8", "upward", (0.5, 0.25, 1.0)),
    "subtract_i8_tonearest": lambda: case_binary("subtract", "i8", "tonearest"),
    "mul_i8_upward": lambda: case_binary("mul", "i8", "upward", (0.5, 0.25, 4.0)),
    "mul_u8_tonearest": lambda: case_binary("mul", "ui8", "tonearest", (0.5, 0.25, 4.0)),
    "mul_i8_tonearest": lambda: case_binary("mul", "i8", "tonearest"),
    "add_i8": lambda: case_binary("add", "i8"),
    "mul_u8": lambda: case_binary("mul", "ui8"),
    "mul_i8": lambda: case_binary("mul", "i8"),
    "add_i8_single": lambda: case_binary("add", "i8", "tflite_single"),
    "subtract_i8": lambda: case_binary("subtract", "i8"),
    "subtract_u8": lambda: case_binary("subtract", "ui8"),
    "subtract_i8_single": lambda: case_binary("subtract", "i8", "tflite_single"),
    "add_u8_single": lambda: case_binary("add", "ui8", "tflite_single"),
    "add_u8_onnx": lambda: case_binary("add", "ui8", "onnx"),
    "add_i8_onnx": lambda: case_binary("add", "i8", "onnx"),
    "subtract_i8_onnx": lambda: case_binary("subtract", "i8", "onnx"),
    "mul_i8_single": lambda: case_binary("mul", "i8", "tflite_single"),
    # Every pair of operand values (add-affine.test): MobileNet v2's second
    # residual ADD; a uint8 SUB; scales of small ratios (ties: no affine
    # form under double rounding); slopes 2^6 apart (no affine form).
    "add_pairs_i8_single": lambda: case_binary_pairs(
        "add", "i8", "tflite_single",
        (0.0217414033, 14, 0.0194255598, 17, 0.0276931245, 1)),
    "subtract_pairs_u8": lambda: case_binary_pairs(
        "subtract", "ui8", "tflite", (0.0517, 120, 0.0293, 128, 0.0811, 130)),
    "subtract_pairs_u8_ties": lambda: case_binary_pairs(
        "subtract", "ui8", "tflite", (0.05, 120, 0.03, 128, 0.08, 130)),
    "add_pairs_i8_steep": lambda: case_binary_pairs(
        "add", "i8", "tflite",
        (0.00388743123, -57, 0.157561243, 38, 0.0633554235, 50)),
    "concat_u8": lambda: case_concat("ui8"),
    "concat_i8": lambda: case_concat("i8"),
    "quantize_roundtrip_u8": lambda: case_quantize_roundtrip("ui8"),
    "quantize_roundtrip_i8": lambda: case_quantize_roundtrip("i8"),
    "pointwise_i8": lambda: case_pointwise("i8", 3, 5, 32, 64, -9),
    "pointwise_u8": lambda: case_pointwise("ui8", 2, 3, 8, 48, 131, "HWIO"),
    "pointwise_i8_wide": lambda: case_pointwise("i8", 1, 7, 20, 32, 0),
    "pointwise_i8_single": lambda: case_pointwise("i8", 3, 5, 32, 64, -9, "OHWI", "tflite_single"),
    "requantize_onnx_i8": lambda: case_requantize("onnx", "i8"),
    "requantize_onnx_i32": lambda: case_requantize("onnx", "i32"),
    "requantize_onnx_from_u8": lambda: case_requantize("onnx", "ui8", "ui8"),
    "requantize_tensor_onnx": lambda: case_requantize_per_tensor("onnx"),
    "pointwise_i8_onnx": lambda: case_pointwise("i8", 3, 5, 32, 64, -9, "OHWI", "onnx"),
    "pointwise_u8_onnx": lambda: case_pointwise("ui8", 2, 3, 8, 48, 131, "HWIO", "onnx"),
}
for _seed in range(1, 25):
    CASES["random_conv_%d" % _seed] = (lambda s: lambda: case_random_conv(s))(_seed)
    CASES["random_conv_wide_%d" % _seed] = (
        lambda s: lambda: case_random_conv(s, wide=True))(_seed)
    CASES["random_conv_single_%d" % _seed] = (
        lambda s: lambda: case_random_conv(s, wide=True, rule="tflite_single"))(_seed)
    CASES["random_conv_onnx_%d" % _seed] = (
        lambda s: lambda: case_random_conv(s, wide=True, rule="onnx"))(_seed)
    CASES["random_conv_small_c_%d" % _seed] = (
        lambda s: lambda: case_random_conv(s, small_c=True))(_seed)
    CASES["random_conv_small_c_nchw_%d" % _seed] = (
        lambda s: lambda: case_random_conv(s, small_c=True, nchw=True))(_seed)
    CASES["random_conv_halved_%d" % _seed] = (
        lambda s: lambda: case_random_conv(
            s, wide=True, packed=True, rule="tflite_single", halved=True))(_seed)
    CASES["random_conv_halved_spread_%d" % _seed] = (
        lambda s: lambda: case_random_conv(
            s, wide=True, packed=True, rule="tflite_single", halved=True,
            spread=True))(_seed)
    CASES["random_conv_packed_%d" % _seed] = (
        lambda s: lambda: case_random_conv(
            s, wide=True, packed=True,
            rule="tflite_single" if s % 3 == 0 else "tflite"))(_seed)

if __name__ == "__main__":
    CASES[sys.argv[1]]()
