#!/usr/bin/env bash
# README command 1: install dependencies, build, and run the main job on the
# bundled example (a quantized MobileNet-style block the project generates).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$ROOT/scripts/install-deps.sh"
"$ROOT/scripts/build.sh"
BIN="${QNN_BUILD_DIR:-$ROOT/build}/bin"
EX="$ROOT/examples"

echo "== 1. Verify the TFLite-form block and print it normalized"
"$BIN/qnn-opt" "$EX/mobilenet_block_tflite.mlir" --canonicalize
echo "== 2. Normalize the PyTorch-like form (float weights fold to integers)"
"$BIN/qnn-opt" "$EX/mobilenet_block_pytorch.mlir" --canonicalize \
  | grep -E "qnn\.(conv2d|requantize|quantize)" | cut -c1-160
