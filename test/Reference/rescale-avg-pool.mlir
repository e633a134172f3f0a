// qnn.rescale_avg_pool2d (ONNX Runtime's QLinearAveragePool) by hand:
// input 10 20 30 40 (2x2, scale 0.5, zp 10) dequantizes to 0 5 10 15;
// kernel 2x2, stride 1, padding top/left 1, output scale 2, zp 3. Without
// count_include_pad the clipped windows hold 1, 2, 2, 4 values:
// 0 -> 3; 5/2 = 2.5 -> 1.25 + 3 -> 4; 10/2 = 5 -> 5.5 -> 6 (half to even);
// 30/4 = 7.5 -> 6.75 -> 7. With it every count is 4: 3, 3.625 -> 4,
// 4.25 -> 4, 7.
// RUN: %mkbin %t.x u8 10 20 30 40
// RUN: qnn-run --reference %s --entry clipped --input %t.x --print-values | FileCheck %s --check-prefix=CLIP
// RUN: qnn-run %s --entry clipped --input %t.x --print-values --compare-reference | FileCheck %s --check-prefix=CLIP
// RUN: qnn-run --reference %s --entry include_pad --input %t.x --print-values | FileCheck %s --check-prefix=INCL
// RUN: qnn-run %s --entry include_pad --target=generic --input %t.x --print-values --compare-reference | FileCheck %s --check-prefix=INCL
// CLIP: values 0: 3 4 6 7
// INCL: values 0: 3 4 4 7
func.func @clipped(%x: tensor<1x1x2x2xui8>) -> tensor<1x1x2x2xui8> {
  %0 = qnn.rescale_avg_pool2d %x {count_include_pad = false, data_layout = #qnn.layout<NCHW>, input_scale = 0.5 : f32, input_zero_point = 10 : i32, kernel = array<i64: 2, 2>, output_scale = 2.0 : f32, output_zero_point = 3 : i32, padding = array<i64: 1, 1, 0, 0>, strides = array<i64: 1, 1>} : tensor<1x1x2x2xui8> -> tensor<1x1x2x2xui8>
  return %0 : tensor<1x1x2x2xui8>
}
func.func @include_pad(%x: tensor<1x1x2x2xui8>) -> tensor<1x1x2x2xui8> {
  %0 = qnn.rescale_avg_pool2d %x {count_include_pad = true, data_layout = #qnn.layout<NCHW>, input_scale = 0.5 : f32, input_zero_point = 10 : i32, kernel = array<i64: 2, 2>, output_scale = 2.0 : f32, output_zero_point = 3 : i32, padding = array<i64: 1, 1, 0, 0>, strides = array<i64: 1, 1>} : tensor<1x1x2x2xui8> -> tensor<1x1x2x2xui8>
  return %0 : tensor<1x1x2x2xui8>
}

// A window of 2^30 columns: both outputs average all four values (7); the
// lowering pads and iterates only the overlap, so it runs in milliseconds.
// With count_include_pad the divisor is 2^31 and the average rounds to the
// zero point.
// RUN: qnn-run --reference %s --entry huge --input %t.x --print-values | FileCheck %s --check-prefix=HUGE
// RUN: qnn-run %s --entry huge --input %t.x --print-values --compare-reference | FileCheck %s --check-prefix=HUGE
// RUN: qnn-run %s --entry huge_include_pad --input %t.x --print-values --compare-reference | FileCheck %s --check-prefix=HUGEINCL
// HUGE: values 0: 7 7
// HUGEINCL: values 0: 3 3
func.func @huge(%x: tensor<1x1x2x2xui8>) -> tensor<1x1x1x2xui8> {
  %0 = qnn.rescale_avg_pool2d %x {count_include_pad = false, data_layout = #qnn.layout<NCHW>, input_scale = 0.5 : f32, input_zero_point = 10 : i32, kernel = array<i64: 2, 1073741824>, output_scale = 2.0 : f32, output_zero_point = 3 : i32, padding = array<i64: 0, 536870911, 0, 536870912>, strides = array<i64: 1, 1>} : tensor<1x1x2x2xui8> -> tensor<1x1x1x2xui8>
  return %0 : tensor<1x1x1x2xui8>
}
func.func @huge_include_pad(%x: tensor<1x1x2x2xui8>) -> tensor<1x1x1x2xui8> {
  %0 = qnn.rescale_avg_pool2d %x {count_include_pad = true, data_layout = #qnn.layout<NCHW>, input_scale = 0.5 : f32, input_zero_point = 10 : i32, kernel = array<i64: 2, 1073741824>, output_scale = 2.0 : f32, output_zero_point = 3 : i32, padding = array<i64: 0, 536870911, 0, 536870912>, strides = array<i64: 1, 1>} : tensor<1x1x2x2xui8> -> tensor<1x1x1x2xui8>
  return %0 : tensor<1x1x1x2xui8>
}
