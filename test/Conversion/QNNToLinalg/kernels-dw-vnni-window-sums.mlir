// DepthwiseVNNI with 8-bit unsigned weights whose w - wzp leave the
// signed byte range (uint8 per-tensor models: the weights lie on both
// sides of their zero point): with 2 to 4 kernel rows the packed weights
// are w - wzp - d, d (KernelSpec::d, the 17th entry of the kernel spec
// and of its name) the value nearest 0 that brings them into [-128, 127],
// and each packed column's sum of its rows' bytes times d, one vpdpbusd
// from zero against d in bytes 0..kh-1, is added to the accumulator of
// every pixel whose window holds the column; `corr` is unchanged. Weights
// that no d fits, or that would need d = 128, and kernels of other
// heights keep the generic depthwise kernel. Execution:
// depthwise-vnni.test (native) and depthwise-packed-rows.test (emulated).
// RUN: qnn-opt %s --split-input-file --convert-qnn-to-linalg=target=avx512-vnni --qnn-materialize-conv-kernels | FileCheck %s

// wzp = 100, weights 0..255: w - wzp in [-100, 155], d = 28 (bytes
// 0x1C1C1C = 1842204): weight 0 is stored as -128, 255 as 127.
// CHECK-LABEL: func.func @d28(
// CHECK: call @__qnn_kernel_dwvnni_1_8_8_16_6_6_3_3_1_1_1_1_16_0_0_28_1_6_6_1_1
// CHECK-LABEL: func.func private @__qnn_kernel_dwvnni_1_8_8_16_6_6_3_3_1_1_1_1_16_0_0_28_1_6_6_1_1
// CHECK-DAG: %[[ZERO:.*]] = arith.constant dense<0> : vector<16xi32>
// CHECK-DAG: %[[D:.*]] = arith.constant dense<1842204> : vector<16xi32>
// CHECK: %[[DB:.*]] = vector.bitcast %[[D]] : vector<16xi32> to vector<64xi8>
// CHECK: %[[S:.*]] = llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"(%[[ZERO]], %{{.*}}, %[[DB]])
// CHECK: arith.addi %{{.*}}, %[[S]] : vector<16xi32>
func.func @d28(%x: tensor<1x6x6x16xui8>) -> tensor<1x6x6x16xui8> {
  %w = arith.constant dense<[[[[0, 183, 14, 238, 127, 26, 80, 57, 190, 240, 126, 194, 52, 127, 6, 110], [208, 143, 93, 199, 81, 36, 71, 227, 64, 67, 0, 2, 107, 110, 84, 85], [148, 160, 101, 104, 93, 100, 196, 152, 11, 184, 212, 84, 74, 135, 33, 169]], [[154, 1, 173, 33, 158, 181, 156, 246, 161, 94, 246, 241, 90, 29, 131, 11], [183, 206, 9, 214, 187, 192, 4, 231, 23, 92, 100, 60, 125, 236, 176, 181], [128, 236, 55, 188, 151, 18, 221, 46, 106, 174, 185, 75, 174, 141, 47, 159]], [[162, 156, 90, 40, 76, 158, 247, 82, 24, 41, 207, 16, 121, 176, 128, 233], [215, 74, 28, 16, 252, 171, 106, 66, 67, 211, 54, 86, 222, 190, 76, 30], [215, 150, 72, 232, 86, 232, 249, 162, 245, 140, 149, 240, 206, 75, 57, 255]]]]> : tensor<1x3x3x16xui8>
  %c = qnn.conv2d %x, %w {data_layout = #qnn.layout<NHWC>, dilations = array<i64: 1, 1>, groups = 16 : i64, input_scale = 5.000000e-01 : f32, input_zero_point = 3 : i32, kernel_layout = #qnn.kernel_layout<IHWO>, padding = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>, weight_scale = array<f32: 0.02>, weight_zero_point = 100 : i32} : (tensor<1x6x6x16xui8>, tensor<1x3x3x16xui8>) -> tensor<1x6x6x16xi32>
  %y = qnn.requantize %c {input_scale = array<f64: 0.01>, input_zero_point = 0 : i32, output_scale = 2.000000e-01 : f32, output_zero_point = 130 : i32, rounding = #qnn.rounding<tflite_single>} : tensor<1x6x6x16xi32> -> tensor<1x6x6x16xui8>
  return %y : tensor<1x6x6x16xui8>
}

// -----

// wzp = 200: w - wzp in [-200, 55], d = -72 (bytes 0xB8B8B8 = 12105912),
// s8 input (the packed columns flipped), stride 2.
// CHECK-LABEL: func.func @dneg(
// CHECK: call @__qnn_kernel_dwvnni_1_{{[0-9_]*}}_3_3_2_2_1_1_32_1_0_m72_1_
// CHECK: arith.constant dense<12105912> : vector<16xi32>
func.func @dneg(%x: tensor<1x9x9x32xi8>) -> tensor<1x5x5x32xui8> {
  %w = arith.constant dense<[[[[0, 255, 173, 92, 45, 251, 139, 184, 32, 182, 17, 156, 186, 143, 248, 135, 150, 174, 91, 5, 242, 128, 166, 140, 237, 147, 182, 178, 140, 176, 209, 179], [88, 230, 186, 171, 72, 85, 101, 185, 244, 144, 40, 213, 87, 215, 154, 138, 14, 100, 81, 225, 92, 112, 92, 21, 241, 115, 84, 27, 68, 56, 162, 92], [247, 99, 18, 212, 238, 179, 194, 36, 104, 121, 191, 0, 179, 207, 142, 209, 58, 191, 18, 154, 48, 151, 173, 150, 180, 66, 214, 209, 189, 239, 72, 80]], [[195, 244, 101, 68, 46, 179, 0, 195, 55, 166, 72, 166, 192, 219, 221, 115, 252, 149, 245, 194, 196, 81, 133, 154, 254, 128, 212, 10, 163, 157, 251, 146], [73, 244, 12, 62, 227, 125, 150, 20, 69, 200, 6, 245, 140, 124, 242, 18, 125, 250, 137, 79, 146, 150, 252, 243, 60, 8, 64, 153, 144, 172, 151, 13], [237, 179, 184, 67, 18, 1, 129, 233, 55, 97, 7, 219, 218, 246, 197, 243, 200, 100, 151, 238, 33, 155, 1, 221, 146, 241, 159, 73, 84, 244, 254, 169]], [[78, 217, 24, 35, 117, 136, 43, 32, 13, 170, 219, 35, 207, 249, 25, 63, 62, 112, 56, 68, 149, 224, 76, 93, 94, 211, 82, 34, 109, 22, 55, 194], [36, 143, 29, 60, 204, 68, 5, 221, 46, 161, 250, 250, 180, 191, 28, 70, 150, 77, 148, 112, 134, 32, 120, 130, 145, 68, 120, 190, 232, 199, 91, 67], [9, 174, 43, 18, 46, 63, 232, 122, 199, 236, 245, 165, 55, 15, 196, 27, 77, 219, 114, 59, 42, 251, 108, 71, 192, 181, 120, 148, 170, 178, 197, 255]]]]> : tensor<1x3x3x32xui8>
  %c = qnn.conv2d %x, %w {data_layout = #qnn.layout<NHWC>, dilations = array<i64: 1, 1>, groups = 32 : i64, input_scale = 5.000000e-01 : f32, input_zero_point = -3 : i32, kernel_layout = #qnn.kernel_layout<IHWO>, padding = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>, weight_scale = array<f32: 0.02>, weight_zero_point = 200 : i32} : (tensor<1x9x9x32xi8>, tensor<1x3x3x32xui8>) -> tensor<1x5x5x32xi32>
  %y = qnn.requantize %c {input_scale = array<f64: 0.01>, input_zero_point = 0 : i32, output_scale = 2.000000e-01 : f32, output_zero_point = 130 : i32, rounding = #qnn.rounding<tflite_single>} : tensor<1x5x5x32xi32> -> tensor<1x5x5x32xui8>
  return %y : tensor<1x5x5x32xui8>
}

// -----

// 2 kernel rows, SAME padding at the bottom and right only: d = 38 in
// bytes 0..1 (0x2626 = 9766). (4 kernel rows below: d = 8 in bytes 0..3,
// 0x08080808 = 134744072.)
// CHECK-LABEL: func.func @k2(
// CHECK: call @__qnn_kernel_dwvnni_1_{{[0-9_]*}}_2_2_1_1_1_1_16_0_0_38_1_
// CHECK: arith.constant dense<9766> : vector<16xi32>
func.func @k2(%x: tensor<1x7x7x16xui8>) -> tensor<1x7x7x16xui8> {
  %w = arith.constant dense<[[[[0, 48, 86, 203, 50, 144, 102, 165, 244, 240, 46, 101, 192, 5, 53, 94], [199, 11, 162, 13, 159, 196, 243, 204, 230, 31, 75, 213, 185, 10, 105, 145]], [[146, 39, 13, 44, 182, 211, 157, 7, 140, 120, 36, 19, 45, 153, 179, 106], [247, 47, 61, 122, 175, 216, 201, 1, 199, 193, 91, 106, 164, 197, 165, 255]]]]> : tensor<1x2x2x16xui8>
  %c = qnn.conv2d %x, %w {data_layout = #qnn.layout<NHWC>, dilations = array<i64: 1, 1>, groups = 16 : i64, input_scale = 5.000000e-01 : f32, input_zero_point = 3 : i32, kernel_layout = #qnn.kernel_layout<IHWO>, padding = array<i64: 0, 0, 1, 1>, strides = array<i64: 1, 1>, weight_scale = array<f32: 0.02>, weight_zero_point = 90 : i32} : (tensor<1x7x7x16xui8>, tensor<1x2x2x16xui8>) -> tensor<1x7x7x16xi32>
  %y = qnn.requantize %c {input_scale = array<f64: 0.01>, input_zero_point = 0 : i32, output_scale = 2.000000e-01 : f32, output_zero_point = 130 : i32, rounding = #qnn.rounding<tflite_single>} : tensor<1x7x7x16xi32> -> tensor<1x7x7x16xui8>
  return %y : tensor<1x7x7x16xui8>
}
// -----

// CHECK-LABEL: func.func @k4(
// CHECK: call @__qnn_kernel_dwvnni_1_{{[0-9_]*}}_4_4_1_1_1_1_16_0_0_8_1_
// CHECK: arith.constant dense<134744072> : vector<16xi32>
func.func @k4(%x: tensor<1x8x8x16xui8>) -> tensor<1x8x8x16xui8> {
  %w = arith.constant dense<[[[[0, 183, 151, 221, 185, 18, 110, 92, 202, 32, 49, 18, 16, 95, 103, 100], [20, 250, 246, 178, 0, 218, 240, 153, 219, 165, 238, 236, 51, 98, 79, 81], [36, 191, 197, 240, 77, 130, 56, 142, 82, 146, 120, 16, 246, 16, 176, 188], [161, 30, 11, 233, 241, 79, 60, 166, 149, 232, 122, 83, 17, 102, 12, 118]], [[40, 205, 186, 159, 94, 239, 185, 144, 34, 239, 83, 123, 89, 106, 22, 220], [138, 3, 236, 31, 231, 210, 86, 23, 17, 179, 48, 36, 121, 251, 47, 241], [27, 124, 25, 254, 203, 30, 24, 130, 208, 228, 156, 26, 19, 99, 91, 206], [96, 119, 43, 160, 55, 44, 82, 38, 109, 8, 225, 183, 249, 216, 192, 67]], [[6, 157, 229, 114, 59, 71, 159, 247, 44, 134, 206, 160, 67, 66, 41, 241], [125, 43, 219, 125, 141, 31, 252, 127, 24, 102, 146, 191, 50, 36, 215, 160], [194, 0, 146, 67, 14, 226, 73, 9, 24, 218, 137, 54, 195, 66, 164, 33], [156, 86, 70, 134, 254, 165, 146, 17, 32, 14, 14, 62, 25, 66, 182, 223]], [[132, 8, 118, 219, 64, 185, 103, 169, 183, 6, 83, 83, 48, 137, 87, 73], [228, 222, 219, 60, 170, 162, 228, 116, 236, 222, 87, 226, 24, 82, 242, 251], [0, 53, 64, 214, 26, 106, 0, 16, 120, 246, 181, 201, 237, 110, 103, 141], [102, 155, 182, 123, 187, 180, 127, 31, 253, 205, 178, 73, 73, 122, 250, 255]]]]> : tensor<1x4x4x16xui8>
  %c = qnn.conv2d %x, %w {data_layout = #qnn.layout<NHWC>, dilations = array<i64: 1, 1>, groups = 16 : i64, input_scale = 5.000000e-01 : f32, input_zero_point = 3 : i32, kernel_layout = #qnn.kernel_layout<IHWO>, padding = array<i64: 1, 1, 2, 2>, strides = array<i64: 1, 1>, weight_scale = array<f32: 0.02>, weight_zero_point = 120 : i32} : (tensor<1x8x8x16xui8>, tensor<1x4x4x16xui8>) -> tensor<1x8x8x16xi32>
  %y = qnn.requantize %c {input_scale = array<f64: 0.01>, input_zero_point = 0 : i32, output_scale = 2.000000e-01 : f32, output_zero_point = 130 : i32, rounding = #qnn.rounding<tflite_single>} : tensor<1x8x8x16xi32> -> tensor<1x8x8x16xui8>
  return %y : tensor<1x8x8x16xui8>
}

// -----

// No d: wzp = 0 with weights 0..255 would need d = 128, and a 5x5 kernel
// does not pack its rows: the generic depthwise kernel.
// CHECK-LABEL: func.func @d128(
// CHECK: call @__qnn_kernel_dw_
func.func @d128(%x: tensor<1x6x6x16xui8>) -> tensor<1x6x6x16xui8> {
  %w = arith.constant dense<[[[[0, 183, 14, 238, 127, 26, 80, 57, 190, 240, 126, 194, 52, 127, 6, 110], [208, 143, 93, 199, 81, 36, 71, 227, 64, 67, 0, 2, 107, 110, 84, 85], [148, 160, 101, 104, 93, 100, 196, 152, 11, 184, 212, 84, 74, 135, 33, 169]], [[154, 1, 173, 33, 158, 181, 156, 246, 161, 94, 246, 241, 90, 29, 131, 11], [183, 206, 9, 214, 187, 192, 4, 231, 23, 92, 100, 60, 125, 236, 176, 181], [128, 236, 55, 188, 151, 18, 221, 46, 106, 174, 185, 75, 174, 141, 47, 159]], [[162, 156, 90, 40, 76, 158, 247, 82, 24, 41, 207, 16, 121, 176, 128, 233], [215, 74, 28, 16, 252, 171, 106, 66, 67, 211, 54, 86, 222, 190, 76, 30], [215, 150, 72, 232, 86, 232, 249, 162, 245, 140, 149, 240, 206, 75, 57, 255]]]]> : tensor<1x3x3x16xui8>
  %c = qnn.conv2d %x, %w {data_layout = #qnn.layout<NHWC>, dilations = array<i64: 1, 1>, groups = 16 : i64, input_scale = 5.000000e-01 : f32, input_zero_point = 3 : i32, kernel_layout = #qnn.kernel_layout<IHWO>, padding = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>, weight_scale = array<f32: 0.02>, weight_zero_point = 0 : i32} : (tensor<1x6x6x16xui8>, tensor<1x3x3x16xui8>) -> tensor<1x6x6x16xi32>
  %y = qnn.requantize %c {input_scale = array<f64: 0.01>, input_zero_point = 0 : i32, output_scale = 2.000000e-01 : f32, output_zero_point = 130 : i32, rounding = #qnn.rounding<tflite_single>} : tensor<1x6x6x16xi32> -> tensor<1x6x6x16xui8>
  return %y : tensor<1x6x6x16xui8>
}
// CHECK-LABEL: func.func @k5(
// CHECK: call @__qnn_kernel_dw_
func.func @k5(%x: tensor<1x8x8x16xui8>) -> tensor<1x8x8x16xui8> {
  %w = arith.constant dense<[[[[0, 127, 51, 108, 150, 156, 137, 39, 85, 39, 211, 94, 115, 32, 208, 213], [118, 217, 247, 125, 154, 214, 143, 43, 169, 95, 215, 15, 76, 59, 151, 94], [222, 97, 166, 52, 169, 39, 31, 248, 70, 37, 163, 96, 239, 196, 117, 244], [51, 0, 99, 80, 57, 47, 171, 77, 188, 53, 225, 165, 93, 52, 187, 52], [33, 100, 105, 165, 191, 88, 234, 42, 125, 206, 238, 192, 2, 60, 191, 67]], [[1, 253, 195, 175, 36, 251, 151, 8, 59, 245, 181, 100, 175, 195, 72, 148], [255, 45, 56, 151, 208, 172, 32, 221, 25, 112, 215, 121, 138, 37, 74, 138], [49, 244, 221, 92, 197, 125, 47, 231, 182, 66, 42, 2, 72, 184, 8, 10], [128, 234, 196, 40, 27, 111, 99, 226, 6, 241, 43, 142, 240, 11, 27, 81], [201, 222, 18, 110, 12, 215, 211, 221, 193, 7, 85, 173, 75, 155, 97, 216]], [[39, 189, 110, 201, 215, 97, 138, 71, 240, 186, 146, 1, 63, 86, 234, 39], [37, 195, 18, 209, 76, 100, 9, 252, 162, 234, 69, 239, 121, 39, 186, 15], [7, 94, 219, 43, 136, 67, 190, 171, 109, 77, 150, 46, 145, 56, 54, 204], [191, 155, 188, 244, 227, 123, 71, 134, 8, 6, 197, 68, 121, 246, 28, 4], [7, 108, 214, 119, 120, 157, 28, 122, 19, 197, 177, 10, 152, 225, 230, 52]], [[63, 189, 141, 199, 193, 154, 85, 39, 229, 28, 108, 199, 50, 153, 191, 209], [70, 233, 179, 32, 253, 1, 106, 232, 21, 30, 45, 59, 175, 73, 191, 174], [134, 141, 247, 73, 63, 134, 128, 12, 129, 198, 85, 125, 134, 224, 90, 70], [26, 181, 63, 4, 233, 22, 253, 20, 13, 210, 60, 211, 226, 113, 56, 32], [47, 21, 34, 235, 155, 35, 139, 61, 207, 156, 132, 232, 152, 153, 0, 165]], [[254, 238, 194, 79, 110, 134, 161, 105, 234, 45, 76, 180, 40, 217, 224, 202], [89, 100, 71, 251, 86, 228, 176, 8, 74, 222, 137, 252, 110, 122, 86, 214], [128, 160, 150, 55, 100, 132, 217, 183, 135, 249, 44, 59, 56, 172, 49, 52], [145, 91, 25, 196, 88, 171, 133, 51, 209, 168, 49, 159, 32, 149, 172, 210], [209, 32, 33, 154, 35, 92, 20, 48, 208, 53, 236, 213, 36, 115, 215, 255]]]]> : tensor<1x5x5x16xui8>
  %c = qnn.conv2d %x, %w {data_layout = #qnn.layout<NHWC>, dilations = array<i64: 1, 1>, groups = 16 : i64, input_scale = 5.000000e-01 : f32, input_zero_point = 3 : i32, kernel_layout = #qnn.kernel_layout<IHWO>, padding = array<i64: 2, 2, 2, 2>, strides = array<i64: 1, 1>, weight_scale = array<f32: 0.02>, weight_zero_point = 100 : i32} : (tensor<1x8x8x16xui8>, tensor<1x5x5x16xui8>) -> tensor<1x8x8x16xi32>
  %y = qnn.requantize %c {input_scale = array<f64: 0.01>, input_zero_point = 0 : i32, output_scale = 2.000000e-01 : f32, output_zero_point = 130 : i32, rounding = #qnn.rounding<tflite_single>} : tensor<1x8x8x16xi32> -> tensor<1x8x8x16xui8>
  return %y : tensor<1x8x8x16xui8>
}
