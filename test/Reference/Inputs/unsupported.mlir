func.func @f(%x: tensor<2xi8>) -> tensor<2xi8> {
  %0 = arith.addi %x, %x : tensor<2xi8>
  return %0 : tensor<2xi8>
}
