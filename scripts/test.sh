#!/usr/bin/env bash
# README command 2: install dependencies, build, run every test (lit).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$ROOT/scripts/install-deps.sh"
"$ROOT/scripts/build.sh"
BUILD="${QNN_BUILD_DIR:-$ROOT/build}"
LOG="$(mktemp)"
trap 'rm -f "$LOG"' EXIT
status=0
/usr/lib/llvm-22/bin/lit -sv "$BUILD/test" 2>&1 | tee "$LOG" || status=$?
count() { sed -n "s/^ *$1 *: *\([0-9]*\).*/\1/p" "$LOG" | tail -1; }
passed=$(count Passed); failed=$(count Failed); unsupported=$(count Unsupported)
xfail=$(count "Expectedly Failed"); xpass=$(count "Unexpectedly Passed")
echo "lit: ${passed:-0} passed, $(( ${failed:-0} + ${xpass:-0} )) failed, $(( ${unsupported:-0} + ${xfail:-0} )) skipped"
if [ "${passed:-0}" -eq 0 ]; then
  echo "error: lit ran no test" >&2
  exit 1
fi
exit "$status"
