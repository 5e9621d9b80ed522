// RUN: sed '/^\/\/ BAD/,$d' %s | kiln-opt --split-input-file \
// RUN:   --pass-pipeline='builtin.module(kiln-shard-bind-weights)' | FileCheck %s
// RUN: sed -n '/^\/\/ BAD/,$p' %s | kiln-opt --verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(kiln-shard-bind-weights)'

// After shard-partition: a weight whole on every rank is its constant
// again; a weight split by rows (dim 0) or columns (dim 1) over 2 ranks is
// a constant of both ranks' slices, stacked, rank r taking slice r. The
// weight arguments and their values leave the signature.
// CHECK-LABEL: func.func @f(%arg0: tensor<2x2xf32> {onnx.name = "x"}) -> (tensor<2x2xf32>, tensor<1x2xf32>)
// CHECK-DAG: %[[WHOLE:.*]] = arith.constant dense<{{\[}}[9.{{0+}}e+00, 1.{{0+}}e+01]]> : tensor<1x2xf32>
// CHECK-DAG: %[[ROWS:.*]] = arith.constant dense<{{\[}}{{\[}}[1.{{0+}}e+00, 2.{{0+}}e+00], [3.{{0+}}e+00, 4.{{0+}}e+00]], {{\[}}[5.{{0+}}e+00, 6.{{0+}}e+00], [7.{{0+}}e+00, 8.{{0+}}e+00]]]> : tensor<2x2x2xf32>
// CHECK-DAG: %[[COLS:.*]] = arith.constant dense<{{\[}}{{\[}}[1.{{0+}}e+00, 2.{{0+}}e+00], [5.{{0+}}e+00, 6.{{0+}}e+00]], {{\[}}[3.{{0+}}e+00, 4.{{0+}}e+00], [7.{{0+}}e+00, 8.{{0+}}e+00]]]> : tensor<2x2x2xf32>
// CHECK-DAG: %[[R1:.*]] = shard.process_linear_index on @kiln_grid : index
// CHECK-DAG: %[[A:.*]] = tensor.extract_slice %[[ROWS]][%[[R1]], 0, 0] [1, 2, 2] [1, 1, 1] : tensor<2x2x2xf32> to tensor<2x2xf32>
// CHECK-DAG: %[[B:.*]] = tensor.extract_slice %[[COLS]][%{{.*}}, 0, 0] [1, 2, 2] [1, 1, 1] : tensor<2x2x2xf32> to tensor<2x2xf32>
// CHECK: linalg.add ins(%arg0, %[[A]] : tensor<2x2xf32>, tensor<2x2xf32>)
// CHECK: linalg.add ins(%{{.*}}, %[[B]] : tensor<2x2xf32>, tensor<2x2xf32>)
// CHECK-NOT: kiln.weight
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
// expected-error@+1 {{kiln-shard-bind-weights: weight argument #0 was partitioned into a slice that is not one dim split evenly (or its bytes cannot be read)}}
func.func @odd(%w: tensor<3x2xf32> {kiln.weight = dense<1.0> : tensor<4x2xf32>}) -> tensor<3x2xf32> {
  return %w : tensor<3x2xf32>
}
