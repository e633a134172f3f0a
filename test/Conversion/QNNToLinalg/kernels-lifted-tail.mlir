// Three npu.conv2d layers that differ only in their output zero point and
// clamp bounds share one kernel (Inputs/lifted_tail.py):
// qnn-fuse-kernel-epilogues lifts those constants to per-channel arguments
// of the epilogue and records each layer's range of every argument
// (qnn.argument_ranges). From the ranges the kernel proves its packed
// narrowing exact for every layer (|zp| <= 32512, each layer's
// [lo + zp, hi + zp] within the signed byte range) and packs the lifted
// vectors as it packs the outputs: the zero points as the words of each
// vpackssdw pair (a saturating add; 1 + 2 zp for a halved tail), the bounds as bytes (a byte max and
// min), once per channel group. Without the ranges each vector took an i32
// clamp and its own narrowing store.
// RUN: python3 %S/../../Execution/Inputs/lifted_tail.py 16 64 1 2 3 > %t.mlir
// RUN: qnn-opt %t.mlir --pass-pipeline='builtin.module(convert-qnn-to-linalg{target=avx512-vnni floor-affine=false},func.func(tosa-to-linalg-named,tosa-to-linalg,tosa-to-arith,tosa-to-tensor),canonicalize,linalg-fuse-elementwise-ops,qnn-fuse-kernel-epilogues)' | FileCheck %s --check-prefix=FUSE
// RUN: qnn-opt %t.mlir --pass-pipeline='builtin.module(convert-qnn-to-linalg{target=avx512-vnni floor-affine=false},func.func(tosa-to-linalg-named,tosa-to-linalg,tosa-to-arith,tosa-to-tensor),canonicalize,linalg-fuse-elementwise-ops,qnn-fuse-kernel-epilogues,one-shot-bufferize{bufferize-function-boundaries},qnn-materialize-conv-kernels)' | FileCheck %s
// The int16 (AVX2) kernel packs them the same way (packBytes8).
// RUN: qnn-opt %t.mlir --pass-pipeline='builtin.module(convert-qnn-to-linalg{target=int16},func.func(tosa-to-linalg-named,tosa-to-linalg,tosa-to-arith,tosa-to-tensor),canonicalize,linalg-fuse-elementwise-ops,qnn-fuse-kernel-epilogues,one-shot-bufferize{bufferize-function-boundaries},qnn-materialize-conv-kernels)' | FileCheck %s --check-prefix=INT16
// uint8 layers: the unsigned byte pack.
// RUN: python3 %S/../../Execution/Inputs/lifted_tail.py 16 64 1 2 3 u8 > %t.u8.mlir
// RUN: qnn-opt %t.u8.mlir --pass-pipeline='builtin.module(convert-qnn-to-linalg{target=avx512-vnni floor-affine=false},func.func(tosa-to-linalg-named,tosa-to-linalg,tosa-to-arith,tosa-to-tensor),canonicalize,linalg-fuse-elementwise-ops,qnn-fuse-kernel-epilogues,one-shot-bufferize{bufferize-function-boundaries},qnn-materialize-conv-kernels)' | FileCheck %s --check-prefix=U8

// One kernel for the three calls. Epilogue arguments: bias, multiplier,
// shift, then the lifted zero point (33, -7, -128), hi - zp (93, 107, 248)
// and lo - zp (7, 2, 8).
// FUSE: call @[[K:__qnn_kernel_vnni_[_0-9a-z]*_epilogue0]](
// FUSE: call @[[K]](
// FUSE: call @[[K]](
// FUSE: func.func private @[[K]]_fn(%{{[a-z0-9]+}}: i32, %{{[a-z0-9]+}}: i32, %{{[a-z0-9]+}}: i32, %{{[a-z0-9]+}}: i32, %[[ZP:[a-z0-9]+]]: i32, %[[HI:[a-z0-9]+]]: i32, %[[LO:[a-z0-9]+]]: i32) -> i8
// FUSE-SAME: qnn.argument_ranges = array<i64: {{[-0-9, ]+}}, 33, 33, 93, 93, 7, 7, {{[-0-9, ]+}}, -7, -7, 107, 107, 2, 2, {{[-0-9, ]+}}, -128, -128, 248, 248, 8, 8>
// FUSE: arith.maxsi %{{.*}}, %[[LO]] : i32
// FUSE: arith.minsi %{{.*}}, %[[HI]] : i32
// FUSE: arith.addi %{{.*}}, %[[ZP]] : i32

// The kernel is pipelined (2 units of 3 pixels; the second applies the
// first's epilogue), the packed vectors made once per unit.
// CHECK-LABEL: func.func private @__qnn_kernel_vnni_1_2_3_16_
// CHECK-SAME: %[[ZPS:arg6]]: memref<64xi32>
// CHECK: scf.for %{{.*}} = %c1{{.*}} to %c2{{.*}} step %{{.*}} iter_args
// CHECK: %[[Z0:.*]] = vector.load %[[ZPS]][
// CHECK: %[[Z1:.*]] = vector.load %[[ZPS]][
// CHECK: %[[Z2:.*]] = vector.load %[[ZPS]][
// CHECK: %[[Z3:.*]] = vector.load %[[ZPS]][
// CHECK: %[[ZW0:.*]] = llvm.call_intrinsic "llvm.x86.avx512.packssdw.512"(%[[Z0]], %[[Z1]])
// CHECK: %[[ZW1:.*]] = llvm.call_intrinsic "llvm.x86.avx512.packssdw.512"(%[[Z2]], %[[Z3]])
// The tail is halved (ConvKernelEpilogue.cpp, halvedTail: every shift >= 2, |zp|
// <= 8191): the words add 1 + 2 zp and shift right by 1.
// CHECK: %[[ZD0:.*]] = arith.shli %[[ZW0]], %[[ONE:.*]] : vector<32xi16>
// CHECK-NEXT: %[[ZH0:.*]] = arith.addi %[[ZD0]], %[[ONE]] : vector<32xi16>
// CHECK-NEXT: %[[ZD1:.*]] = arith.shli %[[ZW1]], %[[ONE]] : vector<32xi16>
// CHECK-NEXT: %[[ZH1:.*]] = arith.addi %[[ZD1]], %[[ONE]] : vector<32xi16>
// CHECK: %[[LOB:.*]] = llvm.call_intrinsic "llvm.x86.avx512.packsswb.512"
// CHECK: %[[HIB:.*]] = llvm.call_intrinsic "llvm.x86.avx512.packsswb.512"
// CHECK-NOT: arith.maxsi {{.*}} : vector<16xi32>
// CHECK: %[[S0:.*]] = llvm.intr.sadd.sat(%{{.*}}, %[[ZH0]])
// CHECK-NEXT: arith.shrsi %[[S0]], %[[ONE]] : vector<32xi16>
// CHECK: %[[S1:.*]] = llvm.intr.sadd.sat(%{{.*}}, %[[ZH1]])
// CHECK-NEXT: arith.shrsi %[[S1]], %[[ONE]] : vector<32xi16>
// CHECK: %[[B:.*]] = llvm.call_intrinsic "llvm.x86.avx512.packsswb.512"
// CHECK: %[[MX:.*]] = arith.maxsi %[[B]], %[[LOB]] : vector<64xi8>
// CHECK: arith.minsi %[[MX]], %[[HIB]] : vector<64xi8>
// CHECK: vector.store %{{.*}} : memref<1x1x6x64xi8>, vector<64xi8>

// INT16-LABEL: func.func private @__qnn_kernel_int16_1_2_3_16_
// INT16: %[[ZW:.*]] = llvm.call_intrinsic "llvm.x86.avx2.packssdw"
// INT16-NEXT: %[[ZD:.*]] = arith.shli %[[ZW]], %[[ONE:.*]] : vector<16xi16>
// INT16-NEXT: %[[ZH:.*]] = arith.addi %[[ZD]], %[[ONE]] : vector<16xi16>
// INT16: %[[LOB:.*]] = llvm.call_intrinsic "llvm.x86.avx2.packsswb"
// INT16: %[[HIB:.*]] = llvm.call_intrinsic "llvm.x86.avx2.packsswb"
// INT16: %[[S:.*]] = llvm.intr.sadd.sat(%{{.*}}, %[[ZH]])
// INT16-NEXT: arith.shrsi %[[S]], %[[ONE]] : vector<16xi16>
// INT16: %[[B:.*]] = llvm.call_intrinsic "llvm.x86.avx2.packsswb"
// INT16: %[[MX:.*]] = arith.maxsi %[[B]], %[[LOB]] : vector<32xi8>
// INT16: arith.minsi %[[MX]], %[[HIB]] : vector<32xi8>
// INT16: vector.store %{{.*}} vector<16xi8>

// U8-LABEL: func.func private @__qnn_kernel_vnni_1_2_3_16_
// U8: %[[LOB:.*]] = llvm.call_intrinsic "llvm.x86.avx512.packuswb.512"
// U8: %[[HIB:.*]] = llvm.call_intrinsic "llvm.x86.avx512.packuswb.512"
// U8: %[[B:.*]] = llvm.call_intrinsic "llvm.x86.avx512.packuswb.512"
// U8: %[[MX:.*]] = arith.maxui %[[B]], %[[LOB]] : vector<64xi8>
// U8: arith.minui %[[MX]], %[[HIB]] : vector<64xi8>
