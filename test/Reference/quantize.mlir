// qnn.quantize / qnn.dequantize: round half away from zero of x / scale in
// float32, plus the zero point, clamped; dequantize = scale * (q - zp).
// Expected values are computed by hand in the comments.

// RUN: %mkbin %t.pt f32 1.25 -1.25 1000 -0.24
// RUN: qnn-run --reference %s --entry per_tensor --input %t.pt --print-values | FileCheck %s --check-prefix=PT
// 2.5 -> 3, -2.5 -> -3, 2000 -> clamp, -0.48 -> 0; each minus 3.
// PT: result 0: tensor<4xi8>
// PT-NEXT: values 0: 0 -6 127 -3
func.func @per_tensor(%x: tensor<4xf32>) -> tensor<4xi8> {
  %0 = qnn.quantize %x {scale = array<f32: 0.5>, zero_point = array<i32: -3>} : tensor<4xf32> -> tensor<4xi8>
  return %0 : tensor<4xi8>
}

// RUN: %mkbin %t.pc f32 1.0 -1.0 1.0 -1.0
// RUN: qnn-run --reference %s --entry per_channel --input %t.pc --print-values | FileCheck %s --check-prefix=PC
// Row 0 scale 0.5, zp 10; row 1 scale 0.25, zp 20.
// PC: result 0: tensor<2x2xui8>
// PC-NEXT: values 0: 12 8 24 16
func.func @per_channel(%x: tensor<2x2xf32>) -> tensor<2x2xui8> {
  %0 = qnn.quantize %x {axis = 0 : i64, scale = array<f32: 0.5, 0.25>, zero_point = array<i32: 10, 20>} : tensor<2x2xf32> -> tensor<2x2xui8>
  return %0 : tensor<2x2xui8>
}

// RUN: %mkbin %t.dq u8 0 128 255
// RUN: qnn-run --reference %s --entry dequantize_u8 --input %t.dq --print-values | FileCheck %s --check-prefix=DQ
// 0.5 * (q - 128).
// DQ: result 0: tensor<3xf32>
// DQ-NEXT: values 0: -6.400000e+01 0.000000e+00 6.350000e+01
func.func @dequantize_u8(%x: tensor<3xui8>) -> tensor<3xf32> {
  %0 = qnn.dequantize %x {scale = array<f32: 0.5>, zero_point = array<i32: 128>} : tensor<3xui8> -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// RUN: %mkbin %t.dqc i8 4 3 -4 -1
// RUN: qnn-run --reference %s --entry dequantize_per_channel --input %t.dqc --print-values | FileCheck %s --check-prefix=DQC
// Column 0: 0.5 * (q - 0); column 1: 2 * (q - 1).
// DQC: result 0: tensor<2x2xf32>
// DQC-NEXT: values 0: 2.000000e+00 4.000000e+00 -2.000000e+00 -4.000000e+00
func.func @dequantize_per_channel(%x: tensor<2x2xi8>) -> tensor<2x2xf32> {
  %0 = qnn.dequantize %x {axis = 1 : i64, scale = array<f32: 0.5, 2.0>, zero_point = array<i32: 0, 1>} : tensor<2x2xi8> -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}
