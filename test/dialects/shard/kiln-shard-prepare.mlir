// RUN: kiln-opt %s --pass-pipeline='builtin.module(func.func(linalg-generalize-named-ops),kiln-shard-prepare)' | FileCheck %s
// RUN: kiln-opt %s --pass-pipeline='builtin.module(kiln-shard-prepare{keep-products=true})' | FileCheck %s --check-prefix=KEEP
// RUN: kiln-opt %s --pass-pipeline='builtin.module(kiln-shard-prepare{keep-products=true},kiln-shard-prepare)' | FileCheck %s --check-prefix=DROP
// RUN: kiln-opt %s --pass-pipeline='builtin.module(kiln-shard-prepare)' | FileCheck %s --check-prefix=MAPS
// RUN: kiln-opt %s --pass-pipeline='builtin.module(kiln-shard-prepare)' | FileCheck %s --check-prefix=UNITMAP
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

// keep-products: a copy after an embedding lookup too (its table is split
// by rows only when nothing is fused into it).
// KEEP-LABEL: func.func @lookup_guarded
// KEEP: %[[L:.*]] = linalg.generic
// KEEP: tensor.extract %arg1
// KEEP: %[[C:.*]] = linalg.copy ins(%[[L]] : tensor<2x2xf32>)
// KEEP: linalg.generic {{.*}} ins(%[[C]]
// DROP-LABEL: func.func @lookup_guarded
// DROP-NOT: linalg.copy
func.func @lookup_guarded(%ids: tensor<2xindex>, %t: tensor<4x2xf32>) -> tensor<2x2xf32> {
  %e = tensor.empty() : tensor<2x2xf32>
  %l = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%ids : tensor<2xindex>) outs(%e : tensor<2x2xf32>) {
  ^bb0(%id: index, %out: f32):
    %j = linalg.index 1 : index
    %v = tensor.extract %t[%id, %j] : tensor<4x2xf32>
    linalg.yield %v : f32
  } -> tensor<2x2xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%l : tensor<2x2xf32>) outs(%e : tensor<2x2xf32>) {
  ^bb0(%in: f32, %out: f32):
    %d = arith.addf %in, %in : f32
    linalg.yield %d : f32
  } -> tensor<2x2xf32>
  return %s : tensor<2x2xf32>
}

// A reshape through 1-D (multi-head attention's [S, B, E] -> [S, B*H, D])
// becomes an expand and a collapse through the shapes' common refinement.
// CHECK-LABEL: func.func @flattening
// CHECK: %[[E:.*]] = tensor.expand_shape %arg0 {{\[}}[0], [1], [2, 3]] output_shape [4, 2, 2, 3] : tensor<4x2x6xf32> into tensor<4x2x2x3xf32>
// CHECK: %[[C:.*]] = tensor.collapse_shape %[[E]] {{\[}}[0], [1, 2], [3]] : tensor<4x2x2x3xf32> into tensor<4x4x3xf32>
// CHECK: return %[[C]]
func.func @flattening(%x: tensor<4x2x6xf32>) -> tensor<4x4x3xf32> {
  %f = tensor.collapse_shape %x [[0, 1, 2]] : tensor<4x2x6xf32> into tensor<48xf32>
  %y = tensor.expand_shape %f [[0, 1, 2]] output_shape [4, 4, 3] : tensor<48xf32> into tensor<4x4x3xf32>
  return %y : tensor<4x4x3xf32>
}

// The same at batch 1 ([S, 1, E] -> [S, H, D]): the source's unit dim
// stays in the first reshape, an expand (the reshape propagation folds it
// into the producer); the collapse after it only drops the unit dim.
// CHECK-LABEL: func.func @flattening_units
// CHECK: %[[E:.*]] = tensor.expand_shape %arg0 {{\[}}[0], [1], [2, 3]] output_shape [4, 1, 2, 3] : tensor<4x1x6xf32> into tensor<4x1x2x3xf32>
// CHECK: %[[C:.*]] = tensor.collapse_shape %[[E]] {{\[}}[0], [1, 2], [3]] : tensor<4x1x2x3xf32> into tensor<4x2x3xf32>
// CHECK: return %[[C]]
func.func @flattening_units(%x: tensor<4x1x6xf32>) -> tensor<4x2x3xf32> {
  %f = tensor.collapse_shape %x [[0], [1, 2]] : tensor<4x1x6xf32> into tensor<4x6xf32>
  %y = tensor.expand_shape %f [[0], [1, 2]] output_shape [4, 2, 3] : tensor<4x6xf32> into tensor<4x2x3xf32>
  return %y : tensor<4x2x3xf32>
}

// An Unsqueeze of an input read by a generic: the generic reads the input.
// CHECK-LABEL: func.func @unsqueezed
// CHECK: linalg.generic {{.*}} ins(%arg0, %arg1 : tensor<2x5xf32>, tensor<2x3x5xf32>)
func.func @unsqueezed(%m: tensor<2x5xf32>, %s: tensor<2x3x5xf32>) -> tensor<2x3x5xf32> {
  %u = tensor.expand_shape %m [[0], [1, 2]] output_shape [2, 1, 5] : tensor<2x5xf32> into tensor<2x1x5xf32>
  %e = tensor.empty() : tensor<2x3x5xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, 0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%u, %s : tensor<2x1x5xf32>, tensor<2x3x5xf32>) outs(%e : tensor<2x3x5xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %v = arith.addf %a, %b : f32
    linalg.yield %v : f32
  } -> tensor<2x3x5xf32>
  return %r : tensor<2x3x5xf32>
}

// A collapse that only drops unit dims (the reshape propagation leaves it
// after masked attention scores at batch 1), read by a generic: the
// generic reads the 5-d source, its two dropped unit dims through two new
// unit loops (one loop each: the map stays a projected permutation); the
// collapse is gone. One that no generic reads (returned) stays.
// CHECK-LABEL: func.func @unit_collapse
// CHECK-NOT: tensor.collapse_shape
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #{{.*}}, #{{.*}}], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%arg0, %arg1 : tensor<1x2x1x3x1xf32>, tensor<2x3xf32>)
// CHECK: tensor.collapse_shape %arg0 {{\[}}[0, 1], [2, 3], [4]]
// The source's map:
// UNITMAP: affine_map<(d0, d1, d2, d3, d4) -> (d2, d0, d3, d1, d4)>
func.func @unit_collapse(%x: tensor<1x2x1x3x1xf32>, %y: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3x1xf32>) {
  %c = tensor.collapse_shape %x [[0, 1], [2, 3, 4]] : tensor<1x2x1x3x1xf32> into tensor<2x3xf32>
  %e = tensor.empty() : tensor<2x3xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%c, %y : tensor<2x3xf32>, tensor<2x3xf32>) outs(%e : tensor<2x3xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %v = arith.addf %a, %b : f32
    linalg.yield %v : f32
  } -> tensor<2x3xf32>
  %m = tensor.collapse_shape %x [[0, 1], [2, 3], [4]] : tensor<1x2x1x3x1xf32> into tensor<2x3x1xf32>
  return %r, %m : tensor<2x3xf32>, tensor<2x3x1xf32>
}

// A run-time check's scalar code moves into a 0-d generic (propagation
// refuses tensor.extract and scf.if), and a constant a body captures is
// cloned into it.
// CHECK-LABEL: func.func @check
// CHECK: ^bb0(%{{.*}}: i64, %{{.*}}: i32):
// CHECK-NEXT: arith.constant 7 : i32
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #{{.*}}], iterator_types = []} ins(%{{.*}} : tensor<i32>)
// CHECK-NEXT: ^bb0(%[[IN:.*]]: i32, %[[OUT:.*]]: i32):
// CHECK: arith.cmpi ne, %[[IN]]
// CHECK: scf.if
// CHECK: } {kiln.data_check}
// CHECK: linalg.yield %[[OUT]]
// CHECK-NOT: tensor.extract
memref.global @kiln_check_status : memref<i32> = dense<0>
func.func @check(%ids: tensor<4xi64>) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c7 = arith.constant 7 : i32
  %e = tensor.empty() : tensor<i32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"]}
      ins(%ids : tensor<4xi64>) outs(%e : tensor<i32>) {
  ^bb0(%in: i64, %out: i32):
    %t = arith.trunci %in : i64 to i32
    %m = arith.maxui %out, %t : i32
    %n = arith.andi %m, %c7 : i32
    linalg.yield %n : i32
  } -> tensor<i32>
  %s = tensor.extract %r[] : tensor<i32>
  %bad = arith.cmpi ne, %s, %c0 : i32
  scf.if %bad {
    %g = memref.get_global @kiln_check_status : memref<i32>
    memref.store %c1, %g[] : memref<i32>
  } {kiln.data_check}
  return
}
