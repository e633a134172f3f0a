// Two layers with the same kernel and equal epilogue constants (VNNI, input
// zero points 5 and -7, which the VNNI kernel does not read) share one fused
// kernel function; a third with another output zero point gets its own.
// RUN: qnn-opt %s --pass-pipeline='builtin.module(convert-qnn-to-linalg{target=avx512-vnni},func.func(tosa-to-linalg-named,tosa-to-linalg,tosa-to-arith,tosa-to-tensor),canonicalize,linalg-fuse-elementwise-ops,qnn-fuse-kernel-epilogues)' | FileCheck %s --check-prefix=SHARE
// SHARE-LABEL: func.func @shared
// SHARE: call @[[K:__qnn_kernel_vnni_[_0-9a-z]*_epilogue0]](
// SHARE: call @[[K]](
// SHARE: call @[[K2:__qnn_kernel_vnni_[_0-9a-z]*_epilogue2]](
// SHARE-DAG: func.func private @[[K]](
// SHARE-DAG: func.func private @[[K2]](
// SHARE-NOT: _epilogue1(
func.func @shared(%x: tensor<1x4x4x8xi8>, %y: tensor<1x4x4x8xi8>) -> (tensor<1x4x4x16xi8>, tensor<1x4x4x16xi8>, tensor<1x4x4x16xi8>) {
  %w = arith.constant dense<3> : tensor<16x1x1x8xi8>
  %c0 = qnn.conv2d %x, %w {data_layout = #qnn.layout<NHWC>, dilations = array<i64: 1, 1>, groups = 1 : i64, input_scale = 5.000000e-01 : f32, input_zero_point = 5 : i32, kernel_layout = #qnn.kernel_layout<OHWI>, padding = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, weight_scale = array<f32: 0.01>, weight_zero_point = 0 : i32} : (tensor<1x4x4x8xi8>, tensor<16x1x1x8xi8>) -> tensor<1x4x4x16xi32>
  %r0 = qnn.requantize %c0 {input_scale = array<f64: 0.005>, input_zero_point = 0 : i32, output_scale = 5.000000e-02 : f32, output_zero_point = -128 : i32} : tensor<1x4x4x16xi32> -> tensor<1x4x4x16xi8>
  %c1 = qnn.conv2d %y, %w {data_layout = #qnn.layout<NHWC>, dilations = array<i64: 1, 1>, groups = 1 : i64, input_scale = 5.000000e-01 : f32, input_zero_point = -7 : i32, kernel_layout = #qnn.kernel_layout<OHWI>, padding = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, weight_scale = array<f32: 0.01>, weight_zero_point = 0 : i32} : (tensor<1x4x4x8xi8>, tensor<16x1x1x8xi8>) -> tensor<1x4x4x16xi32>
  %r1 = qnn.requantize %c1 {input_scale = array<f64: 0.005>, input_zero_point = 0 : i32, output_scale = 5.000000e-02 : f32, output_zero_point = -128 : i32} : tensor<1x4x4x16xi32> -> tensor<1x4x4x16xi8>
  %c2 = qnn.conv2d %y, %w {data_layout = #qnn.layout<NHWC>, dilations = array<i64: 1, 1>, groups = 1 : i64, input_scale = 5.000000e-01 : f32, input_zero_point = -7 : i32, kernel_layout = #qnn.kernel_layout<OHWI>, padding = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, weight_scale = array<f32: 0.01>, weight_zero_point = 0 : i32} : (tensor<1x4x4x8xi8>, tensor<16x1x1x8xi8>) -> tensor<1x4x4x16xi32>
  %r2 = qnn.requantize %c2 {input_scale = array<f64: 0.005>, input_zero_point = 0 : i32, output_scale = 5.000000e-02 : f32, output_zero_point = 3 : i32} : tensor<1x4x4x16xi32> -> tensor<1x4x4x16xi8>
  return %r0, %r1, %r2 : tensor<1x4x4x16xi8>, tensor<1x4x4x16xi8>, tensor<1x4x4x16xi8>
}
