// Malformed kernel declarations are rejected with a diagnostic.
// RUN: qnn-opt %s --split-input-file --verify-diagnostics --qnn-materialize-conv-kernels

// expected-error @+1 {{malformed qnn.conv_kernel attribute}}
func.func private @short(memref<1x1x1x4xi8>, memref<1x1x1x1x64xi8>, memref<16xi32>, memref<1x1x1x16xi32>) attributes {qnn.conv_kernel = array<i64: 3, 1>}

// -----

// Flavor 9 does not exist.
// expected-error @+1 {{malformed qnn.conv_kernel attribute}}
func.func private @flavor(memref<1x1x1x4xi8>, memref<1x1x1x1x64xi8>, memref<16xi32>, memref<1x1x1x16xi32>) attributes {qnn.conv_kernel = array<i64: 9, 1, 1, 1, 4, 1, 1, 1, 1, 1, 1, 1, 1, 16, 1, 0, 0, 1>}

// -----

// 6 channels are not a multiple of vpdpbusd's group of 4.
// expected-error @+1 {{malformed qnn.conv_kernel attribute}}
func.func private @channels(memref<1x1x1x6xi8>, memref<1x1x1x1x64xi8>, memref<16xi32>, memref<1x1x1x16xi32>) attributes {qnn.conv_kernel = array<i64: 3, 1, 1, 1, 6, 1, 1, 1, 1, 1, 1, 1, 1, 16, 1, 0, 0, 1>}

// -----

// expected-error @+1 {{kernel @mismatch does not have the signature its qnn.conv_kernel attribute describes}}
func.func private @mismatch(memref<1x2x1x4xi8>, memref<1x1x1x1x64xi8>, memref<16xi32>, memref<1x1x1x16xi32>) attributes {qnn.conv_kernel = array<i64: 3, 1, 1, 1, 4, 1, 1, 1, 1, 1, 1, 1, 1, 16, 1, 0, 0, 1>}

// -----

// expected-error @+1 {{kernel @has_body already has a body}}
func.func @has_body(%a: memref<1x1x1x4xi8>, %b: memref<1x1x1x1x64xi8>, %c: memref<16xi32>, %d: memref<1x1x1x16xi32>) attributes {qnn.conv_kernel = array<i64: 3, 1, 1, 1, 4, 1, 1, 1, 1, 1, 1, 1, 1, 16, 1, 0, 0, 1>} {
  return
}

// -----

// The epilogue function does not exist.
// expected-error @+1 {{kernel @no_epilogue has an invalid qnn.kernel_epilogue attribute}}
func.func private @no_epilogue(memref<1x1x1x4xi8>, memref<1x1x1x1x64xi8>, memref<16xi32>, memref<1x1x1x16xi8>) attributes {qnn.conv_kernel = array<i64: 3, 1, 1, 1, 4, 1, 1, 1, 1, 1, 1, 1, 1, 16, 1, 0, 0, 1>, qnn.kernel_epilogue = @missing}

// -----

// The epilogue takes one per-channel constant, the kernel has none.
func.func private @epi(%acc: i32, %bias: i32) -> i8 {
  %s = arith.addi %acc, %bias : i32
  %t = arith.trunci %s : i32 to i8
  return %t : i8
}
// expected-error @+1 {{kernel @few_args does not have the signature its qnn.conv_kernel attribute describes}}
func.func private @few_args(memref<1x1x1x4xi8>, memref<1x1x1x1x64xi8>, memref<16xi32>, memref<1x1x1x16xi8>) attributes {qnn.conv_kernel = array<i64: 3, 1, 1, 1, 4, 1, 1, 1, 1, 1, 1, 1, 1, 16, 1, 0, 0, 1>, qnn.kernel_epilogue = @epi}
