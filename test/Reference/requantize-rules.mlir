// qnn.requantize under the three rounding rules. Multiplier 0.5
// (input_scale 0.5, output_scale 1): -1.5 -> -1 (tflite: high multiply
// rounds halves up), -1 (upward), -2 (tonearest: away from zero);
// -0.5 -> 0, 0, -1; 1.5 -> 2; 3.5 -> 4; +-300 saturate to i8.

// RUN: %mkbin %t.x i32 -3 3 7 600 -600 -1
// RUN: qnn-run --reference %s --entry tflite --input %t.x --print-values | FileCheck %s --check-prefix=TFL
// RUN: qnn-run --reference %s --entry upward --input %t.x --print-values | FileCheck %s --check-prefix=UP
// RUN: qnn-run --reference %s --entry tonearest --input %t.x --print-values | FileCheck %s --check-prefix=TN
// TFL: values 0: -1 2 4 127 -128 0
// UP: values 0: -1 2 4 127 -128 0
// TN: values 0: -2 2 4 127 -128 -1
func.func @tflite(%x: tensor<6xi32>) -> tensor<6xi8> {
  %0 = qnn.requantize %x {input_scale = array<f64: 0.5>, input_zero_point = 0 : i32, output_scale = 1.0 : f32, output_zero_point = 0 : i32} : tensor<6xi32> -> tensor<6xi8>
  return %0 : tensor<6xi8>
}
func.func @upward(%x: tensor<6xi32>) -> tensor<6xi8> {
  %0 = qnn.requantize %x {input_scale = array<f64: 0.5>, input_zero_point = 0 : i32, output_scale = 1.0 : f32, output_zero_point = 0 : i32, rounding = #qnn.rounding<upward>} : tensor<6xi32> -> tensor<6xi8>
  return %0 : tensor<6xi8>
}
func.func @tonearest(%x: tensor<6xi32>) -> tensor<6xi8> {
  %0 = qnn.requantize %x {input_scale = array<f64: 0.5>, input_zero_point = 0 : i32, output_scale = 1.0 : f32, output_zero_point = 0 : i32, rounding = #qnn.rounding<tonearest>} : tensor<6xi32> -> tensor<6xi8>
  return %0 : tensor<6xi8>
}

// Double rounding (toolchain-notes): multiplier 2^-4, 7 -> 0.4375. TFLite
// rounds 3.5 -> 4 in the high multiply, then 4 / 8 = 0.5 -> 1; the
// single-rounding rules give 0. -7: tflite -3 then -0.375 -> 0.
// RUN: %mkbin %t.d i32 7 -7
// RUN: qnn-run --reference %s --entry double_tflite --input %t.d --print-values | FileCheck %s --check-prefix=DTFL
// RUN: qnn-run --reference %s --entry double_upward --input %t.d --print-values | FileCheck %s --check-prefix=DUP
// DTFL: values 0: 1 0
// DUP: values 0: 0 0
func.func @double_tflite(%x: tensor<2xi32>) -> tensor<2xi8> {
  %0 = qnn.requantize %x {input_scale = array<f64: 0.0625>, input_zero_point = 0 : i32, output_scale = 1.0 : f32, output_zero_point = 0 : i32} : tensor<2xi32> -> tensor<2xi8>
  return %0 : tensor<2xi8>
}
func.func @double_upward(%x: tensor<2xi32>) -> tensor<2xi8> {
  %0 = qnn.requantize %x {input_scale = array<f64: 0.0625>, input_zero_point = 0 : i32, output_scale = 1.0 : f32, output_zero_point = 0 : i32, rounding = #qnn.rounding<upward>} : tensor<2xi32> -> tensor<2xi8>
  return %0 : tensor<2xi8>
}

// Per-channel along axis 1: multipliers 0.125/0.5 = 0.25 and 0.375/0.5 =
// 0.75, output zero point 3 (ui8): 10*0.25 = 2.5 -> 3, 10*0.75 = 7.5 -> 8,
// -4*0.25 = -1, 4*0.75 = 3; all + 3. Row 3: -40*0.25 = -10 + 3 -> clamp 0.
// RUN: %mkbin %t.pc i32 10 10 -4 4 -40 400
// RUN: qnn-run --reference %s --entry per_channel --input %t.pc --print-values | FileCheck %s --check-prefix=PC
// PC: result 0: tensor<3x2xui8>
// PC-NEXT: values 0: 6 11 2 6 0 255
func.func @per_channel(%x: tensor<3x2xi32>) -> tensor<3x2xui8> {
  %0 = qnn.requantize %x {axis = 1 : i64, input_scale = array<f64: 0.125, 0.375>, input_zero_point = 0 : i32, output_scale = 0.5 : f32, output_zero_point = 3 : i32} : tensor<3x2xi32> -> tensor<3x2xui8>
  return %0 : tensor<3x2xui8>
}

// Input zero point 5, multiplier 3 (> 1, a left shift), i32 output with zero
// point -1: (5-5)*3-1 = -1, (6-5)*3-1 = 2, (0-5)*3-1 = -16. Upward on
// 2000000000: exact 6e9 saturates to INT32_MAX, -1 -> INT32_MAX - 1.
// RUN: %mkbin %t.ls i32 5 6 0 2000000000
// RUN: qnn-run --reference %s --entry left_shift --input %t.ls --print-values | FileCheck %s --check-prefix=LS
// LS: values 0: -1 2 -16 2147483646
func.func @left_shift(%x: tensor<4xi32>) -> tensor<4xi32> {
  %0 = qnn.requantize %x {input_scale = array<f64: 3.0>, input_zero_point = 5 : i32, output_scale = 1.0 : f32, output_zero_point = -1 : i32, rounding = #qnn.rounding<upward>} : tensor<4xi32> -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// A multiplier below 2^-32 is flushed to zero: only the zero point remains.
// RUN: %mkbin %t.fl i32 2147483647 -2147483648
// RUN: qnn-run --reference %s --entry flushed --input %t.fl --print-values | FileCheck %s --check-prefix=FL
// FL: values 0: 7 7
func.func @flushed(%x: tensor<2xi32>) -> tensor<2xi8> {
  %0 = qnn.requantize %x {input_scale = array<f64: 1.0e-12>, input_zero_point = 0 : i32, output_scale = 1.0 : f32, output_zero_point = 7 : i32} : tensor<2xi32> -> tensor<2xi8>
  return %0 : tensor<2xi8>
}

// ONNX's rule (float32, halves to even) against TFLite's and TVM's on the
// ties x * 0.5 for x = 1, 5, -5, -1, -3, 3: 0.5 -> 0, 2.5 -> 2, -2.5 -> -2,
// -0.5 -> 0, -1.5 -> -2, 1.5 -> 2; TFLite's single rounding rounds halves
// up (1 3 -2 0 -1 2), TVM's tonearest away from zero (1 3 -3 -1 -2 2).
// RUN: %mkbin %t.ties i32 1 5 -5 -1 -3 3
// RUN: qnn-run --reference %s --entry onnx_ties --input %t.ties --print-values | FileCheck %s --check-prefix=ONNX
// RUN: qnn-run --reference %s --entry single_ties --input %t.ties --print-values | FileCheck %s --check-prefix=SINGLE
// RUN: qnn-run %s --target generic --entry onnx_ties --input %t.ties --print-values --compare-reference | FileCheck %s --check-prefix=ONNX
// ONNX: values 0: 0 2 -2 0 -2 2
// SINGLE: values 0: 1 3 -2 0 -1 2
func.func @onnx_ties(%x: tensor<6xi32>) -> tensor<6xi8> {
  %0 = qnn.requantize %x {input_scale = array<f64: 0.5>, input_zero_point = 0 : i32, output_scale = 1.0 : f32, output_zero_point = 0 : i32, rounding = #qnn.rounding<onnx>} : tensor<6xi32> -> tensor<6xi8>
  return %0 : tensor<6xi8>
}
func.func @single_ties(%x: tensor<6xi32>) -> tensor<6xi8> {
  %0 = qnn.requantize %x {input_scale = array<f64: 0.5>, input_zero_point = 0 : i32, output_scale = 1.0 : f32, output_zero_point = 0 : i32, rounding = #qnn.rounding<tflite_single>} : tensor<6xi32> -> tensor<6xi8>
  return %0 : tensor<6xi8>
}

// The ONNX rule converts to float32: 2^25 + 1 becomes 2^25, so * 0.5 gives
// 2^24 where the exact rules give 2^24 + 1 (rounded up from 2^24 + 0.5).
// The identity requantize of i32 under it is not folded away (2^24 + 1 ->
// 2^24). Under both rules, the folder computes what the evaluator does.
// RUN: %mkbin %t.big i32 33554433 16777217
// RUN: qnn-run --reference %s --entry onnx_float --input %t.big --print-values | FileCheck %s --check-prefix=OFLOAT
// RUN: qnn-run %s --target generic --entry onnx_float --input %t.big --print-values --compare-reference | FileCheck %s --check-prefix=OFLOAT
// OFLOAT: values 0: 16777216 8388608
// OFLOAT: values 1: 33554432 16777216
// RUN: qnn-opt %s --canonicalize | FileCheck %s --check-prefix=NOFOLD
// NOFOLD-LABEL: func.func @onnx_float
// NOFOLD-COUNT-2: qnn.requantize
func.func @onnx_float(%x: tensor<2xi32>) -> (tensor<2xi32>, tensor<2xi32>) {
  %0 = qnn.requantize %x {input_scale = array<f64: 0.5>, input_zero_point = 0 : i32, output_scale = 1.0 : f32, output_zero_point = 0 : i32, rounding = #qnn.rounding<onnx>} : tensor<2xi32> -> tensor<2xi32>
  %1 = qnn.requantize %x {input_scale = array<f64: 1.0>, input_zero_point = 0 : i32, output_scale = 1.0 : f32, output_zero_point = 0 : i32, rounding = #qnn.rounding<onnx>} : tensor<2xi32> -> tensor<2xi32>
  return %0, %1 : tensor<2xi32>, tensor<2xi32>
}
