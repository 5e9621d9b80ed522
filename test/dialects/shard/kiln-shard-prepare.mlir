// RUN: kiln-opt %s --pass-pipeline='builtin.module(func.func(linalg-generalize-named-ops),kiln-shard-prepare)' | FileCheck %s
// RUN: kiln-opt %s --pass-pipeline='builtin.module(kiln-shard-prepare{keep-products=true})' | FileCheck %s --check-prefix=KEEP
// RUN: kiln-opt %s --pass-pipeline='builtin.module(kiln-shard-prepare{keep-products=true},kiln-shard-prepare)' | FileCheck %s --check-prefix=DROP
// RUN: kiln-opt %s --pass-pipeline='builtin.module(kiln-shard-prepare)' | FileCheck %s --check-prefix=MAPS
// No constant map result is left (the unit dim's is a loop now).
// MAPS-NOT: , 0)>

#id = affine_map<(d0, d1) -> (d0, d1)>
#a = affine_map<(d0, d1, d2) -> (d0, d2)>
#b = affine_map<(d0, d1, d2) -> (d2, d1)>
#c = affine_map<(d0, d1, d2) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>

// A fused projection's output split in two (ONNX Split): each half becomes
// the product over its columns of the weight, a constant of its own; the
// whole product is gone.
// CHECK-LABEL: func.func @split_product
// CHECK-DAG: arith.constant dense<{{\[}}[1.000000e+00, 2.000000e+00], [5.000000e+00, 6.000000e+00]]> : tensor<2x2xf32>
// CHECK-DAG: arith.constant dense<{{\[}}[3.000000e+00, 4.000000e+00], [7.000000e+00, 8.000000e+00]]> : tensor<2x2xf32>
// CHECK-NOT: tensor.extract_slice
// CHECK-NOT: tensor<3x4xf32>
// CHECK: return
func.func @split_product(%x: tensor<3x2xf32>) -> (tensor<3x2xf32>, tensor<3x2xf32>) {
  %w = arith.constant dense<[[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0]]> : tensor<2x4xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<3x4xf32>) -> tensor<3x4xf32>
  %p = linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %w : tensor<3x2xf32>, tensor<2x4xf32>) outs(%f : tensor<3x4xf32>) {
  ^bb0(%in: f32, %in2: f32, %out: f32):
    %m = arith.mulf %in, %in2 : f32
    %s = arith.addf %out, %m : f32
    linalg.yield %s : f32
  } -> tensor<3x4xf32>
  %lo = tensor.extract_slice %p[0, 0] [3, 2] [1, 1] : tensor<3x4xf32> to tensor<3x2xf32>
  %hi = tensor.extract_slice %p[0, 2] [3, 2] [1, 1] : tensor<3x4xf32> to tensor<3x2xf32>
  return %lo, %hi : tensor<3x2xf32>, tensor<3x2xf32>
}

// A slice of a result that is also used whole stays (nothing computed
// twice).
// CHECK-LABEL: func.func @used_whole
// CHECK: tensor.extract_slice
func.func @used_whole(%x: tensor<3x4xf32>) -> (tensor<3x2xf32>, tensor<3x4xf32>) {
  %e = tensor.empty() : tensor<3x4xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<3x4xf32>) outs(%e : tensor<3x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %n = arith.negf %in : f32
    linalg.yield %n : f32
  } -> tensor<3x4xf32>
  %s = tensor.extract_slice %r[0, 1] [3, 2] [1, 1] : tensor<3x4xf32> to tensor<3x2xf32>
  return %s, %r : tensor<3x2xf32>, tensor<3x4xf32>
}

// A keepdims reduction: the constant map result becomes a unit loop.
// CHECK-LABEL: func.func @keepdims
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #{{.*}}], iterator_types = ["parallel", "reduction", "parallel"]} ins(%arg0 : tensor<3x4xf32>) outs(%arg1 : tensor<3x1xf32>)
func.func @keepdims(%x: tensor<3x4xf32>, %init: tensor<3x1xf32>) -> tensor<3x1xf32> {
  %r = linalg.generic {indexing_maps = [#id, affine_map<(d0, d1) -> (d0, 0)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<3x4xf32>) outs(%init : tensor<3x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %out, %in : f32
    linalg.yield %s : f32
  } -> tensor<3x1xf32>
  return %r : tensor<3x1xf32>
}

// keep-products: a copy after the Relu that feeds the product (through a
// reshape), so elementwise fusion leaves the product alone; the last run
// takes it out.
// KEEP-LABEL: func.func @guarded
// KEEP: %[[RELU:.*]] = linalg.generic
// KEEP: %[[COPY:.*]] = linalg.copy ins(%[[RELU]] : tensor<6xf32>)
// KEEP: tensor.expand_shape %[[COPY]]
// DROP-LABEL: func.func @guarded
// DROP-NOT: linalg.copy
func.func @guarded(%x: tensor<6xf32>, %w: tensor<2x2xf32>) -> tensor<3x2xf32> {
  %e = tensor.empty() : tensor<6xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%x : tensor<6xf32>) outs(%e : tensor<6xf32>) {
  ^bb0(%in: f32, %out: f32):
    %zero = arith.constant 0.0 : f32
    %m = arith.maximumf %in, %zero : f32
    linalg.yield %m : f32
  } -> tensor<6xf32>
  %a = tensor.expand_shape %r [[0, 1]] output_shape [3, 2] : tensor<6xf32> into tensor<3x2xf32>
  %init = tensor.empty() : tensor<3x2xf32>
  %p = linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %w : tensor<3x2xf32>, tensor<2x2xf32>) outs(%init : tensor<3x2xf32>) {
  ^bb0(%in: f32, %in2: f32, %out: f32):
    %m = arith.mulf %in, %in2 : f32
    %s = arith.addf %out, %m : f32
    linalg.yield %s : f32
  } -> tensor<3x2xf32>
  return %p : tensor<3x2xf32>
}
