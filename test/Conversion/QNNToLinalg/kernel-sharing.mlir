// Layers with the same kernel share one fused kernel function (VNNI, input
// zero points 5 and -7, which the VNNI kernel does not read). Their
// epilogues differ only in the output zero point (-128, -128, 3), which
// appears as three constants of the 32-bit epilogue (the clamp bounds
// qmin - zp and qmax - zp, then zp itself): those become arguments of the
// epilogue function and per-channel splat vectors of the kernel
// (memref<16xi32>: 0, 255, -128 for the first two calls, -131, 124, 3 for
// the third); the constants they agree on stay immediates.
// RUN: qnn-opt %s --pass-pipeline='builtin.module(convert-qnn-to-linalg{target=avx512-vnni},func.func(tosa-to-linalg-named,tosa-to-linalg,tosa-to-arith,tosa-to-tensor),canonicalize,linalg-fuse-elementwise-ops,qnn-fuse-kernel-epilogues)' | FileCheck %s --check-prefix=SHARE
// SHARE-LABEL: func.func @shared
// SHARE: call @[[K:__qnn_kernel_vnni_[_0-9a-z]*_epilogue0]](%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}})
// SHARE: call @[[K]](
// SHARE: call @[[K]](
// SHARE-NOT: call
// SHARE: func.func private @[[K]](memref<1x4x4x8xi8>, memref<1x1x1x2x64xi8>, memref<16xi32>, memref<16xi32>, memref<16xi32>, memref<16xi32>, memref<1x4x4x16xi8>)
// SHARE-SAME: qnn.kernel_epilogue = @[[F:.+_fn]]
// SHARE: func.func private @[[F]](%{{[a-z0-9]+}}: i32, %[[LO:[a-z0-9]+]]: i32, %[[HI:[a-z0-9]+]]: i32, %[[OUTZERO:[a-z0-9]+]]: i32) -> i8
// SHARE: arith.maxsi %{{.*}}, %[[LO]] : i32
// SHARE: arith.minsi %{{.*}}, %[[HI]] : i32
// SHARE: arith.addi %{{.*}}, %[[OUTZERO]] : i32
// SHARE-NOT: _epilogue1
// SHARE-NOT: _epilogue2
// RUN: qnn-opt %s --pass-pipeline='builtin.module(convert-qnn-to-linalg{target=avx512-vnni},func.func(tosa-to-linalg-named,tosa-to-linalg,tosa-to-arith,tosa-to-tensor),canonicalize,linalg-fuse-elementwise-ops,qnn-fuse-kernel-epilogues)' | FileCheck %s --check-prefix=SPLAT
// SPLAT: arith.constant dense<0> : tensor<16xi32>
// SPLAT: arith.constant dense<255> : tensor<16xi32>
// SPLAT: arith.constant dense<-128> : tensor<16xi32>
// SPLAT: arith.constant dense<0> : tensor<16xi32>
// SPLAT: arith.constant dense<255> : tensor<16xi32>
// SPLAT: arith.constant dense<-128> : tensor<16xi32>
// SPLAT: arith.constant dense<-131> : tensor<16xi32>
// SPLAT: arith.constant dense<124> : tensor<16xi32>
// SPLAT: arith.constant dense<3> : tensor<16xi32>
// The shared kernel computes each layer's own bytes: native == reference.
// RUN: %mkbin %t.x i8 --random 128 5
// RUN: %mkbin %t.y i8 --random 128 6
// RUN: qnn-run %s --entry=shared --input %t.x --input %t.y --compare-reference | FileCheck %s --check-prefix=EXEC
// EXEC: compare 0: match
// EXEC: compare 1: match
// EXEC: compare 2: match
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
