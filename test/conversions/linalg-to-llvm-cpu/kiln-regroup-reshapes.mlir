// RUN: kiln-opt %s --pass-pipeline='builtin.module(func.func(kiln-regroup-reshapes))' | FileCheck %s

// A head split of one of Q, K, V sliced out of a packed projection: the new
// sizes are the slice's own, so the reshape is an expand of the view.
// CHECK-LABEL: func.func @split_heads
// CHECK-SAME: (%[[X:.*]]: tensor<?x?x384xf32>, %[[B:.*]]: index, %[[T:.*]]: index)
// CHECK: %[[S:.*]] = tensor.extract_slice %[[X]]
// CHECK: tensor.expand_shape %[[S]] {{\[\[}}0], [1], [2, 3]] output_shape [%[[B]], %[[T]], 4, 32] : tensor<?x?x128xf32> into tensor<?x?x4x32xf32>
// CHECK-NOT: tensor.reshape
func.func @split_heads(%x: tensor<?x?x384xf32>, %b: index, %t: index) -> tensor<?x?x4x32xf32> {
  %c4 = arith.constant 4 : index
  %c32 = arith.constant 32 : index
  %s = tensor.extract_slice %x[0, 0, 128] [%b, %t, 128] [1, 1, 1] : tensor<?x?x384xf32> to tensor<?x?x128xf32>
  %shape = tensor.from_elements %b, %t, %c4, %c32 : tensor<4xindex>
  %r = tensor.reshape %s(%shape) : (tensor<?x?x128xf32>, tensor<4xindex>) -> tensor<?x?x4x32xf32>
  return %r : tensor<?x?x4x32xf32>
}

// A product's rows (b * t, as affine.apply of a collapse's dims) back to
// [b, t, 384]: two dynamic dims in one group.
// CHECK-LABEL: func.func @product_rows
// CHECK: tensor.expand_shape %{{.*}} {{\[\[}}0, 1], [2]] output_shape [%arg1, %arg2, 384] : tensor<?x384xf32> into tensor<?x?x384xf32>
// CHECK-NOT: tensor.reshape
func.func @product_rows(%x: tensor<?x384xf32>, %b: index, %t: index) -> tensor<?x?x384xf32> {
  %c384 = arith.constant 384 : index
  %n = affine.apply affine_map<()[s0, s1] -> (s0 * s1)>()[%b, %t]
  %s = tensor.extract_slice %x[0, 0] [%n, 384] [1, 1] : tensor<?x384xf32> to tensor<?x384xf32>
  %shape = tensor.from_elements %b, %t, %c384 : tensor<3xindex>
  %r = tensor.reshape %s(%shape) : (tensor<?x384xf32>, tensor<3xindex>) -> tensor<?x?x384xf32>
  return %r : tensor<?x?x384xf32>
}

// Heads merged back: the dims of a linalg op's init (tensor.empty), through
// arith.muli; a trailing 1 joins the last group.
// CHECK-LABEL: func.func @merge_heads
// CHECK: %[[G:.*]] = linalg.generic
// CHECK: tensor.collapse_shape %[[G]] {{\[\[}}0], [1], [2, 3, 4]] : tensor<?x?x4x32x1xf32> into tensor<?x?x128xf32>
// CHECK-NOT: tensor.reshape
func.func @merge_heads(%x: tensor<?x?x4x32x1xf32>, %b: index, %t: index) -> tensor<?x?x128xf32> {
  %c4 = arith.constant 4 : index
  %c32 = arith.constant 32 : index
  %e = tensor.empty(%b, %t) : tensor<?x?x4x32x1xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%x : tensor<?x?x4x32x1xf32>) outs(%e : tensor<?x?x4x32x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<?x?x4x32x1xf32>
  %w = arith.muli %c4, %c32 : index
  %shape = tensor.from_elements %b, %t, %w : tensor<3xindex>
  %r = tensor.reshape %g(%shape) : (tensor<?x?x4x32x1xf32>, tensor<3xindex>) -> tensor<?x?x128xf32>
  return %r : tensor<?x?x128xf32>
}

// A source dim no producer names, read with tensor.dim among the new sizes;
// a new 1 in the middle of the shape.
// CHECK-LABEL: func.func @argument_dims
// CHECK: tensor.expand_shape %arg0 {{\[\[}}0], [1, 2]] output_shape [%{{.*}}, 1, %{{.*}}] : tensor<?x?xf32> into tensor<?x1x?xf32>
func.func @argument_dims(%x: tensor<?x?xf32>) -> tensor<?x1x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %d0 = tensor.dim %x, %c0 : tensor<?x?xf32>
  %d1 = tensor.dim %x, %c1 : tensor<?x?xf32>
  %shape = tensor.from_elements %d0, %c1, %d1 : tensor<3xindex>
  %r = tensor.reshape %x(%shape) : (tensor<?x?xf32>, tensor<3xindex>) -> tensor<?x1x?xf32>
  return %r : tensor<?x1x?xf32>
}

// The same dims in the same order: the source itself, through a cast where
// the new type knows a size the source's does not.
// CHECK-LABEL: func.func @same_dims
// CHECK: %[[Y:.*]] = linalg.copy
// CHECK: %[[C:.*]] = tensor.cast %[[Y]] : tensor<?x?xf32> to tensor<?x8xf32>
// CHECK: return %arg0, %[[C]]
func.func @same_dims(%x: tensor<?x?xf32>) -> (tensor<?x?xf32>, tensor<?x8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %d0 = tensor.dim %x, %c0 : tensor<?x?xf32>
  %d1 = tensor.dim %x, %c1 : tensor<?x?xf32>
  %shape = tensor.from_elements %d0, %d1 : tensor<2xindex>
  %r = tensor.reshape %x(%shape) : (tensor<?x?xf32>, tensor<2xindex>) -> tensor<?x?xf32>
  %shape8 = tensor.from_elements %d0, %c8 : tensor<2xindex>
  %x8 = tensor.extract_slice %x[0, 0] [%d0, 8] [1, 1] : tensor<?x?xf32> to tensor<?x8xf32>
  %y = tensor.empty(%d0, %c8) : tensor<?x?xf32>
  %yc = linalg.copy ins(%x8 : tensor<?x8xf32>) outs(%y : tensor<?x?xf32>) -> tensor<?x?xf32>
  %r8 = tensor.reshape %yc(%shape8) : (tensor<?x?xf32>, tensor<2xindex>) -> tensor<?x8xf32>
  return %r, %r8 : tensor<?x?xf32>, tensor<?x8xf32>
}

// What stays a reshape: dims swapped, a split that merges (6 x 4 into
// 3 x 8), sizes not proven to be the source's, a static source dim split
// into dynamic ones (the expand's type rule), a shape that is not built
// element by element.
// CHECK-LABEL: func.func @stays
// CHECK-COUNT-5: tensor.reshape
// CHECK-NOT: tensor.expand_shape
// CHECK-NOT: tensor.collapse_shape
func.func @stays(%x: tensor<?x?x128xf32>, %y: tensor<?x6x4xf32>, %z: tensor<8x4xf32>, %s: tensor<3xindex>, %a: index, %b: index) -> (tensor<?x?x128xf32>, tensor<?x3x8xf32>, tensor<?x?x128xf32>, tensor<?x?x4xf32>, tensor<?x?x128xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c8 = arith.constant 8 : index
  %c128 = arith.constant 128 : index
  %d0 = tensor.dim %x, %c0 : tensor<?x?x128xf32>
  %d1 = tensor.dim %x, %c1 : tensor<?x?x128xf32>
  %swapped = tensor.from_elements %d1, %d0, %c128 : tensor<3xindex>
  %r0 = tensor.reshape %x(%swapped) : (tensor<?x?x128xf32>, tensor<3xindex>) -> tensor<?x?x128xf32>
  %y0 = tensor.dim %y, %c0 : tensor<?x6x4xf32>
  %merged = tensor.from_elements %y0, %c3, %c8 : tensor<3xindex>
  %r1 = tensor.reshape %y(%merged) : (tensor<?x6x4xf32>, tensor<3xindex>) -> tensor<?x3x8xf32>
  %other = tensor.from_elements %a, %b, %c128 : tensor<3xindex>
  %r2 = tensor.reshape %x(%other) : (tensor<?x?x128xf32>, tensor<3xindex>) -> tensor<?x?x128xf32>
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %split = tensor.from_elements %c2, %c4, %c4 : tensor<3xindex>
  %r3 = tensor.reshape %z(%split) : (tensor<8x4xf32>, tensor<3xindex>) -> tensor<?x?x4xf32>
  %r4 = tensor.reshape %x(%s) : (tensor<?x?x128xf32>, tensor<3xindex>) -> tensor<?x?x128xf32>
  return %r0, %r1, %r2, %r3, %r4 : tensor<?x?x128xf32>, tensor<?x3x8xf32>, tensor<?x?x128xf32>, tensor<?x?x4xf32>, tensor<?x?x128xf32>
}
