func.func @fused(%x: tensor<2x3xf32>, %y: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = scf.execute_region -> tensor<2x3xf32> no_inline {
    %1 = "graph.add"(%x, %y) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %2 = "graph.relu"(%1) : (tensor<2x3xf32>) -> tensor<2x3xf32>
    scf.yield %2 : tensor<2x3xf32>
  } {kiln.fusion = "add_relu"}
  %3 = "graph.add"(%x, %y) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %4 = "graph.mul"(%0, %3) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %4 : tensor<2x3xf32>
}
func.func private @decl(tensor<?xf32>) -> tensor<?xf32>
func.func @call(%a: tensor<?xf32>) -> tensor<?xf32> {
  %0 = call @decl(%a) : (tensor<?xf32>) -> tensor<?xf32>
  %1 = "graph.sigmoid"(%0) : (tensor<?xf32>) -> tensor<?xf32>
  return %1 : tensor<?xf32>
}
