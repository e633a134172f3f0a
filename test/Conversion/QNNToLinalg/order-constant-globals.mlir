// qnn-order-constant-globals: bufferization's constant globals
// (private, constant, named __constant_*) are renamed __constant_<shape>,
// _1, _2, ... in the order of their first reference in the module, moved to
// its start in that order, and erased when nothing references them. Other
// symbols keep their names and places, and no renamed global takes one of
// their names.
// RUN: qnn-opt %s --qnn-order-constant-globals | FileCheck %s
// Idempotent: a second run changes nothing.
// RUN: qnn-opt %s --qnn-order-constant-globals | qnn-opt --qnn-order-constant-globals | FileCheck %s

// CHECK-LABEL: module
// CHECK-NEXT: memref.global "private" constant @__constant_4xi32 : memref<4xi32> = dense<3>
// CHECK-NEXT: memref.global "private" constant @__constant_2xi8 : memref<2xi8> = dense<1>
// CHECK-NEXT: memref.global "private" constant @__constant_4xi32_1 : memref<4xi32> = dense<4>
// CHECK-NEXT: memref.global "private" constant @__constant_2x3xi16 : memref<2x3xi16> = dense<5>
// CHECK-NEXT: memref.global "private" constant @__constant_f32 : memref<f32> = dense<1.000000e+00>
// CHECK-NEXT: memref.global "private" constant @__constant_4xi32_3 : memref<4xi32> = dense<7>
// CHECK-NEXT: memref.global "private" @__constant_8xi32 : memref<8xi32> = dense<0>
// CHECK-NEXT: memref.global constant @__constant_16xi32_9 : memref<16xi32> = dense<0>
// CHECK-NEXT: memref.global "private" constant @weights : memref<2xi32> = dense<6>
// CHECK-NEXT: func.func private @__constant_4xi32_2()
// CHECK-NOT: @__constant_unused
memref.global "private" constant @__constant_2xi8_5 : memref<2xi8> = dense<1>
memref.global "private" constant @__constant_unused : memref<2xi8> = dense<2>
memref.global "private" constant @__constant_4xi32_1 : memref<4xi32> = dense<3>
memref.global "private" constant @__constant_4xi32 : memref<4xi32> = dense<4>
// Not bufferization's: mutable, or public.
memref.global "private" @__constant_8xi32 : memref<8xi32> = dense<0>
memref.global constant @__constant_16xi32_9 : memref<16xi32> = dense<0>
memref.global "private" constant @__constant_2x3xi16_7 : memref<2x3xi16> = dense<5>
memref.global "private" constant @weights : memref<2xi32> = dense<6>
memref.global "private" constant @__constant_xf32_0 : memref<f32> = dense<1.0>
// Holds the name that the third 4xi32 constant would take (it gets _3).
func.func private @__constant_4xi32_2()
memref.global "private" constant @__constant_4xi32_3 : memref<4xi32> = dense<7>

// CHECK-LABEL: func.func @first
// CHECK: memref.get_global @__constant_4xi32 : memref<4xi32>
// CHECK: memref.get_global @__constant_2xi8 : memref<2xi8>
// CHECK: memref.get_global @__constant_4xi32 : memref<4xi32>
// CHECK: memref.get_global @__constant_8xi32 : memref<8xi32>
func.func @first() -> (memref<4xi32>, memref<2xi8>, memref<4xi32>, memref<8xi32>) {
  %0 = memref.get_global @__constant_4xi32_1 : memref<4xi32>
  %1 = memref.get_global @__constant_2xi8_5 : memref<2xi8>
  %2 = memref.get_global @__constant_4xi32_1 : memref<4xi32>
  %3 = memref.get_global @__constant_8xi32 : memref<8xi32>
  return %0, %1, %2, %3 : memref<4xi32>, memref<2xi8>, memref<4xi32>, memref<8xi32>
}

// Uses in nested regions count in program order.
// CHECK-LABEL: func.func @second
// CHECK: scf.if
// CHECK: memref.get_global @__constant_4xi32_1 : memref<4xi32>
// CHECK: memref.get_global @__constant_2x3xi16 : memref<2x3xi16>
// CHECK: memref.get_global @__constant_f32 : memref<f32>
// CHECK: memref.get_global @__constant_4xi32_3 : memref<4xi32>
// CHECK: memref.get_global @weights : memref<2xi32>
func.func @second(%c: i1) -> (memref<4xi32>, memref<2x3xi16>, memref<f32>, memref<4xi32>, memref<2xi32>) {
  %0, %1 = scf.if %c -> (memref<4xi32>, memref<2x3xi16>) {
    %a = memref.get_global @__constant_4xi32 : memref<4xi32>
    %b = memref.get_global @__constant_2x3xi16_7 : memref<2x3xi16>
    scf.yield %a, %b : memref<4xi32>, memref<2x3xi16>
  } else {
    %a = memref.get_global @__constant_4xi32 : memref<4xi32>
    %b = memref.get_global @__constant_2x3xi16_7 : memref<2x3xi16>
    scf.yield %a, %b : memref<4xi32>, memref<2x3xi16>
  }
  %2 = memref.get_global @__constant_xf32_0 : memref<f32>
  %3 = memref.get_global @__constant_4xi32_3 : memref<4xi32>
  %4 = memref.get_global @weights : memref<2xi32>
  return %0, %1, %2, %3, %4 : memref<4xi32>, memref<2x3xi16>, memref<f32>, memref<4xi32>, memref<2xi32>
}

// A nested module's references resolve to its own symbols: neither they
// nor its globals change.
// CHECK-LABEL: module @inner
// CHECK-NEXT: memref.global "private" constant @__constant_4xi32_1 : memref<4xi32> = dense<9>
// CHECK: memref.get_global @__constant_4xi32_1 : memref<4xi32>
module @inner {
  memref.global "private" constant @__constant_4xi32_1 : memref<4xi32> = dense<9>
  func.func @nested() -> memref<4xi32> {
    %0 = memref.get_global @__constant_4xi32_1 : memref<4xi32>
    return %0 : memref<4xi32>
  }
}
