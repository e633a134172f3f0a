#!/usr/bin/env bash
# Like-for-like rounds on a shared remote host, run in the unpacked bench
# bundle (bundle-bench.sh's OUTDIR, after pack.sh: cd /tmp/d/bench):
#   bash rounds.sh [ROUNDS] [LAYERS...]     (default 5; every layer)
# Each round times every layer back to back with qnn-mlir's serial
# avx512-vnni program (median of 500 calls) and oneDNN limited to
# AVX512-VNNI (median of 3 repetitions), on one CPU, then the 27-layer
# sequence on 1 and 2 threads; a host whose load drifts over the minutes
# of bundle-bench.sh's sections then drifts within each pair only. Writes
# $OUT/rounds.txt; scripts/device/rounds-summary.py prints each layer's
# median ratio over the rounds.
set -uo pipefail
rounds="${1:-5}"; shift || true
layers=("$@")
[ ${#layers[@]} -gt 0 ] || layers=(conv0 dw1 pw1 dw2 dw3 pw3 pw5 dw7 pw7 pw13)
source "$(dirname "${BASH_SOURCE[0]}")/bench-lib.sh"
cpu="${CPU:-2}"
other=$(other_cpu "$cpu")
peer() { # peer THREADS CPUS NAME: oneDNN (VNNI-limited) on layer NAME
  onednn_vnni "$1" "$2" --benchmark_filter="oneDNN/$3/" --benchmark_repetitions=3 \
    --benchmark_min_time=0.1 --benchmark_report_aggregates_only=true |
    awk '/median/ {print $2, $3}'
}
{
  grep -m1 "model name" /proc/cpuinfo
  grep -m1 -E "^cpu family" /proc/cpuinfo; grep -m1 -E "^model\s" /proc/cpuinfo
  echo "cpus: $cpu and $other"
  for r in $(seq "$rounds"); do
    for l in "${layers[@]}"; do
      q=$(taskset -c "$cpu" "qnn/$l.avx512-vnni.t1.exe" "qnn/$l.in.bin" /tmp/o.bin 500 |
          sed -E 's/median=([0-9.]+) ms.*/\1/')
      echo "round $r $l 1 qnn $q ms onednn $(peer 1 "$cpu" "$l")"
    done
    for t in 1 2; do
      cpus=$cpu; v=t1; [ "$t" = 2 ] && { cpus=$cpu,$other; v=omp; }
      q=$(OMP_NUM_THREADS=2 taskset -c "$cpus" qnn/mobilenet_v1_convs.avx512-vnni.$v.exe \
          qnn/mobilenet_v1_convs.in.bin /tmp/o.bin 300 | sed -E 's/median=([0-9.]+) ms.*/\1/')
      echo "round $r sequence $t qnn $q ms onednn $(peer "$t" "$cpus" mobilenet_v1_convs)"
    done
  done
} > "$OUT/rounds.txt" 2>&1
