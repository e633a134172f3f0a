// With threads, a kernel's scf.parallel runs over (image, row or tile)
// pairs only when the batch has more than one image; for one image it is a
// one-dimensional loop (convert-scf-to-openmp collapses two dimensions
// into one induction variable that every iteration splits with a division
// and a remainder, which made LLVM's loop strength reduction 15 times
// slower on each outlined body).
// RUN: qnn-opt %s --split-input-file --convert-qnn-to-linalg=target=int16 --qnn-materialize-conv-kernels="parallel=true parallel-min-work=0" | FileCheck %s
// RUN: qnn-opt %s --split-input-file --convert-qnn-to-linalg=target=int16 --qnn-materialize-conv-kernels="parallel=true parallel-min-work=0" --convert-scf-to-openmp | FileCheck %s --check-prefix=OMP

// One image: 14 pixels are 3 tiles of 5 pixels, 32 channels two groups
// of 16: 6 iterations.
// CHECK-LABEL: func.func private @__qnn_kernel_int16_1_
// CHECK: scf.parallel (%[[T:.*]]) = (%c0{{(_[0-9]+)?}}) to (%c6{{(_[0-9]+)?}}) step (%c1{{(_[0-9]+)?}}) {
// CHECK-NOT: scf.parallel
// CHECK: return
// OMP-LABEL: func.func private @__qnn_kernel_int16_1_
// OMP: omp.wsloop
// OMP-NEXT: omp.loop_nest (%{{.*}}) : index = (%{{.*}}) to (%{{.*}}) step (%{{.*}})
func.func @one(%x: tensor<1x2x7x8xi8>) -> tensor<1x2x7x32xi32> {
  %w = arith.constant dense<3> : tensor<32x1x1x8xi8>
  %c = qnn.conv2d %x, %w {data_layout = #qnn.layout<NHWC>, dilations = array<i64: 1, 1>, groups = 1 : i64, input_scale = 5.000000e-01 : f32, input_zero_point = 0 : i32, kernel_layout = #qnn.kernel_layout<OHWI>, padding = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, weight_scale = array<f32: 0.01>, weight_zero_point = 0 : i32} : (tensor<1x2x7x8xi8>, tensor<32x1x1x8xi8>) -> tensor<1x2x7x32xi32>
  return %c : tensor<1x2x7x32xi32>
}

// -----

// Two images: the loop runs over (image, tile).
// CHECK-LABEL: func.func private @__qnn_kernel_int16_2_
// CHECK: scf.parallel (%[[N:.*]], %[[T:.*]]) = (%c0{{(_[0-9]+)?}}, %c0{{(_[0-9]+)?}}) to (%c2{{(_[0-9]+)?}}, %c6{{(_[0-9]+)?}}) step (%c1{{(_[0-9]+)?}}, %c1{{(_[0-9]+)?}}) {
// CHECK-NOT: scf.parallel
// CHECK: return
// OMP-LABEL: func.func private @__qnn_kernel_int16_2_
// OMP: omp.wsloop
// OMP-NEXT: omp.loop_nest (%{{.*}}, %{{.*}}) : index = (%{{.*}}, %{{.*}}) to (%{{.*}}, %{{.*}}) step (%{{.*}}, %{{.*}})
func.func @two(%x: tensor<2x2x7x8xi8>) -> tensor<2x2x7x32xi32> {
  %w = arith.constant dense<3> : tensor<32x1x1x8xi8>
  %c = qnn.conv2d %x, %w {data_layout = #qnn.layout<NHWC>, dilations = array<i64: 1, 1>, groups = 1 : i64, input_scale = 5.000000e-01 : f32, input_zero_point = 0 : i32, kernel_layout = #qnn.kernel_layout<OHWI>, padding = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, weight_scale = array<f32: 0.01>, weight_zero_point = 0 : i32} : (tensor<2x2x7x8xi8>, tensor<32x1x1x8xi8>) -> tensor<2x2x7x32xi32>
  return %c : tensor<2x2x7x32xi32>
}
