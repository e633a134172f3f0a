#!/usr/bin/env python3
"""Prints a qnn program of three npu.conv2d layers (1x1, C -> O channels,
N x H x W pixels of i8 or u8) with the same weights, bias and scales but
different output zero points and clamps: one shared kernel whose epilogue
takes each layer's zero point and clamp bounds as per-channel arguments
(qnn-fuse-kernel-epilogues lifts the constants that differ). Per-channel
weight scales over a wide range (per-channel shifts). Arguments: C O N H W
and flags: u8; double (gemmlowp's double rounding, #qnn.rounding<tflite>,
instead of single rounding); below (the last layer's lower bound under its
zero point, so that the kernels' double rounding keeps its sign term:
ConvKernelBuilder.h, clampsNonPositive, which the other layers' bounds at or
above their zero points would let it drop). The function takes two inputs
(layer 0 reads the first, layers 1 and 2 the second) and returns the three
outputs."""

import sys

from lcg import LCG, hex_bytes

C, O, N, H, W = (int(a) for a in sys.argv[1:6])
flags = set(sys.argv[6:])
unsigned = "u8" in flags
rounding = "tflite" if "double" in flags else "tflite_single"
rand = LCG(4242)

weights = [rand(255) - 127 for _ in range(O * C)]
bias = [rand(6001) - 3000 for _ in range(O)]
scales = [0.0005 + 0.00002 * rand(1000) for _ in range(O)]

t = "ui8" if unsigned else "i8"
off = 128 if unsigned else 0
# (output zero point, act_min, act_max) per layer: clips of different
# ranges.
layers = [(33 + off, 40 + off, 126 + off),
          (-7 + off, -5 + off, 100 + off),
          (-128 + off, -120 + off, 120 + off)]
if "below" in flags:
    layers[2] = (-20 + off, -60 + off, 120 + off)
x = "tensor<%dx%dx%dx%dx%s>" % (N, H, W, C, t)
y = "tensor<%dx%dx%dx%dx%s>" % (N, H, W, O, t)
wt = "tensor<%dx1x1x%dxi8>" % (O, C)
print("func.func @main(%%x: %s, %%x2: %s) -> (%s, %s, %s) {" % (x, x, y, y, y))
print("  %%w = arith.constant dense<%s> : %s" % (hex_bytes(weights, 1), wt))
print("  %%b = arith.constant dense<%s> : tensor<%dxi32>" %
      (hex_bytes(bias, 4), O))
for i, (zp, lo, hi) in enumerate(layers):
    print("  %%y%d = npu.conv2d %s, %%w, %%b {act_max = %d : i32, act_min = %d "
          ": i32, activation = #npu.activation<clip>, dilations = array<i64: 1, "
          "1>, groups = 1 : i64, input_scale = 0.027 : f32, input_zero_point "
          "= %d : i32, output_scale = 0.02 : f32, output_zero_point = %d : "
          "i32, pad_value = %d : i32, padding = array<i64: 0, 0, 0, 0>, "
          "rounding = #qnn.rounding<%s>, strides = array<i64: 1, "
          "1>, weight_scale = array<f32: %s>, weight_zero_point = 0 : i32} : "
          "(%s, %s, tensor<%dxi32>) -> %s" %
          (i, "%x" if i == 0 else "%x2", hi, lo, -3 + off, zp, -3 + off,
           rounding, ", ".join("%.6e" % s for s in scales), x, wt, O, y))
print("  return %%y0, %%y1, %%y2 : %s, %s, %s" % (y, y, y))
print("}")
