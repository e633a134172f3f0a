#!/usr/bin/env bash
# Builds and runs the benchmarks (bench/: qnn-mlir, oneDNN, XNNPACK)
# on 1 and 2 threads (QNN_BENCH_TARGET picks qnn-mlir's target, default
# the host's best), 7 repetitions each in random interleaved order (on a
# shared, noisy machine every library then sees the same drift), reporting
# medians. Installs the optional peers first.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$ROOT/scripts/install-deps.sh"
missing=()
for p in libdnnl-dev libxnnpack-dev libpthreadpool-dev; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -q
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q "${missing[@]}" || \
    echo "bench: peers not installable; benchmarking without them"
fi
BUILD="${QNN_BUILD_DIR:-$ROOT/build}"
# Re-run CMake so it finds peers installed since the first configure.
[ -f "$BUILD/build.ninja" ] && cmake "$BUILD" > /dev/null
"$ROOT/scripts/build.sh"
grep -m1 "model name" /proc/cpuinfo || true
# The instruction peaks the GOPS figures below are compared with.
[ -x "$BUILD/bin/qnn-bench-peak" ] && "$BUILD/bin/qnn-bench-peak"
for threads in 1 2; do
  echo "== $threads thread(s)"
  QNN_BENCH_THREADS=$threads OMP_NUM_THREADS=$threads \
    "$BUILD/bin/qnn-bench-peers" --benchmark_repetitions=7 \
    --benchmark_enable_random_interleaving=true \
    --benchmark_report_aggregates_only=true "$@" 2>&1 | grep -E "median|Benchmark|---"
done

# Whole networks: the generated MobileNet v1 1.0/224 (qnn-tflite-gen, random
# deterministic weights and input) and, beside the checkout, the shared
# models with their real inputs (../shared/models). qnn-run compiles each
# once (its compile line: lowering and LLVM seconds on this machine) and
# runs it REPEAT more times (the median and minimum time), on 1 and 2
# threads.
REPEAT="${QNN_BENCH_REPEAT:-200}"
MODELS="$ROOT/../shared/models"
NET_DIR="$BUILD/bench-networks"
mkdir -p "$NET_DIR"
"$BUILD/bin/qnn-tflite-gen" --model=mobilenet_v1_1.0_224 \
  -o "$NET_DIR/mobilenet_v1_1.0_224.tflite"
python3 "$ROOT/test/lib/mkbin.py" "$NET_DIR/mobilenet_v1_1.0_224.in" i8 \
  --random 150528 7
networks=("$NET_DIR/mobilenet_v1_1.0_224.tflite:$NET_DIR/mobilenet_v1_1.0_224.in")
for pair in mobilenet_v2_quantized_1x3x224x224:mnv2pt \
            mobilenet_v1_0.25_224_quant:mnv1_224 \
            mobilenet_v1_0.25_128_quant:mnv1_128 \
            vww_96_int8:vww person_detect:person; do
  model="$MODELS/${pair%%:*}.tflite"
  input="$MODELS/testdata/${pair##*:}.cat.input.bin"
  [ -f "$model" ] && [ -f "$input" ] && networks+=("$model:$input")
done
for threads in 1 2; do
  echo "== whole networks, $threads thread(s), $REPEAT runs"
  for pair in "${networks[@]}"; do
    echo "-- $(basename "${pair%%:*}" .tflite)"
    OMP_NUM_THREADS=$threads "$BUILD/bin/qnn-run" "${pair%%:*}" \
      --input "${pair##*:}" --threads "$threads" --repeat "$REPEAT" \
      2>&1 | grep -E "^(time|compile):"
  done
done
