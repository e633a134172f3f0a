#!/usr/bin/env python3
"""Checks that two programs compute the same integers (reference evaluator).

    refeq.py BEFORE.mlir AFTER.mlir ENTRY TYPE:COUNT[,TYPE:COUNT...] SEED [TRIALS]

For each trial, writes one random raw input per argument (TYPE i8, u8, i32,
f32; COUNT elements), runs `qnn-run --reference` on both programs with the
same inputs and compares every result's printed summary (shape, sum, arg-max,
max and the FNV-1a hash of the bytes). Prints one line per trial and exits 1
at the first difference or when either run fails.
"""
import os
import random
import struct
import subprocess
import sys
import tempfile

FORMATS = {"i8": "b", "u8": "B", "i32": "i", "f32": "f"}
RANGES = {"i8": (-128, 127), "u8": (0, 255), "i32": (-2**31, 2**31 - 1)}


def run(program, entry, inputs):
    cmd = ["qnn-run", "--reference", program, "--entry", entry]
    for path in inputs:
        cmd += ["--input", path]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        print("FAILED: %s\n%s%s" % (" ".join(cmd), proc.stdout, proc.stderr))
        sys.exit(1)
    lines = [l for l in proc.stdout.splitlines() if l.startswith("result ")]
    if not lines:
        print("FAILED: no results from %s" % " ".join(cmd))
        sys.exit(1)
    return lines


def main(argv):
    before, after, entry, specs, seed = argv[1:6]
    trials = int(argv[6]) if len(argv) > 6 else 3
    rng = random.Random(int(seed))
    with tempfile.TemporaryDirectory() as tmp:
        for trial in range(trials):
            paths = []
            for i, spec in enumerate(specs.split(",")):
                dtype, count = spec.split(":")
                if dtype == "f32":
                    values = [rng.uniform(-4.0, 4.0) for _ in range(int(count))]
                else:
                    lo, hi = RANGES[dtype]
                    values = [rng.randint(lo, hi) for _ in range(int(count))]
                path = os.path.join(tmp, "in%d.bin" % i)
                with open(path, "wb") as f:
                    f.write(struct.pack("<%d%s" % (len(values), FORMATS[dtype]),
                                        *values))
                paths.append(path)
            a = run(before, entry, paths)
            b = run(after, entry, paths)
            if a != b:
                print("%s trial %d: DIFFERENT\n  before: %s\n  after:  %s" %
                      (entry, trial, "\n          ".join(a), "\n          ".join(b)))
                sys.exit(1)
            print("%s trial %d: identical %s" % (entry, trial, " | ".join(a)))


if __name__ == "__main__":
    main(sys.argv)
