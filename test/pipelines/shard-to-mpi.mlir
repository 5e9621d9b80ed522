// MLIR 22's scale-out path runs through Kiln's pass registry (kiln-opt, the
// session's pipelines): sharding-propagation and shard-partition make the
// SPMD program of a matmul whose contracted dim is split over a 2-process
// grid (a partial product per process, then an all-reduce),
// convert-shard-to-mpi turns the collectives into mpi ops, and the LLVM
// lowering (the mpi dialect's convert-to-llvm interface) into calls to
// Open MPI's C ABI, chosen by the module's DLTI entry naming the MPI
// implementation
// (docs/mlir22-notes.md, "Scale-out"). sharding-propagation and
// shard-partition run on functions, not modules.
// RUN: kiln-opt %s --pass-pipeline='builtin.module(func.func(sharding-propagation,shard-partition),canonicalize)' | FileCheck %s --check-prefix=SPMD
// RUN: kiln-opt %s --pass-pipeline='builtin.module(func.func(sharding-propagation,shard-partition),canonicalize,convert-shard-to-mpi,canonicalize)' | FileCheck %s --check-prefix=MPIOPS
// RUN: kiln-opt %s --pass-pipeline='builtin.module(func.func(sharding-propagation,shard-partition),canonicalize,convert-shard-to-mpi,canonicalize,one-shot-bufferize{bufferize-function-boundaries},convert-linalg-to-loops,expand-strided-metadata,lower-affine,convert-scf-to-cf,finalize-memref-to-llvm,convert-to-llvm,reconcile-unrealized-casts)' | FileCheck %s --check-prefix=LLVM
// RUN: not kiln-opt %s --pass-pipeline='builtin.module(shard-partition)' 2>&1 | FileCheck %s --check-prefix=ANCHOR

// SPMD: func.func @f(%arg0: tensor<2x4xf32>, %arg1: tensor<4x4xf32>) -> tensor<2x4xf32>
// SPMD: linalg.matmul ins(%arg0, %arg1 : tensor<2x4xf32>, tensor<4x4xf32>)
// SPMD: shard.all_reduce {{.*}} on @grid grid_axes = [0] : tensor<2x4xf32> -> tensor<2x4xf32>

// MPIOPS: mpi.comm_rank
// MPIOPS: mpi.allreduce({{.*}}, MPI_SUM, {{.*}}) : memref<8xf32>, memref<8xf32>
// MPIOPS-NOT: shard.all_reduce

// LLVM-DAG: llvm.call @MPI_Allreduce
// LLVM-DAG: llvm.mlir.addressof @ompi_mpi_sum
// LLVM-DAG: llvm.mlir.addressof @ompi_mpi_float
// LLVM-NOT: mpi.

// ANCHOR: error: unable to schedule pass 'Partition' on a PassManager intended to run on 'builtin.module'

module attributes {dlti.map = #dlti.map<"MPI:Implementation" = "OpenMPI">} {
  shard.grid @grid(shape = 2)
  func.func @f(%a: tensor<2x8xf32>, %b: tensor<8x4xf32>) -> tensor<2x4xf32> {
    %sa = shard.sharding @grid split_axes = [[], [0]] : !shard.sharding
    %sb = shard.sharding @grid split_axes = [[0]] : !shard.sharding
    %sr = shard.sharding @grid split_axes = [[]] : !shard.sharding
    %a1 = shard.shard %a to %sa : tensor<2x8xf32>
    %b1 = shard.shard %b to %sb : tensor<8x4xf32>
    %z = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<2x4xf32>
    %f = linalg.fill ins(%z : f32) outs(%e : tensor<2x4xf32>) -> tensor<2x4xf32>
    %m = linalg.matmul ins(%a1, %b1 : tensor<2x8xf32>, tensor<8x4xf32>) outs(%f : tensor<2x4xf32>) -> tensor<2x4xf32>
    %r = shard.shard %m to %sr : tensor<2x4xf32>
    return %r : tensor<2x4xf32>
  }
}
