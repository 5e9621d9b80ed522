// A function whose argument is an unranked tensor: a model library's
// metadata cannot describe it.
func.func @main_graph(%a: tensor<*xf32>) -> tensor<*xf32> {
  return %a : tensor<*xf32>
}
