#!/usr/bin/env python3
"""Differential stress test of the native kernels against the reference
evaluator.

Each seed makes one random quantized layer program (qnn dialect, NHWC): a
convolution (1x1, 3x3, 5x5, 1x3, 3x1; strides 1 and 2; explicit padding,
symmetric or not; dilation), a depthwise convolution (multiplier 1 or 2),
a fully connected layer, or a pointwise convolution followed by a depthwise
one (the MobileNet v2 expansion); u8 activations with per-tensor u8
weights and a weight zero point, or i8 activations with per-channel i8
weights; bias; a requantize (TFLite double or single rounding) whose output
scale keeps most outputs inside the 8-bit range; no clamp, RELU or RELU6.
Shapes go from single pixels to 56x56 planes and from 1 to 200 channels,
with packed weights beyond 32 KiB now and then (the group-major kernels).

For each program and each target (avx512-vnni, int16-avx512bw, int16,
generic; those this CPU runs) and thread count, `qnn-run
--compare-reference` compiles it, runs it on random inputs and requires
the outputs to be the reference evaluator's bytes. A failing seed prints
its program's path; rerun it with --seed N --keep DIR.

  scripts/stress-kernels.py --qnn-run build/bin/qnn-run --seeds 0:200
  scripts/stress-kernels.py --qnn-run build/bin/qnn-run --seeds 17 --keep /tmp/s
"""

import argparse
import os
import random
import re
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor


def cpu_flags():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("flags"):
                    return set(line.split(":", 1)[1].split())
    except OSError:
        pass
    return set()


# The MLIR text helpers of the execution tests' generator.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "test", "Execution", "Inputs"))
from qnn_cases import dense_str, f32, storage, ttype  # noqa: E402


def f32_array(xs):
    return "array<f32: " + ", ".join(repr(float(x)) for x in xs) + ">"


def f64_array(xs):
    return "array<f64: " + ", ".join(repr(float(x)) for x in xs) + ">"


class Layer:
    """One conv-like layer: its text, given the input value and type."""

    def __init__(self, rng, kind, t, in_shape, in_scale, in_zp, per_channel,
                 pointwise=False, force=None):
        force = force or {}
        self.kind, self.t = kind, t
        n, h, w, c = in_shape if kind != "dense" else (in_shape[0], 1, 1,
                                                       in_shape[1])
        pick = rng.choice
        if kind == "dense" or pointwise:
            self.k = (1, 1)
            self.strides, self.dil, self.pads = (1, 1), (1, 1), (0, 0, 0, 0)
        else:
            self.k = pick([(1, 1), (1, 1), (3, 3), (3, 3), (3, 3), (5, 5),
                           (1, 3), (3, 1)] if kind == "conv" else
                          [(3, 3), (3, 3), (3, 3), (5, 5), (3, 1)])
            self.strides = pick([(1, 1), (1, 1), (2, 2), (2, 1)])
            self.dil = pick([(1, 1)] * 4 + [(2, 2)])
            kh = (self.k[0] - 1) * self.dil[0] + 1
            kw = (self.k[1] - 1) * self.dil[1] + 1
            if pick(["same", "same", "valid", "odd"]) == "same":
                th = max(0, ((h + self.strides[0] - 1) // self.strides[0] - 1)
                         * self.strides[0] + kh - h)
                tw = max(0, ((w + self.strides[1] - 1) // self.strides[1] - 1)
                         * self.strides[1] + kw - w)
                self.pads = (th // 2, th - th // 2, tw // 2, tw - tw // 2)
            else:
                self.pads = tuple(rng.randrange(0, max(1, k // 2 + 2))
                                  for k in (kh, kh, kw, kw))
        for key in ("k", "strides", "dil", "pads"):
            if key in force:
                setattr(self, key, force[key])
        kh = (self.k[0] - 1) * self.dil[0] + 1
        kw = (self.k[1] - 1) * self.dil[1] + 1
        oh = (h + self.pads[0] + self.pads[1] - kh) // self.strides[0] + 1
        ow = (w + self.pads[2] + self.pads[3] - kw) // self.strides[1] + 1
        if oh < 1 or ow < 1:
            self.pads = (kh, kh, kw, kw)
            oh = (h + 2 * kh - kh) // self.strides[0] + 1
            ow = (w + 2 * kw - kw) // self.strides[1] + 1
        if kind == "depthwise":
            self.mult = pick([1, 1, 1, 2])
            o = c * self.mult
        elif kind == "dense":
            o = rng.choice([rng.randrange(1, 64), rng.randrange(1, 300)])
        else:
            o = pick([rng.randrange(1, 48), 16 * rng.randrange(1, 13),
                      rng.randrange(1, 201)])
        if "mult" in force:
            self.mult = force["mult"]
            o = c * self.mult
        o = force.get("o", o)
        self.c, self.o = c, o
        self.in_shape = in_shape
        self.out_shape = ((n, o) if kind == "dense" else (n, oh, ow, o))
        self.in_scale, self.in_zp = in_scale, in_zp
        self.per_channel = per_channel
        self.wt = "i8" if per_channel else "ui8"
        taps = self.k[0] * self.k[1] * (1 if kind == "depthwise" else c)
        # Weights: a narrow spread for some layers (the accumulators then
        # stay small), the whole range for others.
        spread = pick([8, 40, 127])
        if per_channel:
            self.wzp = 0
            wvals = [max(-127, min(127, int(rng.gauss(0, spread))))
                     for _ in range(self._weight_count())]
            self.w_scale = [rng.uniform(0.002, 0.02) for _ in range(o)]
        else:
            self.wzp = rng.randrange(0, 256)
            wvals = [max(0, min(255, self.wzp + int(rng.gauss(0, spread))))
                     for _ in range(self._weight_count())]
            self.w_scale = [rng.uniform(0.002, 0.02)]
        self.wvals = wvals
        # Output scale: about 40 output steps per standard deviation of the
        # accumulator, scaled by a random factor (some saturate more).
        x_std = 40.0
        w_std = min(spread, 127) * 0.8
        acc_std = max(1.0, (taps ** 0.5) * x_std * w_std)
        ws = sum(self.w_scale) / len(self.w_scale)
        self.out_scale = (acc_std * in_scale * ws / 40.0 *
                          pick([0.25, 1.0, 1.0, 1.0, 4.0, 30.0]))
        lo, hi = storage(t)
        self.out_zp = rng.randrange(lo + 20, hi - 20)
        self.bias = [rng.randrange(-int(acc_std), int(acc_std) + 1)
                     for _ in range(o)]
        self.rounding = pick(["tflite", "tflite_single"])
        self.clamp = pick([None, None, "relu", "relu6"])
        self.clamp = force.get("clamp", self.clamp)
        # The requantize's input scales are the products of the float32
        # input and weight scales, as the TFLite importer writes them, so
        # that npu-fuse makes the chain one npu operator; one layer in
        # five keeps the product of the unrounded scales, which npu-fuse
        # leaves as qnn operators (the linalg path and its fused kernel
        # epilogues).
        self.npu_scales = rng.random() >= 0.2

    def macs(self):
        taps = self.k[0] * self.k[1] * (1 if self.kind == "depthwise"
                                        else self.c)
        outs = 1
        for d in self.out_shape:
            outs *= d
        return outs * taps

    def _weight_count(self):
        if self.kind == "dense":
            return self.o * self.c
        if self.kind == "depthwise":
            return self.k[0] * self.k[1] * self.c * self.mult
        return self.o * self.k[0] * self.k[1] * self.c

    def text(self, x, name):
        t, wt = self.t, self.wt
        o = self.o
        out_i32 = ttype(self.out_shape, "i32")
        if self.kind == "dense":
            wshape = (o, self.c)
        elif self.kind == "depthwise":
            wshape = (1, self.k[0], self.k[1], self.c * self.mult)
        else:
            wshape = (o, self.k[0], self.k[1], self.c)
        lines = ["  %%%s_w = arith.constant %s" % (
            name, dense_str(self.wvals, wshape, wt))]
        ws = f32_array(self.w_scale)
        if self.kind == "dense":
            lines.append(
                "  %%%s_acc = qnn.dense %s, %%%s_w {input_scale = %r : f32, "
                "input_zero_point = %d : i32, weight_scale = %s, "
                "weight_zero_point = %d : i32} : (%s, %s) -> %s" % (
                    name, x, name, float(self.in_scale), self.in_zp, ws,
                    self.wzp, ttype(self.in_shape, t), ttype(wshape, wt),
                    out_i32))
            bshape = (1, o)
        else:
            klayout, groups = (("IHWO", self.c) if self.kind == "depthwise"
                               else ("OHWI", 1))
            lines.append(
                "  %%%s_acc = qnn.conv2d %s, %%%s_w {data_layout = "
                "#qnn.layout<NHWC>, dilations = array<i64: %d, %d>, groups = "
                "%d : i64, input_scale = %r : f32, input_zero_point = %d : "
                "i32, kernel_layout = #qnn.kernel_layout<%s>, padding = "
                "array<i64: %d, %d, %d, %d>, strides = array<i64: %d, %d>, "
                "weight_scale = %s, weight_zero_point = %d : i32} : (%s, %s) "
                "-> %s" % (
                    name, x, name, self.dil[0], self.dil[1], groups,
                    float(self.in_scale), self.in_zp, klayout, self.pads[0],
                    self.pads[2], self.pads[1], self.pads[3], *self.strides, ws, self.wzp, ttype(self.in_shape, t),
                    ttype(wshape, wt), out_i32))
            bshape = (1, 1, 1, o)
        lines.append("  %%%s_b = arith.constant %s" % (
            name, dense_str(self.bias, bshape, "i32")))
        lines.append("  %%%s_sum = tosa.add %%%s_acc, %%%s_b : (%s, %s) -> %s"
                     % (name, name, name, out_i32, ttype(bshape, "i32"),
                        out_i32))
        rnd = f32 if self.npu_scales else float
        scales = [rnd(self.in_scale) * rnd(s) for s in self.w_scale]
        if self.per_channel:
            attrs = "axis = %d : i64, input_scale = %s" % (
                len(self.out_shape) - 1, f64_array(scales))
        else:
            attrs = "input_scale = %s" % f64_array(scales)
        out_t = ttype(self.out_shape, t)
        lines.append(
            "  %%%s_q = qnn.requantize %%%s_sum {%s, input_zero_point = 0 : "
            "i32, output_scale = %r : f32, output_zero_point = %d : i32, "
            "rounding = #qnn.rounding<%s>} : %s -> %s" % (
                name, name, attrs, float(self.out_scale), self.out_zp,
                self.rounding, out_i32, out_t))
        result = "%%%s_q" % name
        if self.clamp:
            lo, hi = storage(t)
            cmin = max(lo, self.out_zp)
            cmax = hi
            if self.clamp == "relu6":
                cmax = min(hi, self.out_zp + int(round(6.0 / self.out_scale)))
                cmax = max(cmax, cmin)
            lines.append(
                "  %%%s_y = tosa.clamp %s {min_val = %d : %s, max_val = %d : "
                "%s} : (%s) -> %s" % (name, result, cmin, t, cmax, t, out_t,
                                      out_t))
            result = "%%%s_y" % name
        return lines, result


class Chain:
    """A program being written: its layers' lines and multiply-adds (the
    reference evaluator's work, which --max-macs bounds)."""

    def __init__(self, rng, t, per_channel):
        self.rng, self.t, self.per_channel = rng, t, per_channel
        self.body, self.count, self.macs = [], 0, 0

    def layer(self, kind, x, shape, scale, zp, pointwise=False, force=None):
        """A Layer on value x, its lines appended: its result and itself."""
        l = Layer(self.rng, kind, self.t, shape, scale, zp, self.per_channel,
                  pointwise=pointwise, force=force)
        lines, y = l.text(x, "l%d" % self.count)
        self.count += 1
        self.body += lines
        self.macs += l.macs()
        return y, l

    def program(self, in_shape, out_shape, result):
        """The function's text and random input bytes."""
        out_t = ttype(out_shape, self.t)
        text = ("func.func @main(%%x: %s) -> %s {\n%s\n  return %s : %s\n}"
                "\n" % (ttype(in_shape, self.t), out_t, "\n".join(self.body),
                        result, out_t))
        size = 1
        for d in in_shape:
            size *= d
        return text, bytes(self.rng.randrange(256) for _ in range(size))


def make_program(seed):
    rng = random.Random(seed * 7919 + 1)
    t = rng.choice(["ui8", "i8"])
    per_channel = t == "i8" or rng.random() < 0.3
    shape_kind = rng.choice(["conv", "conv", "depthwise", "depthwise",
                             "dense", "pw-dw"])
    if shape_kind == "dense":
        in_shape = (rng.choice([1, 1, 2]), rng.choice(
            [rng.randrange(1, 64), rng.randrange(1, 1100)]))
    else:
        h = rng.choice([1, 2, rng.randrange(3, 12), rng.randrange(7, 30),
                        rng.randrange(28, 57)])
        w = rng.choice([h, h, rng.randrange(1, 40)])
        c = rng.choice([rng.randrange(1, 9), rng.randrange(1, 49),
                        16 * rng.randrange(1, 9), rng.randrange(1, 161)])
        in_shape = (1, h, w, c)
    in_scale = rng.uniform(0.005, 0.05)
    lo, hi = storage(t)
    in_zp = rng.randrange(lo, hi + 1)
    chain = Chain(rng, t, per_channel)
    if shape_kind == "pw-dw":
        x, pw = chain.layer("conv", "%x", in_shape, in_scale, in_zp,
                            pointwise=True)
        x, last = chain.layer("depthwise", x, pw.out_shape, pw.out_scale,
                              pw.out_zp)
    else:
        x, last = chain.layer(shape_kind, "%x", in_shape, in_scale, in_zp)
    text, data = chain.program(in_shape, last.out_shape, x)
    macs = chain.macs
    desc = "%s %s %s%s -> %s, %s MACs" % (
        shape_kind, t, "per-channel " if per_channel else "",
        "x".join(map(str, in_shape)),
        "x".join(map(str, last.out_shape)), macs)
    return text, data, desc, macs


def same_pads(size, k, stride):
    out = (size + stride - 1) // stride
    total = max(0, (out - 1) * stride + k - size)
    return total // 2, total - total // 2


def make_blocks(seed):
    """MobileNet v2 inverted residual blocks of one shape, repeated: a 1x1
    expansion with RELU6, a 3x3 depthwise with RELU6, a 1x1 projection and
    the residual qnn.add, each layer with its own scales and zero points
    (so that layers share kernels whose epilogue constants differ), then
    a stride-2 block without residual now and then."""
    rng = random.Random(seed * 104729 + 7)
    t = rng.choice(["ui8", "i8"])
    per_channel = t == "i8" or rng.random() < 0.3
    h = rng.choice([7, 14, rng.randrange(2, 29)])
    w = rng.choice([h, h, rng.randrange(2, 29)])
    c = rng.choice([8, 16, 24, 32, rng.randrange(3, 65)])
    expand = rng.choice([1, 4, 6])
    count = rng.randrange(1, 4)
    in_shape = (1, h, w, c)
    lo, hi = storage(t)
    scale, zp = rng.uniform(0.01, 0.05), rng.randrange(lo + 10, hi - 10)
    chain = Chain(rng, t, per_channel)
    x, shape = "%x", in_shape

    def layer(kind, shape, scale, zp, force):
        nonlocal x
        x, l = chain.layer(kind, x, shape, scale, zp,
                           pointwise=kind == "conv", force=force)
        return l

    strided = rng.random() < 0.3
    for b in range(count + (1 if strided else 0)):
        stride = 2 if b == count else 1
        block_in, block_scale, block_zp = x, scale, zp
        cur_shape, cur_scale, cur_zp = shape, scale, zp
        if expand > 1:
            e = layer("conv", cur_shape, cur_scale, cur_zp,
                      {"o": c * expand, "clamp": "relu6"})
            cur_shape, cur_scale, cur_zp = e.out_shape, e.out_scale, e.out_zp
        ph = same_pads(cur_shape[1], 3, stride)
        pw = same_pads(cur_shape[2], 3, stride)
        d = layer("depthwise", cur_shape, cur_scale, cur_zp,
                  {"k": (3, 3), "strides": (stride, stride), "dil": (1, 1),
                   "pads": (ph[0], ph[1], pw[0], pw[1]), "mult": 1,
                   "clamp": "relu6"})
        cur_shape, cur_scale, cur_zp = d.out_shape, d.out_scale, d.out_zp
        p = layer("conv", cur_shape, cur_scale, cur_zp,
                  {"o": c, "clamp": None})
        shape, scale, zp = p.out_shape, p.out_scale, p.out_zp
        if stride == 1:
            out_scale = max(scale, block_scale) * rng.uniform(1.0, 2.5)
            out_zp = rng.randrange(lo + 10, hi - 10)
            ty = ttype(shape, t)
            chain.body.append(
                "  %%add%d = qnn.add %s, %s {lhs_scale = %r : f32, "
                "lhs_zero_point = %d : i32, rhs_scale = %r : f32, "
                "rhs_zero_point = %d : i32, output_scale = %r : f32, "
                "output_zero_point = %d : i32, rounding = "
                "#qnn.rounding<%s>} : (%s, %s) -> %s" % (
                    b, x, block_in, float(scale), zp, float(block_scale),
                    block_zp, float(out_scale), out_zp,
                    rng.choice(["tflite", "tflite_single"]), ty, ty, ty))
            x, scale, zp = "%%add%d" % b, out_scale, out_zp
    text, data = chain.program(in_shape, shape, x)
    desc = "blocks %s %s%dx %s, expand %d%s -> %s, %d MACs" % (
        t, "per-channel " if per_channel else "", count,
        "x".join(map(str, in_shape)), expand,
        " + stride 2" if strided else "", "x".join(map(str, shape)),
        chain.macs)
    return text, data, desc, chain.macs


def make_ops(seed):
    """A convolution (or two on the same input) followed by one of the
    operators around the kernels: max or average pooling, global average
    pooling, concatenation, add (of two tensors or of a broadcast
    constant), mul, or a table activation (sigmoid, tanh, hardswish,
    leaky relu), which npu-fuse may fold into the convolution's epilogue;
    sometimes a 1x1 convolution after it."""
    rng = random.Random(seed * 15485863 + 3)
    t = rng.choice(["ui8", "i8"])
    per_channel = t == "i8" or rng.random() < 0.3
    lo, hi = storage(t)
    h = rng.choice([1, 3, 7, rng.randrange(2, 20), rng.randrange(14, 41)])
    w = rng.choice([h, rng.randrange(1, 30)])
    c = rng.choice([rng.randrange(1, 9), 16 * rng.randrange(1, 5),
                    rng.randrange(1, 97)])
    in_shape = (1, h, w, c)
    scale, zp = rng.uniform(0.01, 0.05), rng.randrange(lo + 10, hi - 10)
    chain = Chain(rng, t, per_channel)

    def conv(x, shape, scale, zp, force=None):
        kind = "conv" if force and "o" in force else rng.choice(
            ["conv", "depthwise"])
        force = dict(force or {})
        force.setdefault("strides", (1, 1))
        force.setdefault("dil", (1, 1))
        force.setdefault("k", (3, 3) if kind == "depthwise" else
                         rng.choice([(1, 1), (3, 3)]))
        kh, kw = force["k"]
        ph, pw = same_pads(shape[1], kh, 1), same_pads(shape[2], kw, 1)
        force.setdefault("pads", (ph[0], ph[1], pw[0], pw[1]))
        if kind == "depthwise":
            force.setdefault("mult", 1)
        return chain.layer(kind, x, shape, scale, zp, force=force)

    op = rng.choice(["max_pool", "avg_pool", "global_avg_pool", "concat",
                     "add", "add_bcast", "mul", "sigmoid", "tanh",
                     "hardswish", "leaky_relu"])
    two = op in ("concat", "add", "mul")
    a, la = conv("%x", in_shape, scale, zp,
                 {"o": rng.randrange(1, 65)} if two and rng.random() < 0.5
                 else {"clamp": None} if op in ("sigmoid", "tanh",
                                                 "hardswish", "leaky_relu")
                 else None)
    shape = la.out_shape
    ty = ttype(shape, t)
    if two:
        o = (rng.randrange(1, 65) if op == "concat" else shape[3])
        b, lb = conv("%x", in_shape, scale, zp, {"o": o})
        # (SAME padding at stride 1: both keep the input's plane.)
        assert lb.out_shape[1:3] == shape[1:3]
    out_zp = rng.randrange(lo + 10, hi - 10)
    rounding = rng.choice(["tflite", "tflite_single"])
    if op in ("max_pool", "avg_pool"):
        k = rng.choice([(2, 2), (3, 3), (1, 3)])
        s = rng.choice([(1, 1), (2, 2)])
        ph, pw = same_pads(shape[1], k[0], s[0]), same_pads(shape[2], k[1],
                                                            s[1])
        oh = (shape[1] + s[0] - 1) // s[0]
        ow = (shape[2] + s[1] - 1) // s[1]
        out_shape = (1, oh, ow, shape[3])
        res_scale, res_zp = la.out_scale, la.out_zp
        chain.body.append(
            "  %%op = qnn.%s %s {data_layout = #qnn.layout<NHWC>, kernel = "
            "array<i64: %d, %d>, padding = array<i64: %d, %d, %d, %d>, "
            "strides = array<i64: %d, %d>} : %s -> %s" % (
                op + "2d", a, k[0], k[1], ph[0], pw[0], ph[1], pw[1], s[0],
                s[1], ty, ttype(out_shape, t)))
    elif op == "global_avg_pool":
        out_shape = (1, 1, 1, shape[3])
        res_scale, res_zp = la.out_scale * rng.uniform(0.5, 1.5), out_zp
        chain.body.append(
            "  %%op = qnn.global_avg_pool %s {data_layout = "
            "#qnn.layout<NHWC>, input_scale = %r : f32, input_zero_point = "
            "%d : i32, output_scale = %r : f32, output_zero_point = %d : "
            "i32, rounding = #qnn.rounding<%s>} : %s -> %s" % (
                a, la.out_scale, la.out_zp, res_scale, res_zp, rounding, ty,
                ttype(out_shape, t)))
    elif op == "concat":
        out_shape = shape[:3] + (shape[3] + lb.o,)
        res_scale, res_zp = max(la.out_scale, lb.out_scale), out_zp
        chain.body.append(
            "  %%op = qnn.concatenate %s, %s {axis = 3 : i64, input_scales = "
            "array<f32: %r, %r>, input_zero_points = array<i32: %d, %d>, "
            "output_scale = %r : f32, output_zero_point = %d : i32} : (%s, "
            "%s) -> %s" % (a, b, la.out_scale, lb.out_scale, la.out_zp,
                           lb.out_zp, res_scale, res_zp, ty, ttype(lb.out_shape, t), ttype(out_shape, t)))
    elif op in ("add", "mul", "add_bcast"):
        out_shape = shape
        if op == "add_bcast":
            cshape = (1, 1, 1, shape[3])
            chain.body.append("  %%k = arith.constant %s" % dense_str(
                [rng.randrange(lo, hi + 1) for _ in range(shape[3])], cshape,
                t))
            rhs, rs, rz, rty = "%k", rng.uniform(0.01, 0.05), rng.randrange(
                lo, hi + 1), ttype(cshape, t)
            kind = "add"
        else:
            rhs, rs, rz, rty = b, lb.out_scale, lb.out_zp, ty
            kind = op
        res_scale = (la.out_scale * rs * rng.uniform(20, 200)
                     if kind == "mul" else
                     max(la.out_scale, rs) * rng.uniform(1.0, 2.0))
        res_zp = out_zp
        chain.body.append(
            "  %%op = qnn.%s %s, %s {lhs_scale = %r : f32, lhs_zero_point = "
            "%d : i32, rhs_scale = %r : f32, rhs_zero_point = %d : i32, "
            "output_scale = %r : f32, output_zero_point = %d : i32, "
            "rounding = #qnn.rounding<%s>} : (%s, %s) -> %s" % (
                kind, a, rhs, la.out_scale, la.out_zp, rs, rz, res_scale,
                res_zp, rounding, ty, rty, ty))
    else:
        out_shape = shape
        extra = ("alpha = %r : f32, " % rng.choice([0.1, 0.125, 0.2, 0.3])
                 if op == "leaky_relu" else "")
        # Sigmoid and tanh have TFLite's fixed output quantization.
        res_scale = {"sigmoid": 1.0 / 256, "tanh": 1.0 / 128}.get(op)
        res_zp = {"sigmoid": lo, "tanh": (lo + hi + 1) // 2}.get(op, out_zp)
        if res_scale is None:
            res_scale = la.out_scale * rng.uniform(0.5, 2.0)
        rnd = (", rounding = #qnn.rounding<%s>" % rounding
               if op == "leaky_relu" else "")
        chain.body.append(
            "  %%op = qnn.%s %s {%sinput_scale = %r : f32, input_zero_point "
            "= %d : i32, output_scale = %r : f32, output_zero_point = %d : "
            "i32%s} : %s -> %s" % (op, a, extra, la.out_scale, la.out_zp,
                                   res_scale, res_zp, rnd, ty, ty))
    x = "%op"
    if rng.random() < 0.3:
        # A 1x1 convolution after it, on the operator's output as that
        # quantizes it.
        x, after = conv(x, out_shape, res_scale, res_zp,
                        {"o": rng.randrange(1, 49), "k": (1, 1)})
        out_shape = after.out_shape
    text, data = chain.program(in_shape, out_shape, x)
    desc = "ops %s %s %s %s -> %s, %d MACs" % (
        op, t, "per-channel" if per_channel else "per-tensor",
        "x".join(map(str, in_shape)), "x".join(map(str, out_shape)),
        chain.macs)
    return text, data, desc, chain.macs


def targets_for_host():
    flags = cpu_flags()
    out = []
    if {"avx512_vnni", "avx512bw"} <= flags:
        out.append("avx512-vnni")
    if "avx512bw" in flags:
        out.append("int16-avx512bw")
    if "avx2" in flags:
        out.append("int16")
    out.append("generic")
    return out


def run_seed(args, seed, targets):
    make = {"blocks": make_blocks, "ops": make_ops}.get(args.kind,
                                                         make_program)
    text, data, desc, macs = make(seed)
    if macs > args.max_macs:
        return seed, None, "skipped (%d MACs)" % macs
    keep = args.keep
    d = keep if keep else tempfile.mkdtemp(prefix="qnn-stress-")
    os.makedirs(d, exist_ok=True)
    prog = os.path.join(d, "seed%d.mlir" % seed)
    inp = os.path.join(d, "seed%d.in" % seed)
    with open(prog, "w") as f:
        f.write(text)
    with open(inp, "wb") as f:
        f.write(data)
    failures = []
    for target in targets:
        for threads in args.threads:
            cmd = [args.qnn_run, prog, "--input", inp, "--target", target,
                   "--threads", str(threads), "--compare-reference"]
            cmd += args.extra.split()
            try:
                p = subprocess.run(cmd, capture_output=True, text=True,
                                   timeout=args.timeout)
            except (OSError, subprocess.TimeoutExpired) as e:
                failures.append("%s threads=%d: %s" % (target, threads, e))
                continue
            if p.returncode != 0:
                lines = (p.stderr or p.stdout).strip().splitlines()
                telling = [l for l in lines
                           if re.search(r"error|differ|ERROR|Assert", l)]
                failures.append("%s threads=%d: %s" % (
                    target, threads, (telling or lines or
                                      ["exit %d" % p.returncode])[0][:300]))
    if not failures and not keep:
        os.remove(prog)
        os.remove(inp)
        os.rmdir(d)
    return seed, failures, desc + ("" if not failures else " [" + prog + "]")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--qnn-run", required=True)
    ap.add_argument("--seeds", default="0:50",
                    help="N or FIRST:END (END excluded)")
    ap.add_argument("--kind", default="layers",
                    choices=["layers", "blocks", "ops"],
                    help="single layers (and pointwise+depthwise pairs), "
                    "chains of inverted residual blocks, or a convolution "
                    "and a pooling, concatenation, elementwise or "
                    "activation operator")
    ap.add_argument("--targets", default="",
                    help="comma-separated (default: those this CPU runs)")
    ap.add_argument("--threads", default="1,2",
                    help="comma-separated thread counts")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--extra", default="",
                    help="more qnn-run options, space-separated (e.g. "
                    "'--opt-level 2' or '--npu-fuse=false')")
    ap.add_argument("--max-macs", type=int, default=60_000_000)
    ap.add_argument("--timeout", type=int, default=300)
    ap.add_argument("--keep", default="",
                    help="write the programs and inputs to this folder")
    ap.add_argument("--print-program", action="store_true",
                    help="print the first seed's program and exit")
    args = ap.parse_args()
    if ":" in args.seeds:
        a, b = args.seeds.split(":")
        seeds = range(int(a), int(b))
    else:
        seeds = [int(args.seeds)]
    if args.print_program:
        make = {"blocks": make_blocks, "ops": make_ops}.get(args.kind,
                                                             make_program)
        sys.stdout.write(make(seeds[0])[0])
        return 0
    args.threads = [int(t) for t in args.threads.split(",")]
    targets = (args.targets.split(",") if args.targets else
               targets_for_host())
    bad = 0
    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        for seed, failures, desc in pool.map(
                lambda s: run_seed(args, s, targets), seeds):
            if failures is None:
                print("seed %d: %s" % (seed, desc))
            elif failures:
                bad += 1
                print("seed %d: FAIL %s" % (seed, desc))
                for f in failures:
                    print("    " + f)
            else:
                print("seed %d: ok (%s)" % (seed, desc))
            sys.stdout.flush()
    print("%d of %d seeds failed (targets %s, threads %s)" % (
        bad, len(seeds), ",".join(targets),
        ",".join(map(str, args.threads))))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
