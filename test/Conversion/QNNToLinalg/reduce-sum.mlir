// RUN: qnn-opt %s --split-input-file --pass-pipeline='builtin.module(convert-qnn-to-linalg{target=generic})' | FileCheck %s

// qnn.reduce_sum: an i32 reduction generic over the axes (widened as the
// element type says), then one elementwise generic with TFLite's epilogue:
// centre (-zp * N), one fixed-point rescale (single rounding: the multiplier
// of 0.1 / 0.5 = 1717986944 * 2^-2), + output zero point, saturate.
// CHECK-DAG: #[[ID:.+]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-DAG: #[[RED:.+]] = affine_map<(d0, d1, d2) -> (d0, 0, d2)>
// CHECK-LABEL: func.func @sum
// CHECK: %[[Z:.+]] = linalg.fill {{.*}} -> tensor<2x1x4xi32>
// CHECK: %[[S:.+]] = linalg.generic {indexing_maps = [#[[ID]], #[[RED]]], iterator_types = ["parallel", "reduction", "parallel"]} ins(%arg0 : tensor<2x8x4xi8>) outs(%[[Z]] : tensor<2x1x4xi32>)
// CHECK: arith.extsi %{{.*}} : i8 to i32
// CHECK: linalg.generic {{.*}} ins(%[[S]] : tensor<2x1x4xi32>) outs(%{{.*}} : tensor<2x1x4xi8>)
// CHECK: arith.constant -24 : i64
// CHECK: arith.constant 1717986944 : i64
// CHECK: arith.shrsi
// CHECK: arith.constant -2 : i64
// CHECK: arith.constant -128 : i64
// CHECK: arith.constant 127 : i64
// CHECK: arith.trunci %{{.*}} : i64 to i8
func.func @sum(%a: tensor<2x8x4xi8>) -> tensor<2x1x4xi8> {
  %0 = qnn.reduce_sum %a {axes = array<i64: 1>, input_scale = 0.1 : f32, input_zero_point = 3 : i32, output_scale = 0.5 : f32, output_zero_point = -2 : i32} : tensor<2x8x4xi8> -> tensor<2x1x4xi8>
  return %0 : tensor<2x1x4xi8>
}

// -----

// With `average` (MEAN) the count folds into the multiplier: 0.1 / 0.1 with
// N = 2 * 2 is (2^30 << 2) / 4 = 2^30 at shift 1 - 2; uint8 widens unsigned.
// CHECK-LABEL: func.func @mean
// CHECK: arith.extui %{{.*}} : i8 to i32
// CHECK: arith.constant -512 : i64
// CHECK: arith.constant 1073741824 : i64
// CHECK: arith.constant 255 : i64
func.func @mean(%a: tensor<2x8x2xui8>) -> tensor<1x8x1xui8> {
  %0 = qnn.reduce_sum %a {average, axes = array<i64: 0, 2>, input_scale = 0.1 : f32, input_zero_point = 128 : i32, output_scale = 0.1 : f32, output_zero_point = 128 : i32} : tensor<2x8x2xui8> -> tensor<1x8x1xui8>
  return %0 : tensor<1x8x1xui8>
}
