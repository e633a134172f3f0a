// qnn.log_softmax with scales whose ratio overflows float32 (input_scale /
// output_scale = inf): 0 * inf and inf - inf are NaN, which both the
// reference evaluator and the compiled code turn into qmin (TFLite's
// float-to-int conversion on x86 gives INT32_MIN, clamped to qmin). The
// reference once converted NaN to an integer (undefined behaviour, found by
// qnn-fuzz-pipeline; fuzz/regressions/pipeline/log-softmax-nan.tflite) and
// the lowering's fptosi of NaN was poison.
// RUN: %mkbin %t.in i8 0 1 -1 5 -128 127 0 0 3 3 3 3 3 3 3 3
// RUN: qnn-run --reference %s --input %t.in --print-values | FileCheck %s
// RUN: qnn-run %s --input %t.in --target generic --compare-reference --print-values | FileCheck %s --check-prefixes=CHECK,NATIVE
// RUN: qnn-jit %s --input %t.in --target loops --compare-target generic --quiet | FileCheck %s --check-prefix=SAME
// CHECK: values 0: -128 -128 -128 -128 -128 -128 -128 -128 -128 -128 -128 -128 -128 -128 -128 -128
// NATIVE: compare 0: match
// SAME: identical outputs: loops and generic
func.func @main(%x: tensor<2x8xi8>) -> tensor<2x8xi8> {
  %0 = qnn.log_softmax %x {input_scale = 3.0e+38 : f32, output_scale = 1.0e-30 : f32, output_zero_point = 127 : i32} : tensor<2x8xi8>
  return %0 : tensor<2x8xi8>
}
