// With threads (qnn-materialize-conv-kernels{parallel}) a GEMM-shaped
// kernel is one scf.parallel over every (pixel tile, channel group) pair:
// 14 pixels are two tiles of 6 and a rest tile of 2 (one more iteration,
// not a serial loop after the parallel one; 2 rows x 4 blocks x 2 K steps
// = 16 vpdpbusd), and 128 output channels are 8
// blocks of 16, two groups of 4 blocks, so 3 x 2 = 6 iterations; each
// iteration takes its tile from i / 2 and its channel group from i mod 2
// (each through an empty inline-asm copy: LLVM's loop strength reduction
// no longer carries them into every address), whose blocks start at block
// (i mod 2) * 4 with no loop over them.
// RUN: qnn-opt %s --convert-qnn-to-linalg=target=avx512-vnni --qnn-materialize-conv-kernels="parallel=true parallel-min-work=0" | FileCheck %s
// Serial code loops over every group in each tile.
// RUN: qnn-opt %s --convert-qnn-to-linalg=target=avx512-vnni --qnn-materialize-conv-kernels | FileCheck %s --check-prefix=SERIAL

// CHECK-LABEL: func.func private @__qnn_kernel_vnni
// CHECK: scf.parallel (%[[I:.*]]) = (%{{.*}}) to (%c6) step
// CHECK: %[[TQ:.*]] = arith.divui %[[I]], %c2{{(_[0-9]+)?}} : index
// CHECK: %[[TI:.*]] = arith.index_cast %[[TQ]] : index to i64
// CHECK: %[[TO:.*]] = llvm.inline_asm "", "=r,0" %[[TI]] : (i64) -> i64
// CHECK: %[[T:.*]] = arith.index_cast %[[TO]] : i64 to index
// CHECK: %[[GQ:.*]] = arith.remui %[[I]], %c2{{(_[0-9]+)?}} : index
// CHECK: %[[GI:.*]] = arith.index_cast %[[GQ]] : index to i64
// CHECK: %[[GO:.*]] = llvm.inline_asm "", "=r,0" %[[GI]] : (i64) -> i64
// CHECK: %[[G:.*]] = arith.index_cast %[[GO]] : i64 to index
// CHECK: %[[FULL:.*]] = arith.cmpi ult, %[[T]], %c2{{(_[0-9]+)?}} : index
// CHECK: scf.if %[[FULL]] {
// CHECK: %[[LO:.*]] = arith.muli %[[G]], %c4{{(_[0-9]+)?}} : index
// CHECK-NOT: scf.for %{{.*}} = %[[LO]]
// CHECK: llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"
// CHECK: } else {
// CHECK: arith.addi %c12{{(_[0-9]+)?}}, %c1
// CHECK-NOT: scf.parallel
// CHECK-NOT: step %c4
// CHECK-COUNT-16: llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"
// CHECK-NOT: llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"
// CHECK: vector.store %{{.*}}, %{{.*}}[%{{.*}}, %c0, %c12, %{{.*}}] : memref<1x1x14x128xi32>, vector<16xi32>
// CHECK: return

// SERIAL-LABEL: func.func private @__qnn_kernel_vnni
// SERIAL-NOT: scf.parallel
// SERIAL: scf.for %{{.*}} = %c0{{(_[0-9]+)?}} to %c8{{(_[0-9]+)?}} step %c4
func.func @pointwise(%x: tensor<1x2x7x8xi8>) -> tensor<1x2x7x128xi32> {
  %w = arith.constant dense<3> : tensor<128x1x1x8xi8>
  %c = qnn.conv2d %x, %w {data_layout = #qnn.layout<NHWC>, dilations = array<i64: 1, 1>, groups = 1 : i64, input_scale = 5.000000e-01 : f32, input_zero_point = 0 : i32, kernel_layout = #qnn.kernel_layout<OHWI>, padding = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, weight_scale = array<f32: 0.01>, weight_zero_point = 0 : i32} : (tensor<1x2x7x8xi8>, tensor<128x1x1x8xi8>) -> tensor<1x2x7x128xi32>
  return %c : tensor<1x2x7x128xi32>
}
