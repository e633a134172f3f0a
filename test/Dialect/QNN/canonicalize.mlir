// RUN: qnn-opt %s --canonicalize --split-input-file | FileCheck %s

// Halves round away from zero, values saturate, NaN becomes the zero point.
// CHECK-LABEL: func @fold_quantize_constant_i8
// CHECK: %[[C:.+]] = arith.constant dense<[-2, -4, 127, -128, -3, -1]> : tensor<6xi8>
// CHECK-NOT: qnn.quantize
// CHECK: return %[[C]]
func.func @fold_quantize_constant_i8() -> tensor<6xi8> {
  %f = arith.constant dense<[0.25, -0.25, 1000.0, -1000.0, 0x7FC00000, 1.0]> : tensor<6xf32>
  %0 = qnn.quantize %f {scale = array<f32: 0.5>, zero_point = array<i32: -3>} : tensor<6xf32> -> tensor<6xi8>
  return %0 : tensor<6xi8>
}

// -----

// CHECK-LABEL: func @fold_quantize_constant_u8
// CHECK: arith.constant dense<[138, 0, 255, 255]> : tensor<4xui8>
// CHECK-NOT: qnn.quantize
func.func @fold_quantize_constant_u8() -> tensor<4xui8> {
  %f = arith.constant dense<[1.0, -12.8, 12.7, 100.0]> : tensor<4xf32>
  %0 = qnn.quantize %f {scale = array<f32: 0.1>, zero_point = array<i32: 128>} : tensor<4xf32> -> tensor<4xui8>
  return %0 : tensor<4xui8>
}

// -----

// Per-channel weights along axis 0, as PyTorch exports them.
// CHECK-LABEL: func @fold_quantize_constant_per_channel
// CHECK: arith.constant dense<{{\[}}[2, 4], [4, 8]]> : tensor<2x2xi8>
func.func @fold_quantize_constant_per_channel() -> tensor<2x2xi8> {
  %f = arith.constant dense<[[1.0, 2.0], [1.0, 2.0]]> : tensor<2x2xf32>
  %0 = qnn.quantize %f {axis = 0 : i64, scale = array<f32: 0.5, 0.25>, zero_point = array<i32: 0>} : tensor<2x2xf32> -> tensor<2x2xi8>
  return %0 : tensor<2x2xi8>
}

// -----

// Float biases quantized to i32 with scale input_scale * weight_scale.
// CHECK-LABEL: func @fold_quantize_constant_i32_bias
// CHECK: arith.constant dense<[-300, 0, 12345]> : tensor<3xi32>
func.func @fold_quantize_constant_i32_bias() -> tensor<3xi32> {
  %f = arith.constant dense<[-0.0234375, 0.0, 0.96445312]> : tensor<3xf32>
  %0 = qnn.quantize %f {scale = array<f32: 7.8125e-05>, zero_point = array<i32: 0>} : tensor<3xf32> -> tensor<3xi32>
  return %0 : tensor<3xi32>
}

// -----

// CHECK-LABEL: func @fold_quantize_of_dequantize
// CHECK-SAME: (%[[X:.+]]: tensor<4xui8>)
// CHECK-NOT: qnn.
// CHECK: return %[[X]]
func.func @fold_quantize_of_dequantize(%x: tensor<4xui8>) -> tensor<4xui8> {
  %0 = qnn.dequantize %x {scale = array<f32: 0.0235294122>, zero_point = array<i32: 3>} : tensor<4xui8> -> tensor<4xf32>
  %1 = qnn.quantize %0 {scale = array<f32: 0.0235294122>, zero_point = array<i32: 3>} : tensor<4xf32> -> tensor<4xui8>
  return %1 : tensor<4xui8>
}

// -----

// Different parameters: a real requantization, kept.
// CHECK-LABEL: func @keep_quantize_of_dequantize_other_params
// CHECK: qnn.dequantize
// CHECK: qnn.quantize
func.func @keep_quantize_of_dequantize_other_params(%x: tensor<4xui8>) -> tensor<4xui8> {
  %0 = qnn.dequantize %x {scale = array<f32: 0.0235294122>, zero_point = array<i32: 3>} : tensor<4xui8> -> tensor<4xf32>
  %1 = qnn.quantize %0 {scale = array<f32: 0.05>, zero_point = array<i32: 3>} : tensor<4xf32> -> tensor<4xui8>
  return %1 : tensor<4xui8>
}

// -----

// CHECK-LABEL: func @fold_identity_requantize_i8
// CHECK-SAME: (%[[X:.+]]: tensor<4xi8>)
// CHECK-NOT: qnn.requantize
// CHECK: return %[[X]]
func.func @fold_identity_requantize_i8(%x: tensor<4xi8>) -> tensor<4xi8> {
  %0 = qnn.requantize %x {input_scale = array<f64: 0.5>, input_zero_point = -4 : i32, output_scale = 0.5 : f32, output_zero_point = -4 : i32} : tensor<4xi8> -> tensor<4xi8>
  return %0 : tensor<4xi8>
}

// -----

// Under the TFLite rule a multiplier of 1 is a 32-bit left shift that wraps
// for |x| >= 2^30, so an i32 identity is not an identity: keep it.
// CHECK-LABEL: func @keep_identity_requantize_i32_tflite
// CHECK: qnn.requantize
func.func @keep_identity_requantize_i32_tflite(%x: tensor<4xi32>) -> tensor<4xi32> {
  %0 = qnn.requantize %x {input_scale = array<f64: 0.5>, input_zero_point = 0 : i32, output_scale = 0.5 : f32, output_zero_point = 0 : i32} : tensor<4xi32> -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

// CHECK-LABEL: func @fold_identity_requantize_i32_upward
// CHECK-NOT: qnn.requantize
func.func @fold_identity_requantize_i32_upward(%x: tensor<4xi32>) -> tensor<4xi32> {
  %0 = qnn.requantize %x {input_scale = array<f64: 0.5>, input_zero_point = 0 : i32, output_scale = 0.5 : f32, output_zero_point = 0 : i32, rounding = #qnn.rounding<upward>} : tensor<4xi32> -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

// Same scales but a different zero point is a shift, not an identity.
// CHECK-LABEL: func @keep_requantize_zero_point_change
// CHECK: qnn.requantize
func.func @keep_requantize_zero_point_change(%x: tensor<4xi8>) -> tensor<4xi8> {
  %0 = qnn.requantize %x {input_scale = array<f64: 0.5>, input_zero_point = 0 : i32, output_scale = 0.5 : f32, output_zero_point = 1 : i32} : tensor<4xi8> -> tensor<4xi8>
  return %0 : tensor<4xi8>
}

// -----

// Multiplier 2^-4 (Q31 2^30, shift -3). TFLite rounds twice: 7/16 -> 1 and
// -8/16 -> -1; TVM's UPWARD rounds once toward +inf (7 -> 0, -8 -> 0) and
// TONEAREST once away from zero (7 -> 0, -8 -> -1).
// CHECK-LABEL: func @fold_requantize_constant_roundings
// CHECK-DAG: arith.constant dense<[6, -6, 1, -1, 3]> : tensor<5xi8>
// CHECK-DAG: arith.constant dense<[6, -6, 0, 0, 3]> : tensor<5xi8>
// CHECK-DAG: arith.constant dense<[6, -6, 0, -1, 3]> : tensor<5xi8>
// CHECK-NOT: qnn.requantize
func.func @fold_requantize_constant_roundings() -> (tensor<5xi8>, tensor<5xi8>, tensor<5xi8>) {
  %c = arith.constant dense<[100, -100, 7, -8, 50]> : tensor<5xi32>
  %0 = qnn.requantize %c {input_scale = array<f64: 0.0625>, input_zero_point = 0 : i32, output_scale = 1.0 : f32, output_zero_point = 0 : i32} : tensor<5xi32> -> tensor<5xi8>
  %1 = qnn.requantize %c {input_scale = array<f64: 0.0625>, input_zero_point = 0 : i32, output_scale = 1.0 : f32, output_zero_point = 0 : i32, rounding = #qnn.rounding<upward>} : tensor<5xi32> -> tensor<5xi8>
  %2 = qnn.requantize %c {input_scale = array<f64: 0.0625>, input_zero_point = 0 : i32, output_scale = 1.0 : f32, output_zero_point = 0 : i32, rounding = #qnn.rounding<tonearest>} : tensor<5xi32> -> tensor<5xi8>
  return %0, %1, %2 : tensor<5xi8>, tensor<5xi8>, tensor<5xi8>
}

// -----

// Per-channel requantize of a constant to ui8 with an output zero point:
// channel 0 multiplier 0.5 (Q31 2^30, shift 0: the rounding is the doubling
// high multiply alone, so -0.5 goes toward +inf to 0 while 0.5 goes to 1),
// channel 1 multiplier 2 (a left shift), saturating at both ends of ui8.
// CHECK-LABEL: func @fold_requantize_constant_per_channel_u8
// CHECK: arith.constant dense<{{\[}}[15, 50], [10, 255], [11, 0]]> : tensor<3x2xui8>
func.func @fold_requantize_constant_per_channel_u8() -> tensor<3x2xui8> {
  %c = arith.constant dense<[[10, 20], [-1, 200], [1, -100]]> : tensor<3x2xi32>
  %0 = qnn.requantize %c {axis = 1 : i64, input_scale = array<f64: 0.5, 2.0>, input_zero_point = 0 : i32, output_scale = 1.0 : f32, output_zero_point = 10 : i32} : tensor<3x2xi32> -> tensor<3x2xui8>
  return %0 : tensor<3x2xui8>
}
