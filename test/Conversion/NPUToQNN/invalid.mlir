// RUN: qnn-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(func.func(npu-expand-to-qnn))'

func.func @dynamic(%a: tensor<?x4xi8>, %b: tensor<?x4xi8>) -> tensor<?x4xi8> {
  // expected-error @+1 {{npu-expand-to-qnn needs statically shaped operands, got 'tensor<?x4xi8>'}}
  %s = npu.add %a, %b {lhs_scale = 0.5 : f32, lhs_zero_point = 0 : i32, rhs_scale = 0.5 : f32, rhs_zero_point = 0 : i32, output_scale = 0.5 : f32, output_zero_point = 0 : i32, act_min = -128 : i32, act_max = 127 : i32} : (tensor<?x4xi8>, tensor<?x4xi8>) -> tensor<?x4xi8>
  return %s : tensor<?x4xi8>
}
