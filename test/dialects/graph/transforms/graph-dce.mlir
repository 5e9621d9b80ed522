// RUN: kiln-opt %s --pass-pipeline='builtin.module(func.func(graph-dce))' | FileCheck %s

// A dead chain goes in one run, whatever the order it is found in.
// CHECK-LABEL: func.func @dead_chain
// CHECK-NOT: graph.
// CHECK: return %arg0
func.func @dead_chain(%a: tensor<2xf32>, %b: tensor<2xf32>) -> tensor<2xf32> {
  %0 = "graph.add"(%a, %b) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %1 = "graph.relu"(%0) : (tensor<2xf32>) -> tensor<2xf32>
  %c = "graph.constant"() {value = dense<1.0> : tensor<2xf32>} : () -> tensor<2xf32>
  %2 = "graph.mul"(%1, %c) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %3 = "graph.concat"(%2, %1) {axis = 0 : i64} : (tensor<2xf32>, tensor<2xf32>) -> tensor<4xf32>
  return %a : tensor<2xf32>
}

// An op using one value twice frees it once.
// CHECK-LABEL: func.func @dead_repeated_operand
// CHECK-NOT: graph.
// CHECK: return
func.func @dead_repeated_operand(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0 = "graph.relu"(%a) : (tensor<2xf32>) -> tensor<2xf32>
  %1 = "graph.mul"(%0, %0) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %2 = "graph.add"(%1, %1) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %a : tensor<2xf32>
}

// Dead ops inside a nested region, and an outer op only they used.
// CHECK-LABEL: func.func @dead_in_region
// CHECK-NEXT: %[[R:.*]] = scf.execute_region
// CHECK-NEXT: %[[N:.*]] = "graph.neg"(%arg0)
// CHECK-NEXT: scf.yield %[[N]]
// CHECK-NEXT: }
// CHECK-NEXT: return %[[R]]
func.func @dead_in_region(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0 = "graph.relu"(%a) : (tensor<2xf32>) -> tensor<2xf32>
  %r = scf.execute_region -> tensor<2xf32> {
    %1 = "graph.exp"(%0) : (tensor<2xf32>) -> tensor<2xf32>
    %2 = "graph.neg"(%a) : (tensor<2xf32>) -> tensor<2xf32>
    scf.yield %2 : tensor<2xf32>
  }
  return %r : tensor<2xf32>
}

// Only the unused end of a chain goes.
// CHECK-LABEL: func.func @dead_tail
// CHECK-NEXT: %[[X:.*]] = "graph.relu"(%arg0)
// CHECK-NEXT: return %[[X]]
func.func @dead_tail(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0 = "graph.relu"(%a) : (tensor<2xf32>) -> tensor<2xf32>
  %1 = "graph.exp"(%0) : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// CHECK-LABEL: func.func @negative_used
// CHECK: %[[X:.*]] = "graph.add"(%arg0, %arg1)
// CHECK: %[[Y:.*]] = "graph.relu"(%[[X]])
// CHECK: return %[[Y]]
func.func @negative_used(%a: tensor<2xf32>, %b: tensor<2xf32>) -> tensor<2xf32> {
  %0 = "graph.add"(%a, %b) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %1 = "graph.relu"(%0) : (tensor<2xf32>) -> tensor<2xf32>
  return %1 : tensor<2xf32>
}

// Other dialects' ops stay even when unused, and keep their graph operands.
// CHECK-LABEL: func.func @negative_non_graph
// CHECK: %[[X:.*]] = "graph.relu"(%arg0)
// CHECK: arith.addf %[[X]], %[[X]]
// CHECK: return
func.func @negative_non_graph(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0 = "graph.relu"(%a) : (tensor<2xf32>) -> tensor<2xf32>
  %1 = arith.addf %0, %0 : tensor<2xf32>
  return %a : tensor<2xf32>
}

// An op with one of several results used stays.
// CHECK-LABEL: func.func @negative_one_result_used
// CHECK: %[[S:.*]]:2 = "graph.split"(%arg0)
// CHECK: return %[[S]]#1
func.func @negative_one_result_used(%a: tensor<4xf32>) -> tensor<2xf32> {
  %0:2 = "graph.split"(%a) {axis = 0 : i64, num_outputs = 2 : i64} : (tensor<4xf32>) -> (tensor<2xf32>, tensor<2xf32>)
  return %0#1 : tensor<2xf32>
}

// A use inside a nested region keeps an outer op alive.
// CHECK-LABEL: func.func @negative_used_in_region
// CHECK: %[[X:.*]] = "graph.relu"(%arg0)
// CHECK: scf.execute_region
// CHECK-NEXT: "graph.neg"(%[[X]])
func.func @negative_used_in_region(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0 = "graph.relu"(%a) : (tensor<2xf32>) -> tensor<2xf32>
  %r = scf.execute_region -> tensor<2xf32> {
    %1 = "graph.neg"(%0) : (tensor<2xf32>) -> tensor<2xf32>
    scf.yield %1 : tensor<2xf32>
  }
  return %r : tensor<2xf32>
}
