// Three functions: @main calls @add_self; @opaque holds an operator that
// the native lowering does not support (tosa.custom). Compiling @main
// (qnn-jit, qnn-run, CompiledModule::compile) compiles @main and @add_self
// only; compiling @opaque fails at the operator.
func.func private @add_self(%x: tensor<4xi8>) -> tensor<4xi8> {
  %s = qnn.add %x, %x {lhs_scale = 0.5 : f32, lhs_zero_point = 0 : i32, rhs_scale = 0.5 : f32, rhs_zero_point = 0 : i32, output_scale = 0.5 : f32, output_zero_point = 0 : i32, rounding = #qnn.rounding<tflite_single>} : (tensor<4xi8>, tensor<4xi8>) -> tensor<4xi8>
  return %s : tensor<4xi8>
}

func.func @main(%x: tensor<4xi8>) -> tensor<4xi8> {
  %y = call @add_self(%x) : (tensor<4xi8>) -> tensor<4xi8>
  return %y : tensor<4xi8>
}

func.func @opaque(%x: tensor<4xi8>) -> tensor<4xi8> {
  %y = tosa.custom %x {operator_name = "opaque", domain_name = "qnn.test", implementation_attrs = ""} : (tensor<4xi8>) -> tensor<4xi8>
  return %y : tensor<4xi8>
}
