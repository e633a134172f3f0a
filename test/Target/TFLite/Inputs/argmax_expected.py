"""Input and expected outputs of qnn-tflite-gen --model=arg_max_min:
writes PREFIX.in (uint8 [1, 4, 5, 6] with many ties and values above 127),
PREFIX.0 (ARG_MAX over the channels, int64) and PREFIX.1 (ARG_MIN over the
width, int32), the first index winning ties, from plain loops."""
import struct
import sys

prefix = sys.argv[1]
H, W, C = 4, 5, 6
levels = [0, 127, 128, 200, 255]
x = [levels[(i * 7 + i // 5) % 5] for i in range(H * W * C)]
open(prefix + ".in", "wb").write(bytes(x))


def at(h, w, c):
    return x[(h * W + w) * C + c]


def first_best(values, better):
    best = 0
    for k in range(1, len(values)):
        if better(values[k], values[best]):
            best = k
    return best


amax = [first_best([at(h, w, c) for c in range(C)], lambda a, b: a > b)
        for h in range(H) for w in range(W)]
amin = [first_best([at(h, w, c) for w in range(W)], lambda a, b: a < b)
        for h in range(H) for c in range(C)]
open(prefix + ".0", "wb").write(struct.pack("<%dq" % len(amax), *amax))
open(prefix + ".1", "wb").write(struct.pack("<%di" % len(amin), *amin))
