// RUN: qnn-opt %s --pass-pipeline='builtin.module(convert-qnn-to-linalg{target=generic})' | FileCheck %s

// qnn.div lowers to a lookup in a 256 x 256 table of TFLite's results,
// indexed by (lhs byte << 8) | rhs byte; the rhs broadcasts through its map.
// CHECK-DAG: #[[ID:.+]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[ROW:.+]] = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @div
// CHECK: %[[T:.+]] = arith.constant dense<{{.*}}> : tensor<65536xi8>
// CHECK: linalg.generic {indexing_maps = [#[[ID]], #[[ROW]], #[[ID]]]
// CHECK: arith.extui
// CHECK: arith.shli %{{.*}}, %{{.*}} : i32
// CHECK: arith.ori
// CHECK: %[[I:.+]] = arith.index_cast
// CHECK: tensor.extract %[[T]][%[[I]]] : tensor<65536xi8>
func.func @div(%a: tensor<2x4xui8>, %b: tensor<4xui8>) -> tensor<2x4xui8> {
  %0 = qnn.div %a, %b {lhs_scale = 0.05 : f32, lhs_zero_point = 128 : i32, rhs_scale = 0.03 : f32, rhs_zero_point = 100 : i32, output_scale = 0.1 : f32, output_zero_point = 128 : i32} : (tensor<2x4xui8>, tensor<4xui8>) -> tensor<2x4xui8>
  return %0 : tensor<2x4xui8>
}
