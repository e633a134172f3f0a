"""Expected outputs of qnn-tflite-gen --model=resize_bilinear from TFLite's
ResizeBilinearInteger written out in Python (C's truncating division):
reads the int8 input [1, 3, 4, 2] and writes PREFIX.0 .. PREFIX.2."""
import sys

data = open(sys.argv[1], "rb").read()
prefix = sys.argv[2]
H, W, C = 3, 4, 2
x = [b - 256 if b > 127 else b for b in data]


def cdiv(a, b):
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


def axis(n_in, n_out, align, half):
    scale = cdiv(1024 * n_in + n_out // 2, n_out)
    if align and n_out > 1:
        scale = cdiv(1024 * (n_in - 1) + (n_out - 1) // 2, n_out - 1)
    result = []
    for i in range(n_out):
        v = i * scale
        if half:
            v += cdiv(scale, 2) - 512
        lo = max(cdiv(v, 1024), 0)
        hi = min(cdiv(v + 1023, 1024), n_in - 1)
        result.append((lo, hi, v - 1024 * lo))
    return result


for k, (oh, ow, align, half) in enumerate([(7, 9, False, False),
                                           (5, 7, True, False),
                                           (2, 3, False, True)]):
    out = []
    for (y0, y1, wy) in axis(H, oh, align, half):
        for (x0, x1, wx) in axis(W, ow, align, half):
            for c in range(C):
                at = lambda y, xx: x[(y * W + xx) * C + c]
                s = (at(y0, x0) * (1024 - wy) * (1024 - wx) + at(y1, x0) * wy * (1024 - wx)
                     + at(y0, x1) * (1024 - wy) * wx + at(y1, x1) * wy * wx)
                q = cdiv(s + (1 << 19 if s > 0 else -(1 << 19)), 1 << 20)
                out.append(q & 0xFF)
    open("%s.%d" % (prefix, k), "wb").write(bytes(out))
