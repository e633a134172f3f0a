// A program without convolutions: qnn-run --profile finds no kernel calls.
func.func @main(%x: tensor<1x8x8x3xui8>) -> tensor<1x8x8x3xui8> {
  %y = qnn.requantize %x {input_scale = array<f64: 5.000000e-02>, input_zero_point = 128 : i32, output_scale = 1.000000e-01 : f32, output_zero_point = 128 : i32} : tensor<1x8x8x3xui8> -> tensor<1x8x8x3xui8>
  return %y : tensor<1x8x8x3xui8>
}
