// RUN: qnn-opt %s --split-input-file --pass-pipeline="builtin.module(func.func(qnn-copies-to-linalg))" | FileCheck %s

// A copy into a strided slice becomes linalg.copy.
// CHECK-LABEL: func.func @strided
// CHECK: %[[SV:.*]] = memref.subview
// CHECK-NOT: memref.copy
// CHECK: linalg.copy ins(%arg0 : memref<1x4x4x3xi8>) outs(%[[SV]] : memref<1x4x4x3xi8, strided<[144, 24, 4, 1], offset: 28>>)
func.func @strided(%src: memref<1x4x4x3xi8>, %dst: memref<1x6x6x4xi8>) {
  %sv = memref.subview %dst[0, 1, 1, 0] [1, 4, 4, 3] [1, 1, 1, 1] : memref<1x6x6x4xi8> to memref<1x4x4x3xi8, strided<[144, 24, 4, 1], offset: 28>>
  memref.copy %src, %sv : memref<1x4x4x3xi8> to memref<1x4x4x3xi8, strided<[144, 24, 4, 1], offset: 28>>
  return
}

// -----

// Contiguous copies stay (they become a memcpy).
// CHECK-LABEL: func.func @contiguous
// CHECK: memref.copy %arg0, %arg1
// CHECK-NOT: linalg.copy
func.func @contiguous(%src: memref<8x16xi32>, %dst: memref<8x16xi32>) {
  memref.copy %src, %dst : memref<8x16xi32> to memref<8x16xi32>
  return
}

// -----

// A copy of a slice onto itself does nothing and is erased (it would
// become a loop nest that reads and writes every element).
// CHECK-LABEL: func.func @self_copy
// CHECK-NEXT: return
func.func @self_copy(%dst: memref<1x6x6x4xi8>) {
  %sv = memref.subview %dst[0, 1, 1, 0] [1, 4, 4, 3] [1, 1, 1, 1] : memref<1x6x6x4xi8> to memref<1x4x4x3xi8, strided<[144, 24, 4, 1], offset: 28>>
  memref.copy %sv, %sv : memref<1x4x4x3xi8, strided<[144, 24, 4, 1], offset: 28>> to memref<1x4x4x3xi8, strided<[144, 24, 4, 1], offset: 28>>
  return
}
