// A model whose own function is called kiln_model_run: it is renamed so
// that the library's ABI symbol keeps its exact name.
func.func private @kiln_model_run(%x: tensor<2xf32>) -> tensor<2xf32> {
  return %x : tensor<2xf32>
}
func.func @main_graph(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = func.call @kiln_model_run(%x) : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
