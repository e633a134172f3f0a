// qnn.batch_matmul on a rank-2 uint8 case by hand, reference and native:
// lhs [[10, 12], [8, 9]] - 8 = [[2, 4], [0, 1]], rhs [[130, 126, 128],
// [129, 128, 120]] - 128 = [[2, -2, 0], [1, 0, -8]]:
// row 0: [2*2 + 4*1, -4, -32] = [8, -4, -32]; row 1: [1, 0, -8].
// RUN: %mkbin %t.a u8 10 12 8 9
// RUN: %mkbin %t.b u8 130 126 128 129 128 120
// RUN: qnn-run --reference %s --input %t.a --input %t.b --print-values | FileCheck %s
// RUN: qnn-run %s --input %t.a --input %t.b --print-values --compare-reference | FileCheck %s
// CHECK: values 0: 8 -4 -32 1 0 -8
func.func @main(%a: tensor<2x2xui8>, %b: tensor<2x3xui8>) -> tensor<2x3xi32> {
  %0 = qnn.batch_matmul %a, %b {lhs_scale = 0.5 : f32, lhs_zero_point = 8 : i32, rhs_scale = 0.25 : f32, rhs_zero_point = 128 : i32} : (tensor<2x2xui8>, tensor<2x3xui8>) -> tensor<2x3xi32>
  return %0 : tensor<2x3xi32>
}
