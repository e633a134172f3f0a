// npu operators lowered by convert-qnn-to-linalg: convolutions and dense
// layers with constant weights straight to a kernel whose epilogue is built
// from the operator's attributes; otherwise a qnn accumulator and a generic
// epilogue. (Execution: test/Execution/npu-kernels*.test.)
// RUN: qnn-opt %s --split-input-file --convert-qnn-to-linalg="target=avx512-vnni floor-affine=false" | FileCheck %s
// RUN: qnn-opt %s --split-input-file --convert-qnn-to-linalg="target=avx512-vnni fuse-depthwise-epilogues=false floor-affine=false" | FileCheck %s --check-prefix=DWOFF
// RUN: qnn-opt %s --split-input-file --convert-qnn-to-linalg=target=loops | FileCheck %s --check-prefix=LOOPS

// Per-channel scales, a constant bias, a clip activation: the bias and the
// multipliers are the kernel's channel constants; the clip is the
// requantize's clamp ([-100, 90] minus the output zero point 4, plus 4);
// the left shifts, all 0 here, are an immediate; 8-bit results.
// CHECK-LABEL: func.func @pointwise
// CHECK-NOT: npu.
// CHECK: call @[[K:__qnn_kernel_vnni_1_4_4_16_4_4_1_1_1_1_1_1_16_0_0_0_1_epilogue0]](%{{.*}}) : (memref<1x4x4x16xi8>, memref<1x1x1x4x64xi8>, memref<16xi32>, memref<16xi32>, memref<16xi64>, memref<16xi64>, memref<1x4x4x16xi8>) -> ()
// CHECK: bufferization.to_tensor {{.*}} to tensor<1x4x4x16xi8>
// CHECK: func.func private @[[K]]_fn(%[[ACC:.*]]: i32, %[[BIAS:.*]]: i32, %[[M:.*]]: i64, %[[R:.*]]: i64) -> i8
// CHECK: arith.addi %[[ACC]], %[[BIAS]] : i32
// CHECK: arith.constant -104 : i32
// CHECK: arith.constant 86 : i32
// CHECK: arith.constant 4 : i32
// CHECK: arith.trunci {{.*}} : i32 to i8
// CHECK: func.func private @[[K]]({{.*}}) attributes {qnn.conv_kernel = array<i64: 3, {{.*}}>, qnn.kernel_epilogue = @[[K]]_fn}
// DWOFF-LABEL: func.func @pointwise
// DWOFF: call @__qnn_kernel_vnni_{{.*}}_epilogue0(
// LOOPS-LABEL: func.func @pointwise
// LOOPS-NOT: call @__qnn_kernel
// LOOPS: iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]
// LOOPS-NOT: npu.
func.func @pointwise(%x: tensor<1x4x4x16xi8>) -> tensor<1x4x4x16xi8> {
  %w = arith.constant dense<"0xD373A7E6278D93530A99DE168F6902B78A97F0EC92BE980EED905411A073BA22211673901416E68D7AB98C0F5CA3CBECA50B9F13CF10512FAF9B151324B1E0990D379111901FB5002F09EE47D1F8166DF5DDCDC04CAF3348BF9514CD07FF61D83BF3CA1C7B939F04ECAB42D8A76FFEEC8B772C94440F134B6152D1D832DA1900154DF592589872C6FA332B91903C34D026147F2F53F3C938E3642CD98671F7DBAC1D9EFF90B845CAA23EC0E6E56B600095ABF3E70DC863A452EF5E0DC835EB7DDC2F63E276BCA796AEA7BC29BC84FD5517AFC4C982A6EC09DF1D11D274A1315C04741F282E3E8EF5675F4874602F4D10E5E6E7E59BFC23E790B1927DB6F1AA9D"> : tensor<16x1x1x16xi8>
  %b = arith.constant dense<"0xA0FDFFFFCC01000007F9FFFFD3F9FFFF30F8FFFF410100009BFAFFFFC5000000CFF9FFFF5E07000001FEFFFF0102000098F8FFFF50F9FFFF2D06000083FBFFFF"> : tensor<16xi32>
  %y = npu.conv2d %x, %w, %b {input_scale = 0.05 : f32, input_zero_point = -3 : i32, weight_scale = array<f32: 0.0100, 0.0110, 0.0120, 0.0130, 0.0140, 0.0150, 0.0160, 0.0170, 0.0180, 0.0190, 0.0200, 0.0210, 0.0220, 0.0230, 0.0240, 0.0250>, weight_zero_point = 0 : i32, output_scale = 0.2 : f32, output_zero_point = 4 : i32, rounding = #qnn.rounding<tflite_single>, strides = array<i64: 1, 1>, padding = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 1 : i64, pad_value = -3 : i32, activation = #npu.activation<clip>, act_min = -100 : i32, act_max = 90 : i32} : (tensor<1x4x4x16xi8>, tensor<16x1x1x16xi8>, tensor<16xi32>) -> tensor<1x4x4x16xi8>
  return %y : tensor<1x4x4x16xi8>
}

// -----

// Depthwise with a lookup-table activation and one scale: the table is
// read in the epilogue (tensor.extract of a 256-entry constant), the
// multiplier an immediate. With fuse-depthwise-epilogues=false the kernel
// stores i32 accumulators and the epilogue is a linalg.generic.
// CHECK-LABEL: func.func @depthwise_lut
// CHECK: call @[[K:__qnn_kernel_dwvnni_.*_epilogue0]](%{{.*}}) : ({{.*}}, memref<1x4x4x16xi8>) -> ()
// CHECK: func.func private @[[K]]_fn(%{{.*}}: i32) -> i8
// CHECK: arith.constant dense<{{.*}}> : tensor<256xi32>
// CHECK: tensor.extract
// DWOFF-LABEL: func.func @depthwise_lut
// DWOFF: call @__qnn_kernel_dwvnni_{{[0-9_]*}}(%{{.*}}) : ({{.*}}, memref<1x4x4x16xi32>) -> ()
// DWOFF: linalg.generic
// DWOFF: tensor.extract
// DWOFF-NOT: _epilogue
func.func @depthwise_lut(%x: tensor<1x4x4x16xi8>) -> tensor<1x4x4x16xi8> {
  %w = arith.constant dense<"0x12F4D715E4F011F200D3D23002FF0101EBCED6D123EF22E5012E1CD806C6DE07F2D61C0939C72507EA1632CF1D30E506F238D9F126E008092704EE15E0122B282531DC2BE22CF7222AE1DD0603F121C7C729E700E5DC1C11F0FD2B3B20F0F2CEE0D1E100DDEFDE011337122FC4013817F02A16CE2E18D338F5281F24DD0135DAFB2915EECF2A20F6FFF723CE20D8D9D4"> : tensor<16x3x3x1xi8>
  %y = npu.conv2d %x, %w {input_scale = 0.05 : f32, input_zero_point = 1 : i32, weight_scale = array<f32: 0.02>, weight_zero_point = 0 : i32, output_scale = 0.1 : f32, output_zero_point = -2 : i32, strides = array<i64: 1, 1>, padding = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, groups = 16 : i64, pad_value = 1 : i32, activation = #npu.activation<lut>, act_min = -120 : i32, act_max = 120 : i32, lut = array<i32: -128, -91, -54, -17, 20, 57, 94, -125, -88, -51, -14, 23, 60, 97, -122, -85, -48, -11, 26, 63, 100, -119, -82, -45, -8, 29, 66, 103, -116, -79, -42, -5, 32, 69, 106, -113, -76, -39, -2, 35, 72, 109, -110, -73, -36, 1, 38, 75, 112, -107, -70, -33, 4, 41, 78, 115, -104, -67, -30, 7, 44, 81, 118, -101, -64, -27, 10, 47, 84, 121, -98, -61, -24, 13, 50, 87, 124, -95, -58, -21, 16, 53, 90, 127, -92, -55, -18, 19, 56, 93, -126, -89, -52, -15, 22, 59, 96, -123, -86, -49, -12, 25, 62, 99, -120, -83, -46, -9, 28, 65, 102, -117, -80, -43, -6, 31, 68, 105, -114, -77, -40, -3, 34, 71, 108, -111, -74, -37, 0, 37, 74, 111, -108, -71, -34, 3, 40, 77, 114, -105, -68, -31, 6, 43, 80, 117, -102, -65, -28, 9, 46, 83, 120, -99, -62, -25, 12, 49, 86, 123, -96, -59, -22, 15, 52, 89, 126, -93, -56, -19, 18, 55, 92, -127, -90, -53, -16, 21, 58, 95, -124, -87, -50, -13, 24, 61, 98, -121, -84, -47, -10, 27, 64, 101, -118, -81, -44, -7, 30, 67, 104, -115, -78, -41, -4, 33, 70, 107, -112, -75, -38, -1, 36, 73, 110, -109, -72, -35, 2, 39, 76, 113, -106, -69, -32, 5, 42, 79, 116, -103, -66, -29, 8, 45, 82, 119, -100, -63, -26, 11, 48, 85, 122, -97, -60, -23, 14, 51, 88, 125, -94, -57, -20, 17, 54, 91>} : (tensor<1x4x4x16xi8>, tensor<16x3x3x1xi8>) -> tensor<1x4x4x16xi8>
  return %y : tensor<1x4x4x16xi8>
}

// -----

// A bias that is not a constant cannot be a channel constant: the dense
// kernel stores i32 accumulators and one generic adds the bias and
// requantizes.
// CHECK-LABEL: func.func @fc_runtime_bias
// CHECK: call @__qnn_kernel_vnni_{{[0-9_]*}}(%{{.*}}) : ({{.*}}, memref<1x1x2x16xi32>) -> ()
// CHECK: linalg.generic
// CHECK: arith.addi
// CHECK: arith.trunci {{.*}} : i32 to i8
// CHECK-NOT: _epilogue
func.func @fc_runtime_bias(%x: tensor<2x32xi8>, %b: tensor<16xi32>) -> tensor<2x16xi8> {
  %w = arith.constant dense<"0x88A71868F84F28A61D54197BFA2970DAA80D0DA286844D793A279B074070A4F07D60B25460B788C1B7CB01BE4417D4C30CEC56A290693EDB66F62A16516805EC546B6101A209A707038560F147AF1C82474DA7ADA5FA1F3A9F0F90D42F05080FFC49479C63108FC0B1C78B469A02F4108843656A91F2D41D7A021C04B432C7F403094FFB0272C033066161726EC36D106572B458F3A4EBA0E5F2D1932CBEEE93B72CCE49A06647A87138252ADEA5C163A478F8B9407499E663FDAA7E2B56BAAA35EF7F04E8D7ECB3DCD29839DE85D70EF6F13585E3D50520CC0476919D7D6C4ABB79619B96C4C68B6848AFC642A252ED5A6A2E5273C3E8A70A6C0413FF34D497C88F4D31AFED6693C5718523974EC3961C5CB992C45DA0F583D77F0EEB6E6BC520A28C0736BE719D79AAC48DAFB46FD021CF0843B5CBF3012DAEC6D94E857FC18A84853C020E7BB104FABF70F39C295227EF29FF0C5664E57902CF31B87CBBD8B35662353B23A4E87ED97C8E57A28493213E62C2EFAA8F962B58E25F022C79C91ABF32CC8CF6B0A9C5F381C4DE77D5797D0DD3BF897862D0B8DCAF81D6E296FAC80128B4C002478298C45297A5E7178BE586CDCE22BC961676085B41A8296538496219E444D4397DFFA7C93A1F25A68C545638650421EE3C345002A4690741021256514E855430164D65372F753225BB96888BA324DD769BE156F40F8D218521"> : tensor<16x32xi8>
  %y = npu.fully_connected %x, %w, %b {input_scale = 0.05 : f32, input_zero_point = 0 : i32, weight_scale = array<f32: 0.01>, weight_zero_point = 0 : i32, output_scale = 0.3 : f32, output_zero_point = 0 : i32, act_min = -128 : i32, act_max = 127 : i32} : (tensor<2x32xi8>, tensor<16x32xi8>, tensor<16xi32>) -> tensor<2x16xi8>
  return %y : tensor<2x16xi8>
}

// -----

// npu.add: the qnn.add arithmetic and the clamp, as linalg.
// CHECK-LABEL: func.func @add_relu
// CHECK-NOT: npu.
// CHECK-NOT: qnn.
// CHECK: linalg.generic
// CHECK: return
func.func @add_relu(%a: tensor<1x2x2x8xui8>, %b: tensor<1x2x2x8xui8>) -> tensor<1x2x2x8xui8> {
  %s = npu.add %a, %b {lhs_scale = 0.5 : f32, lhs_zero_point = 10 : i32, rhs_scale = 0.25 : f32, rhs_zero_point = 3 : i32, output_scale = 0.75 : f32, output_zero_point = 5 : i32, activation = #npu.activation<relu>, act_min = 5 : i32, act_max = 255 : i32} : (tensor<1x2x2x8xui8>, tensor<1x2x2x8xui8>) -> tensor<1x2x2x8xui8>
  return %s : tensor<1x2x2x8xui8>
}
