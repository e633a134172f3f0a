// npu-bind-params replaces weight and bias arguments by constants read from
// a raw little-endian file (Inputs/npu-bind-params.bin: the i8 weights
// 3, -5, 7, 2 then the i32 biases 1000, -2000), so the constant-only
// rewrites apply.
// RUN: qnn-opt %s --npu-bind-params=file=%S/Inputs/npu-bind-params.bin | FileCheck %s --check-prefix=BIND
// RUN: qnn-opt %s --npu-bind-params="file=%S/Inputs/npu-bind-params.bin args=1,2" --npu-fuse | FileCheck %s --check-prefix=FUSE

// BIND-LABEL: func.func @main(%arg0: tensor<1x4x4x2xi8>) -> tensor<1x4x4x2xi8>
// BIND-DAG: %[[W:.+]] = arith.constant dense<{{\[\[\[\[}}3, -5]]], {{\[\[\[}}7, 2]]]]> : tensor<2x1x1x2xi8>
// BIND-DAG: %[[B:.+]] = arith.constant dense<{{\[\[\[\[}}1000, -2000]]]]> : tensor<1x1x1x2xi32>
// BIND: qnn.conv2d %arg0, %[[W]]
// BIND: tosa.add %{{.+}}, %[[B]]

// FUSE-LABEL: func.func @main(%arg0: tensor<1x4x4x2xi8>)
// FUSE-DAG: %[[B:.+]] = arith.constant dense<[1000, -2000]> : tensor<2xi32>
// FUSE-DAG: %[[W:.+]] = arith.constant dense<{{\[\[\[\[}}3, -5]]], {{\[\[\[}}7, 2]]]]> : tensor<2x1x1x2xi8>
// FUSE: npu.conv2d %arg0, %[[W]], %[[B]]

// The bound and fused program computes what the original computes with the
// same parameters passed as arguments.
// RUN: qnn-opt %s --npu-bind-params=file=%S/Inputs/npu-bind-params.bin --qnn-to-npu -o %t.bound.mlir
// RUN: head -c 4 %S/Inputs/npu-bind-params.bin > %t.w
// RUN: tail -c 8 %S/Inputs/npu-bind-params.bin > %t.b
// RUN: %mkbin %t.x i8 --random 32 51
// RUN: qnn-run --reference %s --input %t.x --input %t.w --input %t.b --output %t.before
// RUN: qnn-run --reference %t.bound.mlir --input %t.x --output %t.after
// RUN: cmp %t.before %t.after
// RUN: qnn-run --reference %t.bound.mlir --input %t.x | FileCheck %s --check-prefix=OUT
// OUT: result 0: tensor<1x4x4x2xi8> sum={{-?[0-9]+}} argmax={{[0-9]+}} max={{-?[0-9]+}} fnv1a=0x

// Errors, each with a message and a non-zero exit.
// RUN: not qnn-opt %s --npu-bind-params 2>&1 | FileCheck %s --check-prefix=NOFILE
// NOFILE: error: npu-bind-params: set the parameter file with file=PATH
// RUN: not qnn-opt %s --npu-bind-params=file=%t.missing 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: error: npu-bind-params: cannot read '{{.*}}.missing':
// RUN: not qnn-opt %s --npu-bind-params="file=%S/Inputs/npu-bind-params.bin func=nope" 2>&1 | FileCheck %s --check-prefix=NOFUNC
// NOFUNC: error: npu-bind-params: no function named 'nope'
// RUN: not qnn-opt %s --npu-bind-params="file=%S/Inputs/npu-bind-params.bin args=1,3" 2>&1 | FileCheck %s --check-prefix=RANGE
// RANGE: error: npu-bind-params: argument index 3 is out of range (3 arguments)
// RUN: not qnn-opt %s --npu-bind-params="file=%S/Inputs/npu-bind-params.bin args=1" 2>&1 | FileCheck %s --check-prefix=LONG
// LONG: error: npu-bind-params: '{{.*}}npu-bind-params.bin' holds 12 bytes but the bound arguments take 4
// RUN: not qnn-opt %s --npu-bind-params="file=%S/Inputs/npu-bind-params.bin args=0,1,2" 2>&1 | FileCheck %s --check-prefix=SHORT
// SHORT: error: npu-bind-params: '{{.*}}npu-bind-params.bin' holds 12 bytes; argument 0 needs bytes [0, 32)
// RUN: not qnn-opt %s --npu-bind-params="file=%S/Inputs/npu-bind-params.bin func=dynamic" 2>&1 | FileCheck %s --check-prefix=DYN
// DYN: error: npu-bind-params: argument 1 of type 'tensor<?xi8>' is not a static integer or f32 tensor

func.func @main(%x: tensor<1x4x4x2xi8>, %w: tensor<2x1x1x2xi8>, %b: tensor<1x1x1x2xi32>) -> tensor<1x4x4x2xi8> {
  %c = qnn.conv2d %x, %w {data_layout = #qnn.layout<NHWC>, dilations = array<i64: 1, 1>, groups = 1 : i64, input_scale = 0.5 : f32, input_zero_point = 0 : i32, kernel_layout = #qnn.kernel_layout<OHWI>, padding = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, weight_scale = array<f32: 0.25>, weight_zero_point = 0 : i32} : (tensor<1x4x4x2xi8>, tensor<2x1x1x2xi8>) -> tensor<1x4x4x2xi32>
  %a = tosa.add %c, %b : (tensor<1x4x4x2xi32>, tensor<1x1x1x2xi32>) -> tensor<1x4x4x2xi32>
  %q = qnn.requantize %a {input_scale = array<f64: 0.125>, input_zero_point = 0 : i32, output_scale = 2.0 : f32, output_zero_point = 1 : i32} : tensor<1x4x4x2xi32> -> tensor<1x4x4x2xi8>
  return %q : tensor<1x4x4x2xi8>
}

func.func @dynamic(%x: tensor<4xi8>, %w: tensor<?xi8>) -> tensor<4xi8> {
  return %x : tensor<4xi8>
}
