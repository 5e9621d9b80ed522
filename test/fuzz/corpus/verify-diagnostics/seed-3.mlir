
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
