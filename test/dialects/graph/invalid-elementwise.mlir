// RUN: kiln-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(func.func(graph-verify))'

// One case per error the elementwise ops report: IRDL's structural checks
// first, then graph-verify's element-type, broadcasting and attribute rules.

func.func @negative_add_missing_operand(%a: tensor<2xf32>) {
  // expected-error @+1 {{expects exactly 2 operands, but got 1}}
  %0 = "graph.add"(%a) : (tensor<2xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @negative_clip_without_segment_sizes(%x: tensor<2xf32>, %m: tensor<f32>) {
  // expected-error @+1 {{operandSegmentSizes}}
  %0 = "graph.clip"(%x, %m) : (tensor<2xf32>, tensor<f32>) -> tensor<2xf32>
  return
}

// -----

func.func @negative_cast_without_to(%x: tensor<2xf32>) {
  // expected-error @+1 {{attribute "to" is expected but not provided}}
  %0 = "graph.cast"(%x) : (tensor<2xf32>) -> tensor<2xf16>
  return
}

// -----

func.func @negative_cast_to_not_a_type(%x: tensor<2xf32>) {
  // expected-error @+1 {{expected base attribute 'builtin.type' but got 'builtin.integer'}}
  %0 = "graph.cast"(%x) {to = 10 : i64} : (tensor<2xf32>) -> tensor<2xf16>
  return
}

// -----

func.func @negative_max_one_operand(%a: tensor<4xf32>) {
  // expected-error @+1 {{expects exactly 2 operands, but got 1}}
  %0 = "graph.max"(%a) : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @negative_min_three_operands(%a: tensor<4xf32>) {
  // expected-error @+1 {{expects exactly 2 operands, but got 3}}
  %0 = "graph.min"(%a, %a, %a) : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @negative_add_element_types_differ(%a: tensor<2xf32>, %b: tensor<2xf16>) {
  // expected-error @+1 {{'graph.add' op operand #1 ('b') must have the element type of operand #0 ('a'), f32, got f16}}
  %0 = "graph.add"(%a, %b) : (tensor<2xf32>, tensor<2xf16>) -> tensor<2xf32>
  return
}

// -----

func.func @negative_mul_not_broadcastable(%a: tensor<2x3xf32>, %b: tensor<4xf32>) {
  // expected-error @+1 {{'graph.mul' op operands are not broadcast-compatible: tensor<2x3xf32> and tensor<4xf32> (dimension 1: 3 vs 4)}}
  %0 = "graph.mul"(%a, %b) : (tensor<2x3xf32>, tensor<4xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @negative_sub_bool(%a: tensor<2xi1>, %b: tensor<2xi1>) {
  // expected-error @+1 {{'graph.sub' op operand #0 ('a') has an unsupported element type: tensor<2xi1>; allowed element types: i8, i16, i32, i64, ui8, ui16, ui32, ui64, f16, bf16, f32, f64}}
  %0 = "graph.sub"(%a, %b) : (tensor<2xi1>, tensor<2xi1>) -> tensor<2xi1>
  return
}

// -----

func.func @negative_sqrt_integer(%x: tensor<4xi32>) {
  // expected-error @+1 {{'graph.sqrt' op operand #0 ('x') has an unsupported element type: tensor<4xi32>; allowed element types: f16, bf16, f32, f64}}
  %0 = "graph.sqrt"(%x) : (tensor<4xi32>) -> tensor<4xi32>
  return
}

// -----

func.func @negative_neg_unsigned(%x: tensor<4xui8>) {
  // expected-error @+1 {{'graph.neg' op operand #0 ('x') has an unsupported element type: tensor<4xui8>; allowed element types: i8, i16, i32, i64, f16, bf16, f32, f64}}
  %0 = "graph.neg"(%x) : (tensor<4xui8>) -> tensor<4xui8>
  return
}

// -----

func.func @negative_relu_index(%x: tensor<4xindex>) {
  // expected-error @+1 {{'graph.relu' op operand #0 ('x') has an unsupported element type: tensor<4xindex>}}
  %0 = "graph.relu"(%x) : (tensor<4xindex>) -> tensor<4xindex>
  return
}

// -----

func.func @negative_exp_unranked(%x: tensor<*xf32>) {
  // IRDL's "!builtin.tensor" base excludes unranked tensors.
  // expected-error @+1 {{expected base type 'builtin.tensor' but got 'builtin.unranked_tensor'}}
  %0 = "graph.exp"(%x) : (tensor<*xf32>) -> tensor<*xf32>
  return
}

// -----

func.func @negative_pow_narrow_base(%x: tensor<4xi8>, %y: tensor<i8>) {
  // expected-error @+1 {{'graph.pow' op operand #0 ('x') has an unsupported element type: tensor<4xi8>; allowed element types: i32, i64, f16, bf16, f32, f64}}
  %0 = "graph.pow"(%x, %y) : (tensor<4xi8>, tensor<i8>) -> tensor<4xi8>
  return
}

// -----

func.func @negative_pow_bool_exponent(%x: tensor<4xf32>, %y: tensor<i1>) {
  // expected-error @+1 {{'graph.pow' op operand #1 ('y') has an unsupported element type: tensor<i1>}}
  %0 = "graph.pow"(%x, %y) : (tensor<4xf32>, tensor<i1>) -> tensor<4xf32>
  return
}

// -----

func.func @negative_leaky_relu_alpha_kind(%x: tensor<4xf32>) {
  // expected-error @+1 {{'graph.leaky_relu' op attribute 'alpha' must be an f32 float attribute, got 1 : i64}}
  %0 = "graph.leaky_relu"(%x) {alpha = 1 : i64} : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @negative_clip_bound_not_scalar(%x: tensor<4xf32>, %m: tensor<2xf32>) {
  // expected-error @+1 {{'graph.clip' op operand #1 ('min') must be a scalar, got tensor<2xf32>}}
  %0 = "graph.clip"(%x, %m) {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<4xf32>, tensor<2xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @negative_clip_bound_element_type(%x: tensor<4xf32>, %m: tensor<f64>) {
  // expected-error @+1 {{'graph.clip' op operand #2 ('max') must have the element type of operand #0 ('input'), f32, got f64}}
  %0 = "graph.clip"(%x, %m) {operandSegmentSizes = array<i32: 1, 0, 1>} : (tensor<4xf32>, tensor<f64>) -> tensor<4xf32>
  return
}

// -----

func.func @negative_min_not_broadcastable(%a: tensor<2x3xf32>, %b: tensor<4xf32>) {
  // expected-error @+1 {{'graph.min' op operands are not broadcast-compatible: tensor<2x3xf32> and tensor<4xf32> (dimension 1: 3 vs 4)}}
  %0 = "graph.min"(%a, %b) : (tensor<2x3xf32>, tensor<4xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @negative_max_element_types_differ(%a: tensor<3x1xf32>, %b: tensor<4xf64>) {
  // expected-error @+1 {{'graph.max' op operand #1 ('b') must have the element type of operand #0 ('a'), f32, got f64}}
  %0 = "graph.max"(%a, %b) : (tensor<3x1xf32>, tensor<4xf64>) -> tensor<3x4xf32>
  return
}

// -----

func.func @negative_max_bool(%a: tensor<4xi1>) {
  // expected-error @+1 {{'graph.max' op operand #0 ('a') has an unsupported element type: tensor<4xi1>}}
  %0 = "graph.max"(%a, %a) : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  return
}

// -----

func.func @negative_where_condition_not_bool(%c: tensor<4xf32>, %x: tensor<4xf32>) {
  // expected-error @+1 {{'graph.where' op operand #0 ('condition') has an unsupported element type: tensor<4xf32>; allowed element types: i1}}
  %0 = "graph.where"(%c, %x, %x) : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @negative_where_branches_differ(%c: tensor<4xi1>, %x: tensor<4xf32>, %y: tensor<4xi32>) {
  // expected-error @+1 {{'graph.where' op operand #2 ('y') must have the element type of operand #1 ('x'), f32, got i32}}
  %0 = "graph.where"(%c, %x, %y) : (tensor<4xi1>, tensor<4xf32>, tensor<4xi32>) -> tensor<4xf32>
  return
}

// -----

func.func @negative_where_condition_not_broadcastable(%c: tensor<3xi1>, %x: tensor<2x1xf32>, %y: tensor<4xf32>) {
  // expected-error @+1 {{'graph.where' op operands are not broadcast-compatible: tensor<3xi1> and tensor<2x4xf32> (dimension 1: 3 vs 4)}}
  %0 = "graph.where"(%c, %x, %y) : (tensor<3xi1>, tensor<2x1xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  return
}

// -----

func.func @negative_less_bool(%a: tensor<4xi1>) {
  // expected-error @+1 {{'graph.less' op operand #0 ('a') has an unsupported element type: tensor<4xi1>}}
  %0 = "graph.less"(%a, %a) : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  return
}

// -----

func.func @negative_and_not_bool(%a: tensor<4xi8>) {
  // expected-error @+1 {{'graph.and' op operand #0 ('a') has an unsupported element type: tensor<4xi8>; allowed element types: i1}}
  %0 = "graph.and"(%a, %a) : (tensor<4xi8>, tensor<4xi8>) -> tensor<4xi8>
  return
}

// -----

func.func @negative_not_float(%x: tensor<4xf32>) {
  // expected-error @+1 {{'graph.not' op operand #0 ('x') has an unsupported element type: tensor<4xf32>; allowed element types: i1}}
  %0 = "graph.not"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @negative_cast_to_tensor(%x: tensor<4xf32>) {
  // expected-error @+1 {{'graph.cast' op attribute 'to' must be an element type, got tensor<4xf16>; allowed: i1,}}
  %0 = "graph.cast"(%x) {to = tensor<4xf16>} : (tensor<4xf32>) -> tensor<4xf16>
  return
}

// -----

func.func @negative_cast_to_index(%x: tensor<4xf32>) {
  // expected-error @+1 {{'graph.cast' op attribute 'to' must be an element type, got index}}
  %0 = "graph.cast"(%x) {to = index} : (tensor<4xf32>) -> tensor<4xindex>
  return
}

// -----

func.func @negative_cast_saturate(%x: tensor<4xf32>) {
  // expected-error @+1 {{'graph.cast' op attribute 'saturate' must be 0 or 1, got 2}}
  %0 = "graph.cast"(%x) {to = f8E5M2, saturate = 2 : i64} : (tensor<4xf32>) -> tensor<4xf8E5M2>
  return
}

// -----

func.func @negative_cast_round_mode(%x: tensor<4xf32>) {
  // expected-error @+1 {{'graph.cast' op attribute 'round_mode' must be "up", "down" or "nearest", got "zero"}}
  %0 = "graph.cast"(%x) {to = f8E8M0FNU, round_mode = "zero"} : (tensor<4xf32>) -> tensor<4xf8E8M0FNU>
  return
}
