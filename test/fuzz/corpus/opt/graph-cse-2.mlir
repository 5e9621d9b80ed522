func.func @negative_attributes(%a: tensor<2x2x2xf32>) -> (tensor<2xf32>, tensor<2xf32>, tensor<2x2x2xf32>, tensor<2x2x2xf32>, tensor<2x2x2xf32>) {
  %0 = "graph.constant"() {value = dense<1.0> : tensor<2xf32>} : () -> tensor<2xf32>
  %1 = "graph.constant"() {value = dense<2.0> : tensor<2xf32>} : () -> tensor<2xf32>
  %2 = "graph.transpose"(%a) {perm = array<i64: 1, 0, 2>} : (tensor<2x2x2xf32>) -> tensor<2x2x2xf32>
  %3 = "graph.transpose"(%a) {perm = array<i64: 0, 2, 1>} : (tensor<2x2x2xf32>) -> tensor<2x2x2xf32>
  %4 = "graph.transpose"(%a) {kiln.tag, perm = array<i64: 0, 2, 1>} : (tensor<2x2x2xf32>) -> tensor<2x2x2xf32>
  return %0, %1, %2, %3, %4 : tensor<2xf32>, tensor<2xf32>, tensor<2x2x2xf32>, tensor<2x2x2xf32>, tensor<2x2x2xf32>
}
func.func @negative_result_types(%a: tensor<?xf32>) -> (tensor<2xf32>, tensor<?xf32>) {
  %0 = "graph.relu"(%a) : (tensor<?xf32>) -> tensor<2xf32>
  %1 = "graph.relu"(%a) : (tensor<?xf32>) -> tensor<?xf32>
  return %0, %1 : tensor<2xf32>, tensor<?xf32>
}
func.func @negative_non_graph(%a: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>) {
  %0 = arith.addf %a, %a : tensor<2xf32>
  %1 = arith.addf %a, %a : tensor<2xf32>
  return %0, %1 : tensor<2xf32>, tensor<2xf32>
}
func.func @negative_sibling_regions(%a: tensor<2xf32>, %p: i1) -> tensor<2xf32> {
  %r = scf.if %p -> tensor<2xf32> {
    %0 = "graph.exp"(%a) : (tensor<2xf32>) -> tensor<2xf32>
    scf.yield %0 : tensor<2xf32>
  } else {
    %1 = "graph.exp"(%a) : (tensor<2xf32>) -> tensor<2xf32>
    scf.yield %1 : tensor<2xf32>
  }
  return %r : tensor<2xf32>
}
