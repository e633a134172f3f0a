// The TFLite form of every fusable chain becomes one npu operator.
// RUN: qnn-opt %s --npu-fuse | FileCheck %s
// No qnn or tosa arithmetic is left over (the casts, pads, clamps and
// activations all fused).
// RUN: qnn-opt %s --qnn-to-npu | FileCheck %s --check-prefix=LEFT
// LEFT-NOT: {{ qnn\.[a-z_0-9]+ }}
// LEFT-NOT: tosa.
// LEFT-NOT: tensor.pad

// Semantics: the reference evaluator computes the same bytes before and
// after fusion, on random inputs.
// RUN: qnn-opt %s --qnn-to-npu -o %t.npu.mlir
// RUN: %refeq %s %t.npu.mlir conv_pad_bias_relu6 i8:108 1 2 > %t.eq
// RUN: %refeq %s %t.npu.mlir depthwise_relu i8:100 2 2 >> %t.eq
// RUN: %refeq %s %t.npu.mlir dense_bias i8:16 3 2 >> %t.eq
// RUN: %refeq %s %t.npu.mlir add_of_requantized i8:32 4 2 >> %t.eq
// RUN: %refeq %s %t.npu.mlir avgpool_between_casts i8:48 5 2 >> %t.eq
// RUN: %refeq %s %t.npu.mlir maxpool_clamp i8:48 6 2 >> %t.eq
// RUN: %refeq %s %t.npu.mlir conv_leaky_relu i8:32 7 2 >> %t.eq
// RUN: %refeq %s %t.npu.mlir conv_hardswish i8:32 8 2 >> %t.eq
// RUN: %refeq %s %t.npu.mlir conv_sigmoid_clamp i8:32 9 2 >> %t.eq
// RUN: %refeq %s %t.npu.mlir conv_tanh i8:32 10 2 >> %t.eq
// RUN: %refeq %s %t.npu.mlir depthwise_multiplier i8:108 11 2 >> %t.eq
// RUN: %refeq %s %t.npu.mlir add_lower_rank_hardswish i8:32,i8:2 12 2 >> %t.eq
// RUN: %refeq %s %t.npu.mlir single_rounding_conv_add i8:32,i8:32 13 2 >> %t.eq
// RUN: FileCheck %s --check-prefix=EQ < %t.eq
// EQ-COUNT-26: trial {{[0-1]}}: identical result 0: tensor<
// EQ-NOT: DIFFERENT

// pad (holding the input zero point) -> conv -> bias add -> per-channel
// requantize -> clamp [zp, zp + round(6 / scale)] = relu6.
// CHECK-LABEL: func.func @conv_pad_bias_relu6
// CHECK-DAG: %[[B:.+]] = arith.constant dense<{{\[}}[[BIAS:-?[0-9]+]], {{.*}}]> : tensor<4xi32>
// CHECK-DAG: %[[W:.+]] = arith.constant dense<{{.*}}> : tensor<4x3x3x3xi8>
// CHECK-NOT: tensor.pad
// CHECK: %[[R:.+]] = npu.conv2d %arg0, %[[W]], %[[B]] {act_max = 50 : i32, act_min = -10 : i32, activation = #npu.activation<relu6>, dilations = array<i64: 1, 1>, groups = 1 : i64, input_scale = 5.000000e-02 : f32, input_zero_point = -3 : i32, output_scale = 1.000000e-01 : f32, output_zero_point = -10 : i32, pad_value = -3 : i32, padding = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>, weight_scale = array<f32: 0.00999999977, 2.000000e-02, 1.500000e-02, 0.00999999977>, weight_zero_point = 0 : i32} : (tensor<1x6x6x3xi8>, tensor<4x3x3x3xi8>, tensor<4xi32>) -> tensor<1x3x3x4xi8>
// CHECK-NEXT: return %[[R]]
func.func @conv_pad_bias_relu6(%x: tensor<1x6x6x3xi8>) -> tensor<1x3x3x4xi8> {
  %w = arith.constant dense<[[[[-45, 115, -89], [-26, 39, -115], [-109, 83, 10]], [[-103, -34, 22], [-113, 105, 2], [-73, -118, -105]], [[-16, -20, -110], [-66, -104, 14], [-19, -112, 84]]], [[[17, -96, 115], [-70, 34, 33], [22, 115, -112]], [[20, 22, -26], [-115, 122, -71], [-116, 15, 92]], [[-93, -53, -20], [-91, 11, -97], [19, -49, 16]]], [[[81, 47, -81], [-101, 21, 19], [36, -79, -32]], [[-103, 13, 55], [-111, 17, -112], [31, -75, 0]], [[47, 9, -18], [71, -47, -8], [22, 109, -11]]], [[[-35, -51, -64], [76, -81, 51], [72, -65, -107]], [[20, -51, 7], [-1, 97, -40], [59, -13, -54]], [[28, 123, -109], [-97, 4, -20], [-85, 66, -40]]]]> : tensor<4x3x3x3xi8>
  %b = arith.constant dense<[[[[-245, 100, 31, -360]]]]> : tensor<1x1x1x4xi32>
  %zp = arith.constant -3 : i8
  %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zp : i8
  } : tensor<1x6x6x3xi8> to tensor<1x8x8x3xi8>
  %c = qnn.conv2d %p, %w {data_layout = #qnn.layout<NHWC>, dilations = array<i64: 1, 1>, groups = 1 : i64, input_scale = 0.05 : f32, input_zero_point = -3 : i32, kernel_layout = #qnn.kernel_layout<OHWI>, padding = array<i64: 0, 0, 0, 0>, strides = array<i64: 2, 2>, weight_scale = array<f32: 0.01, 0.02, 0.015, 0.01>, weight_zero_point = 0 : i32} : (tensor<1x8x8x3xi8>, tensor<4x3x3x3xi8>) -> tensor<1x3x3x4xi32>
  %a = tosa.add %c, %b : (tensor<1x3x3x4xi32>, tensor<1x1x1x4xi32>) -> tensor<1x3x3x4xi32>
  %q = qnn.requantize %a {axis = 3 : i64, input_scale = array<f64: 0.00049999999627470954, 0.00099999999254941907, 0.0007499999944120643, 0.00049999999627470954>, input_zero_point = 0 : i32, output_scale = 0.1 : f32, output_zero_point = -10 : i32} : tensor<1x3x3x4xi32> -> tensor<1x3x3x4xi8>
  %r = tosa.clamp %q {min_val = -10 : i8, max_val = 50 : i8} : (tensor<1x3x3x4xi8>) -> tensor<1x3x3x4xi8>
  return %r : tensor<1x3x3x4xi8>
}

// TFLite depthwise (kernel 1xHxWxO, IHWO): the constant kernel is
// transposed to OHWI at compile time; clamp [zp, 127] = relu.
// CHECK-LABEL: func.func @depthwise_relu
// CHECK: %[[W:.+]] = arith.constant dense<{{.*}}> : tensor<4x3x3x1xi8>
// CHECK: npu.conv2d %arg0, %[[W]] {act_max = 127 : i32, act_min = -5 : i32, activation = #npu.activation<relu>, dilations = array<i64: 1, 1>, groups = 4 : i64,
// CHECK-SAME: padding = array<i64: 1, 1, 1, 1>
// CHECK-SAME: : (tensor<1x5x5x4xi8>, tensor<4x3x3x1xi8>) -> tensor<1x5x5x4xi8>
func.func @depthwise_relu(%x: tensor<1x5x5x4xi8>) -> tensor<1x5x5x4xi8> {
  %w = arith.constant dense<[[[[119, 44, -108, 68], [15, 19, 75, 97], [82, -47, -40, 50]], [[-38, 25, 0, 21], [77, -11, -110, 88], [-104, 114, -58, -6]], [[51, 43, -111, -112], [60, 52, -48, 38], [20, 127, 47, 83]]]]> : tensor<1x3x3x4xi8>
  %c = qnn.conv2d %x, %w {data_layout = #qnn.layout<NHWC>, dilations = array<i64: 1, 1>, groups = 4 : i64, input_scale = 0.05 : f32, input_zero_point = 2 : i32, kernel_layout = #qnn.kernel_layout<IHWO>, padding = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>, weight_scale = array<f32: 0.02>, weight_zero_point = 0 : i32} : (tensor<1x5x5x4xi8>, tensor<1x3x3x4xi8>) -> tensor<1x5x5x4xi32>
  %q = qnn.requantize %c {input_scale = array<f64: 0.00099999999254941907>, input_zero_point = 0 : i32, output_scale = 0.1 : f32, output_zero_point = -5 : i32} : tensor<1x5x5x4xi32> -> tensor<1x5x5x4xi8>
  %r = tosa.clamp %q {min_val = -5 : i8, max_val = 127 : i8} : (tensor<1x5x5x4xi8>) -> tensor<1x5x5x4xi8>
  return %r : tensor<1x5x5x4xi8>
}

// CHECK-LABEL: func.func @dense_bias
// CHECK-DAG: %[[B:.+]] = arith.constant dense<{{.*}}> : tensor<3xi32>
// CHECK-DAG: %[[W:.+]] = arith.constant dense<{{.*}}> : tensor<3x8xi8>
// CHECK: %[[R:.+]] = npu.fully_connected %arg0, %[[W]], %[[B]] {act_max = 127 : i32, act_min = -128 : i32, input_scale = 5.000000e-02 : f32, input_zero_point = 1 : i32, output_scale = 2.000000e-01 : f32, output_zero_point = 4 : i32, weight_scale = array<f32: 0.00999999977, 2.000000e-02, 1.500000e-02>, weight_zero_point = 0 : i32} : (tensor<2x8xi8>, tensor<3x8xi8>, tensor<3xi32>) -> tensor<2x3xi8>
// CHECK-NEXT: return %[[R]]
func.func @dense_bias(%x: tensor<2x8xi8>) -> tensor<2x3xi8> {
  %w = arith.constant dense<[[-13, -55, 56, -29, 100, 44, -39, -122], [113, -9, -37, -84, 29, -98, -1, -112], [-72, 69, -54, -94, 62, -64, -26, -27]]> : tensor<3x8xi8>
  %b = arith.constant dense<[[208, -218, -130]]> : tensor<1x3xi32>
  %d = qnn.dense %x, %w {input_scale = 0.05 : f32, input_zero_point = 1 : i32, weight_scale = array<f32: 0.01, 0.02, 0.015>, weight_zero_point = 0 : i32} : (tensor<2x8xi8>, tensor<3x8xi8>) -> tensor<2x3xi32>
  %a = tosa.add %b, %d : (tensor<1x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
  %q = qnn.requantize %a {axis = 1 : i64, input_scale = array<f64: 0.00049999999627470954, 0.00099999999254941907, 0.0007499999944120643>, input_zero_point = 0 : i32, output_scale = 0.2 : f32, output_zero_point = 4 : i32} : tensor<2x3xi32> -> tensor<2x3xi8>
  return %q : tensor<2x3xi8>
}

// A residual add of two requantized convolutions: both convolutions and
// the add (with its relu clamp) fuse.
// CHECK-LABEL: func.func @add_of_requantized
// CHECK: %[[L:.+]] = npu.conv2d %arg0, %{{.+}} {{{.*}}output_scale = 1.000000e-01 : f32, output_zero_point = 3 : i32
// CHECK: %[[R:.+]] = npu.conv2d %arg0, %{{.+}} {{{.*}}output_scale = 2.000000e-01 : f32, output_zero_point = -7 : i32
// CHECK: %[[S:.+]] = npu.add %[[L]], %[[R]] {act_max = 127 : i32, act_min = 0 : i32, activation = #npu.activation<relu>, lhs_scale = 1.000000e-01 : f32, lhs_zero_point = 3 : i32, output_scale = 2.500000e-01 : f32, output_zero_point = 0 : i32, rhs_scale = 2.000000e-01 : f32, rhs_zero_point = -7 : i32} : (tensor<1x4x4x2xi8>, tensor<1x4x4x2xi8>) -> tensor<1x4x4x2xi8>
// CHECK-NEXT: return %[[S]]
func.func @add_of_requantized(%x: tensor<1x4x4x2xi8>) -> tensor<1x4x4x2xi8> {
  %wa = arith.constant dense<[[[[-13, -25]]], [[[13, -56]]]]> : tensor<2x1x1x2xi8>
  %wb = arith.constant dense<[[[[99, -92]]], [[[82, -17]]]]> : tensor<2x1x1x2xi8>
  %ca = qnn.conv2d %x, %wa {data_layout = #qnn.layout<NHWC>, dilations = array<i64: 1, 1>, groups = 1 : i64, input_scale = 0.05 : f32, input_zero_point = 0 : i32, kernel_layout = #qnn.kernel_layout<OHWI>, padding = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, weight_scale = array<f32: 0.02>, weight_zero_point = 0 : i32} : (tensor<1x4x4x2xi8>, tensor<2x1x1x2xi8>) -> tensor<1x4x4x2xi32>
  %qa = qnn.requantize %ca {input_scale = array<f64: 0.00099999999254941907>, input_zero_point = 0 : i32, output_scale = 0.1 : f32, output_zero_point = 3 : i32} : tensor<1x4x4x2xi32> -> tensor<1x4x4x2xi8>
  %cb = qnn.conv2d %x, %wb {data_layout = #qnn.layout<NHWC>, dilations = array<i64: 1, 1>, groups = 1 : i64, input_scale = 0.05 : f32, input_zero_point = 0 : i32, kernel_layout = #qnn.kernel_layout<OHWI>, padding = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, weight_scale = array<f32: 0.02>, weight_zero_point = 0 : i32} : (tensor<1x4x4x2xi8>, tensor<2x1x1x2xi8>) -> tensor<1x4x4x2xi32>
  %qb = qnn.requantize %cb {input_scale = array<f64: 0.00099999999254941907>, input_zero_point = 0 : i32, output_scale = 0.2 : f32, output_zero_point = -7 : i32} : tensor<1x4x4x2xi32> -> tensor<1x4x4x2xi8>
  %s = qnn.add %qa, %qb {lhs_scale = 0.1 : f32, lhs_zero_point = 3 : i32, rhs_scale = 0.2 : f32, rhs_zero_point = -7 : i32, output_scale = 0.25 : f32, output_zero_point = 0 : i32} : (tensor<1x4x4x2xi8>, tensor<1x4x4x2xi8>) -> tensor<1x4x4x2xi8>
  %r = tosa.clamp %s {min_val = 0 : i8, max_val = 127 : i8} : (tensor<1x4x4x2xi8>) -> tensor<1x4x4x2xi8>
  return %r : tensor<1x4x4x2xi8>
}

// CHECK-LABEL: func.func @avgpool_between_casts
// CHECK-NEXT: %[[R:.+]] = npu.avg_pool2d %arg0 {act_max = 127 : i32, act_min = -128 : i32, kernel = array<i64: 2, 2>, padding = array<i64: 0, 0, 1, 1>, strides = array<i64: 2, 2>} : tensor<1x4x4x3xi8> -> tensor<1x2x2x3xi8>
// CHECK-NEXT: return %[[R]]
func.func @avgpool_between_casts(%x: tensor<1x4x4x3xi8>) -> tensor<1x2x2x3xi8> {
  %w = tosa.cast %x : (tensor<1x4x4x3xi8>) -> tensor<1x4x4x3xi32>
  %p = qnn.avg_pool2d %w {data_layout = #qnn.layout<NHWC>, kernel = array<i64: 2, 2>, padding = array<i64: 0, 0, 1, 1>, strides = array<i64: 2, 2>} : tensor<1x4x4x3xi32> -> tensor<1x2x2x3xi32>
  %n = tosa.cast %p : (tensor<1x2x2x3xi32>) -> tensor<1x2x2x3xi8>
  return %n : tensor<1x2x2x3xi8>
}

// A max pool on 8-bit data followed by a clamp (the clamp narrows the
// pool's range: 'clip').
// CHECK-LABEL: func.func @maxpool_clamp
// CHECK-NEXT: %[[R:.+]] = npu.max_pool2d %arg0 {act_max = 100 : i32, act_min = -20 : i32, activation = #npu.activation<clip>, kernel = array<i64: 3, 3>, padding = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : tensor<1x4x4x3xi8> -> tensor<1x2x2x3xi8>
// CHECK-NEXT: return %[[R]]
func.func @maxpool_clamp(%x: tensor<1x4x4x3xi8>) -> tensor<1x2x2x3xi8> {
  %p = qnn.max_pool2d %x {data_layout = #qnn.layout<NHWC>, kernel = array<i64: 3, 3>, padding = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : tensor<1x4x4x3xi8> -> tensor<1x2x2x3xi8>
  %r = tosa.clamp %p {min_val = -20 : i8, max_val = 100 : i8} : (tensor<1x2x2x3xi8>) -> tensor<1x2x2x3xi8>
  return %r : tensor<1x2x2x3xi8>
}

// The quantized leaky ReLU becomes the fixed-point epilogue; the
// requantize's rounding rule (here TVM's upward) is kept.
// CHECK-LABEL: func.func @conv_leaky_relu
// CHECK: %[[R:.+]] = npu.conv2d %arg0, %{{.+}}, %{{.+}} {act_max = 127 : i32, act_min = -128 : i32, activation = #npu.activation<leaky_relu>,
// CHECK-SAME: leaky_params = array<i32: [[IM:[0-9]+]], [[IS:-?[0-9]+]], [[AM:[0-9]+]], [[AS:-?[0-9]+]], 6>
// CHECK-SAME: output_scale = 1.000000e-01 : f32, output_zero_point = -2 : i32
// CHECK-SAME: rounding = #qnn.rounding<upward>
// CHECK-NEXT: return %[[R]]
func.func @conv_leaky_relu(%x: tensor<1x4x4x2xi8>) -> tensor<1x4x4x3xi8> {
  %w = arith.constant dense<[[[[94, 13]]], [[[-56, 53]]], [[[-21, 125]]]]> : tensor<3x1x1x2xi8>
  %b = arith.constant dense<[[[[-17, 149, -6]]]]> : tensor<1x1x1x3xi32>
  %c = qnn.conv2d %x, %w {data_layout = #qnn.layout<NHWC>, dilations = array<i64: 1, 1>, groups = 1 : i64, input_scale = 0.05 : f32, input_zero_point = 0 : i32, kernel_layout = #qnn.kernel_layout<OHWI>, padding = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, weight_scale = array<f32: 0.02>, weight_zero_point = 0 : i32} : (tensor<1x4x4x2xi8>, tensor<3x1x1x2xi8>) -> tensor<1x4x4x3xi32>
  %a = tosa.add %c, %b : (tensor<1x4x4x3xi32>, tensor<1x1x1x3xi32>) -> tensor<1x4x4x3xi32>
  %q = qnn.requantize %a {input_scale = array<f64: 0.00099999999254941907>, input_zero_point = 0 : i32, output_scale = 0.1 : f32, output_zero_point = -2 : i32, rounding = #qnn.rounding<upward>} : tensor<1x4x4x3xi32> -> tensor<1x4x4x3xi8>
  %l = qnn.leaky_relu %q {alpha = 0.1 : f32, input_scale = 0.1 : f32, input_zero_point = -2 : i32, output_scale = 0.07 : f32, output_zero_point = 6 : i32} : tensor<1x4x4x3xi8> -> tensor<1x4x4x3xi8>
  return %l : tensor<1x4x4x3xi8>
}

// Lookup-table activations (hardswish, sigmoid, tanh) become the table
// epilogue of the convolution instead of breaking the fusion.
// CHECK-LABEL: func.func @conv_hardswish
// CHECK: %[[R:.+]] = npu.conv2d
// CHECK-SAME: activation = #npu.activation<lut>
// CHECK-SAME: lut = array<i32: {{[-0-9, ]+}}>
// CHECK-SAME: output_scale = 1.000000e-01 : f32, output_zero_point = -2 : i32
// CHECK-NEXT: return %[[R]]
func.func @conv_hardswish(%x: tensor<1x4x4x2xi8>) -> tensor<1x4x4x3xi8> {
  %w = arith.constant dense<[[[[94, 13]]], [[[-56, 53]]], [[[-21, 125]]]]> : tensor<3x1x1x2xi8>
  %c = qnn.conv2d %x, %w {data_layout = #qnn.layout<NHWC>, dilations = array<i64: 1, 1>, groups = 1 : i64, input_scale = 0.05 : f32, input_zero_point = 0 : i32, kernel_layout = #qnn.kernel_layout<OHWI>, padding = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, weight_scale = array<f32: 0.02>, weight_zero_point = 0 : i32} : (tensor<1x4x4x2xi8>, tensor<3x1x1x2xi8>) -> tensor<1x4x4x3xi32>
  %q = qnn.requantize %c {input_scale = array<f64: 0.00099999999254941907>, input_zero_point = 0 : i32, output_scale = 0.1 : f32, output_zero_point = -2 : i32} : tensor<1x4x4x3xi32> -> tensor<1x4x4x3xi8>
  %h = qnn.hardswish %q {input_scale = 0.1 : f32, input_zero_point = -2 : i32, output_scale = 0.06 : f32, output_zero_point = -60 : i32} : tensor<1x4x4x3xi8> -> tensor<1x4x4x3xi8>
  return %h : tensor<1x4x4x3xi8>
}

// RSQRT is a table too: every stored value at or below the input zero point
// (-2: entries 128..254, stored -128..-2) gives 127.
// CHECK-LABEL: func.func @conv_rsqrt
// CHECK: %[[R:.+]] = npu.conv2d
// CHECK-SAME: activation = #npu.activation<lut>
// CHECK-SAME: lut = array<i32: {{([-0-9]+, ){128}(127, ){127}[-0-9]+}}>
// CHECK-NEXT: return %[[R]]
func.func @conv_rsqrt(%x: tensor<1x4x4x2xi8>) -> tensor<1x4x4x3xi8> {
  %w = arith.constant dense<[[[[94, 13]]], [[[-56, 53]]], [[[-21, 125]]]]> : tensor<3x1x1x2xi8>
  %c = qnn.conv2d %x, %w {data_layout = #qnn.layout<NHWC>, dilations = array<i64: 1, 1>, groups = 1 : i64, input_scale = 0.05 : f32, input_zero_point = 0 : i32, kernel_layout = #qnn.kernel_layout<OHWI>, padding = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, weight_scale = array<f32: 0.02>, weight_zero_point = 0 : i32} : (tensor<1x4x4x2xi8>, tensor<3x1x1x2xi8>) -> tensor<1x4x4x3xi32>
  %q = qnn.requantize %c {input_scale = array<f64: 0.00099999999254941907>, input_zero_point = 0 : i32, output_scale = 0.1 : f32, output_zero_point = -2 : i32} : tensor<1x4x4x3xi32> -> tensor<1x4x4x3xi8>
  %r = qnn.rsqrt %q {input_scale = 0.1 : f32, input_zero_point = -2 : i32, output_scale = 0.03 : f32, output_zero_point = -128 : i32} : tensor<1x4x4x3xi8> -> tensor<1x4x4x3xi8>
  return %r : tensor<1x4x4x3xi8>
}

// A sigmoid table followed by a clamp: the clamp is applied to the table.
// CHECK-LABEL: func.func @conv_sigmoid_clamp
// Entry 127 (stored 127, sigmoid ~ 1) is clamped to 50, entry 128 (stored
// -128, sigmoid ~ 0) to -100.
// CHECK: %[[R:.+]] = npu.conv2d
// CHECK-SAME: activation = #npu.activation<lut>
// CHECK-SAME: lut = array<i32: {{([-0-9]+, ){127}50}}, -100, {{([-0-9]+, ){126}[-0-9]+}}>
// CHECK-NEXT: return %[[R]]
func.func @conv_sigmoid_clamp(%x: tensor<1x4x4x2xi8>) -> tensor<1x4x4x3xi8> {
  %w = arith.constant dense<[[[[94, 13]]], [[[-56, 53]]], [[[-21, 125]]]]> : tensor<3x1x1x2xi8>
  %c = qnn.conv2d %x, %w {data_layout = #qnn.layout<NHWC>, dilations = array<i64: 1, 1>, groups = 1 : i64, input_scale = 0.05 : f32, input_zero_point = 0 : i32, kernel_layout = #qnn.kernel_layout<OHWI>, padding = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, weight_scale = array<f32: 0.02>, weight_zero_point = 0 : i32} : (tensor<1x4x4x2xi8>, tensor<3x1x1x2xi8>) -> tensor<1x4x4x3xi32>
  %q = qnn.requantize %c {input_scale = array<f64: 0.00099999999254941907>, input_zero_point = 0 : i32, output_scale = 0.1 : f32, output_zero_point = -2 : i32} : tensor<1x4x4x3xi32> -> tensor<1x4x4x3xi8>
  %s = qnn.sigmoid %q {input_scale = 0.1 : f32, input_zero_point = -2 : i32, output_scale = 0.00390625 : f32, output_zero_point = -128 : i32} : tensor<1x4x4x3xi8> -> tensor<1x4x4x3xi8>
  %r = tosa.clamp %s {min_val = -100 : i8, max_val = 50 : i8} : (tensor<1x4x4x3xi8>) -> tensor<1x4x4x3xi8>
  return %r : tensor<1x4x4x3xi8>
}

// CHECK-LABEL: func.func @conv_tanh
// CHECK: %[[R:.+]] = npu.conv2d
// CHECK-SAME: activation = #npu.activation<lut>
// CHECK-SAME: lut = array<i32: {{[-0-9, ]+}}>
// CHECK-NEXT: return %[[R]]
func.func @conv_tanh(%x: tensor<1x4x4x2xi8>) -> tensor<1x4x4x3xi8> {
  %w = arith.constant dense<[[[[94, 13]]], [[[-56, 53]]], [[[-21, 125]]]]> : tensor<3x1x1x2xi8>
  %c = qnn.conv2d %x, %w {data_layout = #qnn.layout<NHWC>, dilations = array<i64: 1, 1>, groups = 1 : i64, input_scale = 0.05 : f32, input_zero_point = 0 : i32, kernel_layout = #qnn.kernel_layout<OHWI>, padding = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, weight_scale = array<f32: 0.02>, weight_zero_point = 0 : i32} : (tensor<1x4x4x2xi8>, tensor<3x1x1x2xi8>) -> tensor<1x4x4x3xi32>
  %q = qnn.requantize %c {input_scale = array<f64: 0.00099999999254941907>, input_zero_point = 0 : i32, output_scale = 0.1 : f32, output_zero_point = -2 : i32} : tensor<1x4x4x3xi32> -> tensor<1x4x4x3xi8>
  %t = qnn.tanh %q {input_scale = 0.1 : f32, input_zero_point = -2 : i32, output_scale = 0.0078125 : f32, output_zero_point = 0 : i32} : tensor<1x4x4x3xi8> -> tensor<1x4x4x3xi8>
  return %t : tensor<1x4x4x3xi8>
}

// Depthwise with a channel multiplier of 2 (3 input channels, 6 outputs,
// output channel c * 2 + m), stride 2 with TFLite SAME padding [0, 0, 1, 1].
// CHECK-LABEL: func.func @depthwise_multiplier
// CHECK: npu.conv2d %arg0, %{{.+}}, %{{.+}} {{{.*}}groups = 3 : i64,
// CHECK-SAME: padding = array<i64: 0, 0, 1, 1>, strides = array<i64: 2, 2>
// CHECK-SAME: : (tensor<1x6x6x3xi8>, tensor<6x3x3x1xi8>, tensor<6xi32>) -> tensor<1x3x3x6xi8>
func.func @depthwise_multiplier(%x: tensor<1x6x6x3xi8>) -> tensor<1x3x3x6xi8> {
  %w = arith.constant dense<[[[[-24, -30, -76, 26, -82, -69], [-64, -93, 67, -105, -63, 59], [-29, 8, 48, 52, 10, -105]], [[113, 32, -2, -76, -20, 57], [29, 23, -72, 75, 103, 74], [-32, 83, -28, 93, 47, -73]], [[-89, -9, 42, -82, 90, 18], [-41, -106, 115, 56, 8, 46], [71, -105, -7, -47, -24, -117]]]]> : tensor<1x3x3x6xi8>
  %b = arith.constant dense<[[[[-25, 271, -293, 135, -92, 71]]]]> : tensor<1x1x1x6xi32>
  %c = qnn.conv2d %x, %w {data_layout = #qnn.layout<NHWC>, dilations = array<i64: 1, 1>, groups = 3 : i64, input_scale = 0.05 : f32, input_zero_point = -1 : i32, kernel_layout = #qnn.kernel_layout<IHWO>, padding = array<i64: 0, 0, 1, 1>, strides = array<i64: 2, 2>, weight_scale = array<f32: 0.02>, weight_zero_point = 0 : i32} : (tensor<1x6x6x3xi8>, tensor<1x3x3x6xi8>) -> tensor<1x3x3x6xi32>
  %a = tosa.add %c, %b : (tensor<1x3x3x6xi32>, tensor<1x1x1x6xi32>) -> tensor<1x3x3x6xi32>
  %q = qnn.requantize %a {input_scale = array<f64: 0.00099999999254941907>, input_zero_point = 0 : i32, output_scale = 0.1 : f32, output_zero_point = 2 : i32} : tensor<1x3x3x6xi32> -> tensor<1x3x3x6xi8>
  return %q : tensor<1x3x3x6xi8>
}

// An add whose rhs has a lower rank (NumPy broadcasting aligns on the
// right): the rhs gets leading unit dimensions; the hardswish after the add
// becomes its table epilogue (MobileNet v3 style).
// CHECK-LABEL: func.func @add_lower_rank_hardswish
// CHECK: %[[E:.+]] = tensor.expand_shape %arg1 {{\[\[}}0, 1, 2, 3]] output_shape [1, 1, 1, 2] : tensor<2xi8> into tensor<1x1x1x2xi8>
// CHECK-NEXT: %[[S:.+]] = npu.add %arg0, %[[E]]
// CHECK-SAME: activation = #npu.activation<lut>
// CHECK-SAME: (tensor<1x4x4x2xi8>, tensor<1x1x1x2xi8>) -> tensor<1x4x4x2xi8>
// CHECK-NEXT: return %[[S]]
func.func @add_lower_rank_hardswish(%x: tensor<1x4x4x2xi8>, %y: tensor<2xi8>) -> tensor<1x4x4x2xi8> {
  %s = qnn.add %x, %y {lhs_scale = 0.1 : f32, lhs_zero_point = 3 : i32, rhs_scale = 0.05 : f32, rhs_zero_point = -1 : i32, output_scale = 0.12 : f32, output_zero_point = -4 : i32} : (tensor<1x4x4x2xi8>, tensor<2xi8>) -> tensor<1x4x4x2xi8>
  %h = qnn.hardswish %s {input_scale = 0.12 : f32, input_zero_point = -4 : i32, output_scale = 0.08 : f32, output_zero_point = -50 : i32} : tensor<1x4x4x2xi8> -> tensor<1x4x4x2xi8>
  return %h : tensor<1x4x4x2xi8>
}

// TFLite's single rounding (the importer's default) is kept by the fused
// operators, and the reference computes the same bytes before and after.
// CHECK-LABEL: func.func @single_rounding_conv_add
// CHECK: %[[C:.+]] = npu.conv2d
// CHECK-SAME: rounding = #qnn.rounding<tflite_single>
// CHECK: npu.add %[[C]], %arg1
// CHECK-SAME: rounding = #qnn.rounding<tflite_single>
func.func @single_rounding_conv_add(%x: tensor<1x4x4x2xi8>, %y: tensor<1x4x4x2xi8>) -> tensor<1x4x4x2xi8> {
  %w = arith.constant dense<[[[[-13, -25]]], [[[13, -56]]]]> : tensor<2x1x1x2xi8>
  %c = qnn.conv2d %x, %w {data_layout = #qnn.layout<NHWC>, dilations = array<i64: 1, 1>, groups = 1 : i64, input_scale = 0.05 : f32, input_zero_point = 0 : i32, kernel_layout = #qnn.kernel_layout<OHWI>, padding = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, weight_scale = array<f32: 0.02>, weight_zero_point = 0 : i32} : (tensor<1x4x4x2xi8>, tensor<2x1x1x2xi8>) -> tensor<1x4x4x2xi32>
  %q = qnn.requantize %c {input_scale = array<f64: 0.00099999999254941907>, input_zero_point = 0 : i32, output_scale = 0.0625 : f32, output_zero_point = 3 : i32, rounding = #qnn.rounding<tflite_single>} : tensor<1x4x4x2xi32> -> tensor<1x4x4x2xi8>
  %s = qnn.add %q, %y {lhs_scale = 0.0625 : f32, lhs_zero_point = 3 : i32, rhs_scale = 0.2 : f32, rhs_zero_point = -7 : i32, output_scale = 0.25 : f32, output_zero_point = 0 : i32, rounding = #qnn.rounding<tflite_single>} : (tensor<1x4x4x2xi8>, tensor<1x4x4x2xi8>) -> tensor<1x4x4x2xi8>
  return %s : tensor<1x4x4x2xi8>
}
