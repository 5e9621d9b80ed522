// kiln-shard-plan{plan-file=...}: a hand-written plan (docs/scale-out.md).
// RUN: rm -rf %t && mkdir -p %t
// RUN: printf 'plan tp:2  # Megatron would split fc1 by columns\nfc1 whole\n' > %t/whole.plan
// RUN: kiln-opt %s --pass-pipeline="builtin.module(func.func(linalg-generalize-named-ops),kiln-shard-plan{plan-file=%t/whole.plan})" | FileCheck %s --check-prefix=WHOLE
// RUN: printf 'plan tp:4\n\n  w1   rows\n# by its weight\n' > %t/rows.plan
// RUN: kiln-opt %s --pass-pipeline="builtin.module(func.func(linalg-generalize-named-ops),kiln-shard-plan{plan=tp:2 plan-file=%t/rows.plan})" | FileCheck %s --check-prefix=ROWS
// RUN: printf 'fc2 columns\n' > %t/noplan.plan
// RUN: kiln-opt %s --pass-pipeline="builtin.module(func.func(linalg-generalize-named-ops),kiln-shard-plan{plan=tp:2 plan-file=%t/noplan.plan})" | FileCheck %s --check-prefix=COLS
// RUN: not kiln-opt %s --pass-pipeline="builtin.module(kiln-shard-plan{plan-file=%t/noplan.plan})" 2>&1 | FileCheck %s --check-prefix=NOPLAN
// RUN: printf 'plan tp:2\nfc3 rows\n' > %t/missing.plan
// RUN: not kiln-opt %s --pass-pipeline="builtin.module(func.func(linalg-generalize-named-ops),kiln-shard-plan{plan-file=%t/missing.plan})" 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: printf 'plan tp:2\nact columns\n' > %t/notproduct.plan
// RUN: not kiln-opt %s --pass-pipeline="builtin.module(func.func(linalg-generalize-named-ops),kiln-shard-plan{plan-file=%t/notproduct.plan})" 2>&1 | FileCheck %s --check-prefix=NOTPRODUCT
// RUN: printf 'plan dp:2\nfc1 rows\n' > %t/dp.plan
// RUN: not kiln-opt %s --pass-pipeline="builtin.module(kiln-shard-plan{plan-file=%t/dp.plan})" 2>&1 | FileCheck %s --check-prefix=DP
// RUN: printf 'plan tp:2\nfc1 sideways\n' > %t/word.plan
// RUN: not kiln-opt %s --pass-pipeline="builtin.module(kiln-shard-plan{plan-file=%t/word.plan})" 2>&1 | FileCheck %s --check-prefix=WORD
// RUN: not kiln-opt %s --pass-pipeline="builtin.module(kiln-shard-plan{plan-file=%t/absent.plan})" 2>&1 | FileCheck %s --check-prefix=ABSENT

// An MLP from ONNX nodes fc1 (MatMul of x and initializer w1), act (Add
// and Relu) and fc2 (MatMul of w2).
//
// fc1 whole: w1 and b1 stay whole, and x is annotated whole for fc1; fc2,
// whose activation is whole, is split by the rule (columns).
// WHOLE: module attributes {kiln.shard = "tp:2"}
// WHOLE: shard.sharding @kiln_grid split_axes = {{\[}}[], []]
// WHOLE-NEXT: shard.shard %arg0
// WHOLE-NEXT: shard.sharding @kiln_grid split_axes = {{\[}}[], []]
// WHOLE-NEXT: shard.shard %arg1
// WHOLE-NEXT: shard.sharding @kiln_grid split_axes = {{\[}}[]]
// WHOLE-NEXT: shard.shard %arg2
// WHOLE-NEXT: shard.sharding @kiln_grid split_axes = {{\[}}[], [0]]
// WHOLE-NEXT: shard.shard %arg3
// WHOLE: shard.sharding @kiln_grid split_axes = {{\[}}[], []]
// WHOLE-NEXT: %[[XW:.*]] = shard.shard %{{.*}} to %{{.*}} annotate_for_users : tensor<4x6xf32>
// WHOLE-NEXT: linalg.generic {{.*}} ins(%[[XW]], %{{.*}} : tensor<4x6xf32>, tensor<6x4xf32>)
//
// w1 rows (the plan option's tp:2 over the file's tp:4): fc1's weight is
// split by rows, its bias whole, and x along its columns for fc1; fc2's
// activation is whole again (all-reduced), so the rule splits w2 by
// columns.
// ROWS: module attributes {kiln.shard = "tp:2"}
// ROWS: shard.sharding @kiln_grid split_axes = {{\[}}[0], []]
// ROWS-NEXT: shard.shard %arg1
// ROWS-NEXT: shard.sharding @kiln_grid split_axes = {{\[}}[]]
// ROWS-NEXT: shard.shard %arg2
// ROWS-NEXT: shard.sharding @kiln_grid split_axes = {{\[}}[], [0]]
// ROWS-NEXT: shard.shard %arg3
// ROWS: shard.sharding @kiln_grid split_axes = {{\[}}[], [0]]
// ROWS-NEXT: %[[X:.*]] = shard.shard %{{.*}} to %{{.*}} annotate_for_users : tensor<4x6xf32>
// ROWS-NEXT: linalg.generic {{.*}} ins(%[[X]], %{{.*}} : tensor<4x6xf32>, tensor<6x4xf32>)
//
// fc2 columns (the file has no plan line): fc1 by the rule (columns, its
// bias split too), w2 by columns, fc2's activation annotated whole.
// COLS: shard.sharding @kiln_grid split_axes = {{\[}}[], [0]]
// COLS-NEXT: shard.shard %arg1
// COLS-NEXT: shard.sharding @kiln_grid split_axes = {{\[}}[0]]
// COLS-NEXT: shard.shard %arg2
// COLS-NEXT: shard.sharding @kiln_grid split_axes = {{\[}}[], [0]]
// COLS-NEXT: shard.shard %arg3
// COLS: shard.sharding @kiln_grid split_axes = {{\[}}[], []]
// COLS-NEXT: %[[A:.*]] = shard.shard %{{.*}} to %{{.*}} annotate_for_users : tensor<4x4xf32>
// COLS-NEXT: linalg.generic {{.*}} ins(%[[A]], %{{.*}} : tensor<4x4xf32>, tensor<4x2xf32>)
//
// NOPLAN: error: kiln-shard-plan: {{.*}}noplan.plan has no 'plan tp:N' line and no plan was given
// MISSING: error: kiln-shard-plan: {{.*}}missing.plan:2: no ONNX node or initializer named 'fc3' is left in the model
// NOTPRODUCT: "act (Add)"{{.*}}: error: kiln-shard-plan: {{.*}}notproduct.plan:2: 'act' is not a product with a weight (a MatMul, Gemm or Conv of an initializer): only those are split by a plan
// DP: error: kiln-shard-plan: {{.*}}dp.plan:2: entries split products: they need a tp plan, not dp:2
// WORD: error: kiln-shard-plan: {{.*}}word.plan:2: 'sideways': expected columns, rows or whole after the name
// ABSENT: error: kiln-shard-plan: {{.*}}absent.plan: cannot read the plan: No such file or directory
#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d1)>
func.func @mlp(%x: tensor<4x6xf32> {onnx.name = "x"}) -> (tensor<4x2xf32> {onnx.name = "y"}) {
  %zero = arith.constant 0.0 : f32
  %w1 = arith.constant dense<[[1.0, 2.0, 3.0, 4.0], [1.0, 2.0, 3.0, 4.0], [1.0, 2.0, 3.0, 4.0], [1.0, 2.0, 3.0, 4.0], [1.0, 2.0, 3.0, 4.0], [1.0, 2.0, 3.0, 4.0]]> : tensor<6x4xf32> loc("w1")
  %b1 = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32> loc("b1")
  %w2 = arith.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0]]> : tensor<4x2xf32> loc("w2")
  %e = tensor.empty() : tensor<4x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  %h = linalg.matmul ins(%x, %w1 : tensor<4x6xf32>, tensor<6x4xf32>) outs(%f : tensor<4x4xf32>) -> tensor<4x4xf32> loc("fc1 (MatMul)")
  %hb = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%h, %b1 : tensor<4x4xf32>, tensor<4xf32>) outs(%e : tensor<4x4xf32>) {
  ^bb0(%in: f32, %b: f32, %out: f32):
    %s = arith.addf %in, %b : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  } -> tensor<4x4xf32> loc(fused["act (Add)", "act_relu (Relu)"])
  %e2 = tensor.empty() : tensor<4x2xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<4x2xf32>) -> tensor<4x2xf32>
  %y = linalg.matmul ins(%hb, %w2 : tensor<4x4xf32>, tensor<4x2xf32>) outs(%f2 : tensor<4x2xf32>) -> tensor<4x2xf32> loc("fc2 (MatMul)")
  return %y : tensor<4x2xf32>
}
