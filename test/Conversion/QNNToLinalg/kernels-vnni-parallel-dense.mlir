// A GEMM kernel of few pixels streams its weights (kStreamedWeightWorkFactor
// multiply-adds per weight against parallel-min-work): a fully connected
// layer of 1024 -> 512 (524288 multiply-adds, 2 M by its weights) runs on
// threads at the default threshold, split by its output channels alone: one
// pixel, 32 blocks of 16 channels in 8 groups of 4, 8 parallel iterations,
// each the one-pixel rest tile of its group (4 accumulators), with no
// full-tile body. A layer of a quarter of the weights
// stays serial.
// RUN: qnn-opt %s --split-input-file --convert-qnn-to-linalg=target=avx512-vnni --qnn-materialize-conv-kernels="parallel=true" | FileCheck %s

// CHECK-LABEL: func.func private @__qnn_kernel_vnni_1_1_1_1024_1_1_1_1_1_1_1_1_512_0_0_0_1(
// CHECK: scf.parallel (%[[I:.*]]) = (%{{.*}}) to (%c8) step
// CHECK: arith.remui %[[I]], %c8{{(_[0-9]+)?}} : index
// CHECK-NOT: scf.if
// CHECK: scf.for {{.*}} -> (vector<16xi32>, vector<16xi32>, vector<16xi32>, vector<16xi32>) {
// CHECK-COUNT-4: llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"
// CHECK-NOT: llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"
// CHECK: scf.reduce
func.func @fc(%x: tensor<1x1024xi8>) -> tensor<1x512xi32> {
  %w = arith.constant dense<3> : tensor<512x1024xi8>
  %acc = qnn.dense %x, %w {input_scale = 0.5 : f32, input_zero_point = -3 : i32, weight_scale = array<f32: 0.25>, weight_zero_point = 0 : i32} : (tensor<1x1024xi8>, tensor<512x1024xi8>) -> tensor<1x512xi32>
  return %acc : tensor<1x512xi32>
}

// -----

// CHECK-LABEL: func.func private @__qnn_kernel_vnni_1_1_1_512_1_1_1_1_1_1_1_1_256_0_0_0_1(
// CHECK-NOT: scf.parallel
// CHECK: return
func.func @small_fc(%x: tensor<1x512xi8>) -> tensor<1x256xi32> {
  %w = arith.constant dense<3> : tensor<256x512xi8>
  %acc = qnn.dense %x, %w {input_scale = 0.5 : f32, input_zero_point = -3 : i32, weight_scale = array<f32: 0.25>, weight_zero_point = 0 : i32} : (tensor<1x512xi8>, tensor<256x512xi8>) -> tensor<1x256xi32>
  return %acc : tensor<1x256xi32>
}
