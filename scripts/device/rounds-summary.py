#!/usr/bin/env python3
"""Summarizes scripts/device/rounds.sh's rounds.txt:
    rounds-summary.py rounds.txt
For every layer (and the sequence per thread count): the median over the
rounds of qnn-mlir's time, of oneDNN's (VNNI-limited), and of the
per-round ratio qnn-mlir / oneDNN, with the ratios' range."""
import statistics
import sys

UNIT = {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1e3}


def main(path):
    rows = {}
    for line in open(path):
        f = line.split()
        # round R LAYER THREADS qnn T ms onednn T UNIT
        if len(f) != 10 or f[0] != "round" or f[4] != "qnn":
            if line.strip():
                print(line.rstrip())
            continue
        q = float(f[5])
        d = float(f[8]) * UNIT[f[9]]
        rows.setdefault((f[2], f[3]), []).append((q, d))
    print("layer threads rounds qnn-mlir(ms) oneDNN-VNNI(ms) ratio[min-max]")
    for (layer, threads), v in rows.items():
        ratios = [q / d for q, d in v]
        print("%s %s %d %.4f %.4f %.2fx [%.2f-%.2f]" % (
            layer, threads, len(v), statistics.median(q for q, _ in v),
            statistics.median(d for _, d in v), statistics.median(ratios),
            min(ratios), max(ratios)))


if __name__ == "__main__":
    main(sys.argv[1])
