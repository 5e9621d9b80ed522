// Every user-facing error of the Tensor-family ops in ops_tensor_data.c and
// ops_tensor_dynamic.c, one per split.
// RUN: kiln-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(func.func(graph-verify))'

func.func @negative_gather_elements_rank(%x: tensor<3x4xf32>, %i: tensor<3xi64>) {
  // expected-error @+1 {{'graph.gather_elements' op operand 'indices' (tensor<3xi64>) must have the rank of 'data' (tensor<3x4xf32>)}}
  %0 = "graph.gather_elements"(%x, %i) : (tensor<3x4xf32>, tensor<3xi64>) -> tensor<3xf32>
  return
}

// -----

func.func @negative_gather_elements_scalar(%x: tensor<f32>, %i: tensor<i64>) {
  // expected-error @+1 {{'graph.gather_elements' op operand 'data' must have rank >= 1, got tensor<f32>}}
  %0 = "graph.gather_elements"(%x, %i) : (tensor<f32>, tensor<i64>) -> tensor<f32>
  return
}

// -----

func.func @negative_gather_elements_index_type(%x: tensor<3x4xf32>, %i: tensor<3x4xf32>) {
  // expected-error @+1 {{'graph.gather_elements' op operand 'indices' must have i32 or i64 elements, got tensor<3x4xf32>}}
  %0 = "graph.gather_elements"(%x, %i) : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  return
}

// -----

func.func @negative_gather_elements_axis(%x: tensor<3x4xf32>, %i: tensor<3x4xi64>) {
  // expected-error @+1 {{'graph.gather_elements' op attribute 'axis'}}
  %0 = "graph.gather_elements"(%x, %i) {axis = 2 : i64} : (tensor<3x4xf32>, tensor<3x4xi64>) -> tensor<3x4xf32>
  return
}

// -----

func.func @negative_gather_elements_index_range(%x: tensor<3x4xf32>) {
  %i = "graph.constant"() {value = dense<[[0], [4]]> : tensor<2x1xi64>} : () -> tensor<2x1xi64>
  // expected-error @+1 {{'graph.gather_elements' op index 4 in operand 'indices' is out of range for a dimension of size 4}}
  %0 = "graph.gather_elements"(%x, %i) {axis = 1 : i64} : (tensor<3x4xf32>, tensor<2x1xi64>) -> tensor<2x1xf32>
  return
}

// -----

// GatherND's indices are i64 only.
func.func @negative_gather_nd_i32(%x: tensor<3x4xf32>, %i: tensor<2x1xi32>) {
  // expected-error @+1 {{'graph.gather_nd' op operand 'indices' must have i64 elements, got tensor<2x1xi32>}}
  %0 = "graph.gather_nd"(%x, %i) : (tensor<3x4xf32>, tensor<2x1xi32>) -> tensor<2x4xf32>
  return
}

// -----

func.func @negative_gather_nd_rank0(%x: tensor<3x4xf32>, %i: tensor<i64>) {
  // expected-error @+1 {{'graph.gather_nd' op operands 'data' (tensor<3x4xf32>) and 'indices' (tensor<i64>) must have rank >= 1}}
  %0 = "graph.gather_nd"(%x, %i) : (tensor<3x4xf32>, tensor<i64>) -> tensor<3x4xf32>
  return
}

// -----

func.func @negative_gather_nd_batch_dims_negative(%x: tensor<3x4xf32>, %i: tensor<3x1xi64>) {
  // expected-error @+1 {{'graph.gather_nd' op attribute 'batch_dims' must be >= 0, got -1}}
  %0 = "graph.gather_nd"(%x, %i) {batch_dims = -1 : i64} : (tensor<3x4xf32>, tensor<3x1xi64>) -> tensor<3xf32>
  return
}

// -----

func.func @negative_gather_nd_batch_dims_large(%x: tensor<3x4xf32>, %i: tensor<3x1xi64>) {
  // expected-error @+1 {{'graph.gather_nd' op attribute 'batch_dims' (2) must be less than the ranks of 'data' (2) and 'indices' (2)}}
  %0 = "graph.gather_nd"(%x, %i) {batch_dims = 2 : i64} : (tensor<3x4xf32>, tensor<3x1xi64>) -> tensor<3xf32>
  return
}

// -----

func.func @negative_gather_nd_tuple_length(%x: tensor<3x4xf32>, %i: tensor<5x3xi64>) {
  // expected-error @+1 {{'graph.gather_nd' op the last dimension of operand 'indices' (tensor<5x3xi64>) must be in [1, 2] (rank of 'data' minus batch_dims), got 3}}
  %0 = "graph.gather_nd"(%x, %i) : (tensor<3x4xf32>, tensor<5x3xi64>) -> tensor<5xf32>
  return
}

// -----

func.func @negative_gather_nd_batch_mismatch(%x: tensor<3x4xf32>, %i: tensor<2x1xi64>) {
  // expected-error @+1 {{'graph.gather_nd' op batch dimension 0 differs between 'data' (tensor<3x4xf32>) and 'indices' (tensor<2x1xi64>)}}
  %0 = "graph.gather_nd"(%x, %i) {batch_dims = 1 : i64} : (tensor<3x4xf32>, tensor<2x1xi64>) -> tensor<2xf32>
  return
}

// -----

func.func @negative_gather_nd_result(%x: tensor<3x4xf32>, %i: tensor<5x1xi64>) {
  // expected-error @+1 {{'graph.gather_nd' op result #0 has type tensor<5xf32>, but its operands and attributes imply tensor<5x4xf32>}}
  %0 = "graph.gather_nd"(%x, %i) : (tensor<3x4xf32>, tensor<5x1xi64>) -> tensor<5xf32>
  return
}

// -----

func.func @negative_scatter_elements_updates_shape(%x: tensor<3x5xf32>, %i: tensor<3x2xi64>, %u: tensor<3x3xf32>) {
  // expected-error @+1 {{'graph.scatter_elements' op operand 'updates' (tensor<3x3xf32>) must have shape [3, 2] (the shape of 'indices')}}
  %0 = "graph.scatter_elements"(%x, %i, %u) : (tensor<3x5xf32>, tensor<3x2xi64>, tensor<3x3xf32>) -> tensor<3x5xf32>
  return
}

// -----

func.func @negative_scatter_elements_updates_type(%x: tensor<3x5xf32>, %i: tensor<3x2xi64>, %u: tensor<3x2xf16>) {
  // expected-error @+1 {{'graph.scatter_elements' op operand 'updates' (tensor<3x2xf16>) must have the element type of 'data' (tensor<3x5xf32>)}}
  %0 = "graph.scatter_elements"(%x, %i, %u) : (tensor<3x5xf32>, tensor<3x2xi64>, tensor<3x2xf16>) -> tensor<3x5xf32>
  return
}

// -----

func.func @negative_scatter_elements_reduction(%x: tensor<3x5xf32>, %i: tensor<3x2xi64>, %u: tensor<3x2xf32>) {
  // expected-error @+1 {{'graph.scatter_elements' op attribute 'reduction' must be one of none, add, mul, max, min, got "sum"}}
  %0 = "graph.scatter_elements"(%x, %i, %u) {reduction = "sum"} : (tensor<3x5xf32>, tensor<3x2xi64>, tensor<3x2xf32>) -> tensor<3x5xf32>
  return
}

// -----

func.func @negative_scatter_nd_updates_shape(%x: tensor<3x5xf32>, %i: tensor<4x1xi64>, %u: tensor<4x4xf32>) {
  // expected-error @+1 {{'graph.scatter_nd' op operand 'updates' (tensor<4x4xf32>) must have shape [4, 5] (indices.shape[:-1] ++ data.shape[k:])}}
  %0 = "graph.scatter_nd"(%x, %i, %u) : (tensor<3x5xf32>, tensor<4x1xi64>, tensor<4x4xf32>) -> tensor<3x5xf32>
  return
}

// -----

func.func @negative_trilu_rank(%x: tensor<4xf32>) {
  // expected-error @+1 {{'graph.trilu' op operand 'input' must have rank >= 2, got tensor<4xf32>}}
  %0 = "graph.trilu"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @negative_trilu_upper(%x: tensor<4x4xf32>) {
  // expected-error @+1 {{'graph.trilu' op attribute 'upper' must be 0 or 1, got 2}}
  %0 = "graph.trilu"(%x) {upper = 2 : i64} : (tensor<4x4xf32>) -> tensor<4x4xf32>
  return
}

// -----

func.func @negative_trilu_k_type(%x: tensor<4x4xf32>, %k: tensor<i32>) {
  // expected-error @+1 {{'graph.trilu' op operand 'k' must be an i64 scalar, got tensor<i32>}}
  %0 = "graph.trilu"(%x, %k) : (tensor<4x4xf32>, tensor<i32>) -> tensor<4x4xf32>
  return
}

// -----

func.func @negative_trilu_k_shape(%x: tensor<4x4xf32>, %k: tensor<2xi64>) {
  // expected-error @+1 {{'graph.trilu' op operand 'k' must be a scalar (or a 1-D tensor of one element), got tensor<2xi64>}}
  %0 = "graph.trilu"(%x, %k) : (tensor<4x4xf32>, tensor<2xi64>) -> tensor<4x4xf32>
  return
}

// -----

func.func @negative_constant_of_shape_value(%s: tensor<2xi64>) {
  // expected-error @+1 {{'graph.constant_of_shape' op attribute 'value' must be a one-element tensor of numbers or booleans, got tensor<2xi32>}}
  %0 = "graph.constant_of_shape"(%s) {value = dense<[1, 2]> : tensor<2xi32>} : (tensor<2xi64>) -> tensor<?x?xi32>
  return
}

// -----

func.func @negative_constant_of_shape_negative() {
  %s = "graph.constant"() {value = dense<[2, -1]> : tensor<2xi64>} : () -> tensor<2xi64>
  // expected-error @+1 {{'graph.constant_of_shape' op operand 'input' [2, -1] has a negative dimension}}
  %0 = "graph.constant_of_shape"(%s) : (tensor<2xi64>) -> tensor<?x?xf32>
  return
}

// -----

func.func @negative_constant_of_shape_input(%s: tensor<2xi32>) {
  // expected-error @+1 {{'graph.constant_of_shape' op operand 'input' must be a 1-D tensor of i64, got tensor<2xi32>}}
  %0 = "graph.constant_of_shape"(%s) : (tensor<2xi32>) -> tensor<?x?xf32>
  return
}

// -----

func.func @negative_size_result(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'graph.size' op result #0 has type tensor<1xi64>, but its operands and attributes imply tensor<i64>}}
  %0 = "graph.size"(%x) : (tensor<2x3xf32>) -> tensor<1xi64>
  return
}

// -----

func.func @negative_eye_like_rank(%x: tensor<2x3x4xf32>) {
  // expected-error @+1 {{'graph.eye_like' op operand 'input' must be a 2-D tensor of numbers or booleans, got tensor<2x3x4xf32>}}
  %0 = "graph.eye_like"(%x) : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  return
}

// -----

func.func @negative_eye_like_dtype(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'graph.eye_like' op attribute 'dtype' must be a numeric or boolean element type, got complex<f32>}}
  %0 = "graph.eye_like"(%x) {dtype = complex<f32>} : (tensor<2x3xf32>) -> tensor<2x3xcomplex<f32>>
  return
}

// -----

func.func @negative_one_hot_values(%i: tensor<3xi64>, %d: tensor<i64>, %v: tensor<3xf32>) {
  // expected-error @+1 {{'graph.one_hot' op operand 'values' must be a 1-D tensor of two elements [off, on], got tensor<3xf32>}}
  %0 = "graph.one_hot"(%i, %d, %v) : (tensor<3xi64>, tensor<i64>, tensor<3xf32>) -> tensor<3x?xf32>
  return
}

// -----

func.func @negative_one_hot_depth_shape(%i: tensor<3xi64>, %d: tensor<2xi64>, %v: tensor<2xf32>) {
  // expected-error @+1 {{'graph.one_hot' op operand 'depth' must be a scalar (or a 1-D tensor of one element), got tensor<2xi64>}}
  %0 = "graph.one_hot"(%i, %d, %v) : (tensor<3xi64>, tensor<2xi64>, tensor<2xf32>) -> tensor<3x?xf32>
  return
}

// -----

func.func @negative_one_hot_depth_type(%i: tensor<3xi64>, %d: tensor<i1>, %v: tensor<2xf32>) {
  // expected-error @+1 {{'graph.one_hot' op operand 'depth' must be numeric, got tensor<i1>}}
  %0 = "graph.one_hot"(%i, %d, %v) : (tensor<3xi64>, tensor<i1>, tensor<2xf32>) -> tensor<3x?xf32>
  return
}

// -----

func.func @negative_one_hot_depth_value(%i: tensor<3xi64>, %v: tensor<2xf32>) {
  %d = "graph.constant"() {value = dense<0> : tensor<i64>} : () -> tensor<i64>
  // expected-error @+1 {{'graph.one_hot' op operand 'depth' must be at least 1, got 0}}
  %0 = "graph.one_hot"(%i, %d, %v) : (tensor<3xi64>, tensor<i64>, tensor<2xf32>) -> tensor<3x0xf32>
  return
}

// -----

func.func @negative_one_hot_indices(%i: tensor<3xi1>, %d: tensor<i64>, %v: tensor<2xf32>) {
  // expected-error @+1 {{'graph.one_hot' op operand 'indices' must be numeric, got tensor<3xi1>}}
  %0 = "graph.one_hot"(%i, %d, %v) : (tensor<3xi1>, tensor<i64>, tensor<2xf32>) -> tensor<3x?xf32>
  return
}

// -----

func.func @negative_one_hot_axis(%i: tensor<3xi64>, %d: tensor<i64>, %v: tensor<2xf32>) {
  // expected-error @+1 {{'graph.one_hot' op attribute 'axis'}}
  %0 = "graph.one_hot"(%i, %d, %v) {axis = 2 : i64} : (tensor<3xi64>, tensor<i64>, tensor<2xf32>) -> tensor<3x?xf32>
  return
}

// -----

func.func @negative_reverse_sequence_axes(%x: tensor<4x5xf32>, %l: tensor<4xi64>) {
  // expected-error @+1 {{'graph.reverse_sequence' op attributes 'batch_axis' (0) and 'time_axis' (0) must be 0 and 1 in either order}}
  %0 = "graph.reverse_sequence"(%x, %l) {batch_axis = 0 : i64} : (tensor<4x5xf32>, tensor<4xi64>) -> tensor<4x5xf32>
  return
}

// -----

func.func @negative_reverse_sequence_lens(%x: tensor<4x5xf32>, %l: tensor<4xi64>) {
  // expected-error @+1 {{'graph.reverse_sequence' op operand 'sequence_lens' has 4 entries, but the batch dimension of tensor<4x5xf32> is 5}}
  %0 = "graph.reverse_sequence"(%x, %l) : (tensor<4x5xf32>, tensor<4xi64>) -> tensor<4x5xf32>
  return
}

// -----

func.func @negative_reverse_sequence_rank(%x: tensor<4xf32>, %l: tensor<4xi64>) {
  // expected-error @+1 {{'graph.reverse_sequence' op operand 'input' must have rank >= 2, got tensor<4xf32>}}
  %0 = "graph.reverse_sequence"(%x, %l) : (tensor<4xf32>, tensor<4xi64>) -> tensor<4xf32>
  return
}

// -----

func.func @negative_non_zero_result(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'graph.non_zero' op result #0 has type tensor<3x?xi64>, but its operands and attributes imply tensor<2x?xi64>}}
  %0 = "graph.non_zero"(%x) : (tensor<2x3xf32>) -> tensor<3x?xi64>
  return
}

// -----

func.func @negative_compress_condition(%x: tensor<3x2xf32>, %c: tensor<3xi32>) {
  // expected-error @+1 {{'graph.compress' op operand 'condition' must be a 1-D tensor of i1, got tensor<3xi32>}}
  %0 = "graph.compress"(%x, %c) : (tensor<3x2xf32>, tensor<3xi32>) -> tensor<?xf32>
  return
}

// -----

func.func @negative_compress_axis(%x: tensor<3x2xf32>, %c: tensor<3xi1>) {
  // expected-error @+1 {{'graph.compress' op attribute 'axis'}}
  %0 = "graph.compress"(%x, %c) {axis = 2 : i64} : (tensor<3x2xf32>, tensor<3xi1>) -> tensor<3x?xf32>
  return
}

// -----

func.func @negative_unique_sorted(%x: tensor<6xf32>) {
  // expected-error @+1 {{'graph.unique' op attribute 'sorted' must be 0 or 1, got 2}}
  %0 = "graph.unique"(%x) {sorted = 2 : i64, resultSegmentSizes = array<i32: 1, 0, 0, 0>} : (tensor<6xf32>) -> tensor<?xf32>
  return
}

// -----

func.func @negative_unique_axis(%x: tensor<6xf32>) {
  // expected-error @+1 {{'graph.unique' op attribute 'axis'}}
  %0 = "graph.unique"(%x) {axis = 1 : i64, resultSegmentSizes = array<i32: 1, 0, 0, 0>} : (tensor<6xf32>) -> tensor<?xf32>
  return
}

// -----

// inverse_indices has one entry per input element.
func.func @negative_unique_inverse(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'graph.unique' op result #2 has type tensor<5xi64>, but its operands and attributes imply tensor<6xi64>}}
  %0:3 = "graph.unique"(%x) {resultSegmentSizes = array<i32: 1, 1, 1, 0>} : (tensor<2x3xf32>) -> (tensor<?xf32>, tensor<?xi64>, tensor<5xi64>)
  return
}

// -----

func.func @negative_nms_boxes(%b: tensor<6x4xf32>, %s: tensor<1x1x6xf32>) {
  // expected-error @+1 {{'graph.non_max_suppression' op operand 'boxes' must be a 3-D f32 tensor (batches x boxes x 4), got tensor<6x4xf32>}}
  %0 = "graph.non_max_suppression"(%b, %s) {operandSegmentSizes = array<i32: 1, 1, 0, 0, 0>} : (tensor<6x4xf32>, tensor<1x1x6xf32>) -> tensor<?x3xi64>
  return
}

// -----

func.func @negative_nms_coordinates(%b: tensor<1x6x5xf32>, %s: tensor<1x1x6xf32>) {
  // expected-error @+1 {{'graph.non_max_suppression' op operand 'boxes' must have 4 coordinates per box (last dimension), got 5}}
  %0 = "graph.non_max_suppression"(%b, %s) {operandSegmentSizes = array<i32: 1, 1, 0, 0, 0>} : (tensor<1x6x5xf32>, tensor<1x1x6xf32>) -> tensor<?x3xi64>
  return
}

// -----

func.func @negative_nms_counts(%b: tensor<1x6x4xf32>, %s: tensor<1x1x5xf32>) {
  // expected-error @+1 {{'graph.non_max_suppression' op operands 'boxes' [1, 6, 4] and 'scores' [1, 1, 5] disagree in the batch count or the box count}}
  %0 = "graph.non_max_suppression"(%b, %s) {operandSegmentSizes = array<i32: 1, 1, 0, 0, 0>} : (tensor<1x6x4xf32>, tensor<1x1x5xf32>) -> tensor<?x3xi64>
  return
}

// -----

func.func @negative_nms_threshold_type(%b: tensor<1x6x4xf32>, %s: tensor<1x1x6xf32>, %t: tensor<1xf64>) {
  // expected-error @+1 {{'graph.non_max_suppression' op operand 'iou_threshold' must have f32 elements, got tensor<1xf64>}}
  %0 = "graph.non_max_suppression"(%b, %s, %t) {operandSegmentSizes = array<i32: 1, 1, 0, 1, 0>} : (tensor<1x6x4xf32>, tensor<1x1x6xf32>, tensor<1xf64>) -> tensor<?x3xi64>
  return
}

// -----

func.func @negative_nms_center_point_box(%b: tensor<1x6x4xf32>, %s: tensor<1x1x6xf32>) {
  // expected-error @+1 {{'graph.non_max_suppression' op attribute 'center_point_box' must be 0 or 1, got 2}}
  %0 = "graph.non_max_suppression"(%b, %s) {center_point_box = 2 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 0, 0>} : (tensor<1x6x4xf32>, tensor<1x1x6xf32>) -> tensor<?x3xi64>
  return
}
