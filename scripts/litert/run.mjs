// Runs a .tflite model with LiteRT (see setup.sh) on raw input files (one
// per model input, the model's dtype and layout) and prints each output
// tensor as one line of integers or floats. LiteRT reports failures (for
// example an XNNPACK delegate that refuses a model) as "ERROR:" lines on
// stderr and may still print outputs: check stderr. Usage:
//   node scripts/litert/run.mjs MODEL.tflite IN0.bin [IN1.bin ...]
import fs from 'fs';
import path from 'path';
import vm from 'vm';
import {createRequire} from 'module';
import {fileURLToPath, pathToFileURL} from 'url';

const here = path.dirname(fileURLToPath(import.meta.url));
const dir = process.env.QNN_LITERT_DIR ||
            path.join(here, '..', '..', 'build', 'litert');
const wasmDir = path.join(dir, 'node_modules', '@litertjs', 'core', 'wasm');
// The package targets browsers: give its loader what it expects in Node.
globalThis.self = globalThis;
globalThis.__dirname = wasmDir;
globalThis.__filename = path.join(wasmDir, 'loader.js');
globalThis.require = createRequire(path.join(dir, 'package.json'));
globalThis.importScripts = (url) => {
  const file = url.startsWith('file:') ? fileURLToPath(url) : url;
  vm.runInThisContext(fs.readFileSync(file, 'utf8'), {filename: file});
};
const {loadLiteRt, loadAndCompile, Tensor} = await import(
    pathToFileURL(path.join(dir, 'node_modules', '@litertjs', 'core', 'dist',
                            'index.js')).href);

const [model, ...inputs] = process.argv.slice(2);
await loadLiteRt(wasmDir + '/');
const compiled = await loadAndCompile(new Uint8Array(fs.readFileSync(model)),
                                      {accelerator: 'wasm'});
const arrays = {int8: Int8Array, uint8: Uint8Array, int32: Int32Array,
                float32: Float32Array};
const tensors = compiled.getInputDetails().map((d, i) => {
  const raw = fs.readFileSync(inputs[i]);
  const T = arrays[d.dtype];
  return new Tensor(new T(raw.buffer, raw.byteOffset,
                          raw.byteLength / T.BYTES_PER_ELEMENT),
                    Object.values(d.shape));
});
for (const out of await compiled.run(tensors))
  console.log(Array.from(out.toTypedArray()).join(' '));
