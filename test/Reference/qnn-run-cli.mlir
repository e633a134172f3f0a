// qnn-run's command line: summaries, raw outputs, and clear errors (more in
// errors.test).

// Summary: sum of values, FNV-1a (64-bit) of the raw bytes 01 fe 03 (computed
// independently in Python), first arg-max and the maximum.
// RUN: %mkbin %t.in i8 1 -2 3
// RUN: qnn-run --reference %s --entry identity --input %t.in | FileCheck %s --check-prefix=SUM
// SUM: result 0: tensor<3xi8> sum=2 argmax=2 max=3 fnv1a=0xd2d7ba1869067bef
// SUM-NOT: values

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
// COUNT: qnn-run: 'identity' takes 1 inputs, got 0 --input files

// RUN: %mkbin %t.short i8 1 2
// RUN: not qnn-run --reference %s --entry identity --input %t.short 2>&1 | FileCheck %s --check-prefix=SIZE
// SIZE: qnn-run: input 0 ('{{.*}}') for tensor<3xi8>: expected 3 bytes, got 2

// RUN: not qnn-run --reference %s --entry identity --input %t.does-not-exist 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: qnn-run: cannot read '{{.*}}does-not-exist'

// RUN: not qnn-run --reference %s --entry two_results --input %t.in --output %t.o0 2>&1 | FileCheck %s --check-prefix=OUTS
// OUTS: qnn-run: 'two_results' has 2 results, got 1 --output files

// RUN: not qnn-run --reference %s --input %t.in 2>&1 | FileCheck %s --check-prefix=ENTRY
// ENTRY: qnn-run: choose a function with --entry; candidates: identity two_results scalar_argument unsupported

// RUN: not qnn-run --reference %s --entry nope --input %t.in 2>&1 | FileCheck %s --check-prefix=NOPE
// NOPE: qnn-run: no function named 'nope'

// Without --reference the entry function (and what it calls) is compiled
// to native code; the other functions are left out.
// RUN: qnn-run %s --entry identity --input %t.in --target generic | FileCheck %s --check-prefix=SUM
// RUN: qnn-run %s --entry two_results --input %t.in --target generic --output %t.n0 --output %t.n1
// RUN: cmp %t.o0 %t.n0
// RUN: cmp %t.o1 %t.n1

// RUN: not qnn-run --reference %s --entry scalar_argument --input %t.in 2>&1 | FileCheck %s --check-prefix=SCALAR
// SCALAR: qnn-run: argument 0 is not a ranked tensor
func.func @scalar_argument(%x: i32) -> i32 {
  return %x : i32
}

// An op without an evaluate function: a located error, never a crash.
// RUN: not qnn-run --reference %s --entry unsupported --input %t.in 2>&1 | FileCheck %s --check-prefix=UNSUP
// UNSUP: qnn-run-cli.mlir:[[@LINE+3]]:8: error: the reference evaluator does not support 'arith.addi'
// UNSUP-NOT: Stack dump
func.func @unsupported(%x: tensor<3xi8>) -> tensor<3xi8> {
  %0 = arith.addi %x, %x : tensor<3xi8>
  return %0 : tensor<3xi8>
}
