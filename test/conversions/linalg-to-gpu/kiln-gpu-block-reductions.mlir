// RUN: sed '/^\/\/ BAD-OPTION/,/^\/\/ END-BAD-OPTION/d' %s > %t.ok.mlir
// RUN: kiln-opt %t.ok.mlir --split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(kiln-gpu-block-reductions))' \
// RUN:   | FileCheck %s
// RUN: kiln-opt %t.ok.mlir --split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(kiln-gpu-block-reductions{enable=false}))' \
// RUN:   | FileCheck %s --check-prefix=OFF
// RUN: kiln-opt %t.ok.mlir --split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(kiln-gpu-block-reductions{min-extent=2000}))' \
// RUN:   | FileCheck %s --check-prefix=MIN
// RUN: kiln-opt %t.ok.mlir --split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(kiln-gpu-block-reductions),canonicalize,func.func(kiln-gpu-launch-phases))' \
// RUN:   | FileCheck %s --check-prefix=LAUNCH
// RUN: kiln-opt %t.ok.mlir --split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(kiln-gpu-block-reductions{warps=false}))' \
// RUN:   | FileCheck %s --check-prefix=NOWARP
// RUN: kiln-opt %t.ok.mlir --split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(kiln-gpu-block-reductions{shuffles=false}))' \
// RUN:   | FileCheck %s --check-prefix=TREE
// RUN: kiln-opt %t.ok.mlir --split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(kiln-gpu-block-reductions{threads=16}))' \
// RUN:   | FileCheck %s --check-prefix=SMALL
// RUN: sed -n '/^\/\/ BAD-OPTION/,/^\/\/ END-BAD-OPTION/p' %s > %t.bad.mlir
// RUN: kiln-opt %t.bad.mlir --verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(func.func(kiln-gpu-block-reductions{min-extent=0}))'
// RUN: not kiln-opt %t.ok.mlir --split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(kiln-gpu-block-reductions{threads=100}))' \
// RUN:   2>&1 | FileCheck %s --check-prefix=THREADS
// THREADS: kiln-gpu-block-reductions: threads=100: must be a power of two

// A row sum over 1000: one block per row (4), 256 threads (8 warps), each
// summing a strided slice from -0; each warp's partials combined by a
// butterfly of shuffles, lane 0 storing the warp's sum to a shared buffer
// of 8; after the one barrier, thread 0 adds the 8 in order to the
// output's initial content. With shuffles=false (the CPU) each butterfly
// is a tree through a buffer of 256 (5 phases, lane < 16 .. 1 taking lane
// + half's), the warps' sums then at 32 w.
// CHECK-LABEL: func.func @sum
// CHECK: %[[ID:.*]] = arith.constant -0.000000e+00 : f32
// CHECK: scf.execute_region no_inline
// CHECK: %[[SH:.*]] = memref.alloca() {kiln.gpu.shared} : memref<8xf32>
// CHECK: scf.parallel (%[[B:.*]]) = (%{{.*}}) to (%c4)
// CHECK: scf.parallel (%[[T:.*]]) = (%{{.*}}) to (%c256)
// CHECK: %[[P:.*]] = scf.for %[[R:.*]] = %[[T]] to %c1000 step %c256 iter_args(%[[A:.*]] = %[[ID]])
// CHECK: %[[X:.*]] = memref.load %arg0[%[[B]], %[[R]]]
// CHECK: arith.addf %[[A]], %[[X]]
// CHECK: gpu.shuffle xor %[[P]], %{{.*}}, %{{.*}} : f32
// CHECK-COUNT-4: gpu.shuffle xor
// CHECK: %[[L:.*]] = arith.remui %[[T]], %c32
// CHECK: %[[W:.*]] = arith.divui %[[T]], %c32
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %[[L]], %c0
// CHECK: scf.if %[[FIRST]]
// CHECK: memref.store %{{.*}}, %[[SH]][%[[W]]]
// CHECK: scf.parallel (%{{.*}}) = (%{{.*}}) to (%c1{{.*}})
// CHECK: %[[S0:.*]] = memref.load %[[SH]][%c0{{.*}}]
// CHECK: %[[S1:.*]] = memref.load %[[SH]][%c1{{.*}}]
// CHECK: arith.addf %[[S0]], %[[S1]]
// CHECK-COUNT-6: memref.load %[[SH]]
// CHECK: %[[O:.*]] = memref.load %arg1[%[[B]]]
// CHECK: %[[N:.*]] = arith.addf %[[O]], %{{.*}}
// CHECK: memref.store %[[N]], %arg1[%[[B]]]
// CHECK: kiln.gpu.block_size = 256
// CHECK-NOT: linalg.generic
// TREE-LABEL: func.func @sum
// TREE: %[[SH:.*]] = memref.alloca() {kiln.gpu.shared} : memref<256xf32>
// TREE-NOT: gpu.shuffle
// TREE-COUNT-6: scf.parallel (%{{.*}}) = (%{{.*}}) to (%c256)
// TREE: scf.parallel (%{{.*}}) = (%{{.*}}) to (%c1{{.*}})
// TREE: memref.load %[[SH]][%c0{{.*}}]
// TREE: memref.load %[[SH]][%c32{{.*}}]
// TREE: memref.load %[[SH]][%c224{{.*}}]
// TREE: kiln.gpu.block_size = 256
// With threads=16 the block is one warp of 16 lanes: a butterfly of 4
// shuffles of width 16, lane 0's sum in a buffer of 1.
// SMALL-LABEL: func.func @sum
// SMALL: memref.alloca() {kiln.gpu.shared} : memref<1xf32>
// SMALL-COUNT-4: gpu.shuffle xor %{{.*}}, %{{.*}}, %c16_i32
// SMALL-NOT: gpu.shuffle
// SMALL: kiln.gpu.block_size = 16
// OFF-LABEL: func.func @sum
// OFF: linalg.generic
// MIN-LABEL: func.func @sum
// MIN: linalg.generic
// LAUNCH-LABEL: func.func @sum
// LAUNCH: gpu.launch
// LAUNCH-SAME: workgroup(%[[WG:.*]] : memref<8xf32, #gpu.address_space<workgroup>>)
// LAUNCH: scf.for
// LAUNCH: gpu.shuffle xor
// LAUNCH: memref.store %{{.*}}, %[[WG]][%{{.*}}]
// LAUNCH-NEXT: }
// LAUNCH-NEXT: gpu.barrier
// LAUNCH-NOT: gpu.barrier
// LAUNCH: scf.if
// LAUNCH: gpu.terminator
func.func @sum(%x: memref<4x1000xf32>, %y: memref<4xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : memref<4x1000xf32>) outs(%y : memref<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %out, %in : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A max over the middle dim (300: 256 threads) of 5x300x7, the output
// kept as 5x1x7: 35 blocks, block b reading x[b / 7, r, b % 7]; -inf is
// the identity.
// CHECK-LABEL: func.func @max_middle
// CHECK: %[[ID:.*]] = arith.constant 0xFF800000 : f32
// CHECK: scf.parallel (%[[B:.*]]) = (%{{.*}}) to (%c35)
// CHECK: %[[I0:.*]] = arith.divui %[[B]], %c7
// CHECK: %[[I2:.*]] = arith.remui %[[B]], %c7
// CHECK: scf.for %[[R:.*]] = %{{.*}} to %c300 step %c256 iter_args(%[[A:.*]] = %[[ID]])
// CHECK: %[[X:.*]] = memref.load %arg0[%[[I0]], %[[R]], %[[I2]]]
// CHECK: arith.maximumf %[[A]], %[[X]]
// CHECK: arith.maximumf
// CHECK: memref.load %arg1[%[[I0]], %c0{{.*}}, %[[I2]]]
// CHECK: arith.maximumf
// CHECK: memref.store %{{.*}}, %arg1[%[[I0]], %c0{{.*}}, %[[I2]]]
func.func @max_middle(%x: memref<5x300x7xf32>, %y: memref<5x1x7xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, 0, d2)>], iterator_types = ["parallel", "reduction", "parallel"]} ins(%x : memref<5x300x7xf32>) outs(%y : memref<5x1x7xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %out, %in : f32
    linalg.yield %m : f32
  }
  return
}

// -----

// A fill of the output right before: its value is the initial value thread
// 0 combines with (no fill, no load of the output).
// CHECK-LABEL: func.func @fill_folded
// CHECK-NOT: linalg.fill
// CHECK: %[[NEG:.*]] = arith.constant -3.000000e+00 : f32
// CHECK: %[[ID:.*]] = arith.constant 0xFF800000 : f32
// CHECK: scf.parallel (%{{.*}}) = (%{{.*}}) to (%c1{{.*}})
// CHECK-NOT: memref.load %arg1
// CHECK: memref.load %{{.*}}[%c1{{.*}}] : memref<2xf32>
// CHECK-NEXT: %[[S:.*]] = arith.maximumf
// CHECK-NOT: memref.load %arg1
// CHECK: %[[I:.*]] = arith.maximumf %[[NEG]], %[[ID]]
// CHECK: %[[N:.*]] = arith.maximumf %[[I]], %[[S]]
// CHECK: memref.store %[[N]], %arg1[]
// CHECK-NOT: linalg
func.func @fill_folded(%x: memref<100xf32>, %y: memref<f32>) {
  %neg = arith.constant -3.0 : f32
  linalg.fill ins(%neg : f32) outs(%y : memref<f32>)
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"]} ins(%x : memref<100xf32>) outs(%y : memref<f32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %out, %in : f32
    linalg.yield %m : f32
  }
  return
}

// -----

// Softmax's sum: the elementwise part exp(x - max) applied per element in
// the partial phase; a full reduction over 3 dims (one block, 64 threads
// for 96 elements: the rows delinearized from the linear index).
// CHECK-LABEL: func.func @softmax_sum
// CHECK: scf.for %[[R:.*]] = %{{.*}} to %c1000 step %c256
// CHECK: %[[X:.*]] = memref.load %arg0[%{{.*}}, %[[R]]]
// CHECK: %[[M:.*]] = memref.load %arg1[%{{.*}}]
// CHECK: %[[D:.*]] = arith.subf %[[X]], %[[M]]
// CHECK: %[[E:.*]] = math.exp %[[D]]
// CHECK: arith.addf %{{.*}}, %[[E]]
// CHECK-NOT: linalg.generic
// CHECK-LABEL: func.func @full
// CHECK: scf.parallel (%{{.*}}) = (%{{.*}}) to (%c1{{.*}})
// CHECK: scf.parallel (%{{.*}}) = (%{{.*}}) to (%c64)
// CHECK: scf.for %[[R:.*]] = %{{.*}} to %c96 step %c64
// CHECK: %[[R0:.*]] = arith.divui %[[R]], %c24
// CHECK: %[[R1D:.*]] = arith.divui %[[R]], %c8
// CHECK: %[[R1:.*]] = arith.remui %[[R1D]], %c3
// CHECK: %[[R2:.*]] = arith.remui %[[R]], %c8
// CHECK: memref.load %arg0[%[[R0]], %[[R1]], %[[R2]]]
// CHECK: memref.load %arg1[]
// CHECK: kiln.gpu.block_size = 64
func.func @softmax_sum(%x: memref<2x1000xf32>, %m: memref<2xf32>, %y: memref<2xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x, %m : memref<2x1000xf32>, memref<2xf32>) outs(%y : memref<2xf32>) {
  ^bb0(%in: f32, %in_1: f32, %out: f32):
    %7 = arith.subf %in, %in_1 : f32
    %8 = math.exp %7 : f32
    %9 = arith.addf %out, %8 : f32
    linalg.yield %9 : f32
  }
  return
}
func.func @full(%x: memref<4x3x8xf32>, %y: memref<f32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> ()>], iterator_types = ["reduction", "reduction", "reduction"]} ins(%x : memref<4x3x8xf32>) outs(%y : memref<f32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %out : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Left alone: a dynamic shape, a short extent with warps=false (49 < 64),
// a body that does not split (the output scaled: out * 2 + x), a product
// (a contraction), and a wide innermost output dim (a sum over rows of
// 64 x 128: the one-output-per-thread loop reads it coalesced).
// CHECK-LABEL: func.func @negative_dynamic
// CHECK: linalg.generic
// CHECK-LABEL: func.func @negative_short
// CHECK-NOT: linalg.generic
// NOWARP-LABEL: func.func @negative_short
// NOWARP: linalg.generic
// CHECK-LABEL: func.func @negative_body
// CHECK: linalg.generic
// CHECK-LABEL: func.func @negative_contraction
// CHECK: linalg.generic
// CHECK-LABEL: func.func @negative_wide_output
// CHECK: linalg.generic
func.func @negative_dynamic(%x: memref<?x1000xf32>, %y: memref<?xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : memref<?x1000xf32>) outs(%y : memref<?xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %out, %in : f32
    linalg.yield %s : f32
  }
  return
}
func.func @negative_short(%x: memref<1x512x7x7xf32>, %y: memref<1x512xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%x : memref<1x512x7x7xf32>) outs(%y : memref<1x512xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %out, %in : f32
    linalg.yield %s : f32
  }
  return
}
func.func @negative_body(%x: memref<4x1000xf32>, %y: memref<4xf32>) {
  %c2 = arith.constant 2.0 : f32
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : memref<4x1000xf32>) outs(%y : memref<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %d = arith.mulf %out, %c2 : f32
    %s = arith.addf %d, %in : f32
    linalg.yield %s : f32
  }
  return
}
func.func @negative_contraction(%a: memref<4x256xf32>, %b: memref<256x4xf32>, %c: memref<4x4xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : memref<4x256xf32>, memref<256x4xf32>) outs(%c : memref<4x4xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}
func.func @negative_wide_output(%x: memref<64x128xf32>, %y: memref<128xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>], iterator_types = ["reduction", "parallel"]} ins(%x : memref<64x128xf32>) outs(%y : memref<128xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %out, %in : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Short extents: warp-level reductions. A sum over 49 per output (a
// global average pool over 7 x 7) of 6 outputs: 32 lanes per output, 8
// outputs per 256-thread block (one block; outputs 6 and 7 absent: their
// lanes start from the identity and store nothing). Each lane sums a
// strided slice, a butterfly of gpu.shuffle xor 16, 8, 4, 2, 1 (width 32)
// combines the lanes, lane 0 stores. With shuffles=false (the CPU) the
// same pairs go through shared memory: lane l < 16 takes l + 16, ... The
// division by 49 after it is applied in the store (the consumer and the
// temporary sum buffer are gone).
// CHECK-LABEL: func.func @warp_mean
// CHECK-NOT: memref.alloca()
// CHECK: scf.parallel (%[[T:.*]]) = (%{{.*}}) to (%c256)
// CHECK: %[[O:.*]] = arith.addi %{{.*}}, %{{.*}} : index
// CHECK: %[[L:.*]] = arith.remui %[[T]], %c32
// CHECK: %[[V:.*]] = arith.cmpi ult, %[[O]], %c6
// CHECK: scf.if %[[V]] -> (f32)
// CHECK: scf.for %{{.*}} = %[[L]] to %c49 step %c32
// CHECK-COUNT-5: gpu.shuffle xor
// CHECK: arith.cmpi eq, %[[L]], %c0
// CHECK: scf.if
// CHECK: arith.divf %{{.*}}, %cst
// CHECK: memref.store %{{.*}}, %arg1
// CHECK: kiln.gpu.block_size = 256
// CHECK-NOT: linalg.generic
// CHECK-NOT: memref.alloc()
// TREE-LABEL: func.func @warp_mean
// TREE: memref.alloca() {kiln.gpu.shared} : memref<256xf32>
// TREE-NOT: gpu.shuffle
// TREE-COUNT-7: scf.parallel (%{{.*}}) = (%{{.*}}) to (%c256)
// TREE: arith.divf
// NOWARP-LABEL: func.func @warp_mean
// NOWARP: linalg.generic
func.func @warp_mean(%x: memref<6x49xf32>, %y: memref<6xf32>) {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 49.0 : f32
  %s = memref.alloc() : memref<6xf32>
  linalg.fill ins(%zero : f32) outs(%s : memref<6xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : memref<6x49xf32>) outs(%s : memref<6xf32>) {
  ^bb0(%in: f32, %out: f32):
    %a = arith.addf %out, %in : f32
    linalg.yield %a : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%s : memref<6xf32>) outs(%y : memref<6xf32>) {
  ^bb0(%in: f32, %out: f32):
    %d = arith.divf %in, %n : f32
    linalg.yield %d : f32
  }
  memref.dealloc %s : memref<6xf32>
  return
}

// A max over 5 per output, 100 outputs: 4 lanes per output (64 outputs a
// block, 2 blocks), butterflies xor 2 and 1 of width 4. Its consumer is
// not fused: the max goes to the function's output %y, which must keep it.
// CHECK-LABEL: func.func @warp_max
// CHECK: scf.parallel (%{{.*}}) = (%{{.*}}) to (%c2)
// CHECK: arith.remui %{{.*}}, %c4
// CHECK: gpu.shuffle xor %{{.*}}, %{{.*}}, %{{.*}} : f32
// CHECK: gpu.shuffle xor
// CHECK-NOT: gpu.shuffle
// CHECK: kiln.gpu.block_size = 256
// CHECK: linalg.generic
// CHECK: arith.negf
func.func @warp_max(%x: memref<100x5xf32>, %y: memref<100xf32>, %z: memref<100xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : memref<100x5xf32>) outs(%y : memref<100xf32>) {
  ^bb0(%in: f32, %out: f32):
    %a = arith.maximumf %out, %in : f32
    linalg.yield %a : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%y : memref<100xf32>) outs(%z : memref<100xf32>) {
  ^bb0(%in: f32, %out: f32):
    %d = arith.negf %in : f32
    linalg.yield %d : f32
  }
  return
}

// -----

// A sum of bf16 values accumulated in f32 (what --precision leaves before
// a mean): the loads are bf16 and the body widens them.
// CHECK-LABEL: func.func @bf16_input
// CHECK: memref.load %arg0[{{.*}}] : memref<8x100xbf16>
// CHECK: arith.extf %{{.*}} : bf16 to f32
// CHECK: kiln.gpu.block_size = 64
// CHECK-NOT: linalg.generic
func.func @bf16_input(%x: memref<8x100xbf16>, %y: memref<8xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : memref<8x100xbf16>) outs(%y : memref<8xf32>) {
  ^bb0(%in: bf16, %out: f32):
    %e = arith.extf %in : bf16 to f32
    %a = arith.addf %out, %e : f32
    linalg.yield %a : f32
  }
  return
}

// -----

// Softmax's normalization, exp(x - max) / sum, reads the sum broadcast
// over the reduced dim: the sum's kernel applies it once the sums are
// complete, a phase in which each block's threads write their row's
// elements (r = t, t + 256, ...), reading the sum thread 0 stored. The
// allocation of its output moves before the kernel; the consumer is gone.
// CHECK-LABEL: func.func @softmax_normalized
// CHECK: %[[Y:.*]] = memref.alloc() : memref<4x300xf32>
// CHECK: scf.execute_region no_inline
// CHECK: scf.parallel (%[[B:.*]]) = (%{{.*}}) to (%c4)
// CHECK: math.exp
// CHECK: gpu.shuffle xor
// CHECK: memref.store %{{.*}}, %arg2[%[[B]]]
// CHECK: scf.parallel (%[[T:.*]]) = (%{{.*}}) to (%c256)
// CHECK: scf.for %[[R:.*]] = %[[T]] to %c300 step %c256
// CHECK-DAG: %[[X:.*]] = memref.load %arg0[%[[B]], %[[R]]]
// CHECK-DAG: %[[M:.*]] = memref.load %arg1[%[[B]]]
// CHECK-DAG: %[[S:.*]] = memref.load %arg2[%[[B]]]
// CHECK: %[[D:.*]] = arith.subf %[[X]], %[[M]]
// CHECK: %[[E:.*]] = math.exp %[[D]]
// CHECK: %[[Q:.*]] = arith.divf %[[E]], %[[S]]
// CHECK: memref.store %[[Q]], %[[Y]][%[[B]], %[[R]]]
// CHECK: kiln.gpu.block_size = 256
// CHECK-NOT: linalg.generic
// CHECK: return %[[Y]]
// TREE-LABEL: func.func @softmax_normalized
// TREE: scf.for %{{.*}} = %{{.*}} to %c300 step %c256
// TREE: arith.divf
// TREE-NOT: linalg.generic
// TREE: return
#row = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d0)>
func.func @softmax_normalized(%x: memref<4x300xf32>, %max: memref<4xf32>, %sum: memref<4xf32>) -> memref<4x300xf32> {
  linalg.generic {indexing_maps = [#row, #col, #col], iterator_types = ["parallel", "reduction"]} ins(%x, %max : memref<4x300xf32>, memref<4xf32>) outs(%sum : memref<4xf32>) {
  ^bb0(%in: f32, %m: f32, %out: f32):
    %d = arith.subf %in, %m : f32
    %e = math.exp %d : f32
    %a = arith.addf %out, %e : f32
    linalg.yield %a : f32
  }
  %y = memref.alloc() : memref<4x300xf32>
  linalg.generic {indexing_maps = [#row, #col, #col, #row], iterator_types = ["parallel", "parallel"]} ins(%x, %max, %sum : memref<4x300xf32>, memref<4xf32>, memref<4xf32>) outs(%y : memref<4x300xf32>) {
  ^bb0(%in: f32, %m: f32, %s: f32, %out: f32):
    %d = arith.subf %in, %m : f32
    %e = math.exp %d : f32
    %q = arith.divf %e, %s : f32
    linalg.yield %q : f32
  }
  return %y : memref<4x300xf32>
}

// -----

// A short row (17: a warp reduction of 16 lanes, 16 outputs a block, the
// last block ragged) with a mean's scaling fused into its store and layer
// norm's centring reading the mean: the centring after the scaling, lanes
// r = lane, lane + 16, ... of each valid output, writing bf16.
// CHECK-LABEL: func.func @warp_centred
// CHECK: scf.parallel (%[[T:.*]]) = (%{{.*}}) to (%c256)
// CHECK: gpu.shuffle xor
// CHECK: arith.mulf
// CHECK: memref.store %{{.*}}, %arg1[
// CHECK: scf.parallel (%[[T2:.*]]) = (%{{.*}}) to (%c256)
// CHECK: %[[L:.*]] = arith.remui %[[T2]], %c16
// CHECK: %[[V:.*]] = arith.cmpi ult, %{{.*}}, %c20
// CHECK: scf.if %[[V]]
// CHECK: scf.for %{{.*}} = %[[L]] to %c17 step %c16
// CHECK: arith.subf
// CHECK: arith.truncf %{{.*}} : f32 to bf16
// CHECK: memref.store %{{.*}}, %arg2[
// CHECK-NOT: linalg.generic
#row = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d0)>
func.func @warp_centred(%x: memref<20x17xf32>, %mean: memref<20xf32>, %y: memref<20x17xbf16>) {
  %inv = arith.constant 0.0588235 : f32
  %s = memref.alloc() : memref<20xf32>
  linalg.generic {indexing_maps = [#row, #col], iterator_types = ["parallel", "reduction"]} ins(%x : memref<20x17xf32>) outs(%s : memref<20xf32>) {
  ^bb0(%in: f32, %out: f32):
    %a = arith.addf %out, %in : f32
    linalg.yield %a : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%s : memref<20xf32>) outs(%mean : memref<20xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.mulf %in, %inv : f32
    linalg.yield %m : f32
  }
  linalg.generic {indexing_maps = [#row, #col, #row], iterator_types = ["parallel", "parallel"]} ins(%x, %mean : memref<20x17xf32>, memref<20xf32>) outs(%y : memref<20x17xbf16>) {
  ^bb0(%in: f32, %m: f32, %out: bf16):
    %d = arith.subf %in, %m : f32
    %t = arith.truncf %d : f32 to bf16
    linalg.yield %t : bf16
  }
  memref.dealloc %s : memref<20xf32>
  return
}

// -----

// Left alone: a normalization written over its own input (other blocks
// still read the rows it would overwrite), and one over a slice of the
// reduced dim (its loop 150 long, not the reduction's 300).
// CHECK-LABEL: func.func @negative_normalize
// CHECK: kiln.gpu.block_size = 256
// CHECK: linalg.generic
// CHECK: kiln.gpu.block_size = 256
// CHECK: linalg.generic
#row = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d0)>
func.func @negative_normalize(%x: memref<4x300xf32>, %sum: memref<4xf32>, %half: memref<4x150xf32>) {
  linalg.generic {indexing_maps = [#row, #col], iterator_types = ["parallel", "reduction"]} ins(%x : memref<4x300xf32>) outs(%sum : memref<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %a = arith.addf %out, %in : f32
    linalg.yield %a : f32
  }
  linalg.generic {indexing_maps = [#row, #col, #row], iterator_types = ["parallel", "parallel"]} ins(%x, %sum : memref<4x300xf32>, memref<4xf32>) outs(%x : memref<4x300xf32>) {
  ^bb0(%in: f32, %s: f32, %out: f32):
    %q = arith.divf %in, %s : f32
    linalg.yield %q : f32
  }
  linalg.generic {indexing_maps = [#row, #col], iterator_types = ["parallel", "reduction"]} ins(%x : memref<4x300xf32>) outs(%sum : memref<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %a = arith.addf %out, %in : f32
    linalg.yield %a : f32
  }
  linalg.generic {indexing_maps = [#row, #col, #row], iterator_types = ["parallel", "parallel"]} ins(%half, %sum : memref<4x150xf32>, memref<4xf32>) outs(%half : memref<4x150xf32>) {
  ^bb0(%in: f32, %s: f32, %out: f32):
    %q = arith.divf %in, %s : f32
    linalg.yield %q : f32
  }
  return
}

// BAD-OPTION
// expected-error@+1 {{kiln-gpu-block-reductions: min-extent=0: must be at least 1}}
func.func @bad_option() {
  return
}
// END-BAD-OPTION
