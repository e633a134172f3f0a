// Hand-computed add, mul, pooling, concatenation, activations, quantize.
// RUN: %mkbin %t.a i8 10 3 -3 127
// RUN: %mkbin %t.b i8 10 0 0 127
// RUN: qnn-run --reference %s --entry add --input %t.a --input %t.b --print-values | FileCheck %s --check-prefix=ADD
// RUN: %mkbin %t.one i8 4
// RUN: qnn-run --reference %s --entry add_broadcast --input %t.a --input %t.one --print-values | FileCheck %s --check-prefix=BCAST
// RUN: %mkbin %t.ma i8 3 -4 100
// RUN: %mkbin %t.mb i8 5 5 100
// RUN: qnn-run --reference %s --entry mul --input %t.ma --input %t.mb --print-values | FileCheck %s --check-prefix=MUL
// RUN: %mkbin %t.p4 i8 1 2 3 5 -1 -2 -3 -5
// RUN: qnn-run --reference %s --entry avg_pool_i8 --input %t.p4 --print-values | FileCheck %s --check-prefix=AVG8
// RUN: %mkbin %t.p9 i32 --iota 9 1
// RUN: qnn-run --reference %s --entry avg_pool_padding --input %t.p9 --print-values | FileCheck %s --check-prefix=AVGPAD
// RUN: %mkbin %t.n9 i8 -1 -2 -3 -4 -5 -6 -7 -8 -9
// RUN: qnn-run --reference %s --entry max_pool_padding --input %t.n9 --print-values | FileCheck %s --check-prefix=MAX
// RUN: %mkbin %t.c1 i8 10 -10
// RUN: %mkbin %t.c2 i8 23 -1
// RUN: qnn-run --reference %s --entry concatenate --input %t.c1 --input %t.c2 --print-values | FileCheck %s --check-prefix=CONCAT
// RUN: %mkbin %t.s i8 0 127 -128 16
// RUN: qnn-run --reference %s --entry sigmoid --input %t.s --print-values | FileCheck %s --check-prefix=SIGMOID
// RUN: %mkbin %t.t i8 16 0 -16 127
// RUN: qnn-run --reference %s --entry tanh --input %t.t --print-values | FileCheck %s --check-prefix=TANH
// RUN: %mkbin %t.h i8 30 -30 10 -10 100
// RUN: qnn-run --reference %s --entry hardswish --input %t.h --print-values | FileCheck %s --check-prefix=HSWISH
// RUN: %mkbin %t.l i8 10 -10 -6 127
// RUN: qnn-run --reference %s --entry leaky_relu --input %t.l --print-values | FileCheck %s --check-prefix=LEAKY
// RUN: %mkbin %t.f f32 0.25 -0.25 1000 nan 1.0
// RUN: qnn-run --reference %s --entry quantize --input %t.f --print-values | FileCheck %s --check-prefix=QUANT
// RUN: %mkbin %t.d i8 -3 0 127
// RUN: qnn-run --reference %s --entry dequantize --input %t.d --print-values | FileCheck %s --check-prefix=DEQUANT
// RUN: %mkbin %t.w i32 256 257 -1 300
// RUN: qnn-run --reference %s --entry clamp_cast --input %t.w --print-values | FileCheck %s --check-prefix=CAST
// RUN: %mkbin %t.px u8 1 2 3 4
// RUN: qnn-run --reference %s --entry pad_zero_point --input %t.px --print-values | FileCheck %s --check-prefix=PADZP

// TFLite ADD (left shift 20): 1.5 rounds to 2 and -1.5 to -2 (the final
// power-of-two division rounds halves away from zero).
// ADD: values 0: 10 2 -2 127
func.func @add(%a: tensor<4xi8>, %b: tensor<4xi8>) -> tensor<4xi8> {
  %0 = qnn.add %a, %b {lhs_scale = 0.5 : f32, lhs_zero_point = 0 : i32, rhs_scale = 0.5 : f32, rhs_zero_point = 0 : i32, output_scale = 1.0 : f32, output_zero_point = 0 : i32} : (tensor<4xi8>, tensor<4xi8>) -> tensor<4xi8>
  return %0 : tensor<4xi8>
}

// A broadcast scalar (real 2.0 with scale 0.5) and an output zero point 5:
// reals 7, 3.5, 0.5, 65.5 round half away from zero, then +5.
// BCAST: values 0: 12 9 6 71
func.func @add_broadcast(%a: tensor<4xi8>, %b: tensor<1xi8>) -> tensor<4xi8> {
  %0 = qnn.add %a, %b {lhs_scale = 0.5 : f32, lhs_zero_point = 0 : i32, rhs_scale = 0.5 : f32, rhs_zero_point = 0 : i32, output_scale = 1.0 : f32, output_zero_point = 5 : i32} : (tensor<4xi8>, tensor<1xi8>) -> tensor<4xi8>
  return %0 : tensor<4xi8>
}

// Multiplier 0.5 * 0.25 / 0.125 = 1, output zero point 10, saturation.
// MUL: values 0: 25 -10 127
func.func @mul(%a: tensor<3xi8>, %b: tensor<3xi8>) -> tensor<3xi8> {
  %0 = qnn.mul %a, %b {lhs_scale = 0.5 : f32, lhs_zero_point = 0 : i32, rhs_scale = 0.25 : f32, rhs_zero_point = 0 : i32, output_scale = 0.125 : f32, output_zero_point = 10 : i32} : (tensor<3xi8>, tensor<3xi8>) -> tensor<3xi8>
  return %0 : tensor<3xi8>
}

// 11 / 4 = 2.75 -> 3 and -11 / 4 -> -3 (halves away from zero).
// AVG8: values 0: 3 -3
func.func @avg_pool_i8(%x: tensor<1x2x2x2xi8>) -> tensor<1x2x1x1xi8> {
  %0 = qnn.avg_pool2d %x {data_layout = #qnn.layout<NCHW>, kernel = array<i64: 2, 2>, padding = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>} : tensor<1x2x2x2xi8> -> tensor<1x2x1x1xi8>
  return %0 : tensor<1x2x1x1xi8>
}

// Padding is excluded from the count: the corner (0, 0) averages 4 values.
// AVGPAD: values 0: 3 4 4 5 5 6 6 7 7
func.func @avg_pool_padding(%x: tensor<1x3x3x1xi32>) -> tensor<1x3x3x1xi32> {
  %0 = qnn.avg_pool2d %x {data_layout = #qnn.layout<NHWC>, kernel = array<i64: 3, 3>, padding = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} : tensor<1x3x3x1xi32> -> tensor<1x3x3x1xi32>
  return %0 : tensor<1x3x3x1xi32>
}

// Padding never wins a max, even when every value is negative.
// MAX: values 0: -1 -3 -7 -9
func.func @max_pool_padding(%x: tensor<1x3x3x1xi8>) -> tensor<1x2x2x1xi8> {
  %0 = qnn.max_pool2d %x {data_layout = #qnn.layout<NHWC>, kernel = array<i64: 2, 2>, padding = array<i64: 0, 0, 1, 1>, strides = array<i64: 2, 2>} : tensor<1x3x3x1xi8> -> tensor<1x2x2x1xi8>
  return %0 : tensor<1x2x2x1xi8>
}

// The first input has the output's parameters and is copied; the second is
// rescaled by 0.5 from zero point 3: 20 -> 10, -4 -> -2.
// CONCAT: values 0: 10 -10 10 -2
func.func @concatenate(%a: tensor<1x2xi8>, %b: tensor<1x2xi8>) -> tensor<1x4xi8> {
  %0 = qnn.concatenate %a, %b {axis = 1 : i64, input_scales = array<f32: 0.5, 0.25>, input_zero_points = array<i32: 0, 3>, output_scale = 0.5 : f32, output_zero_point = 0 : i32} : (tensor<1x2xi8>, tensor<1x2xi8>) -> tensor<1x4xi8>
  return %0 : tensor<1x4xi8>
}

// sigmoid(0) = 0.5 -> 128 - 128 = 0; sigmoid(1) * 256 = 187.15 -> 59.
// SIGMOID: values 0: 0 127 -128 59
func.func @sigmoid(%x: tensor<4xi8>) -> tensor<4xi8> {
  %0 = qnn.sigmoid %x {input_scale = 0.0625 : f32, input_zero_point = 0 : i32, output_scale = 0.00390625 : f32, output_zero_point = -128 : i32} : tensor<4xi8> -> tensor<4xi8>
  return %0 : tensor<4xi8>
}

// tanh(1) * 128 = 97.48 -> 97; tanh(7.94) * 128 rounds to 128 -> 127.
// TANH: values 0: 97 0 -97 127
func.func @tanh(%x: tensor<4xi8>) -> tensor<4xi8> {
  %0 = qnn.tanh %x {input_scale = 0.0625 : f32, input_zero_point = 0 : i32, output_scale = 0.0078125 : f32, output_zero_point = 0 : i32} : tensor<4xi8> -> tensor<4xi8>
  return %0 : tensor<4xi8>
}

// hardswish(3) = 3, hardswish(-3) = 0, hardswish(1) = 2/3 -> 6.67 -> 7,
// hardswish(-1) = -1/3 -> -3.33 -> -3, hardswish(10) = 10.
// HSWISH: values 0: 30 0 7 -3 100
func.func @hardswish(%x: tensor<5xi8>) -> tensor<5xi8> {
  %0 = qnn.hardswish %x {input_scale = 0.1 : f32, input_zero_point = 0 : i32, output_scale = 0.1 : f32, output_zero_point = 0 : i32} : tensor<5xi8> -> tensor<5xi8>
  return %0 : tensor<5xi8>
}

// alpha 0.25: -10 -> -2.5 -> -3 and -6 -> -1.5 -> -2 (TFLite rule).
// LEAKY: values 0: 10 -3 -2 127
func.func @leaky_relu(%x: tensor<4xi8>) -> tensor<4xi8> {
  %0 = qnn.leaky_relu %x {alpha = 0.25 : f32, input_scale = 0.5 : f32, input_zero_point = 0 : i32, output_scale = 0.5 : f32, output_zero_point = 0 : i32} : tensor<4xi8> -> tensor<4xi8>
  return %0 : tensor<4xi8>
}

// QUANT: values 0: -2 -4 127 -3 -1
func.func @quantize(%x: tensor<5xf32>) -> tensor<5xi8> {
  %0 = qnn.quantize %x {scale = array<f32: 0.5>, zero_point = array<i32: -3>} : tensor<5xf32> -> tensor<5xi8>
  return %0 : tensor<5xi8>
}

// DEQUANT: values 0: 0.000000e+00 1.500000e+00 6.500000e+01
func.func @dequantize(%x: tensor<3xi8>) -> tensor<3xf32> {
  %0 = qnn.dequantize %x {scale = array<f32: 0.5>, zero_point = array<i32: -3>} : tensor<3xi8> -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// tosa.cast between integers truncates (wraps); a clamp before it saturates.
// CAST: values 0: 0 1 255 44
// CAST: values 1: 255 255 0 255
func.func @clamp_cast(%x: tensor<4xi32>) -> (tensor<4xui8>, tensor<4xui8>) {
  %0 = tosa.cast %x : (tensor<4xi32>) -> tensor<4xui8>
  %1 = tosa.clamp %x {min_val = 0 : i32, max_val = 255 : i32} : (tensor<4xi32>) -> tensor<4xi32>
  %2 = tosa.cast %1 : (tensor<4xi32>) -> tensor<4xui8>
  return %0, %2 : tensor<4xui8>, tensor<4xui8>
}

// An explicit pad holding the zero point, as PyTorch-like graphs have.
// PADZP: values 0: 128 128 128 128 1 2 128 3 4
func.func @pad_zero_point(%x: tensor<1x1x2x2xui8>) -> tensor<1x1x3x3xui8> {
  %zp = arith.constant dense<128> : tensor<ui8>
  %v = tensor.extract %zp[] : tensor<ui8>
  %0 = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 0, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %v : ui8
  } : tensor<1x1x2x2xui8> to tensor<1x1x3x3xui8>
  return %0 : tensor<1x1x3x3xui8>
}
