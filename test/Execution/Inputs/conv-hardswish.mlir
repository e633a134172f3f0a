// conv (16 channels) + bias + requantize + hardswish: the lookup table
// becomes part of the kernel epilogue (fused-epilogues*.test).
func.func @main(%x: tensor<1x5x5x8xi8>) -> tensor<1x5x5x16xi8> {
  %w = arith.constant dense<[[[[1, -2, 3, -4, 5, -6, 7, -8]]], [[[9, 10, -11, 12, 13, -14, 15, 16]]], [[[17, 18, 19, -20, 21, 22, 23, 24]]], [[[-25, 26, 27, 28, -29, 30, 31, 32]]], [[[1, -2, 3, -4, 5, -6, 7, -8]]], [[[9, 10, -11, 12, 13, -14, 15, 16]]], [[[17, 18, 19, -20, 21, 22, 23, 24]]], [[[-25, 26, 27, 28, -29, 30, 31, 32]]], [[[1, -2, 3, -4, 5, -6, 7, -8]]], [[[9, 10, -11, 12, 13, -14, 15, 16]]], [[[17, 18, 19, -20, 21, 22, 23, 24]]], [[[-25, 26, 27, 28, -29, 30, 31, 32]]], [[[1, -2, 3, -4, 5, -6, 7, -8]]], [[[9, 10, -11, 12, 13, -14, 15, 16]]], [[[17, 18, 19, -20, 21, 22, 23, 24]]], [[[-25, 26, 27, 28, -29, 30, 31, 32]]]]> : tensor<16x1x1x8xi8>
  %b = arith.constant dense<[[[[100, -200, 300, -400, 500, -600, 700, -800, 900, -1000, 1100, -1200, 1300, -1400, 1500, -1600]]]]> : tensor<1x1x1x16xi32>
  %c = qnn.conv2d %x, %w {data_layout = #qnn.layout<NHWC>, dilations = array<i64: 1, 1>, groups = 1 : i64, input_scale = 5.000000e-02 : f32, input_zero_point = -3 : i32, kernel_layout = #qnn.kernel_layout<OHWI>, padding = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, weight_scale = array<f32: 0.02>, weight_zero_point = 0 : i32} : (tensor<1x5x5x8xi8>, tensor<16x1x1x8xi8>) -> tensor<1x5x5x16xi32>
  %a = tosa.add %c, %b : (tensor<1x5x5x16xi32>, tensor<1x1x1x16xi32>) -> tensor<1x5x5x16xi32>
  %y = qnn.requantize %a {input_scale = array<f64: 0.001>, input_zero_point = 0 : i32, output_scale = 5.000000e-02 : f32, output_zero_point = 5 : i32} : tensor<1x5x5x16xi32> -> tensor<1x5x5x16xi8>
  %h = qnn.hardswish %y {input_scale = 5.000000e-02 : f32, input_zero_point = 5 : i32, output_scale = 3.000000e-02 : f32, output_zero_point = -20 : i32} : tensor<1x5x5x16xi8> -> tensor<1x5x5x16xi8>
  return %h : tensor<1x5x5x16xi8>
}
