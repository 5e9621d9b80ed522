// RUN: kiln-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(graph-fold-constants),graph-dce)' --mlir-print-debuginfo | FileCheck %s
// RUN: kiln-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(graph-fold-constants{max-elements=8}),graph-dce)' | FileCheck %s --check-prefix=LIMIT
// RUN: kiln-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(graph-fold-constants{fold-floats=false}),graph-dce)' | FileCheck %s --check-prefix=INTS
// RUN: not kiln-opt %s --pass-pipeline='builtin.module(func.func(graph-fold-constants{max-elements=-1}))' 2>&1 | FileCheck %s --check-prefix=NEGATIVE
// RUN: not kiln-opt %s --pass-pipeline='builtin.module(func.func(graph-fold-constants{max-iterations=0}))' 2>&1 | FileCheck %s --check-prefix=NOITER
// RUN: not kiln-opt %s --pass-pipeline='builtin.module(func.func(graph-fold-constants{max-elements=many}))' 2>&1 | FileCheck %s --check-prefix=BADINT
// RUN: not kiln-opt %s --pass-pipeline='builtin.module(func.func(graph-fold-constants{fold-float=true}))' 2>&1 | FileCheck %s --check-prefix=BADKEY

// NEGATIVE: error: graph-fold-constants: option 'max-elements' must be non-negative, got -1
// NOITER: error: graph-fold-constants: option 'max-iterations' must be at least 1, got 0
// BADINT: invalid value 'many' for option 'max-elements' of pass 'graph-fold-constants' (expected an integer)
// BADKEY: unknown option 'fold-float' for pass 'graph-fold-constants'; did you mean 'fold-floats'?

// PyTorch's shape subgraph: Shape -> Gather -> Mul -> Unsqueeze -> Concat
// feeding Reshape. The shape operand becomes one constant, located at the
// Concat it replaces; x itself is not constant.
// CHECK-LABEL: func.func @shape_chain
// CHECK-NEXT: %[[S:.*]] = "graph.constant"() {value = dense<[6, 4]> : tensor<2xi64>} : () -> tensor<2xi64> loc(#[[CAT:.*]])
// CHECK-NEXT: %[[R:.*]] = "graph.reshape"(%arg0, %[[S]])
// CHECK-NEXT: return %[[R]]
// CHECK: #[[CAT]] = loc("cat_node")
// INTS-LABEL: func.func @shape_chain
// INTS-NEXT: "graph.constant"() {value = dense<[6, 4]>
// INTS-NEXT: "graph.reshape"
func.func @shape_chain(%x: tensor<2x3x4xf32>) -> tensor<6x4xf32> {
  %s = "graph.shape"(%x) : (tensor<2x3x4xf32>) -> tensor<3xi64>
  %i0 = "graph.constant"() {value = dense<0> : tensor<i64>} : () -> tensor<i64>
  %g0 = "graph.gather"(%s, %i0) {axis = 0 : i64} : (tensor<3xi64>, tensor<i64>) -> tensor<i64>
  %i1 = "graph.constant"() {value = dense<1> : tensor<i64>} : () -> tensor<i64>
  %g1 = "graph.gather"(%s, %i1) {axis = 0 : i64} : (tensor<3xi64>, tensor<i64>) -> tensor<i64>
  %m = "graph.mul"(%g0, %g1) : (tensor<i64>, tensor<i64>) -> tensor<i64>
  %ax = "graph.constant"() {value = dense<0> : tensor<1xi64>} : () -> tensor<1xi64>
  %u = "graph.unsqueeze"(%m, %ax) : (tensor<i64>, tensor<1xi64>) -> tensor<1xi64>
  %c4 = "graph.constant"() {value = dense<4> : tensor<1xi64>} : () -> tensor<1xi64>
  %cat = "graph.concat"(%u, %c4) {axis = 0 : i64} : (tensor<1xi64>, tensor<1xi64>) -> tensor<2xi64> loc("cat_node")
  %r = "graph.reshape"(%x, %cat) : (tensor<2x3x4xf32>, tensor<2xi64>) -> tensor<6x4xf32>
  return %r : tensor<6x4xf32>
}

// -----

// Of a partly static shape, the entries that are static fold: the slice end
// (576 + 2) / 3 PyTorch computes for its packed attention projection is 192;
// the shape of the dynamic dims stays.
// CHECK-LABEL: func.func @partly_static_shape
// CHECK-DAG: %[[END:.*]] = "graph.constant"() {value = dense<192> : tensor<1xi64>}
// CHECK-DAG: %[[S:.*]] = "graph.shape"(%arg0)
// CHECK: "graph.slice"(%arg0, %{{.*}}, %[[END]], %{{.*}})
// CHECK: "graph.reshape"(%{{.*}}, %[[S]])
func.func @partly_static_shape(%x: tensor<?x?x576xf32>) -> (tensor<?x?x192xf32>, tensor<?x?x576xf32>) {
  %s = "graph.shape"(%x) : (tensor<?x?x576xf32>) -> tensor<3xi64>
  %last = "graph.constant"() {value = dense<-1> : tensor<1xi64>} : () -> tensor<1xi64>
  %zero = "graph.constant"() {value = dense<0> : tensor<1xi64>} : () -> tensor<1xi64>
  %two = "graph.constant"() {value = dense<2> : tensor<1xi64>} : () -> tensor<1xi64>
  %three = "graph.constant"() {value = dense<3> : tensor<1xi64>} : () -> tensor<1xi64>
  %d = "graph.gather"(%s, %last) : (tensor<3xi64>, tensor<1xi64>) -> tensor<1xi64>
  %d2 = "graph.add"(%d, %two) : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xi64>
  %chunk = "graph.div"(%d2, %three) : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xi64>
  %q = "graph.slice"(%x, %zero, %chunk, %last) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 0>} : (tensor<?x?x576xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<?x?x192xf32>
  %r = "graph.reshape"(%x, %s) : (tensor<?x?x576xf32>, tensor<3xi64>) -> tensor<?x?x576xf32>
  return %q, %r : tensor<?x?x192xf32>, tensor<?x?x576xf32>
}

// -----

// Float chains with broadcasting fold to one constant, rounded to f32.
// CHECK-LABEL: func.func @float_chain
// CHECK-NEXT: %[[C:.*]] = "graph.constant"() {value = dense<{{\[}}[1.000000e+00, 1.000000e+00], [2.500000e-01, 4.000000e+00], [0.111111119, 1.77777791]]> : tensor<3x2xf32>}
// CHECK-NEXT: return %[[C]]
// INTS-LABEL: func.func @float_chain
// INTS: "graph.transpose"
func.func @float_chain() -> tensor<3x2xf32> {
  %a = "graph.constant"() {value = dense<[[1.0, 4.0, 9.0], [4.0, 1.0, 2.25]]> : tensor<2x3xf32>} : () -> tensor<2x3xf32>
  %b = "graph.constant"() {value = dense<[[1.0], [4.0]]> : tensor<2x1xf32>} : () -> tensor<2x1xf32>
  %d = "graph.div"(%a, %b) : (tensor<2x3xf32>, tensor<2x1xf32>) -> tensor<2x3xf32>
  %s = "graph.sqrt"(%d) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %r = "graph.reciprocal"(%s) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %n = "graph.neg"(%r) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %q = "graph.mul"(%n, %n) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %t = "graph.transpose"(%q) {perm = array<i64: 1, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return %t : tensor<3x2xf32>
}

// -----

// Weights from the importer are dense resources; results are dense.
// CHECK-LABEL: func.func @resource_operand
// CHECK-NEXT: "graph.constant"() {value = dense<[2.000000e+00, 3.000000e+00]> : tensor<2xf32>}
// CHECK-NEXT: return
func.func @resource_operand() -> tensor<2xf32> {
  %w = "graph.constant"() {value = dense_resource<w_blob> : tensor<2xf32>} : () -> tensor<2xf32>
  %one = "graph.constant"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
  %r = "graph.add"(%w, %one) : (tensor<2xf32>, tensor<f32>) -> tensor<2xf32>
  return %r : tensor<2xf32>
}
{-#
  dialect_resources: {
    builtin: {
      w_blob: "0x040000000000803F00000040"
    }
  }
#-}

// -----

// Casts round as the lowering does: f32 -> f16, i64 -> f32, f32 -> i32
// (toward zero), and a splat result stays a splat.
// CHECK-LABEL: func.func @casts
// CHECK-DAG: "graph.constant"() {value = dense<[1.000000e+00, 6.550400e+04, 0.000000e+00]> : tensor<3xf16>}
// CHECK-DAG: "graph.constant"() {value = dense<[-2, 2, 0]> : tensor<3xi32>}
// CHECK-DAG: "graph.constant"() {value = dense<1.000000e+00> : tensor<4x4xf32>}
// CHECK-NOT: graph.cast
// CHECK-NOT: graph.constant_of_shape
func.func @casts() -> (tensor<3xf16>, tensor<3xi32>, tensor<4x4xf32>) {
  %a = "graph.constant"() {value = dense<[1.0001, 65504.0, 1.0e-9]> : tensor<3xf32>} : () -> tensor<3xf32>
  %h = "graph.cast"(%a) {to = f16} : (tensor<3xf32>) -> tensor<3xf16>
  %b = "graph.constant"() {value = dense<[-2.7, 2.7, 0.5]> : tensor<3xf32>} : () -> tensor<3xf32>
  %i = "graph.cast"(%b) {to = i32} : (tensor<3xf32>) -> tensor<3xi32>
  %shape = "graph.constant"() {value = dense<4> : tensor<2xi64>} : () -> tensor<2xi64>
  %ones = "graph.constant_of_shape"(%shape) {value = dense<1> : tensor<1xi64>} : (tensor<2xi64>) -> tensor<4x4xi64>
  %f = "graph.cast"(%ones) {to = f32} : (tensor<4x4xi64>) -> tensor<4x4xf32>
  return %h, %i, %f : tensor<3xf16>, tensor<3xi32>, tensor<4x4xf32>
}

// -----

// Logical ops on i1, and integer sums and products of whole tensors (a
// partial reduction stays).
// CHECK-LABEL: func.func @logic_and_reductions
// CHECK-DAG: "graph.constant"() {value = dense<[true, false, false, false]> : tensor<4xi1>}
// CHECK-DAG: "graph.constant"() {value = dense<[true, true, true, false]> : tensor<4xi1>}
// CHECK-DAG: "graph.constant"() {value = dense<[false, true, true, false]> : tensor<4xi1>}
// CHECK-DAG: "graph.constant"() {value = dense<[false, false, true, true]> : tensor<4xi1>}
// CHECK-DAG: "graph.constant"() {value = dense<10> : tensor<i64>}
// CHECK-DAG: "graph.constant"() {value = dense<24> : tensor<1x1xi64>}
// CHECK-DAG: "graph.reduce_sum"
// CHECK-NOT: graph.and
// CHECK-NOT: graph.or
// CHECK-NOT: graph.xor
// CHECK-NOT: graph.not
// CHECK-NOT: graph.reduce_prod
func.func @logic_and_reductions() -> (tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<i64>, tensor<1x1xi64>, tensor<2x1xi64>) {
  %a = "graph.constant"() {value = dense<[true, true, false, false]> : tensor<4xi1>} : () -> tensor<4xi1>
  %b = "graph.constant"() {value = dense<[true, false, true, false]> : tensor<4xi1>} : () -> tensor<4xi1>
  %and = "graph.and"(%a, %b) : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  %or = "graph.or"(%a, %b) : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  %xor = "graph.xor"(%a, %b) : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  %not = "graph.not"(%a) : (tensor<4xi1>) -> tensor<4xi1>
  %x = "graph.constant"() {value = dense<[[1, 2], [3, 4]]> : tensor<2x2xi64>} : () -> tensor<2x2xi64>
  %sum = "graph.reduce_sum"(%x) {keepdims = 0 : i64} : (tensor<2x2xi64>) -> tensor<i64>
  %prod = "graph.reduce_prod"(%x) : (tensor<2x2xi64>) -> tensor<1x1xi64>
  %axis = "graph.constant"() {value = dense<1> : tensor<1xi64>} : () -> tensor<1xi64>
  %rows = "graph.reduce_sum"(%x, %axis) : (tensor<2x2xi64>, tensor<1xi64>) -> tensor<2x1xi64>
  return %and, %or, %xor, %not, %sum, %prod, %rows : tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<i64>, tensor<1x1xi64>, tensor<2x1xi64>
}

// -----

// Slices, gathers on an inner axis, concat and unsqueeze of floats.
// CHECK-LABEL: func.func @data_movement
// CHECK-NEXT: "graph.constant"() {value = dense<{{\[}}[3.000000e+00, 1.000000e+00, 6.000000e+00, 4.000000e+00]]> : tensor<1x4xf32>}
// CHECK-NEXT: return
func.func @data_movement() -> tensor<1x4xf32> {
  %a = "graph.constant"() {value = dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>} : () -> tensor<2x3xf32>
  %idx = "graph.constant"() {value = dense<[2, 0]> : tensor<2xi64>} : () -> tensor<2xi64>
  %g = "graph.gather"(%a, %idx) {axis = 1 : i64} : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<2x2xf32>
  %st = "graph.constant"() {value = dense<0> : tensor<1xi64>} : () -> tensor<1xi64>
  %en = "graph.constant"() {value = dense<1> : tensor<1xi64>} : () -> tensor<1xi64>
  %r0 = "graph.slice"(%g, %st, %en) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0>} : (tensor<2x2xf32>, tensor<1xi64>, tensor<1xi64>) -> tensor<1x2xf32>
  %st1 = "graph.constant"() {value = dense<-1> : tensor<1xi64>} : () -> tensor<1xi64>
  %en1 = "graph.constant"() {value = dense<9> : tensor<1xi64>} : () -> tensor<1xi64>
  %r1 = "graph.slice"(%g, %st1, %en1) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0>} : (tensor<2x2xf32>, tensor<1xi64>, tensor<1xi64>) -> tensor<1x2xf32>
  %c = "graph.concat"(%r0, %r1) {axis = 1 : i64} : (tensor<1x2xf32>, tensor<1x2xf32>) -> tensor<1x4xf32>
  return %c : tensor<1x4xf32>
}

// -----

// An identity of a constant is that constant (no copy).
// CHECK-LABEL: func.func @identity_of_constant
// CHECK-NEXT: %[[W:.*]] = "graph.constant"() {value = dense_resource<big_w>
// CHECK-NEXT: "graph.add"(%arg0, %[[W]])
func.func @identity_of_constant(%x: tensor<2xf32>) -> tensor<2xf32> {
  %w = "graph.constant"() {value = dense_resource<big_w> : tensor<2xf32>} : () -> tensor<2xf32>
  %i = "graph.identity"(%w) : (tensor<2xf32>) -> tensor<2xf32>
  %y = "graph.add"(%x, %i) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %y : tensor<2xf32>
}
{-#
  dialect_resources: {
    builtin: {
      big_w: "0x040000000000803F000000C0"
    }
  }
#-}

// -----

// An op with a non-constant operand stays; so does the shape of a
// dynamically shaped value.
// CHECK-LABEL: func.func @negative_not_constant
// CHECK: "graph.add"(%arg0
// CHECK: "graph.shape"(%arg1)
func.func @negative_not_constant(%x: tensor<2xf32>, %d: tensor<?x3xf32>) -> (tensor<2xf32>, tensor<2xi64>) {
  %c = "graph.constant"() {value = dense<1.0> : tensor<2xf32>} : () -> tensor<2xf32>
  %r = "graph.add"(%x, %c) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %s = "graph.shape"(%d) : (tensor<?x3xf32>) -> tensor<2xi64>
  return %r, %s : tensor<2xf32>, tensor<2xi64>
}

// -----

// Ops the evaluator does not know stay (here a conv of constants), as do
// results it leaves undefined (integer division by zero, a float cast to
// an integer out of its range).
// CHECK-LABEL: func.func @negative_unknown_or_undefined
// CHECK: "graph.conv"
// CHECK: "graph.div"
// CHECK: "graph.cast"
func.func @negative_unknown_or_undefined() -> (tensor<1x1x1x1xf32>, tensor<2xi64>, tensor<1xi8>) {
  %x = "graph.constant"() {value = dense<1.0> : tensor<1x1x1x1xf32>} : () -> tensor<1x1x1x1xf32>
  %w = "graph.constant"() {value = dense<2.0> : tensor<1x1x1x1xf32>} : () -> tensor<1x1x1x1xf32>
  %c = "graph.conv"(%x, %w) {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<1x1x1x1xf32>, tensor<1x1x1x1xf32>) -> tensor<1x1x1x1xf32>
  %a = "graph.constant"() {value = dense<[4, 5]> : tensor<2xi64>} : () -> tensor<2xi64>
  %z = "graph.constant"() {value = dense<[2, 0]> : tensor<2xi64>} : () -> tensor<2xi64>
  %d = "graph.div"(%a, %z) : (tensor<2xi64>, tensor<2xi64>) -> tensor<2xi64>
  %big = "graph.constant"() {value = dense<300.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %i8 = "graph.cast"(%big) {to = i8} : (tensor<1xf32>) -> tensor<1xi8>
  return %c, %d, %i8 : tensor<1x1x1x1xf32>, tensor<2xi64>, tensor<1xi8>
}

// -----

// A result above max-elements is not folded: an expand of a scalar to a
// large shape stays an expand (16 elements > 8 under LIMIT), while a small
// one folds.
// CHECK-LABEL: func.func @negative_too_large
// CHECK-NOT: graph.expand
// LIMIT-LABEL: func.func @negative_too_large
// LIMIT: "graph.expand"
// LIMIT-SAME: -> tensor<4x4xf32>
// LIMIT-NOT: graph.expand
func.func @negative_too_large() -> (tensor<4x4xf32>, tensor<2x2xf32>) {
  %s = "graph.constant"() {value = dense<3.0> : tensor<f32>} : () -> tensor<f32>
  %big = "graph.constant"() {value = dense<4> : tensor<2xi64>} : () -> tensor<2xi64>
  %e = "graph.expand"(%s, %big) : (tensor<f32>, tensor<2xi64>) -> tensor<4x4xf32>
  %small = "graph.constant"() {value = dense<2> : tensor<2xi64>} : () -> tensor<2xi64>
  %f = "graph.expand"(%s, %small) : (tensor<f32>, tensor<2xi64>) -> tensor<2x2xf32>
  return %e, %f : tensor<4x4xf32>, tensor<2x2xf32>
}

// -----

// Ops of other dialects and graph ops holding regions are left alone,
// while graph ops inside a region are folded.
// CHECK-LABEL: func.func @negative_regions_and_other_dialects
// CHECK: arith.addf
// CHECK: scf.execute_region
// CHECK-NEXT: %[[C:.*]] = "graph.constant"() {value = dense<4.000000e+00> : tensor<2xf32>}
// CHECK-NEXT: scf.yield %[[C]]
func.func @negative_regions_and_other_dialects(%f: f32) -> (f32, tensor<2xf32>) {
  %a = arith.constant 1.0 : f32
  %b = arith.addf %a, %f : f32
  %c = "graph.constant"() {value = dense<2.0> : tensor<2xf32>} : () -> tensor<2xf32>
  %r = scf.execute_region -> tensor<2xf32> {
    %m = "graph.mul"(%c, %c) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    scf.yield %m : tensor<2xf32>
  }
  return %b, %r : f32, tensor<2xf32>
}

// -----

// PyTorch's pad list turned into ONNX pads (torch 1.13's F.pad export, as
// in torchvision's Swin): [n, 2] pairs reversed by a Slice of step -1, then
// transposed and flattened. Integer values: folded under INTS too.
// CHECK-LABEL: func.func @pad_pairs_reversed
// CHECK-NEXT: "graph.constant"() {value = dense<[0, 0, 0, 0, 0, 5, 4, 0]> : tensor<8xi64>}
// CHECK-NEXT: return
// INTS-LABEL: func.func @pad_pairs_reversed
// INTS-NEXT: "graph.constant"() {value = dense<[0, 0, 0, 0, 0, 5, 4, 0]>
func.func @pad_pairs_reversed() -> tensor<8xi64> {
  %p = "graph.constant"() {value = dense<[0, 0, 0, 4, 0, 5, 0, 0]> : tensor<8xi64>} : () -> tensor<8xi64>
  %pairs = "graph.constant"() {value = dense<[-1, 2]> : tensor<2xi64>} : () -> tensor<2xi64>
  %r = "graph.reshape"(%p, %pairs) : (tensor<8xi64>, tensor<2xi64>) -> tensor<4x2xi64>
  %m1 = "graph.constant"() {value = dense<-1> : tensor<1xi64>} : () -> tensor<1xi64>
  %big = "graph.constant"() {value = dense<-9223372036854775807> : tensor<1xi64>} : () -> tensor<1xi64>
  %ax = "graph.constant"() {value = dense<0> : tensor<1xi64>} : () -> tensor<1xi64>
  %rev = "graph.slice"(%r, %m1, %big, %ax, %m1) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1>} : (tensor<4x2xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<4x2xi64>
  %t = "graph.transpose"(%rev) {perm = array<i64: 1, 0>} : (tensor<4x2xi64>) -> tensor<2x4xi64>
  %pads = "graph.reshape"(%t, %m1) : (tensor<2x4xi64>, tensor<1xi64>) -> tensor<8xi64>
  return %pads : tensor<8xi64>
}

// -----

// Mod: integers with either sign rule, floats with fmod = 1 (C's fmod).
// CHECK-LABEL: func.func @mod
// CHECK-DAG: "graph.constant"() {value = dense<[2, -2, -1, 1]> : tensor<4xi64>}
// CHECK-DAG: "graph.constant"() {value = dense<[1.500000e+00, -1.500000e+00]> : tensor<2xf32>}
// CHECK-NOT: graph.mod
// INTS-LABEL: func.func @mod
// INTS: "graph.mod"
// INTS-SAME: tensor<2xf32>
func.func @mod() -> (tensor<4xi64>, tensor<2xf32>) {
  %a = "graph.constant"() {value = dense<[-7, 7, -7, 7]> : tensor<4xi64>} : () -> tensor<4xi64>
  %b = "graph.constant"() {value = dense<[3, -3, 3, -3]> : tensor<4xi64>} : () -> tensor<4xi64>
  %m = "graph.mod"(%a, %b) {fmod = 0 : i64} : (tensor<4xi64>, tensor<4xi64>) -> tensor<4xi64>
  %f = "graph.mod"(%a, %b) {fmod = 1 : i64} : (tensor<4xi64>, tensor<4xi64>) -> tensor<4xi64>
  %sel = "graph.constant"() {value = dense<[true, true, false, false]> : tensor<4xi1>} : () -> tensor<4xi1>
  %w = "graph.where"(%sel, %m, %f) : (tensor<4xi1>, tensor<4xi64>, tensor<4xi64>) -> tensor<4xi64>
  %x = "graph.constant"() {value = dense<[5.5, -5.5]> : tensor<2xf32>} : () -> tensor<2xf32>
  %y = "graph.constant"() {value = dense<2.0> : tensor<f32>} : () -> tensor<f32>
  %g = "graph.mod"(%x, %y) {fmod = 1 : i64} : (tensor<2xf32>, tensor<f32>) -> tensor<2xf32>
  return %w, %g : tensor<4xi64>, tensor<2xf32>
}

// -----

// Range of integers (any length up to max-elements: 16 > 8 under LIMIT)
// and of floats (start + i * delta in f32).
// CHECK-LABEL: func.func @range
// CHECK-DAG: "graph.constant"() {value = dense<[10, 8, 6, 4, 2, 0, -2, -4, -6, -8, -10, -12, -14, -16, -18, -20]> : tensor<16xi64>}
// CHECK-DAG: "graph.constant"() {value = dense<[5.000000e-01, 1.000000e+00, 1.500000e+00]> : tensor<3xf32>}
// CHECK-NOT: graph.range
// LIMIT-LABEL: func.func @range
// LIMIT: "graph.range"
// LIMIT-SAME: -> tensor<16xi64>
// LIMIT-NEXT: "graph.constant"() {value = dense<[5.000000e-01, 1.000000e+00, 1.500000e+00]>
func.func @range() -> (tensor<16xi64>, tensor<3xf32>) {
  %s = "graph.constant"() {value = dense<10> : tensor<i64>} : () -> tensor<i64>
  %l = "graph.constant"() {value = dense<-21> : tensor<i64>} : () -> tensor<i64>
  %d = "graph.constant"() {value = dense<-2> : tensor<i64>} : () -> tensor<i64>
  %r = "graph.range"(%s, %l, %d) : (tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<16xi64>
  %fs = "graph.constant"() {value = dense<0.5> : tensor<f32>} : () -> tensor<f32>
  %fl = "graph.constant"() {value = dense<2.0> : tensor<f32>} : () -> tensor<f32>
  %fd = "graph.constant"() {value = dense<0.5> : tensor<f32>} : () -> tensor<f32>
  %f = "graph.range"(%fs, %fl, %fd) : (tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<3xf32>
  return %r, %f : tensor<16xi64>, tensor<3xf32>
}

// -----

// ScatterND replaces rows (a negative index counts from the back); Equal,
// Where and Expand of constants fold as well.
// CHECK-LABEL: func.func @scatter_nd_where_expand
// CHECK-DAG: "graph.constant"() {value = dense<{{\[}}[1.000000e+00, 2.000000e+00], [7.000000e+00, 8.000000e+00], [5.000000e+00, 6.000000e+00]]> : tensor<3x2xf32>}
// CHECK-DAG: "graph.constant"() {value = dense<{{\[}}[1.000000e+00, 0.000000e+00], [1.000000e+00, 0.000000e+00]]> : tensor<2x2xf32>}
// CHECK-NOT: graph.scatter_nd
// CHECK-NOT: graph.expand
func.func @scatter_nd_where_expand() -> (tensor<3x2xf32>, tensor<2x2xf32>) {
  %data = "graph.constant"() {value = dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]> : tensor<3x2xf32>} : () -> tensor<3x2xf32>
  %i = "graph.constant"() {value = dense<[[-2]]> : tensor<1x1xi64>} : () -> tensor<1x1xi64>
  %u = "graph.constant"() {value = dense<[[7.0, 8.0]]> : tensor<1x2xf32>} : () -> tensor<1x2xf32>
  %s = "graph.scatter_nd"(%data, %i, %u) : (tensor<3x2xf32>, tensor<1x1xi64>, tensor<1x2xf32>) -> tensor<3x2xf32>
  %a = "graph.constant"() {value = dense<[3, 4]> : tensor<2xi64>} : () -> tensor<2xi64>
  %b = "graph.constant"() {value = dense<3> : tensor<i64>} : () -> tensor<i64>
  %eq = "graph.equal"(%a, %b) : (tensor<2xi64>, tensor<i64>) -> tensor<2xi1>
  %one = "graph.constant"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
  %zero = "graph.constant"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
  %w = "graph.where"(%eq, %one, %zero) : (tensor<2xi1>, tensor<f32>, tensor<f32>) -> tensor<2xf32>
  %shape = "graph.constant"() {value = dense<2> : tensor<2xi64>} : () -> tensor<2xi64>
  %e = "graph.expand"(%w, %shape) : (tensor<2xf32>, tensor<2xi64>) -> tensor<2x2xf32>
  return %s, %e : tensor<3x2xf32>, tensor<2x2xf32>
}

// -----

// Not folded: non-constant inputs of the new evaluators (mod, transpose,
// slice, scatter_nd, range), a mod by zero, a scatter_nd with an index out
// of range or with a reduction.
// CHECK-LABEL: func.func @negative_new_evaluators
// CHECK: "graph.mod"(%arg0
// CHECK: "graph.transpose"(%arg1)
// CHECK: "graph.slice"(%arg1
// CHECK: "graph.scatter_nd"(%arg1
// CHECK: "graph.range"(%arg2
// CHECK: "graph.mod"
// CHECK: "graph.scatter_nd"
// CHECK-SAME: reduction = "add"
// CHECK: "graph.scatter_nd"
// CHECK-NEXT: return
func.func @negative_new_evaluators(%x: tensor<2xi64>, %m: tensor<2x2xi64>, %n: tensor<i64>) -> (tensor<2xi64>, tensor<2x2xi64>, tensor<2x2xi64>, tensor<2x2xi64>, tensor<3xi64>, tensor<2xi64>, tensor<2x2xi64>, tensor<2x2xi64>) {
  %c = "graph.constant"() {value = dense<[3, 0]> : tensor<2xi64>} : () -> tensor<2xi64>
  %0 = "graph.mod"(%x, %c) {fmod = 0 : i64} : (tensor<2xi64>, tensor<2xi64>) -> tensor<2xi64>
  %1 = "graph.transpose"(%m) {perm = array<i64: 1, 0>} : (tensor<2x2xi64>) -> tensor<2x2xi64>
  %m1 = "graph.constant"() {value = dense<-1> : tensor<1xi64>} : () -> tensor<1xi64>
  %big = "graph.constant"() {value = dense<-9223372036854775807> : tensor<1xi64>} : () -> tensor<1xi64>
  %ax = "graph.constant"() {value = dense<0> : tensor<1xi64>} : () -> tensor<1xi64>
  %2 = "graph.slice"(%m, %m1, %big, %ax, %m1) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1>} : (tensor<2x2xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<2x2xi64>
  %i = "graph.constant"() {value = dense<[[1]]> : tensor<1x1xi64>} : () -> tensor<1x1xi64>
  %u = "graph.constant"() {value = dense<[[7, 8]]> : tensor<1x2xi64>} : () -> tensor<1x2xi64>
  %3 = "graph.scatter_nd"(%m, %i, %u) : (tensor<2x2xi64>, tensor<1x1xi64>, tensor<1x2xi64>) -> tensor<2x2xi64>
  %one = "graph.constant"() {value = dense<1> : tensor<i64>} : () -> tensor<i64>
  %three = "graph.constant"() {value = dense<3> : tensor<i64>} : () -> tensor<i64>
  %4 = "graph.range"(%n, %three, %one) : (tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<3xi64>
  %a = "graph.constant"() {value = dense<[4, 5]> : tensor<2xi64>} : () -> tensor<2xi64>
  %5 = "graph.mod"(%a, %c) {fmod = 1 : i64} : (tensor<2xi64>, tensor<2xi64>) -> tensor<2xi64>
  %d = "graph.constant"() {value = dense<[[1, 2], [3, 4]]> : tensor<2x2xi64>} : () -> tensor<2x2xi64>
  %6 = "graph.scatter_nd"(%d, %i, %u) {reduction = "add"} : (tensor<2x2xi64>, tensor<1x1xi64>, tensor<1x2xi64>) -> tensor<2x2xi64>
  %o = "graph.constant"() {value = dense<[[2]]> : tensor<1x1xi64>} : () -> tensor<1x1xi64>
  %7 = "graph.scatter_nd"(%d, %o, %u) : (tensor<2x2xi64>, tensor<1x1xi64>, tensor<1x2xi64>) -> tensor<2x2xi64>
  return %0, %1, %2, %3, %4, %5, %6, %7 : tensor<2xi64>, tensor<2x2xi64>, tensor<2x2xi64>, tensor<2x2xi64>, tensor<3xi64>, tensor<2xi64>, tensor<2x2xi64>, tensor<2x2xi64>
}

// -----

// Equal, Where and Expand with a non-constant operand stay.
// CHECK-LABEL: func.func @negative_where_equal_expand
// CHECK: "graph.equal"(%arg0
// CHECK: "graph.where"(%{{.*}}, %arg1
// CHECK: "graph.expand"(%arg1
func.func @negative_where_equal_expand(%a: tensor<2xi64>, %x: tensor<2xf32>) -> (tensor<2xf32>, tensor<3x2xf32>) {
  %b = "graph.constant"() {value = dense<3> : tensor<i64>} : () -> tensor<i64>
  %eq = "graph.equal"(%a, %b) : (tensor<2xi64>, tensor<i64>) -> tensor<2xi1>
  %zero = "graph.constant"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
  %w = "graph.where"(%eq, %x, %zero) : (tensor<2xi1>, tensor<2xf32>, tensor<f32>) -> tensor<2xf32>
  %shape = "graph.constant"() {value = dense<[3, 2]> : tensor<2xi64>} : () -> tensor<2xi64>
  %e = "graph.expand"(%x, %shape) : (tensor<2xf32>, tensor<2xi64>) -> tensor<3x2xf32>
  return %w, %e : tensor<2xf32>, tensor<3x2xf32>
}
