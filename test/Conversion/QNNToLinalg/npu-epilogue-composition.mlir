// qnn-fuse-kernel-epilogues on kernels the npu lowering already gave an
// epilogue: the next VNNI kernel's sign flip (xor 0x80 of its s8 input)
// composes into the first kernel's epilogue, so only the network input's
// flip remains a linalg.generic; the two layers (different zero points and
// scales) keep one kernel each here, their epilogues as functions.
// RUN: qnn-opt %s --qnn-lower-to-llvm=target=avx512-vnni -mlir-print-ir-after=qnn-fuse-kernel-epilogues -o /dev/null 2>&1 | FileCheck %s
// CHECK-LABEL: func.func @main
// CHECK: linalg.generic
// CHECK: arith.xori
// CHECK-NOT: linalg.generic
// CHECK: call @[[K1:__qnn_kernel_vnni_[0-9_]*_epilogue0_epilogue0]](
// CHECK-NOT: linalg.generic
// CHECK: call @[[K2:__qnn_kernel_vnni_[0-9_]*_epilogue1]](
// CHECK-NOT: linalg.generic
// CHECK: return
// CHECK-DAG: func.func private @[[K2]]_fn(%{{.*}}: i32) -> i8
// CHECK-DAG: func.func private @[[K1]]_fn(%{{.*}}: i32) -> i8
// CHECK: arith.trunci {{.*}} : i32 to i8
// CHECK-NEXT: arith.constant -128 : i8
// CHECK-NEXT: arith.xori
func.func @main(%x: tensor<1x4x4x16xi8>) -> tensor<1x4x4x16xi8> {
  %w1 = arith.constant dense<"0xBD180CA2DF6B1BFA2115911C846957F9C30EBCB27F38F90B570DFAE6245DA7BC23A75F6E06E43E842C4791A94376188BCE4888535EC5FA19396C61E4374A6CEEE63B4E14F27770A361DE998AA3FFB8C3782DF048215BCEEC0256E313DA0916E916BC68D72F6B6E885CC87E1C2C33AA335DD4770B6813129B3728B723557D13C5C9A091FC5B247EFC97D94D92EA66A786CCEE45EB609F8C1B1E438CE13817D50E626D7CC802BD8AD082949C1A0A8973B379E9CB1DC4A8318B7B5FD7D1DD76A4665DE1E1F65F06E3255E192F109B1F7A715002C6EF233938BD70CEF07BC306CE0DD7834AEB7D15D186E11E1722A3902321D6F8DB2E6BDB1C35C83DFE861790752E"> : tensor<16x1x1x16xi8>
  %w2 = arith.constant dense<"0x8677DFC121F5CD181AD2AEDEB0D143DF5919C4CD4AE19B4651877912303DA2D001B9284EC5BED4B02EF02733999B1AD373D62D56BAF1505C76AC95D73E27B86312F4C6BA4A9F890876B1D14F575714AF5EC8D84F5425964F1FD917A2ECCB054C5AC6F7D923EBCBEC12E98A6CEAA8B482FB725662207D03F010747D6E38B9893FF557412A400577CA0CD864BB5D925C1779CA9F50BF8C89684E32046DB3666367EF148D84FC3F9FAC01CDBE2A86070AEA8E716A1D9ED8A1C1795D0BFB504990DBB9B3A00964529FACBE4BC76C644FA1536C82FD21135DE78D42C6C0C51F0706ED8EFAD34752815C8F47A18CA08D92FC7A895B37970401FED1A9D193DAE326E417"> : tensor<16x1x1x16xi8>
  %a = npu.conv2d %x, %w1 {input_scale = 0.05 : f32, input_zero_point = -3 : i32, weight_scale = array<f32: 0.01>, weight_zero_point = 0 : i32, output_scale = 0.2 : f32, output_zero_point = 5 : i32, strides = array<i64: 1, 1>, padding = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 1 : i64, pad_value = -3 : i32, act_min = -128 : i32, act_max = 127 : i32} : (tensor<1x4x4x16xi8>, tensor<16x1x1x16xi8>) -> tensor<1x4x4x16xi8>
  %b = npu.conv2d %a, %w2 {input_scale = 0.05 : f32, input_zero_point = 5 : i32, weight_scale = array<f32: 0.01>, weight_zero_point = 0 : i32, output_scale = 0.3 : f32, output_zero_point = -7 : i32, strides = array<i64: 1, 1>, padding = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 1 : i64, pad_value = 5 : i32, act_min = -128 : i32, act_max = 127 : i32} : (tensor<1x4x4x16xi8>, tensor<16x1x1x16xi8>) -> tensor<1x4x4x16xi8>
  return %b : tensor<1x4x4x16xi8>
}