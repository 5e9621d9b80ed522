func.func @identity(%a: tensor<4xf16>) -> tensor<4xf16> {
  return %a : tensor<4xf16>
}
