// DepthwiseVNNI at stride 1 with packed kernel rows: each tile's packed
// columns carry down the interior rows. Before a band, the columns hold
// kernel rows 0 and 1 of its first output row in bytes 1 and 2 (shifts
// by 8 and 16; s8 bytes flipped by one xor with 0x808000); each row of
// the band, the first included, is an scf.for iteration carrying the
// columns, in which a column drops its byte 0 (a right shift by 8) and
// takes the new input row, zero-extended and shifted into byte 2, then
// one xor with 0x800000 flips that byte: one copy of the accumulation
// and the epilogue. A column left of the input (the Static tile at
// column 0 reads input column -1) takes the zero point's lanes as its
// new row. Serial code: one band of the 16 interior rows (rows 1 to 16;
// rows 0 and 17 are border rows). With threads, the parallel loop stays
// over the 18 rows, each packing its columns anew.
// RUN: qnn-opt %s --convert-qnn-to-linalg=target=avx512-vnni --qnn-materialize-conv-kernels | FileCheck %s
// RUN: qnn-opt %s --convert-qnn-to-linalg=target=avx512-vnni --qnn-materialize-conv-kernels="parallel=true parallel-min-work=0" | FileCheck %s --check-prefix=PAR
// With AVX512-VBMI (vbmi=true: the compiler sets it for a CPU that has
// it), each column of the band slides by one two-source byte permute
// (vpermt2b) of the carried column and the new row's 16 bytes as stored
// (the zero point's byte for a column outside the input): bytes 1 and 2
// move down, the new row's byte c becomes lane c's byte 2, byte 3 stays
// 0; then the same xor flips byte 2. No zero-extension, shifts or OR per
// column and row.
// RUN: qnn-opt %s --convert-qnn-to-linalg=target=avx512-vnni --qnn-materialize-conv-kernels="vbmi=true" | FileCheck %s --check-prefix=VBMI

// CHECK-LABEL: func.func private @__qnn_kernel_dwvnni_1_20_11_16_18_9_3_3_1_1_1_1_16_1_0_0_1_18_9_1_1
// CHECK-DAG: %[[C8:.*]] = arith.constant dense<8> : vector<16xi32>
// CHECK-DAG: %[[C16:.*]] = arith.constant dense<16> : vector<16xi32>
// CHECK-DAG: %[[FLIP12:.*]] = arith.constant dense<8421376> : vector<16xi32>
// CHECK-DAG: %[[TOP:.*]] = arith.constant dense<8388608> : vector<16xi32>
// The band: the 16 rows from row 1.
// CHECK: arith.xori %{{.*}}, %[[FLIP12]] : vector<16xi32>
// CHECK-NOT: vpdpbusd
// CHECK: %{{.*}}:10 = scf.for %[[I:.*]] = %c0{{.*}} to %c16{{.*}} step %{{.*}} iter_args(%[[OUTSIDE:[^ ]*]] = %{{[0-9]+}}, %[[COL1:[^ ]*]] = %{{[0-9]+}}, {{.*}}) -> (vector<16xi32>, vector<16xi32>, vector<16xi32>, vector<16xi32>, vector<16xi32>, vector<16xi32>, vector<16xi32>, vector<16xi32>, vector<16xi32>, vector<16xi32>)
// CHECK: %[[OH:.*]] = arith.addi %{{.*}}, %[[I]] : index
// CHECK: %[[IH:.*]] = arith.addi %[[OH]], %c1{{.*}} : index
// The new row's columns are loaded first, as the rows packed before the
// band are (one loader for both).
// CHECK: %[[V:.*]] = vector.load %arg0[%{{.*}}, %[[IH]], %c0{{.*}}, %{{.*}}] : memref<1x18x9x16xi8>, vector<16xi8>
// CHECK: %[[E:.*]] = arith.extui %[[V]] : vector<16xi8> to vector<16xi32>
// CHECK: %[[ZIN:.*]] = arith.shli %{{.*}}, %[[C16]] : vector<16xi32>
// CHECK: %[[ZDOWN:.*]] = arith.shrui %[[OUTSIDE]], %[[C8]] : vector<16xi32>
// CHECK: %[[ZOR:.*]] = arith.ori %[[ZDOWN]], %[[ZIN]] : vector<16xi32>
// CHECK: %[[NEW0:.*]] = arith.xori %[[ZOR]], %[[TOP]] : vector<16xi32>
// CHECK: %[[IN:.*]] = arith.shli %[[E]], %[[C16]] : vector<16xi32>
// CHECK: %[[DOWN:.*]] = arith.shrui %[[COL1]], %[[C8]] : vector<16xi32>
// CHECK: %[[OR:.*]] = arith.ori %[[DOWN]], %[[IN]] : vector<16xi32>
// CHECK: %[[NEW1:.*]] = arith.xori %[[OR]], %[[TOP]] : vector<16xi32>
// CHECK: llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"
// CHECK: vector.store
// CHECK: scf.yield %[[NEW0]], %[[NEW1]],
// VBMI-LABEL: func.func private @__qnn_kernel_dwvnni_1_20_11_16_18_9_3_3_1_1_1_1_16_1_0_0_1_18_9_1_1
// VBMI-SAME: target_features = #llvm.target_features<["+avx512f", "+avx512bw", "+avx512vnni", "+avx512vbmi"]>
// VBMI-DAG: %[[SLIDE:.*]] = arith.constant dense<[1, 2, 64, 3, 5, 6, 65, 7, 9, 10, 66, 11, 13, 14, 67, 15, 17, 18, 68, 19, 21, 22, 69, 23, 25, 26, 70, 27, 29, 30, 71, 31, 33, 34, 72, 35, 37, 38, 73, 39, 41, 42, 74, 43, 45, 46, 75, 47, 49, 50, 76, 51, 53, 54, 77, 55, 57, 58, 78, 59, 61, 62, 79, 63]> : vector<64xi8>
// VBMI-DAG: %[[TOP:.*]] = arith.constant dense<8388608> : vector<16xi32>
// VBMI: %[[ZB:.*]] = arith.trunci %{{.*}} : vector<16xi32> to vector<16xi8>
// VBMI: %{{.*}}:10 = scf.for %[[I:.*]] = %c0{{.*}} to %c16{{.*}} step %{{.*}} iter_args(%[[OUTSIDE:[^ ]*]] = %{{[0-9]+}}, %[[COL1:[^ ]*]] = %{{[0-9]+}}, {{.*}}) -> (vector<16xi32>, vector<16xi32>, vector<16xi32>, vector<16xi32>, vector<16xi32>, vector<16xi32>, vector<16xi32>, vector<16xi32>, vector<16xi32>, vector<16xi32>)
// VBMI: %[[V:.*]] = vector.load %arg0[%{{.*}}, %{{.*}}, %c0{{.*}}, %{{.*}}] : memref<1x18x9x16xi8>, vector<16xi8>
// VBMI-NOT: arith.extui
// VBMI: %[[ZW:.*]] = vector.shuffle %[[ZB]], %[[ZB]] [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, -1,
// VBMI: %[[VW:.*]] = vector.shuffle %[[V]], %[[V]] [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, -1,
// VBMI: %[[ZC:.*]] = vector.bitcast %[[OUTSIDE]] : vector<16xi32> to vector<64xi8>
// VBMI: %[[ZP:.*]] = llvm.call_intrinsic "llvm.x86.avx512.vpermi2var.qi.512"(%[[ZC]], %[[SLIDE]], %[[ZW]])
// VBMI: %[[ZI:.*]] = vector.bitcast %[[ZP]] : vector<64xi8> to vector<16xi32>
// VBMI: %[[NEW0:.*]] = arith.xori %[[ZI]], %[[TOP]] : vector<16xi32>
// VBMI: %[[C:.*]] = vector.bitcast %[[COL1]] : vector<16xi32> to vector<64xi8>
// VBMI: %[[P:.*]] = llvm.call_intrinsic "llvm.x86.avx512.vpermi2var.qi.512"(%[[C]], %[[SLIDE]], %[[VW]])
// VBMI: %[[PI:.*]] = vector.bitcast %[[P]] : vector<64xi8> to vector<16xi32>
// VBMI: %[[NEW1:.*]] = arith.xori %[[PI]], %[[TOP]] : vector<16xi32>
// VBMI-NOT: arith.shrui
// VBMI: llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"
// VBMI: scf.yield %[[NEW0]], %[[NEW1]],
// PAR-LABEL: func.func private @__qnn_kernel_dwvnni
// PAR: scf.parallel (%{{.*}}) = (%c0{{.*}}) to (%c18{{.*}}) step
// PAR-NOT: arith.shrui
// PAR: scf.reduce
func.func @dw_rows(%x: tensor<1x18x9x16xi8>) -> tensor<1x18x9x16xi32> {
  %w = arith.constant dense<[[[[2, 55, -114, 110, -1, -102, -48, -71, 62, 112, -2, 66, -76, -1, -122, -18], [80, 15, -35, 71, -47, -92, -57, 99, -64, -61, -128, -126, -21, -18, -44, -43], [20, 32, -27, -24, -35, -28, 68, 24, -117, 56, 84, -44, -54, 7, -95, 41]], [[26, -127, 45, -95, 30, 53, 28, 118, 33, -34, 118, 113, -38, -99, 3, -117], [55, 78, -119, 86, 59, 64, -124, 103, -105, -36, -28, -68, -3, 108, 48, 53], [0, 108, -73, 60, 23, -110, 93, -82, -22, 46, 57, -53, 46, 13, -81, 31]], [[34, 28, -38, -88, -52, 30, 119, -46, -104, -87, 79, -112, -7, 48, 0, 105], [87, -54, -100, -112, 124, 43, -22, -62, -61, 83, -74, -42, 94, 62, -52, -98], [87, 22, -56, 104, -42, 104, 121, 34, 117, 12, 21, 112, 78, -53, -71, 65]]]]> : tensor<1x3x3x16xi8>
  %c = qnn.conv2d %x, %w {data_layout = #qnn.layout<NHWC>, dilations = array<i64: 1, 1>, groups = 16 : i64, input_scale = 5.000000e-01 : f32, input_zero_point = -3 : i32, kernel_layout = #qnn.kernel_layout<IHWO>, padding = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>, weight_scale = array<f32: 0.01>, weight_zero_point = 0 : i32} : (tensor<1x18x9x16xi8>, tensor<1x3x3x16xi8>) -> tensor<1x18x9x16xi32>
  return %c : tensor<1x18x9x16xi32>
}
