// RUN: kiln-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(kiln-recompute-masks))' \
// RUN:   | FileCheck %s
// RUN: kiln-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(kiln-recompute-masks),linalg-fuse-elementwise-ops)' \
// RUN:   | FileCheck %s --check-prefix=FUSED

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (0, d1)>
#scalar = affine_map<(d0, d1) -> ()>

// A causal-style mask read by two Wheres (one through a broadcast): one
// of them gets its own copy, right before it; then each fuses its mask,
// and no boolean tensor is left between ops.
// CHECK-LABEL: func.func @two_readers
// CHECK: %[[M1:.*]] = linalg.generic
// CHECK: arith.cmpf oeq
// CHECK: %[[M2:.*]] = linalg.generic
// CHECK: arith.cmpf oeq
// CHECK: linalg.generic {{.*}} ins(%[[M2]],
// CHECK: linalg.generic {{.*}} ins(%[[M1]],
// FUSED-LABEL: func.func @two_readers
// FUSED-NOT: xi1>
// FUSED: return
func.func @two_readers(%t: tensor<?x?xf32>, %x: tensor<?x?xf32>, %y: tensor<4x?xf32>) -> (tensor<?x?xf32>, tensor<4x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant -1.0e30 : f32
  %r = tensor.dim %t, %c0 : tensor<?x?xf32>
  %c = tensor.dim %t, %c1 : tensor<?x?xf32>
  %e = tensor.empty(%r, %c) : tensor<?x?xi1>
  %m = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%t : tensor<?x?xf32>) outs(%e : tensor<?x?xi1>) {
  ^bb0(%in: f32, %out: i1):
    %b = arith.cmpf oeq, %in, %zero : f32
    linalg.yield %b : i1
  } -> tensor<?x?xi1>
  %ex = tensor.empty(%r, %c) : tensor<?x?xf32>
  %a = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%m, %x : tensor<?x?xi1>, tensor<?x?xf32>) outs(%ex : tensor<?x?xf32>) {
  ^bb0(%mb: i1, %xv: f32, %out: f32):
    %s = arith.select %mb, %ninf, %xv : f32
    linalg.yield %s : f32
  } -> tensor<?x?xf32>
  %ey = tensor.empty(%c) : tensor<4x?xf32>
  %b2 = linalg.generic {indexing_maps = [#row, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%m, %y : tensor<?x?xi1>, tensor<4x?xf32>) outs(%ey : tensor<4x?xf32>) {
  ^bb0(%mb: i1, %yv: f32, %out: f32):
    %s = arith.select %mb, %ninf, %yv : f32
    linalg.yield %s : f32
  } -> tensor<4x?xf32>
  return %a, %b2 : tensor<?x?xf32>, tensor<4x?xf32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>

// Left alone: a mask also returned (a reader that is not a linalg input),
// a float result, a mask with one reader.
// CHECK-LABEL: func.func @not_shared
// CHECK-COUNT-1: arith.cmpf oeq
// CHECK-NOT: arith.cmpf oeq
// CHECK-LABEL: func.func @float_result
// CHECK-COUNT-1: arith.mulf %{{.*}}, %{{.*}} : f32
// CHECK-NOT: arith.mulf
func.func @not_shared(%t: tensor<8x8xf32>) -> (tensor<8x8xi1>, tensor<8x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x8xi1>
  %m = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%t : tensor<8x8xf32>) outs(%e : tensor<8x8xi1>) {
  ^bb0(%in: f32, %out: i1):
    %b = arith.cmpf oeq, %in, %zero : f32
    linalg.yield %b : i1
  } -> tensor<8x8xi1>
  %ex = tensor.empty() : tensor<8x8xf32>
  %a = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%m, %t : tensor<8x8xi1>, tensor<8x8xf32>) outs(%ex : tensor<8x8xf32>) {
  ^bb0(%mb: i1, %xv: f32, %out: f32):
    %s = arith.select %mb, %zero, %xv : f32
    linalg.yield %s : f32
  } -> tensor<8x8xf32>
  return %m, %a : tensor<8x8xi1>, tensor<8x8xf32>
}
func.func @float_result(%t: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>) {
  %ex = tensor.empty() : tensor<8x8xf32>
  %sq = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%t : tensor<8x8xf32>) outs(%ex : tensor<8x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %p = arith.mulf %in, %in : f32
    linalg.yield %p : f32
  } -> tensor<8x8xf32>
  %a = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%sq : tensor<8x8xf32>) outs(%ex : tensor<8x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %p = arith.addf %in, %in : f32
    linalg.yield %p : f32
  } -> tensor<8x8xf32>
  %b = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%sq : tensor<8x8xf32>) outs(%ex : tensor<8x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %p = arith.subf %in, %in : f32
    linalg.yield %p : f32
  } -> tensor<8x8xf32>
  return %a, %b : tensor<8x8xf32>, tensor<8x8xf32>
}
