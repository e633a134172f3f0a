// qnn.leaky_relu (TFLite fixed point) and the table activations.

// Unit scales, alpha 0.25: x >= 0 copied; -6 * 0.25 = -1.5: SRDHM(-6, 2^30)
// = -3, then -3 / 2 = -1.5 rounds away from zero -> -2; -128 -> -32.
// RUN: %mkbin %t.l i8 5 -6 -128 0
// RUN: qnn-run --reference %s --entry leaky_i8 --input %t.l --print-values | FileCheck %s --check-prefix=LR
// LR: values 0: 5 -2 -32 0
func.func @leaky_i8(%x: tensor<4xi8>) -> tensor<4xi8> {
  %0 = qnn.leaky_relu %x {alpha = 0.25 : f32, input_scale = 1.0 : f32, input_zero_point = 0 : i32, output_scale = 1.0 : f32, output_zero_point = 0 : i32} : tensor<4xi8> -> tensor<4xi8>
  return %0 : tensor<4xi8>
}

// ui8, zero points 128 in and out, output scale 2 (identity multiplier 0.5):
// 120 -> -8 * 0.125 = -1 + 128 = 127; 200 -> 72 * 0.5 = 36 + 128 = 164;
// 0 -> -128 * 0.125 = -16 -> 112.
// RUN: %mkbin %t.lu u8 120 200 0
// RUN: qnn-run --reference %s --entry leaky_u8 --input %t.lu --print-values | FileCheck %s --check-prefix=LRU
// LRU: values 0: 127 164 112
func.func @leaky_u8(%x: tensor<3xui8>) -> tensor<3xui8> {
  %0 = qnn.leaky_relu %x {alpha = 0.25 : f32, input_scale = 1.0 : f32, input_zero_point = 128 : i32, output_scale = 2.0 : f32, output_zero_point = 128 : i32} : tensor<3xui8> -> tensor<3xui8>
  return %0 : tensor<3xui8>
}

// hardswish at unit scales: f(3) = 3, f(2) = 10/6 -> 2, f(1) = 4/6 -> 1,
// f(-1) = -2/6 -> 0, f(-3) = 0, f(127) = 127, f(-128) = 0.
// RUN: %mkbin %t.h i8 3 2 1 -1 -3 127 -128
// RUN: qnn-run --reference %s --entry hardswish --input %t.h --print-values | FileCheck %s --check-prefix=HS
// HS: values 0: 3 2 1 0 0 127 0
func.func @hardswish(%x: tensor<7xi8>) -> tensor<7xi8> {
  %0 = qnn.hardswish %x {input_scale = 1.0 : f32, input_zero_point = 0 : i32, output_scale = 1.0 : f32, output_zero_point = 0 : i32} : tensor<7xi8> -> tensor<7xi8>
  return %0 : tensor<7xi8>
}

// sigmoid, input scale 1/16 zero point 128, output 1/256 zero point 0:
// x = 0 -> 128; x = 7.94 -> 255.9 -> 255 (clamped 256 or not); x = -8 -> 0;
// x = 1 -> 256 / (1 + e^-1) = 187.15 -> 187.
// RUN: %mkbin %t.s u8 128 255 0 144
// RUN: qnn-run --reference %s --entry sigmoid --input %t.s --print-values | FileCheck %s --check-prefix=SIG
// SIG: values 0: 128 255 0 187
func.func @sigmoid(%x: tensor<4xui8>) -> tensor<4xui8> {
  %0 = qnn.sigmoid %x {input_scale = 0.0625 : f32, input_zero_point = 128 : i32, output_scale = 0.00390625 : f32, output_zero_point = 0 : i32} : tensor<4xui8> -> tensor<4xui8>
  return %0 : tensor<4xui8>
}

// tanh, input scale 1/16, output 1/128 (i8): tanh(1) * 128 = 97.48 -> 97,
// tanh(7.94) * 128 -> 128 -> 127, tanh(-8) * 128 -> -128.
// RUN: %mkbin %t.t i8 0 16 -16 127 -128
// RUN: qnn-run --reference %s --entry tanh --input %t.t --print-values | FileCheck %s --check-prefix=TANH
// TANH: values 0: 0 97 -97 127 -128
func.func @tanh(%x: tensor<5xi8>) -> tensor<5xi8> {
  %0 = qnn.tanh %x {input_scale = 0.0625 : f32, input_zero_point = 0 : i32, output_scale = 0.0078125 : f32, output_zero_point = 0 : i32} : tensor<5xi8> -> tensor<5xi8>
  return %0 : tensor<5xi8>
}

// qnn.leaky_relu under TFLite's two rules: multiplier 2^-4 (input_scale
// 0.0625, output_scale 1), x = 7: double rounding gives 3.5 -> 4 then
// 0.5 -> 1, single rounding 0.4375 -> 0; 8 (0.5) and 24 (1.5) agree.
// RUN: %mkbin %t.leaky i8 7 8 24 0
// RUN: qnn-run --reference %s --entry leaky_double --input %t.leaky --print-values | FileCheck %s --check-prefix=LDOUBLE
// RUN: qnn-run --reference %s --entry leaky_single --input %t.leaky --print-values | FileCheck %s --check-prefix=LSINGLE
// RUN: qnn-run %s --target generic --entry leaky_single --input %t.leaky --print-values --compare-reference | FileCheck %s --check-prefix=LSINGLE
// RUN: qnn-run %s --target generic --entry leaky_double --input %t.leaky --print-values --compare-reference | FileCheck %s --check-prefix=LDOUBLE
// LDOUBLE: values 0: 1 1 2 0
// LSINGLE: values 0: 0 1 2 0
func.func @leaky_double(%x: tensor<4xi8>) -> tensor<4xi8> {
  %0 = qnn.leaky_relu %x {alpha = 0.5 : f32, input_scale = 0.0625 : f32, input_zero_point = 0 : i32, output_scale = 1.0 : f32, output_zero_point = 0 : i32} : tensor<4xi8> -> tensor<4xi8>
  return %0 : tensor<4xi8>
}
func.func @leaky_single(%x: tensor<4xi8>) -> tensor<4xi8> {
  %0 = qnn.leaky_relu %x {alpha = 0.5 : f32, input_scale = 0.0625 : f32, input_zero_point = 0 : i32, output_scale = 1.0 : f32, output_zero_point = 0 : i32, rounding = #qnn.rounding<tflite_single>} : tensor<4xi8> -> tensor<4xi8>
  return %0 : tensor<4xi8>
}
