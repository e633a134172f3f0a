// int16: activations and weights widened to i16 with their zero points
// subtracted (x - izp and w - wzp are exact in i16; the activations by one
// elementwise op before the kernel), pairs of K multiplied
// and added by vpmaddwd. A 3x3 stride-2 padded u8 convolution with both
// zero points and 7 input channels (padded to 8 with izp), 5 output
// channels (padded to 8).
// RUN: qnn-opt %s --convert-qnn-to-linalg=target=int16 | FileCheck %s --check-prefix=CALL
// RUN: qnn-opt %s --convert-qnn-to-linalg=target=int16 --qnn-materialize-conv-kernels | FileCheck %s --check-prefix=KERNEL
// RUN: qnn-opt %s --qnn-lower-to-llvm=target=int16 | FileCheck %s --check-prefix=LLVM
// RUN: qnn-opt %s --qnn-lower-to-llvm=target=int16-avx512bw | FileCheck %s --check-prefix=AVX512

func.func @conv3x3(%x: tensor<1x6x6x7xui8>) -> tensor<1x3x3x5xi32> {
  %w = arith.constant dense<200> : tensor<5x3x3x7xui8>
  %acc = qnn.conv2d %x, %w {data_layout = #qnn.layout<NHWC>, dilations = array<i64: 1, 1>, groups = 1 : i64, input_scale = 0.5 : f32, input_zero_point = 131 : i32, kernel_layout = #qnn.kernel_layout<OHWI>, padding = array<i64: 1, 1, 0, 0>, strides = array<i64: 2, 2>, weight_scale = array<f32: 0.25>, weight_zero_point = 120 : i32} : (tensor<1x6x6x7xui8>, tensor<5x3x3x7xui8>) -> tensor<1x3x3x5xi32>
  return %acc : tensor<1x3x3x5xi32>
}

// The input is widened once: x - izp (izp = 131) as i16, then padded with
// 0 (the zero point's value): 1 row/column before, one channel after, a
// fill and a copy into the interior slice (bufferized in place, no strided
// memref.copy). The packed weights hold w - wzp = 80 as i16 (zero in the
// padded channel and output channels); the result is sliced back to 5.
// The kernel never reads the zero point (the spec's izp is 0).
// CALL-LABEL: func.func @conv3x3
// CALL: %[[WIDE:.*]] = linalg.generic {{.*}} ins(%arg0 : tensor<1x6x6x7xi8>) outs(%{{.*}} : tensor<1x6x6x7xi16>)
// CALL: %[[E:.*]] = arith.extui %{{.*}} : i8 to i16
// CALL: arith.subi %[[E]], %c131_i16 : i16
// CALL: %[[FILL:.*]] = linalg.fill ins(%c0_i16 : i16) outs(%{{.*}} : tensor<1x7x7x8xi16>)
// CALL: %[[SLICE:.*]] = tensor.extract_slice %[[FILL]][0, 1, 1, 0] [1, 6, 6, 7] [1, 1, 1, 1]
// CALL: %[[COPY:.*]] = linalg.copy ins(%[[WIDE]] : tensor<1x6x6x7xi16>) outs(%[[SLICE]] : tensor<1x6x6x7xi16>)
// CALL: %[[PAD:.*]] = tensor.insert_slice %[[COPY]] into %[[FILL]][0, 1, 1, 0] [1, 6, 6, 7] [1, 1, 1, 1]
// CALL: %[[XB:.*]] = bufferization.to_buffer %[[PAD]] read_only
// CALL: call @[[K:__qnn_kernel_int16[_0-9a-z]*]](%[[XB]], %{{.*}}, %{{.*}}, %[[OUT:.*]]) : (memref<1x7x7x8xi16>, memref<1x3x3x4x16xi16>, memref<8xi32>, memref<1x3x3x8xi32>) -> ()
// CALL: %[[T:.*]] = bufferization.to_tensor %[[OUT]]
// CALL: tensor.extract_slice %[[T]][0, 0, 0, 0] [1, 3, 3, 5] [1, 1, 1, 1]
// CALL: func.func private @[[K]]
// CALL-SAME: qnn.conv_kernel = array<i64: 1, 1, 7, 7, 8, 3, 3, 3, 3, 2, 2, 1, 1, 8, 1, 0, 0, 1>

// Accumulators (4 pixels of a row) carried through the kh and kw loops;
// the 4 channel pairs of a tap (K = 8) are unrolled inside them, each
// pmaddwd adding to the previous pair's sum.
// KERNEL-LABEL: func.func private @__qnn_kernel_int16
// KERNEL-SAME: target_features = #llvm.target_features<["+avx2"]>
// KERNEL: scf.for %{{.*}} iter_args(%[[H:[^ ]*]] = %{{.*}}) -> (vector<8xi32>, vector<8xi32>, vector<8xi32>, vector<8xi32>)
// KERNEL: scf.for %{{.*}} iter_args(%[[A:[^ ]*]] = %[[H]], {{.*}}) -> (vector<8xi32>, vector<8xi32>, vector<8xi32>, vector<8xi32>)
// KERNEL-NOT: scf.for
// Each broadcast is one load of a pair of widened activations.
// KERNEL: vector.load %arg0{{.*}} : memref<1x7x7x8xi16>, vector<2xi16>
// KERNEL-NOT: arith.subi
// KERNEL: %[[X:.*]] = vector.bitcast %{{.*}} : vector<8xi32> to vector<16xi16>
// KERNEL: %[[W:.*]] = vector.load %arg1{{.*}} : memref<1x3x3x4x16xi16>, vector<16xi16>
// KERNEL: %[[P:.*]] = llvm.call_intrinsic "llvm.x86.avx2.pmadd.wd"(%[[X]], %[[W]]) : (vector<16xi16>, vector<16xi16>) -> vector<8xi32>
// KERNEL: %[[S:.*]] = arith.addi %[[A]], %[[P]] : vector<8xi32>
// KERNEL: %[[W1:.*]] = vector.load %arg1{{.*}} : memref<1x3x3x4x16xi16>, vector<16xi16>
// KERNEL: %[[P1:.*]] = llvm.call_intrinsic "llvm.x86.avx2.pmadd.wd"(%{{.*}}, %[[W1]])
// KERNEL: arith.addi %[[S]], %[[P1]] : vector<8xi32>
// KERNEL-COUNT-2: vector.load %arg1{{.*}} : memref<1x3x3x4x16xi16>, vector<16xi16>
// KERNEL: scf.yield

// LLVM: llvm.func @__qnn_kernel_int16
// LLVM-NOT: vpdpbusd
// LLVM: llvm.call_intrinsic "llvm.x86.avx2.pmadd.wd"
// LLVM-NOT: vpdpbusd

// AVX512: llvm.func @__qnn_kernel_int16_512
// AVX512-SAME: target_features = #llvm.target_features<["+avx512f", "+avx512bw"]>
// AVX512-NOT: vpdpbusd
// AVX512: llvm.call_intrinsic "llvm.x86.avx512.pmaddw.d.512"(%{{.*}}, %{{.*}}) : (vector<32xi16>, vector<32xi16>) -> vector<16xi32>
// AVX512-NOT: vpdpbusd

// -----

// A pointwise layer of 16 channels (two blocks of 8): tiles of 5 pixels x
// 2 blocks (10 accumulators), on the [1, 12] plane the kernel sees for
// [3, 4]: 2 tiles, then a rest tile of 2 pixels (pixels 10 and 11). Each
// K step (a pair of channels) broadcasts the 5 pixels' pairs and issues 10
// vpmaddwd.
// RUN: qnn-opt %s --split-input-file --convert-qnn-to-linalg=target=int16 --qnn-materialize-conv-kernels | FileCheck %s --check-prefix=TILE
// TILE-LABEL: func.func private @__qnn_kernel_int16_1_3_4_8_3_4_1_1_1_1_1_1_16_
// TILE: %[[X:.*]] = memref.expand_shape %{{.*}} output_shape [1, 1, 12, 8] : memref<1x12x8xi16> into memref<1x1x12x8xi16>
// TILE: scf.for %{{.*}} = %c0 to %c2 step %c1 {
// TILE-COUNT-5: vector.load %[[X]][{{.*}}] : memref<1x1x12x8xi16>, vector<2xi16>
// TILE-NOT: vector.load %[[X]]
// TILE-COUNT-10: llvm.call_intrinsic "llvm.x86.avx2.pmadd.wd"
// TILE-NOT: llvm.call_intrinsic "llvm.x86.avx2.pmadd.wd"
// TILE-COUNT-5: vector.load %[[X]][{{.*}}] : memref<1x1x12x8xi16>, vector<2xi16>
// TILE: vector.store %{{.*}}, %{{.*}}[%{{.*}}, %c0, %{{.*}}, %{{.*}}] : memref<1x1x12x16xi32>, vector<8xi32>
// The rest tile: 2 pixels, 4 vpmaddwd per step.
// TILE: arith.addi %c10, %c1
// TILE-COUNT-2: vector.load %[[X]][{{.*}}] : memref<1x1x12x8xi16>, vector<2xi16>
// TILE-NOT: vector.load %[[X]]
// TILE-COUNT-4: llvm.call_intrinsic "llvm.x86.avx2.pmadd.wd"
// TILE-NOT: llvm.call_intrinsic "llvm.x86.avx2.pmadd.wd"
// TILE-COUNT-2: vector.load %[[X]][{{.*}}] : memref<1x1x12x8xi16>, vector<2xi16>
// TILE: vector.store %{{.*}}, %{{.*}}[%{{.*}}, %c0, %c10, %{{.*}}] : memref<1x1x12x16xi32>, vector<8xi32>
func.func @pointwise16(%x: tensor<1x3x4x8xi8>) -> tensor<1x3x4x16xi32> {
  %w = arith.constant dense<3> : tensor<16x1x1x8xi8>
  %acc = qnn.conv2d %x, %w {data_layout = #qnn.layout<NHWC>, dilations = array<i64: 1, 1>, groups = 1 : i64, input_scale = 0.5 : f32, input_zero_point = -3 : i32, kernel_layout = #qnn.kernel_layout<OHWI>, padding = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, weight_scale = array<f32: 0.01>, weight_zero_point = 0 : i32} : (tensor<1x3x4x8xi8>, tensor<16x1x1x8xi8>) -> tensor<1x3x4x16xi32>
  return %acc : tensor<1x3x4x16xi32>
}
