// RUN: qnn-opt %s --convert-qnn-to-linalg | FileCheck %s

// qnn.log_softmax: the row maximum (unsigned widening), the float32 sum of
// the exp table entries T[255 - (max - q)] in a reduction (sequential, in
// index order), p = (input_scale * max + log(sum)) / output_scale per row,
// then rint(8 * q - p) + 255 saturated (8 = 0.5 / 0.0625).
// CHECK-LABEL: func.func @log_softmax
// CHECK: %[[MAX:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]
// CHECK: arith.extui
// CHECK: arith.maxsi
// CHECK: %[[TABLE:.*]] = arith.constant dense<"0x{{.*}}"> : tensor<256xf32>
// CHECK: %[[SUM:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%arg0, %[[MAX]]
// CHECK: arith.subi %c255_i32
// CHECK: tensor.extract %[[TABLE]]
// CHECK: arith.addf %out
// CHECK: %[[P:.*]] = linalg.generic {{.*}} ins(%[[MAX]], %[[SUM]]
// CHECK: arith.mulf %cst{{.*}} : f32
// CHECK: math.log
// CHECK: arith.divf
// CHECK: linalg.generic {{.*}} ins(%arg0, %[[P]]
// CHECK: arith.constant 8.000000e+00 : f32
// CHECK: arith.mulf
// CHECK: arith.subf
// CHECK: math.roundeven
// CHECK: arith.addf
// The saturation: maxnumf, which also makes a NaN qmin.
// CHECK: arith.maxnumf %{{.*}}, %{{.*}} : f32
// CHECK: arith.minimumf
// CHECK: arith.fptosi
func.func @log_softmax(%x: tensor<2x8xui8>) -> tensor<2x8xui8> {
  %0 = qnn.log_softmax %x {input_scale = 0.5 : f32, output_scale = 0.0625 : f32, output_zero_point = 255 : i32} : tensor<2x8xui8>
  return %0 : tensor<2x8xui8>
}
