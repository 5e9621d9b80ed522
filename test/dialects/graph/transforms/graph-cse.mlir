// RUN: kiln-opt %s --pass-pipeline='builtin.module(func.func(graph-cse))' | FileCheck %s
// RUN: kiln-opt %s --pass-pipeline='builtin.module(graph-cse)' | FileCheck %s --check-prefix=MODULE

// CHECK-LABEL: func.func @simple
// CHECK-NEXT: %[[X:.*]] = "graph.add"(%arg0, %arg1)
// CHECK-NEXT: %[[Y:.*]] = "graph.mul"(%[[X]], %[[X]])
// CHECK-NEXT: return %[[Y]]
func.func @simple(%a: tensor<2xf32>, %b: tensor<2xf32>) -> tensor<2xf32> {
  %0 = "graph.add"(%a, %b) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %1 = "graph.add"(%a, %b) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %2 = "graph.mul"(%0, %1) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %2 : tensor<2xf32>
}

// Merging one op makes its users identical: a chain merges in one run.
// CHECK-LABEL: func.func @chain
// CHECK-NEXT: %[[X:.*]] = "graph.relu"(%arg0)
// CHECK-NEXT: %[[Y:.*]] = "graph.exp"(%[[X]])
// CHECK-NEXT: %[[Z:.*]] = "graph.concat"(%[[Y]], %[[Y]])
// CHECK-NEXT: return %[[Z]]
func.func @chain(%a: tensor<2xf32>) -> tensor<4xf32> {
  %0 = "graph.relu"(%a) : (tensor<2xf32>) -> tensor<2xf32>
  %1 = "graph.exp"(%0) : (tensor<2xf32>) -> tensor<2xf32>
  %2 = "graph.relu"(%a) : (tensor<2xf32>) -> tensor<2xf32>
  %3 = "graph.exp"(%2) : (tensor<2xf32>) -> tensor<2xf32>
  %4 = "graph.concat"(%1, %3) {axis = 0 : i64} : (tensor<2xf32>, tensor<2xf32>) -> tensor<4xf32>
  return %4 : tensor<4xf32>
}

// CHECK-LABEL: func.func @constants
// CHECK-NEXT: %[[C:.*]] = "graph.constant"() {value = dense<1.000000e+00> : tensor<2xf32>}
// CHECK-NEXT: %[[X:.*]] = "graph.add"(%[[C]], %[[C]])
// CHECK-NEXT: return %[[X]]
func.func @constants() -> tensor<2xf32> {
  %0 = "graph.constant"() {value = dense<1.0> : tensor<2xf32>} : () -> tensor<2xf32>
  %1 = "graph.constant"() {value = dense<1.0> : tensor<2xf32>} : () -> tensor<2xf32>
  %2 = "graph.add"(%0, %1) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %2 : tensor<2xf32>
}

// CHECK-LABEL: func.func @same_attributes
// CHECK-NEXT: %[[T:.*]] = "graph.transpose"(%arg0) {perm = array<i64: 1, 0>}
// CHECK-NEXT: %[[X:.*]] = "graph.add"(%[[T]], %[[T]])
// CHECK-NEXT: return %[[X]]
func.func @same_attributes(%a: tensor<2x3xf32>) -> tensor<3x2xf32> {
  %0 = "graph.transpose"(%a) {perm = array<i64: 1, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %1 = "graph.transpose"(%a) {perm = array<i64: 1, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %2 = "graph.add"(%0, %1) : (tensor<3x2xf32>, tensor<3x2xf32>) -> tensor<3x2xf32>
  return %2 : tensor<3x2xf32>
}

// An op in a nested region reuses an equal op of an enclosing block that
// precedes it, at any depth; equal ops within the region merge too.
// CHECK-LABEL: func.func @nested_region
// CHECK-NEXT: %[[X:.*]] = "graph.relu"(%arg0)
// CHECK-NEXT: %[[R:.*]] = scf.execute_region
// CHECK-NEXT: %[[N:.*]] = "graph.neg"(%[[X]])
// CHECK-NEXT: %[[I:.*]] = scf.if %arg1
// CHECK-NEXT: %[[M:.*]] = "graph.mul"(%[[X]], %[[N]])
// CHECK-NEXT: scf.yield %[[M]]
// CHECK-NEXT: } else {
// CHECK-NEXT: scf.yield %[[X]]
// CHECK-NEXT: }
// CHECK-NEXT: %[[S:.*]] = "graph.add"(%[[I]], %[[N]])
// CHECK-NEXT: scf.yield %[[S]]
// CHECK-NEXT: }
// CHECK-NEXT: return %[[R]]
func.func @nested_region(%a: tensor<2xf32>, %p: i1) -> tensor<2xf32> {
  %0 = "graph.relu"(%a) : (tensor<2xf32>) -> tensor<2xf32>
  %r = scf.execute_region -> tensor<2xf32> {
    %1 = "graph.relu"(%a) : (tensor<2xf32>) -> tensor<2xf32>
    %2 = "graph.neg"(%1) : (tensor<2xf32>) -> tensor<2xf32>
    %3 = "graph.neg"(%0) : (tensor<2xf32>) -> tensor<2xf32>
    %i = scf.if %p -> tensor<2xf32> {
      %4 = "graph.relu"(%a) : (tensor<2xf32>) -> tensor<2xf32>
      %5 = "graph.mul"(%4, %3) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
      scf.yield %5 : tensor<2xf32>
    } else {
      %6 = "graph.relu"(%a) : (tensor<2xf32>) -> tensor<2xf32>
      scf.yield %6 : tensor<2xf32>
    }
    %7 = "graph.add"(%i, %2) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    scf.yield %7 : tensor<2xf32>
  }
  return %r : tensor<2xf32>
}

// Operand order matters (no op is assumed commutative).
// CHECK-LABEL: func.func @negative_operands
// CHECK: "graph.add"(%arg0, %arg1)
// CHECK: "graph.add"(%arg1, %arg0)
// CHECK: "graph.add"(%arg0, %arg0)
func.func @negative_operands(%a: tensor<2xf32>, %b: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) {
  %0 = "graph.add"(%a, %b) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %1 = "graph.add"(%b, %a) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %2 = "graph.add"(%a, %a) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %0, %1, %2 : tensor<2xf32>, tensor<2xf32>, tensor<2xf32>
}

// CHECK-LABEL: func.func @negative_attributes
// CHECK: "graph.constant"() {value = dense<1.000000e+00>
// CHECK: "graph.constant"() {value = dense<2.000000e+00>
// CHECK: "graph.transpose"(%arg0) {perm = array<i64: 1, 0, 2>}
// CHECK: "graph.transpose"(%arg0) {perm = array<i64: 0, 2, 1>}
// CHECK: "graph.transpose"(%arg0) {kiln.tag, perm = array<i64: 0, 2, 1>}
func.func @negative_attributes(%a: tensor<2x2x2xf32>) -> (tensor<2xf32>, tensor<2xf32>, tensor<2x2x2xf32>, tensor<2x2x2xf32>, tensor<2x2x2xf32>) {
  %0 = "graph.constant"() {value = dense<1.0> : tensor<2xf32>} : () -> tensor<2xf32>
  %1 = "graph.constant"() {value = dense<2.0> : tensor<2xf32>} : () -> tensor<2xf32>
  %2 = "graph.transpose"(%a) {perm = array<i64: 1, 0, 2>} : (tensor<2x2x2xf32>) -> tensor<2x2x2xf32>
  %3 = "graph.transpose"(%a) {perm = array<i64: 0, 2, 1>} : (tensor<2x2x2xf32>) -> tensor<2x2x2xf32>
  %4 = "graph.transpose"(%a) {kiln.tag, perm = array<i64: 0, 2, 1>} : (tensor<2x2x2xf32>) -> tensor<2x2x2xf32>
  return %0, %1, %2, %3, %4 : tensor<2xf32>, tensor<2xf32>, tensor<2x2x2xf32>, tensor<2x2x2xf32>, tensor<2x2x2xf32>
}

// CHECK-LABEL: func.func @negative_result_types
// CHECK: "graph.relu"(%arg0) : (tensor<?xf32>) -> tensor<2xf32>
// CHECK: "graph.relu"(%arg0) : (tensor<?xf32>) -> tensor<?xf32>
func.func @negative_result_types(%a: tensor<?xf32>) -> (tensor<2xf32>, tensor<?xf32>) {
  %0 = "graph.relu"(%a) : (tensor<?xf32>) -> tensor<2xf32>
  %1 = "graph.relu"(%a) : (tensor<?xf32>) -> tensor<?xf32>
  return %0, %1 : tensor<2xf32>, tensor<?xf32>
}

// Only graph ops are merged.
// CHECK-LABEL: func.func @negative_non_graph
// CHECK: arith.addf %arg0, %arg0
// CHECK: arith.addf %arg0, %arg0
func.func @negative_non_graph(%a: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>) {
  %0 = arith.addf %a, %a : tensor<2xf32>
  %1 = arith.addf %a, %a : tensor<2xf32>
  return %0, %1 : tensor<2xf32>, tensor<2xf32>
}

// Neither branch dominates the other.
// CHECK-LABEL: func.func @negative_sibling_regions
// CHECK: scf.if
// CHECK-NEXT: "graph.exp"(%arg0)
// CHECK: } else {
// CHECK-NEXT: "graph.exp"(%arg0)
func.func @negative_sibling_regions(%a: tensor<2xf32>, %p: i1) -> tensor<2xf32> {
  %r = scf.if %p -> tensor<2xf32> {
    %0 = "graph.exp"(%a) : (tensor<2xf32>) -> tensor<2xf32>
    scf.yield %0 : tensor<2xf32>
  } else {
    %1 = "graph.exp"(%a) : (tensor<2xf32>) -> tensor<2xf32>
    scf.yield %1 : tensor<2xf32>
  }
  return %r : tensor<2xf32>
}

// An op in a nested region does not dominate the ops after its region, and
// an outer op after the region does not dominate the region's ops.
// CHECK-LABEL: func.func @negative_not_dominating
// CHECK: scf.execute_region
// CHECK-NEXT: "graph.exp"(%arg0)
// CHECK-NEXT: "graph.neg"(%arg0)
// CHECK: }
// CHECK-NEXT: "graph.exp"(%arg0)
// CHECK-NEXT: "graph.neg"(%arg0)
func.func @negative_not_dominating(%a: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) {
  %r:2 = scf.execute_region -> (tensor<2xf32>, tensor<2xf32>) {
    %0 = "graph.exp"(%a) : (tensor<2xf32>) -> tensor<2xf32>
    %1 = "graph.neg"(%a) : (tensor<2xf32>) -> tensor<2xf32>
    scf.yield %0, %1 : tensor<2xf32>, tensor<2xf32>
  }
  %2 = "graph.exp"(%a) : (tensor<2xf32>) -> tensor<2xf32>
  %3 = "graph.neg"(%a) : (tensor<2xf32>) -> tensor<2xf32>
  %4 = "graph.add"(%2, %3) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %r#0, %r#1, %4 : tensor<2xf32>, tensor<2xf32>, tensor<2xf32>
}

// Run on the module, a function's body (isolated from above) must not reuse
// an op of the module's body.
// MODULE: "graph.constant"() {value = dense<3.000000e+00>
// MODULE-LABEL: func.func @negative_isolated
// MODULE-NEXT: %[[C:.*]] = "graph.constant"() {value = dense<3.000000e+00>
// MODULE-NEXT: "graph.add"(%[[C]], %[[C]])
%outer = "graph.constant"() {value = dense<3.0> : tensor<2xf32>} : () -> tensor<2xf32>
func.func @negative_isolated() -> tensor<2xf32> {
  %0 = "graph.constant"() {value = dense<3.0> : tensor<2xf32>} : () -> tensor<2xf32>
  %1 = "graph.constant"() {value = dense<3.0> : tensor<2xf32>} : () -> tensor<2xf32>
  %2 = "graph.add"(%0, %1) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %2 : tensor<2xf32>
}
