// Depthwise layers of 2, 4 or 8 channels on avx512-vnni group 16 / C
// pixels in each 16-lane vector (KernelSpec::pixelGroup, the spec's 19th
// entry), at stride 1 along the width when the output width is a multiple
// of the group. The input is padded (and s8 input flipped) in a copy of C
// channels, not 16; the kernel views that plane [1, 6, 8, 8] as
// overlapping columns of 16 bytes, one every 8 (a reinterpret_cast with
// strides [384, 64, 8, 1]: column iw holds pixels iw and iw + 1), and
// computes output columns 2 pixels apart (sw = 2, ow = 6 / 2 = 3); the
// weights (three kernel rows packed per lane: 1 + 2^8 + 2^16 = 65793 for
// channel 0), `corr` (-125 * 9 * w, z = -3 + 128) and an epilogue's channel
// constants repeat the C channels across the 16 lanes. The result
// [1, 4, 3, 16] is [1, 4, 6, 8]: an expand and a collapse, no copy.
// RUN: qnn-opt %s --split-input-file --convert-qnn-to-linalg="target=avx512-vnni floor-affine=false" | FileCheck %s --check-prefix=CALL
// RUN: qnn-opt %s --split-input-file --convert-qnn-to-linalg="target=avx512-vnni floor-affine=false" --qnn-materialize-conv-kernels | FileCheck %s --check-prefix=KERNEL
// RUN: qnn-opt %s --split-input-file --convert-qnn-to-linalg=target=int16 --qnn-materialize-conv-kernels | FileCheck %s --check-prefix=INT16

// CALL-LABEL: func.func @dw8
// CALL: arith.constant dense<{{\[\[\[\[}}65793, 131586, 197379, 263172, 328965, 394758, 460551, 526344, 65793, 131586, 197379, 263172, 328965, 394758, 460551, 526344],
// CALL: linalg.fill ins(%{{.*}} : i8) outs(%{{.*}} : tensor<1x6x8x8xi8>)
// CALL: arith.constant dense<[-1125, -2250, -3375, -4500, -5625, -6750, -7875, -9000, -1125, -2250, -3375, -4500, -5625, -6750, -7875, -9000]> : tensor<16xi32>
// CALL: call @[[K:__qnn_kernel_dwvnni_1_6_7_16_4_3_3_3_1_2_1_1_16_0_0_0_1_2]](%{{.*}}, %{{.*}}, %{{.*}}, %[[OUT:.*]]) : (memref<1x6x8x8xi8>, memref<1x1x3x16xi32>, memref<16xi32>, memref<1x4x3x16xi32>) -> ()
// CALL: %[[T:.*]] = bufferization.to_tensor %[[OUT]]
// CALL: %[[E:.*]] = tensor.expand_shape %[[T]] {{\[\[}}0], [1], [2], [3, 4]] output_shape [1, 4, 3, 2, 8] : tensor<1x4x3x16xi32> into tensor<1x4x3x2x8xi32>
// CALL: %[[C:.*]] = tensor.collapse_shape %[[E]] {{\[\[}}0], [1], [2, 3], [4]] : tensor<1x4x3x2x8xi32> into tensor<1x4x6x8xi32>
// CALL: return %[[C]]
// CALL: func.func private @[[K]]
// CALL-SAME: qnn.conv_kernel = array<i64: 5, 1, 6, 7, 16, 4, 3, 3, 3, 1, 2, 1, 1, 16, 0, 0, 0, 1, 2>

// KERNEL-LABEL: func.func private @__qnn_kernel_dwvnni_1_6_7_16_4_3_3_3_1_2_1_1_16_0_0_0_1_2(
// KERNEL-SAME: %[[X:.*]]: memref<1x6x8x8xi8>
// KERNEL: %[[V:.*]] = memref.reinterpret_cast %[[X]] to offset: [0], sizes: [1, 6, 7, 16], strides: [384, 64, 8, 1] : memref<1x6x8x8xi8> to memref<1x6x7x16xi8, strided<[384, 64, 8, 1]>>
// KERNEL: vector.load %[[V]][{{.*}}] : memref<1x6x7x16xi8, strided<[384, 64, 8, 1]>>, vector<16xi8>
func.func @dw8(%x: tensor<1x4x6x8xi8>) -> tensor<1x4x6x8xi32> {
  %w = arith.constant dense<[[[[1, 2, 3, 4, 5, 6, 7, 8], [1, 2, 3, 4, 5, 6, 7, 8], [1, 2, 3, 4, 5, 6, 7, 8]], [[1, 2, 3, 4, 5, 6, 7, 8], [1, 2, 3, 4, 5, 6, 7, 8], [1, 2, 3, 4, 5, 6, 7, 8]], [[1, 2, 3, 4, 5, 6, 7, 8], [1, 2, 3, 4, 5, 6, 7, 8], [1, 2, 3, 4, 5, 6, 7, 8]]]]> : tensor<1x3x3x8xi8>
  %y = qnn.conv2d %x, %w {data_layout = #qnn.layout<NHWC>, dilations = array<i64: 1, 1>, groups = 8 : i64, input_scale = 5.000000e-01 : f32, input_zero_point = -3 : i32, kernel_layout = #qnn.kernel_layout<IHWO>, padding = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>, weight_scale = array<f32: 1.000000e-02>, weight_zero_point = 0 : i32} : (tensor<1x4x6x8xi8>, tensor<1x3x3x8xi8>) -> tensor<1x4x6x8xi32>
  return %y : tensor<1x4x6x8xi32>
}

// -----

// An npu.conv2d of 4 channels: four pixels per vector and the epilogue
// inside the kernel (its bias, multipliers and shifts repeated four times),
// which stores the 8-bit results of [1, 3, 2, 16] = [1, 3, 8, 4].
// CALL-LABEL: func.func @dw4_npu
// CALL-DAG: arith.constant dense<[2036, -2719, 2221, 1772, 2036, -2719, 2221, 1772, 2036, -2719, 2221, 1772, 2036, -2719, 2221, 1772]> : tensor<16xi32>
// CALL-DAG: arith.constant dense<[9, 10, 7, 9, 9, 10, 7, 9, 9, 10, 7, 9, 9, 10, 7, 9]> : tensor<16xi64>
// CALL: call @__qnn_kernel_dwvnni_1_5_7_16_3_2_3_3_1_4_1_1_16_0_0_0_1_4_epilogue0({{.*}}) : (memref<1x5x10x4xi8>, {{.*}}, memref<1x3x2x16xi8>) -> ()
// CALL: tensor.expand_shape {{.*}} output_shape [1, 3, 2, 4, 4] : tensor<1x3x2x16xi8> into tensor<1x3x2x4x4xi8>
// CALL: tensor.collapse_shape {{.*}} : tensor<1x3x2x4x4xi8> into tensor<1x3x8x4xi8>
// CALL-NOT: linalg.generic
// CALL: return
// KERNEL-LABEL: func.func private @__qnn_kernel_dwvnni_1_5_7_16_3_2_3_3_1_4_1_1_16_0_0_0_1_4_epilogue0(
// KERNEL: memref.reinterpret_cast %{{.*}} to offset: [0], sizes: [1, 5, 7, 16], strides: [200, 40, 4, 1] : memref<1x5x10x4xi8> to memref<1x5x7x16xi8, strided<[200, 40, 4, 1]>>
func.func @dw4_npu(%x: tensor<1x3x8x4xi8>) -> tensor<1x3x8x4xi8> {
  %w = arith.constant dense<"0x5717805482AA78D0AB356D69FF746C3C6AE23E2598BD72BFF4FF5268AB64EB3AA96A0912"> : tensor<4x3x3x1xi8>
  %b = arith.constant dense<"0xF407000061F5FFFFAD080000EC060000"> : tensor<4xi32>
  %y = npu.conv2d %x, %w, %b {input_scale = 2.595200e-02 : f32, input_zero_point = 50 : i32, weight_scale = array<f32: 3.342800e-03, 2.883800e-03, 1.932320e-02, 3.344600e-03>, weight_zero_point = 0 : i32, output_scale = 8.697500e-02 : f32, output_zero_point = 72 : i32, rounding = #qnn.rounding<tflite>, strides = array<i64: 1, 1>, padding = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, groups = 4 : i64, pad_value = 50 : i32, activation = #npu.activation<clip>, act_min = -108 : i32, act_max = 97 : i32} : (tensor<1x3x8x4xi8>, tensor<4x3x3x1xi8>, tensor<4xi32>) -> tensor<1x3x8x4xi8>
  return %y : tensor<1x3x8x4xi8>
}

// -----

// Not grouped: an output width of 7 (not a multiple of 2) keeps the kernel
// of 8 channels padded to 16 and the epilogue apart.
// CALL-LABEL: func.func @dw8_odd_width
// CALL: linalg.fill ins(%{{.*}} : i8) outs(%{{.*}} : tensor<1x6x9x16xi8>)
// CALL: call @__qnn_kernel_dwvnni_1_6_9_16_4_7_3_3_1_1_1_1_16_0_0_0_1(
// CALL: linalg.generic
func.func @dw8_odd_width(%x: tensor<1x4x7x8xi8>) -> tensor<1x4x7x8xi8> {
  %w = arith.constant dense<"0x7942BDF22106F0847762F0F3CB4D764DC7072051159A0F89F2C6DACAE344BB311245FD6F84DF9AD7C5B3D076AC0E8F53A7356C88913F20F6F72DB022D24D0A96DAD43C1617C1A98E"> : tensor<8x3x3x1xi8>
  %b = arith.constant dense<[1, 2, 3, 4, 5, 6, 7, 8]> : tensor<8xi32>
  %y = npu.conv2d %x, %w, %b {input_scale = 2.595200e-02 : f32, input_zero_point = 50 : i32, weight_scale = array<f32: 3.342800e-03>, weight_zero_point = 0 : i32, output_scale = 8.697500e-02 : f32, output_zero_point = 72 : i32, rounding = #qnn.rounding<tflite>, strides = array<i64: 1, 1>, padding = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, groups = 8 : i64, pad_value = 50 : i32, activation = #npu.activation<clip>, act_min = -108 : i32, act_max = 97 : i32} : (tensor<1x4x7x8xi8>, tensor<8x3x3x1xi8>, tensor<8xi32>) -> tensor<1x4x7x8xi8>
  return %y : tensor<1x4x7x8xi8>
}

// -----

// Nor with 6 channels (16 is not a multiple of 6): padded to 16, the
// epilogue apart; the int16 target (8-lane kernels) never groups pixels.
// CALL-LABEL: func.func @dw6
// CALL: call @__qnn_kernel_dwvnni_1_6_10_16_4_8_3_3_1_1_1_1_16_0_0_0_1(
// CALL: linalg.generic
// INT16-LABEL: func.func @dw6
// INT16-NOT: reinterpret_cast
// INT16: call @__qnn_kernel_dwavx2_
func.func @dw6(%x: tensor<1x4x8x6xi8>) -> tensor<1x4x8x6xi8> {
  %w = arith.constant dense<"0xE7EEE7615EF35F30E49B482E15CAE75007201E12617B0FEDA7E1647796FF022BEA8ED02A82A175930F2337CD3794C52208006D6B1AF0"> : tensor<6x3x3x1xi8>
  %b = arith.constant dense<0> : tensor<6xi32>
  %y = npu.conv2d %x, %w, %b {input_scale = 2.595200e-02 : f32, input_zero_point = 50 : i32, weight_scale = array<f32: 3.342800e-03>, weight_zero_point = 0 : i32, output_scale = 8.697500e-02 : f32, output_zero_point = 72 : i32, rounding = #qnn.rounding<tflite>, strides = array<i64: 1, 1>, padding = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, groups = 6 : i64, pad_value = 50 : i32, activation = #npu.activation<clip>, act_min = -108 : i32, act_max = 97 : i32} : (tensor<1x4x8x6xi8>, tensor<6x3x3x1xi8>, tensor<6xi32>) -> tensor<1x4x8x6xi8>
  return %y : tensor<1x4x8x6xi8>
}

// -----

// Nor with dilation 2 along the width (a tap two pixels on).
// CALL-LABEL: func.func @dw8_dilated
// CALL: call @__qnn_kernel_dwvnni_1_6_10_16_4_6_3_3_1_1_1_2_16_0_0_0_1(
// CALL: linalg.generic
func.func @dw8_dilated(%x: tensor<1x4x8x8xi8>) -> tensor<1x4x6x8xi8> {
  %w = arith.constant dense<"0xC0CBD625658AAC2C9FAA07D13C447E33051EEEF95A60E56143D6C43BCAD76C008A9B0A6B5FC933154A6DE28404A897C525262E6A7C07BCBEE841F745C55D4E9F747F615164C6F728"> : tensor<8x3x3x1xi8>
  %b = arith.constant dense<0> : tensor<8xi32>
  %y = npu.conv2d %x, %w, %b {input_scale = 2.595200e-02 : f32, input_zero_point = 50 : i32, weight_scale = array<f32: 3.342800e-03>, weight_zero_point = 0 : i32, output_scale = 8.697500e-02 : f32, output_zero_point = 72 : i32, rounding = #qnn.rounding<tflite>, strides = array<i64: 1, 1>, padding = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 2>, groups = 8 : i64, pad_value = 50 : i32, activation = #npu.activation<clip>, act_min = -108 : i32, act_max = 97 : i32} : (tensor<1x4x8x8xi8>, tensor<8x3x3x1xi8>, tensor<8xi32>) -> tensor<1x4x6x8xi8>
  return %y : tensor<1x4x6x8xi8>
}
