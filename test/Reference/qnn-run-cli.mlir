// qnn-run's command line: summaries, raw outputs, and clear errors.

// Summary: sum of values, FNV-1a (64-bit) of the raw bytes 01 fe 03 (computed
// independently in Python), first arg-max and the maximum.
// RUN: python3 %S/Inputs/mkbin.py i8 1 -2 3 > %t.in
// RUN: qnn-run --reference %s --entry identity --input %t.in | FileCheck %s --check-prefix=SUM
// SUM: result 0: tensor<3xi8> sum=2 fnv1a=0xd2d7ba1869067bef argmax=2 max=3
// SUM-NOT: [

// --output writes raw little-endian bytes of each result.
// RUN: qnn-run --reference %s --entry two_results --input %t.in --output %t.o0 --output %t.o1
// RUN: od -An -tx1 %t.o0 | FileCheck %s --check-prefix=RAW0
// RUN: od -An -tx1 %t.o1 | FileCheck %s --check-prefix=RAW1
// RAW0: 01 fe 03
// 1, -2, 3 widened to i32 little-endian.
// RAW1: 01 00 00 00 fe ff ff ff 03 00 00 00
func.func @identity(%x: tensor<3xi8>) -> tensor<3xi8> {
  return %x : tensor<3xi8>
}
func.func @two_results(%x: tensor<3xi8>) -> (tensor<3xi8>, tensor<3xi32>) {
  %0 = tosa.cast %x : (tensor<3xi8>) -> tensor<3xi32>
  return %x, %0 : tensor<3xi8>, tensor<3xi32>
}

// RUN: not qnn-run --reference %s --entry identity 2>&1 | FileCheck %s --check-prefix=COUNT
// COUNT: qnn-run: @identity takes 1 arguments but 0 --input files were given

// RUN: python3 %S/Inputs/mkbin.py i8 1 2 > %t.short
// RUN: not qnn-run --reference %s --entry identity --input %t.short 2>&1 | FileCheck %s --check-prefix=SIZE
// SIZE: qnn-run: input #0 '{{.*}}' for tensor<3xi8> must have 3 bytes, got 2

// RUN: not qnn-run --reference %s --entry identity --input %t.does-not-exist 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: qnn-run: cannot read input #0

// RUN: not qnn-run --reference %s --entry two_results --input %t.in --output %t.o0 2>&1 | FileCheck %s --check-prefix=OUTS
// OUTS: qnn-run: the function returns 2 results but 1 --output files were given

// RUN: not qnn-run --reference %s --input %t.in 2>&1 | FileCheck %s --check-prefix=ENTRY
// ENTRY: qnn-run: cannot choose the entry function; pass --entry with one of: identity two_results scalar_argument unsupported

// RUN: not qnn-run --reference %s --entry nope --input %t.in 2>&1 | FileCheck %s --check-prefix=NOPE
// NOPE: qnn-run: no function @nope with a body

// RUN: not qnn-run %s --entry identity --input %t.in 2>&1 | FileCheck %s --check-prefix=MODE
// MODE: qnn-run: choose an execution mode (--reference)

// RUN: not qnn-run --reference %s --entry scalar_argument --input %t.in 2>&1 | FileCheck %s --check-prefix=SCALAR
// SCALAR: qnn-run: argument #0 has type i32; only statically shaped tensors of integers or f32 are supported
func.func @scalar_argument(%x: i32) -> i32 {
  return %x : i32
}

// An op without an evaluate function: a located error, never a crash.
// RUN: not qnn-run --reference %s --entry unsupported --input %t.in 2>&1 | FileCheck %s --check-prefix=UNSUP
// UNSUP: qnn-run-cli.mlir:[[@LINE+3]]:8: error: reference evaluator: unsupported op 'arith.addi'
// UNSUP-NOT: Stack dump
func.func @unsupported(%x: tensor<3xi8>) -> tensor<3xi8> {
  %0 = arith.addi %x, %x : tensor<3xi8>
  return %0 : tensor<3xi8>
}
