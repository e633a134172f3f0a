// The seed blocks through --qnn-to-npu and --npu-partition: the three
// convolutions and the average pool become one NPU function; the input
// transpose, reshape, dequantize, softmax and quantize stay on the host.
// RUN: qnn-opt --qnn-to-npu %qnn_src_root/examples/mobilenet_block_pytorch.mlir | qnn-opt --npu-partition=report=true -o %t.pt.mlir 2> %t.report
// RUN: FileCheck %s < %t.pt.mlir
// RUN: FileCheck %s --check-prefix=REPORT < %t.report
// RUN: qnn-opt --qnn-to-npu %qnn_src_root/examples/mobilenet_block_tflite.mlir | qnn-opt --npu-partition -o %t.tfl.mlir
// RUN: %refeq %qnn_src_root/examples/mobilenet_block_pytorch.mlir %t.pt.mlir main u8:192 71 > %t.eq
// RUN: %refeq %qnn_src_root/examples/mobilenet_block_tflite.mlir %t.tfl.mlir main u8:192 72 >> %t.eq
// RUN: FileCheck %s --check-prefix=EQ < %t.eq
// EQ-COUNT-6: trial {{[0-2]}}: identical result 0: tensor<1x16xui8>
// EQ-NOT: DIFFERENT

// CHECK-LABEL: func.func private @main_npu(%arg0: tensor<1x8x8x3xui8>) -> tensor<1x1x1x16xui8> attributes {npu.target}
// CHECK-COUNT-3: npu.conv2d
// CHECK-NEXT: npu.avg_pool2d
// CHECK-NEXT: return
// CHECK-LABEL: func.func @main(%arg0: tensor<1x3x8x8xui8>) -> tensor<1x16xui8>
// CHECK-NEXT: tosa.transpose %arg0
// CHECK-NEXT: call @main_npu
// CHECK-NEXT: tensor.collapse_shape
// CHECK-NEXT: qnn.dequantize
// CHECK-NEXT: tensor.empty
// CHECK-NEXT: linalg.softmax
// CHECK-NEXT: qnn.quantize
// CHECK-NEXT: return

// REPORT: remark: on host: constraint 'npu-op' failed: 'tosa.transpose' is not an npu operator
// REPORT: remark: on host: constraint 'npu-op' failed: 'tensor.collapse_shape' is not an npu operator
// REPORT: remark: on host: constraint 'npu-op' failed: 'qnn.dequantize' is not an npu operator
// REPORT: remark: on host: constraint 'npu-op' failed: 'tensor.empty' is not an npu operator
// REPORT: remark: on host: constraint 'npu-op' failed: 'linalg.softmax' is not an npu operator
// REPORT: remark: on host: constraint 'npu-op' failed: 'qnn.quantize' is not an npu operator
// REPORT: remark: npu-partition: 4 operation(s) on the NPU in 1 region(s), 6 on the host
