// gemmlowp's double rounding in the AVX-512 kernels' epilogues
// (ConvKernelEpilogue.cpp, doubleRoundedHighHalves): where every right shift e is
// at least 1, the multiplier is not negative and the accumulator is bounded
// (|acc + bias| < 2^30), the products are those of 2 * acc, so that the
// first rounding's quotient is the high half of 2p + 2R (R = 2^30 +
// 2^(30+e)); one shuffle (behind an empty inline-asm copy, which keeps LLVM
// from merging it with the blend into a vpermt2d) and one blend gather the
// 16 quotients, the accumulator's sign (a shift) joins them and one i32
// shift divides by 2^e: no compares into masks. Otherwise (a shift of 0, a
// bias too large for the bound, emulated VNNI) the compare form stays.
// Execution tests: test/Execution/double-rounding-kernels(-native,-avx2).test
// (both forms).
// RUN: qnn-opt %s --split-input-file --pass-pipeline='builtin.module(convert-qnn-to-linalg{target=avx512-vnni floor-affine=false},func.func(tosa-to-linalg-named,tosa-to-linalg,tosa-to-arith,tosa-to-tensor),canonicalize,linalg-fuse-elementwise-ops,qnn-fuse-kernel-epilogues,one-shot-bufferize{bufferize-function-boundaries},qnn-materialize-conv-kernels)' | FileCheck %s
// RUN: qnn-opt %s --split-input-file --pass-pipeline='builtin.module(convert-qnn-to-linalg{target=avx512-vnni floor-affine=false},func.func(tosa-to-linalg-named,tosa-to-linalg,tosa-to-arith,tosa-to-tensor),canonicalize,linalg-fuse-elementwise-ops,qnn-fuse-kernel-epilogues,one-shot-bufferize{bufferize-function-boundaries},qnn-materialize-conv-kernels{emulate-vnni=true})' | FileCheck %s --check-prefix=EMU
// The int16 target (AVX2): the same choice; its compare form blends the
// high halves of the corrected sums (shiftedHighHalves).
// RUN: qnn-opt %s --split-input-file --pass-pipeline='builtin.module(convert-qnn-to-linalg{target=int16},func.func(tosa-to-linalg-named,tosa-to-linalg,tosa-to-arith,tosa-to-tensor),canonicalize,linalg-fuse-elementwise-ops,qnn-fuse-kernel-epilogues,one-shot-bufferize{bufferize-function-boundaries},qnn-materialize-conv-kernels)' | FileCheck %s --check-prefix=INT16

// A multiplier of 0.1: 0.8 * 2^-3, e = 3; 2R = 2^31 + 2^34.
// CHECK-LABEL: func.func private @__qnn_kernel_vnni_1_2_8_16_
// The rounding term and the shifts, constants of the kernel.
// CHECK-DAG: %[[R:.*]] = arith.constant dense<19327352832> : vector<8xi64>
// CHECK-DAG: %[[C31:.*]] = arith.constant dense<31> : vector<16xi32>
// CHECK-DAG: %[[E:.*]] = arith.constant dense<3> : vector<16xi32>
// CHECK-NOT: arith.cmpi slt, {{.*}} : vector<8xi64>
// CHECK: %[[TWICE:.*]] = arith.addi %[[ACC:.*]], %[[ACC]] : vector<16xi32>
// CHECK-NEXT: %[[ODDS:.*]] = vector.shuffle %[[TWICE]], %[[TWICE]] [1, 1, 3, 3, 5, 5, 7, 7, 9, 9, 11, 11, 13, 13, 15, 15]
// CHECK-NEXT: %[[HIGH:.*]] = vector.bitcast %[[ODDS]] : vector<16xi32> to vector<8xi64>
// CHECK-NEXT: %[[LOW:.*]] = vector.bitcast %[[TWICE]] : vector<16xi32> to vector<8xi64>
// CHECK-NEXT: %[[PE:.*]] = llvm.inline_asm "vpmuldq $2, $1, $0", "=v,v,v" %[[LOW]]
// CHECK-NEXT: %[[PO:.*]] = llvm.inline_asm "vpmuldq $2, $1, $0", "=v,v,v" %[[HIGH]]
// CHECK-NEXT: %[[SE:.*]] = arith.addi %[[PE]], %[[R]] : vector<8xi64>
// CHECK-NEXT: %[[SO:.*]] = arith.addi %[[PO]], %[[R]] : vector<8xi64>
// CHECK-NEXT: %[[SE32:.*]] = vector.bitcast %[[SE]] : vector<8xi64> to vector<16xi32>
// CHECK-NEXT: %[[QE:.*]] = vector.shuffle %[[SE32]], %[[SE32]] [1, 1, 3, 3, 5, 5, 7, 7, 9, 9, 11, 11, 13, 13, 15, 15]
// CHECK-NEXT: %[[QEC:.*]] = llvm.inline_asm "", "=v,0" %[[QE]]
// CHECK: %[[SO32:.*]] = vector.bitcast %[[SO]] : vector<8xi64> to vector<16xi32>
// CHECK-NEXT: %[[Q:.*]] = arith.select %{{.*}}, %{{.*}}, %[[SO32]] : vector<16xi1>, vector<16xi32>
// CHECK-NEXT: %[[SIGN:.*]] = arith.shrsi %[[ACC]], %[[C31]] : vector<16xi32>
// CHECK-NEXT: %[[SUM:.*]] = arith.addi %[[Q]], %[[SIGN]] : vector<16xi32>
// CHECK-NEXT: arith.shrsi %[[SUM]], %[[E]] : vector<16xi32>
// CHECK: llvm.call_intrinsic "llvm.x86.avx512.packssdw.512"
// CHECK: return
// EMU-LABEL: func.func private @__qnn_kernel_vnni_1_2_8_16_
// EMU: arith.cmpi slt, {{.*}} : vector<8xi64>
// INT16-LABEL: func.func private @__qnn_kernel_int16_1_2_8_16_
// INT16-NOT: arith.cmpi slt, {{.*}} : vector<4xi64>
// INT16: %[[TWICE:.*]] = arith.addi %[[ACC:.*]], %[[ACC]] : vector<8xi32>
// INT16: llvm.inline_asm "vpmuldq $2, $1, $0", "=x,x,x"
// INT16: arith.shrsi %[[ACC]], %{{.*}} : vector<8xi32>
func.func @pointwise(%x: tensor<1x2x8x16xi8>) -> tensor<1x2x8x32xi8> {
  %w = arith.constant dense<3> : tensor<32x1x1x16xi8>
  %b = arith.constant dense<-700> : tensor<1x1x1x32xi32>
  %c = qnn.conv2d %x, %w {data_layout = #qnn.layout<NHWC>, dilations = array<i64: 1, 1>, groups = 1 : i64, input_scale = 5.000000e-01 : f32, input_zero_point = -1 : i32, kernel_layout = #qnn.kernel_layout<OHWI>, padding = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, weight_scale = array<f32: 0.01>, weight_zero_point = 0 : i32} : (tensor<1x2x8x16xi8>, tensor<32x1x1x16xi8>) -> tensor<1x2x8x32xi32>
  %s = tosa.add %c, %b : (tensor<1x2x8x32xi32>, tensor<1x1x1x32xi32>) -> tensor<1x2x8x32xi32>
  %y = qnn.requantize %s {input_scale = array<f64: 0.005>, input_zero_point = 0 : i32, output_scale = 5.000000e-02 : f32, output_zero_point = 0 : i32} : tensor<1x2x8x32xi32> -> tensor<1x2x8x32xi8>
  return %y : tensor<1x2x8x32xi8>
}

// -----

// Per-channel multipliers of 0.6 (e = 0) and 0.1 (e = 3): the compare
// form, with per-lane terms.
// CHECK-LABEL: func.func private @__qnn_kernel_vnni_1_2_4_16_
// CHECK: arith.cmpi slt, {{.*}} : vector<8xi64>
func.func @shift0(%x: tensor<1x2x4x16xi8>) -> tensor<1x2x4x32xi8> {
  %w = arith.constant dense<3> : tensor<32x1x1x16xi8>
  %c = qnn.conv2d %x, %w {data_layout = #qnn.layout<NHWC>, dilations = array<i64: 1, 1>, groups = 1 : i64, input_scale = 5.000000e-01 : f32, input_zero_point = -1 : i32, kernel_layout = #qnn.kernel_layout<OHWI>, padding = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, weight_scale = array<f32: 0.01>, weight_zero_point = 0 : i32} : (tensor<1x2x4x16xi8>, tensor<32x1x1x16xi8>) -> tensor<1x2x4x32xi32>
  %y = qnn.requantize %c {axis = 3 : i64, input_scale = array<f64: 0.03, 0.005, 0.03, 0.005, 0.03, 0.005, 0.03, 0.005, 0.03, 0.005, 0.03, 0.005, 0.03, 0.005, 0.03, 0.005, 0.03, 0.005, 0.03, 0.005, 0.03, 0.005, 0.03, 0.005, 0.03, 0.005, 0.03, 0.005, 0.03, 0.005, 0.03, 0.005>, input_zero_point = 0 : i32, output_scale = 5.000000e-02 : f32, output_zero_point = 0 : i32} : tensor<1x2x4x32xi32> -> tensor<1x2x4x32xi8>
  return %y : tensor<1x2x4x32xi8>
}

// -----

// A bias of 2^30 + 2^29: 2 * (acc + bias) might not fit in i32, so the
// compare form.
// CHECK-LABEL: func.func private @__qnn_kernel_vnni_1_2_6_16_
// CHECK: arith.cmpi slt, {{.*}} : vector<8xi64>
// INT16-LABEL: func.func private @__qnn_kernel_int16_1_2_6_16_
// INT16: %[[PE:.*]] = llvm.inline_asm "vpmuldq $2, $1, $0", "=x,x,x"
// INT16: arith.cmpi slt, %[[PE]], %{{.*}} : vector<4xi64>
// INT16: %[[SE:.*]] = arith.subi %{{.*}}, %{{.*}} : vector<4xi64>
// INT16: arith.shrui %[[SE]], %{{.*}} : vector<4xi64>
func.func @bigbias(%x: tensor<1x2x6x16xi8>) -> tensor<1x2x6x32xi8> {
  %w = arith.constant dense<3> : tensor<32x1x1x16xi8>
  %b = arith.constant dense<1610612736> : tensor<1x1x1x32xi32>
  %c = qnn.conv2d %x, %w {data_layout = #qnn.layout<NHWC>, dilations = array<i64: 1, 1>, groups = 1 : i64, input_scale = 5.000000e-01 : f32, input_zero_point = -1 : i32, kernel_layout = #qnn.kernel_layout<OHWI>, padding = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, weight_scale = array<f32: 0.01>, weight_zero_point = 0 : i32} : (tensor<1x2x6x16xi8>, tensor<32x1x1x16xi8>) -> tensor<1x2x6x32xi32>
  %s = tosa.add %c, %b : (tensor<1x2x6x32xi32>, tensor<1x1x1x32xi32>) -> tensor<1x2x6x32xi32>
  %y = qnn.requantize %s {input_scale = array<f64: 0.005>, input_zero_point = 0 : i32, output_scale = 5.000000e-02 : f32, output_zero_point = 0 : i32} : tensor<1x2x6x32xi32> -> tensor<1x2x6x32xi8>
  return %y : tensor<1x2x6x32xi8>
}

// -----

// The @pointwise product with a ReLU (a clamp at the output zero point, 0):
// where acc < 0 the result is at most 0 with or without the sign term,
// and the clamp takes it to 0, so the kernels leave the term out
// (clampsNonPositive), and take the offset form (OffsetProduct): before
// its loops the kernel fills three tables per channel, bias + D (D from
// the multiplier's trailing zeros), 2m and K; the accumulators start from
// corr + bias + D, and each 16 outputs take two vpmuludq of the
// accumulator (no doubling, no 64-bit rounding adds), a shuffle and a
// blend of the high halves, one add of K and the shift by e. The int16
// target likewise, on 8 lanes.
// CHECK-LABEL: func.func private @__qnn_kernel_vnni_1_2_10_16_
// CHECK-DAG: %[[E:.*]] = arith.constant dense<3> : vector<16xi32>
// CHECK-NOT: arith.cmpi slt, {{.*}} : vector<8xi64>
// CHECK: %[[BIASD:.*]] = memref.alloca() {alignment = 64 : i64} : memref<32xi32>
// CHECK-NEXT: %[[TWICE:.*]] = memref.alloca() {alignment = 64 : i64} : memref<32xi32>
// CHECK-NEXT: %[[K:.*]] = memref.alloca() {alignment = 64 : i64} : memref<32xi32>
// CHECK-NEXT: scf.for
// CHECK-NEXT: "llvm.intr.cttz"
// CHECK: vector.store %{{.*}}, %[[BIASD]]
// CHECK-NEXT: arith.addi
// CHECK-NEXT: vector.store %{{.*}}, %[[TWICE]]
// CHECK-NEXT: vector.store %{{.*}}, %[[K]]
// CHECK-NEXT: }
// CHECK: %[[CORR:.*]] = vector.load %arg2
// CHECK-NEXT: %[[B0:.*]] = vector.load %[[BIASD]]
// CHECK-NEXT: arith.addi %[[CORR]], %[[B0]] : vector<16xi32>
// CHECK: %[[KV:.*]] = vector.load %[[K]]
// CHECK-NOT: arith.addi %[[ACC:.*]], %[[ACC]] : vector<16xi32>
// CHECK: llvm.inline_asm "vpmuludq $2, $1, $0", "=v,v,v"
// CHECK-NEXT: llvm.inline_asm "vpmuludq $2, $1, $0", "=v,v,v"
// CHECK-NOT: arith.addi {{.*}} : vector<8xi64>
// CHECK: %[[Q:.*]] = arith.select %{{.*}}, %{{.*}}, %{{.*}} : vector<16xi1>, vector<16xi32>
// CHECK-NEXT: %[[SUM:.*]] = arith.addi %[[Q]], %[[KV]] : vector<16xi32>
// CHECK-NEXT: arith.shrsi %[[SUM]], %[[E]] : vector<16xi32>
// CHECK-NOT: vpmuldq
// CHECK: llvm.call_intrinsic "llvm.x86.avx512.packssdw.512"
// CHECK: return
// INT16-LABEL: func.func private @__qnn_kernel_int16_1_2_10_16_
// INT16-NOT: arith.cmpi slt, {{.*}} : vector<4xi64>
// INT16: "llvm.intr.cttz"
// INT16-NOT: vpmuldq
// INT16: llvm.inline_asm "vpmuludq $2, $1, $0", "=x,x,x"
// INT16-NEXT: llvm.inline_asm "vpmuludq $2, $1, $0", "=x,x,x"
// INT16-NOT: vpmuldq
// INT16: return
func.func @relu(%x: tensor<1x2x10x16xi8>) -> tensor<1x2x10x32xi8> {
  %w = arith.constant dense<3> : tensor<32x1x1x16xi8>
  %b = arith.constant dense<-700> : tensor<1x1x1x32xi32>
  %c = qnn.conv2d %x, %w {data_layout = #qnn.layout<NHWC>, dilations = array<i64: 1, 1>, groups = 1 : i64, input_scale = 5.000000e-01 : f32, input_zero_point = -1 : i32, kernel_layout = #qnn.kernel_layout<OHWI>, padding = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, weight_scale = array<f32: 0.01>, weight_zero_point = 0 : i32} : (tensor<1x2x10x16xi8>, tensor<32x1x1x16xi8>) -> tensor<1x2x10x32xi32>
  %s = tosa.add %c, %b : (tensor<1x2x10x32xi32>, tensor<1x1x1x32xi32>) -> tensor<1x2x10x32xi32>
  %y = qnn.requantize %s {input_scale = array<f64: 0.005>, input_zero_point = 0 : i32, output_scale = 5.000000e-02 : f32, output_zero_point = 0 : i32} : tensor<1x2x10x32xi32> -> tensor<1x2x10x32xi8>
  %r = tosa.clamp %y {min_val = 0 : i8, max_val = 127 : i8} : (tensor<1x2x10x32xi8>) -> tensor<1x2x10x32xi8>
  return %r : tensor<1x2x10x32xi8>
}

// -----

// The @relu product over 4112 output channels: the offset form's three
// tables would take more than 48 KiB of the caller's stack, so the kernel
// keeps the compare-free form without the sign term (the doubling add).
// CHECK-LABEL: func.func private @__qnn_kernel_vnni_1_1_2_16_
// CHECK-NOT: llvm.intr.cttz
// CHECK-NOT: memref.alloca
// CHECK: %[[TWICE:.*]] = arith.addi %[[ACC:.*]], %[[ACC]] : vector<16xi32>
// CHECK: llvm.inline_asm "vpmuldq $2, $1, $0", "=v,v,v"
// CHECK-NOT: vpmuludq
// CHECK: return
func.func @wide(%x: tensor<1x1x2x16xi8>) -> tensor<1x1x2x4112xi8> {
  %w = arith.constant dense<3> : tensor<4112x1x1x16xi8>
  %b = arith.constant dense<-700> : tensor<1x1x1x4112xi32>
  %c = qnn.conv2d %x, %w {data_layout = #qnn.layout<NHWC>, dilations = array<i64: 1, 1>, groups = 1 : i64, input_scale = 5.000000e-01 : f32, input_zero_point = -1 : i32, kernel_layout = #qnn.kernel_layout<OHWI>, padding = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, weight_scale = array<f32: 0.01>, weight_zero_point = 0 : i32} : (tensor<1x1x2x16xi8>, tensor<4112x1x1x16xi8>) -> tensor<1x1x2x4112xi32>
  %s = tosa.add %c, %b : (tensor<1x1x2x4112xi32>, tensor<1x1x1x4112xi32>) -> tensor<1x1x2x4112xi32>
  %y = qnn.requantize %s {input_scale = array<f64: 0.005>, input_zero_point = 0 : i32, output_scale = 5.000000e-02 : f32, output_zero_point = 0 : i32} : tensor<1x1x2x4112xi32> -> tensor<1x1x2x4112xi8>
  %r = tosa.clamp %y {min_val = 0 : i8, max_val = 127 : i8} : (tensor<1x1x2x4112xi8>) -> tensor<1x1x2x4112xi8>
  return %r : tensor<1x1x2x4112xi8>
}
