// The upstream ops around qnn ops: arith.constant, tosa.const/add/sub/mul/
// clamp/cast/reshape, tensor.pad/collapse_shape/expand_shape/reshape/empty,
// linalg.softmax, func.call.

// tosa.cast int -> int wraps: 300 -> 44, -129 -> 127; to ui8 -1 -> 255.
// float -> int rounds half to even and saturates: 2.5 -> 2, 3.5 -> 4,
// -2.5 -> -2, 300 -> 127, -300 -> -128.
// RUN: %mkbin %t.ci i32 300 -129 127 -1
// RUN: qnn-run --reference %s --entry cast_int --input %t.ci --print-values | FileCheck %s --check-prefix=CI
// CI: result 0: tensor<4xi8>
// CI-NEXT: values 0: 44 127 127 -1
// CI: result 1: tensor<4xui8>
// CI-NEXT: values 1: 44 127 127 255
func.func @cast_int(%x: tensor<4xi32>) -> (tensor<4xi8>, tensor<4xui8>) {
  %0 = tosa.cast %x : (tensor<4xi32>) -> tensor<4xi8>
  %1 = tosa.cast %x : (tensor<4xi32>) -> tensor<4xui8>
  return %0, %1 : tensor<4xi8>, tensor<4xui8>
}
// RUN: %mkbin %t.cf f32 2.5 3.5 -2.5 300 -300
// RUN: qnn-run --reference %s --entry cast_float --input %t.cf --print-values | FileCheck %s --check-prefix=CF
// CF: values 0: 2 4 -2 127 -128
func.func @cast_float(%x: tensor<5xf32>) -> tensor<5xi8> {
  %0 = tosa.cast %x : (tensor<5xf32>) -> tensor<5xi8>
  return %0 : tensor<5xi8>
}

// Bias add with a rank-matched constant, clamp to [0, 6], subtract a splat,
// multiply with shift 1: ((x + b) clamped - 1) * 3 >> 1 (rounded).
// x = [-5, 3, 10, 4], b = [1, 2]: x + b = [-4, 5, 11, 6] -> [0, 5, 6, 6]
// -> [-1, 4, 5, 5] -> * 3 = [-3, 12, 15, 15] -> (v + 1) >> 1 = [-1, 6, 8, 8].
// RUN: %mkbin %t.t i32 -5 3 10 4
// RUN: qnn-run --reference %s --entry tosa_arith --input %t.t --print-values | FileCheck %s --check-prefix=TA
// TA: values 0: -1 6 8 8
func.func @tosa_arith(%x: tensor<2x2xi32>) -> tensor<2x2xi32> {
  %b = arith.constant dense<[[1, 2]]> : tensor<1x2xi32>
  %one = arith.constant dense<1> : tensor<1x1xi32>
  %three = "tosa.const"() <{values = dense<3> : tensor<1x1xi32>}> : () -> tensor<1x1xi32>
  %shift = "tosa.const"() <{values = dense<1> : tensor<1xi8>}> : () -> tensor<1xi8>
  %0 = tosa.add %x, %b : (tensor<2x2xi32>, tensor<1x2xi32>) -> tensor<2x2xi32>
  %1 = tosa.clamp %0 {min_val = 0 : i32, max_val = 6 : i32} : (tensor<2x2xi32>) -> tensor<2x2xi32>
  %2 = tosa.sub %1, %one : (tensor<2x2xi32>, tensor<1x1xi32>) -> tensor<2x2xi32>
  %3 = tosa.mul %2, %three, %shift : (tensor<2x2xi32>, tensor<1x1xi32>, tensor<1xi8>) -> tensor<2x2xi32>
  return %3 : tensor<2x2xi32>
}

// tensor.pad with a constant yield, then reshapes through every reshape op.
// [[1, 2]] padded low [0, 1] high [1, 0] with -128.
// RUN: %mkbin %t.p i8 1 2
// RUN: qnn-run --reference %s --entry pad_reshape --input %t.p --print-values | FileCheck %s --check-prefix=PAD
// PAD: result 0: tensor<2x3xi8>
// PAD-NEXT: values 0: -128 1 2 -128 -128 -128
func.func @pad_reshape(%x: tensor<1x2xi8>) -> tensor<2x3xi8> {
  %c = arith.constant -128 : i8
  %p = tensor.pad %x low[0, 1] high[1, 0] {
  ^bb0(%i: index, %j: index):
    tensor.yield %c : i8
  } : tensor<1x2xi8> to tensor<2x3xi8>
  %flat = tensor.collapse_shape %p [[0, 1]] : tensor<2x3xi8> into tensor<6xi8>
  %shape = "tosa.const_shape"() <{values = dense<[3, 2]> : tensor<2xindex>}> : () -> !tosa.shape<2>
  %r = tosa.reshape %flat, %shape : (tensor<6xi8>, !tosa.shape<2>) -> tensor<3x2xi8>
  %s = arith.constant dense<[6]> : tensor<1xi64>
  %f = tensor.reshape %r(%s) : (tensor<3x2xi8>, tensor<1xi64>) -> tensor<6xi8>
  %e = tensor.expand_shape %f [[0, 1]] output_shape [2, 3] : tensor<6xi8> into tensor<2x3xi8>
  return %e : tensor<2x3xi8>
}

// linalg.softmax in float32 along dimension 1; a call to another function
// supplies the constant row. softmax(1, 2, 3) = 0.09003057, 0.24472847,
// 0.66524096; softmax(0, 0, 0) = 1/3.
// RUN: %mkbin %t.s f32 1 2 3
// RUN: qnn-run --reference %s --entry softmax_call --input %t.s --print-values | FileCheck %s --check-prefix=SM
// SM: values 0: 9.003057e-02 2.447285e-01 6.652409e-01 3.333333e-01 3.333333e-01 3.333333e-01
func.func private @zeros_row() -> tensor<1x3xf32> {
  %z = arith.constant dense<0.0> : tensor<1x3xf32>
  return %z : tensor<1x3xf32>
}
func.func @softmax_call(%x: tensor<1x3xf32>) -> tensor<2x3xf32> {
  %z = func.call @zeros_row() : () -> tensor<1x3xf32>
  %init = tensor.empty() : tensor<2x3xf32>
  %both = tensor.empty() : tensor<2x3xf32>
  %c = tosa.add %z, %x : (tensor<1x3xf32>, tensor<1x3xf32>) -> tensor<1x3xf32>
  %cat = tensor.pad %c low[0, 0] high[1, 0] {
  ^bb0(%i: index, %j: index):
    %zero = arith.constant 0.0 : f32
    tensor.yield %zero : f32
  } : tensor<1x3xf32> to tensor<2x3xf32>
  %sm = linalg.softmax dimension(1) ins(%cat : tensor<2x3xf32>) outs(%init : tensor<2x3xf32>) -> tensor<2x3xf32>
  return %sm : tensor<2x3xf32>
}
