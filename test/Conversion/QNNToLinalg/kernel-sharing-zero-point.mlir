// Layers whose epilogues differ only in the output zero point share one
// kernel also when one zero point is 0: the canonicalizer folds that
// layer's addition of 0 away, and qnn-fuse-kernel-epilogues adds it back
// (an addition of a constant 0 of its own, after the clamp) before it
// compares epilogues, whose constants it pairs by their uses rather than
// by their order in the bodies. The zero point (0 and 3) and the clamp
// bounds (-128/127 and -131/124) become per-channel arguments.
// (MobileNet v2 has two such 96 -> 576 layers: 32 kernels -> 31.)
// RUN: qnn-opt %s --split-input-file --pass-pipeline='builtin.module(convert-qnn-to-linalg{target=int16},func.func(tosa-to-linalg-named,tosa-to-linalg,tosa-to-arith,tosa-to-tensor),canonicalize,linalg-fuse-elementwise-ops,qnn-fuse-kernel-epilogues)' | FileCheck %s
// RUN: %mkbin %t.x i8 --random 128 5
// RUN: %mkbin %t.y i8 --random 128 6
// RUN: qnn-run %s --entry=zero_and_three --input %t.x --input %t.y --compare-reference | FileCheck %s --check-prefix=EXEC
// RUN: qnn-run %s --entry=zero_and_three --target generic --input %t.x --input %t.y --compare-reference | FileCheck %s --check-prefix=EXEC
// RUN: qnn-run %s --entry=both_zero --input %t.x --input %t.y --compare-reference | FileCheck %s --check-prefix=EXEC
// EXEC: compare 0: match
// EXEC: compare 1: match

// CHECK-LABEL: func.func @zero_and_three
// CHECK: call @[[K:__qnn_kernel_int16_[_0-9a-z]*_epilogue0]](
// CHECK: call @[[K]](
// CHECK-NOT: call
// CHECK: func.func private @[[K]](
// CHECK-SAME: qnn.kernel_epilogue = @[[F:.+_fn]]
// CHECK: func.func private @[[F]](%{{[a-z0-9]+}}: i32, %[[LO:[a-z0-9]+]]: i32, %[[HI:[a-z0-9]+]]: i32, %[[ZP:[a-z0-9]+]]: i32) -> i8
// CHECK-SAME: qnn.argument_ranges = array<i64: -128, -128, 127, 127, 0, 0, -131, -131, 124, 124, 3, 3>
// CHECK: arith.maxsi %{{.*}}, %[[LO]] : i32
// CHECK: arith.minsi %{{.*}}, %[[HI]] : i32
// CHECK: arith.addi %{{.*}}, %[[ZP]] : i32
// CHECK-NOT: _epilogue1
func.func @zero_and_three(%x: tensor<1x4x4x8xi8>, %y: tensor<1x4x4x8xi8>) -> (tensor<1x4x4x16xi8>, tensor<1x4x4x16xi8>) {
  %w = arith.constant dense<3> : tensor<16x1x1x8xi8>
  %c0 = qnn.conv2d %x, %w {data_layout = #qnn.layout<NHWC>, dilations = array<i64: 1, 1>, groups = 1 : i64, input_scale = 5.000000e-01 : f32, input_zero_point = 5 : i32, kernel_layout = #qnn.kernel_layout<OHWI>, padding = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, weight_scale = array<f32: 0.01>, weight_zero_point = 0 : i32} : (tensor<1x4x4x8xi8>, tensor<16x1x1x8xi8>) -> tensor<1x4x4x16xi32>
  %r0 = qnn.requantize %c0 {input_scale = array<f64: 0.005>, input_zero_point = 0 : i32, output_scale = 5.000000e-02 : f32, output_zero_point = 0 : i32} : tensor<1x4x4x16xi32> -> tensor<1x4x4x16xi8>
  %c1 = qnn.conv2d %y, %w {data_layout = #qnn.layout<NHWC>, dilations = array<i64: 1, 1>, groups = 1 : i64, input_scale = 5.000000e-01 : f32, input_zero_point = 5 : i32, kernel_layout = #qnn.kernel_layout<OHWI>, padding = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, weight_scale = array<f32: 0.01>, weight_zero_point = 0 : i32} : (tensor<1x4x4x8xi8>, tensor<16x1x1x8xi8>) -> tensor<1x4x4x16xi32>
  %r1 = qnn.requantize %c1 {input_scale = array<f64: 0.005>, input_zero_point = 0 : i32, output_scale = 5.000000e-02 : f32, output_zero_point = 3 : i32} : tensor<1x4x4x16xi32> -> tensor<1x4x4x16xi8>
  return %r0, %r1 : tensor<1x4x4x16xi8>, tensor<1x4x4x16xi8>
}

// -----

// Both zero points 0: one kernel, and the addition of 0 is removed again
// (its constant was not lifted): the epilogue ends in the clamp and the
// narrowing, with immediate bounds.
// CHECK-LABEL: func.func @both_zero
// CHECK: call @[[K:__qnn_kernel_int16_[_0-9a-z]*_epilogue0]](
// CHECK: call @[[K]](
// CHECK: func.func private @{{.+_fn}}(%{{[a-z0-9]+}}: i32) -> i8
// CHECK: %[[LO:.*]] = arith.maxsi %{{.*}}, %c-128_i32 : i32
// CHECK: %[[HI:.*]] = arith.minsi %[[LO]], %c127_i32 : i32
// CHECK-NEXT: arith.trunci %[[HI]] : i32 to i8
func.func @both_zero(%x: tensor<1x4x4x8xi8>, %y: tensor<1x4x4x8xi8>) -> (tensor<1x4x4x16xi8>, tensor<1x4x4x16xi8>) {
  %w = arith.constant dense<3> : tensor<16x1x1x8xi8>
  %c0 = qnn.conv2d %x, %w {data_layout = #qnn.layout<NHWC>, dilations = array<i64: 1, 1>, groups = 1 : i64, input_scale = 5.000000e-01 : f32, input_zero_point = 5 : i32, kernel_layout = #qnn.kernel_layout<OHWI>, padding = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, weight_scale = array<f32: 0.01>, weight_zero_point = 0 : i32} : (tensor<1x4x4x8xi8>, tensor<16x1x1x8xi8>) -> tensor<1x4x4x16xi32>
  %r0 = qnn.requantize %c0 {input_scale = array<f64: 0.005>, input_zero_point = 0 : i32, output_scale = 5.000000e-02 : f32, output_zero_point = 0 : i32} : tensor<1x4x4x16xi32> -> tensor<1x4x4x16xi8>
  %c1 = qnn.conv2d %y, %w {data_layout = #qnn.layout<NHWC>, dilations = array<i64: 1, 1>, groups = 1 : i64, input_scale = 5.000000e-01 : f32, input_zero_point = 5 : i32, kernel_layout = #qnn.kernel_layout<OHWI>, padding = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, weight_scale = array<f32: 0.01>, weight_zero_point = 0 : i32} : (tensor<1x4x4x8xi8>, tensor<16x1x1x8xi8>) -> tensor<1x4x4x16xi32>
  %r1 = qnn.requantize %c1 {input_scale = array<f64: 0.005>, input_zero_point = 0 : i32, output_scale = 5.000000e-02 : f32, output_zero_point = 0 : i32} : tensor<1x4x4x16xi32> -> tensor<1x4x4x16xi8>
  return %r0, %r1 : tensor<1x4x4x16xi8>, tensor<1x4x4x16xi8>
}
