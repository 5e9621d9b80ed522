func.func @negative_not_dominating(%a: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) {
  %r:2 = scf.execute_region -> (tensor<2xf32>, tensor<2xf32>) {
    %0 = "graph.exp"(%a) : (tensor<2xf32>) -> tensor<2xf32>
    %1 = "graph.neg"(%a) : (tensor<2xf32>) -> tensor<2xf32>
    scf.yield %0, %1 : tensor<2xf32>, tensor<2xf32>
  }
  %2 = "graph.exp"(%a) : (tensor<2xf32>) -> tensor<2xf32>
  %3 = "graph.neg"(%a) : (tensor<2xf32>) -> tensor<2xf32>
  %4 = "graph.add"(%2, %3) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %r#0, %r#1, %4 : tensor<2xf32>, tensor<2xf32>, tensor<2xf32>
}
func.func @negative_isolated() -> tensor<2xf32> {
  %0 = "graph.constant"() {value = dense<3.0> : tensor<2xf32>} : () -> tensor<2xf32>
  %1 = "graph.constant"() {value = dense<3.0> : tensor<2xf32>} : () -> tensor<2xf32>
  %2 = "graph.add"(%0, %1) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %2 : tensor<2xf32>
}
