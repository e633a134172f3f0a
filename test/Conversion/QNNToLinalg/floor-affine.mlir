// The floor-affine rescale (math::FloorAffine, fitRescaleFloorAffine) in
// the epilogues that convert-qnn-to-linalg builds for the AVX-512 targets:
// floor(x * slope + offset) in float64 of the accumulator clamped to
// +-2^24, the float32 slope and offset per channel (or immediates), a
// second offset for x < 0 where gemmlowp's double rounding needs one.
// Where a channel has no such form (a left shift), with floor-affine=false
// and on the other targets, the fixed-point forms. (The kernels' float32 form:
// kernels-floor-affine.mlir; execution: test/Execution/floor-affine.test.)
// RUN: qnn-opt %s --split-input-file --convert-qnn-to-linalg=target=avx512-vnni | FileCheck %s
// RUN: qnn-opt %s --split-input-file --convert-qnn-to-linalg=target=int16-avx512bw | FileCheck %s
// RUN: qnn-opt %s --split-input-file --convert-qnn-to-linalg="target=avx512-vnni floor-affine=false" | FileCheck %s --check-prefix=FIXED
// RUN: qnn-opt %s --split-input-file --convert-qnn-to-linalg=target=int16 | FileCheck %s --check-prefix=FIXED
// RUN: qnn-opt %s --split-input-file --convert-qnn-to-linalg=target=generic | FileCheck %s --check-prefix=FIXED

// ReLU, per-channel scales: one offset per channel.
// CHECK-LABEL: func.func @relu_per_channel
// CHECK: call @[[K:.*_epilogue[0-9]+]]({{.*}}) : ({{.*}}, memref<16xi32>, memref<16xf32>, memref<16xf32>, memref<1x4x4x16xi8>) -> ()
// CHECK: func.func private @[[K]]_fn(%[[ACC:.*]]: i32, %[[BIAS:.*]]: i32, %[[SLOPE:.*]]: f32, %[[OFFSET:.*]]: f32) -> i8
// CHECK: %[[X:.*]] = arith.addi %[[ACC]], %[[BIAS]] : i32
// CHECK-DAG: %[[B:.*]] = arith.constant 16777216 : i32
// CHECK-DAG: %[[NB:.*]] = arith.constant -16777216 : i32
// CHECK: %[[LO:.*]] = arith.maxsi %[[X]], %[[NB]] : i32
// CHECK: %[[C:.*]] = arith.minsi %[[LO]], %[[B]] : i32
// CHECK-DAG: %[[S:.*]] = arith.extf %[[SLOPE]] : f32 to f64
// CHECK-DAG: %[[O:.*]] = arith.extf %[[OFFSET]] : f32 to f64
// CHECK-DAG: %[[F:.*]] = arith.sitofp %[[C]] : i32 to f64
// CHECK: %[[T:.*]] = math.fma %[[F]], %[[S]], %[[O]] : f64
// CHECK: %[[FL:.*]] = math.floor %[[T]] : f64
// CHECK: arith.fptosi %[[FL]] : f64 to i32
// CHECK-NOT: arith.muli
// CHECK: arith.trunci {{.*}} : i32 to i8
// FIXED-LABEL: func.func @relu_per_channel
// FIXED-NOT: math.fma
// FIXED: arith.muli {{.*}} : i64
func.func @relu_per_channel(%x: tensor<1x4x4x16xi8>) -> tensor<1x4x4x16xi8> {
  %w = arith.constant dense<"0xD373A7E6278D93530A99DE168F6902B78A97F0EC92BE980EED905411A073BA22211673901416E68D7AB98C0F5CA3CBECA50B9F13CF10512FAF9B151324B1E0990D379111901FB5002F09EE47D1F8166DF5DDCDC04CAF3348BF9514CD07FF61D83BF3CA1C7B939F04ECAB42D8A76FFEEC8B772C94440F134B6152D1D832DA1900154DF592589872C6FA332B91903C34D026147F2F53F3C938E3642CD98671F7DBAC1D9EFF90B845CAA23EC0E6E56B600095ABF3E70DC863A452EF5E0DC835EB7DDC2F63E276BCA796AEA7BC29BC84FD5517AFC4C982A6EC09DF1D11D274A1315C04741F282E3E8EF5675F4874602F4D10E5E6E7E59BFC23E790B1927DB6F1AA9D"> : tensor<16x1x1x16xi8>
  %b = arith.constant dense<"0xA0FDFFFFCC01000007F9FFFFD3F9FFFF30F8FFFF410100009BFAFFFFC5000000CFF9FFFF5E07000001FEFFFF0102000098F8FFFF50F9FFFF2D06000083FBFFFF"> : tensor<16xi32>
  %y = npu.conv2d %x, %w, %b {input_scale = 0.05 : f32, input_zero_point = -3 : i32, weight_scale = array<f32: 0.0100, 0.0110, 0.0120, 0.0130, 0.0140, 0.0150, 0.0160, 0.0170, 0.0180, 0.0190, 0.0200, 0.0210, 0.0220, 0.0230, 0.0240, 0.0250>, weight_zero_point = 0 : i32, output_scale = 0.2 : f32, output_zero_point = 4 : i32, rounding = #qnn.rounding<tflite>, strides = array<i64: 1, 1>, padding = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 1 : i64, pad_value = -3 : i32, activation = #npu.activation<relu>, act_min = 4 : i32, act_max = 127 : i32} : (tensor<1x4x4x16xi8>, tensor<16x1x1x16xi8>, tensor<16xi32>) -> tensor<1x4x4x16xi8>
  return %y : tensor<1x4x4x16xi8>
}

// -----

// No activation and double rounding: gemmlowp rounds halves away from
// zero, so x < 0 takes the other offset.
// CHECK-LABEL: func.func @two_sided
// CHECK: func.func private @{{.*}}_fn(%{{.*}}: i32, %{{.*}}: i32, %{{.*}}: f32, %[[POS:.*]]: f32, %[[NEG:.*]]: f32) -> i8
// CHECK: %[[C:.*]] = arith.minsi
// CHECK-DAG: %[[P:.*]] = arith.extf %[[POS]] : f32 to f64
// CHECK-DAG: %[[N:.*]] = arith.extf %[[NEG]] : f32 to f64
// CHECK-DAG: %[[Z:.*]] = arith.constant 0 : i32
// CHECK: %[[IS:.*]] = arith.cmpi slt, %[[C]], %[[Z]] : i32
// CHECK: %[[O:.*]] = arith.select %[[IS]], %[[N]], %[[P]] : f64
// CHECK: math.fma %{{.*}}, %{{.*}}, %[[O]] : f64
// FIXED-LABEL: func.func @two_sided
// FIXED-NOT: math.fma
func.func @two_sided(%x: tensor<1x4x4x16xi8>) -> tensor<1x4x4x16xi8> {
  %w = arith.constant dense<"0xD373A7E6278D93530A99DE168F6902B78A97F0EC92BE980EED905411A073BA22211673901416E68D7AB98C0F5CA3CBECA50B9F13CF10512FAF9B151324B1E0990D379111901FB5002F09EE47D1F8166DF5DDCDC04CAF3348BF9514CD07FF61D83BF3CA1C7B939F04ECAB42D8A76FFEEC8B772C94440F134B6152D1D832DA1900154DF592589872C6FA332B91903C34D026147F2F53F3C938E3642CD98671F7DBAC1D9EFF90B845CAA23EC0E6E56B600095ABF3E70DC863A452EF5E0DC835EB7DDC2F63E276BCA796AEA7BC29BC84FD5517AFC4C982A6EC09DF1D11D274A1315C04741F282E3E8EF5675F4874602F4D10E5E6E7E59BFC23E790B1927DB6F1AA9D"> : tensor<16x1x1x16xi8>
  %b = arith.constant dense<"0xA0FDFFFFCC01000007F9FFFFD3F9FFFF30F8FFFF410100009BFAFFFFC5000000CFF9FFFF5E07000001FEFFFF0102000098F8FFFF50F9FFFF2D06000083FBFFFF"> : tensor<16xi32>
  %y = npu.conv2d %x, %w, %b {input_scale = 0.05 : f32, input_zero_point = -3 : i32, weight_scale = array<f32: 0.0100, 0.0110, 0.0120, 0.0130, 0.0140, 0.0150, 0.0160, 0.0170, 0.0180, 0.0190, 0.0200, 0.0210, 0.0220, 0.0230, 0.0240, 0.0250>, weight_zero_point = 0 : i32, output_scale = 0.2 : f32, output_zero_point = 4 : i32, rounding = #qnn.rounding<tflite>, strides = array<i64: 1, 1>, padding = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 1 : i64, pad_value = -3 : i32, activation = #npu.activation<none>, act_min = -128 : i32, act_max = 127 : i32} : (tensor<1x4x4x16xi8>, tensor<16x1x1x16xi8>, tensor<16xi32>) -> tensor<1x4x4x16xi8>
  return %y : tensor<1x4x4x16xi8>
}

// -----

// One scale: the parameters are immediates, not channel constants.
// CHECK-LABEL: func.func @per_tensor
// CHECK: call @[[K:.*_epilogue[0-9]+]]({{.*}}) : ({{.*}}, memref<16xi32>, memref<16xi32>, memref<1x4x4x16xi8>) -> ()
// CHECK: func.func private @[[K]]_fn(%{{.*}}: i32, %{{.*}}: i32) -> i8
// CHECK: arith.constant {{.*}} : f32
// CHECK: arith.extf
// CHECK: math.fma
// FIXED-LABEL: func.func @per_tensor
// FIXED-NOT: math.fma
func.func @per_tensor(%x: tensor<1x4x4x16xi8>) -> tensor<1x4x4x16xi8> {
  %w = arith.constant dense<"0xD373A7E6278D93530A99DE168F6902B78A97F0EC92BE980EED905411A073BA22211673901416E68D7AB98C0F5CA3CBECA50B9F13CF10512FAF9B151324B1E0990D379111901FB5002F09EE47D1F8166DF5DDCDC04CAF3348BF9514CD07FF61D83BF3CA1C7B939F04ECAB42D8A76FFEEC8B772C94440F134B6152D1D832DA1900154DF592589872C6FA332B91903C34D026147F2F53F3C938E3642CD98671F7DBAC1D9EFF90B845CAA23EC0E6E56B600095ABF3E70DC863A452EF5E0DC835EB7DDC2F63E276BCA796AEA7BC29BC84FD5517AFC4C982A6EC09DF1D11D274A1315C04741F282E3E8EF5675F4874602F4D10E5E6E7E59BFC23E790B1927DB6F1AA9D"> : tensor<16x1x1x16xi8>
  %b = arith.constant dense<"0xA0FDFFFFCC01000007F9FFFFD3F9FFFF30F8FFFF410100009BFAFFFFC5000000CFF9FFFF5E07000001FEFFFF0102000098F8FFFF50F9FFFF2D06000083FBFFFF"> : tensor<16xi32>
  %y = npu.conv2d %x, %w, %b {input_scale = 0.05 : f32, input_zero_point = -3 : i32, weight_scale = array<f32: 0.02>, weight_zero_point = 0 : i32, output_scale = 0.2 : f32, output_zero_point = 4 : i32, rounding = #qnn.rounding<tflite>, strides = array<i64: 1, 1>, padding = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 1 : i64, pad_value = -3 : i32, activation = #npu.activation<relu>, act_min = 4 : i32, act_max = 127 : i32} : (tensor<1x4x4x16xi8>, tensor<16x1x1x16xi8>, tensor<16xi32>) -> tensor<1x4x4x16xi8>
  return %y : tensor<1x4x4x16xi8>
}

// -----

// A multiplier of 10 (a left shift: TFLite's shift wraps in 32 bits, not
// monotone): no floor-affine form, the fixed-point one.
// CHECK-LABEL: func.func @large_multiplier
// CHECK-NOT: math.fma
// CHECK: arith.muli {{.*}} : i64
// CHECK-NOT: math.fma
// CHECK: return
func.func @large_multiplier(%x: tensor<1x4x4x16xi8>) -> tensor<1x4x4x16xi8> {
  %w = arith.constant dense<"0xD373A7E6278D93530A99DE168F6902B78A97F0EC92BE980EED905411A073BA22211673901416E68D7AB98C0F5CA3CBECA50B9F13CF10512FAF9B151324B1E0990D379111901FB5002F09EE47D1F8166DF5DDCDC04CAF3348BF9514CD07FF61D83BF3CA1C7B939F04ECAB42D8A76FFEEC8B772C94440F134B6152D1D832DA1900154DF592589872C6FA332B91903C34D026147F2F53F3C938E3642CD98671F7DBAC1D9EFF90B845CAA23EC0E6E56B600095ABF3E70DC863A452EF5E0DC835EB7DDC2F63E276BCA796AEA7BC29BC84FD5517AFC4C982A6EC09DF1D11D274A1315C04741F282E3E8EF5675F4874602F4D10E5E6E7E59BFC23E790B1927DB6F1AA9D"> : tensor<16x1x1x16xi8>
  %b = arith.constant dense<"0xA0FDFFFFCC01000007F9FFFFD3F9FFFF30F8FFFF410100009BFAFFFFC5000000CFF9FFFF5E07000001FEFFFF0102000098F8FFFF50F9FFFF2D06000083FBFFFF"> : tensor<16xi32>
  %y = npu.conv2d %x, %w, %b {input_scale = 0.05 : f32, input_zero_point = -3 : i32, weight_scale = array<f32: 0.02>, weight_zero_point = 0 : i32, output_scale = 1.0e-04 : f32, output_zero_point = 4 : i32, rounding = #qnn.rounding<tflite>, strides = array<i64: 1, 1>, padding = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 1 : i64, pad_value = -3 : i32, activation = #npu.activation<none>, act_min = -128 : i32, act_max = 127 : i32} : (tensor<1x4x4x16xi8>, tensor<16x1x1x16xi8>, tensor<16xi32>) -> tensor<1x4x4x16xi8>
  return %y : tensor<1x4x4x16xi8>
}

// -----

// A multiplier near 2^-27: over all of int32 its levels lie beyond 2^24,
// but this layer's accumulators stay within sum |w - wzp| * 131 + |bias|
// per channel (accumulatorReach), which is all the fit needs to match.
// CHECK-LABEL: func.func @tiny_multiplier
// CHECK: math.fma
// CHECK-NOT: arith.muli {{.*}} : i64
// CHECK: return
// FIXED-LABEL: func.func @tiny_multiplier
// FIXED-NOT: math.fma
// FIXED: arith.muli {{.*}} : i64
func.func @tiny_multiplier(%x: tensor<1x4x4x16xi8>) -> tensor<1x4x4x16xi8> {
  %w = arith.constant dense<"0xD373A7E6278D93530A99DE168F6902B78A97F0EC92BE980EED905411A073BA22211673901416E68D7AB98C0F5CA3CBECA50B9F13CF10512FAF9B151324B1E0990D379111901FB5002F09EE47D1F8166DF5DDCDC04CAF3348BF9514CD07FF61D83BF3CA1C7B939F04ECAB42D8A76FFEEC8B772C94440F134B6152D1D832DA1900154DF592589872C6FA332B91903C34D026147F2F53F3C938E3642CD98671F7DBAC1D9EFF90B845CAA23EC0E6E56B600095ABF3E70DC863A452EF5E0DC835EB7DDC2F63E276BCA796AEA7BC29BC84FD5517AFC4C982A6EC09DF1D11D274A1315C04741F282E3E8EF5675F4874602F4D10E5E6E7E59BFC23E790B1927DB6F1AA9D"> : tensor<16x1x1x16xi8>
  %b = arith.constant dense<"0xA0FDFFFFCC01000007F9FFFFD3F9FFFF30F8FFFF410100009BFAFFFFC5000000CFF9FFFF5E07000001FEFFFF0102000098F8FFFF50F9FFFF2D06000083FBFFFF"> : tensor<16xi32>
  %y = npu.conv2d %x, %w, %b {input_scale = 0.05 : f32, input_zero_point = -3 : i32, weight_scale = array<f32: 0.02>, weight_zero_point = 0 : i32, output_scale = 1.0e+05 : f32, output_zero_point = 4 : i32, rounding = #qnn.rounding<tflite>, strides = array<i64: 1, 1>, padding = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 1 : i64, pad_value = -3 : i32, activation = #npu.activation<none>, act_min = -128 : i32, act_max = 127 : i32} : (tensor<1x4x4x16xi8>, tensor<16x1x1x16xi8>, tensor<16xi32>) -> tensor<1x4x4x16xi8>
  return %y : tensor<1x4x4x16xi8>
}

// -----

// qnn operators: the requantize of a convolution's accumulators (through
// the bias add) takes the floor-affine form, which qnn-fuse-kernel-epilogues
// moves into the kernel; a requantize of other values keeps the fixed-point
// form.
// CHECK-LABEL: func.func @qnn_requantize
// CHECK: linalg.generic
// CHECK: math.fma {{.*}} : f64
// CHECK: linalg.generic
// CHECK-NOT: math.fma
// CHECK: arith.muli {{.*}} : i64
// CHECK-NOT: math.fma
// CHECK: return
// FIXED-LABEL: func.func @qnn_requantize
// FIXED-NOT: math.fma
// FIXED: return
func.func @qnn_requantize(%x: tensor<1x2x2x16xi8>, %v: tensor<1x2x2x16xi32>) -> (tensor<1x2x2x16xi8>, tensor<1x2x2x16xi8>) {
  %w = arith.constant dense<3> : tensor<16x1x1x16xi8>
  %b = arith.constant dense<-40> : tensor<1x1x1x16xi32>
  %c = qnn.conv2d %x, %w {data_layout = #qnn.layout<NHWC>, dilations = array<i64: 1, 1>, groups = 1 : i64, input_scale = 5.000000e-01 : f32, input_zero_point = -1 : i32, kernel_layout = #qnn.kernel_layout<OHWI>, padding = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, weight_scale = array<f32: 1.000000e-02>, weight_zero_point = 0 : i32} : (tensor<1x2x2x16xi8>, tensor<16x1x1x16xi8>) -> tensor<1x2x2x16xi32>
  %a = tosa.add %c, %b : (tensor<1x2x2x16xi32>, tensor<1x1x1x16xi32>) -> tensor<1x2x2x16xi32>
  %y = qnn.requantize %a {input_scale = array<f64: 5.000000e-03>, input_zero_point = 0 : i32, output_scale = 5.000000e-02 : f32, output_zero_point = -128 : i32, rounding = #qnn.rounding<tflite>} : tensor<1x2x2x16xi32> -> tensor<1x2x2x16xi8>
  %z = qnn.requantize %v {input_scale = array<f64: 5.000000e-03>, input_zero_point = 0 : i32, output_scale = 5.000000e-02 : f32, output_zero_point = -128 : i32, rounding = #qnn.rounding<tflite>} : tensor<1x2x2x16xi32> -> tensor<1x2x2x16xi8>
  return %y, %z : tensor<1x2x2x16xi8>, tensor<1x2x2x16xi8>
}
