// RUN: kiln-opt %s --pass-pipeline='builtin.module(func.func(convert-graph-to-linalg),canonicalize,eliminate-empty-tensors,one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map allow-return-allocs-from-loops})' | FileCheck %s

// The last partial row tile of a product with dynamic rows is a zero-padded
// copy of the rows left (tensor.pad), which bufferizes to one buffer: the
// padding written, the rows copied in. Built as a fill and an insert_slice
// into it, the filled buffer was copied once more whole: the scf.if's other
// branch yields a view of A, which is read again later (here by the neg),
// so the bufferization analysis would not write the fill's buffer in place.
// CHECK-LABEL: func.func @partial_row_tile
// CHECK: scf.forall
// CHECK: scf.if
// CHECK: } else {
// CHECK: %[[PAD:.*]] = memref.alloc() {{.*}} : memref<16x4xf32>
// CHECK-NOT: memref.alloc
// CHECK: linalg.map outs(%[[PAD]] : memref<16x4xf32>)
// CHECK-NOT: memref.alloc
// CHECK: %[[ROWS:.*]] = memref.subview %[[PAD]][0, 0] [%{{.*}}, 4] [1, 1]
// CHECK-NOT: memref.alloc
// CHECK: memref.copy %{{.*}}, %[[ROWS]]
// CHECK-NOT: memref.copy
// CHECK: scf.yield
// CHECK: linalg.matmul
func.func @partial_row_tile(%a: tensor<?x4xf32>, %b: tensor<4x32xf32>) -> (tensor<?x32xf32>, tensor<?x4xf32>) {
  %e = "graph.exp"(%a) : (tensor<?x4xf32>) -> tensor<?x4xf32>
  %0 = "graph.matmul"(%e, %b) : (tensor<?x4xf32>, tensor<4x32xf32>) -> tensor<?x32xf32>
  %1 = "graph.neg"(%e) : (tensor<?x4xf32>) -> tensor<?x4xf32>
  return %0, %1 : tensor<?x32xf32>, tensor<?x4xf32>
}
