// The shard pipeline (kiln-shard-plan, sharding-propagation forward then
// backward, shard-partition, kiln-shard-bind-weights,
// kiln-shard-decompose-collectives) on an MLP,
// x(4x6) @ w1(6x4) + b1, Relu, @ w2(4x2), over 2 ranks
// (docs/scale-out.md).
// RUN: kiln-opt %s --pass-pipeline='builtin.module(shard{plan=tp:2})' | FileCheck %s --check-prefix=TP
// RUN: kiln-opt %s --pass-pipeline='builtin.module(shard{plan=dp:2})' | FileCheck %s --check-prefix=DP
// RUN: kiln-opt %s --pass-pipeline='builtin.module(shard{plan=tp:2},convert-shard-to-mpi,canonicalize)' | FileCheck %s --check-prefix=TPMPI
// RUN: kiln-opt %s --pass-pipeline='builtin.module(shard{plan=dp:2},convert-shard-to-mpi,canonicalize)' | FileCheck %s --check-prefix=TPMPI
// RUN: not kiln-opt %S/Inputs/shard_reshape.mlir --pass-pipeline='builtin.module(shard{plan=dp:2})' 2>&1 | FileCheck %s --check-prefix=RESHAPE

// tp:2, Megatron-style: each rank multiplies the whole input by its 6x2
// columns of w1, adds its half of b1 (split like w1's columns), multiplies
// by its 2x2 rows of w2, and one all-reduce sums the partial products. Its
// slices of the three are row r of one constant (rank-major: the ranks'
// pages apart), each slice taken flat and reshaped. The products are named
// ops again (linalg-specialize-generic-ops). The signature is the model's.
// TP: module attributes {kiln.shard = "tp:2"}
// TP: func.func @mlp(%arg0: tensor<4x6xf32> {onnx.name = "x"}) -> (tensor<4x2xf32> {onnx.name = "y"})
// TP: %[[ALL:.*]] = arith.constant dense_resource<{{.*}}> : tensor<2x16384xf32>
// TP: %[[R:.*]] = shard.process_linear_index on @kiln_grid : index
// TP: %[[W1F:.*]] = tensor.extract_slice %[[ALL]][%[[R]], 0] [1, 12] [1, 1] : tensor<2x16384xf32> to tensor<12xf32>
// TP: %[[W1:.*]] = tensor.expand_shape %[[W1F]] {{\[}}[0, 1]] output_shape [6, 2]
// TP: tensor.extract_slice %[[ALL]][%[[R]], 16] [1, 2] [1, 1] : tensor<2x16384xf32> to tensor<2xf32>
// TP: tensor.extract_slice %[[ALL]][%[[R]], 32] [1, 4] [1, 1] : tensor<2x16384xf32> to tensor<4xf32>
// TP: linalg.matmul ins(%arg0, %[[W1]] : tensor<4x6xf32>, tensor<6x2xf32>)
// TP: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<4x2xf32>, tensor<2x2xf32>)
// TP: %[[SUM:.*]] = shard.all_reduce %{{.*}} on @kiln_grid grid_axes = [0] : tensor<4x2xf32> -> tensor<4x2xf32>
// TP: return %[[SUM]]
// TP-NOT: shard.all_slice
// TP-NOT: shard.all_gather
//
// dp:2: each rank takes its 2 rows of the input (locally), runs the whole
// MLP on them with whole weights, and the result's blocks are assembled:
// each rank's in zeros, summed by one all-reduce (convert-shard-to-mpi has
// no all-gather).
// DP: func.func @mlp(%arg0: tensor<4x6xf32> {onnx.name = "x"}) -> (tensor<4x2xf32> {onnx.name = "y"})
// DP: %[[ZEROS:.*]] = arith.constant dense<0.000000e+00> : tensor<4x2xf32>
// DP: %[[X:.*]] = tensor.extract_slice %arg0[%{{.*}}, 0] [2, 6] [1, 1] : tensor<4x6xf32> to tensor<2x6xf32>
// DP: linalg.matmul ins(%[[X]], %{{.*}} : tensor<2x6xf32>, tensor<6x4xf32>)
// DP: %[[Y:.*]] = linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<2x4xf32>, tensor<4x2xf32>)
// DP: %[[P:.*]] = tensor.insert_slice %[[Y]] into %[[ZEROS]][%{{.*}}, 0] [2, 2] [1, 1]
// DP: %[[G:.*]] = shard.all_reduce %[[P]] on @kiln_grid grid_axes = [0] : tensor<4x2xf32> -> tensor<4x2xf32>
// DP: return %[[G]]
//
// Through convert-shard-to-mpi: the rank from MPI, one MPI all-reduce,
// nothing left of the shard collectives.
// TPMPI: mpi.comm_rank
// TPMPI: mpi.allreduce
// TPMPI-NOT: mpi.allreduce
// TPMPI-NOT: shard.all
//
// Ops MLIR's sharding has no interface for (a reshape) are an error naming
// the op.
// RESHAPE: shard_reshape.mlir:{{[0-9]+}}:{{[0-9]+}}: error: 'tensor.expand_shape' op sharding interface is not implemented.
#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d1)>
func.func @mlp(%x: tensor<4x6xf32> {onnx.name = "x"}) -> (tensor<4x2xf32> {onnx.name = "y"}) {
  %zero = arith.constant 0.0 : f32
  %w1 = arith.constant dense<[[1.0, 2.0, 3.0, 4.0], [1.0, 2.0, 3.0, 4.0], [1.0, 2.0, 3.0, 4.0], [1.0, 2.0, 3.0, 4.0], [1.0, 2.0, 3.0, 4.0], [1.0, 2.0, 3.0, 4.0]]> : tensor<6x4xf32>
  %b1 = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %w2 = arith.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0]]> : tensor<4x2xf32>
  %e = tensor.empty() : tensor<4x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  %h = linalg.matmul ins(%x, %w1 : tensor<4x6xf32>, tensor<6x4xf32>) outs(%f : tensor<4x4xf32>) -> tensor<4x4xf32>
  %hb = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%h, %b1 : tensor<4x4xf32>, tensor<4xf32>) outs(%e : tensor<4x4xf32>) {
  ^bb0(%in: f32, %b: f32, %out: f32):
    %s = arith.addf %in, %b : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  } -> tensor<4x4xf32>
  %e2 = tensor.empty() : tensor<4x2xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<4x2xf32>) -> tensor<4x2xf32>
  %y = linalg.matmul ins(%hb, %w2 : tensor<4x4xf32>, tensor<4x2xf32>) outs(%f2 : tensor<4x2xf32>) -> tensor<4x2xf32>
  return %y : tensor<4x2xf32>
}
