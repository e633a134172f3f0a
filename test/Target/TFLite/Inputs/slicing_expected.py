"""Expected outputs of qnn-tflite-gen --model=slicing, from TFLite's
definitions written as plain loops: reads the raw int8 input [1, 6, 8, 4]
and writes PREFIX.0 .. PREFIX.3 (space_to_depth, depth_to_space,
strided_slice, slice)."""
import sys

data = open(sys.argv[1], "rb").read()
prefix = sys.argv[2]
H, W, C = 6, 8, 4


def x(h, w, c):
    return data[(h * W + w) * C + c]


def write(i, values):
    open("%s.%d" % (prefix, i), "wb").write(bytes(values))


bs = 2
# SPACE_TO_DEPTH: out[h, w, (i * bs + j) * C + c] = in[h * bs + i, w * bs + j, c]
write(0, [x(h * bs + (d // C) // bs, w * bs + (d // C) % bs, d % C)
          for h in range(H // bs) for w in range(W // bs) for d in range(C * bs * bs)])
# DEPTH_TO_SPACE: out[h * bs + i, w * bs + j, c] = in[h, w, (i * bs + j) * Co + c]
co = C // (bs * bs)
write(1, [x(oh // bs, ow // bs, ((oh % bs) * bs + ow % bs) * co + c)
          for oh in range(H * bs) for ow in range(W * bs) for c in range(co)])
# STRIDED_SLICE begin [0, 1, -7, 0], end [1, 6, 8, (end mask)], strides
# [1, 2, 1, 1], axis 0 shrunk: rows 1, 3, 5; columns 1..7; all channels.
write(2, [x(h, w, c) for h in range(1, 6, 2) for w in range(1, 8) for c in range(4)])
# SLICE begin [0, 2, 1, 1], size [-1, 3, -1, 2].
write(3, [x(h, w, c) for h in range(2, 5) for w in range(1, 8) for c in range(1, 3)])
