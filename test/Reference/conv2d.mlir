// qnn.conv2d: integer convolution with zero points, accumulated in i32.

// Published TFLite vector: kernels/conv_test.cc, ConvolutionOpTest
// SimpleTestQuantized. uint8, input and filter range [-63.5, 64] (scale 0.5,
// zero point 127), output range [-127, 128] (scale 1, zero point 127), bias
// {1, 2, 3} at scale 0.25 = {4, 8, 12}, stride 2, VALID. Input floats
// 1, 2, 3, 4 quantize to 129, 131, 133, 135; filter -1 to 125. Expected
// quantized output from the test: 145, 129, 132, 145, 129, 132, 144, 131,
// 130, 164, 131, 130.
// RUN: %mkbin %t.tfl u8 129 129 129 129 131 131 131 131 129 131 133 135 129 131 133 135
// RUN: qnn-run --reference %s --entry tflite_simple_test_quantized --input %t.tfl --print-values | FileCheck %s --check-prefix=TFL
// TFL: result 0: tensor<2x1x2x3xui8>
// TFL-NEXT: values 0: 145 129 132 145 129 132 144 131 130 164 131 130
func.func @tflite_simple_test_quantized(%x: tensor<2x2x4x1xui8>) -> tensor<2x1x2x3xui8> {
  %w = arith.constant dense<[[[[129], [131]], [[133], [135]]], [[[125], [129]], [[125], [129]]], [[[125], [125]], [[129], [129]]]]> : tensor<3x2x2x1xui8>
  %b = arith.constant dense<[[[[4, 8, 12]]]]> : tensor<1x1x1x3xi32>
  %acc = qnn.conv2d %x, %w {data_layout = #qnn.layout<NHWC>, dilations = array<i64: 1, 1>, groups = 1 : i64, input_scale = 0.5 : f32, input_zero_point = 127 : i32, kernel_layout = #qnn.kernel_layout<OHWI>, padding = array<i64: 0, 0, 0, 0>, strides = array<i64: 2, 2>, weight_scale = array<f32: 0.5>, weight_zero_point = 127 : i32} : (tensor<2x2x4x1xui8>, tensor<3x2x2x1xui8>) -> tensor<2x1x2x3xi32>
  %biased = tosa.add %acc, %b : (tensor<2x1x2x3xi32>, tensor<1x1x1x3xi32>) -> tensor<2x1x2x3xi32>
  %out = qnn.requantize %biased {input_scale = array<f64: 0.25>, input_zero_point = 0 : i32, output_scale = 1.0 : f32, output_zero_point = 127 : i32} : tensor<2x1x2x3xi32> -> tensor<2x1x2x3xui8>
  return %out : tensor<2x1x2x3xui8>
}

// 3x3 kernel 1..9 over a 2x2 input with padding 1 and input zero point 1
// (centered input 0 1 2 3); padded positions contribute nothing:
// (0,0) = 1*6 + 2*8 + 3*9 = 49, (0,1) = 1*5 + 2*7 + 3*8 = 43,
// (1,0) = 1*3 + 2*5 + 3*6 = 31, (1,1) = 1*2 + 2*4 + 3*5 = 25.
// The same numbers in NHWC/HWIO and NCHW/OIHW (one channel).
// RUN: %mkbin %t.pad u8 1 2 3 4
// RUN: qnn-run --reference %s --entry padded_nhwc_hwio --input %t.pad --print-values | FileCheck %s --check-prefix=PAD
// RUN: qnn-run --reference %s --entry padded_nchw_oihw --input %t.pad --print-values | FileCheck %s --check-prefix=PAD
// PAD: sum=148
// PAD: values 0: 49 43 31 25
func.func @padded_nhwc_hwio(%x: tensor<1x2x2x1xui8>) -> tensor<2x2xi32> {
  %w = arith.constant dense<[[[[1]], [[2]], [[3]]], [[[4]], [[5]], [[6]]], [[[7]], [[8]], [[9]]]]> : tensor<3x3x1x1xi8>
  %0 = qnn.conv2d %x, %w {data_layout = #qnn.layout<NHWC>, dilations = array<i64: 1, 1>, groups = 1 : i64, input_scale = 0.5 : f32, input_zero_point = 1 : i32, kernel_layout = #qnn.kernel_layout<HWIO>, padding = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>, weight_scale = array<f32: 0.5>, weight_zero_point = 0 : i32} : (tensor<1x2x2x1xui8>, tensor<3x3x1x1xi8>) -> tensor<1x2x2x1xi32>
  %1 = tensor.collapse_shape %0 [[0, 1], [2, 3]] : tensor<1x2x2x1xi32> into tensor<2x2xi32>
  return %1 : tensor<2x2xi32>
}
func.func @padded_nchw_oihw(%x: tensor<1x1x2x2xui8>) -> tensor<1x1x2x2xi32> {
  %w = arith.constant dense<[[[[1, 2, 3], [4, 5, 6], [7, 8, 9]]]]> : tensor<1x1x3x3xi8>
  %0 = qnn.conv2d %x, %w {data_layout = #qnn.layout<NCHW>, dilations = array<i64: 1, 1>, groups = 1 : i64, input_scale = 0.5 : f32, input_zero_point = 1 : i32, kernel_layout = #qnn.kernel_layout<OIHW>, padding = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>, weight_scale = array<f32: 0.5>, weight_zero_point = 0 : i32} : (tensor<1x1x2x2xui8>, tensor<1x1x3x3xi8>) -> tensor<1x1x2x2xi32>
  return %0 : tensor<1x1x2x2xi32>
}

// Stride 2, dilation 2, 2x2 kernel of ones over x(r, c) = 5r + c (5x5):
// out(i, j) = x(2i,2j) + x(2i,2j+2) + x(2i+2,2j) + x(2i+2,2j+2)
// = 24, 32, 64, 72.
// RUN: %mkbin %t.dil i8 --iota 25 0
// RUN: qnn-run --reference %s --entry strided_dilated --input %t.dil --print-values | FileCheck %s --check-prefix=DIL
// DIL: values 0: 24 32 64 72
func.func @strided_dilated(%x: tensor<1x5x5x1xi8>) -> tensor<1x2x2x1xi32> {
  %w = arith.constant dense<1> : tensor<1x2x2x1xi8>
  %0 = qnn.conv2d %x, %w {data_layout = #qnn.layout<NHWC>, dilations = array<i64: 2, 2>, groups = 1 : i64, input_scale = 0.5 : f32, input_zero_point = 0 : i32, kernel_layout = #qnn.kernel_layout<OHWI>, padding = array<i64: 0, 0, 0, 0>, strides = array<i64: 2, 2>, weight_scale = array<f32: 0.5>, weight_zero_point = 0 : i32} : (tensor<1x5x5x1xi8>, tensor<1x2x2x1xi8>) -> tensor<1x2x2x1xi32>
  return %0 : tensor<1x2x2x1xi32>
}

// Depthwise, TFLite layout IHWO [1, 1, 1, C*M] with multiplier 2: output
// channel c*2+m reads input channel c: 3*1, 3*2, -2*3, -2*4.
// RUN: %mkbin %t.dw i8 3 -2
// RUN: qnn-run --reference %s --entry depthwise_multiplier --input %t.dw --print-values | FileCheck %s --check-prefix=DW
// DW: values 0: 3 6 -6 -8
func.func @depthwise_multiplier(%x: tensor<1x1x1x2xi8>) -> tensor<1x1x1x4xi32> {
  %w = arith.constant dense<[[[[1, 2, 3, 4]]]]> : tensor<1x1x1x4xi8>
  %0 = qnn.conv2d %x, %w {data_layout = #qnn.layout<NHWC>, dilations = array<i64: 1, 1>, groups = 2 : i64, input_scale = 0.5 : f32, input_zero_point = 0 : i32, kernel_layout = #qnn.kernel_layout<IHWO>, padding = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, weight_scale = array<f32: 0.5>, weight_zero_point = 0 : i32} : (tensor<1x1x1x2xi8>, tensor<1x1x1x4xi8>) -> tensor<1x1x1x4xi32>
  return %0 : tensor<1x1x1x4xi32>
}

// Two groups of two channels (OHWI [2, 1, 1, 2]): output 0 = 1 + 2 over
// channels 0-1, output 1 = 3 - 4 over channels 2-3; weight zero point 1
// shifts weights [2, 2], [2, 0] to [1, 1], [1, -1].
// RUN: %mkbin %t.grp i8 1 2 3 4
// RUN: qnn-run --reference %s --entry grouped --input %t.grp --print-values | FileCheck %s --check-prefix=GRP
// GRP: values 0: 3 -1
func.func @grouped(%x: tensor<1x1x1x4xi8>) -> tensor<1x1x1x2xi32> {
  %w = arith.constant dense<[[[[2, 2]]], [[[2, 0]]]]> : tensor<2x1x1x2xi8>
  %0 = qnn.conv2d %x, %w {data_layout = #qnn.layout<NHWC>, dilations = array<i64: 1, 1>, groups = 2 : i64, input_scale = 0.5 : f32, input_zero_point = 0 : i32, kernel_layout = #qnn.kernel_layout<OHWI>, padding = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, weight_scale = array<f32: 0.5>, weight_zero_point = 1 : i32} : (tensor<1x1x1x4xi8>, tensor<2x1x1x2xi8>) -> tensor<1x1x1x2xi32>
  return %0 : tensor<1x1x1x2xi32>
}

// qnn.dense: (x - zp_x) . (w[o] - zp_w). i8: centered [2, 3, 4] against
// [1, 0, -1] = -2 and [2, 2, 2] = 18.
// RUN: %mkbin %t.fc i8 1 2 3
// RUN: qnn-run --reference %s --entry dense_i8 --input %t.fc --print-values | FileCheck %s --check-prefix=FC
// FC: values 0: -2 18
func.func @dense_i8(%x: tensor<1x3xi8>) -> tensor<1x2xi32> {
  %w = arith.constant dense<[[1, 0, -1], [2, 2, 2]]> : tensor<2x3xi8>
  %0 = qnn.dense %x, %w {input_scale = 0.5 : f32, input_zero_point = -1 : i32, weight_scale = array<f32: 0.25, 0.125>, weight_zero_point = 0 : i32} : (tensor<1x3xi8>, tensor<2x3xi8>) -> tensor<1x2xi32>
  return %0 : tensor<1x2xi32>
}

// ui8 with both zero points: [0, 1, 2] . [2, 0, -2] = -4; two rows.
// RUN: %mkbin %t.fcu u8 1 2 3 3 2 1
// RUN: qnn-run --reference %s --entry dense_u8 --input %t.fcu --print-values | FileCheck %s --check-prefix=FCU
// FCU: values 0: -4 4
func.func @dense_u8(%x: tensor<2x3xui8>) -> tensor<2x1xi32> {
  %w = arith.constant dense<[[130, 128, 126]]> : tensor<1x3xui8>
  %0 = qnn.dense %x, %w {input_scale = 0.5 : f32, input_zero_point = 1 : i32, weight_scale = array<f32: 0.25>, weight_zero_point = 128 : i32} : (tensor<2x3xui8>, tensor<1x3xui8>) -> tensor<2x1xi32>
  return %0 : tensor<2x1xi32>
}

// Published vector: TFLite's depthwise_conv_test.cc SimpleTestQuantized, also
// the Android NNAPI CTS test depthwise_conv2d_quant8_2. uint8, input
// [1, 3, 2, 2] and filter [1, 2, 2, 4] (IHWO, depth multiplier 2) at scale
// 0.5 zero point 127 (filter floats 1 2 3 4 -9 10 -11 12 5 6 7 8 13 -14 15
// -16 quantize to the constant below), bias 1 2 3 4 at scale 0.25, output
// scale 1 zero point 127, VALID, stride 1. Expected quantized output from the
// test: 198 93 226 107 218 101 254 123 (floats 71 -34 99 -20 91 -26 127 -4).
// RUN: %mkbin %t.dwq u8 129 131 141 143 133 135 145 147 137 139 149 151
// RUN: qnn-run --reference %s --entry tflite_depthwise_simple_test_quantized --input %t.dwq --print-values | FileCheck %s --check-prefix=DWQ
// DWQ: values 0: 198 93 226 107 218 101 254 123
func.func @tflite_depthwise_simple_test_quantized(%x: tensor<1x3x2x2xui8>) -> tensor<1x2x1x4xui8> {
  %w = arith.constant dense<[[[[129, 131, 133, 135], [109, 147, 105, 151]], [[137, 139, 141, 143], [153, 99, 157, 95]]]]> : tensor<1x2x2x4xui8>
  %b = arith.constant dense<[[[[4, 8, 12, 16]]]]> : tensor<1x1x1x4xi32>
  %acc = qnn.conv2d %x, %w {data_layout = #qnn.layout<NHWC>, dilations = array<i64: 1, 1>, groups = 2 : i64, input_scale = 0.5 : f32, input_zero_point = 127 : i32, kernel_layout = #qnn.kernel_layout<IHWO>, padding = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, weight_scale = array<f32: 0.5>, weight_zero_point = 127 : i32} : (tensor<1x3x2x2xui8>, tensor<1x2x2x4xui8>) -> tensor<1x2x1x4xi32>
  %biased = tosa.add %acc, %b : (tensor<1x2x1x4xi32>, tensor<1x1x1x4xi32>) -> tensor<1x2x1x4xi32>
  %out = qnn.requantize %biased {input_scale = array<f64: 0.25>, input_zero_point = 0 : i32, output_scale = 1.0 : f32, output_zero_point = 127 : i32} : tensor<1x2x1x4xi32> -> tensor<1x2x1x4xui8>
  return %out : tensor<1x2x1x4xui8>
}
