// RUN: qnn-opt %s --split-input-file | FileCheck %s
// Round trip: print, parse the printed form again, compare.
// RUN: qnn-opt %s --split-input-file | qnn-opt --split-input-file | FileCheck %s
// Generic form round trip.
// RUN: qnn-opt %s --split-input-file --mlir-print-op-generic | qnn-opt --split-input-file | FileCheck %s

// CHECK-LABEL: func @quantize_per_tensor
// CHECK: qnn.quantize %{{.*}} {scale = array<f32: 5.000000e-01>, zero_point = array<i32: -3>} : tensor<4xf32> -> tensor<4xi8>
func.func @quantize_per_tensor(%x: tensor<4xf32>) -> tensor<4xi8> {
  %0 = qnn.quantize %x {scale = array<f32: 0.5>, zero_point = array<i32: -3>} : tensor<4xf32> -> tensor<4xi8>
  return %0 : tensor<4xi8>
}

// -----

// CHECK-LABEL: func @quantize_per_channel
// CHECK: qnn.quantize %{{.*}} {axis = 0 : i64, scale = array<f32: 5.000000e-01, 2.500000e-01>, zero_point = array<i32: 0>} : tensor<2x3xf32> -> tensor<2x3xi8>
func.func @quantize_per_channel(%x: tensor<2x3xf32>) -> tensor<2x3xi8> {
  %0 = qnn.quantize %x {axis = 0 : i64, scale = array<f32: 0.5, 0.25>, zero_point = array<i32: 0>} : tensor<2x3xf32> -> tensor<2x3xi8>
  return %0 : tensor<2x3xi8>
}

// -----

// CHECK-LABEL: func @dequantize_u8
// CHECK: qnn.dequantize %{{.*}} {scale = array<f32: 3.906250e-03>, zero_point = array<i32: 0>} : tensor<1x1001xui8> -> tensor<1x1001xf32>
func.func @dequantize_u8(%x: tensor<1x1001xui8>) -> tensor<1x1001xf32> {
  %0 = qnn.dequantize %x {scale = array<f32: 0.00390625>, zero_point = array<i32: 0>} : tensor<1x1001xui8> -> tensor<1x1001xf32>
  return %0 : tensor<1x1001xf32>
}

// -----

// CHECK-LABEL: func @requantize_default_rounding
// CHECK: qnn.requantize %{{.*}} {input_scale = array<f64: 1.200000e-04>, input_zero_point = 0 : i32, output_scale = 2.350000e-02 : f32, output_zero_point = 0 : i32} : tensor<1x8x8x16xi32> -> tensor<1x8x8x16xui8>
func.func @requantize_default_rounding(%x: tensor<1x8x8x16xi32>) -> tensor<1x8x8x16xui8> {
  %0 = qnn.requantize %x {input_scale = array<f64: 0.00012>, input_zero_point = 0 : i32, output_scale = 0.0235 : f32, output_zero_point = 0 : i32} : tensor<1x8x8x16xi32> -> tensor<1x8x8x16xui8>
  return %0 : tensor<1x8x8x16xui8>
}

// -----

// CHECK-LABEL: func @requantize_per_channel_upward
// CHECK: qnn.requantize %{{.*}} {axis = 1 : i64, input_scale = array<f64: 1.000000e-03, 2.000000e-03>, input_zero_point = 0 : i32, output_scale = 5.000000e-02 : f32, output_zero_point = -128 : i32, rounding = #qnn.rounding<upward>} : tensor<4x2xi32> -> tensor<4x2xi8>
func.func @requantize_per_channel_upward(%x: tensor<4x2xi32>) -> tensor<4x2xi8> {
  %0 = qnn.requantize %x {axis = 1 : i64, input_scale = array<f64: 0.001, 0.002>, input_zero_point = 0 : i32, output_scale = 0.05 : f32, output_zero_point = -128 : i32, rounding = #qnn.rounding<upward>} : tensor<4x2xi32> -> tensor<4x2xi8>
  return %0 : tensor<4x2xi8>
}

// -----

// CHECK-LABEL: func @requantize_tonearest_to_i32
// CHECK: rounding = #qnn.rounding<tonearest>
func.func @requantize_tonearest_to_i32(%x: tensor<4xi32>) -> tensor<4xi32> {
  %0 = qnn.requantize %x {input_scale = array<f64: 0.001>, input_zero_point = 0 : i32, output_scale = 0.05 : f32, output_zero_point = 3 : i32, rounding = #qnn.rounding<tonearest>} : tensor<4xi32> -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

// CHECK-LABEL: func @conv2d_nhwc_ohwi_per_channel
// CHECK: qnn.conv2d %{{.*}}, %{{.*}} {data_layout = #qnn.layout<NHWC>, dilations = array<i64: 1, 1>, groups = 1 : i64, input_scale = 0.0235294122 : f32, input_zero_point = -128 : i32, kernel_layout = #qnn.kernel_layout<OHWI>, padding = array<i64: 0, 0, 1, 1>, strides = array<i64: 2, 2>, weight_scale = array<f32: 0.00999999977, 2.000000e-02>, weight_zero_point = 0 : i32} : (tensor<1x8x8x3xi8>, tensor<2x3x3x3xi8>) -> tensor<1x4x4x2xi32>
func.func @conv2d_nhwc_ohwi_per_channel(%x: tensor<1x8x8x3xi8>, %w: tensor<2x3x3x3xi8>) -> tensor<1x4x4x2xi32> {
  %0 = qnn.conv2d %x, %w {data_layout = #qnn.layout<NHWC>, dilations = array<i64: 1, 1>, groups = 1 : i64, input_scale = 0.0235294122 : f32, input_zero_point = -128 : i32, kernel_layout = #qnn.kernel_layout<OHWI>, padding = array<i64: 0, 0, 1, 1>, strides = array<i64: 2, 2>, weight_scale = array<f32: 0.01, 0.02>, weight_zero_point = 0 : i32} : (tensor<1x8x8x3xi8>, tensor<2x3x3x3xi8>) -> tensor<1x4x4x2xi32>
  return %0 : tensor<1x4x4x2xi32>
}

// -----

// CHECK-LABEL: func @conv2d_nchw_oihw_u8_dilated
// CHECK: qnn.conv2d {{.*}}data_layout = #qnn.layout<NCHW>, dilations = array<i64: 2, 2>{{.*}}kernel_layout = #qnn.kernel_layout<OIHW>{{.*}}: (tensor<1x3x9x9xui8>, tensor<4x3x3x3xui8>) -> tensor<1x4x5x5xi32>
func.func @conv2d_nchw_oihw_u8_dilated(%x: tensor<1x3x9x9xui8>, %w: tensor<4x3x3x3xui8>) -> tensor<1x4x5x5xi32> {
  %0 = qnn.conv2d %x, %w {data_layout = #qnn.layout<NCHW>, dilations = array<i64: 2, 2>, groups = 1 : i64, input_scale = 0.5 : f32, input_zero_point = 128 : i32, kernel_layout = #qnn.kernel_layout<OIHW>, padding = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, weight_scale = array<f32: 0.25>, weight_zero_point = 120 : i32} : (tensor<1x3x9x9xui8>, tensor<4x3x3x3xui8>) -> tensor<1x4x5x5xi32>
  return %0 : tensor<1x4x5x5xi32>
}

// -----

// Depthwise convolution in TFLite's layout [1, H, W, C*M] (IHWO), multiplier 2.
// CHECK-LABEL: func @conv2d_depthwise_ihwo
// CHECK: qnn.conv2d {{.*}}groups = 8 : i64{{.*}}kernel_layout = #qnn.kernel_layout<IHWO>{{.*}}: (tensor<1x6x6x8xi8>, tensor<1x3x3x16xi8>) -> tensor<1x6x6x16xi32>
func.func @conv2d_depthwise_ihwo(%x: tensor<1x6x6x8xi8>, %w: tensor<1x3x3x16xi8>) -> tensor<1x6x6x16xi32> {
  %0 = qnn.conv2d %x, %w {data_layout = #qnn.layout<NHWC>, dilations = array<i64: 1, 1>, groups = 8 : i64, input_scale = 0.5 : f32, input_zero_point = 0 : i32, kernel_layout = #qnn.kernel_layout<IHWO>, padding = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>, weight_scale = array<f32: 0.25>, weight_zero_point = 0 : i32} : (tensor<1x6x6x8xi8>, tensor<1x3x3x16xi8>) -> tensor<1x6x6x16xi32>
  return %0 : tensor<1x6x6x16xi32>
}

// -----

// CHECK-LABEL: func @conv2d_hwio
// CHECK: kernel_layout = #qnn.kernel_layout<HWIO>{{.*}}: (tensor<1x5x5x4xi8>, tensor<1x1x4x8xi8>) -> tensor<1x5x5x8xi32>
func.func @conv2d_hwio(%x: tensor<1x5x5x4xi8>, %w: tensor<1x1x4x8xi8>) -> tensor<1x5x5x8xi32> {
  %0 = qnn.conv2d %x, %w {data_layout = #qnn.layout<NHWC>, dilations = array<i64: 1, 1>, groups = 1 : i64, input_scale = 0.5 : f32, input_zero_point = 0 : i32, kernel_layout = #qnn.kernel_layout<HWIO>, padding = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, weight_scale = array<f32: 0.25>, weight_zero_point = 0 : i32} : (tensor<1x5x5x4xi8>, tensor<1x1x4x8xi8>) -> tensor<1x5x5x8xi32>
  return %0 : tensor<1x5x5x8xi32>
}

// -----

// CHECK-LABEL: func @dense
// CHECK: qnn.dense %{{.*}}, %{{.*}} {input_scale = 5.000000e-01 : f32, input_zero_point = -1 : i32, weight_scale = array<f32: 2.500000e-01, 1.250000e-01>, weight_zero_point = 0 : i32} : (tensor<1x16xi8>, tensor<2x16xi8>) -> tensor<1x2xi32>
func.func @dense(%x: tensor<1x16xi8>, %w: tensor<2x16xi8>) -> tensor<1x2xi32> {
  %0 = qnn.dense %x, %w {input_scale = 0.5 : f32, input_zero_point = -1 : i32, weight_scale = array<f32: 0.25, 0.125>, weight_zero_point = 0 : i32} : (tensor<1x16xi8>, tensor<2x16xi8>) -> tensor<1x2xi32>
  return %0 : tensor<1x2xi32>
}

// -----

// CHECK-LABEL: func @add_broadcast
// CHECK: qnn.add %{{.*}}, %{{.*}} {lhs_scale = 5.000000e-01 : f32, lhs_zero_point = 1 : i32, output_scale = 1.000000e+00 : f32, output_zero_point = -2 : i32, rhs_scale = 2.500000e-01 : f32, rhs_zero_point = 0 : i32} : (tensor<1x4x4x8xi8>, tensor<1x1x1x8xi8>) -> tensor<1x4x4x8xi8>
func.func @add_broadcast(%a: tensor<1x4x4x8xi8>, %b: tensor<1x1x1x8xi8>) -> tensor<1x4x4x8xi8> {
  %0 = qnn.add %a, %b {lhs_scale = 0.5 : f32, lhs_zero_point = 1 : i32, rhs_scale = 0.25 : f32, rhs_zero_point = 0 : i32, output_scale = 1.0 : f32, output_zero_point = -2 : i32} : (tensor<1x4x4x8xi8>, tensor<1x1x1x8xi8>) -> tensor<1x4x4x8xi8>
  return %0 : tensor<1x4x4x8xi8>
}

// -----

// CHECK-LABEL: func @mul_u8
// CHECK: qnn.mul {{.*}} : (tensor<4xui8>, tensor<4xui8>) -> tensor<4xui8>
func.func @mul_u8(%a: tensor<4xui8>, %b: tensor<4xui8>) -> tensor<4xui8> {
  %0 = qnn.mul %a, %b {lhs_scale = 0.5 : f32, lhs_zero_point = 128 : i32, rhs_scale = 0.25 : f32, rhs_zero_point = 0 : i32, output_scale = 1.0 : f32, output_zero_point = 255 : i32} : (tensor<4xui8>, tensor<4xui8>) -> tensor<4xui8>
  return %0 : tensor<4xui8>
}

// -----

// ONNX's float32 sequence (QLinearMul) has no fixed-point multiplier, so a
// ratio of 1e30 that TFLite's rule cannot represent is accepted.
// CHECK-LABEL: func @mul_onnx
// CHECK: qnn.mul {{.*}}rounding = #qnn.rounding<onnx>
func.func @mul_onnx(%a: tensor<4xi8>, %b: tensor<4xi8>) -> tensor<4xi8> {
  %0 = qnn.mul %a, %b {lhs_scale = 1.0e15 : f32, lhs_zero_point = 0 : i32, rhs_scale = 1.0e15 : f32, rhs_zero_point = 0 : i32, output_scale = 1.0 : f32, output_zero_point = 0 : i32, rounding = #qnn.rounding<onnx>} : (tensor<4xi8>, tensor<4xi8>) -> tensor<4xi8>
  return %0 : tensor<4xi8>
}

// -----

// CHECK-LABEL: func @avg_pool_i32
// CHECK: qnn.avg_pool2d %{{.*}} {data_layout = #qnn.layout<NHWC>, kernel = array<i64: 7, 7>, padding = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>} : tensor<1x7x7x8xi32> -> tensor<1x1x1x8xi32>
func.func @avg_pool_i32(%x: tensor<1x7x7x8xi32>) -> tensor<1x1x1x8xi32> {
  %0 = qnn.avg_pool2d %x {data_layout = #qnn.layout<NHWC>, kernel = array<i64: 7, 7>, padding = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>} : tensor<1x7x7x8xi32> -> tensor<1x1x1x8xi32>
  return %0 : tensor<1x1x1x8xi32>
}

// -----

// CHECK-LABEL: func @max_pool_same_padding
// CHECK: qnn.max_pool2d %{{.*}} {data_layout = #qnn.layout<NHWC>, kernel = array<i64: 3, 3>, padding = array<i64: 0, 0, 1, 1>, strides = array<i64: 2, 2>} : tensor<1x8x8x4xi8> -> tensor<1x4x4x4xi8>
func.func @max_pool_same_padding(%x: tensor<1x8x8x4xi8>) -> tensor<1x4x4x4xi8> {
  %0 = qnn.max_pool2d %x {data_layout = #qnn.layout<NHWC>, kernel = array<i64: 3, 3>, padding = array<i64: 0, 0, 1, 1>, strides = array<i64: 2, 2>} : tensor<1x8x8x4xi8> -> tensor<1x4x4x4xi8>
  return %0 : tensor<1x4x4x4xi8>
}

// -----

// CHECK-LABEL: func @concatenate
// CHECK: qnn.concatenate %{{.*}}, %{{.*}} {axis = 3 : i64, input_scales = array<f32: 5.000000e-01, 2.500000e-01>, input_zero_points = array<i32: 0, 3>, output_scale = 5.000000e-01 : f32, output_zero_point = 0 : i32} : (tensor<1x2x2x3xi8>, tensor<1x2x2x5xi8>) -> tensor<1x2x2x8xi8>
func.func @concatenate(%a: tensor<1x2x2x3xi8>, %b: tensor<1x2x2x5xi8>) -> tensor<1x2x2x8xi8> {
  %0 = qnn.concatenate %a, %b {axis = 3 : i64, input_scales = array<f32: 0.5, 0.25>, input_zero_points = array<i32: 0, 3>, output_scale = 0.5 : f32, output_zero_point = 0 : i32} : (tensor<1x2x2x3xi8>, tensor<1x2x2x5xi8>) -> tensor<1x2x2x8xi8>
  return %0 : tensor<1x2x2x8xi8>
}

// -----

// CHECK-LABEL: func @activations
// CHECK: qnn.leaky_relu %{{.*}} {alpha = 1.000000e-01 : f32, input_scale = 5.000000e-01 : f32, input_zero_point = 0 : i32, output_scale = 2.500000e-01 : f32, output_zero_point = 0 : i32} : tensor<8xi8> -> tensor<8xi8>
// CHECK: qnn.hardswish %{{.*}} {input_scale = 5.000000e-02 : f32, input_zero_point = 3 : i32, output_scale = 2.500000e-02 : f32, output_zero_point = -5 : i32} : tensor<8xi8> -> tensor<8xi8>
// CHECK: qnn.sigmoid %{{.*}} {input_scale = 6.250000e-02 : f32, input_zero_point = 0 : i32, output_scale = 3.906250e-03 : f32, output_zero_point = -128 : i32} : tensor<8xi8> -> tensor<8xi8>
// CHECK: qnn.tanh %{{.*}} {input_scale = 6.250000e-02 : f32, input_zero_point = 128 : i32, output_scale = 7.812500e-03 : f32, output_zero_point = 128 : i32} : tensor<8xui8> -> tensor<8xui8>
func.func @activations(%x: tensor<8xi8>, %u: tensor<8xui8>) -> (tensor<8xi8>, tensor<8xi8>, tensor<8xi8>, tensor<8xui8>) {
  %0 = qnn.leaky_relu %x {alpha = 0.1 : f32, input_scale = 0.5 : f32, input_zero_point = 0 : i32, output_scale = 0.25 : f32, output_zero_point = 0 : i32} : tensor<8xi8> -> tensor<8xi8>
  %1 = qnn.hardswish %x {input_scale = 0.05 : f32, input_zero_point = 3 : i32, output_scale = 0.025 : f32, output_zero_point = -5 : i32} : tensor<8xi8> -> tensor<8xi8>
  %2 = qnn.sigmoid %x {input_scale = 0.0625 : f32, input_zero_point = 0 : i32, output_scale = 0.00390625 : f32, output_zero_point = -128 : i32} : tensor<8xi8> -> tensor<8xi8>
  %3 = qnn.tanh %u {input_scale = 0.0625 : f32, input_zero_point = 128 : i32, output_scale = 0.0078125 : f32, output_zero_point = 128 : i32} : tensor<8xui8> -> tensor<8xui8>
  return %0, %1, %2, %3 : tensor<8xi8>, tensor<8xi8>, tensor<8xi8>, tensor<8xui8>
}

// -----

// CHECK-LABEL: func.func @arg_ops
// CHECK: qnn.argmax %{{.*}} {axis = 1 : i64} : tensor<2x3xui8> -> tensor<2xi64>
// CHECK: qnn.argmin %{{.*}} {axis = 0 : i64} : tensor<2x3xi8> -> tensor<3xi32>
func.func @arg_ops(%a: tensor<2x3xui8>, %b: tensor<2x3xi8>) -> (tensor<2xi64>, tensor<3xi32>) {
  %0 = qnn.argmax %a {axis = 1 : i64} : tensor<2x3xui8> -> tensor<2xi64>
  %1 = qnn.argmin %b {axis = 0 : i64} : tensor<2x3xi8> -> tensor<3xi32>
  return %0, %1 : tensor<2xi64>, tensor<3xi32>
}

// -----

// CHECK-LABEL: func.func @global_avg_pool
// CHECK: qnn.global_avg_pool %{{.*}} {data_layout = #qnn.layout<NCHW>, input_scale = 5.000000e-01 : f32, input_zero_point = 1 : i32, output_scale = 2.500000e-01 : f32, output_zero_point = 2 : i32} : tensor<1x3x4x5xui8> -> tensor<1x3x1x1xui8>
func.func @global_avg_pool(%x: tensor<1x3x4x5xui8>) -> tensor<1x3x1x1xui8> {
  %0 = qnn.global_avg_pool %x {data_layout = #qnn.layout<NCHW>, input_scale = 0.5 : f32, input_zero_point = 1 : i32, output_scale = 0.25 : f32, output_zero_point = 2 : i32} : tensor<1x3x4x5xui8> -> tensor<1x3x1x1xui8>
  return %0 : tensor<1x3x1x1xui8>
}

// -----

// CHECK-LABEL: func @rescale_avg_pool
// CHECK: qnn.rescale_avg_pool2d %{{.*}} {count_include_pad = false, data_layout = #qnn.layout<NCHW>, input_scale = 5.000000e-01 : f32, input_zero_point = 3 : i32, kernel = array<i64: 3, 3>, output_scale = 2.500000e-01 : f32, output_zero_point = 9 : i32, padding = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : tensor<1x2x5x5xui8> -> tensor<1x2x3x3xui8>
func.func @rescale_avg_pool(%x: tensor<1x2x5x5xui8>) -> tensor<1x2x3x3xui8> {
  %0 = qnn.rescale_avg_pool2d %x {count_include_pad = false, data_layout = #qnn.layout<NCHW>, input_scale = 0.5 : f32, input_zero_point = 3 : i32, kernel = array<i64: 3, 3>, output_scale = 0.25 : f32, output_zero_point = 9 : i32, padding = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : tensor<1x2x5x5xui8> -> tensor<1x2x3x3xui8>
  return %0 : tensor<1x2x3x3xui8>
}

// -----

// CHECK-LABEL: func @prelu
// CHECK: qnn.prelu %{{.*}}, %{{.*}} {alpha_scale = 0.00999999977 : f32, alpha_zero_point = 2 : i32, input_scale = 5.000000e-02 : f32, input_zero_point = -1 : i32, output_scale = 4.000000e-02 : f32, output_zero_point = 3 : i32} : (tensor<2x5x3xi8>, tensor<1x3xi8>) -> tensor<2x5x3xi8>
func.func @prelu(%x: tensor<2x5x3xi8>, %a: tensor<1x3xi8>) -> tensor<2x5x3xi8> {
  %0 = qnn.prelu %x, %a {alpha_scale = 0.01 : f32, alpha_zero_point = 2 : i32, input_scale = 0.05 : f32, input_zero_point = -1 : i32, output_scale = 0.04 : f32, output_zero_point = 3 : i32} : (tensor<2x5x3xi8>, tensor<1x3xi8>) -> tensor<2x5x3xi8>
  return %0 : tensor<2x5x3xi8>
}

// -----

// CHECK-LABEL: func @batch_matmul
// CHECK: qnn.batch_matmul %{{.*}}, %{{.*}} {lhs_scale = 5.000000e-01 : f32, lhs_zero_point = 3 : i32, rhs_scale = 2.500000e-01 : f32, rhs_zero_point = 128 : i32} : (tensor<4x5xui8>, tensor<5x3xui8>) -> tensor<4x3xi32>
func.func @batch_matmul(%a: tensor<4x5xui8>, %b: tensor<5x3xui8>) -> tensor<4x3xi32> {
  %0 = qnn.batch_matmul %a, %b {lhs_scale = 0.5 : f32, lhs_zero_point = 3 : i32, rhs_scale = 0.25 : f32, rhs_zero_point = 128 : i32} : (tensor<4x5xui8>, tensor<5x3xui8>) -> tensor<4x3xi32>
  return %0 : tensor<4x3xi32>
}

// -----

// CHECK-LABEL: func @div
// CHECK: qnn.div %{{.*}}, %{{.*}} {lhs_scale = 5.000000e-02 : f32, lhs_zero_point = 128 : i32, output_scale = 1.000000e-01 : f32, output_zero_point = 128 : i32, rhs_scale = 3.000000e-02 : f32, rhs_zero_point = 100 : i32} : (tensor<2x4xui8>, tensor<4xui8>) -> tensor<2x4xui8>
func.func @div(%a: tensor<2x4xui8>, %b: tensor<4xui8>) -> tensor<2x4xui8> {
  %0 = qnn.div %a, %b {lhs_scale = 0.05 : f32, lhs_zero_point = 128 : i32, rhs_scale = 0.03 : f32, rhs_zero_point = 100 : i32, output_scale = 0.1 : f32, output_zero_point = 128 : i32} : (tensor<2x4xui8>, tensor<4xui8>) -> tensor<2x4xui8>
  return %0 : tensor<2x4xui8>
}

// -----

// CHECK-LABEL: func @squared_difference
// CHECK: qnn.squared_difference %{{.*}}, %{{.*}} {lhs_scale = 5.000000e-02 : f32, lhs_zero_point = -5 : i32, output_scale = 2.000000e-01 : f32, output_zero_point = -120 : i32, rhs_scale = 8.000000e-02 : f32, rhs_zero_point = 3 : i32} : (tensor<2x4xi8>, tensor<4xi8>) -> tensor<2x4xi8>
func.func @squared_difference(%a: tensor<2x4xi8>, %b: tensor<4xi8>) -> tensor<2x4xi8> {
  %0 = qnn.squared_difference %a, %b {lhs_scale = 0.05 : f32, lhs_zero_point = -5 : i32, rhs_scale = 0.08 : f32, rhs_zero_point = 3 : i32, output_scale = 0.2 : f32, output_zero_point = -120 : i32} : (tensor<2x4xi8>, tensor<4xi8>) -> tensor<2x4xi8>
  return %0 : tensor<2x4xi8>
}

// -----

// CHECK-LABEL: func @reduce_max_min
// CHECK: qnn.reduce_max %{{.*}} {axes = array<i64: 1, 3>} : tensor<2x3x4x5xi8> -> tensor<2x1x4x1xi8>
// CHECK: qnn.reduce_min %{{.*}} {axes = array<i64: 0>} : tensor<2x3x4x5xui8> -> tensor<1x3x4x5xui8>
func.func @reduce_max_min(%a: tensor<2x3x4x5xi8>, %b: tensor<2x3x4x5xui8>) -> (tensor<2x1x4x1xi8>, tensor<1x3x4x5xui8>) {
  %0 = qnn.reduce_max %a {axes = array<i64: 1, 3>} : tensor<2x3x4x5xi8> -> tensor<2x1x4x1xi8>
  %1 = qnn.reduce_min %b {axes = array<i64: 0>} : tensor<2x3x4x5xui8> -> tensor<1x3x4x5xui8>
  return %0, %1 : tensor<2x1x4x1xi8>, tensor<1x3x4x5xui8>
}

// -----

// CHECK-LABEL: func @reduce_sum
// CHECK: qnn.reduce_sum %{{.*}} {axes = array<i64: 1>, input_scale = 1.000000e-01 : f32, input_zero_point = 3 : i32, output_scale = 5.000000e-01 : f32, output_zero_point = -2 : i32} : tensor<2x8x4xi8> -> tensor<2x1x4xi8>
// CHECK: qnn.reduce_sum %{{.*}} {average, axes = array<i64: 0, 2>, input_scale = 1.000000e-01 : f32, input_zero_point = 128 : i32, output_scale = 1.000000e-01 : f32, output_zero_point = 128 : i32, rounding = #qnn.rounding<tflite>} : tensor<2x8x4xui8> -> tensor<1x8x1xui8>
func.func @reduce_sum(%a: tensor<2x8x4xi8>, %b: tensor<2x8x4xui8>) -> (tensor<2x1x4xi8>, tensor<1x8x1xui8>) {
  %0 = qnn.reduce_sum %a {axes = array<i64: 1>, input_scale = 0.1 : f32, input_zero_point = 3 : i32, output_scale = 0.5 : f32, output_zero_point = -2 : i32} : tensor<2x8x4xi8> -> tensor<2x1x4xi8>
  %1 = qnn.reduce_sum %b {average, axes = array<i64: 0, 2>, input_scale = 0.1 : f32, input_zero_point = 128 : i32, output_scale = 0.1 : f32, output_zero_point = 128 : i32, rounding = #qnn.rounding<tflite>} : tensor<2x8x4xui8> -> tensor<1x8x1xui8>
  return %0, %1 : tensor<2x1x4xi8>, tensor<1x8x1xui8>
}

// -----

// The table activations carry the rule of their table (TFLite's by default).
// CHECK-LABEL: func @tables
// CHECK: qnn.elu %{{.*}} {input_scale = 3.000000e-02 : f32, input_zero_point = 10 : i32, output_scale = 2.500000e-02 : f32, output_zero_point = 30 : i32} : tensor<8xi8> -> tensor<8xi8>
// CHECK: qnn.hardswish %{{.*}} {{.*}}rounding = #qnn.rounding<onnx>} : tensor<8xi8> -> tensor<8xi8>
// CHECK: qnn.leaky_relu %{{.*}} {{.*}}rounding = #qnn.rounding<onnx>} : tensor<8xi8> -> tensor<8xi8>
func.func @tables(%x: tensor<8xi8>) -> tensor<8xi8> {
  %0 = qnn.elu %x {input_scale = 0.03 : f32, input_zero_point = 10 : i32, output_scale = 0.025 : f32, output_zero_point = 30 : i32} : tensor<8xi8> -> tensor<8xi8>
  %1 = qnn.hardswish %0 {input_scale = 0.025 : f32, input_zero_point = 30 : i32, output_scale = 0.02 : f32, output_zero_point = 0 : i32, rounding = #qnn.rounding<onnx>} : tensor<8xi8> -> tensor<8xi8>
  %2 = qnn.leaky_relu %1 {alpha = 0.2 : f32, input_scale = 0.02 : f32, input_zero_point = 0 : i32, output_scale = 0.02 : f32, output_zero_point = 0 : i32, rounding = #qnn.rounding<onnx>} : tensor<8xi8> -> tensor<8xi8>
  return %2 : tensor<8xi8>
}

// -----

// CHECK-LABEL: func @rsqrt
// CHECK: qnn.rsqrt %{{.*}} {input_scale = 5.000000e-02 : f32, input_zero_point = -100 : i32, output_scale = 2.000000e-02 : f32, output_zero_point = -128 : i32} : tensor<8xi8> -> tensor<8xi8>
// CHECK: qnn.rsqrt %{{.*}} {{.*}}rounding = #qnn.rounding<tflite>} : tensor<8xi8> -> tensor<8xi8>
func.func @rsqrt(%x: tensor<8xi8>) -> tensor<8xi8> {
  %0 = qnn.rsqrt %x {input_scale = 0.05 : f32, input_zero_point = -100 : i32, output_scale = 0.02 : f32, output_zero_point = -128 : i32} : tensor<8xi8> -> tensor<8xi8>
  %1 = qnn.rsqrt %0 {input_scale = 0.02 : f32, input_zero_point = -128 : i32, output_scale = 0.02 : f32, output_zero_point = -128 : i32, rounding = #qnn.rounding<tflite>} : tensor<8xi8> -> tensor<8xi8>
  return %1 : tensor<8xi8>
}

// -----

// CHECK-LABEL: func @l2_normalize
// CHECK: qnn.l2_normalize %{{.*}} {input_scale = 5.000000e-02 : f32, input_zero_point = -3 : i32} : tensor<2x8xi8>
// CHECK: qnn.l2_normalize %{{.*}} {input_scale = 1.000000e-01 : f32, input_zero_point = 120 : i32, rounding = #qnn.rounding<tflite>} : tensor<4x16xui8>
func.func @l2_normalize(%a: tensor<2x8xi8>, %b: tensor<4x16xui8>) -> (tensor<2x8xi8>, tensor<4x16xui8>) {
  %0 = qnn.l2_normalize %a {input_scale = 0.05 : f32, input_zero_point = -3 : i32} : tensor<2x8xi8>
  %1 = qnn.l2_normalize %b {input_scale = 0.1 : f32, input_zero_point = 120 : i32, rounding = #qnn.rounding<tflite>} : tensor<4x16xui8>
  return %0, %1 : tensor<2x8xi8>, tensor<4x16xui8>
}

// -----

// CHECK-LABEL: func @concat_onnx
// CHECK: qnn.concatenate {{.*}}rounding = #qnn.rounding<onnx>}
func.func @concat_onnx(%a: tensor<2xi8>, %b: tensor<3xi8>) -> tensor<5xi8> {
  %0 = qnn.concatenate %a, %b {axis = 0 : i64, input_scales = array<f32: 0.5, 0.25>, input_zero_points = array<i32: 1, 0>, output_scale = 0.5 : f32, output_zero_point = 1 : i32, rounding = #qnn.rounding<onnx>} : (tensor<2xi8>, tensor<3xi8>) -> tensor<5xi8>
  return %0 : tensor<5xi8>
}
