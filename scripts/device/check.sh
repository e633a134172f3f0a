#!/usr/bin/env bash
# scripts/device/check.sh BUNDLE RESULTS: RESULTS holds log.txt and
# outputs.tar from BUNDLE/run.sh. Every model output must equal the reference
# evaluator's bytes; every case must print its independently computed
# integers (FileCheck). Exit 1 on any difference.
set -uo pipefail
B="$1"; R="$2"; fail=0
T="$(mktemp -d)"; trap 'rm -rf "$T"' EXIT
tar xf "$R/outputs.tar" -C "$T"
head -2 "$R/log.txt"
for ref in "$B"/*.ref.bin; do
  name=$(basename "$ref" .ref.bin)
  for out in "$T"/out/"$name".*.bin; do
    [ -e "$out" ] || { echo "MISSING $name"; fail=1; continue; }
    base=$(basename "$out" .bin)
    timing=$(grep "^$base " "$R/log.txt" | cut -d' ' -f2-)
    if cmp -s "$ref" "$out"; then echo "OK   $base ($timing)"; else echo "DIFF $base"; fail=1; fi
  done
done
for c in $(cat "$B/cases.txt"); do
  for t in avx512-vnni int16-avx512bw; do
    if /usr/lib/llvm-22/bin/FileCheck "$B/$c.mlir" < "$T/out/$c.$t.txt" > /dev/null 2>&1; then
      echo "OK   case $c $t"
    else
      echo "FAIL case $c $t"; fail=1
    fi
  done
done
exit $fail
