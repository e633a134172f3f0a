// Calls to functions of qnn and npu operations are inlined (both dialects
// implement the inliner interface); the private callees go with their
// last call.
// RUN: qnn-opt %s --inline | FileCheck %s

// CHECK-LABEL: func.func @main
// CHECK-NOT: call
// CHECK: qnn.requantize
// CHECK: npu.conv2d
// CHECK: return
// CHECK-NOT: func.func private
func.func private @requant(%x: tensor<1x4x4x3xi32>) -> tensor<1x4x4x3xi8> {
  %y = qnn.requantize %x {input_scale = array<f64: 0.01>, input_zero_point = 0 : i32, output_scale = 0.5 : f32, output_zero_point = 0 : i32} : tensor<1x4x4x3xi32> -> tensor<1x4x4x3xi8>
  return %y : tensor<1x4x4x3xi8>
}
func.func private @conv(%x: tensor<1x4x4x3xi8>) -> tensor<1x4x4x2xi8> {
  %w = arith.constant dense<1> : tensor<2x3x3x3xi8>
  %b = arith.constant dense<[5, -5]> : tensor<2xi32>
  %0 = npu.conv2d %x, %w, %b {input_scale = 0.5 : f32, input_zero_point = 0 : i32, weight_scale = array<f32: 0.25>, weight_zero_point = 0 : i32, output_scale = 0.5 : f32, output_zero_point = 0 : i32, strides = array<i64: 1, 1>, padding = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, groups = 1 : i64, pad_value = 0 : i32, act_min = -128 : i32, act_max = 127 : i32} : (tensor<1x4x4x3xi8>, tensor<2x3x3x3xi8>, tensor<2xi32>) -> tensor<1x4x4x2xi8>
  return %0 : tensor<1x4x4x2xi8>
}
func.func @main(%x: tensor<1x4x4x3xi32>) -> tensor<1x4x4x2xi8> {
  %a = call @requant(%x) : (tensor<1x4x4x3xi32>) -> tensor<1x4x4x3xi8>
  %b = call @conv(%a) : (tensor<1x4x4x3xi8>) -> tensor<1x4x4x2xi8>
  return %b : tensor<1x4x4x2xi8>
}
