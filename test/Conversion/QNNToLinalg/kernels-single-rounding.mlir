// TFLite's single-rounding rescale with per-channel right shifts, through
// the whole pipeline: canonicalization folds the template's rounding
// exponent (31 + r) - 1 into r + 30 before the kernels are built, and the
// kernels still recognize the product (ConvKernelEpilogue.cpp,
// matchRoundedProduct): vpmuldq-style products on the even and odd i32
// lanes (vector<8xi64> for the 16-lane VNNI kernel, vector<4xi64> for the
// 8-lane int16 one), never the template's widened 64-bit lanes
// (vector<16xi64>, two registers per product and a 64-bit clamp). Where
// |acc| is small enough (8 input channels here), the per-channel shifts r
// become one common shift S: acc << (S - r) (the difference derived once
// per channel block, one vpsllvd per output vector) before the product,
// constant rounding terms after it. Otherwise (@wide_shifts) the shift
// vector's halves (andi 0xffffffff, shrui 32) are derived once per channel
// block, not once per output vector. The 16-lane
// kernel reads the multipliers of the odd lanes with a second, masked load
// of the multiplier table one channel further (the first 15 lanes: the
// 16th may lie past the table), whose 64-bit lanes hold them in their low
// halves, instead of shifting the first load (ConvKernelEpilogue.cpp,
// oddChannelLoad); the 8-lane AVX2 kernel shifts, and blends the high
// halves of the rounded sums before one i32 shift (ConvKernelEpilogue.cpp,
// shiftedHighHalves). Execution: test/Execution/single-rounding.test,
// common-shift.test.
// RUN: qnn-opt %s --qnn-lower-to-llvm="target=avx512-vnni floor-affine=false" | FileCheck %s --check-prefix=VNNI
// RUN: qnn-opt %s --qnn-lower-to-llvm="target=int16" | FileCheck %s --check-prefix=INT16

// The kernel takes its six buffers (input, weights, correction terms, two
// per-channel epilogue vectors, output) as bare pointers
// (qnn-materialize-conv-kernels marks it llvm.bareptr), not as memref
// descriptors.
// VNNI: llvm.call @__qnn_kernel_vnni_{{.*}} : (!llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr) -> ()
// VNNI-LABEL: llvm.func @__qnn_kernel_vnni_{{[0-9_a-z]*}}(%arg0: !llvm.ptr, %arg1: !llvm.ptr, %arg2: !llvm.ptr, %arg3: !llvm.ptr, %arg4: !llvm.ptr, %arg5: !llvm.ptr) attributes {llvm.bareptr
// VNNI-NOT: vector<16xi64>
// VNNI: %[[ODD:.*]] = llvm.mlir.constant(dense<[true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, false]> : vector<16xi1>)
// VNNI-NOT: vector<16xi64>
// VNNI: %[[GEP:.*]] = llvm.getelementptr %arg3[%[[CH:.*]]] :
// VNNI-NEXT: llvm.load %[[GEP]] {{.*}} -> vector<16xi32>
// VNNI-NEXT: %[[CH1:.*]] = llvm.add %[[CH]], %[[ONE:.*]] : i64
// VNNI-NEXT: %[[NEXT:.*]] = llvm.getelementptr %arg3[%[[CH1]]]
// VNNI-NEXT: llvm.intr.masked.load %[[NEXT]], %[[ODD]], %{{.*}} : (!llvm.ptr, vector<16xi1>, vector<16xi32>) -> vector<16xi32>
// VNNI-NOT: vector<16xi64>
// VNNI: %[[K:.*]] = llvm.sub %{{.*}}, %{{.*}} : vector<16xi32>
// VNNI-NOT: llvm.and {{.*}} : vector<8xi64>
// VNNI: llvm.shl %{{.*}}, %[[K]] : vector<16xi32>
// VNNI-NOT: llvm.and {{.*}} : vector<8xi64>
// VNNI-NOT: vector<16xi64>
// VNNI: llvm.inline_asm "vpmuldq $2, $1, $0", "=v,v,v" {{.*}} -> vector<8xi64>
// VNNI-NOT: vector<16xi64>
// VNNI-NOT: llvm.intr.smax{{.*}}xi64>
// VNNI: llvm.return
// VNNI-LABEL: llvm.func @__qnn_kernel_vnni_1_1_2_1024_
// VNNI-NOT: vector<16xi64>
// VNNI: llvm.and {{.*}} : vector<8xi64>
// VNNI-NOT: llvm.and {{.*}} : vector<8xi64>
// VNNI-NOT: vector<16xi64>
// VNNI: llvm.inline_asm "vpmuldq $2, $1, $0", "=v,v,v" {{.*}} -> vector<8xi64>
// VNNI: llvm.return
// INT16-LABEL: llvm.func @__qnn_kernel_int16_
// INT16-NOT: vector<8xi64>
// INT16-NOT: masked.load
// INT16: llvm.inline_asm "vpmuldq $2, $1, $0", "=x,x,x" {{.*}} -> vector<4xi64>
// INT16-NOT: vector<8xi64>
// INT16: llvm.return
// Per-lane shifts r, all >= 3 here (the argument's ranges), and a packed
// narrowing (two channel blocks): the tail is halved (ConvKernelEpilogue.cpp,
// halvedTail). The high halves of the products, with no rounding terms,
// in one blend, shifted right by r - 2 (derived once per channel block) as
// i32 lanes, give t = (a * m) >> (30 + r); the packs add 1 + 2 zp = 7 to
// its words with saturation and shift them right by 1.
// INT16-LABEL: llvm.func @__qnn_kernel_int16_1_1_2_1024_
// INT16-DAG: %[[ZP:.*]] = llvm.mlir.constant(dense<7> : vector<16xi16>)
// INT16-DAG: %[[ONE:.*]] = llvm.mlir.constant(dense<1> : vector<16xi16>)
// INT16: %[[M2:.*]] = llvm.sub %{{.*}}, %{{.*}} : vector<8xi32>
// INT16: %[[PE:.*]] = llvm.inline_asm "vpmuldq $2, $1, $0", "=x,x,x" %{{.*}}, %{{.*}} : (vector<4xi64>, vector<4xi64>) -> vector<4xi64>
// INT16-NEXT: %[[PO:.*]] = llvm.inline_asm "vpmuldq $2, $1, $0", "=x,x,x" %{{.*}}, %{{.*}} : (vector<4xi64>, vector<4xi64>) -> vector<4xi64>
// INT16-NEXT: %[[E:.*]] = llvm.lshr %[[PE]], %{{.*}} : vector<4xi64>
// INT16-NEXT: %[[EB:.*]] = llvm.bitcast %[[E]] : vector<4xi64> to vector<8xi32>
// INT16-NEXT: %[[OB:.*]] = llvm.bitcast %[[PO]] : vector<4xi64> to vector<8xi32>
// INT16-NEXT: %[[B:.*]] = llvm.select %{{.*}}, %[[EB]], %[[OB]] : vector<8xi1>, vector<8xi32>
// INT16-NEXT: llvm.ashr %[[B]], %[[M2]] : vector<8xi32>
// INT16: %[[W:.*]] = llvm.call_intrinsic "llvm.x86.avx2.packssdw"
// INT16-NEXT: %[[S:.*]] = llvm.intr.sadd.sat(%[[W]], %[[ZP]])
// INT16-NEXT: llvm.ashr %[[S]], %[[ONE]] : vector<16xi16>
// INT16: llvm.return
func.func @single_rounding(%x: tensor<1x4x8x8xi8>) -> tensor<1x4x8x16xi8> {
  %w = arith.constant dense<3> : tensor<16x1x1x8xi8>
  %c = qnn.conv2d %x, %w {data_layout = #qnn.layout<NHWC>, dilations = array<i64: 1, 1>, groups = 1 : i64, input_scale = 5.000000e-01 : f32, input_zero_point = -1 : i32, kernel_layout = #qnn.kernel_layout<OHWI>, padding = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, weight_scale = array<f32: 0.01>, weight_zero_point = 0 : i32} : (tensor<1x4x8x8xi8>, tensor<16x1x1x8xi8>) -> tensor<1x4x8x16xi32>
  %y = qnn.requantize %c {axis = 3 : i64, input_scale = array<f64: 0.001, 0.002, 0.003, 0.004, 0.005, 0.006, 0.007, 0.008, 0.009, 0.01, 0.011, 0.012, 0.013, 0.014, 0.015, 0.016>, input_zero_point = 0 : i32, output_scale = 5.000000e-02 : f32, output_zero_point = 3 : i32, rounding = #qnn.rounding<tflite_single>} : tensor<1x4x8x16xi32> -> tensor<1x4x8x16xi8>
  return %y : tensor<1x4x8x16xi8>
}

// Per-channel shifts that no common shift can replace: 1024 input
// channels (|acc| < 2^27) and shifts 7 apart (scales 0.0001 to 0.009).
func.func @wide_shifts(%x: tensor<1x1x2x1024xi8>) -> tensor<1x1x2x16xi8> {
  %w = arith.constant dense<3> : tensor<16x1x1x1024xi8>
  %c = qnn.conv2d %x, %w {data_layout = #qnn.layout<NHWC>, dilations = array<i64: 1, 1>, groups = 1 : i64, input_scale = 5.000000e-01 : f32, input_zero_point = -1 : i32, kernel_layout = #qnn.kernel_layout<OHWI>, padding = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, weight_scale = array<f32: 0.01>, weight_zero_point = 0 : i32} : (tensor<1x1x2x1024xi8>, tensor<16x1x1x1024xi8>) -> tensor<1x1x2x16xi32>
  %y = qnn.requantize %c {axis = 3 : i64, input_scale = array<f64: 0.0001, 0.000135, 0.0001823, 0.000246, 0.0003322, 0.0004484, 0.0006053, 0.0008172, 0.001103, 0.001489, 0.002011, 0.002714, 0.003664, 0.004947, 0.006678, 0.009016>, input_zero_point = 0 : i32, output_scale = 5.000000e-02 : f32, output_zero_point = 3 : i32, rounding = #qnn.rounding<tflite_single>} : tensor<1x1x2x16xi32> -> tensor<1x1x2x16xi8>
  return %y : tensor<1x1x2x16xi8>
}
