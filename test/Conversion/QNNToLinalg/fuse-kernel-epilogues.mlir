// RUN: qnn-opt %s --split-input-file --pass-pipeline='builtin.module(convert-qnn-to-linalg{target=int16},func.func(tosa-to-linalg-named,tosa-to-linalg,tosa-to-arith,tosa-to-tensor),canonicalize,linalg-fuse-elementwise-ops,qnn-fuse-kernel-epilogues)' | FileCheck %s
// RUN: qnn-opt %s --split-input-file --pass-pipeline='builtin.module(convert-qnn-to-linalg{target=int16},func.func(tosa-to-linalg-named,tosa-to-linalg,tosa-to-arith,tosa-to-tensor),canonicalize,linalg-fuse-elementwise-ops,qnn-fuse-kernel-epilogues,one-shot-bufferize{bufferize-function-boundaries},qnn-materialize-conv-kernels)' | FileCheck %s --check-prefix=BODY

// conv + bias + requantize with 16 output channels (two int16 vectors): the
// bias add and the requantize become the kernel's epilogue, the bias a
// per-channel argument, and the kernel stores 8-bit results. The only
// elementwise op left outside is the input's widening (x - izp as i16, the
// int16 kernel's operand).
// CHECK-LABEL: func.func @fused
// CHECK: linalg.generic {{.*}} ins(%arg0 : tensor<1x4x4x8xi8>) outs(%{{.*}} : tensor<1x4x4x8xi16>)
// CHECK: arith.extsi %{{.*}} : i8 to i16
// CHECK: arith.subi
// CHECK-NOT: linalg.generic
// CHECK: %[[BC:.*]] = arith.constant dense<[1, 2, 3, {{.*}}, 16]> : tensor<16xi32>
// CHECK-NEXT: %[[BIAS:.*]] = bufferization.to_buffer %[[BC]] read_only : tensor<16xi32> to memref<16xi32>
// CHECK: %[[OUT:.*]] = memref.alloc() {alignment = 64 : i64} : memref<1x4x4x16xi8>
// CHECK: call @[[KERNEL:__qnn_kernel_int16_.*_epilogue0]](%{{.*}}, %{{.*}}, %{{.*}}, %[[BIAS]], %[[OUT]])
// CHECK-NOT: linalg.generic
// CHECK: bufferization.to_tensor %[[OUT]]
// CHECK: func.func private @[[KERNEL]](memref<1x4x4x8xi16>, memref<2x1x1x4x16xi16>, memref<16xi32>, memref<16xi32>, memref<1x4x4x16xi8>)
// CHECK-SAME: qnn.kernel_epilogue = @[[KERNEL]]_fn
// CHECK: func.func private @[[KERNEL]]_fn(%[[ACC:.*]]: i32, %[[B:.*]]: i32) -> i8
// CHECK: arith.addi %[[ACC]], %[[B]] : i32
// CHECK: arith.muli {{.*}} : i64
// CHECK: %[[R:.*]] = arith.trunci {{.*}} : i32 to i8
// CHECK: return %[[R]] : i8

// After materialization the epilogue runs on the accumulator vectors (8
// lanes for int16) and only i8 vectors are stored; the template is gone.
// The double-rounding multiply (e = 3, multiplier >= 0, a small bias, and
// a clamp at the zero point -128: ConvKernelEpilogue.cpp's offset form,
// OffsetProduct) reads three tables that the kernel fills before its
// loops from its bias argument and constants: the accumulators start
// from bias + D, and the products of those sums and 2m run on their even
// and odd i32 lanes as four unsigned i64 products each (vpmuludq in
// inline assembly, which reads the low halves of the 64-bit lanes: the
// even lanes as they are, the odd ones copied down by a shuffle); a blend
// of the two i32 views takes each high half where it lies. The kernel's
// constants (the blend's lane mask among them) are made once, at its
// start.
// BODY-LABEL: func.func @fused
// BODY: func.func private @__qnn_kernel_int16_{{.*}}_epilogue0(
// BODY: %[[EVEN:.*]] = arith.constant dense<[true, false, true, false, true, false, true, false]> : vector<8xi1>
// BODY: %[[BIASD:.*]] = memref.alloca() {alignment = 64 : i64} : memref<16xi32>
// BODY-NEXT: %[[TWICE:.*]] = memref.alloca() {alignment = 64 : i64} : memref<16xi32>
// BODY-NEXT: %[[K:.*]] = memref.alloca() {alignment = 64 : i64} : memref<16xi32>
// BODY-NEXT: scf.for
// BODY-NEXT: vector.load %arg3[%{{.*}}] : memref<16xi32>, vector<8xi32>
// BODY: vector.store %{{.*}}, %[[BIASD]]
// BODY: vector.store %{{.*}}, %[[TWICE]]
// BODY-NEXT: vector.store %{{.*}}, %[[K]]
// BODY-NOT: vector.store {{.*}} vector<8xi32>
// BODY: vector.load %[[BIASD]]
// BODY: %[[ODD:.*]] = vector.shuffle %[[A:.*]], %[[A]] [1, 1, 3, 3, 5, 5, 7, 7]
// BODY-NEXT: %[[QO:.*]] = vector.bitcast %[[ODD]] : vector<8xi32> to vector<4xi64>
// BODY-NEXT: %[[Q:.*]] = vector.bitcast %[[A]] : vector<8xi32> to vector<4xi64>
// BODY: llvm.inline_asm "vpmuludq $2, $1, $0", "=x,x,x" %[[Q]], %{{.*}} : (vector<4xi64>, vector<4xi64>) -> vector<4xi64>
// BODY-NEXT: llvm.inline_asm "vpmuludq $2, $1, $0", "=x,x,x" %[[QO]], %{{.*}} : (vector<4xi64>, vector<4xi64>) -> vector<4xi64>
// BODY-NOT: arith.muli {{.*}} : vector<4xi64>
// BODY: arith.select %[[EVEN]], %{{.*}}, %{{.*}} : vector<8xi1>, vector<8xi32>
// The two 8-lane blocks of a pixel narrow together into one 16-byte store
// (the AVX2 packs, packBytes8).
// BODY: llvm.call_intrinsic "llvm.x86.avx2.packssdw"
// BODY: vector.store {{.*}} : memref<1x1x16x16xi8>, vector<16xi8>
// BODY-NOT: vector.store {{.*}} vector<8xi32>
// BODY-NOT: _epilogue0_fn
func.func @fused(%x: tensor<1x4x4x8xi8>) -> tensor<1x4x4x16xi8> {
  %w = arith.constant dense<3> : tensor<16x1x1x8xi8>
  %b = arith.constant dense<[[[[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]]]]> : tensor<1x1x1x16xi32>
  %c = qnn.conv2d %x, %w {data_layout = #qnn.layout<NHWC>, dilations = array<i64: 1, 1>, groups = 1 : i64, input_scale = 5.000000e-01 : f32, input_zero_point = -1 : i32, kernel_layout = #qnn.kernel_layout<OHWI>, padding = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, weight_scale = array<f32: 0.01>, weight_zero_point = 0 : i32} : (tensor<1x4x4x8xi8>, tensor<16x1x1x8xi8>) -> tensor<1x4x4x16xi32>
  %a = tosa.add %c, %b : (tensor<1x4x4x16xi32>, tensor<1x1x1x16xi32>) -> tensor<1x4x4x16xi32>
  %y = qnn.requantize %a {input_scale = array<f64: 0.005>, input_zero_point = 0 : i32, output_scale = 5.000000e-02 : f32, output_zero_point = -128 : i32} : tensor<1x4x4x16xi32> -> tensor<1x4x4x16xi8>
  return %y : tensor<1x4x4x16xi8>
}

// -----

// 3 output channels are padded to a vector of 8 in the kernel and sliced
// after it: the epilogue stays a separate linalg.generic.
// CHECK-LABEL: func.func @sliced
// CHECK: call @__qnn_kernel_int16_
// CHECK-NOT: _epilogue
// CHECK: tensor.extract_slice
// CHECK: linalg.generic
// BODY-LABEL: func.func @sliced
// BODY-NOT: _epilogue
func.func @sliced(%x: tensor<1x4x4x8xi8>) -> tensor<1x4x4x3xi8> {
  %w = arith.constant dense<3> : tensor<3x1x1x8xi8>
  %c = qnn.conv2d %x, %w {data_layout = #qnn.layout<NHWC>, dilations = array<i64: 1, 1>, groups = 1 : i64, input_scale = 5.000000e-01 : f32, input_zero_point = -1 : i32, kernel_layout = #qnn.kernel_layout<OHWI>, padding = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, weight_scale = array<f32: 0.01>, weight_zero_point = 0 : i32} : (tensor<1x4x4x8xi8>, tensor<3x1x1x8xi8>) -> tensor<1x4x4x3xi32>
  %y = qnn.requantize %c {input_scale = array<f64: 0.005>, input_zero_point = 0 : i32, output_scale = 5.000000e-02 : f32, output_zero_point = -128 : i32} : tensor<1x4x4x3xi32> -> tensor<1x4x4x3xi8>
  return %y : tensor<1x4x4x3xi8>
}

// -----

// The i32 accumulators are also returned: nothing is fused.
// CHECK-LABEL: func.func @two_uses
// CHECK-NOT: _epilogue
// CHECK: linalg.generic
func.func @two_uses(%x: tensor<1x4x4x8xi8>) -> (tensor<1x4x4x16xi8>, tensor<1x4x4x16xi32>) {
  %w = arith.constant dense<3> : tensor<16x1x1x8xi8>
  %c = qnn.conv2d %x, %w {data_layout = #qnn.layout<NHWC>, dilations = array<i64: 1, 1>, groups = 1 : i64, input_scale = 5.000000e-01 : f32, input_zero_point = -1 : i32, kernel_layout = #qnn.kernel_layout<OHWI>, padding = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, weight_scale = array<f32: 0.01>, weight_zero_point = 0 : i32} : (tensor<1x4x4x8xi8>, tensor<16x1x1x8xi8>) -> tensor<1x4x4x16xi32>
  %y = qnn.requantize %c {input_scale = array<f64: 0.005>, input_zero_point = 0 : i32, output_scale = 5.000000e-02 : f32, output_zero_point = -128 : i32} : tensor<1x4x4x16xi32> -> tensor<1x4x4x16xi8>
  return %y, %c : tensor<1x4x4x16xi8>, tensor<1x4x4x16xi32>
}


// -----

// Per-channel multipliers (i64 in the requantize, all below 2^31) are
// passed as i32 vectors and sign-extended in the epilogue, so that the
// 64-bit product is of two sign-extended i32 values (one vpmuldq per 8
// lanes on x86); the per-channel right shifts narrow the same way.
// CHECK-LABEL: func.func @per_channel
// CHECK: arith.constant dense<[{{.*}}]> : tensor<16xi32>
// CHECK: call @[[KERNEL:__qnn_kernel_int16_.*_epilogue[0-9]+]](%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}})
// CHECK: func.func private @[[KERNEL]](memref<1x4x4x8xi16>, memref<2x1x1x4x16xi16>, memref<16xi32>, memref<16xi32>, memref<16xi32>, memref<16xi32>, memref<1x4x4x16xi8>)
// CHECK: func.func private @[[KERNEL]]_fn(%[[ACC:.*]]: i32, %[[M:.*]]: i32, %[[L:.*]]: i32, %[[R:.*]]: i32) -> i8
// CHECK: %[[M64:.*]] = arith.extsi %[[M]] : i32 to i64
// CHECK: %[[X:.*]] = arith.shli %[[ACC]], %[[L]] : i32
// CHECK: %[[X64:.*]] = arith.extsi %[[X]] : i32 to i64
// CHECK: arith.muli %[[X64]], %[[M64]] : i64
// BODY-LABEL: func.func @per_channel
// BODY: vector.load {{.*}} : memref<16xi32>, vector<8xi32>
// BODY: arith.extsi {{.*}} : vector<8xi32> to vector<8xi64>
func.func @per_channel(%x: tensor<1x4x4x8xi8>) -> tensor<1x4x4x16xi8> {
  %w = arith.constant dense<3> : tensor<16x1x1x8xi8>
  %c = qnn.conv2d %x, %w {data_layout = #qnn.layout<NHWC>, dilations = array<i64: 1, 1>, groups = 1 : i64, input_scale = 5.000000e-01 : f32, input_zero_point = -1 : i32, kernel_layout = #qnn.kernel_layout<OHWI>, padding = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, weight_scale = array<f32: 0.01>, weight_zero_point = 0 : i32} : (tensor<1x4x4x8xi8>, tensor<16x1x1x8xi8>) -> tensor<1x4x4x16xi32>
  %y = qnn.requantize %c {axis = 3 : i64, input_scale = array<f64: 0.005, 0.0051, 0.0052, 0.0053, 0.0054, 0.0055, 0.0056, 0.0057, 0.0058, 0.0059, 0.006, 0.0061, 0.0062, 0.0063, 0.0064, 0.2>, input_zero_point = 0 : i32, output_scale = 5.000000e-02 : f32, output_zero_point = 3 : i32} : tensor<1x4x4x16xi32> -> tensor<1x4x4x16xi8>
  return %y : tensor<1x4x4x16xi8>
}

// -----

// Per-channel multipliers whose shifts agree (every ratio in [1/16, 1/8):
// left shift 0, right shift 3 for all 16 channels): the shift tables are
// splats, which linalg-fuse-elementwise-ops folds into the generic, so the
// epilogue has them as constants and only the multipliers remain a
// per-channel argument.
// CHECK-LABEL: func.func @uniform_shifts
// CHECK: call @[[KERNEL:__qnn_kernel_int16_.*_epilogue[0-9]+]](%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}})
// CHECK: func.func private @[[KERNEL]](memref<1x4x4x8xi16>, memref<2x1x1x4x16xi16>, memref<16xi32>, memref<16xi32>, memref<1x4x4x16xi8>)
// CHECK: func.func private @[[KERNEL]]_fn(%[[ACC:.*]]: i32, %[[M:.*]]: i32) -> i8
// CHECK: arith.extsi %[[M]] : i32 to i64
// The double rounding (gemmlowp's high multiply, then a rounding divide by
// 2^3) is one shift of the 64-bit product by 31 + 3, after adding 2^30 +
// 2^33 and subtracting 2^31 from products below -2^30
// (emitMultiplyByQuantizedMultiplier).
// CHECK: %[[P:.*]] = arith.muli %{{.*}}, %{{.*}} : i64
// CHECK: arith.cmpi slt, %[[P]], %c-1073741824_i64 : i64
// CHECK: arith.select %{{.*}}, %c2147483648_i64, %c0_i64 : i64
// CHECK: arith.addi %[[P]], %c9663676416_i64 : i64
// CHECK: arith.subi
// CHECK: arith.shrsi %{{.*}}, %c34_i64{{(_[0-9]+)?}} : i64
// CHECK-NOT: arith.cmpi sgt
// The kernel computes it without compares (r = 3 >= 1, multipliers >= 0,
// no bias: doubleRoundedHighHalves): the products of 2a, the high halves
// of 2p + 2R (2R = 2^31 + 2^34 + 3 * 2^35: the zero point 3 joins the
// rounding term) gathered by a shuffle of the even sums and one blend, the
// accumulator's sign added (-1 where a < 0), one i32 shift by r = 3.
// BODY-LABEL: func.func @uniform_shifts
// BODY: func.func private @__qnn_kernel_int16_{{.*}}_epilogue0(
// BODY-DAG: %[[R:.*]] = arith.constant dense<122406567936> : vector<4xi64>
// BODY-DAG: %[[C31:.*]] = arith.constant dense<31> : vector<8xi32>
// BODY-DAG: %[[THREE:.*]] = arith.constant dense<3> : vector<8xi32>
// BODY-NOT: arith.cmpi slt, {{.*}} : vector<4xi64>
// BODY: %[[TWICE:.*]] = arith.addi %[[A:.*]], %[[A]] : vector<8xi32>
// BODY: %[[PE:.*]] = llvm.inline_asm "vpmuldq $2, $1, $0", "=x,x,x" %{{.*}}, %{{.*}} : (vector<4xi64>, vector<4xi64>) -> vector<4xi64>
// BODY: %[[PO:.*]] = llvm.inline_asm "vpmuldq $2, $1, $0", "=x,x,x" %{{.*}}, %{{.*}} : (vector<4xi64>, vector<4xi64>) -> vector<4xi64>
// BODY-NEXT: %[[SE:.*]] = arith.addi %[[PE]], %[[R]] : vector<4xi64>
// BODY-NEXT: %[[SO:.*]] = arith.addi %[[PO]], %[[R]] : vector<4xi64>
// BODY-NEXT: %[[SE32:.*]] = vector.bitcast %[[SE]] : vector<4xi64> to vector<8xi32>
// BODY-NEXT: %[[HE:.*]] = vector.shuffle %[[SE32]], %[[SE32]] [1, 1, 3, 3, 5, 5, 7, 7]
// BODY-NEXT: llvm.inline_asm "", "=v,0" %[[HE]]
// BODY: %[[O:.*]] = vector.bitcast %[[SO]] : vector<4xi64> to vector<8xi32>
// BODY-NEXT: %[[B:.*]] = arith.select %{{.*}}, %{{.*}}, %[[O]] : vector<8xi1>, vector<8xi32>
// BODY-NEXT: %[[S:.*]] = arith.shrsi %[[A]], %[[C31]] : vector<8xi32>
// BODY-NEXT: %[[T:.*]] = arith.addi %[[B]], %[[S]] : vector<8xi32>
// BODY-NEXT: arith.shrsi %[[T]], %[[THREE]] : vector<8xi32>
// BODY-NOT: arith.cmpi sgt
// BODY: vector.store {{.*}} : memref<1x1x16x16xi8>, vector<16xi8>
func.func @uniform_shifts(%x: tensor<1x4x4x8xi8>) -> tensor<1x4x4x16xi8> {
  %w = arith.constant dense<3> : tensor<16x1x1x8xi8>
  %c = qnn.conv2d %x, %w {data_layout = #qnn.layout<NHWC>, dilations = array<i64: 1, 1>, groups = 1 : i64, input_scale = 5.000000e-01 : f32, input_zero_point = -1 : i32, kernel_layout = #qnn.kernel_layout<OHWI>, padding = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, weight_scale = array<f32: 0.01>, weight_zero_point = 0 : i32} : (tensor<1x4x4x8xi8>, tensor<16x1x1x8xi8>) -> tensor<1x4x4x16xi32>
  %y = qnn.requantize %c {axis = 3 : i64, input_scale = array<f64: 0.0035, 0.0036, 0.0037, 0.0038, 0.0039, 0.004, 0.0041, 0.0042, 0.0043, 0.0044, 0.0045, 0.0046, 0.0047, 0.0048, 0.0049, 0.005>, input_zero_point = 0 : i32, output_scale = 5.000000e-02 : f32, output_zero_point = 3 : i32} : tensor<1x4x4x16xi32> -> tensor<1x4x4x16xi8>
  return %y : tensor<1x4x4x16xi8>
}

// -----

// TFLite's single rounding with per-channel right shifts (no left shift):
// the template's 64-bit (x * m + 2^(30 + r)) >> (31 + r) with saturation
// becomes even/odd lane products; |x| is small here (8 input channels), so
// the per-channel shifts become one common shift S (the largest, 5):
// x << (S - r) before the products, constant rounding terms and shifts
// after them (ConvKernelEpilogue.cpp, commonShift; kernels-single-rounding.mlir
// has the per-lane form); the saturation is dropped (with r >= 0 the
// result always fits in i32).
// BODY-LABEL: func.func @single_rounding
// BODY: func.func private @__qnn_kernel_int16_{{.*}}_epilogue0(
// BODY: %[[FOUR:.*]] = arith.constant dense<4> : vector<8xi32>
// BODY: %[[K:.*]] = arith.subi %{{.*}}, %{{.*}} : vector<8xi32>
// BODY-NOT: arith.andi %{{.*}}, %{{.*}} : vector<4xi64>
// BODY: arith.shli %{{.*}}, %[[K]] : vector<8xi32>
// With S = 5 >= 1, the high halves of the rounded sums in one blend,
// shifted right by S - 1 as i32 lanes.
// BODY: %[[SE:.*]] = arith.addi %{{.*}}, %{{.*}} : vector<4xi64>
// BODY: %[[SO:.*]] = arith.addi %{{.*}}, %{{.*}} : vector<4xi64>
// BODY: %[[HE:.*]] = arith.shrui %[[SE]], %{{.*}} : vector<4xi64>
// BODY: %[[E:.*]] = vector.bitcast %[[HE]] : vector<4xi64> to vector<8xi32>
// BODY: %[[O:.*]] = vector.bitcast %[[SO]] : vector<4xi64> to vector<8xi32>
// BODY: %[[B:.*]] = arith.select %{{.*}}, %[[E]], %[[O]] : vector<8xi1>, vector<8xi32>
// BODY: arith.shrsi %[[B]], %[[FOUR]] : vector<8xi32>
// BODY-NOT: arith.maxsi {{.*}} : vector<8xi64>
// BODY: vector.store {{.*}} : memref<1x1x16x16xi8>, vector<16xi8>
func.func @single_rounding(%x: tensor<1x4x4x8xi8>) -> tensor<1x4x4x16xi8> {
  %w = arith.constant dense<3> : tensor<16x1x1x8xi8>
  %c = qnn.conv2d %x, %w {data_layout = #qnn.layout<NHWC>, dilations = array<i64: 1, 1>, groups = 1 : i64, input_scale = 5.000000e-01 : f32, input_zero_point = -1 : i32, kernel_layout = #qnn.kernel_layout<OHWI>, padding = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, weight_scale = array<f32: 0.01>, weight_zero_point = 0 : i32} : (tensor<1x4x4x8xi8>, tensor<16x1x1x8xi8>) -> tensor<1x4x4x16xi32>
  %y = qnn.requantize %c {axis = 3 : i64, input_scale = array<f64: 0.001, 0.002, 0.003, 0.004, 0.005, 0.006, 0.007, 0.008, 0.009, 0.01, 0.011, 0.012, 0.013, 0.014, 0.015, 0.016>, input_zero_point = 0 : i32, output_scale = 5.000000e-02 : f32, output_zero_point = 3 : i32, rounding = #qnn.rounding<tflite_single>} : tensor<1x4x4x16xi32> -> tensor<1x4x4x16xi8>
  return %y : tensor<1x4x4x16xi8>
}
