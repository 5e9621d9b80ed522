// kiln-shard-plan{plan=tp:2} on embedding lookups (docs/scale-out.md): a
// table only lookups read, whose rows the ranks divide, is marked for
// kiln-shard-bind-weights to split by rows (annotated whole for
// propagation: the lookups have no table operand); a table also read
// otherwise, or with rows the ranks do not divide, stays whole unmarked.
// dp leaves every table whole.
// RUN: kiln-opt %s --pass-pipeline='builtin.module(kiln-shard-plan{plan=tp:2})' | FileCheck %s
// RUN: kiln-opt %s --pass-pipeline='builtin.module(kiln-shard-plan{plan=dp:2})' | FileCheck %s --check-prefix=DP

// CHECK-LABEL: func.func @lookups
// CHECK-SAME: %arg1: tensor<4x2xf32> {kiln.lookup_rows, kiln.weight = dense<{{[^>]*}}> : tensor<4x2xf32>}
// CHECK-SAME: %arg2: tensor<3x2xf32> {kiln.weight = dense<{{[^>]*}}> : tensor<3x2xf32>}
// CHECK-SAME: %arg3: tensor<4x2xf32> {kiln.weight = dense<{{[^>]*}}> : tensor<4x2xf32>}
// CHECK: shard.sharding @kiln_grid split_axes = {{\[}}[], []]
// CHECK-NEXT: shard.shard %arg1
// DP-NOT: kiln.lookup_rows
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @lookups(%ids: tensor<2xindex>) -> (tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>, tensor<4x2xf32>) {
  %t = arith.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0]]> : tensor<4x2xf32>
  %odd = arith.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]> : tensor<3x2xf32>
  %shared = arith.constant dense<[[9.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0]]> : tensor<4x2xf32>
  %e = tensor.empty() : tensor<2x2xf32>
  %a = linalg.generic {indexing_maps = [#row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%ids : tensor<2xindex>) outs(%e : tensor<2x2xf32>) {
  ^bb0(%id: index, %out: f32):
    %j = linalg.index 1 : index
    %v = tensor.extract %t[%id, %j] : tensor<4x2xf32>
    linalg.yield %v : f32
  } -> tensor<2x2xf32>
  %b = linalg.generic {indexing_maps = [#row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%ids : tensor<2xindex>) outs(%e : tensor<2x2xf32>) {
  ^bb0(%id: index, %out: f32):
    %j = linalg.index 1 : index
    %v = tensor.extract %odd[%id, %j] : tensor<3x2xf32>
    linalg.yield %v : f32
  } -> tensor<2x2xf32>
  %c = linalg.generic {indexing_maps = [#row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%ids : tensor<2xindex>) outs(%e : tensor<2x2xf32>) {
  ^bb0(%id: index, %out: f32):
    %j = linalg.index 1 : index
    %v = tensor.extract %shared[%id, %j] : tensor<4x2xf32>
    linalg.yield %v : f32
  } -> tensor<2x2xf32>
  return %a, %b, %c, %shared : tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>, tensor<4x2xf32>
}
