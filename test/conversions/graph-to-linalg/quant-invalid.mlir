// RUN: kiln-opt %s --split-input-file --verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(func.func(convert-graph-to-linalg))'

// Kiln quantizes to 8- and 16-bit integers only (no float8).
func.func @negative_quantize_float8(%x: tensor<4xf32>, %s: tensor<f32>, %z: tensor<f8E4M3FN>) -> tensor<4xf8E4M3FN> {
  // expected-error@+1 {{unsupported: 'graph.quantize_linear' to this element type (Kiln quantizes to 8- and 16-bit integers)}}
  %0 = "graph.quantize_linear"(%x, %s, %z) : (tensor<4xf32>, tensor<f32>, tensor<f8E4M3FN>) -> tensor<4xf8E4M3FN>
  return %0 : tensor<4xf8E4M3FN>
}

// -----

// 4-bit integers are not lowered.
func.func @negative_dequantize_int4(%x: tensor<4xi4>, %s: tensor<f32>) -> tensor<4xf32> {
  // expected-error@+1 {{unsupported: 'graph.dequantize_linear' from this element type (Kiln dequantizes 8-, 16- and 32-bit integers)}}
  %0 = "graph.dequantize_linear"(%x, %s) : (tensor<4xi4>, tensor<f32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @negative_qlinear_matmul_float8(%a: tensor<2x4xf8E4M3FN>, %sa: tensor<f32>, %za: tensor<f8E4M3FN>, %b: tensor<4x3xf8E4M3FN>, %sb: tensor<f32>, %zb: tensor<f8E4M3FN>, %sy: tensor<f32>, %zy: tensor<ui8>) -> tensor<2x3xui8> {
  // expected-error@+1 {{unsupported: 'graph.qlinear_matmul' on these element types (Kiln lowers 8- and 16-bit integers)}}
  %0 = "graph.qlinear_matmul"(%a, %sa, %za, %b, %sb, %zb, %sy, %zy) : (tensor<2x4xf8E4M3FN>, tensor<f32>, tensor<f8E4M3FN>, tensor<4x3xf8E4M3FN>, tensor<f32>, tensor<f8E4M3FN>, tensor<f32>, tensor<ui8>) -> tensor<2x3xui8>
  return %0 : tensor<2x3xui8>
}
