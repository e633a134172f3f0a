// qnn-compile --depthwise-self-padding-min-bytes (hidden, as in qnn-run):
// the int16 and generic targets' depthwise kernels read the unpadded input
// (kernel names end with the input's size and the top/left padding:
// _8_8_1_1) from inputs of that many bytes; this 1 KiB input is below the
// default 256 KiB, so by default the kernel reads a padded 10x10 copy.
// RUN: qnn-compile %s --target int16 --cpu x86-64-v3 --threads 1 -o %t.default.o
// RUN: llvm-nm %t.default.o | FileCheck %s --check-prefix=COPY
// COPY: __qnn_kernel_dwavx2_1_10_10_16_8_8_3_3_1_1_1_1_16_1_0_0_1_epilogue0{{$}}
// RUN: qnn-compile %s --target int16 --cpu x86-64-v3 --threads 1 --depthwise-self-padding-min-bytes=0 -o %t.self.o
// RUN: llvm-nm %t.self.o | FileCheck %s --check-prefix=SELF
// SELF: __qnn_kernel_dwavx2_1_10_10_16_8_8_3_3_1_1_1_1_16_1_0_0_1_8_8_1_1_epilogue0{{$}}
func.func @main(%x: tensor<1x8x8x16xi8>) -> tensor<1x8x8x16xi8> {
  %w = arith.constant dense<2> : tensor<16x3x3x1xi8>
  %b = arith.constant dense<7> : tensor<16xi32>
  %y = npu.conv2d %x, %w, %b {act_max = 127 : i32, act_min = -128 : i32, activation = #npu.activation<none>, dilations = array<i64: 1, 1>, groups = 16 : i64, input_scale = 0.5 : f32, input_zero_point = 3 : i32, output_scale = 0.25 : f32, output_zero_point = -2 : i32, pad_value = 3 : i32, padding = array<i64: 1, 1, 1, 1>, rounding = #qnn.rounding<tflite_single>, strides = array<i64: 1, 1>, weight_scale = array<f32: 0.01>, weight_zero_point = 0 : i32} : (tensor<1x8x8x16xi8>, tensor<16x3x3x1xi8>, tensor<16xi32>) -> tensor<1x8x8x16xi8>
  return %y : tensor<1x8x8x16xi8>
}
