#!/usr/bin/env bash
# The benchmark of bench/ for a remote x86-64 machine (e.g. one with
# AVX512-VNNI when this one has none), built here:
#   scripts/device/bundle-bench.sh OUTDIR [CPU]      (CPU default x86-64-v4)
# OUTDIR/run.sh, run there, writes $OUT/bench.txt: the peers (oneDNN,
# XNNPACK; bench/PeersBenchmark.cpp built without MLIR, their shared
# libraries carried in OUTDIR/lib) and qnn-mlir's programs for the same
# layers, compiled ahead of time for CPU (qnn-compile --cpu): every layer
# as serial code (--threads 1), the 27 chained layers also as OpenMP code
# (--threads 0, libomp carried in OUTDIR/lib) run on 2 threads. The peers
# run on 1 and 2 threads; oneDNN also limited to AVX512-VNNI
# (ONEDNN_MAX_CPU_ISA=AVX512_CORE_VNNI: the like-for-like figure on a CPU
# with AMX, whose tiles oneDNN otherwise uses). Two CPUs of different
# cores are used (not SMT siblings): CPU=N bash run.sh picks the first
# (default 2). run.sh and rounds.sh share bench-lib.sh, copied beside them.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
BIN="${QNN_BUILD_DIR:-$ROOT/build}/bin"
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
OUTDIR="$1"
CPU="${2:-x86-64-v4}"
mkdir -p "$OUTDIR/lib" "$OUTDIR/qnn" "$OUTDIR/src"

c++ -O2 -std=c++17 -fexceptions -frtti -DQNN_BENCH_PEERS_ONLY -DQNN_HAVE_DNNL \
  -DQNN_HAVE_XNNPACK "$ROOT/bench/PeersBenchmark.cpp" -o "$OUTDIR/peers" \
  -lbenchmark -ldnnl -lXNNPACK -lpthreadpool -lpthread -Wl,-rpath,'$ORIGIN/lib'
ldd "$OUTDIR/peers" | awk '/=> \// {print $3}' |
  grep -vE '/(libc|libm|libpthread|libdl|librt|ld-linux[^/]*)\.so' |
  xargs -I{} cp -L {} "$OUTDIR/lib/"

cp -L /usr/lib/llvm-22/lib/libomp.so.5 "$OUTDIR/lib/"
cp "$BIN/qnn-bench-peak" "$OUTDIR/"
# The layers requantize with TFLite 2.x's single rounding unless
# QNN_BENCH_ROUNDING says otherwise (the rule of the README's tables).
QNN_BENCH_ROUNDING="${QNN_BENCH_ROUNDING:-single}" QNN_BENCH_DUMP_LAYERS="$OUTDIR/src" \
  "$BIN/qnn-bench-peers"
for src in "$OUTDIR"/src/*.mlir; do
  name=$(basename "$src" .mlir)
  dims=$(grep -m1 -oE 'func.func @main\(%x: tensor<[0-9x]*xu?i8>' "$src" |
         grep -oE '[0-9x]*xu?i8' | sed -E 's/xu?i8//')
  [ -n "$dims" ] || { echo "bundle-bench: no input shape in $src" >&2; exit 1; }
  bytes=$(( ${dims//x/*} ))
  python3 "$ROOT/test/lib/mkbin.py" "$OUTDIR/qnn/$name.in.bin" i8 --random "$bytes" 1
  for t in avx512-vnni int16-avx512bw; do
    for threads in 1 0; do
      [ "$threads" = 0 ] && [ "$name" != mobilenet_v1_convs ] && continue
      v=$t.t1; link=(-lm)
      [ "$threads" = 0 ] && { v=$t.omp; link=(-lm -L/usr/lib/llvm-22/lib -lomp -Wl,-rpath,'$ORIGIN/../lib'); }
      "$BIN/qnn-compile" "$src" --target "$t" --cpu "$CPU" --threads "$threads" \
        -o "$OUTDIR/src/$name.$v.o"
      cc -O2 -include "$OUTDIR/src/$name.$v.h" "$HERE/driver.c" "$OUTDIR/src/$name.$v.o" \
        "${link[@]}" -o "$OUTDIR/qnn/$name.$v.exe"
    done
  done
done
rm -rf "$OUTDIR/src"

cp "$HERE/bench-lib.sh" "$OUTDIR/"
cat > "$OUTDIR/run.sh" <<'RUN'
#!/usr/bin/env bash
# CPU (default 2) and a CPU of another core.
cd "$(dirname "$0")"
source ./bench-lib.sh
out="$OUT/bench.txt"
cpu="${CPU:-2}"
other=$(other_cpu "$cpu")
{ grep -m1 "model name" /proc/cpuinfo
  echo "cpus: $cpu and $other"
  taskset -c "$cpu" ./qnn-bench-peak
  for exe in qnn/*.exe; do
    base=$(basename "$exe" .exe); name=${base%%.*}
    cpus=$cpu; case $base in *.omp) cpus=$cpu,$other;; esac
    echo "qnn-mlir/$base $(OMP_NUM_THREADS=2 taskset -c $cpus "$exe" "qnn/$name.in.bin" /tmp/o.bin 500)"
  done
  echo "== oneDNN's kernel for pw3, default and VNNI-limited"
  ONEDNN_VERBOSE=1 peers 1 "$cpu" --benchmark_filter=oneDNN/pw3 \
    --benchmark_min_time=0.01 | grep -m1 'exec,cpu,convolution'
  ONEDNN_VERBOSE=1 onednn_vnni 1 "$cpu" --benchmark_filter=oneDNN/pw3 \
    --benchmark_min_time=0.01 | grep -m1 'exec,cpu,convolution'
  for threads in 1 2; do
    cpus=$cpu; [ "$threads" = 2 ] && cpus=$cpu,$other
    echo "== peers, $threads thread(s)"
    peers "$threads" "$cpus" --benchmark_repetitions=5 --benchmark_min_time=0.2 \
      --benchmark_report_aggregates_only=true | grep -E "median"
    echo "== oneDNN limited to AVX512_CORE_VNNI, $threads thread(s)"
    onednn_vnni "$threads" "$cpus" --benchmark_filter=oneDNN --benchmark_repetitions=5 \
      --benchmark_min_time=0.2 --benchmark_report_aggregates_only=true | grep -E "median"
  done
  # The 27-layer sequence against oneDNN limited to VNNI, back to back in
  # rounds (a shared host's load drifts between the sections above).
  for round in 1 2 3; do
    echo "== sequence, round $round"
    for threads in 1 2; do
      cpus=$cpu; v=t1; [ "$threads" = 2 ] && { cpus=$cpu,$other; v=omp; }
      echo "qnn-mlir/mobilenet_v1_convs.avx512-vnni.$v $(OMP_NUM_THREADS=2 taskset -c $cpus \
        qnn/mobilenet_v1_convs.avx512-vnni.$v.exe qnn/mobilenet_v1_convs.in.bin /tmp/o.bin 500)"
      onednn_vnni "$threads" "$cpus" --benchmark_filter='oneDNN/mobilenet_v1_convs/' \
        --benchmark_repetitions=5 --benchmark_min_time=0.2 \
        --benchmark_report_aggregates_only=true | grep median |
        sed "s/^/VNNI, $threads thread(s): /"
    done
  done
} > "$out" 2>&1
RUN
chmod +x "$OUTDIR/run.sh"
du -sh "$OUTDIR"
