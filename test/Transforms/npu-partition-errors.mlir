// npu-partition reports what it cannot handle, with a location and a
// non-zero exit.
// RUN: qnn-opt %s --npu-partition --verify-diagnostics

// expected-error @+1 {{npu-partition: functions with more than one block are not supported}}
func.func @branches(%x: tensor<4xi8>, %c: i1) -> tensor<4xi8> {
  cf.cond_br %c, ^a, ^b
^a:
  return %x : tensor<4xi8>
^b:
  return %x : tensor<4xi8>
}
