// RUN: kiln-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(convert-graph-to-linalg))' \
// RUN:   | FileCheck %s

// Transpose without perm reverses the dims: a copy generic reading the
// input through the permutation (the CPU schedules vectorize generics).
// CHECK: #[[$REV:map[0-9]*]] = affine_map<(d0, d1, d2) -> (d2, d1, d0)>
// CHECK-LABEL: func.func @transpose_default
// CHECK: %[[E:.*]] = tensor.empty() : tensor<4x3x2xf32>
// CHECK: linalg.generic {indexing_maps = [#[[$REV]], #{{.*}}], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg0 : tensor<2x3x4xf32>) outs(%[[E]] : tensor<4x3x2xf32>)
// CHECK-NEXT: ^bb0(%[[IN:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: linalg.yield %[[IN]]
func.func @transpose_default(%x: tensor<2x3x4xf32>) -> tensor<4x3x2xf32> {
  %0 = "graph.transpose"(%x) : (tensor<2x3x4xf32>) -> tensor<4x3x2xf32>
  return %0 : tensor<4x3x2xf32>
}

// -----

// Concat inserts both operands into an empty tensor (negative axis).
// CHECK-LABEL: func.func @concat
// CHECK: %[[E:.*]] = tensor.empty() : tensor<2x8xf32>
// CHECK: %[[A:.*]] = tensor.insert_slice %arg0 into %[[E]][0, 0] [2, 3] [1, 1]
// CHECK: %[[B:.*]] = tensor.insert_slice %arg1 into %[[A]][0, 3] [2, 5] [1, 1]
// CHECK: return %[[B]]
func.func @concat(%a: tensor<2x3xf32>, %b: tensor<2x5xf32>) -> tensor<2x8xf32> {
  %0 = "graph.concat"(%a, %b) {axis = -1 : i64} : (tensor<2x3xf32>, tensor<2x5xf32>) -> tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}

// -----

// Split into equal pieces: one extract_slice per result.
// CHECK-LABEL: func.func @split
// CHECK: tensor.extract_slice %arg0[0, 0] [2, 2] [1, 1]
// CHECK: tensor.extract_slice %arg0[2, 0] [2, 2] [1, 1]
// CHECK: tensor.extract_slice %arg0[4, 0] [2, 2] [1, 1]
func.func @split(%x: tensor<6x2xf32>) -> (tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>) {
  %0:3 = "graph.split"(%x) {axis = 0 : i64, num_outputs = 3 : i64} : (tensor<6x2xf32>) -> (tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>)
  return %0#0, %0#1, %0#2 : tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>
}

// -----

// Positive steps: an extract_slice with the clamped end (-1 -> 4).
// CHECK-LABEL: func.func @slice_forward
// CHECK: tensor.extract_slice %arg0[1, 0] [2, 6] [2, 1] : tensor<5x6xf32> to tensor<2x6xf32>
func.func @slice_forward(%x: tensor<5x6xf32>) -> tensor<2x6xf32> {
  %s = "graph.constant"() {value = dense<[1]> : tensor<1xi64>} : () -> tensor<1xi64>
  %e = "graph.constant"() {value = dense<[-1]> : tensor<1xi64>} : () -> tensor<1xi64>
  %a = "graph.constant"() {value = dense<[0]> : tensor<1xi64>} : () -> tensor<1xi64>
  %t = "graph.constant"() {value = dense<[2]> : tensor<1xi64>} : () -> tensor<1xi64>
  %1 = "graph.slice"(%x, %s, %e, %a, %t) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1>} : (tensor<5x6xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<2x6xf32>
  return %1 : tensor<2x6xf32>
}

// -----

// A negative step reads x[start + step * i] through an affine map; an end
// past the dim is clamped.
// CHECK-DAG: #[[REV:.*]] = affine_map<(d0, d1) -> (d0 * -2 + 4, d1 * 2)>
// CHECK-LABEL: func.func @slice_reversed
// CHECK: linalg.generic {indexing_maps = [#[[REV]], {{.*}}]
// CHECK-SAME: ins(%arg0 : tensor<5x6xf32>)
func.func @slice_reversed(%x: tensor<5x6xf32>) -> tensor<2x3xf32> {
  %s = "graph.constant"() {value = dense<[4, 0]> : tensor<2xi64>} : () -> tensor<2xi64>
  %e = "graph.constant"() {value = dense<[1, 100]> : tensor<2xi64>} : () -> tensor<2xi64>
  %a = "graph.constant"() {value = dense<[0, -1]> : tensor<2xi64>} : () -> tensor<2xi64>
  %t = "graph.constant"() {value = dense<[-2, 2]> : tensor<2xi64>} : () -> tensor<2xi64>
  %0 = "graph.slice"(%x, %s, %e, %a, %t) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1>} : (tensor<5x6xf32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// Tile broadcasts into (repeat, dim) pairs, then collapses them.
// CHECK-DAG: #[[IN:.*]] = affine_map<(d0, d1, d2, d3) -> (d1, d3)>
// CHECK-LABEL: func.func @tile
// CHECK: %[[T:.*]] = linalg.generic {indexing_maps = [#[[IN]], {{.*}}]
// CHECK-SAME: outs({{.*}} : tensor<2x2x1x3xi32>)
// CHECK: tensor.collapse_shape %[[T]]
// CHECK: tensor.expand_shape {{.*}} output_shape [4, 3]
func.func @tile(%x: tensor<2x3xi32>) -> tensor<4x3xi32> {
  %r = "graph.constant"() {value = dense<[2, 1]> : tensor<2xi64>} : () -> tensor<2xi64>
  %0 = "graph.tile"(%x, %r) : (tensor<2x3xi32>, tensor<2xi64>) -> tensor<4x3xi32>
  return %0 : tensor<4x3xi32>
}

// -----

// Expand: a broadcasting copy.
// CHECK-DAG: #[[B:.*]] = affine_map<(d0, d1) -> (0, d1)>
// CHECK-LABEL: func.func @expand
// CHECK: linalg.generic {indexing_maps = [#[[B]], {{.*}}]
func.func @expand(%x: tensor<1x3xf32>) -> tensor<4x3xf32> {
  %s = "graph.constant"() {value = dense<[4, 1]> : tensor<2xi64>} : () -> tensor<2xi64>
  %0 = "graph.expand"(%x, %s) : (tensor<1x3xf32>, tensor<2xi64>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// -----

// Constant pad: the fill value, the cropped input (a negative pad) inserted
// into the filled result.
// CHECK-LABEL: func.func @pad_constant
// CHECK: %[[V:.*]] = tensor.extract %arg1[] : tensor<f32>
// CHECK: %[[F:.*]] = linalg.fill ins(%[[V]] : f32) outs({{.*}} : tensor<3x4xf32>)
// CHECK: %[[C:.*]] = tensor.extract_slice %arg0[0, 1] [2, 2] [1, 1]
// CHECK: tensor.insert_slice %[[C]] into %[[F]][1, 0] [2, 2] [1, 1]
// CHECK-NOT: tensor.pad
func.func @pad_constant(%x: tensor<2x3xf32>, %c: tensor<f32>) -> tensor<3x4xf32> {
  %p = "graph.constant"() {value = dense<[1, -1, 0, 2]> : tensor<4xi64>} : () -> tensor<4xi64>
  %0 = "graph.pad"(%x, %p, %c) {operandSegmentSizes = array<i32: 1, 1, 1, 0>} : (tensor<2x3xf32>, tensor<4xi64>, tensor<f32>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

// Reflect pad: a generic reading the mirrored index with tensor.extract.
// CHECK-LABEL: func.func @pad_reflect
// CHECK: linalg.generic
// CHECK: %[[I:.*]] = linalg.index 0 : index
// CHECK: arith.remsi
// CHECK: %[[S:.*]] = arith.select
// CHECK: %[[X:.*]] = tensor.extract %arg0[%[[S]]] : tensor<4xf32>
// CHECK: linalg.yield %[[X]]
func.func @pad_reflect(%x: tensor<4xf32>) -> tensor<6xf32> {
  %p = "graph.constant"() {value = dense<[1, 1]> : tensor<2xi64>} : () -> tensor<2xi64>
  %0 = "graph.pad"(%x, %p) {mode = "reflect", operandSegmentSizes = array<i32: 1, 1, 0, 0>} : (tensor<4xf32>, tensor<2xi64>) -> tensor<6xf32>
  return %0 : tensor<6xf32>
}

// -----

// DepthToSpace (CRD): reshape to 6-D, transpose, reshape back.
// CHECK: #[[$D2S:map[0-9]*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d3, d5, d2, d4)>
// CHECK-LABEL: func.func @depth_to_space
// CHECK: %[[X:.*]] = tensor.expand_shape {{.*}} output_shape [1, 2, 2, 2, 2, 3]
// CHECK: linalg.generic {indexing_maps = [#[[$D2S]], {{.*}} ins(%[[X]] : tensor<1x2x2x2x2x3xf32>)
// CHECK: tensor.expand_shape {{.*}} output_shape [1, 2, 4, 6]
func.func @depth_to_space(%x: tensor<1x8x2x3xf32>) -> tensor<1x2x4x6xf32> {
  %0 = "graph.depth_to_space"(%x) {blocksize = 2 : i64, mode = "CRD"} : (tensor<1x8x2x3xf32>) -> tensor<1x2x4x6xf32>
  return %0 : tensor<1x2x4x6xf32>
}

// -----

// Trilu with a run-time k: read once, compared with col - row.
// CHECK-LABEL: func.func @trilu
// CHECK: %[[K64:.*]] = tensor.extract %arg1[] : tensor<i64>
// CHECK: %[[K:.*]] = arith.index_cast %[[K64]] : i64 to index
// CHECK: linalg.generic
// CHECK: %[[D:.*]] = arith.subi
// CHECK: %[[KEEP:.*]] = arith.cmpi sle, %[[D]], %[[K]] : index
// CHECK: arith.select %[[KEEP]]
func.func @trilu(%x: tensor<3x4xf32>, %k: tensor<i64>) -> tensor<3x4xf32> {
  %0 = "graph.trilu"(%x, %k) {upper = 0 : i64} : (tensor<3x4xf32>, tensor<i64>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

// Range with run-time start and delta (the length is static): start + i * delta.
// CHECK-LABEL: func.func @range
// CHECK: linalg.generic
// CHECK-SAME: ins(%arg0, %arg1 : tensor<i32>, tensor<i32>)
// CHECK: %[[I:.*]] = arith.index_cast {{.*}} : index to i32
// CHECK: %[[M:.*]] = arith.muli %[[I]]
// CHECK: arith.addi {{.*}}, %[[M]] : i32
func.func @range(%s: tensor<i32>, %d: tensor<i32>) -> tensor<5xi32> {
  %l = "graph.constant"() {value = dense<7> : tensor<i32>} : () -> tensor<i32>
  %0 = "graph.range"(%s, %l, %d) : (tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<5xi32>
  return %0 : tensor<5xi32>
}

// -----

// ConstantOfShape: a filled tensor of the value attribute.
// CHECK-LABEL: func.func @constant_of_shape
// CHECK: %[[V:.*]] = arith.constant 2.500000e+00 : f32
// CHECK: linalg.fill ins(%[[V]] : f32) outs({{.*}} : tensor<2x3xf32>)
func.func @constant_of_shape() -> tensor<2x3xf32> {
  %s = "graph.constant"() {value = dense<[2, 3]> : tensor<2xi64>} : () -> tensor<2xi64>
  %0 = "graph.constant_of_shape"(%s) {value = dense<2.5> : tensor<1xf32>} : (tensor<2xi64>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// EyeLike: 1 where col - row == k.
// CHECK-LABEL: func.func @eye_like
// CHECK: %[[K:.*]] = arith.constant -1 : index
// CHECK: linalg.generic
// CHECK: %[[EQ:.*]] = arith.cmpi eq, {{.*}}, %[[K]] : index
// CHECK: arith.select %[[EQ]], {{.*}} : i32
func.func @eye_like(%x: tensor<3x3xf32>) -> tensor<3x3xi32> {
  %0 = "graph.eye_like"(%x) {k = -1 : i64, dtype = i32} : (tensor<3x3xf32>) -> tensor<3x3xi32>
  return %0 : tensor<3x3xi32>
}

// -----

// ReverseSequence: the length of each batch entry is an input of the
// generic; the time index is mirrored below it.
// CHECK-DAG: #[[BATCH:.*]] = affine_map<(d0, d1, d2) -> (d1)>
// CHECK-LABEL: func.func @reverse_sequence
// CHECK: linalg.generic {indexing_maps = [#[[BATCH]], {{.*}}]
// CHECK-SAME: ins(%arg1 : tensor<2xi64>)
// CHECK: %[[T:.*]] = arith.select
// CHECK: tensor.extract %arg0[%[[T]], {{.*}}] : tensor<4x2x3xf32>
func.func @reverse_sequence(%x: tensor<4x2x3xf32>, %lens: tensor<2xi64>) -> tensor<4x2x3xf32> {
  %0 = "graph.reverse_sequence"(%x, %lens) {batch_axis = 1 : i64, time_axis = 0 : i64} : (tensor<4x2x3xf32>, tensor<2xi64>) -> tensor<4x2x3xf32>
  return %0 : tensor<4x2x3xf32>
}

// -----

// Size of a static tensor: a constant.
// CHECK-LABEL: func.func @size
// CHECK: arith.constant dense<24> : tensor<1xi64>
// CHECK-NOT: graph.
func.func @size(%x: tensor<2x3x4xf32>) -> tensor<i64> {
  %0 = "graph.size"(%x) : (tensor<2x3x4xf32>) -> tensor<i64>
  return %0 : tensor<i64>
}
