// Round trip of every npu operator and every fused-activation kind: the
// printed form parses back to the same operation (print, parse, print).
// RUN: qnn-opt %s | qnn-opt | FileCheck %s
// RUN: qnn-opt %s --mlir-print-op-generic | qnn-opt | FileCheck %s

// CHECK-LABEL: func.func @conv_none
// CHECK: npu.conv2d %arg0, %arg1, %arg2 {act_max = 127 : i32, act_min = -128 : i32, dilations = array<i64: 1, 1>, groups = 1 : i64, input_scale = 5.000000e-01 : f32, input_zero_point = -1 : i32, output_scale = 2.500000e-01 : f32, output_zero_point = 3 : i32, pad_value = -1 : i32, padding = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>, weight_scale = array<f32: 1.250000e-01, 2.500000e-01>, weight_zero_point = 0 : i32} : (tensor<1x4x4x3xi8>, tensor<2x3x3x3xi8>, tensor<2xi32>) -> tensor<1x4x4x2xi8>
func.func @conv_none(%x: tensor<1x4x4x3xi8>, %w: tensor<2x3x3x3xi8>, %b: tensor<2xi32>) -> tensor<1x4x4x2xi8> {
  %0 = npu.conv2d %x, %w, %b {input_scale = 0.5 : f32, input_zero_point = -1 : i32, weight_scale = array<f32: 0.125, 0.25>, weight_zero_point = 0 : i32, output_scale = 0.25 : f32, output_zero_point = 3 : i32, strides = array<i64: 1, 1>, padding = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, groups = 1 : i64, pad_value = -1 : i32, activation = #npu.activation<none>, act_min = -128 : i32, act_max = 127 : i32} : (tensor<1x4x4x3xi8>, tensor<2x3x3x3xi8>, tensor<2xi32>) -> tensor<1x4x4x2xi8>
  return %0 : tensor<1x4x4x2xi8>
}

// Depthwise (groups == C, OHWI with I = 1), no bias, relu6, upward rounding,
// stride 2, dilation 2, uint8 with a weight zero point.
// CHECK-LABEL: func.func @depthwise_relu6
// CHECK: npu.conv2d %arg0, %arg1 {act_max = 30 : i32, act_min = 10 : i32, activation = #npu.activation<relu6>, dilations = array<i64: 2, 2>, groups = 4 : i64
// CHECK-SAME: rounding = #qnn.rounding<upward>
// CHECK-SAME: strides = array<i64: 2, 2>
// CHECK-SAME: weight_zero_point = 120 : i32} : (tensor<1x9x9x4xui8>, tensor<4x3x3x1xui8>) -> tensor<1x3x3x4xui8>
func.func @depthwise_relu6(%x: tensor<1x9x9x4xui8>, %w: tensor<4x3x3x1xui8>) -> tensor<1x3x3x4xui8> {
  %0 = npu.conv2d %x, %w {input_scale = 0.5 : f32, input_zero_point = 128 : i32, weight_scale = array<f32: 0.125>, weight_zero_point = 120 : i32, output_scale = 0.3 : f32, output_zero_point = 10 : i32, rounding = #qnn.rounding<upward>, strides = array<i64: 2, 2>, padding = array<i64: 0, 0, 0, 0>, dilations = array<i64: 2, 2>, groups = 4 : i64, pad_value = 128 : i32, activation = #npu.activation<relu6>, act_min = 10 : i32, act_max = 30 : i32} : (tensor<1x9x9x4xui8>, tensor<4x3x3x1xui8>) -> tensor<1x3x3x4xui8>
  return %0 : tensor<1x3x3x4xui8>
}

// CHECK-LABEL: func.func @fc_relu
// CHECK: npu.fully_connected %arg0, %arg1, %arg2 {act_max = 127 : i32, act_min = 5 : i32, activation = #npu.activation<relu>
// CHECK-SAME: (tensor<2x16xi8>, tensor<10x16xi8>, tensor<10xi32>) -> tensor<2x10xi8>
func.func @fc_relu(%x: tensor<2x16xi8>, %w: tensor<10x16xi8>, %b: tensor<10xi32>) -> tensor<2x10xi8> {
  %0 = npu.fully_connected %x, %w, %b {input_scale = 0.5 : f32, input_zero_point = 0 : i32, weight_scale = array<f32: 0.01>, weight_zero_point = 0 : i32, output_scale = 0.2 : f32, output_zero_point = 5 : i32, activation = #npu.activation<relu>, act_min = 5 : i32, act_max = 127 : i32} : (tensor<2x16xi8>, tensor<10x16xi8>, tensor<10xi32>) -> tensor<2x10xi8>
  return %0 : tensor<2x10xi8>
}

// CHECK-LABEL: func.func @fc_clip_nobias
// CHECK: npu.fully_connected %arg0, %arg1 {act_max = 100 : i32, act_min = -20 : i32, activation = #npu.activation<clip>
// CHECK-SAME: rounding = #qnn.rounding<tonearest>
func.func @fc_clip_nobias(%x: tensor<1x8xi8>, %w: tensor<4x8xi8>) -> tensor<1x4xi8> {
  %0 = npu.fully_connected %x, %w {input_scale = 0.5 : f32, input_zero_point = 0 : i32, weight_scale = array<f32: 0.01, 0.02, 0.03, 0.04>, weight_zero_point = 0 : i32, output_scale = 0.2 : f32, output_zero_point = 0 : i32, rounding = #qnn.rounding<tonearest>, activation = #npu.activation<clip>, act_min = -20 : i32, act_max = 100 : i32} : (tensor<1x8xi8>, tensor<4x8xi8>) -> tensor<1x4xi8>
  return %0 : tensor<1x4xi8>
}

// Broadcast add with a leaky ReLU epilogue.
// CHECK-LABEL: func.func @add_leaky
// CHECK: npu.add %arg0, %arg1 {act_max = 127 : i32, act_min = -128 : i32, activation = #npu.activation<leaky_relu>, leaky_params = array<i32: 1073741824, 1, 1717986918, -3, -7>, lhs_scale = 5.000000e-01 : f32, lhs_zero_point = 1 : i32, output_scale = 7.500000e-01 : f32, output_zero_point = -2 : i32, rhs_scale = 2.500000e-01 : f32, rhs_zero_point = 0 : i32} : (tensor<1x4x4x8xi8>, tensor<1x1x1x8xi8>) -> tensor<1x4x4x8xi8>
func.func @add_leaky(%a: tensor<1x4x4x8xi8>, %b: tensor<1x1x1x8xi8>) -> tensor<1x4x4x8xi8> {
  %0 = npu.add %a, %b {lhs_scale = 0.5 : f32, lhs_zero_point = 1 : i32, rhs_scale = 0.25 : f32, rhs_zero_point = 0 : i32, output_scale = 0.75 : f32, output_zero_point = -2 : i32, activation = #npu.activation<leaky_relu>, act_min = -128 : i32, act_max = 127 : i32, leaky_params = array<i32: 1073741824, 1, 1717986918, -3, -7>} : (tensor<1x4x4x8xi8>, tensor<1x1x1x8xi8>) -> tensor<1x4x4x8xi8>
  return %0 : tensor<1x4x4x8xi8>
}

// CHECK-LABEL: func.func @pools
// CHECK: npu.avg_pool2d %arg0 {act_max = 255 : i32, act_min = 0 : i32, kernel = array<i64: 2, 2>, padding = array<i64: 0, 0, 1, 1>, strides = array<i64: 2, 2>} : tensor<1x5x5x3xui8> -> tensor<1x3x3x3xui8>
// CHECK: npu.max_pool2d %arg0 {act_max = 255 : i32, act_min = 0 : i32, activation = #npu.activation<lut>, kernel = array<i64: 3, 3>, lut = array<i32: 0, 1, 2,
// CHECK-SAME: 255>, padding = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} : tensor<1x5x5x3xui8> -> tensor<1x5x5x3xui8>
func.func @pools(%x: tensor<1x5x5x3xui8>) -> (tensor<1x3x3x3xui8>, tensor<1x5x5x3xui8>) {
  %0 = npu.avg_pool2d %x {kernel = array<i64: 2, 2>, strides = array<i64: 2, 2>, padding = array<i64: 0, 0, 1, 1>, act_min = 0 : i32, act_max = 255 : i32} : tensor<1x5x5x3xui8> -> tensor<1x3x3x3xui8>
  %1 = npu.max_pool2d %x {kernel = array<i64: 3, 3>, strides = array<i64: 1, 1>, padding = array<i64: 1, 1, 1, 1>, act_min = 0 : i32, act_max = 255 : i32, activation = #npu.activation<lut>, lut = array<i32: 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63, 64, 65, 66, 67, 68, 69, 70, 71, 72, 73, 74, 75, 76, 77, 78, 79, 80, 81, 82, 83, 84, 85, 86, 87, 88, 89, 90, 91, 92, 93, 94, 95, 96, 97, 98, 99, 100, 101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 111, 112, 113, 114, 115, 116, 117, 118, 119, 120, 121, 122, 123, 124, 125, 126, 127, 128, 129, 130, 131, 132, 133, 134, 135, 136, 137, 138, 139, 140, 141, 142, 143, 144, 145, 146, 147, 148, 149, 150, 151, 152, 153, 154, 155, 156, 157, 158, 159, 160, 161, 162, 163, 164, 165, 166, 167, 168, 169, 170, 171, 172, 173, 174, 175, 176, 177, 178, 179, 180, 181, 182, 183, 184, 185, 186, 187, 188, 189, 190, 191, 192, 193, 194, 195, 196, 197, 198, 199, 200, 201, 202, 203, 204, 205, 206, 207, 208, 209, 210, 211, 212, 213, 214, 215, 216, 217, 218, 219, 220, 221, 222, 223, 224, 225, 226, 227, 228, 229, 230, 231, 232, 233, 234, 235, 236, 237, 238, 239, 240, 241, 242, 243, 244, 245, 246, 247, 248, 249, 250, 251, 252, 253, 254, 255>} : tensor<1x5x5x3xui8> -> tensor<1x5x5x3xui8>
  return %0, %1 : tensor<1x3x3x3xui8>, tensor<1x5x5x3xui8>
}
