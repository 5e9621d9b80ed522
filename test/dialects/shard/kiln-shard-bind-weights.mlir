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

// BAD: a slice that is not one dim split evenly.
// expected-error@+1 {{kiln-shard-bind-weights: weight argument #0 was partitioned into a slice that is not one dim split evenly}}
func.func @odd(%w: tensor<3x2xf32> {kiln.weight = dense<1.0> : tensor<4x2xf32>}) -> tensor<3x2xf32> {
  return %w : tensor<3x2xf32>
}
