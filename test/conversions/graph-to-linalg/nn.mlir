// RUN: kiln-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(convert-graph-to-linalg))' \
// RUN:   | FileCheck %s

// Inference batch_norm: the channel vectors are reshaped to C x 1 x 1 and
// folded per channel by one generic with two results (a = s / sqrt(v +
// eps), shift = b - m * a), then one multiply-add per element: no square
// root or division in the elementwise generic.
// CHECK-LABEL: func.func @batch_norm
// CHECK: %[[S:.*]] = tensor.expand_shape %arg1 {{\[\[}}0, 1, 2]] output_shape [3, 1, 1]
// CHECK: %[[F:.*]]:2 = linalg.generic
// CHECK-SAME: ins(%[[S]], %{{.*}}, %{{.*}}, %{{.*}} : tensor<3x1x1xf32>, tensor<3x1x1xf32>, tensor<3x1x1xf32>, tensor<3x1x1xf32>)
// CHECK: math.sqrt
// CHECK: arith.divf
// CHECK: linalg.generic
// CHECK-SAME: ins(%arg0, %[[F]]#0, %[[F]]#1 : tensor<2x3x4x5xf32>, tensor<3x1x1xf32>, tensor<3x1x1xf32>)
// CHECK-NEXT: ^bb0
// CHECK-NEXT: arith.mulf
// CHECK-NEXT: arith.addf
// CHECK-NEXT: linalg.yield
// CHECK-NOT: graph.
func.func @batch_norm(%x: tensor<2x3x4x5xf32>, %s: tensor<3xf32>, %b: tensor<3xf32>, %m: tensor<3xf32>, %v: tensor<3xf32>) -> tensor<2x3x4x5xf32> {
  %0 = "graph.batch_norm"(%x, %s, %b, %m, %v) {epsilon = 1.0e-3 : f32} : (tensor<2x3x4x5xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3x4x5xf32>
  return %0 : tensor<2x3x4x5xf32>
}

// -----

// layer_norm over the last axis: a sum and a sum of squared deviations
// reduce into keepdims tensors, then one elementwise generic.
// CHECK-LABEL: func.func @layer_norm
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]
// CHECK-SAME: outs(%{{.*}} : tensor<4x1xf32>)
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]
// CHECK: arith.subf
// CHECK: arith.mulf
// CHECK: linalg.generic {{.*}} ins(%arg0, {{.*}}, %arg1, %arg2 : tensor<4x8xf32>, tensor<4x1xf32>, tensor<4x1xf32>, tensor<8xf32>, tensor<8xf32>)
// CHECK-NOT: graph.
func.func @layer_norm(%x: tensor<4x8xf32>, %s: tensor<8xf32>, %b: tensor<8xf32>) -> tensor<4x8xf32> {
  %0 = "graph.layer_norm"(%x, %s, %b) {axis = -1 : i64} : (tensor<4x8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// lrn: squares zero-padded on the channel dim, summed over a size-3 window.
// CHECK-LABEL: func.func @lrn
// CHECK: %[[P:.*]] = tensor.insert_slice %{{.*}} into %{{.*}}[0, 1, 0, 0] [1, 4, 2, 2] [1, 1, 1, 1] : tensor<1x4x2x2xf32> into tensor<1x6x2x2xf32>
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]
// CHECK-SAME: ins(%[[P]], %{{.*}} : tensor<1x6x2x2xf32>, tensor<3xf32>)
// CHECK: math.powf
func.func @lrn(%x: tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32> {
  %0 = "graph.lrn"(%x) {size = 3 : i64} : (tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
  return %0 : tensor<1x4x2x2xf32>
}

// -----

// resize (nearest, sizes 2x3 -> 3x5: no integer factor): a gather by
// tensor.extract in a generic over the output; the unresized N and C dims
// read linalg.index directly.
// CHECK-LABEL: func.func @resize_nearest
// CHECK: linalg.generic
// CHECK-SAME: outs(%{{.*}} : tensor<1x1x3x5xf32>)
// CHECK: math.floor
// CHECK: tensor.extract %arg0
// CHECK-NOT: graph.
func.func @resize_nearest(%x: tensor<1x1x2x3xf32>) -> tensor<1x1x3x5xf32> {
  %sizes = "graph.constant"() {value = dense<[1, 1, 3, 5]> : tensor<4xi64>} : () -> tensor<4xi64>
  %0 = "graph.resize"(%x, %sizes) {mode = "nearest", operandSegmentSizes = array<i32: 1, 0, 0, 1>} : (tensor<1x1x2x3xf32>, tensor<4xi64>) -> tensor<1x1x3x5xf32>
  return %0 : tensor<1x1x3x5xf32>
}

// -----

// resize (nearest, factors 2 and 3, half_pixel, round_prefer_floor): the
// phase form, no gather: one pass per axis, W then H; output phase p of
// an axis is input k + off_p (here every off is 0: no edge padding), a
// view of the pass's input inserted with the factor as stride.
// CHECK-LABEL: func.func @resize_nearest_phases
// CHECK-NOT: tensor.extract %
// CHECK-COUNT-3: tensor.insert_slice %{{.*}} into %{{.*}} [1, 1, 2, 3] [1, 1, 1, 3] : tensor<1x1x2x3xf32> into tensor<1x1x2x9xf32>
// CHECK-COUNT-2: tensor.insert_slice %{{.*}} into %{{.*}} [1, 1, 2, 9] [1, 1, 2, 1] : tensor<1x1x2x9xf32> into tensor<1x1x4x9xf32>
// CHECK-NOT: linalg.generic
func.func @resize_nearest_phases(%x: tensor<1x1x2x3xf32>) -> tensor<1x1x4x9xf32> {
  %sizes = "graph.constant"() {value = dense<[1, 1, 4, 9]> : tensor<4xi64>} : () -> tensor<4xi64>
  %0 = "graph.resize"(%x, %sizes) {mode = "nearest", coordinate_transformation_mode = "half_pixel", operandSegmentSizes = array<i32: 1, 0, 0, 1>} : (tensor<1x1x2x3xf32>, tensor<4xi64>) -> tensor<1x1x4x9xf32>
  return %0 : tensor<1x1x4x9xf32>
}

// -----

// gru: W and R (arguments, not constants) transposed to [K, 15] before
// the loop; the input projection before the loop, its z and r columns
// apart from its h ones; an scf.for over the 2 time steps carrying both
// (each step adds H·Rᵀ to its rows in place), H (which the cell
// overwrites), Y and the pre-step's scratch (written at slot step % 2).
// CHECK-LABEL: func.func @gru
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<4x15xf32>)
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<5x15xf32>)
// CHECK: %[[R:.*]]:5 = scf.for %[[T:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ZR:.*]] = %{{.*}}, %[[HG:.*]] = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) -> (tensor<2x3x10xf32>, tensor<2x3x5xf32>, tensor<3x5xf32>, tensor<2x3x5xf32>, tensor<2x3x5xf32>)
// CHECK: math.tanh
// CHECK: tensor.insert_slice %{{.*}} into %[[ZR]][%[[T]], 0, 0] [1, 3, 10]
// CHECK: tensor.insert_slice %{{.*}} into %[[HG]][%[[T]], 0, 0] [1, 3, 5]
// CHECK: scf.yield
// CHECK-NOT: graph.
func.func @gru(%x: tensor<2x3x4xf32>, %w: tensor<1x15x4xf32>, %r: tensor<1x15x5xf32>) -> (tensor<2x1x3x5xf32>, tensor<1x3x5xf32>) {
  %0:2 = "graph.gru"(%x, %w, %r) {hidden_size = 5 : i64, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<2x3x4xf32>, tensor<1x15x4xf32>, tensor<1x15x5xf32>) -> (tensor<2x1x3x5xf32>, tensor<1x3x5xf32>)
  return %0#0, %0#1 : tensor<2x1x3x5xf32>, tensor<1x3x5xf32>
}

// -----

// grid_sample (bilinear, zeros): one generic over the output reading the
// grid and x with tensor.extract; tap indices are clamped into x's bounds
// and out-of-range taps masked to 0.
// CHECK-LABEL: func.func @grid_sample_bilinear
// CHECK: linalg.generic
// CHECK-SAME: outs(%{{.*}} : tensor<1x2x5x6xf32>)
// CHECK: tensor.extract %arg1
// CHECK: math.floor
// CHECK: arith.minnumf
// CHECK: tensor.extract %arg0
// CHECK: arith.select
// CHECK-NOT: graph.
func.func @grid_sample_bilinear(%x: tensor<1x2x3x4xf32>, %g: tensor<1x5x6x2xf32>) -> tensor<1x2x5x6xf32> {
  %0 = "graph.grid_sample"(%x, %g) {mode = "bilinear", padding_mode = "zeros"} : (tensor<1x2x3x4xf32>, tensor<1x5x6x2xf32>) -> tensor<1x2x5x6xf32>
  return %0 : tensor<1x2x5x6xf32>
}

// -----

// grid_sample (nearest, reflection) on integers: rounds half to even and
// yields the gathered element itself.
// CHECK-LABEL: func.func @grid_sample_nearest_reflection
// CHECK: linalg.generic
// CHECK-SAME: outs(%{{.*}} : tensor<1x1x2x2xi32>)
// CHECK: math.roundeven
// CHECK: %[[V:.*]] = tensor.extract %arg0
// CHECK: linalg.yield %[[V]] : i32
func.func @grid_sample_nearest_reflection(%x: tensor<1x1x3x4xi32>, %g: tensor<1x2x2x2xf32>) -> tensor<1x1x2x2xi32> {
  %0 = "graph.grid_sample"(%x, %g) {mode = "nearest", padding_mode = "reflection", align_corners = 1 : i64} : (tensor<1x1x3x4xi32>, tensor<1x2x2x2xf32>) -> tensor<1x1x2x2xi32>
  return %0 : tensor<1x1x2x2xi32>
}

// -----

// roi_align (adaptive sampling): batch indices clamped into [0, N-1], the
// data-dependent sampling grid summed by nested scf.for loops in the body.
// CHECK-LABEL: func.func @roi_align
// CHECK: linalg.generic
// CHECK-SAME: outs(%{{.*}} : tensor<4x3x2x2xf32>)
// CHECK: arith.maxsi
// CHECK: arith.minsi
// CHECK: math.ceil
// CHECK: %[[S:.*]] = scf.for {{.*}} -> (f32)
// CHECK: scf.for {{.*}} -> (f32)
// CHECK: tensor.extract %arg0
// CHECK: scf.yield
// CHECK: arith.divf %[[S]]
// CHECK-NOT: graph.
func.func @roi_align(%x: tensor<2x3x8x8xf32>, %r: tensor<4x4xf32>, %b: tensor<4xi64>) -> tensor<4x3x2x2xf32> {
  %0 = "graph.roi_align"(%x, %r, %b) {output_height = 2 : i64, output_width = 2 : i64} : (tensor<2x3x8x8xf32>, tensor<4x4xf32>, tensor<4xi64>) -> tensor<4x3x2x2xf32>
  return %0 : tensor<4x3x2x2xf32>
}
