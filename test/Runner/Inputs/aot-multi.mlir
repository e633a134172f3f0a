// Two exported functions: several inputs and outputs, ranks 1 and 4, i8,
// ui8 and i32 buffers.
func.func @two_results(%x: tensor<3xi8>) -> (tensor<3xi8>, tensor<3xi32>) {
  %0 = tosa.cast %x : (tensor<3xi8>) -> tensor<3xi32>
  return %x, %0 : tensor<3xi8>, tensor<3xi32>
}
func.func @add(%a: tensor<1x2x2x3xui8>, %b: tensor<1x1x1x3xui8>) -> tensor<1x2x2x3xui8> {
  %s = qnn.add %a, %b {lhs_scale = 0.5 : f32, lhs_zero_point = 10 : i32, rhs_scale = 0.25 : f32, rhs_zero_point = 3 : i32, output_scale = 0.75 : f32, output_zero_point = 5 : i32} : (tensor<1x2x2x3xui8>, tensor<1x1x1x3xui8>) -> tensor<1x2x2x3xui8>
  return %s : tensor<1x2x2x3xui8>
}
