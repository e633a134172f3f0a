// Packed 8-bit stores (ConvKernelEpilogue.cpp, packBytes): which kernels take
// them. A pointwise convolution with 64 output channels (four channel
// blocks per pixel) and a requantize to i8: the avx512-vnni kernel narrows
// four accumulator vectors with the AVX512BW packs and stores 64 bytes.
// The 8-lane int16 target (AVX2) narrows two blocks with the AVX2 packs
// and stores 16 bytes, two pixels' four blocks with one byte pack and one
// vpermd (packBytes8Pair) where the tile has two; the generic target and emulated vpdpbusd (CPUs
// without AVX512) keep the per-vector narrowing. Execution tests:
// test/Execution/packed-stores.test, packed-stores-int16.test.
// RUN: qnn-opt %s --qnn-lower-to-llvm="target=avx512-vnni floor-affine=false" | FileCheck %s --check-prefix=PACKED
// RUN: qnn-opt %s --qnn-lower-to-llvm="target=avx512-vnni emulate-vnni=true floor-affine=false" | FileCheck %s --check-prefix=PLAIN
// RUN: qnn-opt %s --qnn-lower-to-llvm="target=generic" | FileCheck %s --check-prefix=PLAIN
// RUN: qnn-opt %s --qnn-lower-to-llvm="target=int16" | FileCheck %s --check-prefix=PACKED8

// The output zero point (3) joins the rounding term of the requantize's
// product (+ 3 * 2^31, shifted left by r = 3 like the rest of the term:
// ConvKernelEpilogue.cpp, zeroPointInProduct), so no saturating add of it
// (vpaddsw) follows the word pack. With r = 0 (@shift0, below) it stays.
// Both kernels' double rounding takes the compare-free form
// (kernels-vnni-double-rounding.mlir), whose term is doubled: 2^31 +
// 2^34 + 3 * 2^35.
// PACKED8-LABEL: llvm.func @__qnn_kernel_int16
// PACKED8: llvm.mlir.constant(dense<122406567936> : vector<4xi64>)
// PACKED8: %[[P:.*]] = llvm.call_intrinsic "llvm.x86.avx2.packssdw"
// PACKED8-NOT: llvm.intr.sadd.sat
// PACKED8: %[[Q:.*]] = llvm.call_intrinsic "llvm.x86.avx2.packssdw"
// PACKED8-NOT: llvm.intr.sadd.sat
// PACKED8: llvm.call_intrinsic "llvm.x86.avx2.packsswb"(%[[P]], %[[Q]])
// PACKED8: llvm.call_intrinsic "llvm.x86.avx2.permd"
// PACKED8: llvm.store {{.*}} : vector<16xi8>, !llvm.ptr
// PACKED8: llvm.store {{.*}} : vector<16xi8>, !llvm.ptr
// PACKED8-NOT: llvm.store {{.*}} : vector<8xi8>, !llvm.ptr

// PACKED-LABEL: llvm.func @__qnn_kernel_vnni
// PACKED: llvm.mlir.constant(dense<122406567936> : vector<8xi64>)
// PACKED: llvm.call_intrinsic "llvm.x86.avx512.packssdw.512"
// PACKED-NOT: llvm.intr.sadd.sat
// PACKED: llvm.call_intrinsic "llvm.x86.avx512.packsswb.512"
// PACKED: llvm.call_intrinsic "llvm.x86.avx512.permvar.si.512"
// PACKED: llvm.store {{.*}} : vector<64xi8>, !llvm.ptr
// PACKED: llvm.return
// PACKED-LABEL: llvm.func @__qnn_kernel_vnni
// PACKED: llvm.call_intrinsic "llvm.x86.avx512.packssdw.512"
// PACKED: llvm.intr.sadd.sat
// PACKED: llvm.call_intrinsic "llvm.x86.avx512.packsswb.512"
// PLAIN: llvm.func @__qnn_kernel_
// PLAIN-NOT: vpmuldq
// PLAIN-NOT: llvm.x86.avx512.packssdw.512
// PLAIN-NOT: llvm.x86.avx512.permvar.si.512
// PLAIN: llvm.store {{.*}} : vector<{{8|16}}xi8>, !llvm.ptr
func.func @pointwise(%x: tensor<1x2x8x16xi8>) -> tensor<1x2x8x64xi8> {
  %w = arith.constant dense<3> : tensor<64x1x1x16xi8>
  %c = qnn.conv2d %x, %w {data_layout = #qnn.layout<NHWC>, dilations = array<i64: 1, 1>, groups = 1 : i64, input_scale = 5.000000e-01 : f32, input_zero_point = -1 : i32, kernel_layout = #qnn.kernel_layout<OHWI>, padding = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, weight_scale = array<f32: 0.01>, weight_zero_point = 0 : i32} : (tensor<1x2x8x16xi8>, tensor<64x1x1x16xi8>) -> tensor<1x2x8x64xi32>
  %y = qnn.requantize %c {input_scale = array<f64: 0.005>, input_zero_point = 0 : i32, output_scale = 5.000000e-02 : f32, output_zero_point = 3 : i32} : tensor<1x2x8x64xi32> -> tensor<1x2x8x64xi8>
  return %y : tensor<1x2x8x64xi8>
}

// A multiplier of 0.6 (right shift 0): the zero point stays a saturating
// add after the word pack. (Another shape: layers of one shape share a
// kernel, whose shift would then be a per-channel argument in [0, 3].)
func.func @shift0(%x: tensor<1x2x4x16xi8>) -> tensor<1x2x4x64xi8> {
  %w = arith.constant dense<3> : tensor<64x1x1x16xi8>
  %c = qnn.conv2d %x, %w {data_layout = #qnn.layout<NHWC>, dilations = array<i64: 1, 1>, groups = 1 : i64, input_scale = 5.000000e-01 : f32, input_zero_point = -1 : i32, kernel_layout = #qnn.kernel_layout<OHWI>, padding = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, weight_scale = array<f32: 0.01>, weight_zero_point = 0 : i32} : (tensor<1x2x4x16xi8>, tensor<64x1x1x16xi8>) -> tensor<1x2x4x64xi32>
  %y = qnn.requantize %c {input_scale = array<f64: 0.03>, input_zero_point = 0 : i32, output_scale = 5.000000e-02 : f32, output_zero_point = 3 : i32} : tensor<1x2x4x64xi32> -> tensor<1x2x4x64xi8>
  return %y : tensor<1x2x4x64xi8>
}

// TFLite's single rounding with right shift 3 (0.005 / 0.05 = 0.1): the
// tail is halved (ConvKernelEpilogue.cpp, halvedTail). The product leaves t = (a
// * m) >> (30 + 3) without a rounding term: the even lanes by one 64-bit
// shift by 33, the odd lanes' high halves by an i32 shift by 1 into the
// odd lanes (a select: a masked shift). The word pack adds 1 + 2 * 3 = 7
// with saturation and shifts right by 1.
// PACKED-LABEL: llvm.func @__qnn_kernel_vnni_1_2_6_16_
// PACKED-DAG: %[[S33:.*]] = llvm.mlir.constant(dense<33> : vector<8xi64>)
// PACKED-DAG: %[[ONE32:.*]] = llvm.mlir.constant(dense<1> : vector<16xi32>)
// PACKED-DAG: %[[ZP7:.*]] = llvm.mlir.constant(dense<7> : vector<32xi16>)
// PACKED-DAG: %[[ONE16:.*]] = llvm.mlir.constant(dense<1> : vector<32xi16>)
// PACKED-NOT: llvm.add {{.*}} : vector<8xi64>
// PACKED: %[[PE:.*]] = llvm.inline_asm "vpmuldq $2, $1, $0", "=v,v,v" {{.*}} -> vector<8xi64>
// PACKED-NEXT: %[[PO:.*]] = llvm.inline_asm "vpmuldq $2, $1, $0", "=v,v,v" {{.*}} -> vector<8xi64>
// PACKED-NEXT: %[[E:.*]] = llvm.ashr %[[PE]], %[[S33]] : vector<8xi64>
// PACKED-NEXT: %[[OB:.*]] = llvm.bitcast %[[PO]] : vector<8xi64> to vector<16xi32>
// PACKED-NEXT: %[[O:.*]] = llvm.ashr %[[OB]], %[[ONE32]] : vector<16xi32>
// PACKED-NEXT: %[[EB:.*]] = llvm.bitcast %[[E]] : vector<8xi64> to vector<16xi32>
// PACKED-NEXT: llvm.select %{{.*}}, %[[EB]], %[[O]] : vector<16xi1>, vector<16xi32>
// PACKED: %[[W:.*]] = llvm.call_intrinsic "llvm.x86.avx512.packssdw.512"
// PACKED-NEXT: %[[S:.*]] = llvm.intr.sadd.sat(%[[W]], %[[ZP7]])
// PACKED-NEXT: llvm.ashr %[[S]], %[[ONE16]] : vector<32xi16>
// PACKED: llvm.return
func.func @single_shift3(%x: tensor<1x2x6x16xi8>) -> tensor<1x2x6x64xi8> {
  %w = arith.constant dense<3> : tensor<64x1x1x16xi8>
  %c = qnn.conv2d %x, %w {data_layout = #qnn.layout<NHWC>, dilations = array<i64: 1, 1>, groups = 1 : i64, input_scale = 5.000000e-01 : f32, input_zero_point = -1 : i32, kernel_layout = #qnn.kernel_layout<OHWI>, padding = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, weight_scale = array<f32: 0.01>, weight_zero_point = 0 : i32} : (tensor<1x2x6x16xi8>, tensor<64x1x1x16xi8>) -> tensor<1x2x6x64xi32>
  %y = qnn.requantize %c {input_scale = array<f64: 0.005>, input_zero_point = 0 : i32, output_scale = 5.000000e-02 : f32, output_zero_point = 3 : i32, rounding = #qnn.rounding<tflite_single>} : tensor<1x2x6x64xi32> -> tensor<1x2x6x64xi8>
  return %y : tensor<1x2x6x64xi8>
}

// Single rounding with right shift 1 (0.015 / 0.05 = 0.3): not halved (t
// would need bits below the high halves); the zero point joins the
// rounding term instead ((1 + 2 * 3) * 2^30 << 1), no saturating add.
// PACKED-LABEL: llvm.func @__qnn_kernel_vnni_1_2_5_16_
// PACKED: llvm.mlir.constant(dense<15032385536> : vector<8xi64>)
// PACKED: llvm.add {{.*}} : vector<8xi64>
// PACKED: llvm.call_intrinsic "llvm.x86.avx512.packssdw.512"
// PACKED-NOT: llvm.intr.sadd.sat
// PACKED: llvm.call_intrinsic "llvm.x86.avx512.packsswb.512"
// PACKED: llvm.return
func.func @single_shift1(%x: tensor<1x2x5x16xi8>) -> tensor<1x2x5x64xi8> {
  %w = arith.constant dense<3> : tensor<64x1x1x16xi8>
  %c = qnn.conv2d %x, %w {data_layout = #qnn.layout<NHWC>, dilations = array<i64: 1, 1>, groups = 1 : i64, input_scale = 5.000000e-01 : f32, input_zero_point = -1 : i32, kernel_layout = #qnn.kernel_layout<OHWI>, padding = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, weight_scale = array<f32: 0.01>, weight_zero_point = 0 : i32} : (tensor<1x2x5x16xi8>, tensor<64x1x1x16xi8>) -> tensor<1x2x5x64xi32>
  %y = qnn.requantize %c {input_scale = array<f64: 0.015>, input_zero_point = 0 : i32, output_scale = 5.000000e-02 : f32, output_zero_point = 3 : i32, rounding = #qnn.rounding<tflite_single>} : tensor<1x2x5x64xi32> -> tensor<1x2x5x64xi8>
  return %y : tensor<1x2x5x64xi8>
}
