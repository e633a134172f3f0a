// npu-partition outlines maximal convex NPU regions into functions tagged
// npu.target and calls them from the host function.
// RUN: qnn-opt %s --npu-partition | FileCheck %s
// RUN: qnn-opt %s --npu-partition=report=true --verify-diagnostics -o /dev/null
// RUN: qnn-opt %s --npu-partition=dot-file=%t.dot -o /dev/null
// RUN: FileCheck %s --check-prefix=DOT < %t.dot

// Semantics: the reference evaluator (which runs func.call) computes the
// same bytes before and after partitioning.
// RUN: qnn-opt %s --npu-partition -o %t.part.mlir
// RUN: %refeq %s %t.part.mlir two_regions i8:64 61 > %t.eq
// RUN: %refeq %s %t.part.mlir fan_out i8:64,i8:16 62 >> %t.eq
// RUN: %refeq %s %t.part.mlir interleaved i8:64 63 >> %t.eq
// RUN: FileCheck %s --check-prefix=EQ < %t.eq
// EQ-COUNT-9: trial {{[0-2]}}: identical result 0: tensor<
// EQ-NOT: DIFFERENT

// A dilated convolution (unsupported: constraint 'dilation') between two
// chains splits the graph into two regions. The add reads the first
// region's %b and the second region's %c: joining it to the first region
// would make a cycle through the host convolution, so it joins the second
// and %b becomes an output of the first region.
// CHECK-LABEL: func.func private @two_regions_npu(%arg0: tensor<1x4x4x4xi8>) -> tensor<1x4x4x4xi8> attributes {npu.target} {
// CHECK-DAG: arith.constant {{.*}} : tensor<4xi32>
// CHECK-DAG: arith.constant {{.*}} : tensor<4x1x1x4xi8>
// CHECK: %[[A:.+]] = npu.conv2d %arg0
// CHECK-NEXT: %[[B:.+]] = npu.conv2d %[[A]]
// CHECK-NEXT: return %[[B]]
// CHECK-LABEL: func.func private @two_regions_npu_0(%arg0: tensor<1x4x4x4xi8>, %arg1: tensor<1x4x4x4xi8>) -> tensor<1x4x4x4xi8> attributes {npu.target} {
// CHECK: %[[C:.+]] = npu.conv2d %arg0
// CHECK-NEXT: %[[S:.+]] = npu.add %[[C]], %arg1
// CHECK-NEXT: return %[[S]]
// CHECK-LABEL: func.func @two_regions(%arg0: tensor<1x4x4x4xi8>) -> tensor<1x4x4x4xi8> {
// CHECK-NEXT: %[[W:.+]] = arith.constant {{.*}} : tensor<4x3x3x1xi8>
// CHECK-NEXT: %[[R0:.+]] = call @two_regions_npu(%arg0) : (tensor<1x4x4x4xi8>) -> tensor<1x4x4x4xi8>
// CHECK-NEXT: %[[H:.+]] = npu.conv2d %[[R0]], %[[W]] {{{.*}}dilations = array<i64: 2, 2>
// CHECK-NEXT: %[[R1:.+]] = call @two_regions_npu_0(%[[H]], %[[R0]]) : (tensor<1x4x4x4xi8>, tensor<1x4x4x4xi8>) -> tensor<1x4x4x4xi8>
// CHECK-NEXT: return %[[R1]]
// expected-remark @+1 {{npu-partition: 4 operation(s) on the NPU in 2 region(s), 1 on the host}}
func.func @two_regions(%x: tensor<1x4x4x4xi8>) -> tensor<1x4x4x4xi8> {
  %wa = arith.constant dense<[[[[32, -62, 62, -36]]], [[[76, 49, 114, 88]]], [[[62, 39, 109, 8]]], [[[-120, 88, -8, 71]]]]> : tensor<4x1x1x4xi8>
  %wb = arith.constant dense<[[[[114, -64, 39, -114]]], [[[103, -87, -99, -32]]], [[[-7, 95, -64, -30]]], [[[12, -101, 19, -64]]]]> : tensor<4x1x1x4xi8>
  %wc = arith.constant dense<[[[[-124, 60, -72, -23]]], [[[-56, -81, 107, 95]]], [[[69, -28, -87, 68]]], [[[77, -109, -92, 31]]]]> : tensor<4x1x1x4xi8>
  %wd = arith.constant dense<[[[[31], [-14], [-95]], [[-94], [-127], [121]], [[96], [-126], [-74]]], [[[71], [-72], [118]], [[124], [-85], [96]], [[-85], [-53], [-47]]], [[[119], [-77], [11]], [[97], [46], [33]], [[-75], [-81], [113]]], [[[120], [49], [-77]], [[120], [120], [101]], [[-29], [-51], [-122]]]]> : tensor<4x3x3x1xi8>
  %ba = arith.constant dense<[-131, -76, -331, 458]> : tensor<4xi32>
  %a = npu.conv2d %x, %wa, %ba {input_scale = 0.05 : f32, input_zero_point = 0 : i32, weight_scale = array<f32: 0.02>, weight_zero_point = 0 : i32, output_scale = 0.1 : f32, output_zero_point = 0 : i32, strides = array<i64: 1, 1>, padding = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 1 : i64, pad_value = 0 : i32, activation = #npu.activation<relu>, act_min = 0 : i32, act_max = 127 : i32} : (tensor<1x4x4x4xi8>, tensor<4x1x1x4xi8>, tensor<4xi32>) -> tensor<1x4x4x4xi8>
  %b = npu.conv2d %a, %wb {input_scale = 0.1 : f32, input_zero_point = 0 : i32, weight_scale = array<f32: 0.02>, weight_zero_point = 0 : i32, output_scale = 0.2 : f32, output_zero_point = -3 : i32, strides = array<i64: 1, 1>, padding = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 1 : i64, pad_value = 0 : i32, act_min = -128 : i32, act_max = 127 : i32} : (tensor<1x4x4x4xi8>, tensor<4x1x1x4xi8>) -> tensor<1x4x4x4xi8>
  // expected-remark @+1 {{on host: constraint 'dilation' failed: dilations [2, 2] (only 1 is supported)}}
  %h = npu.conv2d %b, %wd {input_scale = 0.2 : f32, input_zero_point = -3 : i32, weight_scale = array<f32: 0.02>, weight_zero_point = 0 : i32, output_scale = 0.2 : f32, output_zero_point = 0 : i32, strides = array<i64: 1, 1>, padding = array<i64: 2, 2, 2, 2>, dilations = array<i64: 2, 2>, groups = 4 : i64, pad_value = -3 : i32, act_min = -128 : i32, act_max = 127 : i32} : (tensor<1x4x4x4xi8>, tensor<4x3x3x1xi8>) -> tensor<1x4x4x4xi8>
  %c = npu.conv2d %h, %wc {input_scale = 0.2 : f32, input_zero_point = 0 : i32, weight_scale = array<f32: 0.02>, weight_zero_point = 0 : i32, output_scale = 0.2 : f32, output_zero_point = 1 : i32, strides = array<i64: 1, 1>, padding = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 1 : i64, pad_value = 0 : i32, act_min = -128 : i32, act_max = 127 : i32} : (tensor<1x4x4x4xi8>, tensor<4x1x1x4xi8>) -> tensor<1x4x4x4xi8>
  %s = npu.add %c, %b {lhs_scale = 0.2 : f32, lhs_zero_point = 1 : i32, rhs_scale = 0.2 : f32, rhs_zero_point = -3 : i32, output_scale = 0.3 : f32, output_zero_point = 0 : i32, act_min = -128 : i32, act_max = 127 : i32} : (tensor<1x4x4x4xi8>, tensor<1x4x4x4xi8>) -> tensor<1x4x4x4xi8>
  return %s : tensor<1x4x4x4xi8>
}

// Two branches from one input joined by an add form one region, and a host
// operation after it stays on the host; a weight that is an argument keeps
// its convolution on the host (constraint 'constant-weights').
// CHECK-LABEL: func.func private @fan_out_npu(%arg0: tensor<1x4x4x4xi8>) -> tensor<1x4x4x4xi8> attributes {npu.target} {
// CHECK: npu.conv2d %arg0
// CHECK: npu.max_pool2d %arg0
// CHECK: npu.add
// CHECK-NEXT: return
// CHECK-LABEL: func.func @fan_out
// CHECK-NEXT: %[[R:.+]] = call @fan_out_npu(%arg0)
// CHECK-NEXT: %[[T:.+]] = tosa.transpose %[[R]]
// CHECK-NEXT: npu.conv2d %[[T]], %arg1
// expected-remark @+1 {{npu-partition: 3 operation(s) on the NPU in 1 region(s), 2 on the host}}
func.func @fan_out(%x: tensor<1x4x4x4xi8>, %w: tensor<4x1x1x4xi8>) -> tensor<1x4x4x4xi8> {
  %wa = arith.constant dense<[[[[32, -62, 62, -36]]], [[[76, 49, 114, 88]]], [[[62, 39, 109, 8]]], [[[-120, 88, -8, 71]]]]> : tensor<4x1x1x4xi8>
  %a = npu.conv2d %x, %wa {input_scale = 0.05 : f32, input_zero_point = 0 : i32, weight_scale = array<f32: 0.02>, weight_zero_point = 0 : i32, output_scale = 0.1 : f32, output_zero_point = 0 : i32, strides = array<i64: 1, 1>, padding = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 1 : i64, pad_value = 0 : i32, act_min = -128 : i32, act_max = 127 : i32} : (tensor<1x4x4x4xi8>, tensor<4x1x1x4xi8>) -> tensor<1x4x4x4xi8>
  %m = npu.max_pool2d %x {kernel = array<i64: 3, 3>, strides = array<i64: 1, 1>, padding = array<i64: 1, 1, 1, 1>, act_min = -128 : i32, act_max = 127 : i32} : tensor<1x4x4x4xi8> -> tensor<1x4x4x4xi8>
  %s = npu.add %a, %m {lhs_scale = 0.1 : f32, lhs_zero_point = 0 : i32, rhs_scale = 0.05 : f32, rhs_zero_point = 0 : i32, output_scale = 0.1 : f32, output_zero_point = 0 : i32, act_min = -128 : i32, act_max = 127 : i32} : (tensor<1x4x4x4xi8>, tensor<1x4x4x4xi8>) -> tensor<1x4x4x4xi8>
  // expected-remark @+1 {{on host: constraint 'npu-op' failed: 'tosa.transpose' is not an npu operator}}
  %t = tosa.transpose %s {perms = array<i32: 0, 2, 1, 3>} : (tensor<1x4x4x4xi8>) -> tensor<1x4x4x4xi8>
  // expected-remark @+1 {{on host: constraint 'constant-weights' failed: the weight is not a constant (bind it with --npu-bind-params)}}
  %b = npu.conv2d %t, %w {input_scale = 0.1 : f32, input_zero_point = 0 : i32, weight_scale = array<f32: 0.02>, weight_zero_point = 0 : i32, output_scale = 0.1 : f32, output_zero_point = 0 : i32, strides = array<i64: 1, 1>, padding = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 1 : i64, pad_value = 0 : i32, act_min = -128 : i32, act_max = 127 : i32} : (tensor<1x4x4x4xi8>, tensor<4x1x1x4xi8>) -> tensor<1x4x4x4xi8>
  return %b : tensor<1x4x4x4xi8>
}

// A host op between two ops of one region in program order (it reads the
// first, the second does not depend on it): the region is still convex, the
// call takes the place of the region and the host op moves after it.
// CHECK-LABEL: func.func private @interleaved_npu(%arg0: tensor<1x4x4x4xi8>) -> (tensor<1x4x4x4xi8>, tensor<1x4x4x4xi8>) attributes {npu.target}
// CHECK: %[[A:.+]] = npu.max_pool2d %arg0
// CHECK-NEXT: %[[B:.+]] = npu.avg_pool2d %[[A]]
// CHECK-NEXT: return %[[A]], %[[B]]
// CHECK-LABEL: func.func @interleaved
// CHECK-NEXT: %[[R:.+]]:2 = call @interleaved_npu(%arg0)
// CHECK-NEXT: %[[T:.+]] = tosa.transpose %[[R]]#0
// CHECK-NEXT: return %[[T]], %[[R]]#1
// expected-remark @+1 {{npu-partition: 2 operation(s) on the NPU in 1 region(s), 1 on the host}}
func.func @interleaved(%x: tensor<1x4x4x4xi8>) -> (tensor<1x4x4x4xi8>, tensor<1x4x4x4xi8>) {
  %a = npu.max_pool2d %x {kernel = array<i64: 3, 3>, strides = array<i64: 1, 1>, padding = array<i64: 1, 1, 1, 1>, act_min = -128 : i32, act_max = 127 : i32} : tensor<1x4x4x4xi8> -> tensor<1x4x4x4xi8>
  // expected-remark @+1 {{on host: constraint 'npu-op' failed: 'tosa.transpose' is not an npu operator}}
  %t = tosa.transpose %a {perms = array<i32: 0, 2, 1, 3>} : (tensor<1x4x4x4xi8>) -> tensor<1x4x4x4xi8>
  %b = npu.avg_pool2d %a {kernel = array<i64: 2, 2>, strides = array<i64: 1, 1>, padding = array<i64: 0, 0, 1, 1>, act_min = -128 : i32, act_max = 127 : i32} : tensor<1x4x4x4xi8> -> tensor<1x4x4x4xi8>
  return %t, %b : tensor<1x4x4x4xi8>, tensor<1x4x4x4xi8>
}

// DOT-LABEL: digraph npu_partition {
// DOT: subgraph "cluster_two_regions" {
// DOT: subgraph "cluster_two_regions_npu0" {
// DOT-NEXT: label="npu region 0";
// DOT-NEXT: style=filled;
// DOT-NEXT: fillcolor="#cfe2ff";
// DOT: two_regions_op0 [label="npu.conv2d\ntensor<1x4x4x4xi8>", style=filled, fillcolor="#7fb0ff", shape=box];
// DOT-NEXT: two_regions_op1 [label="npu.conv2d\ntensor<1x4x4x4xi8>", style=filled, fillcolor="#7fb0ff", shape=box];
// DOT-NEXT: }
// DOT-NEXT: subgraph "cluster_two_regions_npu1" {
// DOT: two_regions_op3 [label="npu.conv2d
// DOT-NEXT: two_regions_op4 [label="npu.add
// DOT-NEXT: }
// DOT-NEXT: two_regions_op2 [label="npu.conv2d\ntensor<1x4x4x4xi8>\nhost: dilation", shape=box, style=filled, fillcolor="#eeeeee"];
// DOT-DAG: two_regions_args -> two_regions_op0;
// DOT-DAG: two_regions_op0 -> two_regions_op1;
// DOT-DAG: two_regions_op1 -> two_regions_op2;
// DOT-DAG: two_regions_op2 -> two_regions_op3;
// DOT-DAG: two_regions_op3 -> two_regions_op4;
// DOT-DAG: two_regions_op1 -> two_regions_op4;
// DOT-DAG: two_regions_op4 -> two_regions_return;
// DOT: subgraph "cluster_fan_out" {
// DOT: fan_out_op4 [label="npu.conv2d\ntensor<1x4x4x4xi8>\nhost: constant-weights", shape=box, style=filled, fillcolor="#eeeeee"];
// DOT: fan_out_op3 -> fan_out_op4;
// DOT: {{^}}}
