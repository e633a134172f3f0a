// Elementwise ops whose single-rounding rescales the x86 targets compute
// with even-odd products (qnn-vectorize-elementwise{even-odd-products}),
// over every pair of input bytes (256 x 256): even-odd-rescale*.test.
// TFLite ADD: the lhs operand rescale with S = 32, the output rescale
// with S = 50 (the rhs multiplier is a power of two, left as it is).
func.func @add(%a: tensor<256x256xi8>, %b: tensor<256x256xi8>) -> tensor<256x256xi8> {
  %s = qnn.add %a, %b {lhs_scale = 0.0235 : f32, lhs_zero_point = -3 : i32, rhs_scale = 0.0311 : f32, rhs_zero_point = 7 : i32, output_scale = 0.0402 : f32, output_zero_point = -11 : i32, rounding = #qnn.rounding<tflite_single>} : (tensor<256x256xi8>, tensor<256x256xi8>) -> tensor<256x256xi8>
  return %s : tensor<256x256xi8>
}
// uint8 ADD with a subtraction's sign (SUB: the rhs multiplier negated).
func.func @sub_u8(%a: tensor<256x256xui8>, %b: tensor<256x256xui8>) -> tensor<256x256xui8> {
  %s = qnn.subtract %a, %b {lhs_scale = 0.047 : f32, lhs_zero_point = 131 : i32, rhs_scale = 0.019 : f32, rhs_zero_point = 120 : i32, output_scale = 0.061 : f32, output_zero_point = 128 : i32, rounding = #qnn.rounding<tflite_single>} : (tensor<256x256xui8>, tensor<256x256xui8>) -> tensor<256x256xui8>
  return %s : tensor<256x256xui8>
}
// TFLite MUL: multipliers 0.745 (S = 31), 1.4 (S = 30) and 0.35 (S = 32).
func.func @mul_s31(%a: tensor<256x256xi8>, %b: tensor<256x256xi8>) -> tensor<256x256xi8> {
  %s = qnn.mul %a, %b {lhs_scale = 0.05 : f32, lhs_zero_point = 5 : i32, rhs_scale = 0.07 : f32, rhs_zero_point = -9 : i32, output_scale = 0.0047 : f32, output_zero_point = 2 : i32, rounding = #qnn.rounding<tflite_single>} : (tensor<256x256xi8>, tensor<256x256xi8>) -> tensor<256x256xi8>
  return %s : tensor<256x256xi8>
}
func.func @mul_s30(%a: tensor<256x256xi8>, %b: tensor<256x256xi8>) -> tensor<256x256xi8> {
  %s = qnn.mul %a, %b {lhs_scale = 0.05 : f32, lhs_zero_point = 5 : i32, rhs_scale = 0.07 : f32, rhs_zero_point = -9 : i32, output_scale = 0.0025 : f32, output_zero_point = 2 : i32, rounding = #qnn.rounding<tflite_single>} : (tensor<256x256xi8>, tensor<256x256xi8>) -> tensor<256x256xi8>
  return %s : tensor<256x256xi8>
}
func.func @mul_s32(%a: tensor<256x256xi8>, %b: tensor<256x256xi8>) -> tensor<256x256xi8> {
  %s = qnn.mul %a, %b {lhs_scale = 0.05 : f32, lhs_zero_point = 5 : i32, rhs_scale = 0.07 : f32, rhs_zero_point = -9 : i32, output_scale = 0.01 : f32, output_zero_point = 2 : i32, rounding = #qnn.rounding<tflite_single>} : (tensor<256x256xi8>, tensor<256x256xi8>) -> tensor<256x256xi8>
  return %s : tensor<256x256xi8>
}
