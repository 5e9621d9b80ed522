// RUN: kiln-opt %s --split-input-file --pass-pipeline='builtin.module(kiln-mpi-world-grid)' | FileCheck %s

// A split of the world by a constant color (convert-shard-to-mpi's, for a
// 1-D grid of every process): its uses take the world communicator.
// CHECK-LABEL: func.func @split_world
// CHECK: %[[W:.*]] = mpi.comm_world : !mpi.comm
// CHECK-NOT: mpi.comm_split
// CHECK: mpi.allreduce(%arg0, %arg0, MPI_SUM, %[[W]])
func.func @split_world(%buf: memref<8xf32>, %key: i32) {
  %c0 = arith.constant 0 : i32
  %w = mpi.comm_world : !mpi.comm
  %c = mpi.comm_split(%w, %c0, %key) : !mpi.comm
  mpi.allreduce(%buf, %buf, MPI_SUM, %c) : memref<8xf32>, memref<8xf32>
  return
}

// -----

// A color that is not a constant, or a split of another communicator, is
// left alone; so is a split whose error code is used.
// CHECK-LABEL: func.func @kept
// CHECK-COUNT-3: mpi.comm_split
func.func @kept(%buf: memref<8xf32>, %key: i32, %color: i32) -> !mpi.retval {
  %c0 = arith.constant 0 : i32
  %w = mpi.comm_world : !mpi.comm
  %a = mpi.comm_split(%w, %color, %key) : !mpi.comm
  %b = mpi.comm_split(%a, %c0, %key) : !mpi.comm
  %err, %c = mpi.comm_split(%w, %c0, %key) : !mpi.retval, !mpi.comm
  mpi.allreduce(%buf, %buf, MPI_SUM, %b) : memref<8xf32>, memref<8xf32>
  mpi.allreduce(%buf, %buf, MPI_SUM, %c) : memref<8xf32>, memref<8xf32>
  return %err : !mpi.retval
}
