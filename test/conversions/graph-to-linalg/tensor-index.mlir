// RUN: kiln-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(convert-graph-to-linalg))' \
// RUN:   | FileCheck %s

// Gather reads data with tensor.extract at an index that is wrapped
// (negative from the end) and clamped into the axis, so it never faults.
// CHECK-LABEL: func.func @gather
// CHECK-SAME: (%[[D:.*]]: tensor<5x3xf32>, %[[I:.*]]: tensor<2x2xi64>)
// CHECK: linalg.generic
// CHECK-SAME: ins(%[[I]] : tensor<2x2xi64>)
// CHECK: ^bb0(%[[IN:.*]]: i64, %{{.*}}: f32):
// CHECK: %[[X:.*]] = arith.index_cast %[[IN]] : i64 to index
// CHECK: %[[W:.*]] = arith.select
// CHECK: %[[LO:.*]] = arith.maxsi %[[W]]
// CHECK: %[[C:.*]] = arith.minsi %[[LO]]
// CHECK: %[[J:.*]] = linalg.index 2 : index
// CHECK: %[[E:.*]] = tensor.extract %[[D]][%[[C]], %[[J]]] : tensor<5x3xf32>
// CHECK: linalg.yield %[[E]] : f32
func.func @gather(%d: tensor<5x3xf32>, %i: tensor<2x2xi64>) -> tensor<2x2x3xf32> {
  %0 = "graph.gather"(%d, %i) {axis = 0 : i64} : (tensor<5x3xf32>, tensor<2x2xi64>) -> tensor<2x2x3xf32>
  return %0 : tensor<2x2x3xf32>
}

// -----

// CHECK-LABEL: func.func @gather_elements
// CHECK-SAME: (%[[D:.*]]: tensor<3x3xui8>, %{{.*}}: tensor<2x3xi32>)
// CHECK: ^bb0(%{{.*}}: i32, %{{.*}}: ui8):
// CHECK: %[[R:.*]] = linalg.index 0 : index
// CHECK: %[[C:.*]] = arith.minsi
// CHECK: %[[E:.*]] = tensor.extract %[[D]][%[[R]], %[[C]]] : tensor<3x3xui8>
// CHECK: linalg.yield %[[E]] : ui8
func.func @gather_elements(%d: tensor<3x3xui8>, %i: tensor<2x3xi32>) -> tensor<2x3xui8> {
  %0 = "graph.gather_elements"(%d, %i) {axis = 1 : i64} : (tensor<3x3xui8>, tensor<2x3xi32>) -> tensor<2x3xui8>
  return %0 : tensor<2x3xui8>
}

// -----

// gather_nd reads the index tuple from the indices tensor in the body.
// CHECK-LABEL: func.func @gather_nd
// CHECK-SAME: (%[[D:.*]]: tensor<2x2x2xi32>, %[[I:.*]]: tensor<2x1xi64>)
// CHECK: linalg.generic
// CHECK-SAME: outs(
// CHECK: %[[B:.*]] = linalg.index 0 : index
// CHECK: tensor.extract %[[I]][%[[B]], %{{.*}}] : tensor<2x1xi64>
// CHECK: %[[C:.*]] = arith.minsi
// CHECK: %[[T:.*]] = linalg.index 1 : index
// CHECK: tensor.extract %[[D]][%[[B]], %[[C]], %[[T]]] : tensor<2x2x2xi32>
func.func @gather_nd(%d: tensor<2x2x2xi32>, %i: tensor<2x1xi64>) -> tensor<2x2xi32> {
  %0 = "graph.gather_nd"(%d, %i) {batch_dims = 1 : i64} : (tensor<2x2x2xi32>, tensor<2x1xi64>) -> tensor<2x2xi32>
  return %0 : tensor<2x2xi32>
}

// -----

// Scatters are one scf.for over the updates carrying the result tensor.
// CHECK-LABEL: func.func @scatter_elements_add
// CHECK-SAME: (%[[D:.*]]: tensor<3x3xf32>, %{{.*}}: tensor<2x3xi64>, %[[U:.*]]: tensor<2x3xf32>)
// CHECK: %[[R:.*]] = scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %[[D]]) -> (tensor<3x3xf32>)
// CHECK: %[[C:.*]] = arith.minsi
// CHECK: %[[UP:.*]] = tensor.extract %[[U]]
// CHECK: %[[CUR:.*]] = tensor.extract %[[ACC]][%[[C]], %{{.*}}]
// CHECK: %[[S:.*]] = arith.addf %[[CUR]], %[[UP]] : f32
// CHECK: %[[N:.*]] = tensor.insert %[[S]] into %[[ACC]][%[[C]], %{{.*}}]
// CHECK: scf.yield %[[N]]
// CHECK: return %[[R]]
func.func @scatter_elements_add(%d: tensor<3x3xf32>, %i: tensor<2x3xi64>, %u: tensor<2x3xf32>) -> tensor<3x3xf32> {
  %0 = "graph.scatter_elements"(%d, %i, %u) {axis = 0 : i64, reduction = "add"} : (tensor<3x3xf32>, tensor<2x3xi64>, tensor<2x3xf32>) -> tensor<3x3xf32>
  return %0 : tensor<3x3xf32>
}

// -----

// Unsigned max combines with maxui on the signless view.
// CHECK-LABEL: func.func @scatter_nd_max_unsigned
// CHECK: scf.for
// CHECK: %[[A:.*]] = builtin.unrealized_conversion_cast %{{.*}} : ui8 to i8
// CHECK: %[[B:.*]] = builtin.unrealized_conversion_cast %{{.*}} : ui8 to i8
// CHECK: %[[M:.*]] = arith.maxui %[[A]], %[[B]] : i8
// CHECK: %[[V:.*]] = builtin.unrealized_conversion_cast %[[M]] : i8 to ui8
// CHECK: tensor.insert %[[V]]
func.func @scatter_nd_max_unsigned(%d: tensor<4x4xui8>, %i: tensor<2x1xi64>, %u: tensor<2x4xui8>) -> tensor<4x4xui8> {
  %0 = "graph.scatter_nd"(%d, %i, %u) {reduction = "max"} : (tensor<4x4xui8>, tensor<2x1xi64>, tensor<2x4xui8>) -> tensor<4x4xui8>
  return %0 : tensor<4x4xui8>
}

// -----

// CHECK-LABEL: func.func @one_hot
// CHECK-SAME: (%{{.*}}: tensor<3xi64>, %[[V:.*]]: tensor<2xf32>)
// CHECK: %[[OFF:.*]] = tensor.extract %[[V]][%{{.*}}] : tensor<2xf32>
// CHECK: %[[ON:.*]] = tensor.extract %[[V]][%{{.*}}] : tensor<2xf32>
// CHECK: linalg.generic
// CHECK: %[[P:.*]] = linalg.index 1 : index
// CHECK: %[[P64:.*]] = arith.index_cast %[[P]] : index to i64
// CHECK: %[[EQ:.*]] = arith.cmpi eq, %{{.*}}, %[[P64]] : i64
// CHECK: arith.select %[[EQ]], %[[ON]], %[[OFF]] : f32
func.func @one_hot(%i: tensor<3xi64>, %v: tensor<2xf32>) -> tensor<3x5xf32> {
  %depth = "graph.constant"() {value = dense<5> : tensor<i64>} : () -> tensor<i64>
  %0 = "graph.one_hot"(%i, %depth, %v) : (tensor<3xi64>, tensor<i64>, tensor<2xf32>) -> tensor<3x5xf32>
  return %0 : tensor<3x5xf32>
}
