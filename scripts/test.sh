#!/usr/bin/env bash
# README command 2: install dependencies, build, run every test.
#
#   ./scripts/test.sh            the lit suite on the normal build, then the
#                                whole lit suite again on a sanitizer build
#                                (address + undefined behaviour, clang), then
#                                a short, repeatable run of every fuzz target
#                                (fixed seed and run count, at most
#                                QNN_FUZZ_SECONDS = 120 s each)
#   ./scripts/test.sh --quick    the normal build's lit suite only
#   ./scripts/test.sh --sanitize the sanitizer build's lit suite only
#
# Prints one closing line "N passed, N failed, N skipped" over all suites and
# exits non-zero when any test failed or nothing ran.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
mode=all
case "${1:-}" in
  "") ;;
  --quick) mode=quick ;;
  --sanitize) mode=sanitize ;;
  *) echo "usage: $0 [--quick|--sanitize]" >&2; exit 2 ;;
esac

"$ROOT/scripts/install-deps.sh"

LOG="$(mktemp)"
trap 'rm -f "$LOG"' EXIT
total_passed=0 total_failed=0 total_skipped=0 status=0

# Runs lit on one build folder and adds its counts to the totals.
run_lit() {
  local build="$1" name="$2" s=0
  echo "== lit: $name ($build)"
  /usr/lib/llvm-22/bin/lit -sv "$build/test" 2>&1 | tee "$LOG" || s=$?
  count() { sed -n "s/^ *$1 *: *\([0-9]*\).*/\1/p" "$LOG" | tail -1; }
  local passed failed unsupported xfail xpass
  passed=$(count Passed); failed=$(count Failed); unsupported=$(count Unsupported)
  xfail=$(count "Expectedly Failed"); xpass=$(count "Unexpectedly Passed")
  passed=${passed:-0}
  failed=$(( ${failed:-0} + ${xpass:-0} ))
  echo "lit ($name): $passed passed, $failed failed, $(( ${unsupported:-0} + ${xfail:-0} )) skipped"
  if [ "$passed" -eq 0 ]; then
    echo "error: lit ran no test in $build" >&2
    s=1
  fi
  total_passed=$(( total_passed + passed ))
  total_failed=$(( total_failed + failed ))
  total_skipped=$(( total_skipped + ${unsupported:-0} + ${xfail:-0} ))
  [ "$s" -eq 0 ] || status=$s
}

if [ "$mode" != sanitize ]; then
  "$ROOT/scripts/build.sh"
  run_lit "${QNN_BUILD_DIR:-$ROOT/build}" normal
fi
if [ "$mode" != quick ]; then
  SAN_BUILD="${QNN_SANITIZE_BUILD_DIR:-$ROOT/build-sanitize}"
  QNN_BUILD_DIR="$SAN_BUILD" QNN_SANITIZE=address,undefined \
    "$ROOT/scripts/build.sh"
  run_lit "$SAN_BUILD" "address,undefined sanitizers"
  # Each fuzz target counts as one test: any crash, hang, leak or sanitizer
  # report fails it (scripts/fuzz.sh exits non-zero).
  # Repeatable: a fresh corpus, a fixed seed and a fixed number of runs
  # (capped at QNN_FUZZ_SECONDS per target).
  for spec in tflite-import:8000 pipeline:8000 mlir:30000 onnx-import:20000; do
    target=${spec%%:*} runs=${spec#*:}
    if [ ! -x "$SAN_BUILD/bin/qnn-fuzz-$target" ]; then
      echo "fuzz: $target skipped (no clang build)"
      total_skipped=$(( total_skipped + 1 ))
      continue
    fi
    corpus="$(mktemp -d)"
    if QNN_SANITIZE_BUILD_DIR="$SAN_BUILD" QNN_FUZZ_CORPUS="$corpus" \
         "$ROOT/scripts/fuzz.sh" "$target" "${QNN_FUZZ_SECONDS:-120}" \
         -seed=1 -runs="$runs" > "$LOG" 2>&1; then
      rm -rf "$corpus"
      echo "fuzz: $target passed ($(grep -o 'Done [0-9]* runs' "$LOG"))"
      total_passed=$(( total_passed + 1 ))
    else
      rm -rf "$corpus"
      tail -40 "$LOG"
      echo "fuzz: $target FAILED"
      total_failed=$(( total_failed + 1 ))
      status=1
    fi
  done
fi

echo "$total_passed passed, $total_failed failed, $total_skipped skipped"
exit "$status"
