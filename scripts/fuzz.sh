#!/usr/bin/env bash
# Runs one libFuzzer target of the sanitizer build for a while.
#
#   ./scripts/fuzz.sh TARGET SECONDS [libFuzzer options...]
#
# TARGET: tflite-import | pipeline | mlir | onnx-import. QNN_FUZZ_CORPUS overrides the
# corpus folder (a fresh one makes a run with -seed=N -runs=M repeatable).
# Seeds: the project's own
# generated .tflite models (qnn-tflite-gen) or the lit tests' .mlir cases,
# plus the regression inputs in fuzz/regressions/TARGET/. The growing corpus
# lives in build-sanitize/fuzz/corpus/TARGET, crashes go to
# build-sanitize/fuzz/artifacts/TARGET/ (add each one, once fixed, to
# fuzz/regressions/TARGET/). Prints libFuzzer's final statistics; exits
# non-zero on any finding.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${QNN_SANITIZE_BUILD_DIR:-$ROOT/build-sanitize}"
if [ $# -lt 2 ]; then
  echo "usage: $0 tflite-import|pipeline|mlir|onnx-import SECONDS [libFuzzer options]" >&2
  exit 2
fi
target="$1" seconds="$2"
shift 2
bin="$BUILD/bin/qnn-fuzz-$target"
if [ ! -x "$bin" ]; then
  echo "error: $bin is missing: build the sanitizer build with clang first" \
       "(QNN_BUILD_DIR=build-sanitize QNN_SANITIZE=address,undefined" \
       "./scripts/build.sh, with clang-22 installed)" >&2
  exit 2
fi
work="$BUILD/fuzz"
seeds="$work/seeds/$target" corpus="${QNN_FUZZ_CORPUS:-$work/corpus/$target}"
artifacts="$work/artifacts/$target"
mkdir -p "$seeds" "$corpus" "$artifacts"
case "$target" in
  tflite-import|pipeline)
    for model in $("$BUILD/bin/qnn-tflite-gen" --list); do
      case "$model" in mobilenet_v1_1.0_224) continue ;; esac
      "$BUILD/bin/qnn-tflite-gen" --model="$model" -o "$seeds/$model.tflite"
    done
    max_len=400000 ;;
  mlir)
    # One seed per lit test case (split at `// -----`).
    python3 - "$ROOT/test" "$seeds" <<'PY'
import pathlib, sys
root, out = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
n = 0
for f in sorted(root.rglob("*.mlir")):
    if "Inputs" in f.parts:
        continue
    for case in f.read_text().split("// -----"):
        if 0 < len(case) <= 16384:
            (out / f"{n:04d}.mlir").write_text(case)
            n += 1
PY
    max_len=16384 ;;
  onnx-import)
    # The ONNX test models (test/Target/ONNX/Inputs/onnx_models.py, with
    # Debian's python3-onnx; without it the run starts from the regression
    # inputs and an empty corpus).
    py=""
    for c in /usr/bin/python3 python3; do
      if "$c" -c "import onnx, numpy" 2>/dev/null; then py="$c"; break; fi
    done
    if [ -n "$py" ]; then
      for case in $("$py" - "$ROOT" <<'PY'
import sys
sys.path.insert(0, sys.argv[1] + "/test/Target/ONNX/Inputs")
import onnx_models
print(" ".join(onnx_models.CASES))
PY
      ); do
        "$py" "$ROOT/test/Target/ONNX/Inputs/onnx_models.py" "$case" \
          "$seeds/$case"
        rm -f "$seeds/$case".*.bin
      done
    fi
    max_len=100000 ;;
  *) echo "error: unknown target '$target'" >&2; exit 2 ;;
esac
regressions="$ROOT/fuzz/regressions/$target"
dirs=("$corpus" "$seeds")
[ -d "$regressions" ] && dirs+=("$regressions")
export ASAN_OPTIONS="detect_leaks=1:allow_user_poisoning=0"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
echo "fuzz: $target for ${seconds}s ($(ls "$seeds" | wc -l) seeds)"
"$bin" -max_total_time="$seconds" -timeout=20 -rss_limit_mb=3072 \
  -max_len="$max_len" -print_final_stats=1 -artifact_prefix="$artifacts/" \
  "$@" "${dirs[@]}"
