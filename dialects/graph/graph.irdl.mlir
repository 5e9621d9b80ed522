// The graph dialect: Kiln's ONNX-level IR, loaded at run time with IRDL.
//
// IRDL checks operand and result counts and base kinds, and required
// attributes. Optional attributes (with ONNX defaults), attribute element
// types and shape rules are in the op table (dialects/graph/ops_*.c) and are
// checked by graph-verify. Ops are printed and parsed in generic form only.
// Names: op = ONNX op type in snake_case; operand names = ONNX input names in
// snake_case (IRDL forbids upper case). Ops with more than one optional or
// variadic operand carry MLIR's `operandSegmentSizes`.
//
// Sections are per op family, matching dialects/graph/ops_<family>.c.
irdl.dialect @graph {
  // ===== BEGIN family: Elementwise (ops_elementwise.c) =====
  // Element types (ONNX's type constraints) and broadcasting are checked by
  // graph-verify; clip's min/max are optional operands, so clip carries
  // operandSegmentSizes.
  irdl.operation @add {
    %t0 = irdl.base "!builtin.tensor"
    %t1 = irdl.base "!builtin.tensor"
    %t2 = irdl.base "!builtin.tensor"
    irdl.operands(a: %t0, b: %t1)
    irdl.results(c: %t2)
  }
  irdl.operation @sub {
    %t0 = irdl.base "!builtin.tensor"
    %t1 = irdl.base "!builtin.tensor"
    %t2 = irdl.base "!builtin.tensor"
    irdl.operands(a: %t0, b: %t1)
    irdl.results(c: %t2)
  }
  irdl.operation @mul {
    %t0 = irdl.base "!builtin.tensor"
    %t1 = irdl.base "!builtin.tensor"
    %t2 = irdl.base "!builtin.tensor"
    irdl.operands(a: %t0, b: %t1)
    irdl.results(c: %t2)
  }
  irdl.operation @div {
    %t0 = irdl.base "!builtin.tensor"
    %t1 = irdl.base "!builtin.tensor"
    %t2 = irdl.base "!builtin.tensor"
    irdl.operands(a: %t0, b: %t1)
    irdl.results(c: %t2)
  }
  irdl.operation @pow {
    %t0 = irdl.base "!builtin.tensor"
    %t1 = irdl.base "!builtin.tensor"
    %t2 = irdl.base "!builtin.tensor"
    irdl.operands(x: %t0, y: %t1)
    irdl.results(z: %t2)
  }
  irdl.operation @neg {
    %t0 = irdl.base "!builtin.tensor"
    %t1 = irdl.base "!builtin.tensor"
    irdl.operands(x: %t0)
    irdl.results(y: %t1)
  }
  irdl.operation @abs {
    %t0 = irdl.base "!builtin.tensor"
    %t1 = irdl.base "!builtin.tensor"
    irdl.operands(x: %t0)
    irdl.results(y: %t1)
  }
  irdl.operation @sqrt {
    %t0 = irdl.base "!builtin.tensor"
    %t1 = irdl.base "!builtin.tensor"
    irdl.operands(x: %t0)
    irdl.results(y: %t1)
  }
  irdl.operation @reciprocal {
    %t0 = irdl.base "!builtin.tensor"
    %t1 = irdl.base "!builtin.tensor"
    irdl.operands(x: %t0)
    irdl.results(y: %t1)
  }
  irdl.operation @exp {
    %t0 = irdl.base "!builtin.tensor"
    %t1 = irdl.base "!builtin.tensor"
    irdl.operands(input: %t0)
    irdl.results(output: %t1)
  }
  irdl.operation @log {
    %t0 = irdl.base "!builtin.tensor"
    %t1 = irdl.base "!builtin.tensor"
    irdl.operands(input: %t0)
    irdl.results(output: %t1)
  }
  irdl.operation @tanh {
    %t0 = irdl.base "!builtin.tensor"
    %t1 = irdl.base "!builtin.tensor"
    irdl.operands(input: %t0)
    irdl.results(output: %t1)
  }
  irdl.operation @sigmoid {
    %t0 = irdl.base "!builtin.tensor"
    %t1 = irdl.base "!builtin.tensor"
    irdl.operands(x: %t0)
    irdl.results(y: %t1)
  }
  irdl.operation @relu {
    %t0 = irdl.base "!builtin.tensor"
    %t1 = irdl.base "!builtin.tensor"
    irdl.operands(x: %t0)
    irdl.results(y: %t1)
  }
  irdl.operation @leaky_relu {
    %t0 = irdl.base "!builtin.tensor"
    %t1 = irdl.base "!builtin.tensor"
    irdl.operands(x: %t0)
    irdl.results(y: %t1)
  }
  irdl.operation @elu {
    %t0 = irdl.base "!builtin.tensor"
    %t1 = irdl.base "!builtin.tensor"
    irdl.operands(x: %t0)
    irdl.results(y: %t1)
  }
  irdl.operation @hard_sigmoid {
    %t0 = irdl.base "!builtin.tensor"
    %t1 = irdl.base "!builtin.tensor"
    irdl.operands(x: %t0)
    irdl.results(y: %t1)
  }
  irdl.operation @clip {
    %t0 = irdl.base "!builtin.tensor"
    %t1 = irdl.base "!builtin.tensor"
    %t2 = irdl.base "!builtin.tensor"
    %t3 = irdl.base "!builtin.tensor"
    irdl.operands(input: %t0, min: optional %t1, max: optional %t2)
    irdl.results(output: %t3)
  }
  irdl.operation @erf {
    %t0 = irdl.base "!builtin.tensor"
    %t1 = irdl.base "!builtin.tensor"
    irdl.operands(input: %t0)
    irdl.results(output: %t1)
  }
  irdl.operation @floor {
    %t0 = irdl.base "!builtin.tensor"
    %t1 = irdl.base "!builtin.tensor"
    irdl.operands(x: %t0)
    irdl.results(y: %t1)
  }
  irdl.operation @ceil {
    %t0 = irdl.base "!builtin.tensor"
    %t1 = irdl.base "!builtin.tensor"
    irdl.operands(x: %t0)
    irdl.results(y: %t1)
  }
  irdl.operation @round {
    %t0 = irdl.base "!builtin.tensor"
    %t1 = irdl.base "!builtin.tensor"
    irdl.operands(x: %t0)
    irdl.results(y: %t1)
  }
  irdl.operation @min {
    %t0 = irdl.base "!builtin.tensor"
    %t1 = irdl.base "!builtin.tensor"
    %t2 = irdl.base "!builtin.tensor"
    irdl.operands(a: %t0, b: %t1)
    irdl.results(min: %t2)
  }
  irdl.operation @max {
    %t0 = irdl.base "!builtin.tensor"
    %t1 = irdl.base "!builtin.tensor"
    %t2 = irdl.base "!builtin.tensor"
    irdl.operands(a: %t0, b: %t1)
    irdl.results(max: %t2)
  }
  irdl.operation @where {
    %t0 = irdl.base "!builtin.tensor"
    %t1 = irdl.base "!builtin.tensor"
    %t2 = irdl.base "!builtin.tensor"
    %t3 = irdl.base "!builtin.tensor"
    irdl.operands(condition: %t0, x: %t1, y: %t2)
    irdl.results(output: %t3)
  }
  irdl.operation @equal {
    %t0 = irdl.base "!builtin.tensor"
    %t1 = irdl.base "!builtin.tensor"
    %t2 = irdl.base "!builtin.tensor"
    irdl.operands(a: %t0, b: %t1)
    irdl.results(c: %t2)
  }
  irdl.operation @less {
    %t0 = irdl.base "!builtin.tensor"
    %t1 = irdl.base "!builtin.tensor"
    %t2 = irdl.base "!builtin.tensor"
    irdl.operands(a: %t0, b: %t1)
    irdl.results(c: %t2)
  }
  irdl.operation @greater {
    %t0 = irdl.base "!builtin.tensor"
    %t1 = irdl.base "!builtin.tensor"
    %t2 = irdl.base "!builtin.tensor"
    irdl.operands(a: %t0, b: %t1)
    irdl.results(c: %t2)
  }
  irdl.operation @not {
    %t0 = irdl.base "!builtin.tensor"
    %t1 = irdl.base "!builtin.tensor"
    irdl.operands(x: %t0)
    irdl.results(y: %t1)
  }
  irdl.operation @and {
    %t0 = irdl.base "!builtin.tensor"
    %t1 = irdl.base "!builtin.tensor"
    %t2 = irdl.base "!builtin.tensor"
    irdl.operands(a: %t0, b: %t1)
    irdl.results(c: %t2)
  }
  irdl.operation @or {
    %t0 = irdl.base "!builtin.tensor"
    %t1 = irdl.base "!builtin.tensor"
    %t2 = irdl.base "!builtin.tensor"
    irdl.operands(a: %t0, b: %t1)
    irdl.results(c: %t2)
  }
  irdl.operation @cast {
    %t0 = irdl.base "!builtin.tensor"
    %t1 = irdl.base "!builtin.tensor"
    %to = irdl.base "#builtin.type"
    irdl.operands(input: %t0)
    irdl.results(output: %t1)
    irdl.attributes {"to" = %to}
  }
  // dropout's ratio and training_mode are optional operands (so it carries
  // operandSegmentSizes, like clip) and its mask is an optional result.
  irdl.operation @mod {
    %t0 = irdl.base "!builtin.tensor"
    %t1 = irdl.base "!builtin.tensor"
    %t2 = irdl.base "!builtin.tensor"
    irdl.operands(a: %t0, b: %t1)
    irdl.results(c: %t2)
  }
  irdl.operation @xor {
    %t0 = irdl.base "!builtin.tensor"
    %t1 = irdl.base "!builtin.tensor"
    %t2 = irdl.base "!builtin.tensor"
    irdl.operands(a: %t0, b: %t1)
    irdl.results(c: %t2)
  }
  irdl.operation @bit_shift {
    %t0 = irdl.base "!builtin.tensor"
    %t1 = irdl.base "!builtin.tensor"
    %t2 = irdl.base "!builtin.tensor"
    %direction = irdl.base "#builtin.string"
    irdl.operands(x: %t0, y: %t1)
    irdl.results(z: %t2)
    irdl.attributes {"direction" = %direction}
  }
  irdl.operation @bitwise_and {
    %t0 = irdl.base "!builtin.tensor"
    %t1 = irdl.base "!builtin.tensor"
    %t2 = irdl.base "!builtin.tensor"
    irdl.operands(a: %t0, b: %t1)
    irdl.results(c: %t2)
  }
  irdl.operation @bitwise_or {
    %t0 = irdl.base "!builtin.tensor"
    %t1 = irdl.base "!builtin.tensor"
    %t2 = irdl.base "!builtin.tensor"
    irdl.operands(a: %t0, b: %t1)
    irdl.results(c: %t2)
  }
  irdl.operation @bitwise_xor {
    %t0 = irdl.base "!builtin.tensor"
    %t1 = irdl.base "!builtin.tensor"
    %t2 = irdl.base "!builtin.tensor"
    irdl.operands(a: %t0, b: %t1)
    irdl.results(c: %t2)
  }
  irdl.operation @bitwise_not {
    %t0 = irdl.base "!builtin.tensor"
    %t1 = irdl.base "!builtin.tensor"
    irdl.operands(x: %t0)
    irdl.results(y: %t1)
  }
  irdl.operation @sign {
    %t0 = irdl.base "!builtin.tensor"
    %t1 = irdl.base "!builtin.tensor"
    irdl.operands(input: %t0)
    irdl.results(output: %t1)
  }
  irdl.operation @is_nan {
    %t0 = irdl.base "!builtin.tensor"
    %t1 = irdl.base "!builtin.tensor"
    irdl.operands(x: %t0)
    irdl.results(y: %t1)
  }
  irdl.operation @is_inf {
    %t0 = irdl.base "!builtin.tensor"
    %t1 = irdl.base "!builtin.tensor"
    irdl.operands(x: %t0)
    irdl.results(y: %t1)
  }
  irdl.operation @sin {
    %t0 = irdl.base "!builtin.tensor"
    %t1 = irdl.base "!builtin.tensor"
    irdl.operands(input: %t0)
    irdl.results(output: %t1)
  }
  irdl.operation @cos {
    %t0 = irdl.base "!builtin.tensor"
    %t1 = irdl.base "!builtin.tensor"
    irdl.operands(input: %t0)
    irdl.results(output: %t1)
  }
  irdl.operation @tan {
    %t0 = irdl.base "!builtin.tensor"
    %t1 = irdl.base "!builtin.tensor"
    irdl.operands(input: %t0)
    irdl.results(output: %t1)
  }
  irdl.operation @asin {
    %t0 = irdl.base "!builtin.tensor"
    %t1 = irdl.base "!builtin.tensor"
    irdl.operands(input: %t0)
    irdl.results(output: %t1)
  }
  irdl.operation @acos {
    %t0 = irdl.base "!builtin.tensor"
    %t1 = irdl.base "!builtin.tensor"
    irdl.operands(input: %t0)
    irdl.results(output: %t1)
  }
  irdl.operation @atan {
    %t0 = irdl.base "!builtin.tensor"
    %t1 = irdl.base "!builtin.tensor"
    irdl.operands(input: %t0)
    irdl.results(output: %t1)
  }
  irdl.operation @sinh {
    %t0 = irdl.base "!builtin.tensor"
    %t1 = irdl.base "!builtin.tensor"
    irdl.operands(input: %t0)
    irdl.results(output: %t1)
  }
  irdl.operation @cosh {
    %t0 = irdl.base "!builtin.tensor"
    %t1 = irdl.base "!builtin.tensor"
    irdl.operands(input: %t0)
    irdl.results(output: %t1)
  }
  irdl.operation @asinh {
    %t0 = irdl.base "!builtin.tensor"
    %t1 = irdl.base "!builtin.tensor"
    irdl.operands(input: %t0)
    irdl.results(output: %t1)
  }
  irdl.operation @acosh {
    %t0 = irdl.base "!builtin.tensor"
    %t1 = irdl.base "!builtin.tensor"
    irdl.operands(input: %t0)
    irdl.results(output: %t1)
  }
  irdl.operation @atanh {
    %t0 = irdl.base "!builtin.tensor"
    %t1 = irdl.base "!builtin.tensor"
    irdl.operands(input: %t0)
    irdl.results(output: %t1)
  }
  irdl.operation @selu {
    %t0 = irdl.base "!builtin.tensor"
    %t1 = irdl.base "!builtin.tensor"
    irdl.operands(x: %t0)
    irdl.results(y: %t1)
  }
  irdl.operation @softplus {
    %t0 = irdl.base "!builtin.tensor"
    %t1 = irdl.base "!builtin.tensor"
    irdl.operands(x: %t0)
    irdl.results(y: %t1)
  }
  irdl.operation @softsign {
    %t0 = irdl.base "!builtin.tensor"
    %t1 = irdl.base "!builtin.tensor"
    irdl.operands(input: %t0)
    irdl.results(output: %t1)
  }
  irdl.operation @thresholded_relu {
    %t0 = irdl.base "!builtin.tensor"
    %t1 = irdl.base "!builtin.tensor"
    irdl.operands(x: %t0)
    irdl.results(y: %t1)
  }
  irdl.operation @shrink {
    %t0 = irdl.base "!builtin.tensor"
    %t1 = irdl.base "!builtin.tensor"
    irdl.operands(input: %t0)
    irdl.results(output: %t1)
  }
  irdl.operation @celu {
    %t0 = irdl.base "!builtin.tensor"
    %t1 = irdl.base "!builtin.tensor"
    irdl.operands(x: %t0)
    irdl.results(y: %t1)
  }
  irdl.operation @hard_swish {
    %t0 = irdl.base "!builtin.tensor"
    %t1 = irdl.base "!builtin.tensor"
    irdl.operands(x: %t0)
    irdl.results(y: %t1)
  }
  irdl.operation @mish {
    %t0 = irdl.base "!builtin.tensor"
    %t1 = irdl.base "!builtin.tensor"
    irdl.operands(x: %t0)
    irdl.results(y: %t1)
  }
  irdl.operation @gelu {
    %t0 = irdl.base "!builtin.tensor"
    %t1 = irdl.base "!builtin.tensor"
    irdl.operands(x: %t0)
    irdl.results(y: %t1)
  }
  irdl.operation @prelu {
    %t0 = irdl.base "!builtin.tensor"
    %t1 = irdl.base "!builtin.tensor"
    %t2 = irdl.base "!builtin.tensor"
    irdl.operands(x: %t0, slope: %t1)
    irdl.results(y: %t2)
  }
  irdl.operation @less_or_equal {
    %t0 = irdl.base "!builtin.tensor"
    %t1 = irdl.base "!builtin.tensor"
    %t2 = irdl.base "!builtin.tensor"
    irdl.operands(a: %t0, b: %t1)
    irdl.results(c: %t2)
  }
  irdl.operation @greater_or_equal {
    %t0 = irdl.base "!builtin.tensor"
    %t1 = irdl.base "!builtin.tensor"
    %t2 = irdl.base "!builtin.tensor"
    irdl.operands(a: %t0, b: %t1)
    irdl.results(c: %t2)
  }
  irdl.operation @cast_like {
    %t0 = irdl.base "!builtin.tensor"
    %t1 = irdl.base "!builtin.tensor"
    %t2 = irdl.base "!builtin.tensor"
    irdl.operands(input: %t0, target_type: %t1)
    irdl.results(output: %t2)
  }
  irdl.operation @dropout {
    %t0 = irdl.base "!builtin.tensor"
    %t1 = irdl.base "!builtin.tensor"
    %t2 = irdl.base "!builtin.tensor"
    %t3 = irdl.base "!builtin.tensor"
    %t4 = irdl.base "!builtin.tensor"
    irdl.operands(data: %t0, ratio: optional %t1, training_mode: optional %t2)
    irdl.results(output: %t3, mask: optional %t4)
  }
  // ===== END family: Elementwise =====

  // ===== BEGIN family: Reduction (ops_reduction.c) =====
  // Only einsum has a required attribute (equation); every other attribute
  // is optional (ONNX defaults in the op table), so none is listed.
  irdl.operation @matmul {
    %t0 = irdl.base "!builtin.tensor"
    %t1 = irdl.base "!builtin.tensor"
    %t2 = irdl.base "!builtin.tensor"
    irdl.operands(a: %t0, b: %t1)
    irdl.results(y: %t2)
  }
  irdl.operation @gemm {
    %t0 = irdl.base "!builtin.tensor"
    %t1 = irdl.base "!builtin.tensor"
    %t2 = irdl.base "!builtin.tensor"
    %t3 = irdl.base "!builtin.tensor"
    irdl.operands(a: %t0, b: %t1, c: optional %t2)
    irdl.results(y: %t3)
  }
  irdl.operation @softmax {
    %t0 = irdl.base "!builtin.tensor"
    %t1 = irdl.base "!builtin.tensor"
    irdl.operands(input: %t0)
    irdl.results(output: %t1)
  }
  irdl.operation @log_softmax {
    %t0 = irdl.base "!builtin.tensor"
    %t1 = irdl.base "!builtin.tensor"
    irdl.operands(input: %t0)
    irdl.results(output: %t1)
  }
  irdl.operation @reduce_sum {
    %t0 = irdl.base "!builtin.tensor"
    %t1 = irdl.base "!builtin.tensor"
    %t2 = irdl.base "!builtin.tensor"
    irdl.operands(data: %t0, axes: optional %t1)
    irdl.results(reduced: %t2)
  }
  irdl.operation @reduce_mean {
    %t0 = irdl.base "!builtin.tensor"
    %t1 = irdl.base "!builtin.tensor"
    %t2 = irdl.base "!builtin.tensor"
    irdl.operands(data: %t0, axes: optional %t1)
    irdl.results(reduced: %t2)
  }
  irdl.operation @reduce_max {
    %t0 = irdl.base "!builtin.tensor"
    %t1 = irdl.base "!builtin.tensor"
    %t2 = irdl.base "!builtin.tensor"
    irdl.operands(data: %t0, axes: optional %t1)
    irdl.results(reduced: %t2)
  }
  irdl.operation @reduce_min {
    %t0 = irdl.base "!builtin.tensor"
    %t1 = irdl.base "!builtin.tensor"
    %t2 = irdl.base "!builtin.tensor"
    irdl.operands(data: %t0, axes: optional %t1)
    irdl.results(reduced: %t2)
  }
  irdl.operation @reduce_prod {
    %t0 = irdl.base "!builtin.tensor"
    %t1 = irdl.base "!builtin.tensor"
    %t2 = irdl.base "!builtin.tensor"
    irdl.operands(data: %t0, axes: optional %t1)
    irdl.results(reduced: %t2)
  }
  irdl.operation @reduce_l2 {
    %t0 = irdl.base "!builtin.tensor"
    %t1 = irdl.base "!builtin.tensor"
    %t2 = irdl.base "!builtin.tensor"
    irdl.operands(data: %t0, axes: optional %t1)
    irdl.results(reduced: %t2)
  }
  irdl.operation @argmax {
    %t0 = irdl.base "!builtin.tensor"
    %t1 = irdl.base "!builtin.tensor"
    irdl.operands(data: %t0)
    irdl.results(reduced: %t1)
  }
  irdl.operation @argmin {
    %t0 = irdl.base "!builtin.tensor"
    %t1 = irdl.base "!builtin.tensor"
    irdl.operands(data: %t0)
    irdl.results(reduced: %t1)
  }
  irdl.operation @reduce_l1 {
    %t0 = irdl.base "!builtin.tensor"
    %t1 = irdl.base "!builtin.tensor"
    %t2 = irdl.base "!builtin.tensor"
    irdl.operands(data: %t0, axes: optional %t1)
    irdl.results(reduced: %t2)
  }
  irdl.operation @reduce_log_sum {
    %t0 = irdl.base "!builtin.tensor"
    %t1 = irdl.base "!builtin.tensor"
    %t2 = irdl.base "!builtin.tensor"
    irdl.operands(data: %t0, axes: optional %t1)
    irdl.results(reduced: %t2)
  }
  irdl.operation @reduce_log_sum_exp {
    %t0 = irdl.base "!builtin.tensor"
    %t1 = irdl.base "!builtin.tensor"
    %t2 = irdl.base "!builtin.tensor"
    irdl.operands(data: %t0, axes: optional %t1)
    irdl.results(reduced: %t2)
  }
  irdl.operation @reduce_sum_square {
    %t0 = irdl.base "!builtin.tensor"
    %t1 = irdl.base "!builtin.tensor"
    %t2 = irdl.base "!builtin.tensor"
    irdl.operands(data: %t0, axes: optional %t1)
    irdl.results(reduced: %t2)
  }
  irdl.operation @cum_sum {
    %t0 = irdl.base "!builtin.tensor"
    %t1 = irdl.base "!builtin.tensor"
    %t2 = irdl.base "!builtin.tensor"
    irdl.operands(x: %t0, axis: %t1)
    irdl.results(y: %t2)
  }
  irdl.operation @hardmax {
    %t0 = irdl.base "!builtin.tensor"
    %t1 = irdl.base "!builtin.tensor"
    irdl.operands(input: %t0)
    irdl.results(output: %t1)
  }
  irdl.operation @top_k {
    %t0 = irdl.base "!builtin.tensor"
    %t1 = irdl.base "!builtin.tensor"
    %t2 = irdl.base "!builtin.tensor"
    %t3 = irdl.base "!builtin.tensor"
    irdl.operands(x: %t0, k: %t1)
    irdl.results(values: %t2, indices: %t3)
  }
  irdl.operation @negative_log_likelihood_loss {
    %t0 = irdl.base "!builtin.tensor"
    %t1 = irdl.base "!builtin.tensor"
    %t2 = irdl.base "!builtin.tensor"
    %t3 = irdl.base "!builtin.tensor"
    irdl.operands(input: %t0, target: %t1, weight: optional %t2)
    irdl.results(loss: %t3)
  }
  irdl.operation @softmax_cross_entropy_loss {
    %t0 = irdl.base "!builtin.tensor"
    %t1 = irdl.base "!builtin.tensor"
    %t2 = irdl.base "!builtin.tensor"
    %t3 = irdl.base "!builtin.tensor"
    %t4 = irdl.base "!builtin.tensor"
    irdl.operands(scores: %t0, labels: %t1, weights: optional %t2)
    irdl.results(output: %t3, log_prob: optional %t4)
  }
  // ONNX Einsum takes a variadic list of inputs, but IRDL would give them
  // one type; Kiln's einsum takes one or two (docs/graph-dialect.md).
  irdl.operation @einsum {
    %t0 = irdl.base "!builtin.tensor"
    %t1 = irdl.base "!builtin.tensor"
    %t2 = irdl.base "!builtin.tensor"
    %equation = irdl.base "#builtin.string"
    irdl.operands(a: %t0, b: optional %t1)
    irdl.results(output: %t2)
    irdl.attributes {"equation" = %equation}
  }
  irdl.operation @det {
    %t0 = irdl.base "!builtin.tensor"
    %t1 = irdl.base "!builtin.tensor"
    irdl.operands(x: %t0)
    irdl.results(y: %t1)
  }
  // ===== END family: Reduction =====

  // ===== BEGIN family: Tensor (ops_tensor.c) =====
  irdl.operation @constant {
    %t0 = irdl.base "!builtin.tensor"
    %dense = irdl.base "#builtin.dense_int_or_fp_elements"
    %resource = irdl.base "#builtin.dense_resource_elements"
    %strings = irdl.base "#builtin.dense_string_elements"
    %value = irdl.any_of(%dense, %resource, %strings)
    irdl.results(output: %t0)
    irdl.attributes {"value" = %value}
  }
  irdl.operation @identity {
    %t0 = irdl.base "!builtin.tensor"
    %t1 = irdl.base "!builtin.tensor"
    irdl.operands(input: %t0)
    irdl.results(output: %t1)
  }
  irdl.operation @reshape {
    %t0 = irdl.base "!builtin.tensor"
    %t1 = irdl.base "!builtin.tensor"
    %t2 = irdl.base "!builtin.tensor"
    irdl.operands(data: %t0, shape: %t1)
    irdl.results(reshaped: %t2)
  }
  irdl.operation @flatten {
    %t0 = irdl.base "!builtin.tensor"
    %t1 = irdl.base "!builtin.tensor"
    irdl.operands(input: %t0)
    irdl.results(output: %t1)
  }
  irdl.operation @transpose {
    %t0 = irdl.base "!builtin.tensor"
    %t1 = irdl.base "!builtin.tensor"
    irdl.operands(data: %t0)
    irdl.results(transposed: %t1)
  }
  // Binary: a variadic operand would bind every input to one type (see
  // docs/graph-dialect.md); N-ary ONNX Concat imports as a chain.
  irdl.operation @concat {
    %t0 = irdl.base "!builtin.tensor"
    %t1 = irdl.base "!builtin.tensor"
    %t2 = irdl.base "!builtin.tensor"
    %axis = irdl.base "#builtin.integer"
    irdl.operands(a: %t0, b: %t1)
    irdl.results(concat_result: %t2)
    irdl.attributes {"axis" = %axis}
  }
  // Variadic results share one type: equal pieces only (unequal ONNX splits
  // import as graph.slice ops).
  irdl.operation @split {
    %t0 = irdl.base "!builtin.tensor"
    %t1 = irdl.base "!builtin.tensor"
    %t2 = irdl.base "!builtin.tensor"
    irdl.operands(input: %t0, split: optional %t1)
    irdl.results(outputs: variadic %t2)
  }
  irdl.operation @slice {
    %t0 = irdl.base "!builtin.tensor"
    %t1 = irdl.base "!builtin.tensor"
    %t2 = irdl.base "!builtin.tensor"
    %t3 = irdl.base "!builtin.tensor"
    %t4 = irdl.base "!builtin.tensor"
    %t5 = irdl.base "!builtin.tensor"
    irdl.operands(data: %t0, starts: %t1, ends: %t2, axes: optional %t3, steps: optional %t4)
    irdl.results(output: %t5)
  }
  irdl.operation @gather {
    %t0 = irdl.base "!builtin.tensor"
    %t1 = irdl.base "!builtin.tensor"
    %t2 = irdl.base "!builtin.tensor"
    irdl.operands(data: %t0, indices: %t1)
    irdl.results(output: %t2)
  }
  irdl.operation @squeeze {
    %t0 = irdl.base "!builtin.tensor"
    %t1 = irdl.base "!builtin.tensor"
    %t2 = irdl.base "!builtin.tensor"
    irdl.operands(data: %t0, axes: optional %t1)
    irdl.results(squeezed: %t2)
  }
  irdl.operation @unsqueeze {
    %t0 = irdl.base "!builtin.tensor"
    %t1 = irdl.base "!builtin.tensor"
    %t2 = irdl.base "!builtin.tensor"
    irdl.operands(data: %t0, axes: %t1)
    irdl.results(expanded: %t2)
  }
  irdl.operation @expand {
    %t0 = irdl.base "!builtin.tensor"
    %t1 = irdl.base "!builtin.tensor"
    %t2 = irdl.base "!builtin.tensor"
    irdl.operands(input: %t0, shape: %t1)
    irdl.results(output: %t2)
  }
  irdl.operation @tile {
    %t0 = irdl.base "!builtin.tensor"
    %t1 = irdl.base "!builtin.tensor"
    %t2 = irdl.base "!builtin.tensor"
    irdl.operands(input: %t0, repeats: %t1)
    irdl.results(output: %t2)
  }
  irdl.operation @shape {
    %t0 = irdl.base "!builtin.tensor"
    %t1 = irdl.base "!builtin.tensor"
    irdl.operands(data: %t0)
    irdl.results(shape: %t1)
  }
  irdl.operation @range {
    %t0 = irdl.base "!builtin.tensor"
    %t1 = irdl.base "!builtin.tensor"
    %t2 = irdl.base "!builtin.tensor"
    %t3 = irdl.base "!builtin.tensor"
    irdl.operands(start: %t0, limit: %t1, delta: %t2)
    irdl.results(output: %t3)
  }
  irdl.operation @pad {
    %t0 = irdl.base "!builtin.tensor"
    %t1 = irdl.base "!builtin.tensor"
    %t2 = irdl.base "!builtin.tensor"
    %t3 = irdl.base "!builtin.tensor"
    %t4 = irdl.base "!builtin.tensor"
    irdl.operands(data: %t0, pads: %t1, constant_value: optional %t2, axes: optional %t3)
    irdl.results(output: %t4)
  }
  irdl.operation @depth_to_space {
    %t0 = irdl.base "!builtin.tensor"
    %t1 = irdl.base "!builtin.tensor"
    %blocksize = irdl.base "#builtin.integer"
    irdl.operands(input: %t0)
    irdl.results(output: %t1)
    irdl.attributes {"blocksize" = %blocksize}
  }
  irdl.operation @space_to_depth {
    %t0 = irdl.base "!builtin.tensor"
    %t1 = irdl.base "!builtin.tensor"
    %blocksize = irdl.base "#builtin.integer"
    irdl.operands(input: %t0)
    irdl.results(output: %t1)
    irdl.attributes {"blocksize" = %blocksize}
  }
  irdl.operation @gather_elements {
    %t0 = irdl.base "!builtin.tensor"
    %t1 = irdl.base "!builtin.tensor"
    %t2 = irdl.base "!builtin.tensor"
    irdl.operands(data: %t0, indices: %t1)
    irdl.results(output: %t2)
  }
  irdl.operation @gather_nd {
    %t0 = irdl.base "!builtin.tensor"
    %t1 = irdl.base "!builtin.tensor"
    %t2 = irdl.base "!builtin.tensor"
    irdl.operands(data: %t0, indices: %t1)
    irdl.results(output: %t2)
  }
  irdl.operation @scatter_elements {
    %t0 = irdl.base "!builtin.tensor"
    %t1 = irdl.base "!builtin.tensor"
    %t2 = irdl.base "!builtin.tensor"
    %t3 = irdl.base "!builtin.tensor"
    irdl.operands(data: %t0, indices: %t1, updates: %t2)
    irdl.results(output: %t3)
  }
  irdl.operation @scatter_nd {
    %t0 = irdl.base "!builtin.tensor"
    %t1 = irdl.base "!builtin.tensor"
    %t2 = irdl.base "!builtin.tensor"
    %t3 = irdl.base "!builtin.tensor"
    irdl.operands(data: %t0, indices: %t1, updates: %t2)
    irdl.results(output: %t3)
  }
  irdl.operation @trilu {
    %t0 = irdl.base "!builtin.tensor"
    %t1 = irdl.base "!builtin.tensor"
    %t2 = irdl.base "!builtin.tensor"
    irdl.operands(input: %t0, k: optional %t1)
    irdl.results(output: %t2)
  }
  irdl.operation @constant_of_shape {
    %t0 = irdl.base "!builtin.tensor"
    %t1 = irdl.base "!builtin.tensor"
    irdl.operands(input: %t0)
    irdl.results(output: %t1)
  }
  irdl.operation @size {
    %t0 = irdl.base "!builtin.tensor"
    %t1 = irdl.base "!builtin.tensor"
    irdl.operands(data: %t0)
    irdl.results(size: %t1)
  }
  irdl.operation @eye_like {
    %t0 = irdl.base "!builtin.tensor"
    %t1 = irdl.base "!builtin.tensor"
    irdl.operands(input: %t0)
    irdl.results(output: %t1)
  }
  irdl.operation @one_hot {
    %t0 = irdl.base "!builtin.tensor"
    %t1 = irdl.base "!builtin.tensor"
    %t2 = irdl.base "!builtin.tensor"
    %t3 = irdl.base "!builtin.tensor"
    irdl.operands(indices: %t0, depth: %t1, values: %t2)
    irdl.results(output: %t3)
  }
  irdl.operation @reverse_sequence {
    %t0 = irdl.base "!builtin.tensor"
    %t1 = irdl.base "!builtin.tensor"
    %t2 = irdl.base "!builtin.tensor"
    irdl.operands(input: %t0, sequence_lens: %t1)
    irdl.results(y: %t2)
  }
  // Data-dependent result shapes: the counted dims are dynamic.
  irdl.operation @non_zero {
    %t0 = irdl.base "!builtin.tensor"
    %t1 = irdl.base "!builtin.tensor"
    irdl.operands(x: %t0)
    irdl.results(y: %t1)
  }
  irdl.operation @compress {
    %t0 = irdl.base "!builtin.tensor"
    %t1 = irdl.base "!builtin.tensor"
    %t2 = irdl.base "!builtin.tensor"
    irdl.operands(input: %t0, condition: %t1)
    irdl.results(output: %t2)
  }
  // Optional results may be left off only from the end: type inference
  // reads the present ones by position.
  irdl.operation @unique {
    %t0 = irdl.base "!builtin.tensor"
    %t1 = irdl.base "!builtin.tensor"
    %t2 = irdl.base "!builtin.tensor"
    %t3 = irdl.base "!builtin.tensor"
    %t4 = irdl.base "!builtin.tensor"
    irdl.operands(x: %t0)
    irdl.results(y: %t1, indices: optional %t2, inverse_indices: optional %t3, counts: optional %t4)
  }
  irdl.operation @non_max_suppression {
    %t0 = irdl.base "!builtin.tensor"
    %t1 = irdl.base "!builtin.tensor"
    %t2 = irdl.base "!builtin.tensor"
    %t3 = irdl.base "!builtin.tensor"
    %t4 = irdl.base "!builtin.tensor"
    %t5 = irdl.base "!builtin.tensor"
    irdl.operands(boxes: %t0, scores: %t1, max_output_boxes_per_class: optional %t2, iou_threshold: optional %t3, score_threshold: optional %t4)
    irdl.results(selected_indices: %t5)
  }
  // ===== END family: Tensor =====

  // ===== BEGIN family: NN (ops_nn.c) =====
  irdl.operation @conv {
    %x = irdl.base "!builtin.tensor"
    %w = irdl.base "!builtin.tensor"
    %b = irdl.base "!builtin.tensor"
    %y = irdl.base "!builtin.tensor"
    irdl.operands(x: %x, w: %w, b: optional %b)
    irdl.results(y: %y)
  }
  irdl.operation @conv_transpose {
    %x = irdl.base "!builtin.tensor"
    %w = irdl.base "!builtin.tensor"
    %b = irdl.base "!builtin.tensor"
    %y = irdl.base "!builtin.tensor"
    irdl.operands(x: %x, w: %w, b: optional %b)
    irdl.results(y: %y)
  }
  irdl.operation @max_pool {
    %x = irdl.base "!builtin.tensor"
    %y = irdl.base "!builtin.tensor"
    %indices = irdl.base "!builtin.tensor"
    %kernel = irdl.base "#builtin.dense_array"
    irdl.operands(x: %x)
    irdl.results(y: %y, indices: optional %indices)
    irdl.attributes {"kernel_shape" = %kernel}
  }
  irdl.operation @average_pool {
    %x = irdl.base "!builtin.tensor"
    %y = irdl.base "!builtin.tensor"
    %kernel = irdl.base "#builtin.dense_array"
    irdl.operands(x: %x)
    irdl.results(y: %y)
    irdl.attributes {"kernel_shape" = %kernel}
  }
  irdl.operation @global_average_pool {
    %x = irdl.base "!builtin.tensor"
    %y = irdl.base "!builtin.tensor"
    irdl.operands(x: %x)
    irdl.results(y: %y)
  }
  irdl.operation @global_max_pool {
    %x = irdl.base "!builtin.tensor"
    %y = irdl.base "!builtin.tensor"
    irdl.operands(x: %x)
    irdl.results(y: %y)
  }
  irdl.operation @batch_norm {
    %x = irdl.base "!builtin.tensor"
    %scale = irdl.base "!builtin.tensor"
    %b = irdl.base "!builtin.tensor"
    %mean = irdl.base "!builtin.tensor"
    %var = irdl.base "!builtin.tensor"
    %y = irdl.base "!builtin.tensor"
    // ONNX's optional running_mean and running_var (training_mode = 1)
    // share one type, so one variadic holds both and IR without them needs
    // no resultSegmentSizes.
    %running_mean_var = irdl.base "!builtin.tensor"
    irdl.operands(x: %x, scale: %scale, b: %b, input_mean: %mean,
                  input_var: %var)
    irdl.results(y: %y, running_mean_var: variadic %running_mean_var)
  }
  irdl.operation @instance_norm {
    %input = irdl.base "!builtin.tensor"
    %scale = irdl.base "!builtin.tensor"
    %b = irdl.base "!builtin.tensor"
    %output = irdl.base "!builtin.tensor"
    irdl.operands(input: %input, scale: %scale, b: %b)
    irdl.results(output: %output)
  }
  irdl.operation @layer_norm {
    %x = irdl.base "!builtin.tensor"
    %scale = irdl.base "!builtin.tensor"
    %b = irdl.base "!builtin.tensor"
    %y = irdl.base "!builtin.tensor"
    // ONNX's optional Mean and InvStdDev share one type: one variadic, as
    // batch_norm's statistics.
    %mean_inv_std_dev = irdl.base "!builtin.tensor"
    irdl.operands(x: %x, scale: %scale, b: optional %b)
    irdl.results(y: %y, mean_inv_std_dev: variadic %mean_inv_std_dev)
  }
  irdl.operation @lrn {
    %x = irdl.base "!builtin.tensor"
    %y = irdl.base "!builtin.tensor"
    %size = irdl.base "#builtin.integer"
    irdl.operands(x: %x)
    irdl.results(y: %y)
    irdl.attributes {"size" = %size}
  }
  irdl.operation @mean_variance_normalization {
    %x = irdl.base "!builtin.tensor"
    %y = irdl.base "!builtin.tensor"
    irdl.operands(x: %x)
    irdl.results(y: %y)
  }
  // ONNX's Y is optional too, but an imported node always gets it (results
  // are positional), so Kiln makes it mandatory.
  irdl.operation @rnn {
    %x = irdl.base "!builtin.tensor"
    %w = irdl.base "!builtin.tensor"
    %r = irdl.base "!builtin.tensor"
    %b = irdl.base "!builtin.tensor"
    %sequence_lens = irdl.base "!builtin.tensor"
    %initial_h = irdl.base "!builtin.tensor"
    %y = irdl.base "!builtin.tensor"
    %y_h = irdl.base "!builtin.tensor"
    irdl.operands(x: %x, w: %w, r: %r, b: optional %b,
                  sequence_lens: optional %sequence_lens,
                  initial_h: optional %initial_h)
    irdl.results(y: %y, y_h: optional %y_h)
  }
  irdl.operation @gru {
    %x = irdl.base "!builtin.tensor"
    %w = irdl.base "!builtin.tensor"
    %r = irdl.base "!builtin.tensor"
    %b = irdl.base "!builtin.tensor"
    %sequence_lens = irdl.base "!builtin.tensor"
    %initial_h = irdl.base "!builtin.tensor"
    %y = irdl.base "!builtin.tensor"
    %y_h = irdl.base "!builtin.tensor"
    irdl.operands(x: %x, w: %w, r: %r, b: optional %b,
                  sequence_lens: optional %sequence_lens,
                  initial_h: optional %initial_h)
    irdl.results(y: %y, y_h: optional %y_h)
  }
  irdl.operation @lstm {
    %x = irdl.base "!builtin.tensor"
    %w = irdl.base "!builtin.tensor"
    %r = irdl.base "!builtin.tensor"
    %b = irdl.base "!builtin.tensor"
    %sequence_lens = irdl.base "!builtin.tensor"
    %initial_h = irdl.base "!builtin.tensor"
    %initial_c = irdl.base "!builtin.tensor"
    %p = irdl.base "!builtin.tensor"
    %y = irdl.base "!builtin.tensor"
    %y_h = irdl.base "!builtin.tensor"
    %y_c = irdl.base "!builtin.tensor"
    irdl.operands(x: %x, w: %w, r: %r, b: optional %b,
                  sequence_lens: optional %sequence_lens,
                  initial_h: optional %initial_h,
                  initial_c: optional %initial_c, p: optional %p)
    irdl.results(y: %y, y_h: optional %y_h, y_c: optional %y_c)
  }
  irdl.operation @max_unpool {
    %x = irdl.base "!builtin.tensor"
    %i = irdl.base "!builtin.tensor"
    %output_shape = irdl.base "!builtin.tensor"
    %output = irdl.base "!builtin.tensor"
    %kernel = irdl.base "#builtin.dense_array"
    irdl.operands(x: %x, i: %i, output_shape: optional %output_shape)
    irdl.results(output: %output)
    irdl.attributes {"kernel_shape" = %kernel}
  }
  irdl.operation @grid_sample {
    %x = irdl.base "!builtin.tensor"
    %grid = irdl.base "!builtin.tensor"
    %y = irdl.base "!builtin.tensor"
    irdl.operands(x: %x, grid: %grid)
    irdl.results(y: %y)
  }
  irdl.operation @roi_align {
    %x = irdl.base "!builtin.tensor"
    %rois = irdl.base "!builtin.tensor"
    %batch_indices = irdl.base "!builtin.tensor"
    %y = irdl.base "!builtin.tensor"
    irdl.operands(x: %x, rois: %rois, batch_indices: %batch_indices)
    irdl.results(y: %y)
  }
  irdl.operation @resize {
    %x = irdl.base "!builtin.tensor"
    %roi = irdl.base "!builtin.tensor"
    %scales = irdl.base "!builtin.tensor"
    %sizes = irdl.base "!builtin.tensor"
    %y = irdl.base "!builtin.tensor"
    irdl.operands(x: %x, roi: optional %roi, scales: optional %scales,
                  sizes: optional %sizes)
    irdl.results(y: %y)
  }
  // ===== END family: NN =====

  // ===== BEGIN family: Quant (ops_quant.c) =====
  // Scales and zero points are operands; their element types (quantized
  // int/float8 types, float scales, i32 results) and shapes are checked by
  // graph-verify. matmul_integer and conv_integer carry
  // operandSegmentSizes (two optional zero points).
  irdl.operation @quantize_linear {
    %x = irdl.base "!builtin.tensor"
    %scale = irdl.base "!builtin.tensor"
    %zp = irdl.base "!builtin.tensor"
    %y = irdl.base "!builtin.tensor"
    irdl.operands(x: %x, y_scale: %scale, y_zero_point: optional %zp)
    irdl.results(y: %y)
  }
  irdl.operation @dequantize_linear {
    %x = irdl.base "!builtin.tensor"
    %scale = irdl.base "!builtin.tensor"
    %zp = irdl.base "!builtin.tensor"
    %y = irdl.base "!builtin.tensor"
    irdl.operands(x: %x, x_scale: %scale, x_zero_point: optional %zp)
    irdl.results(y: %y)
  }
  irdl.operation @dynamic_quantize_linear {
    %x = irdl.base "!builtin.tensor"
    %y = irdl.base "!builtin.tensor"
    %scale = irdl.base "!builtin.tensor"
    %zp = irdl.base "!builtin.tensor"
    irdl.operands(x: %x)
    irdl.results(y: %y, y_scale: %scale, y_zero_point: %zp)
  }
  irdl.operation @matmul_integer {
    %a = irdl.base "!builtin.tensor"
    %b = irdl.base "!builtin.tensor"
    %azp = irdl.base "!builtin.tensor"
    %bzp = irdl.base "!builtin.tensor"
    %y = irdl.base "!builtin.tensor"
    irdl.operands(a: %a, b: %b, a_zero_point: optional %azp,
                  b_zero_point: optional %bzp)
    irdl.results(y: %y)
  }
  irdl.operation @conv_integer {
    %x = irdl.base "!builtin.tensor"
    %w = irdl.base "!builtin.tensor"
    %xzp = irdl.base "!builtin.tensor"
    %wzp = irdl.base "!builtin.tensor"
    %y = irdl.base "!builtin.tensor"
    irdl.operands(x: %x, w: %w, x_zero_point: optional %xzp,
                  w_zero_point: optional %wzp)
    irdl.results(y: %y)
  }
  irdl.operation @qlinear_matmul {
    %a = irdl.base "!builtin.tensor"
    %as = irdl.base "!builtin.tensor"
    %azp = irdl.base "!builtin.tensor"
    %b = irdl.base "!builtin.tensor"
    %bs = irdl.base "!builtin.tensor"
    %bzp = irdl.base "!builtin.tensor"
    %ys = irdl.base "!builtin.tensor"
    %yzp = irdl.base "!builtin.tensor"
    %y = irdl.base "!builtin.tensor"
    irdl.operands(a: %a, a_scale: %as, a_zero_point: %azp, b: %b,
                  b_scale: %bs, b_zero_point: %bzp, y_scale: %ys,
                  y_zero_point: %yzp)
    irdl.results(y: %y)
  }
  irdl.operation @qlinear_conv {
    %x = irdl.base "!builtin.tensor"
    %xs = irdl.base "!builtin.tensor"
    %xzp = irdl.base "!builtin.tensor"
    %w = irdl.base "!builtin.tensor"
    %ws = irdl.base "!builtin.tensor"
    %wzp = irdl.base "!builtin.tensor"
    %ys = irdl.base "!builtin.tensor"
    %yzp = irdl.base "!builtin.tensor"
    %b = irdl.base "!builtin.tensor"
    %y = irdl.base "!builtin.tensor"
    irdl.operands(x: %x, x_scale: %xs, x_zero_point: %xzp, w: %w,
                  w_scale: %ws, w_zero_point: %wzp, y_scale: %ys,
                  y_zero_point: %yzp, b: optional %b)
    irdl.results(y: %y)
  }
  // ===== END family: Quant =====
}
