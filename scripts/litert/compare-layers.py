#!/usr/bin/env python3
"""Compares every operator output of a .tflite model between LiteRT and
qnn-mlir's reference evaluator, to find the first layer where they part.

    python3 scripts/litert/compare-layers.py MODEL.tflite IN.bin [IN.bin ...]

The model is rewritten losslessly (a new SubGraph.outputs vector appended to
the flatbuffer, every other byte kept: a JSON round trip through flatc would
round the scales to six digits) so that each operator's output is also a
model output; then `node scripts/litert/run.mjs` and `qnn-run --reference`
run it and one line per operator says how many elements differ and by how
much. LiteRT delegates convolutions, fully connected, add, mul, mean and pad
to XNNPACK, which rescales in float32: a difference that starts at a near-tie
of one of those and grows downstream is XNNPACK's rounding, not a wrong
result. Exit status: 0 when every layer agrees, 1 when one differs, 2 when
LiteRT or qnn-run cannot run the model.
Environment: QNN_RUN (default build/bin/qnn-run), QNN_LITERT_DIR (see
run.mjs).
"""
import array
import os
import struct
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# TensorType -> array typecode; BuiltinOperator -> name (the ones models use).
TYPES = {0: 'f', 2: 'i', 3: 'B', 4: 'q', 7: 'h', 9: 'b'}
OPS = {0: 'ADD', 1: 'AVERAGE_POOL_2D', 2: 'CONCATENATION', 3: 'CONV_2D',
       4: 'DEPTHWISE_CONV_2D', 6: 'DEQUANTIZE', 9: 'FULLY_CONNECTED',
       14: 'LOGISTIC', 17: 'MAX_POOL_2D', 18: 'MUL', 19: 'RELU', 21: 'RELU6',
       22: 'RESHAPE', 25: 'SOFTMAX', 34: 'PAD', 39: 'TRANSPOSE', 40: 'MEAN',
       41: 'SUB', 49: 'SPLIT', 114: 'QUANTIZE', 117: 'HARD_SWISH'}


class FlatBuffer:
    """Just enough of the flatbuffers wire format to walk a TFLite model."""

    def __init__(self, data):
        self.b = data

    def u8(self, o): return self.b[o]
    def u16(self, o): return struct.unpack_from('<H', self.b, o)[0]
    def u32(self, o): return struct.unpack_from('<I', self.b, o)[0]
    def i32(self, o): return struct.unpack_from('<i', self.b, o)[0]

    def field(self, table, fid):
        """Position of field `fid` of `table`, or None when absent."""
        vtable = table - self.i32(table)
        if 4 + 2 * fid >= self.u16(vtable):
            return None
        off = self.u16(vtable + 4 + 2 * fid)
        return table + off if off else None

    def deref(self, pos): return pos + self.u32(pos)

    def vector(self, pos):
        """(first element, length) of the vector a field points to."""
        v = self.deref(pos)
        return v + 4, self.u32(v)

    def ints(self, pos):
        start, n = self.vector(pos)
        return [self.i32(start + 4 * k) for k in range(n)]


def main(argv):
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    model_path, inputs = argv[1], argv[2:]
    fb = FlatBuffer(bytearray(open(model_path, 'rb').read()))
    model = fb.u32(0)
    subgraph = fb.deref(fb.vector(fb.field(model, 2))[0])
    tensors, _ = fb.vector(fb.field(subgraph, 0))
    operators, nops = fb.vector(fb.field(subgraph, 3))
    codes, _ = fb.vector(fb.field(model, 1))

    outputs, rows = [], []  # rows: (operator index, op name, tensor index)
    for k in range(nops):
        op = fb.deref(operators + 4 * k)
        pos = fb.field(op, 0)
        code = fb.deref(codes + 4 * (fb.u32(pos) if pos else 0))
        builtin = fb.field(code, 3)
        deprecated = fb.field(code, 0)
        opcode = fb.i32(builtin) if builtin else 0
        if opcode == 0 and deprecated:
            opcode = fb.u8(deprecated)
        for t in fb.ints(fb.field(op, 2)):
            if t not in outputs:
                outputs.append(t)
                rows.append((k, OPS.get(opcode, f'op{opcode}'), t))

    data = fb.b
    while len(data) % 4:
        data.append(0)
    new_outputs = len(data)
    data += struct.pack(f'<I{len(outputs)}i', len(outputs), *outputs)
    outputs_field = fb.field(subgraph, 2)
    struct.pack_into('<I', data, outputs_field, new_outputs - outputs_field)

    with tempfile.TemporaryDirectory() as tmp:
        patched = os.path.join(tmp, 'all-outputs.tflite')
        open(patched, 'wb').write(data)
        run = subprocess.run(
            ['node', os.path.join(ROOT, 'scripts', 'litert', 'run.mjs'), patched,
             *inputs], capture_output=True, text=True)
        if run.returncode != 0:
            errors = [l for l in run.stderr.split('\n') if l.startswith('ERROR:')]
            print('LiteRT could not run the model:', *errors[:4], sep='\n  ',
                  file=sys.stderr)
            return 2
        litert = run.stdout.split('\n')
        files = [os.path.join(tmp, f'{i}.bin') for i in range(len(outputs))]
        qnn_run = os.environ.get('QNN_RUN', os.path.join(ROOT, 'build', 'bin', 'qnn-run'))
        if subprocess.run([qnn_run, '--reference', patched,
                           *[f'--input={i}' for i in inputs],
                           *[f'--output={f}' for f in files]]).returncode:
            return 2
        differing = 0
        for i, (k, name, t) in enumerate(rows):
            tensor = fb.deref(tensors + 4 * t)
            type_pos = fb.field(tensor, 1)
            typecode = TYPES.get(fb.u8(type_pos) if type_pos else 0, 'f')
            ours = array.array(typecode, open(files[i], 'rb').read())
            theirs = [float(v) if typecode == 'f' else int(v)
                      for v in litert[i].split()]
            if len(ours) != len(theirs):
                print(f'{k:4d} {name:18s} tensor {t}: {len(ours)} vs {len(theirs)} elements')
                differing += 1
                continue
            diffs = [abs(a - b) for a, b in zip(ours, theirs) if a != b]
            if diffs:
                differing += 1
            print(f'{k:4d} {name:18s} tensor {t:4d}: '
                  + (f'{len(diffs)}/{len(ours)} differ, max {max(diffs)}'
                     if diffs else 'equal'))
    return 1 if differing else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
