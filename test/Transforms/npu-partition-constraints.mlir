// Each named constraint of the NPU support table, reported on the operation
// that fails it; the options change the table.
// RUN: qnn-opt %s --npu-partition=report=true --verify-diagnostics | FileCheck %s
// RUN: qnn-opt %s --npu-partition="report=true per-channel=false max-kernel=2 max-stride=1" -o /dev/null 2>&1 | FileCheck %s --check-prefix=STRICT
// RUN: not qnn-opt %s --npu-partition=dot-file=%t.nodir/x.dot 2>&1 | FileCheck %s --check-prefix=NODOT
// NODOT: error: npu-partition: cannot write '{{.*}}x.dot':

// Nothing is supported: no region, no outlined function.
// CHECK-NOT: npu.target

// expected-remark @+1 {{npu-partition: 0 operation(s) on the NPU in 0 region(s), 1 on the host}}
func.func @stride(%x: tensor<1x9x9x4xi8>) -> tensor<1x3x3x4xi8> {
  // expected-remark @+1 {{on host: constraint 'stride' failed: strides [3, 3] exceed 2}}
  %0 = npu.max_pool2d %x {kernel = array<i64: 3, 3>, strides = array<i64: 3, 3>, padding = array<i64: 0, 0, 0, 0>, act_min = -128 : i32, act_max = 127 : i32} : tensor<1x9x9x4xi8> -> tensor<1x3x3x4xi8>
  return %0 : tensor<1x3x3x4xi8>
}

// expected-remark @+1 {{npu-partition: 0 operation(s) on the NPU in 0 region(s), 1 on the host}}
func.func @kernel(%x: tensor<1x9x9x4xui8>) -> tensor<1x1x1x4xui8> {
  // expected-remark @+1 {{on host: constraint 'kernel-size' failed: kernel 9x9 exceeds 8x8}}
  %0 = npu.avg_pool2d %x {kernel = array<i64: 9, 9>, strides = array<i64: 1, 1>, padding = array<i64: 0, 0, 0, 0>, act_min = 0 : i32, act_max = 255 : i32} : tensor<1x9x9x4xui8> -> tensor<1x1x1x4xui8>
  return %0 : tensor<1x1x1x4xui8>
}

// expected-remark @+1 {{npu-partition: 0 operation(s) on the NPU in 0 region(s), 1 on the host}}
func.func @batch(%x: tensor<2x4x4x4xi8>) -> tensor<2x4x4x4xi8> {
  // expected-remark @+1 {{on host: constraint 'batch' failed: batch size 2 (the NPU runs batch 1)}}
  %0 = npu.max_pool2d %x {kernel = array<i64: 1, 1>, strides = array<i64: 1, 1>, padding = array<i64: 0, 0, 0, 0>, act_min = -128 : i32, act_max = 127 : i32} : tensor<2x4x4x4xi8> -> tensor<2x4x4x4xi8>
  return %0 : tensor<2x4x4x4xi8>
}

// expected-remark @+1 {{npu-partition: 0 operation(s) on the NPU in 0 region(s), 1 on the host}}
func.func @dtype(%x: tensor<1x8xui8>) -> tensor<1x2xui8> {
  %w = arith.constant dense<1> : tensor<2x8xi8>
  // expected-remark @+1 {{on host: constraint 'dtype' failed: input, weight and result must be all i8 or all ui8}}
  %0 = npu.fully_connected %x, %w {input_scale = 0.5 : f32, input_zero_point = 128 : i32, weight_scale = array<f32: 0.25>, weight_zero_point = 0 : i32, output_scale = 1.0 : f32, output_zero_point = 128 : i32, act_min = 0 : i32, act_max = 255 : i32} : (tensor<1x8xui8>, tensor<2x8xi8>) -> tensor<1x2xui8>
  return %0 : tensor<1x2xui8>
}

// expected-remark @+1 {{npu-partition: 0 operation(s) on the NPU in 0 region(s), 1 on the host}}
func.func @broadcast(%a: tensor<1x4x4x8xi8>, %b: tensor<1x1x1x8xi8>) -> tensor<1x4x4x8xi8> {
  // expected-remark @+1 {{on host: constraint 'add-broadcast' failed: operands are broadcast to the result shape}}
  %0 = npu.add %a, %b {lhs_scale = 0.5 : f32, lhs_zero_point = 0 : i32, rhs_scale = 0.25 : f32, rhs_zero_point = 0 : i32, output_scale = 0.5 : f32, output_zero_point = 0 : i32, act_min = -128 : i32, act_max = 127 : i32} : (tensor<1x4x4x8xi8>, tensor<1x1x1x8xi8>) -> tensor<1x4x4x8xi8>
  return %0 : tensor<1x4x4x8xi8>
}

// expected-remark @+1 {{npu-partition: 0 operation(s) on the NPU in 0 region(s), 1 on the host}}
func.func @bias_argument(%x: tensor<1x8xi8>, %b: tensor<2xi32>) -> tensor<1x2xi8> {
  %w = arith.constant dense<1> : tensor<2x8xi8>
  // expected-remark @+1 {{on host: constraint 'constant-weights' failed: the bias is not a constant (bind it with --npu-bind-params)}}
  %0 = npu.fully_connected %x, %w, %b {input_scale = 0.5 : f32, input_zero_point = 0 : i32, weight_scale = array<f32: 0.25>, weight_zero_point = 0 : i32, output_scale = 1.0 : f32, output_zero_point = 0 : i32, act_min = -128 : i32, act_max = 127 : i32} : (tensor<1x8xi8>, tensor<2x8xi8>, tensor<2xi32>) -> tensor<1x2xi8>
  return %0 : tensor<1x2xi8>
}

// Supported with the default table; the strict table (per-channel=false,
// max-kernel=2, max-stride=1) rejects each for the first failed constraint.
// CHECK-LABEL: func.func private @supported_npu
// CHECK-SAME: attributes {npu.target}
// CHECK-LABEL: func.func @supported
// CHECK: call @supported_npu(%arg0)
// STRICT: remark: on host: constraint 'kernel-size' failed: kernel 3x3 exceeds 2x2
// STRICT: remark: on host: constraint 'per-channel' failed: 2 per-channel weight scales (per-channel=false)
// STRICT: remark: npu-partition: 0 operation(s) on the NPU in 0 region(s), 2 on the host
// expected-remark @+1 {{npu-partition: 2 operation(s) on the NPU in 1 region(s), 0 on the host}}
func.func @supported(%x: tensor<1x4x4x2xi8>) -> tensor<1x4x4x2xi8> {
  %w = arith.constant dense<1> : tensor<2x1x1x2xi8>
  %p = npu.max_pool2d %x {kernel = array<i64: 3, 3>, strides = array<i64: 1, 1>, padding = array<i64: 1, 1, 1, 1>, act_min = -128 : i32, act_max = 127 : i32} : tensor<1x4x4x2xi8> -> tensor<1x4x4x2xi8>
  %0 = npu.conv2d %p, %w {input_scale = 0.5 : f32, input_zero_point = 0 : i32, weight_scale = array<f32: 0.25, 0.5>, weight_zero_point = 0 : i32, output_scale = 1.0 : f32, output_zero_point = 0 : i32, strides = array<i64: 1, 1>, padding = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 1 : i64, pad_value = 0 : i32, act_min = -128 : i32, act_max = 127 : i32} : (tensor<1x4x4x2xi8>, tensor<2x1x1x2xi8>) -> tensor<1x4x4x2xi8>
  return %0 : tensor<1x4x4x2xi8>
}
