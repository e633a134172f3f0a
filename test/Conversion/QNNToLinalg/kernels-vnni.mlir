// Convolutions and dense layers with constant weights become calls of
// kernels with weights packed at compile time; qnn-materialize-conv-kernels
// builds their bodies. avx512-vnni on a pointwise convolution with s8
// activations: x + 128 (xor 0x80, an elementwise op before the kernel, not
// in its inner loop) times the weights with vpdpbusd, the
// compensation -(izp + 128) * sum(w) per channel precomputed (the expected
// constants below were computed independently by the test generator).
// RUN: qnn-opt %s --convert-qnn-to-linalg=target=avx512-vnni | FileCheck %s --check-prefix=CALL
// RUN: qnn-opt %s --convert-qnn-to-linalg=target=avx512-vnni --qnn-materialize-conv-kernels | FileCheck %s --check-prefix=KERNEL
// RUN: qnn-opt %s --qnn-lower-to-llvm=target=avx512-vnni | FileCheck %s --check-prefix=LLVM
// RUN: qnn-opt %s --qnn-lower-to-llvm="target=avx512-vnni emulate-vnni=true" | FileCheck %s --check-prefix=EMUL

func.func @pointwise(%x: tensor<1x2x5x8xi8>) -> tensor<1x2x5x16xi32> {
  %w = arith.constant dense<[[[[-67, 24, 12, -94, -33, 107, 27, -6]]], [[[33, 21, -111, 28, -124, 105, 87, -7]]], [[[-61, 14, -68, -78, 127, 56, -7, 11]]], [[[87, 13, -6, -26, 36, 93, -89, -68]]], [[[35, -89, 95, 110, 6, -28, 62, -124]]], [[[44, 71, -111, -87, 67, 118, 24, -117]]], [[[-50, 72, -120, 83, 94, -59, -6, 25]]], [[[57, 108, 97, -28, 55, 74, 108, -18]]], [[[-26, 59, 78, 20, -14, 119, 112, -93]]], [[[97, -34, -103, -118, -93, -1, -72, -61]]], [[[120, 45, -16, 72, 33, 91, -50, -20]]], [[[2, 86, -29, 19, -38, 9, 22, -23]]], [[[22, -68, 104, -41, 47, 107, 110, -120]]], [[[92, -56, 126, 28, 44, 51, -86, 51]]], [[[93, -44, 119, 11, 104, 19, 18, -101]]], [[[55, 40, -73, 35, 85, 125, 19, -59]]]]> : tensor<16x1x1x8xi8>
  %acc = qnn.conv2d %x, %w {data_layout = #qnn.layout<NHWC>, dilations = array<i64: 1, 1>, groups = 1 : i64, input_scale = 0.5 : f32, input_zero_point = -3 : i32, kernel_layout = #qnn.kernel_layout<OHWI>, padding = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, weight_scale = array<f32: 0.25>, weight_zero_point = 0 : i32} : (tensor<1x2x5x8xi8>, tensor<16x1x1x8xi8>) -> tensor<1x2x5x16xi32>
  return %acc : tensor<1x2x5x16xi32>
}

// CALL-LABEL: func.func @pointwise
// CALL-DAG: %[[PACKED:.*]] = arith.constant dense<"0xBD180CA22115911CC30EBCB2570DFAE623A75F6E2C4791A9CE488853396C61E4E63B4E1461DE998A782DF0480256E31316BC68D75CC87E1C5DD4770B3728B723DF6B1BFA846957F97F38F90B245DA7BC06E43E844376188B5EC5FA19374A6CEEF27770A3A3FFB8C3215BCEECDA0916E92F6B6E882C33AA336813129B557D13C5"> : tensor<1x1x1x2x64xi8>
// CALL: %[[FLIP:.*]] = linalg.generic {{.*}} ins(%arg0 : tensor<1x2x5x8xi8>)
// CALL: arith.xori %{{.*}}, %c-128_i8 : i8
// CALL-DAG: %[[CORR:.*]] = arith.constant dense<[3750, -4000, 750, -5000, -8375, -1125, -4875, -56625, -31875, 48125, -34375, -6000, -20125, -31250, -27375, -28375]> : tensor<16xi32>
// CALL-DAG: %[[XB:.*]] = bufferization.to_buffer %[[FLIP]] read_only : tensor<1x2x5x8xi8> to memref<1x2x5x8xi8>
// CALL-DAG: %[[WB:.*]] = bufferization.to_buffer %[[PACKED]] read_only
// CALL-DAG: %[[CB:.*]] = bufferization.to_buffer %[[CORR]] read_only
// CALL: %[[OUT:.*]] = memref.alloc() {alignment = 64 : i64} : memref<1x2x5x16xi32>
// CALL: call @[[K:__qnn_kernel_vnni[_0-9a-z]*]](%[[XB]], %[[WB]], %[[CB]], %[[OUT]])
// CALL: func.func private @[[K]](memref<1x2x5x8xi8>, memref<1x1x1x2x64xi8>, memref<16xi32>, memref<1x2x5x16xi32>)
// The VNNI kernel does not read the input zero point (-3, folded into
// CORR), so the spec records 0, and it reads unsigned bytes whatever the
// model's signedness (inputSigned 0): layers that differ only in these
// share a kernel.
// CALL-SAME: qnn.conv_kernel = array<i64: 3, 1, 2, 5, 8, 2, 5, 1, 1, 1, 1, 1, 1, 16, 0, 0, 0, 1>

// The register tile: 8 output pixels (of the flattened 2x5 plane, crossing
// the image row) x 1 block of 16 channels, eight vector<16xi32>
// accumulators, one vpdpbusd each per K step of 4 channels; with K = 8 the
// two steps are unrolled (no K loop), the second step's vpdpbusd take the
// first's results, and each accumulator is stored once after them. The
// bytes are broadcast as they are (no xor). The accumulators start at the
// block's compensation terms (one load per block, no add per output
// vector).
// KERNEL-LABEL: func.func private @__qnn_kernel_vnni
// KERNEL-SAME: target_features = #llvm.target_features<["+avx512f", "+avx512bw", "+avx512vnni"]>
// A pointwise kernel sees the [2, 5] plane as [1, 10]: pixel m at row 0,
// column m.
// KERNEL: %[[XROWS:.*]] = memref.collapse_shape %arg0 {{\[\[}}0], [1, 2], [3]] : memref<1x2x5x8xi8> into memref<1x10x8xi8>
// KERNEL: %[[X:.*]] = memref.expand_shape %[[XROWS]] {{\[\[}}0], [1, 2], [3]] output_shape [1, 1, 10, 8] : memref<1x10x8xi8> into memref<1x1x10x8xi8>
// KERNEL: %[[OUTROWS:.*]] = memref.collapse_shape %arg3 {{\[\[}}0], [1, 2], [3]] : memref<1x2x5x16xi32> into memref<1x10x16xi32>
// KERNEL: %[[OUT:.*]] = memref.expand_shape %[[OUTROWS]]
// KERNEL-NOT: arith.xori
// KERNEL: %[[Z:.*]] = vector.load %arg2[%{{.*}}] : memref<16xi32>, vector<16xi32>
// KERNEL-NOT: iter_args
// KERNEL: vector.load %[[X]]{{.*}} : memref<1x1x10x8xi8>, vector<4xi8>
// KERNEL: %[[X0:.*]] = vector.bitcast %{{.*}} : vector<16xi32> to vector<64xi8>
// KERNEL: %[[W:.*]] = vector.load %arg1{{.*}} : memref<1x1x1x2x64xi8>, vector<64xi8>
// KERNEL-NEXT: %[[N0:.*]] = llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"(%[[Z]], %[[X0]], %[[W]]) : (vector<16xi32>, vector<64xi8>, vector<64xi8>) -> vector<16xi32>
// KERNEL-NEXT: %[[N1:.*]] = llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"(%[[Z]],
// KERNEL-COUNT-6: llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"(%[[Z]],
// KERNEL: %[[W1:.*]] = vector.load %arg1{{.*}} : memref<1x1x1x2x64xi8>, vector<64xi8>
// KERNEL-NEXT: %[[M0:.*]] = llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"(%[[N0]], %{{.*}}, %[[W1]])
// KERNEL-NEXT: llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"(%[[N1]],
// KERNEL-COUNT-6: llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"
// KERNEL-NOT: arith.addi
// KERNEL: vector.store %[[M0]], %[[OUT]]
// The remaining 2 pixels (8 and 9) are one shorter tile of 2 rows, with
// the same two unrolled steps (two accumulators each), and no loop over
// pixels.
// KERNEL: arith.addi %c8{{(_[0-9]+)?}}, %c1
// KERNEL-NOT: scf.for %{{.*}} = %c8
// KERNEL: %[[R0:.*]] = llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"
// KERNEL-NEXT: %[[R1:.*]] = llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"
// KERNEL: %[[S0:.*]] = llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"(%[[R0]],
// KERNEL-NEXT: %[[S1:.*]] = llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"(%[[R1]],
// KERNEL-NEXT: vector.store %[[S0]], %[[OUT]][%{{.*}}, %c0, %c8, %{{.*}}] : memref<1x1x10x16xi32>
// KERNEL-NEXT: vector.store %[[S1]], %[[OUT]]
// KERNEL-NOT: arith.xori

// The kernel realigns its stack (its zmm spills and stack tables aligned
// to 64 bytes whatever the caller's stack pointer, which had made a
// kernel's time vary by up to 20% from run to run).
// LLVM: llvm.func @pointwise
// LLVM: llvm.func @__qnn_kernel_vnni
// LLVM-SAME: passthrough = ["stackrealign"]
// LLVM-SAME: target_features = #llvm.target_features<["+avx512f", "+avx512bw", "+avx512vnni"]>
// LLVM: llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"(%{{.*}}) : (vector<16xi32>, vector<64xi8>, vector<64xi8>) -> vector<16xi32>

// EMUL: llvm.func @__qnn_kernel_vnni
// EMUL-NOT: target_features
// EMUL-NOT: llvm.call_intrinsic
// EMUL: llvm.shufflevector
