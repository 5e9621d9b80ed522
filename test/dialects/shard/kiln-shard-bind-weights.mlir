// RUN: sed '/^\/\/ BAD/,$d' %s | kiln-opt --split-input-file \
// RUN:   --pass-pipeline='builtin.module(kiln-shard-bind-weights)' | FileCheck %s
// RUN: sed -n '/^\/\/ BAD/,$p' %s | kiln-opt --verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(kiln-shard-bind-weights)'

// After shard-partition: a weight whole on every rank is its constant
// again; the weights split by rows (dim 0) or columns (dim 1) over 2 ranks
// are one constant of rows, row r holding rank r's slices (each 64-byte
// aligned, the row padded to 64 KiB), rank r taking its slices of row r
// and reshaping them. The weight arguments and their values leave the
// signature.
// CHECK-LABEL: func.func @f(%arg0: tensor<2x2xf32> {onnx.name = "x"}) -> (tensor<2x2xf32>, tensor<1x2xf32>)
// CHECK: %[[R:.*]] = shard.process_linear_index on @kiln_grid : index
// CHECK: %[[ALL:.*]] = arith.constant dense_resource<[[BLOB:.*]]> : tensor<2x16384xf32>
// CHECK: %[[FA:.*]] = tensor.extract_slice %[[ALL]][%[[R]], 0] [1, 4] [1, 1] : tensor<2x16384xf32> to tensor<4xf32>
// CHECK: %[[A:.*]] = tensor.expand_shape %[[FA]] {{\[}}[0, 1]] output_shape [2, 2] : tensor<4xf32> into tensor<2x2xf32>
// CHECK: %[[FB:.*]] = tensor.extract_slice %[[ALL]][%[[R]], 16] [1, 4] [1, 1] : tensor<2x16384xf32> to tensor<4xf32>
// CHECK: %[[B:.*]] = tensor.expand_shape %[[FB]] {{\[}}[0, 1]] output_shape [2, 2] : tensor<4xf32> into tensor<2x2xf32>
// CHECK: arith.constant dense<{{\[}}[9.{{0+}}e+00, 1.{{0+}}e+01]]> : tensor<1x2xf32>
// CHECK: linalg.add ins(%arg0, %[[A]] : tensor<2x2xf32>, tensor<2x2xf32>)
// CHECK: linalg.add ins(%{{.*}}, %[[B]] : tensor<2x2xf32>, tensor<2x2xf32>)
// CHECK-NOT: kiln.weight
// Row 0: rows 1-2 of the first weight (1, 2, 3, 4), padding, columns 1-2
// of the second (1, 2, 5, 6); row 1, 64 KiB on: 5, 6, 7, 8 and 3, 4, 7, 8.
// CHECK: [[BLOB]]: "0x400000000000803F0000004000004040000080400000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000803F000000400000A0400000C040{{0+}}0000A0400000C0400000E0400000004100000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000004040000080400000E04000000041{{0+}}"
shard.grid @kiln_grid(shape = 2)
func.func @f(%x: tensor<2x2xf32> {onnx.name = "x"},
             %rows: tensor<2x2xf32> {kiln.weight = dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0]]> : tensor<4x2xf32>},
             %cols: tensor<2x2xf32> {kiln.weight = dense<[[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0]]> : tensor<2x4xf32>},
             %whole: tensor<1x2xf32> {kiln.weight = dense<[[9.0, 10.0]]> : tensor<1x2xf32>}) -> (tensor<2x2xf32>, tensor<1x2xf32>) {
  %e = tensor.empty() : tensor<2x2xf32>
  %a = linalg.add ins(%x, %rows : tensor<2x2xf32>, tensor<2x2xf32>) outs(%e : tensor<2x2xf32>) -> tensor<2x2xf32>
  %b = linalg.add ins(%a, %cols : tensor<2x2xf32>, tensor<2x2xf32>) outs(%e : tensor<2x2xf32>) -> tensor<2x2xf32>
  return %b, %whole : tensor<2x2xf32>, tensor<1x2xf32>
}

// -----

// Functions without weights are left alone.
// CHECK-LABEL: func.func @plain(%arg0: tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT: return %arg0
func.func @plain(%x: tensor<2xf32>) -> tensor<2xf32> {
  return %x : tensor<2xf32>
}

// -----

// A table marked for its embedding lookups (tp:2, 4 rows): rank r reads
// its 2 rows, an id outside them gives 0, and an all-reduce sums the
// ranks' lookups.
// CHECK-LABEL: func.func @lookup(%arg0: tensor<3xindex>) -> tensor<3x2xf32>
// CHECK: %[[R:.*]] = shard.process_linear_index on @kiln_grid : index
// CHECK: %[[ALL:.*]] = arith.constant dense_resource<{{.*}}> : tensor<2x16384xf32>
// CHECK: %[[F:.*]] = tensor.extract_slice %[[ALL]][%[[R]], 0] [1, 4] [1, 1]
// CHECK: %[[T:.*]] = tensor.expand_shape %[[F]] {{\[}}[0, 1]] output_shape [2, 2]
// CHECK: %[[G:.*]] = linalg.generic
// CHECK: ^bb0(%[[ID:.*]]: index, %{{.*}}: f32):
// CHECK: %[[C2:.*]] = arith.constant 2 : index
// CHECK: %[[LO:.*]] = arith.muli %[[R]], %[[C2]] : index
// CHECK: %[[L:.*]] = arith.subi %[[ID]], %[[LO]] : index
// CHECK: %[[IN:.*]] = arith.cmpi ult, %[[L]], %[[C2]] : index
// CHECK: %[[S:.*]] = arith.select %[[IN]], %[[L]], %{{.*}} : index
// CHECK: %[[X:.*]] = tensor.extract %[[T]][%[[S]], %{{.*}}] : tensor<2x2xf32>
// CHECK: %[[V:.*]] = arith.select %[[IN]], %[[X]], %{{.*}} : f32
// CHECK: linalg.yield %[[V]] : f32
// CHECK: %[[SUM:.*]] = shard.all_reduce %[[G]] on @kiln_grid grid_axes = [0] : tensor<3x2xf32> -> tensor<3x2xf32>
// CHECK: return %[[SUM]]
module attributes {kiln.shard = "tp:2"} {
shard.grid @kiln_grid(shape = 2)
func.func @lookup(%ids: tensor<3xindex>,
                  %table: tensor<4x2xf32> {kiln.weight = dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0]]> : tensor<4x2xf32>, kiln.lookup_rows}) -> tensor<3x2xf32> {
  %e = tensor.empty() : tensor<3x2xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%ids : tensor<3xindex>) outs(%e : tensor<3x2xf32>) {
  ^bb0(%id: index, %out: f32):
    %j = linalg.index 1 : index
    %v = tensor.extract %table[%id, %j] : tensor<4x2xf32>
    linalg.yield %v : f32
  } -> tensor<3x2xf32>
  return %g : tensor<3x2xf32>
}
}

// BAD: a slice that is not one dim split evenly.
// expected-error@+1 {{kiln-shard-bind-weights: weight argument #0 was partitioned into a slice that is not one dim split evenly}}
func.func @odd(%w: tensor<3x2xf32> {kiln.weight = dense<1.0> : tensor<4x2xf32>}) -> tensor<3x2xf32> {
  return %w : tensor<3x2xf32>
}
