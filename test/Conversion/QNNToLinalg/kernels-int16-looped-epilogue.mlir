// The int16 (AVX2) GEMM kernels with a reduction of 64 or more apply their
// epilogue in a loop over each tile's pixels: the tile's accumulators (5
// pixels x 2 blocks of 8 channels) are stored to a stack buffer allocated
// once per kernel (once per thread in threaded code), and one epilogue
// per block runs in an scf.for over the 5 pixels,
// instead of 10 unrolled copies (LLVM's instruction selection time goes
// into the epilogues). The per-channel multipliers are loaded before the
// loop, their odd lanes shifted down there too (lshr 32), and the loop
// multiplies with vpmuldq in inline assembly, which needs no proof that
// the factors are sign-extended i32 values (LLVM's own selection of
// vpmuldq does not see one across blocks). The last
// pixel (6 = 5 + 1) is a tile of its own, unrolled; so is every tile of a
// reduction under 64 (@k32). The tile's one group of 2 blocks is no loop.
// Execution: test/Execution/int16-tiles.test.
// RUN: qnn-opt %s --split-input-file --qnn-lower-to-llvm="target=int16 threads=1" | FileCheck %s
// RUN: qnn-opt %s --split-input-file --qnn-lower-to-llvm="target=int16 threads=1" --mlir-print-ir-after=qnn-materialize-conv-kernels -o /dev/null 2>&1 | FileCheck %s --check-prefix=KERNEL
// RUN: qnn-opt %s --split-input-file --convert-qnn-to-linalg=target=int16 --qnn-materialize-conv-kernels="parallel=true parallel-min-work=0" | FileCheck %s --check-prefix=PAR
// RUN: qnn-opt %s --split-input-file --qnn-lower-to-llvm="target=int16 threads=2" | FileCheck %s --check-prefix=OMP

// KERNEL-LABEL: func.func private @__qnn_kernel_int16_1_2_3_64_2_3_1_1_1_1_1_1_16_
// KERNEL: %[[BUF:.*]] = memref.alloca() : memref<10x8xi32>
// KERNEL-NOT: step %c2
// KERNEL-COUNT-10: vector.store %{{.*}}, %[[BUF]][%{{.*}}, %{{.*}}] : memref<10x8xi32>, vector<8xi32>
// KERNEL-NEXT: scf.for %{{.*}} = %c0{{.*}} to %c5{{.*}} step %c1
// KERNEL-NOT: llvm.inline_asm "", "=x,0"
// KERNEL: vector.load %[[BUF]]
// KERNEL: vector.load %[[BUF]]
// KERNEL: llvm.inline_asm "vpmuldq $2, $1, $0", "=x,x,x"
// KERNEL: llvm.inline_asm "vpmuldq $2, $1, $0", "=x,x,x"
// KERNEL: vector.store %{{.*}} : memref<1x1x6x16xi8>, vector<16xi8>
// KERNEL-NEXT: }
// The last pixel: unrolled, no buffer.
// KERNEL-NOT: %[[BUF]]
// KERNEL: vector.store %{{.*}} : memref<1x1x6x16xi8>, vector<16xi8>
// KERNEL: return
// One buffer of 80 i32 in the entry block; in the loop over the pixels,
// the multipliers' copies, their halves derived from them, and the
// even/odd products (vpmuldq).
// CHECK-LABEL: llvm.func @__qnn_kernel_int16_1_2_3_64_2_3_1_1_1_1_1_1_16_
// CHECK: llvm.alloca %{{.*}} x i32
// CHECK-NOT: llvm.alloca
// CHECK: %[[M:.*]] = llvm.load %{{.*}} : !llvm.ptr -> vector<8xi32>
// CHECK-NEXT: %[[Q:.*]] = llvm.bitcast %[[M]] : vector<8xi32> to vector<4xi64>
// CHECK-NEXT: %[[ODD:.*]] = llvm.lshr %[[Q]], %{{.*}} : vector<4xi64>
// CHECK: llvm.cond_br
// CHECK: llvm.inline_asm "vpmuldq $2, $1, $0", "=x,x,x" %{{.*}}, %[[Q]] : (vector<4xi64>, vector<4xi64>) -> vector<4xi64>
// CHECK-NEXT: llvm.inline_asm "vpmuldq $2, $1, $0", "=x,x,x" %{{.*}}, %[[ODD]] : (vector<4xi64>, vector<4xi64>) -> vector<4xi64>
// CHECK-NOT: llvm.mul {{.*}} : vector<4xi64>
// CHECK: llvm.return
func.func @k64(%x: tensor<1x2x3x64xi8>) -> tensor<1x2x3x16xi8> {
  %w = arith.constant dense<3> : tensor<16x1x1x64xi8>
  %b = arith.constant dense<-1000> : tensor<16xi32>
  %y = npu.conv2d %x, %w, %b {act_max = 126 : i32, act_min = 40 : i32, activation = #npu.activation<clip>, dilations = array<i64: 1, 1>, groups = 1 : i64, input_scale = 0.027 : f32, input_zero_point = -3 : i32, output_scale = 0.02 : f32, output_zero_point = 33 : i32, pad_value = -3 : i32, padding = array<i64: 0, 0, 0, 0>, rounding = #qnn.rounding<tflite_single>, strides = array<i64: 1, 1>, weight_scale = array<f32: 1.560000e-02, 8.020000e-03, 7.560000e-03, 8.940000e-03, 1.328000e-02, 1.482000e-02, 1.612000e-02, 7.900000e-03, 1.528000e-02, 1.458000e-02, 6.600000e-03, 1.214000e-02, 3.040000e-03, 1.242000e-02, 2.200000e-03, 3.740000e-03>, weight_zero_point = 0 : i32} : (tensor<1x2x3x64xi8>, tensor<16x1x1x64xi8>, tensor<16xi32>) -> tensor<1x2x3x16xi8>
  return %y : tensor<1x2x3x16xi8>
}

// -----

// CHECK-LABEL: llvm.func @__qnn_kernel_int16_1_2_3_32_2_3_1_1_1_1_1_1_16_
// CHECK-NOT: llvm.alloca
// CHECK-NOT: llvm.inline_asm "",
// CHECK: llvm.return
func.func @k32(%x: tensor<1x2x3x32xi8>) -> tensor<1x2x3x16xi8> {
  %w = arith.constant dense<3> : tensor<16x1x1x32xi8>
  %b = arith.constant dense<-1000> : tensor<16xi32>
  %y = npu.conv2d %x, %w, %b {act_max = 126 : i32, act_min = 40 : i32, activation = #npu.activation<clip>, dilations = array<i64: 1, 1>, groups = 1 : i64, input_scale = 0.027 : f32, input_zero_point = -3 : i32, output_scale = 0.02 : f32, output_zero_point = 33 : i32, pad_value = -3 : i32, padding = array<i64: 0, 0, 0, 0>, rounding = #qnn.rounding<tflite_single>, strides = array<i64: 1, 1>, weight_scale = array<f32: 1.560000e-02, 8.020000e-03, 7.560000e-03, 8.940000e-03, 1.328000e-02, 1.482000e-02, 1.612000e-02, 7.900000e-03, 1.528000e-02, 1.458000e-02, 6.600000e-03, 1.214000e-02, 3.040000e-03, 1.242000e-02, 2.200000e-03, 3.740000e-03>, weight_zero_point = 0 : i32} : (tensor<1x2x3x32xi8>, tensor<16x1x1x32xi8>, tensor<16xi32>) -> tensor<1x2x3x16xi8>
  return %y : tensor<1x2x3x16xi8>
}

// -----

// Threads (529 pixels: 105 tiles and the last 4 pixels, 2.2 M
// multiply-adds, over parallel-min-work): the buffer is allocated
// at the start of the scf.parallel body; qnn-prepare-llvm-lowering moves
// it to the start of the OpenMP parallel region, one per thread
// (prepare-llvm-lowering.mlir), and the kernel lowers to LLVM.
// PAR-LABEL: func.func private @__qnn_kernel_int16_1_23_23_64_23_23_1_1_1_1_1_1_64_
// PAR-NOT: memref.alloca
// PAR: scf.parallel
// PAR-NEXT: memref.alloca() : memref<10x8xi32>
// PAR-NOT: memref.alloca
// PAR: return
// OMP-LABEL: llvm.func @__qnn_kernel_int16_1_23_23_64_23_23_1_1_1_1_1_1_64_
// OMP: omp.parallel
// OMP-NOT: omp.wsloop
// OMP: llvm.alloca %{{.*}} x i32
// OMP: omp.wsloop
// OMP: llvm.return
func.func @k64_threads(%x: tensor<1x23x23x64xi8>) -> tensor<1x23x23x64xi8> {
  %w = arith.constant dense<3> : tensor<64x1x1x64xi8>
  %b = arith.constant dense<-1000> : tensor<64xi32>
  %y = npu.conv2d %x, %w, %b {act_max = 126 : i32, act_min = 40 : i32, activation = #npu.activation<clip>, dilations = array<i64: 1, 1>, groups = 1 : i64, input_scale = 0.027 : f32, input_zero_point = -3 : i32, output_scale = 0.02 : f32, output_zero_point = 33 : i32, pad_value = -3 : i32, padding = array<i64: 0, 0, 0, 0>, rounding = #qnn.rounding<tflite_single>, strides = array<i64: 1, 1>, weight_scale = array<f32: 1.000000e-02>, weight_zero_point = 0 : i32} : (tensor<1x23x23x64xi8>, tensor<64x1x1x64xi8>, tensor<64xi32>) -> tensor<1x23x23x64xi8>
  return %y : tensor<1x23x23x64xi8>
}

