// RUN: kiln-opt %s --split-input-file --graph-per-sample | FileCheck %s

// graph-per-sample (per_sample_model.c): a function whose inputs are
// dynamic only in the batch dim, and whose ops keep samples apart, becomes
// one loop over the samples around a static batch-1 copy of its graph ops.
// Weights stay before the loop; the result is a full-size slice stating
// its dims (the shape function reads them there, not through the loop).
// CHECK-LABEL: func.func @cnn
// CHECK: "graph.constant"
// CHECK: %[[N:.*]] = tensor.dim %arg0, %{{.*}} : tensor<?x3x8x8xf32>
// CHECK: %[[INIT:.*]] = tensor.empty(%[[N]]) : tensor<?x5xf32>
// CHECK: %[[LOOP:.*]] = scf.for %[[I:.*]] = %{{.*}} to %[[N]] step %{{.*}} iter_args(%[[ACC:.*]] = %[[INIT]])
// CHECK: %[[S:.*]] = tensor.extract_slice %arg0[%[[I]], 0, 0, 0] [1, 3, 8, 8] [1, 1, 1, 1] : tensor<?x3x8x8xf32> to tensor<1x3x8x8xf32>
// CHECK: "graph.conv"(%[[S]], %{{.*}}) {{.*}} -> tensor<1x4x8x8xf32>
// CHECK: "graph.relu"({{.*}}) : (tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
// CHECK: "graph.flatten"({{.*}}) -> tensor<1x256xf32>
// CHECK: %[[Y:.*]] = "graph.gemm"({{.*}}) -> tensor<1x5xf32>
// CHECK: tensor.insert_slice %[[Y]] into %[[ACC]][%[[I]], 0] [1, 5] [1, 1]
// CHECK: } {kiln.sample_loop}
// CHECK: %[[R:.*]] = tensor.extract_slice %[[LOOP]][0, 0] [%[[N]], 5] [1, 1]
// CHECK: return %[[R]]
func.func @cnn(%x: tensor<?x3x8x8xf32>) -> tensor<?x5xf32> {
  %w = "graph.constant"() {value = dense<0.5> : tensor<4x3x3x3xf32>} : () -> tensor<4x3x3x3xf32>
  %g = "graph.constant"() {value = dense<0.25> : tensor<5x256xf32>} : () -> tensor<5x256xf32>
  %c = "graph.conv"(%x, %w) {kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>} : (tensor<?x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<?x4x8x8xf32>
  %r = "graph.relu"(%c) : (tensor<?x4x8x8xf32>) -> tensor<?x4x8x8xf32>
  %f = "graph.flatten"(%r) {axis = 1 : i64} : (tensor<?x4x8x8xf32>) -> tensor<?x256xf32>
  %y = "graph.gemm"(%f, %g) {transB = 1 : i64} : (tensor<?x256xf32>, tensor<5x256xf32>) -> tensor<?x5xf32>
  return %y : tensor<?x5xf32>
}

// -----

// Two batched inputs: the batch is the first one's, the other's is checked
// equal at run time; a static result is returned as before.
// CHECK-LABEL: func.func @two_inputs
// CHECK: %[[N:.*]] = tensor.dim %arg0
// CHECK: %[[M:.*]] = tensor.dim %arg1
// CHECK: arith.cmpi eq, %[[M]], %[[N]]
// CHECK: cf.assert {{.*}}"input 1 has another batch size (dim 0) than input 0: the model runs sample by sample and takes one batch size for every input"
// CHECK: scf.for
// CHECK: "graph.matmul"({{.*}}) : (tensor<1x16x4xf32>, tensor<4x3xf32>) -> tensor<1x16x3xf32>
// CHECK: "graph.add"({{.*}}) : (tensor<1x16x3xf32>, tensor<1x16x3xf32>) -> tensor<1x16x3xf32>
// CHECK: } {kiln.sample_loop}
// CHECK: return %{{.*}}, %arg2
func.func @two_inputs(%a: tensor<?x16x4xf32>, %b: tensor<?x16x3xf32>, %s: tensor<2xf32>) -> (tensor<?x16x3xf32>, tensor<2xf32>) {
  %w = "graph.constant"() {value = dense<1.0> : tensor<4x3xf32>} : () -> tensor<4x3xf32>
  %m = "graph.matmul"(%a, %w) : (tensor<?x16x4xf32>, tensor<4x3xf32>) -> tensor<?x16x3xf32>
  %y = "graph.add"(%m, %b) : (tensor<?x16x3xf32>, tensor<?x16x3xf32>) -> tensor<?x16x3xf32>
  return %y, %s : tensor<?x16x3xf32>, tensor<2xf32>
}

// -----

// Left alone: an op that reads the batch as data (Shape), a transpose that
// moves the batch, a reduction the rules do not follow, a dynamic dim
// other than the batch, products of one row per sample (an MLP: a
// matrix-vector product per sample would re-read the weights for every
// row, where the dynamic lowering tiles the batch), no product at all, a
// static model.
// CHECK-LABEL: func.func @shape_of_batch
// CHECK-NOT: scf.for
// CHECK: "graph.shape"
func.func @shape_of_batch(%x: tensor<?x16x4xf32>) -> (tensor<?x16x3xf32>, tensor<3xi64>) {
  %w = "graph.constant"() {value = dense<1.0> : tensor<4x3xf32>} : () -> tensor<4x3xf32>
  %m = "graph.matmul"(%x, %w) : (tensor<?x16x4xf32>, tensor<4x3xf32>) -> tensor<?x16x3xf32>
  %s = "graph.shape"(%x) : (tensor<?x16x4xf32>) -> tensor<3xi64>
  return %m, %s : tensor<?x16x3xf32>, tensor<3xi64>
}

// CHECK-LABEL: func.func @transpose_moves_batch
// CHECK-NOT: scf.for
// CHECK: return
func.func @transpose_moves_batch(%x: tensor<?x16x5xf32>) -> tensor<16x?x3xf32> {
  %w = "graph.constant"() {value = dense<1.0> : tensor<5x3xf32>} : () -> tensor<5x3xf32>
  %m = "graph.matmul"(%x, %w) : (tensor<?x16x5xf32>, tensor<5x3xf32>) -> tensor<?x16x3xf32>
  %t = "graph.transpose"(%m) {perm = array<i64: 1, 0, 2>} : (tensor<?x16x3xf32>) -> tensor<16x?x3xf32>
  return %t : tensor<16x?x3xf32>
}

// CHECK-LABEL: func.func @reduce_over_batch
// CHECK-NOT: scf.for
// CHECK: return
func.func @reduce_over_batch(%x: tensor<?x16x4xf32>) -> tensor<1x16x3xf32> {
  %w = "graph.constant"() {value = dense<1.0> : tensor<4x3xf32>} : () -> tensor<4x3xf32>
  %a = "graph.constant"() {value = dense<[0]> : tensor<1xi64>} : () -> tensor<1xi64>
  %m = "graph.matmul"(%x, %w) : (tensor<?x16x4xf32>, tensor<4x3xf32>) -> tensor<?x16x3xf32>
  %r = "graph.reduce_sum"(%m, %a) : (tensor<?x16x3xf32>, tensor<1xi64>) -> tensor<1x16x3xf32>
  return %r : tensor<1x16x3xf32>
}

// CHECK-LABEL: func.func @mlp
// CHECK-NOT: scf.for
// CHECK: return
func.func @mlp(%x: tensor<?x64xf32>) -> tensor<?x32xf32> {
  %w = "graph.constant"() {value = dense<1.0> : tensor<64x32xf32>} : () -> tensor<64x32xf32>
  %m = "graph.matmul"(%x, %w) : (tensor<?x64xf32>, tensor<64x32xf32>) -> tensor<?x32xf32>
  %r = "graph.relu"(%m) : (tensor<?x32xf32>) -> tensor<?x32xf32>
  return %r : tensor<?x32xf32>
}

// CHECK-LABEL: func.func @dynamic_sequence
// CHECK-NOT: scf.for
// CHECK: return
func.func @dynamic_sequence(%x: tensor<?x?x4xf32>) -> tensor<?x?x3xf32> {
  %w = "graph.constant"() {value = dense<1.0> : tensor<4x3xf32>} : () -> tensor<4x3xf32>
  %m = "graph.matmul"(%x, %w) : (tensor<?x?x4xf32>, tensor<4x3xf32>) -> tensor<?x?x3xf32>
  return %m : tensor<?x?x3xf32>
}

// CHECK-LABEL: func.func @no_product
// CHECK-NOT: scf.for
// CHECK: return
func.func @no_product(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %r = "graph.relu"(%x) : (tensor<?x4xf32>) -> tensor<?x4xf32>
  return %r : tensor<?x4xf32>
}

// CHECK-LABEL: func.func @static_model
// CHECK-NOT: scf.for
// CHECK: return
func.func @static_model(%x: tensor<2x4xf32>) -> tensor<2x3xf32> {
  %w = "graph.constant"() {value = dense<1.0> : tensor<4x3xf32>} : () -> tensor<4x3xf32>
  %m = "graph.matmul"(%x, %w) : (tensor<2x4xf32>, tensor<4x3xf32>) -> tensor<2x3xf32>
  return %m : tensor<2x3xf32>
}
