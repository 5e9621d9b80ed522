// RUN: kiln-opt %s --pass-pipeline='builtin.module(func.func(linalg-generalize-named-ops),kiln-shard-plan{plan=tp:2})' | FileCheck %s --check-prefix=TP
// RUN: kiln-opt %s --pass-pipeline='builtin.module(kiln-shard-plan{plan=dp:2})' | FileCheck %s --check-prefix=DP
// RUN: kiln-opt %s --pass-pipeline='builtin.module(kiln-shard-plan{plan=dp:2})' | FileCheck %s --check-prefix=EMPTY
// RUN: not kiln-opt %s --pass-pipeline='builtin.module(kiln-shard-plan{plan=xp:2})' 2>&1 | FileCheck %s --check-prefix=PLAN
// RUN: not kiln-opt %s --pass-pipeline='builtin.module(kiln-shard-plan{plan=tp:1})' 2>&1 | FileCheck %s --check-prefix=PLAN1
// RUN: not kiln-opt %s --pass-pipeline='builtin.module(func.func(linalg-generalize-named-ops),kiln-shard-plan{plan=tp:3})' 2>&1 | FileCheck %s --check-prefix=TP3
// RUN: not kiln-opt %s --pass-pipeline='builtin.module(kiln-shard-plan{plan=dp:3})' 2>&1 | FileCheck %s --check-prefix=DP3
// RUN: not kiln-opt %s --pass-pipeline='builtin.module(kiln-shard-plan{plan=dp:2},kiln-shard-plan{plan=dp:2})' 2>&1 | FileCheck %s --check-prefix=TWICE

// An MLP: x(4x6) @ w1(6x4) + b1, Relu, @ w2(4x2).
//
// tp:2: the weights become arguments holding their values; the first
// product's weight is split by columns, the second's (fed by the first
// through the elementwise op) by rows; the bias is split like the first
// weight's columns; the input and the result are whole. The plan reads
// generics (the shard pipeline generalizes named ops first).
// TP: module attributes {kiln.shard = "tp:2"}
// TP: shard.grid @kiln_grid(shape = 2)
// TP: func.func @mlp(%arg0: tensor<4x6xf32> {onnx.name = "x"}, %arg1: tensor<6x4xf32> {kiln.weight = dense<{{.*}}> : tensor<6x4xf32>}, %arg2: tensor<4xf32> {kiln.weight = dense<{{.*}}> : tensor<4xf32>}, %arg3: tensor<4x2xf32> {kiln.weight = dense<{{.*}}> : tensor<4x2xf32>}) -> (tensor<4x2xf32> {onnx.name = "y"})
// TP: %[[WHOLE:.*]] = shard.sharding @kiln_grid split_axes = {{\[}}[], []]
// TP: %[[X:.*]] = shard.shard %arg0 to %[[WHOLE]] : tensor<4x6xf32>
// TP: %[[COLS:.*]] = shard.sharding @kiln_grid split_axes = {{\[}}[], [0]]
// TP: %[[W1:.*]] = shard.shard %arg1 to %[[COLS]] : tensor<6x4xf32>
// TP: shard.sharding @kiln_grid split_axes = {{\[}}[0]]
// TP: %[[ROWS:.*]] = shard.sharding @kiln_grid split_axes = {{\[}}[0], []]
// TP: %[[W2:.*]] = shard.shard %arg3 to %[[ROWS]] : tensor<4x2xf32>
// TP-NOT: arith.constant dense<{{\[}}
// TP: linalg.generic {{.*}} ins(%[[X]], %[[W1]]
// TP: linalg.generic {{.*}} ins(%{{.*}}, %[[W2]]
// TP: %[[Y:.*]] = shard.shard %{{.*}} to %{{.*}} annotate_for_users : tensor<4x2xf32>
// TP: return %[[Y]]
//
// Each use of the shared tensor.empty gets its own (the matmul's fill and
// the elementwise op).
// EMPTY-COUNT-2: tensor.empty() : tensor<4x4xf32>
// EMPTY-NOT: tensor.empty() : tensor<4x4xf32>
//
// dp:2: the input whole, then split along its batch for its users; every
// weight whole.
// DP: %[[WHOLE:.*]] = shard.sharding @kiln_grid split_axes = {{\[}}[], []]
// DP: %[[X0:.*]] = shard.shard %arg0 to %[[WHOLE]] : tensor<4x6xf32>
// DP: %[[BATCH:.*]] = shard.sharding @kiln_grid split_axes = {{\[}}[0], []]
// DP: %[[X:.*]] = shard.shard %[[X0]] to %[[BATCH]] annotate_for_users : tensor<4x6xf32>
// DP: shard.shard %arg1 to %{{.*}} : tensor<6x4xf32>
// DP-NOT: split_axes = {{\[}}[], [0]]
// DP: linalg.matmul ins(%[[X]],

// PLAN: error: kiln-shard-plan: plan 'xp:2': expected dp:N or tp:N, N from 2 to 4096
// PLAN1: error: kiln-shard-plan: plan 'tp:1': expected dp:N or tp:N, N from 2 to 4096
// TP3: kiln-shard-plan.mlir:[[@LINE+12]]:8: error: kiln-shard-plan: tp:3: this product's weight has 4 output features (columns), not divisible by 3
// DP3: kiln-shard-plan.mlir:[[@LINE+4]]:1: error: kiln-shard-plan: dp:3: input #0 has a batch of 4, not divisible by 3 (compile it with a batch that is)
// TWICE: error: kiln-shard-plan: the module already has a symbol @kiln_grid (sharded twice?)
#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d1)>
func.func @mlp(%x: tensor<4x6xf32> {onnx.name = "x"}) -> (tensor<4x2xf32> {onnx.name = "y"}) {
  %zero = arith.constant 0.0 : f32
  %w1 = arith.constant dense<[[1.0, 2.0, 3.0, 4.0], [1.0, 2.0, 3.0, 4.0], [1.0, 2.0, 3.0, 4.0], [1.0, 2.0, 3.0, 4.0], [1.0, 2.0, 3.0, 4.0], [1.0, 2.0, 3.0, 4.0]]> : tensor<6x4xf32>
  %b1 = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %w2 = arith.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0]]> : tensor<4x2xf32>
  %e = tensor.empty() : tensor<4x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  %h = linalg.matmul ins(%x, %w1 : tensor<4x6xf32>, tensor<6x4xf32>) outs(%f : tensor<4x4xf32>) -> tensor<4x4xf32>
  %hb = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%h, %b1 : tensor<4x4xf32>, tensor<4xf32>) outs(%e : tensor<4x4xf32>) {
  ^bb0(%in: f32, %b: f32, %out: f32):
    %s = arith.addf %in, %b : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  } -> tensor<4x4xf32>
  %e2 = tensor.empty() : tensor<4x2xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<4x2xf32>) -> tensor<4x2xf32>
  %y = linalg.matmul ins(%hb, %w2 : tensor<4x4xf32>, tensor<4x2xf32>) outs(%f2 : tensor<4x2xf32>) -> tensor<4x2xf32>
  return %y : tensor<4x2xf32>
}
