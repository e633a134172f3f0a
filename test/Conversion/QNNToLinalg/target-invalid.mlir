// RUN: not qnn-opt %s --convert-qnn-to-linalg=target=avx3 2>&1 | FileCheck %s
// CHECK: error: unknown target 'avx3'; expected generic, avx512-vnni, int16, int16-avx512bw or loops
func.func @f(%x: tensor<2xi32>) -> tensor<2xi32> {
  return %x : tensor<2xi32>
}
