// RUN: qnn-opt --qnn-profile-kernel-calls --verify-diagnostics %s -o /dev/null

// The counters' symbol must be free.
module {
  // expected-error @+1 {{symbol '__qnn_profile_counters' is taken: qnn-profile-kernel-calls needs it for its counters}}
  llvm.mlir.global external @__qnn_profile_counters(0 : i64) : i64
  llvm.func @__qnn_kernel_vnni_a()
  llvm.func @main() {
    llvm.call @__qnn_kernel_vnni_a() : () -> ()
    llvm.return
  }
}
