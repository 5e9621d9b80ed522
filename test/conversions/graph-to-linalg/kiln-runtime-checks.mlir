// RUN: kiln-opt %s --split-input-file --kiln-runtime-checks | FileCheck %s

// Before a gather whose indices come from the data: one reduction over the
// indices flags any outside [-s, s-1] for the axis' size s, and a failed
// check stores its number in @kiln_check_status unless an earlier one
// failed. The module lists the checks' messages; the gather is unchanged
// (its lowering still clamps).
// CHECK: module attributes {kiln.runtime_checks = ["'graph.gather': an index is out of range: ONNX requires indices in [-s, s-1] for s = 5 (data dim 0)"]}
// CHECK: memref.global @kiln_check_status : memref<i32> = dense<0>
// CHECK-LABEL: func.func @gather
// CHECK-SAME: (%[[D:.*]]: tensor<5x3xf32>, %[[I:.*]]: tensor<2x2xi64>)
// CHECK: %[[Z:.*]] = linalg.fill
// CHECK: %[[R:.*]] = linalg.generic
// CHECK-SAME: iterator_types = ["reduction", "reduction"]
// CHECK-SAME: ins(%[[I]] : tensor<2x2xi64>) outs(%[[Z]] : tensor<i32>)
// CHECK: ^bb0(%[[IN:.*]]: i64, %[[ACC:.*]]: i32):
// CHECK: %[[X:.*]] = arith.index_cast %[[IN]] : i64 to index
// CHECK: %[[C5:.*]] = arith.constant 5 : index
// CHECK: %[[NEG:.*]] = arith.subi %{{.*}}, %[[C5]] : index
// CHECK: %[[LO:.*]] = arith.cmpi slt, %[[X]], %[[NEG]] : index
// CHECK: %[[HI:.*]] = arith.cmpi sge, %[[X]], %[[C5]] : index
// CHECK: %[[BAD:.*]] = arith.ori %[[LO]], %[[HI]] : i1
// CHECK: %[[B32:.*]] = arith.extui %[[BAD]] : i1 to i32
// CHECK: arith.ori %[[ACC]], %[[B32]] : i32
// CHECK: %[[F:.*]] = tensor.extract %[[R]][] : tensor<i32>
// CHECK: %[[FAILED:.*]] = arith.cmpi ne, %[[F]]
// CHECK: scf.if %[[FAILED]] {
// CHECK: %[[G:.*]] = memref.get_global @kiln_check_status : memref<i32>
// CHECK: %[[CUR:.*]] = memref.load %[[G]][] : memref<i32>
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %[[CUR]]
// CHECK: %[[ONE:.*]] = arith.constant 1 : i32
// CHECK: %[[NEW:.*]] = arith.select %[[FIRST]], %[[ONE]], %[[CUR]] : i32
// CHECK: memref.store %[[NEW]], %[[G]][] : memref<i32>
// CHECK: "graph.gather"(%[[D]], %[[I]])
func.func @gather(%d: tensor<5x3xf32>, %i: tensor<2x2xi64>) -> tensor<2x2x3xf32> {
  %0 = "graph.gather"(%d, %i) {axis = 0 : i64} : (tensor<5x3xf32>, tensor<2x2xi64>) -> tensor<2x2x3xf32>
  return %0 : tensor<2x2x3xf32>
}

// -----

// Index tuples (gather_nd with batch_dims = 1, scatter_nd): entry j of a
// tuple indexes data dim batch_dims + j, so its bound is picked by its
// position along the last dim. Checks are numbered in order; a negative
// axis counts from the end; the ONNX node's name (here a name location)
// leads each message.
// CHECK: kiln.runtime_checks = ["nd (GatherND): an index is out of range: ONNX requires indices in [-s, s-1] for s = 3 (data dim 1), s = 4 (data dim 2)", "se (ScatterElements): an index is out of range: ONNX requires indices in [-s, s-1] for s = 7 (data dim 1)", "snd (ScatterND): an index is out of range: ONNX requires indices in [-s, s-1] for s = 4 (data dim 0)"]
// CHECK-LABEL: func.func @tuples
// CHECK: linalg.generic
// CHECK: ^bb0(%{{.*}}: i64, %{{.*}}: i32):
// CHECK: %[[J:.*]] = linalg.index 2 : index
// CHECK: %[[IS1:.*]] = arith.cmpi eq, %[[J]], %{{.*}} : index
// CHECK: arith.select %[[IS1]], %{{.*}}, %{{.*}} : index
// CHECK: "graph.gather_nd"
// CHECK: arith.constant 2 : i32
// CHECK: "graph.scatter_elements"
// CHECK: arith.constant 3 : i32
// CHECK: "graph.scatter_nd"
func.func @tuples(%d: tensor<2x3x4xf32>, %i: tensor<2x5x2xi64>, %e: tensor<4x7xf32>, %ei: tensor<4x2xi64>, %eu: tensor<4x2xf32>, %ni: tensor<3x1xi64>, %nu: tensor<3x7xf32>) -> (tensor<2x5xf32>, tensor<4x7xf32>, tensor<4x7xf32>) {
  %0 = "graph.gather_nd"(%d, %i) {batch_dims = 1 : i64} : (tensor<2x3x4xf32>, tensor<2x5x2xi64>) -> tensor<2x5xf32> loc("nd (GatherND)")
  %1 = "graph.scatter_elements"(%e, %ei, %eu) {axis = -1 : i64} : (tensor<4x7xf32>, tensor<4x2xi64>, tensor<4x2xf32>) -> tensor<4x7xf32> loc("se (ScatterElements)")
  %2 = "graph.scatter_nd"(%e, %ni, %nu) : (tensor<4x7xf32>, tensor<3x1xi64>, tensor<3x7xf32>) -> tensor<4x7xf32> loc("snd (ScatterND)")
  return %0, %1, %2 : tensor<2x5xf32>, tensor<4x7xf32>, tensor<4x7xf32>
}

// -----

// A dim of dynamic size: the bound is read with tensor.dim before the
// check, and the message names the data dim.
// CHECK: module attributes {kiln.runtime_checks = ["'graph.gather': an index is out of range: ONNX requires indices in [-s, s-1] for s = data dim 0"]}
// CHECK-LABEL: func.func @dynamic_bound
// CHECK: %[[N:.*]] = tensor.dim %arg0, %{{.*}} : tensor<?x3xf32>
// CHECK: linalg.generic
// CHECK: arith.subi %{{.*}}, %[[N]] : index
// CHECK: arith.cmpi sge, %{{.*}}, %[[N]] : index
func.func @dynamic_bound(%d: tensor<?x3xf32>, %i: tensor<?xi64>) -> tensor<?x3xf32> {
  %0 = "graph.gather"(%d, %i) {axis = 0 : i64} : (tensor<?x3xf32>, tensor<?xi64>) -> tensor<?x3xf32>
  return %0 : tensor<?x3xf32>
}

// -----

// Constant indices are not checked (the graph passes fold or verify
// them), nor are ops that index nothing: no status word, no attribute.
// CHECK-NOT: kiln.runtime_checks
// CHECK-NOT: memref.global
// CHECK-LABEL: func.func @constant_indices
// CHECK-NOT: linalg.generic
// CHECK: "graph.gather"
func.func @constant_indices(%d: tensor<5x3xf32>) -> tensor<2x3xf32> {
  %i = "graph.constant"() {value = dense<[1, 4]> : tensor<2xi64>} : () -> tensor<2xi64>
  %0 = "graph.gather"(%d, %i) {axis = 0 : i64} : (tensor<5x3xf32>, tensor<2xi64>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
