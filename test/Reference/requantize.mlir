// Hand-computed requantize results under each rounding rule.
// RUN: %mkbin %t.acc i32 100 -100 7 -8 50 2147483647 -2147483648
// RUN: qnn-run --reference %s --entry tflite --input %t.acc --print-values | FileCheck %s --check-prefix=TFLITE
// RUN: qnn-run --reference %s --entry upward --input %t.acc --print-values | FileCheck %s --check-prefix=UPWARD
// RUN: qnn-run --reference %s --entry tonearest --input %t.acc --print-values | FileCheck %s --check-prefix=NEAREST
// RUN: %mkbin %t.i8 i8 10 -10 50 -43
// RUN: qnn-run --reference %s --entry large_multiplier --input %t.i8 --print-values | FileCheck %s --check-prefix=LARGE
// RUN: %mkbin %t.big i32 2147483647 5 -2147483648
// RUN: qnn-run --reference %s --entry tiny_multiplier --input %t.big --print-values | FileCheck %s --check-prefix=TINY
// RUN: %mkbin %t.pc i32 10 20 -1 200 1 -100
// RUN: qnn-run --reference %s --entry per_channel_u8 --input %t.pc --print-values | FileCheck %s --check-prefix=PERCHANNEL
// RUN: %mkbin %t.u8 u8 0 128 255 129
// RUN: qnn-run --reference %s --entry u8_to_i8 --input %t.u8 --print-values | FileCheck %s --check-prefix=U8I8
// RUN: %mkbin %t.relu6 i32 -500 0 1000 4000 100000
// RUN: qnn-run --reference %s --entry relu6_range --input %t.relu6 --print-values | FileCheck %s --check-prefix=RELU6

// Multiplier 2^-4 (Q31 2^30, shift -3). TFLite rounds twice: 7/16 -> 1 (the
// high multiply rounds 7/2 up to 4, then 4/8 = 0.5 rounds away from zero);
// -8/16 = -0.5 -> -1. i32 extremes saturate to the i8 range.
// TFLITE: values 0: 6 -6 1 -1 3 127 -128
func.func @tflite(%x: tensor<7xi32>) -> tensor<7xi8> {
  %0 = qnn.requantize %x {input_scale = array<f64: 0.0625>, input_zero_point = 0 : i32, output_scale = 1.0 : f32, output_zero_point = 0 : i32} : tensor<7xi32> -> tensor<7xi8>
  return %0 : tensor<7xi8>
}

// The TVM upward rule: one rounding of the exact product, halves toward +infinity.
// UPWARD: values 0: 6 -6 0 0 3 127 -128
func.func @upward(%x: tensor<7xi32>) -> tensor<7xi8> {
  %0 = qnn.requantize %x {input_scale = array<f64: 0.0625>, input_zero_point = 0 : i32, output_scale = 1.0 : f32, output_zero_point = 0 : i32, rounding = #qnn.rounding<upward>} : tensor<7xi32> -> tensor<7xi8>
  return %0 : tensor<7xi8>
}

// The TVM to-nearest rule: one rounding, halves away from zero.
// NEAREST: values 0: 6 -6 0 -1 3 127 -128
func.func @tonearest(%x: tensor<7xi32>) -> tensor<7xi8> {
  %0 = qnn.requantize %x {input_scale = array<f64: 0.0625>, input_zero_point = 0 : i32, output_scale = 1.0 : f32, output_zero_point = 0 : i32, rounding = #qnn.rounding<tonearest>} : tensor<7xi32> -> tensor<7xi8>
  return %0 : tensor<7xi8>
}

// Multiplier 3 > 1: a left shift by 2 and Q31 0.75; saturation at both ends.
// LARGE: values 0: 30 -30 127 -128
func.func @large_multiplier(%x: tensor<4xi8>) -> tensor<4xi8> {
  %0 = qnn.requantize %x {input_scale = array<f64: 3.0>, input_zero_point = 0 : i32, output_scale = 1.0 : f32, output_zero_point = 0 : i32} : tensor<4xi8> -> tensor<4xi8>
  return %0 : tensor<4xi8>
}

// A multiplier below 2^-31 is flushed to zero: only the zero point remains.
// TINY: values 0: 3 3 3
func.func @tiny_multiplier(%x: tensor<3xi32>) -> tensor<3xi8> {
  %0 = qnn.requantize %x {input_scale = array<f64: 1.0e-10>, input_zero_point = 0 : i32, output_scale = 1.0 : f32, output_zero_point = 3 : i32} : tensor<3xi32> -> tensor<3xi8>
  return %0 : tensor<3xi8>
}

// Per-channel along axis 1: multipliers 0.5 and 2, output zero point 10.
// With shift 0 the rounding is the doubling high multiply alone: -0.5 -> 0
// (toward +infinity), 0.5 -> 1.
// PERCHANNEL: values 0: 15 50 10 255 11 0
func.func @per_channel_u8(%x: tensor<3x2xi32>) -> tensor<3x2xui8> {
  %0 = qnn.requantize %x {axis = 1 : i64, input_scale = array<f64: 0.5, 2.0>, input_zero_point = 0 : i32, output_scale = 1.0 : f32, output_zero_point = 10 : i32} : tensor<3x2xi32> -> tensor<3x2xui8>
  return %0 : tensor<3x2xui8>
}

// uint8 with zero point 128 to int8 with zero point 0, same scale.
// U8I8: values 0: -128 0 127 1
func.func @u8_to_i8(%x: tensor<4xui8>) -> tensor<4xi8> {
  %0 = qnn.requantize %x {input_scale = array<f64: 0.5>, input_zero_point = 128 : i32, output_scale = 0.5 : f32, output_zero_point = 0 : i32} : tensor<4xui8> -> tensor<4xi8>
  return %0 : tensor<4xi8>
}

// A fused RELU6 is the output range [zp, zp + round(6 / scale)]: with scale
// 1/32 and zero point -128 that is [-128, 64]; a tosa.clamp expresses it.
// Multiplier (1/256) / (1/32) = 1/8.
// RELU6: values 0: -128 -128 -3 64 64
func.func @relu6_range(%x: tensor<5xi32>) -> tensor<5xi8> {
  %0 = qnn.requantize %x {input_scale = array<f64: 0.00390625>, input_zero_point = 0 : i32, output_scale = 0.03125 : f32, output_zero_point = -128 : i32} : tensor<5xi32> -> tensor<5xi8>
  %1 = tosa.clamp %0 {min_val = -128 : i8, max_val = 64 : i8} : (tensor<5xi8>) -> tensor<5xi8>
  return %1 : tensor<5xi8>
}
