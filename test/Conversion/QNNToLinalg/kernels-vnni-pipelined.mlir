// Serial pointwise VNNI kernels whose epilogue reads at most one
// per-channel vector besides the bias are software-pipelined across units
// (a tile of pixels and one group of blocks): each unit's accumulators are
// carried to the next unit in registers (iter_args), and that unit applies
// their epilogue (requantize, packed 8-bit store) pixel by pixel between
// its first, unrolled, K steps; unit 0 runs alone before the unit loop,
// the last unit's epilogue after it, then the rest pixels as a plain tile.
// RUN: qnn-opt %s --split-input-file --pass-pipeline='builtin.module(convert-qnn-to-linalg{target=avx512-vnni},func.func(tosa-to-linalg-named,tosa-to-linalg,tosa-to-arith,tosa-to-tensor),canonicalize,linalg-fuse-elementwise-ops,qnn-fuse-kernel-epilogues,one-shot-bufferize{bufferize-function-boundaries},qnn-materialize-conv-kernels)' | FileCheck %s
// Emulated VNNI (no packed stores) takes the same path, with one store
// per block.
// RUN: qnn-opt %s --split-input-file --pass-pipeline='builtin.module(convert-qnn-to-linalg{target=avx512-vnni},func.func(tosa-to-linalg-named,tosa-to-linalg,tosa-to-arith,tosa-to-tensor),canonicalize,linalg-fuse-elementwise-ops,qnn-fuse-kernel-epilogues,one-shot-bufferize{bufferize-function-boundaries},qnn-materialize-conv-kernels{emulate-vnni=true})' | FileCheck %s --check-prefix=EMU
// The int16 kernels are not pipelined (16 registers on AVX2).
// RUN: qnn-opt %s --split-input-file --pass-pipeline='builtin.module(convert-qnn-to-linalg{target=int16},func.func(tosa-to-linalg-named,tosa-to-linalg,tosa-to-arith,tosa-to-tensor),canonicalize,linalg-fuse-elementwise-ops,qnn-fuse-kernel-epilogues,one-shot-bufferize{bufferize-function-boundaries},qnn-materialize-conv-kernels)' | FileCheck %s --check-prefix=INT16
// With threads the kernels stay plain tiles (parallel iterations).
// RUN: qnn-opt %s --split-input-file --pass-pipeline='builtin.module(convert-qnn-to-linalg{target=avx512-vnni},func.func(tosa-to-linalg-named,tosa-to-linalg,tosa-to-arith,tosa-to-tensor),canonicalize,linalg-fuse-elementwise-ops,qnn-fuse-kernel-epilogues,one-shot-bufferize{bufferize-function-boundaries},qnn-materialize-conv-kernels{parallel=true parallel-min-work=0})' | FileCheck %s --check-prefix=PAR
// Parallel code whose kernel is too small for threads (below
// parallel-min-work) runs serially, pipelined.
// RUN: qnn-opt %s --split-input-file --pass-pipeline='builtin.module(convert-qnn-to-linalg{target=avx512-vnni},func.func(tosa-to-linalg-named,tosa-to-linalg,tosa-to-arith,tosa-to-tensor),canonicalize,linalg-fuse-elementwise-ops,qnn-fuse-kernel-epilogues,one-shot-bufferize{bufferize-function-boundaries},qnn-materialize-conv-kernels{parallel=true})' | FileCheck %s --check-prefix=SMALL

// K = 128 (32 steps, the first 8 unrolled), 128 channels (2 groups of 4
// blocks), 35 pixels: units of 3 pixels (11 tiles x 2 groups), a rest
// tile of 2.
// CHECK-LABEL: func.func private @__qnn_kernel_vnni_1_5_7_128_
// CHECK-NOT: memref.alloca
// CHECK: scf.for %[[N:.*]] = %c0{{.*}} to %c1{{.*}} step
// Unit 0: its reduction alone.
// CHECK-COUNT-12: llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"
// CHECK-NOT: vector.store
// CHECK: %[[FIRST:.*]]:12 = scf.for %{{.*}} = %c8{{.*}} to %c32{{.*}} step %{{.*}} iter_args
// Units 1..21, each with the previous unit's 3 pixels' epilogues (packed
// stores) among its unrolled steps.
// CHECK: %[[LAST:.*]]:12 = scf.for %{{.*}} = %c1{{.*}} to %c22{{.*}} step %{{.*}} iter_args(%{{.*}} = %[[FIRST]]#0,
// CHECK-COUNT-12: llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"
// CHECK: llvm.call_intrinsic "llvm.x86.avx512.permvar.si.512"
// CHECK: vector.store %{{.*}}, %arg3[%[[N]], {{.*}}] : memref<1x5x7x128xi8>, vector<64xi8>
// CHECK: vector.store %{{.*}}, %arg3[%[[N]], {{.*}}] : memref<1x5x7x128xi8>, vector<64xi8>
// CHECK: vector.store %{{.*}}, %arg3[%[[N]], {{.*}}] : memref<1x5x7x128xi8>, vector<64xi8>
// CHECK: scf.for %{{.*}} = %c8{{.*}} to %c32{{.*}} step %{{.*}} iter_args
// CHECK: scf.yield
// CHECK: scf.yield
// The last unit's epilogue, then the rest tile (pixels 33 and 34).
// CHECK: vector.bitcast %[[LAST]]#0 : vector<16xi32> to vector<8xi64>
// CHECK-COUNT-3: vector.store %{{.*}} vector<64xi8>
// CHECK: arith.divui %c33{{.*}}, %c7
// CHECK: llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"

// EMU-LABEL: func.func private @__qnn_kernel_vnni_1_5_7_128_
// EMU: scf.for %{{.*}} = %c1{{.*}} to %c22{{.*}} step %{{.*}} iter_args
// EMU: vector.store %{{.*}}, %arg{{[0-9]+}}[{{.*}}] : memref<1x5x7x128xi8>, vector<16xi8>

// INT16-LABEL: func.func private @__qnn_kernel_int16_1_5_7_128_
// INT16-NOT: to %c22
// INT16: return

// SMALL-LABEL: func.func private @__qnn_kernel_vnni_1_5_7_128_
// SMALL-NOT: scf.parallel
// SMALL: scf.for %{{.*}} = %c1{{.*}} to %c22{{.*}} step %{{.*}} iter_args

// PAR-LABEL: func.func private @__qnn_kernel_vnni_1_5_7_128_
// PAR-NOT: to %c22
// PAR: scf.parallel
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
// PAR-NOT: to %c7
// PAR: scf.parallel
func.func @k32(%x: tensor<1x3x7x32xi8>) -> tensor<1x3x7x64xi8> {
  %w = arith.constant dense<3> : tensor<64x1x1x32xi8>
  %b = arith.constant dense<100> : tensor<1x1x1x64xi32>
  %c = qnn.conv2d %x, %w {data_layout = #qnn.layout<NHWC>, dilations = array<i64: 1, 1>, groups = 1 : i64, input_scale = 5.000000e-01 : f32, input_zero_point = -1 : i32, kernel_layout = #qnn.kernel_layout<OHWI>, padding = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, weight_scale = array<f32: 0.005>, weight_zero_point = 0 : i32} : (tensor<1x3x7x32xi8>, tensor<64x1x1x32xi8>) -> tensor<1x3x7x64xi32>
  %a = tosa.add %c, %b : (tensor<1x3x7x64xi32>, tensor<1x1x1x64xi32>) -> tensor<1x3x7x64xi32>
  %y = qnn.requantize %a {input_scale = array<f64: 0.0025>, input_zero_point = 0 : i32, output_scale = 0.05 : f32, output_zero_point = 3 : i32} : tensor<1x3x7x64xi32> -> tensor<1x3x7x64xi8>
  return %y : tensor<1x3x7x64xi8>
}

// -----

// K = 512: a long reduction hides the epilogue; plain tiles.
// CHECK-LABEL: func.func private @__qnn_kernel_vnni_1_2_7_512_
// CHECK-NOT: memref.alloca
// CHECK: llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"
func.func @k512(%x: tensor<1x2x7x512xi8>) -> tensor<1x2x7x64xi8> {
  %w = arith.constant dense<3> : tensor<64x1x1x512xi8>
  %b = arith.constant dense<100> : tensor<1x1x1x64xi32>
  %c = qnn.conv2d %x, %w {data_layout = #qnn.layout<NHWC>, dilations = array<i64: 1, 1>, groups = 1 : i64, input_scale = 5.000000e-01 : f32, input_zero_point = -1 : i32, kernel_layout = #qnn.kernel_layout<OHWI>, padding = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, weight_scale = array<f32: 0.005>, weight_zero_point = 0 : i32} : (tensor<1x2x7x512xi8>, tensor<64x1x1x512xi8>) -> tensor<1x2x7x64xi32>
  %a = tosa.add %c, %b : (tensor<1x2x7x64xi32>, tensor<1x1x1x64xi32>) -> tensor<1x2x7x64xi32>
  %y = qnn.requantize %a {input_scale = array<f64: 0.0025>, input_zero_point = 0 : i32, output_scale = 0.05 : f32, output_zero_point = 3 : i32} : tensor<1x2x7x64xi32> -> tensor<1x2x7x64xi8>
  return %y : tensor<1x2x7x64xi8>
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
// CHECK: vector.store %{{.*}} : memref<1x3x5x144xi8>, vector<48xi8>
func.func @k24x144(%x: tensor<1x3x5x24xui8>) -> tensor<1x3x5x144xui8> {
  %w = arith.constant dense<3> : tensor<144x1x1x24xi8>
  %b = arith.constant dense<100> : tensor<1x1x1x144xi32>
  %c = qnn.conv2d %x, %w {data_layout = #qnn.layout<NHWC>, dilations = array<i64: 1, 1>, groups = 1 : i64, input_scale = 5.000000e-01 : f32, input_zero_point = 128 : i32, kernel_layout = #qnn.kernel_layout<OHWI>, padding = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, weight_scale = array<f32: 0.005>, weight_zero_point = 0 : i32} : (tensor<1x3x5x24xui8>, tensor<144x1x1x24xi8>) -> tensor<1x3x5x144xi32>
  %a = tosa.add %c, %b : (tensor<1x3x5x144xi32>, tensor<1x1x1x144xi32>) -> tensor<1x3x5x144xi32>
  %y = qnn.requantize %a {input_scale = array<f64: 0.0025>, input_zero_point = 0 : i32, output_scale = 0.05 : f32, output_zero_point = 3 : i32} : tensor<1x3x5x144xi32> -> tensor<1x3x5x144xui8>
  return %y : tensor<1x3x5x144xui8>
}

// -----

// Per-channel scales whose shifts differ: the epilogue reads a multiplier
// and a shift per channel, more registers than the carried accumulators
// leave (MobileNet v2's layers ran up to 10% slower pipelined on Zen 4):
// plain tiles (loops from 0, no unit loop from 1).
// CHECK-LABEL: func.func private @__qnn_kernel_vnni_1_3_7_32_
// CHECK-NOT: scf.for %{{.*}} = %c1{{.*}} to
// CHECK: return
func.func @shifts(%x: tensor<1x3x7x32xi8>) -> tensor<1x3x7x64xi8> {
  %w = arith.constant dense<3> : tensor<64x1x1x32xi8>
  %b = arith.constant dense<100> : tensor<1x1x1x64xi32>
  %c = qnn.conv2d %x, %w {data_layout = #qnn.layout<NHWC>, dilations = array<i64: 1, 1>, groups = 1 : i64, input_scale = 5.000000e-01 : f32, input_zero_point = -1 : i32, kernel_layout = #qnn.kernel_layout<OHWI>, padding = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, weight_scale = array<f32: 3.122050e-02, 3.714099e-02, 3.980064e-02, 4.713402e-02, 3.704695e-02, 4.613178e-02, 1.644460e-03, 2.338801e-02, 4.717916e-02, 3.251893e-02, 4.506484e-02, 5.837657e-03, 2.355964e-02, 1.247933e-02, 2.727929e-02, 2.878227e-02, 8.530866e-04, 1.099314e-02, 1.411822e-02, 4.583400e-02, 3.833313e-02, 8.148290e-03, 3.989792e-02, 7.110617e-03, 3.094914e-02, 6.509622e-03, 2.883881e-04, 4.359596e-02, 1.063093e-02, 1.093096e-02, 4.912457e-02, 4.364591e-02, 1.460740e-02, 4.808160e-02, 2.705333e-02, 3.395596e-02, 1.039802e-02, 4.706060e-02, 3.459397e-02, 4.833490e-02, 4.470834e-02, 1.507969e-02, 1.818726e-02, 8.464612e-03, 7.455955e-03, 3.443958e-03, 1.520768e-02, 3.023488e-02, 3.684793e-04, 3.396113e-02, 1.702726e-02, 1.563590e-02, 4.096220e-02, 2.414111e-02, 1.592650e-02, 2.416468e-02, 3.529252e-02, 3.038646e-03, 4.875996e-02, 1.338705e-03, 3.753979e-02, 4.227507e-02, 1.099763e-03, 3.942937e-02>, weight_zero_point = 0 : i32} : (tensor<1x3x7x32xi8>, tensor<64x1x1x32xi8>) -> tensor<1x3x7x64xi32>
  %a = tosa.add %c, %b : (tensor<1x3x7x64xi32>, tensor<1x1x1x64xi32>) -> tensor<1x3x7x64xi32>
  %y = qnn.requantize %a {axis = 3 : i64, input_scale = array<f64: 3.122050e-02, 3.714099e-02, 3.980064e-02, 4.713402e-02, 3.704695e-02, 4.613178e-02, 1.644460e-03, 2.338801e-02, 4.717916e-02, 3.251893e-02, 4.506484e-02, 5.837657e-03, 2.355964e-02, 1.247933e-02, 2.727929e-02, 2.878227e-02, 8.530866e-04, 1.099314e-02, 1.411822e-02, 4.583400e-02, 3.833313e-02, 8.148290e-03, 3.989792e-02, 7.110617e-03, 3.094914e-02, 6.509622e-03, 2.883881e-04, 4.359596e-02, 1.063093e-02, 1.093096e-02, 4.912457e-02, 4.364591e-02, 1.460740e-02, 4.808160e-02, 2.705333e-02, 3.395596e-02, 1.039802e-02, 4.706060e-02, 3.459397e-02, 4.833490e-02, 4.470834e-02, 1.507969e-02, 1.818726e-02, 8.464612e-03, 7.455955e-03, 3.443958e-03, 1.520768e-02, 3.023488e-02, 3.684793e-04, 3.396113e-02, 1.702726e-02, 1.563590e-02, 4.096220e-02, 2.414111e-02, 1.592650e-02, 2.416468e-02, 3.529252e-02, 3.038646e-03, 4.875996e-02, 1.338705e-03, 3.753979e-02, 4.227507e-02, 1.099763e-03, 3.942937e-02>, input_zero_point = 0 : i32, output_scale = 0.05 : f32, output_zero_point = 3 : i32} : tensor<1x3x7x64xi32> -> tensor<1x3x7x64xi8>
  return %y : tensor<1x3x7x64xi8>
}
