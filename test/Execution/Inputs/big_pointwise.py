#!/usr/bin/env python3
"""Prints a qnn program: a 1x1 convolution of C -> O channels over N
images of H x W i8 pixels, with pseudo-random weights (a fixed LCG, so
every channel group differs), per-channel weight scales, a bias and a
per-channel requantize to i8. Arguments: C O N H W [relu]; by default
640 640 2 2 7 (packed VNNI weights of 400 KiB, above the kernels'
group-major threshold). With `relu`, a clamp at the output zero point
follows (the x86 kernels' offset form of the double rounding)."""

import sys

from lcg import LCG, hex_bytes

args = [a for a in sys.argv[1:] if a != "relu"]
relu = "relu" in sys.argv[1:]
C, O, N, H, W = (int(a) for a in (args or [640, 640, 2, 2, 7]))
OUT_ZP = 5
rand = LCG(12345)

weights = [rand(255) - 127 for _ in range(O * C)]
bias = [rand(4001) - 2000 for _ in range(O)]
scales = [0.004 + 0.0001 * (o % 17) for o in range(O)]

x = "tensor<%dx%dx%dx%dxi8>" % (N, H, W, C)
acc = "tensor<%dx%dx%dx%dxi32>" % (N, H, W, O)
y = "tensor<%dx%dx%dx%dxi8>" % (N, H, W, O)
print("func.func @main(%%x: %s) -> %s {" % (x, y))
print("  %%w = arith.constant dense<%s> : tensor<%dx1x1x%dxi8>" %
      (hex_bytes(weights, 1), O, C))
print("  %%b = arith.constant dense<%s> : tensor<1x1x1x%dxi32>" %
      (hex_bytes(bias, 4), O))
print("  %%c = qnn.conv2d %%x, %%w {data_layout = #qnn.layout<NHWC>, "
      "dilations = array<i64: 1, 1>, groups = 1 : i64, input_scale = 0.5 : "
      "f32, input_zero_point = -3 : i32, kernel_layout = "
      "#qnn.kernel_layout<OHWI>, padding = array<i64: 0, 0, 0, 0>, strides = "
      "array<i64: 1, 1>, weight_scale = array<f32: %s>, weight_zero_point = "
      "0 : i32} : (%s, tensor<%dx1x1x%dxi8>) -> %s" %
      (", ".join("%.6e" % s for s in scales), x, O, C, acc))
print("  %%a = tosa.add %%c, %%b : (%s, tensor<1x1x1x%dxi32>) -> %s" %
      (acc, O, acc))
print("  %%y = qnn.requantize %%a {axis = 3 : i64, input_scale = array<f64: "
      "%s>, input_zero_point = 0 : i32, output_scale = 4.0 : f32, "
      "output_zero_point = %d : i32} : %s -> %s" %
      (", ".join("%.6e" % (0.5 * s) for s in scales), OUT_ZP, acc, y))
if relu:
    print("  %%r = tosa.clamp %%y {min_val = %d : i8, max_val = 127 : i8} : "
          "(%s) -> %s" % (OUT_ZP, y, y))
    print("  return %%r : %s" % y)
else:
    print("  return %%y : %s" % y)
print("}")
