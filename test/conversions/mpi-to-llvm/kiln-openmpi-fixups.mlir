// RUN: kiln-opt %s --split-input-file --pass-pipeline='builtin.module(kiln-openmpi-fixups)' | FileCheck %s

// MLIR 22's Open MPI lowering (docs/mlir22-notes.md, "Scale-out") names
// the reduction op `ompi_mpi_sum` (libmpi: `ompi_mpi_op_sum`) and loads
// the split communicator as an i32 (a pointer in Open MPI): both mended.
// CHECK-LABEL: module attributes
// CHECK: llvm.mlir.global external @ompi_mpi_op_sum()
// CHECK-NOT: @ompi_mpi_sum
// CHECK: llvm.call @MPI_Comm_split
// CHECK-NEXT: %[[C:.*]] = llvm.load %{{.*}} : !llvm.ptr -> i64
// CHECK-NOT: llvm.sext
// CHECK: llvm.mlir.addressof @ompi_mpi_op_sum
// CHECK: llvm.inttoptr %[[C]]
module attributes {dlti.map = #dlti.map<"MPI:Implementation" = "OpenMPI">} {
  llvm.mlir.global external @ompi_mpi_sum() {addr_space = 0 : i32} : !llvm.struct<"ompi_predefined_op_t", opaque>
  llvm.func @MPI_Comm_split(!llvm.ptr, i32, i32, !llvm.ptr) -> i32
  llvm.func @f(%world: !llvm.ptr, %key: i32) -> !llvm.ptr {
    %c0 = llvm.mlir.constant(0 : i32) : i32
    %one = llvm.mlir.constant(1 : i32) : i32
    %out = llvm.alloca %one x !llvm.ptr : (i32) -> !llvm.ptr
    %r = llvm.call @MPI_Comm_split(%world, %c0, %key, %out) : (!llvm.ptr, i32, i32, !llvm.ptr) -> i32
    %c = llvm.load %out : !llvm.ptr -> i32
    %w = llvm.sext %c : i32 to i64
    %op = llvm.mlir.addressof @ompi_mpi_sum : !llvm.ptr
    %p = llvm.inttoptr %w : i64 to !llvm.ptr
    llvm.return %p : !llvm.ptr
  }
}

// -----

// Without the Open MPI entry (MPICH's ABI), nothing changes.
// CHECK-LABEL: module
// CHECK: @ompi_mpi_sum
// CHECK: llvm.sext
module {
  llvm.mlir.global external @ompi_mpi_sum() {addr_space = 0 : i32} : !llvm.struct<"ompi_predefined_op_t", opaque>
  llvm.func @MPI_Comm_split(!llvm.ptr, i32, i32, !llvm.ptr) -> i32
  llvm.func @f(%world: !llvm.ptr, %key: i32) -> i64 {
    %c0 = llvm.mlir.constant(0 : i32) : i32
    %one = llvm.mlir.constant(1 : i32) : i32
    %out = llvm.alloca %one x !llvm.ptr : (i32) -> !llvm.ptr
    %r = llvm.call @MPI_Comm_split(%world, %c0, %key, %out) : (!llvm.ptr, i32, i32, !llvm.ptr) -> i32
    %c = llvm.load %out : !llvm.ptr -> i32
    %w = llvm.sext %c : i32 to i64
    llvm.return %w : i64
  }
}
