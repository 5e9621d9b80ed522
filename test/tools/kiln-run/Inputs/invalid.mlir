func.func @main_graph(%a: tensor<2xf32>) -> tensor<2xf32> {
  return %b : tensor<2xf32>
}
