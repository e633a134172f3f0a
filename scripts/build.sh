#!/usr/bin/env bash
# Configures (once) and builds qnn-mlir in ./build with Ninja.
# QNN_BUILD_DIR picks another build folder; QNN_SANITIZE=address,undefined
# configures it as a sanitizer build.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${QNN_BUILD_DIR:-$ROOT/build}"
extra=()
# A sanitizer build uses clang when it is installed, which also builds the
# libFuzzer targets (fuzz/, scripts/fuzz.sh).
if [ -n "${QNN_SANITIZE:-}" ] && command -v clang++-22 >/dev/null; then
  extra=(-DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22
         -DQNN_FUZZ=ON)
fi
if [ ! -f "$BUILD/build.ninja" ]; then
  cmake -S "$ROOT" -B "$BUILD" -G Ninja "${extra[@]}" \
    -DCMAKE_BUILD_TYPE=Release \
    -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-22/bin/lit \
    -DQNN_SANITIZE="${QNN_SANITIZE:-}"
fi
cmake --build "$BUILD" "$@"
