func.func @identity(%a: tensor<3xi32>) -> tensor<3xi32> {
  return %a : tensor<3xi32>
}
