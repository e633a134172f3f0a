// The width of qnn-lower-to-llvm's elementwise vectors follows the target:
// 8 lanes of the widest type an op computes with (32 bits: one ymm
// register of i32) on int16 (AVX2), 16 on the others. With 16 lanes on
// AVX2 each i32 operation was two instructions and each i64 one four, and
// LLVM split every one: MobileNet v2's residual adds cost its instruction
// selection 15% more. Execution: test/Execution/elementwise.test.
// RUN: qnn-opt %s --qnn-lower-to-llvm=target=int16 --mlir-print-ir-after=qnn-vectorize-elementwise -o /dev/null 2>&1 | FileCheck %s --check-prefix=AVX2
// RUN: qnn-opt %s --qnn-lower-to-llvm=target=int16-avx512bw --mlir-print-ir-after=qnn-vectorize-elementwise -o /dev/null 2>&1 | FileCheck %s --check-prefix=WIDE
// RUN: qnn-opt %s --qnn-lower-to-llvm=target=generic --mlir-print-ir-after=qnn-vectorize-elementwise -o /dev/null 2>&1 | FileCheck %s --check-prefix=WIDE

// AVX2-LABEL: func.func @add
// AVX2: scf.for %{{.*}} = %c0{{.*}} to %c{{[0-9]+}} step %c8
// AVX2: vector.transfer_read {{.*}} vector<8xi8>
// AVX2-NOT: vector<16x
// AVX2: return
// WIDE-LABEL: func.func @add
// WIDE: scf.for %{{.*}} = %c0{{.*}} to %c{{[0-9]+}} step %c16
// WIDE: vector.transfer_read {{.*}} vector<16xi8>
func.func @add(%a: tensor<1x4x4x32xi8>, %b: tensor<1x4x4x32xi8>) -> tensor<1x4x4x32xi8> {
  %y = qnn.add %a, %b {lhs_scale = 0.05 : f32, lhs_zero_point = 3 : i32, output_scale = 0.07 : f32, output_zero_point = -5 : i32, rhs_scale = 0.02 : f32, rhs_zero_point = -7 : i32, rounding = #qnn.rounding<tflite_single>} : (tensor<1x4x4x32xi8>, tensor<1x4x4x32xi8>) -> tensor<1x4x4x32xi8>
  return %y : tensor<1x4x4x32xi8>
}
