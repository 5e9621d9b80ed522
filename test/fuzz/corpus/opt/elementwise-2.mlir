func.func @where(%c: tensor<2x1xi1>, %x: tensor<3xf32>, %y: tensor<f32>) {
  %0 = "graph.where"(%c, %x, %y) : (tensor<2x1xi1>, tensor<3xf32>, tensor<f32>) -> tensor<2x3xf32>
  return
}
func.func @comparisons(%a: tensor<2x3xf32>, %b: tensor<3xf32>, %p: tensor<?xi1>, %q: tensor<4x1xi1>) {
  %0 = "graph.equal"(%a, %b) : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xi1>
  %1 = "graph.equal"(%p, %q) : (tensor<?xi1>, tensor<4x1xi1>) -> tensor<4x?xi1>
  %2 = "graph.less"(%a, %b) : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xi1>
  %3 = "graph.greater"(%b, %a) : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
  return
}
func.func @logical(%p: tensor<?xi1>, %q: tensor<4x1xi1>) {
  %0 = "graph.not"(%p) : (tensor<?xi1>) -> tensor<?xi1>
  %1 = "graph.and"(%p, %q) : (tensor<?xi1>, tensor<4x1xi1>) -> tensor<4x?xi1>
  %2 = "graph.or"(%q, %p) : (tensor<4x1xi1>, tensor<?xi1>) -> tensor<4x?xi1>
  return
}
func.func @cast(%x: tensor<2x?xf32>, %b: tensor<3xi1>) {
  %0 = "graph.cast"(%x) {to = f16} : (tensor<2x?xf32>) -> tensor<2x?xf16>
  %1 = "graph.cast"(%b) {to = i64} : (tensor<3xi1>) -> tensor<3xi64>
  %2 = "graph.cast"(%x) {to = f8E4M3FN, saturate = 0 : i64, round_mode = "nearest"} : (tensor<2x?xf32>) -> tensor<2x?xf8E4M3FN>
  return
}
