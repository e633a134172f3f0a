// With threads, a pointwise kernel whose pixels are not a whole number of
// tiles runs every tile, the last one included, through one tile body, as
// serial code does: 64 pixels are 10 tiles of 6 and a last tile ending at
// pixel 63 (first pixel min(6 u, 58)), which recomputes pixels 58 and 59
// of the tile before it. That tile runs in the same parallel iteration as
// the one before it (t = 9 loops over u = 9, 10), so that no two threads
// write the same bytes. One body of 6 rows x 4 blocks x 2 K steps = 48
// vpdpbusd and 24 unconditional stores: no second body for a short tile
// (which made the kernels' code up to 1.7 times as large) and no stores
// under conditions (which made it twice as large). 128 output channels
// are two groups of 4 blocks: 10 x 2 = 20 iterations. (When the rows past
// the end are more than 1/16 of the pixels, the short tile keeps a body
// of its own: kernels-vnni-parallel.mlir.)
// RUN: qnn-opt %s --convert-qnn-to-linalg=target=avx512-vnni --qnn-materialize-conv-kernels="parallel=true parallel-min-work=0" | FileCheck %s
// The kernel's constants are unique and at the top of its entry block
// (the builder makes one where it needs one: a quarter of MobileNet v2's
// operations were duplicates that every later pass converted one by one).
// RUN: qnn-opt %s --convert-qnn-to-linalg=target=avx512-vnni --qnn-materialize-conv-kernels="parallel=true parallel-min-work=0" | FileCheck %s --check-prefix=CONST
// CONST-LABEL: func.func private @__qnn_kernel_vnni
// CONST: arith.constant 6 : index
// CONST-NOT: arith.constant 6 : index
// CONST: scf.parallel
// CONST-NOT: arith.constant
// CONST: return

// CHECK-LABEL: func.func private @__qnn_kernel_vnni
// CHECK: scf.parallel (%[[I:.*]]) = (%{{.*}}) to (%c20) step
// CHECK: %[[TQ:.*]] = arith.divui %[[I]], %c2{{(_[0-9]+)?}} : index
// CHECK: %[[TI:.*]] = arith.index_cast %[[TQ]] : index to i64
// CHECK: %[[TO:.*]] = llvm.inline_asm "", "=r,0" %[[TI]] : (i64) -> i64
// CHECK: %[[T:.*]] = arith.index_cast %[[TO]] : i64 to index
// CHECK: %[[LAST:.*]] = arith.cmpi eq, %[[T]], %c9{{(_[0-9]+)?}} : index
// CHECK: %[[NEXT:.*]] = arith.addi %[[T]], %c1{{(_[0-9]+)?}} : index
// CHECK: %[[AFTER:.*]] = arith.addi %[[T]], %c2{{(_[0-9]+)?}} : index
// CHECK: %[[END:.*]] = arith.select %[[LAST]], %[[AFTER]], %[[NEXT]] : index
// CHECK: scf.for %[[U:.*]] = %[[T]] to %[[END]] step
// CHECK: %[[START:.*]] = arith.muli %[[U]], %c6{{(_[0-9]+)?}} : index
// CHECK: arith.minui %[[START]], %c58{{(_[0-9]+)?}} : index
// CHECK-NOT: scf.if
// CHECK-COUNT-48: llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"
// CHECK-NOT: llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"
// CHECK-NOT: scf.if
// CHECK-COUNT-24: vector.store
// CHECK-NOT: vector.store
// CHECK-NOT: llvm.call_intrinsic
// CHECK: return
func.func @pointwise(%x: tensor<1x8x8x8xi8>) -> tensor<1x8x8x128xi32> {
  %w = arith.constant dense<3> : tensor<128x1x1x8xi8>
  %c = qnn.conv2d %x, %w {data_layout = #qnn.layout<NHWC>, dilations = array<i64: 1, 1>, groups = 1 : i64, input_scale = 5.000000e-01 : f32, input_zero_point = 0 : i32, kernel_layout = #qnn.kernel_layout<OHWI>, padding = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, weight_scale = array<f32: 0.01>, weight_zero_point = 0 : i32} : (tensor<1x8x8x8xi8>, tensor<128x1x1x8xi8>) -> tensor<1x8x8x128xi32>
  return %c : tensor<1x8x8x128xi32>
}
