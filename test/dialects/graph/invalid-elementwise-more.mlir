// RUN: kiln-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(func.func(graph-verify))'

// One case per error of the ops in elementwise-more.mlir: IRDL's structural
// checks, then graph-verify's element-type, broadcasting and attribute rules.

func.func @negative_bit_shift_without_direction(%u: tensor<4xui8>) {
  // expected-error @+1 {{attribute "direction" is expected but not provided}}
  %0 = "graph.bit_shift"(%u, %u) : (tensor<4xui8>, tensor<4xui8>) -> tensor<4xui8>
  return
}

// -----

func.func @negative_dropout_without_segment_sizes(%x: tensor<2xf32>, %r: tensor<f32>) {
  // expected-error @+1 {{operandSegmentSizes}}
  %0 = "graph.dropout"(%x, %r) : (tensor<2xf32>, tensor<f32>) -> tensor<2xf32>
  return
}

// -----

func.func @negative_mod_float_without_fmod(%a: tensor<2xf32>) {
  // expected-error @+1 {{'graph.mod' op attribute 'fmod' must be 1 for float operands (f32), got 0}}
  %0 = "graph.mod"(%a, %a) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @negative_mod_fmod_not_a_flag(%a: tensor<2xi32>) {
  // expected-error @+1 {{'graph.mod' op attribute 'fmod' must be 0 or 1, got 2}}
  %0 = "graph.mod"(%a, %a) {fmod = 2 : i64} : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>
  return
}

// -----

func.func @negative_mod_bool(%a: tensor<2xi1>) {
  // expected-error @+1 {{'graph.mod' op operand #0 ('a') has an unsupported element type: tensor<2xi1>; allowed element types: i8, i16, i32, i64, ui8, ui16, ui32, ui64, f16, bf16, f32, f64}}
  %0 = "graph.mod"(%a, %a) : (tensor<2xi1>, tensor<2xi1>) -> tensor<2xi1>
  return
}

// -----

func.func @negative_xor_int(%a: tensor<2xi8>) {
  // expected-error @+1 {{'graph.xor' op operand #0 ('a') has an unsupported element type: tensor<2xi8>; allowed element types: i1}}
  %0 = "graph.xor"(%a, %a) : (tensor<2xi8>, tensor<2xi8>) -> tensor<2xi1>
  return
}

// -----

func.func @negative_bit_shift_direction(%u: tensor<4xui8>) {
  // expected-error @+1 {{'graph.bit_shift' op attribute 'direction' must be "LEFT" or "RIGHT", got "left"}}
  %0 = "graph.bit_shift"(%u, %u) {direction = "left"} : (tensor<4xui8>, tensor<4xui8>) -> tensor<4xui8>
  return
}

// -----

func.func @negative_bit_shift_signed(%i: tensor<4xi32>) {
  // expected-error @+1 {{'graph.bit_shift' op operand #0 ('x') has an unsupported element type: tensor<4xi32>; allowed element types: ui8, ui16, ui32, ui64}}
  %0 = "graph.bit_shift"(%i, %i) {direction = "LEFT"} : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  return
}

// -----

func.func @negative_bit_shift_broadcast(%u: tensor<4xui8>, %v: tensor<3xui8>) {
  // expected-error @+1 {{'graph.bit_shift' op operands are not broadcast-compatible: tensor<4xui8> and tensor<3xui8> (dimension 0: 4 vs 3)}}
  %0 = "graph.bit_shift"(%u, %v) {direction = "LEFT"} : (tensor<4xui8>, tensor<3xui8>) -> tensor<4xui8>
  return
}

// -----

func.func @negative_bitwise_and_float(%a: tensor<2xf32>) {
  // expected-error @+1 {{'graph.bitwise_and' op operand #0 ('a') has an unsupported element type: tensor<2xf32>; allowed element types: i8, i16, i32, i64, ui8, ui16, ui32, ui64}}
  %0 = "graph.bitwise_and"(%a, %a) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @negative_bitwise_or_types_differ(%a: tensor<2xi32>, %b: tensor<2xi64>) {
  // expected-error @+1 {{'graph.bitwise_or' op operand #1 ('b') must have the element type of operand #0 ('a'), i32, got i64}}
  %0 = "graph.bitwise_or"(%a, %b) : (tensor<2xi32>, tensor<2xi64>) -> tensor<2xi32>
  return
}

// -----

func.func @negative_bitwise_not_bool(%p: tensor<2xi1>) {
  // expected-error @+1 {{'graph.bitwise_not' op operand #0 ('x') has an unsupported element type: tensor<2xi1>}}
  %0 = "graph.bitwise_not"(%p) : (tensor<2xi1>) -> tensor<2xi1>
  return
}

// -----

func.func @negative_sign_bool(%p: tensor<2xi1>) {
  // expected-error @+1 {{'graph.sign' op operand #0 ('input') has an unsupported element type: tensor<2xi1>}}
  %0 = "graph.sign"(%p) : (tensor<2xi1>) -> tensor<2xi1>
  return
}

// -----

func.func @negative_is_nan_int(%i: tensor<2xi32>) {
  // expected-error @+1 {{'graph.is_nan' op operand #0 ('x') has an unsupported element type: tensor<2xi32>; allowed element types: f16, bf16, f32, f64, f8E4M3FN, f8E4M3FNUZ, f8E5M2, f8E5M2FNUZ}}
  %0 = "graph.is_nan"(%i) : (tensor<2xi32>) -> tensor<2xi1>
  return
}

// -----

func.func @negative_is_inf_flag(%x: tensor<2xf32>) {
  // expected-error @+1 {{'graph.is_inf' op attribute 'detect_positive' must be 0 or 1, got -1}}
  %0 = "graph.is_inf"(%x) {detect_positive = -1 : i64} : (tensor<2xf32>) -> tensor<2xi1>
  return
}

// -----

func.func @negative_sin_int(%i: tensor<2xi32>) {
  // expected-error @+1 {{'graph.sin' op operand #0 ('input') has an unsupported element type: tensor<2xi32>; allowed element types: f16, bf16, f32, f64}}
  %0 = "graph.sin"(%i) : (tensor<2xi32>) -> tensor<2xi32>
  return
}

// -----

func.func @negative_selu_gamma_kind(%x: tensor<2xf32>) {
  // expected-error @+1 {{'graph.selu' op attribute 'gamma' must be an f32 float attribute, got 1 : i64}}
  %0 = "graph.selu"(%x) {gamma = 1 : i64} : (tensor<2xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @negative_shrink_bf16(%x: tensor<2xbf16>) {
  // expected-error @+1 {{'graph.shrink' op operand #0 ('input') has an unsupported element type: tensor<2xbf16>; allowed element types: i8, i16, i32, i64, ui8, ui16, ui32, ui64, f16, f32, f64}}
  %0 = "graph.shrink"(%x) : (tensor<2xbf16>) -> tensor<2xbf16>
  return
}

// -----

func.func @negative_celu_f64(%x: tensor<2xf64>) {
  // expected-error @+1 {{'graph.celu' op operand #0 ('x') has an unsupported element type: tensor<2xf64>; allowed element types: f32}}
  %0 = "graph.celu"(%x) : (tensor<2xf64>) -> tensor<2xf64>
  return
}

// -----

func.func @negative_gelu_approximate(%x: tensor<2xf32>) {
  // expected-error @+1 {{'graph.gelu' op attribute 'approximate' must be "none" or "tanh", got "erf"}}
  %0 = "graph.gelu"(%x) {approximate = "erf"} : (tensor<2xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @negative_prelu_slope_not_broadcastable(%x: tensor<2x3xf32>, %s: tensor<2xf32>) {
  // expected-error @+1 {{'graph.prelu' op operand #1 ('slope') must broadcast to the shape of operand #0 ('x'): tensor<2xf32> vs tensor<2x3xf32> (x's dimension 1: 2 vs 3)}}
  %0 = "graph.prelu"(%x, %s) : (tensor<2x3xf32>, tensor<2xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @negative_prelu_slope_rank(%x: tensor<3xf32>, %s: tensor<2x3xf32>) {
  // Bidirectional broadcasting would give 2x3; PRelu's result is x's shape.
  // expected-error @+1 {{'graph.prelu' op operand #1 ('slope') must broadcast to the shape of operand #0 ('x'): tensor<2x3xf32> has a higher rank than tensor<3xf32>}}
  %0 = "graph.prelu"(%x, %s) : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<3xf32>
  return
}

// -----

func.func @negative_prelu_narrow_int(%x: tensor<3xi8>) {
  // expected-error @+1 {{'graph.prelu' op operand #0 ('x') has an unsupported element type: tensor<3xi8>; allowed element types: i32, i64, ui32, ui64, f16, bf16, f32, f64}}
  %0 = "graph.prelu"(%x, %x) : (tensor<3xi8>, tensor<3xi8>) -> tensor<3xi8>
  return
}

// -----

func.func @negative_prelu_types_differ(%x: tensor<3xf32>, %s: tensor<1xf16>) {
  // expected-error @+1 {{'graph.prelu' op operand #1 ('slope') must have the element type of operand #0 ('x'), f32, got f16}}
  %0 = "graph.prelu"(%x, %s) : (tensor<3xf32>, tensor<1xf16>) -> tensor<3xf32>
  return
}

// -----

func.func @negative_less_or_equal_bool(%p: tensor<2xi1>) {
  // expected-error @+1 {{'graph.less_or_equal' op operand #0 ('a') has an unsupported element type: tensor<2xi1>}}
  %0 = "graph.less_or_equal"(%p, %p) : (tensor<2xi1>, tensor<2xi1>) -> tensor<2xi1>
  return
}

// -----

func.func @negative_greater_or_equal_broadcast(%a: tensor<2x3xf32>, %b: tensor<4xf32>) {
  // expected-error @+1 {{'graph.greater_or_equal' op operands are not broadcast-compatible: tensor<2x3xf32> and tensor<4xf32> (dimension 1: 3 vs 4)}}
  %0 = "graph.greater_or_equal"(%a, %b) : (tensor<2x3xf32>, tensor<4xf32>) -> tensor<2x3xi1>
  return
}

// -----

func.func @negative_cast_like_target_index(%x: tensor<2xf32>, %t: tensor<2xindex>) {
  // expected-error @+1 {{'graph.cast_like' op operand #1 ('target_type') has an unsupported element type: tensor<2xindex>}}
  %0 = "graph.cast_like"(%x, %t) : (tensor<2xf32>, tensor<2xindex>) -> tensor<2xindex>
  return
}

// -----

func.func @negative_cast_like_saturate(%x: tensor<2xf32>, %t: tensor<f16>) {
  // expected-error @+1 {{'graph.cast_like' op attribute 'saturate' must be 0 or 1, got 5}}
  %0 = "graph.cast_like"(%x, %t) {saturate = 5 : i64} : (tensor<2xf32>, tensor<f16>) -> tensor<2xf16>
  return
}

// -----

func.func @negative_cast_like_round_mode(%x: tensor<2xf32>, %t: tensor<f16>) {
  // expected-error @+1 {{'graph.cast_like' op attribute 'round_mode' must be "up", "down" or "nearest", got "zero"}}
  %0 = "graph.cast_like"(%x, %t) {round_mode = "zero"} : (tensor<2xf32>, tensor<f16>) -> tensor<2xf16>
  return
}

// -----

func.func @negative_dropout_int_data(%x: tensor<2xi32>) {
  // expected-error @+1 {{'graph.dropout' op operand #0 ('data') has an unsupported element type: tensor<2xi32>}}
  %0 = "graph.dropout"(%x) {operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<2xi32>) -> tensor<2xi32>
  return
}

// -----

func.func @negative_dropout_ratio_not_scalar(%x: tensor<2xf32>, %r: tensor<1xf32>) {
  // expected-error @+1 {{'graph.dropout' op operand #1 ('ratio') must be a scalar (rank 0), got tensor<1xf32>}}
  %0 = "graph.dropout"(%x, %r) {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<2xf32>, tensor<1xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @negative_dropout_ratio_int(%x: tensor<2xf32>, %r: tensor<i64>) {
  // expected-error @+1 {{'graph.dropout' op operand #1 ('ratio') has an unsupported element type: tensor<i64>}}
  %0 = "graph.dropout"(%x, %r) {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<2xf32>, tensor<i64>) -> tensor<2xf32>
  return
}

// -----

func.func @negative_dropout_training_mode_float(%x: tensor<2xf32>, %t: tensor<f32>) {
  // expected-error @+1 {{'graph.dropout' op operand #2 ('training_mode') has an unsupported element type: tensor<f32>; allowed element types: i1}}
  %0 = "graph.dropout"(%x, %t) {operandSegmentSizes = array<i32: 1, 0, 1>} : (tensor<2xf32>, tensor<f32>) -> tensor<2xf32>
  return
}

// -----

func.func @negative_dropout_training_mode_not_scalar(%x: tensor<2xf32>, %t: tensor<1xi1>) {
  // expected-error @+1 {{'graph.dropout' op operand #2 ('training_mode') must be a scalar (rank 0), got tensor<1xi1>}}
  %0 = "graph.dropout"(%x, %t) {operandSegmentSizes = array<i32: 1, 0, 1>} : (tensor<2xf32>, tensor<1xi1>) -> tensor<2xf32>
  return
}

// -----

func.func @negative_dropout_training_mode_true(%x: tensor<2xf32>) {
  %t = "graph.constant"() {value = dense<true> : tensor<i1>} : () -> tensor<i1>
  // expected-error @+1 {{'graph.dropout' op operand #2 ('training_mode') must be absent or a constant false: Kiln compiles dropout for inference only, got a constant true}}
  %0 = "graph.dropout"(%x, %t) {operandSegmentSizes = array<i32: 1, 0, 1>} : (tensor<2xf32>, tensor<i1>) -> tensor<2xf32>
  return
}

// -----

func.func @negative_dropout_training_mode_unknown(%x: tensor<2xf32>, %t: tensor<i1>) {
  // expected-error @+1 {{'graph.dropout' op operand #2 ('training_mode') must be absent or a constant false: Kiln compiles dropout for inference only, got a non-constant value}}
  %0 = "graph.dropout"(%x, %t) {operandSegmentSizes = array<i32: 1, 0, 1>} : (tensor<2xf32>, tensor<i1>) -> tensor<2xf32>
  return
}

// -----

func.func @negative_dropout_three_results(%x: tensor<2xf32>) {
  // expected-error @+1 {{expects at most 2 results, but got 3}}
  %0:3 = "graph.dropout"(%x) {operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<2xf32>) -> (tensor<2xf32>, tensor<2xi1>, tensor<2xi1>)
  return
}

// -----

// Training mode is accepted only with a ratio of constant 0 (an identity).
func.func @negative_dropout_training_ratio(%x: tensor<2xf32>) {
  %r = "graph.constant"() {value = dense<0.25> : tensor<f32>} : () -> tensor<f32>
  %t = "graph.constant"() {value = dense<true> : tensor<i1>} : () -> tensor<i1>
  // expected-error @+1 {{'graph.dropout' op operand #2 ('training_mode') must be absent or a constant false: Kiln compiles dropout for inference only, got a constant true with ratio 0.25 (training-mode dropout is unsupported unless its ratio is a constant 0)}}
  %0 = "graph.dropout"(%x, %r, %t) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<2xf32>, tensor<f32>, tensor<i1>) -> tensor<2xf32>
  return
}

// -----

func.func @negative_dropout_training_default_ratio(%x: tensor<2xf32>) {
  %t = "graph.constant"() {value = dense<true> : tensor<i1>} : () -> tensor<i1>
  // expected-error @+1 {{got a constant true with ratio 0.5 (default)}}
  %0 = "graph.dropout"(%x, %t) {operandSegmentSizes = array<i32: 1, 0, 1>} : (tensor<2xf32>, tensor<i1>) -> tensor<2xf32>
  return
}

// -----

func.func @negative_dropout_training_ratio_unknown(%x: tensor<2xf32>, %r: tensor<f32>) {
  %t = "graph.constant"() {value = dense<true> : tensor<i1>} : () -> tensor<i1>
  // expected-error @+1 {{got a constant true with a non-constant ratio}}
  %0 = "graph.dropout"(%x, %r, %t) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<2xf32>, tensor<f32>, tensor<i1>) -> tensor<2xf32>
  return
}
