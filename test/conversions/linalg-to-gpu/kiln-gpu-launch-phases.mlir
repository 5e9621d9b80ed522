// RUN: sed '/^\/\/ ERRORS/,/^\/\/ END-ERRORS/d' %s > %t.ok.mlir
// RUN: kiln-opt %t.ok.mlir \
// RUN:   --pass-pipeline='builtin.module(func.func(kiln-gpu-launch-phases))' \
// RUN:   | FileCheck %s
// RUN: sed -n '/^\/\/ ERRORS/,/^\/\/ END-ERRORS/p' %s > %t.errors.mlir
// RUN: kiln-opt %t.errors.mlir --split-input-file --verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(func.func(kiln-gpu-launch-phases))'
// A tiled matmul all the way to a kernel (canonicalization in between
// drops the one-block grid loop and hoists the allocas), its tiles loaded
// through registers (mma=none: no cp.async):
// RUN: kiln-opt %S/kiln-gpu-tile-contractions.mlir --split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(kiln-gpu-tile-contractions{mma=none}),canonicalize,func.func(kiln-gpu-launch-phases))' \
// RUN:   | FileCheck %s --check-prefix=TILED

// TILED-LABEL: func.func @matmul
// TILED-NOT: scf.parallel
// TILED: gpu.launch blocks({{.*}}) in ({{.*}} = %c1{{.*}}, {{.*}} = %c1{{.*}}, {{.*}} = %c1{{.*}}) threads({{.*}}) in ({{.*}} = %c256{{.*}}, {{.*}} = %c1{{.*}}, {{.*}} = %c1{{.*}}) workgroup(%[[AS:.*]] : memref<2x64x16xf32, #gpu.address_space<workgroup>>, %[[BS:.*]] : memref<2x16x64xf32, #gpu.address_space<workgroup>>)
// TILED: %[[ACC:.*]] = memref.alloca() : memref<4x4xf32>
// TILED: memref.store %{{.*}}, %[[AS]]
// TILED: memref.store %{{.*}}, %[[BS]]
// TILED: gpu.barrier
// TILED: scf.for
// TILED-NOT: gpu.barrier
// TILED: memref.load %[[AS]]
// TILED: memref.store %{{.*}}, %[[ACC]]
// TILED: memref.store %{{.*}}, %[[AS]]
// TILED: memref.store %{{.*}}, %[[BS]]
// TILED: gpu.barrier
// TILED-NEXT: }
// TILED: memref.load %[[ACC]]
// TILED-NOT: gpu.barrier
// TILED: gpu.terminator
// TILED-NOT: execute_region
// TILED-LABEL: func.func @batch
// TILED: gpu.launch blocks({{.*}}) in ({{.*}} = %c3{{.*}}, {{.*}} = %c1{{.*}}, {{.*}} = %c1{{.*}})

// Phases by hand: a 2 x 3 grid (x = the inner dim), 64 threads; a phase
// over 32 threads is guarded; only phases touching the shared buffer are
// followed by a barrier; the private buffer loses its thread index.
// CHECK-LABEL: func.func @phases
// CHECK: gpu.launch blocks(%[[BX:.*]], %[[BY:.*]], %{{.*}}) in (%{{.*}} = %c3{{.*}}, %{{.*}} = %c2{{.*}}, %{{.*}} = %c1{{.*}}) threads(%[[TX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %c64{{.*}}, %{{.*}} = %c1{{.*}}, %{{.*}} = %c1{{.*}}) workgroup(%[[SH:.*]] : memref<64xf32, #gpu.address_space<workgroup>>)
// CHECK: %[[P:.*]] = memref.alloca() : memref<2xf32>
// CHECK: memref.store %{{.*}}, %[[SH]][%[[TX]]]
// CHECK-NEXT: gpu.barrier
// CHECK: %[[IN:.*]] = arith.cmpi ult, %[[TX]], %c32
// CHECK: scf.if %[[IN]]
// CHECK: memref.load %[[SH]]
// CHECK: memref.store %{{.*}}, %[[P]][%c1{{.*}}]
// CHECK: gpu.barrier
// CHECK: memref.load %[[P]][%c1{{.*}}]
// CHECK: memref.store %{{.*}}, %arg0[%[[BY]], %[[BX]], %[[TX]]]
// CHECK-NOT: gpu.barrier
// CHECK: gpu.terminator
func.func @phases(%out: memref<2x3x64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %one = arith.constant 1.0 : f32
  scf.execute_region no_inline {
    %sh = memref.alloca() {kiln.gpu.shared} : memref<64xf32>
    %p = memref.alloca() {kiln.gpu.private} : memref<64x2xf32>
    scf.parallel (%y, %x) = (%c0, %c0) to (%c2, %c3) step (%c1, %c1) {
      scf.parallel (%t) = (%c0) to (%c64) step (%c1) {
        memref.store %one, %sh[%t] : memref<64xf32>
        scf.reduce
      }
      scf.parallel (%t) = (%c0) to (%c32) step (%c1) {
        %v = memref.load %sh[%t] : memref<64xf32>
        memref.store %v, %p[%t, %c1] : memref<64x2xf32>
        scf.reduce
      }
      scf.parallel (%t) = (%c0) to (%c64) step (%c1) {
        %v = memref.load %p[%t, %c1] : memref<64x2xf32>
        memref.store %v, %out[%y, %x, %t] : memref<2x3x64xf32>
        scf.reduce
      }
      scf.reduce
    }
    scf.yield
  } {kiln.gpu.block_size = 64 : i64}
  return
}

// Block-level code (a one-thread phase canonicalization inlined, as a
// block reduction's final combine): the block runs it once, so its store
// runs in thread 0 only; its loads of shared memory stay after the barrier.
// CHECK-LABEL: func.func @block_level
// CHECK: gpu.launch
// CHECK: memref.store %{{.*}}, %[[SH2:.*]][%[[T2:[a-z_0-9]+]]]
// CHECK-NEXT: gpu.barrier
// CHECK: %[[V:.*]] = memref.load %[[SH2]][%c0
// CHECK: %[[Z:.*]] = arith.cmpi ult, %[[T2]], %c1
// CHECK-NEXT: scf.if %[[Z]] {
// CHECK-NEXT: memref.store %[[V]], %arg0[
// CHECK-NEXT: }
// CHECK: gpu.terminator
func.func @block_level(%out: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %one = arith.constant 1.0 : f32
  scf.execute_region no_inline {
    %sh = memref.alloca() {kiln.gpu.shared} : memref<64xf32>
    scf.parallel (%b) = (%c0) to (%c4) step (%c1) {
      scf.parallel (%t) = (%c0) to (%c64) step (%c1) {
        memref.store %one, %sh[%t] : memref<64xf32>
        scf.reduce
      }
      %v = memref.load %sh[%c0] : memref<64xf32>
      memref.store %v, %out[%b] : memref<4xf32>
      scf.reduce
    }
    scf.yield
  } {kiln.gpu.block_size = 64 : i64}
  return
}

// ERRORS
func.func @too_many_threads(%out: memref<128xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  %one = arith.constant 1.0 : f32
  // expected-error@+1 {{kiln-gpu-launch-phases: the region is not in phases form}}
  scf.execute_region no_inline {
    scf.parallel (%t) = (%c0) to (%c128) step (%c1) {
      memref.store %one, %out[%t] : memref<128xf32>
      scf.reduce
    }
    scf.yield
  } {kiln.gpu.block_size = 64 : i64}
  return
}

// -----

func.func @bad_block_size() {
  // expected-error@+1 {{kiln-gpu-launch-phases: kiln.gpu.block_size must be an integer in [1, 1024]}}
  scf.execute_region no_inline {
    scf.yield
  } {kiln.gpu.block_size = 2048 : i64}
  return
}

// -----

// A grid beyond CUDA's 65535 blocks in y (the second-innermost grid dim).
func.func @grid_too_big(%out: memref<70000x2x64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %c70000 = arith.constant 70000 : index
  %one = arith.constant 1.0 : f32
  // expected-error@+1 {{kiln-gpu-launch-phases: a grid of 2 x 70000 x 1 blocks exceeds CUDA's limits (2^31-1 x 65535 x 65535)}}
  scf.execute_region no_inline {
    scf.parallel (%y, %x) = (%c0, %c0) to (%c70000, %c2) step (%c1, %c1) {
      scf.parallel (%t) = (%c0) to (%c64) step (%c1) {
        memref.store %one, %out[%y, %x, %t] : memref<70000x2x64xf32>
        scf.reduce
      }
      scf.reduce
    }
    scf.yield
  } {kiln.gpu.block_size = 64 : i64}
  return
}
// END-ERRORS
