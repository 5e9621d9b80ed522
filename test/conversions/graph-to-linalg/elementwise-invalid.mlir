// RUN: kiln-opt %s --split-input-file --verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(func.func(convert-graph-to-linalg))'

// negative_cast_to_float8: float8 targets are not lowered.
func.func @negative_cast_to_float8(%x: tensor<4xf32>) -> tensor<4xf8E4M3FN> {
  // expected-error@+1 {{unsupported: 'graph.cast' result #0 has element type f8E4M3FN}}
  %0 = "graph.cast"(%x) {to = f8E4M3FN} : (tensor<4xf32>) -> tensor<4xf8E4M3FN>
  return %0 : tensor<4xf8E4M3FN>
}

// -----

// negative_is_nan_float8: nor are float8 operands.
func.func @negative_is_nan_float8(%x: tensor<4xf8E5M2>) -> tensor<4xi1> {
  // expected-error@+1 {{unsupported: 'graph.is_nan' operand #0 has element type f8E5M2}}
  %0 = "graph.is_nan"(%x) : (tensor<4xf8E5M2>) -> tensor<4xi1>
  return %0 : tensor<4xi1>
}
