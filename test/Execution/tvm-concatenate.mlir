// TVM QNN parity: qnn.concatenate with rounding = upward or tonearest is
// TVM's qnn.concatenate: an input whose scale or zero point differs from the
// output's is requantized to them with TVM's rule (as qnn.requantize), one
// with the output's parameters is copied; i32 tensors are allowed (TVM
// concatenates i32). Expected integers computed by hand from the rule:
//   a (scale 0.2 -> 0.4, multiplier exactly 0.5, zp 0 -> 5):
//     -3 -> -1.5, -1 -> -0.5, 1 -> 0.5, 3 -> 1.5, 7 -> 3.5, 2e9 -> 1e9;
//     upward (halves toward +inf): -1 0 1 2 4 1e9, + 5;
//     tonearest (halves away from zero): -2 -1 1 2 4 1e9, + 5.
//   b (the output's parameters): copied.
//   c (scale 0.8 -> 0.4, multiplier 2): INT32_MAX and INT32_MIN double,
//     saturate to i32, + 5, clamp to i32: 2147483647, -2147483643.
//   u8 (scale 0.2, zp 1 -> 0.4, zp 128): x - 1 = -1 0 2 254 -> -0.5 0 1 127;
//     upward 0 0 1 127, tonearest -1 0 1 127, + 128.
// The reference evaluator and native code print the same values.
// RUN: %mkbin %t.a i32 -3 -1 1 3 7 2000000000
// RUN: %mkbin %t.b i32 100 -100
// RUN: %mkbin %t.c i32 2147483647 -2147483648
// RUN: %mkbin %t.u u8 0 1 3 255
// RUN: %mkbin %t.v u8 7 9
// RUN: qnn-run --reference %s --entry i32_upward --input %t.a --input %t.b --input %t.c --print-values | FileCheck %s --check-prefix=UP
// RUN: qnn-run %s --entry i32_upward --input %t.a --input %t.b --input %t.c --print-values | FileCheck %s --check-prefix=UP
// RUN: qnn-run %s --entry i32_upward --target generic --input %t.a --input %t.b --input %t.c --print-values | FileCheck %s --check-prefix=UP
// UP: values 0: 4 5 6 7 9 1000000005 100 -100 2147483647 -2147483643
// RUN: qnn-run --reference %s --entry i32_tonearest --input %t.a --input %t.b --input %t.c --print-values | FileCheck %s --check-prefix=TN
// RUN: qnn-run %s --entry i32_tonearest --input %t.a --input %t.b --input %t.c --print-values | FileCheck %s --check-prefix=TN
// TN: values 0: 3 4 6 7 9 1000000005 100 -100 2147483647 -2147483643
// RUN: qnn-run --reference %s --entry u8_upward --input %t.u --input %t.v --print-values | FileCheck %s --check-prefix=U8UP
// RUN: qnn-run %s --entry u8_upward --input %t.u --input %t.v --print-values | FileCheck %s --check-prefix=U8UP
// U8UP: values 0: 128 128 129 255 7 9
// RUN: qnn-run --reference %s --entry u8_tonearest --input %t.u --input %t.v --print-values | FileCheck %s --check-prefix=U8TN
// RUN: qnn-run %s --entry u8_tonearest --input %t.u --input %t.v --print-values | FileCheck %s --check-prefix=U8TN
// U8TN: values 0: 127 128 129 255 7 9
// No npu operator takes TVM's rule: --qnn-to-npu leaves them qnn ops.
// RUN: qnn-opt --qnn-to-npu %s | FileCheck %s --check-prefix=NPU
// NPU-LABEL: func.func @i32_upward
// NPU: qnn.concatenate {{.*}}rounding = #qnn.rounding<upward>
// NPU-LABEL: func.func @u8_tonearest
// NPU: qnn.concatenate {{.*}}rounding = #qnn.rounding<tonearest>
// NPU-NOT: npu.

func.func @i32_upward(%a: tensor<6xi32>, %b: tensor<2xi32>, %c: tensor<2xi32>) -> tensor<10xi32> {
  %0 = qnn.concatenate %a, %b, %c {axis = 0 : i64, input_scales = array<f32: 0.2, 0.4, 0.8>, input_zero_points = array<i32: 0, 5, 0>, output_scale = 0.4 : f32, output_zero_point = 5 : i32, rounding = #qnn.rounding<upward>} : (tensor<6xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<10xi32>
  return %0 : tensor<10xi32>
}

func.func @i32_tonearest(%a: tensor<6xi32>, %b: tensor<2xi32>, %c: tensor<2xi32>) -> tensor<10xi32> {
  %0 = qnn.concatenate %a, %b, %c {axis = 0 : i64, input_scales = array<f32: 0.2, 0.4, 0.8>, input_zero_points = array<i32: 0, 5, 0>, output_scale = 0.4 : f32, output_zero_point = 5 : i32, rounding = #qnn.rounding<tonearest>} : (tensor<6xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<10xi32>
  return %0 : tensor<10xi32>
}

func.func @u8_upward(%u: tensor<4xui8>, %v: tensor<2xui8>) -> tensor<6xui8> {
  %0 = qnn.concatenate %u, %v {axis = 0 : i64, input_scales = array<f32: 0.2, 0.4>, input_zero_points = array<i32: 1, 128>, output_scale = 0.4 : f32, output_zero_point = 128 : i32, rounding = #qnn.rounding<upward>} : (tensor<4xui8>, tensor<2xui8>) -> tensor<6xui8>
  return %0 : tensor<6xui8>
}

func.func @u8_tonearest(%u: tensor<4xui8>, %v: tensor<2xui8>) -> tensor<6xui8> {
  %0 = qnn.concatenate %u, %v {axis = 0 : i64, input_scales = array<f32: 0.2, 0.4>, input_zero_points = array<i32: 1, 128>, output_scale = 0.4 : f32, output_zero_point = 128 : i32, rounding = #qnn.rounding<tonearest>} : (tensor<4xui8>, tensor<2xui8>) -> tensor<6xui8>
  return %0 : tensor<6xui8>
}
