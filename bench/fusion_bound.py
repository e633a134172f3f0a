#!/usr/bin/env python3
"""What fusing a depthwise and a pointwise convolution could gain (issue 10).

    fusion_bound.py BUILD_DIR [ROUNDS]

A kernel that runs a depthwise convolution and the pointwise convolution
next to it over bands of rows keeps the tensor between them in L1 instead
of writing it out and reading it back. This measures an upper bound of
that gain on the host: each layer below is compiled twice by
`qnn-compile --threads 1` (AOT, the host's CPU), once whole and once on a
band of 4 output rows (its input 4 rows, or 8 for stride 2), and timed by
scripts/device/driver.c; the band runs again and again on the same
buffers, so its input and output stay in L1/L2, and its time times the
number of bands is what the layer would cost with every tensor it touches
in cache (band and whole alternate, ROUNDS rounds, default 5; medians of
the rounds' medians). The bound counts neither a fused kernel's halo
rows (recomputed or carried) nor a band call's overhead. On avx512-vnni a
depthwise band is mostly border rows, which loop over the kernel rows
where interior rows unroll them, so the depthwise bound is pessimistic
there.

The layers are MobileNet v1's dw1/pw1 and dw3/pw3 and MobileNet v2's
first expansion (112x112x16 -> 96: a 1.2 MB output) with the stride-2
depthwise after it, and a 56x56x24 -> 144 expansion with its depthwise;
deterministic weights, per-channel requantize, u8 activations. Prints a
Markdown table.
"""
import os
import statistics
import subprocess
import sys
import tempfile

from compile_scaling import hexbytes, values  # the same deterministic data

# name, input H, W, input channels, output channels, kernel, stride, depthwise
LAYERS = [
    ("v1 dw1 112x112x32", 112, 112, 32, 32, 3, 1, True),
    ("v1 pw1 112x112x32 -> 64", 112, 112, 32, 64, 1, 1, False),
    ("v1 dw3 56x56x128", 56, 56, 128, 128, 3, 1, True),
    ("v1 pw3 56x56x128 -> 128", 56, 56, 128, 128, 1, 1, False),
    ("v2 expand 112x112x16 -> 96", 112, 112, 16, 96, 1, 1, False),
    ("v2 dw 112x112x96, stride 2", 112, 112, 96, 96, 3, 2, True),
    ("v2 expand 56x56x24 -> 144", 56, 56, 24, 144, 1, 1, False),
    ("v2 dw 56x56x144", 56, 56, 144, 144, 3, 1, True),
]
BAND = 4


def program(h, w, cin, cout, k, stride, depthwise):
    oh, ow = (h + stride - 1) // stride, (w + stride - 1) // stride
    pad_h = max((oh - 1) * stride + k - h, 0)
    pad_w = max((ow - 1) * stride + k - w, 0)
    # padding = [top, left, bottom, right]
    pad = f"{pad_h // 2}, {pad_w // 2}, {pad_h - pad_h // 2}, {pad_w - pad_w // 2}"
    wshape = f"{cout}x{k}x{k}x{1 if depthwise else cin}"
    nw = cout * k * k * (1 if depthwise else cin)
    scales = ", ".join("%.6e" % (0.005 + 0.0001 * (c % 13)) for c in range(cout))
    in_scales = ", ".join("%.6e" % (0.5 * (0.005 + 0.0001 * (c % 13)))
                          for c in range(cout))
    tin = f"tensor<1x{h}x{w}x{cin}xui8>"
    acc = f"tensor<1x{oh}x{ow}x{cout}xi32>"
    tout = f"tensor<1x{oh}x{ow}x{cout}xui8>"
    return f"""func.func @main(%x: {tin}) -> {tout} {{
  %w = arith.constant dense<"{hexbytes(values(1, nw, -127, 127), 1)}"> : tensor<{wshape}xi8>
  %b = arith.constant dense<"{hexbytes(values(2, cout, -3000, 3000), 4)}"> : tensor<1x1x1x{cout}xi32>
  %c = qnn.conv2d %x, %w {{data_layout = #qnn.layout<NHWC>, dilations = array<i64: 1, 1>, groups = {cout if depthwise else 1} : i64, input_scale = 5.000000e-01 : f32, input_zero_point = 127 : i32, kernel_layout = #qnn.kernel_layout<OHWI>, padding = array<i64: {pad}>, strides = array<i64: {stride}, {stride}>, weight_scale = array<f32: {scales}>, weight_zero_point = 0 : i32}} : ({tin}, tensor<{wshape}xi8>) -> {acc}
  %a = tosa.add %c, %b : ({acc}, tensor<1x1x1x{cout}xi32>) -> {acc}
  %y = qnn.requantize %a {{axis = 3 : i64, input_scale = array<f64: {in_scales}>, input_zero_point = 0 : i32, output_scale = 5.000000e-02 : f32, output_zero_point = 0 : i32, rounding = #qnn.rounding<tflite_single>}} : {acc} -> {tout}
  return %y : {tout}
}}
"""


def build(build_dir, work, name, text):
    src = os.path.join(work, name + ".mlir")
    with open(src, "w") as f:
        f.write(text)
    obj, exe = os.path.join(work, name + ".o"), os.path.join(work, name)
    subprocess.run([os.path.join(build_dir, "bin", "qnn-compile"), src,
                    "--threads", "1", "-o", obj], check=True)
    driver = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..",
                          "scripts", "device", "driver.c")
    subprocess.run(["cc", "-O2", "-include", os.path.join(work, name + ".h"),
                    driver, obj, "-lm", "-o", exe], check=True)
    return exe


def median_ms(exe, data, repeat):
    out = subprocess.run([exe, data, os.devnull, str(repeat)], check=True,
                         capture_output=True, text=True).stdout
    return float(out.split("median=")[1].split()[0])


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    build_dir = os.path.abspath(sys.argv[1])
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    with tempfile.TemporaryDirectory() as work:
        data = os.path.join(work, "input.bin")
        with open(data, "wb") as f:
            f.write(bytes(v & 255 for v in values(3, 112 * 112 * 128, 0, 255)))
        print("| layer | whole | bands x count | bound of the gain |")
        print("|---|---|---|---|")
        for i, (name, h, w, cin, cout, k, s, dw) in enumerate(LAYERS):
            oh = (h + s - 1) // s
            whole = build(build_dir, work, f"l{i}",
                          program(h, w, cin, cout, k, s, dw))
            band = build(build_dir, work, f"l{i}b",
                         program(BAND * s, w, cin, cout, k, s, dw))
            count = oh // BAND
            a, b = [], []
            for _ in range(rounds):
                a.append(median_ms(whole, data, 1000))
                b.append(median_ms(band, data, 1000 * count) * count)
            ta, tb = statistics.median(a), statistics.median(b)
            print(f"| {name} | {ta * 1e3:.1f} us | {tb * 1e3:.1f} us "
                  f"| {100 * (ta - tb) / ta:.1f}% |", flush=True)


if __name__ == "__main__":
    main()
