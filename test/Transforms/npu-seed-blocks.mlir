// Both seed forms of the MobileNet block (TFLite: NHWC, integer weights,
// bias adds, requantize to uint8; PyTorch-like: NCHW, float weights behind
// qnn.quantize, explicit pads, requantize to i32 + clip + cast) become the
// same npu program: same constants (the PyTorch-like OIHW kernels transposed
// to OHWI), same fused operators with the same attributes, in the same
// order. The one difference is the transpose of the NCHW input.
// RUN: qnn-opt --qnn-to-npu %qnn_src_root/examples/mobilenet_block_tflite.mlir | FileCheck %s --check-prefixes=CHECK,TFL
// RUN: qnn-opt --qnn-to-npu %qnn_src_root/examples/mobilenet_block_pytorch.mlir | FileCheck %s --check-prefixes=CHECK,PT

// Semantics: the reference evaluator computes the same bytes before and
// after, on random inputs.
// RUN: qnn-opt --qnn-to-npu %qnn_src_root/examples/mobilenet_block_tflite.mlir -o %t.tfl.mlir
// RUN: qnn-opt --qnn-to-npu %qnn_src_root/examples/mobilenet_block_pytorch.mlir -o %t.pt.mlir
// RUN: %refeq %qnn_src_root/examples/mobilenet_block_tflite.mlir %t.tfl.mlir main u8:192 41 5 > %t.eq
// RUN: %refeq %qnn_src_root/examples/mobilenet_block_pytorch.mlir %t.pt.mlir main u8:192 42 5 >> %t.eq
// RUN: FileCheck %s --check-prefix=EQ < %t.eq
// EQ-COUNT-10: trial {{[0-4]}}: identical result 0: tensor<1x16xui8>
// EQ-NOT: DIFFERENT

// TFL-LABEL: func.func @main(%arg0: tensor<1x8x8x3xui8>) -> tensor<1x16xui8>
// PT-LABEL: func.func @main(%arg0: tensor<1x3x8x8xui8>) -> tensor<1x16xui8>
// CHECK-DAG: %[[W0:.+]] = arith.constant dense<[-238, -141, -44, 53, 150, 247, -257, -160, -63, 34, 131, 228, -276, -179, -82, 15]> : tensor<16xi32>
// CHECK-DAG: %[[W1:.+]] = arith.constant dense<[-269, -172, -75, 22, 119, 216, -288, -191]> : tensor<8xi32>
// CHECK-DAG: %[[W2:.+]] = arith.constant dense<{{\[\[}}{{\[\[}}11], [63], [100{{\]\]}}, {{\[\[}}135], [181], [212{{\]\]}}, {{\[\[}}254], [38], [76{{\]\]}}], {{\[\[}}[49], [91], [131{{\]\]}}, {{\[\[}}169], [218], [252{{\]\]}}, {{\[\[}}41], [84], [112{{\]\]}}], {{\[\[}}[89], [134], [177{{\]\]}}, {{\[\[}}205], [1], [38{{\]\]}}, {{\[\[}}73], [119], [150{{\]\]}}], {{\[\[}}[131], [166], [212{{\]\]}}, {{\[\[}}243], [29], [69{{\]\]}}, {{\[\[}}107], [156], [190{{\]\]}}], {{\[\[}}[162], [200], [249{{\]\]}}, {{\[\[}}27], [72], [115{{\]\]}}, {{\[\[}}143], [195], [232{{\]\]}}], {{\[\[}}[208], [236], [32{{\]\]}}, {{\[\[}}69], [104], [150{{\]\]}}, {{\[\[}}181], [223], [7{{\]\]}}], {{\[\[}}[243], [18], [60{{\]\]}}, {{\[\[}}100], [138], [187{{\]\]}}, {{\[\[}}221], [10], [53{{\]\]}}], {{\[\[}}[24], [58], [103{{\]\]}}, {{\[\[}}146], [174], [226{{\]\]}}, {{\[\[}}7], [42], [88{{\]\]}}{{\]\]}}> : tensor<8x3x3x1xui8>
// CHECK-DAG: %[[W3:.+]] = arith.constant dense<"0x163C648EADDBFE234A6691B1D3F71D456F8EBCDF042B477292B4D8FE26506F9DC0E50C28537395B9DF0731507EA1C6ED093454769AC0E812315F82A7CEEA1535577BA1C9F312406388AFCBF616385C82AAD4F321446990ACD7F7193D638BB5D402254A718DB8D8FA1E446C96B5E3062B526E99B9DBFF254D7796C4E70C334F7A"> : tensor<16x1x1x8xui8>
// CHECK-DAG: %[[W4:.+]] = arith.constant dense<"0x00264E7897C5E80D34507B9BBDE1072F5978A6C9EE15315C7C9EC2E8103A5987AACFF6123D5D7FA3C9F11B3A688BB0D7F31E3E6084AAD2FC1B496C91B8D4FF1F41658BB3DDFC2A4D7299B5E00022466C94BEDD0B2E537A96C1E103274D759FBEEC0F345B77A2C2E4082E56809FCDF0153C5883A3C5E90F376180AED1F61D396484A6CAF01842618FB2D7FE1A456587ABD1F923427093B8DFFB2646688CB2DA0423517499C0DC0727496D93BBE50432557AA1BDE8082A4E749CC6E513365B829EC9E90B2F557DA7C6F4173C637FAACAEC10365E88A7D5F81D"> : tensor<8x3x3x3xui8>
// CHECK-DAG: %[[W5:.+]] = arith.constant dense<[-300, -203, -106, -9, 88, 185, 282, -222]> : tensor<8xi32>
// TFL-NOT: tosa.transpose
// PT: = tosa.transpose %arg0 {perms = array<i32: 0, 2, 3, 1>} : (tensor<1x3x8x8xui8>) -> tensor<1x8x8x3xui8>
// CHECK: %[[V0:.+]] = npu.conv2d %[[IN:.+]], %[[W4]], %[[W5]] {act_max = 255 : i32, act_min = 0 : i32, dilations = array<i64: 1, 1>, groups = 1 : i64, input_scale = 7.812500e-03 : f32, input_zero_point = 128 : i32, output_scale = 0.0235294122 : f32, output_zero_point = 0 : i32, pad_value = 128 : i32, padding = array<i64: 0, 0, 1, 1>, strides = array<i64: 2, 2>, weight_scale = array<f32: 2.000000e-02>, weight_zero_point = 122 : i32} : (tensor<1x8x8x3xui8>, tensor<8x3x3x3xui8>, tensor<8xi32>) -> tensor<1x4x4x8xui8>
// CHECK-NEXT: %[[V1:.+]] = npu.conv2d %[[V0]], %[[W2]], %[[W1]] {act_max = 255 : i32, act_min = 0 : i32, dilations = array<i64: 1, 1>, groups = 8 : i64, input_scale = 0.0235294122 : f32, input_zero_point = 0 : i32, output_scale = 0.0235294122 : f32, output_zero_point = 0 : i32, pad_value = 0 : i32, padding = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>, weight_scale = array<f32: 3.000000e-02>, weight_zero_point = 130 : i32} : (tensor<1x4x4x8xui8>, tensor<8x3x3x1xui8>, tensor<8xi32>) -> tensor<1x4x4x8xui8>
// CHECK-NEXT: %[[V2:.+]] = npu.conv2d %[[V1]], %[[W3]], %[[W0]] {act_max = 255 : i32, act_min = 0 : i32, dilations = array<i64: 1, 1>, groups = 1 : i64, input_scale = 0.0235294122 : f32, input_zero_point = 0 : i32, output_scale = 0.0235294122 : f32, output_zero_point = 0 : i32, pad_value = 0 : i32, padding = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, weight_scale = array<f32: 1.500000e-02>, weight_zero_point = 127 : i32} : (tensor<1x4x4x8xui8>, tensor<16x1x1x8xui8>, tensor<16xi32>) -> tensor<1x4x4x16xui8>
// CHECK-NEXT: %[[V3:.+]] = npu.avg_pool2d %[[V2]] {act_max = 255 : i32, act_min = 0 : i32, kernel = array<i64: 4, 4>, padding = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>} : tensor<1x4x4x16xui8> -> tensor<1x1x1x16xui8>
// CHECK-NEXT: %[[VCOLLAPSED:.+]] = tensor.collapse_shape %[[V3]] {{\[\[}}0], [1, 2, 3]] : tensor<1x1x1x16xui8> into tensor<1x16xui8>
// CHECK-NEXT: %[[V4:.+]] = qnn.dequantize %[[VCOLLAPSED]] {scale = array<f32: 0.0235294122>, zero_point = array<i32: 0>} : tensor<1x16xui8> -> tensor<1x16xf32>
// CHECK-NEXT: %[[V5:.+]] = tensor.empty() : tensor<1x16xf32>
// CHECK-NEXT: %[[V6:.+]] = linalg.softmax dimension(1) ins(%[[V4]] : tensor<1x16xf32>) outs(%[[V5]] : tensor<1x16xf32>) -> tensor<1x16xf32>
// CHECK-NEXT: %[[V7:.+]] = qnn.quantize %[[V6]] {scale = array<f32: 3.906250e-03>, zero_point = array<i32: 0>} : tensor<1x16xf32> -> tensor<1x16xui8>
// CHECK-NEXT: return %[[V7]] : tensor<1x16xui8>
