// Flattened pointwise kernels of one block of 16 stored channels
// (packsPixels): the results of up to four consecutive pixels narrow
// together with the AVX512BW packs, as four blocks of one pixel do
// (packBytes), and store as one run of 16 bytes per pixel into the output
// seen as [n, pixels * 16]: four pixels 64 bytes, three 48 (packed as
// four), two 32, one 16 (packed as two). Before, each pixel's 16 results
// narrowed and stored on their own (vpmovusdb). Execution:
// gemm-pipelined-native.test (16 channels, rest tiles of 1 and 3, 2
// threads).
// RUN: qnn-opt %s --split-input-file --pass-pipeline='builtin.module(convert-qnn-to-linalg{target=avx512-vnni floor-affine=false},func.func(tosa-to-linalg-named,tosa-to-linalg,tosa-to-arith,tosa-to-tensor),canonicalize,linalg-fuse-elementwise-ops,qnn-fuse-kernel-epilogues,one-shot-bufferize{bufferize-function-boundaries},qnn-materialize-conv-kernels)' | FileCheck %s

// 20 pixels, K = 16: pipelined units of 6 pixels (a run of 4 and one of
// 2, inside the unit loop and again for the last unit), three units and a
// rest tile of 2.
// CHECK-LABEL: func.func private @__qnn_kernel_vnni_1_1_20_16_1_20_1_1_1_1_1_1_16_0_0_0_1_epilogue0(
// CHECK: %[[ROWS:.*]] = memref.collapse_shape %arg5 {{\[\[}}0], [1, 2, 3]] : memref<1x1x20x16xi8> into memref<1x320xi8>
// CHECK: scf.for {{.*}} iter_args
// CHECK: scf.for {{.*}} iter_args
// CHECK: llvm.call_intrinsic "llvm.x86.avx512.packsswb.512"
// CHECK: vector.store %{{.*}}, %[[ROWS]][%{{.*}}, %{{.*}}] : memref<1x320xi8>, vector<64xi8>
// CHECK: vector.extract_strided_slice %{{.*}} {offsets = [0], sizes = [32], strides = [1]} : vector<64xi8> to vector<32xi8>
// CHECK: vector.store %{{.*}}, %[[ROWS]][%{{.*}}, %{{.*}}] : memref<1x320xi8>, vector<32xi8>
// CHECK: scf.yield
// CHECK: vector.store %{{.*}}, %[[ROWS]][%{{.*}}, %{{.*}}] : memref<1x320xi8>, vector<64xi8>
// CHECK: vector.store %{{.*}}, %[[ROWS]][%{{.*}}, %{{.*}}] : memref<1x320xi8>, vector<32xi8>
// CHECK: vector.store %{{.*}}, %[[ROWS]][%{{.*}}, %{{.*}}] : memref<1x320xi8>, vector<32xi8>
// CHECK-NOT: vector<16xi8>
// CHECK: return
func.func @pipelined(%x: tensor<1x1x20x16xi8>) -> tensor<1x1x20x16xi8> {
  %w = arith.constant dense<"0x45B385C589CBD32949A1200F5ADC93B3AABF086D97E0021530466390DF8BEF24D0D4AF3E25CEB49EBF77D7B7A1DF69B9C73201F673B0C9AE40E8067381D63C28C23E9BCE71E221287CEBA9E7EA27B95A49F4DA6C70F24BD767E0D0D700B37658EAD40FD3D210B4DC5324981DCFF404B9E654AF4EB8FED7A11E0457977AEF971463527EE8367EEFC762A9D19471223A719E7F485481C7A617A889E1499A75823795D488631BEE437213D9AFC002AB369DBDFD1B720CDCDEC295FCDC4312CD0899B14E74588ABC8DE69B72B6533BA2BFD15DB1C8DAAA691226C049E4942698E80B36943C96956213A37B8E18BCE5B8081EE35B9CF733364043D2B840072214CADF"> : tensor<16x1x1x16xi8>
  %b = arith.constant dense<"0x3304000088FAFFFFA2FDFFFF68FFFFFFD4FAFFFF500200000A04000028FBFFFF58010000C8FEFFFF56F8FFFFF5FFFFFF7F0100004402000064000000D7030000"> : tensor<1x1x1x16xi32>
  %c = qnn.conv2d %x, %w {data_layout = #qnn.layout<NHWC>, dilations = array<i64: 1, 1>, groups = 1 : i64, input_scale = 0.5 : f32, input_zero_point = -3 : i32, kernel_layout = #qnn.kernel_layout<OHWI>, padding = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, weight_scale = array<f32: 4.000000e-03, 4.100000e-03, 4.200000e-03, 4.300000e-03, 4.400000e-03, 4.500000e-03, 4.600000e-03, 4.700000e-03, 4.800000e-03, 4.900000e-03, 5.000000e-03, 5.100000e-03, 5.200000e-03, 5.300000e-03, 5.400000e-03, 5.500000e-03>, weight_zero_point = 0 : i32} : (tensor<1x1x20x16xi8>, tensor<16x1x1x16xi8>) -> tensor<1x1x20x16xi32>
  %a = tosa.add %c, %b : (tensor<1x1x20x16xi32>, tensor<1x1x1x16xi32>) -> tensor<1x1x20x16xi32>
  %y = qnn.requantize %a {axis = 3 : i64, input_scale = array<f64: 2.000000e-03, 2.050000e-03, 2.100000e-03, 2.150000e-03, 2.200000e-03, 2.250000e-03, 2.300000e-03, 2.350000e-03, 2.400000e-03, 2.450000e-03, 2.500000e-03, 2.550000e-03, 2.600000e-03, 2.650000e-03, 2.700000e-03, 2.750000e-03>, input_zero_point = 0 : i32, output_scale = 4.0 : f32, output_zero_point = 5 : i32} : tensor<1x1x20x16xi32> -> tensor<1x1x20x16xi8>
  return %y : tensor<1x1x20x16xi8>
}

// -----

// 11 pixels: one plain tile of 8 (two runs of 4) and a rest tile of 3 (48
// bytes).
// CHECK-LABEL: func.func private @__qnn_kernel_vnni_1_1_11_16_1_11_1_1_1_1_1_1_16_0_0_0_1_epilogue0(
// CHECK: %[[ROWS:.*]] = memref.collapse_shape %arg5 {{\[\[}}0], [1, 2, 3]] : memref<1x1x11x16xi8> into memref<1x176xi8>
// CHECK-COUNT-2: vector.store %{{.*}}, %[[ROWS]][%{{.*}}, %{{.*}}] : memref<1x176xi8>, vector<64xi8>
// CHECK: vector.extract_strided_slice %{{.*}} {offsets = [0], sizes = [48], strides = [1]} : vector<64xi8> to vector<48xi8>
// CHECK: vector.store %{{.*}}, %[[ROWS]][%{{.*}}, %{{.*}}] : memref<1x176xi8>, vector<48xi8>
// CHECK-NOT: vector<16xi8>
// CHECK: return
func.func @tiles(%x: tensor<1x1x11x16xi8>) -> tensor<1x1x11x16xi8> {
  %w = arith.constant dense<"0x45B385C589CBD32949A1200F5ADC93B3AABF086D97E0021530466390DF8BEF24D0D4AF3E25CEB49EBF77D7B7A1DF69B9C73201F673B0C9AE40E8067381D63C28C23E9BCE71E221287CEBA9E7EA27B95A49F4DA6C70F24BD767E0D0D700B37658EAD40FD3D210B4DC5324981DCFF404B9E654AF4EB8FED7A11E0457977AEF971463527EE8367EEFC762A9D19471223A719E7F485481C7A617A889E1499A75823795D488631BEE437213D9AFC002AB369DBDFD1B720CDCDEC295FCDC4312CD0899B14E74588ABC8DE69B72B6533BA2BFD15DB1C8DAAA691226C049E4942698E80B36943C96956213A37B8E18BCE5B8081EE35B9CF733364043D2B840072214CADF"> : tensor<16x1x1x16xi8>
  %b = arith.constant dense<"0x3304000088FAFFFFA2FDFFFF68FFFFFFD4FAFFFF500200000A04000028FBFFFF58010000C8FEFFFF56F8FFFFF5FFFFFF7F0100004402000064000000D7030000"> : tensor<1x1x1x16xi32>
  %c = qnn.conv2d %x, %w {data_layout = #qnn.layout<NHWC>, dilations = array<i64: 1, 1>, groups = 1 : i64, input_scale = 0.5 : f32, input_zero_point = -3 : i32, kernel_layout = #qnn.kernel_layout<OHWI>, padding = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, weight_scale = array<f32: 4.000000e-03, 4.100000e-03, 4.200000e-03, 4.300000e-03, 4.400000e-03, 4.500000e-03, 4.600000e-03, 4.700000e-03, 4.800000e-03, 4.900000e-03, 5.000000e-03, 5.100000e-03, 5.200000e-03, 5.300000e-03, 5.400000e-03, 5.500000e-03>, weight_zero_point = 0 : i32} : (tensor<1x1x11x16xi8>, tensor<16x1x1x16xi8>) -> tensor<1x1x11x16xi32>
  %a = tosa.add %c, %b : (tensor<1x1x11x16xi32>, tensor<1x1x1x16xi32>) -> tensor<1x1x11x16xi32>
  %y = qnn.requantize %a {axis = 3 : i64, input_scale = array<f64: 2.000000e-03, 2.050000e-03, 2.100000e-03, 2.150000e-03, 2.200000e-03, 2.250000e-03, 2.300000e-03, 2.350000e-03, 2.400000e-03, 2.450000e-03, 2.500000e-03, 2.550000e-03, 2.600000e-03, 2.650000e-03, 2.700000e-03, 2.750000e-03>, input_zero_point = 0 : i32, output_scale = 4.0 : f32, output_zero_point = 5 : i32} : tensor<1x1x11x16xi32> -> tensor<1x1x11x16xi8>
  return %y : tensor<1x1x11x16xi8>
}
