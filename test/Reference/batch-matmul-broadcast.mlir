// qnn.batch_matmul with a broadcast batch dimension, by hand, reference and
// native (uint8, unsigned widening): lhs [2, 1, 2] = [[[1, 2]], [[3, 4]]],
// rhs [1, 2, 1] = [[[131], [126]]] - 128 = [3, -2], used by both batches:
// batch 0: 1*3 + 2*(-2) = -1; batch 1: 3*3 + 4*(-2) = 1.
// RUN: %mkbin %t.a u8 1 2 3 4
// RUN: %mkbin %t.b u8 131 126
// RUN: qnn-run --reference %s --input %t.a --input %t.b --print-values | FileCheck %s
// RUN: qnn-run %s --input %t.a --input %t.b --print-values --compare-reference | FileCheck %s
// CHECK: values 0: -1 1
func.func @main(%a: tensor<2x1x2xui8>, %b: tensor<1x2x1xui8>) -> tensor<2x1x1xi32> {
  %0 = qnn.batch_matmul %a, %b {lhs_scale = 0.5 : f32, lhs_zero_point = 0 : i32, rhs_scale = 0.25 : f32, rhs_zero_point = 128 : i32} : (tensor<2x1x2xui8>, tensor<1x2x1xui8>) -> tensor<2x1x1xi32>
  return %0 : tensor<2x1x1xi32>
}
