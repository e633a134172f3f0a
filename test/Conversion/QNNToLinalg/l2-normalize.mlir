// RUN: qnn-opt %s --split-input-file --pass-pipeline='builtin.module(convert-qnn-to-linalg{target=generic})' | FileCheck %s

// qnn.l2_normalize: three generics. The i32 sum of squares of each row (a
// reduction over the last dimension), gemmlowp's inverse square root of it
// per row (two i32 results: multiplier and shift, with math.ctlz for the
// normalisation and INT32_MAX for sums <= 1), and the per-element rescale
// reading the row's multiplier and shift (int8: shift + 7).
// CHECK-DAG: #[[ID:.+]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[ROW:.+]] = affine_map<(d0, d1) -> (d0, 0)>
// CHECK-LABEL: func.func @int8
// CHECK: %[[SQ:.+]] = linalg.generic {indexing_maps = [#[[ID]], #[[ROW]]], iterator_types = ["parallel", "reduction"]} ins(%arg0 : tensor<2x8xi8>) outs(%{{.*}} : tensor<2x1xi32>)
// CHECK: arith.muli %{{.*}}, %{{.*}} : i32
// CHECK: %[[INV:.+]]:2 = linalg.generic {{.*}} ins(%[[SQ]] : tensor<2x1xi32>) outs(%{{.*}}, %{{.*}} : tensor<2x1xi32>, tensor<2x1xi32>)
// CHECK: math.ctlz
// CHECK: arith.constant 1518500250 : i32
// CHECK: arith.constant 2147483647 : i32
// CHECK: linalg.generic {indexing_maps = [#[[ID]], #[[ROW]], #[[ROW]], #[[ID]]], {{.*}}} ins(%arg0, %[[INV]]#0, %[[INV]]#1 : tensor<2x8xi8>, tensor<2x1xi32>, tensor<2x1xi32>) outs(%{{.*}} : tensor<2x8xi8>)
// CHECK: arith.constant 7 : i32
// CHECK: arith.constant -128 : i32
// CHECK: arith.constant 127 : i32
func.func @int8(%x: tensor<2x8xi8>) -> tensor<2x8xi8> {
  %0 = qnn.l2_normalize %x {input_scale = 0.05 : f32, input_zero_point = -3 : i32} : tensor<2x8xi8>
  return %0 : tensor<2x8xi8>
}

// -----

// uint8: widened unsigned, 128 * diff before the rescale, + 128 after it.
// CHECK-LABEL: func.func @uint8
// CHECK: arith.extui %{{.*}} : i8 to i32
// CHECK: math.ctlz
// CHECK: linalg.generic
// CHECK: arith.constant 128 : i32
// CHECK: arith.muli
// CHECK: arith.constant 255 : i32
func.func @uint8(%x: tensor<4x16xui8>) -> tensor<4x16xui8> {
  %0 = qnn.l2_normalize %x {input_scale = 0.1 : f32, input_zero_point = 120 : i32} : tensor<4x16xui8>
  return %0 : tensor<4x16xui8>
}
