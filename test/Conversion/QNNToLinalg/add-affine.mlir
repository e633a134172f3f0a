// RUN: qnn-opt %s --convert-qnn-to-linalg | FileCheck %s
// RUN: qnn-opt %s --convert-qnn-to-linalg | FileCheck %s --check-prefix=NOI64
// RUN: qnn-opt %s --convert-qnn-to-linalg="add-affine=false" | FileCheck %s --check-prefix=OFF
// TFLite's ADD and SUB of 8-bit operands as one integer affine form,
// clamp((a * x + c * y + d) >> q, qmin - zp, qmax - zp) + zp, where
// math::fitAddAffine finds one exact on all 65536 operand pairs: two i32
// multiplies per lane instead of three fixed-point rescales (each i64
// products). The values are those of add-affine.test's cases, which run
// them against TFLite's formulas.

// MobileNet v2's second residual ADD (int8, single rounding).
// CHECK-LABEL: func.func @add
// CHECK: linalg.generic
// CHECK: %[[X:.*]] = arith.extsi %in : i8 to i32
// CHECK-NEXT: %[[A:.*]] = arith.constant 3292877 : i32
// CHECK-NEXT: %[[AX:.*]] = arith.muli %[[X]], %[[A]] : i32
// CHECK-NEXT: %[[Y:.*]] = arith.extsi %in_0 : i8 to i32
// CHECK-NEXT: %[[C:.*]] = arith.constant 2942127 : i32
// CHECK-NEXT: %[[CY:.*]] = arith.muli %[[Y]], %[[C]] : i32
// CHECK-NEXT: %[[S:.*]] = arith.addi %[[AX]], %[[CY]] : i32
// CHECK-NEXT: %[[D:.*]] = arith.constant -94019311 : i32
// CHECK-NEXT: %[[V:.*]] = arith.addi %[[S]], %[[D]] : i32
// CHECK-NEXT: %[[Q:.*]] = arith.constant 22 : i32
// CHECK-NEXT: %[[F:.*]] = arith.shrsi %[[V]], %[[Q]] : i32
// CHECK-NEXT: %[[LO:.*]] = arith.constant -129 : i32
// CHECK-NEXT: arith.maxsi %[[F]], %[[LO]] : i32
// CHECK: arith.constant 126 : i32
// CHECK-NEXT: arith.minsi
// CHECK-NEXT: arith.constant 1 : i32
// CHECK-NEXT: arith.addi
// CHECK-NEXT: arith.trunci %{{.*}} : i32 to i8
// CHECK-NEXT: linalg.yield
// No 64-bit value in the body:
// NOI64-LABEL: func.func @add
// NOI64: linalg.generic
// NOI64-NOT: i64
// NOI64: linalg.yield
// OFF-LABEL: func.func @add
// OFF: arith.muli %{{.*}}, %{{.*}} : i64
func.func @add(%a: tensor<1x4x16xi8>, %b: tensor<1x4x16xi8>) -> tensor<1x4x16xi8> {
  %0 = qnn.add %a, %b {lhs_scale = 0.0217414033 : f32, lhs_zero_point = 14 : i32, output_scale = 0.0276931245 : f32, output_zero_point = 1 : i32, rhs_scale = 0.0194255598 : f32, rhs_zero_point = 17 : i32, rounding = #qnn.rounding<tflite_single>} : (tensor<1x4x16xi8>, tensor<1x4x16xi8>) -> tensor<1x4x16xi8>
  return %0 : tensor<1x4x16xi8>
}

// uint8 SUB (double rounding): the rhs slope negative, zero-extended
// operands, the broadcast rhs's map kept.
// CHECK-LABEL: func.func @sub
// CHECK: linalg.generic {indexing_maps = [#map1, #map2, #map1]
// CHECK: arith.extui %in : i8 to i32
// CHECK-NEXT: arith.constant 2673804 : i32
// CHECK-NEXT: arith.muli
// CHECK-NEXT: arith.extui %in_0 : i8 to i32
// CHECK-NEXT: arith.constant -1515328 : i32
// CHECK-NEXT: arith.muli
// CHECK: arith.shrsi %{{.*}}, %{{.*}} : i32
// CHECK: arith.constant 130 : i32
// CHECK: linalg.yield
// NOI64-LABEL: func.func @sub
// NOI64: linalg.generic
// NOI64-NOT: i64
// NOI64: linalg.yield
func.func @sub(%a: tensor<2x16xui8>, %b: tensor<1x16xui8>) -> tensor<2x16xui8> {
  %0 = qnn.subtract %a, %b {lhs_scale = 0.0517 : f32, lhs_zero_point = 120 : i32, output_scale = 0.0811 : f32, output_zero_point = 130 : i32, rhs_scale = 0.0293 : f32, rhs_zero_point = 128 : i32} : (tensor<2x16xui8>, tensor<1x16xui8>) -> tensor<2x16xui8>
  return %0 : tensor<2x16xui8>
}

// Scales of small ratios put sums on exact halves, which double rounding
// sends away from zero on either side: no affine form, the fixed-point
// sequence.
// CHECK-LABEL: func.func @ties
// CHECK: arith.muli %{{.*}}, %{{.*}} : i64
func.func @ties(%a: tensor<16xui8>, %b: tensor<16xui8>) -> tensor<16xui8> {
  %0 = qnn.subtract %a, %b {lhs_scale = 0.05 : f32, lhs_zero_point = 120 : i32, output_scale = 0.08 : f32, output_zero_point = 130 : i32, rhs_scale = 0.03 : f32, rhs_zero_point = 128 : i32} : (tensor<16xui8>, tensor<16xui8>) -> tensor<16xui8>
  return %0 : tensor<16xui8>
}

// Slopes 2^6 apart: the smaller one keeps too few bits at a scale where
// the larger stays below 2^22. The fixed-point sequence.
// CHECK-LABEL: func.func @steep
// CHECK: arith.muli %{{.*}}, %{{.*}} : i64
func.func @steep(%a: tensor<16xi8>, %b: tensor<16xi8>) -> tensor<16xi8> {
  %0 = qnn.add %a, %b {lhs_scale = 0.00388743123 : f32, lhs_zero_point = -57 : i32, output_scale = 0.0633554235 : f32, output_zero_point = 50 : i32, rhs_scale = 0.157561243 : f32, rhs_zero_point = 38 : i32} : (tensor<16xi8>, tensor<16xi8>) -> tensor<16xi8>
  return %0 : tensor<16xi8>
}

// TVM's rules (and ONNX's) keep their own sequences.
// CHECK-LABEL: func.func @tvm
// CHECK: arith.muli %{{.*}}, %{{.*}} : i128
func.func @tvm(%a: tensor<16xi8>, %b: tensor<16xi8>) -> tensor<16xi8> {
  %0 = qnn.add %a, %b {lhs_scale = 0.0217414033 : f32, lhs_zero_point = 14 : i32, output_scale = 0.0276931245 : f32, output_zero_point = 1 : i32, rhs_scale = 0.0194255598 : f32, rhs_zero_point = 17 : i32, rounding = #qnn.rounding<upward>} : (tensor<16xi8>, tensor<16xi8>) -> tensor<16xi8>
  return %0 : tensor<16xi8>
}

// npu.add (npu-fuse's ADD with its activation) lowers through qnn.add: the
// affine form, then the ReLU's clamp.
// CHECK-LABEL: func.func @npu_add
// CHECK: arith.shrsi %{{.*}}, %{{.*}} : i32
// CHECK: linalg.yield
func.func @npu_add(%a: tensor<1x4x16xi8>, %b: tensor<1x4x16xi8>) -> tensor<1x4x16xi8> {
  %0 = npu.add %a, %b {lhs_scale = 0.0217414033 : f32, lhs_zero_point = 14 : i32, output_scale = 0.0276931245 : f32, output_zero_point = 1 : i32, rhs_scale = 0.0194255598 : f32, rhs_zero_point = 17 : i32, rounding = #qnn.rounding<tflite_single>, activation = #npu.activation<relu>, act_min = 1 : i32, act_max = 127 : i32} : (tensor<1x4x16xi8>, tensor<1x4x16xi8>) -> tensor<1x4x16xi8>
  return %0 : tensor<1x4x16xi8>
}

// The pattern keeps its fits by parameters (one pass run): @add's ADD
// again, and at another shape, takes @add's form; SUB with @add's scales
// (the rhs multiplier negated) gets its own.
// CHECK-LABEL: func.func @add_again
// CHECK: arith.constant 3292877 : i32
// CHECK: arith.constant 2942127 : i32
// CHECK: arith.constant -94019311 : i32
// CHECK: arith.constant 22 : i32
// CHECK: linalg.yield
func.func @add_again(%a: tensor<1x4x16xi8>, %b: tensor<1x4x16xi8>) -> tensor<1x4x16xi8> {
  %0 = qnn.add %a, %b {lhs_scale = 0.0217414033 : f32, lhs_zero_point = 14 : i32, output_scale = 0.0276931245 : f32, output_zero_point = 1 : i32, rhs_scale = 0.0194255598 : f32, rhs_zero_point = 17 : i32, rounding = #qnn.rounding<tflite_single>} : (tensor<1x4x16xi8>, tensor<1x4x16xi8>) -> tensor<1x4x16xi8>
  return %0 : tensor<1x4x16xi8>
}
// CHECK-LABEL: func.func @sub_with_add_scales
// CHECK: arith.constant 3292877 : i32
// CHECK: arith.constant -2942127 : i32
// CHECK: linalg.yield
func.func @sub_with_add_scales(%a: tensor<1x4x16xi8>, %b: tensor<1x4x16xi8>) -> tensor<1x4x16xi8> {
  %0 = qnn.subtract %a, %b {lhs_scale = 0.0217414033 : f32, lhs_zero_point = 14 : i32, output_scale = 0.0276931245 : f32, output_zero_point = 1 : i32, rhs_scale = 0.0194255598 : f32, rhs_zero_point = 17 : i32, rounding = #qnn.rounding<tflite_single>} : (tensor<1x4x16xi8>, tensor<1x4x16xi8>) -> tensor<1x4x16xi8>
  return %0 : tensor<1x4x16xi8>
}
// CHECK-LABEL: func.func @add_other_shape
// CHECK: arith.constant 3292877 : i32
// CHECK: arith.constant 2942127 : i32
// CHECK: arith.constant -94019311 : i32
// CHECK: linalg.yield
func.func @add_other_shape(%a: tensor<8xi8>, %b: tensor<8xi8>) -> tensor<8xi8> {
  %0 = qnn.add %a, %b {lhs_scale = 0.0217414033 : f32, lhs_zero_point = 14 : i32, output_scale = 0.0276931245 : f32, output_zero_point = 1 : i32, rhs_scale = 0.0194255598 : f32, rhs_zero_point = 17 : i32, rounding = #qnn.rounding<tflite_single>} : (tensor<8xi8>, tensor<8xi8>) -> tensor<8xi8>
  return %0 : tensor<8xi8>
}
