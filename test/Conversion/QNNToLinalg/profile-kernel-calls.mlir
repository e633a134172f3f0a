// RUN: qnn-opt --qnn-profile-kernel-calls --split-input-file %s | FileCheck %s

// Every call of a kernel from a function that is not a kernel is timed with
// the cycle counter; its site's two counters (cycles, calls) take the
// difference and 1. Other calls, and a kernel's own calls of kernels, are
// not sites.
// CHECK-LABEL: module attributes {qnn.profile_sites = ["__qnn_kernel_vnni_a", "__qnn_kernel_vnni_b", "__qnn_kernel_vnni_a"]}
// CHECK: llvm.mlir.global external @__qnn_profile_counters(dense<0> : tensor<6xi64>) {addr_space = 0 : i32} : !llvm.array<6 x i64>
// CHECK-LABEL: llvm.func @__qnn_kernel_vnni_a
// CHECK-NOT: readcyclecounter
// CHECK: llvm.call @__qnn_kernel_vnni_b
// CHECK-NOT: readcyclecounter
// CHECK: llvm.return
// CHECK-LABEL: llvm.func @main
// CHECK: %[[T0:.*]] = llvm.call_intrinsic "llvm.readcyclecounter"() : () -> i64
// CHECK-NEXT: llvm.call @__qnn_kernel_vnni_a(%{{.*}})
// CHECK-NEXT: %[[T1:.*]] = llvm.call_intrinsic "llvm.readcyclecounter"() : () -> i64
// CHECK-NEXT: %[[D:.*]] = llvm.sub %[[T1]], %[[T0]] : i64
// CHECK-NEXT: %[[BASE:.*]] = llvm.mlir.addressof @__qnn_profile_counters : !llvm.ptr
// CHECK-NEXT: %[[C:.*]] = llvm.getelementptr %[[BASE]][0, 0] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<6 x i64>
// CHECK-NEXT: llvm.atomicrmw add %[[C]], %[[D]] monotonic : !llvm.ptr, i64
// CHECK-NEXT: %[[ONE:.*]] = llvm.mlir.constant(1 : i64) : i64
// CHECK-NEXT: %[[N:.*]] = llvm.getelementptr %[[BASE]][0, 1] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<6 x i64>
// CHECK-NEXT: llvm.atomicrmw add %[[N]], %[[ONE]] monotonic : !llvm.ptr, i64
// CHECK: llvm.call @helper
// CHECK-NEXT: llvm.call_intrinsic "llvm.readcyclecounter"
// CHECK-NEXT: llvm.call @__qnn_kernel_vnni_b
// CHECK: llvm.getelementptr %{{.*}}[0, 2]
// CHECK: llvm.getelementptr %{{.*}}[0, 3]
// CHECK: llvm.call @__qnn_kernel_vnni_a
// CHECK: llvm.getelementptr %{{.*}}[0, 4]
// CHECK: llvm.getelementptr %{{.*}}[0, 5]
// CHECK: llvm.return
module {
  llvm.func @__qnn_kernel_vnni_b(!llvm.ptr)
  llvm.func @helper(!llvm.ptr)
  llvm.func @__qnn_kernel_vnni_a(%p: !llvm.ptr) {
    llvm.call @__qnn_kernel_vnni_b(%p) : (!llvm.ptr) -> ()
    llvm.return
  }
  llvm.func @main(%p: !llvm.ptr) {
    llvm.call @__qnn_kernel_vnni_a(%p) : (!llvm.ptr) -> ()
    llvm.call @helper(%p) : (!llvm.ptr) -> ()
    llvm.call @__qnn_kernel_vnni_b(%p) : (!llvm.ptr) -> ()
    llvm.call @__qnn_kernel_vnni_a(%p) : (!llvm.ptr) -> ()
    llvm.return
  }
}

// -----

// Without kernel calls: no counters, an empty list of sites.
// CHECK-LABEL: module attributes {qnn.profile_sites = []}
// CHECK-NOT: __qnn_profile_counters
// CHECK: llvm.func @f
module {
  llvm.func @f() {
    llvm.return
  }
}
