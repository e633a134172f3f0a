// RUN: qnn-opt %s --split-input-file --pass-pipeline="builtin.module(func.func(qnn-plan-buffers))" | FileCheck %s

// Three temporaries in a chain: %a (live until the expand_shape view of it
// is copied) and %c do not overlap and share offset 0; %b overlaps both
// and goes to the next 64-byte boundary. One workspace, freed at the end.
// CHECK-LABEL: func.func @chain
// CHECK-NEXT: %[[WS:.*]] = memref.alloc() {alignment = 64 : i64} : memref<128xi8>
// CHECK-NOT: memref.alloc
// CHECK: %[[C0:.*]] = arith.constant 0 : index
// CHECK: %[[A:.*]] = memref.view %[[WS]][%[[C0]]][] : memref<128xi8> to memref<16xi32>
// CHECK: %[[C64:.*]] = arith.constant 64 : index
// CHECK: %[[B:.*]] = memref.view %[[WS]][%[[C64]]][] : memref<128xi8> to memref<4x4xi32>
// CHECK: %[[C0B:.*]] = arith.constant 0 : index
// CHECK: %[[C:.*]] = memref.view %[[WS]][%[[C0B]]][] : memref<128xi8> to memref<16xi32>
// CHECK: memref.copy %[[C]], %arg1
// CHECK-NEXT: memref.dealloc %[[WS]] : memref<128xi8>
// CHECK-NEXT: return
func.func @chain(%in: memref<16xi32>, %out: memref<16xi32>) {
  %a = memref.alloc() {alignment = 64 : i64} : memref<16xi32>
  memref.copy %in, %a : memref<16xi32> to memref<16xi32>
  %b = memref.alloc() {alignment = 64 : i64} : memref<4x4xi32>
  %ac = memref.expand_shape %a [[0, 1]] output_shape [4, 4] : memref<16xi32> into memref<4x4xi32>
  memref.copy %ac, %b : memref<4x4xi32> to memref<4x4xi32>
  %c = memref.alloc() {alignment = 64 : i64} : memref<16xi32>
  %bc = memref.collapse_shape %b [[0, 1]] : memref<4x4xi32> into memref<16xi32>
  memref.copy %bc, %c : memref<16xi32> to memref<16xi32>
  memref.copy %c, %out : memref<16xi32> to memref<16xi32>
  memref.dealloc %a : memref<16xi32>
  memref.dealloc %b : memref<4x4xi32>
  memref.dealloc %c : memref<16xi32>
  return
}

// -----

// A buffer used inside a loop lives until the end of the loop: the buffer
// allocated after the loop reuses its memory, the one used in the loop
// beside it does not. Mixed element sizes: offsets are in bytes.
// CHECK-LABEL: func.func @loop
// CHECK: %[[WS:.*]] = memref.alloc() {alignment = 64 : i64} : memref<192xi8>
// CHECK: memref.view %[[WS]][%{{.*}}][] : memref<192xi8> to memref<8xi8>
// CHECK: memref.view %[[WS]][%{{.*}}][] : memref<192xi8> to memref<32xi32>
// CHECK: scf.for
// CHECK: }
// CHECK: memref.view %[[WS]][%{{.*}}][] : memref<192xi8> to memref<8xi8>
// CHECK: memref.dealloc %[[WS]]
func.func @loop(%out: memref<8xi8>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %v = arith.constant 7 : i8
  %w = arith.constant 9 : i32
  %a = memref.alloc() {alignment = 64 : i64} : memref<8xi8>
  %b = memref.alloc() {alignment = 64 : i64} : memref<32xi32>
  scf.for %i = %c0 to %c8 step %c1 {
    memref.store %v, %a[%i] : memref<8xi8>
    memref.store %w, %b[%i] : memref<32xi32>
  }
  %c = memref.alloc() {alignment = 64 : i64} : memref<8xi8>
  memref.copy %c, %out : memref<8xi8> to memref<8xi8>
  memref.dealloc %a : memref<8xi8>
  memref.dealloc %b : memref<32xi32>
  memref.dealloc %c : memref<8xi8>
  return
}

// -----

// Buffers that escape or are not simple stay allocations: a returned
// buffer, one aliased by an operation that is not a view, one never freed,
// and a dynamically sized one.
// CHECK-LABEL: func.func @escapes
// CHECK-NOT: memref.view
// CHECK: memref.alloc() : memref<4xi8>
// CHECK: memref.alloc() : memref<4xi8>
// CHECK: memref.alloc() : memref<4xi8>
// CHECK: memref.alloc(%arg1) : memref<?xi8>
// CHECK-NOT: memref.view
func.func @escapes(%cond: i1, %n: index, %x: memref<4xi8>) -> memref<4xi8> {
  %returned = memref.alloc() : memref<4xi8>
  %selected = memref.alloc() : memref<4xi8>
  %s = arith.select %cond, %selected, %x : memref<4xi8>
  memref.dealloc %selected : memref<4xi8>
  %leaked = memref.alloc() : memref<4xi8>
  %dynamic = memref.alloc(%n) : memref<?xi8>
  memref.dealloc %dynamic : memref<?xi8>
  return %returned : memref<4xi8>
}

// -----

// Functions with several blocks are left alone.
// CHECK-LABEL: func.func @blocks
// CHECK: memref.alloc() : memref<4xi8>
// CHECK-NOT: memref.view
func.func @blocks(%cond: i1) {
  %a = memref.alloc() : memref<4xi8>
  cf.cond_br %cond, ^bb1, ^bb2
^bb1:
  cf.br ^bb2
^bb2:
  memref.dealloc %a : memref<4xi8>
  return
}
