
// One case per error the nn ops report: IRDL's structural checks and the
// op table's attribute kinds first, then every shape, element-type and
// attribute-value rule of the nn inference functions (ops_nn.c).

func.func @negative_conv_missing_weight(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+1 {{expects at least 2 operands, but got 1}}
  %0 = "graph.conv"(%x) : (tensor<1x3x8x8xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @negative_max_pool_without_kernel_shape(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+1 {{attribute "kernel_shape" is expected but not provided}}
  %0 = "graph.max_pool"(%x) : (tensor<1x3x8x8xf32>) -> tensor<1x3x8x8xf32>
  return
}

// -----

func.func @negative_max_pool_three_results(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+1 {{expects at most 2 results, but got 3}}
  %0:3 = "graph.max_pool"(%x) {kernel_shape = array<i64: 1, 1>} : (tensor<1x3x8x8xf32>) -> (tensor<1x3x8x8xf32>, tensor<1x3x8x8xf32>, tensor<1x3x8x8xf32>)
  return
}

// -----

func.func @negative_batch_norm_four_operands(%x: tensor<2x3xf32>, %s: tensor<3xf32>) {
  // expected-error @+1 {{expects exactly 5 operands, but got 4}}
  %0 = "graph.batch_norm"(%x, %s, %s, %s) : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return
}

// -----
