# Shell functions of the benchmark bundle's scripts (bundle-bench.sh's
# run.sh and rounds.sh), sourced in the unpacked bundle's folder, where
# ./peers and lib/ are.

# other_cpu CPU: the lowest-numbered CPU above CPU on another core (not
# an SMT sibling of CPU), for the second thread.
other_cpu() {
  local cpu=$1 core c n
  core=$(cat "/sys/devices/system/cpu/cpu$cpu/topology/core_id")
  for c in /sys/devices/system/cpu/cpu[0-9]*; do
    n=${c##*cpu}
    [ "$n" -gt "$cpu" ] && [ "$(cat "$c/topology/core_id")" != "$core" ] && echo "$n"
  done | sort -n | head -1
}

# peers THREADS CPUS [ARGS...]: the peers' benchmark (bench/PeersBenchmark.cpp)
# on THREADS threads pinned to CPUS, stdout and stderr together.
peers() {
  local threads=$1 cpus=$2
  shift 2
  LD_LIBRARY_PATH=lib QNN_BENCH_THREADS=$threads OMP_NUM_THREADS=$threads \
    taskset -c "$cpus" ./peers "$@" 2>&1
}

# onednn_vnni THREADS CPUS [ARGS...]: the same with oneDNN limited to
# AVX512-VNNI (ONEDNN_MAX_CPU_ISA=AVX512_CORE_VNNI; on a CPU with AMX,
# oneDNN's int8 convolutions otherwise use its tiles): the like-for-like
# figure.
onednn_vnni() {
  ONEDNN_MAX_CPU_ISA=AVX512_CORE_VNNI peers "$@"
}
