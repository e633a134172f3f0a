// qnn-vectorize-elementwise{even-odd-products=true} (the x86 targets):
// a fixed-point rescale of i32 lanes through i64,
// trunci(shrsi(addi(muli(extsi(x), M), R), S)), is computed on x's i64
// view: even lanes sign-extended in place ((v << 32) >> 32), odd lanes
// shifted down (v >> 32), each multiplied by M and added R as i64, then
// bits S..S+31 of each sum put back in its lane by shifts and a blend
// (vector.shuffle of the two i32 views). Without the option the chain is
// left as it is. Execution: even-odd-rescale*.test.
// RUN: qnn-opt %s --split-input-file --qnn-vectorize-elementwise="even-odd-products=true" | FileCheck %s
// RUN: qnn-opt %s --split-input-file --qnn-vectorize-elementwise | FileCheck %s --check-prefix=OFF

// S = 50 (a TFLite ADD's output rescale): the sums' high words (the even
// lanes' moved down by 32), blended, then shifted right by 18 as i32.
// CHECK-LABEL: func.func @s50(
// CHECK-SAME: %[[X:.*]]: vector<16xi32>
// CHECK-DAG: %[[C32:.*]] = arith.constant dense<32> : vector<8xi64>
// CHECK-DAG: %[[M:.*]] = arith.constant dense<1661361743> : vector<8xi64>
// CHECK-DAG: %[[R:.*]] = arith.constant dense<562949953421312> : vector<8xi64>
// CHECK-DAG: %[[C18:.*]] = arith.constant dense<18> : vector<16xi32>
// CHECK: %[[V:.*]] = vector.bitcast %[[X]] : vector<16xi32> to vector<8xi64>
// CHECK: %[[LOW:.*]] = arith.shli %[[V]], %[[C32]] : vector<8xi64>
// CHECK: %[[EVEN:.*]] = arith.shrsi %[[LOW]], %[[C32]] : vector<8xi64>
// CHECK: %[[ODD:.*]] = arith.shrsi %[[V]], %[[C32]] : vector<8xi64>
// CHECK: %[[EP:.*]] = arith.muli %[[EVEN]], %[[M]] : vector<8xi64>
// CHECK: %[[ES:.*]] = arith.addi %[[EP]], %[[R]] : vector<8xi64>
// CHECK: %[[OP:.*]] = arith.muli %[[ODD]], %[[M]] : vector<8xi64>
// CHECK: %[[OS:.*]] = arith.addi %[[OP]], %[[R]] : vector<8xi64>
// CHECK: %[[EH:.*]] = arith.shrui %[[ES]], %[[C32]] : vector<8xi64>
// CHECK: %[[EW:.*]] = vector.bitcast %[[EH]] : vector<8xi64> to vector<16xi32>
// CHECK: %[[OW:.*]] = vector.bitcast %[[OS]] : vector<8xi64> to vector<16xi32>
// CHECK: %[[B:.*]] = vector.shuffle %[[EW]], %[[OW]] [0, 17, 2, 19, 4, 21, 6, 23, 8, 25, 10, 27, 12, 29, 14, 31] : vector<16xi32>, vector<16xi32>
// CHECK: %[[Y:.*]] = arith.shrsi %[[B]], %[[C18]] : vector<16xi32>
// CHECK: return %[[Y]]
// OFF-LABEL: func.func @s50(
// OFF-NOT: vector.bitcast
// OFF: arith.extsi
// OFF: arith.trunci
func.func @s50(%x: vector<16xi32>) -> vector<16xi32> {
  %m = arith.constant dense<1661361743> : vector<16xi64>
  %r = arith.constant dense<562949953421312> : vector<16xi64>
  %s = arith.constant dense<50> : vector<16xi64>
  %e = arith.extsi %x : vector<16xi32> to vector<16xi64>
  %p = arith.muli %e, %m : vector<16xi64>
  %a = arith.addi %p, %r : vector<16xi64>
  %t = arith.shrsi %a, %s : vector<16xi64>
  %y = arith.trunci %t : vector<16xi64> to vector<16xi32>
  return %y : vector<16xi32>
}

// -----

// S = 31 (a multiplier in [0.5, 1)), operands of the multiply and the add
// commuted, 8 lanes: bits 31..62 are the even sums shifted right by 31 and
// the odd sums shifted left by 1 (into the high word); no i32 shift.
// CHECK-LABEL: func.func @s31(
// CHECK-DAG: %[[C31:.*]] = arith.constant dense<31> : vector<4xi64>
// CHECK-DAG: %[[C1:.*]] = arith.constant dense<1> : vector<4xi64>
// CHECK: vector.bitcast %{{.*}} : vector<8xi32> to vector<4xi64>
// CHECK-COUNT-2: arith.muli %{{.*}} : vector<4xi64>
// CHECK: arith.shrui %{{.*}}, %[[C31]] : vector<4xi64>
// CHECK: arith.shli %{{.*}}, %[[C1]] : vector<4xi64>
// CHECK: %[[B:.*]] = vector.shuffle %{{.*}}, %{{.*}} [0, 9, 2, 11, 4, 13, 6, 15] : vector<8xi32>, vector<8xi32>
// CHECK-NEXT: return %[[B]]
func.func @s31(%x: vector<8xi32>) -> vector<8xi32> {
  %m = arith.constant dense<1600000000> : vector<8xi64>
  %r = arith.constant dense<1073741824> : vector<8xi64>
  %s = arith.constant dense<31> : vector<8xi64>
  %e = arith.extsi %x : vector<8xi32> to vector<8xi64>
  %p = arith.muli %m, %e : vector<8xi64>
  %a = arith.addi %r, %p : vector<8xi64>
  %t = arith.shrsi %a, %s : vector<8xi64>
  %y = arith.trunci %t : vector<8xi64> to vector<8xi32>
  return %y : vector<8xi32>
}

// -----

// S = 32: the high words as they are, no shift after the blend. A negative
// multiplier within 32 signed bits qualifies.
// CHECK-LABEL: func.func @s32(
// CHECK: vector.bitcast
// CHECK: %[[B:.*]] = vector.shuffle
// CHECK-NEXT: return %[[B]]
func.func @s32(%x: vector<16xi32>) -> vector<16xi32> {
  %m = arith.constant dense<-1500000001> : vector<16xi64>
  %r = arith.constant dense<2147483648> : vector<16xi64>
  %s = arith.constant dense<32> : vector<16xi64>
  %e = arith.extsi %x : vector<16xi32> to vector<16xi64>
  %p = arith.muli %e, %m : vector<16xi64>
  %a = arith.addi %p, %r : vector<16xi64>
  %t = arith.shrsi %a, %s : vector<16xi64>
  %y = arith.trunci %t : vector<16xi64> to vector<16xi32>
  return %y : vector<16xi32>
}

// -----

// Left alone: a multiplier beyond 32 signed bits (2^31), a power of two
// (LLVM keeps that shift in i32 lanes), a shift of 0 or of 64, an odd lane
// count, a product of lanes widened from i16, and a chain clamped before it
// is truncated.
// CHECK-LABEL: func.func @left_alone(
// CHECK-NOT: vector.bitcast
// CHECK-NOT: vector.shuffle
// CHECK: return
func.func @left_alone(%x: vector<16xi32>, %w: vector<3xi32>, %h: vector<16xi16>)
    -> (vector<16xi32>, vector<16xi32>, vector<16xi32>, vector<16xi32>, vector<3xi32>, vector<16xi32>, vector<16xi32>) {
  %big = arith.constant dense<2147483648> : vector<16xi64>
  %pow = arith.constant dense<1073741824> : vector<16xi64>
  %m = arith.constant dense<1661361743> : vector<16xi64>
  %r = arith.constant dense<1024> : vector<16xi64>
  %s40 = arith.constant dense<40> : vector<16xi64>
  %s0 = arith.constant dense<0> : vector<16xi64>
  %s64 = arith.constant dense<64> : vector<16xi64>
  %lo = arith.constant dense<-128> : vector<16xi64>
  %e = arith.extsi %x : vector<16xi32> to vector<16xi64>

  %p1 = arith.muli %e, %big : vector<16xi64>
  %a1 = arith.addi %p1, %r : vector<16xi64>
  %t1 = arith.shrsi %a1, %s40 : vector<16xi64>
  %y1 = arith.trunci %t1 : vector<16xi64> to vector<16xi32>

  %p2 = arith.muli %e, %pow : vector<16xi64>
  %a2 = arith.addi %p2, %r : vector<16xi64>
  %t2 = arith.shrsi %a2, %s40 : vector<16xi64>
  %y2 = arith.trunci %t2 : vector<16xi64> to vector<16xi32>

  %p3 = arith.muli %e, %m : vector<16xi64>
  %a3 = arith.addi %p3, %r : vector<16xi64>
  %t3 = arith.shrsi %a3, %s0 : vector<16xi64>
  %y3 = arith.trunci %t3 : vector<16xi64> to vector<16xi32>
  %t4 = arith.shrsi %a3, %s64 : vector<16xi64>
  %y4 = arith.trunci %t4 : vector<16xi64> to vector<16xi32>

  %m3 = arith.constant dense<1661361743> : vector<3xi64>
  %r3 = arith.constant dense<1024> : vector<3xi64>
  %s3 = arith.constant dense<40> : vector<3xi64>
  %e5 = arith.extsi %w : vector<3xi32> to vector<3xi64>
  %p5 = arith.muli %e5, %m3 : vector<3xi64>
  %a5 = arith.addi %p5, %r3 : vector<3xi64>
  %t5 = arith.shrsi %a5, %s3 : vector<3xi64>
  %y5 = arith.trunci %t5 : vector<3xi64> to vector<3xi32>

  %e6 = arith.extsi %h : vector<16xi16> to vector<16xi64>
  %p6 = arith.muli %e6, %m : vector<16xi64>
  %a6 = arith.addi %p6, %r : vector<16xi64>
  %t6 = arith.shrsi %a6, %s40 : vector<16xi64>
  %y6 = arith.trunci %t6 : vector<16xi64> to vector<16xi32>

  %t7 = arith.shrsi %a3, %s40 : vector<16xi64>
  %c7 = arith.maxsi %t7, %lo : vector<16xi64>
  %y7 = arith.trunci %c7 : vector<16xi64> to vector<16xi32>
  return %y1, %y2, %y3, %y4, %y5, %y6, %y7 : vector<16xi32>, vector<16xi32>, vector<16xi32>, vector<16xi32>, vector<3xi32>, vector<16xi32>, vector<16xi32>
}
