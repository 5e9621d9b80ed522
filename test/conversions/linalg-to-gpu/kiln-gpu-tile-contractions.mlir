// RUN: kiln-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(kiln-gpu-tile-contractions))' \
// RUN:   | FileCheck %s
// RUN: kiln-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(kiln-gpu-tile-contractions{enable=false}))' \
// RUN:   | FileCheck %s --check-prefix=OFF
// RUN: kiln-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(kiln-gpu-tile-contractions{min-flops=100000}))' \
// RUN:   | FileCheck %s --check-prefix=MIN
// RUN: kiln-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(kiln-gpu-tile-contractions))' \
// RUN:   | FileCheck %s --check-prefix=STORE
// RUN: kiln-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(kiln-gpu-tile-contractions{epilogues=false}))' \
// RUN:   | FileCheck %s --check-prefix=NOEPI
// RUN: kiln-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(kiln-gpu-tile-contractions{mma=none}))' \
// RUN:   | FileCheck %s --check-prefix=CORES
// RUN: kiln-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(kiln-gpu-tile-contractions{mma=emulate}))' \
// RUN:   | FileCheck %s --check-prefix=EMU
// RUN: kiln-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(kiln-gpu-tile-contractions{tf32=true}))' \
// RUN:   | FileCheck %s --check-prefix=TF32
// RUN: kiln-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(kiln-gpu-tile-contractions{ldmatrix=false}))' \
// RUN:   | FileCheck %s --check-prefix=GATHER
// RUN: kiln-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(kiln-gpu-tile-contractions{mma=emulate ldmatrix=false}))' \
// RUN:   | FileCheck %s --check-prefix=EMUGATHER
// RUN: kiln-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(kiln-gpu-tile-contractions{wide-min-blocks=1}))' \
// RUN:   | FileCheck %s --check-prefix=WIDE
// RUN: kiln-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(kiln-gpu-tile-contractions{mma=emulate wide-min-blocks=1}))' \
// RUN:   | FileCheck %s --check-prefix=EMUWIDE
// RUN: not kiln-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(kiln-gpu-tile-contractions{wide-min-blocks=-1}))' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BADWIDE
// BADWIDE: error: kiln-gpu-tile-contractions: wide-min-blocks=-1: must not be negative
// RUN: not kiln-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(kiln-gpu-tile-contractions{mma=wmma}))' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BADMMA
// BADMMA: error: kiln-gpu-tile-contractions: mma=wmma: expected none, emulate or nvvm
// RUN: sed -n '/^\/\/ BAD-OPTION/,/^\/\/ END-BAD-OPTION/p' %s > %t.bad.mlir
// RUN: kiln-opt %t.bad.mlir --verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(func.func(kiln-gpu-tile-contractions{min-flops=-1}))'

// A matmul after a zero fill, odd sizes (one 64 x 64 block, guarded): the
// fill becomes the accumulators' initial value; shared tiles of A and B,
// two buffers each, 256 threads x 4 x 4 accumulators; phases: init, the
// first tiles into buffer 0, then per K tile of 16 one phase that copies
// the next tiles into the other buffer by cp.async (one f32 a copy: rows
// of 65 and 17), computes on the current buffer and waits for its copies;
// then the store. With mma=none (below sm_80, no cp.async) each K step's
// phase loads the next tiles into registers first and stores them after
// its compute.
// With tf32: the f32 operands copied by cp.async one element (4 bytes) a
// copy, two m16n8k8 TF32 steps per K tile, A's fragments read by ldmatrix
// (rows of 4 f32), B's element by element (.trans moves 16-bit elements).
// With wide-min-blocks=1 (128 x 128 blocks wherever there is one) the
// CUDA cores' block is 128 x 128: 16 x 16 threads of 8 x 8 outputs.
// WIDE-LABEL: func.func @matmul
// WIDE-DAG: memref.alloca() {kiln.gpu.shared} : memref<2x128x16xf32, #gpu.address_space<workgroup>>
// WIDE-DAG: memref.alloca() {kiln.gpu.shared} : memref<2x16x128xf32, #gpu.address_space<workgroup>>
// WIDE-DAG: memref.alloca() {kiln.gpu.private} : memref<256x8x8xf32>
// TF32-LABEL: func.func @matmul
// TF32: nvgpu.device_async_copy %arg0[{{.*}}], {{.*}}, 1, %{{.*}} : memref<33x65xf32>
// TF32: nvgpu.device_async_copy %arg1[{{.*}}], {{.*}}, 1, %{{.*}} : memref<65x17xf32>
// TF32: nvgpu.ldmatrix %{{.*}} {numTiles = 4 : i32, transpose = false} : memref<2x64x20xf32, #gpu.address_space<workgroup>> -> vector<4x1xf32>
// TF32-NOT: transpose = true
// TF32-COUNT-8: nvvm.mma.sync {{.*}}#nvvm.mma_type<tf32>{{.*}}shape = #nvvm.shape<m = 16, n = 8, k = 8>}
// CORES-LABEL: func.func @matmul
// CORES-NOT: nvvm.mma.sync
// CORES-NOT: linalg.fill
// CORES: scf.execute_region no_inline
// CORES: memref.alloca_scope
// CORES: %[[AS:.*]] = memref.alloca() {kiln.gpu.shared} : memref<2x64x16xf32>
// CORES: %[[BS:.*]] = memref.alloca() {kiln.gpu.shared} : memref<2x16x64xf32>
// CORES: %[[ACC:.*]] = memref.alloca() {kiln.gpu.private} : memref<256x4x4xf32>
// CORES: scf.parallel (%[[T0:.*]]) = (%{{.*}}) to (%c256{{.*}})
// CORES: memref.store %[[ZERO:.*]], %[[ACC]][%[[T0]],
// CORES: scf.parallel
// CORES: memref.load %arg0
// CORES: memref.load %arg1
// CORES: memref.store %{{.*}}, %[[AS]][%c0
// CORES: memref.store %{{.*}}, %[[BS]][%c0
// CORES: scf.for %[[K0:.*]] = %{{.*}} to %c65{{.*}} step %c16
// CORES: scf.parallel
// CORES: scf.if
// CORES: memref.load %arg0
// CORES: memref.load %arg1
// CORES: scf.for {{.*}} iter_args
// CORES: memref.load %[[AS]]
// CORES: memref.load %[[BS]]
// CORES: arith.mulf
// CORES: arith.addf
// CORES: memref.store %{{.*}}, %[[AS]]
// CORES: memref.store %{{.*}}, %[[BS]]
// CORES: scf.parallel
// CORES: scf.if
// CORES: memref.load %[[ACC]]
// CORES: memref.store %{{.*}}, %arg2
// CORES: } {kiln.gpu.block_size = 256 : i64}
// CHECK-LABEL: func.func @matmul
// CHECK-NOT: nvvm.mma.sync
// CHECK-NOT: linalg.fill
// CHECK: %[[AS:.*]] = memref.alloca() {kiln.gpu.shared} : memref<2x64x16xf32, #gpu.address_space<workgroup>>
// CHECK: %[[BS:.*]] = memref.alloca() {kiln.gpu.shared} : memref<2x16x64xf32, #gpu.address_space<workgroup>>
// CHECK: nvgpu.device_async_copy %arg0[{{.*}}], %[[AS]][{{.*}}], 1, %{{.*}} : memref<33x65xf32>
// CHECK: nvgpu.device_async_copy %arg1[{{.*}}], %[[BS]][{{.*}}], 1, %{{.*}} : memref<65x17xf32>
// CHECK: scf.for %{{.*}} = %{{.*}} to %c65{{.*}} step %c16
// CHECK: nvgpu.device_async_copy
// CHECK: scf.for {{.*}} iter_args
// CHECK: memref.load %[[AS]]
// CHECK: memref.load %[[BS]]
// CHECK: nvgpu.device_async_wait
// CHECK: memref.store %{{.*}}, %arg2
// CHECK: } {kiln.gpu.block_size = 256 : i64}
// CHECK-NOT: linalg.matmul
// OFF-LABEL: func.func @matmul
// OFF: linalg.fill
// OFF: linalg.matmul
// 2*33*17*65 flops: left alone with min-flops=100000.
// MIN-LABEL: func.func @matmul
// MIN: linalg.matmul
func.func @matmul(%a: memref<33x65xf32>, %b: memref<65x17xf32>,
                  %c: memref<33x17xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<33x17xf32>)
  linalg.matmul ins(%a, %b : memref<33x65xf32>, memref<65x17xf32>)
                outs(%c : memref<33x17xf32>)
  return
}

// -----

// A batch matmul without a fill: the accumulators start from C; the grid
// runs over the batch (one block of rows and columns each).
// CHECK-LABEL: func.func @batch
// CHECK: scf.parallel (%[[B:.*]]) = (%{{.*}}) to (%c3)
// CHECK: memref.load %arg2[%[[B]],
// CHECK-NOT: linalg.batch_matmul
// MIN-LABEL: func.func @batch
// MIN-NOT: linalg.batch_matmul
func.func @batch(%a: memref<3x31x47xf32>, %b: memref<3x47x29xf32>,
                 %c: memref<3x31x29xf32>) {
  linalg.batch_matmul ins(%a, %b : memref<3x31x47xf32>, memref<3x47x29xf32>)
                      outs(%c : memref<3x31x29xf32>)
  return
}

// -----

// One row (a fully connected layer): 1 x 128 threads, one output each;
// 8 column blocks.
// CHECK-LABEL: func.func @one_row
// CHECK: memref.alloca() {kiln.gpu.shared} : memref<2x1x16xf32, #gpu.address_space<workgroup>>
// CHECK: memref.alloca() {kiln.gpu.shared} : memref<2x16x128xf32, #gpu.address_space<workgroup>>
// CHECK: memref.alloca() {kiln.gpu.private} : memref<128x1x1xf32>
// CHECK: scf.parallel (%{{.*}}) = (%{{.*}}) to (%c8)
// CHECK: } {kiln.gpu.block_size = 128 : i64}
func.func @one_row(%a: memref<1x512xf32>, %b: memref<512x1000xf32>,
                   %c: memref<1x1000xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<1x1000xf32>)
  linalg.matmul ins(%a, %b : memref<1x512xf32>, memref<512x1000xf32>)
                outs(%c : memref<1x1000xf32>)
  return
}

// -----

// A generic contraction with A transposed (A[k, m]) and the rows and
// columns split over two dims each (as reshapes fused into a matmul
// leave them): A's tile is padded (loads run along m), the indices are
// recovered from the linear row and column. B's rows (4 x 16 elements
// along n: one contiguous run of 64) are copied by cp.async 4 f32 (16
// bytes) at a time; A (loads along m, the tile's short dim) stages
// through registers.
// CHECK-LABEL: func.func @transposed_split
// CHECK: memref.alloca() {kiln.gpu.shared} : memref<2x64x17xf32, #gpu.address_space<workgroup>>
// CHECK: memref.alloca() {kiln.gpu.shared} : memref<2x16x64xf32, #gpu.address_space<workgroup>>
// CHECK: nvgpu.device_async_copy %arg1[{{.*}}], {{.*}}, 4, %{{.*}} : memref<40x4x16xf32>
// CHECK-NOT: nvgpu.device_async_copy %arg0
// CHECK: arith.divui %{{.*}}, %c8
// CHECK: arith.remui %{{.*}}, %c8
// CHECK-NOT: linalg.generic
#mapA = affine_map<(m0, m1, n0, n1, k) -> (k, m0, m1)>
#mapB = affine_map<(m0, m1, n0, n1, k) -> (k, n0, n1)>
#mapC = affine_map<(m0, m1, n0, n1, k) -> (m0, m1, n0, n1)>
func.func @transposed_split(%a: memref<40x9x8xf32>, %b: memref<40x4x16xf32>,
                            %c: memref<9x8x4x16xf32>) {
  linalg.generic {indexing_maps = [#mapA, #mapB, #mapC],
                  iterator_types = ["parallel", "parallel", "parallel",
                                    "parallel", "reduction"]}
      ins(%a, %b : memref<40x9x8xf32>, memref<40x4x16xf32>)
      outs(%c : memref<9x8x4x16xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A conv whose im2col window gather was fused into its contraction (an
// implicit GEMM, as graph-to-linalg-gpu's im2col-gather leaves it): the
// input is read through compound indices (oh * 2 + kh, ow * 2 + kw),
// computed from the loops' indices in the tile loads.
// CHECK-LABEL: func.func @implicit_gemm_conv
// CHECK: memref.alloca() {kiln.gpu.shared}
// CHECK: arith.muli %{{.*}}, %c2
// CHECK: memref.load %arg0[
// CHECK-NOT: linalg.generic
#cx = affine_map<(n, m, oh, ow, c, kh, kw) -> (n, c, oh * 2 + kh, ow * 2 + kw)>
#cw = affine_map<(n, m, oh, ow, c, kh, kw) -> (m, c, kh, kw)>
#cy = affine_map<(n, m, oh, ow, c, kh, kw) -> (n, m, oh, ow)>
func.func @implicit_gemm_conv(%x: memref<1x3x17x17xf32>, %w: memref<8x3x3x3xf32>,
                              %y: memref<1x8x8x8xf32>) {
  linalg.generic {indexing_maps = [#cw, #cx, #cy],
                  iterator_types = ["parallel", "parallel", "parallel",
                                    "parallel", "reduction", "reduction",
                                    "reduction"]}
      ins(%w, %x : memref<8x3x3x3xf32>, memref<1x3x17x17xf32>)
      outs(%y : memref<1x8x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// The same in bf16 on tensor cores: the weights [f, c, kh, kw] are one
// contiguous run along K (c * kh * kw = 36 elements, a multiple of 4), so
// they are copied by cp.async four elements (8 bytes: 64 x 16 elements
// over 256 threads) at a time, across kw and kh (a 3-wide last dim alone
// would not allow even pairs); the window reads of the input (compound
// indices, units not aligned) stage through registers. Weights with an
// odd run (3 * 3 * 3) stage through registers too.
// CHECK-LABEL: func.func @implicit_gemm_conv_bf16
// CHECK: nvgpu.device_async_copy %arg0[{{.*}}], {{.*}}, 4, %{{.*}} : memref<16x4x3x3xbf16> to memref<2x64x24xbf16, #gpu.address_space<workgroup>>
// CHECK-NOT: nvgpu.device_async_copy %arg1
// CHECK: nvvm.mma.sync
// CHECK-NOT: nvgpu.device_async_copy %arg2
// CHECK: nvvm.mma.sync
// CHECK: return
#bx = affine_map<(n, m, oh, ow, c, kh, kw) -> (n, c, oh + kh, ow + kw)>
func.func @implicit_gemm_conv_bf16(%w: memref<16x4x3x3xbf16>, %x: memref<1x4x19x19xbf16>,
                                   %w3: memref<16x3x3x3xbf16>, %x3: memref<1x3x19x19xbf16>,
                                   %y: memref<1x16x17x17xf32>) {
  linalg.generic {indexing_maps = [#cw, #bx, #cy],
                  iterator_types = ["parallel", "parallel", "parallel",
                                    "parallel", "reduction", "reduction",
                                    "reduction"]}
      ins(%w, %x : memref<16x4x3x3xbf16>, memref<1x4x19x19xbf16>)
      outs(%y : memref<1x16x17x17xf32>) {
  ^bb0(%a: bf16, %b: bf16, %acc: f32):
    %ae = arith.extf %a : bf16 to f32
    %be = arith.extf %b : bf16 to f32
    %p = arith.mulf %ae, %be : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [#cw, #bx, #cy],
                  iterator_types = ["parallel", "parallel", "parallel",
                                    "parallel", "reduction", "reduction",
                                    "reduction"]}
      ins(%w3, %x3 : memref<16x3x3x3xbf16>, memref<1x3x19x19xbf16>)
      outs(%y : memref<1x16x17x17xf32>) {
  ^bb0(%a: bf16, %b: bf16, %acc: f32):
    %ae = arith.extf %a : bf16 to f32
    %be = arith.extf %b : bf16 to f32
    %p = arith.mulf %ae, %be : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A compound index into the output, or a loop read only through compound
// indices (its size unknown), is left alone.
// CHECK-LABEL: func.func @negative_compound_output
// CHECK: linalg.generic
#ox = affine_map<(m, n, k) -> (m, k)>
#ow = affine_map<(m, n, k) -> (k, n)>
#oy = affine_map<(m, n, k) -> (m, n * 2)>
func.func @negative_compound_output(%a: memref<64x64xf32>, %b: memref<64x32xf32>,
                                    %c: memref<64x64xf32>) {
  linalg.generic {indexing_maps = [#ox, #ow, #oy],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<64x64xf32>, memref<64x32xf32>)
      outs(%c : memref<64x64xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Left alone: dynamic shapes, another element type, a body that is not a
// multiply-accumulate.
// CHECK-LABEL: func.func @negative_dynamic
// CHECK: linalg.matmul
func.func @negative_dynamic(%a: memref<?x64xf32>, %b: memref<64x64xf32>,
                            %c: memref<?x64xf32>) {
  linalg.matmul ins(%a, %b : memref<?x64xf32>, memref<64x64xf32>)
                outs(%c : memref<?x64xf32>)
  return
}

// Low-precision operands accumulated in f32 (what --precision leaves): the
// shared tiles hold bf16. By default tensor cores form the product: 8
// warps, each 16 x 32 outputs as four m16n8k16 nvvm.mma.sync per K step of
// 16, their operand registers read by ldmatrix (x4: A's four registers,
// B's for two 8-column tiles, .trans) or, with ldmatrix=false, packed from
// pairs of bf16 elements. With mma=none, CUDA cores widen each element;
// with mma=emulate (gpu-on-cpu) each thread first stores the row address
// it gives each ldmatrix to %ldaddr, the registers are formed from the
// warp's addresses as ldmatrix forms them (or gathered) and go to the
// shared %frag, and the sums read them back the way mma.sync does.
// The tensor-core tiles are padded to 24 and 72 elements a row, which puts
// a warp's fragment reads in distinct banks, and are workgroup memory from
// the start: both operands (row-major, rows a multiple of 4) are copied
// by cp.async, four bf16 elements (8 bytes: 64 x 16 over 256 threads; 16
// bytes in the 128 x 128 blocks below) a copy, into the buffer the K step
// does not read, waited for at the end of the step.
// CHECK-LABEL: func.func @bf16_operands
// CHECK-DAG: memref.alloca() {kiln.gpu.shared} : memref<2x64x24xbf16, #gpu.address_space<workgroup>>
// CHECK-DAG: memref.alloca() {kiln.gpu.shared} : memref<2x16x72xbf16, #gpu.address_space<workgroup>>
// CHECK-DAG: memref.alloca() {kiln.gpu.private} : memref<256x2x8xf32>
// CHECK: nvgpu.device_async_copy %arg0[{{.*}}], {{.*}}, 4, %{{.*}} : memref<64x64xbf16> to memref<2x64x24xbf16, #gpu.address_space<workgroup>>
// CHECK: nvgpu.device_async_copy %arg1[{{.*}}], {{.*}}, 4, %{{.*}} : memref<64x64xbf16> to memref<2x16x72xbf16, #gpu.address_space<workgroup>>
// CHECK: nvgpu.device_async_wait
// CHECK: scf.for
// CHECK: nvgpu.device_async_copy
// CHECK-NOT: arith.bitcast %{{.*}} : bf16 to i16
// CHECK: nvgpu.ldmatrix %{{.*}} {numTiles = 4 : i32, transpose = false} : memref<2x64x24xbf16, #gpu.address_space<workgroup>> -> vector<4x2xbf16>
// CHECK: llvm.bitcast %{{.*}} : vector<2xbf16> to i32
// CHECK-COUNT-2: nvgpu.ldmatrix %{{.*}} {numTiles = 4 : i32, transpose = true} : memref<2x16x72xbf16, #gpu.address_space<workgroup>> -> vector<4x2xbf16>
// CHECK-NOT: arith.bitcast %{{.*}} : bf16 to i16
// CHECK-COUNT-4: nvvm.mma.sync {{.*}} multiplicandAPtxType = #nvvm.mma_type<bf16>, multiplicandBPtxType = #nvvm.mma_type<bf16>, shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (i32, i32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
// CHECK: nvgpu.device_async_wait
// CHECK-NOT: nvvm.mma.sync
// CHECK-NOT: linalg.matmul
// CORES-LABEL: func.func @bf16_operands
// CORES-DAG: memref.alloca() {kiln.gpu.shared} : memref<2x64x16xbf16>
// CORES-DAG: memref.alloca() {kiln.gpu.shared} : memref<2x16x64xbf16>
// CORES-DAG: memref.alloca() {kiln.gpu.private} : memref<256x4x4xf32>
// CORES: arith.extf %{{.*}} : bf16 to f32
// CORES-NOT: nvvm.mma.sync
// EMU-LABEL: func.func @bf16_operands
// EMU-NOT: nvgpu.device_async_copy
// EMU: memref.alloca() {kiln.gpu.shared} : memref<256x12xi32>
// EMU: %[[ADDR:.*]] = memref.alloca() {kiln.gpu.shared} : memref<256x3x2xindex>
// EMU-COUNT-6: memref.store %{{.*}}, %[[ADDR]][{{.*}}] : memref<256x3x2xindex>
// EMU: scf.for
// EMU: memref.load %[[ADDR]][{{.*}}] : memref<256x3x2xindex>
// EMU: memref.store %{{.*}}, %{{.*}} : memref<256x12xi32>
// EMU: memref.load %{{.*}} : memref<256x12xi32>
// EMU: arith.shrui
// EMU-NOT: nvvm.mma.sync
// EMU-NOT: nvgpu.ldmatrix
// Products that make at least wide-min-blocks (default 128) blocks of
// 128 x 128 take those: 8 warps of 32 x 64 (two m16 by eight n8 tiles,
// 16 mma.sync a K step, 4 x 16 accumulators a thread), A's fragments by
// two ldmatrix, B's by four; B's tile rows padded to 136 (conflict-free
// too). The emulation stores 24 registers (8 of A, 16 of B) and 6 row
// addresses a thread a K step. This one product is one block of them.
// WIDE-LABEL: func.func @bf16_operands
// WIDE-DAG: memref.alloca() {kiln.gpu.shared} : memref<2x128x24xbf16, #gpu.address_space<workgroup>>
// WIDE-DAG: memref.alloca() {kiln.gpu.shared} : memref<2x16x136xbf16, #gpu.address_space<workgroup>>
// WIDE-DAG: memref.alloca() {kiln.gpu.private} : memref<256x4x16xf32>
// WIDE: nvgpu.device_async_copy %arg0[{{.*}}], {{.*}}, 8, %{{.*}} : memref<64x64xbf16> to memref<2x128x24xbf16, #gpu.address_space<workgroup>>
// WIDE: nvgpu.device_async_copy %arg1[{{.*}}], {{.*}}, 8, %{{.*}} : memref<64x64xbf16> to memref<2x16x136xbf16, #gpu.address_space<workgroup>>
// WIDE: scf.for
// WIDE-COUNT-2: nvgpu.ldmatrix %{{.*}} {numTiles = 4 : i32, transpose = false}
// WIDE-COUNT-4: nvgpu.ldmatrix %{{.*}} {numTiles = 4 : i32, transpose = true}
// WIDE-COUNT-16: nvvm.mma.sync
// WIDE-NOT: nvvm.mma.sync
// WIDE: kiln.gpu.block_size = 256
// EMUWIDE-LABEL: func.func @bf16_operands
// EMUWIDE-DAG: memref.alloca() {kiln.gpu.shared} : memref<256x24xi32>
// EMUWIDE-DAG: memref.alloca() {kiln.gpu.shared} : memref<256x6x2xindex>
// EMUWIDE: scf.for {{.*}} iter_args
// EMUWIDE-NOT: nvvm.mma.sync
// GATHER-LABEL: func.func @bf16_operands
// GATHER: scf.for
// GATHER: arith.bitcast %{{.*}} : bf16 to i16
// GATHER-COUNT-4: nvvm.mma.sync
// GATHER-NOT: nvgpu.ldmatrix
// EMUGATHER-LABEL: func.func @bf16_operands
// EMUGATHER-NOT: index>
// EMUGATHER: memref.store %{{.*}}, %{{.*}} : memref<256x12xi32>
// EMUGATHER-NOT: index>
// EMUGATHER: return
func.func @bf16_operands(%a: memref<64x64xbf16>, %b: memref<64x64xbf16>,
                         %c: memref<64x64xf32>) {
  linalg.matmul ins(%a, %b : memref<64x64xbf16>, memref<64x64xbf16>)
                outs(%c : memref<64x64xf32>)
  return
}

// Left alone: a product whose accumulator is not f32.
// CHECK-LABEL: func.func @negative_f16
// CHECK: linalg.matmul
func.func @negative_f16(%a: memref<64x64xf16>, %b: memref<64x64xf16>,
                        %c: memref<64x64xf16>) {
  linalg.matmul ins(%a, %b : memref<64x64xf16>, memref<64x64xf16>)
                outs(%c : memref<64x64xf16>)
  return
}

// CHECK-LABEL: func.func @negative_body
// CHECK: linalg.generic
#m0 = affine_map<(m, n, k) -> (m, k)>
#m1 = affine_map<(m, n, k) -> (k, n)>
#m2 = affine_map<(m, n, k) -> (m, n)>
func.func @negative_body(%a: memref<64x64xf32>, %b: memref<64x64xf32>,
                         %c: memref<64x64xf32>) {
  linalg.generic {indexing_maps = [#m0, #m1, #m2],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<64x64xf32>, memref<64x64xf32>)
      outs(%c : memref<64x64xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.subf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Prologues: a producer elementwise fusion merged into a factor (here a
// per-row normalization of A, (x - mean) * rstd rounded to bf16, as a
// layer norm before a bf16 projection) is computed as each tile element is
// loaded: the loads of x, mean and rstd, the body's ops up to the rounded
// value, stored in the bf16 tile; the weight side is copied (cp.async).
// CHECK-LABEL: func.func @prologue
// CHECK-DAG: memref.alloca() {kiln.gpu.shared} : memref<2x64x24xbf16, #gpu.address_space<workgroup>>
// CHECK: memref.load %arg0[{{.*}}] : memref<40x32xf32>
// CHECK: memref.load %arg1[{{.*}}] : memref<40xf32>
// CHECK: memref.load %arg2[{{.*}}] : memref<40xf32>
// CHECK: arith.subf
// CHECK: arith.mulf
// CHECK: arith.truncf %{{.*}} : f32 to bf16
// CHECK: nvgpu.device_async_copy %arg3[{{.*}}], {{.*}} : memref<32x48xbf16>
// CHECK: memref.store %{{.*}}, %{{.*}} : memref<2x64x24xbf16, #gpu.address_space<workgroup>>
// CHECK: scf.for
// CHECK-NOT: linalg.generic
// CHECK-NOT: func.call
#pa = affine_map<(m, n, k) -> (m, k)>
#pr = affine_map<(m, n, k) -> (m)>
#pb = affine_map<(m, n, k) -> (k, n)>
#pc = affine_map<(m, n, k) -> (m, n)>
func.func @prologue(%x: memref<40x32xf32>, %mean: memref<40xf32>,
                    %rstd: memref<40xf32>, %w: memref<32x48xbf16>,
                    %c: memref<40x48xf32>) {
  linalg.generic {indexing_maps = [#pa, #pr, #pr, #pb, #pc],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %mean, %rstd, %w : memref<40x32xf32>, memref<40xf32>,
          memref<40xf32>, memref<32x48xbf16>)
      outs(%c : memref<40x48xf32>) {
  ^bb0(%v: f32, %m: f32, %r: f32, %wv: bf16, %acc: f32):
    %d = arith.subf %v, %m : f32
    %n = arith.mulf %d, %r : f32
    %t = arith.truncf %n : f32 to bf16
    %e = arith.extf %t : bf16 to f32
    %we = arith.extf %wv : bf16 to f32
    %p = arith.mulf %e, %we : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// An input both factors read (x * x) is left alone.
// CHECK-LABEL: func.func @negative_shared_input
// CHECK: linalg.generic
func.func @negative_shared_input(%x: memref<40x32xf32>, %w: memref<32x48xf32>,
                                 %c: memref<40x48xf32>) {
  linalg.generic {indexing_maps = [#pa, #pb, #pc],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %w : memref<40x32xf32>, memref<32x48xf32>)
      outs(%c : memref<40x48xf32>) {
  ^bb0(%v: f32, %wv: f32, %acc: f32):
    %q = arith.mulf %v, %wv : f32
    %p = arith.mulf %q, %v : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Epilogues: the elementwise op that reads the product's C is fused into
// the store phase. A matmul + ReLU into a temporary C: the body's ops are
// copied after the accumulator's load and store to the ReLU's output; the
// ReLU, C's allocation and its dealloc are gone.
// CHECK-LABEL: func.func @epilogue_relu
// CHECK-NOT: memref.alloc()
// CHECK: scf.execute_region no_inline
// CHECK: scf.for
// CHECK: } {kiln.gpu.block_size = 256 : i64}
// CHECK-NOT: linalg.generic
// CHECK-NOT: memref.dealloc
// CHECK: return
// STORE-LABEL: func.func @epilogue_relu
// STORE: %[[ACC:.*]] = memref.alloca() {kiln.gpu.private}
// The last accumulator stores of the init and compute phases, then the
// store phase:
// STORE: memref.store {{.*}}, %[[ACC]][{{.*}}, %c3{{.*}}, %c3{{.*}}]
// STORE: memref.store {{.*}}, %[[ACC]][{{.*}}, %c3{{.*}}, %c3{{.*}}]
// STORE: %[[V:.*]] = memref.load %[[ACC]][
// STORE-NEXT: %[[R:.*]] = arith.maximumf %[[V]], %cst : f32
// STORE-NEXT: memref.store %[[R]], %arg2[%{{.*}}, %{{.*}}] : memref<33x17xf32>
// NOEPI-LABEL: func.func @epilogue_relu
// NOEPI: memref.alloc()
// NOEPI: scf.execute_region
// NOEPI: linalg.generic
// NOEPI: memref.dealloc
#id = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
func.func @epilogue_relu(%a: memref<33x65xf32>, %b: memref<65x17xf32>,
                         %out: memref<33x17xf32>) {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<33x17xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<33x17xf32>)
  linalg.matmul ins(%a, %b : memref<33x65xf32>, memref<65x17xf32>)
                outs(%c : memref<33x17xf32>)
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c : memref<33x17xf32>) outs(%out : memref<33x17xf32>) {
  ^bb0(%in: f32, %o: f32):
    %0 = arith.maximumf %in, %zero : f32
    linalg.yield %0 : f32
  }
  memref.dealloc %c : memref<33x17xf32>
  return
}

// A bias broadcast along the rows (a linear layer, C an expand_shape of a
// temporary): the bias element is loaded at the output's column.
// CHECK-LABEL: func.func @epilogue_bias
// CHECK-NOT: memref.alloc()
// CHECK-NOT: memref.expand_shape
// CHECK: scf.execute_region no_inline
// CHECK-NOT: linalg.generic
// CHECK-NOT: memref.dealloc
// STORE-LABEL: func.func @epilogue_bias
// STORE: %[[ACC:.*]] = memref.alloca() {kiln.gpu.private}
// STORE: memref.store {{.*}}, %[[ACC]][{{.*}}, %c3{{.*}}, %c3{{.*}}]
// STORE: memref.store {{.*}}, %[[ACC]][{{.*}}, %c3{{.*}}, %c3{{.*}}]
// STORE: arith.cmpi ult, %[[COL:.*]], %c80 : index
// STORE: %[[V:.*]] = memref.load %[[ACC]]
// STORE-NEXT: %[[BIAS:.*]] = memref.load %arg2[%[[COL]]] : memref<80xf32>
// STORE-NEXT: %[[S:.*]] = arith.addf %[[V]], %[[BIAS]] : f32
// STORE-NEXT: memref.store %[[S]], %arg3[%{{.*}}, %[[COL]]] : memref<70x80xf32>
func.func @epilogue_bias(%a: memref<70x32xf32>, %b: memref<32x80xf32>,
                         %bias: memref<80xf32>, %out: memref<70x80xf32>) {
  %zero = arith.constant 0.0 : f32
  %flat = memref.alloc() : memref<5600xf32>
  %c = memref.expand_shape %flat [[0, 1]] output_shape [70, 80]
      : memref<5600xf32> into memref<70x80xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<70x80xf32>)
  linalg.matmul ins(%a, %b : memref<70x32xf32>, memref<32x80xf32>)
                outs(%c : memref<70x80xf32>)
  linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c, %bias : memref<70x80xf32>, memref<80xf32>) outs(%out : memref<70x80xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %0 = arith.addf %x, %y : f32
    linalg.yield %0 : f32
  }
  memref.dealloc %flat : memref<5600xf32>
  return
}

// A consumer writing C in place, reading the element through its output
// argument: C (an argument here) is stored once, with the epilogue.
// CHECK-LABEL: func.func @epilogue_in_place
// CHECK-NOT: linalg.
// STORE-LABEL: func.func @epilogue_in_place
// STORE: %[[ACC:.*]] = memref.alloca() {kiln.gpu.private}
// STORE: memref.store {{.*}}, %[[ACC]][{{.*}}, %c3{{.*}}, %c3{{.*}}]
// STORE: memref.store {{.*}}, %[[ACC]][{{.*}}, %c3{{.*}}, %c3{{.*}}]
// STORE: %[[V:.*]] = memref.load %[[ACC]][
// STORE-NEXT: %[[BIAS:.*]] = memref.load %arg2[
// STORE-NEXT: %[[S:.*]] = arith.addf %[[V]], %[[BIAS]] : f32
// STORE-NEXT: %[[T:.*]] = math.tanh %[[S]] : f32
// STORE-NEXT: memref.store %[[T]], %arg3[
func.func @epilogue_in_place(%a: memref<64x32xf32>, %b: memref<32x80xf32>,
                             %bias: memref<80xf32>, %c: memref<64x80xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<64x80xf32>)
  linalg.matmul ins(%a, %b : memref<64x32xf32>, memref<32x80xf32>)
                outs(%c : memref<64x80xf32>)
  linalg.generic {indexing_maps = [#col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%bias : memref<80xf32>) outs(%c : memref<64x80xf32>) {
  ^bb0(%y: f32, %o: f32):
    %0 = arith.addf %o, %y : f32
    %1 = math.tanh %0 : f32
    linalg.yield %1 : f32
  }
  return
}

// A conv as an implicit GEMM + clamp(0, 6) (MobileNet's ReLU6) into the
// interior of the next conv's padded input (a strided subview), with an
// op in between that touches neither the operands nor C: the fused
// product takes the consumer's place. C's init is a linalg.generic that
// yields a constant (how bufferization leaves a conv's zero init), a
// reshape of the weights in between: folded into the accumulators like a
// linalg.fill, so C is dead and erased.
// CHECK-LABEL: func.func @epilogue_conv_clamp
// CHECK-NOT: memref<1x8x9x9xf32>
// CHECK: %[[PAD:.*]] = memref.alloc() : memref<1x8x11x11xf32>
// CHECK: linalg.fill
// CHECK: %[[SV:.*]] = memref.subview %[[PAD]]
// CHECK: scf.execute_region no_inline
// CHECK: memref.store %cst, %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}] : memref<128x1x1xf32>
// CHECK: memref.load %arg0[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}]
// CHECK: arith.maximumf
// CHECK-NEXT: arith.minimumf
// CHECK-NEXT: memref.store %{{.*}}, %[[SV]][
// CHECK-SAME: memref<1x8x9x9xf32, strided<[968, 121, 11, 1], offset: 12>>
// CHECK-NOT: linalg.generic
// CHECK: return
#cw = affine_map<(n, f, oh, ow, c, kh, kw) -> (f, c, kh, kw)>
#cx = affine_map<(n, f, oh, ow, c, kh, kw) -> (n, c, oh * 2 + kh, ow * 2 + kw)>
#cy = affine_map<(n, f, oh, ow, c, kh, kw) -> (n, f, oh, ow)>
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @epilogue_conv_clamp(%x: memref<1x3x19x19xf32>, %w: memref<8x3x3x3xf32>)
    -> memref<1x8x11x11xf32> {
  %zero = arith.constant 0.0 : f32
  %six = arith.constant 6.0 : f32
  %c = memref.alloc() : memref<1x8x9x9xf32>
  linalg.generic {indexing_maps = [#id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      outs(%c : memref<1x8x9x9xf32>) {
  ^bb0(%o: f32):
    linalg.yield %zero : f32
  }
  %wr = memref.collapse_shape %w [[0, 1, 2, 3]] : memref<8x3x3x3xf32> into memref<216xf32>
  %w2 = memref.expand_shape %wr [[0, 1, 2, 3]] output_shape [8, 3, 3, 3]
      : memref<216xf32> into memref<8x3x3x3xf32>
  linalg.generic {indexing_maps = [#cw, #cx, #cy],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel",
                                    "reduction", "reduction", "reduction"]}
      ins(%w2, %x : memref<8x3x3x3xf32>, memref<1x3x19x19xf32>)
      outs(%c : memref<1x8x9x9xf32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  }
  %pad = memref.alloc() : memref<1x8x11x11xf32>
  linalg.fill ins(%zero : f32) outs(%pad : memref<1x8x11x11xf32>)
  %sv = memref.subview %pad[0, 0, 1, 1] [1, 8, 9, 9] [1, 1, 1, 1]
      : memref<1x8x11x11xf32> to memref<1x8x9x9xf32, strided<[968, 121, 11, 1], offset: 12>>
  linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c : memref<1x8x9x9xf32>)
      outs(%sv : memref<1x8x9x9xf32, strided<[968, 121, 11, 1], offset: 12>>) {
  ^bb0(%in: f32, %o: f32):
    %0 = arith.maximumf %in, %zero : f32
    %1 = arith.minimumf %0, %six : f32
    linalg.yield %1 : f32
  }
  memref.dealloc %c : memref<1x8x9x9xf32>
  return %pad : memref<1x8x11x11xf32>
}

// -----

// Not fused: C read again after the consumer (the product still stores C,
// the ReLU stays its own op).
// CHECK-LABEL: func.func @negative_epilogue_c_used
// CHECK: memref.alloc()
// CHECK: scf.execute_region
// CHECK: memref.store %{{.*}}, %[[C:alloc.*]][
// CHECK: linalg.generic
// CHECK: linalg.copy
#nid = affine_map<(d0, d1) -> (d0, d1)>
func.func @negative_epilogue_c_used(%a: memref<64x64xf32>, %b: memref<64x64xf32>,
                                    %out: memref<64x64xf32>, %out2: memref<64x64xf32>) {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<64x64xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<64x64xf32>)
  linalg.matmul ins(%a, %b : memref<64x64xf32>, memref<64x64xf32>)
                outs(%c : memref<64x64xf32>)
  linalg.generic {indexing_maps = [#nid, #nid], iterator_types = ["parallel", "parallel"]}
      ins(%c : memref<64x64xf32>) outs(%out : memref<64x64xf32>) {
  ^bb0(%in: f32, %o: f32):
    %0 = arith.maximumf %in, %zero : f32
    linalg.yield %0 : f32
  }
  linalg.copy ins(%c : memref<64x64xf32>) outs(%out2 : memref<64x64xf32>)
  memref.dealloc %c : memref<64x64xf32>
  return
}

// Not fused: C is an argument (the caller sees it).
// CHECK-LABEL: func.func @negative_epilogue_c_argument
// CHECK: scf.execute_region
// CHECK: memref.store %{{.*}}, %arg2[
// CHECK: linalg.generic
func.func @negative_epilogue_c_argument(%a: memref<64x64xf32>, %b: memref<64x64xf32>,
                                        %c: memref<64x64xf32>, %out: memref<64x64xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<64x64xf32>)
  linalg.matmul ins(%a, %b : memref<64x64xf32>, memref<64x64xf32>)
                outs(%c : memref<64x64xf32>)
  linalg.generic {indexing_maps = [#nid, #nid], iterator_types = ["parallel", "parallel"]}
      ins(%c : memref<64x64xf32>) outs(%out : memref<64x64xf32>) {
  ^bb0(%in: f32, %o: f32):
    %0 = arith.maximumf %in, %zero : f32
    linalg.yield %0 : f32
  }
  return
}

// Not fused: a consumer with a reduction (row sums of C).
// CHECK-LABEL: func.func @negative_epilogue_reduction
// CHECK: scf.execute_region
// CHECK: linalg.generic
// CHECK-SAME: "reduction"
#nrow = affine_map<(d0, d1) -> (d0)>
func.func @negative_epilogue_reduction(%a: memref<64x64xf32>, %b: memref<64x64xf32>,
                                       %out: memref<64xf32>) {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<64x64xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<64x64xf32>)
  linalg.matmul ins(%a, %b : memref<64x64xf32>, memref<64x64xf32>)
                outs(%c : memref<64x64xf32>)
  linalg.generic {indexing_maps = [#nid, #nrow], iterator_types = ["parallel", "reduction"]}
      ins(%c : memref<64x64xf32>) outs(%out : memref<64xf32>) {
  ^bb0(%in: f32, %o: f32):
    %0 = arith.addf %o, %in : f32
    linalg.yield %0 : f32
  }
  memref.dealloc %c : memref<64x64xf32>
  return
}

// Not fused: a consumer reading C transposed (its stores would not follow
// C's layout).
// CHECK-LABEL: func.func @negative_epilogue_transposed
// CHECK: scf.execute_region
// CHECK: linalg.generic
#ntr = affine_map<(d0, d1) -> (d1, d0)>
func.func @negative_epilogue_transposed(%a: memref<64x64xf32>, %b: memref<64x64xf32>,
                                        %out: memref<64x64xf32>) {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<64x64xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<64x64xf32>)
  linalg.matmul ins(%a, %b : memref<64x64xf32>, memref<64x64xf32>)
                outs(%c : memref<64x64xf32>)
  linalg.generic {indexing_maps = [#ntr, #nid], iterator_types = ["parallel", "parallel"]}
      ins(%c : memref<64x64xf32>) outs(%out : memref<64x64xf32>) {
  ^bb0(%in: f32, %o: f32):
    %0 = arith.maximumf %in, %zero : f32
    linalg.yield %0 : f32
  }
  memref.dealloc %c : memref<64x64xf32>
  return
}

// Not fused: a consumer whose body reads its loop indices (linalg.index).
// CHECK-LABEL: func.func @negative_epilogue_index
// CHECK: scf.execute_region
// CHECK: linalg.generic
func.func @negative_epilogue_index(%a: memref<64x64xf32>, %b: memref<64x64xf32>,
                                   %out: memref<64x64xf32>) {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<64x64xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<64x64xf32>)
  linalg.matmul ins(%a, %b : memref<64x64xf32>, memref<64x64xf32>)
                outs(%c : memref<64x64xf32>)
  linalg.generic {indexing_maps = [#nid, #nid], iterator_types = ["parallel", "parallel"]}
      ins(%c : memref<64x64xf32>) outs(%out : memref<64x64xf32>) {
  ^bb0(%in: f32, %o: f32):
    %i = linalg.index 0 : index
    %j = arith.index_cast %i : index to i32
    %f = arith.sitofp %j : i32 to f32
    %0 = arith.addf %in, %f : f32
    linalg.yield %0 : f32
  }
  memref.dealloc %c : memref<64x64xf32>
  return
}

// Not fused: an op between the product and the consumer writes A.
// CHECK-LABEL: func.func @negative_epilogue_a_written
// CHECK: scf.execute_region
// CHECK: linalg.fill
// CHECK: linalg.generic
func.func @negative_epilogue_a_written(%a: memref<64x64xf32>, %b: memref<64x64xf32>,
                                       %out: memref<64x64xf32>) {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<64x64xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<64x64xf32>)
  linalg.matmul ins(%a, %b : memref<64x64xf32>, memref<64x64xf32>)
                outs(%c : memref<64x64xf32>)
  linalg.fill ins(%zero : f32) outs(%a : memref<64x64xf32>)
  linalg.generic {indexing_maps = [#nid, #nid], iterator_types = ["parallel", "parallel"]}
      ins(%c : memref<64x64xf32>) outs(%out : memref<64x64xf32>) {
  ^bb0(%in: f32, %o: f32):
    %0 = arith.maximumf %in, %zero : f32
    linalg.yield %0 : f32
  }
  memref.dealloc %c : memref<64x64xf32>
  return
}

// BAD-OPTION
// expected-error@+1 {{kiln-gpu-tile-contractions: min-flops=-1: must not be negative}}
func.func @bad_option() {
  return
}
// END-BAD-OPTION
