// An output whose shape is known only at run time.
func.func @main_graph(%a: tensor<?xf32>) -> tensor<?xf32> {
  return %a : tensor<?xf32>
}
