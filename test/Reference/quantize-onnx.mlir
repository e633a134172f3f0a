// qnn.quantize under ONNX's rule (QuantizeLinear: the float32 division,
// halves to even) and TFLite's (halves away from zero), on the ties
// x / 0.5 for x = 0.25, 0.75, 1.25, -0.25, -1.25, and 1000 (saturates),
// NaN (the zero point).
// RUN: %mkbin %t.x f32 0.25 0.75 1.25 -0.25 -1.25 1000 nan
// RUN: qnn-run --reference %s --entry onnx --input %t.x --print-values | FileCheck %s --check-prefix=ONNX
// RUN: qnn-run --reference %s --entry tflite --input %t.x --print-values | FileCheck %s --check-prefix=TFL
// RUN: qnn-run %s --target generic --entry onnx --input %t.x --print-values --compare-reference | FileCheck %s --check-prefix=ONNX
// RUN: qnn-run %s --target generic --entry tflite --input %t.x --print-values --compare-reference | FileCheck %s --check-prefix=TFL
// ONNX: values 0: 3 5 5 3 1 127 3
// TFL: values 0: 4 5 6 2 0 127 3
func.func @onnx(%x: tensor<7xf32>) -> tensor<7xi8> {
  %0 = qnn.quantize %x {scale = array<f32: 0.5>, zero_point = array<i32: 3>, rounding = #qnn.rounding<onnx>} : tensor<7xf32> -> tensor<7xi8>
  return %0 : tensor<7xi8>
}
func.func @tflite(%x: tensor<7xf32>) -> tensor<7xi8> {
  %0 = qnn.quantize %x {scale = array<f32: 0.5>, zero_point = array<i32: 3>} : tensor<7xf32> -> tensor<7xi8>
  return %0 : tensor<7xi8>
}

// The folder follows the rule.
// RUN: qnn-opt %s --canonicalize | FileCheck %s --check-prefix=FOLD
// FOLD-LABEL: func.func @folded
// FOLD: arith.constant dense<[3, 5, 3]> : tensor<3xi8>
// FOLD: arith.constant dense<[4, 6, 2]> : tensor<3xi8>
func.func @folded() -> (tensor<3xi8>, tensor<3xi8>) {
  %c = arith.constant dense<[0.25, 1.25, -0.25]> : tensor<3xf32>
  %0 = qnn.quantize %c {scale = array<f32: 0.5>, zero_point = array<i32: 3>, rounding = #qnn.rounding<onnx>} : tensor<3xf32> -> tensor<3xi8>
  %1 = qnn.quantize %c {scale = array<f32: 0.5>, zero_point = array<i32: 3>} : tensor<3xf32> -> tensor<3xi8>
  return %0, %1 : tensor<3xi8>, tensor<3xi8>
}
