// A residual add as MobileNet v2 has them (TFLite int8 ADD, single
// rounding): 1x32x32x24 = 24576 elements, above the elementwise ops'
// parallel-min-elements (16384), so that threaded code runs it as an
// OpenMP worksharing loop. @small (1x8x8x24) stays on the calling thread.
func.func @main(%a: tensor<1x32x32x24xi8>, %b: tensor<1x32x32x24xi8>) -> tensor<1x32x32x24xi8> {
  %s = qnn.add %a, %b {lhs_scale = 0.0235 : f32, lhs_zero_point = -3 : i32, rhs_scale = 0.0311 : f32, rhs_zero_point = 7 : i32, output_scale = 0.0402 : f32, output_zero_point = -11 : i32, rounding = #qnn.rounding<tflite_single>} : (tensor<1x32x32x24xi8>, tensor<1x32x32x24xi8>) -> tensor<1x32x32x24xi8>
  return %s : tensor<1x32x32x24xi8>
}

func.func @small(%a: tensor<1x8x8x24xi8>, %b: tensor<1x8x8x24xi8>) -> tensor<1x8x8x24xi8> {
  %s = qnn.add %a, %b {lhs_scale = 0.0235 : f32, lhs_zero_point = -3 : i32, rhs_scale = 0.0311 : f32, rhs_zero_point = 7 : i32, output_scale = 0.0402 : f32, output_zero_point = -11 : i32, rounding = #qnn.rounding<tflite_single>} : (tensor<1x8x8x24xi8>, tensor<1x8x8x24xi8>) -> tensor<1x8x8x24xi8>
  return %s : tensor<1x8x8x24xi8>
}
