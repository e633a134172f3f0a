// qnn.add and qnn.mul with TFLite's integer arithmetic, NumPy broadcasting.

// Scales 0.5, 0.5 -> 1: 1.5 + 1.0 = 2.5 -> 3 (the final divide rounds halves
// away from zero), -2.5 -> -3, 63.5 + 63.5 = 127.
// RUN: %mkbin %t.a i8 3 -3 127
// RUN: %mkbin %t.b i8 2 -2 127
// RUN: qnn-run --reference %s --entry add_i8 --input %t.a --input %t.b --print-values | FileCheck %s --check-prefix=ADD
// ADD: values 0: 3 -3 127
func.func @add_i8(%a: tensor<3xi8>, %b: tensor<3xi8>) -> tensor<3xi8> {
  %0 = qnn.add %a, %b {lhs_scale = 0.5 : f32, lhs_zero_point = 0 : i32, rhs_scale = 0.5 : f32, rhs_zero_point = 0 : i32, output_scale = 1.0 : f32, output_zero_point = 0 : i32} : (tensor<3xi8>, tensor<3xi8>) -> tensor<3xi8>
  return %0 : tensor<3xi8>
}

// Broadcast [2, 2] + [1, 2] at unit scales; ui8 zero points 128 / 0 / 10
// with scales 0.5 / 0.5 / 1: (130-128)*0.5 + 4*0.5 = 3 + 10 = 13.
// RUN: %mkbin %t.c u8 130 132 128 0
// RUN: %mkbin %t.d u8 4 8
// RUN: qnn-run --reference %s --entry add_broadcast_u8 --input %t.c --input %t.d --print-values | FileCheck %s --check-prefix=ADDB
// (132-128)*0.5 + 8*0.5 = 6 -> 16; 0 + 2 -> 12; -64 + 4 = -60 -> 0.
// ADDB: values 0: 13 16 12 0
func.func @add_broadcast_u8(%a: tensor<2x2xui8>, %b: tensor<1x2xui8>) -> tensor<2x2xui8> {
  %0 = qnn.add %a, %b {lhs_scale = 0.5 : f32, lhs_zero_point = 128 : i32, rhs_scale = 0.5 : f32, rhs_zero_point = 0 : i32, output_scale = 1.0 : f32, output_zero_point = 10 : i32} : (tensor<2x2xui8>, tensor<1x2xui8>) -> tensor<2x2xui8>
  return %0 : tensor<2x2xui8>
}

// Multiplier 0.5 * 0.5 / 0.5 = 0.5: 3 * 1 * 0.5 = 1.5 -> 2, -1.5 -> -1
// (halves toward +infinity in the high multiply), 10000 * 0.5 -> 127.
// RUN: %mkbin %t.e i8 3 -3 100
// RUN: %mkbin %t.f i8 1 1 100
// RUN: qnn-run --reference %s --entry mul_i8 --input %t.e --input %t.f --print-values | FileCheck %s --check-prefix=MUL
// MUL: values 0: 2 -1 127
func.func @mul_i8(%a: tensor<3xi8>, %b: tensor<3xi8>) -> tensor<3xi8> {
  %0 = qnn.mul %a, %b {lhs_scale = 0.5 : f32, lhs_zero_point = 0 : i32, rhs_scale = 0.5 : f32, rhs_zero_point = 0 : i32, output_scale = 0.5 : f32, output_zero_point = 0 : i32} : (tensor<3xi8>, tensor<3xi8>) -> tensor<3xi8>
  return %0 : tensor<3xi8>
}

// Broadcast a scalar-like [1, 1] over [2, 2], ui8 zero points 128 / 10 / 5:
// (140-128) * (20-10) * 0.5 + 5 = 65; (128-128) -> 5; (130-128) -> 15;
// (0-128) * 10 * 0.5 = -640 -> 0.
// RUN: %mkbin %t.g u8 140 128 130 0
// RUN: %mkbin %t.h u8 20
// RUN: qnn-run --reference %s --entry mul_broadcast_u8 --input %t.g --input %t.h --print-values | FileCheck %s --check-prefix=MULB
// MULB: values 0: 65 5 15 0
func.func @mul_broadcast_u8(%a: tensor<2x2xui8>, %b: tensor<1x1xui8>) -> tensor<2x2xui8> {
  %0 = qnn.mul %a, %b {lhs_scale = 0.5 : f32, lhs_zero_point = 128 : i32, rhs_scale = 0.5 : f32, rhs_zero_point = 10 : i32, output_scale = 0.5 : f32, output_zero_point = 5 : i32} : (tensor<2x2xui8>, tensor<1x1xui8>) -> tensor<2x2xui8>
  return %0 : tensor<2x2xui8>
}

// qnn.subtract: TFLite's ADD sequence with the rhs multiplier negated.
// Scales 0.5, 0.5 -> 1: 1.5 - 1.0 = 0.5 -> 1; -1.5 + 1.0 = -0.5 -> -1
// (away from zero) under double rounding but 0 (halves up) under single
// rounding; 63.5 + 64 = 127.5 -> 127; -64 - 63.5 = -127.5 -> -128 (double)
// or -127 (single).
// RUN: %mkbin %t.s1 i8 3 -3 127 -128
// RUN: %mkbin %t.s2 i8 2 -2 -128 127
// RUN: qnn-run --reference %s --entry subtract_i8 --input %t.s1 --input %t.s2 --print-values | FileCheck %s --check-prefix=SUB
// SUB: values 0: 1 -1 127 -128
// RUN: qnn-run --reference %s --entry subtract_i8_single --input %t.s1 --input %t.s2 --print-values | FileCheck %s --check-prefix=SUB-SINGLE
// SUB-SINGLE: values 0: 1 0 127 -127
func.func @subtract_i8(%a: tensor<4xi8>, %b: tensor<4xi8>) -> tensor<4xi8> {
  %0 = qnn.subtract %a, %b {lhs_scale = 0.5 : f32, lhs_zero_point = 0 : i32, rhs_scale = 0.5 : f32, rhs_zero_point = 0 : i32, output_scale = 1.0 : f32, output_zero_point = 0 : i32} : (tensor<4xi8>, tensor<4xi8>) -> tensor<4xi8>
  return %0 : tensor<4xi8>
}
func.func @subtract_i8_single(%a: tensor<4xi8>, %b: tensor<4xi8>) -> tensor<4xi8> {
  %0 = qnn.subtract %a, %b {lhs_scale = 0.5 : f32, lhs_zero_point = 0 : i32, rhs_scale = 0.5 : f32, rhs_zero_point = 0 : i32, output_scale = 1.0 : f32, output_zero_point = 0 : i32, rounding = #qnn.rounding<tflite_single>} : (tensor<4xi8>, tensor<4xi8>) -> tensor<4xi8>
  return %0 : tensor<4xi8>
}
