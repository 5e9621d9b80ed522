func.func @arithmetic(%a: tensor<2x3xf32>, %b: tensor<3xf32>, %i: tensor<?x1xi64>, %j: tensor<1x4xi64>) {
  %0 = "graph.add"(%a, %b) : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %1 = "graph.sub"(%b, %a) : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %2 = "graph.mul"(%i, %j) : (tensor<?x1xi64>, tensor<1x4xi64>) -> tensor<?x4xi64>
  %3 = "graph.div"(%j, %i) : (tensor<1x4xi64>, tensor<?x1xi64>) -> tensor<?x4xi64>
  return
}
func.func @arithmetic_unsigned_scalar(%a: tensor<ui8>, %b: tensor<5x?xui8>) {
  %0 = "graph.add"(%a, %b) : (tensor<ui8>, tensor<5x?xui8>) -> tensor<5x?xui8>
  return
}
func.func @pow(%x: tensor<2x3xf32>, %y: tensor<i64>, %n: tensor<4xi32>) {
  %0 = "graph.pow"(%x, %y) : (tensor<2x3xf32>, tensor<i64>) -> tensor<2x3xf32>
  %1 = "graph.pow"(%n, %y) : (tensor<4xi32>, tensor<i64>) -> tensor<4xi32>
  return
}
func.func @float_unary(%x: tensor<2x?xf32>, %h: tensor<8xf16>, %d: tensor<f64>, %bf: tensor<1x1xbf16>) {
  %0 = "graph.sqrt"(%x) : (tensor<2x?xf32>) -> tensor<2x?xf32>
  %1 = "graph.reciprocal"(%h) : (tensor<8xf16>) -> tensor<8xf16>
  %2 = "graph.exp"(%d) : (tensor<f64>) -> tensor<f64>
  %3 = "graph.log"(%bf) : (tensor<1x1xbf16>) -> tensor<1x1xbf16>
  %4 = "graph.tanh"(%x) : (tensor<2x?xf32>) -> tensor<2x?xf32>
  %5 = "graph.sigmoid"(%x) : (tensor<2x?xf32>) -> tensor<2x?xf32>
  %6 = "graph.floor"(%h) : (tensor<8xf16>) -> tensor<8xf16>
  %7 = "graph.ceil"(%d) : (tensor<f64>) -> tensor<f64>
  %8 = "graph.round"(%x) : (tensor<2x?xf32>) -> tensor<2x?xf32>
  return
}
