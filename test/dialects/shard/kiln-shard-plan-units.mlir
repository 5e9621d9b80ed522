// kiln-shard-plan{plan=tp:2} on a product whose weight has a unit dim the
// reshape propagation left ([E, 1, F] of an [S, 1, E] activation at batch
// 1): the column rule passes over the unit dim and splits F. The weight's
// reduction dim is the product's weight; a mask beside the contraction
// (read without a reduction loop) is not.
// RUN: kiln-opt %s --pass-pipeline='builtin.module(kiln-shard-plan{plan=tp:2})' | FileCheck %s

// CHECK-LABEL: func.func @units
// CHECK: shard.sharding @kiln_grid split_axes = {{\[}}[], [], [0]]
// CHECK-NEXT: shard.shard %arg1 {{.*}} : tensor<6x1x4xf32>
// CHECK: shard.sharding @kiln_grid split_axes = {{\[}}[], [], [0]]
// CHECK-NEXT: shard.shard %arg2 {{.*}} : tensor<3x1x4xf32>
#x = affine_map<(s, b, f, e) -> (s, b, e)>
#w = affine_map<(s, b, f, e) -> (e, b, f)>
#m = affine_map<(s, b, f, e) -> (s, b, f)>
#o = affine_map<(s, b, f, e) -> (s, b, f)>
func.func @units(%x: tensor<3x1x6xf32>) -> tensor<3x1x4xf32> {
  %w = arith.constant dense<[[[1.0, 2.0, 3.0, 4.0]], [[1.0, 2.0, 3.0, 4.0]], [[1.0, 2.0, 3.0, 4.0]], [[1.0, 2.0, 3.0, 4.0]], [[1.0, 2.0, 3.0, 4.0]], [[1.0, 2.0, 3.0, 5.0]]]> : tensor<6x1x4xf32>
  %mask = arith.constant dense<[[[0.0, 1.0, 0.0, 1.0]], [[0.0, 1.0, 0.0, 1.0]], [[0.0, 1.0, 0.0, 2.0]]]> : tensor<3x1x4xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3x1x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<3x1x4xf32>) -> tensor<3x1x4xf32>
  %p = linalg.generic {indexing_maps = [#x, #m, #w, #o], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%x, %mask, %w : tensor<3x1x6xf32>, tensor<3x1x4xf32>, tensor<6x1x4xf32>) outs(%f : tensor<3x1x4xf32>) {
  ^bb0(%a: f32, %k: f32, %b: f32, %out: f32):
    %m1 = arith.mulf %a, %b : f32
    %m2 = arith.mulf %m1, %k : f32
    %s = arith.addf %out, %m2 : f32
    linalg.yield %s : f32
  } -> tensor<3x1x4xf32>
  return %p : tensor<3x1x4xf32>
}
