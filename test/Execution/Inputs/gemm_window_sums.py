#!/usr/bin/env python3
"""Prints a qnn program for the GEMM kernels' window sums (VNNI kernels
whose weights have a zero point, KernelSpec::d): one convolution of C ->
O channels over N images of H x W pixels, kernel KH x KW at stride S,
dilation D and padding P on every side, with pseudo-random weights over
the whole range of their type (so that w - wzp leaves the signed byte
range), a bias and a per-tensor requantize to u8 that spreads the outputs
of uniform random input bytes over [0, 255]. Arguments: WTYPE (u8 or
i8) WZP C O N H W KH KW S D P ITYPE (u8 or i8)."""

import sys

from lcg import LCG, hex_bytes

wtype, itype = sys.argv[1], sys.argv[13]
WZP, C, O, N, H, W, KH, KW, S, D, P = (int(a) for a in sys.argv[2:13])
rand = LCG(1000 * C + O + WZP)

# A byte from the generator's higher bits (its low 8 bits repeat every 256
# numbers: every channel of K = 256 would get the same weights).
def byte():
    return rand(1 << 24) >> 16


if wtype == "u8":
    weights = [byte() for _ in range(O * KH * KW * C)]
else:
    weights = [byte() - 128 for _ in range(O * KH * KW * C)]
OH = (H + 2 * P - D * (KH - 1) - 1) // S + 1
OW = (W + 2 * P - D * (KW - 1) - 1) // S + 1
izp = 3 if itype == "u8" else -3
# The bias cancels the accumulators' expected value (uniform random bytes
# in, these weights) and the requantize maps 3 standard deviations to the
# output's half range, so that the outputs spread over [0, 255] (few
# saturate) whatever the zero points.
K = KH * KW * C
mean_x = (127.5 if itype == "u8" else -0.5) - izp
var = (256 * 256 - 1) / 12
biases = []
sq = 0.0
for o in range(O):
    ws = [v - WZP for v in weights[o * K:(o + 1) * K]]
    biases.append(-round(mean_x * sum(ws)) + rand(201) - 100)
    sq = max(sq, sum((var + mean_x * mean_x) * v * v - (mean_x * v) ** 2
                     for v in ws))
bias = biases
out_scale = 3 * sq ** 0.5 / 127

elem = {"u8": "ui8", "i8": "i8"}
x = "tensor<%dx%dx%dx%dx%s>" % (N, H, W, C, elem[itype])
wt = "tensor<%dx%dx%dx%dx%s>" % (O, KH, KW, C, elem[wtype])
acc = "tensor<%dx%dx%dx%dxi32>" % (N, OH, OW, O)
y = "tensor<%dx%dx%dx%dxui8>" % (N, OH, OW, O)
print("func.func @main(%%x: %s) -> %s {" % (x, y))
print("  %%w = arith.constant dense<%s> : %s" % (hex_bytes(weights, 1), wt))
print("  %%b = arith.constant dense<%s> : tensor<1x1x1x%dxi32>" %
      (hex_bytes(bias, 4), O))
print("  %%c = qnn.conv2d %%x, %%w {data_layout = #qnn.layout<NHWC>, "
      "dilations = array<i64: %d, %d>, groups = 1 : i64, input_scale = 0.5 : "
      "f32, input_zero_point = %d : i32, kernel_layout = "
      "#qnn.kernel_layout<OHWI>, padding = array<i64: %d, %d, %d, %d>, "
      "strides = array<i64: %d, %d>, weight_scale = array<f32: 0.01>, "
      "weight_zero_point = %d : i32} : (%s, %s) -> %s" %
      (D, D, izp, P, P, P, P, S, S, WZP, x, wt, acc))
print("  %%a = tosa.add %%c, %%b : (%s, tensor<1x1x1x%dxi32>) -> %s" %
      (acc, O, acc))
print("  %%y = qnn.requantize %%a {input_scale = array<f64: 1.0>, "
      "input_zero_point = 0 : i32, output_scale = %.6e : f32, "
      "output_zero_point = 128 : i32} : %s -> %s" % (out_scale, acc, y))
print("  return %%y : %s" % y)
print("}")
