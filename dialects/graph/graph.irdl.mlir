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
  // ===== END family: Elementwise =====

  // ===== BEGIN family: Reduction (ops_reduction.c) =====
  // All attributes of these ops are optional (ONNX defaults in the op
  // table), so none is listed here.
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
    irdl.operands(x: %x, scale: %scale, b: %b, input_mean: %mean,
                  input_var: %var)
    irdl.results(y: %y)
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
    irdl.operands(x: %x, scale: %scale, b: optional %b)
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
  // ===== END family: Quant =====
}
