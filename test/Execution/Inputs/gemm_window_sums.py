#!/usr/bin/env python3
"""Prints a qnn program for the GEMM kernels' window sums (VNNI kernels
whose weights have a zero point, KernelSpec::d): one convolution of C ->
O channels over N images of H x W pixels, kernel KH x KW at stride S,
dilation D and padding P on every side, with pseudo-random weights over
the whole range of their type (so that w - wzp leaves the signed byte
range), a bias and a requantize to u8 that spreads the outputs of uniform
random input bytes over [0, 255]: per tensor, or per channel with WTYPE
i8pc (i8 weights, per-channel scales). Arguments: WTYPE (u8, i8 or i8pc)
WZP C O N H W KH KW S D P ITYPE (u8 or i8) [npu [relu]]. With `npu`, the
same layer as one npu.conv2d (output in ITYPE), which the CPU pipeline
lowers to a kernel with the epilogue inside whatever its channel count
(the qnn form leaves a kernel of padded channels its own epilogue): the
pixel-pair kernels' tests (gemm-pixel-pairs.test, at most 8 output
channels). With `relu` too, act_min is the output zero point (the x86
kernels' offset form of the double rounding)."""

import sys

from lcg import LCG, hex_bytes

wtype, itype = sys.argv[1], sys.argv[13]
npu = sys.argv[14:15] == ["npu"]
relu = npu and sys.argv[15:] == ["relu"]
per_channel = wtype == "i8pc"
wtype = "i8" if per_channel else wtype
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
# Per channel: weight scales 1 + o / 8 (the requantize's input scales
# likewise, its output scale as many times larger), so that every channel
# has its own multiplier.
wscales = [1 + o / 8 for o in range(O)] if per_channel else [0.01]

elem = {"u8": "ui8", "i8": "i8"}
x = "tensor<%dx%dx%dx%dx%s>" % (N, H, W, C, elem[itype])
wt = "tensor<%dx%dx%dx%dx%s>" % (O, KH, KW, C, elem[wtype])
acc = "tensor<%dx%dx%dx%dxi32>" % (N, OH, OW, O)
y = "tensor<%dx%dx%dx%dxui8>" % (N, OH, OW, O)
if npu:
    y = "tensor<%dx%dx%dx%dx%s>" % (N, OH, OW, O, elem[itype])
bias_type = ("tensor<%dxi32>" if npu else "tensor<1x1x1x%dxi32>") % O
print("func.func @main(%%x: %s) -> %s {" % (x, y))
print("  %%w = arith.constant dense<%s> : %s" % (hex_bytes(weights, 1), wt))
print("  %%b = arith.constant dense<%s> : %s" % (hex_bytes(bias, 4), bias_type))
if npu:
    lo, hi = (0, 255) if itype == "u8" else (-128, 127)
    wscales = wscales if per_channel else [1.0]
    print("  %%y = npu.conv2d %%x, %%w, %%b {%sinput_scale = 1.0 : f32, "
          "input_zero_point = %d : i32, weight_scale = array<f32: %s>, "
          "weight_zero_point = %d : i32, output_scale = %.6e : f32, "
          "output_zero_point = %d : i32, rounding = #qnn.rounding<tflite>, "
          "strides = array<i64: %d, %d>, padding = array<i64: %d, %d, %d, %d>, "
          "dilations = array<i64: %d, %d>, groups = 1 : i64, pad_value = %d : "
          "i32, act_min = %d : i32, act_max = %d : i32} : (%s, %s, %s) -> %s" %
          ("activation = #npu.activation<clip>, " if relu else "",
           izp, ", ".join("%.6e" % w for w in wscales), WZP,
           out_scale * wscales[-1], (lo + hi + 1) // 2, S, S, P, P, P, P, D, D,
           izp, (lo + hi + 1) // 2 if relu else lo, hi, x, wt, bias_type, y))
    print("  return %%y : %s" % y)
    print("}")
    sys.exit(0)
print("  %%c = qnn.conv2d %%x, %%w {data_layout = #qnn.layout<NHWC>, "
      "dilations = array<i64: %d, %d>, groups = 1 : i64, input_scale = 0.5 : "
      "f32, input_zero_point = %d : i32, kernel_layout = "
      "#qnn.kernel_layout<OHWI>, padding = array<i64: %d, %d, %d, %d>, "
      "strides = array<i64: %d, %d>, weight_scale = array<f32: %s>, "
      "weight_zero_point = %d : i32} : (%s, %s) -> %s" %
      (D, D, izp, P, P, P, P, S, S, ", ".join("%.6e" % w for w in wscales),
       WZP, x, wt, acc))
print("  %%a = tosa.add %%c, %%b : (%s, %s) -> %s" % (acc, bias_type, acc))
print("  %%y = qnn.requantize %%a {%sinput_scale = array<f64: %s>, "
      "input_zero_point = 0 : i32, output_scale = %.6e : f32, "
      "output_zero_point = 128 : i32} : %s -> %s" %
      ("axis = 3 : i64, " if per_channel else "",
       ", ".join("%.6e" % w for w in wscales),
       out_scale * wscales[-1], acc, y))
print("  return %%y : %s" % y)
print("}")
