// npu operators the CPU lowering cannot compile (dynamic shapes: conv,
// add, pool, fully connected) get one diagnostic at the
// operator, and the conversion fails.
// RUN: qnn-opt %s --split-input-file --verify-diagnostics --convert-qnn-to-linalg=target=avx512-vnni

func.func @dynamic(%x: tensor<?x4x4x16xi8>) -> tensor<?x4x4x16xi8> {
  %w = arith.constant dense<1> : tensor<16x1x1x16xi8>
  // expected-error @+2 {{'npu.conv2d' op lowering needs static shapes, got 'tensor<?x4x4x16xi8>'}}
  // expected-error @+1 {{failed to legalize operation 'npu.conv2d'}}
  %y = npu.conv2d %x, %w {input_scale = 0.05 : f32, input_zero_point = 0 : i32, weight_scale = array<f32: 0.01>, weight_zero_point = 0 : i32, output_scale = 0.2 : f32, output_zero_point = 0 : i32, strides = array<i64: 1, 1>, padding = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 1 : i64, pad_value = 0 : i32, act_min = -128 : i32, act_max = 127 : i32} : (tensor<?x4x4x16xi8>, tensor<16x1x1x16xi8>) -> tensor<?x4x4x16xi8>
  return %y : tensor<?x4x4x16xi8>
}


// -----

func.func @dynamic_add(%a: tensor<?x4xi8>, %b: tensor<?x4xi8>) -> tensor<?x4xi8> {
  // expected-error @+2 {{'npu.add' op lowering needs static shapes, got 'tensor<?x4xi8>'}}
  // expected-error @+1 {{failed to legalize operation 'npu.add'}}
  %s = npu.add %a, %b {lhs_scale = 0.5 : f32, lhs_zero_point = 0 : i32, rhs_scale = 0.5 : f32, rhs_zero_point = 0 : i32, output_scale = 0.5 : f32, output_zero_point = 0 : i32, act_min = -128 : i32, act_max = 127 : i32} : (tensor<?x4xi8>, tensor<?x4xi8>) -> tensor<?x4xi8>
  return %s : tensor<?x4xi8>
}

// -----

func.func @dynamic_pool(%a: tensor<1x?x4x8xi8>) -> tensor<1x?x2x8xi8> {
  // expected-error @+2 {{'npu.max_pool2d' op lowering needs static shapes, got 'tensor<1x?x4x8xi8>'}}
  // expected-error @+1 {{failed to legalize operation 'npu.max_pool2d'}}
  %p = npu.max_pool2d %a {kernel = array<i64: 2, 2>, strides = array<i64: 2, 2>, padding = array<i64: 0, 0, 0, 0>, act_min = -128 : i32, act_max = 127 : i32} : tensor<1x?x4x8xi8> -> tensor<1x?x2x8xi8>
  return %p : tensor<1x?x2x8xi8>
}

// -----

func.func @dynamic_fc(%x: tensor<?x32xi8>) -> tensor<?x16xi8> {
  %w = arith.constant dense<1> : tensor<16x32xi8>
  // expected-error @+2 {{'npu.fully_connected' op lowering needs static shapes, got 'tensor<?x32xi8>'}}
  // expected-error @+1 {{failed to legalize operation 'npu.fully_connected'}}
  %y = npu.fully_connected %x, %w {input_scale = 0.05 : f32, input_zero_point = 0 : i32, weight_scale = array<f32: 0.01>, weight_zero_point = 0 : i32, output_scale = 0.3 : f32, output_zero_point = 0 : i32, act_min = -128 : i32, act_max = 127 : i32} : (tensor<?x32xi8>, tensor<16x32xi8>) -> tensor<?x16xi8>
  return %y : tensor<?x16xi8>
}
