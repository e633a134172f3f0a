// RUN: qnn-opt %s --split-input-file --qnn-simplify-int-ranges | FileCheck %s

// TFLite ADD's operand rescale: a widened 8-bit value plus its zero point,
// shifted left by 20, times a multiplier below 2^31 and shifted right by
// 31 + 2 can never leave i32: the saturation goes, the rest stays.
// CHECK-LABEL: func.func @add_operand_rescale
// CHECK: %[[SHR:.*]] = arith.shrsi
// CHECK-NOT: arith.maxsi
// CHECK-NOT: arith.minsi
// CHECK: %[[T:.*]] = arith.trunci %[[SHR]] : vector<16xi64> to vector<16xi32>
// CHECK: return %[[T]]
func.func @add_operand_rescale(%x: vector<16xi8>) -> vector<16xi32> {
  %zp = arith.constant dense<12> : vector<16xi32>
  %c20 = arith.constant dense<20> : vector<16xi32>
  %m = arith.constant dense<1518500250> : vector<16xi64>
  %round = arith.constant dense<4294967296> : vector<16xi64>
  %c33 = arith.constant dense<33> : vector<16xi64>
  %lo = arith.constant dense<-2147483648> : vector<16xi64>
  %hi = arith.constant dense<2147483647> : vector<16xi64>
  %0 = arith.extsi %x : vector<16xi8> to vector<16xi32>
  %1 = arith.addi %0, %zp : vector<16xi32>
  %2 = arith.shli %1, %c20 : vector<16xi32>
  %3 = arith.extsi %2 : vector<16xi32> to vector<16xi64>
  %4 = arith.muli %3, %m : vector<16xi64>
  %5 = arith.addi %4, %round : vector<16xi64>
  %6 = arith.shrsi %5, %c33 : vector<16xi64>
  %7 = arith.maxsi %6, %lo : vector<16xi64>
  %8 = arith.minsi %7, %hi : vector<16xi64>
  %9 = arith.trunci %8 : vector<16xi64> to vector<16xi32>
  return %9 : vector<16xi32>
}

// -----

// The same rescale of two unbounded i32 values by a right shift of only
// 31: (-2^31)^2 >> 31 = 2^31 leaves i32, the upper bound stays; the lowest
// result, -(2^31 - 1), needs no lower bound.
// CHECK-LABEL: func.func @accumulator_rescale
// CHECK-NOT: arith.maxsi
// CHECK: %[[SHR:.*]] = arith.shrsi
// CHECK-NEXT: %[[MIN:.*]] = arith.minsi %[[SHR]]
// CHECK-NEXT: arith.trunci %[[MIN]]
func.func @accumulator_rescale(%acc: i32, %m: i32) -> i32 {
  %round = arith.constant 1073741824 : i64
  %c31 = arith.constant 31 : i64
  %lo = arith.constant -2147483648 : i64
  %hi = arith.constant 2147483647 : i64
  %0 = arith.extsi %acc : i32 to i64
  %1 = arith.extsi %m : i32 to i64
  %2 = arith.muli %0, %1 : i64
  %3 = arith.addi %2, %round : i64
  %4 = arith.shrsi %3, %c31 : i64
  %5 = arith.maxsi %4, %lo : i64
  %6 = arith.minsi %5, %hi : i64
  %7 = arith.trunci %6 : i64 to i32
  return %7 : i32
}

// -----

// A requantized value clamped to [-128, 127] (with its zero point added
// after the clamp: [-9, 127]), narrowed to 8 bits and sign-extended to the
// next layer's 16 bits: one truncation to i16. The clamp itself stays.
// CHECK-LABEL: func.func @narrow_then_widen
// CHECK: %[[MIN:.*]] = arith.minsi
// CHECK: %[[ADD:.*]] = arith.addi %[[MIN]]
// CHECK-NEXT: %[[T:.*]] = arith.trunci %[[ADD]] : i32 to i16
// CHECK-NOT: arith.extsi
// CHECK: arith.subi %[[T]]
func.func @narrow_then_widen(%y: i32) -> i16 {
  %c0 = arith.constant 0 : i32
  %c136 = arith.constant 136 : i32
  %zp = arith.constant -9 : i32
  %izp = arith.constant -9 : i16
  %0 = arith.maxsi %y, %c0 : i32
  %1 = arith.minsi %0, %c136 : i32
  %2 = arith.addi %1, %zp : i32
  %3 = arith.trunci %2 : i32 to i8
  %4 = arith.extsi %3 : i8 to i16
  %5 = arith.subi %4, %izp : i16
  return %5 : i16
}

// -----

// Unsigned: a uint8 result in [0, 255] zero-extended to i32 is the value
// itself; the same clamp and extension to i16 is a truncation.
// CHECK-LABEL: func.func @unsigned_round_trips
// CHECK: %[[MIN:.*]] = arith.minsi
// CHECK-NOT: arith.extui
// CHECK: %[[T:.*]] = arith.trunci %[[MIN]] : vector<8xi32> to vector<8xi16>
// CHECK: return %[[MIN]], %[[T]]
func.func @unsigned_round_trips(%y: vector<8xi32>) -> (vector<8xi32>, vector<8xi16>) {
  %c0 = arith.constant dense<0> : vector<8xi32>
  %c255 = arith.constant dense<255> : vector<8xi32>
  %0 = arith.maxsi %y, %c0 : vector<8xi32>
  %1 = arith.minsi %0, %c255 : vector<8xi32>
  %2 = arith.trunci %1 : vector<8xi32> to vector<8xi8>
  %3 = arith.extui %2 : vector<8xi8> to vector<8xi32>
  %4 = arith.extui %2 : vector<8xi8> to vector<8xi16>
  return %3, %4 : vector<8xi32>, vector<8xi16>
}

// -----

// Round trips that can wrap stay: a range one past the signed 8-bit range,
// a signed extension of values up to 255, an unbounded value.
// CHECK-LABEL: func.func @wrapping_round_trips
// CHECK-COUNT-3: arith.trunci {{.*}} to i8
// CHECK: arith.extsi
// CHECK: arith.extsi
// CHECK: arith.extsi
func.func @wrapping_round_trips(%y: i32) -> (i16, i16, i16) {
  %c-128 = arith.constant -128 : i32
  %c128 = arith.constant 128 : i32
  %c0 = arith.constant 0 : i32
  %c255 = arith.constant 255 : i32
  %0 = arith.maxsi %y, %c-128 : i32
  %1 = arith.minsi %0, %c128 : i32
  %2 = arith.maxsi %y, %c0 : i32
  %3 = arith.minsi %2, %c255 : i32
  %4 = arith.trunci %1 : i32 to i8
  %5 = arith.trunci %3 : i32 to i8
  %6 = arith.trunci %y : i32 to i8
  %7 = arith.extsi %4 : i8 to i16
  %8 = arith.extsi %5 : i8 to i16
  %9 = arith.extsi %6 : i8 to i16
  return %7, %8, %9 : i16, i16, i16
}

// -----

// A clamp inside a clamp: the outer bounds [-100, 100] make the inner
// [-128, 127] a no-op (either operand order).
// CHECK-LABEL: func.func @nested_clamp
// CHECK: %[[MAX:.*]] = arith.maxsi %arg0
// CHECK-NEXT: %[[MIN:.*]] = arith.minsi %[[MAX]]
// CHECK-NEXT: return %[[MIN]]
func.func @nested_clamp(%y: i32) -> i32 {
  %c-100 = arith.constant -100 : i32
  %c100 = arith.constant 100 : i32
  %c-128 = arith.constant -128 : i32
  %c127 = arith.constant 127 : i32
  %0 = arith.maxsi %y, %c-100 : i32
  %1 = arith.minsi %0, %c100 : i32
  %2 = arith.maxsi %c-128, %1 : i32
  %3 = arith.minsi %2, %c127 : i32
  return %3 : i32
}

// -----

// Inside a linalg.generic body: the element is unbounded, the constants
// outside the body are not.
// CHECK-LABEL: func.func @generic_body
// CHECK: linalg.generic
// CHECK: %[[MIN:.*]] = arith.minsi
// CHECK-NEXT: %[[T:.*]] = arith.trunci %[[MIN]] : i32 to i16
// CHECK-NEXT: linalg.yield %[[T]]
func.func @generic_body(%t: tensor<64xi32>) -> tensor<64xi16> {
  %lo = arith.constant -128 : i32
  %hi = arith.constant 127 : i32
  %init = tensor.empty() : tensor<64xi16>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%t : tensor<64xi32>) outs(%init : tensor<64xi16>) {
  ^bb0(%in: i32, %out: i16):
    %0 = arith.maxsi %in, %lo : i32
    %1 = arith.minsi %0, %hi : i32
    %2 = arith.trunci %1 : i32 to i8
    %3 = arith.extsi %2 : i8 to i16
    linalg.yield %3 : i16
  } -> tensor<64xi16>
  return %r : tensor<64xi16>
}

// -----

// A kernel epilogue shared by two layers whose zero points (argument 1)
// are -9 and -5 and whose upper clamp bounds (argument 2) are 130 and 132:
// the hulls of the recorded ranges bound the sum by [0, 132] + [-9, -5] =
// [-9, 127], so the round trip goes. With zero points -9 and 5 and bounds
// 136 and 122 each layer stays within 8 bits, but the hulls do not prove
// it ([-9, 141]): the round trip stays, as it does without a record.
// CHECK-LABEL: func.func private @epilogue_fn
// CHECK: %[[ADD:.*]] = arith.addi
// CHECK-NEXT: %[[T:.*]] = arith.trunci %[[ADD]] : i32 to i16
// CHECK-NEXT: return %[[T]]
// CHECK-LABEL: func.func private @epilogue_loose_hull
// CHECK: arith.trunci {{.*}} : i32 to i8
// CHECK: arith.extsi
// CHECK-LABEL: func.func private @epilogue_unrecorded
// CHECK: arith.trunci {{.*}} : i32 to i8
// CHECK: arith.extsi
func.func private @epilogue_fn(%acc: i32, %zp: i32, %hi: i32) -> i16 attributes {qnn.argument_ranges = array<i64: -9, -9, 130, 130, -5, -5, 132, 132>} {
  %c0 = arith.constant 0 : i32
  %0 = arith.maxsi %acc, %c0 : i32
  %1 = arith.minsi %0, %hi : i32
  %2 = arith.addi %1, %zp : i32
  %3 = arith.trunci %2 : i32 to i8
  %4 = arith.extsi %3 : i8 to i16
  return %4 : i16
}
func.func private @epilogue_loose_hull(%acc: i32, %zp: i32, %hi: i32) -> i16 attributes {qnn.argument_ranges = array<i64: -9, -9, 136, 136, 5, 5, 122, 122>} {
  %c0 = arith.constant 0 : i32
  %0 = arith.maxsi %acc, %c0 : i32
  %1 = arith.minsi %0, %hi : i32
  %2 = arith.addi %1, %zp : i32
  %3 = arith.trunci %2 : i32 to i8
  %4 = arith.extsi %3 : i8 to i16
  return %4 : i16
}
func.func private @epilogue_unrecorded(%acc: i32, %zp: i32, %hi: i32) -> i16 {
  %c0 = arith.constant 0 : i32
  %0 = arith.maxsi %acc, %c0 : i32
  %1 = arith.minsi %0, %hi : i32
  %2 = arith.addi %1, %zp : i32
  %3 = arith.trunci %2 : i32 to i8
  %4 = arith.extsi %3 : i8 to i16
  return %4 : i16
}

// -----

// A min/max that always returns its constant stays (the double-rounding
// correction min(shift, 1) << 31 of a kernel whose shifts are all >= 4:
// ConvKernelEpilogue.cpp matches that form), as does a clamp whose range the
// recorded argument ranges do not bound (argument 2: a float, min > max).
// CHECK-LABEL: func.func private @constant_result
// CHECK: arith.minui %{{.*}}, %{{.*}} : i64
// CHECK: arith.maxsi %arg2
func.func private @constant_result(%acc: i32, %e: i32, %f: i32) -> (i64, i32) attributes {qnn.argument_ranges = array<i64: 4, 14, 1, 0>} {
  %c1 = arith.constant 1 : i64
  %c31 = arith.constant 31 : i64
  %c0 = arith.constant 0 : i32
  %0 = arith.extsi %e : i32 to i64
  %1 = arith.minui %0, %c1 : i64
  %2 = arith.shli %1, %c31 : i64
  %3 = arith.maxsi %f, %c0 : i32
  return %2, %3 : i64, i32
}

// -----

// A malformed record (3 entries for 2 arguments) bounds nothing: the round
// trip stays and the pass does not fail (qnn-materialize-conv-kernels
// reports the record).
// CHECK-LABEL: func.func private @malformed_record
// CHECK: arith.trunci {{.*}} : i32 to i8
// CHECK: arith.extsi
func.func private @malformed_record(%acc: i32, %zp: i32, %hi: i32) -> i16 attributes {qnn.argument_ranges = array<i64: -9, -9, 130>} {
  %c0 = arith.constant 0 : i32
  %0 = arith.maxsi %acc, %c0 : i32
  %1 = arith.minsi %0, %hi : i32
  %2 = arith.addi %1, %zp : i32
  %3 = arith.trunci %2 : i32 to i8
  %4 = arith.extsi %3 : i8 to i16
  return %4 : i16
}
