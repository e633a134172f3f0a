

func.func @conv_input_scale(%x: tensor<1x8x8x3xi8>, %w: tensor<2x3x3x3xi8>) -> tensor<1x6x6x2xi32> {
  // expected-error @+ got 0.000000e+00}}
  %0 = qnn.conv2d %x, %w {data_layout = #qnn.layout<NHWC>, dilations = array<i64: 1, 1>, groups = 1 : i64, input_scale = 0.0 : f32, input_zero_point = 0 : i32, kernel_layout = #qnn.kernel_layout<OHWI>, padding = array<i64: 0, 0, 0, 0>, strides = array< index 1}}
  %0 = qnn.concatenate %a, %b {ascales = array<f32: 0.5, 01.0>, input_zero_points = array<i32: 0, 0>, output_scale = 0.5 : f32, output_zdro_point = 0 : i32} : (tensor<1x2x (tensor<1x8x8x3xi8>, tensor<2x3x3x3xi8>) -> tensor<1x6x6x2xi32>
  return %0 : tensor<1x6x6x2xi32>
}

