// qnn-byte-globals: constant globals wider than a byte, or of rank above 1,
// become flat little-endian byte arrays (aligned to at least 64 bytes),
// read through a memref.view with the original type; the LLVM global is
// then one [B x i8] array (the object writer emits i16/i32 arrays element
// by element). Splats are expanded. Left alone: 1-D i8 globals (already
// bytes), mutable globals, globals without an initial value.
// RUN: qnn-opt %s --qnn-byte-globals | FileCheck %s
// RUN: qnn-opt %s --qnn-byte-globals --convert-to-llvm --reconcile-unrealized-casts | FileCheck %s --check-prefix=LLVM

// CHECK-DAG: memref.global "private" constant @w16 : memref<12xi8> = dense<[1, 0, 2, 0, -1, -1, 0, -128, 5, 0, 6, 0]> {alignment = 64 : i64}
// CHECK-DAG: memref.global "private" constant @b32 : memref<8xi8> = dense<[7, 0, 0, 0, 7, 0, 0, 0]> {alignment = 128 : i64}
// CHECK-DAG: memref.global "private" constant @bytes1d : memref<4xi8> = dense<[1, 2, 3, 4]>
// CHECK-DAG: memref.global "private" constant @bytes2d : memref<4xi8> = dense<[1, 2, 3, 4]> {alignment = 64 : i64}
// CHECK-DAG: memref.global "private" @state : memref<2xi32> = dense<0>
// CHECK-DAG: memref.global "private" constant @uninit : memref<2xi32> = uninitialized
memref.global "private" constant @w16 : memref<2x3xi16> = dense<[[1, 2, -1], [-32768, 5, 6]]>
memref.global "private" constant @b32 : memref<2xi32> = dense<7> {alignment = 128 : i64}
memref.global "private" constant @bytes1d : memref<4xi8> = dense<[1, 2, 3, 4]>
memref.global "private" constant @bytes2d : memref<2x2xi8> = dense<[[1, 2], [3, 4]]>
memref.global "private" @state : memref<2xi32> = dense<0>
memref.global "private" constant @uninit : memref<2xi32> = uninitialized

// CHECK-LABEL: func.func @read
// CHECK: %[[W:.*]] = memref.get_global @w16 : memref<12xi8>
// CHECK: %[[WV:.*]] = memref.view %[[W]][%{{.*}}][] : memref<12xi8> to memref<2x3xi16>
// CHECK: memref.load %[[WV]]
// CHECK: %[[B:.*]] = memref.get_global @b32 : memref<8xi8>
// CHECK: memref.view %[[B]][%{{.*}}][] : memref<8xi8> to memref<2xi32>
// CHECK: memref.get_global @bytes1d : memref<4xi8>
// CHECK: memref.get_global @bytes2d : memref<4xi8>
// CHECK: memref.view %{{.*}}[%{{.*}}][] : memref<4xi8> to memref<2x2xi8>
// CHECK: memref.get_global @state : memref<2xi32>
// CHECK: memref.get_global @uninit : memref<2xi32>
// LLVM: llvm.mlir.global private constant @w16(dense<[1, 0, 2, 0, -1, -1, 0, -128, 5, 0, 6, 0]> : tensor<12xi8>) {addr_space = 0 : i32, alignment = 64 : i64} : !llvm.array<12 x i8>
// LLVM-LABEL: llvm.func @read
// LLVM: llvm.mlir.addressof @w16 : !llvm.ptr
func.func @read(%i: index, %j: index) -> (i16, i32, i8, i8, i32, i32) {
  %w = memref.get_global @w16 : memref<2x3xi16>
  %a = memref.load %w[%i, %j] : memref<2x3xi16>
  %b = memref.get_global @b32 : memref<2xi32>
  %c = memref.load %b[%i] : memref<2xi32>
  %d = memref.get_global @bytes1d : memref<4xi8>
  %e = memref.load %d[%i] : memref<4xi8>
  %f = memref.get_global @bytes2d : memref<2x2xi8>
  %g = memref.load %f[%i, %j] : memref<2x2xi8>
  %s = memref.get_global @state : memref<2xi32>
  %t = memref.load %s[%i] : memref<2xi32>
  %u = memref.get_global @uninit : memref<2xi32>
  %v = memref.load %u[%i] : memref<2xi32>
  return %a, %c, %e, %g, %t, %v : i16, i32, i8, i8, i32, i32
}
