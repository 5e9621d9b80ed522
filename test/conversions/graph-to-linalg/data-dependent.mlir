// RUN: kiln-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(convert-graph-to-linalg))' \
// RUN:   | FileCheck %s

// The ops whose result shape depends on the data (lower_data_dependent.c):
// a loop counts the result's size, a second fills a scratch tensor one entry
// longer (the entries not kept are written where the next kept one goes),
// and the result is the scratch's leading `count` entries.

// NonZero: count the non-zero elements of the flattened input (NaN counts:
// une), then write each element's coordinates into column %p of the
// scratch [rank, n + 1].
// CHECK-LABEL: func.func @non_zero
// CHECK: %[[FLAT:.*]] = tensor.collapse_shape %arg0 {{\[\[}}0, 1]] : tensor<2x3xf32> into tensor<6xf32>
// CHECK: %[[COUNT:.*]] = scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}) -> (index)
// CHECK: tensor.extract %[[FLAT]]
// CHECK: arith.cmpf une
// CHECK: %[[SCRATCH:.*]] = tensor.empty(%{{.*}}) : tensor<2x?xi64>
// CHECK: %[[FILL:.*]]:2 = scf.for {{.*}} iter_args(%{{.*}} = %[[SCRATCH]], %{{.*}} = %{{.*}}) -> (tensor<2x?xi64>, index)
// CHECK: arith.remui
// CHECK: tensor.insert
// CHECK: tensor.insert
// CHECK: tensor.extract_slice %[[FILL]]#0[0, 0] [2, %[[COUNT]]] [1, 1] : tensor<2x?xi64> to tensor<2x?xi64>
func.func @non_zero(%x: tensor<2x3xf32>) -> tensor<2x?xi64> {
  %0 = "graph.non_zero"(%x) : (tensor<2x3xf32>) -> tensor<2x?xi64>
  return %0 : tensor<2x?xi64>
}

// -----

// Compress along an axis, dynamic: the condition may be shorter than the
// axis, never longer (a run-time check); slice i goes to slice %p.
// CHECK-LABEL: func.func @compress_axis
// CHECK: %[[N:.*]] = tensor.dim %arg1, %{{.*}} : tensor<?xi1>
// CHECK: %[[A:.*]] = tensor.dim %arg0, %{{.*}} : tensor<?x2xf32>
// CHECK: %[[LE:.*]] = arith.cmpi ule, %[[N]], %[[A]] : index
// CHECK: cf.assert %[[LE]], "'condition' is longer than the input along the axis"
// CHECK: %[[COUNT:.*]] = scf.for %{{.*}} = %{{.*}} to %[[N]]
// CHECK: tensor.empty(%{{.*}}) : tensor<?x2xf32>
// CHECK: %[[FILL:.*]]:2 = scf.for
// CHECK: tensor.extract_slice %arg0[%{{.*}}, 0] [1, 2] [1, 1] : tensor<?x2xf32> to tensor<1x2xf32>
// CHECK: tensor.insert_slice %{{.*}} into %{{.*}}[%{{.*}}, 0] [1, 2] [1, 1] : tensor<1x2xf32> into tensor<?x2xf32>
// CHECK: tensor.extract_slice %[[FILL]]#0[0, 0] [%[[COUNT]], 2] [1, 1]
func.func @compress_axis(%x: tensor<?x2xf32>, %c: tensor<?xi1>) -> tensor<?x2xf32> {
  %0 = "graph.compress"(%x, %c) {axis = 0 : i64} : (tensor<?x2xf32>, tensor<?xi1>) -> tensor<?x2xf32>
  return %0 : tensor<?x2xf32>
}

// -----

// Compress without an axis: the flattened input's elements; a static
// condition no longer than it needs no check.
// CHECK-LABEL: func.func @compress_flat
// CHECK-NOT: cf.assert
// CHECK: tensor.collapse_shape %arg0 {{\[\[}}0, 1]] : tensor<3x2xf32> into tensor<6xf32>
// CHECK: scf.for
// CHECK: tensor.empty(%{{.*}}) : tensor<?xf32>
// CHECK: tensor.extract_slice %{{.*}}[0] [%{{.*}}] [1] : tensor<?xf32> to tensor<?xf32>
func.func @compress_flat(%x: tensor<3x2xf32>, %c: tensor<4xi1>) -> tensor<?xf32> {
  %0 = "graph.compress"(%x, %c) : (tensor<3x2xf32>, tensor<4xi1>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

// Unique along axis 1 with all four outputs: the input as [outer, slices,
// inner]; each slice's first equal slice and its rank among the first
// occurrences (nested loops comparing slices element by element), then the
// picked slices gathered by a linalg.generic, inverse_indices another, and
// the counts a loop.
// CHECK-LABEL: func.func @unique_axis
// CHECK: %[[SLICES:.*]] = tensor.expand_shape %arg0 {{\[\[}}0], [1, 2]] output_shape [2, 3, 1] : tensor<2x3xf32> into tensor<2x3x1xf32>
// CHECK: scf.for
// CHECK: scf.for
// CHECK: scf.for
// CHECK: tensor.extract %[[SLICES]]
// CHECK: arith.cmpf olt
// CHECK: %[[PICKED:.*]] = tensor.extract_slice %{{.*}}[0] [%{{.*}}] [1] : tensor<?xi64> to tensor<?xi64>
// CHECK: %[[Y:.*]] = linalg.generic {{.*}} ins(%[[PICKED]] : tensor<?xi64>) outs(%{{.*}} : tensor<2x?x1xf32>)
// CHECK: %[[Y2:.*]] = tensor.collapse_shape %[[Y]] {{\[\[}}0], [1, 2]] : tensor<2x?x1xf32> into tensor<2x?xf32>
// CHECK: %[[INV:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<3xi64>)
// CHECK: linalg.fill
// CHECK: %[[COUNTS:.*]] = scf.for
// CHECK: return %[[Y2]], %[[PICKED]], %[[INV]], %[[COUNTS]]
func.func @unique_axis(%x: tensor<2x3xf32>) -> (tensor<2x?xf32>, tensor<?xi64>, tensor<3xi64>, tensor<?xi64>) {
  %0:4 = "graph.unique"(%x) {axis = 1 : i64, sorted = 1 : i64, resultSegmentSizes = array<i32: 1, 1, 1, 1>} : (tensor<2x3xf32>) -> (tensor<2x?xf32>, tensor<?xi64>, tensor<3xi64>, tensor<?xi64>)
  return %0#0, %0#1, %0#2, %0#3 : tensor<2x?xf32>, tensor<?xi64>, tensor<3xi64>, tensor<?xi64>
}

// -----

// Unique without an axis, unsorted: the first occurrences keep their order
// (a slice's rank counts the first occurrences before it: no comparison).
// CHECK-LABEL: func.func @unique_unsorted
// CHECK: tensor.expand_shape %arg0 {{\[\[}}0, 1, 2]] output_shape [1, 6, 1] : tensor<6xi32> into tensor<1x6x1xi32>
// CHECK: arith.cmpi slt
// CHECK: arith.cmpi ult
// CHECK: linalg.generic
// CHECK: tensor.collapse_shape %{{.*}} {{\[\[}}0, 1, 2]] : tensor<1x?x1xi32> into tensor<?xi32>
func.func @unique_unsorted(%x: tensor<6xi32>) -> tensor<?xi32> {
  %0 = "graph.unique"(%x) {sorted = 0 : i64, resultSegmentSizes = array<i32: 1, 0, 0, 0>} : (tensor<6xi32>) -> tensor<?xi32>
  return %0 : tensor<?xi32>
}

// -----

// NonMaxSuppression, dynamic: the dims of boxes and scores checked against
// each other, the scalars read once; per batch and class, the boxes ranked
// by score, then each candidate tested against the rows selected before it
// (a loop from the class's first row to the current count).
// CHECK-LABEL: func.func @nms
// CHECK: cf.assert %{{.*}}, "'boxes' must have 4 coordinates per box"
// CHECK: cf.assert %{{.*}}, "'boxes' and 'scores' have different numbers of batches"
// CHECK: cf.assert %{{.*}}, "'boxes' and 'scores' have different numbers of boxes"
// CHECK: cf.assert %{{.*}}, "'max_output_boxes_per_class' must hold one value"
// CHECK: %[[OUT:.*]] = tensor.empty(%{{.*}}) : tensor<?x3xi64>
// CHECK: %[[SEL:.*]]:2 = scf.for {{.*}} iter_args(%{{.*}} = %[[OUT]], %{{.*}} = %{{.*}}) -> (tensor<?x3xi64>, index)
// CHECK: scf.for
// CHECK: %[[ORDER:.*]] = tensor.empty(%{{.*}}) : tensor<?xi64>
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %[[ORDER]])
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %{{.*}}) -> (i1)
// CHECK: arith.divf
// CHECK: arith.cmpf ogt
// CHECK: tensor.extract_slice %[[SEL]]#0[0, 0] [%[[SEL]]#1, 3] [1, 1] : tensor<?x3xi64> to tensor<?x3xi64>
func.func @nms(%b: tensor<?x?x?xf32>, %s: tensor<?x?x?xf32>, %m: tensor<?xi64>) -> tensor<?x3xi64> {
  %0 = "graph.non_max_suppression"(%b, %s, %m) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0>} : (tensor<?x?x?xf32>, tensor<?x?x?xf32>, tensor<?xi64>) -> tensor<?x3xi64>
  return %0 : tensor<?x3xi64>
}

// -----

// center_point_box = 1: the corners from the center and half the size.
// CHECK-LABEL: func.func @nms_center
// CHECK-NOT: cf.assert
// CHECK: arith.constant 5.000000e-01 : f32
// CHECK: arith.mulf
// CHECK: arith.subf
// CHECK: arith.addf
func.func @nms_center(%b: tensor<1x6x4xf32>, %s: tensor<1x1x6xf32>, %m: tensor<1xi64>, %i: tensor<1xf32>, %t: tensor<1xf32>) -> tensor<?x3xi64> {
  %0 = "graph.non_max_suppression"(%b, %s, %m, %i, %t) {center_point_box = 1 : i64, operandSegmentSizes = array<i32: 1, 1, 1, 1, 1>} : (tensor<1x6x4xf32>, tensor<1x1x6xf32>, tensor<1xi64>, tensor<1xf32>, tensor<1xf32>) -> tensor<?x3xi64>
  return %0 : tensor<?x3xi64>
}
