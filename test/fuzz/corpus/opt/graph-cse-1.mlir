func.func @nested_region(%a: tensor<2xf32>, %p: i1) -> tensor<2xf32> {
  %0 = "graph.relu"(%a) : (tensor<2xf32>) -> tensor<2xf32>
  %r = scf.execute_region -> tensor<2xf32> {
    %1 = "graph.relu"(%a) : (tensor<2xf32>) -> tensor<2xf32>
    %2 = "graph.neg"(%1) : (tensor<2xf32>) -> tensor<2xf32>
    %3 = "graph.neg"(%0) : (tensor<2xf32>) -> tensor<2xf32>
    %i = scf.if %p -> tensor<2xf32> {
      %4 = "graph.relu"(%a) : (tensor<2xf32>) -> tensor<2xf32>
      %5 = "graph.mul"(%4, %3) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
      scf.yield %5 : tensor<2xf32>
    } else {
      %6 = "graph.relu"(%a) : (tensor<2xf32>) -> tensor<2xf32>
      scf.yield %6 : tensor<2xf32>
    }
    %7 = "graph.add"(%i, %2) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    scf.yield %7 : tensor<2xf32>
  }
  return %r : tensor<2xf32>
}
func.func @negative_operands(%a: tensor<2xf32>, %b: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) {
  %0 = "graph.add"(%a, %b) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %1 = "graph.add"(%b, %a) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %2 = "graph.add"(%a, %a) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %0, %1, %2 : tensor<2xf32>, tensor<2xf32>, tensor<2xf32>
}
