#!/usr/bin/env bash
# Builds, on this machine, executables for a remote x86-64 machine whose CPU
# this one may lack (AVX512-VNNI, AVX512BW), to check the avx512-vnni and
# int16-avx512bw targets where they can run:
#   scripts/device/bundle.sh OUTDIR [CPU]     (CPU default: x86-64-v4)
# OUTDIR gets run.sh (to run there: writes $OUT/log.txt and
# $OUT/outputs.tar) and, back here, scripts/device/check.sh OUTDIR RESULTS
# compares every output with the reference evaluator's bytes (models) or the
# independently computed integers (execution-test cases). Every model is
# built as serial code (--threads 1, NAME.TARGET.t1) and, for the native
# targets, as OpenMP code (--threads 0, NAME.TARGET.omp, run on 2 threads):
# OUTDIR/lib carries the libomp they link, and run.sh's log holds each
# one's median time (whole networks on the remote CPU).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
BIN="${QNN_BUILD_DIR:-$ROOT/build}/bin"
OUTDIR="$1"
CPU="${2:-x86-64-v4}"
MODELS="$(cd "$ROOT/.." && pwd)/shared/models"
# QNN_BUNDLE_TARGETS narrows the targets (the bundle must fit the 64 MiB a
# remote call carries).
TARGETS="${QNN_BUNDLE_TARGETS:-avx512-vnni int16-avx512bw generic}"
mkdir -p "$OUTDIR/models" "$OUTDIR/cases" "$OUTDIR/lib"
OMPDIR=/usr/lib/llvm-22/lib
cp -L "$OMPDIR/libomp.so.5" "$OUTDIR/lib/"
OMPLINK=(-L"$OMPDIR" -lomp -Wl,-rpath,'$ORIGIN/../lib')
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

# Models: NAME SOURCE INPUT (generated ones get a deterministic input).
"$BIN/qnn-tflite-gen" --model=mobilenet_v1 -o "$OUTDIR/gen_v1_025_128.tflite"
"$BIN/qnn-tflite-gen" --model=mobilenet_v1_1.0_224 -o "$OUTDIR/gen_v1_100_224.tflite"
python3 "$ROOT/test/lib/mkbin.py" "$OUTDIR/models/gen_v1_025_128.in.bin" i8 --random 49152 7
python3 "$ROOT/test/lib/mkbin.py" "$OUTDIR/models/gen_v1_100_224.in.bin" i8 --random 150528 7
models="gen_v1_025_128:$OUTDIR/gen_v1_025_128.tflite gen_v1_100_224:$OUTDIR/gen_v1_100_224.tflite"
if [ -d "$MODELS" ]; then
  for m in mnv1_128:mobilenet_v1_0.25_128_quant mnv1_224:mobilenet_v1_0.25_224_quant \
           person:person_detect vww:vww_96_int8 mnv2pt:mobilenet_v2_quantized_1x3x224x224; do
    short=${m%%:*}
    cp "$MODELS/testdata/$short.cat.input.bin" "$OUTDIR/models/$short.in.bin"
    models="$models $short:$MODELS/${m#*:}.tflite"
  done
fi
for m in $models; do
  name=${m%%:*}; src=${m#*:}
  "$BIN/qnn-translate" --import-tflite "$src" -o "$OUTDIR/$name.mlir"
  "$BIN/qnn-opt" --qnn-to-npu "$OUTDIR/$name.mlir" -o "$OUTDIR/$name.npu.mlir"
  "$BIN/qnn-run" --reference "$OUTDIR/$name.npu.mlir" --input "$OUTDIR/models/$name.in.bin" \
    --output "$OUTDIR/$name.ref.bin"
  for t in $TARGETS; do
    for threads in 1 0; do
      [ "$t" = generic ] && [ "$threads" = 0 ] && continue
      v=$t.t1; link=(-lm)
      [ "$threads" = 0 ] && { v=$t.omp; link=(-lm "${OMPLINK[@]}"); }
      "$BIN/qnn-compile" "$OUTDIR/$name.npu.mlir" --target "$t" --cpu "$CPU" \
        --threads "$threads" -o "$OUTDIR/$name.$v.o"
      cc -O2 -include "$OUTDIR/$name.$v.h" "$HERE/driver.c" "$OUTDIR/$name.$v.o" \
        "${link[@]}" -o "$OUTDIR/models/$name.$v.exe"
    done
  done
  echo "bundle: $name"
done

# Execution-test cases with independently computed expected integers.
cases="conv_nhwc_ohwi_u8 conv_nhwc_hwio_i8_dilated conv_nhwc_ihwo_depthwise_i8 dense_u8_wzp dense_i8 pointwise_i8 pointwise_u8 pointwise_i8_wide"
for i in $(seq 1 24); do cases="$cases random_conv_$i"; done
for c in $cases; do
  python3 "$ROOT/test/Execution/Inputs/qnn_cases.py" "$c" > "$OUTDIR/$c.mlir"
  for t in avx512-vnni int16-avx512bw; do
    "$BIN/qnn-compile" "$OUTDIR/$c.mlir" --target "$t" --cpu "$CPU" -o "$OUTDIR/$c.$t.o"
    printf 'int qnn_main(void);\nint main(void) { return qnn_main(); }\n' > "$OUTDIR/case-main.c"
    cc -O2 "$OUTDIR/case-main.c" "$HERE/rt.c" "$OUTDIR/$c.$t.o" -lm "${OMPLINK[@]}" \
      -o "$OUTDIR/cases/$c.$t.exe"
  done
done
echo "$cases" > "$OUTDIR/cases.txt"

cat > "$OUTDIR/run.sh" <<'RUN'
#!/usr/bin/env bash
# Runs every executable of the bundle; $OUT gets log.txt and outputs.tar.
cd "$(dirname "$0")"
log="$OUT/log.txt"; mkdir -p out
# OpenMP code runs on CPU 2 and a CPU of another core (not an SMT sibling).
core2=$(cat /sys/devices/system/cpu/cpu2/topology/core_id)
other=$(for c in /sys/devices/system/cpu/cpu[0-9]*; do
  n=${c##*cpu}; [ "$n" -gt 2 ] && [ "$(cat $c/topology/core_id)" != "$core2" ] && echo $n; done |
  sort -n | head -1)
{ grep -m1 "model name" /proc/cpuinfo
  echo "flags: $(grep -m1 '^flags' /proc/cpuinfo | tr ' ' '\n' | grep -E '^(avx2|avx512f|avx512bw|avx512_vnni|avx_vnni)$' | tr '\n' ' ')"
} > "$log"
for exe in models/*.exe; do
  base=$(basename "$exe" .exe); name=${base%%.*}
  cpus=2; case $base in *.omp) cpus=2,$other;; esac
  echo "$base $(OMP_NUM_THREADS=2 taskset -c $cpus "$exe" "models/$name.in.bin" "out/$base.bin" 30 2>&1)" >> "$log"
done
for exe in cases/*.exe; do
  base=$(basename "$exe" .exe)
  OMP_NUM_THREADS=2 taskset -c 2,$other "$exe" > "out/$base.txt" 2>&1; echo "$base rc=$?" >> "$log"
done
tar cf "$OUT/outputs.tar" out
RUN
chmod +x "$OUTDIR/run.sh"
rm -f "$OUTDIR"/*.o "$OUTDIR"/*.h
du -sh "$OUTDIR"
