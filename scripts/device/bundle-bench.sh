#!/usr/bin/env bash
# The benchmark of bench/ for a remote x86-64 machine (e.g. one with
# AVX512-VNNI when this one has none), built here:
#   scripts/device/bundle-bench.sh OUTDIR [CPU]      (CPU default x86-64-v4)
# OUTDIR/run.sh, run there, writes $OUT/bench.txt: the peers (oneDNN,
# XNNPACK; bench/PeersBenchmark.cpp built without MLIR, their shared
# libraries carried in OUTDIR/lib) and qnn-mlir's programs for the same
# layers, compiled ahead of time for CPU (qnn-compile --cpu), 1 and 2
# threads for the peers (qnn-mlir's code is single-threaded).
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

QNN_BENCH_DUMP_LAYERS="$OUTDIR/src" "$BIN/qnn-bench-peers"
for src in "$OUTDIR"/src/*.mlir; do
  name=$(basename "$src" .mlir)
  dims=$(grep -m1 -o 'func.func @main(%x: tensor<[0-9x]*xi8>' "$src" |
         grep -o '[0-9x]*xi8' | sed 's/xi8//')
  bytes=$(( ${dims//x/*} ))
  python3 "$ROOT/test/lib/mkbin.py" "$OUTDIR/qnn/$name.in.bin" i8 --random "$bytes" 1
  for t in avx512-vnni int16-avx512bw; do
    "$BIN/qnn-compile" "$src" --target "$t" --cpu "$CPU" -o "$OUTDIR/src/$name.$t.o"
    cc -O2 -include "$OUTDIR/src/$name.$t.h" "$HERE/driver.c" "$OUTDIR/src/$name.$t.o" \
      -lm -o "$OUTDIR/qnn/$name.$t.exe"
  done
done
rm -rf "$OUTDIR/src"

cat > "$OUTDIR/run.sh" <<'RUN'
#!/usr/bin/env bash
cd "$(dirname "$0")"
out="$OUT/bench.txt"
{ grep -m1 "model name" /proc/cpuinfo
  for exe in qnn/*.exe; do
    base=$(basename "$exe" .exe); name=${base%%.*}
    echo "qnn-mlir/$base $(taskset -c 2 "$exe" "qnn/$name.in.bin" /tmp/o.bin 200)"
  done
  for threads in 1 2; do
    echo "== peers, $threads thread(s)"
    cpus=2; [ "$threads" = 2 ] && cpus=2,3
    LD_LIBRARY_PATH=lib QNN_BENCH_THREADS=$threads OMP_NUM_THREADS=$threads \
      taskset -c $cpus ./peers \
      --benchmark_repetitions=5 --benchmark_report_aggregates_only=true 2>&1 |
      grep -E "median"
  done
} > "$out" 2>&1
RUN
chmod +x "$OUTDIR/run.sh"
du -sh "$OUTDIR"
