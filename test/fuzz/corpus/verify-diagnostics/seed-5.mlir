
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
