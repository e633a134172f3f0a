// ONNX's float32 rules for qnn.mul, qnn.concatenate and the table
// activations, where they differ from TFLite's: exact halves round to even
// under onnx, away from zero (or upward) under TFLite's rules. The same
// bytes come from the reference evaluator and from native code.

// qnn.mul, scales 0.5 * 1 / 1: x * 1 * 0.5 for x = 1, 3, 5, -1, -3, 7.
// onnx: 0.5 -> 0, 1.5 -> 2, 2.5 -> 2, -0.5 -> 0, -1.5 -> -2, 3.5 -> 4;
// tflite (fixed point, halves up): 1, 2, 3, 0, -1, 4.
// RUN: %mkbin %t.m i8 1 3 5 -1 -3 7
// RUN: %mkbin %t.one i8 1 1 1 1 1 1
// RUN: qnn-run --reference %s --entry mul_onnx --input %t.m --input %t.one --print-values | FileCheck %s --check-prefix=MULONNX
// RUN: qnn-run %s --entry mul_onnx --input %t.m --input %t.one --print-values --compare-reference | FileCheck %s --check-prefix=MULONNX
// RUN: qnn-run --reference %s --entry mul_tflite --input %t.m --input %t.one --print-values | FileCheck %s --check-prefix=MULTFL
// MULONNX: values 0: 0 2 2 0 -2 4
// MULTFL: values 0: 1 2 3 0 -1 4
func.func @mul_onnx(%a: tensor<6xi8>, %b: tensor<6xi8>) -> tensor<6xi8> {
  %0 = qnn.mul %a, %b {lhs_scale = 0.5 : f32, lhs_zero_point = 0 : i32, rhs_scale = 1.0 : f32, rhs_zero_point = 0 : i32, output_scale = 1.0 : f32, output_zero_point = 0 : i32, rounding = #qnn.rounding<onnx>} : (tensor<6xi8>, tensor<6xi8>) -> tensor<6xi8>
  return %0 : tensor<6xi8>
}
func.func @mul_tflite(%a: tensor<6xi8>, %b: tensor<6xi8>) -> tensor<6xi8> {
  %0 = qnn.mul %a, %b {lhs_scale = 0.5 : f32, lhs_zero_point = 0 : i32, rhs_scale = 1.0 : f32, rhs_zero_point = 0 : i32, output_scale = 1.0 : f32, output_zero_point = 0 : i32} : (tensor<6xi8>, tensor<6xi8>) -> tensor<6xi8>
  return %0 : tensor<6xi8>
}

// qnn.concatenate: the first input rescaled by 0.5 (zero point 0 -> 1), the
// second copied. onnx: round_even(x * 0.5) + 1; tflite: round_away + 1.
// RUN: %mkbin %t.c i8 1 3 5 -1 -3 7
// RUN: %mkbin %t.d i8 9 9
// RUN: qnn-run --reference %s --entry concat_onnx --input %t.c --input %t.d --print-values | FileCheck %s --check-prefix=CATONNX
// RUN: qnn-run %s --entry concat_onnx --input %t.c --input %t.d --print-values --compare-reference | FileCheck %s --check-prefix=CATONNX
// RUN: qnn-run --reference %s --entry concat_tflite --input %t.c --input %t.d --print-values | FileCheck %s --check-prefix=CATTFL
// CATONNX: values 0: 1 3 3 1 -1 5 9 9
// CATTFL: values 0: 2 3 4 0 -1 5 9 9
func.func @concat_onnx(%a: tensor<6xi8>, %b: tensor<2xi8>) -> tensor<8xi8> {
  %0 = qnn.concatenate %a, %b {axis = 0 : i64, input_scales = array<f32: 0.5, 1.0>, input_zero_points = array<i32: 0, 1>, output_scale = 1.0 : f32, output_zero_point = 1 : i32, rounding = #qnn.rounding<onnx>} : (tensor<6xi8>, tensor<2xi8>) -> tensor<8xi8>
  return %0 : tensor<8xi8>
}
func.func @concat_tflite(%a: tensor<6xi8>, %b: tensor<2xi8>) -> tensor<8xi8> {
  %0 = qnn.concatenate %a, %b {axis = 0 : i64, input_scales = array<f32: 0.5, 1.0>, input_zero_points = array<i32: 0, 1>, output_scale = 1.0 : f32, output_zero_point = 1 : i32} : (tensor<6xi8>, tensor<2xi8>) -> tensor<8xi8>
  return %0 : tensor<8xi8>
}

// Leaky ReLU, alpha 0.25, scales 1 -> 1: ONNX's table rounds
// -2 * 0.25 = -0.5 -> 0, -6 -> -1.5 -> -2, -10 -> -2.5 -> -2, and keeps the
// positive side; TFLite's rescale (RoundingDivideByPOT) rounds those halves
// away from zero: -1, -2, -3.
// RUN: %mkbin %t.l i8 -2 -6 -10 3 0 -128
// RUN: qnn-run --reference %s --entry leaky_onnx --input %t.l --print-values | FileCheck %s --check-prefix=LONNX
// RUN: qnn-run %s --entry leaky_onnx --input %t.l --print-values --compare-reference | FileCheck %s --check-prefix=LONNX
// RUN: qnn-run --reference %s --entry leaky_tflite --input %t.l --print-values | FileCheck %s --check-prefix=LTFL
// LONNX: values 0: 0 -2 -2 3 0 -32
// LTFL: values 0: -1 -2 -3 3 0 -32
func.func @leaky_onnx(%x: tensor<6xi8>) -> tensor<6xi8> {
  %0 = qnn.leaky_relu %x {alpha = 0.25 : f32, input_scale = 1.0 : f32, input_zero_point = 0 : i32, output_scale = 1.0 : f32, output_zero_point = 0 : i32, rounding = #qnn.rounding<onnx>} : tensor<6xi8> -> tensor<6xi8>
  return %0 : tensor<6xi8>
}
func.func @leaky_tflite(%x: tensor<6xi8>) -> tensor<6xi8> {
  %0 = qnn.leaky_relu %x {alpha = 0.25 : f32, input_scale = 1.0 : f32, input_zero_point = 0 : i32, output_scale = 1.0 : f32, output_zero_point = 0 : i32} : tensor<6xi8> -> tensor<6xi8>
  return %0 : tensor<6xi8>
}

// Hard-swish, input scale 1, output scale 1/3 (f(x) * 3): ONNX's f(-3) = 0,
// f(1) = 1 * (1/6 + 0.5) = 0.6666667 -> 2.0000002 -> 2; f(-1) = -1/3 * 3 = -1;
// x = 3 -> 3 * 3 = 9. TFLite's table agrees here: the rules differ in the
// formula, not on these values.
// RUN: %mkbin %t.h i8 -3 1 -1 3
// RUN: qnn-run --reference %s --entry hswish_onnx --input %t.h --print-values | FileCheck %s --check-prefix=HONNX
// RUN: qnn-run %s --entry hswish_onnx --input %t.h --print-values --compare-reference | FileCheck %s --check-prefix=HONNX
// HONNX: values 0: 0 2 -1 9
func.func @hswish_onnx(%x: tensor<4xi8>) -> tensor<4xi8> {
  %0 = qnn.hardswish %x {input_scale = 1.0 : f32, input_zero_point = 0 : i32, output_scale = 0.333333343 : f32, output_zero_point = 0 : i32, rounding = #qnn.rounding<onnx>} : tensor<4xi8> -> tensor<4xi8>
  return %0 : tensor<4xi8>
}
