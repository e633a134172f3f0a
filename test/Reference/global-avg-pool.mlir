// qnn.global_avg_pool (ONNX Runtime's QLinearGlobalAveragePool): the i32
// sum minus zp * N, times float32(in / float32(out * N)), halves to even.
// NHWC, scales 1, zero points 0, N = 4: channel 0 holds 1 2 3 4 (sum 10,
// 2.5 -> 2), channel 1 holds 1 1 1 2 (5, 1.25 -> 1), channel 2 holds
// 2 2 1 1 (6, 1.5 -> 2).
// RUN: %mkbin %t.x u8 1 1 2 2 1 2 3 1 1 4 2 1
// RUN: qnn-run --reference %s --entry nhwc --input %t.x --print-values | FileCheck %s --check-prefix=NHWC
// RUN: qnn-run %s --target generic --entry nhwc --input %t.x --print-values --compare-reference | FileCheck %s --check-prefix=NHWC
// NHWC: values 0: 2 1 2
func.func @nhwc(%x: tensor<1x2x2x3xui8>) -> tensor<1x1x1x3xui8> {
  %0 = qnn.global_avg_pool %x {data_layout = #qnn.layout<NHWC>, input_scale = 1.0 : f32, input_zero_point = 0 : i32, output_scale = 1.0 : f32, output_zero_point = 0 : i32} : tensor<1x2x2x3xui8> -> tensor<1x1x1x3xui8>
  return %0 : tensor<1x1x1x3xui8>
}

// NCHW, int8, zero points: input zp -3 (values 1 2 3 4 -> 4 5 6 7 real
// units, sum 22), output scale 2 (factor float32(1 / 8) = 0.125, 2.75 -> 3),
// output zp 10 -> 13; channel 1: -3 -3 -3 -3 -> 0 -> 10.
// RUN: %mkbin %t.y i8 1 2 3 4 -3 -3 -3 -3
// RUN: qnn-run --reference %s --entry nchw --input %t.y --print-values | FileCheck %s --check-prefix=NCHW
// RUN: qnn-run %s --target generic --entry nchw --input %t.y --print-values --compare-reference | FileCheck %s --check-prefix=NCHW
// NCHW: values 0: 13 10
func.func @nchw(%x: tensor<1x2x2x2xi8>) -> tensor<1x2x1x1xi8> {
  %0 = qnn.global_avg_pool %x {data_layout = #qnn.layout<NCHW>, input_scale = 1.0 : f32, input_zero_point = -3 : i32, output_scale = 2.0 : f32, output_zero_point = 10 : i32} : tensor<1x2x2x2xi8> -> tensor<1x2x1x1xi8>
  return %0 : tensor<1x2x1x1xi8>
}
