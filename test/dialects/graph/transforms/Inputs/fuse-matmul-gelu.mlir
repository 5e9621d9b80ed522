// matmul + bias + gelu for graph-fuse-run.test (inputs: fuse_gelu.py).
func.func @main_graph(%x: tensor<2x24x32xf32> {onnx.name = "x"}, %w: tensor<32x40xf32> {onnx.name = "w"}, %b: tensor<40xf32> {onnx.name = "b"}) -> (tensor<2x24x40xf32> {onnx.name = "y"}) {
  %0 = "graph.matmul"(%x, %w) : (tensor<2x24x32xf32>, tensor<32x40xf32>) -> tensor<2x24x40xf32>
  %1 = "graph.add"(%0, %b) : (tensor<2x24x40xf32>, tensor<40xf32>) -> tensor<2x24x40xf32>
  %2 = "graph.gelu"(%1) : (tensor<2x24x40xf32>) -> tensor<2x24x40xf32>
  return %2 : tensor<2x24x40xf32>
}
