// RUN: kiln-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(graph-fold-batchnorm),graph-dce)' | FileCheck %s
// RUN: kiln-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(graph-fold-batchnorm{standalone gemm=false}),graph-dce)' | FileCheck %s --check-prefix=ALONE
// RUN: not kiln-opt %s --pass-pipeline='builtin.module(func.func(graph-fold-batchnorm{standalone=yes}))' 2>&1 | FileCheck %s --check-prefix=BADBOOL
// RUN: not kiln-opt %s --pass-pipeline='builtin.module(func.func(graph-fold-batchnorm{stand-alone}))' 2>&1 | FileCheck %s --check-prefix=BADKEY

// BADBOOL: invalid value 'yes' for option 'standalone' of pass 'graph-fold-batchnorm' (expected true or false)
// BADKEY: unknown option 'stand-alone' for pass 'graph-fold-batchnorm'; did you mean 'standalone'?

// s = scale / sqrt(var + eps) = [1, 1, 1] here; a conv without bias gets
// b' = (0 - mean) * s + B. Attributes stay.
// CHECK-LABEL: func.func @conv_bn
// CHECK-DAG: %[[W:.*]] = "graph.constant"() {value = dense<{{.*}}1.000000e+00]], {{.*}}2.000000e+00]]], {{.*}}6.000000e+00]], {{.*}}8.000000e+00]]], {{.*}}5.000000e+00]], {{.*}}6.000000e+00]]]]> : tensor<3x2x1x1xf32>}
// CHECK-DAG: %[[B:.*]] = "graph.constant"() {value = dense<[-5.000000e-01, 1.000000e+00, -2.000000e+00]> : tensor<3xf32>}
// CHECK: %[[Y:.*]] = "graph.conv"(%arg0, %[[W]], %[[B]]) {group = 1 : i64}
// CHECK-NOT: graph.batch_norm
// CHECK: return %[[Y]]
func.func @conv_bn(%x: tensor<1x2x4x4xf32>) -> tensor<1x3x4x4xf32> {
  %w = "graph.constant"() {value = dense<[[[[1.0]],[[2.0]]],[[[3.0]],[[4.0]]],[[[5.0]],[[6.0]]]]> : tensor<3x2x1x1xf32>} : () -> tensor<3x2x1x1xf32>
  %c = "graph.conv"(%x, %w) {group = 1 : i64, operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<1x2x4x4xf32>, tensor<3x2x1x1xf32>) -> tensor<1x3x4x4xf32>
  %s = "graph.constant"() {value = dense<[1.0, 4.0, 0.5]> : tensor<3xf32>} : () -> tensor<3xf32>
  %b = "graph.constant"() {value = dense<[0.0, 1.0, -1.0]> : tensor<3xf32>} : () -> tensor<3xf32>
  %m = "graph.constant"() {value = dense<[0.5, 0.0, 1.0]> : tensor<3xf32>} : () -> tensor<3xf32>
  %v = "graph.constant"() {value = dense<[1.0, 4.0, 0.25]> : tensor<3xf32>} : () -> tensor<3xf32>
  %y = "graph.batch_norm"(%c, %s, %b, %m, %v) {epsilon = 0.0 : f32} : (tensor<1x3x4x4xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<1x3x4x4xf32>
  return %y : tensor<1x3x4x4xf32>
}

// -----

// gemm with transB, beta and C: rows of B scaled, C' = (beta C - mean) s + B
// with beta dropped (1); alpha stays.
// CHECK-LABEL: func.func @gemm_bn
// CHECK-DAG: %[[W:.*]] = "graph.constant"() {value = dense<{{\[}}[2.000000e+00, 4.000000e+00, 6.000000e+00], [2.000000e+00, 2.500000e+00, 3.000000e+00]]> : tensor<2x3xf32>}
// CHECK-DAG: %[[C:.*]] = "graph.constant"() {value = dense<[5.000000e+00, 2.500000e+00]> : tensor<2xf32>}
// CHECK: "graph.gemm"(%arg0, %[[W]], %[[C]]) {alpha = 5.000000e-01 : f32, transB = 1 : i64}
// CHECK-NOT: graph.batch_norm
// ALONE-LABEL: func.func @gemm_bn
// ALONE: "graph.gemm"
// ALONE: "graph.mul"
// ALONE: "graph.add"
func.func @gemm_bn(%a: tensor<2x3xf32>) -> tensor<2x2xf32> {
  %w = "graph.constant"() {value = dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>} : () -> tensor<2x3xf32>
  %c0 = "graph.constant"() {value = dense<[1.0, 2.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  %g = "graph.gemm"(%a, %w, %c0) {alpha = 0.5 : f32, transB = 1 : i64, beta = 2.0 : f32, operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2xf32>) -> tensor<2x2xf32>
  %s = "graph.constant"() {value = dense<[2.0, 0.5]> : tensor<2xf32>} : () -> tensor<2xf32>
  %b = "graph.constant"() {value = dense<[1.0, 1.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  %m = "graph.constant"() {value = dense<[0.0, 1.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  %v = "graph.constant"() {value = dense<[1.0, 1.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  %y = "graph.batch_norm"(%g, %s, %b, %m, %v) {epsilon = 0.0 : f32} : (tensor<2x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<2x2xf32>
  return %y : tensor<2x2xf32>
}

// -----

// A 2-D matmul with a constant B becomes a gemm: columns of B scaled.
// CHECK-LABEL: func.func @matmul_bn
// CHECK-DAG: %[[W:.*]] = "graph.constant"() {value = dense<{{\[}}[2.000000e+00, 1.000000e+00], [6.000000e+00, 2.000000e+00]]> : tensor<2x2xf32>}
// CHECK-DAG: %[[C:.*]] = "graph.constant"() {value = dense<[0.000000e+00, 3.000000e+00]> : tensor<2xf32>}
// CHECK: "graph.gemm"(%arg0, %[[W]], %[[C]])
// CHECK-NOT: graph.batch_norm
func.func @matmul_bn(%a: tensor<5x2xf32>) -> tensor<5x2xf32> {
  %w = "graph.constant"() {value = dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>} : () -> tensor<2x2xf32>
  %g = "graph.matmul"(%a, %w) : (tensor<5x2xf32>, tensor<2x2xf32>) -> tensor<5x2xf32>
  %s = "graph.constant"() {value = dense<[2.0, 0.5]> : tensor<2xf32>} : () -> tensor<2xf32>
  %b = "graph.constant"() {value = dense<[0.0, 3.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  %m = "graph.constant"() {value = dense<0.0> : tensor<2xf32>} : () -> tensor<2xf32>
  %v = "graph.constant"() {value = dense<1.0> : tensor<2xf32>} : () -> tensor<2xf32>
  %y = "graph.batch_norm"(%g, %s, %b, %m, %v) {epsilon = 0.0 : f32} : (tensor<5x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<5x2xf32>
  return %y : tensor<5x2xf32>
}

// -----

// A batch_norm on a value that is not a conv stays by default; with
// standalone it becomes x * s + t with [C, 1, 1] constants
// (s = 2 / sqrt(4) = 1, t = 1 - 3 * 1 = -2).
// CHECK-LABEL: func.func @negative_no_producer
// CHECK: "graph.batch_norm"
// ALONE-LABEL: func.func @negative_no_producer
// ALONE-NEXT: %[[S:.*]] = "graph.constant"() {value = dense<1.000000e+00> : tensor<1x1x1xf32>}
// ALONE-NEXT: %[[M:.*]] = "graph.mul"(%arg0, %[[S]])
// ALONE-NEXT: %[[T:.*]] = "graph.constant"() {value = dense<-2.000000e+00> : tensor<1x1x1xf32>}
// ALONE-NEXT: %[[A:.*]] = "graph.add"(%[[M]], %[[T]])
// ALONE: return %[[A]]
func.func @negative_no_producer(%x: tensor<2x1x3x3xf32>) -> tensor<2x1x3x3xf32> {
  %s = "graph.constant"() {value = dense<2.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %b = "graph.constant"() {value = dense<1.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %m = "graph.constant"() {value = dense<3.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %v = "graph.constant"() {value = dense<4.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %y = "graph.batch_norm"(%x, %s, %b, %m, %v) {epsilon = 0.0 : f32} : (tensor<2x1x3x3xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x1x3x3xf32>
  return %y : tensor<2x1x3x3xf32>
}

// -----

// The conv result has a second use: folding would need two convs.
// CHECK-LABEL: func.func @negative_conv_used_twice
// CHECK: "graph.batch_norm"
func.func @negative_conv_used_twice(%x: tensor<1x1x2x2xf32>) -> (tensor<1x1x2x2xf32>, tensor<1x1x2x2xf32>) {
  %w = "graph.constant"() {value = dense<2.0> : tensor<1x1x1x1xf32>} : () -> tensor<1x1x1x1xf32>
  %c = "graph.conv"(%x, %w) {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<1x1x2x2xf32>, tensor<1x1x1x1xf32>) -> tensor<1x1x2x2xf32>
  %p = "graph.constant"() {value = dense<1.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %y = "graph.batch_norm"(%c, %p, %p, %p, %p) : (tensor<1x1x2x2xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x1x2x2xf32>
  return %y, %c : tensor<1x1x2x2xf32>, tensor<1x1x2x2xf32>
}

// -----

// Non-constant parameters or weights, and the training form (three
// results), are left alone; standalone rewrites only the one whose
// parameters are constant (after a conv with a non-constant weight).
// CHECK-LABEL: func.func @negative_not_constant
// CHECK-COUNT-3: "graph.batch_norm"
// ALONE-LABEL: func.func @negative_not_constant
// ALONE: "graph.batch_norm"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %arg2)
// ALONE: %[[C:.*]] = "graph.conv"(%arg0, %arg1)
// ALONE: "graph.mul"(%[[C]]
// ALONE: "graph.add"
// ALONE: "graph.batch_norm"(%arg0{{.*}}training_mode = 1
func.func @negative_not_constant(%x: tensor<1x1x2x2xf32>, %w: tensor<1x1x1x1xf32>, %p: tensor<1xf32>) -> (tensor<1x1x2x2xf32>, tensor<1x1x2x2xf32>, tensor<1x1x2x2xf32>) {
  %k = "graph.constant"() {value = dense<1.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %wc = "graph.constant"() {value = dense<2.0> : tensor<1x1x1x1xf32>} : () -> tensor<1x1x1x1xf32>
  %c0 = "graph.conv"(%x, %wc) {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<1x1x2x2xf32>, tensor<1x1x1x1xf32>) -> tensor<1x1x2x2xf32>
  %y0 = "graph.batch_norm"(%c0, %k, %k, %k, %p) : (tensor<1x1x2x2xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x1x2x2xf32>
  %c1 = "graph.conv"(%x, %w) {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<1x1x2x2xf32>, tensor<1x1x1x1xf32>) -> tensor<1x1x2x2xf32>
  %y1 = "graph.batch_norm"(%c1, %k, %k, %k, %k) : (tensor<1x1x2x2xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x1x2x2xf32>
  %y2, %rm, %rv = "graph.batch_norm"(%x, %k, %k, %k, %k) {training_mode = 1 : i64} : (tensor<1x1x2x2xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) -> (tensor<1x1x2x2xf32>, tensor<1xf32>, tensor<1xf32>)
  return %y0, %y1, %y2 : tensor<1x1x2x2xf32>, tensor<1x1x2x2xf32>, tensor<1x1x2x2xf32>
}
