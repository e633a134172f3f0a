// VNNI GEMM kernels whose weights have a zero point: the packed weights are
// w - 128 (u8) or w (i8), and the window coefficient d = 128 - wzp or -wzp
// (entry 16 of the kernel spec and of its name) multiplies each output
// pixel's sum of the activation bytes in its window. The kernel computes
// that once per pixel and tile: each kernel row's bytes (kw taps of cp
// channels; one run per tap when dilated) are loaded from the input seen
// as [n, hp, wp * cp] in chunks of up to 64 bytes (an xmm, ymm or zmm
// load; masked, filled with zeros, when the chunk is shorter than the
// vector), one vpdpbusd of the chunk against d in every byte adds d times
// their sum to lanes of zeros, a butterfly of shuffles and adds leaves the
// total in every lane, and the pixel's initial accumulators add it (or
// subtract it: d = 128 is -128 in the bytes). A flattened pointwise
// kernel (cp a power of two up to 64) sums 64 / cp consecutive pixels per
// load instead, and consecutive pixels of one output row whose kernel rows
// fit one 64-byte load share column sums (windowSumsByColumns). No vpdpbusd against a vector
// of ones remains in the K loop. Execution: gemm-window-sums.test
// (emulated) and gemm-window-sums-native.test.
// RUN: qnn-opt %s --split-input-file --convert-qnn-to-linalg=target=avx512-vnni --qnn-materialize-conv-kernels | FileCheck %s
// RUN: qnn-opt %s --split-input-file --qnn-lower-to-llvm="target=avx512-vnni emulate-vnni=true" | FileCheck %s --check-prefix=EMUL

// Pointwise, u8 weights, wzp 100: d = 28. A flattened pointwise kernel's
// pixels are consecutive, their bytes contiguous: two pixels' 32 bytes per
// zmm load and vpdpbusd, a butterfly within each pixel's 8 lanes, then
// each pixel's lane (0 or 8) broadcast: a tile of 8 pixels, four loads;
// the ninth pixel's 32 bytes a masked load.
// CHECK-LABEL: func.func private @__qnn_kernel_vnni_1_3_3_32_3_3_1_1_1_1_1_1_16_0_0_28_1(
// CHECK-DAG: %[[Z:.*]] = arith.constant dense<0> : vector<16xi32>
// CHECK-DAG: %[[D:.*]] = arith.constant dense<28> : vector<64xi8>
// CHECK-DAG: %[[HALF:.*]] = arith.constant dense<[true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false]> : vector<64xi1>
// CHECK: %[[X:.*]] = memref.expand_shape {{.*}} into memref<1x1x9x32xi8>
// CHECK: %[[ROWS:.*]] = memref.collapse_shape %[[X]] {{\[\[}}0], [1], [2, 3]] : memref<1x1x9x32xi8> into memref<1x1x288xi8>
// CHECK: %[[CORR:.*]] = vector.load %arg2
// CHECK: %[[B:.*]] = vector.load %[[ROWS]][%{{.*}}, %{{.*}}, %{{.*}}] : memref<1x1x288xi8>, vector<64xi8>
// CHECK: %[[S:.*]] = llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"(%[[Z]], %[[B]], %[[D]])
// CHECK: %[[P1:.*]] = vector.shuffle %[[S]], %[[S]] [4, 5, 6, 7, 0, 1, 2, 3, 12, 13, 14, 15, 8, 9, 10, 11]
// CHECK: %[[S1:.*]] = arith.addi %[[S]], %[[P1]] : vector<16xi32>
// CHECK: %[[P2:.*]] = vector.shuffle %[[S1]], %[[S1]] [2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13]
// CHECK: %[[S2:.*]] = arith.addi %[[S1]], %[[P2]] : vector<16xi32>
// CHECK: %[[P3:.*]] = vector.shuffle %[[S2]], %[[S2]] [1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14]
// CHECK: %[[S3:.*]] = arith.addi %[[S2]], %[[P3]] : vector<16xi32>
// CHECK: %[[PIX0:.*]] = vector.shuffle %[[S3]], %[[S3]] [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
// CHECK: %[[PIX1:.*]] = vector.shuffle %[[S3]], %[[S3]] [8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8]
// CHECK-COUNT-3: llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"(%[[Z]], %{{.*}}, %[[D]])
// CHECK: arith.addi %[[CORR]], %[[PIX0]] : vector<16xi32>
// CHECK: arith.addi %[[CORR]], %[[PIX1]] : vector<16xi32>
// The ninth pixel, a rest tile of its own.
// CHECK: %[[LAST:.*]] = vector.maskedload %[[ROWS]][%{{.*}}, %{{.*}}, %{{.*}}], %[[HALF]], %{{.*}} : memref<1x1x288xi8>, vector<64xi1>, vector<64xi8> into vector<64xi8>
// CHECK: llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"(%[[Z]], %[[LAST]], %[[D]])
// CHECK-NOT: dense<1> : vector<64xi8>
// CHECK: return
// With its requantize fused (the pipelined kernel), emulated: generic
// vector code, no vpdpbusd left.
// EMUL-LABEL: llvm.func @__qnn_kernel_vnni_1_3_3_32_3_3_1_1_1_1_1_1_16_0_0_28_1_epilogue0(
// EMUL-NOT: vpdpbusd
// EMUL: llvm.return
func.func @pointwise_d28(%x: tensor<1x3x3x32xui8>) -> tensor<1x3x3x16xui8> {
  %w = arith.constant dense<200> : tensor<16x1x1x32xui8>
  %c = qnn.conv2d %x, %w {data_layout = #qnn.layout<NHWC>, dilations = array<i64: 1, 1>, groups = 1 : i64, input_scale = 5.000000e-01 : f32, input_zero_point = 3 : i32, kernel_layout = #qnn.kernel_layout<OHWI>, padding = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, weight_scale = array<f32: 0.01>, weight_zero_point = 100 : i32} : (tensor<1x3x3x32xui8>, tensor<16x1x1x32xui8>) -> tensor<1x3x3x16xi32>
  %y = qnn.requantize %c {input_scale = array<f64: 0.005>, input_zero_point = 0 : i32, output_scale = 2.0 : f32, output_zero_point = 128 : i32} : tensor<1x3x3x16xi32> -> tensor<1x3x3x16xui8>
  return %y : tensor<1x3x3x16xui8>
}

// -----

// A uint8 first convolution with wzp 0: d = 128, as -128 in the bytes and
// the sum subtracted; 3 channels padded to 4, so each kernel row is 12
// bytes. Rows of 3 output pixels at stride 2, a tile of 8: groups of 3
// pixels (windowSumsByColumns). A group in one output row (the first and
// last pixels' columns 4 apart) loads 28 bytes per kernel row (masked
// zmm), one vpdpbusd each gives every column's sum, two lane shifts add
// the window's three columns, and lanes 0, 2 and 4 are the pixels' sums;
// a group across rows takes each pixel's three 12-byte rows (masked xmm
// loads) and a butterfly.
// CHECK-LABEL: func.func private @__qnn_kernel_vnni_1_7_7_4_3_3_3_3_2_2_1_1_16_0_0_128_1(
// CHECK-DAG: %[[Z16:.*]] = arith.constant dense<0> : vector<16xi32>
// CHECK-DAG: %[[M28:.*]] = arith.constant dense<[true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, false, {{.*}}]> : vector<64xi1>
// CHECK-DAG: %[[D64:.*]] = arith.constant dense<-128> : vector<64xi8>
// CHECK-DAG: %[[D:.*]] = arith.constant dense<-128> : vector<16xi8>
// CHECK-DAG: %[[Z4:.*]] = arith.constant dense<0> : vector<4xi32>
// CHECK-DAG: %[[M:.*]] = arith.constant dense<[true, true, true, true, true, true, true, true, true, true, true, true, false, false, false, false]> : vector<16xi1>
// CHECK-DAG: %[[FILL:.*]] = arith.constant dense<0> : vector<16xi8>
// CHECK: %[[ROWS:.*]] = memref.collapse_shape %arg0 {{\[\[}}0], [1], [2, 3]] : memref<1x7x7x4xi8> into memref<1x7x28xi8>
// CHECK: %[[SPAN:.*]] = arith.subi
// CHECK: %[[ONE:.*]] = arith.cmpi eq, %[[SPAN]], %{{.*}} : index
// CHECK: %[[G:.*]]:3 = scf.if %[[ONE]] -> (vector<16xi32>, vector<16xi32>, vector<16xi32>) {
// CHECK: %[[C0:.*]] = vector.maskedload %[[ROWS]][{{.*}}], %[[M28]], %{{.*}} : memref<1x7x28xi8>, vector<64xi1>, vector<64xi8> into vector<64xi8>
// CHECK: %[[T0:.*]] = llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"(%[[Z16]], %[[C0]], %[[D64]])
// CHECK: %[[C1:.*]] = vector.maskedload %[[ROWS]]
// CHECK: %[[T1:.*]] = llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"(%[[T0]], %[[C1]], %[[D64]])
// CHECK: %[[C2:.*]] = vector.maskedload %[[ROWS]]
// CHECK: %[[T2:.*]] = llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"(%[[T1]], %[[C2]], %[[D64]])
// CHECK: %[[SH1:.*]] = vector.shuffle %[[T2]], %[[Z16]] [1, 2, {{.*}}, 15, 16] : vector<16xi32>, vector<16xi32>
// CHECK: %[[A1:.*]] = arith.addi %[[T2]], %[[SH1]] : vector<16xi32>
// CHECK: %[[SH2:.*]] = vector.shuffle %[[T2]], %[[Z16]] [2, 3, {{.*}}, 16, 17] : vector<16xi32>, vector<16xi32>
// CHECK: %[[WIN:.*]] = arith.addi %[[A1]], %[[SH2]] : vector<16xi32>
// CHECK: %[[P0:.*]] = vector.shuffle %[[WIN]], %[[WIN]] [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
// CHECK: %[[P1:.*]] = vector.shuffle %[[WIN]], %[[WIN]] [2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2]
// CHECK: %[[P2:.*]] = vector.shuffle %[[WIN]], %[[WIN]] [4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4]
// CHECK: scf.yield %[[P0]], %[[P1]], %[[P2]]
// CHECK: } else {
// CHECK: %[[B0:.*]] = vector.maskedload %[[ROWS]][{{.*}}], %[[M]], %[[FILL]] : memref<1x7x28xi8>, vector<16xi1>, vector<16xi8> into vector<16xi8>
// CHECK: %[[S0:.*]] = llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.128"(%[[Z4]], %[[B0]], %[[D]])
// CHECK: %[[B1:.*]] = vector.maskedload %[[ROWS]]
// CHECK: %[[S1:.*]] = llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.128"(%[[S0]], %[[B1]], %[[D]])
// CHECK: %[[B2:.*]] = vector.maskedload %[[ROWS]]
// CHECK: %[[S2:.*]] = llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.128"(%[[S1]], %[[B2]], %[[D]])
// CHECK: vector.shuffle %[[S2]], %[[S2]] [2, 3, 0, 1]
// CHECK: vector.shuffle %{{.*}} [1, 0, 3, 2]
// CHECK: vector.shuffle %{{.*}} [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0] : vector<4xi32>, vector<4xi32>
// CHECK: scf.yield
// CHECK: arith.subi %{{.*}}, %[[G]]#0 : vector<16xi32>
// CHECK: arith.subi %{{.*}}, %[[G]]#1 : vector<16xi32>
// CHECK: arith.subi %{{.*}}, %[[G]]#2 : vector<16xi32>
// CHECK-NOT: dense<1> : vector<64xi8>
// CHECK: return
// EMUL-LABEL: llvm.func @__qnn_kernel_vnni_1_7_7_4_3_3_3_3_2_2_1_1_16_0_0_128_1(
// EMUL-NOT: vpdpbusd
// EMUL: llvm.intr.masked.load
// EMUL-NOT: vpdpbusd
// EMUL: llvm.return
func.func @first_conv_d128(%x: tensor<1x5x5x3xui8>) -> tensor<1x3x3x16xi32> {
  %w = arith.constant dense<5> : tensor<16x3x3x3xui8>
  %c = qnn.conv2d %x, %w {data_layout = #qnn.layout<NHWC>, dilations = array<i64: 1, 1>, groups = 1 : i64, input_scale = 5.000000e-01 : f32, input_zero_point = 3 : i32, kernel_layout = #qnn.kernel_layout<OHWI>, padding = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>, weight_scale = array<f32: 0.01>, weight_zero_point = 0 : i32} : (tensor<1x5x5x3xui8>, tensor<16x3x3x3xui8>) -> tensor<1x3x3x16xi32>
  return %c : tensor<1x3x3x16xi32>
}

// -----

// i8 weights with wzp 9 (d = -9) at dilation 2: each tap's 8 channels are
// a run of their own, 3 per kernel row, 9 masked loads per pixel.
// CHECK-LABEL: func.func private @__qnn_kernel_vnni_1_7_7_8_3_3_3_3_1_1_2_2_16_0_0_m9_1(
// CHECK-DAG: %[[D:.*]] = arith.constant dense<-9> : vector<16xi8>
// CHECK-DAG: arith.constant dense<[true, true, true, true, true, true, true, true, false, false, false, false, false, false, false, false]> : vector<16xi1>
// CHECK: memref.collapse_shape %arg0 {{\[\[}}0], [1], [2, 3]] : memref<1x7x7x8xi8> into memref<1x7x56xi8>
// CHECK-COUNT-9: llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.128"({{.*}}, %[[D]])
// CHECK: vector.shuffle
func.func @dilated_s8(%x: tensor<1x7x7x8xi8>) -> tensor<1x3x3x16xi32> {
  %w = arith.constant dense<-7> : tensor<16x3x3x8xi8>
  %c = qnn.conv2d %x, %w {data_layout = #qnn.layout<NHWC>, dilations = array<i64: 2, 2>, groups = 1 : i64, input_scale = 5.000000e-01 : f32, input_zero_point = 3 : i32, kernel_layout = #qnn.kernel_layout<OHWI>, padding = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, weight_scale = array<f32: 0.01>, weight_zero_point = 9 : i32} : (tensor<1x7x7x8xi8>, tensor<16x3x3x8xi8>) -> tensor<1x3x3x16xi32>
  return %c : tensor<1x3x3x16xi32>
}

// -----

// A kernel that reads signed bytes (inputSigned, entry 14; the lowering
// flips s8 activations before the kernel, so only a written spec has it):
// its window sums flip each chunk as the broadcasts do, and a masked
// chunk's missing bytes are 0x80, which flip to 0. 36 bytes per kernel
// row: a masked zmm load.
// CHECK-LABEL: func.func private @signed_input(
// CHECK-DAG: %[[D:.*]] = arith.constant dense<5> : vector<64xi8>
// CHECK-DAG: %[[FLIP:.*]] = arith.constant dense<-128> : vector<64xi8>
// CHECK: %[[ROWS:.*]] = memref.collapse_shape %arg0 {{\[\[}}0], [1], [2, 3]] : memref<1x1x3x12xi8> into memref<1x1x36xi8>
// CHECK: %[[B:.*]] = vector.maskedload %[[ROWS]][{{.*}}], %{{.*}}, %[[FLIP]] : memref<1x1x36xi8>, vector<64xi1>, vector<64xi8> into vector<64xi8>
// CHECK: %[[U:.*]] = arith.xori %[[B]], %[[FLIP]] : vector<64xi8>
// CHECK: llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"(%{{.*}}, %[[U]], %[[D]])
// CHECK: vector.shuffle %{{.*}} [8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7]
// CHECK: scf.for
func.func private @signed_input(memref<1x1x3x12xi8>, memref<1x1x3x3x64xi8>, memref<16xi32>, memref<1x1x1x16xi32>) attributes {qnn.conv_kernel = array<i64: 3, 1, 1, 3, 12, 1, 1, 1, 3, 1, 1, 1, 1, 16, 1, 0, 5, 1>}
