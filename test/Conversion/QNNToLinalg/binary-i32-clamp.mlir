// RUN: qnn-opt %s --convert-qnn-to-linalg | FileCheck %s
// TFLite's ADD, SUB, MUL and SQUARED_DIFFERENCE rescale to an i32 (the
// saturating MultiplyByQuantizedMultiplier), which is clamped to the
// output range less the output offset before the offset is added: 32-bit
// lanes to the end (a clamp of the i64 sum after the offset stayed on
// 64-bit lanes in LLVM, which AVX2 has no min or max for: vpcmpgtq and
// blends). The same integers: the clamp comes first, so adding the offset
// cannot overflow.

// CHECK-LABEL: func.func @add
// CHECK: linalg.generic
// CHECK: %[[LO:.*]] = arith.constant -129 : i32
// CHECK-NEXT: %[[A:.*]] = arith.maxsi %{{.*}}, %[[LO]] : i32
// CHECK-NEXT: %[[HI:.*]] = arith.constant 126 : i32
// CHECK-NEXT: %[[B:.*]] = arith.minsi %[[A]], %[[HI]] : i32
// CHECK-NEXT: %[[ZP:.*]] = arith.constant 1 : i32
// CHECK-NEXT: %[[C:.*]] = arith.addi %[[B]], %[[ZP]] : i32
// CHECK-NEXT: %[[Y:.*]] = arith.trunci %[[C]] : i32 to i8
// CHECK-NEXT: linalg.yield %[[Y]] : i8
func.func @add(%a: tensor<1x4x16xi8>, %b: tensor<1x4x16xi8>) -> tensor<1x4x16xi8> {
  %0 = qnn.add %a, %b {lhs_scale = 0.0217414033 : f32, lhs_zero_point = 14 : i32, output_scale = 0.0276931245 : f32, output_zero_point = 1 : i32, rhs_scale = 0.0194255598 : f32, rhs_zero_point = 17 : i32, rounding = #qnn.rounding<tflite_single>} : (tensor<1x4x16xi8>, tensor<1x4x16xi8>) -> tensor<1x4x16xi8>
  return %0 : tensor<1x4x16xi8>
}

// uint8, gemmlowp's double rounding: [0, 255] less the zero point 130.
// CHECK-LABEL: func.func @mul
// CHECK: linalg.generic
// CHECK: %[[LO:.*]] = arith.constant -130 : i32
// CHECK-NEXT: %[[A:.*]] = arith.maxsi %{{.*}}, %[[LO]] : i32
// CHECK-NEXT: %[[HI:.*]] = arith.constant 125 : i32
// CHECK-NEXT: %[[B:.*]] = arith.minsi %[[A]], %[[HI]] : i32
// CHECK-NEXT: %[[ZP:.*]] = arith.constant 130 : i32
// CHECK-NEXT: %[[C:.*]] = arith.addi %[[B]], %[[ZP]] : i32
// CHECK-NEXT: %[[Y:.*]] = arith.trunci %[[C]] : i32 to i8
// CHECK-NEXT: linalg.yield %[[Y]] : i8
func.func @mul(%a: tensor<1x4x16xui8>, %b: tensor<1x4x16xui8>) -> tensor<1x4x16xui8> {
  %0 = qnn.mul %a, %b {lhs_scale = 0.02 : f32, lhs_zero_point = 120 : i32, output_scale = 0.01 : f32, output_zero_point = 130 : i32, rhs_scale = 0.03 : f32, rhs_zero_point = 128 : i32} : (tensor<1x4x16xui8>, tensor<1x4x16xui8>) -> tensor<1x4x16xui8>
  return %0 : tensor<1x4x16xui8>
}

// SUB: the same tail.
// CHECK-LABEL: func.func @sub
// CHECK: linalg.generic
// CHECK: arith.maxsi %{{.*}} : i32
// CHECK-NEXT: arith.constant
// CHECK-NEXT: arith.minsi %{{.*}} : i32
// CHECK-NOT: arith.maxsi %{{.*}} : i64
// CHECK: linalg.yield
func.func @sub(%a: tensor<1x4x16xi8>, %b: tensor<1x4x16xi8>) -> tensor<1x4x16xi8> {
  %0 = qnn.subtract %a, %b {lhs_scale = 0.02 : f32, lhs_zero_point = 3 : i32, output_scale = 0.04 : f32, output_zero_point = -5 : i32, rhs_scale = 0.03 : f32, rhs_zero_point = 7 : i32, rounding = #qnn.rounding<tflite_single>} : (tensor<1x4x16xi8>, tensor<1x4x16xi8>) -> tensor<1x4x16xi8>
  return %0 : tensor<1x4x16xi8>
}

// SQUARED_DIFFERENCE: the same tail ([-128, 127] less the offset -120).
// CHECK-LABEL: func.func @squared_difference
// CHECK: linalg.generic
// CHECK: %[[LO:.*]] = arith.constant -8 : i32
// CHECK-NEXT: %[[A:.*]] = arith.maxsi %{{.*}}, %[[LO]] : i32
// CHECK-NEXT: %[[HI:.*]] = arith.constant 247 : i32
// CHECK-NEXT: %[[B:.*]] = arith.minsi %[[A]], %[[HI]] : i32
// CHECK-NEXT: %[[ZP:.*]] = arith.constant -120 : i32
// CHECK-NEXT: %[[C:.*]] = arith.addi %[[B]], %[[ZP]] : i32
// CHECK-NEXT: %[[Y:.*]] = arith.trunci %[[C]] : i32 to i8
// CHECK-NEXT: linalg.yield %[[Y]] : i8
func.func @squared_difference(%a: tensor<2x4xi8>, %b: tensor<4xi8>) -> tensor<2x4xi8> {
  %0 = qnn.squared_difference %a, %b {lhs_scale = 5.000000e-02 : f32, lhs_zero_point = -5 : i32, output_scale = 2.000000e-01 : f32, output_zero_point = -120 : i32, rhs_scale = 8.000000e-02 : f32, rhs_zero_point = 3 : i32} : (tensor<2x4xi8>, tensor<4xi8>) -> tensor<2x4xi8>
  return %0 : tensor<2x4xi8>
}
