// qnn-fold-llvm-descriptors: reads of a memref descriptor's fields
// (llvm.extractvalue of an llvm.insertvalue chain) become the inserted
// values, so that an omp.parallel region uses the pointer argument instead
// of capturing the whole descriptor; chains no longer read are erased.
// RUN: qnn-opt %s --qnn-fold-llvm-descriptors | FileCheck %s

// CHECK-LABEL: llvm.func @kernel(
// CHECK-SAME: %[[P:[a-z0-9]+]]: !llvm.ptr
// CHECK-NOT: llvm.insertvalue
// CHECK-NOT: llvm.extractvalue
// CHECK: omp.parallel {
// CHECK: %[[V:.*]] = llvm.load %[[P]] : !llvm.ptr -> i32
// CHECK: llvm.store %[[V]], %[[P]] : i32, !llvm.ptr
llvm.func @kernel(%arg0: !llvm.ptr) {
  %0 = llvm.mlir.poison : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
  %1 = llvm.insertvalue %arg0, %0[0] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
  %2 = llvm.insertvalue %arg0, %1[1] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
  %c0 = llvm.mlir.constant(0 : index) : i64
  %3 = llvm.insertvalue %c0, %2[2] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
  omp.parallel {
    %p = llvm.extractvalue %3[1] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
    %v = llvm.load %p : !llvm.ptr -> i32
    llvm.store %v, %p : i32, !llvm.ptr
    omp.terminator
  }
  llvm.return
}

// A descriptor that is also passed on keeps its chain; a field never
// inserted (the size) is read from the struct before the chain, the
// poison value (the folder's in-place step); a struct argument's fields
// are left alone.
// CHECK-LABEL: llvm.func @kept(
// CHECK-SAME: %[[Q:[a-z0-9]+]]: !llvm.ptr, %[[S:[a-z0-9]+]]: !llvm.struct
// CHECK: %[[POISON:.*]] = llvm.mlir.poison
// CHECK: %[[D:.*]] = llvm.insertvalue %[[Q]], %[[POISON]][1]
// CHECK: llvm.call @use(%[[D]])
// CHECK: llvm.extractvalue %[[POISON]][3, 0]
// CHECK: llvm.extractvalue %[[S]][1]
// CHECK: llvm.load %[[Q]]
llvm.func @use(!llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>)
llvm.func @kept(%arg0: !llvm.ptr, %arg1: !llvm.struct<(ptr, ptr)>) -> i64 {
  %0 = llvm.mlir.poison : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
  %1 = llvm.insertvalue %arg0, %0[1] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
  llvm.call @use(%1) : (!llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>) -> ()
  %n = llvm.extractvalue %1[3, 0] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
  %q = llvm.extractvalue %arg1[1] : !llvm.struct<(ptr, ptr)>
  %v = llvm.load %q : !llvm.ptr -> i64
  %p = llvm.extractvalue %1[1] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
  %w = llvm.load %p : !llvm.ptr -> i64
  %r = llvm.add %v, %w : i64
  %s = llvm.add %r, %n : i64
  llvm.return %s : i64
}
