// RUN: kiln-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(graph-simplify))' | FileCheck %s
// RUN: kiln-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(graph-simplify{recompose=false reassociate=false}))' | FileCheck %s --check-prefix=OFF
// RUN: kiln-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(graph-simplify))' --mlir-print-debuginfo | FileCheck %s --check-prefix=LOC
// RUN: not kiln-opt %s --pass-pipeline='builtin.module(func.func(graph-simplify{recompose=maybe}))' 2>&1 | FileCheck %s --check-prefix=BADBOOL
// RUN: not kiln-opt %s --pass-pipeline='builtin.module(func.func(graph-simplify{recompse=false}))' 2>&1 | FileCheck %s --check-prefix=BADKEY

// BADBOOL: invalid value 'maybe' for option 'recompose' of pass 'graph-simplify' (expected true or false)
// BADKEY: unknown option 'recompse' for pass 'graph-simplify'; did you mean 'recompose'?

// ---- No-ops ----------------------------------------------------------------

// CHECK-LABEL: func.func @identity
// CHECK-NEXT: return %arg0
func.func @identity(%a: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = "graph.identity"(%a) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = "graph.identity"(%0) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %1 : tensor<2x3xf32>
}

// -----

// Inside a nested region too.
// CHECK-LABEL: func.func @identity_in_region
// CHECK-NEXT: scf.execute_region
// CHECK-NEXT: scf.yield %arg0
func.func @identity_in_region(%a: tensor<2xf32>) -> tensor<2xf32> {
  %r = scf.execute_region -> tensor<2xf32> {
    %0 = "graph.identity"(%a) : (tensor<2xf32>) -> tensor<2xf32>
    scf.yield %0 : tensor<2xf32>
  }
  return %r : tensor<2xf32>
}

// -----

// CHECK-LABEL: func.func @dropout
// CHECK-NEXT: return %arg0
func.func @dropout(%a: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = "graph.dropout"(%a) {operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// A used mask becomes a constant true; an explicit training_mode false is
// inference too.
// CHECK-LABEL: func.func @dropout_mask
// CHECK-NEXT: %[[M:.*]] = "graph.constant"() {value = dense<true> : tensor<2x3xi1>}
// CHECK-NEXT: return %arg0, %[[M]]
func.func @dropout_mask(%a: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xi1>) {
  %r = "graph.constant"() {value = dense<0.5> : tensor<f32>} : () -> tensor<f32>
  %t = "graph.constant"() {value = dense<false> : tensor<i1>} : () -> tensor<i1>
  %0:2 = "graph.dropout"(%a, %r, %t) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<2x3xf32>, tensor<f32>, tensor<i1>) -> (tensor<2x3xf32>, tensor<2x3xi1>)
  return %0#0, %0#1 : tensor<2x3xf32>, tensor<2x3xi1>
}

// -----

// Training mode with a ratio of constant 0 drops nothing: the identity too
// (torch 1.13 exports F.dropout(x, p=0) that way); a non-constant ratio
// in training mode does not verify (invalid-elementwise-more.mlir).
// CHECK-LABEL: func.func @dropout_training_ratio_zero
// CHECK-NEXT: %[[M:.*]] = "graph.constant"() {value = dense<true> : tensor<2x3xi1>}
// CHECK-NEXT: return %arg0, %[[M]]
func.func @dropout_training_ratio_zero(%a: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xi1>) {
  %r = "graph.constant"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
  %t = "graph.constant"() {value = dense<true> : tensor<i1>} : () -> tensor<i1>
  %0:2 = "graph.dropout"(%a, %r, %t) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<2x3xf32>, tensor<f32>, tensor<i1>) -> (tensor<2x3xf32>, tensor<2x3xi1>)
  return %0#0, %0#1 : tensor<2x3xf32>, tensor<2x3xi1>
}

// -----

// CHECK-LABEL: func.func @cast_same_type
// CHECK-NEXT: return %arg0
func.func @cast_same_type(%a: tensor<4xi64>) -> tensor<4xi64> {
  %0 = "graph.cast"(%a) {to = i64} : (tensor<4xi64>) -> tensor<4xi64>
  return %0 : tensor<4xi64>
}

// -----

// CHECK-LABEL: func.func @reshape_like_same_type
// CHECK-NEXT: return %arg0
func.func @reshape_like_same_type(%a: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %s = "graph.constant"() {value = dense<[2, 3]> : tensor<2xi64>} : () -> tensor<2xi64>
  %0 = "graph.reshape"(%a, %s) : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<2x3xf32>
  %1 = "graph.flatten"(%0) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %2 = "graph.squeeze"(%1) {operandSegmentSizes = array<i32: 1, 0>} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %3 = "graph.expand"(%2, %s) : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<2x3xf32>
  return %3 : tensor<2x3xf32>
}

// -----

// CHECK-LABEL: func.func @transpose_identity_perm
// CHECK-NEXT: return %arg0
func.func @transpose_identity_perm(%a: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = "graph.transpose"(%a) {perm = array<i64: 0, 1>} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// Neutral constants on either side of mul and add, on the right of sub,
// div and pow; integers too.
// CHECK-LABEL: func.func @neutral_elements
// CHECK-NOT: graph.
// CHECK: return %arg0, %arg1
func.func @neutral_elements(%a: tensor<2x3xf32>, %i: tensor<4xi64>) -> (tensor<2x3xf32>, tensor<4xi64>) {
  %one = "graph.constant"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
  %zero = "graph.constant"() {value = dense<0.0> : tensor<3xf32>} : () -> tensor<3xf32>
  %0 = "graph.mul"(%a, %one) : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  %1 = "graph.mul"(%one, %0) : (tensor<f32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %2 = "graph.add"(%1, %zero) : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %3 = "graph.add"(%zero, %2) : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %4 = "graph.sub"(%3, %zero) : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %5 = "graph.div"(%4, %one) : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  %6 = "graph.pow"(%5, %one) : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  %iz = "graph.constant"() {value = dense<0> : tensor<1xi64>} : () -> tensor<1xi64>
  %7 = "graph.add"(%i, %iz) : (tensor<4xi64>, tensor<1xi64>) -> tensor<4xi64>
  return %6, %7 : tensor<2x3xf32>, tensor<4xi64>
}

// -----

// CHECK-LABEL: func.func @concat_empty
// CHECK-NEXT: return %arg0
func.func @concat_empty(%a: tensor<2x3xf32>, %e: tensor<2x0xf32>) -> tensor<2x3xf32> {
  %0 = "graph.concat"(%e, %a) {axis = 1 : i64} : (tensor<2x0xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// CHECK-LABEL: func.func @slice_everything
// CHECK-NEXT: return %arg0
func.func @slice_everything(%a: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %b = "graph.constant"() {value = dense<0> : tensor<1xi64>} : () -> tensor<1xi64>
  %e = "graph.constant"() {value = dense<100> : tensor<1xi64>} : () -> tensor<1xi64>
  %x = "graph.constant"() {value = dense<1> : tensor<1xi64>} : () -> tensor<1xi64>
  %0 = "graph.slice"(%a, %b, %e, %x, %x) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1>} : (tensor<2x3xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// ---- Compositions ----------------------------------------------------------

// CHECK-LABEL: func.func @transpose_transpose
// CHECK-NEXT: %[[T:.*]] = "graph.transpose"(%arg0) {perm = array<i64: 1, 2, 0>} : (tensor<2x3x4xf32>) -> tensor<3x4x2xf32>
// CHECK-NEXT: return %[[T]], %arg0
func.func @transpose_transpose(%a: tensor<2x3x4xf32>) -> (tensor<3x4x2xf32>, tensor<2x3x4xf32>) {
  %0 = "graph.transpose"(%a) {perm = array<i64: 0, 2, 1>} : (tensor<2x3x4xf32>) -> tensor<2x4x3xf32>
  %1 = "graph.transpose"(%0) {perm = array<i64: 2, 1, 0>} : (tensor<2x4x3xf32>) -> tensor<3x4x2xf32>
  // Reversal twice (no perm attribute: the ONNX default) is nothing.
  %2 = "graph.transpose"(%a) : (tensor<2x3x4xf32>) -> tensor<4x3x2xf32>
  %3 = "graph.transpose"(%2) : (tensor<4x3x2xf32>) -> tensor<2x3x4xf32>
  return %1, %3 : tensor<3x4x2xf32>, tensor<2x3x4xf32>
}

// -----

// CHECK-LABEL: func.func @reshape_chain
// CHECK-NEXT: %[[S:.*]] = "graph.constant"() {value = dense<[3, 8]> : tensor<2xi64>}
// CHECK-NEXT: %[[R:.*]] = "graph.reshape"(%arg0, %[[S]]) : (tensor<2x3x4xf32>, tensor<2xi64>) -> tensor<3x8xf32>
// CHECK-NEXT: return %[[R]], %arg0
func.func @reshape_chain(%a: tensor<2x3x4xf32>) -> (tensor<3x8xf32>, tensor<2x3x4xf32>) {
  %s = "graph.constant"() {value = dense<[6, 4]> : tensor<2xi64>} : () -> tensor<2xi64>
  %0 = "graph.reshape"(%a, %s) : (tensor<2x3x4xf32>, tensor<2xi64>) -> tensor<6x4xf32>
  %ax = "graph.constant"() {value = dense<0> : tensor<1xi64>} : () -> tensor<1xi64>
  %1 = "graph.unsqueeze"(%0, %ax) : (tensor<6x4xf32>, tensor<1xi64>) -> tensor<1x6x4xf32>
  %2 = "graph.flatten"(%1) {axis = 2 : i64} : (tensor<1x6x4xf32>) -> tensor<6x4xf32>
  %t = "graph.constant"() {value = dense<[3, 8]> : tensor<2xi64>} : () -> tensor<2xi64>
  %3 = "graph.reshape"(%2, %t) : (tensor<6x4xf32>, tensor<2xi64>) -> tensor<3x8xf32>
  // Back to the input's type: nothing.
  %b = "graph.constant"() {value = dense<[2, 3, 4]> : tensor<3xi64>} : () -> tensor<3xi64>
  %4 = "graph.reshape"(%0, %b) : (tensor<6x4xf32>, tensor<3xi64>) -> tensor<2x3x4xf32>
  return %3, %4 : tensor<3x8xf32>, tensor<2x3x4xf32>
}

// -----

// An exact inner cast (f16 -> f32, i32 -> i64) folds into the outer one.
// CHECK-LABEL: func.func @cast_cast
// CHECK-NEXT: %[[C:.*]] = "graph.cast"(%arg0) {to = f64} : (tensor<4xf16>) -> tensor<4xf64>
// CHECK-NEXT: return %[[C]], %arg1
func.func @cast_cast(%h: tensor<4xf16>, %i: tensor<4xi32>) -> (tensor<4xf64>, tensor<4xi32>) {
  %0 = "graph.cast"(%h) {to = f32} : (tensor<4xf16>) -> tensor<4xf32>
  %1 = "graph.cast"(%0) {to = f64} : (tensor<4xf32>) -> tensor<4xf64>
  %2 = "graph.cast"(%i) {to = i64} : (tensor<4xi32>) -> tensor<4xi64>
  %3 = "graph.cast"(%2) {to = i32} : (tensor<4xi64>) -> tensor<4xi32>
  return %1, %3 : tensor<4xf64>, tensor<4xi32>
}

// -----

// CHECK-LABEL: func.func @neg_neg
// CHECK-NEXT: return %arg0
func.func @neg_neg(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "graph.neg"(%a) : (tensor<4xf32>) -> tensor<4xf32>
  %1 = "graph.neg"(%0) : (tensor<4xf32>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @reassociate
// CHECK-NEXT: %[[C6:.*]] = "graph.constant"() {value = dense<6.000000e+00> : tensor<f32>}
// CHECK-NEXT: %[[M:.*]] = "graph.mul"(%arg0, %[[C6]])
// CHECK-NEXT: %[[C3:.*]] = "graph.constant"() {value = dense<3.000000e+00> : tensor<f32>}
// CHECK-NEXT: %[[A:.*]] = "graph.add"(%[[M]], %[[C3]])
// CHECK-NEXT: return %[[A]]
// OFF-LABEL: func.func @reassociate
// OFF-COUNT-2: "graph.mul"
// OFF-COUNT-2: "graph.add"
func.func @reassociate(%a: tensor<4xf32>) -> tensor<4xf32> {
  %c2 = "graph.constant"() {value = dense<2.0> : tensor<f32>} : () -> tensor<f32>
  %c3 = "graph.constant"() {value = dense<3.0> : tensor<f32>} : () -> tensor<f32>
  %c1 = "graph.constant"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
  %0 = "graph.mul"(%c2, %a) : (tensor<f32>, tensor<4xf32>) -> tensor<4xf32>
  %1 = "graph.mul"(%0, %c3) : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  %2 = "graph.add"(%1, %c1) : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  %3 = "graph.add"(%c2, %2) : (tensor<f32>, tensor<4xf32>) -> tensor<4xf32>
  return %3 : tensor<4xf32>
}

// -----

// ---- Recomposition ---------------------------------------------------------

// GELU as PyTorch exports it: (x * (1 + erf(x / sqrt 2))) * 0.5.
// CHECK-LABEL: func.func @gelu_torch
// CHECK-NEXT: %[[G:.*]] = "graph.gelu"(%arg0) : (tensor<2x8xf32>) -> tensor<2x8xf32>
// CHECK-NEXT: return %[[G]]
// OFF-LABEL: func.func @gelu_torch
// OFF-NOT: graph.gelu
// OFF: graph.erf
func.func @gelu_torch(%x: tensor<2x8xf32>) -> tensor<2x8xf32> {
  %s = "graph.constant"() {value = dense<1.41421354> : tensor<f32>} : () -> tensor<f32>
  %one = "graph.constant"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
  %half = "graph.constant"() {value = dense<0.5> : tensor<f32>} : () -> tensor<f32>
  %0 = "graph.div"(%x, %s) : (tensor<2x8xf32>, tensor<f32>) -> tensor<2x8xf32>
  %1 = "graph.erf"(%0) : (tensor<2x8xf32>) -> tensor<2x8xf32>
  %2 = "graph.add"(%1, %one) : (tensor<2x8xf32>, tensor<f32>) -> tensor<2x8xf32>
  %3 = "graph.mul"(%x, %2) : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>
  %4 = "graph.mul"(%3, %half) : (tensor<2x8xf32>, tensor<f32>) -> tensor<2x8xf32>
  return %4 : tensor<2x8xf32>
}

// -----

// (0.5 * x) * (1 + erf(x * 0.7071...)), operands swapped.
// CHECK-LABEL: func.func @gelu_half_first
// CHECK-NEXT: %[[G:.*]] = "graph.gelu"(%arg0)
// CHECK-NEXT: return %[[G]]
func.func @gelu_half_first(%x: tensor<2x8xf32>) -> tensor<2x8xf32> {
  %s = "graph.constant"() {value = dense<0.707106769> : tensor<f32>} : () -> tensor<f32>
  %one = "graph.constant"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
  %half = "graph.constant"() {value = dense<0.5> : tensor<f32>} : () -> tensor<f32>
  %h = "graph.mul"(%half, %x) : (tensor<f32>, tensor<2x8xf32>) -> tensor<2x8xf32>
  %0 = "graph.mul"(%s, %x) : (tensor<f32>, tensor<2x8xf32>) -> tensor<2x8xf32>
  %1 = "graph.erf"(%0) : (tensor<2x8xf32>) -> tensor<2x8xf32>
  %2 = "graph.add"(%one, %1) : (tensor<f32>, tensor<2x8xf32>) -> tensor<2x8xf32>
  %3 = "graph.mul"(%2, %h) : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>
  return %3 : tensor<2x8xf32>
}

// -----

// x * ((1 + erf(x / sqrt 2)) * 0.5)
// CHECK-LABEL: func.func @gelu_half_last
// CHECK-NEXT: %[[G:.*]] = "graph.gelu"(%arg0)
// CHECK-NEXT: return %[[G]]
func.func @gelu_half_last(%x: tensor<8xf32>) -> tensor<8xf32> {
  %s = "graph.constant"() {value = dense<1.41421354> : tensor<f32>} : () -> tensor<f32>
  %one = "graph.constant"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
  %half = "graph.constant"() {value = dense<0.5> : tensor<f32>} : () -> tensor<f32>
  %0 = "graph.div"(%x, %s) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %1 = "graph.erf"(%0) : (tensor<8xf32>) -> tensor<8xf32>
  %2 = "graph.add"(%1, %one) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %3 = "graph.mul"(%2, %half) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %4 = "graph.mul"(%x, %3) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  return %4 : tensor<8xf32>
}

// -----

// LayerNorm as PyTorch exports it below opset 17; epsilon read from the
// constant.
// CHECK-LABEL: func.func @layer_norm
// CHECK: %[[Y:.*]] = "graph.layer_norm"(%arg0, %[[G:.*]], %[[B:.*]]) {axis = -1 : i64, epsilon = 9.99999974E-6 : f32, stash_type = 1 : i64} : (tensor<2x4x8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<2x4x8xf32>
// CHECK-NEXT: return %[[Y]]
// OFF-LABEL: func.func @layer_norm
// OFF-NOT: graph.layer_norm
// OFF: return
func.func @layer_norm(%x: tensor<2x4x8xf32>) -> tensor<2x4x8xf32> {
  %ax = "graph.constant"() {value = dense<-1> : tensor<1xi64>} : () -> tensor<1xi64>
  %two = "graph.constant"() {value = dense<2.0> : tensor<f32>} : () -> tensor<f32>
  %eps = "graph.constant"() {value = dense<1.0e-5> : tensor<f32>} : () -> tensor<f32>
  %g = "graph.constant"() {value = dense<1.0> : tensor<8xf32>} : () -> tensor<8xf32>
  %b = "graph.constant"() {value = dense<0.0> : tensor<8xf32>} : () -> tensor<8xf32>
  %m = "graph.reduce_mean"(%x, %ax) : (tensor<2x4x8xf32>, tensor<1xi64>) -> tensor<2x4x1xf32>
  %d = "graph.sub"(%x, %m) : (tensor<2x4x8xf32>, tensor<2x4x1xf32>) -> tensor<2x4x8xf32>
  %p = "graph.pow"(%d, %two) : (tensor<2x4x8xf32>, tensor<f32>) -> tensor<2x4x8xf32>
  %v = "graph.reduce_mean"(%p, %ax) : (tensor<2x4x8xf32>, tensor<1xi64>) -> tensor<2x4x1xf32>
  %ve = "graph.add"(%v, %eps) : (tensor<2x4x1xf32>, tensor<f32>) -> tensor<2x4x1xf32>
  %sd = "graph.sqrt"(%ve) : (tensor<2x4x1xf32>) -> tensor<2x4x1xf32>
  %n = "graph.div"(%d, %sd) : (tensor<2x4x8xf32>, tensor<2x4x1xf32>) -> tensor<2x4x8xf32>
  %s = "graph.mul"(%n, %g) : (tensor<2x4x8xf32>, tensor<8xf32>) -> tensor<2x4x8xf32>
  %y = "graph.add"(%b, %s) : (tensor<8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  return %y : tensor<2x4x8xf32>
}

// -----

// Without gamma and beta, over the two last axes, variance as d * d: the
// scale becomes a constant of ones, the bias is left out.
// CHECK-LABEL: func.func @layer_norm_plain
// CHECK: %[[ONES:.*]] = "graph.constant"() {value = dense<1.000000e+00> : tensor<4x8xf32>}
// CHECK-NEXT: %[[Y:.*]] = "graph.layer_norm"(%arg0, %[[ONES]]) {axis = -2 : i64, epsilon = 9.99999996E-13 : f32, stash_type = 1 : i64} : (tensor<2x4x8xf32>, tensor<4x8xf32>) -> tensor<2x4x8xf32>
// CHECK-NEXT: return %[[Y]]
func.func @layer_norm_plain(%x: tensor<2x4x8xf32>) -> tensor<2x4x8xf32> {
  %ax = "graph.constant"() {value = dense<[2, 1]> : tensor<2xi64>} : () -> tensor<2xi64>
  %eps = "graph.constant"() {value = dense<1.0e-12> : tensor<1xf32>} : () -> tensor<1xf32>
  %m = "graph.reduce_mean"(%x, %ax) : (tensor<2x4x8xf32>, tensor<2xi64>) -> tensor<2x1x1xf32>
  %d = "graph.sub"(%x, %m) : (tensor<2x4x8xf32>, tensor<2x1x1xf32>) -> tensor<2x4x8xf32>
  %p = "graph.mul"(%d, %d) : (tensor<2x4x8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  %v = "graph.reduce_mean"(%p, %ax) : (tensor<2x4x8xf32>, tensor<2xi64>) -> tensor<2x1x1xf32>
  %ve = "graph.add"(%eps, %v) : (tensor<1xf32>, tensor<2x1x1xf32>) -> tensor<2x1x1xf32>
  %sd = "graph.sqrt"(%ve) : (tensor<2x1x1xf32>) -> tensor<2x1x1xf32>
  %n = "graph.div"(%d, %sd) : (tensor<2x4x8xf32>, tensor<2x1x1xf32>) -> tensor<2x4x8xf32>
  return %n : tensor<2x4x8xf32>
}

// -----

// CHECK-LABEL: func.func @gemm
// CHECK: %[[Y:.*]] = "graph.gemm"(%arg0, %{{.*}}, %{{.*}}) : (tensor<4x16xf32>, tensor<16x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: return %[[Y]]
// The gemm keeps the add's location.
// LOC-LABEL: func.func @gemm
// LOC: "graph.gemm"{{.*}} loc(#[[ADD:loc[0-9]*]])
// LOC: #[[ADD]] = loc("the_add")
// OFF-LABEL: func.func @gemm
// OFF: graph.matmul
func.func @gemm(%x: tensor<4x16xf32>) -> tensor<4x8xf32> {
  %w = "graph.constant"() {value = dense<0.25> : tensor<16x8xf32>} : () -> tensor<16x8xf32>
  %b = "graph.constant"() {value = dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]> : tensor<8xf32>} : () -> tensor<8xf32>
  %0 = "graph.matmul"(%x, %w) : (tensor<4x16xf32>, tensor<16x8xf32>) -> tensor<4x8xf32>
  %1 = "graph.add"(%b, %0) : (tensor<8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32> loc("the_add")
  return %1 : tensor<4x8xf32>
}

// -----

// ---- Near misses: left alone -------------------------------------------------

// Multiplying by ones that broadcast to a bigger shape is not a no-op.
// CHECK-LABEL: func.func @negative_mul_one_broadcast
// CHECK: "graph.mul"
func.func @negative_mul_one_broadcast(%a: tensor<3xf32>) -> tensor<2x3xf32> {
  %one = "graph.constant"() {value = dense<1.0> : tensor<2x3xf32>} : () -> tensor<2x3xf32>
  %0 = "graph.mul"(%a, %one) : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// CHECK-LABEL: func.func @negative_not_neutral
// CHECK: "graph.pow"
// CHECK: "graph.sub"
// CHECK: "graph.div"
// CHECK: "graph.mul"
func.func @negative_not_neutral(%a: tensor<3xf32>) -> tensor<3xf32> {
  %two = "graph.constant"() {value = dense<2.0> : tensor<f32>} : () -> tensor<f32>
  %zero = "graph.constant"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
  %one = "graph.constant"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
  %mixed = "graph.constant"() {value = dense<[1.0, 1.0, 2.0]> : tensor<3xf32>} : () -> tensor<3xf32>
  %0 = "graph.pow"(%a, %two) : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
  // 0 - x and 1 / x are not x.
  %1 = "graph.sub"(%zero, %0) : (tensor<f32>, tensor<3xf32>) -> tensor<3xf32>
  %2 = "graph.div"(%one, %1) : (tensor<f32>, tensor<3xf32>) -> tensor<3xf32>
  %3 = "graph.mul"(%2, %mixed) : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return %3 : tensor<3xf32>
}

// -----

// CHECK-LABEL: func.func @negative_transpose_and_slice
// CHECK: "graph.transpose"
// CHECK: "graph.slice"
func.func @negative_transpose_and_slice(%a: tensor<3x3xf32>) -> tensor<3x3xf32> {
  %0 = "graph.transpose"(%a) {perm = array<i64: 1, 0>} : (tensor<3x3xf32>) -> tensor<3x3xf32>
  // Step -1 reverses: same type, not the identity.
  %b = "graph.constant"() {value = dense<-1> : tensor<1xi64>} : () -> tensor<1xi64>
  %e = "graph.constant"() {value = dense<-100> : tensor<1xi64>} : () -> tensor<1xi64>
  %ax = "graph.constant"() {value = dense<0> : tensor<1xi64>} : () -> tensor<1xi64>
  %1 = "graph.slice"(%0, %b, %e, %ax, %b) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1>} : (tensor<3x3xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<3x3xf32>
  return %1 : tensor<3x3xf32>
}

// -----

// A narrowing inner cast loses information: both casts stay.
// CHECK-LABEL: func.func @negative_cast_narrowing
// CHECK-COUNT-2: "graph.cast"
func.func @negative_cast_narrowing(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "graph.cast"(%a) {to = f16} : (tensor<4xf32>) -> tensor<4xf16>
  %1 = "graph.cast"(%0) {to = f32} : (tensor<4xf16>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}

// -----

// Neither operand is empty; a slice that keeps half the rows.
// CHECK-LABEL: func.func @negative_concat_and_partial_slice
// CHECK: "graph.concat"
// CHECK: "graph.slice"
func.func @negative_concat_and_partial_slice(%a: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = "graph.concat"(%a, %a) {axis = 0 : i64} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<4x3xf32>
  %s = "graph.constant"() {value = dense<[0, 0]> : tensor<2xi64>} : () -> tensor<2xi64>
  %b = "graph.constant"() {value = dense<[2, 3]> : tensor<2xi64>} : () -> tensor<2xi64>
  %1 = "graph.slice"(%0, %s, %b) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0>} : (tensor<4x3xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<2x3xf32>
  return %1 : tensor<2x3xf32>
}

// -----

// The inner product has another use: folding would duplicate it.
// CHECK-LABEL: func.func @negative_reassociate_extra_use
// CHECK-COUNT-2: "graph.mul"
func.func @negative_reassociate_extra_use(%a: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %c2 = "graph.constant"() {value = dense<2.0> : tensor<f32>} : () -> tensor<f32>
  %c3 = "graph.constant"() {value = dense<3.0> : tensor<f32>} : () -> tensor<f32>
  %0 = "graph.mul"(%a, %c2) : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  %1 = "graph.mul"(%0, %c3) : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  return %0, %1 : tensor<4xf32>, tensor<4xf32>
}

// -----

// erf's result is also returned: the GELU's ops must stay, so nothing is
// recomposed.
// CHECK-LABEL: func.func @negative_gelu_extra_use
// CHECK-NOT: graph.gelu
// CHECK: graph.erf
func.func @negative_gelu_extra_use(%x: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %s = "graph.constant"() {value = dense<1.41421354> : tensor<f32>} : () -> tensor<f32>
  %one = "graph.constant"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
  %half = "graph.constant"() {value = dense<0.5> : tensor<f32>} : () -> tensor<f32>
  %0 = "graph.div"(%x, %s) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %1 = "graph.erf"(%0) : (tensor<8xf32>) -> tensor<8xf32>
  %2 = "graph.add"(%1, %one) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %3 = "graph.mul"(%x, %2) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %4 = "graph.mul"(%3, %half) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  return %4, %1 : tensor<8xf32>, tensor<8xf32>
}

// -----

// Not sqrt(2) (1.5), and erf of another value than the one multiplied.
// CHECK-LABEL: func.func @negative_gelu_constants
// CHECK-NOT: graph.gelu
// CHECK: return
func.func @negative_gelu_constants(%x: tensor<8xf32>, %y: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %s = "graph.constant"() {value = dense<1.5> : tensor<f32>} : () -> tensor<f32>
  %r = "graph.constant"() {value = dense<1.41421354> : tensor<f32>} : () -> tensor<f32>
  %one = "graph.constant"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
  %half = "graph.constant"() {value = dense<0.5> : tensor<f32>} : () -> tensor<f32>
  %0 = "graph.div"(%x, %s) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %1 = "graph.erf"(%0) : (tensor<8xf32>) -> tensor<8xf32>
  %2 = "graph.add"(%1, %one) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %3 = "graph.mul"(%x, %2) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %4 = "graph.mul"(%3, %half) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %5 = "graph.div"(%y, %r) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %6 = "graph.erf"(%5) : (tensor<8xf32>) -> tensor<8xf32>
  %7 = "graph.add"(%6, %one) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %8 = "graph.mul"(%x, %7) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %9 = "graph.mul"(%8, %half) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  return %4, %9 : tensor<8xf32>, tensor<8xf32>
}

// -----

// A non-constant epsilon, and a mean used outside the pattern.
// CHECK-LABEL: func.func @negative_layer_norm
// CHECK-NOT: graph.layer_norm
// CHECK: return
func.func @negative_layer_norm(%x: tensor<2x8xf32>, %eps: tensor<f32>) -> (tensor<2x8xf32>, tensor<2x8xf32>, tensor<2x1xf32>) {
  %ax = "graph.constant"() {value = dense<-1> : tensor<1xi64>} : () -> tensor<1xi64>
  %two = "graph.constant"() {value = dense<2.0> : tensor<f32>} : () -> tensor<f32>
  %m = "graph.reduce_mean"(%x, %ax) : (tensor<2x8xf32>, tensor<1xi64>) -> tensor<2x1xf32>
  %d = "graph.sub"(%x, %m) : (tensor<2x8xf32>, tensor<2x1xf32>) -> tensor<2x8xf32>
  %p = "graph.pow"(%d, %two) : (tensor<2x8xf32>, tensor<f32>) -> tensor<2x8xf32>
  %v = "graph.reduce_mean"(%p, %ax) : (tensor<2x8xf32>, tensor<1xi64>) -> tensor<2x1xf32>
  %ve = "graph.add"(%v, %eps) : (tensor<2x1xf32>, tensor<f32>) -> tensor<2x1xf32>
  %sd = "graph.sqrt"(%ve) : (tensor<2x1xf32>) -> tensor<2x1xf32>
  %n = "graph.div"(%d, %sd) : (tensor<2x8xf32>, tensor<2x1xf32>) -> tensor<2x8xf32>
  %c = "graph.constant"() {value = dense<1.0e-5> : tensor<f32>} : () -> tensor<f32>
  %m2 = "graph.reduce_mean"(%x, %ax) : (tensor<2x8xf32>, tensor<1xi64>) -> tensor<2x1xf32>
  %d2 = "graph.sub"(%x, %m2) : (tensor<2x8xf32>, tensor<2x1xf32>) -> tensor<2x8xf32>
  %p2 = "graph.pow"(%d2, %two) : (tensor<2x8xf32>, tensor<f32>) -> tensor<2x8xf32>
  %v2 = "graph.reduce_mean"(%p2, %ax) : (tensor<2x8xf32>, tensor<1xi64>) -> tensor<2x1xf32>
  %ve2 = "graph.add"(%v2, %c) : (tensor<2x1xf32>, tensor<f32>) -> tensor<2x1xf32>
  %sd2 = "graph.sqrt"(%ve2) : (tensor<2x1xf32>) -> tensor<2x1xf32>
  %n2 = "graph.div"(%d2, %sd2) : (tensor<2x8xf32>, tensor<2x1xf32>) -> tensor<2x8xf32>
  return %n, %n2, %m2 : tensor<2x8xf32>, tensor<2x8xf32>, tensor<2x1xf32>
}

// -----

// Reducing a leading axis is not a LayerNorm over trailing axes.
// CHECK-LABEL: func.func @negative_layer_norm_axis
// CHECK-NOT: graph.layer_norm
// CHECK: return
func.func @negative_layer_norm_axis(%x: tensor<2x8xf32>) -> tensor<2x8xf32> {
  %ax = "graph.constant"() {value = dense<0> : tensor<1xi64>} : () -> tensor<1xi64>
  %two = "graph.constant"() {value = dense<2.0> : tensor<f32>} : () -> tensor<f32>
  %eps = "graph.constant"() {value = dense<1.0e-5> : tensor<f32>} : () -> tensor<f32>
  %m = "graph.reduce_mean"(%x, %ax) : (tensor<2x8xf32>, tensor<1xi64>) -> tensor<1x8xf32>
  %d = "graph.sub"(%x, %m) : (tensor<2x8xf32>, tensor<1x8xf32>) -> tensor<2x8xf32>
  %p = "graph.pow"(%d, %two) : (tensor<2x8xf32>, tensor<f32>) -> tensor<2x8xf32>
  %v = "graph.reduce_mean"(%p, %ax) : (tensor<2x8xf32>, tensor<1xi64>) -> tensor<1x8xf32>
  %ve = "graph.add"(%v, %eps) : (tensor<1x8xf32>, tensor<f32>) -> tensor<1x8xf32>
  %sd = "graph.sqrt"(%ve) : (tensor<1x8xf32>) -> tensor<1x8xf32>
  %n = "graph.div"(%d, %sd) : (tensor<2x8xf32>, tensor<1x8xf32>) -> tensor<2x8xf32>
  return %n : tensor<2x8xf32>
}

// -----

// A weight that is not a constant, and a 3-D activation, are not Gemms.
// CHECK-LABEL: func.func @negative_gemm
// CHECK-NOT: graph.gemm
// CHECK: return
func.func @negative_gemm(%x: tensor<4x16xf32>, %w: tensor<16x8xf32>, %x3: tensor<2x4x16xf32>) -> (tensor<4x8xf32>, tensor<2x4x8xf32>) {
  %c = "graph.constant"() {value = dense<0.25> : tensor<16x8xf32>} : () -> tensor<16x8xf32>
  %b = "graph.constant"() {value = dense<0.5> : tensor<8xf32>} : () -> tensor<8xf32>
  %0 = "graph.matmul"(%x, %w) : (tensor<4x16xf32>, tensor<16x8xf32>) -> tensor<4x8xf32>
  %1 = "graph.add"(%0, %b) : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  %2 = "graph.matmul"(%x3, %c) : (tensor<2x4x16xf32>, tensor<16x8xf32>) -> tensor<2x4x8xf32>
  %3 = "graph.add"(%2, %b) : (tensor<2x4x8xf32>, tensor<8xf32>) -> tensor<2x4x8xf32>
  return %1, %3 : tensor<4x8xf32>, tensor<2x4x8xf32>
}
