// Weights and biases that are function arguments fuse as operands; chains
// that cannot fuse say exactly why (a remark on the op that blocks them).
// RUN: qnn-opt %s --npu-fuse --verify-diagnostics | FileCheck %s
// With remarks=false (the CPU pipeline's setting) the same IR and no
// remark (stderr only says that the expected remarks were not produced).
// RUN: qnn-opt %s --npu-fuse="remarks=false" 2> %t.stderr | FileCheck %s
// RUN: FileCheck %s --check-prefix=QUIET --allow-empty < %t.stderr
// QUIET-NOT: : remark:

// Semantics of what did fuse: identical bytes before and after.
// RUN: qnn-opt %s --npu-fuse -o %t.npu.mlir 2> /dev/null
// RUN: %refeq %s %t.npu.mlir weight_bias_args i8:32,i8:4,i32:2 31 2 > %t.eq
// RUN: %refeq %s %t.npu.mlir weight_arg_nchw u8:32,u8:6 32 2 >> %t.eq
// RUN: %refeq %s %t.npu.mlir leaky_scale_mismatch i8:32 33 2 >> %t.eq
// RUN: %refeq %s %t.npu.mlir leaky_single i8:32 34 2 >> %t.eq
// RUN: %refeq %s %t.npu.mlir leaky_rounding_mismatch i8:32 35 2 >> %t.eq
// RUN: FileCheck %s --check-prefix=EQ < %t.eq
// EQ-COUNT-10: trial {{[0-1]}}: identical result 0: tensor<
// EQ-NOT: DIFFERENT

// The weight (already OHWI) and the bias are operands of the fused op; the
// rank-matched bias is collapsed to one value per output channel.
// CHECK-LABEL: func.func @weight_bias_args
// CHECK: %[[B:.+]] = tensor.collapse_shape %arg2 {{\[}}[0, 1, 2, 3]] : tensor<1x1x1x2xi32> into tensor<2xi32>
// CHECK: %[[R:.+]] = npu.conv2d %arg0, %arg1, %[[B]] {{.*}} : (tensor<1x4x4x2xi8>, tensor<2x1x1x2xi8>, tensor<2xi32>) -> tensor<1x4x4x2xi8>
// CHECK-NEXT: return %[[R]]
func.func @weight_bias_args(%x: tensor<1x4x4x2xi8>, %w: tensor<2x1x1x2xi8>, %b: tensor<1x1x1x2xi32>) -> tensor<1x4x4x2xi8> {
  %c = qnn.conv2d %x, %w {data_layout = #qnn.layout<NHWC>, dilations = array<i64: 1, 1>, groups = 1 : i64, input_scale = 0.5 : f32, input_zero_point = 0 : i32, kernel_layout = #qnn.kernel_layout<OHWI>, padding = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, weight_scale = array<f32: 0.25>, weight_zero_point = 0 : i32} : (tensor<1x4x4x2xi8>, tensor<2x1x1x2xi8>) -> tensor<1x4x4x2xi32>
  %a = tosa.add %c, %b : (tensor<1x4x4x2xi32>, tensor<1x1x1x2xi32>) -> tensor<1x4x4x2xi32>
  %q = qnn.requantize %a {input_scale = array<f64: 0.125>, input_zero_point = 0 : i32, output_scale = 20.0 : f32, output_zero_point = 1 : i32} : tensor<1x4x4x2xi32> -> tensor<1x4x4x2xi8>
  return %q : tensor<1x4x4x2xi8>
}

// An OIHW kernel argument is transposed to OHWI at run time.
// CHECK-LABEL: func.func @weight_arg_nchw
// CHECK-DAG: %[[X:.+]] = tosa.transpose %arg0 {perms = array<i32: 0, 2, 3, 1>}
// CHECK-DAG: %[[W:.+]] = tosa.transpose %arg1 {perms = array<i32: 0, 2, 3, 1>} : (tensor<3x2x1x1xui8>) -> tensor<3x1x1x2xui8>
// CHECK: %[[C:.+]] = npu.conv2d %[[X]], %[[W]] {
// CHECK-NEXT: tosa.transpose %[[C]] {perms = array<i32: 0, 3, 1, 2>}
func.func @weight_arg_nchw(%x: tensor<1x2x4x4xui8>, %w: tensor<3x2x1x1xui8>) -> tensor<1x3x4x4xui8> {
  %c = qnn.conv2d %x, %w {data_layout = #qnn.layout<NCHW>, dilations = array<i64: 1, 1>, groups = 1 : i64, input_scale = 0.5 : f32, input_zero_point = 128 : i32, kernel_layout = #qnn.kernel_layout<OIHW>, padding = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, weight_scale = array<f32: 0.25>, weight_zero_point = 127 : i32} : (tensor<1x2x4x4xui8>, tensor<3x2x1x1xui8>) -> tensor<1x3x4x4xi32>
  %q = qnn.requantize %c {input_scale = array<f64: 0.125>, input_zero_point = 0 : i32, output_scale = 40.0 : f32, output_zero_point = 100 : i32} : tensor<1x3x4x4xi32> -> tensor<1x3x4x4xi32>
  %cl = tosa.clamp %q {min_val = 0 : i32, max_val = 255 : i32} : (tensor<1x3x4x4xi32>) -> tensor<1x3x4x4xi32>
  %r = tosa.cast %cl : (tensor<1x3x4x4xi32>) -> tensor<1x3x4x4xui8>
  return %r : tensor<1x3x4x4xui8>
}

// A single bias value broadcast over the channels that is not a constant.
// CHECK-LABEL: func.func @bias_arg_broadcast
// CHECK: qnn.conv2d
// CHECK-NOT: npu.conv2d
func.func @bias_arg_broadcast(%x: tensor<1x4x4x2xi8>, %w: tensor<2x1x1x2xi8>, %b: tensor<1x1x1x1xi32>) -> tensor<1x4x4x2xi8> {
  %c = qnn.conv2d %x, %w {data_layout = #qnn.layout<NHWC>, dilations = array<i64: 1, 1>, groups = 1 : i64, input_scale = 0.5 : f32, input_zero_point = 0 : i32, kernel_layout = #qnn.kernel_layout<OHWI>, padding = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, weight_scale = array<f32: 0.25>, weight_zero_point = 0 : i32} : (tensor<1x4x4x2xi8>, tensor<2x1x1x2xi8>) -> tensor<1x4x4x2xi32>
  %a = tosa.add %c, %b : (tensor<1x4x4x2xi32>, tensor<1x1x1x1xi32>) -> tensor<1x4x4x2xi32>
  // expected-remark @+1 {{not fused into an npu operator: a non-constant bias must have one value per output channel (no broadcast)}}
  %q = qnn.requantize %a {input_scale = array<f64: 0.125>, input_zero_point = 0 : i32, output_scale = 20.0 : f32, output_zero_point = 1 : i32} : tensor<1x4x4x2xi32> -> tensor<1x4x4x2xi8>
  return %q : tensor<1x4x4x2xi8>
}

// The requantize must divide by exactly input_scale * weight_scale.
// CHECK-LABEL: func.func @scale_mismatch
// CHECK-NOT: npu.
// CHECK: return
func.func @scale_mismatch(%x: tensor<1x4x4x2xi8>, %w: tensor<2x1x1x2xi8>) -> tensor<1x4x4x2xi8> {
  %c = qnn.conv2d %x, %w {data_layout = #qnn.layout<NHWC>, dilations = array<i64: 1, 1>, groups = 1 : i64, input_scale = 0.5 : f32, input_zero_point = 0 : i32, kernel_layout = #qnn.kernel_layout<OHWI>, padding = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, weight_scale = array<f32: 0.25>, weight_zero_point = 0 : i32} : (tensor<1x4x4x2xi8>, tensor<2x1x1x2xi8>) -> tensor<1x4x4x2xi32>
  // expected-remark @+1 {{not fused into an npu operator: requantize input_scale[0] = 0.25 differs from input_scale * weight_scale[0] = 0.125 (product of the two float32 scales in double)}}
  %q = qnn.requantize %c {input_scale = array<f64: 0.25>, input_zero_point = 0 : i32, output_scale = 20.0 : f32, output_zero_point = 1 : i32} : tensor<1x4x4x2xi32> -> tensor<1x4x4x2xi8>
  return %q : tensor<1x4x4x2xi8>
}

// The accumulator is also returned: fusing would lose it.
// CHECK-LABEL: func.func @accumulator_other_users
// CHECK-NOT: npu.
// CHECK: return
func.func @accumulator_other_users(%x: tensor<1x4x4x2xi8>, %w: tensor<2x1x1x2xi8>) -> (tensor<1x4x4x2xi8>, tensor<1x4x4x2xi32>) {
  // expected-remark @+1 {{not fused into an npu operator: the i32 accumulator has other users}}
  %c = qnn.conv2d %x, %w {data_layout = #qnn.layout<NHWC>, dilations = array<i64: 1, 1>, groups = 1 : i64, input_scale = 0.5 : f32, input_zero_point = 0 : i32, kernel_layout = #qnn.kernel_layout<OHWI>, padding = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, weight_scale = array<f32: 0.25>, weight_zero_point = 0 : i32} : (tensor<1x4x4x2xi8>, tensor<2x1x1x2xi8>) -> tensor<1x4x4x2xi32>
  %q = qnn.requantize %c {input_scale = array<f64: 0.125>, input_zero_point = 0 : i32, output_scale = 20.0 : f32, output_zero_point = 1 : i32} : tensor<1x4x4x2xi32> -> tensor<1x4x4x2xi8>
  return %q, %c : tensor<1x4x4x2xi8>, tensor<1x4x4x2xi32>
}

// A clip wider than the 8-bit range before the cast: the cast would wrap.
// CHECK-LABEL: func.func @clip_wider_than_storage
// CHECK-NOT: npu.
// CHECK: return
func.func @clip_wider_than_storage(%x: tensor<1x4x4x2xi8>, %w: tensor<2x1x1x2xi8>) -> tensor<1x4x4x2xui8> {
  %c = qnn.conv2d %x, %w {data_layout = #qnn.layout<NHWC>, dilations = array<i64: 1, 1>, groups = 1 : i64, input_scale = 0.5 : f32, input_zero_point = 0 : i32, kernel_layout = #qnn.kernel_layout<OHWI>, padding = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, weight_scale = array<f32: 0.25>, weight_zero_point = 0 : i32} : (tensor<1x4x4x2xi8>, tensor<2x1x1x2xi8>) -> tensor<1x4x4x2xi32>
  // expected-remark @+1 {{not fused into an npu operator: the clamp [-10, 300] before the cast to 8 bits is not inside the storage range [0, 255], so the cast would wrap}}
  %q = qnn.requantize %c {input_scale = array<f64: 0.125>, input_zero_point = 0 : i32, output_scale = 20.0 : f32, output_zero_point = 1 : i32} : tensor<1x4x4x2xi32> -> tensor<1x4x4x2xi32>
  %cl = tosa.clamp %q {min_val = -10 : i32, max_val = 300 : i32} : (tensor<1x4x4x2xi32>) -> tensor<1x4x4x2xi32>
  %r = tosa.cast %cl : (tensor<1x4x4x2xi32>) -> tensor<1x4x4x2xui8>
  return %r : tensor<1x4x4x2xui8>
}

// A requantize to i32 that is not narrowed to 8 bits.
// CHECK-LABEL: func.func @requantize_to_i32
// CHECK-NOT: npu.
// CHECK: return
func.func @requantize_to_i32(%x: tensor<1x4x4x2xi8>, %w: tensor<2x1x1x2xi8>) -> tensor<1x4x4x2xi32> {
  %c = qnn.conv2d %x, %w {data_layout = #qnn.layout<NHWC>, dilations = array<i64: 1, 1>, groups = 1 : i64, input_scale = 0.5 : f32, input_zero_point = 0 : i32, kernel_layout = #qnn.kernel_layout<OHWI>, padding = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, weight_scale = array<f32: 0.25>, weight_zero_point = 0 : i32} : (tensor<1x4x4x2xi8>, tensor<2x1x1x2xi8>) -> tensor<1x4x4x2xi32>
  // expected-remark @+1 {{not fused into an npu operator: the requantize result is not 8-bit and is not followed by a single 'tosa.clamp' and a 'tosa.cast' to 8 bits}}
  %q = qnn.requantize %c {input_scale = array<f64: 0.125>, input_zero_point = 0 : i32, output_scale = 20.0 : f32, output_zero_point = 1 : i32} : tensor<1x4x4x2xi32> -> tensor<1x4x4x2xi32>
  return %q : tensor<1x4x4x2xi32>
}

// The leaky ReLU reads other quantization parameters than the conv writes:
// the conv fuses, the leaky ReLU stays.
// CHECK-LABEL: func.func @leaky_scale_mismatch
// CHECK: %[[C:.+]] = npu.conv2d
// CHECK-NOT: leaky_params
// CHECK-NEXT: qnn.leaky_relu %[[C]]
func.func @leaky_scale_mismatch(%x: tensor<1x4x4x2xi8>) -> tensor<1x4x4x2xi8> {
  %w = arith.constant dense<[[[[3, -5]]], [[[7, 2]]]]> : tensor<2x1x1x2xi8>
  %c = qnn.conv2d %x, %w {data_layout = #qnn.layout<NHWC>, dilations = array<i64: 1, 1>, groups = 1 : i64, input_scale = 0.5 : f32, input_zero_point = 0 : i32, kernel_layout = #qnn.kernel_layout<OHWI>, padding = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, weight_scale = array<f32: 0.25>, weight_zero_point = 0 : i32} : (tensor<1x4x4x2xi8>, tensor<2x1x1x2xi8>) -> tensor<1x4x4x2xi32>
  %q = qnn.requantize %c {input_scale = array<f64: 0.125>, input_zero_point = 0 : i32, output_scale = 1.0 : f32, output_zero_point = 1 : i32} : tensor<1x4x4x2xi32> -> tensor<1x4x4x2xi8>
  // expected-remark @+1 {{not fused: the leaky ReLU input scale and zero point differ from the producer's output scale and zero point}}
  %l = qnn.leaky_relu %q {alpha = 0.2 : f32, input_scale = 1.0 : f32, input_zero_point = 0 : i32, output_scale = 0.5 : f32, output_zero_point = 0 : i32} : tensor<1x4x4x2xi8> -> tensor<1x4x4x2xi8>
  return %l : tensor<1x4x4x2xi8>
}

// A leaky ReLU that rounds once (TFLite 2.x) after a requantize that rounds
// twice: an epilogue's leaky stage rounds like its op, so they stay apart.
// CHECK-LABEL: func.func @leaky_rounding_mismatch
// CHECK: %[[C:.+]] = npu.conv2d
// CHECK-NOT: leaky_params
// CHECK-NEXT: qnn.leaky_relu %[[C]]
func.func @leaky_rounding_mismatch(%x: tensor<1x4x4x2xi8>) -> tensor<1x4x4x2xi8> {
  %w = arith.constant dense<[[[[3, -5]]], [[[7, 2]]]]> : tensor<2x1x1x2xi8>
  %c = qnn.conv2d %x, %w {data_layout = #qnn.layout<NHWC>, dilations = array<i64: 1, 1>, groups = 1 : i64, input_scale = 0.5 : f32, input_zero_point = 0 : i32, kernel_layout = #qnn.kernel_layout<OHWI>, padding = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, weight_scale = array<f32: 0.25>, weight_zero_point = 0 : i32} : (tensor<1x4x4x2xi8>, tensor<2x1x1x2xi8>) -> tensor<1x4x4x2xi32>
  %q = qnn.requantize %c {input_scale = array<f64: 0.125>, input_zero_point = 0 : i32, output_scale = 1.0 : f32, output_zero_point = 1 : i32} : tensor<1x4x4x2xi32> -> tensor<1x4x4x2xi8>
  // expected-remark @+1 {{not fused: the leaky ReLU rounds with tflite_single but an epilogue after a tflite rescale rounds with tflite}}
  %l = qnn.leaky_relu %q {alpha = 0.2 : f32, input_scale = 1.0 : f32, input_zero_point = 1 : i32, output_scale = 0.0625 : f32, output_zero_point = 0 : i32, rounding = #qnn.rounding<tflite_single>} : tensor<1x4x4x2xi8> -> tensor<1x4x4x2xi8>
  return %l : tensor<1x4x4x2xi8>
}

// Both rounding once: fused, and the npu program computes the same bytes.
// CHECK-LABEL: func.func @leaky_single
// CHECK: npu.conv2d {{.*}}activation = #npu.activation<leaky_relu>{{.*}}rounding = #qnn.rounding<tflite_single>
// CHECK-NEXT: return
func.func @leaky_single(%x: tensor<1x4x4x2xi8>) -> tensor<1x4x4x2xi8> {
  %w = arith.constant dense<[[[[3, -5]]], [[[7, 2]]]]> : tensor<2x1x1x2xi8>
  %c = qnn.conv2d %x, %w {data_layout = #qnn.layout<NHWC>, dilations = array<i64: 1, 1>, groups = 1 : i64, input_scale = 0.5 : f32, input_zero_point = 0 : i32, kernel_layout = #qnn.kernel_layout<OHWI>, padding = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, weight_scale = array<f32: 0.25>, weight_zero_point = 0 : i32} : (tensor<1x4x4x2xi8>, tensor<2x1x1x2xi8>) -> tensor<1x4x4x2xi32>
  %q = qnn.requantize %c {input_scale = array<f64: 0.125>, input_zero_point = 0 : i32, output_scale = 1.0 : f32, output_zero_point = 1 : i32, rounding = #qnn.rounding<tflite_single>} : tensor<1x4x4x2xi32> -> tensor<1x4x4x2xi8>
  %l = qnn.leaky_relu %q {alpha = 0.2 : f32, input_scale = 1.0 : f32, input_zero_point = 1 : i32, output_scale = 0.0625 : f32, output_zero_point = 0 : i32, rounding = #qnn.rounding<tflite_single>} : tensor<1x4x4x2xi8> -> tensor<1x4x4x2xi8>
  return %l : tensor<1x4x4x2xi8>
}

// A rank-0 operand of qnn.add has no npu.add form.
// CHECK-LABEL: func.func @add_rank0
// CHECK: qnn.add
func.func @add_rank0(%x: tensor<4xi8>, %y: tensor<i8>) -> tensor<4xi8> {
  // expected-remark @+1 {{not fused into npu.add: an operand of rank 0 or of dynamic shape would need a broadcast of lower rank}}
  %s = qnn.add %x, %y {lhs_scale = 0.1 : f32, lhs_zero_point = 3 : i32, rhs_scale = 0.05 : f32, rhs_zero_point = -1 : i32, output_scale = 0.12 : f32, output_zero_point = -4 : i32} : (tensor<4xi8>, tensor<i8>) -> tensor<4xi8>
  return %s : tensor<4xi8>
}

// The bias add broadcasts the 1x1 accumulator over a 2x2 bias: the fused
// operator could not produce the larger result.
// CHECK-LABEL: func.func @bias_add_broadcasts_accumulator
// CHECK-NOT: npu.
// CHECK: return
func.func @bias_add_broadcasts_accumulator(%x: tensor<1x1x1x2xi8>, %w: tensor<2x1x1x2xi8>) -> tensor<1x2x2x2xi8> {
  %b = arith.constant dense<5> : tensor<1x2x2x2xi32>
  %c = qnn.conv2d %x, %w {data_layout = #qnn.layout<NHWC>, dilations = array<i64: 1, 1>, groups = 1 : i64, input_scale = 0.5 : f32, input_zero_point = 0 : i32, kernel_layout = #qnn.kernel_layout<OHWI>, padding = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, weight_scale = array<f32: 0.25>, weight_zero_point = 0 : i32} : (tensor<1x1x1x2xi8>, tensor<2x1x1x2xi8>) -> tensor<1x1x1x2xi32>
  // expected-remark @+1 {{not fused into an npu operator: the bias add broadcasts the accumulator to a larger shape}}
  %a = tosa.add %c, %b : (tensor<1x1x1x2xi32>, tensor<1x2x2x2xi32>) -> tensor<1x2x2x2xi32>
  %q = qnn.requantize %a {input_scale = array<f64: 0.125>, input_zero_point = 0 : i32, output_scale = 20.0 : f32, output_zero_point = 1 : i32} : tensor<1x2x2x2xi32> -> tensor<1x2x2x2xi8>
  return %q : tensor<1x2x2x2xi8>
}
