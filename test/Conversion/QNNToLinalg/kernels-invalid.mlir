// Malformed kernel declarations are rejected with a diagnostic.
// RUN: qnn-opt %s --split-input-file --verify-diagnostics --qnn-materialize-conv-kernels

// expected-error @+1 {{malformed qnn.conv_kernel attribute}}
func.func private @short(memref<1x1x1x4xi8>, memref<1x1x1x1x64xi8>, memref<16xi32>, memref<1x1x1x16xi32>) attributes {qnn.conv_kernel = array<i64: 3, 1>}

// -----

// Flavor 9 does not exist.
// expected-error @+1 {{malformed qnn.conv_kernel attribute}}
func.func private @flavor(memref<1x1x1x4xi8>, memref<1x1x1x1x64xi8>, memref<16xi32>, memref<1x1x1x16xi32>) attributes {qnn.conv_kernel = array<i64: 9, 1, 1, 1, 4, 1, 1, 1, 1, 1, 1, 1, 1, 16, 1, 0, 0, 1>}

// -----

// Flavor 7 does not exist either (6, DepthwiseAVX2, is the last).
// expected-error @+1 {{malformed qnn.conv_kernel attribute}}
func.func private @flavor7(memref<1x9x9x16xi16>, memref<2x3x3x16xi16>, memref<16xi32>, memref<1x7x7x1x16xi32>) attributes {qnn.conv_kernel = array<i64: 7, 1, 9, 9, 16, 7, 7, 3, 3, 1, 1, 1, 1, 16, 1, 0, 0, 1>}

// -----

// A DepthwiseAVX2 kernel's channels are a multiple of 16 (8 here).
// expected-error @+1 {{malformed qnn.conv_kernel attribute}}
func.func private @dwavx2_channels(memref<1x9x9x8xi16>, memref<2x3x3x8xi16>, memref<8xi32>, memref<1x7x7x1x8xi32>) attributes {qnn.conv_kernel = array<i64: 6, 1, 9, 9, 8, 7, 7, 3, 3, 1, 1, 1, 1, 8, 1, 0, 0, 1>}

// -----

// It takes the self-padding fields (input size, top/left padding) as
// DepthwiseVNNI does, but the unpadded input must fit the padded plane:
// 1 row of top padding and 9 input rows exceed its 9 rows.
// expected-error @+1 {{malformed qnn.conv_kernel attribute}}
func.func private @dwavx2_pad_fields(memref<1x9x9x16xi8>, memref<1x3x3x16xi16>, memref<32xi32>, memref<1x7x7x16xi32>) attributes {qnn.conv_kernel = array<i64: 6, 1, 9, 9, 16, 7, 7, 3, 3, 1, 1, 1, 1, 16, 1, 0, 0, 1, 9, 9, 1, 0>}

// -----

// 6 channels are not a multiple of vpdpbusd's group of 4.
// expected-error @+1 {{malformed qnn.conv_kernel attribute}}
func.func private @channels(memref<1x1x1x6xi8>, memref<1x1x1x1x64xi8>, memref<16xi32>, memref<1x1x1x16xi32>) attributes {qnn.conv_kernel = array<i64: 3, 1, 1, 1, 6, 1, 1, 1, 1, 1, 1, 1, 1, 16, 1, 0, 0, 1>}

// -----

// The self-padding fields (input size, top/left padding) belong to the
// depthwise flavors (4, 5, 6) only.
// expected-error @+1 {{malformed qnn.conv_kernel attribute}}
func.func private @pad_fields(memref<1x1x1x4xi8>, memref<1x1x1x1x64xi8>, memref<16xi32>, memref<1x1x1x16xi32>) attributes {qnn.conv_kernel = array<i64: 3, 1, 1, 1, 4, 1, 1, 1, 1, 1, 1, 1, 1, 16, 1, 0, 0, 1, 1, 1, 0, 0>}

// -----

// An input of 9 rows does not fit a padded plane of 9 with 1 row of top
// padding.
// expected-error @+1 {{malformed qnn.conv_kernel attribute}}
func.func private @pad_beyond(memref<1x9x9x16xi8>, memref<1x3x3x16xi32>, memref<32xi32>, memref<1x8x8x1x16xi32>) attributes {qnn.conv_kernel = array<i64: 5, 1, 9, 9, 16, 7, 7, 3, 3, 1, 1, 1, 1, 16, 1, 0, 0, 1, 9, 9, 1, 0>}

// -----

// A self-padding depthwise kernel's corr has 16 zero-point lanes after the
// 16 channels (32 elements), not 16 (the weights are right: 3x3 packs its
// kernel rows, [1][1][3][16]).
// expected-error @+1 {{kernel @dw_mismatch does not have the signature its qnn.conv_kernel attribute describes}}
func.func private @dw_mismatch(memref<1x8x8x16xi8>, memref<1x1x3x16xi32>, memref<16xi32>, memref<1x7x7x1x16xi32>) attributes {qnn.conv_kernel = array<i64: 5, 1, 9, 9, 16, 7, 7, 3, 3, 1, 1, 1, 1, 16, 1, 0, 0, 1, 8, 8, 1, 1>}

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

// -----

// qnn.argument_ranges holds two entries per per-channel argument and layer:
// 3 entries for one argument.
// expected-error @+1 {{epilogue @odd_ranges has a malformed qnn.argument_ranges attribute (3 entries for 1 per-channel arguments)}}
func.func private @odd_ranges(%acc: i32, %bias: i32) -> i8 attributes {qnn.argument_ranges = array<i64: 0, 5, 7>} {
  %s = arith.addi %acc, %bias : i32
  %t = arith.trunci %s : i32 to i8
  return %t : i8
}
func.func private @k_odd(memref<1x1x1x4xi8>, memref<1x1x1x1x64xi8>, memref<16xi32>, memref<16xi32>, memref<1x1x1x16xi8>) attributes {qnn.conv_kernel = array<i64: 3, 1, 1, 1, 4, 1, 1, 1, 1, 1, 1, 1, 1, 16, 1, 0, 0, 1>, qnn.kernel_epilogue = @odd_ranges}

// -----

// Not an i64 array.
// expected-error @+1 {{epilogue @str_ranges has a malformed qnn.argument_ranges attribute (not an i64 array)}}
func.func private @str_ranges(%acc: i32, %bias: i32) -> i8 attributes {qnn.argument_ranges = "0 5"} {
  %s = arith.addi %acc, %bias : i32
  %t = arith.trunci %s : i32 to i8
  return %t : i8
}
func.func private @k_str(memref<1x1x1x4xi8>, memref<1x1x1x1x64xi8>, memref<16xi32>, memref<16xi32>, memref<1x1x1x16xi8>) attributes {qnn.conv_kernel = array<i64: 3, 1, 1, 1, 4, 1, 1, 1, 1, 1, 1, 1, 1, 16, 1, 0, 0, 1>, qnn.kernel_epilogue = @str_ranges}

// -----

// Stored channels (the 19th entry, KernelSpec::oc) must end in the last
// channel block: not all of op = 16...
// expected-error @+1 {{malformed qnn.conv_kernel attribute}}
func.func private @oc_all(memref<1x1x1x4xi8>, memref<1x1x1x1x64xi8>, memref<16xi32>, memref<1x1x1x16xi32>) attributes {qnn.conv_kernel = array<i64: 3, 1, 1, 1, 4, 1, 1, 1, 1, 1, 1, 1, 1, 16, 1, 0, 0, 1, 16>}

// -----

// ... nor a whole block fewer (16 of 32).
// expected-error @+1 {{malformed qnn.conv_kernel attribute}}
func.func private @oc_block(memref<1x1x1x4xi8>, memref<2x1x1x1x64xi8>, memref<32xi32>, memref<1x1x1x16xi32>) attributes {qnn.conv_kernel = array<i64: 3, 1, 1, 1, 4, 1, 1, 1, 1, 1, 1, 1, 1, 32, 1, 0, 0, 1, 16>}

// -----

// Depthwise kernels store every channel (flavor 5, DepthwiseVNNI).
// expected-error @+1 {{malformed qnn.conv_kernel attribute}}
func.func private @oc_dw(memref<1x3x3x16xi8>, memref<1x3x3x16xi32>, memref<16xi32>, memref<1x1x1x16xi32>) attributes {qnn.conv_kernel = array<i64: 5, 1, 3, 3, 16, 1, 1, 3, 3, 1, 1, 1, 1, 16, 1, 0, 0, 1, 12>}

// -----

// With 24 stored channels, the output has 24.
// expected-error @+1 {{kernel @oc_padded_out does not have the signature its qnn.conv_kernel attribute describes}}
func.func private @oc_padded_out(memref<1x1x1x4xi8>, memref<2x1x1x1x64xi8>, memref<32xi32>, memref<1x1x1x32xi32>) attributes {qnn.conv_kernel = array<i64: 3, 1, 1, 1, 4, 1, 1, 1, 1, 1, 1, 1, 1, 32, 1, 0, 0, 1, 24>}

// -----

// A window coefficient (entry 16) is for DepthwiseVNNI kernels that pack
// their kernel rows (2 to 4): not a 5x5 one,
// expected-error @+1 {{malformed qnn.conv_kernel attribute}}
func.func private @window_5x5(memref<1x11x11x16xi8>, memref<1x5x5x16xi32>, memref<16xi32>, memref<1x7x7x16xi32>) attributes {qnn.conv_kernel = array<i64: 5, 1, 11, 11, 16, 7, 7, 5, 5, 1, 1, 1, 1, 16, 1, 0, 3, 1>}

// -----

// nor one beyond a signed byte,
// expected-error @+1 {{malformed qnn.conv_kernel attribute}}
func.func private @window_200(memref<1x9x9x16xi8>, memref<1x1x3x16xi32>, memref<16xi32>, memref<1x7x7x16xi32>) attributes {qnn.conv_kernel = array<i64: 5, 1, 9, 9, 16, 7, 7, 3, 3, 1, 1, 1, 1, 16, 1, 0, 200, 1>}

// -----

// nor the generic depthwise kernel's.
// expected-error @+1 {{malformed qnn.conv_kernel attribute}}
func.func private @window_generic(memref<1x9x9x16xi8>, memref<1x3x3x16xi16>, memref<16xi32>, memref<1x7x7x16xi32>) attributes {qnn.conv_kernel = array<i64: 4, 1, 9, 9, 16, 7, 7, 3, 3, 1, 1, 1, 1, 16, 1, 0, 3, 1>}

// -----

// A GEMM (VNNI) kernel's window coefficient is 128 - wzp or -wzp: within
// [-128, 128], not 129.
// expected-error @+1 {{malformed qnn.conv_kernel attribute}}
func.func private @gemm_window_129(memref<1x4x4x8xi8>, memref<1x1x1x2x64xi8>, memref<16xi32>, memref<1x4x4x16xi32>) attributes {qnn.conv_kernel = array<i64: 3, 1, 4, 4, 8, 4, 4, 1, 1, 1, 1, 1, 1, 16, 0, 0, 129, 1>}

// -----

// A depthwise kernel that groups pixels (entry 19, KernelSpec::pixelGroup)
// holds 2, 4 or 8 of them per vector, not 3,
// expected-error @+1 {{malformed qnn.conv_kernel attribute}}
func.func private @dw_group3(memref<1x6x9x5xi8>, memref<1x1x3x16xi32>, memref<16xi32>, memref<1x4x2x16xi32>) attributes {qnn.conv_kernel = array<i64: 5, 1, 6, 7, 16, 4, 2, 3, 3, 1, 3, 1, 1, 16, 0, 0, 0, 1, 3>}

// -----

// and its output columns are the group's pixels apart (stride 1 in
// pixels): sw = 2 for 2 pixels, not 1,
// expected-error @+1 {{malformed qnn.conv_kernel attribute}}
func.func private @dw_group_stride(memref<1x6x8x8xi8>, memref<1x1x3x16xi32>, memref<16xi32>, memref<1x4x5x16xi32>) attributes {qnn.conv_kernel = array<i64: 5, 1, 6, 7, 16, 4, 5, 3, 3, 1, 1, 1, 1, 16, 0, 0, 0, 1, 2>}

// -----

// only on the VNNI depthwise kernel (not the generic one),
// expected-error @+1 {{malformed qnn.conv_kernel attribute}}
func.func private @dw_group_generic(memref<1x6x8x8xi8>, memref<1x3x3x16xi16>, memref<16xi32>, memref<1x4x3x16xi32>) attributes {qnn.conv_kernel = array<i64: 4, 1, 6, 7, 16, 4, 3, 3, 3, 1, 2, 1, 1, 16, 0, 0, 0, 1, 2>}

// -----

// and its input is the padded plane of 8 channels, [1, 6, 7 + 1, 8], not
// the [1, 6, 7, 16] view the kernel reads it through.
// expected-error @+1 {{kernel @dw_group_plane does not have the signature its qnn.conv_kernel attribute describes}}
func.func private @dw_group_plane(memref<1x6x7x16xi8>, memref<1x1x3x16xi32>, memref<16xi32>, memref<1x4x3x16xi32>) attributes {qnn.conv_kernel = array<i64: 5, 1, 6, 7, 16, 4, 3, 3, 3, 1, 2, 1, 1, 16, 0, 0, 0, 1, 2>}
