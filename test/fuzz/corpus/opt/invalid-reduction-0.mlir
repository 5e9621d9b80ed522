func.func @negative_irdl_reduce_operand_count(%a: tensor<2x3xf32>, %x: tensor<1xi64>) {
  %0 = "graph.reduce_sum"(%a, %x, %x) : (tensor<2x3xf32>, tensor<1xi64>, tensor<1xi64>) -> tensor<1x1xf32>
  return
}
func.func @negative_attr_kind_axis(%a: tensor<2x3xf32>) {
  %0 = "graph.softmax"(%a) {axis = 1 : i32} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}
func.func @negative_result_mismatch_matmul(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) {
  %0 = "graph.matmul"(%a, %b) : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x5xf32>
  return
}
func.func @negative_matmul_mixed_types(%a: tensor<2x3xf32>, %b: tensor<3x4xf16>) {
  %0 = "graph.matmul"(%a, %b) : (tensor<2x3xf32>, tensor<3x4xf16>) -> tensor<2x4xf32>
  return
}
func.func @negative_matmul_batch(%a: tensor<5x2x2x3xf32>, %b: tensor<3x3x4xf32>) {
  %0 = "graph.matmul"(%a, %b) : (tensor<5x2x2x3xf32>, tensor<3x3x4xf32>) -> tensor<5x3x2x4xf32>
  return
}
func.func @negative_gemm_element_type(%a: tensor<2x3xi1>, %b: tensor<3x4xi1>) {
  %0 = "graph.gemm"(%a, %b) : (tensor<2x3xi1>, tensor<3x4xi1>) -> tensor<2x4xi1>
  return
}
func.func @negative_gemm_c_rank(%a: tensor<?x3xf32>, %b: tensor<3x4xf32>, %c: tensor<1x2x4xf32>) {
  %0 = "graph.gemm"(%a, %b, %c) : (tensor<?x3xf32>, tensor<3x4xf32>, tensor<1x2x4xf32>) -> tensor<?x4xf32>
  return
}
func.func @negative_log_softmax_axis(%a: tensor<2x3xf32>) {
  %0 = "graph.log_softmax"(%a) {axis = -3 : i64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}
