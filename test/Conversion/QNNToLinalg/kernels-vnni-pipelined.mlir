// Pointwise VNNI kernels whose epilogue reads at most two per-channel
// vectors besides the bias (the multiplier, and a per-channel shift that a
// common shift replaces or one lifted constant), without per-lane shifts,
// are software-pipelined across units (a tile of pixels and one group of
// blocks): each unit's accumulators are carried to the next unit in
// registers (iter_args), and that unit applies their epilogue (requantize,
// packed 8-bit store) pixel by pixel between its first, unrolled, K steps;
// unit 0 runs alone before the unit loop (a plain reduction loop: it has
// no epilogue to interleave), the last unit's epilogue after it. Pixels
// left after the full tiles are one more tile ending at the last pixel in
// serial code (recomputing pixels of the tile before it); with threads
// too where the last strip holds every unit of the tile that last tile
// overlaps (one thread writes those pixels twice), a plain tile after the
// parallel loop otherwise. A pointwise kernel sees its [h, w] plane
// as [1, h * w] (pixel m at row 0, column m: no division per pixel). With
// threads, each parallel iteration pipelines a strip of consecutive units.
// RUN: qnn-opt %s --split-input-file --pass-pipeline='builtin.module(convert-qnn-to-linalg{target=avx512-vnni floor-affine=false},func.func(tosa-to-linalg-named,tosa-to-linalg,tosa-to-arith,tosa-to-tensor),canonicalize,linalg-fuse-elementwise-ops,qnn-fuse-kernel-epilogues,one-shot-bufferize{bufferize-function-boundaries},qnn-materialize-conv-kernels)' | FileCheck %s
// Emulated VNNI (no packed stores) takes the same path, with one store
// per block.
// RUN: qnn-opt %s --split-input-file --pass-pipeline='builtin.module(convert-qnn-to-linalg{target=avx512-vnni floor-affine=false},func.func(tosa-to-linalg-named,tosa-to-linalg,tosa-to-arith,tosa-to-tensor),canonicalize,linalg-fuse-elementwise-ops,qnn-fuse-kernel-epilogues,one-shot-bufferize{bufferize-function-boundaries},qnn-materialize-conv-kernels{emulate-vnni=true})' | FileCheck %s --check-prefix=EMU
// The int16 kernels are not pipelined (16 registers on AVX2).
// RUN: qnn-opt %s --split-input-file --pass-pipeline='builtin.module(convert-qnn-to-linalg{target=int16},func.func(tosa-to-linalg-named,tosa-to-linalg,tosa-to-arith,tosa-to-tensor),canonicalize,linalg-fuse-elementwise-ops,qnn-fuse-kernel-epilogues,one-shot-bufferize{bufferize-function-boundaries},qnn-materialize-conv-kernels)' | FileCheck %s --check-prefix=INT16
// With threads, strips of units (16 for 22 units) are the parallel
// iterations.
// RUN: qnn-opt %s --split-input-file --pass-pipeline='builtin.module(convert-qnn-to-linalg{target=avx512-vnni floor-affine=false},func.func(tosa-to-linalg-named,tosa-to-linalg,tosa-to-arith,tosa-to-tensor),canonicalize,linalg-fuse-elementwise-ops,qnn-fuse-kernel-epilogues,one-shot-bufferize{bufferize-function-boundaries},qnn-materialize-conv-kernels{parallel=true parallel-min-work=0})' | FileCheck %s --check-prefix=PAR
// Parallel code whose kernel is too small for threads (below
// parallel-min-work) runs serially, pipelined.
// RUN: qnn-opt %s --split-input-file --pass-pipeline='builtin.module(convert-qnn-to-linalg{target=avx512-vnni floor-affine=false},func.func(tosa-to-linalg-named,tosa-to-linalg,tosa-to-arith,tosa-to-tensor),canonicalize,linalg-fuse-elementwise-ops,qnn-fuse-kernel-epilogues,one-shot-bufferize{bufferize-function-boundaries},qnn-materialize-conv-kernels{parallel=true})' | FileCheck %s --check-prefix=SMALL

// K = 128 (32 steps, the first 8 unrolled), 128 channels (2 groups of 4
// blocks), 35 pixels: units of 3 pixels, 11 tiles and a rest of 2. Serial
// code: 12 tiles x 2 groups, the last tile from pixel 32 (arith.minui),
// which recomputes pixel 32; no rest tile.
// CHECK-LABEL: func.func private @__qnn_kernel_vnni_1_5_7_128_
// CHECK-NOT: memref.alloca
// CHECK: %[[XROWS:.*]] = memref.collapse_shape %arg0 {{\[\[}}0], [1, 2], [3]] : memref<1x5x7x128xi8> into memref<1x35x128xi8>
// CHECK: %[[X:.*]] = memref.expand_shape %[[XROWS]] {{\[\[}}0], [1, 2], [3]] output_shape [1, 1, 35, 128]
// CHECK: %[[OUTROWS:.*]] = memref.collapse_shape %arg3 {{\[\[}}0], [1, 2], [3]] : memref<1x5x7x128xi8> into memref<1x35x128xi8>
// CHECK: %[[OUT:.*]] = memref.expand_shape %[[OUTROWS]]
// CHECK: scf.for %[[N:.*]] = %c0{{.*}} to %c1{{.*}} step
// Unit 0: its reduction alone, a loop over the 32 steps.
// CHECK: %[[FIRST:.*]]:12 = scf.for %{{.*}} = %c0{{.*}} to %c32{{.*}} step %{{.*}} iter_args
// CHECK: vector.load %[[X]][%[[N]], %{{.*}}, %{{.*}}, %{{.*}}] : memref<1x1x35x128xi8>, vector<4xi8>
// CHECK-COUNT-12: llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"
// CHECK-NOT: vector.store
// CHECK: scf.yield
// Units 1..23, each with the previous unit's 3 pixels' epilogues (packed
// stores) among its unrolled steps.
// Unit u's tile u / 2 and group u mod 2 come through empty inline-asm
// copies, which keep the unit loop's induction variable out of LLVM's
// address arithmetic (loop strength reduction's cost).
// CHECK: %[[LAST:.*]]:12 = scf.for %[[U:.*]] = %c1{{.*}} to %c24{{.*}} step %{{.*}} iter_args(%{{.*}} = %[[FIRST]]#0,
// CHECK: %[[UT:.*]] = arith.divui %[[U]], %c2 : index
// CHECK-NEXT: %[[UT64:.*]] = arith.index_cast %[[UT]] : index to i64
// CHECK-NEXT: llvm.inline_asm "", "=r,0" %[[UT64]] : (i64) -> i64
// CHECK: %[[UG:.*]] = arith.remui %[[U]], %c2 : index
// CHECK-NEXT: %[[UG64:.*]] = arith.index_cast %[[UG]] : index to i64
// CHECK-NEXT: llvm.inline_asm "", "=r,0" %[[UG64]] : (i64) -> i64
// CHECK: arith.minui %{{.*}}, %c32
// CHECK-NOT: arith.divui %{{.*}}, %c7
// CHECK-COUNT-12: llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"
// CHECK: llvm.call_intrinsic "llvm.x86.avx512.permvar.si.512"
// CHECK: vector.store %{{.*}}, %[[OUT]][%[[N]], %c0, {{.*}}] : memref<1x1x35x128xi8>, vector<64xi8>
// CHECK: vector.store %{{.*}}, %[[OUT]][%[[N]], %c0, {{.*}}] : memref<1x1x35x128xi8>, vector<64xi8>
// CHECK: vector.store %{{.*}}, %[[OUT]][%[[N]], %c0, {{.*}}] : memref<1x1x35x128xi8>, vector<64xi8>
// CHECK: scf.for %{{.*}} = %c8{{.*}} to %c32{{.*}} step %{{.*}} iter_args
// CHECK: scf.yield
// CHECK: scf.yield
// The last unit's epilogue; no rest tile.
// CHECK: %[[TWICE:.*]] = arith.addi %[[LAST]]#0, %[[LAST]]#0 : vector<16xi32>
// CHECK: vector.bitcast %[[TWICE]] : vector<16xi32> to vector<8xi64>
// CHECK-COUNT-3: vector.store %{{.*}} vector<64xi8>
// CHECK-NOT: llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"
// CHECK: return

// EMU-LABEL: func.func private @__qnn_kernel_vnni_1_5_7_128_
// EMU: scf.for %{{.*}} = %c1{{.*}} to %c24{{.*}} step %{{.*}} iter_args
// EMU: vector.store %{{.*}}, %{{.*}}[{{.*}}] : memref<1x1x35x128xi8>, vector<16xi8>

// INT16-LABEL: func.func private @__qnn_kernel_int16_1_5_7_128_
// INT16-NOT: to %c24
// INT16: return

// SMALL-LABEL: func.func private @__qnn_kernel_vnni_1_5_7_128_
// SMALL-NOT: scf.parallel
// SMALL: scf.for %{{.*}} = %c1{{.*}} to %c24{{.*}} step %{{.*}} iter_args

// PAR-LABEL: func.func private @__qnn_kernel_vnni_1_5_7_128_
// PAR: scf.parallel (%[[S:.*]]) = (%c0) to (%c16) step (%c1) {
// PAR: %[[BEGIN1:.*]] = arith.muli %[[S]], %c22
// PAR: %[[BEGIN:.*]] = arith.divui %[[BEGIN1]], %c16
// PAR: %[[S1:.*]] = arith.addi %[[S]], %c1
// PAR: %[[END1:.*]] = arith.muli %[[S1]], %c22
// PAR: %[[END:.*]] = arith.divui %[[END1]], %c16
// PAR: %[[NEXT:.*]] = arith.addi %[[BEGIN]], %c1
// PAR: scf.for %{{.*}} = %c0 to %c32
// PAR-COUNT-12: llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"
// PAR: scf.for %{{.*}} = %[[NEXT]] to %[[END]] step %c1 iter_args
// PAR: vector.store %{{.*}} vector<64xi8>
// PAR: scf.reduce
// With threads, 12 tiles would be 24 units in 16 strips, the last strip
// from unit 22 (tile 11), which would leave tile 10's units to another
// thread: the 2 pixels left are a rest tile after the parallel loop.
// PAR: vector.store %{{.*}}, %{{.*}}[%{{.*}}, %c0, %c33, %{{.*}}] : memref<1x1x35x128xi8>, vector<64xi8>
func.func @k128(%x: tensor<1x5x7x128xi8>) -> tensor<1x5x7x128xi8> {
  %w = arith.constant dense<3> : tensor<128x1x1x128xi8>
  %b = arith.constant dense<100> : tensor<1x1x1x128xi32>
  %c = qnn.conv2d %x, %w {data_layout = #qnn.layout<NHWC>, dilations = array<i64: 1, 1>, groups = 1 : i64, input_scale = 5.000000e-01 : f32, input_zero_point = -1 : i32, kernel_layout = #qnn.kernel_layout<OHWI>, padding = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, weight_scale = array<f32: 0.005>, weight_zero_point = 0 : i32} : (tensor<1x5x7x128xi8>, tensor<128x1x1x128xi8>) -> tensor<1x5x7x128xi32>
  %a = tosa.add %c, %b : (tensor<1x5x7x128xi32>, tensor<1x1x1x128xi32>) -> tensor<1x5x7x128xi32>
  %y = qnn.requantize %a {input_scale = array<f64: 0.0025>, input_zero_point = 0 : i32, output_scale = 0.05 : f32, output_zero_point = 3 : i32} : tensor<1x5x7x128xi32> -> tensor<1x5x7x128xi8>
  return %y : tensor<1x5x7x128xi8>
}

// -----

// K = 32 (8 steps, all unrolled): 21 pixels, one group: 7 units of 3
// pixels, no rest. Pixel r of the previous unit is stored after step
// r * 8 / 3 (steps 0, 3 and 6).
// CHECK-LABEL: func.func private @__qnn_kernel_vnni_1_3_7_32_
// CHECK: scf.for %{{.*}} = %c1{{.*}} to %c7{{.*}} step %{{.*}} iter_args
// CHECK-COUNT-12: llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"
// CHECK: vector.store %{{.*}} vector<64xi8>
// CHECK-COUNT-36: llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"
// CHECK: vector.store %{{.*}} vector<64xi8>
// CHECK-COUNT-36: llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"
// CHECK: vector.store %{{.*}} vector<64xi8>
// CHECK-COUNT-12: llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"
// CHECK-NOT: scf.for
// CHECK: scf.yield
// CHECK-COUNT-3: vector.store %{{.*}} vector<64xi8>
// CHECK-NOT: llvm.x86.avx512.vpdpbusd.512
// CHECK: return
// PAR-LABEL: func.func private @__qnn_kernel_vnni_1_3_7_32_
// PAR: scf.parallel (%{{.*}}) = (%c0) to (%c7) step (%c1) {
// PAR: scf.for %{{.*}} = %c0 to %c8 step %c1 iter_args
// PAR: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %c1 iter_args
func.func @k32(%x: tensor<1x3x7x32xi8>) -> tensor<1x3x7x64xi8> {
  %w = arith.constant dense<3> : tensor<64x1x1x32xi8>
  %b = arith.constant dense<100> : tensor<1x1x1x64xi32>
  %c = qnn.conv2d %x, %w {data_layout = #qnn.layout<NHWC>, dilations = array<i64: 1, 1>, groups = 1 : i64, input_scale = 5.000000e-01 : f32, input_zero_point = -1 : i32, kernel_layout = #qnn.kernel_layout<OHWI>, padding = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, weight_scale = array<f32: 0.005>, weight_zero_point = 0 : i32} : (tensor<1x3x7x32xi8>, tensor<64x1x1x32xi8>) -> tensor<1x3x7x64xi32>
  %a = tosa.add %c, %b : (tensor<1x3x7x64xi32>, tensor<1x1x1x64xi32>) -> tensor<1x3x7x64xi32>
  %y = qnn.requantize %a {input_scale = array<f64: 0.0025>, input_zero_point = 0 : i32, output_scale = 0.05 : f32, output_zero_point = 3 : i32} : tensor<1x3x7x64xi32> -> tensor<1x3x7x64xi8>
  return %y : tensor<1x3x7x64xi8>
}

// -----

// K = 512 (128 steps), 64 channels, 16 pixels: a long reduction (K >=
// 256) takes units of 6 pixels x 2 blocks rather than 3 x 4 (the same 12
// accumulators, 2 weight vectors per step instead of 4): 2 groups of 2
// blocks, 2 tiles of 6 pixels (4 units, 1..3 in the unit loop) and a last
// tile for the 4 pixels left. Unit 0's reduction loads 2 weight vectors and issues
// 12 vpdpbusd per step.
// CHECK-LABEL: func.func private @__qnn_kernel_vnni_1_2_8_512_
// CHECK-NOT: memref.alloca
// CHECK: %[[FIRST:.*]]:12 = scf.for %{{.*}} = %c0{{.*}} to %c128{{.*}} step %{{.*}} iter_args
// CHECK-COUNT-2: vector.load %arg1[{{.*}}] : memref<4x1x1x128x64xi8>, vector<64xi8>
// CHECK-COUNT-12: llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"
// CHECK-NEXT: scf.yield
// CHECK: scf.for %{{.*}} = %c1{{.*}} to %c4{{.*}} step %{{.*}} iter_args(%{{.*}} = %[[FIRST]]#0,
func.func @k512(%x: tensor<1x2x8x512xi8>) -> tensor<1x2x8x64xi8> {
  %w = arith.constant dense<3> : tensor<64x1x1x512xi8>
  %b = arith.constant dense<100> : tensor<1x1x1x64xi32>
  %c = qnn.conv2d %x, %w {data_layout = #qnn.layout<NHWC>, dilations = array<i64: 1, 1>, groups = 1 : i64, input_scale = 5.000000e-01 : f32, input_zero_point = -1 : i32, kernel_layout = #qnn.kernel_layout<OHWI>, padding = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, weight_scale = array<f32: 0.005>, weight_zero_point = 0 : i32} : (tensor<1x2x8x512xi8>, tensor<64x1x1x512xi8>) -> tensor<1x2x8x64xi32>
  %a = tosa.add %c, %b : (tensor<1x2x8x64xi32>, tensor<1x1x1x64xi32>) -> tensor<1x2x8x64xi32>
  %y = qnn.requantize %a {input_scale = array<f64: 0.0025>, input_zero_point = 0 : i32, output_scale = 0.05 : f32, output_zero_point = 3 : i32} : tensor<1x2x8x64xi32> -> tensor<1x2x8x64xi8>
  return %y : tensor<1x2x8x64xi8>
}

// -----

// K = 512, 64 channels, 49 pixels (a 7x7 layer): units of 6 pixels would
// take 9 tiles (54 pixels, the last recomputing 5), so plain tiles of 7
// pixels x 2 blocks instead (sevenRows): no unit loop, each step of the
// reduction loads 2 weight vectors and issues 14 vpdpbusd.
// CHECK-LABEL: func.func private @__qnn_kernel_vnni_1_7_7_512_
// CHECK: scf.for %{{.*}} = %c0{{.*}} to %c128{{.*}} step %{{.*}} iter_args
// CHECK-COUNT-2: vector.load %arg1[{{.*}}] : memref<4x1x1x128x64xi8>, vector<64xi8>
// CHECK-COUNT-14: llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"
// CHECK-NEXT: scf.yield
// CHECK: return
func.func @k512x49(%x: tensor<1x7x7x512xi8>) -> tensor<1x7x7x64xi8> {
  %w = arith.constant dense<3> : tensor<64x1x1x512xi8>
  %b = arith.constant dense<100> : tensor<1x1x1x64xi32>
  %c = qnn.conv2d %x, %w {data_layout = #qnn.layout<NHWC>, dilations = array<i64: 1, 1>, groups = 1 : i64, input_scale = 5.000000e-01 : f32, input_zero_point = -1 : i32, kernel_layout = #qnn.kernel_layout<OHWI>, padding = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, weight_scale = array<f32: 0.005>, weight_zero_point = 0 : i32} : (tensor<1x7x7x512xi8>, tensor<64x1x1x512xi8>) -> tensor<1x7x7x64xi32>
  %a = tosa.add %c, %b : (tensor<1x7x7x64xi32>, tensor<1x1x1x64xi32>) -> tensor<1x7x7x64xi32>
  %y = qnn.requantize %a {input_scale = array<f64: 0.0025>, input_zero_point = 0 : i32, output_scale = 0.05 : f32, output_zero_point = 3 : i32} : tensor<1x7x7x64xi32> -> tensor<1x7x7x64xi8>
  return %y : tensor<1x7x7x64xi8>
}

// -----

// K = 16 (4 steps), 96 channels (6 blocks: pairs, not fours): units of
// 6 pixels x 2 blocks at any K, as for K >= 256.
// 28 pixels: 4 tiles x 3 groups (12 units, 1..11 in the unit loop) and
// a rest tile of 4. Unit 0 loads 2 weight vectors and issues 12 vpdpbusd
// per step.
// CHECK-LABEL: func.func private @__qnn_kernel_vnni_1_4_7_16_
// CHECK-NOT: memref.alloca
// CHECK: %[[FIRST:.*]]:12 = scf.for %{{.*}} = %c0{{.*}} to %c4{{.*}} step %{{.*}} iter_args
// CHECK-COUNT-2: vector.load %arg1[{{.*}}] : memref<6x1x1x4x64xi8>, vector<64xi8>
// CHECK-COUNT-12: llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"
// CHECK-NEXT: scf.yield
// CHECK: scf.for %{{.*}} = %c1{{.*}} to %c12{{.*}} step %{{.*}} iter_args(%{{.*}} = %[[FIRST]]#0,
func.func @k16x96(%x: tensor<1x4x7x16xui8>) -> tensor<1x4x7x96xui8> {
  %w = arith.constant dense<3> : tensor<96x1x1x16xi8>
  %b = arith.constant dense<100> : tensor<1x1x1x96xi32>
  %c = qnn.conv2d %x, %w {data_layout = #qnn.layout<NHWC>, dilations = array<i64: 1, 1>, groups = 1 : i64, input_scale = 5.000000e-01 : f32, input_zero_point = 128 : i32, kernel_layout = #qnn.kernel_layout<OHWI>, padding = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, weight_scale = array<f32: 0.005>, weight_zero_point = 0 : i32} : (tensor<1x4x7x16xui8>, tensor<96x1x1x16xi8>) -> tensor<1x4x7x96xi32>
  %a = tosa.add %c, %b : (tensor<1x4x7x96xi32>, tensor<1x1x1x96xi32>) -> tensor<1x4x7x96xi32>
  %y = qnn.requantize %a {input_scale = array<f64: 0.0025>, input_zero_point = 0 : i32, output_scale = 0.05 : f32, output_zero_point = 3 : i32} : tensor<1x4x7x96xi32> -> tensor<1x4x7x96xui8>
  return %y : tensor<1x4x7x96xui8>
}

// -----

// 144 channels (9 blocks): groups of 3 blocks when pipelined (3 groups
// rather than 9 single blocks), each pixel's 48 bytes packed as four
// blocks (the third twice) and stored as 48 bytes. 15 pixels: 5 tiles x 3
// groups.
// CHECK-LABEL: func.func private @__qnn_kernel_vnni_1_3_5_24_
// CHECK: scf.for %{{.*}} = %c1{{.*}} to %c15{{.*}} step %{{.*}} iter_args
// CHECK-COUNT-9: llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"
// CHECK: vector.extract_strided_slice %{{.*}} {offsets = [0], sizes = [48], strides = [1]} : vector<64xi8> to vector<48xi8>
// CHECK: vector.store %{{.*}} : memref<1x1x15x144xi8>, vector<48xi8>
func.func @k24x144(%x: tensor<1x3x5x24xui8>) -> tensor<1x3x5x144xui8> {
  %w = arith.constant dense<3> : tensor<144x1x1x24xi8>
  %b = arith.constant dense<100> : tensor<1x1x1x144xi32>
  %c = qnn.conv2d %x, %w {data_layout = #qnn.layout<NHWC>, dilations = array<i64: 1, 1>, groups = 1 : i64, input_scale = 5.000000e-01 : f32, input_zero_point = 128 : i32, kernel_layout = #qnn.kernel_layout<OHWI>, padding = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, weight_scale = array<f32: 0.005>, weight_zero_point = 0 : i32} : (tensor<1x3x5x24xui8>, tensor<144x1x1x24xi8>) -> tensor<1x3x5x144xi32>
  %a = tosa.add %c, %b : (tensor<1x3x5x144xi32>, tensor<1x1x1x144xi32>) -> tensor<1x3x5x144xi32>
  %y = qnn.requantize %a {input_scale = array<f64: 0.0025>, input_zero_point = 0 : i32, output_scale = 0.05 : f32, output_zero_point = 3 : i32} : tensor<1x3x5x144xi32> -> tensor<1x3x5x144xui8>
  return %y : tensor<1x3x5x144xui8>
}

// -----

// Per-channel scales whose shifts lie 12 apart, more than a common shift
// can absorb (|acc| < 2^21 leaves 10 bits): the epilogue reads per-lane
// shifts and rounding terms, more registers than two units' accumulators
// leave (up to 10% slower pipelined on Zen 4): plain tiles (loops from 0,
// no unit loop from 1).
// CHECK-LABEL: func.func private @__qnn_kernel_vnni_1_3_7_32_
// CHECK-NOT: scf.for %{{.*}} = %c1{{.*}} to
// CHECK: return
func.func @shifts(%x: tensor<1x3x7x32xi8>) -> tensor<1x3x7x64xi8> {
  %w = arith.constant dense<3> : tensor<64x1x1x32xi8>
  %b = arith.constant dense<100> : tensor<1x1x1x64xi32>
  %c = qnn.conv2d %x, %w {data_layout = #qnn.layout<NHWC>, dilations = array<i64: 1, 1>, groups = 1 : i64, input_scale = 5.000000e-01 : f32, input_zero_point = -1 : i32, kernel_layout = #qnn.kernel_layout<OHWI>, padding = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, weight_scale = array<f32: 2.000000e-05, 4.000000e-05, 8.000000e-05, 1.600000e-04, 3.200000e-04, 6.400000e-04, 1.280000e-03, 2.560000e-03, 5.120000e-03, 1.024000e-02, 2.048000e-02, 4.096000e-02, 8.192000e-02, 2.000000e-05, 4.000000e-05, 8.000000e-05, 1.600000e-04, 3.200000e-04, 6.400000e-04, 1.280000e-03, 2.560000e-03, 5.120000e-03, 1.024000e-02, 2.048000e-02, 4.096000e-02, 8.192000e-02, 2.000000e-05, 4.000000e-05, 8.000000e-05, 1.600000e-04, 3.200000e-04, 6.400000e-04, 1.280000e-03, 2.560000e-03, 5.120000e-03, 1.024000e-02, 2.048000e-02, 4.096000e-02, 8.192000e-02, 2.000000e-05, 4.000000e-05, 8.000000e-05, 1.600000e-04, 3.200000e-04, 6.400000e-04, 1.280000e-03, 2.560000e-03, 5.120000e-03, 1.024000e-02, 2.048000e-02, 4.096000e-02, 8.192000e-02, 2.000000e-05, 4.000000e-05, 8.000000e-05, 1.600000e-04, 3.200000e-04, 6.400000e-04, 1.280000e-03, 2.560000e-03, 5.120000e-03, 1.024000e-02, 2.048000e-02, 4.096000e-02>, weight_zero_point = 0 : i32} : (tensor<1x3x7x32xi8>, tensor<64x1x1x32xi8>) -> tensor<1x3x7x64xi32>
  %a = tosa.add %c, %b : (tensor<1x3x7x64xi32>, tensor<1x1x1x64xi32>) -> tensor<1x3x7x64xi32>
  %y = qnn.requantize %a {axis = 3 : i64, input_scale = array<f64: 2.000000e-05, 4.000000e-05, 8.000000e-05, 1.600000e-04, 3.200000e-04, 6.400000e-04, 1.280000e-03, 2.560000e-03, 5.120000e-03, 1.024000e-02, 2.048000e-02, 4.096000e-02, 8.192000e-02, 2.000000e-05, 4.000000e-05, 8.000000e-05, 1.600000e-04, 3.200000e-04, 6.400000e-04, 1.280000e-03, 2.560000e-03, 5.120000e-03, 1.024000e-02, 2.048000e-02, 4.096000e-02, 8.192000e-02, 2.000000e-05, 4.000000e-05, 8.000000e-05, 1.600000e-04, 3.200000e-04, 6.400000e-04, 1.280000e-03, 2.560000e-03, 5.120000e-03, 1.024000e-02, 2.048000e-02, 4.096000e-02, 8.192000e-02, 2.000000e-05, 4.000000e-05, 8.000000e-05, 1.600000e-04, 3.200000e-04, 6.400000e-04, 1.280000e-03, 2.560000e-03, 5.120000e-03, 1.024000e-02, 2.048000e-02, 4.096000e-02, 8.192000e-02, 2.000000e-05, 4.000000e-05, 8.000000e-05, 1.600000e-04, 3.200000e-04, 6.400000e-04, 1.280000e-03, 2.560000e-03, 5.120000e-03, 1.024000e-02, 2.048000e-02, 4.096000e-02>, input_zero_point = 0 : i32, output_scale = 0.05 : f32, output_zero_point = 3 : i32} : tensor<1x3x7x64xi32> -> tensor<1x3x7x64xi8>
  return %y : tensor<1x3x7x64xi8>
}

// -----

// Shifts 10 apart (scales 2e-5 to 2.048e-2 against 0.05: right shifts 2
// to 12) with a ReLU (a clamp at the output zero point): the offset form
// of the double rounding (OffsetProduct) shifts each lane by its
// channel's e once, after adding K (one more vector per block, no
// per-lane rounding terms), and the kernel is pipelined.
// CHECK-LABEL: func.func private @__qnn_kernel_vnni_1_3_7_32_
// CHECK: scf.for %{{.*}} = %c1{{.*}} to %c7{{.*}} step %{{.*}} iter_args
// CHECK: llvm.inline_asm "vpmuludq $2, $1, $0"
// CHECK: arith.shrsi %{{.*}}, %{{.*}} : vector<16xi32>
func.func @offset_shifts(%x: tensor<1x3x7x32xi8>) -> tensor<1x3x7x64xi8> {
  %w = arith.constant dense<3> : tensor<64x1x1x32xi8>
  %b = arith.constant dense<100> : tensor<1x1x1x64xi32>
  %c = qnn.conv2d %x, %w {data_layout = #qnn.layout<NHWC>, dilations = array<i64: 1, 1>, groups = 1 : i64, input_scale = 5.000000e-01 : f32, input_zero_point = -1 : i32, kernel_layout = #qnn.kernel_layout<OHWI>, padding = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, weight_scale = array<f32: 2.000000e-05, 4.000000e-05, 8.000000e-05, 1.600000e-04, 3.200000e-04, 6.400000e-04, 1.280000e-03, 2.560000e-03, 5.120000e-03, 1.024000e-02, 2.048000e-02, 2.000000e-05, 4.000000e-05, 8.000000e-05, 1.600000e-04, 3.200000e-04, 6.400000e-04, 1.280000e-03, 2.560000e-03, 5.120000e-03, 1.024000e-02, 2.048000e-02, 2.000000e-05, 4.000000e-05, 8.000000e-05, 1.600000e-04, 3.200000e-04, 6.400000e-04, 1.280000e-03, 2.560000e-03, 5.120000e-03, 1.024000e-02, 2.048000e-02, 2.000000e-05, 4.000000e-05, 8.000000e-05, 1.600000e-04, 3.200000e-04, 6.400000e-04, 1.280000e-03, 2.560000e-03, 5.120000e-03, 1.024000e-02, 2.048000e-02, 2.000000e-05, 4.000000e-05, 8.000000e-05, 1.600000e-04, 3.200000e-04, 6.400000e-04, 1.280000e-03, 2.560000e-03, 5.120000e-03, 1.024000e-02, 2.048000e-02, 2.000000e-05, 4.000000e-05, 8.000000e-05, 1.600000e-04, 3.200000e-04, 6.400000e-04, 1.280000e-03, 2.560000e-03, 5.120000e-03>, weight_zero_point = 0 : i32} : (tensor<1x3x7x32xi8>, tensor<64x1x1x32xi8>) -> tensor<1x3x7x64xi32>
  %a = tosa.add %c, %b : (tensor<1x3x7x64xi32>, tensor<1x1x1x64xi32>) -> tensor<1x3x7x64xi32>
  %y = qnn.requantize %a {axis = 3 : i64, input_scale = array<f64: 2.000000e-05, 4.000000e-05, 8.000000e-05, 1.600000e-04, 3.200000e-04, 6.400000e-04, 1.280000e-03, 2.560000e-03, 5.120000e-03, 1.024000e-02, 2.048000e-02, 2.000000e-05, 4.000000e-05, 8.000000e-05, 1.600000e-04, 3.200000e-04, 6.400000e-04, 1.280000e-03, 2.560000e-03, 5.120000e-03, 1.024000e-02, 2.048000e-02, 2.000000e-05, 4.000000e-05, 8.000000e-05, 1.600000e-04, 3.200000e-04, 6.400000e-04, 1.280000e-03, 2.560000e-03, 5.120000e-03, 1.024000e-02, 2.048000e-02, 2.000000e-05, 4.000000e-05, 8.000000e-05, 1.600000e-04, 3.200000e-04, 6.400000e-04, 1.280000e-03, 2.560000e-03, 5.120000e-03, 1.024000e-02, 2.048000e-02, 2.000000e-05, 4.000000e-05, 8.000000e-05, 1.600000e-04, 3.200000e-04, 6.400000e-04, 1.280000e-03, 2.560000e-03, 5.120000e-03, 1.024000e-02, 2.048000e-02, 2.000000e-05, 4.000000e-05, 8.000000e-05, 1.600000e-04, 3.200000e-04, 6.400000e-04, 1.280000e-03, 2.560000e-03, 5.120000e-03>, input_zero_point = 0 : i32, output_scale = 0.05 : f32, output_zero_point = 3 : i32} : tensor<1x3x7x64xi32> -> tensor<1x3x7x64xi8>
  %r = tosa.clamp %y {min_val = 3 : i8, max_val = 127 : i8} : (tensor<1x3x7x64xi8>) -> tensor<1x3x7x64xi8>
  return %r : tensor<1x3x7x64xi8>
}

// -----

// Shifts 2 apart (scales 0.004 to 0.0135) with |acc| < 2^21: one common
// shift (acc << (S - r)) replaces them, the epilogue reads the multiplier
// and that difference per channel, and the kernel is pipelined.
// CHECK-LABEL: func.func private @__qnn_kernel_vnni_1_3_7_32_
// CHECK: scf.for %{{.*}} = %c1{{.*}} to %c7{{.*}} step %{{.*}} iter_args
// CHECK: arith.shli %{{.*}}, %{{.*}} : vector<16xi32>
func.func @near_shifts(%x: tensor<1x3x7x32xi8>) -> tensor<1x3x7x64xi8> {
  %w = arith.constant dense<3> : tensor<64x1x1x32xi8>
  %b = arith.constant dense<100> : tensor<1x1x1x64xi32>
  %c = qnn.conv2d %x, %w {data_layout = #qnn.layout<NHWC>, dilations = array<i64: 1, 1>, groups = 1 : i64, input_scale = 5.000000e-01 : f32, input_zero_point = -1 : i32, kernel_layout = #qnn.kernel_layout<OHWI>, padding = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, weight_scale = array<f32: 4.000000e-03, 4.150000e-03, 4.300000e-03, 4.450000e-03, 4.600000e-03, 4.750000e-03, 4.900000e-03, 5.050000e-03, 5.200000e-03, 5.350000e-03, 5.500000e-03, 5.650000e-03, 5.800000e-03, 5.950000e-03, 6.100000e-03, 6.250000e-03, 6.400000e-03, 6.550000e-03, 6.700000e-03, 6.850000e-03, 7.000000e-03, 7.150000e-03, 7.300000e-03, 7.450000e-03, 7.600000e-03, 7.750000e-03, 7.900000e-03, 8.050000e-03, 8.200000e-03, 8.350000e-03, 8.500000e-03, 8.650000e-03, 8.800000e-03, 8.950000e-03, 9.100000e-03, 9.250000e-03, 9.400000e-03, 9.550000e-03, 9.700000e-03, 9.850000e-03, 1.000000e-02, 1.015000e-02, 1.030000e-02, 1.045000e-02, 1.060000e-02, 1.075000e-02, 1.090000e-02, 1.105000e-02, 1.120000e-02, 1.135000e-02, 1.150000e-02, 1.165000e-02, 1.180000e-02, 1.195000e-02, 1.210000e-02, 1.225000e-02, 1.240000e-02, 1.255000e-02, 1.270000e-02, 1.285000e-02, 1.300000e-02, 1.315000e-02, 1.330000e-02, 1.345000e-02>, weight_zero_point = 0 : i32} : (tensor<1x3x7x32xi8>, tensor<64x1x1x32xi8>) -> tensor<1x3x7x64xi32>
  %a = tosa.add %c, %b : (tensor<1x3x7x64xi32>, tensor<1x1x1x64xi32>) -> tensor<1x3x7x64xi32>
  %y = qnn.requantize %a {axis = 3 : i64, input_scale = array<f64: 4.000000e-03, 4.150000e-03, 4.300000e-03, 4.450000e-03, 4.600000e-03, 4.750000e-03, 4.900000e-03, 5.050000e-03, 5.200000e-03, 5.350000e-03, 5.500000e-03, 5.650000e-03, 5.800000e-03, 5.950000e-03, 6.100000e-03, 6.250000e-03, 6.400000e-03, 6.550000e-03, 6.700000e-03, 6.850000e-03, 7.000000e-03, 7.150000e-03, 7.300000e-03, 7.450000e-03, 7.600000e-03, 7.750000e-03, 7.900000e-03, 8.050000e-03, 8.200000e-03, 8.350000e-03, 8.500000e-03, 8.650000e-03, 8.800000e-03, 8.950000e-03, 9.100000e-03, 9.250000e-03, 9.400000e-03, 9.550000e-03, 9.700000e-03, 9.850000e-03, 1.000000e-02, 1.015000e-02, 1.030000e-02, 1.045000e-02, 1.060000e-02, 1.075000e-02, 1.090000e-02, 1.105000e-02, 1.120000e-02, 1.135000e-02, 1.150000e-02, 1.165000e-02, 1.180000e-02, 1.195000e-02, 1.210000e-02, 1.225000e-02, 1.240000e-02, 1.255000e-02, 1.270000e-02, 1.285000e-02, 1.300000e-02, 1.315000e-02, 1.330000e-02, 1.345000e-02>, input_zero_point = 0 : i32, output_scale = 0.05 : f32, output_zero_point = 3 : i32, rounding = #qnn.rounding<tflite_single>} : tensor<1x3x7x64xi32> -> tensor<1x3x7x64xi8>
  return %y : tensor<1x3x7x64xi8>
}

// -----

// K = 32, 64 channels (one group of 4 blocks), 100 pixels: 33 tiles of 3
// and a rest of 1. With threads the last tile too ends at the last pixel
// (arith.minui with 97), recomputing pixels 97 and 98: 34 units in 16
// strips, the last strip from unit 31, holding tile 32 (pixels 96-98) as
// well as the last tile; no rest tile after the parallel loop.
// PAR-LABEL: func.func private @__qnn_kernel_vnni_1_10_10_32_
// PAR: scf.parallel (%[[S:.*]]) = (%c0) to (%c16) step (%c1) {
// PAR: arith.muli %[[S]], %c34
// PAR: arith.minui %{{.*}}, %c97
// PAR: scf.reduce
// PAR-NOT: vector.store
// PAR: return
func.func @k32x100(%x: tensor<1x10x10x32xi8>) -> tensor<1x10x10x64xi8> {
  %w = arith.constant dense<3> : tensor<64x1x1x32xi8>
  %b = arith.constant dense<100> : tensor<1x1x1x64xi32>
  %c = qnn.conv2d %x, %w {data_layout = #qnn.layout<NHWC>, dilations = array<i64: 1, 1>, groups = 1 : i64, input_scale = 5.000000e-01 : f32, input_zero_point = -1 : i32, kernel_layout = #qnn.kernel_layout<OHWI>, padding = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, weight_scale = array<f32: 0.005>, weight_zero_point = 0 : i32} : (tensor<1x10x10x32xi8>, tensor<64x1x1x32xi8>) -> tensor<1x10x10x64xi32>
  %a = tosa.add %c, %b : (tensor<1x10x10x64xi32>, tensor<1x1x1x64xi32>) -> tensor<1x10x10x64xi32>
  %y = qnn.requantize %a {input_scale = array<f64: 0.0025>, input_zero_point = 0 : i32, output_scale = 0.05 : f32, output_zero_point = 3 : i32} : tensor<1x10x10x64xi32> -> tensor<1x10x10x64xi8>
  return %y : tensor<1x10x10x64xi8>
}

// -----

// K = 64, 768 channels: 48 KiB of weights, above the group-major
// threshold (32 KiB), so that each group's weights stay in L1 while the
// units run over every tile: unit u is group u / 19, tile u mod 19 (18
// tiles of 3 pixels and one ending at pixel 55), serial or threaded. With
// threads, 228 units in 28 strips: no strip starts at a group's last
// tile, so the last tiles overlap the ones before them there too.
// CHECK-LABEL: func.func private @__qnn_kernel_vnni_1_7_8_64_
// CHECK: scf.for %[[U:.*]] = %c1{{.*}} to %c228{{.*}} step %{{.*}} iter_args
// CHECK: arith.divui %[[U]], %c19 : index
// CHECK: arith.remui %[[U]], %c19 : index
// CHECK: arith.minui %{{.*}}, %c53 : index
// PAR-LABEL: func.func private @__qnn_kernel_vnni_1_7_8_64_
// PAR: scf.parallel (%[[S:.*]]) = (%c0) to (%c28) step (%c1) {
// PAR: arith.muli %[[S]], %c228
// PAR: scf.for %[[U:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args
// PAR: arith.divui %[[U]], %c19 : index
// PAR: arith.remui %[[U]], %c19 : index
// PAR: arith.minui %{{.*}}, %c53 : index
// PAR: scf.reduce
// PAR-NOT: vector.store
// PAR: return
func.func @group_major(%x: tensor<1x7x8x64xi8>) -> tensor<1x7x8x768xi8> {
  %w = arith.constant dense<3> : tensor<768x1x1x64xi8>
  %b = arith.constant dense<100> : tensor<1x1x1x768xi32>
  %c = qnn.conv2d %x, %w {data_layout = #qnn.layout<NHWC>, dilations = array<i64: 1, 1>, groups = 1 : i64, input_scale = 5.000000e-01 : f32, input_zero_point = -1 : i32, kernel_layout = #qnn.kernel_layout<OHWI>, padding = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, weight_scale = array<f32: 0.005>, weight_zero_point = 0 : i32} : (tensor<1x7x8x64xi8>, tensor<768x1x1x64xi8>) -> tensor<1x7x8x768xi32>
  %a = tosa.add %c, %b : (tensor<1x7x8x768xi32>, tensor<1x1x1x768xi32>) -> tensor<1x7x8x768xi32>
  %y = qnn.requantize %a {input_scale = array<f64: 0.0025>, input_zero_point = 0 : i32, output_scale = 0.05 : f32, output_zero_point = 3 : i32} : tensor<1x7x8x768xi32> -> tensor<1x7x8x768xi8>
  return %y : tensor<1x7x8x768xi8>
}
