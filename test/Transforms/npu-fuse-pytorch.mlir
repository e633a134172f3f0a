// The PyTorch-like form: float weights and biases behind qnn.quantize
// (folded to integer constants by the pipeline's canonicalization), pads
// holding the input zero point, requantize to i32 followed by a clip and a
// cast to 8 bits, NCHW activations and OIHW kernels.
// RUN: qnn-opt %s --qnn-to-npu | FileCheck %s

// Semantics: identical bytes before and after, on random inputs.
// RUN: qnn-opt %s --qnn-to-npu -o %t.npu.mlir
// RUN: %refeq %s %t.npu.mlir conv_nchw_relu6 u8:108 21 2 > %t.eq
// RUN: %refeq %s %t.npu.mlir depthwise_pointwise_nchw u8:64 22 2 >> %t.eq
// RUN: %refeq %s %t.npu.mlir pad_not_zero_point u8:108 23 2 >> %t.eq
// RUN: %refeq %s %t.npu.mlir avgpool_nchw u8:64 24 2 >> %t.eq
// RUN: %refeq %s %t.npu.mlir dense_float_weights i8:16 25 2 >> %t.eq
// RUN: FileCheck %s --check-prefix=EQ < %t.eq
// EQ-COUNT-10: trial {{[0-1]}}: identical result 0: tensor<
// EQ-NOT: DIFFERENT

// The kernel becomes an OHWI integer constant, the pad folds into the
// operator's padding, the clip [5, 65] after the requantize to i32 is the
// relu6 range of the output (5 + round(6 / 0.1)), and NCHW data is
// transposed at the boundary.
// CHECK-LABEL: func.func @conv_nchw_relu6
// CHECK-DAG: %[[B:.+]] = arith.constant dense<{{.*}}> : tensor<4xi32>
// CHECK-DAG: %[[W:.+]] = arith.constant dense<{{.*}}> : tensor<4x3x3x3xui8>
// CHECK: %[[X:.+]] = tosa.transpose %arg0 {perms = array<i32: 0, 2, 3, 1>} : (tensor<1x3x6x6xui8>) -> tensor<1x6x6x3xui8>
// CHECK-NEXT: %[[C:.+]] = npu.conv2d %[[X]], %[[W]], %[[B]] {act_max = 65 : i32, act_min = 5 : i32, activation = #npu.activation<relu6>, dilations = array<i64: 1, 1>, groups = 1 : i64, input_scale = 5.000000e-02 : f32, input_zero_point = 128 : i32, output_scale = 1.000000e-01 : f32, output_zero_point = 5 : i32, pad_value = 128 : i32, padding = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>, weight_scale = array<f32: 2.000000e-02>, weight_zero_point = 120 : i32} : (tensor<1x6x6x3xui8>, tensor<4x3x3x3xui8>, tensor<4xi32>) -> tensor<1x6x6x4xui8>
// CHECK-NEXT: %[[R:.+]] = tosa.transpose %[[C]] {perms = array<i32: 0, 3, 1, 2>} : (tensor<1x6x6x4xui8>) -> tensor<1x4x6x6xui8>
// CHECK-NEXT: return %[[R]]
func.func @conv_nchw_relu6(%x: tensor<1x3x6x6xui8>) -> tensor<1x4x6x6xui8> {
  %wf = arith.constant dense<[[[[-0.23, 0.29, 2.04], [-0.16, 0.04, 0.42], [-1.51, 0.06, 0.62]], [[1.41, -1.95, -0.94], [-1.96, 1.49, 0.93], [-2.20, 2.31, 2.23]], [[0.74, 0.55, -1.64], [-2.33, 0.14, -2.11], [-1.49, -1.24, -2.26]]], [[[-0.17, -0.29, 1.64], [0.09, 0.67, -0.00], [0.78, -0.20, -1.06]], [[2.39, 2.38, 1.63], [1.00, -0.89, -1.30], [-1.01, -2.06, 1.28]], [[-0.48, 1.66, -0.54], [2.20, 1.67, -2.40], [-1.39, 1.97, -0.14]]], [[[2.31, -0.49, -2.05], [0.62, 1.34, -1.11], [-1.98, -0.80, 2.23]], [[1.24, -1.83, -1.22], [-1.91, -2.11, 1.43], [-1.55, 0.28, -0.25]], [[-1.48, 1.11, -1.77], [0.69, -1.84, -0.38], [-1.38, -1.10, 2.26]]], [[[1.46, -0.94, 1.85], [-1.39, -0.51, 1.70], [0.68, -1.92, 2.35]], [[-1.38, -1.16, 1.31], [-0.82, -0.98, -2.05], [-1.97, 0.40, -1.23]], [[0.49, -0.62, -0.22], [2.20, -0.08, 0.36], [1.76, -1.52, -1.66]]]]> : tensor<4x3x3x3xf32>
  %w = qnn.quantize %wf {scale = array<f32: 0.02>, zero_point = array<i32: 120>} : tensor<4x3x3x3xf32> -> tensor<4x3x3x3xui8>
  %bf = arith.constant dense<[[[[0.04]], [[0.03]], [[-0.03]], [[-0.03]]]]> : tensor<1x4x1x1xf32>
  %b = qnn.quantize %bf {scale = array<f32: 0.001>, zero_point = array<i32: 0>} : tensor<1x4x1x1xf32> -> tensor<1x4x1x1xi32>
  %zpt = arith.constant dense<128> : tensor<ui8>
  %zp = tensor.extract %zpt[] : tensor<ui8>
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zp : ui8
  } : tensor<1x3x6x6xui8> to tensor<1x3x8x8xui8>
  %c = qnn.conv2d %p, %w {data_layout = #qnn.layout<NCHW>, dilations = array<i64: 1, 1>, groups = 1 : i64, input_scale = 0.05 : f32, input_zero_point = 128 : i32, kernel_layout = #qnn.kernel_layout<OIHW>, padding = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, weight_scale = array<f32: 0.02>, weight_zero_point = 120 : i32} : (tensor<1x3x8x8xui8>, tensor<4x3x3x3xui8>) -> tensor<1x4x6x6xi32>
  %a = tosa.add %c, %b : (tensor<1x4x6x6xi32>, tensor<1x4x1x1xi32>) -> tensor<1x4x6x6xi32>
  %q = qnn.requantize %a {input_scale = array<f64: 0.00099999999254941907>, input_zero_point = 0 : i32, output_scale = 0.1 : f32, output_zero_point = 5 : i32} : tensor<1x4x6x6xi32> -> tensor<1x4x6x6xi32>
  %cl = tosa.clamp %q {min_val = 5 : i32, max_val = 65 : i32} : (tensor<1x4x6x6xi32>) -> tensor<1x4x6x6xi32>
  %r = tosa.cast %cl : (tensor<1x4x6x6xi32>) -> tensor<1x4x6x6xui8>
  return %r : tensor<1x4x6x6xui8>
}

// Depthwise (OIHW with I = 1, groups = C) then pointwise with per-channel
// weights: the transposes between the two operators cancel.
// CHECK-LABEL: func.func @depthwise_pointwise_nchw
// CHECK: tosa.transpose %arg0
// CHECK-NEXT: %[[D:.+]] = npu.conv2d %{{.+}}, %{{.+}} {act_max = 255 : i32, act_min = 0 : i32, {{.*}}groups = 4 : i64, {{.*}}padding = array<i64: 1, 1, 1, 1>, {{.*}} : (tensor<1x4x4x4xui8>, tensor<4x3x3x1xui8>) -> tensor<1x4x4x4xui8>
// CHECK-NEXT: %[[P:.+]] = npu.conv2d %[[D]], %{{.+}}, %{{.+}} {{{.*}}groups = 1 : i64, {{.*}}weight_scale = array<f32: 1.500000e-02, 0.00999999977, 1.500000e-02, 0.00999999977, 1.500000e-02, 0.00999999977>{{.*}} : (tensor<1x4x4x4xui8>, tensor<6x1x1x4xui8>, tensor<6xi32>) -> tensor<1x4x4x6xui8>
// CHECK-NEXT: tosa.transpose %[[P]] {perms = array<i32: 0, 3, 1, 2>}
// CHECK-NEXT: return
func.func @depthwise_pointwise_nchw(%x: tensor<1x4x4x4xui8>) -> tensor<1x6x4x4xui8> {
  %wf1 = arith.constant dense<[[[[1.68, 3.08, -2.12], [3.15, 2.68, 0.72], [-0.55, -2.77, -3.23]]], [[[3.24, -1.83, 1.43], [-1.70, 2.27, 0.68], [-1.45, -2.27, 1.54]]], [[[-3.02, -1.90, 0.42], [2.47, 0.80, -1.54], [2.92, -2.07, -3.38]]], [[[-1.62, -0.38, -3.08], [-2.27, -0.92, 0.51], [-2.58, -0.96, 2.74]]]]> : tensor<4x1x3x3xf32>
  %w1 = qnn.quantize %wf1 {scale = array<f32: 0.03>, zero_point = array<i32: 130>} : tensor<4x1x3x3xf32> -> tensor<4x1x3x3xui8>
  %zpt = arith.constant dense<0> : tensor<ui8>
  %zp = tensor.extract %zpt[] : tensor<ui8>
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zp : ui8
  } : tensor<1x4x4x4xui8> to tensor<1x4x6x6xui8>
  %c1 = qnn.conv2d %p, %w1 {data_layout = #qnn.layout<NCHW>, dilations = array<i64: 1, 1>, groups = 4 : i64, input_scale = 0.1 : f32, input_zero_point = 0 : i32, kernel_layout = #qnn.kernel_layout<OIHW>, padding = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, weight_scale = array<f32: 0.03>, weight_zero_point = 130 : i32} : (tensor<1x4x6x6xui8>, tensor<4x1x3x3xui8>) -> tensor<1x4x4x4xi32>
  %q1 = qnn.requantize %c1 {input_scale = array<f64: 0.0029999999776482572>, input_zero_point = 0 : i32, output_scale = 0.1 : f32, output_zero_point = 0 : i32} : tensor<1x4x4x4xi32> -> tensor<1x4x4x4xi32>
  %cl1 = tosa.clamp %q1 {min_val = 0 : i32, max_val = 255 : i32} : (tensor<1x4x4x4xi32>) -> tensor<1x4x4x4xi32>
  %a1 = tosa.cast %cl1 : (tensor<1x4x4x4xi32>) -> tensor<1x4x4x4xui8>
  %wf2 = arith.constant dense<[[[[1.44]], [[0.47]], [[0.57]], [[0.25]]], [[[-1.08]], [[-1.39]], [[-1.45]], [[1.23]]], [[[0.60]], [[1.39]], [[-1.44]], [[0.41]]], [[[-0.05]], [[0.69]], [[-0.54]], [[1.50]]], [[[-1.27]], [[0.14]], [[0.71]], [[1.20]]], [[[0.71]], [[0.61]], [[0.88]], [[1.25]]]]> : tensor<6x4x1x1xf32>
  %w2 = qnn.quantize %wf2 {axis = 0 : i64, scale = array<f32: 0.015, 0.01, 0.015, 0.01, 0.015, 0.01>, zero_point = array<i32: 128>} : tensor<6x4x1x1xf32> -> tensor<6x4x1x1xui8>
  %bf2 = arith.constant dense<[[[[-0.01]], [[0.02]], [[0.04]], [[0.04]], [[-0.01]], [[0.03]]]]> : tensor<1x6x1x1xf32>
  %b2 = qnn.quantize %bf2 {axis = 1 : i64, scale = array<f32: 0.0015, 0.001, 0.0015, 0.001, 0.0015, 0.001>, zero_point = array<i32: 0>} : tensor<1x6x1x1xf32> -> tensor<1x6x1x1xi32>
  %c2 = qnn.conv2d %a1, %w2 {data_layout = #qnn.layout<NCHW>, dilations = array<i64: 1, 1>, groups = 1 : i64, input_scale = 0.1 : f32, input_zero_point = 0 : i32, kernel_layout = #qnn.kernel_layout<OIHW>, padding = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, weight_scale = array<f32: 0.015, 0.01, 0.015, 0.01, 0.015, 0.01>, weight_zero_point = 128 : i32} : (tensor<1x4x4x4xui8>, tensor<6x4x1x1xui8>) -> tensor<1x6x4x4xi32>
  %ab = tosa.add %c2, %b2 : (tensor<1x6x4x4xi32>, tensor<1x6x1x1xi32>) -> tensor<1x6x4x4xi32>
  %q2 = qnn.requantize %ab {axis = 1 : i64, input_scale = array<f64: 0.0014999999888241286, 0.00099999999254941907, 0.0014999999888241286, 0.00099999999254941907, 0.0014999999888241286, 0.00099999999254941907>, input_zero_point = 0 : i32, output_scale = 0.2 : f32, output_zero_point = 10 : i32} : tensor<1x6x4x4xi32> -> tensor<1x6x4x4xi32>
  %cl2 = tosa.clamp %q2 {min_val = 0 : i32, max_val = 255 : i32} : (tensor<1x6x4x4xi32>) -> tensor<1x6x4x4xi32>
  %a2 = tosa.cast %cl2 : (tensor<1x6x4x4xi32>) -> tensor<1x6x4x4xui8>
  return %a2 : tensor<1x6x4x4xui8>
}

// A pad whose value is not the input zero point is not folded (the padded
// positions contribute to the sum); it stays in front of the operator.
// CHECK-LABEL: func.func @pad_not_zero_point
// CHECK: %[[P:.+]] = tensor.pad %arg0 low[0, 0, 1, 1] high[0, 0, 1, 1]
// CHECK: %[[X:.+]] = tosa.transpose %[[P]]
// CHECK-NEXT: npu.conv2d %[[X]], {{.*}}pad_value = 128 : i32, padding = array<i64: 0, 0, 0, 0>
func.func @pad_not_zero_point(%x: tensor<1x3x6x6xui8>) -> tensor<1x4x6x6xui8> {
  %wf = arith.constant dense<[[[[-0.23, 0.29, 2.04], [-0.16, 0.04, 0.42], [-1.51, 0.06, 0.62]], [[1.41, -1.95, -0.94], [-1.96, 1.49, 0.93], [-2.20, 2.31, 2.23]], [[0.74, 0.55, -1.64], [-2.33, 0.14, -2.11], [-1.49, -1.24, -2.26]]], [[[-0.17, -0.29, 1.64], [0.09, 0.67, -0.00], [0.78, -0.20, -1.06]], [[2.39, 2.38, 1.63], [1.00, -0.89, -1.30], [-1.01, -2.06, 1.28]], [[-0.48, 1.66, -0.54], [2.20, 1.67, -2.40], [-1.39, 1.97, -0.14]]], [[[2.31, -0.49, -2.05], [0.62, 1.34, -1.11], [-1.98, -0.80, 2.23]], [[1.24, -1.83, -1.22], [-1.91, -2.11, 1.43], [-1.55, 0.28, -0.25]], [[-1.48, 1.11, -1.77], [0.69, -1.84, -0.38], [-1.38, -1.10, 2.26]]], [[[1.46, -0.94, 1.85], [-1.39, -0.51, 1.70], [0.68, -1.92, 2.35]], [[-1.38, -1.16, 1.31], [-0.82, -0.98, -2.05], [-1.97, 0.40, -1.23]], [[0.49, -0.62, -0.22], [2.20, -0.08, 0.36], [1.76, -1.52, -1.66]]]]> : tensor<4x3x3x3xf32>
  %w = qnn.quantize %wf {scale = array<f32: 0.02>, zero_point = array<i32: 120>} : tensor<4x3x3x3xf32> -> tensor<4x3x3x3xui8>
  %pvt = arith.constant dense<7> : tensor<ui8>
  %pv = tensor.extract %pvt[] : tensor<ui8>
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %pv : ui8
  } : tensor<1x3x6x6xui8> to tensor<1x3x8x8xui8>
  %c = qnn.conv2d %p, %w {data_layout = #qnn.layout<NCHW>, dilations = array<i64: 1, 1>, groups = 1 : i64, input_scale = 0.05 : f32, input_zero_point = 128 : i32, kernel_layout = #qnn.kernel_layout<OIHW>, padding = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, weight_scale = array<f32: 0.02>, weight_zero_point = 120 : i32} : (tensor<1x3x8x8xui8>, tensor<4x3x3x3xui8>) -> tensor<1x4x6x6xi32>
  %q = qnn.requantize %c {input_scale = array<f64: 0.00099999999254941907>, input_zero_point = 0 : i32, output_scale = 0.1 : f32, output_zero_point = 5 : i32} : tensor<1x4x6x6xi32> -> tensor<1x4x6x6xi32>
  %cl = tosa.clamp %q {min_val = 0 : i32, max_val = 255 : i32} : (tensor<1x4x6x6xi32>) -> tensor<1x4x6x6xi32>
  %r = tosa.cast %cl : (tensor<1x4x6x6xi32>) -> tensor<1x4x6x6xui8>
  return %r : tensor<1x4x6x6xui8>
}

// CHECK-LABEL: func.func @avgpool_nchw
// CHECK: %[[X:.+]] = tosa.transpose %arg0 {perms = array<i32: 0, 2, 3, 1>}
// CHECK-NEXT: %[[A:.+]] = npu.avg_pool2d %[[X]] {act_max = 255 : i32, act_min = 0 : i32, kernel = array<i64: 3, 3>, padding = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : tensor<1x4x4x4xui8> -> tensor<1x2x2x4xui8>
// CHECK-NEXT: tosa.transpose %[[A]] {perms = array<i32: 0, 3, 1, 2>}
func.func @avgpool_nchw(%x: tensor<1x4x4x4xui8>) -> tensor<1x4x2x2xui8> {
  %w = tosa.cast %x : (tensor<1x4x4x4xui8>) -> tensor<1x4x4x4xi32>
  %p = qnn.avg_pool2d %w {data_layout = #qnn.layout<NCHW>, kernel = array<i64: 3, 3>, padding = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : tensor<1x4x4x4xi32> -> tensor<1x4x2x2xi32>
  %n = tosa.cast %p : (tensor<1x4x2x2xi32>) -> tensor<1x4x2x2xui8>
  return %n : tensor<1x4x2x2xui8>
}

// CHECK-LABEL: func.func @dense_float_weights
// CHECK-NOT: qnn.quantize
// CHECK: npu.fully_connected %arg0, %{{.+}}, %{{.+}} {act_max = 127 : i32, act_min = -128 : i32, {{.*}} : (tensor<2x8xi8>, tensor<3x8xi8>, tensor<3xi32>) -> tensor<2x3xi8>
func.func @dense_float_weights(%x: tensor<2x8xi8>) -> tensor<2x3xi8> {
  %wf = arith.constant dense<[[0.73, 0.15, 0.25, -0.24, 0.17, 0.22, -0.84, 0.28], [0.99, 0.76, 0.46, -0.22, 0.47, 0.16, -0.12, 0.68], [-0.83, 0.50, -0.94, 0.20, -0.04, -0.54, 0.40, -0.01]]> : tensor<3x8xf32>
  %w = qnn.quantize %wf {scale = array<f32: 0.01>, zero_point = array<i32: 0>} : tensor<3x8xf32> -> tensor<3x8xi8>
  %bf = arith.constant dense<[[0.00, 0.02, -0.01]]> : tensor<1x3xf32>
  %b = qnn.quantize %bf {scale = array<f32: 0.0005>, zero_point = array<i32: 0>} : tensor<1x3xf32> -> tensor<1x3xi32>
  %d = qnn.dense %x, %w {input_scale = 0.05 : f32, input_zero_point = -1 : i32, weight_scale = array<f32: 0.01>, weight_zero_point = 0 : i32} : (tensor<2x8xi8>, tensor<3x8xi8>) -> tensor<2x3xi32>
  %a = tosa.add %d, %b : (tensor<2x3xi32>, tensor<1x3xi32>) -> tensor<2x3xi32>
  %q = qnn.requantize %a {input_scale = array<f64: 0.00049999999627470954>, input_zero_point = 0 : i32, output_scale = 0.1 : f32, output_zero_point = 0 : i32} : tensor<2x3xi32> -> tensor<2x3xi32>
  %cl = tosa.clamp %q {min_val = -128 : i32, max_val = 127 : i32} : (tensor<2x3xi32>) -> tensor<2x3xi32>
  %r = tosa.cast %cl : (tensor<2x3xi32>) -> tensor<2x3xi8>
  return %r : tensor<2x3xi8>
}
