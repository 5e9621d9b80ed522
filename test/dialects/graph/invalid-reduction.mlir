// RUN: kiln-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(func.func(graph-verify))'

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

// Attribute kinds come from the op table.
func.func @negative_attr_kind_axis(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{'graph.softmax' op attribute 'axis' must be an i64 integer attribute, got 1 : i32}}
  %0 = "graph.softmax"(%a) {axis = 1 : i32} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @negative_attr_kind_alpha(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) {
  // expected-error @+1 {{'graph.gemm' op attribute 'alpha' must be an f32 float attribute, got 2.000000e+00 : f64}}
  %0 = "graph.gemm"(%a, %b) {alpha = 2.0 : f64} : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  return
}

// -----

func.func @negative_attr_unknown(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{'graph.reduce_mean' op has unknown attribute 'axes'}}
  %0 = "graph.reduce_mean"(%a) {axes = array<i64: 0>} : (tensor<2x3xf32>) -> tensor<1x3xf32>
  return
}

// -----

// The declared result type must match the inferred one.
func.func @negative_result_mismatch_matmul(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) {
  // expected-error @+1 {{'graph.matmul' op result #0 has type tensor<2x5xf32>, but its operands and attributes imply tensor<2x4xf32>}}
  %0 = "graph.matmul"(%a, %b) : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x5xf32>
  return
}

// -----

func.func @negative_result_mismatch_argmax(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{'graph.argmax' op result #0 has type tensor<1x3xf32>, but its operands and attributes imply tensor<1x3xi64>}}
  %0 = "graph.argmax"(%a) : (tensor<2x3xf32>) -> tensor<1x3xf32>
  return
}

// -----

// MatMul
func.func @negative_matmul_element_type(%a: tensor<2x3xi8>, %b: tensor<3x4xi8>) {
  // expected-error @+1 {{'graph.matmul' op operand 'a' has element type i8, expected one of f16, bf16, f32, f64, i32, i64}}
  %0 = "graph.matmul"(%a, %b) : (tensor<2x3xi8>, tensor<3x4xi8>) -> tensor<2x4xi8>
  return
}

// -----

func.func @negative_matmul_mixed_types(%a: tensor<2x3xf32>, %b: tensor<3x4xf16>) {
  // expected-error @+1 {{'graph.matmul' op operands 'a' and 'b' must have the same element type, got f32 and f16}}
  %0 = "graph.matmul"(%a, %b) : (tensor<2x3xf32>, tensor<3x4xf16>) -> tensor<2x4xf32>
  return
}

// -----

func.func @negative_matmul_scalar(%a: tensor<2x3xf32>, %b: tensor<f32>) {
  // expected-error @+1 {{'graph.matmul' op operand 'b' must have rank >= 1, got rank 0}}
  %0 = "graph.matmul"(%a, %b) : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @negative_matmul_contraction(%a: tensor<2x3xf32>, %b: tensor<4xf32>) {
  // expected-error @+1 {{'graph.matmul' op contraction dimensions differ: 'a' has 3 columns (dim 1) but 'b' has 4 rows (dim 0)}}
  %0 = "graph.matmul"(%a, %b) : (tensor<2x3xf32>, tensor<4xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @negative_matmul_batch(%a: tensor<5x2x2x3xf32>, %b: tensor<3x3x4xf32>) {
  // expected-error @+1 {{'graph.matmul' op batch dimensions are not broadcast-compatible: 2 in 'a' vs 3 in 'b' (batch dim 1)}}
  %0 = "graph.matmul"(%a, %b) : (tensor<5x2x2x3xf32>, tensor<3x3x4xf32>) -> tensor<5x3x2x4xf32>
  return
}

// -----

// Gemm
func.func @negative_gemm_rank(%a: tensor<2x3xf32>, %b: tensor<3xf32>) {
  // expected-error @+1 {{'graph.gemm' op operand 'b' must have rank 2, got rank 1}}
  %0 = "graph.gemm"(%a, %b) : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @negative_gemm_c_type(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>, %c: tensor<4xf64>) {
  // expected-error @+1 {{'graph.gemm' op operands 'a' and 'c' must have the same element type, got f32 and f64}}
  %0 = "graph.gemm"(%a, %b, %c) : (tensor<2x3xf32>, tensor<3x4xf32>, tensor<4xf64>) -> tensor<2x4xf32>
  return
}

// -----

func.func @negative_gemm_element_type(%a: tensor<2x3xi1>, %b: tensor<3x4xi1>) {
  // expected-error @+1 {{'graph.gemm' op operand 'a' has element type i1, expected one of f16, bf16, f32, f64, i32, i64}}
  %0 = "graph.gemm"(%a, %b) : (tensor<2x3xi1>, tensor<3x4xi1>) -> tensor<2x4xi1>
  return
}

// -----

func.func @negative_gemm_contraction(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) {
  // expected-error @+1 {{'graph.gemm' op contraction dimensions differ: K is 2 for 'a' (transA = 1) but 3 for 'b' (transB = 0)}}
  %0 = "graph.gemm"(%a, %b) {transA = 1 : i64} : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  return
}

// -----

func.func @negative_gemm_c_shape(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>, %c: tensor<3x4xf32>) {
  // expected-error @+1 {{'graph.gemm' op operand 'c' of type tensor<3x4xf32> is not unidirectionally broadcastable to the result shape [2, 4]}}
  %0 = "graph.gemm"(%a, %b, %c) : (tensor<2x3xf32>, tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  return
}

// -----

func.func @negative_gemm_c_rank(%a: tensor<?x3xf32>, %b: tensor<3x4xf32>, %c: tensor<1x2x4xf32>) {
  // expected-error @+1 {{'graph.gemm' op operand 'c' of type tensor<1x2x4xf32> is not unidirectionally broadcastable to the result shape [?, 4]}}
  %0 = "graph.gemm"(%a, %b, %c) : (tensor<?x3xf32>, tensor<3x4xf32>, tensor<1x2x4xf32>) -> tensor<?x4xf32>
  return
}

// -----

func.func @negative_gemm_trans_flag(%a: tensor<2x3xf32>, %b: tensor<4x3xf32>) {
  // expected-error @+1 {{'graph.gemm' op attribute 'transB' must be 0 or 1, got 2}}
  %0 = "graph.gemm"(%a, %b) {transB = 2 : i64} : (tensor<2x3xf32>, tensor<4x3xf32>) -> tensor<2x4xf32>
  return
}

// -----

// Softmax, LogSoftmax
func.func @negative_softmax_element_type(%a: tensor<2x3xi32>) {
  // expected-error @+1 {{'graph.softmax' op operand 'input' has element type i32, expected one of f16, bf16, f32, f64}}
  %0 = "graph.softmax"(%a) : (tensor<2x3xi32>) -> tensor<2x3xi32>
  return
}

// -----

func.func @negative_log_softmax_axis(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{'graph.log_softmax' op axis -3 is out of range for rank 2}}
  %0 = "graph.log_softmax"(%a) {axis = -3 : i64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @negative_softmax_scalar(%a: tensor<f32>) {
  // expected-error @+1 {{'graph.softmax' op axis -1 is out of range for rank 0}}
  %0 = "graph.softmax"(%a) : (tensor<f32>) -> tensor<f32>
  return
}

// -----

// ReduceX
func.func @negative_reduce_sum_bool(%a: tensor<2x3xi1>) {
  // expected-error @+1 {{'graph.reduce_sum' op operand 'data' has element type i1, expected one of f16, bf16, f32, f64, i32, i64}}
  %0 = "graph.reduce_sum"(%a) : (tensor<2x3xi1>) -> tensor<1x1xi1>
  return
}

// -----

func.func @negative_reduce_max_i16(%a: tensor<2x3xi16>) {
  // expected-error @+1 {{'graph.reduce_max' op operand 'data' has element type i16, expected one of f16, bf16, f32, f64, i1, i8, i32, i64}}
  %0 = "graph.reduce_max"(%a) : (tensor<2x3xi16>) -> tensor<1x1xi16>
  return
}

// -----

func.func @negative_reduce_axes_type(%a: tensor<2x3xf32>, %x: tensor<1xi32>) {
  // expected-error @+1 {{'graph.reduce_mean' op operand 'axes' has element type i32, expected i64}}
  %0 = "graph.reduce_mean"(%a, %x) : (tensor<2x3xf32>, tensor<1xi32>) -> tensor<1x1xf32>
  return
}

// -----

func.func @negative_reduce_axes_rank(%a: tensor<2x3xf32>, %x: tensor<1x1xi64>) {
  // expected-error @+1 {{'graph.reduce_prod' op operand 'axes' must be 1-D, got rank 2}}
  %0 = "graph.reduce_prod"(%a, %x) : (tensor<2x3xf32>, tensor<1x1xi64>) -> tensor<1x1xf32>
  return
}

// -----

func.func @negative_reduce_axes_count(%a: tensor<2x3xf32>, %x: tensor<3xi64>) {
  // expected-error @+1 {{'graph.reduce_l2' op 'axes' has 3 entries but 'data' has rank 2}}
  %0 = "graph.reduce_l2"(%a, %x) : (tensor<2x3xf32>, tensor<3xi64>) -> tensor<?x?xf32>
  return
}

// -----

func.func @negative_reduce_axes_range(%a: tensor<2x3xf32>) {
  %x = "graph.constant"() {value = dense<[2]> : tensor<1xi64>} : () -> tensor<1xi64>
  // expected-error @+1 {{'graph.reduce_min' op axes entry 2 is out of range for rank 2}}
  %0 = "graph.reduce_min"(%a, %x) : (tensor<2x3xf32>, tensor<1xi64>) -> tensor<2x3xf32>
  return
}

// -----

func.func @negative_reduce_axes_duplicate(%a: tensor<2x3xf32>) {
  %x = "graph.constant"() {value = dense<[1, -1]> : tensor<2xi64>} : () -> tensor<2xi64>
  // expected-error @+1 {{'graph.reduce_sum' op 'axes' refers to dimension 1 more than once}}
  %0 = "graph.reduce_sum"(%a, %x) : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<2x1xf32>
  return
}

// -----

func.func @negative_reduce_unknown_rank(%a: tensor<2x3xf32>, %x: tensor<?xi64>) {
  // expected-error @+1 {{'graph.reduce_sum' op result rank is unknown: 'axes' is not a constant and has a dynamic length while keepdims = 0}}
  %0 = "graph.reduce_sum"(%a, %x) {keepdims = 0 : i64} : (tensor<2x3xf32>, tensor<?xi64>) -> tensor<?xf32>
  return
}

// -----

func.func @negative_reduce_keepdims_flag(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{'graph.reduce_mean' op attribute 'keepdims' must be 0 or 1, got 2}}
  %0 = "graph.reduce_mean"(%a) {keepdims = 2 : i64} : (tensor<2x3xf32>) -> tensor<1x1xf32>
  return
}

// -----

func.func @negative_reduce_noop_flag(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{'graph.reduce_max' op attribute 'noop_with_empty_axes' must be 0 or 1, got -1}}
  %0 = "graph.reduce_max"(%a) {noop_with_empty_axes = -1 : i64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @negative_reduce_result_mismatch(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{'graph.reduce_sum' op result #0 has type tensor<2x1xf32>, but its operands and attributes imply tensor<1x1xf32>}}
  %0 = "graph.reduce_sum"(%a) : (tensor<2x3xf32>) -> tensor<2x1xf32>
  return
}

// -----

// ArgMax, ArgMin
func.func @negative_argmax_bool(%a: tensor<2x3xi1>) {
  // expected-error @+1 {{'graph.argmax' op operand 'data' has element type i1, expected one of f16, bf16, f32, f64, i8, i16, i32, i64}}
  %0 = "graph.argmax"(%a) : (tensor<2x3xi1>) -> tensor<1x3xi64>
  return
}

// -----

func.func @negative_argmin_axis(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{'graph.argmin' op axis 2 is out of range for rank 2}}
  %0 = "graph.argmin"(%a) {axis = 2 : i64} : (tensor<2x3xf32>) -> tensor<2x3xi64>
  return
}

// -----

func.func @negative_argmax_scalar(%a: tensor<f32>) {
  // expected-error @+1 {{'graph.argmax' op axis 0 is out of range for rank 0}}
  %0 = "graph.argmax"(%a) : (tensor<f32>) -> tensor<i64>
  return
}

// -----

func.func @negative_argmin_select_flag(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{'graph.argmin' op attribute 'select_last_index' must be 0 or 1, got 5}}
  %0 = "graph.argmin"(%a) {select_last_index = 5 : i64} : (tensor<2x3xf32>) -> tensor<1x3xi64>
  return
}
