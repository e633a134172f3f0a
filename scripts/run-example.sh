#!/usr/bin/env bash
# README command 1: install dependencies, build, and run the main job on the
# bundled example (a quantized MobileNet-style block the project generates).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$ROOT/scripts/install-deps.sh"
"$ROOT/scripts/build.sh"
BIN="${QNN_BUILD_DIR:-$ROOT/build}/bin"
EX="$ROOT/examples"
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
MKBIN="python3 $ROOT/test/lib/mkbin.py"

echo "== 1. Verify and normalize the TFLite-form block"
"$BIN/qnn-opt" "$EX/mobilenet_block_tflite.mlir" --canonicalize -o "$TMP/tflite.mlir"
grep -cE "qnn\." "$TMP/tflite.mlir" | sed 's/^/   qnn ops: /'
echo "== 2. Normalize the PyTorch-like form (float weights fold to integers)"
"$BIN/qnn-opt" "$EX/mobilenet_block_pytorch.mlir" --canonicalize -o "$TMP/pytorch.mlir"
echo "   qnn.quantize left: $(grep -c 'qnn.quantize' "$TMP/pytorch.mlir") (the output's only)"
echo "== 3. Run both forms on the same deterministic image (reference evaluator)"
$MKBIN "$TMP/image.bin" u8 --random 192 7
$MKBIN "$TMP/image_nchw.bin" --nhwc-to-nchw "$TMP/image.bin" 1 8 8 3
start=$(date +%s%N)
"$BIN/qnn-run" --reference "$TMP/tflite.mlir" --input "$TMP/image.bin" --print-values
end=$(date +%s%N)
"$BIN/qnn-run" --reference "$TMP/pytorch.mlir" --input "$TMP/image_nchw.bin" --output "$TMP/pt.bin"
"$BIN/qnn-run" --reference "$TMP/tflite.mlir" --input "$TMP/image.bin" --output "$TMP/tfl.bin"
if cmp -s "$TMP/tfl.bin" "$TMP/pt.bin"; then
  echo "   both forms: identical bytes"
else
  echo "   MISMATCH between the two forms" >&2; exit 1
fi
echo "   reference evaluation (incl. process start): $(( (end - start) / 1000000 )) ms"
