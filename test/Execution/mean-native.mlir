// qnn.global_avg_pool (TFLite's MEAN and ONNX's GlobalAveragePool) over a
// 7x7 map of 40 and 1280 channels, natively against the reference
// evaluator: the i32 sum over H and W runs as vectors along C
// (qnn-vectorize-elementwise: 16 lanes per step, the 1280-channel sum of
// MobileNet v2's head), then the rescale. int8 and uint8, TFLite's and
// ONNX's rules, serial and 2 threads.
// RUN: %mkbin %t.a i8 --random 1960 5
// RUN: %mkbin %t.b u8 --random 62720 7
// RUN: qnn-run %s --entry tflite_i8 --input %t.a --compare-reference | FileCheck %s
// RUN: qnn-run %s --entry tflite_i8 --input %t.a --threads 2 --compare-reference | FileCheck %s
// RUN: qnn-run %s --entry tflite_i8 --input %t.a --target generic --compare-reference | FileCheck %s
// RUN: qnn-run %s --entry onnx_u8 --input %t.b --compare-reference | FileCheck %s
// RUN: qnn-run %s --entry onnx_u8 --input %t.b --target generic --compare-reference | FileCheck %s
// CHECK: compare 0: match

// The lowered sum: one vector<16xi32> step per 16 channels and tap.
// RUN: qnn-opt %s --convert-qnn-to-linalg --qnn-vectorize-elementwise | FileCheck %s --check-prefix=VEC
// VEC-LABEL: func.func @tflite_i8
// VEC: scf.for %{{.*}} = %c0 to %c7 step %c1
// VEC: scf.for %{{.*}} = %c0 to %c7 step %c1
// VEC: scf.for %{{.*}} = %c0 to %c40 step %c8
// VEC: arith.extsi %{{.*}} : vector<8xi8> to vector<8xi32>
// VEC: arith.addi %{{.*}} : vector<8xi32>
// VEC-LABEL: func.func @onnx_u8
// VEC: scf.for %{{.*}} = %c0 to %c1280 step %c16
// VEC: arith.extui %{{.*}} : vector<16xi8> to vector<16xi32>
// VEC: arith.addi %{{.*}} : vector<16xi32>

func.func @tflite_i8(%x: tensor<1x7x7x40xi8>) -> tensor<1x1x1x40xi8> {
  %y = qnn.global_avg_pool %x {data_layout = #qnn.layout<NHWC>, input_scale = 1.000000e-01 : f32, input_zero_point = -9 : i32, output_scale = 5.000000e-02 : f32, output_zero_point = -20 : i32, rounding = #qnn.rounding<tflite_single>} : tensor<1x7x7x40xi8> -> tensor<1x1x1x40xi8>
  return %y : tensor<1x1x1x40xi8>
}

func.func @onnx_u8(%x: tensor<1x7x7x1280xui8>) -> tensor<1x1x1x1280xui8> {
  %y = qnn.global_avg_pool %x {data_layout = #qnn.layout<NHWC>, input_scale = 2.000000e-02 : f32, input_zero_point = 3 : i32, output_scale = 1.500000e-02 : f32, output_zero_point = 7 : i32} : tensor<1x7x7x1280xui8> -> tensor<1x1x1x1280xui8>
  return %y : tensor<1x1x1x1280xui8>
}
