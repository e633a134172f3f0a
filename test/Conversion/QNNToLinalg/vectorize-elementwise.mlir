// qnn-vectorize-elementwise: elementwise generics are tiled along the
// innermost dimension and vectorized; a fused bias + requantize + clamp
// chain becomes one vector loop body. An op with identity maps on whole
// tensors is flattened first, and a flat dimension that no full-width tile
// divides is split after its last full tile. Tiles have `width` lanes of
// 32 bits (or wider types), 2 x width of 16 bits, 4 x width of bytes.
// Non-elementwise ops, dimensions of fewer than 4 and dimensions without a
// power-of-two tile are left alone.
// RUN: qnn-opt %s --split-input-file --convert-qnn-to-linalg --linalg-fuse-elementwise-ops --qnn-vectorize-elementwise | FileCheck %s
// RUN: qnn-opt %s --split-input-file --convert-qnn-to-linalg --linalg-fuse-elementwise-ops --qnn-vectorize-elementwise=width=8 | FileCheck %s --check-prefix=W8

// CHECK-LABEL: func.func @requantize
// CHECK: tensor.collapse_shape %arg0 {{\[\[}}0, 1]] : tensor<4x32xi32> into tensor<128xi32>
// CHECK-NOT: scf.for
// CHECK: scf.for %{{.*}} = %c0 to %c128 step %c16
// CHECK-NOT: scf.for
// CHECK: vector.transfer_read %{{.*}} : tensor<16xi32>, vector<16xi32>
// The 64-bit product, then 32-bit lanes from the high half on.
// CHECK: arith.muli %{{.*}}, %{{.*}} : vector<16xi64>
// CHECK: arith.trunci %{{.*}} : vector<16xi64> to vector<16xi32>
// CHECK: arith.trunci %{{.*}} : vector<16xi32> to vector<16xi8>
// CHECK: vector.transfer_write %{{.*}} : vector<16xi8>, tensor<16xi8>
// CHECK-NOT: linalg.generic
// W8-LABEL: func.func @requantize
// W8: scf.for %{{.*}} = %c0 to %c128 step %c8
// W8: arith.trunci %{{.*}} : vector<8xi32> to vector<8xi8>
func.func @requantize(%x: tensor<4x32xi32>) -> tensor<4x32xi8> {
  %y = qnn.requantize %x {input_scale = array<f64: 0.0123>, input_zero_point = 0 : i32, output_scale = 1.0 : f32, output_zero_point = -5 : i32} : tensor<4x32xi32> -> tensor<4x32xi8>
  return %y : tensor<4x32xi8>
}

// -----

// A lookup-table activation: the table read becomes a gather. Rows of 24
// lanes would give tiles of 8 (the largest power of two dividing 24), so
// the whole tensor runs as 48 elements in tiles of 16.
// CHECK-LABEL: func.func @table
// CHECK: tensor.collapse_shape %arg0 {{\[\[}}0, 1]] : tensor<2x24xi8> into tensor<48xi8>
// CHECK: scf.for %{{.*}} = %c0 to %c48 step %c16
// CHECK: vector.gather %{{.*}} : tensor<256xi8>, vector<16xindex>, vector<16xi1>, vector<16xi8> into vector<16xi8>
func.func @table(%x: tensor<2x24xi8>) -> tensor<2x24xi8> {
  %y = qnn.hardswish %x {input_scale = 0.05 : f32, input_zero_point = 3 : i32, output_scale = 0.04 : f32, output_zero_point = -2 : i32} : tensor<2x24xi8> -> tensor<2x24xi8>
  return %y : tensor<2x24xi8>
}

// -----

// Innermost dimension 3 of a whole tensor: flattened to 24 elements, one
// tile of 16, then the remaining 8 as an op of their own.
// CHECK-LABEL: func.func @narrow
// CHECK: tensor.collapse_shape %arg0 {{\[\[}}0, 1]] : tensor<8x3xi32> into tensor<24xi32>
// CHECK: tensor.extract_slice %{{.*}}[0] [16] [1] : tensor<24xi32> to tensor<16xi32>
// CHECK: scf.for %{{.*}} = %c0 to %c16 step %c16
// CHECK: arith.trunci %{{.*}} : vector<16xi32> to vector<16xi8>
// CHECK: tensor.extract_slice %{{.*}}[16] [8] [1] : tensor<24xi32> to tensor<8xi32>
// CHECK: scf.for %{{.*}} = %c0 to %c8 step %c8
// CHECK: arith.trunci %{{.*}} : vector<8xi32> to vector<8xi8>
// CHECK: tensor.expand_shape %{{.*}} {{\[\[}}0, 1]] output_shape [8, 3] : tensor<24xi8> into tensor<8x3xi8>
func.func @narrow(%x: tensor<8x3xi32>) -> tensor<8x3xi8> {
  %y = qnn.requantize %x {input_scale = array<f64: 0.0123>, input_zero_point = 0 : i32, output_scale = 1.0 : f32, output_zero_point = -5 : i32} : tensor<8x3xi32> -> tensor<8x3xi8>
  return %y : tensor<8x3xi8>
}

// -----

// Threads: with parallel=true, ops of at least parallel-min-elements
// elements are tiled with scf.forall (each tile writes its own elements);
// smaller ones keep scf.for.
// RUN: qnn-opt %s --split-input-file --convert-qnn-to-linalg --linalg-fuse-elementwise-ops --qnn-vectorize-elementwise="parallel=true parallel-min-elements=128" | FileCheck %s --check-prefix=PAR
// PAR-LABEL: func.func @requantize
// PAR: scf.forall (%{{.*}}) = (0) to (128) step (16) shared_outs
// PAR: vector.transfer_write %{{.*}} : vector<16xi8>, tensor<16xi8>
// PAR: tensor.parallel_insert_slice
// PAR-LABEL: func.func @small_requantize
// PAR-NOT: scf.forall
// PAR: scf.for
func.func @small_requantize(%x: tensor<2x32xi32>) -> tensor<2x32xi8> {
  %y = qnn.requantize %x {input_scale = array<f64: 0.0123>, input_zero_point = 0 : i32, output_scale = 1.0 : f32, output_zero_point = -5 : i32} : tensor<2x32xi32> -> tensor<2x32xi8>
  return %y : tensor<2x32xi8>
}

// -----

// A statically shaped tensor.pad by a constant becomes a vectorized fill of
// the padded tensor and a vectorized copy into its interior. Byte fills and
// copies move 64 bytes per step (4 x width): the fill runs over the whole
// flattened tensor, the copy over rows of W x C = 128 contiguous bytes
// (every channel of the padded tensor is copied).
// CHECK-LABEL: func.func @pad
// CHECK-NOT: tensor.pad
// CHECK: tensor.collapse_shape %{{.*}} {{\[\[}}0, 1, 2, 3]] : tensor<1x6x7x32xi8> into tensor<1344xi8>
// CHECK: scf.for %{{.*}} = %c0 to %c1344 step %c64
// CHECK: vector.transfer_write %{{.*}} : vector<64xi8>, tensor<64xi8>
// CHECK: tensor.extract_slice %{{.*}}[0, 1, 2, 0] [1, 4, 4, 32] [1, 1, 1, 1] : tensor<1x6x7x32xi8> to tensor<1x4x4x32xi8>
// CHECK: tensor.collapse_shape %arg0 {{\[\[}}0], [1], [2, 3]] : tensor<1x4x4x32xi8> into tensor<1x4x128xi8>
// CHECK: scf.for %{{.*}} = %c0 to %c128 step %c64
// CHECK: vector.transfer_read %{{.*}} : tensor<1x1x64xi8>, vector<64xi8>
// CHECK: tensor.insert_slice %{{.*}} into %{{.*}}[0, 1, 2, 0] [1, 4, 4, 32] [1, 1, 1, 1] : tensor<1x4x4x32xi8> into tensor<1x6x7x32xi8>
func.func @pad(%x: tensor<1x4x4x32xi8>) -> tensor<1x6x7x32xi8> {
  %c = arith.constant -7 : i8
  %y = tensor.pad %x low[0, 1, 2, 0] high[0, 1, 1, 0] {
  ^bb0(%a: index, %b: index, %d: index, %e: index):
    tensor.yield %c : i8
  } : tensor<1x4x4x32xi8> to tensor<1x6x7x32xi8>
  return %y : tensor<1x6x7x32xi8>
}

// -----

// The fill of a padded first-convolution input (225 rows of 225 x 4
// bytes): rows of 900 bytes would give tiles of 4, so the whole buffer is
// filled in tiles of 64 bytes up to the last multiple of 64 (202496), then
// the last 4 bytes.
// CHECK-LABEL: func.func @padded_fill
// CHECK: tensor.extract_slice %{{.*}}[0] [202496] [1] : tensor<202500xi8> to tensor<202496xi8>
// CHECK: scf.for %{{.*}} = %c0 to %c202496 step %c64
// CHECK: vector.transfer_write %{{.*}} : vector<64xi8>, tensor<64xi8>
// CHECK: tensor.extract_slice %{{.*}}[202496] [4] [1] : tensor<202500xi8> to tensor<4xi8>
// CHECK: vector.transfer_write %{{.*}} : vector<4xi8>, tensor<4xi8>
// CHECK: tensor.expand_shape %{{.*}} output_shape [1, 225, 900] : tensor<202500xi8> into tensor<1x225x900xi8>
func.func @padded_fill() -> tensor<1x225x900xi8> {
  %pad = arith.constant -128 : i8
  %e = tensor.empty() : tensor<202500xi8>
  %x = tensor.expand_shape %e [[0, 1, 2]] output_shape [1, 225, 900] : tensor<202500xi8> into tensor<1x225x900xi8>
  %f = linalg.fill ins(%pad : i8) outs(%x : tensor<1x225x900xi8>) -> tensor<1x225x900xi8>
  return %f : tensor<1x225x900xi8>
}

// -----

// A copy into a slice that steps by 2 along W: its rows are not contiguous,
// so the copy keeps its 4-D form (tiles of the 32 channels).
// CHECK-LABEL: func.func @strided_copy
// CHECK-NOT: tensor.collapse_shape
// CHECK: vector.transfer_write %{{.*}} : vector<32xi8>, tensor<1x1x1x32xi8>
func.func @strided_copy(%x: tensor<1x4x4x32xi8>, %buf: tensor<1x4x8x32xi8>) -> tensor<1x4x8x32xi8> {
  %s = tensor.extract_slice %buf[0, 0, 0, 0] [1, 4, 4, 32] [1, 1, 2, 1] : tensor<1x4x8x32xi8> to tensor<1x4x4x32xi8>
  %c = linalg.copy ins(%x : tensor<1x4x4x32xi8>) outs(%s : tensor<1x4x4x32xi8>) -> tensor<1x4x4x32xi8>
  %r = tensor.insert_slice %c into %buf[0, 0, 0, 0] [1, 4, 4, 32] [1, 1, 2, 1] : tensor<1x4x4x32xi8> into tensor<1x4x8x32xi8>
  return %r : tensor<1x4x8x32xi8>
}

// -----

// The same behind a reshape: a one-channel NCHW input (1x1x9x6) copied into
// the interior of an NHWC tensor whose channels are padded to 2 (the int16
// target's first convolution) is a copy into the expand_shape of a slice
// whose W steps by 2 bytes. Neither the rows nor the pixels are contiguous:
// no collapse, no vector of the 6 pixels (which no LLVM lowering took), the
// copy stays a scalar op.
// CHECK-LABEL: func.func @reshaped_slice_copy
// CHECK-NOT: vector.transfer_write
// CHECK: linalg.copy ins(%{{.*}} : tensor<1x1x9x6x1xi8>) outs(%{{.*}} : tensor<1x1x9x6x1xi8>)
// CHECK-NOT: vector.transfer_write
// CHECK: return
func.func @reshaped_slice_copy(%x: tensor<1x1x9x6x1xi8>, %buf: tensor<1x11x9x2xi8>) -> tensor<1x11x9x2xi8> {
  %s = tensor.extract_slice %buf[0, 1, 1, 0] [1, 9, 6, 1] [1, 1, 1, 1] : tensor<1x11x9x2xi8> to tensor<1x9x6x1xi8>
  %e = tensor.expand_shape %s [[0, 1], [2], [3], [4]] output_shape [1, 1, 9, 6, 1] : tensor<1x9x6x1xi8> into tensor<1x1x9x6x1xi8>
  %c = linalg.copy ins(%x : tensor<1x1x9x6x1xi8>) outs(%e : tensor<1x1x9x6x1xi8>) -> tensor<1x1x9x6x1xi8>
  %k = tensor.collapse_shape %c [[0, 1], [2], [3], [4]] : tensor<1x1x9x6x1xi8> into tensor<1x9x6x1xi8>
  %r = tensor.insert_slice %k into %buf[0, 1, 1, 0] [1, 9, 6, 1] [1, 1, 1, 1] : tensor<1x9x6x1xi8> into tensor<1x11x9x2xi8>
  return %r : tensor<1x11x9x2xi8>
}

// -----

// An op on bytes only (the sign flip that makes an int8 input unsigned for
// vpdpbusd) moves 4 x width = 64 lanes per step over the flattened tensor;
// with 16-bit values in its body, 2 x width = 32.
// CHECK-LABEL: func.func @flip_bytes
// CHECK: tensor.collapse_shape %arg0 {{\[\[}}0, 1, 2, 3]] : tensor<1x4x4x32xi8> into tensor<512xi8>
// CHECK: scf.for %{{.*}} = %c0 to %c512 step %c64
// CHECK: arith.xori %{{.*}}, %{{.*}} : vector<64xi8>
// CHECK-LABEL: func.func @widen_to_i16
// CHECK: scf.for %{{.*}} = %c0 to %c512 step %c32
// CHECK: arith.extsi %{{.*}} : vector<32xi8> to vector<32xi16>
// W8-LABEL: func.func @flip_bytes
// W8: scf.for %{{.*}} = %c0 to %c512 step %c32
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @flip_bytes(%x: tensor<1x4x4x32xi8>) -> tensor<1x4x4x32xi8> {
  %e = tensor.empty() : tensor<1x4x4x32xi8>
  %y = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x : tensor<1x4x4x32xi8>) outs(%e : tensor<1x4x4x32xi8>) {
  ^bb0(%a: i8, %o: i8):
    %c = arith.constant -128 : i8
    %r = arith.xori %a, %c : i8
    linalg.yield %r : i8
  } -> tensor<1x4x4x32xi8>
  return %y : tensor<1x4x4x32xi8>
}
func.func @widen_to_i16(%x: tensor<1x4x4x32xi8>) -> tensor<1x4x4x32xi16> {
  %e = tensor.empty() : tensor<1x4x4x32xi16>
  %y = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x : tensor<1x4x4x32xi8>) outs(%e : tensor<1x4x4x32xi16>) {
  ^bb0(%a: i8, %o: i16):
    %r = arith.extsi %a : i8 to i16
    linalg.yield %r : i16
  } -> tensor<1x4x4x32xi16>
  return %y : tensor<1x4x4x32xi16>
}

// -----

// Reductions along an innermost parallel dimension: a pooling window's
// loops (kh, kw) move outside the channel loop, which is tiled (i64 sums
// of an average: 16 lanes; bytes of a maximum: the 32 channels at once),
// every other loop by 1, and each tile is one elementwise step: read a
// vector of the window's input, combine it with the output's vector.
// CHECK-LABEL: func.func @avg_pool
// CHECK: scf.for %{{.*}} = %c0 to %c4 step %c1
// CHECK: scf.for %{{.*}} = %c0 to %c4 step %c1
// CHECK: scf.for %{{.*}} = %c0 to %c3 step %c1
// CHECK: scf.for %{{.*}} = %c0 to %c3 step %c1
// CHECK: scf.for %{{.*}} = %c0 to %c32 step %c16
// CHECK: vector.transfer_read %{{.*}} : tensor<16xi8>, vector<16xi8>
// CHECK: vector.transfer_read %{{.*}} : tensor<16xi64>, vector<16xi64>
// CHECK: arith.extsi %{{.*}} : vector<16xi8> to vector<16xi64>
// CHECK: arith.addi %{{.*}} : vector<16xi64>
// CHECK: vector.transfer_write %{{.*}} : vector<16xi64>, tensor<16xi64>
// CHECK-NOT: linalg.generic
// CHECK-LABEL: func.func @max_pool
// CHECK: scf.for %{{.*}} = %c0 to %c2 step %c1
// CHECK: scf.for %{{.*}} = %c0 to %c2 step %c1
// CHECK: scf.for %{{.*}} = %c0 to %c32 step %c32
// CHECK: arith.maxui %{{.*}} : vector<32xi8>
// CHECK-NOT: linalg.generic
// CHECK-LABEL: func.func @mean_nchw
// Reductions keep scf.for loops with threads (a reduction loop carries its
// output; tiled as a forall, threads would race on it).
// PAR-LABEL: func.func @avg_pool
// PAR: scf.for %{{.*}} iter_args(%{{.*}}) -> (tensor<1x4x4x32xi64>)
// PAR-NOT: scf.forall
// PAR: arith.addi %{{.*}} : vector<16xi64>
// PAR-LABEL: func.func @max_pool
func.func @avg_pool(%x: tensor<1x8x8x32xi8>) -> tensor<1x4x4x32xi8> {
  %p = qnn.avg_pool2d %x {data_layout = #qnn.layout<NHWC>, kernel = array<i64: 3, 3>, padding = array<i64: 0, 0, 1, 1>, strides = array<i64: 2, 2>} : tensor<1x8x8x32xi8> -> tensor<1x4x4x32xi8>
  return %p : tensor<1x4x4x32xi8>
}
func.func @max_pool(%x: tensor<1x8x8x32xui8>) -> tensor<1x4x4x32xui8> {
  %p = qnn.max_pool2d %x {data_layout = #qnn.layout<NHWC>, kernel = array<i64: 2, 2>, padding = array<i64: 0, 0, 0, 0>, strides = array<i64: 2, 2>} : tensor<1x8x8x32xui8> -> tensor<1x4x4x32xui8>
  return %p : tensor<1x4x4x32xui8>
}

// NCHW: the reduced H and W are the innermost dimensions, and the output's
// innermost is no loop: the sum stays a scalar generic.
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction", "reduction"]
func.func @mean_nchw(%x: tensor<1x64x7x7xi8>) -> tensor<1x64x1x1xi8> {
  %y = qnn.global_avg_pool %x {data_layout = #qnn.layout<NCHW>, input_scale = 5.000000e-01 : f32, input_zero_point = 1 : i32, output_scale = 2.500000e-01 : f32, output_zero_point = 2 : i32} : tensor<1x64x7x7xi8> -> tensor<1x64x1x1xi8>
  return %y : tensor<1x64x1x1xi8>
}

// -----

// A matmul with run-time operands: the output's columns j are the right
// operand's innermost dimension too, so the k loop moves outside j and each
// step is out[i, j..] += lhs[i, k] * rhs[k, j..], the left element a scalar
// read (tensor.extract) broadcast by the vectorizer.
// CHECK-LABEL: func.func @matmul
// CHECK: scf.for %{{.*}} = %c0 to %c4 step %c1
// CHECK: scf.for %{{.*}} = %c0 to %c5 step %c1
// CHECK: scf.for %{{.*}} = %c0 to %c32 step %c16
// CHECK: tensor.extract %{{.*}} : tensor<1x1x1xi8>
// CHECK: vector.broadcast %{{.*}} : i32 to vector<16xi32>
// CHECK: arith.muli %{{.*}} : vector<16xi32>
// CHECK: arith.addi %{{.*}} : vector<16xi32>
func.func @matmul(%a: tensor<4x5xi8>, %b: tensor<5x32xi8>) -> tensor<4x32xi32> {
  %0 = qnn.batch_matmul %a, %b {lhs_scale = 0.5 : f32, lhs_zero_point = 3 : i32, rhs_scale = 0.25 : f32, rhs_zero_point = -2 : i32} : (tensor<4x5xi8>, tensor<5x32xi8>) -> tensor<4x32xi32>
  return %0 : tensor<4x32xi32>
}
