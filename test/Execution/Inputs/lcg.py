"""Helpers of the test generators: a fixed linear congruential generator
(the same numbers on every Python) and MLIR hex literals of integers."""


class LCG:
    def __init__(self, seed):
        self.state = seed

    def __call__(self, n):
        """The next number in [0, n)."""
        self.state = (self.state * 1103515245 + 12345) % (1 << 31)
        return self.state % n


def hex_bytes(values, width):
    """A dense<"0x..."> literal of `values`, `width` bytes each, little
    endian (two's complement)."""
    out = []
    for v in values:
        v &= (1 << (8 * width)) - 1
        out.append(v.to_bytes(width, "little").hex().upper())
    return '"0x' + "".join(out) + '"'
