// The avx512-vnni depthwise kernel (DepthwiseVNNI). With 32 channels (a
// multiple of 16) it reads the unpadded input itself: no linalg.fill or
// copy before the call, the input memref is 8x8 while the padded plane is
// 9x9, and the spec records the input size and the top/left padding (the
// last four values). The weights are i32 lanes holding the three kernel
// rows' w - wzp in bytes 0-2 (3 + 3 * 2^8 + 3 * 2^16 = 197379: one lane per
// kernel column, packsKernelRows); `corr` holds
// -z * sum(w) = -125 * 27 = -3375 per channel (z = izp + 128 = 125: s8
// input is read as x + 128) and then 16 lanes of z, the value of positions
// outside the input, so the spec leaves the zero point out (0) and layers
// that differ only in it share the kernel. With multiplier 1 the kernel
// writes the [N, OH, OW, C] result itself (no reshape after the call, so a
// function returning it needs no copy); inside, a view adds the unit
// multiplier dimension the depthwise builder indexes.
// RUN: qnn-opt %s --convert-qnn-to-linalg=target=avx512-vnni | FileCheck %s --check-prefix=CALL
// RUN: qnn-opt %s --convert-qnn-to-linalg=target=avx512-vnni --qnn-materialize-conv-kernels | FileCheck %s --check-prefix=KERNEL
// RUN: qnn-opt %s --convert-qnn-to-linalg=target=avx512-vnni --qnn-materialize-conv-kernels="parallel=true parallel-min-work=0" | FileCheck %s --check-prefix=PAR
// RUN: qnn-opt %s --convert-qnn-to-linalg=target=avx512-vnni --qnn-materialize-conv-kernels="vbmi=true" | FileCheck %s --check-prefix=VBMI

// CALL-LABEL: func.func @dw
// CALL-NOT: linalg.fill
// CALL-NOT: linalg.copy
// CALL-DAG: arith.constant dense<197379> : tensor<1x1x3x32xi32>
// CALL-DAG: arith.constant dense<[-3375, -3375, -3375, -3375, -3375, -3375, -3375, -3375, -3375, -3375, -3375, -3375, -3375, -3375, -3375, -3375, -3375, -3375, -3375, -3375, -3375, -3375, -3375, -3375, -3375, -3375, -3375, -3375, -3375, -3375, -3375, -3375, 125, 125, 125, 125, 125, 125, 125, 125, 125, 125, 125, 125, 125, 125, 125, 125]> : tensor<48xi32>
// CALL: %[[X:.*]] = bufferization.to_buffer %arg0 read_only : tensor<1x8x8x32xi8> to memref<1x8x8x32xi8>
// CALL: call @[[K:__qnn_kernel_dwvnni_[_0-9]*]](%[[X]],
// CALL-NOT: tensor.collapse_shape
// CALL: func.func private @[[K]](memref<1x8x8x32xi8>, memref<1x1x3x32xi32>, memref<48xi32>, memref<1x4x4x32xi32>)
// CALL-SAME: qnn.conv_kernel = array<i64: 5, 1, 9, 9, 32, 4, 4, 3, 3, 2, 2, 1, 1, 32, 1, 0, 0, 1, 8, 8, 0, 0>

// Stride 2 and SAME padding (bottom/right): the last output row and column
// read outside the input. A row is one tile of 4 pixels at column 0,
// emitted at its constant position: its column 8, outside the input, is
// the zero point's lanes (loaded from corr[32]) without a load; row 3 is a
// border row, which clamps its input row and selects the zero point's
// lanes when that row is outside. Every (pixel, kernel column) is one
// vpdpbusd: the column's three input rows (the s8 bytes as stored,
// zero-extended, or the zero point's lanes as stored: its unsigned lanes
// xor 0x80) packed into the bytes of each lane, row y shifted left by 8y
// (a loop over the kernel rows in border rows, unrolled in the others),
// then one xor with 0x808080 per column flips the three bytes (x + 128).
// KERNEL-LABEL: func.func private @__qnn_kernel_dwvnni
// KERNEL-SAME: target_features = #llvm.target_features<["+avx512f", "+avx512bw", "+avx512vnni"]>
// KERNEL-DAG: %[[C8:.*]] = arith.constant dense<8> : vector<16xi32>
// KERNEL-DAG: %[[C16:.*]] = arith.constant dense<16> : vector<16xi32>
// KERNEL-DAG: %[[C128:.*]] = arith.constant dense<128> : vector<16xi32>
// KERNEL-DAG: %[[FLIP:.*]] = arith.constant dense<8421504> : vector<16xi32>
// KERNEL: %[[OUT:.*]] = memref.expand_shape %arg3 {{\[}}[0], [1], [2], [3, 4]] output_shape [1, 4, 4, 1, 32] : memref<1x4x4x32xi32> into memref<1x4x4x1x32xi32>
// The border row loops over the kernel rows, carrying the tile's 9
// packed columns and shifting row y's lanes by 8y.
// KERNEL: %[[ZU:.*]] = vector.load %arg2[%c32{{.*}}] : memref<48xi32>, vector<16xi32>
// KERNEL: %[[Z:.*]] = arith.xori %[[ZU]], %[[C128]] : vector<16xi32>
// KERNEL: scf.for %[[KH:.*]] = %c0{{.*}} to %c3{{.*}} step %{{.*}} iter_args(%[[COL0:[^ ]*]] = %{{.*}}) -> (vector<16xi32>, vector<16xi32>, vector<16xi32>, vector<16xi32>, vector<16xi32>, vector<16xi32>, vector<16xi32>, vector<16xi32>, vector<16xi32>)
// KERNEL: arith.muli %[[KH]], %c8
// KERNEL: %[[SH:.*]] = vector.broadcast %{{.*}} : i32 to vector<16xi32>
// KERNEL: arith.maxsi
// KERNEL: arith.minsi
// KERNEL: %[[V:.*]] = vector.load %arg0{{.*}} : memref<1x8x8x32xi8>, vector<16xi8>
// KERNEL-NOT: arith.extsi
// KERNEL: %[[E:.*]] = arith.extui %[[V]] : vector<16xi8> to vector<16xi32>
// KERNEL-NOT: arith.addi
// KERNEL: %[[R:.*]] = arith.select %{{.*}}, %[[E]], %[[Z]] : vector<16xi32>
// KERNEL: %[[S:.*]] = arith.shli %[[R]], %[[SH]] : vector<16xi32>
// KERNEL: arith.ori %[[COL0]], %[[S]] : vector<16xi32>
// KERNEL: scf.yield
// KERNEL: %[[F:.*]] = arith.xori %{{.*}}, %[[FLIP]] : vector<16xi32>
// KERNEL: %[[FB:.*]] = vector.bitcast %[[F]] : vector<16xi32> to vector<64xi8>
// KERNEL: llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"({{.*}}, %[[FB]], {{.*}})
// KERNEL: vector.store %{{.*}}, %[[OUT]]
// Interior rows unroll the kernel rows: row 0's lanes as loaded, rows 1
// and 2 shifted by the constants 8 and 16.
// KERNEL: scf.for %{{.*}} = %c0{{.*}} to %c3{{.*}} step
// KERNEL-NOT: iter_args
// KERNEL: arith.shli %{{.*}}, %[[C8]] : vector<16xi32>
// KERNEL: arith.ori
// KERNEL: arith.shli %{{.*}}, %[[C16]] : vector<16xi32>
// KERNEL: arith.ori
// KERNEL: llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"
// KERNEL: vector.store %{{.*}}, %[[OUT]]
// With AVX512-VBMI (vbmi=true) the interior rows' columns pack by byte
// permutes: each column's rows 0 and 1 as stored (16 bytes each) in one
// 64-byte table, row 2 in the other, and one vpermt2b takes row y's byte
// c into byte y of lane c (index 16y + c for rows 0-1, 64 + c for row 2;
// byte 3 meets a zero weight byte); the same xor then flips the three
// bytes. The border row keeps its loop over the kernel rows.
// VBMI-LABEL: func.func private @__qnn_kernel_dwvnni
// VBMI-SAME: "+avx512vbmi"
// VBMI-DAG: %[[PACK:.*]] = arith.constant dense<[0, 16, 64, 3, 1, 17, 65, 7, 2, 18, 66, 11, 3, 19, 67, 15, 4, 20, 68, 19, 5, 21, 69, 23, 6, 22, 70, 27, 7, 23, 71, 31, 8, 24, 72, 35, 9, 25, 73, 39, 10, 26, 74, 43, 11, 27, 75, 47, 12, 28, 76, 51, 13, 29, 77, 55, 14, 30, 78, 59, 15, 31, 79, 63]> : vector<64xi8>
// VBMI-DAG: %[[FLIP:.*]] = arith.constant dense<8421504> : vector<16xi32>
// VBMI: scf.for %{{.*}} = %c0{{.*}} to %c3{{.*}} step %{{.*}} iter_args
// VBMI: arith.shli
// VBMI: scf.for %{{.*}} = %c0{{.*}} to %c3{{.*}} step
// VBMI-NOT: iter_args
// VBMI: %[[R0:.*]] = vector.load %arg0{{.*}} : memref<1x8x8x32xi8>, vector<16xi8>
// VBMI-NOT: arith.extui
// VBMI-NOT: arith.shli
// VBMI: %[[A:.*]] = vector.shuffle %[[R0]], %[[R1:.*]] [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, -1,
// VBMI: %[[B:.*]] = vector.shuffle %[[R2:.*]], %[[R2]] [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, -1,
// VBMI: %[[P:.*]] = llvm.call_intrinsic "llvm.x86.avx512.vpermi2var.qi.512"(%[[A]], %[[PACK]], %[[B]])
// VBMI: %[[PI:.*]] = vector.bitcast %[[P]] : vector<64xi8> to vector<16xi32>
// VBMI: arith.xori %[[PI]], %[[FLIP]] : vector<16xi32>
// VBMI: llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"
// With threads: one scf.parallel over the output rows (and images, in a
// batch of more than one: kernels-parallel-batch.mlir) whose rows
// branch on being a border row (above row 0 or from row 3 on), not two
// parallel loops (each a thread-team wake-up).
// PAR-LABEL: func.func private @__qnn_kernel_dwvnni
// PAR: scf.parallel (%[[ROW:.*]]) = (%{{.*}}) to (%c4) step
// PAR: %[[A:.*]] = arith.cmpi ult, %[[ROW]], %c0{{.*}} : index
// PAR: %[[B:.*]] = arith.cmpi uge, %[[ROW]], %c3{{.*}} : index
// PAR: %[[BORDER:.*]] = arith.ori %[[A]], %[[B]] : i1
// PAR: scf.if %[[BORDER]] {
// PAR: arith.minsi
// PAR: arith.select
// PAR: } else {
// PAR-NOT: arith.minsi
// PAR: llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"
// PAR-NOT: scf.parallel
func.func @dw(%x: tensor<1x8x8x32xi8>) -> tensor<1x4x4x32xi32> {
  %w = arith.constant dense<3> : tensor<1x3x3x32xi8>
  %c = qnn.conv2d %x, %w {data_layout = #qnn.layout<NHWC>, dilations = array<i64: 1, 1>, groups = 32 : i64, input_scale = 5.000000e-01 : f32, input_zero_point = -3 : i32, kernel_layout = #qnn.kernel_layout<IHWO>, padding = array<i64: 0, 0, 1, 1>, strides = array<i64: 2, 2>, weight_scale = array<f32: 0.01>, weight_zero_point = 0 : i32} : (tensor<1x8x8x32xi8>, tensor<1x3x3x32xi8>) -> tensor<1x4x4x32xi32>
  return %c : tensor<1x4x4x32xi32>
}
