func.func @main(%x: tensor<2xi8>) -> tensor<2xi8> attributes {a = array< index 1>} {
  return %x : tensor<2xi8>
}
