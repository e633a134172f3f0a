// With threads, a pointwise kernel whose pixels are not a whole number of
// tiles runs every tile, the last one included, through one tile body:
// 64 pixels are 10 tiles of 6 and a last tile whose rows 4 and 5 fall past
// the end. Those rows read the last pixel (arith.minui with 63) and store
// nothing (scf.if on pixel < 64); rows 0-3 always store. One body of
// 6 rows x 4 blocks x 2 K steps = 48 vpdpbusd, no second body for the
// short tile (which made the kernels' code up to 1.7 times as large). 128
// output channels are two groups of 4 blocks: 11 x 2 = 22 iterations.
// (When the rows past the end are more than 1/16 of the pixels, the short
// tile keeps a body of its own: kernels-vnni-parallel.mlir.)
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
// CHECK: scf.parallel (%[[I:.*]]) = (%{{.*}}) to (%c22) step
// CHECK: %[[T:.*]] = arith.divui %[[I]], %c2{{(_[0-9]+)?}} : index
// CHECK: %[[FIRST:.*]] = arith.muli %[[T]], %c6{{(_[0-9]+)?}} : index
// CHECK-NOT: scf.if
// CHECK: %[[P4:.*]] = arith.addi %[[FIRST]], %c4{{(_[0-9]+)?}} : index
// CHECK: %[[IN4:.*]] = arith.cmpi ult, %[[P4]], %c64{{(_[0-9]+)?}} : index
// CHECK: arith.minui %[[P4]], %c63{{(_[0-9]+)?}} : index
// CHECK: %[[P5:.*]] = arith.addi %[[FIRST]], %c5{{(_[0-9]+)?}} : index
// CHECK: %[[IN5:.*]] = arith.cmpi ult, %[[P5]], %c64{{(_[0-9]+)?}} : index
// CHECK: arith.minui %[[P5]], %c63{{(_[0-9]+)?}} : index
// CHECK: scf.for
// CHECK-COUNT-48: llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"
// CHECK-NOT: llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"
// CHECK-COUNT-16: vector.store
// CHECK-NEXT: scf.if %[[IN4]] {
// CHECK-COUNT-4: vector.store
// CHECK: scf.if %[[IN5]] {
// CHECK-COUNT-4: vector.store
// CHECK-NOT: vector.store
// CHECK-NOT: llvm.call_intrinsic
// CHECK: return
func.func @pointwise(%x: tensor<1x8x8x8xi8>) -> tensor<1x8x8x128xi32> {
  %w = arith.constant dense<3> : tensor<128x1x1x8xi8>
  %c = qnn.conv2d %x, %w {data_layout = #qnn.layout<NHWC>, dilations = array<i64: 1, 1>, groups = 1 : i64, input_scale = 5.000000e-01 : f32, input_zero_point = 0 : i32, kernel_layout = #qnn.kernel_layout<OHWI>, padding = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, weight_scale = array<f32: 0.01>, weight_zero_point = 0 : i32} : (tensor<1x8x8x8xi8>, tensor<128x1x1x8xi8>) -> tensor<1x8x8x128xi32>
  return %c : tensor<1x8x8x128xi32>
}
