// RUN: kiln-opt %s --split-input-file --verify-diagnostics --no-graph-verify --pass-pipeline='builtin.module(func.func(graph-verify))'
// RUN: kiln-opt %s --split-input-file --verify-diagnostics
// graph-verify's table-driven checks, common to every op: attribute names,
// kinds and presence, and declared result types against inferred ones.
// (Per-op shape rules are tested in invalid-<family>.mlir.) The second RUN
// shows kiln-opt runs the same checks right after parsing.

func.func @ok(%a: tensor<2x3xf32>, %b: tensor<3xf32>) -> tensor<2x3xf32> {
  %0 = "graph.add"(%a, %b) {kiln.note = "discardable attributes are fine"} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @dynamic_result_is_fine(%a: tensor<2x3xf32>, %b: tensor<3xf32>) -> tensor<?x3xf32> {
  %0 = "graph.add"(%a, %b) : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<?x3xf32>
  return %0 : tensor<?x3xf32>
}

// -----

func.func @negative_unknown_attribute(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'graph.relu' op has unknown attribute 'alpha'}}
  %0 = "graph.relu"(%a) {alpha = 1.0 : f32} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @negative_attribute_kind(%a: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'graph.softmax' op attribute 'axis' must be an i64 integer attribute, got 1 : i32}}
  %0 = "graph.softmax"(%a) {axis = 1 : i32} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @negative_float_attribute_kind(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'graph.leaky_relu' op attribute 'alpha' must be an f32 float attribute, got 1.000000e-01 : f64}}
  %0 = "graph.leaky_relu"(%a) {alpha = 0.1 : f64} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @negative_ints_attribute_kind(%a: tensor<2x3xf32>) -> tensor<3x2xf32> {
  // expected-error @+1 {{'graph.transpose' op attribute 'perm' must be an array<i64: ...> attribute, got array<i32: 1, 0>}}
  %0 = "graph.transpose"(%a) {perm = array<i32: 1, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

func.func @negative_result_type(%a: tensor<2x3xf32>, %b: tensor<3xf32>) -> tensor<2x4xf32> {
  // expected-error @+1 {{'graph.add' op result #0 has type tensor<2x4xf32>, but its operands and attributes imply tensor<2x3xf32>}}
  %0 = "graph.add"(%a, %b) : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

func.func @negative_result_element_type(%a: tensor<4xf32>) -> tensor<4xf16> {
  // expected-error @+1 {{'graph.relu' op result #0 has type tensor<4xf16>, but its operands and attributes imply tensor<4xf32>}}
  %0 = "graph.relu"(%a) : (tensor<4xf32>) -> tensor<4xf16>
  return %0 : tensor<4xf16>
}

// -----

func.func @negative_unranked_operand(%a: tensor<*xf32>) -> tensor<*xf32> {
  // IRDL's base constraint already rejects unranked tensors.
  // expected-error @+1 {{expected base type 'builtin.tensor' but got 'builtin.unranked_tensor'}}
  %0 = "graph.relu"(%a) : (tensor<*xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @negative_bytes_overflow(%a: tensor<1099511627776x1099511627776xf32>) -> tensor<1099511627776x1099511627776xf32> {
  // No buffer of 2^82 bytes can exist, and sizes computed from it wrap.
  // expected-error @+1 {{'graph.relu' op result #0 has type tensor<1099511627776x1099511627776xf32>, more bytes than a 64-bit size can count}}
  %0 = "graph.relu"(%a) : (tensor<1099511627776x1099511627776xf32>) -> tensor<1099511627776x1099511627776xf32>
  return %0 : tensor<1099511627776x1099511627776xf32>
}

// -----

// 2^61 f32s (2^63 bytes) is one byte too many; 2^60 f32s and dynamic dims
// next to a huge static one are fine.
func.func @negative_bytes_edge(%a: tensor<2305843009213693952xf32>) -> tensor<2305843009213693952xf32> {
  // expected-error @+1 {{more bytes than a 64-bit size can count}}
  %0 = "graph.relu"(%a) : (tensor<2305843009213693952xf32>) -> tensor<2305843009213693952xf32>
  return %0 : tensor<2305843009213693952xf32>
}

// -----

func.func @bytes_at_the_limit(%a: tensor<1152921504606846976xf32>, %b: tensor<?x1152921504606846976xf32>) -> tensor<?x1152921504606846976xf32> {
  %0 = "graph.relu"(%a) : (tensor<1152921504606846976xf32>) -> tensor<1152921504606846976xf32>
  %1 = "graph.relu"(%b) : (tensor<?x1152921504606846976xf32>) -> tensor<?x1152921504606846976xf32>
  return %1 : tensor<?x1152921504606846976xf32>
}
