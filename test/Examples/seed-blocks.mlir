// The bundled seed blocks parse and verify, and normalization folds the
// PyTorch-like form's float weights and biases into integer constants.
// RUN: qnn-opt %qnn_src_root/examples/mobilenet_block_tflite.mlir | FileCheck %s --check-prefix=TFL
// RUN: qnn-opt %qnn_src_root/examples/mobilenet_block_pytorch.mlir --canonicalize | FileCheck %s --check-prefix=PT

// TFL-LABEL: func.func @main
// TFL-SAME: tensor<1x8x8x3xui8>
// TFL-COUNT-3: qnn.conv2d
// TFL: qnn.avg_pool2d
// TFL: linalg.softmax
// TFL: qnn.quantize
// TFL-SAME: -> tensor<1x16xui8>

// Only the final quantize of the softmax output survives: every weight and
// bias quantize folded to an integer constant.
// PT-LABEL: func.func @main
// PT-SAME: tensor<1x3x8x8xui8>
// PT-NOT: qnn.quantize {{.*}}xf32> -> tensor<{{.*}}x3x3xui8>
// PT: arith.constant {{.*}} : tensor<8x3x3x3xui8>
// PT-COUNT-3: qnn.conv2d
// PT: qnn.avg_pool2d
// PT-COUNT-1: qnn.quantize
// PT-NOT: qnn.quantize
