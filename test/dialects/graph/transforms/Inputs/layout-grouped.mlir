// A channels-last grouped conv for graph-layout-run.test (inputs and NumPy
// reference: layout_models.py): 2 groups of 3 channels, 2 filters each.
func.func @main_graph(%x: tensor<2x7x5x6xf32> {onnx.name = "x"}, %w: tensor<3x2x3x4xf32> {onnx.name = "w"}, %b: tensor<4xf32> {onnx.name = "b"}) -> (tensor<2x4x4x4xf32> {onnx.name = "y"}) {
  %0 = "graph.conv"(%x, %w, %b) {dilations = array<i64: 1, 2>, group = 2 : i64, layout = "channels_last", pads = array<i64: 1, 0, 1, 1>, strides = array<i64: 2, 1>} : (tensor<2x7x5x6xf32>, tensor<3x2x3x4xf32>, tensor<4xf32>) -> tensor<2x4x4x4xf32>
  return %0 : tensor<2x4x4x4xf32>
}
