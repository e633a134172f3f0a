// qnn-prepare-llvm-lowering: the memref views and vector operations that
// convert-to-llvm cannot lower directly are rewritten (subview and
// expand_shape to reinterpret_cast, 1-D transfers to loads, strided slices
// to shuffles), dead operations erased, and vector loads and stores get
// their element type's alignment; everything else stays as it was. The
// pass has no diagnostics of its own for verified input (it reports only a
// rewrite that does not converge, which upstream's patterns do not reach).
// RUN: qnn-opt %s --qnn-prepare-llvm-lowering --split-input-file | FileCheck %s
// The result converts with convert-to-llvm alone (no vector, memref view
// or unrealized cast left).
// RUN: qnn-opt %s --qnn-prepare-llvm-lowering --lower-affine --convert-scf-to-cf --convert-to-llvm --reconcile-unrealized-casts --split-input-file | FileCheck %s --check-prefix=LLVM

// CHECK-LABEL: func.func @views
// CHECK-NOT: memref.subview
// CHECK-NOT: memref.expand_shape
// CHECK: memref.reinterpret_cast %{{.*}} to offset: [16], sizes: [4, 8], strides: [8, 1]
// CHECK: memref.reinterpret_cast %{{.*}} to offset: [0], sizes: [2, 4, 8], strides: [32, 8, 1]
// CHECK: memref.load
// LLVM-LABEL: llvm.func @views
// LLVM-NOT: memref.
// LLVM-NOT: unrealized_conversion_cast
// LLVM: llvm.return
func.func @views(%m: memref<8x8xi8>) -> i8 {
  %c0 = arith.constant 0 : index
  %s = memref.subview %m[2, 0] [4, 8] [1, 1] : memref<8x8xi8> to memref<4x8xi8, strided<[8, 1], offset: 16>>
  %v = memref.load %s[%c0, %c0] : memref<4x8xi8, strided<[8, 1], offset: 16>>
  %e = memref.expand_shape %m [[0, 1], [2]] output_shape [2, 4, 8] : memref<8x8xi8> into memref<2x4x8xi8>
  %w = memref.load %e[%c0, %c0, %c0] : memref<2x4x8xi8>
  %r = arith.addi %v, %w : i8
  return %r : i8
}

// -----

// A 1-D in-bounds transfer becomes a vector.load, a masked one a
// vector.maskedload; a strided slice of a 1-D vector a vector.shuffle.
// Alignments: i8 1, i32 4, i64 8; an explicit one is kept.
// CHECK-LABEL: func.func @vectors
// CHECK: vector.load %{{.*}} {alignment = 1 : i64} : memref<64xi8>, vector<16xi8>
// CHECK: vector.maskedload %{{.*}} {alignment = 1 : i64} : memref<64xi8>, vector<16xi1>, vector<16xi8>
// CHECK: vector.shuffle %{{.*}} [4, 5, 6, 7]
// CHECK: vector.load %{{.*}} {alignment = 4 : i64} : memref<16xi32>, vector<16xi32>
// CHECK: vector.store %{{.*}} {alignment = 8 : i64} : memref<8xi64>, vector<8xi64>
// CHECK: vector.store %{{.*}} {alignment = 64 : i64} : memref<8xi64>, vector<8xi64>
// CHECK-NOT: vector.transfer_read
// CHECK-NOT: vector.extract_strided_slice
// LLVM-LABEL: llvm.func @vectors
// LLVM-NOT: vector.
// LLVM: llvm.load %{{.*}} {alignment = 1 : i64} : !llvm.ptr -> vector<16xi8>
// LLVM: llvm.intr.masked.load
// LLVM: llvm.shufflevector
// LLVM: llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr -> vector<16xi32>
// LLVM: llvm.store %{{.*}} {alignment = 8 : i64} : vector<8xi64>, !llvm.ptr
// LLVM: llvm.store %{{.*}} {alignment = 64 : i64} : vector<8xi64>, !llvm.ptr
func.func @vectors(%a: memref<64xi8>, %b: memref<16xi32>, %c: memref<8xi64>, %i: index) -> (vector<16xi8>, vector<16xi8>, vector<4xi8>, vector<16xi32>) {
  %c0 = arith.constant 0 : index
  %z = arith.constant 0 : i8
  %t = vector.transfer_read %a[%i], %z {in_bounds = [true]} : memref<64xi8>, vector<16xi8>
  %u = vector.transfer_read %a[%i], %z : memref<64xi8>, vector<16xi8>
  %s = vector.extract_strided_slice %t {offsets = [4], sizes = [4], strides = [1]} : vector<16xi8> to vector<4xi8>
  %l = vector.load %b[%c0] : memref<16xi32>, vector<16xi32>
  %q = arith.constant dense<7> : vector<8xi64>
  vector.store %q, %c[%c0] : memref<8xi64>, vector<8xi64>
  vector.store %q, %c[%c0] {alignment = 64} : memref<8xi64>, vector<8xi64>
  return %t, %u, %s, %l : vector<16xi8>, vector<16xi8>, vector<4xi8>, vector<16xi32>
}

// -----

// Dead operations go, chains of them too (the kernels' unused template
// values); operations with effects stay.
// CHECK-LABEL: func.func @dead
// CHECK-NOT: arith.muli
// CHECK-NOT: arith.extsi
// CHECK-NOT: dense<30>
// CHECK: memref.store
// CHECK-NEXT: return
func.func @dead(%m: memref<4xi32>, %x: i32) {
  %c0 = arith.constant 0 : index
  %w = arith.extsi %x : i32 to i64
  %k = arith.constant dense<30> : vector<16xi64>
  %p = arith.muli %w, %w : i64
  memref.store %x, %m[%c0] : memref<4xi32>
  return
}

// -----

// Allocation scopes (convert-scf-to-openmp wraps each parallel body in
// one; upstream's canonicalization of the op, applied to the scopes): a
// scope that allocates nothing is inlined into its parent; one whose
// allocation depends on the loop and that is followed by other operations
// keeps its scope (its stack is released per iteration).
// CHECK-LABEL: func.func @scopes
// CHECK-NEXT: arith.constant
// CHECK-NEXT: arith.constant
// CHECK-NEXT: memref.store
// CHECK-NEXT: scf.for
// CHECK-NEXT: memref.alloca_scope
// CHECK-NEXT: memref.alloca(%{{.*}}) : memref<?xi32>
func.func @scopes(%m: memref<16xi32>, %v: i32, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  memref.alloca_scope {
    memref.store %v, %m[%c0] : memref<16xi32>
  }
  scf.for %i = %c1 to %n step %c1 {
    memref.alloca_scope {
      %a = memref.alloca(%i) : memref<?xi32>
      memref.store %v, %a[%c0] : memref<?xi32>
      %x = memref.load %a[%c0] : memref<?xi32>
      memref.store %x, %m[%i] : memref<16xi32>
    }
    memref.store %v, %m[%c0] : memref<16xi32>
  }
  return
}

// -----

// An OpenMP loop body whose scope holds an LLVM intrinsic call outside any
// loop (a pipelined kernel's first unit): upstream's canonicalization
// counts the call, which declares no memory effects, as a possible
// allocation and keeps the scope, whose region scf-to-cf cannot split;
// the pass inlines scopes that hold intrinsic calls but no allocation.
// A scope with an llvm.alloca (an allocation of the enclosing scope) stays.
// CHECK-LABEL: func.func @intrinsic_scope
// CHECK: omp.loop_nest
// CHECK-NEXT: llvm.call_intrinsic "llvm.x86.avx512.packssdw.512"
// CHECK-NEXT: vector.store
// CHECK-NEXT: omp.yield
// CHECK: omp.loop_nest
// CHECK-NEXT: memref.alloca_scope
// CHECK-NEXT: llvm.alloca
func.func @intrinsic_scope(%v: vector<16xi32>, %m: memref<64xi16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %one = llvm.mlir.constant(1 : i64) : i64
  omp.parallel {
    omp.wsloop {
      omp.loop_nest (%i) : index = (%c0) to (%c2) step (%c1) {
        memref.alloca_scope {
          %p = llvm.call_intrinsic "llvm.x86.avx512.packssdw.512"(%v, %v) : (vector<16xi32>, vector<16xi32>) -> vector<32xi16>
          vector.store %p, %m[%c0] : memref<64xi16>, vector<32xi16>
        }
        omp.yield
      }
    }
    omp.terminator
  }
  omp.parallel {
    omp.wsloop {
      omp.loop_nest (%i) : index = (%c0) to (%c2) step (%c1) {
        memref.alloca_scope {
          %a = llvm.alloca %one x i64 : (i64) -> !llvm.ptr
          llvm.store %one, %a : i64, !llvm.ptr
          %p = llvm.call_intrinsic "llvm.x86.avx512.packssdw.512"(%v, %v) : (vector<16xi32>, vector<16xi32>) -> vector<32xi16>
          vector.store %p, %m[%c0] : memref<64xi16>, vector<32xi16>
        }
        omp.yield
      }
    }
    omp.terminator
  }
  return
}

// -----

// A static allocation at the start of an OpenMP loop body's scope (the
// int16 GEMM kernels' accumulator buffer) moves to the start of the
// omp.parallel region (an allocation scope that each thread runs once):
// the iterations a thread runs share it, each iteration's buffer being
// undefined at its start and dead after it; the scope, left without
// allocations, is inlined, so that scf-to-cf can lower the loop inside
// it. A dynamic allocation stays in its scope (@scopes).
// CHECK-LABEL: func.func @hoisted_scratch
// CHECK: omp.parallel
// CHECK-NEXT: %[[BUF:.*]] = memref.alloca() : memref<10x8xi32>
// CHECK-NEXT: omp.wsloop
// CHECK-NEXT: omp.loop_nest
// CHECK-NOT: memref.alloca_scope
// CHECK-NEXT: vector.store %{{.*}}, %[[BUF]]
// CHECK-NEXT: scf.for
// CHECK: llvm.inline_asm
// CHECK: omp.yield
// LLVM-LABEL: llvm.func @hoisted_scratch
// LLVM: omp.parallel
// LLVM-NOT: omp.wsloop
// LLVM: llvm.alloca %{{.*}} x i32
// LLVM: omp.wsloop
// LLVM-NOT: memref.
// LLVM: llvm.return
func.func @hoisted_scratch(%v: vector<8xi32>, %m: memref<64xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  omp.parallel {
    omp.wsloop {
      omp.loop_nest (%i) : index = (%c0) to (%c5) step (%c1) {
        memref.alloca_scope {
          %buf = memref.alloca() : memref<10x8xi32>
          vector.store %v, %buf[%i, %c0] : memref<10x8xi32>, vector<8xi32>
          scf.for %r = %c0 to %c5 step %c1 {
            %x = vector.load %buf[%r, %c0] : memref<10x8xi32>, vector<8xi32>
            %y = llvm.inline_asm "", "=x,0" %x : (vector<8xi32>) -> vector<8xi32>
            vector.store %y, %m[%c0] : memref<64xi32>, vector<8xi32>
          }
        }
        omp.yield
      }
    }
    omp.terminator
  }
  return
}
