#!/usr/bin/env bash
# Builds both remote-machine bundles and packs what runs there into one
# xz archive small enough for a remote call (which carries at most 64 MiB
# with the working tree):
#   scripts/device/pack.sh [CPU]          (CPU default: x86-64-v4)
# writes devbundle/chk (bundle.sh, the avx512-vnni and int16-avx512bw
# targets), devbundle/bench (bundle-bench.sh) and devpack.txz in the
# checkout (ignore both: echo /devbundle/ /devpack.txz >> .git/info/exclude),
# then prints the command to run there with devpack.txz carried. Back
# here: scripts/device/check.sh devbundle/chk RESULTS (RESULTS holds the
# log.txt and outputs.tar that come back; bench.txt is the benchmark).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
CPU="${1:-x86-64-v4}"
cd "$ROOT"
rm -rf devbundle devpack.txz
mkdir devbundle
QNN_BUNDLE_TARGETS="${QNN_BUNDLE_TARGETS:-avx512-vnni int16-avx512bw}" \
  "$HERE/bundle.sh" devbundle/chk "$CPU" > devbundle/chk.log
"$HERE/bundle-bench.sh" devbundle/bench "$CPU" > devbundle/bench.log
# Only what runs there: the executables, inputs, libraries and run.sh (the
# references and sources stay here for check.sh).
(cd devbundle && tar cf - chk/models chk/cases chk/lib chk/run.sh \
   bench/lib bench/qnn bench/peers bench/qnn-bench-peak bench/run.sh \
   bench/bench-lib.sh) |
  xz -6 -T2 > devpack.txz
size=$(stat -c %s devpack.txz)
echo "devpack.txz: $((size / 1048576)) MiB (the call carries at most 64 MiB with the tree)"
cat <<'CMD'
Remote command (carry: devpack.txz):
mkdir -p /tmp/d && (tar xJf devpack.txz -C /tmp/d 2>/dev/null || python3 -c "import tarfile;tarfile.open('devpack.txz').extractall('/tmp/d')") && cd /tmp/d && bash chk/run.sh; bash bench/run.sh; ls -la $OUT
CMD
