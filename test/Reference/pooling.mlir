// qnn.avg_pool2d (padding excluded from the count, halves away from zero)
// and qnn.max_pool2d (padding never wins).

// 2x2 kernel, stride 1, padding bottom/right 1 over [[1, 2], [3, 4]]:
// 10/4 = 2.5 -> 3, (2+4)/2 = 3, (3+4)/2 = 3.5 -> 4, 4/1 = 4. Counting the
// padding would give 3, 2, 2, 1.
// RUN: %mkbin %t.a i8 1 2 3 4
// RUN: qnn-run --reference %s --entry avg_i8 --input %t.a --print-values | FileCheck %s --check-prefix=AVG
// AVG: values 0: 3 3 4 4
// RUN: %mkbin %t.n i8 -1 -2 -3 -4
// RUN: qnn-run --reference %s --entry avg_i8 --input %t.n --print-values | FileCheck %s --check-prefix=AVGN
// AVGN: values 0: -3 -3 -4 -4
func.func @avg_i8(%x: tensor<1x2x2x1xi8>) -> tensor<2x2xi8> {
  %0 = qnn.avg_pool2d %x {data_layout = #qnn.layout<NHWC>, kernel = array<i64: 2, 2>, padding = array<i64: 0, 0, 1, 1>, strides = array<i64: 1, 1>} : tensor<1x2x2x1xi8> -> tensor<1x2x2x1xi8>
  %1 = tensor.collapse_shape %0 [[0, 1], [2, 3]] : tensor<1x2x2x1xi8> into tensor<2x2xi8>
  return %1 : tensor<2x2xi8>
}

// i32 between casts: 4000010 / 4 = 1000002.5 -> 1000003; second channel
// -10 / 4 = -2.5 -> -3.
// RUN: %mkbin %t.w i32 1000001 -5 1000002 -5 1000003 0 1000004 0
// RUN: qnn-run --reference %s --entry avg_i32 --input %t.w --print-values | FileCheck %s --check-prefix=AVG32
// AVG32: values 0: 1000003 -3
func.func @avg_i32(%x: tensor<1x2x2x2xi32>) -> tensor<1x1x1x2xi32> {
  %0 = qnn.avg_pool2d %x {data_layout = #qnn.layout<NHWC>, kernel = array<i64: 2, 2>, padding = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>} : tensor<1x2x2x2xi32> -> tensor<1x1x1x2xi32>
  return %0 : tensor<1x1x1x2xi32>
}

// ui8 NCHW, two channels of 1x2: (10+11)/2 = 10.5 -> 11, (200+255)/2 = 227.5
// -> 228.
// RUN: %mkbin %t.u u8 10 11 200 255
// RUN: qnn-run --reference %s --entry avg_u8_nchw --input %t.u --print-values | FileCheck %s --check-prefix=AVGU
// AVGU: values 0: 11 228
func.func @avg_u8_nchw(%x: tensor<1x2x1x2xui8>) -> tensor<1x2x1x1xui8> {
  %0 = qnn.avg_pool2d %x {data_layout = #qnn.layout<NCHW>, kernel = array<i64: 1, 2>, padding = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>} : tensor<1x2x1x2xui8> -> tensor<1x2x1x1xui8>
  return %0 : tensor<1x2x1x1xui8>
}

// Max over [[-5, -3], [-1, -100]] with padding bottom/right 1: -1, -3, -1,
// -100 (a padded zero would win everywhere).
// RUN: %mkbin %t.m i8 -5 -3 -1 -100
// RUN: qnn-run --reference %s --entry max_i8 --input %t.m --print-values | FileCheck %s --check-prefix=MAX
// MAX: values 0: -1 -3 -1 -100
func.func @max_i8(%x: tensor<1x2x2x1xi8>) -> tensor<2x2xi8> {
  %0 = qnn.max_pool2d %x {data_layout = #qnn.layout<NHWC>, kernel = array<i64: 2, 2>, padding = array<i64: 0, 0, 1, 1>, strides = array<i64: 1, 1>} : tensor<1x2x2x1xi8> -> tensor<1x2x2x1xi8>
  %1 = tensor.collapse_shape %0 [[0, 1], [2, 3]] : tensor<1x2x2x1xi8> into tensor<2x2xi8>
  return %1 : tensor<2x2xi8>
}

// Stride 2, 3x3 window, SAME-style padding [0, 0, 1, 1] on 4x4 ui8 0..15:
// windows start at rows/cols 0 and 2; maxima 10, 11, 14, 15.
// RUN: %mkbin %t.s u8 --iota 16 0
// RUN: qnn-run --reference %s --entry max_strided --input %t.s --print-values | FileCheck %s --check-prefix=MAXS
// MAXS: values 0: 10 11 14 15
func.func @max_strided(%x: tensor<1x4x4x1xui8>) -> tensor<2x2xui8> {
  %0 = qnn.max_pool2d %x {data_layout = #qnn.layout<NHWC>, kernel = array<i64: 3, 3>, padding = array<i64: 0, 0, 1, 1>, strides = array<i64: 2, 2>} : tensor<1x4x4x1xui8> -> tensor<1x2x2x1xui8>
  %1 = tensor.collapse_shape %0 [[0, 1], [2, 3]] : tensor<1x2x2x1xui8> into tensor<2x2xui8>
  return %1 : tensor<2x2xui8>
}
