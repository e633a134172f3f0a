// VNNI GEMM kernels of at most 8 output channels pair pixels
// (KernelBuilder::pairsPixels: npu convolutions whose kernel stores its
// channels itself, the `oc` entry of the spec): each accumulator holds one
// pixel's channels in lanes 0-7 and the next pixel's in lanes 8-15. The
// weights, `corr` and the epilogue's per-channel constants are loaded as
// their first 8 lanes repeated (one 32-byte or 8-lane load and a
// shuffle), each pixel's broadcast bytes are selected into its half, one
// vpdpbusd per pair and tap computes both pixels, and one store writes the
// pair's outputs: 16 consecutive bytes of the output seen as [n, pixels *
// oc], or the lanes of the stored channels packed together under a mask
// (6 channels: 12 bytes; the last pixel of an odd count alone: its
// channels). Execution: gemm-pixel-pairs.test (emulated) and
// gemm-pixel-pairs-native.test.
// RUN: qnn-opt %s --split-input-file --convert-qnn-to-linalg="target=avx512-vnni floor-affine=false" --qnn-materialize-conv-kernels | FileCheck %s

// 8 channels, per-channel requantize: 3x3 outputs, one tile of 9 pixels,
// four pairs and a last pixel alone.
// CHECK-LABEL: func.func private @__qnn_kernel_vnni_1_7_7_4_3_3_3_3_2_2_1_1_16_0_0_0_1_8_epilogue0(
// CHECK-SAME: %[[CORR:arg2]]: memref<16xi32>
// CHECK-SAME: %[[OUT:arg6]]: memref<1x3x3x8xi8>
// CHECK-DAG: %[[UPPER:.*]] = arith.constant dense<[false, false, false, false, false, false, false, false, true, true, true, true, true, true, true, true]> : vector<16xi1>
// CHECK-DAG: %[[LOWER:.*]] = arith.constant dense<[true, true, true, true, true, true, true, true, false, false, false, false, false, false, false, false]> : vector<16xi1>
// CHECK: %[[ROWS:.*]] = memref.collapse_shape %[[OUT]] {{\[\[}}0], [1, 2, 3]] : memref<1x3x3x8xi8> into memref<1x72xi8>
// CHECK: %[[C8:.*]] = vector.load %[[CORR]][%{{.*}}] : memref<16xi32>, vector<8xi32>
// CHECK: vector.shuffle %[[C8]], %[[C8]] [0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7] : vector<8xi32>, vector<8xi32>
// CHECK: %[[W32:.*]] = vector.load %arg1[{{.*}}] : memref<1x3x3x1x64xi8>, vector<32xi8>
// CHECK: %[[W:.*]] = vector.shuffle %[[W32]], %[[W32]] [0, 1, {{.*}}, 30, 31, 0, 1, {{.*}}, 30, 31] : vector<32xi8>, vector<32xi8>
// CHECK: %[[P:.*]] = arith.select %[[UPPER]], %{{.*}}, %{{.*}} : vector<16xi1>, vector<16xi32>
// CHECK: %[[PB:.*]] = vector.bitcast %[[P]] : vector<16xi32> to vector<64xi8>
// CHECK: llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"(%{{.*}}, %[[PB]], %[[W]])
// CHECK-COUNT-4: vector.store %{{.*}}, %[[ROWS]][%{{.*}}, %{{.*}}] : memref<1x72xi8>, vector<16xi8>
// CHECK: vector.maskedstore %[[ROWS]][%{{.*}}, %{{.*}}], %[[LOWER]], %{{.*}} : memref<1x72xi8>, vector<16xi1>, vector<16xi8>
// CHECK-NOT: vector.store
// CHECK: return
func.func @pairs8(%x: tensor<1x5x5x3xi8>) -> tensor<1x3x3x8xi8> {
  %w = arith.constant dense<"0x99F2ED3A3BA8BC9B0BB151A3E1F80B8DCBA7A704CD305C05591AB8928D8C381C2F9AAAAE685343D943878063E558BDAE8A8796EA447C01FA721228270129078765E9CA2B56D6E40B4B98EFB2B78846AA06FA64A5564DFB70F6B3D4989FC169D974B6444ABB8B164B59BF962A0FDF1F9877D708CEBCFBC37E1CD5B57C1FACD72995D910A350C951AEA6D16E61A5B5C09015F67BFD2FDFD03E1E4EC26C3943C890FE2A27CECEE80E4F6AA76EF03162A0AC172FB4C965509AC533F8F300A5DDB526E8818162EB41C444DE1A8F6E6B3E3702B75BACCC17A69A2E"> : tensor<8x3x3x3xi8>
  %b = arith.constant dense<"0x9005000044060000E3000000E0FFFFFFD5010000920000001500000085020000"> : tensor<8xi32>
  %y = npu.conv2d %x, %w, %b {input_scale = 1.0 : f32, input_zero_point = -3 : i32, weight_scale = array<f32: 1.000000e+00, 1.125000e+00, 1.250000e+00, 1.375000e+00, 1.500000e+00, 1.625000e+00, 1.750000e+00, 1.875000e+00>, weight_zero_point = 0 : i32, output_scale = 1.529769e+03 : f32, output_zero_point = 0 : i32, rounding = #qnn.rounding<tflite>, strides = array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, groups = 1 : i64, pad_value = -3 : i32, act_min = -128 : i32, act_max = 127 : i32} : (tensor<1x5x5x3xi8>, tensor<8x3x3x3xi8>, tensor<8xi32>) -> tensor<1x3x3x8xi8>
  return %y : tensor<1x3x3x8xi8>
}

// -----

// 6 channels of u8 weights with a zero point: the pair's two window sums
// in their halves (windowSumsByColumns: in one output row, from one
// masked 20-byte load per kernel row, lanes 0 and 2 of the windows'
// column sums spread over the halves by one shuffle; across rows, each
// pixel's sum, selected into its half); lanes 0-5 and 8-13 packed into
// 12 bytes.
// CHECK-LABEL: func.func private @__qnn_kernel_vnni_1_7_7_4_3_3_3_3_2_2_1_1_16_0_0_38_1_6_epilogue0(
// CHECK-DAG: %[[UPPER:.*]] = arith.constant dense<[false, false, false, false, false, false, false, false, true, true, true, true, true, true, true, true]> : vector<16xi1>
// CHECK-DAG: %[[TWELVE:.*]] = arith.constant dense<[true, true, true, true, true, true, true, true, true, true, true, true, false, false, false, false]> : vector<16xi1>
// CHECK-DAG: %[[M20:.*]] = arith.constant dense<[true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, false, {{.*}}]> : vector<64xi1>
// CHECK-DAG: %[[SIX:.*]] = arith.constant dense<[true, true, true, true, true, true, false, false, false, false, false, false, false, false, false, false]> : vector<16xi1>
// CHECK: %[[ROWS:.*]] = memref.collapse_shape %arg4 {{\[\[}}0], [1, 2, 3]] : memref<1x3x3x6xi8> into memref<1x54xi8>
// CHECK: %[[G:.*]] = scf.if %{{.*}} -> (vector<16xi32>) {
// CHECK-COUNT-3: vector.maskedload %{{.*}}, %[[M20]], %{{.*}} : memref<1x7x28xi8>, vector<64xi1>, vector<64xi8> into vector<64xi8>
// CHECK: vector.shuffle %{{.*}} [1, 2, 3, {{.*}}, 15, 16] : vector<16xi32>, vector<16xi32>
// CHECK: arith.addi
// CHECK: vector.shuffle %{{.*}} [2, 3, 4, {{.*}}, 16, 17] : vector<16xi32>, vector<16xi32>
// CHECK: %[[W:.*]] = arith.addi
// CHECK: %[[PAIR:.*]] = vector.shuffle %[[W]], %[[W]] [0, 0, 0, 0, 0, 0, 0, 0, 2, 2, 2, 2, 2, 2, 2, 2] : vector<16xi32>, vector<16xi32>
// CHECK: scf.yield %[[PAIR]] : vector<16xi32>
// CHECK: } else {
// CHECK: %[[S0:.*]] = vector.shuffle %{{.*}} [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0] : vector<4xi32>, vector<4xi32>
// CHECK: %[[S1:.*]] = vector.shuffle %{{.*}} [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0] : vector<4xi32>, vector<4xi32>
// CHECK: %[[S:.*]] = arith.select %[[UPPER]], %[[S1]], %[[S0]] : vector<16xi1>, vector<16xi32>
// CHECK: scf.yield %[[S]] : vector<16xi32>
// CHECK: arith.addi %{{.*}}, %[[G]] : vector<16xi32>
// CHECK: %[[B:.*]] = vector.shuffle %[[V:.*]], %[[V]] [0, 1, 2, 3, 4, 5, 8, 9, 10, 11, 12, 13, 0, 0, 0, 0] : vector<16xi8>, vector<16xi8>
// CHECK: vector.maskedstore %[[ROWS]][%{{.*}}, %{{.*}}], %[[TWELVE]], %[[B]] : memref<1x54xi8>, vector<16xi1>, vector<16xi8>
// CHECK-COUNT-3: vector.maskedstore %[[ROWS]][%{{.*}}, %{{.*}}], %[[TWELVE]]
// CHECK: vector.maskedstore %[[ROWS]][%{{.*}}, %{{.*}}], %[[SIX]]
func.func @pairs6(%x: tensor<1x5x5x3xui8>) -> tensor<1x3x3x6xui8> {
  %w = arith.constant dense<"0x4457A6F52CE7916080F111BB88DD401A3B65D0D37925A3E90EE4293D67A47D73126B3FA5F7D02FCA58448EE48A2635ED7185727FBCB2A546E68D9F26E88DB62BBE8CA834A058355FFDFA7A3337C40F90221CE0573A0BCCD9A685FF01F07610408291D93BE0D71A37A7E9CD40490F471D850413F3A9878EBB87A2426539B903C99452CB526DA656698EEB7DA3765F54A9D41402EBC27F6304C2BE5FEB79AC08DF2DA7"> : tensor<6x3x3x3xui8>
  %b = arith.constant dense<"0x05EFFDFF9806FEFFAB07FEFFC0D9FDFFEEE7FEFF79D1FDFF"> : tensor<6xi32>
  %y = npu.conv2d %x, %w, %b {input_scale = 1.0 : f32, input_zero_point = 3 : i32, weight_scale = array<f32: 1.000000e+00>, weight_zero_point = 90 : i32, output_scale = 8.395629e+02 : f32, output_zero_point = 128 : i32, rounding = #qnn.rounding<tflite>, strides = array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, groups = 1 : i64, pad_value = 3 : i32, act_min = 0 : i32, act_max = 255 : i32} : (tensor<1x5x5x3xui8>, tensor<6x3x3x3xui8>, tensor<6xi32>) -> tensor<1x3x3x6xui8>
  return %y : tensor<1x3x3x6xui8>
}
