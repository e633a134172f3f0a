func.func @f(%x: tensor<?xi8>) -> tensor<?xi8> {
  return %x : tensor<?xi8>
}
