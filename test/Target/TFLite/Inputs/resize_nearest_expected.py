"""Expected outputs of qnn-tflite-gen --model=resize_nearest from TFLite's
GetNearestNeighbor written out with float32 arithmetic: reads the uint8
input [1, 3, 4, 2] and writes PREFIX.0 .. PREFIX.2."""
import math
import struct
import sys

data = open(sys.argv[1], "rb").read()
prefix = sys.argv[2]
H, W, C = 3, 4, 2


def f32(x):
    return struct.unpack("f", struct.pack("f", x))[0]


def source(i, n_in, n_out, align, half):
    if align and n_out > 1:
        scale = f32(f32(n_in - 1) / f32(n_out - 1))
    else:
        scale = f32(f32(n_in) / f32(n_out))
    offset = 0.5 if half else 0.0
    v = f32(f32(i + offset) * scale)
    s = int(math.floor(v + 0.5) if v >= 0 else -math.floor(-v + 0.5)) if align \
        else math.floor(v)
    s = min(s, n_in - 1)
    if half:
        s = max(s, 0)
    return s


for k, (oh, ow, align, half) in enumerate([(6, 8, False, False),
                                           (5, 7, True, False),
                                           (5, 3, False, True)]):
    out = []
    for y in range(oh):
        for x in range(ow):
            sy = source(y, H, oh, align, half)
            sx = source(x, W, ow, align, half)
            for c in range(C):
                out.append(data[(sy * W + sx) * C + c])
    open("%s.%d" % (prefix, k), "wb").write(bytes(out))
