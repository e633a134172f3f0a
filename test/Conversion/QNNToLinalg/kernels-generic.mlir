// generic: portable vector kernels (no intrinsics); depthwise convolutions
// get their own kernel on every target; what no kernel handles falls back
// to linalg.generic.
// RUN: qnn-opt %s --split-input-file --convert-qnn-to-linalg | FileCheck %s
// RUN: qnn-opt %s --split-input-file --convert-qnn-to-linalg=target=avx512-vnni | FileCheck %s --check-prefix=VNNI
// RUN: qnn-opt %s --split-input-file --convert-qnn-to-linalg=target=loops | FileCheck %s --check-prefix=LOOPS
// RUN: qnn-opt %s --split-input-file --convert-qnn-to-linalg --qnn-materialize-conv-kernels | FileCheck %s --check-prefix=KERNEL
// With parallel=true the loop over (batch, pixel tile) is one scf.parallel
// (the dense layer's 3 rows are 3 pixels, fewer than one tile of 4: its
// kernel has no loop over tiles at all).
// RUN: qnn-opt %s --split-input-file --convert-qnn-to-linalg --qnn-materialize-conv-kernels="parallel=true parallel-min-work=0" | FileCheck %s --check-prefix=PAR

// A dense layer is a 1x1 convolution over a [1, 1, N, K] image.
// CHECK-LABEL: func.func @dense
// CHECK: tensor.expand_shape %arg0 {{\[\[}}0, 1, 2], [3]] output_shape [1, 1, 3, 20]
// CHECK: call @__qnn_kernel_generic_{{.*}} : (memref<1x1x3x20xi8>, memref<1x1x1x20x8xi16>, memref<8xi32>, memref<1x1x3x8xi32>) -> ()
// CHECK: tensor.extract_slice %{{.*}}[0, 0, 0, 0] [1, 1, 3, 6] [1, 1, 1, 1]
// CHECK: tensor.collapse_shape %{{.*}} {{\[\[}}0, 1, 2], [3]] : tensor<1x1x3x6xi32> into tensor<3x6xi32>
// VNNI-LABEL: func.func @dense
// VNNI: call @__qnn_kernel_vnni_{{.*}} : (memref<1x1x3x20xi8>, memref<1x1x1x5x64xi8>, memref<16xi32>, memref<1x1x3x16xi32>) -> ()
// LOOPS-LABEL: func.func @dense
// LOOPS-NOT: call
// LOOPS: linalg.generic
// The generic kernel: x - izp broadcast, times the widened weights; the 3
// pixels are one tile (3 accumulators).
// KERNEL-LABEL: func.func private @__qnn_kernel_generic
// KERNEL-NOT: target_features
// KERNEL: scf.for %{{.*}} iter_args(%[[A:.*]] = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) -> (vector<8xi32>, vector<8xi32>, vector<8xi32>)
// KERNEL: memref.load %arg0
// KERNEL: arith.extsi %{{.*}} : i8 to i32
// KERNEL: %[[X:.*]] = vector.broadcast %{{.*}} : i32 to vector<8xi32>
// KERNEL: %[[W:.*]] = arith.extsi %{{.*}} : vector<8xi16> to vector<8xi32>
// KERNEL: %[[P:.*]] = arith.muli %[[X]], %[[W]] : vector<8xi32>
// KERNEL: %[[S:.*]] = arith.addi %[[A]], %[[P]] : vector<8xi32>
// KERNEL: scf.yield %[[S]]
// KERNEL-NOT: llvm.call_intrinsic
// PAR-LABEL: func.func private @__qnn_kernel_generic
// PAR-NOT: scf.parallel
func.func @dense(%x: tensor<3x20xi8>) -> tensor<3x6xi32> {
  %w = arith.constant dense<5> : tensor<6x20xi8>
  %acc = qnn.dense %x, %w {input_scale = 0.5 : f32, input_zero_point = -3 : i32, weight_scale = array<f32: 0.25>, weight_zero_point = 0 : i32} : (tensor<3x20xi8>, tensor<6x20xi8>) -> tensor<3x6xi32>
  return %acc : tensor<3x6xi32>
}

// -----

// Depthwise with a channel multiplier of 2: [.., M, C] kernel output,
// transposed to channel-major order c * M + j.
// CHECK-LABEL: func.func @depthwise
// CHECK: linalg.fill ins(%c-128_i8 : i8) outs(%{{.*}} : tensor<1x7x7x16xi8>)
// CHECK: linalg.copy ins(%arg0 : tensor<1x5x5x3xi8>)
// CHECK: tensor.insert_slice %{{.*}} into %{{.*}}[0, 1, 1, 0] [1, 5, 5, 3] [1, 1, 1, 1] : tensor<1x5x5x3xi8> into tensor<1x7x7x16xi8>
// The zero point is not in the kernel: each output channel's constant
// holds -izp * sum(w - wzp) = -128 * 9 * (7 - 100) for the 3 real
// channels of each multiplier's block, and the padding holds izp.
// CHECK: arith.constant dense<[107136, 107136, 107136, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 107136, 107136, 107136, 0, {{.*}}]> : tensor<32xi32>
// CHECK: call @__qnn_kernel_dw_{{.*}} : (memref<1x7x7x16xi8>, memref<2x3x3x16xi16>, memref<32xi32>, memref<1x5x5x2x16xi32>) -> ()
// CHECK: tensor.extract_slice %{{.*}}[0, 0, 0, 0, 0] [1, 5, 5, 2, 3] [1, 1, 1, 1, 1]
// CHECK: linalg.transpose ins(%{{.*}} : tensor<1x5x5x2x3xi32>) outs(%{{.*}} : tensor<1x5x5x3x2xi32>) permutation = [0, 1, 2, 4, 3]
// CHECK: tensor.collapse_shape %{{.*}} {{\[\[}}0], [1], [2], [3, 4]] : tensor<1x5x5x3x2xi32> into tensor<1x5x5x6xi32>
// VNNI-LABEL: func.func @depthwise
// VNNI: call @__qnn_kernel_dwvnni_
// The generic depthwise kernel (the row-tile kernel of every depthwise
// flavor; 3 channels are not a multiple of 16, so it reads the padded
// copy): 4 pixels of a row per tile, the kernel rows as a loop carrying
// the accumulators, which start from the channels' constant (no
// subtraction of the zero point: x times w - wzp). Per kernel row, the 6
// distinct columns the 4 pixels read are loaded once, then the 3 taps'
// weights; tap 0 multiplies columns 0-3, tap 1 columns 1-4.
// KERNEL-LABEL: func.func private @__qnn_kernel_dw_1_7_7_16_5_5_3_3_1_1_1_1_32_0_0_0_2(
// KERNEL: scf.for %{{.*}} = %c0 to %c4 step %c4
// KERNEL: %[[C:.*]] = vector.load %arg2[%{{.*}}] : memref<32xi32>, vector<16xi32>
// KERNEL: scf.for %{{.*}} = %c0 to %c3 step %c1 iter_args(%[[A0:.*]] = %[[C]], %[[A1:.*]] = %[[C]], %{{.*}} = %[[C]], %{{.*}} = %[[C]])
// KERNEL-COUNT-6: arith.extui %{{.*}} : vector<16xi8> to vector<16xi32>
// KERNEL-NOT: arith.subi
// KERNEL: %[[W0:.*]] = arith.extsi %{{.*}} : vector<16xi16> to vector<16xi32>
// KERNEL: %[[W1:.*]] = arith.extsi %{{.*}} : vector<16xi16> to vector<16xi32>
// KERNEL: %[[W2:.*]] = arith.extsi %{{.*}} : vector<16xi16> to vector<16xi32>
// KERNEL: %[[P:.*]] = arith.muli %{{.*}}, %[[W0]] : vector<16xi32>
// KERNEL: %[[T0:.*]] = arith.addi %[[A0]], %[[P]] : vector<16xi32>
// KERNEL: %[[P1:.*]] = arith.muli %{{.*}}, %[[W0]] : vector<16xi32>
// KERNEL: arith.addi %[[A1]], %[[P1]] : vector<16xi32>
// KERNEL: %[[Q:.*]] = arith.muli %{{.*}}, %[[W1]] : vector<16xi32>
// KERNEL: arith.addi %[[T0]], %[[Q]] : vector<16xi32>
// PAR-LABEL: func.func private @__qnn_kernel_dw
// PAR: scf.parallel (%{{.*}}) = (%{{.*}}) to (%c5{{(_[0-9]+)?}}) step (%{{.*}})
// PAR: scf.for %{{.*}} = %{{.*}} to %c4{{(_[0-9]+)?}} step %c4{{(_[0-9]+)?}} {
// PAR: scf.reduce
func.func @depthwise(%x: tensor<1x5x5x3xui8>) -> tensor<1x5x5x6xi32> {
  %w = arith.constant dense<7> : tensor<1x3x3x6xui8>
  %acc = qnn.conv2d %x, %w {data_layout = #qnn.layout<NHWC>, dilations = array<i64: 1, 1>, groups = 3 : i64, input_scale = 0.5 : f32, input_zero_point = 128 : i32, kernel_layout = #qnn.kernel_layout<IHWO>, padding = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>, weight_scale = array<f32: 0.25>, weight_zero_point = 100 : i32} : (tensor<1x5x5x3xui8>, tensor<1x3x3x6xui8>) -> tensor<1x5x5x6xi32>
  return %acc : tensor<1x5x5x6xi32>
}

// -----

// Fall-backs: NCHW, runtime weights, grouped but not depthwise.
// CHECK-LABEL: func.func @nchw
// CHECK-NOT: call
// CHECK: linalg.generic
// VNNI-LABEL: func.func @nchw
// VNNI-NOT: call
// VNNI: linalg.generic
func.func @nchw(%x: tensor<1x8x4x4xi8>) -> tensor<1x16x4x4xi32> {
  %w = arith.constant dense<1> : tensor<16x8x1x1xi8>
  %acc = qnn.conv2d %x, %w {data_layout = #qnn.layout<NCHW>, dilations = array<i64: 1, 1>, groups = 1 : i64, input_scale = 0.5 : f32, input_zero_point = 0 : i32, kernel_layout = #qnn.kernel_layout<OIHW>, padding = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, weight_scale = array<f32: 0.25>, weight_zero_point = 0 : i32} : (tensor<1x8x4x4xi8>, tensor<16x8x1x1xi8>) -> tensor<1x16x4x4xi32>
  return %acc : tensor<1x16x4x4xi32>
}

// -----

// CHECK-LABEL: func.func @runtime_weights
// CHECK-NOT: call
// CHECK: linalg.generic
// VNNI-LABEL: func.func @runtime_weights
// VNNI-NOT: call
// VNNI: linalg.generic
func.func @runtime_weights(%x: tensor<1x4x4x8xi8>, %w: tensor<16x1x1x8xi8>) -> tensor<1x4x4x16xi32> {
  %acc = qnn.conv2d %x, %w {data_layout = #qnn.layout<NHWC>, dilations = array<i64: 1, 1>, groups = 1 : i64, input_scale = 0.5 : f32, input_zero_point = 0 : i32, kernel_layout = #qnn.kernel_layout<OHWI>, padding = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, weight_scale = array<f32: 0.25>, weight_zero_point = 0 : i32} : (tensor<1x4x4x8xi8>, tensor<16x1x1x8xi8>) -> tensor<1x4x4x16xi32>
  return %acc : tensor<1x4x4x16xi32>
}

// -----

// CHECK-LABEL: func.func @grouped
// CHECK-NOT: call
// CHECK: linalg.generic
func.func @grouped(%x: tensor<1x4x4x8xi8>) -> tensor<1x4x4x16xi32> {
  %w = arith.constant dense<1> : tensor<16x1x1x4xi8>
  %acc = qnn.conv2d %x, %w {data_layout = #qnn.layout<NHWC>, dilations = array<i64: 1, 1>, groups = 2 : i64, input_scale = 0.5 : f32, input_zero_point = 0 : i32, kernel_layout = #qnn.kernel_layout<OHWI>, padding = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, weight_scale = array<f32: 0.25>, weight_zero_point = 0 : i32} : (tensor<1x4x4x8xi8>, tensor<16x1x1x4xi8>) -> tensor<1x4x4x16xi32>
  return %acc : tensor<1x4x4x16xi32>
}
