func.func @upstream(%a: tensor<4xf32>, %i: index, %c: i1) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %f = arith.constant dense<2.0> : tensor<4xf32>
  %0 = arith.addf %a, %f : tensor<4xf32>
  %1 = "graph.relu"(%0) : (tensor<4xf32>) -> tensor<4xf32>
  %2 = scf.if %c -> (tensor<4xf32>) {
    %3 = "graph.exp"(%1) : (tensor<4xf32>) -> tensor<4xf32>
    scf.yield %3 : tensor<4xf32>
  } else {
    scf.yield %1 : tensor<4xf32>
  }
  %e = tensor.extract %2[%c0] : tensor<4xf32>
  %s = tensor.splat %e : tensor<4xf32>
  return %s : tensor<4xf32>
}
