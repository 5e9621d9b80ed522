// A two-layer perceptron in the graph dialect, as the ONNX importer will
// produce it. `kiln-opt` with graph-verify, graph-cse,
// canonicalize and graph-dce merges the duplicated bias add and removes the
// unused branch (README.md, "Using kiln-opt").
func.func @main_graph(%x: tensor<1x784xf32>) -> tensor<1x10xf32> {
  %w1 = "graph.constant"() {value = dense<0.01> : tensor<784x128xf32>} : () -> tensor<784x128xf32>
  %b1 = "graph.constant"() {value = dense<0.1> : tensor<128xf32>} : () -> tensor<128xf32>
  %w2 = "graph.constant"() {value = dense<0.02> : tensor<128x10xf32>} : () -> tensor<128x10xf32>
  %b2 = "graph.constant"() {value = dense<0.1> : tensor<10xf32>} : () -> tensor<10xf32>
  %h = "graph.matmul"(%x, %w1) : (tensor<1x784xf32>, tensor<784x128xf32>) -> tensor<1x128xf32>
  %h1 = "graph.add"(%h, %b1) : (tensor<1x128xf32>, tensor<128xf32>) -> tensor<1x128xf32>
  %h1_dup = "graph.add"(%h, %b1) : (tensor<1x128xf32>, tensor<128xf32>) -> tensor<1x128xf32>
  %a = "graph.relu"(%h1) : (tensor<1x128xf32>) -> tensor<1x128xf32>
  %unused = "graph.sigmoid"(%h1_dup) : (tensor<1x128xf32>) -> tensor<1x128xf32>
  %o = "graph.matmul"(%a, %w2) : (tensor<1x128xf32>, tensor<128x10xf32>) -> tensor<1x10xf32>
  %y = "graph.add"(%o, %b2) : (tensor<1x10xf32>, tensor<10xf32>) -> tensor<1x10xf32>
  %p = "graph.softmax"(%y) {axis = -1 : i64} : (tensor<1x10xf32>) -> tensor<1x10xf32>
  return %p : tensor<1x10xf32>
}
