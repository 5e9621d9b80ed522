// RUN: sed '/^\/\/ BAD/,$d' %s | kiln-opt --pass-pipeline='builtin.module(kiln-shard-decompose-collectives)' | FileCheck %s
// RUN: sed -n '/^\/\/ BAD/,$p' %s | kiln-opt --verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(kiln-shard-decompose-collectives)'

// An all-slice is each rank's block, taken locally: rank * block size
// along the sliced dim.
// CHECK-LABEL: func.func @slice
// CHECK: %[[R:.*]] = shard.process_linear_index on @g : index
// CHECK: %[[C3:.*]] = arith.constant 3 : index
// CHECK: %[[O:.*]] = arith.muli %[[R]], %[[C3]] : index
// CHECK: tensor.extract_slice %arg0[0, %[[O]]] [4, 3] [1, 1] : tensor<4x6xf32> to tensor<4x3xf32>
// CHECK-NOT: shard.all_slice
//
// An all-gather is each rank's block placed in zeros, then an all-reduce.
// CHECK-LABEL: func.func @gather
// CHECK: %[[Z:.*]] = arith.constant dense<0.000000e+00> : tensor<4x6xf32>
// CHECK: %[[R2:.*]] = shard.process_linear_index on @g : index
// CHECK: %[[O2:.*]] = arith.muli %[[R2]], %{{.*}} : index
// CHECK: %[[P:.*]] = tensor.insert_slice %arg0 into %[[Z]][%[[O2]], 0] [2, 6] [1, 1]
// CHECK: shard.all_reduce %[[P]] on @g grid_axes = [0] : tensor<4x6xf32> -> tensor<4x6xf32>
// CHECK-NOT: shard.all_gather
//
// A 0-d all-reduce (dp's run-time check flag) is one of a 1-element
// tensor, its reduction kept; a 1-d one is left alone.
// CHECK-LABEL: func.func @scalar_reduce
// CHECK: %[[E:.*]] = tensor.expand_shape %arg0 [] output_shape [1] : tensor<i32> into tensor<1xi32>
// CHECK: %[[A:.*]] = shard.all_reduce %[[E]] on @g grid_axes = [0] reduction = bitwise_or : tensor<1xi32> -> tensor<1xi32>
// CHECK: %[[C:.*]] = tensor.collapse_shape %[[A]] [] : tensor<1xi32> into tensor<i32>
// CHECK: shard.all_reduce %arg1 on @g grid_axes = [0] : tensor<2xf32> -> tensor<2xf32>
// CHECK: return %[[C]]
shard.grid @g(shape = 2)
func.func @slice(%x: tensor<4x6xf32>) -> tensor<4x3xf32> {
  %s = shard.all_slice %x on @g grid_axes = [0] slice_axis = 1 : tensor<4x6xf32> -> tensor<4x3xf32>
  return %s : tensor<4x3xf32>
}
func.func @gather(%x: tensor<2x6xf32>) -> tensor<4x6xf32> {
  %g = shard.all_gather %x on @g grid_axes = [0] gather_axis = 0 : tensor<2x6xf32> -> tensor<4x6xf32>
  return %g : tensor<4x6xf32>
}
func.func @scalar_reduce(%x: tensor<i32>, %y: tensor<2xf32>) -> (tensor<i32>, tensor<2xf32>) {
  %r = shard.all_reduce %x on @g grid_axes = [0] reduction = bitwise_or : tensor<i32> -> tensor<i32>
  %v = shard.all_reduce %y on @g grid_axes = [0] : tensor<2xf32> -> tensor<2xf32>
  return %r, %v : tensor<i32>, tensor<2xf32>
}

// BAD: another grid axis than a 1-D grid's.
shard.grid @g2(shape = 2x2)
func.func @two_axes(%x: tensor<4x6xf32>) -> tensor<2x6xf32> {
  // expected-error@+1 {{kiln-shard-decompose-collectives: only static blocks over grid axis 0 are supported}}
  %s = shard.all_slice %x on @g2 grid_axes = [1] slice_axis = 0 : tensor<4x6xf32> -> tensor<2x6xf32>
  return %s : tensor<2x6xf32>
}
