// RUN: kiln-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(convert-graph-to-linalg))' \
// RUN:   | FileCheck %s

// Dynamic-shape lowerings (KILN_LOWER_DYNAMIC) size what they build from
// their operands at run time and assert the dims their code reads as equal.

// A broadcast: a result dim two operands have dynamic is numpy's (the first
// size that is not 1), read at run time. Each operand's dim must be it or
// 1, a run-time check; an operand whose dim is 1 while the result's is
// larger is stretched in the else branch of an scf.if, the common case
// (the sizes equal) reads the operand as is; a full-size slice of the
// scf.if states its dims for the shape function. A static 1 broadcasts
// through the map.
// CHECK-LABEL: func.func @add_dynamic
// CHECK: %[[N:.*]] = tensor.dim %arg0, %{{.*}} : tensor<?x?xf32>
// CHECK: %[[N2:.*]] = tensor.dim %arg1, %{{.*}} : tensor<?x1xf32>
// CHECK: %[[NONE:.*]] = arith.cmpi eq, %[[N]], %c1 : index
// CHECK: %[[SIZE:.*]] = arith.select %[[NONE]], %[[N2]], %[[N]] : index
// CHECK: %[[SAME:.*]] = arith.cmpi eq, %{{.*}}, %[[SIZE]] : index
// CHECK: %[[ISONE:.*]] = arith.cmpi eq, %{{.*}}, %{{.*}} : index
// CHECK: %[[OK:.*]] = arith.ori %[[SAME]], %[[ISONE]] : i1
// CHECK: cf.assert %[[OK]], "inputs that broadcast together have dims of different sizes at run time, neither of them 1"
// CHECK: %[[IFA:.*]] = scf.if %[[SAME]] -> (tensor<?x?xf32>) {
// CHECK-NEXT: scf.yield %arg0 : tensor<?x?xf32>
// CHECK-NEXT: } else {
// CHECK: linalg.generic
// CHECK: arith.select %[[ISONE]]
// CHECK: tensor.extract %arg0
// CHECK: %[[A:.*]] = tensor.extract_slice %[[IFA]][0, 0] [%[[SIZE]], %{{.*}}] [1, 1]
// CHECK: %[[IFB:.*]] = scf.if
// CHECK: scf.yield %arg1 : tensor<?x1xf32>
// CHECK: %[[B:.*]] = tensor.extract_slice %[[IFB]][0, 0] [%[[SIZE]], 1] [1, 1]
// CHECK: %[[E:.*]] = tensor.empty(%[[SIZE]], %{{.*}}) : tensor<?x?xf32>
// CHECK: linalg.generic
// CHECK-SAME: ins(%[[A]], %[[B]] : tensor<?x?xf32>, tensor<?x1xf32>) outs(%[[E]] : tensor<?x?xf32>)
func.func @add_dynamic(%a: tensor<?x?xf32>, %b: tensor<?x1xf32>) -> tensor<?x?xf32> {
  %0 = "graph.add"(%a, %b) : (tensor<?x?xf32>, tensor<?x1xf32>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

// A static size other than 1 is the result's: the dynamic dim must be it,
// or 1 (stretched).
// CHECK-LABEL: func.func @mul_static_wins
// CHECK-DAG: %[[C8:.*]] = arith.constant 8 : index
// CHECK-DAG: %[[D:.*]] = tensor.dim %arg0, %c1{{.*}} : tensor<?x?xf32>
// CHECK: %[[EQ:.*]] = arith.cmpi eq, %[[D]], %[[C8]] : index
// CHECK: cf.assert
// CHECK: scf.if %[[EQ]]
// CHECK: tensor.empty(%{{.*}}) : tensor<?x8xf32>
func.func @mul_static_wins(%a: tensor<?x?xf32>, %b: tensor<8xf32>) -> tensor<?x?xf32> {
  %0 = "graph.mul"(%a, %b) : (tensor<?x?xf32>, tensor<8xf32>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

// A dim only one operand has dynamic is read from it and needs no check:
// no branch.
// CHECK-LABEL: func.func @add_bias
// CHECK-NOT: cf.assert
// CHECK-NOT: scf.if
// CHECK: linalg.generic
// CHECK: return
func.func @add_bias(%a: tensor<?x?x4xf32>, %b: tensor<4xf32>) -> tensor<?x?x4xf32> {
  %0 = "graph.add"(%a, %b) : (tensor<?x?x4xf32>, tensor<4xf32>) -> tensor<?x?x4xf32>
  return %0 : tensor<?x?x4xf32>
}

// -----

// A reduction with keepdims: the kept dims sized from the input, the mean
// divided by the run-time count, the reduced dim expanded back as a 1.
// CHECK-LABEL: func.func @reduce_mean_dynamic
// CHECK: %[[B:.*]] = tensor.dim %arg0, %{{.*}} : tensor<?x?x4xf32>
// CHECK: %[[E:.*]] = tensor.empty(%[[B]]) : tensor<?x4xf32>
// CHECK: %[[S:.*]] = tensor.dim %arg0, %{{.*}} : tensor<?x?x4xf32>
// CHECK: %[[COUNT:.*]] = arith.muli %{{.*}}, %[[S]] : index
// CHECK: arith.index_cast %[[COUNT]] : index to i64
// CHECK-NOT: arith.constant -9
// CHECK: tensor.expand_shape %{{.*}} {{\[\[}}0], [1, 2]] output_shape [%{{.*}}, 1, 4] : tensor<?x4xf32> into tensor<?x1x4xf32>
func.func @reduce_mean_dynamic(%x: tensor<?x?x4xf32>) -> tensor<?x1x4xf32> {
  %axes = "graph.constant"() {value = dense<1> : tensor<1xi64>} : () -> tensor<1xi64>
  %0 = "graph.reduce_mean"(%x, %axes) : (tensor<?x?x4xf32>, tensor<1xi64>) -> tensor<?x1x4xf32>
  return %0 : tensor<?x1x4xf32>
}

// -----

// Softmax over a dynamic axis: the statistics sized by the kept dim, the
// result like the input.
// CHECK-LABEL: func.func @softmax_dynamic
// CHECK: %[[D0:.*]] = tensor.dim %arg0, %{{.*}} : tensor<?x?xf32>
// CHECK: tensor.empty(%[[D0]]) : tensor<?xf32>
// CHECK: %[[E1:.*]] = tensor.dim %arg0, %c1 : tensor<?x?xf32>
// CHECK: tensor.empty(%{{.*}}, %[[E1]]) : tensor<?x?xf32>
func.func @softmax_dynamic(%x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %0 = "graph.softmax"(%x) {axis = 1 : i64} : (tensor<?x?xf32>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

// Resize with dynamic dims and scales read at run time: each output dim is
// ONNX's floor(in * scale) in f32, after a check that the scale is
// positive; the generic over the output reads the scales as f64 values.
// CHECK-LABEL: func.func @resize_dynamic
// CHECK: %[[S:.*]] = tensor.extract %arg1[%{{.*}}] : tensor<4xf32>
// CHECK: %[[POS:.*]] = arith.cmpf ogt, %[[S]], %{{.*}} : f32
// CHECK: cf.assert %[[POS]], "operand 'scales' must hold positive values"
// CHECK: %[[SCALED:.*]] = arith.mulf %{{.*}}, %[[S]] : f32
// CHECK: math.floor %[[SCALED]] : f32
// CHECK: cf.assert %{{.*}}, "an output size overflows"
// CHECK: %[[E:.*]] = tensor.empty(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : tensor<?x?x?x?xf32>
// CHECK: linalg.generic
// CHECK-SAME: outs(%[[E]] : tensor<?x?x?x?xf32>)
// CHECK: tensor.extract %arg0
func.func @resize_dynamic(%x: tensor<?x?x?x?xf32>, %scales: tensor<4xf32>) -> tensor<?x?x?x?xf32> {
  %0 = "graph.resize"(%x, %scales) {mode = "linear", operandSegmentSizes = array<i32: 1, 0, 1, 0>} : (tensor<?x?x?x?xf32>, tensor<4xf32>) -> tensor<?x?x?x?xf32>
  return %0 : tensor<?x?x?x?xf32>
}

// -----

// ConvTranspose with every dim dynamic: ONNX's output size at run time
// (s (in - 1) + output_padding + (k - 1) d + 1 - pads), checked not
// negative; one generic over (n, m, o | c, k) reading w through its map
// and x in the body at i = (o + pb - k d) / s where that divides and lies
// in the input.
// CHECK-LABEL: func.func @conv_transpose_dynamic
// CHECK: cf.assert %{{.*}}, "the output size is negative at run time (pads larger than the output)"
// CHECK: cf.assert %{{.*}}, "the input's channels are not the weight's first dim at run time"
// CHECK: %[[E:.*]] = tensor.empty(%{{.*}}, %{{.*}}, %{{.*}}) : tensor<?x?x?xf32>
// CHECK: %[[F:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[E]] : tensor<?x?x?xf32>)
// CHECK: linalg.generic
// CHECK-SAME: iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]
// CHECK-SAME: ins(%arg1 : tensor<?x?x?xf32>) outs(%[[F]] : tensor<?x?x?xf32>)
// CHECK: arith.floordivsi
// CHECK: tensor.extract %arg0
// CHECK: arith.select
func.func @conv_transpose_dynamic(%x: tensor<?x?x?xf32>, %w: tensor<?x?x?xf32>) -> tensor<?x?x?xf32> {
  %0 = "graph.conv_transpose"(%x, %w) {strides = array<i64: 2>, pads = array<i64: 1, 0>} : (tensor<?x?x?xf32>, tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
  return %0 : tensor<?x?x?xf32>
}

// -----

// Only the batch dynamic: a loop over the samples, each through the static
// lowering.
// CHECK-LABEL: func.func @conv_transpose_batch
// CHECK: scf.for
// CHECK: tensor.extract_slice %arg0{{.*}} to tensor<1x2x5xf32>
// CHECK: tensor.insert_slice %{{.*}} into %{{.*}}[%{{.*}}, 0, 0] [1, 3, 10] [1, 1, 1] : tensor<1x3x10xf32> into tensor<?x3x10xf32>
func.func @conv_transpose_batch(%x: tensor<?x2x5xf32>, %w: tensor<2x3x2xf32>) -> tensor<?x3x10xf32> {
  %0 = "graph.conv_transpose"(%x, %w) {strides = array<i64: 2>} : (tensor<?x2x5xf32>, tensor<2x3x2xf32>) -> tensor<?x3x10xf32>
  return %0 : tensor<?x3x10xf32>
}

// -----

// Pad by reflection on a dynamic dim: the output is x's dims plus the pads;
// a padded dim must have an element to repeat (checked), and the body reads
// x at the mirrored index, whose period 2 (d - 1) is read at run time.
// CHECK-LABEL: func.func @pad_reflect_dynamic
// CHECK: %[[D:.*]] = tensor.dim %arg0, %c0
// CHECK: cf.assert %{{.*}}, "an axis to pad by repeating has no elements at run time"
// CHECK: tensor.empty(%{{.*}}) : tensor<?x6xf32>
// CHECK: linalg.generic
// CHECK: arith.remsi
// CHECK: tensor.extract %arg0
func.func @pad_reflect_dynamic(%x: tensor<?x4xf32>) -> tensor<?x6xf32> {
  %p = "graph.constant"() {value = dense<[1, 1, 2, 1]> : tensor<4xi64>} : () -> tensor<4xi64>
  %0 = "graph.pad"(%x, %p) {mode = "reflect", operandSegmentSizes = array<i32: 1, 1, 0, 0>} : (tensor<?x4xf32>, tensor<4xi64>) -> tensor<?x6xf32>
  return %0 : tensor<?x6xf32>
}

// -----

// GridSample with dynamic dims: the output N x C x (the grid's dims), the
// grid's batch and last dim checked against x's, x's spatial sizes read at
// run time (a one-pixel axis is handled by a select, not at compile time).
// CHECK-LABEL: func.func @grid_sample_dynamic
// CHECK: cf.assert %{{.*}}, "the grid's batch is not x's at run time"
// CHECK: cf.assert %{{.*}}, "the grid's last dim is not the number of spatial dims"
// CHECK: cf.assert %{{.*}}, "x has an empty spatial dim at run time while the result is not empty"
// CHECK: %[[E:.*]] = tensor.empty(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : tensor<?x?x?x?xf32>
// CHECK: linalg.generic
// CHECK-SAME: outs(%[[E]] : tensor<?x?x?x?xf32>)
// CHECK: tensor.extract %arg1
// CHECK: tensor.extract %arg0
func.func @grid_sample_dynamic(%x: tensor<?x?x?x?xf32>, %grid: tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32> {
  %0 = "graph.grid_sample"(%x, %grid) {padding_mode = "reflection"} : (tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32>
  return %0 : tensor<?x?x?x?xf32>
}

// -----

// Only the batch dynamic: an elementwise op runs per sample (its own static
// lowering on batch-1 slices); an operand whose batch is 1 at run time is
// read at sample 0 for every sample (numpy's broadcasting).
// CHECK-LABEL: func.func @where_per_sample
// CHECK: %[[A:.*]] = tensor.dim %arg0, %c0
// CHECK: %[[A1:.*]] = arith.cmpi eq, %[[A]], %c1
// CHECK: %[[B:.*]] = tensor.dim %arg1, %c0
// CHECK: %[[B1:.*]] = arith.cmpi eq, %[[B]], %c1
// CHECK: %[[N:.*]] = arith.select %{{.*}}, %[[B]], %[[A]] : index
// CHECK: cf.assert %{{.*}}, "inputs that broadcast together have dims of different sizes at run time, neither of them 1"
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %[[N]]
// CHECK: %[[AT:.*]] = arith.select %[[A1]], %{{.*}}, %[[I]] : index
// CHECK: tensor.extract_slice %arg0[%[[AT]], 0] [1, 4] [1, 1] : tensor<?x4xi1> to tensor<1x4xi1>
// CHECK: linalg.generic
// CHECK-SAME: tensor<1x4xi1>, tensor<1x4xf32>, tensor<4xf32>
// CHECK: tensor.insert_slice %{{.*}} into %{{.*}}[%[[I]], 0] [1, 4] [1, 1] : tensor<1x4xf32> into tensor<?x4xf32>
func.func @where_per_sample(%a: tensor<?x4xi1>, %b: tensor<?x4xf32>, %c: tensor<4xf32>) -> tensor<?x4xf32> {
  %0 = "graph.where"(%a, %b, %c) : (tensor<?x4xi1>, tensor<?x4xf32>, tensor<4xf32>) -> tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}

// -----

// A batched product and a softmax whose only dynamic dim is the batch: per
// sample, each a static op.
// CHECK-LABEL: func.func @attention_per_sample
// CHECK: scf.for
// CHECK: linalg.batch_matmul ins(%{{.*}}, %{{.*}} : tensor<2x3x3xf32>, tensor<2x3x5xf32>)
// CHECK: scf.for
// CHECK: linalg.generic
// CHECK-SAME: tensor<1x2x3x5xf32>
func.func @attention_per_sample(%s: tensor<?x2x3x3xf32>, %v: tensor<1x2x3x5xf32>) -> tensor<?x2x3x5xf32> {
  %0 = "graph.matmul"(%s, %v) : (tensor<?x2x3x3xf32>, tensor<1x2x3x5xf32>) -> tensor<?x2x3x5xf32>
  %1 = "graph.softmax"(%0) {axis = -1 : i64} : (tensor<?x2x3x5xf32>) -> tensor<?x2x3x5xf32>
  return %1 : tensor<?x2x3x5xf32>
}

// -----

// Slice with its ends computed at run time (position ids cut to the
// sequence length): the end read from the operand, made non-negative and
// clamped to the dim, then an extract_slice of that size.
// CHECK-LABEL: func.func @slice_runtime_ends
// CHECK: %[[E:.*]] = tensor.extract %arg1[%{{.*}}] : tensor<1xi64>
// CHECK: %[[EI:.*]] = arith.index_cast %[[E]] : i64 to index
// CHECK: arith.cmpi slt, %[[EI]], %{{.*}}
// CHECK: tensor.extract_slice %arg0[0, %{{.*}}] [1, %{{.*}}] [1, 1] : tensor<1x512xf32> to tensor<1x?xf32>
func.func @slice_runtime_ends(%x: tensor<1x512xf32>, %e: tensor<1xi64>) -> tensor<1x?xf32> {
  %s = "graph.constant"() {value = dense<0> : tensor<1xi64>} : () -> tensor<1xi64>
  %a = "graph.constant"() {value = dense<1> : tensor<1xi64>} : () -> tensor<1xi64>
  %0 = "graph.slice"(%x, %s, %e, %a) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 0>} : (tensor<1x512xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<1x?xf32>
  return %0 : tensor<1x?xf32>
}

// -----

// A slice with run-time starts whose result type is static: the size the
// bounds give at run time is checked against the declared one.
// CHECK-LABEL: func.func @slice_runtime_starts_static_result
// CHECK: tensor.extract %arg1
// CHECK: cf.assert %{{.*}}, "the slice's size at run time is not the one its type declares"
// CHECK: tensor.extract_slice %arg0[%{{.*}}] [%{{.*}}] [1] : tensor<5xf32> to tensor<?xf32>
func.func @slice_runtime_starts_static_result(%x: tensor<5xf32>, %s: tensor<1xi64>) -> tensor<2xf32> {
  %e = "graph.constant"() {value = dense<[4]> : tensor<1xi64>} : () -> tensor<1xi64>
  %0 = "graph.slice"(%x, %s, %e) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0>} : (tensor<5xf32>, tensor<1xi64>, tensor<1xi64>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// A product whose rows are dynamic (a Linear layer over a dynamic batch
// and sequence): one scf.forall of static 16-row tiles; A's rows are read
// in place, a last partial tile zero-padded (scf.if, tensor.pad: one new
// buffer, BUFFERS below).
// CHECK-LABEL: func.func @matmul_row_tiles
// CHECK: scf.forall (%{{.*}}) in (%{{.*}})
// CHECK: scf.if %{{.*}} -> (tensor<16x4xf32>)
// CHECK: tensor.extract_slice %arg0[%{{.*}}, 0] [16, 4] [1, 1] : tensor<?x4xf32> to tensor<16x4xf32>
// CHECK: } else {
// CHECK: %[[ROWS:.*]] = tensor.extract_slice %arg0[%{{.*}}, 0] [%{{.*}}, 4] [1, 1] : tensor<?x4xf32> to tensor<?x4xf32>
// CHECK: tensor.pad %[[ROWS]] low[0, 0] high[%{{.*}}, 0]
// CHECK: tensor.yield %{{.*}} : f32
// CHECK: } : tensor<?x4xf32> to tensor<16x4xf32>
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<16x4xf32>, tensor<4x32xf32>) outs(%{{.*}} : tensor<16x32xf32>)
// CHECK: scf.forall.in_parallel
// CHECK: tensor.parallel_insert_slice %{{.*}} [16, 32] [1, 1] : tensor<16x32xf32> into tensor<?x32xf32>
// CHECK: tensor.extract_slice %{{.*}}[0, 0] [%{{.*}}, 32] [1, 1] : tensor<?x32xf32> to tensor<?x32xf32>
func.func @matmul_row_tiles(%a: tensor<?x4xf32>, %b: tensor<4x32xf32>) -> tensor<?x32xf32> {
  %0 = "graph.matmul"(%a, %b) : (tensor<?x4xf32>, tensor<4x32xf32>) -> tensor<?x32xf32>
  return %0 : tensor<?x32xf32>
}

// -----

// A product whose N is dynamic and K static (attention's Q Kt over a
// dynamic sequence): one scf.forall over the batch, 16-row and 32-column
// tiles; B's columns are read in place, a last partial tile zero-padded
// (scf.if): every tile a static matmul.
// CHECK-LABEL: func.func @matmul_col_tiles
// CHECK-NOT: tensor.insert_slice %arg1
// CHECK: scf.forall (%{{.*}}, %{{.*}}, %{{.*}}) in (3, %{{.*}}, %{{.*}})
// CHECK: scf.if %{{.*}} -> (tensor<16x4xf32>)
// CHECK: scf.if %{{.*}} -> (tensor<4x32xf32>)
// CHECK: tensor.extract_slice %arg1[%{{.*}}, 0, %{{.*}}] [1, 4, 32] [1, 1, 1] : tensor<3x4x?xf32> to tensor<1x4x32xf32>
// CHECK: } else {
// CHECK: tensor.pad %{{.*}} low[0, 0] high[0, %{{.*}}]
// CHECK: } : tensor<4x?xf32> to tensor<4x32xf32>
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<16x32xf32>)
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<16x4xf32>, tensor<4x32xf32>)
// CHECK: tensor.parallel_insert_slice %{{.*}} [1, 16, 32] [1, 1, 1] : tensor<1x16x32xf32> into tensor<3x?x?xf32>
func.func @matmul_col_tiles(%a: tensor<3x?x4xf32>, %b: tensor<3x4x?xf32>) -> tensor<3x?x?xf32> {
  %0 = "graph.matmul"(%a, %b) : (tensor<3x?x4xf32>, tensor<3x4x?xf32>) -> tensor<3x?x?xf32>
  return %0 : tensor<3x?x?xf32>
}

// -----

// A product whose K is dynamic and N static (attention's scores x V over a
// dynamic sequence): no copy of A or B, each 16-row tile a matmul whose
// rows and columns are static and whose reduction runs to K (a 5-column N
// is one tile).
// CHECK-LABEL: func.func @matmul_dynamic_depth
// CHECK-NOT: tensor.insert_slice %arg1
// CHECK: scf.forall
// CHECK: scf.if %{{.*}} -> (tensor<16x?xf32>)
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<16x5xf32>)
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<16x?xf32>, tensor<?x5xf32>) outs(%{{.*}} : tensor<16x5xf32>)
func.func @matmul_dynamic_depth(%a: tensor<?x?xf32>, %b: tensor<?x5xf32>) -> tensor<?x5xf32> {
  %0 = "graph.matmul"(%a, %b) : (tensor<?x?xf32>, tensor<?x5xf32>) -> tensor<?x5xf32>
  return %0 : tensor<?x5xf32>
}

// -----

// Shape computations (small integer vectors: Shape, Gather, arithmetic,
// Unsqueeze, Concat) are lowered element by element as scalars, so the
// canonicalizer sees through them: the reshape's sizes are the input's own
// dims (batch, seq * 4 / 4 ...), not values read back from tensors.
// CHECK-LABEL: func.func @shape_vectors
// CHECK-NOT: linalg.generic
// CHECK: %[[B:.*]] = tensor.dim %arg0, %c0
// CHECK: %[[S:.*]] = tensor.dim %arg0, %c1
// CHECK: tensor.from_elements
// CHECK: tensor.reshape
// CHECK-NOT: linalg.generic
// CHECK: return
func.func @shape_vectors(%x: tensor<?x?x256xf32>) -> tensor<?x?x4x64xf32> {
  %s = "graph.shape"(%x) : (tensor<?x?x256xf32>) -> tensor<3xi64>
  %i0 = "graph.constant"() {value = dense<0> : tensor<i64>} : () -> tensor<i64>
  %i1 = "graph.constant"() {value = dense<1> : tensor<i64>} : () -> tensor<i64>
  %four = "graph.constant"() {value = dense<4> : tensor<i64>} : () -> tensor<i64>
  %b = "graph.gather"(%s, %i0) {axis = 0 : i64} : (tensor<3xi64>, tensor<i64>) -> tensor<i64>
  %q = "graph.gather"(%s, %i1) {axis = 0 : i64} : (tensor<3xi64>, tensor<i64>) -> tensor<i64>
  %q4 = "graph.mul"(%q, %four) : (tensor<i64>, tensor<i64>) -> tensor<i64>
  %q1 = "graph.div"(%q4, %four) : (tensor<i64>, tensor<i64>) -> tensor<i64>
  %ax = "graph.constant"() {value = dense<0> : tensor<1xi64>} : () -> tensor<1xi64>
  %b1 = "graph.unsqueeze"(%b, %ax) : (tensor<i64>, tensor<1xi64>) -> tensor<1xi64>
  %qq = "graph.unsqueeze"(%q1, %ax) : (tensor<i64>, tensor<1xi64>) -> tensor<1xi64>
  %heads = "graph.constant"() {value = dense<[4, 64]> : tensor<2xi64>} : () -> tensor<2xi64>
  %bq = "graph.concat"(%b1, %qq) {axis = 0 : i64} : (tensor<1xi64>, tensor<1xi64>) -> tensor<2xi64>
  %shape = "graph.concat"(%bq, %heads) {axis = 0 : i64} : (tensor<2xi64>, tensor<2xi64>) -> tensor<4xi64>
  %0 = "graph.reshape"(%x, %shape) : (tensor<?x?x256xf32>, tensor<4xi64>) -> tensor<?x?x4x64xf32>
  return %0 : tensor<?x?x4x64xf32>
}
