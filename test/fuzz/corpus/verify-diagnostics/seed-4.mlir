
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
