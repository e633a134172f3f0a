// Serial GEMM kernels loop over their output channel groups outside the
// pixel tiles, so that each group's weights are read once for all tiles,
// when the packed weights exceed 384 KiB (640 x 640 here: 400 KiB);
// 14 pixels: two tiles of 6 and a rest tile of 2; 640 channels: 40 blocks
// of 16, 10 groups of 4.
// RUN: qnn-opt %s --convert-qnn-to-linalg=target=avx512-vnni --qnn-materialize-conv-kernels | FileCheck %s
// With threads the parallel iteration i stays tile-major (tile i / 10,
// group i mod 10): threads own whole pixels, no cache line is written by
// both.
// RUN: qnn-opt %s --convert-qnn-to-linalg=target=avx512-vnni --qnn-materialize-conv-kernels="parallel=true parallel-min-work=0" | FileCheck %s --check-prefix=PAR
// A kernel of small weights stays tile-major: the tile loop, then every
// group of 4 of its 8 blocks inside it. Its 16384 pixels are 2730 tiles of
// 6 and a rest of 4: serial code runs one more tile, from pixel 16378 (the
// last 6), which recomputes pixels 16378 and 16379 of the tile before it,
// through the same body (arith.minui), and no rest tile follows.
// RUN: qnn-opt %s --convert-qnn-to-linalg=target=avx512-vnni --qnn-materialize-conv-kernels | FileCheck %s --check-prefix=SMALL

// CHECK-LABEL: func.func private @__qnn_kernel_vnni_1_2_7_640
// CHECK: scf.for %{{.*}} = %c0{{.*}} to %c1{{.*}} step %c1
// CHECK: scf.for %[[G:.*]] = %c0{{.*}} to %c10{{.*}} step %c1
// CHECK: scf.for %[[T:.*]] = %c0{{.*}} to %c2{{.*}} step %c1
// The group's 4 blocks from block G * 4, with no loop over them.
// CHECK: %[[LO:.*]] = arith.muli %[[G]], %c4{{.*}} : index
// CHECK-NOT: scf.for %{{.*}} = %[[LO]]
// CHECK: llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"
// The rest tile of the group (pixels 12 and 13 of the [1, 14] plane the
// pointwise kernel sees), after its full tiles.
// CHECK: arith.addi %c12{{.*}}, %c1
// CHECK: arith.muli %[[G]], %c4
// CHECK: llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"
// CHECK: vector.store %{{.*}}, %{{.*}}[%{{.*}}, %c0, %c12, %{{.*}}] : memref<1x1x14x640xi32>, vector<16xi32>

// PAR-LABEL: func.func private @__qnn_kernel_vnni_1_2_7_640
// PAR: scf.parallel (%[[I:.*]]) = (%{{.*}}) to (%c30) step
// PAR: %[[TQ:.*]] = arith.divui %[[I]], %c10{{(_[0-9]+)?}} : index
// PAR: %[[TI:.*]] = arith.index_cast %[[TQ]] : index to i64
// PAR: %[[TO:.*]] = llvm.inline_asm "", "=r,0" %[[TI]] : (i64) -> i64
// PAR: %[[T:.*]] = arith.index_cast %[[TO]] : i64 to index
// PAR: %[[GQ:.*]] = arith.remui %[[I]], %c10{{(_[0-9]+)?}} : index
// PAR: %[[GI:.*]] = arith.index_cast %[[GQ]] : index to i64
// PAR: %[[GO:.*]] = llvm.inline_asm "", "=r,0" %[[GI]] : (i64) -> i64
// PAR: %[[G:.*]] = arith.index_cast %[[GO]] : i64 to index
// PAR: arith.cmpi ult, %[[T]], %c2

// SMALL-LABEL: func.func private @__qnn_kernel_vnni_1_64_256_64_
// SMALL: scf.for %{{.*}} = %c0{{.*}} to %c1{{.*}} step %c1
// SMALL: scf.for %[[T:.*]] = %c0{{.*}} to %c2731{{.*}} step %c1
// SMALL: %[[FIRST:.*]] = arith.muli %[[T]], %c6
// SMALL: arith.minui %[[FIRST]], %c16378
// SMALL: scf.for %{{.*}} = %c0{{.*}} to %c8{{.*}} step %c4
// SMALL-NOT: %c2730
// SMALL: return
func.func @big(%x: tensor<1x2x7x640xi8>) -> tensor<1x2x7x640xi32> {
  %w = arith.constant dense<3> : tensor<640x1x1x640xi8>
  %c = qnn.conv2d %x, %w {data_layout = #qnn.layout<NHWC>, dilations = array<i64: 1, 1>, groups = 1 : i64, input_scale = 5.000000e-01 : f32, input_zero_point = 0 : i32, kernel_layout = #qnn.kernel_layout<OHWI>, padding = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, weight_scale = array<f32: 0.01>, weight_zero_point = 0 : i32} : (tensor<1x2x7x640xi8>, tensor<640x1x1x640xi8>) -> tensor<1x2x7x640xi32>
  return %c : tensor<1x2x7x640xi32>
}
func.func @small(%x: tensor<1x64x256x64xi8>) -> tensor<1x64x256x128xi32> {
  %w = arith.constant dense<3> : tensor<128x1x1x64xi8>
  %c = qnn.conv2d %x, %w {data_layout = #qnn.layout<NHWC>, dilations = array<i64: 1, 1>, groups = 1 : i64, input_scale = 5.000000e-01 : f32, input_zero_point = 0 : i32, kernel_layout = #qnn.kernel_layout<OHWI>, padding = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, weight_scale = array<f32: 0.01>, weight_zero_point = 0 : i32} : (tensor<1x64x256x64xi8>, tensor<128x1x1x64xi8>) -> tensor<1x64x256x128xi32>
  return %c : tensor<1x64x256x128xi32>
}
