// Serial pointwise kernels with a short reduction (K <= 256) are
// software-pipelined: each unit (a tile of pixels and one group of 4
// blocks) stores its accumulators in a stash, and the next unit applies
// their epilogue (requantize, packed 8-bit store) during its first K steps,
// one pixel per step; the last unit's epilogue runs after the units, then
// the rest tile as a plain tile.
// RUN: qnn-opt %s --split-input-file --pass-pipeline='builtin.module(convert-qnn-to-linalg{target=avx512-vnni},func.func(tosa-to-linalg-named,tosa-to-linalg,tosa-to-arith,tosa-to-tensor),canonicalize,linalg-fuse-elementwise-ops,qnn-fuse-kernel-epilogues,one-shot-bufferize{bufferize-function-boundaries},qnn-materialize-conv-kernels)' | FileCheck %s
// Emulated VNNI (no packed stores) takes the same path, with one store
// per block.
// RUN: qnn-opt %s --split-input-file --pass-pipeline='builtin.module(convert-qnn-to-linalg{target=avx512-vnni},func.func(tosa-to-linalg-named,tosa-to-linalg,tosa-to-arith,tosa-to-tensor),canonicalize,linalg-fuse-elementwise-ops,qnn-fuse-kernel-epilogues,one-shot-bufferize{bufferize-function-boundaries},qnn-materialize-conv-kernels{emulate-vnni=true})' | FileCheck %s --check-prefix=EMU
// The int16 kernels are not pipelined (measured no faster).
// RUN: qnn-opt %s --split-input-file --pass-pipeline='builtin.module(convert-qnn-to-linalg{target=int16},func.func(tosa-to-linalg-named,tosa-to-linalg,tosa-to-arith,tosa-to-tensor),canonicalize,linalg-fuse-elementwise-ops,qnn-fuse-kernel-epilogues,one-shot-bufferize{bufferize-function-boundaries},qnn-materialize-conv-kernels)' | FileCheck %s --check-prefix=INT16
// With threads the kernels stay plain tiles (no stash).
// RUN: qnn-opt %s --split-input-file --pass-pipeline='builtin.module(convert-qnn-to-linalg{target=avx512-vnni},func.func(tosa-to-linalg-named,tosa-to-linalg,tosa-to-arith,tosa-to-tensor),canonicalize,linalg-fuse-elementwise-ops,qnn-fuse-kernel-epilogues,one-shot-bufferize{bufferize-function-boundaries},qnn-materialize-conv-kernels{parallel=true parallel-min-work=0})' | FileCheck %s --check-prefix=PAR
// Parallel code whose kernel is too small for threads (below
// parallel-min-work) runs serially, pipelined.
// RUN: qnn-opt %s --split-input-file --pass-pipeline='builtin.module(convert-qnn-to-linalg{target=avx512-vnni},func.func(tosa-to-linalg-named,tosa-to-linalg,tosa-to-arith,tosa-to-tensor),canonicalize,linalg-fuse-elementwise-ops,qnn-fuse-kernel-epilogues,one-shot-bufferize{bufferize-function-boundaries},qnn-materialize-conv-kernels{parallel=true})' | FileCheck %s --check-prefix=SMALL

// K = 128, 128 channels (2 groups), 35 pixels: 5 tiles of 6 (10 units) and
// a rest tile of 5.
// CHECK-LABEL: func.func private @__qnn_kernel_vnni_1_5_7_128_
// CHECK: %[[STASH:.*]] = memref.alloca() {{.*}}alignment = 64{{.*}} : memref<384xi32>
// CHECK: scf.for %{{.*}} = %c0{{.*}} to %c1{{.*}} step
// CHECK: scf.for %[[U:.*]] = %c0{{.*}} to %c10{{.*}} step
// CHECK: %[[PREV:.*]] = arith.cmpi ugt, %[[U]], %c0
// CHECK: scf.for %{{.*}} = %c0{{.*}} to %c6{{.*}} step %{{.*}} iter_args
// CHECK: scf.if %[[PREV]] {
// CHECK-COUNT-4: vector.load %[[STASH]]
// CHECK: vector.store %{{.*}}, %arg3{{.*}} vector<64xi8>
// CHECK: }
// CHECK: llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"
// CHECK: scf.for %{{.*}} = %c6{{.*}} to %c32{{.*}} step
// CHECK: llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"
// CHECK-COUNT-24: vector.store %{{.*}}, %[[STASH]]
// The last unit's epilogue, then the rest tile (pixels 30..34).
// CHECK: scf.for %{{.*}} = %c0{{.*}} to %c6{{.*}} step
// CHECK-COUNT-4: vector.load %[[STASH]]
// CHECK: arith.divui %c30{{.*}}, %c7
// CHECK: llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"

// EMU-LABEL: func.func private @__qnn_kernel_vnni_1_5_7_128_
// EMU: %[[STASH:.*]] = memref.alloca() {{.*}} : memref<384xi32>
// EMU: scf.if
// EMU-COUNT-4: vector.load %[[STASH]]
// EMU: vector.store %{{.*}}, %arg{{[0-9]+}}[{{.*}}] : memref<1x5x7x128xi8>, vector<16xi8>

// INT16-LABEL: func.func private @__qnn_kernel_int16_1_5_7_128_
// INT16-NOT: memref.alloca
// INT16: return

// SMALL-LABEL: func.func private @__qnn_kernel_vnni_1_5_7_128_
// SMALL-NOT: scf.parallel
// SMALL: memref.alloca() {{.*}} : memref<384xi32>

// PAR-LABEL: func.func private @__qnn_kernel_vnni_1_5_7_128_
// PAR-NOT: memref.alloca
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

// K = 32: tiles of 5 pixels (the epilogue's registers beside 20
// accumulators); 21 pixels, one group: 4 units and a rest tile of 1.
// CHECK-LABEL: func.func private @__qnn_kernel_vnni_1_3_7_32_
// CHECK: %[[STASH:.*]] = memref.alloca() {{.*}}alignment = 64{{.*}} : memref<320xi32>
// CHECK: scf.for %{{.*}} = %c0{{.*}} to %c4{{.*}} step
// CHECK: scf.for %{{.*}} = %c0{{.*}} to %c5{{.*}} step %{{.*}} iter_args
// CHECK: scf.for %{{.*}} = %c5{{.*}} to %c8{{.*}} step
// CHECK-COUNT-20: vector.store %{{.*}}, %[[STASH]]
// CHECK: arith.divui %c20{{.*}}, %c7
// PAR-LABEL: func.func private @__qnn_kernel_vnni_1_3_7_32_
// PAR-NOT: memref.alloca
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
