#!/usr/bin/env bash
# README command 1: install dependencies, build, and run the main job on the
# bundled example: a quantized MobileNet v1 (width 0.25, 128x128, 1000
# classes, int8 per-channel) that the project's own TFLite writer generates
# with deterministic weights. It is imported, fused into npu operators,
# evaluated exactly by the reference evaluator, compiled to native code for
# this CPU, checked bit for bit against the reference, and timed.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$ROOT/scripts/install-deps.sh"
"$ROOT/scripts/build.sh"
BIN="${QNN_BUILD_DIR:-$ROOT/build}/bin"
EX="$ROOT/examples"
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
MKBIN="python3 $ROOT/test/lib/mkbin.py"
ms() { echo $(( ($(date +%s%N) - $1) / 1000000 )); }
# Operator counts of a program, e.g. "27 npu.conv2d, 1 npu.avg_pool2d".
ops() {
  grep -oE "= ($2)\.[a-z_0-9]+" "$1" | sed 's/^= //' | sort | uniq -c |
    sed 's/^ *//' | paste -sd, - | sed 's/,/, /g'
}

echo "== 1. Write the bundled model with qnn-tflite-gen"
"$BIN/qnn-tflite-gen" --model=mobilenet_v1 -o "$TMP/mobilenet_v1.tflite"
echo "   mobilenet_v1.tflite: $(wc -c < "$TMP/mobilenet_v1.tflite") bytes"

echo "== 2. Import it into the qnn dialect (qnn-translate --import-tflite)"
t=$(date +%s%N)
"$BIN/qnn-translate" --import-tflite "$TMP/mobilenet_v1.tflite" -o "$TMP/model.mlir"
echo "   $(ops "$TMP/model.mlir" 'qnn') ($(ms "$t") ms)"

echo "== 3. Fuse into npu operators (qnn-opt --qnn-to-npu)"
t=$(date +%s%N)
"$BIN/qnn-opt" --qnn-to-npu "$TMP/model.mlir" -o "$TMP/npu.mlir"
echo "   $(ops "$TMP/npu.mlir" 'npu|qnn') ($(ms "$t") ms)"

echo "== 4. Evaluate exactly (qnn-run --reference, TFLite's integer arithmetic)"
$MKBIN "$TMP/image.bin" i8 --random 49152 7
t=$(date +%s%N)
"$BIN/qnn-run" --reference "$TMP/npu.mlir" --input "$TMP/image.bin" --output "$TMP/ref.bin"
echo "   reference evaluation: $(ms "$t") ms (plain loops, incl. process start)"
python3 - "$TMP/ref.bin" <<'PY'
import sys
data = open(sys.argv[1], "rb").read()
probs = [b - 256 if b > 127 else b for b in data]
top = sorted(range(len(probs)), key=lambda i: (-probs[i], i))[:5]
print("   top-5 classes (int8 softmax output, scale 1/256, zero point -128):")
for i in top:
    print(f"     class {i:4d}: {probs[i]:4d} (p = {(probs[i] + 128) / 256:.3f})")
PY

echo "== 5. Compile natively and run (qnn-run --compare-reference --repeat 50)"
targets="generic"
grep -qw avx2 /proc/cpuinfo && targets="$targets int16"
grep -qw avx512bw /proc/cpuinfo && targets="$targets int16-avx512bw"
grep -qw avx512_vnni /proc/cpuinfo && targets="$targets avx512-vnni"
for target in $targets; do
  "$BIN/qnn-run" "$TMP/npu.mlir" --input "$TMP/image.bin" --target "$target" \
    --compare-reference --repeat 50 | sed 's/^/   /'
done

echo "== 6. The PyTorch-like and TFLite forms of a MobileNet block fuse alike"
$MKBIN "$TMP/block.bin" u8 --random 192 7
$MKBIN "$TMP/block_nchw.bin" --nhwc-to-nchw "$TMP/block.bin" 1 8 8 3
"$BIN/qnn-opt" --qnn-to-npu "$EX/mobilenet_block_tflite.mlir" -o "$TMP/tfl.npu.mlir"
"$BIN/qnn-opt" --qnn-to-npu "$EX/mobilenet_block_pytorch.mlir" -o "$TMP/pt.npu.mlir"
echo "   TFLite form:  $(ops "$TMP/tfl.npu.mlir" 'npu|qnn')"
echo "   PyTorch form: $(ops "$TMP/pt.npu.mlir" 'npu|qnn')"
"$BIN/qnn-run" --reference "$TMP/tfl.npu.mlir" --input "$TMP/block.bin" --output "$TMP/tfl.bin"
"$BIN/qnn-run" --reference "$TMP/pt.npu.mlir" --input "$TMP/block_nchw.bin" --output "$TMP/pt.bin"
if cmp -s "$TMP/tfl.bin" "$TMP/pt.bin"; then
  echo "   both forms: identical output bytes"
else
  echo "   MISMATCH between the two forms" >&2
  exit 1
fi
