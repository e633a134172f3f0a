// Depthwise convolutions with fused requantize epilogues on the int16
// target (AVX2): the DepthwiseAVX2 kernel (flavor 6, "dwavx2"), the row-tile
// kernel of DepthwiseVNNI built for AVX2 (4-pixel tiles of 8 channels, one
// ymm register per pixel, multiplies of
// extended lanes, padding by itself when the channels are a multiple of
// 16 and the input holds depthwise-self-padding-min-bytes, 256 KiB by
// default: @dw_large, test/Execution/depthwise-avx2-borders.test): "+avx2" target
// features, and rounded
// products whose right shifts r are all >= 1 blend the high halves of the
// even and odd 64-bit sums and shift them as i32 lanes (AVX2 has no 64-bit
// arithmetic shift; ConvKernelEpilogue.cpp, shiftedHighHalves for single
// rounding, doubleRoundedHighHalves for double). A layer
// with a shift of 0 (@dw_shift0) keeps the 64-bit shifts. The
// int16-avx512bw target keeps the Depthwise kernel (flavor 4), which
// shifts 64-bit lanes. Execution: test/Execution/depthwise-avx2.test.
// RUN: qnn-opt %s --split-input-file --convert-qnn-to-linalg=target=int16 | FileCheck %s --check-prefix=CALL
// RUN: qnn-opt %s --split-input-file --convert-qnn-to-linalg="target=int16 depthwise-self-padding-min-bytes=0" | FileCheck %s --check-prefix=SELF
// RUN: qnn-opt %s --split-input-file --convert-qnn-to-linalg="target=int16 depthwise-self-padding-min-bytes=401409" | FileCheck %s --check-prefix=BIG
// RUN: qnn-opt %s --split-input-file --convert-qnn-to-linalg=target=int16 --qnn-materialize-conv-kernels="parallel=true" | FileCheck %s --check-prefix=PAR
// RUN: qnn-opt %s --split-input-file --convert-qnn-to-linalg="target=int16 depthwise-self-padding-min-bytes=0" --qnn-materialize-conv-kernels | FileCheck %s --check-prefix=ROWS
// RUN: qnn-opt %s --split-input-file --qnn-lower-to-llvm=target=int16 | FileCheck %s
// RUN: qnn-opt %s --split-input-file --convert-qnn-to-linalg=target=int16-avx512bw | FileCheck %s --check-prefix=AVX512

// CALL-LABEL: func.func @dw_double
// CALL: call @[[K:__qnn_kernel_dwavx2_[0-9_m]*]](
// CALL: func.func private @[[K]](
// CALL-SAME: qnn.conv_kernel = array<i64: 6,
// AVX512-LABEL: func.func @dw_double
// AVX512: call @__qnn_kernel_dw_{{[0-9_m]*}}(
// Double rounding, per-channel shifts 4 to 11, multipliers >= 0, no bias:
// the compare-free form (ConvKernelEpilogue.cpp, doubleRoundedHighHalves): the
// products of 2a (the odd lanes copied down by a shuffle), the rounding
// terms added, the even sums' high halves moved down by a shuffle (behind
// an empty inline-asm copy) and blended with the odd sums, the
// accumulator's sign added, one i32 shift by r per lane. No compare, no
// 64-bit shift.
// CHECK-LABEL: llvm.func @dw_double
// CHECK-LABEL: llvm.func @__qnn_kernel_dwavx2_
// CHECK-SAME: target_features = #llvm.target_features<["+avx2"]>
// CHECK-NOT: llvm.icmp "slt" %{{.*}} : vector<4xi64>
// CHECK: %[[TWICE:.*]] = llvm.add %[[A:.*]], %[[A]] : vector<8xi32>
// CHECK-NEXT: llvm.shufflevector %[[TWICE]], %[[TWICE]] [1, 1, 3, 3, 5, 5, 7, 7] : vector<8xi32>
// CHECK: %[[PE:.*]] = llvm.inline_asm "vpmuldq $2, $1, $0", "=x,x,x" %{{.*}}, %{{.*}} : (vector<4xi64>, vector<4xi64>) -> vector<4xi64>
// CHECK-NEXT: %[[PO:.*]] = llvm.inline_asm "vpmuldq $2, $1, $0", "=x,x,x" %{{.*}}, %{{.*}} : (vector<4xi64>, vector<4xi64>) -> vector<4xi64>
// CHECK-NEXT: %[[SE:.*]] = llvm.add %[[PE]], %{{.*}} : vector<4xi64>
// CHECK-NEXT: %[[SO:.*]] = llvm.add %[[PO]], %{{.*}} : vector<4xi64>
// CHECK-NEXT: %[[SE32:.*]] = llvm.bitcast %[[SE]] : vector<4xi64> to vector<8xi32>
// CHECK-NEXT: %[[HE:.*]] = llvm.shufflevector %[[SE32]], %[[SE32]] [1, 1, 3, 3, 5, 5, 7, 7] : vector<8xi32>
// CHECK-NEXT: %[[E:.*]] = llvm.inline_asm "", "=v,0" %[[HE]]
// CHECK-NEXT: %[[O:.*]] = llvm.bitcast %[[SO]] : vector<4xi64> to vector<8xi32>
// CHECK-NEXT: %[[B:.*]] = llvm.select %{{.*}}, %[[E]], %[[O]] : vector<8xi1>, vector<8xi32>
// CHECK-NEXT: %[[S:.*]] = llvm.ashr %[[A]], %{{.*}} : vector<8xi32>
// CHECK-NEXT: %[[T:.*]] = llvm.add %[[B]], %[[S]] : vector<8xi32>
// CHECK-NEXT: llvm.ashr %[[T]], %{{.*}} : vector<8xi32>
// CHECK: llvm.return

func.func @dw_double(%x: tensor<1x9x9x32xi8>) -> tensor<1x9x9x32xi8> {
  %w = arith.constant dense<[[[[32, -62, 62, -36, 76, 49, 114, 88, 62, 39, 109, 8, -120, 88, -8, 71, 114, -64, 39, -114, 103, -87, -99, -32, -7, 95, -64, -30, 12, -101, 19, -64], [-124, 60, -72, -23, -56, -81, 107, 95, 69, -28, -87, 68, 77, -109, -92, 31, 31, -14, -95, -94, -127, 121, 96, -126, -74, 71, -72, 118, 124, -85, 96, -85], [-53, -47, 119, -77, 11, 97, 46, 33, -75, -81, 113, 120, 49, -77, 120, 120, 101, -29, -51, -122, -35, -21, -85, 112, -90, -60, -111, -43, -50, 82, 27, 23]], [[-127, 25, 46, 54, -41, -111, -48, -37, 82, -49, -4, 51, -47, -80, -4, -7, 53, -82, -113, -62, 122, 113, -122, 116, 64, -36, 89, -24, -123, 13, 74, -20], [-34, -31, 21, 88, -125, -12, -116, 54, -81, 32, 117, 117, -77, -97, 66, -65, 110, 82, 114, -9, -39, 4, -37, 101, 7, -63, 71, -9, -100, 23, 64, 72], [77, -33, 93, -52, -118, -17, 115, 123, -104, -74, -40, 4, 29, -35, 108, -90, -40, -57, 109, 52, 12, -104, -48, 48, -46, -49, -82, 77, -107, 33, -89, 57]], [[49, -48, -4, -86, 57, -115, -107, 125, 26, 9, 109, -24, -119, -67, 62, 25, -39, 84, -63, -11, 39, -20, -90, -113, 123, 107, 36, -119, 78, -1, -42, 87], [-74, -94, 124, 60, 17, 116, -94, 34, 102, 74, -22, -100, -84, -16, -32, -89, -112, 89, -20, -52, -91, -11, 109, 31, 91, -84, 122, 6, -11, 118, -3, 49], [59, -46, -5, -57, -53, -7, -24, 103, -90, -99, -31, 83, 126, 9, 118, -82, 33, 112, 0, 95, -41, -81, -105, -2, -58, 4, 73, 13, 95, 1, -35, -111]]]]> : tensor<1x3x3x32xi8>
  %c = qnn.conv2d %x, %w {data_layout = #qnn.layout<NHWC>, dilations = array<i64: 1, 1>, groups = 32 : i64, input_scale = 5.000000e-01 : f32, input_zero_point = -3 : i32, kernel_layout = #qnn.kernel_layout<IHWO>, padding = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>, weight_scale = array<f32: 0.0100, 0.0110, 0.0120, 0.0130, 0.0140, 0.0150, 0.0160, 0.0170, 0.0180, 0.0190, 0.0200, 0.0210, 0.0220, 0.0230, 0.0240, 0.0250, 0.0100, 0.0110, 0.0120, 0.0130, 0.0140, 0.0150, 0.0160, 0.0170, 0.0180, 0.0190, 0.0200, 0.0210, 0.0220, 0.0230, 0.0240, 0.0250>, weight_zero_point = 0 : i32} : (tensor<1x9x9x32xi8>, tensor<1x3x3x32xi8>) -> tensor<1x9x9x32xi32>
  %y = qnn.requantize %c {axis = 3 : i64, input_scale = array<f64: 0.009, 0.0072, 0.005760000000000001, 0.004608000000000001, 0.003686400000000001, 0.002949120000000001, 0.0023592960000000007, 0.0018874368000000006, 0.0015099494400000009, 0.0012079595520000006, 0.0009663676416000005, 0.0007730941132800005, 0.0006184752906240004, 0.0004947802324992003, 0.0003958241859993603, 0.00031665934879948827, 0.0002533274790395906, 0.00020266198323167252, 0.00016212958658533803, 0.00012970366926827044, 0.00010376293541461634, 8.301034833169309e-05, 6.640827866535447e-05, 5.3126622932283575e-05, 4.250129834582687e-05, 3.400103867666149e-05, 2.7200830941329196e-05, 2.1760664753063357e-05, 1.7408531802450685e-05, 1.3926825441960552e-05, 1.1141460353568441e-05, 8.913168282854752e-06>, input_zero_point = 0 : i32, output_scale = 0.2 : f32, output_zero_point = -5 : i32} : tensor<1x9x9x32xi32> -> tensor<1x9x9x32xi8>
  return %y : tensor<1x9x9x32xi8>
}

// -----

// Single rounding, stride 2: the same blend after the rounded sums.
// CALL-LABEL: func.func @dw_single_s2
// CALL: call @__qnn_kernel_dwavx2_
// CHECK-LABEL: llvm.func @__qnn_kernel_dwavx2_
// CHECK: %[[PE:.*]] = llvm.inline_asm "vpmuldq $2, $1, $0", "=x,x,x" %{{.*}}, %{{.*}} : (vector<4xi64>, vector<4xi64>) -> vector<4xi64>
// CHECK-NEXT: %[[PO:.*]] = llvm.inline_asm "vpmuldq $2, $1, $0", "=x,x,x" %{{.*}}, %{{.*}} : (vector<4xi64>, vector<4xi64>) -> vector<4xi64>
// CHECK-NEXT: %[[SE:.*]] = llvm.add %[[PE]], %{{.*}} : vector<4xi64>
// CHECK-NEXT: %[[SO:.*]] = llvm.add %[[PO]], %{{.*}} : vector<4xi64>
// CHECK-NEXT: %[[HE:.*]] = llvm.lshr %[[SE]], %{{.*}} : vector<4xi64>
// CHECK-NEXT: %[[E:.*]] = llvm.bitcast %[[HE]] : vector<4xi64> to vector<8xi32>
// CHECK-NEXT: %[[O:.*]] = llvm.bitcast %[[SO]] : vector<4xi64> to vector<8xi32>
// CHECK-NEXT: %[[B:.*]] = llvm.select %{{.*}}, %[[E]], %[[O]] : vector<8xi1>, vector<8xi32>
// CHECK-NEXT: llvm.ashr %[[B]], %{{.*}} : vector<8xi32>
// CHECK: llvm.return

func.func @dw_single_s2(%x: tensor<1x9x9x32xi8>) -> tensor<1x4x4x32xi8> {
  %w = arith.constant dense<[[[[74, 76, 71, -36, 50, 23, 42, -119, 67, -49, -34, 16, 53, 44, -56, 86, -3, -60, 70, 124, 49, 56, -52, 117, 115, -40, 39, -82, 21, 91, -125, -6], [13, 71, -63, -44, 44, -57, -9, -54, 82, 1, 38, 45, 77, -36, -38, -57, 37, -39, 61, 113, 85, -23, -38, 109, 88, -83, 95, 94, 49, -12, 122, -34], [117, -42, 5, -91, 8, 123, -85, -77, 87, -35, 112, 91, -5, -55, 50, -107, 57, 44, 59, -21, -84, 30, 72, 112, 21, 5, 43, 112, -20, -50, 32, 14]], [[71, 94, 36, -58, 57, 127, -120, -77, -87, 23, -15, 32, 39, -81, -71, 67, 48, -81, 34, 56, -117, 125, -7, 123, -70, -85, -114, 101, -93, -99, -46, 120], [-81, -4, -78, 13, -118, -21, -8, -38, -30, 42, 29, -109, 24, -75, -67, 56, 104, -32, -127, -38, -24, 116, -56, 92, -23, 94, -98, 49, 85, 13, -32, 119], [-118, 13, 30, -50, -103, -52, 12, 4, -41, 116, 21, -52, 118, -37, 82, -94, -20, -23, 81, 17, 37, 10, -33, -8, -91, -87, 25, -30, 17, -5, 118, -77]], [[120, -93, 28, -104, -38, 83, 101, 42, -127, -30, -100, -44, 17, 107, 30, 11, -91, -44, 34, 97, 101, 17, -31, -18, -17, 123, -70, -1, -53, -5, 121, 54], [-30, -29, 119, 91, 106, -87, 25, 25, -61, 62, 124, -50, 0, -63, -21, -122, -46, 114, 124, -49, -2, 110, -54, -91, -5, -121, -96, 41, 32, 118, -14, -65], [-52, -117, 73, -93, 84, -27, -124, -5, 9, 16, -57, -65, 112, -6, 73, -118, -65, -2, -59, 89, -88, 57, 126, -54, -52, -1, 28, 127, -6, 5, 38, 94]]]]> : tensor<1x3x3x32xi8>
  %c = qnn.conv2d %x, %w {data_layout = #qnn.layout<NHWC>, dilations = array<i64: 1, 1>, groups = 32 : i64, input_scale = 5.000000e-01 : f32, input_zero_point = -3 : i32, kernel_layout = #qnn.kernel_layout<IHWO>, padding = array<i64: 0, 0, 1, 1>, strides = array<i64: 2, 2>, weight_scale = array<f32: 0.0100, 0.0110, 0.0120, 0.0130, 0.0140, 0.0150, 0.0160, 0.0170, 0.0180, 0.0190, 0.0200, 0.0210, 0.0220, 0.0230, 0.0240, 0.0250, 0.0100, 0.0110, 0.0120, 0.0130, 0.0140, 0.0150, 0.0160, 0.0170, 0.0180, 0.0190, 0.0200, 0.0210, 0.0220, 0.0230, 0.0240, 0.0250>, weight_zero_point = 0 : i32} : (tensor<1x9x9x32xi8>, tensor<1x3x3x32xi8>) -> tensor<1x4x4x32xi32>
  %y = qnn.requantize %c {axis = 3 : i64, input_scale = array<f64: 0.009, 0.0072, 0.005760000000000001, 0.004608000000000001, 0.003686400000000001, 0.002949120000000001, 0.0023592960000000007, 0.0018874368000000006, 0.0015099494400000009, 0.0012079595520000006, 0.0009663676416000005, 0.0007730941132800005, 0.0006184752906240004, 0.0004947802324992003, 0.0003958241859993603, 0.00031665934879948827, 0.0002533274790395906, 0.00020266198323167252, 0.00016212958658533803, 0.00012970366926827044, 0.00010376293541461634, 8.301034833169309e-05, 6.640827866535447e-05, 5.3126622932283575e-05, 4.250129834582687e-05, 3.400103867666149e-05, 2.7200830941329196e-05, 2.1760664753063357e-05, 1.7408531802450685e-05, 1.3926825441960552e-05, 1.1141460353568441e-05, 8.913168282854752e-06>, input_zero_point = 0 : i32, output_scale = 0.2 : f32, output_zero_point = -5 : i32, rounding = #qnn.rounding<tflite_single>} : tensor<1x4x4x32xi32> -> tensor<1x4x4x32xi8>
  return %y : tensor<1x4x4x32xi8>
}

// -----

// Shifts 0 to 2: the shift-0 channel needs bit 31 of the sums, so the
// even lanes shift right by 31 + r and the odd ones by r (then left by 1)
// as 64-bit lanes, as in the Depthwise kernel.
// CALL-LABEL: func.func @dw_shift0
// CALL: call @__qnn_kernel_dwavx2_
// CHECK-LABEL: llvm.func @__qnn_kernel_dwavx2_
// CHECK: %[[PE:.*]] = llvm.inline_asm "vpmuldq $2, $1, $0", "=x,x,x" %{{.*}}, %{{.*}} : (vector<4xi64>, vector<4xi64>) -> vector<4xi64>
// CHECK: %[[SE:.*]] = llvm.sub
// CHECK-NEXT: llvm.ashr %[[SE]], %{{.*}} : vector<4xi64>
// CHECK: %[[SO:.*]] = llvm.sub
// CHECK-NEXT: %[[SH:.*]] = llvm.ashr %[[SO]], %{{.*}} : vector<4xi64>
// CHECK-NEXT: llvm.shl %[[SH]], %{{.*}} : vector<4xi64>
// CHECK-NOT: llvm.ashr {{.*}} : vector<8xi32>
// CHECK: llvm.return

func.func @dw_shift0(%x: tensor<1x9x9x16xi8>) -> tensor<1x9x9x16xi8> {
  %w = arith.constant dense<[[[[27, 98, 63, 102, -97, -123, 67, -95, -51, -55, 9, 54, -41, 30, -52, 60], [8, -121, -9, -38, -35, 47, 63, 81, 24, -94, -118, -127, -63, 14, -11, 48], [107, -100, 100, 48, 12, -79, -124, -18, 72, 79, -18, 25, 20, 49, 54, 117]], [[34, 39, -4, 92, 106, 88, -29, -6, -27, 47, 91, 57, -77, 103, -52, -8], [85, 67, -111, -50, 87, -127, 50, 72, -17, 22, -54, 38, 72, -7, 106, -48], [-91, -85, -5, 50, 13, 100, 0, 122, -43, 10, -88, -19, 22, 11, 80, -115]], [[-110, 60, -69, -59, 82, -106, 75, -111, 42, 114, -121, -42, 57, -18, 123, -110], [-24, 52, -3, -115, -96, 88, -96, -71, 30, 38, 84, 116, -99, 55, 102, -93], [127, -53, 53, 108, -15, -89, -81, 29, -80, -22, 78, -86, -110, 32, -73, -116]]]]> : tensor<1x3x3x16xi8>
  %c = qnn.conv2d %x, %w {data_layout = #qnn.layout<NHWC>, dilations = array<i64: 1, 1>, groups = 16 : i64, input_scale = 5.000000e-01 : f32, input_zero_point = -3 : i32, kernel_layout = #qnn.kernel_layout<IHWO>, padding = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>, weight_scale = array<f32: 0.0100, 0.0110, 0.0120, 0.0130, 0.0140, 0.0150, 0.0160, 0.0170, 0.0180, 0.0190, 0.0200, 0.0210, 0.0220, 0.0230, 0.0240, 0.0250>, weight_zero_point = 0 : i32} : (tensor<1x9x9x16xi8>, tensor<1x3x3x16xi8>) -> tensor<1x9x9x16xi32>
  %y = qnn.requantize %c {axis = 3 : i64, input_scale = array<f64: 0.18000000000000002, 0.15300000000000002, 0.13005, 0.11054249999999999, 0.09396112499999998, 0.07986695625, 0.06788691281249999, 0.05770387589062499, 0.04904829450703124, 0.04169105033097656, 0.03543739278133007, 0.030121783864130558, 0.025603516284510977, 0.02176298884183433, 0.01849854051555918, 0.015723759438225304>, input_zero_point = 0 : i32, output_scale = 0.2 : f32, output_zero_point = -5 : i32} : tensor<1x9x9x16xi32> -> tensor<1x9x9x16xi8>
  return %y : tensor<1x9x9x16xi8>
}

// -----

// Layers that differ only in the input zero point call one kernel: each
// passes its own correction constant, -izp * sum(w - wzp) per channel
// (here 9 taps of w = 2: -18 * izp), and its padding holds its zero point
// (the inputs, 256 bytes, are under depthwise-self-padding-min-bytes).
// CALL-LABEL: func.func @dw_zero_points
// CALL: linalg.fill ins(%c5_i8 : i8)
// CALL: arith.constant dense<-90> : tensor<16xi32>
// CALL: call @[[K:__qnn_kernel_dwavx2_[0-9_m]*]](%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}})
// CALL: linalg.fill ins(%c-7_i8 : i8)
// CALL: arith.constant dense<126> : tensor<16xi32>
// CALL: call @[[K]](%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}})
// Padding by itself (threshold 0): no fill; after the correction, 16 lanes
// of the zero point, which the kernel reads outside the input; the
// unpadded 4x4 input and the padding 1, 1 in its name; still one kernel.
// SELF-LABEL: func.func @dw_zero_points
// SELF-NOT: linalg.fill
// SELF: arith.constant dense<[-90, {{.*}}, -90, 5, {{.*}}, 5]> : tensor<32xi32>
// SELF: call @[[K:__qnn_kernel_dwavx2_[0-9_m]*_4_4_1_1]](%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (memref<1x4x4x16xi8>,
// SELF-NOT: linalg.fill
// SELF: arith.constant dense<[126, {{.*}}, 126, -7, {{.*}}, -7]> : tensor<32xi32>
// SELF: call @[[K]](%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}})
// CALL-NOT: func.func private @__qnn_kernel_dwavx2_
// CALL: func.func private @[[K]](
// CALL-NOT: func.func private @__qnn_kernel_dwavx2_
func.func @dw_zero_points(%x: tensor<1x4x4x16xi8>, %y: tensor<1x4x4x16xi8>) -> (tensor<1x4x4x16xi32>, tensor<1x4x4x16xi32>) {
  %w = arith.constant dense<2> : tensor<1x3x3x16xi8>
  %a = qnn.conv2d %x, %w {data_layout = #qnn.layout<NHWC>, dilations = array<i64: 1, 1>, groups = 16 : i64, input_scale = 5.000000e-01 : f32, input_zero_point = 5 : i32, kernel_layout = #qnn.kernel_layout<IHWO>, padding = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>, weight_scale = array<f32: 0.01>, weight_zero_point = 0 : i32} : (tensor<1x4x4x16xi8>, tensor<1x3x3x16xi8>) -> tensor<1x4x4x16xi32>
  %b = qnn.conv2d %y, %w {data_layout = #qnn.layout<NHWC>, dilations = array<i64: 1, 1>, groups = 16 : i64, input_scale = 5.000000e-01 : f32, input_zero_point = -7 : i32, kernel_layout = #qnn.kernel_layout<IHWO>, padding = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>, weight_scale = array<f32: 0.01>, weight_zero_point = 0 : i32} : (tensor<1x4x4x16xi8>, tensor<1x3x3x16xi8>) -> tensor<1x4x4x16xi32>
  return %a, %b : tensor<1x4x4x16xi32>, tensor<1x4x4x16xi32>
}

// -----

// A 112x112x32 input (401408 bytes, over the default 256 KiB) is read
// unpadded by default; the same layer with a threshold above its size
// reads a padded copy.
// CALL-LABEL: func.func @dw_large
// CALL-NOT: linalg.fill
// CALL: call @__qnn_kernel_dwavx2_1_114_114_32_112_112_3_3_1_1_1_1_32_1_0_0_1_112_112_1_1(
// BIG-LABEL: func.func @dw_large
// BIG: linalg.fill ins(%c3_i8 : i8) outs(%{{.*}} : tensor<1x114x114x32xi8>)
// BIG: call @__qnn_kernel_dwavx2_1_114_114_32_112_112_3_3_1_1_1_1_32_1_0_0_1(
// With threads, one parallel loop over the 112 output rows; rows 0 and
// 111 (outside [1, 111)) take the tiles that clamp the input row.
// PAR-LABEL: func.func private @__qnn_kernel_dwavx2_1_114_114_32_112_112_3_3_1_1_1_1_32_1_0_0_1_112_112_1_1(
// PAR: scf.parallel (%[[OH:.*]]) = (%{{.*}}) to (%c112{{(_[0-9]+)?}})
// PAR: %[[A:.*]] = arith.cmpi ult, %[[OH]], %c1{{(_[0-9]+)?}} : index
// PAR: %[[B:.*]] = arith.cmpi uge, %[[OH]], %c111{{(_[0-9]+)?}} : index
// PAR: %[[BORDER:.*]] = arith.ori %[[A]], %[[B]] : i1
// PAR: scf.if %[[BORDER]]
// PAR: arith.maxsi
// PAR: arith.minsi
// PAR: } else {
func.func @dw_large(%x: tensor<1x112x112x32xi8>) -> tensor<1x112x112x32xi32> {
  %w = arith.constant dense<2> : tensor<1x3x3x32xi8>
  %acc = qnn.conv2d %x, %w {data_layout = #qnn.layout<NHWC>, dilations = array<i64: 1, 1>, groups = 32 : i64, input_scale = 0.5 : f32, input_zero_point = 3 : i32, kernel_layout = #qnn.kernel_layout<IHWO>, padding = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>, weight_scale = array<f32: 0.25>, weight_zero_point = 0 : i32} : (tensor<1x112x112x32xi8>, tensor<1x3x3x32xi8>) -> tensor<1x112x112x32xi32>
  return %acc : tensor<1x112x112x32xi32>
}

// -----

// The tiles of a self-padding kernel (10x10x16, 3x3, padding 1, tiles of
// 4 pixels). The border rows (0 and 9) are one loop of checked tiles:
// each column is clamped into the input and selected against the zero
// point's lanes, and the last of the 3 tiles starts at column 6
// (arith.minui), recomputing columns 6 and 7 rather than taking a tile
// body of its own. The interior rows (1 to 8) are one loop of 3 tiles as
// well: an scf.index_switch on the tile accumulates tile 0 at its
// constant position (whose column -1 is the zero point's lanes, known
// here), tile 2 at column 6 (its column 10 known the same way), and the
// interior tile 1 without checks; one epilogue and four stores follow for
// all three.
// ROWS-LABEL: func.func private @__qnn_kernel_dwavx2_1_12_12_16_10_10_3_3_1_1_1_1_16_1_0_0_1_10_10_1_1(
// ROWS: scf.for %{{.*}} = %c0 to %c2 step %c1 {
// ROWS: scf.for %[[T:.*]] = %c0 to %c3 step %c1 {
// ROWS: %[[OW:.*]] = arith.muli %[[T]], %c4 : index
// ROWS: %[[OW0:.*]] = arith.minui %[[OW]], %c6 : index
// ROWS: arith.maxsi %[[OW0]], %c0 : index
// ROWS: arith.select %{{.*}} : vector<8xi32>
// ROWS: vector.store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}, %[[OW0]], %{{.*}}, %{{.*}}]
// ROWS-COUNT-3: vector.store
// ROWS-NOT: vector.store
// ROWS: scf.for %{{.*}} = %c0 to %c8 step %c1 {
// ROWS: scf.for %[[T2:.*]] = %c0 to %c3 step %c1 {
// ROWS: %[[OW2:.*]] = arith.muli %[[T2]], %c4 : index
// ROWS: %[[OWI:.*]] = arith.minui %[[OW2]], %c6 : index
// ROWS: scf.index_switch %[[T2]] -> vector<8xi32>, vector<8xi32>, vector<8xi32>, vector<8xi32>
// ROWS-NEXT: case 0 {
// ROWS-NOT: arith.select
// ROWS-NOT: vector.store
// ROWS: case 2 {
// ROWS-NOT: arith.select
// ROWS-NOT: vector.store
// ROWS: default {
// ROWS-NOT: arith.select
// ROWS-NOT: vector.store
// ROWS: vector.store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}, %[[OWI]], %{{.*}}, %{{.*}}]
// ROWS-COUNT-3: vector.store
// ROWS-NOT: vector.store
// ROWS: return
func.func @dw_row_tiles(%x: tensor<1x10x10x16xi8>) -> tensor<1x10x10x16xi32> {
  %w = arith.constant dense<2> : tensor<1x3x3x16xi8>
  %acc = qnn.conv2d %x, %w {data_layout = #qnn.layout<NHWC>, dilations = array<i64: 1, 1>, groups = 16 : i64, input_scale = 0.5 : f32, input_zero_point = 3 : i32, kernel_layout = #qnn.kernel_layout<IHWO>, padding = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>, weight_scale = array<f32: 0.25>, weight_zero_point = 0 : i32} : (tensor<1x10x10x16xi8>, tensor<1x3x3x16xi8>) -> tensor<1x10x10x16xi32>
  return %acc : tensor<1x10x10x16xi32>
}
