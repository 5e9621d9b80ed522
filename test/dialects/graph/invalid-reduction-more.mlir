// RUN: kiln-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(func.func(graph-verify))'

// One case per user-facing error of the reduction-family ops in
// reduction-more.mlir: IRDL's own checks and each rule of their inference
// functions (ops_reduction.c, ops_reduction_loss.c, ops_reduction_einsum.c).

// IRDL: einsum requires its equation.
func.func @negative_irdl_einsum_equation(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{attribute "equation" is expected but not provided}}
  %0 = "graph.einsum"(%a) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

// IRDL: top_k has two results.
func.func @negative_irdl_top_k_results(%a: tensor<2x3xf32>, %k: tensor<1xi64>) {
  // expected-error @+1 {{op expects exactly 2 results, but got 1}}
  %0 = "graph.top_k"(%a, %k) : (tensor<2x3xf32>, tensor<1xi64>) -> tensor<2x?xf32>
  return
}

// -----

// IRDL: einsum takes at most two operands.
func.func @negative_irdl_einsum_three(%a: tensor<2xf32>) {
  // expected-error @+1 {{op expects at most 2 operands, but got 3}}
  %0 = "graph.einsum"(%a, %a, %a) {equation = "i,i,i"} : (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<f32>
  return
}

// -----

// ReduceX
func.func @negative_reduce_l1_bool(%a: tensor<2x3xi1>) {
  // expected-error @+1 {{'graph.reduce_l1' op operand 'data' has element type i1, expected one of f16, bf16, f32, f64, i32, i64}}
  %0 = "graph.reduce_l1"(%a) : (tensor<2x3xi1>) -> tensor<1x1xi1>
  return
}

// -----

func.func @negative_reduce_log_sum_exp_axes(%a: tensor<2x3xf32>) {
  %axes = "graph.constant"() {value = dense<[0, -2]> : tensor<2xi64>} : () -> tensor<2xi64>
  // expected-error @+1 {{'graph.reduce_log_sum_exp' op 'axes' refers to dimension 0 more than once}}
  %0 = "graph.reduce_log_sum_exp"(%a, %axes) : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<1x3xf32>
  return
}

// -----

func.func @negative_reduce_sum_square_noop_flag(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{'graph.reduce_sum_square' op attribute 'noop_with_empty_axes' must be 0 or 1, got 2}}
  %0 = "graph.reduce_sum_square"(%a) {noop_with_empty_axes = 2 : i64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @negative_reduce_log_sum_type(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{'graph.reduce_log_sum' op result #0 has type tensor<2x3xf32>, but its operands and attributes imply tensor<1x1xf32>}}
  %0 = "graph.reduce_log_sum"(%a) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

// Hardmax
func.func @negative_hardmax_int(%a: tensor<2x3xi32>) {
  // expected-error @+1 {{'graph.hardmax' op operand 'input' has element type i32, expected one of f16, bf16, f32, f64}}
  %0 = "graph.hardmax"(%a) : (tensor<2x3xi32>) -> tensor<2x3xi32>
  return
}

// -----

func.func @negative_hardmax_axis(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{'graph.hardmax' op axis -3 is out of range for rank 2}}
  %0 = "graph.hardmax"(%a) {axis = -3 : i64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

// CumSum
func.func @negative_cum_sum_bool(%a: tensor<3xi1>, %ax: tensor<i64>) {
  // expected-error @+1 {{'graph.cum_sum' op operand 'x' has element type i1, expected one of f16, bf16, f32, f64, i32, i64}}
  %0 = "graph.cum_sum"(%a, %ax) : (tensor<3xi1>, tensor<i64>) -> tensor<3xi1>
  return
}

// -----

func.func @negative_cum_sum_axis_type(%a: tensor<3xf32>, %ax: tensor<f32>) {
  // expected-error @+1 {{'graph.cum_sum' op operand 'axis' has element type f32, expected one of i32, i64}}
  %0 = "graph.cum_sum"(%a, %ax) : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
  return
}

// -----

func.func @negative_cum_sum_axis_shape(%a: tensor<3xf32>, %ax: tensor<2xi64>) {
  // expected-error @+1 {{'graph.cum_sum' op operand 'axis' must be a scalar or a 1-element 1-D tensor, got tensor<2xi64>}}
  %0 = "graph.cum_sum"(%a, %ax) : (tensor<3xf32>, tensor<2xi64>) -> tensor<3xf32>
  return
}

// -----

func.func @negative_cum_sum_axis_range(%a: tensor<2x3xf32>) {
  %ax = "graph.constant"() {value = dense<2> : tensor<i64>} : () -> tensor<i64>
  // expected-error @+1 {{'graph.cum_sum' op axis 2 is out of range for rank 2}}
  %0 = "graph.cum_sum"(%a, %ax) : (tensor<2x3xf32>, tensor<i64>) -> tensor<2x3xf32>
  return
}

// -----

func.func @negative_cum_sum_flag(%a: tensor<3xf32>, %ax: tensor<i64>) {
  // expected-error @+1 {{'graph.cum_sum' op attribute 'exclusive' must be 0 or 1, got -1}}
  %0 = "graph.cum_sum"(%a, %ax) {exclusive = -1 : i64} : (tensor<3xf32>, tensor<i64>) -> tensor<3xf32>
  return
}

// -----

// TopK
func.func @negative_top_k_bool(%a: tensor<2x3xi1>, %k: tensor<1xi64>) {
  // expected-error @+1 {{'graph.top_k' op operand 'x' has element type i1, expected one of f16, bf16, f32, f64, i8, i16, i32, i64}}
  %0:2 = "graph.top_k"(%a, %k) : (tensor<2x3xi1>, tensor<1xi64>) -> (tensor<2x?xi1>, tensor<2x?xi64>)
  return
}

// -----

func.func @negative_top_k_k_type(%a: tensor<2x3xf32>, %k: tensor<1xi32>) {
  // expected-error @+1 {{'graph.top_k' op operand 'k' has element type i32, expected i64}}
  %0:2 = "graph.top_k"(%a, %k) : (tensor<2x3xf32>, tensor<1xi32>) -> (tensor<2x?xf32>, tensor<2x?xi64>)
  return
}

// -----

func.func @negative_top_k_k_shape(%a: tensor<2x3xf32>, %k: tensor<i64>) {
  // expected-error @+1 {{'graph.top_k' op operand 'k' must be a 1-D tensor of one element, got tensor<i64>}}
  %0:2 = "graph.top_k"(%a, %k) : (tensor<2x3xf32>, tensor<i64>) -> (tensor<2x?xf32>, tensor<2x?xi64>)
  return
}

// -----

func.func @negative_top_k_negative_k(%a: tensor<2x3xf32>) {
  %k = "graph.constant"() {value = dense<-1> : tensor<1xi64>} : () -> tensor<1xi64>
  // expected-error @+1 {{'graph.top_k' op 'k' must be non-negative, got -1}}
  %0:2 = "graph.top_k"(%a, %k) : (tensor<2x3xf32>, tensor<1xi64>) -> (tensor<2x?xf32>, tensor<2x?xi64>)
  return
}

// -----

func.func @negative_top_k_large_k(%a: tensor<2x3xf32>) {
  %k = "graph.constant"() {value = dense<4> : tensor<1xi64>} : () -> tensor<1xi64>
  // expected-error @+1 {{'graph.top_k' op 'k' (4) exceeds the size 3 of the axis it selects along}}
  %0:2 = "graph.top_k"(%a, %k) : (tensor<2x3xf32>, tensor<1xi64>) -> (tensor<2x4xf32>, tensor<2x4xi64>)
  return
}

// -----

func.func @negative_top_k_axis(%a: tensor<2x3xf32>, %k: tensor<1xi64>) {
  // expected-error @+1 {{'graph.top_k' op axis 2 is out of range for rank 2}}
  %0:2 = "graph.top_k"(%a, %k) {axis = 2 : i64} : (tensor<2x3xf32>, tensor<1xi64>) -> (tensor<2x?xf32>, tensor<2x?xi64>)
  return
}

// -----

func.func @negative_top_k_sorted_flag(%a: tensor<2x3xf32>, %k: tensor<1xi64>) {
  // expected-error @+1 {{'graph.top_k' op attribute 'sorted' must be 0 or 1, got 3}}
  %0:2 = "graph.top_k"(%a, %k) {sorted = 3 : i64} : (tensor<2x3xf32>, tensor<1xi64>) -> (tensor<2x?xf32>, tensor<2x?xi64>)
  return
}

// -----

// NegativeLogLikelihoodLoss, SoftmaxCrossEntropyLoss
func.func @negative_nll_int_input(%a: tensor<3x5xi32>, %t: tensor<3xi64>) {
  // expected-error @+1 {{'graph.negative_log_likelihood_loss' op operand 'input' has element type i32, expected one of f16, bf16, f32, f64}}
  %0 = "graph.negative_log_likelihood_loss"(%a, %t) : (tensor<3x5xi32>, tensor<3xi64>) -> tensor<i32>
  return
}

// -----

func.func @negative_nll_rank(%a: tensor<5xf32>, %t: tensor<i64>) {
  // expected-error @+1 {{'graph.negative_log_likelihood_loss' op operand 'input' must have rank >= 2 ([N, C] or [N, C, d1, ...]), got rank 1}}
  %0 = "graph.negative_log_likelihood_loss"(%a, %t) : (tensor<5xf32>, tensor<i64>) -> tensor<f32>
  return
}

// -----

func.func @negative_nll_target_type(%a: tensor<3x5xf32>, %t: tensor<3xf32>) {
  // expected-error @+1 {{'graph.negative_log_likelihood_loss' op operand 'target' has element type f32, expected one of i32, i64}}
  %0 = "graph.negative_log_likelihood_loss"(%a, %t) : (tensor<3x5xf32>, tensor<3xf32>) -> tensor<f32>
  return
}

// -----

func.func @negative_nll_target_rank(%a: tensor<3x5x2xf32>, %t: tensor<3xi64>) {
  // expected-error @+1 {{'graph.negative_log_likelihood_loss' op operand 'target' must have rank 2 (one less than 'input'), got rank 1}}
  %0 = "graph.negative_log_likelihood_loss"(%a, %t) : (tensor<3x5x2xf32>, tensor<3xi64>) -> tensor<f32>
  return
}

// -----

func.func @negative_nll_target_dim(%a: tensor<3x5x2xf32>, %t: tensor<3x4xi64>) {
  // expected-error @+1 {{'graph.negative_log_likelihood_loss' op operand 'target' dim 1 is 4 but 'input' dim 2 is 2}}
  %0 = "graph.negative_log_likelihood_loss"(%a, %t) : (tensor<3x5x2xf32>, tensor<3x4xi64>) -> tensor<f32>
  return
}

// -----

func.func @negative_nll_weight_type(%a: tensor<3x5xf32>, %t: tensor<3xi64>, %w: tensor<5xf64>) {
  // expected-error @+1 {{'graph.negative_log_likelihood_loss' op operands 'input' and 'weight' must have the same element type, got f32 and f64}}
  %0 = "graph.negative_log_likelihood_loss"(%a, %t, %w) : (tensor<3x5xf32>, tensor<3xi64>, tensor<5xf64>) -> tensor<f32>
  return
}

// -----

func.func @negative_nll_weight_rank(%a: tensor<3x5xf32>, %t: tensor<3xi64>, %w: tensor<1x5xf32>) {
  // expected-error @+1 {{'graph.negative_log_likelihood_loss' op operand 'weight' must be 1-D, got rank 2}}
  %0 = "graph.negative_log_likelihood_loss"(%a, %t, %w) : (tensor<3x5xf32>, tensor<3xi64>, tensor<1x5xf32>) -> tensor<f32>
  return
}

// -----

func.func @negative_sce_weight_size(%a: tensor<3x5xf32>, %t: tensor<3xi64>, %w: tensor<4xf32>) {
  // expected-error @+1 {{'graph.softmax_cross_entropy_loss' op operand 'weights' has 4 values but 'scores' has 5 classes (dim 1)}}
  %0 = "graph.softmax_cross_entropy_loss"(%a, %t, %w) : (tensor<3x5xf32>, tensor<3xi64>, tensor<4xf32>) -> tensor<f32>
  return
}

// -----

func.func @negative_sce_reduction(%a: tensor<3x5xf32>, %t: tensor<3xi64>) {
  // expected-error @+1 {{'graph.softmax_cross_entropy_loss' op attribute 'reduction' must be "none", "sum" or "mean", got "max"}}
  %0 = "graph.softmax_cross_entropy_loss"(%a, %t) {reduction = "max"} : (tensor<3x5xf32>, tensor<3xi64>) -> tensor<f32>
  return
}

// -----

func.func @negative_sce_log_prob_type(%a: tensor<3x5xf32>, %t: tensor<3xi64>) {
  // expected-error @+1 {{'graph.softmax_cross_entropy_loss' op result #1 has type tensor<3xf32>, but its operands and attributes imply tensor<3x5xf32>}}
  %0:2 = "graph.softmax_cross_entropy_loss"(%a, %t) : (tensor<3x5xf32>, tensor<3xi64>) -> (tensor<f32>, tensor<3xf32>)
  return
}

// -----

func.func @negative_sce_ignore_index_kind(%a: tensor<3x5xf32>, %t: tensor<3xi64>) {
  // expected-error @+1 {{'graph.softmax_cross_entropy_loss' op attribute 'ignore_index' must be an i64 integer attribute, got 1.000000e+00 : f32}}
  %0 = "graph.softmax_cross_entropy_loss"(%a, %t) {ignore_index = 1.0 : f32} : (tensor<3x5xf32>, tensor<3xi64>) -> tensor<f32>
  return
}

// -----

// Einsum
func.func @negative_einsum_bool(%a: tensor<2xi1>) {
  // expected-error @+1 {{'graph.einsum' op operand 'a' has element type i1, expected one of f16, bf16, f32, f64, i8, i16, i32, i64}}
  %0 = "graph.einsum"(%a) {equation = "i"} : (tensor<2xi1>) -> tensor<2xi1>
  return
}

// -----

func.func @negative_einsum_bf16(%a: tensor<2xbf16>) {
  // expected-error @+1 {{'graph.einsum' op operand 'a' has element type bf16, expected one of f16, f32, f64, i8, i16, i32, i64}}
  %0 = "graph.einsum"(%a) {equation = "i"} : (tensor<2xbf16>) -> tensor<2xbf16>
  return
}

// -----

func.func @negative_einsum_types(%a: tensor<2xf32>, %b: tensor<2xf64>) {
  // expected-error @+1 {{'graph.einsum' op operands 'a' and 'b' must have the same element type, got f32 and f64}}
  %0 = "graph.einsum"(%a, %b) {equation = "i,i"} : (tensor<2xf32>, tensor<2xf64>) -> tensor<f32>
  return
}

// -----

func.func @negative_einsum_char(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{'graph.einsum' op equation term 'i1' has the invalid character '1' (subscripts are letters a-z, A-Z)}}
  %0 = "graph.einsum"(%a) {equation = "i1"} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @negative_einsum_dot(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{'graph.einsum' op equation term '..ij': '.' must be part of an ellipsis '...'}}
  %0 = "graph.einsum"(%a) {equation = "..ij"} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @negative_einsum_two_ellipses(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{'graph.einsum' op equation term '...i...' has more than one ellipsis '...'}}
  %0 = "graph.einsum"(%a) {equation = "...i..."} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @negative_einsum_output_comma(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{'graph.einsum' op equation "ij->i,j": the output term after '->' may not contain ',' or another '->'}}
  %0 = "graph.einsum"(%a) {equation = "ij->i,j"} : (tensor<2x3xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @negative_einsum_three_terms(%a: tensor<2xf32>, %b: tensor<2xf32>) {
  // expected-error @+1 {{'graph.einsum' op equation "i,i,i" has more than 2 input terms; Kiln's einsum takes one or two operands}}
  %0 = "graph.einsum"(%a, %b) {equation = "i,i,i"} : (tensor<2xf32>, tensor<2xf32>) -> tensor<f32>
  return
}

// -----

func.func @negative_einsum_term_count(%a: tensor<2xf32>) {
  // expected-error @+1 {{'graph.einsum' op equation "i,i" has 2 input terms but the op has 1 operand}}
  %0 = "graph.einsum"(%a) {equation = "i,i"} : (tensor<2xf32>) -> tensor<f32>
  return
}

// -----

func.func @negative_einsum_rank(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{'graph.einsum' op equation term 'ijk' has 3 subscripts but operand 'a' has rank 2}}
  %0 = "graph.einsum"(%a) {equation = "ijk"} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @negative_einsum_rank_ellipsis(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{'graph.einsum' op equation term '...ijk' has 3 subscripts besides '...' but operand 'a' has rank 2}}
  %0 = "graph.einsum"(%a) {equation = "...ijk"} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @negative_einsum_diagonal(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{'graph.einsum' op subscript 'i' repeats in term 'ii' (a diagonal) over dims of different sizes, 2 and 3}}
  %0 = "graph.einsum"(%a) {equation = "ii->i"} : (tensor<2x3xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @negative_einsum_label_size(%a: tensor<2x3xf32>, %b: tensor<4x5xf32>) {
  // expected-error @+1 {{'graph.einsum' op subscript 'j' has size 4 in operand 'b' but 3 in an earlier operand}}
  %0 = "graph.einsum"(%a, %b) {equation = "ij,jk"} : (tensor<2x3xf32>, tensor<4x5xf32>) -> tensor<2x5xf32>
  return
}

// -----

func.func @negative_einsum_ellipsis_broadcast(%a: tensor<2x3xf32>, %b: tensor<4x3xf32>) {
  // expected-error @+1 {{'graph.einsum' op the dims under '...' do not broadcast: 2 vs 4 (dim 0 of the broadcast '...')}}
  %0 = "graph.einsum"(%a, %b) {equation = "...i,...i"} : (tensor<2x3xf32>, tensor<4x3xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @negative_einsum_output_unknown(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{'graph.einsum' op output subscript 'k' does not occur in an input term}}
  %0 = "graph.einsum"(%a) {equation = "ij->k"} : (tensor<2x3xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @negative_einsum_output_repeat(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{'graph.einsum' op output subscript 'i' occurs more than once}}
  %0 = "graph.einsum"(%a) {equation = "ij->ii"} : (tensor<2x3xf32>) -> tensor<2x2xf32>
  return
}

// -----

func.func @negative_einsum_output_no_ellipsis(%a: tensor<5x2x3xf32>) {
  // expected-error @+1 {{'graph.einsum' op the inputs' '...' covers 1 dim but the output term 'ij' has no '...'}}
  %0 = "graph.einsum"(%a) {equation = "...ij->ij"} : (tensor<5x2x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @negative_einsum_wrong_result(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{'graph.einsum' op result #0 has type tensor<2x3xf32>, but its operands and attributes imply tensor<3x2xf32>}}
  %0 = "graph.einsum"(%a) {equation = "ij->ji"} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

// Det
func.func @negative_det_int(%a: tensor<2x2xi32>) {
  // expected-error @+1 {{'graph.det' op operand 'x' has element type i32, expected one of f16, bf16, f32, f64}}
  %0 = "graph.det"(%a) : (tensor<2x2xi32>) -> tensor<i32>
  return
}

// -----

func.func @negative_det_rank(%a: tensor<4xf32>) {
  // expected-error @+1 {{'graph.det' op operand 'x' must have rank >= 2 (square matrices in the last two dims), got rank 1}}
  %0 = "graph.det"(%a) : (tensor<4xf32>) -> tensor<f32>
  return
}

// -----

func.func @negative_det_square(%a: tensor<5x2x3xf32>) {
  // expected-error @+1 {{'graph.det' op operand 'x' must hold square matrices, got 2 x 3 in its last two dims}}
  %0 = "graph.det"(%a) : (tensor<5x2x3xf32>) -> tensor<5xf32>
  return
}
