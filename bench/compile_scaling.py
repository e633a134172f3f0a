#!/usr/bin/env python3
"""Compile time against module size (issue 10, ask 3).

    compile_scaling.py BUILD_DIR [N ...]

Writes qnn programs of N chained blocks (each a 3x3 depthwise conv and a
1x1 conv on a 28x28 int8 activation, with their own deterministic weights,
biases and per-channel requantize) and times `qnn-compile --threads 1` on
each (median of 3), printing a Markdown table with the time per block.
Two families: "shared", every block on 32 channels (the blocks share their
kernels, as a network's repeated layers do), and "distinct", block i going
from 8 + 4i to 12 + 4i channels (every block needs kernels of its own).
Linear compile time means a flat per-block column.
"""
import os
import statistics
import subprocess
import sys
import tempfile
import time

H, W = 28, 28


def values(seed, n, lo, hi):
    """n deterministic pseudo-random integers in [lo, hi] (an LCG)."""
    out, s = [], seed
    for _ in range(n):
        s = (s * 1103515245 + 12345) % (1 << 31)
        out.append(lo + (s >> 8) % (hi - lo + 1))
    return out


def weights(seed, n):
    return values(seed, n, -127, 127)


def hexbytes(values, width):
    return "0x" + "".join(
        (v & ((1 << (8 * width)) - 1)).to_bytes(width, "little").hex().upper()
        for v in values)


def conv(i, x, cin, cout, depthwise):
    n = 9 * cin if depthwise else cout * cin
    wshape = f"1x3x3x{cin}" if depthwise else f"{cout}x1x1x{cin}"
    scales = ", ".join("%.6e" % (0.004 + 0.0001 * (c % 7)) for c in range(cout))
    in_scales = ", ".join("%.6e" % (0.05 * (0.004 + 0.0001 * (c % 7))) for c in range(cout))
    pad = "1, 1, 1, 1" if depthwise else "0, 0, 0, 0"
    layout = "IHWO" if depthwise else "OHWI"
    groups = cin if depthwise else 1
    tin, tout = f"tensor<1x{H}x{W}x{cin}", f"tensor<1x{H}x{W}x{cout}"
    return f"""
  %w{i} = arith.constant dense<"{hexbytes(weights(2 * i + 1, n), 1)}"> : tensor<{wshape}xi8>
  %b{i} = arith.constant dense<"{hexbytes(weights(2 * i + 2, cout), 4)}"> : tensor<1x1x1x{cout}xi32>
  %c{i} = qnn.conv2d {x}, %w{i} {{data_layout = #qnn.layout<NHWC>, dilations = array<i64: 1, 1>, groups = {groups} : i64, input_scale = 5.000000e-02 : f32, input_zero_point = -3 : i32, kernel_layout = #qnn.kernel_layout<{layout}>, padding = array<i64: {pad}>, strides = array<i64: 1, 1>, weight_scale = array<f32: {scales}>, weight_zero_point = 0 : i32}} : ({tin}xi8>, tensor<{wshape}xi8>) -> {tout}xi32>
  %a{i} = tosa.add %c{i}, %b{i} : ({tout}xi32>, tensor<1x1x1x{cout}xi32>) -> {tout}xi32>
  %y{i} = qnn.requantize %a{i} {{axis = 3 : i64, input_scale = array<f64: {in_scales}>, input_zero_point = 0 : i32, output_scale = 5.000000e-02 : f32, output_zero_point = -3 : i32}} : {tout}xi32> -> {tout}xi8>
"""


def program(blocks, distinct):
    channels = [8 + 4 * b if distinct else 32 for b in range(blocks + 1)]
    body, x = [], "%x"
    for b in range(blocks):
        cin, cout = channels[b], channels[b + 1]
        body.append(conv(2 * b, x, cin, cin, True))
        body.append(conv(2 * b + 1, f"%y{2 * b}", cin, cout, False))
        x = f"%y{2 * b + 1}"
    tin = f"tensor<1x{H}x{W}x{channels[0]}xi8>"
    tout = f"tensor<1x{H}x{W}x{channels[-1]}xi8>"
    return (f"func.func @main(%x: {tin}) -> {tout} {{{''.join(body)}"
            f"  return {x} : {tout}\n}}\n")


def main():
    build = sys.argv[1]
    sizes = [int(n) for n in sys.argv[2:]] or [1, 2, 4, 8, 16, 32, 64]
    tool = os.path.join(build, "bin", "qnn-compile")
    print("| blocks (dw + pw) | shared kernels | per block | distinct kernels | per block |")
    print("|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        for n in sizes:
            row = [str(n)]
            for distinct in (False, True):
                src = os.path.join(tmp, f"chain{n}.mlir")
                with open(src, "w") as f:
                    f.write(program(n, distinct))
                times = []
                for _ in range(3):
                    start = time.perf_counter()
                    subprocess.run([tool, src, "--threads", "1", "-o",
                                    os.path.join(tmp, "out.o")], check=True)
                    times.append(time.perf_counter() - start)
                t = statistics.median(times)
                row += [f"{t:.2f} s", f"{1000 * t / n:.0f} ms"]
            print("| " + " | ".join(row) + " |")


if __name__ == "__main__":
    main()
