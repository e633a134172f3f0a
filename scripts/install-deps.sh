#!/usr/bin/env bash
# Installs the Debian packages qnn-mlir needs (idempotent: installs only what
# is missing, so a second run does nothing and needs no network).
set -euo pipefail

PACKAGES=(
  cmake ninja-build g++ python3
  libmlir-22-dev mlir-22-tools llvm-22 llvm-22-dev llvm-22-tools
  libflatbuffers-dev flatbuffers-compiler python3-flatbuffers
  libgtest-dev libbenchmark-dev
  clang-22 libclang-rt-22-dev
  libomp-22-dev
  libonnx-dev libprotobuf-dev python3-onnx python3-numpy
)
# Optional peers for bench/ (skipped by CMake when absent):
#   libdnnl-dev libxnnpack-dev libpthreadpool-dev

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "qnn-mlir: installing ${missing[*]}"
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  $SUDO apt-get update -q
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q "${missing[@]}"
fi
