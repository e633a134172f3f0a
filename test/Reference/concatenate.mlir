// qnn.concatenate: inputs with the output's parameters are copied; others
// follow TFLite's uint8 ConcatenationWithScaling in float32:
// round_half_away(x * (in_scale / out_scale) - in_zp * scale) + out_zp.

// Second input: scale 0.5 -> 1, zero point 2 -> 10:
// 5*0.5 - 1 = 1.5 -> 2 + 10 = 12; 0 -> -1 + 10 = 9; 255 -> 126.5 -> 127
// + 10 = 137. The first input (same parameters) is copied.
// RUN: %mkbin %t.a u8 5 250
// RUN: %mkbin %t.b u8 5 0 255
// RUN: qnn-run --reference %s --entry rescaled --input %t.a --input %t.b --print-values | FileCheck %s --check-prefix=RS
// RS: values 0: 5 250 12 9 137
func.func @rescaled(%a: tensor<1x2xui8>, %b: tensor<1x3xui8>) -> tensor<1x5xui8> {
  %0 = qnn.concatenate %a, %b {axis = 1 : i64, input_scales = array<f32: 1.0, 0.5>, input_zero_points = array<i32: 10, 2>, output_scale = 1.0 : f32, output_zero_point = 10 : i32} : (tensor<1x2xui8>, tensor<1x3xui8>) -> tensor<1x5xui8>
  return %0 : tensor<1x5xui8>
}

// Axis 0 of i8 inputs with equal parameters: a copy.
// RUN: %mkbin %t.c i8 1 -2
// RUN: %mkbin %t.d i8 -128 127 3 4
// RUN: qnn-run --reference %s --entry axis0 --input %t.c --input %t.d --print-values | FileCheck %s --check-prefix=AX0
// AX0: values 0: 1 -2 -128 127 3 4
func.func @axis0(%a: tensor<1x2xi8>, %b: tensor<2x2xi8>) -> tensor<3x2xi8> {
  %0 = qnn.concatenate %a, %b {axis = 0 : i64, input_scales = array<f32: 0.5, 0.5>, input_zero_points = array<i32: 0, 0>, output_scale = 0.5 : f32, output_zero_point = 0 : i32} : (tensor<1x2xi8>, tensor<2x2xi8>) -> tensor<3x2xi8>
  return %0 : tensor<3x2xi8>
}

// Every u8 value through rescales 0.1 -> 0.3 and 0.7 -> 0.3 (used by
// test/Execution/concatenate.test to compare with the native code).
func.func @rescaled_wide(%a: tensor<1x256xui8>, %b: tensor<1x256xui8>) -> tensor<1x512xui8> {
  %0 = qnn.concatenate %a, %b {axis = 1 : i64, input_scales = array<f32: 0.1, 0.7>, input_zero_points = array<i32: 3, 128>, output_scale = 0.3 : f32, output_zero_point = 100 : i32} : (tensor<1x256xui8>, tensor<1x256xui8>) -> tensor<1x512xui8>
  return %0 : tensor<1x512xui8>
}
