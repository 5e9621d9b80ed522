
// One case per user-facing error of the reduction family: IRDL's own
// checks, the op table's attribute kinds, and each rule of the inference
// functions in dialects/graph/ops_reduction.c.

// IRDL: matmul takes two operands.
func.func @negative_irdl_matmul_operand_count(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{op expects exactly 2 operands, but got 1}}
  %0 = "graph.matmul"(%a) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

// IRDL: reduce ops take data and at most one axes operand.
func.func @negative_irdl_reduce_operand_count(%a: tensor<2x3xf32>, %x: tensor<1xi64>) {
  // expected-error @+1 {{op expects at most 2 operands, but got 3}}
  %0 = "graph.reduce_sum"(%a, %x, %x) : (tensor<2x3xf32>, tensor<1xi64>, tensor<1xi64>) -> tensor<1x1xf32>
  return
}

// -----

// IRDL: one result.
func.func @negative_irdl_result_count(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{op expects exactly 1 results, but got 2}}
  %0:2 = "graph.argmax"(%a) : (tensor<2x3xf32>) -> (tensor<1x3xi64>, tensor<1x3xi64>)
  return
}

// -----

// IRDL: operands are ranked tensors.
func.func @negative_irdl_unranked(%a: tensor<*xf32>) {
  // expected-error @+1 {{expected base type 'builtin.tensor' but got 'builtin.unranked_tensor'}}
  %0 = "graph.softmax"(%a) : (tensor<*xf32>) -> tensor<2xf32>
  return
}

// -----
