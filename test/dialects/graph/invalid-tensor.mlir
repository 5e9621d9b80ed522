// Every user-facing error of the Tensor family, one per split.
// RUN: kiln-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(func.func(graph-verify))'

// IRDL: a required attribute is missing.
func.func @negative_concat_no_axis(%x: tensor<2xf32>) {
  // expected-error @+1 {{attribute "axis" is expected but not provided}}
  %0 = "graph.concat"(%x, %x) : (tensor<2xf32>, tensor<2xf32>) -> tensor<4xf32>
  return
}

// -----

// IRDL: wrong operand count.
func.func @negative_reshape_one_operand(%x: tensor<2xf32>) {
  // expected-error @+1 {{expects exactly 2 operands}}
  %0 = "graph.reshape"(%x) : (tensor<2xf32>) -> tensor<2xf32>
  return
}

// -----

// IRDL: concat is binary (N-ary ONNX Concat is a chain of them).
func.func @negative_concat_three(%x: tensor<2xf32>) {
  // expected-error @+1 {{expects exactly 2 operands}}
  %0 = "graph.concat"(%x, %x, %x) {axis = 0 : i64} : (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<6xf32>
  return
}

// -----

// IRDL: a variadic result binds one type, so split pieces must be equal.
func.func @negative_split_mixed_types(%x: tensor<5xf32>, %s: tensor<2xi64>) {
  // expected-error @+1 {{expected 'tensor<2xf32>' but got 'tensor<3xf32>'}}
  %0:2 = "graph.split"(%x, %s) : (tensor<5xf32>, tensor<2xi64>) -> (tensor<2xf32>, tensor<3xf32>)
  return
}

// -----

func.func @negative_constant_vector() {
  // expected-error @+1 {{'graph.constant' op attribute 'value' must have a ranked tensor type, got vector<2xf32>}}
  %0 = "graph.constant"() {value = dense<1.0> : vector<2xf32>} : () -> tensor<2xf32>
  return
}

// -----

func.func @negative_constant_result_type() {
  // expected-error @+1 {{result #0 has type tensor<3xi64>, but its operands and attributes imply tensor<2xi64>}}
  %0 = "graph.constant"() {value = dense<1> : tensor<2xi64>} : () -> tensor<3xi64>
  return
}

// -----

func.func @negative_reshape_allowzero(%x: tensor<6xf32>, %s: tensor<2xi64>) {
  // expected-error @+1 {{'graph.reshape' op attribute 'allowzero' must be 0 or 1, got 2}}
  %0 = "graph.reshape"(%x, %s) {allowzero = 2 : i64} : (tensor<6xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  return
}

// -----

func.func @negative_reshape_shape_type(%x: tensor<6xf32>, %s: tensor<2xi32>) {
  // expected-error @+1 {{'graph.reshape' op operand 'shape' must be a 1-D tensor of i64, got tensor<2xi32>}}
  %0 = "graph.reshape"(%x, %s) : (tensor<6xf32>, tensor<2xi32>) -> tensor<?x?xf32>
  return
}

// -----

func.func @negative_reshape_rank_limit(%x: tensor<1xf32>, %s: tensor<17xi64>) {
  // expected-error @+1 {{'graph.reshape' op operand 'shape' has 17 entries, above Kiln's rank limit of 16}}
  %0 = "graph.reshape"(%x, %s) : (tensor<1xf32>, tensor<17xi64>) -> tensor<1xf32>
  return
}

// -----

func.func @negative_reshape_below_minus_one(%x: tensor<6xf32>) {
  %s = "graph.constant"() {value = dense<[-2, 3]> : tensor<2xi64>} : () -> tensor<2xi64>
  // expected-error @+1 {{'graph.reshape' op operand 'shape' [-2, 3] has invalid value -2 at index 0 (must be >= -1)}}
  %0 = "graph.reshape"(%x, %s) : (tensor<6xf32>, tensor<2xi64>) -> tensor<2x3xf32>
  return
}

// -----

func.func @negative_reshape_two_minus_ones(%x: tensor<6xf32>) {
  %s = "graph.constant"() {value = dense<-1> : tensor<2xi64>} : () -> tensor<2xi64>
  // expected-error @+1 {{'graph.reshape' op operand 'shape' [-1, -1] has more than one -1}}
  %0 = "graph.reshape"(%x, %s) : (tensor<6xf32>, tensor<2xi64>) -> tensor<2x3xf32>
  return
}

// -----

func.func @negative_reshape_zero_past_rank(%x: tensor<6xf32>) {
  %s = "graph.constant"() {value = dense<[6, 0]> : tensor<2xi64>} : () -> tensor<2xi64>
  // expected-error @+1 {{'graph.reshape' op operand 'shape' [6, 0] has 0 (copy the input dim) at index 1, but the input has rank 1}}
  %0 = "graph.reshape"(%x, %s) : (tensor<6xf32>, tensor<2xi64>) -> tensor<6x1xf32>
  return
}

// -----

func.func @negative_reshape_allowzero_minus_one(%x: tensor<0x3xf32>) {
  %s = "graph.constant"() {value = dense<[0, -1]> : tensor<2xi64>} : () -> tensor<2xi64>
  // expected-error @+1 {{'graph.reshape' op operand 'shape' [0, -1] has both 0 and -1, which allowzero = 1 forbids}}
  %0 = "graph.reshape"(%x, %s) {allowzero = 1 : i64} : (tensor<0x3xf32>, tensor<2xi64>) -> tensor<0x3xf32>
  return
}

// -----

func.func @negative_reshape_indivisible(%x: tensor<2x3xf32>) {
  %s = "graph.constant"() {value = dense<[4, -1]> : tensor<2xi64>} : () -> tensor<2xi64>
  // expected-error @+1 {{'graph.reshape' op cannot reshape tensor<2x3xf32> into shape [4, -1]: the -1 dimension cannot be inferred}}
  %0 = "graph.reshape"(%x, %s) : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<4x?xf32>
  return
}

// -----

func.func @negative_reshape_count(%x: tensor<2x3xf32>) {
  %s = "graph.constant"() {value = dense<[4, 2]> : tensor<2xi64>} : () -> tensor<2xi64>
  // expected-error @+1 {{'graph.reshape' op cannot reshape tensor<2x3xf32> (6 elements) into shape [4, 2] (8 elements)}}
  %0 = "graph.reshape"(%x, %s) : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<4x2xf32>
  return
}

// -----

func.func @negative_flatten_axis(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'graph.flatten' op attribute 'axis' -3 is out of range for rank 2 (expected [-2, 2])}}
  %0 = "graph.flatten"(%x) {axis = -3 : i64} : (tensor<2x3xf32>) -> tensor<1x6xf32>
  return
}

// -----

func.func @negative_flatten_overflow(%x: tensor<4611686018427387904x4xf32>) {
  // expected-error @+1 {{'graph.flatten' op element count of shape [4611686018427387904, 4] overflows int64}}
  %0 = "graph.flatten"(%x) {axis = 0 : i64} : (tensor<4611686018427387904x4xf32>) -> tensor<1x?xf32>
  return
}

// -----

func.func @negative_transpose_perm_length(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'graph.transpose' op attribute 'perm' has 3 entries, but the input has rank 2}}
  %0 = "graph.transpose"(%x) {perm = array<i64: 0, 1, 2>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return
}

// -----

func.func @negative_transpose_not_permutation(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'graph.transpose' op attribute 'perm' [1, 1] is not a permutation of [0, 2)}}
  %0 = "graph.transpose"(%x) {perm = array<i64: 1, 1>} : (tensor<2x3xf32>) -> tensor<3x3xf32>
  return
}

// -----

func.func @negative_transpose_perm_kind(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'graph.transpose' op attribute 'perm' must be an array<i64: ...> attribute}}
  %0 = "graph.transpose"(%x) {perm = [1, 0]} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return
}

// -----

func.func @negative_concat_one(%x: tensor<2xf32>) {
  // expected-error @+1 {{expects exactly 2 operands}}
  %0 = "graph.concat"(%x) {axis = 0 : i64} : (tensor<2xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @negative_concat_rank(%a: tensor<2x3xf32>, %b: tensor<6xf32>) {
  // expected-error @+1 {{'graph.concat' op operands 'a' (tensor<2x3xf32>) and 'b' (tensor<6xf32>) differ in rank}}
  %0 = "graph.concat"(%a, %b) {axis = 0 : i64} : (tensor<2x3xf32>, tensor<6xf32>) -> tensor<8x3xf32>
  return
}

// -----

func.func @negative_concat_dim(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) {
  // expected-error @+1 {{'graph.concat' op operands 'a' (tensor<2x3xf32>) and 'b' (tensor<3x4xf32>) differ in dimension 0 (only axis 1 may differ)}}
  %0 = "graph.concat"(%a, %b) {axis = 1 : i64} : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x7xf32>
  return
}

// -----

func.func @negative_concat_element_type(%a: tensor<2x3xf32>, %b: tensor<2x3xf16>) {
  // expected-error @+1 {{'graph.concat' op operands 'a' (tensor<2x3xf32>) and 'b' (tensor<2x3xf16>) differ in element type}}
  %0 = "graph.concat"(%a, %b) {axis = 0 : i64} : (tensor<2x3xf32>, tensor<2x3xf16>) -> tensor<4x3xf32>
  return
}

// -----

func.func @negative_concat_axis(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'graph.concat' op attribute 'axis' -3 is out of range for rank 2}}
  %0 = "graph.concat"(%x, %x) {axis = -3 : i64} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<4x3xf32>
  return
}

// -----

func.func @negative_concat_result(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{result #0 has type tensor<2x3xf32>, but its operands and attributes imply tensor<4x3xf32>}}
  %0 = "graph.concat"(%x, %x) {axis = 0 : i64} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

// Neither 'split' nor num_outputs (ONNX Split-13): one piece per result,
// which must come out equal.
func.func @negative_split_neither_uneven(%x: tensor<5xf32>) {
  // expected-error @+1 {{'graph.split' op pieces of sizes [3, 2] along axis 0 differ}}
  %0:2 = "graph.split"(%x) : (tensor<5xf32>) -> (tensor<?xf32>, tensor<?xf32>)
  return
}

// -----

func.func @negative_split_both(%x: tensor<4xf32>, %s: tensor<2xi64>) {
  // expected-error @+1 {{'graph.split' op takes operand 'split' or attribute 'num_outputs', not both}}
  %0:2 = "graph.split"(%x, %s) {num_outputs = 2 : i64} : (tensor<4xf32>, tensor<2xi64>) -> (tensor<2xf32>, tensor<2xf32>)
  return
}

// -----

func.func @negative_split_no_results(%x: tensor<4xf32>) {
  // expected-error @+1 {{'graph.split' op requires at least one result}}
  "graph.split"(%x) {num_outputs = 0 : i64} : (tensor<4xf32>) -> ()
  return
}

// -----

func.func @negative_split_num_outputs(%x: tensor<4xf32>) {
  // expected-error @+1 {{'graph.split' op attribute 'num_outputs' is 3, but the op has 2 results}}
  %0:2 = "graph.split"(%x) {num_outputs = 3 : i64} : (tensor<4xf32>) -> (tensor<2xf32>, tensor<2xf32>)
  return
}

// -----

func.func @negative_split_axis(%x: tensor<4xf32>) {
  // expected-error @+1 {{'graph.split' op attribute 'axis' 1 is out of range for rank 1}}
  %0:2 = "graph.split"(%x) {axis = 1 : i64, num_outputs = 2 : i64} : (tensor<4xf32>) -> (tensor<2xf32>, tensor<2xf32>)
  return
}

// -----

func.func @negative_split_too_many(%x: tensor<5xf32>) {
  // expected-error @+1 {{'graph.split' op cannot split a dimension of size 5 into 4 outputs of size ceil(5 / 4)}}
  %0:4 = "graph.split"(%x) {num_outputs = 4 : i64} : (tensor<5xf32>) -> (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>)
  return
}

// -----

func.func @negative_split_unequal(%x: tensor<5x2xf32>) {
  %s = "graph.constant"() {value = dense<[2, 3]> : tensor<2xi64>} : () -> tensor<2xi64>
  // expected-error @+1 {{'graph.split' op pieces of sizes [2, 3] along axis 0 differ; the graph dialect represents only equal pieces (IRDL gives all results of a variadic one type): use graph.slice for each piece}}
  %0:2 = "graph.split"(%x, %s) : (tensor<5x2xf32>, tensor<2xi64>) -> (tensor<?x2xf32>, tensor<?x2xf32>)
  return
}

// -----

func.func @negative_split_uneven(%x: tensor<2x5xf32>) {
  // expected-error @+1 {{'graph.split' op pieces of sizes [3, 2] along axis 1 differ}}
  %0:2 = "graph.split"(%x) {axis = -1 : i64, num_outputs = 2 : i64} : (tensor<2x5xf32>) -> (tensor<2x?xf32>, tensor<2x?xf32>)
  return
}

// -----

func.func @negative_split_length(%x: tensor<4xf32>, %s: tensor<3xi64>) {
  // expected-error @+1 {{'graph.split' op operand 'split' has 3 entries, but the op has 2 results}}
  %0:2 = "graph.split"(%x, %s) : (tensor<4xf32>, tensor<3xi64>) -> (tensor<?xf32>, tensor<?xf32>)
  return
}

// -----

func.func @negative_split_negative(%x: tensor<4xf32>) {
  %s = "graph.constant"() {value = dense<[5, -1]> : tensor<2xi64>} : () -> tensor<2xi64>
  // expected-error @+1 {{'graph.split' op operand 'split' [5, -1] must hold non-negative sizes}}
  %0:2 = "graph.split"(%x, %s) : (tensor<4xf32>, tensor<2xi64>) -> (tensor<?xf32>, tensor<?xf32>)
  return
}

// -----

func.func @negative_split_sum(%x: tensor<4xf32>) {
  %s = "graph.constant"() {value = dense<3> : tensor<2xi64>} : () -> tensor<2xi64>
  // expected-error @+1 {{'graph.split' op operand 'split' [3, 3] sums to 6, but the split dimension has size 4}}
  %0:2 = "graph.split"(%x, %s) : (tensor<4xf32>, tensor<2xi64>) -> (tensor<3xf32>, tensor<3xf32>)
  return
}

// -----

func.func @negative_slice_index_type(%x: tensor<4xf32>, %s: tensor<1xf32>) {
  // expected-error @+1 {{'graph.slice' op operand 'starts' must be a 1-D tensor of i32 or i64, got tensor<1xf32>}}
  %0 = "graph.slice"(%x, %s, %s) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0>} : (tensor<4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<?xf32>
  return
}

// -----

func.func @negative_slice_mixed_types(%x: tensor<4xf32>, %s: tensor<1xi64>, %e: tensor<1xi32>) {
  // expected-error @+1 {{'graph.slice' op operand 'ends' has type tensor<1xi32>, but 'starts' has element type i64}}
  %0 = "graph.slice"(%x, %s, %e) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0>} : (tensor<4xf32>, tensor<1xi64>, tensor<1xi32>) -> tensor<?xf32>
  return
}

// -----

func.func @negative_slice_lengths(%x: tensor<4x4xf32>, %s: tensor<1xi64>, %e: tensor<2xi64>) {
  // expected-error @+1 {{'graph.slice' op operand 'ends' has 2 entries, but 'starts' has 1}}
  %0 = "graph.slice"(%x, %s, %e) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0>} : (tensor<4x4xf32>, tensor<1xi64>, tensor<2xi64>) -> tensor<?x?xf32>
  return
}

// -----

func.func @negative_slice_too_many(%x: tensor<4xf32>, %s: tensor<2xi64>) {
  // expected-error @+1 {{'graph.slice' op operand 'starts' has 2 entries, but the input has rank 1}}
  %0 = "graph.slice"(%x, %s, %s) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0>} : (tensor<4xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<?xf32>
  return
}

// -----

func.func @negative_slice_axis_range(%x: tensor<4xf32>, %s: tensor<1xi64>) {
  %a = "graph.constant"() {value = dense<1> : tensor<1xi64>} : () -> tensor<1xi64>
  // expected-error @+1 {{'graph.slice' op operand 'axes' [1] has axis 1, out of range for rank 1}}
  %0 = "graph.slice"(%x, %s, %s, %a) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 0>} : (tensor<4xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<?xf32>
  return
}

// -----

func.func @negative_slice_axis_repeated(%x: tensor<4x4xf32>, %s: tensor<2xi64>) {
  %a = "graph.constant"() {value = dense<[1, -1]> : tensor<2xi64>} : () -> tensor<2xi64>
  // expected-error @+1 {{'graph.slice' op operand 'axes' [1, -1] repeats axis 1}}
  %0 = "graph.slice"(%x, %s, %s, %a) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 0>} : (tensor<4x4xf32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<?x?xf32>
  return
}

// -----

func.func @negative_slice_zero_step(%x: tensor<4xf32>) {
  %c = "graph.constant"() {value = dense<0> : tensor<1xi64>} : () -> tensor<1xi64>
  // expected-error @+1 {{'graph.slice' op operand 'steps' [0] must not contain 0}}
  %0 = "graph.slice"(%x, %c, %c, %c, %c) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1>} : (tensor<4xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<?xf32>
  return
}

// -----

func.func @negative_slice_result(%x: tensor<10xf32>) {
  %s = "graph.constant"() {value = dense<9> : tensor<1xi64>} : () -> tensor<1xi64>
  %e = "graph.constant"() {value = dense<-100> : tensor<1xi64>} : () -> tensor<1xi64>
  %st = "graph.constant"() {value = dense<-3> : tensor<1xi64>} : () -> tensor<1xi64>
  // expected-error @+1 {{result #0 has type tensor<3xf32>, but its operands and attributes imply tensor<4xf32>}}
  %0 = "graph.slice"(%x, %s, %e, %st) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 1>} : (tensor<10xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<3xf32>
  return
}

// -----

func.func @negative_gather_indices_type(%x: tensor<4xf32>, %i: tensor<2xi16>) {
  // expected-error @+1 {{'graph.gather' op operand 'indices' must have i32 or i64 elements, got tensor<2xi16>}}
  %0 = "graph.gather"(%x, %i) : (tensor<4xf32>, tensor<2xi16>) -> tensor<2xf32>
  return
}

// -----

func.func @negative_gather_axis(%x: tensor<f32>, %i: tensor<2xi64>) {
  // expected-error @+1 {{'graph.gather' op attribute 'axis' 0 is out of range for rank 0}}
  %0 = "graph.gather"(%x, %i) : (tensor<f32>, tensor<2xi64>) -> tensor<2xf32>
  return
}

// -----

func.func @negative_gather_rank_limit(%x: tensor<1x1x1x1x1x1x1x1x1xf32>, %i: tensor<1x1x1x1x1x1x1x1x1xi64>) {
  // expected-error @+1 {{'graph.gather' op result rank 17 is above Kiln's limit of 16}}
  %0 = "graph.gather"(%x, %i) : (tensor<1x1x1x1x1x1x1x1x1xf32>, tensor<1x1x1x1x1x1x1x1x1xi64>) -> tensor<1xf32>
  return
}

// -----

func.func @negative_gather_index_range(%x: tensor<4xf32>) {
  %i = "graph.constant"() {value = dense<[0, -5]> : tensor<2xi64>} : () -> tensor<2xi64>
  // expected-error @+1 {{'graph.gather' op index -5 in operand 'indices' is out of range for a dimension of size 4}}
  %0 = "graph.gather"(%x, %i) : (tensor<4xf32>, tensor<2xi64>) -> tensor<2xf32>
  return
}

// -----

func.func @negative_squeeze_too_many(%x: tensor<1xf32>, %a: tensor<2xi64>) {
  // expected-error @+1 {{'graph.squeeze' op operand 'axes' has 2 entries, but the input has rank 1}}
  %0 = "graph.squeeze"(%x, %a) : (tensor<1xf32>, tensor<2xi64>) -> tensor<f32>
  return
}

// -----

func.func @negative_squeeze_not_one(%x: tensor<1x3xf32>) {
  %a = "graph.constant"() {value = dense<1> : tensor<1xi64>} : () -> tensor<1xi64>
  // expected-error @+1 {{'graph.squeeze' op cannot squeeze axis 1 of tensor<1x3xf32>: its size is 3, not 1}}
  %0 = "graph.squeeze"(%x, %a) : (tensor<1x3xf32>, tensor<1xi64>) -> tensor<1xf32>
  return
}

// -----

func.func @negative_squeeze_axes_type(%x: tensor<1x3xf32>, %a: tensor<1xi32>) {
  // expected-error @+1 {{'graph.squeeze' op operand 'axes' must be a 1-D tensor of i64, got tensor<1xi32>}}
  %0 = "graph.squeeze"(%x, %a) : (tensor<1x3xf32>, tensor<1xi32>) -> tensor<3xf32>
  return
}

// -----

func.func @negative_unsqueeze_rank_limit(%x: tensor<1x1x1x1x1x1x1x1x1x1x1x1x1x1x1xf32>, %a: tensor<2xi64>) {
  // expected-error @+1 {{'graph.unsqueeze' op result rank 17 is above Kiln's limit of 16}}
  %0 = "graph.unsqueeze"(%x, %a) : (tensor<1x1x1x1x1x1x1x1x1x1x1x1x1x1x1xf32>, tensor<2xi64>) -> tensor<1xf32>
  return
}

// -----

func.func @negative_unsqueeze_axis_range(%x: tensor<3xf32>) {
  %a = "graph.constant"() {value = dense<2> : tensor<1xi64>} : () -> tensor<1xi64>
  // expected-error @+1 {{'graph.unsqueeze' op operand 'axes' [2] has axis 2, out of range for rank 2}}
  %0 = "graph.unsqueeze"(%x, %a) : (tensor<3xf32>, tensor<1xi64>) -> tensor<3x1xf32>
  return
}

// -----

func.func @negative_expand_rank_limit(%x: tensor<3xf32>, %s: tensor<17xi64>) {
  // expected-error @+1 {{'graph.expand' op operand 'shape' has 17 entries, above Kiln's rank limit of 16}}
  %0 = "graph.expand"(%x, %s) : (tensor<3xf32>, tensor<17xi64>) -> tensor<3xf32>
  return
}

// -----

func.func @negative_expand_negative(%x: tensor<3xf32>) {
  %s = "graph.constant"() {value = dense<[-1, 3]> : tensor<2xi64>} : () -> tensor<2xi64>
  // expected-error @+1 {{'graph.expand' op operand 'shape' [-1, 3] has a negative dimension}}
  %0 = "graph.expand"(%x, %s) : (tensor<3xf32>, tensor<2xi64>) -> tensor<1x3xf32>
  return
}

// -----

func.func @negative_expand_broadcast(%x: tensor<3xf32>) {
  %s = "graph.constant"() {value = dense<[2, 4]> : tensor<2xi64>} : () -> tensor<2xi64>
  // expected-error @+1 {{'graph.expand' op input of type tensor<3xf32> cannot be broadcast to shape [2, 4]}}
  %0 = "graph.expand"(%x, %s) : (tensor<3xf32>, tensor<2xi64>) -> tensor<2x4xf32>
  return
}

// -----

func.func @negative_tile_length(%x: tensor<3xf32>, %r: tensor<2xi64>) {
  // expected-error @+1 {{'graph.tile' op operand 'repeats' has 2 entries, but the input has rank 1}}
  %0 = "graph.tile"(%x, %r) : (tensor<3xf32>, tensor<2xi64>) -> tensor<?xf32>
  return
}

// -----

func.func @negative_tile_negative(%x: tensor<3xf32>) {
  %r = "graph.constant"() {value = dense<-2> : tensor<1xi64>} : () -> tensor<1xi64>
  // expected-error @+1 {{'graph.tile' op operand 'repeats' [-2] must be non-negative}}
  %0 = "graph.tile"(%x, %r) : (tensor<3xf32>, tensor<1xi64>) -> tensor<3xf32>
  return
}

// -----

func.func @negative_tile_overflow(%x: tensor<4611686018427387904xf32>) {
  %r = "graph.constant"() {value = dense<4> : tensor<1xi64>} : () -> tensor<1xi64>
  // expected-error @+1 {{'graph.tile' op tiling tensor<4611686018427387904xf32> by [4] overflows int64}}
  %0 = "graph.tile"(%x, %r) : (tensor<4611686018427387904xf32>, tensor<1xi64>) -> tensor<?xf32>
  return
}

// -----

func.func @negative_shape_result(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{result #0 has type tensor<2xi64>, but its operands and attributes imply tensor<1xi64>}}
  %0 = "graph.shape"(%x) {start = -1 : i64} : (tensor<2x3xf32>) -> tensor<2xi64>
  return
}

// -----

func.func @negative_range_not_scalar(%a: tensor<1xi64>) {
  // expected-error @+1 {{'graph.range' op operand 'start' must be a scalar (rank 0), got tensor<1xi64>}}
  %0 = "graph.range"(%a, %a, %a) : (tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<?xi64>
  return
}

// -----

func.func @negative_range_type(%a: tensor<i8>) {
  // expected-error @+1 {{'graph.range' op operand 'start' must be f32, f64, i16, i32 or i64, got tensor<i8>}}
  %0 = "graph.range"(%a, %a, %a) : (tensor<i8>, tensor<i8>, tensor<i8>) -> tensor<?xi8>
  return
}

// -----

func.func @negative_range_mixed(%a: tensor<i64>, %b: tensor<i32>) {
  // expected-error @+1 {{'graph.range' op operand 'delta' has type tensor<i32>, but 'start' has type tensor<i64>}}
  %0 = "graph.range"(%a, %a, %b) : (tensor<i64>, tensor<i64>, tensor<i32>) -> tensor<?xi64>
  return
}

// -----

func.func @negative_range_zero_delta() {
  %a = "graph.constant"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
  // expected-error @+1 {{'graph.range' op operand 'delta' must not be zero}}
  %0 = "graph.range"(%a, %a, %a) : (tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<?xf32>
  return
}

// -----

func.func @negative_range_overflow() {
  %a = "graph.constant"() {value = dense<-9223372036854775808> : tensor<i64>} : () -> tensor<i64>
  %b = "graph.constant"() {value = dense<9223372036854775807> : tensor<i64>} : () -> tensor<i64>
  %c = "graph.constant"() {value = dense<1> : tensor<i64>} : () -> tensor<i64>
  // expected-error @+1 {{'graph.range' op range from -9223372036854775808 to 9223372036854775807 overflows int64}}
  %0 = "graph.range"(%a, %b, %c) : (tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<?xi64>
  return
}

// -----

func.func @negative_range_float_length() {
  %a = "graph.constant"() {value = dense<0.0> : tensor<f64>} : () -> tensor<f64>
  %b = "graph.constant"() {value = dense<1.0e300> : tensor<f64>} : () -> tensor<f64>
  %c = "graph.constant"() {value = dense<1.0e-300> : tensor<f64>} : () -> tensor<f64>
  // expected-error @+1 {{'graph.range' op range from 0 to 1e+300 by 1e-300 has no representable length}}
  %0 = "graph.range"(%a, %b, %c) : (tensor<f64>, tensor<f64>, tensor<f64>) -> tensor<?xf64>
  return
}

// -----

func.func @negative_range_result() {
  %a = "graph.constant"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
  %b = "graph.constant"() {value = dense<10> : tensor<i32>} : () -> tensor<i32>
  %c = "graph.constant"() {value = dense<4> : tensor<i32>} : () -> tensor<i32>
  // expected-error @+1 {{result #0 has type tensor<2xi32>, but its operands and attributes imply tensor<3xi32>}}
  %0 = "graph.range"(%a, %b, %c) : (tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2xi32>
  return
}

// -----

func.func @negative_pad_mode(%x: tensor<3xf32>, %p: tensor<2xi64>) {
  // expected-error @+1 {{'graph.pad' op attribute 'mode' must be one of constant, reflect, edge, wrap, got "mirror"}}
  %0 = "graph.pad"(%x, %p) {mode = "mirror", operandSegmentSizes = array<i32: 1, 1, 0, 0>} : (tensor<3xf32>, tensor<2xi64>) -> tensor<?xf32>
  return
}

// -----

func.func @negative_pad_constant_value(%x: tensor<3xf32>, %p: tensor<2xi64>, %v: tensor<2xf32>) {
  // expected-error @+1 {{'graph.pad' op operand 'constant_value' must be a scalar of the input's element type, got tensor<2xf32> for input tensor<3xf32>}}
  %0 = "graph.pad"(%x, %p, %v) {operandSegmentSizes = array<i32: 1, 1, 1, 0>} : (tensor<3xf32>, tensor<2xi64>, tensor<2xf32>) -> tensor<?xf32>
  return
}

// -----

func.func @negative_pad_axes_too_many(%x: tensor<3xf32>, %p: tensor<4xi64>, %a: tensor<2xi64>) {
  // expected-error @+1 {{'graph.pad' op operand 'axes' has 2 entries, but the input has rank 1}}
  %0 = "graph.pad"(%x, %p, %a) {operandSegmentSizes = array<i32: 1, 1, 0, 1>} : (tensor<3xf32>, tensor<4xi64>, tensor<2xi64>) -> tensor<?xf32>
  return
}

// -----

func.func @negative_pad_length(%x: tensor<3x3xf32>, %p: tensor<2xi64>) {
  // expected-error @+1 {{'graph.pad' op operand 'pads' has 2 entries, expected 4 (2 per padded axis)}}
  %0 = "graph.pad"(%x, %p) {operandSegmentSizes = array<i32: 1, 1, 0, 0>} : (tensor<3x3xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  return
}

// -----

func.func @negative_pad_axes_repeated(%x: tensor<3x3xf32>, %p: tensor<4xi64>) {
  %a = "graph.constant"() {value = dense<[0, -2]> : tensor<2xi64>} : () -> tensor<2xi64>
  // expected-error @+1 {{'graph.pad' op operand 'axes' [0, -2] repeats axis 0}}
  %0 = "graph.pad"(%x, %p, %a) {operandSegmentSizes = array<i32: 1, 1, 0, 1>} : (tensor<3x3xf32>, tensor<4xi64>, tensor<2xi64>) -> tensor<?x?xf32>
  return
}

// -----

func.func @negative_pad_negative_size(%x: tensor<3xf32>) {
  %p = "graph.constant"() {value = dense<[-2, -2]> : tensor<2xi64>} : () -> tensor<2xi64>
  // expected-error @+1 {{'graph.pad' op padding axis 0 of size 3 by -2 before and -2 after gives an invalid size}}
  %0 = "graph.pad"(%x, %p) {operandSegmentSizes = array<i32: 1, 1, 0, 0>} : (tensor<3xf32>, tensor<2xi64>) -> tensor<?xf32>
  return
}

// -----

func.func @negative_depth_to_space_rank(%x: tensor<8x2x2xf32>) {
  // expected-error @+1 {{'graph.depth_to_space' op operand 'input' must have rank 4 (N x C x H x W), got tensor<8x2x2xf32>}}
  %0 = "graph.depth_to_space"(%x) {blocksize = 2 : i64} : (tensor<8x2x2xf32>) -> tensor<2x4x4xf32>
  return
}

// -----

func.func @negative_depth_to_space_blocksize(%x: tensor<1x8x2x2xf32>) {
  // expected-error @+1 {{'graph.depth_to_space' op attribute 'blocksize' must be positive, got -2}}
  %0 = "graph.depth_to_space"(%x) {blocksize = -2 : i64} : (tensor<1x8x2x2xf32>) -> tensor<1x2x4x4xf32>
  return
}

// -----

func.func @negative_depth_to_space_mode(%x: tensor<1x8x2x2xf32>) {
  // expected-error @+1 {{'graph.depth_to_space' op attribute 'mode' must be one of DCR, CRD, got "dcr"}}
  %0 = "graph.depth_to_space"(%x) {blocksize = 2 : i64, mode = "dcr"} : (tensor<1x8x2x2xf32>) -> tensor<1x2x4x4xf32>
  return
}

// -----

func.func @negative_depth_to_space_huge_block(%x: tensor<1x8x2x2xf32>) {
  // expected-error @+1 {{'graph.depth_to_space' op attribute 'blocksize' 4294967296 is too large}}
  %0 = "graph.depth_to_space"(%x) {blocksize = 4294967296 : i64} : (tensor<1x8x2x2xf32>) -> tensor<1x2x4x4xf32>
  return
}

// -----

func.func @negative_depth_to_space_channels(%x: tensor<1x6x2x2xf32>) {
  // expected-error @+1 {{'graph.depth_to_space' op dimension 1 of tensor<1x6x2x2xf32> is not divisible by 4}}
  %0 = "graph.depth_to_space"(%x) {blocksize = 2 : i64} : (tensor<1x6x2x2xf32>) -> tensor<1x1x4x4xf32>
  return
}

// -----

func.func @negative_depth_to_space_overflow(%x: tensor<1x4x4611686018427387904x2xf32>) {
  // expected-error @+1 {{'graph.depth_to_space' op dimension 2 overflows int64}}
  %0 = "graph.depth_to_space"(%x) {blocksize = 2 : i64} : (tensor<1x4x4611686018427387904x2xf32>) -> tensor<1x1x?x4xf32>
  return
}

// -----

func.func @negative_space_to_depth_spatial(%x: tensor<1x1x4x6xf32>) {
  // expected-error @+1 {{'graph.space_to_depth' op dimension 3 of tensor<1x1x4x6xf32> is not divisible by 4}}
  %0 = "graph.space_to_depth"(%x) {blocksize = 4 : i64} : (tensor<1x1x4x6xf32>) -> tensor<1x16x1x1xf32>
  return
}

// -----

func.func @negative_space_to_depth_result(%x: tensor<1x1x4x6xf32>) {
  // expected-error @+1 {{result #0 has type tensor<1x4x2x2xf32>, but its operands and attributes imply tensor<1x4x2x3xf32>}}
  %0 = "graph.space_to_depth"(%x) {blocksize = 2 : i64} : (tensor<1x1x4x6xf32>) -> tensor<1x4x2x2xf32>
  return
}
