#!/usr/bin/env bash
# Installs LiteRT (TensorFlow Lite) for Node, @litertjs/core 2.5.3 from npm,
# into build/litert, as an independent executor for comparisons by hand
# (the tests never download anything; their expected outputs are committed).
# Its wasm build delegates convolutions, fully connected, add, mul, mean and
# pad to XNNPACK, which rescales in float32: expect rare 1-unit differences
# at near-ties there.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
DIR="${QNN_LITERT_DIR:-$ROOT/build/litert}"
mkdir -p "$DIR"
cd "$DIR"
[ -f package.json ] || npm init -y >/dev/null
[ -d node_modules/@litertjs/core ] || npm install --no-audit --no-fund @litertjs/core@2.5.3
# The JS wrapper lists no int8 tensors although the runtime has them.
index=node_modules/@litertjs/core/dist/index.js
if ! grep -q 'dtype: "int8"' "$index"; then
  python3 - "$index" <<'PY'
import sys
p = sys.argv[1]
s = open(p).read()
old = '''    dtype: "uint8",
    typedArrayConstructor: Uint8Array,
    elementType: ElementType.UINT8
  }
]);'''
new = old[:-4] + ''',
  {
    dtype: "int8",
    typedArrayConstructor: Int8Array,
    elementType: ElementType.INT8
  }
]);'''
assert old in s, "unexpected @litertjs/core layout"
open(p, "w").write(s.replace(old, new, 1))
PY
fi
echo "LiteRT ready in $DIR; run: node $ROOT/scripts/litert/run.mjs MODEL.tflite IN0.bin ..."
