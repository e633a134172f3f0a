// RUN: qnn-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(npu-expand-to-qnn))' | FileCheck %s

// A conv with a bias, per-channel weight scales and relu6 bounds becomes
// conv -> bias add -> per-channel requantize -> clamp.
// CHECK-LABEL: func.func @conv
// CHECK-SAME: (%[[X:.*]]: tensor<1x4x4x3xi8>, %[[W:.*]]: tensor<2x3x3x3xi8>, %[[B:.*]]: tensor<2xi32>)
// CHECK: %[[C:.*]] = qnn.conv2d %[[X]], %[[W]]
// CHECK-SAME: data_layout = #qnn.layout<NHWC>
// CHECK-SAME: dilations = array<i64: 1, 1>, groups = 1 : i64, input_scale = 5.000000e-01 : f32, input_zero_point = -3 : i32, kernel_layout = #qnn.kernel_layout<OHWI>, padding = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>, weight_scale = array<f32: 2.500000e-01, 1.250000e-01>, weight_zero_point = 0 : i32
// CHECK-SAME: -> tensor<1x4x4x2xi32>
// CHECK: %[[EB:.*]] = tensor.expand_shape %[[B]] {{\[}}[0, 1, 2, 3]] output_shape [1, 1, 1, 2] : tensor<2xi32> into tensor<1x1x1x2xi32>
// CHECK: %[[ACC:.*]] = tosa.add %[[C]], %[[EB]]
// CHECK: %[[R:.*]] = qnn.requantize %[[ACC]] {axis = 3 : i64, input_scale = array<f64: 1.250000e-01, 6.250000e-02>, input_zero_point = 0 : i32, output_scale = 2.500000e-01 : f32, output_zero_point = -128 : i32, rounding = #qnn.rounding<upward>} : tensor<1x4x4x2xi32> -> tensor<1x4x4x2xi8>
// CHECK: %[[Y:.*]] = tosa.clamp %[[R]] {max_val = -104 : i8, min_val = -128 : i8}
// CHECK: return %[[Y]]
// CHECK-NOT: npu.
func.func @conv(%x: tensor<1x4x4x3xi8>, %w: tensor<2x3x3x3xi8>, %b: tensor<2xi32>) -> tensor<1x4x4x2xi8> {
  %y = npu.conv2d %x, %w, %b {input_scale = 0.5 : f32, input_zero_point = -3 : i32, weight_scale = array<f32: 0.25, 0.125>, weight_zero_point = 0 : i32, output_scale = 0.25 : f32, output_zero_point = -128 : i32, rounding = #qnn.rounding<upward>, strides = array<i64: 1, 1>, padding = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, groups = 1 : i64, pad_value = -3 : i32, activation = #npu.activation<relu6>, act_min = -128 : i32, act_max = -104 : i32} : (tensor<1x4x4x3xi8>, tensor<2x3x3x3xi8>, tensor<2xi32>) -> tensor<1x4x4x2xi8>
  return %y : tensor<1x4x4x2xi8>
}

// -----

// Per-tensor scale: no axis; the full storage range needs no clamp.
// CHECK-LABEL: func.func @depthwise
// CHECK: qnn.conv2d
// CHECK-SAME: groups = 4 : i64
// CHECK-NOT: tosa.add
// CHECK: qnn.requantize
// CHECK-NOT: axis
// CHECK-SAME: -> tensor<1x2x2x4xui8>
// CHECK-NOT: tosa.clamp
// CHECK: return
func.func @depthwise(%x: tensor<1x4x4x4xui8>, %w: tensor<4x3x3x1xui8>) -> tensor<1x2x2x4xui8> {
  %y = npu.conv2d %x, %w {input_scale = 0.5 : f32, input_zero_point = 128 : i32, weight_scale = array<f32: 0.25>, weight_zero_point = 120 : i32, output_scale = 0.25 : f32, output_zero_point = 3 : i32, strides = array<i64: 2, 2>, padding = array<i64: 0, 0, 1, 1>, dilations = array<i64: 1, 1>, groups = 4 : i64, pad_value = 128 : i32, act_min = 0 : i32, act_max = 255 : i32} : (tensor<1x4x4x4xui8>, tensor<4x3x3x1xui8>) -> tensor<1x2x2x4xui8>
  return %y : tensor<1x2x2x4xui8>
}

// -----

// A lookup-table epilogue: cast to i32, one table lookup on the low byte
// (the clamp folded into the table), cast back.
// CHECK-LABEL: func.func @fc_lut
// CHECK: %[[T:.*]] = arith.constant dense<"0x80FFFFFF81FFFFFF82FFFFFF{{.*}}"> : tensor<256xi32>
// CHECK: %[[D:.*]] = qnn.dense
// CHECK: %[[ACC:.*]] = tosa.add %[[D]]
// CHECK: %[[R:.*]] = qnn.requantize %[[ACC]] {axis = 1 : i64
// CHECK: %[[W:.*]] = tosa.cast %[[R]] : (tensor<2x3xi8>) -> tensor<2x3xi32>
// CHECK: %[[G:.*]] = linalg.generic {{.*}} ins(%[[W]] : tensor<2x3xi32>)
// CHECK: arith.andi
// CHECK: arith.index_cast
// CHECK: tensor.extract %[[T]]
// CHECK: %[[N:.*]] = tosa.cast %[[G]] : (tensor<2x3xi32>) -> tensor<2x3xi8>
// CHECK: return %[[N]]
func.func @fc_lut(%x: tensor<2x5xi8>, %w: tensor<3x5xi8>, %b: tensor<3xi32>) -> tensor<2x3xi8> {
  %y = npu.fully_connected %x, %w, %b {input_scale = 0.5 : f32, input_zero_point = 1 : i32, weight_scale = array<f32: 0.25, 0.5, 1.0>, weight_zero_point = 0 : i32, output_scale = 0.25 : f32, output_zero_point = 0 : i32, activation = #npu.activation<lut>, act_min = -128 : i32, act_max = 127 : i32, lut = array<i32: -128, -127, -126, -125, -124, -123, -122, -121, -120, -119, -118, -117, -116, -115, -114, -113, -112, -111, -110, -109, -108, -107, -106, -105, -104, -103, -102, -101, -100, -99, -98, -97, -96, -95, -94, -93, -92, -91, -90, -89, -88, -87, -86, -85, -84, -83, -82, -81, -80, -79, -78, -77, -76, -75, -74, -73, -72, -71, -70, -69, -68, -67, -66, -65, -64, -63, -62, -61, -60, -59, -58, -57, -56, -55, -54, -53, -52, -51, -50, -49, -48, -47, -46, -45, -44, -43, -42, -41, -40, -39, -38, -37, -36, -35, -34, -33, -32, -31, -30, -29, -28, -27, -26, -25, -24, -23, -22, -21, -20, -19, -18, -17, -16, -15, -14, -13, -12, -11, -10, -9, -8, -7, -6, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63, 64, 65, 66, 67, 68, 69, 70, 71, 72, 73, 74, 75, 76, 77, 78, 79, 80, 81, 82, 83, 84, 85, 86, 87, 88, 89, 90, 91, 92, 93, 94, 95, 96, 97, 98, 99, 100, 101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 111, 112, 113, 114, 115, 116, 117, 118, 119, 120, 121, 122, 123, 124, 125, 126, 127>} : (tensor<2x5xi8>, tensor<3x5xi8>, tensor<3xi32>) -> tensor<2x3xi8>
  return %y : tensor<2x3xi8>
}

// -----

// CHECK-LABEL: func.func @add_pools
// CHECK: arith.constant dense<"0x0600000006000000{{.*}}"> : tensor<256xi32>
// CHECK: %[[S:.*]] = qnn.add %{{.*}}, %{{.*}} {lhs_scale = 5.000000e-01 : f32, lhs_zero_point = 10 : i32, output_scale = 7.500000e-01 : f32, output_zero_point = 5 : i32, rhs_scale = 2.500000e-01 : f32, rhs_zero_point = 0 : i32}
// CHECK: tosa.cast %[[S]]
// CHECK: linalg.generic
// CHECK: %[[L:.*]] = tosa.cast
// CHECK: %[[A:.*]] = qnn.avg_pool2d %[[L]] {data_layout = #qnn.layout<NHWC>, kernel = array<i64: 2, 2>, padding = array<i64: 0, 0, 0, 0>, strides = array<i64: 2, 2>} : tensor<1x4x4x2xui8> -> tensor<1x2x2x2xui8>
// CHECK: %[[M:.*]] = qnn.max_pool2d %[[A]] {data_layout = #qnn.layout<NHWC>, kernel = array<i64: 2, 2>, padding = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>} : tensor<1x2x2x2xui8> -> tensor<1x1x1x2xui8>
// CHECK: %[[C:.*]] = tosa.clamp %[[M]] {max_val = 255 : ui8, min_val = 5 : ui8}
// CHECK: return %[[C]]
func.func @add_pools(%a: tensor<1x4x4x2xui8>, %b: tensor<1x4x4x2xui8>) -> tensor<1x1x1x2xui8> {
  %s = npu.add %a, %b {lhs_scale = 0.5 : f32, lhs_zero_point = 10 : i32, rhs_scale = 0.25 : f32, rhs_zero_point = 0 : i32, output_scale = 0.75 : f32, output_zero_point = 5 : i32, activation = #npu.activation<leaky_relu>, act_min = 0 : i32, act_max = 255 : i32, leaky_params = array<i32: 1073741824, 1, 1073741824, -2, 7>} : (tensor<1x4x4x2xui8>, tensor<1x4x4x2xui8>) -> tensor<1x4x4x2xui8>
  %p = npu.avg_pool2d %s {kernel = array<i64: 2, 2>, strides = array<i64: 2, 2>, padding = array<i64: 0, 0, 0, 0>, act_min = 0 : i32, act_max = 255 : i32} : tensor<1x4x4x2xui8> -> tensor<1x2x2x2xui8>
  %m = npu.max_pool2d %p {kernel = array<i64: 2, 2>, strides = array<i64: 1, 1>, padding = array<i64: 0, 0, 0, 0>, activation = #npu.activation<clip>, act_min = 5 : i32, act_max = 255 : i32} : tensor<1x2x2x2xui8> -> tensor<1x1x1x2xui8>
  return %m : tensor<1x1x1x2xui8>
}
