// Hand-computed convolutions and dense layers.
// RUN: %mkbin %t.x33 i8 --iota 9 1
// RUN: qnn-run --reference %s --entry conv_zero_points --input %t.x33 --print-values | FileCheck %s --check-prefix=ZP
// RUN: qnn-run --reference %s --entry conv_padding --input %t.x33 --print-values | FileCheck %s --check-prefix=PAD
// RUN: %mkbin %t.x44 u8 --iota 16 0
// RUN: qnn-run --reference %s --entry conv_stride_weight_zp --input %t.x44 --print-values | FileCheck %s --check-prefix=STRIDE
// RUN: %mkbin %t.dw i8 1 10 2 20 3 30 4 40
// RUN: qnn-run --reference %s --entry depthwise_multiplier --input %t.dw --print-values | FileCheck %s --check-prefix=DW
// RUN: %mkbin %t.x55 i8 --iota 25 0
// RUN: qnn-run --reference %s --entry conv_dilated --input %t.x55 --print-values | FileCheck %s --check-prefix=DIL
// RUN: %mkbin %t.nchw i8 1 2 3 4 10 20 30 40
// RUN: qnn-run --reference %s --entry conv_nchw_oihw --input %t.nchw --print-values | FileCheck %s --check-prefix=NCHW
// RUN: %mkbin %t.fc i8 1 2 3
// RUN: qnn-run --reference %s --entry dense --input %t.fc --print-values | FileCheck %s --check-prefix=DENSE

// (x - 1) on a 3x3 grid 0..8 with the 2x2 kernel [[1, 0], [0, 1]].
// ZP: values 0: 4 6 10 12
func.func @conv_zero_points(%x: tensor<1x3x3x1xi8>) -> tensor<1x2x2x1xi32> {
  %w = arith.constant dense<[[[[1], [0]], [[0], [1]]]]> : tensor<1x2x2x1xi8>
  %0 = qnn.conv2d %x, %w {data_layout = #qnn.layout<NHWC>, dilations = array<i64: 1, 1>, groups = 1 : i64, input_scale = 0.5 : f32, input_zero_point = 1 : i32, kernel_layout = #qnn.kernel_layout<OHWI>, padding = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, weight_scale = array<f32: 0.5>, weight_zero_point = 0 : i32} : (tensor<1x3x3x1xi8>, tensor<1x2x2x1xi8>) -> tensor<1x2x2x1xi32>
  return %0 : tensor<1x2x2x1xi32>
}

// A 3x3 box filter with padding 1: padded positions hold the zero point,
// so they add nothing; window sums of the grid 0..8.
// PAD: values 0: 8 15 12 21 36 27 20 33 24
func.func @conv_padding(%x: tensor<1x3x3x1xi8>) -> tensor<1x3x3x1xi32> {
  %w = arith.constant dense<1> : tensor<3x3x1x1xi8>
  %0 = qnn.conv2d %x, %w {data_layout = #qnn.layout<NHWC>, dilations = array<i64: 1, 1>, groups = 1 : i64, input_scale = 0.5 : f32, input_zero_point = 1 : i32, kernel_layout = #qnn.kernel_layout<HWIO>, padding = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>, weight_scale = array<f32: 0.5>, weight_zero_point = 0 : i32} : (tensor<1x3x3x1xi8>, tensor<3x3x1x1xi8>) -> tensor<1x3x3x1xi32>
  return %0 : tensor<1x3x3x1xi32>
}

// uint8 weights 3 with zero point 2 act as 1; 2x2 windows, stride 2, over
// the 4x4 grid 0..15; two output channels (the second weight is 4, i.e. 2).
// STRIDE: values 0: 10 20 18 36 42 84 50 100
func.func @conv_stride_weight_zp(%x: tensor<1x4x4x1xui8>) -> tensor<1x2x2x2xi32> {
  %w = arith.constant dense<[[[[3], [3]], [[3], [3]]], [[[4], [4]], [[4], [4]]]]> : tensor<2x2x2x1xui8>
  %0 = qnn.conv2d %x, %w {data_layout = #qnn.layout<NHWC>, dilations = array<i64: 1, 1>, groups = 1 : i64, input_scale = 0.5 : f32, input_zero_point = 0 : i32, kernel_layout = #qnn.kernel_layout<OHWI>, padding = array<i64: 0, 0, 0, 0>, strides = array<i64: 2, 2>, weight_scale = array<f32: 0.5>, weight_zero_point = 2 : i32} : (tensor<1x4x4x1xui8>, tensor<2x2x2x1xui8>) -> tensor<1x2x2x2xi32>
  return %0 : tensor<1x2x2x2xi32>
}

// Depthwise, channel multiplier 2, TFLite's IHWO layout: output channel o
// reads input channel o / 2.
// DW: values 0: 1 2 30 40 2 4 60 80 3 6 90 120 4 8 120 160
func.func @depthwise_multiplier(%x: tensor<1x2x2x2xi8>) -> tensor<1x2x2x4xi32> {
  %w = arith.constant dense<[[[[1, 2, 3, 4]]]]> : tensor<1x1x1x4xi8>
  %0 = qnn.conv2d %x, %w {data_layout = #qnn.layout<NHWC>, dilations = array<i64: 1, 1>, groups = 2 : i64, input_scale = 0.5 : f32, input_zero_point = 0 : i32, kernel_layout = #qnn.kernel_layout<IHWO>, padding = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, weight_scale = array<f32: 0.5>, weight_zero_point = 0 : i32} : (tensor<1x2x2x2xi8>, tensor<1x1x1x4xi8>) -> tensor<1x2x2x4xi32>
  return %0 : tensor<1x2x2x4xi32>
}

// 2x2 ones with dilation 2 on x(r, c) = 5r + c: 20i + 4j + 24.
// DIL: values 0: 24 28 32 44 48 52 64 68 72
func.func @conv_dilated(%x: tensor<1x5x5x1xi8>) -> tensor<1x3x3x1xi32> {
  %w = arith.constant dense<1> : tensor<1x2x2x1xi8>
  %0 = qnn.conv2d %x, %w {data_layout = #qnn.layout<NHWC>, dilations = array<i64: 2, 2>, groups = 1 : i64, input_scale = 0.5 : f32, input_zero_point = 0 : i32, kernel_layout = #qnn.kernel_layout<OHWI>, padding = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, weight_scale = array<f32: 0.5>, weight_zero_point = 0 : i32} : (tensor<1x5x5x1xi8>, tensor<1x2x2x1xi8>) -> tensor<1x3x3x1xi32>
  return %0 : tensor<1x3x3x1xi32>
}

// NCHW with an OIHW 1x1 kernel mixing two channels: out = c0 + 2 * c1.
// NCHW: values 0: 21 42 63 84
func.func @conv_nchw_oihw(%x: tensor<1x2x2x2xi8>) -> tensor<1x1x2x2xi32> {
  %w = arith.constant dense<[[[[1]], [[2]]]]> : tensor<1x2x1x1xi8>
  %0 = qnn.conv2d %x, %w {data_layout = #qnn.layout<NCHW>, dilations = array<i64: 1, 1>, groups = 1 : i64, input_scale = 0.5 : f32, input_zero_point = 0 : i32, kernel_layout = #qnn.kernel_layout<OIHW>, padding = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, weight_scale = array<f32: 0.5>, weight_zero_point = 0 : i32} : (tensor<1x2x2x2xi8>, tensor<1x2x1x1xi8>) -> tensor<1x1x2x2xi32>
  return %0 : tensor<1x1x2x2xi32>
}

// (x - 1) = [0, 1, 2] against the rows [1, 1, 1] and [2, -1, 3].
// DENSE: values 0: 3 5
func.func @dense(%x: tensor<1x3xi8>) -> tensor<1x2xi32> {
  %w = arith.constant dense<[[1, 1, 1], [2, -1, 3]]> : tensor<2x3xi8>
  %0 = qnn.dense %x, %w {input_scale = 0.5 : f32, input_zero_point = 1 : i32, weight_scale = array<f32: 0.5>, weight_zero_point = 0 : i32} : (tensor<1x3xi8>, tensor<2x3xi8>) -> tensor<1x2xi32>
  return %0 : tensor<1x2xi32>
}
