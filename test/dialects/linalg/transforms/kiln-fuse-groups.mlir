// RUN: kiln-opt %s --pass-pipeline='builtin.module(func.func(graph-verify,convert-graph-to-linalg{conv-im2col=false},canonicalize,cse,kiln-fuse-groups,canonicalize))' | FileCheck %s
// RUN: kiln-opt %s --pass-pipeline='builtin.module(func.func(graph-verify,convert-graph-to-linalg{conv-im2col=false},canonicalize,cse,kiln-fuse-groups{tile=false}))' | FileCheck %s --check-prefix=INLINE
// RUN: kiln-opt %s --pass-pipeline='builtin.module(func.func(graph-verify,convert-graph-to-linalg{conv-im2col=false},canonicalize,cse,kiln-fuse-groups,canonicalize),kiln-emit-c-interface,canonicalize,linalg-fuse-elementwise-ops,one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map allow-return-allocs-from-loops},func.func(kiln-distinct-results),buffer-results-to-out-params{hoist-static-allocs modify-public-functions})' | FileCheck %s --check-prefix=BUF
// RUN: kiln-opt %s --pass-pipeline='builtin.module(func.func(graph-verify,convert-graph-to-linalg{conv-im2col=false},canonicalize,cse,kiln-fuse-groups{tile=false}),kiln-emit-c-interface,canonicalize,linalg-fuse-elementwise-ops,one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map allow-return-allocs-from-loops},func.func(kiln-distinct-results),buffer-results-to-out-params{hoist-static-allocs modify-public-functions})' | FileCheck %s --check-prefix=UNFUSED
// RUN: sed -n '/^\/\/ BAD-ROWS/,/^\/\/ END-BAD-ROWS/p' %s > %t.rows.mlir
// RUN: kiln-opt %t.rows.mlir --pass-pipeline='builtin.module(func.func(kiln-fuse-groups{conv-tile-rows=0}))' --verify-diagnostics
// RUN: sed -n '/^\/\/ BAD-PIXELS/,/^\/\/ END-BAD-PIXELS/p' %s > %t.pixels.mlir
// RUN: kiln-opt %t.pixels.mlir --pass-pipeline='builtin.module(func.func(kiln-fuse-groups{conv-tile-pixels=0}))' --verify-diagnostics
// RUN: kiln-opt %s --pass-pipeline='builtin.module(func.func(graph-verify,convert-graph-to-linalg,canonicalize,cse,kiln-fuse-groups,canonicalize))' | FileCheck %s --check-prefix=IM2COL
// RUN: sed -n '/^\/\/ BAD-TASKS/,/^\/\/ END-BAD-TASKS/p' %s > %t.tasks.mlir
// RUN: kiln-opt %t.tasks.mlir --pass-pipeline='builtin.module(func.func(kiln-fuse-groups{depthwise-tasks=0}))' --verify-diagnostics
// RUN: kiln-opt %s --pass-pipeline='builtin.module(func.func(graph-verify,convert-graph-to-linalg,canonicalize,cse,kiln-fuse-groups{conv-window-tiles=0},canonicalize))' | FileCheck %s --check-prefix=WHOLE
// RUN: sed -n '/^\/\/ BAD-WINDOW/,/^\/\/ END-BAD-WINDOW/p' %s > %t.window.mlir
// RUN: kiln-opt %t.window.mlir --pass-pipeline='builtin.module(func.func(kiln-fuse-groups{conv-window-tiles=-1}))' --verify-diagnostics

// The epilogue is tiled by output rows (one image, all channels, one row)
// and the conv and its bias initialization are computed per tile.
// CHECK-LABEL: func.func @conv_epilogue
// CHECK-NOT: scf.execute_region
// CHECK: %[[OUT:.*]] = tensor.empty() : tensor<1x8x16x16xf32>
// CHECK: scf.forall (%[[I:.*]]) in (16) shared_outs(%{{.*}} = %[[OUT]])
// CHECK: linalg.generic {{.*}} ins(%arg2 : tensor<8xf32>) outs(%{{.*}} : tensor<1x8x1x16xf32>)
// CHECK: linalg.conv_2d_nchw_fchw {{.*}} ins(%{{.*}}, %arg1 : tensor<1x8x3x18xf32>, tensor<8x8x3x3xf32>) outs(%{{.*}} : tensor<1x8x1x16xf32>)
// CHECK: tensor.parallel_insert_slice {{.*}} [1, 8, 1, 16] [1, 1, 1, 1] : tensor<1x8x1x16xf32> into tensor<1x8x16x16xf32>
// CHECK-NOT: linalg.conv_2d_nchw_fchw
// CHECK: return
// INLINE-LABEL: func.func @conv_epilogue
// INLINE-NOT: scf.execute_region
// INLINE-NOT: scf.forall
// INLINE: linalg.conv_2d_nchw_fchw {{.*}} outs(%{{.*}} : tensor<1x8x16x16xf32>)
// INLINE: return
// After bufferization the conv writes one tile-sized buffer per tile.
// BUF-LABEL: func.func @conv_epilogue
// BUF: scf.forall
// BUF: %[[T:.*]] = memref.alloc() {{.*}} : memref<1x8x1x16xf32>
// BUF: linalg.conv_2d_nchw_fchw {{.*}} outs(%[[T]] : memref<1x8x1x16xf32>)
// BUF-NOT: memref<1x8x16x16xf32>)
// BUF: return
// UNFUSED-LABEL: func.func @conv_epilogue
// UNFUSED: linalg.conv_2d_nchw_fchw {{.*}} outs(%{{.*}} : memref<1x8x16x16xf32>)
func.func @conv_epilogue(%x: tensor<1x8x16x16xf32>, %w: tensor<8x8x3x3xf32>, %b: tensor<8xf32>, %r: tensor<1x8x16x16xf32>) -> tensor<1x8x16x16xf32> {
  %g = scf.execute_region -> tensor<1x8x16x16xf32> no_inline {
    %0 = "graph.conv"(%x, %w, %b) {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x8x16x16xf32>, tensor<8x8x3x3xf32>, tensor<8xf32>) -> tensor<1x8x16x16xf32>
    %1 = "graph.add"(%0, %r) : (tensor<1x8x16x16xf32>, tensor<1x8x16x16xf32>) -> tensor<1x8x16x16xf32>
    %2 = "graph.relu"(%1) : (tensor<1x8x16x16xf32>) -> tensor<1x8x16x16xf32>
    scf.yield %2 : tensor<1x8x16x16xf32>
  } {graph.fusion = "conv_epilogue"}
  return %g : tensor<1x8x16x16xf32>
}

// Matmul rows are tiled by the largest divisor of M up to 8 (here 6 of 12),
// so every tile is full and static.
// CHECK-LABEL: func.func @matmul_epilogue
// CHECK: scf.forall (%{{.*}}) in (2)
// CHECK: linalg.matmul ins(%{{.*}}, %arg1 : tensor<6x16xf32>, tensor<16x32xf32>) outs(%{{.*}} : tensor<6x32xf32>)
// CHECK-NOT: linalg.matmul
// CHECK: return
// BUF-LABEL: func.func @matmul_epilogue
// BUF: linalg.matmul {{.*}} outs(%{{.*}} : memref<6x32xf32
func.func @matmul_epilogue(%a: tensor<12x16xf32>, %w: tensor<16x32xf32>, %b: tensor<32xf32>) -> tensor<12x32xf32> {
  %g = scf.execute_region -> tensor<12x32xf32> no_inline {
    %0 = "graph.matmul"(%a, %w) : (tensor<12x16xf32>, tensor<16x32xf32>) -> tensor<12x32xf32>
    %1 = "graph.add"(%0, %b) : (tensor<12x32xf32>, tensor<32xf32>) -> tensor<12x32xf32>
    %2 = "graph.gelu"(%1) : (tensor<12x32xf32>) -> tensor<12x32xf32>
    scf.yield %2 : tensor<12x32xf32>
  } {graph.fusion = "matmul_epilogue"}
  return %g : tensor<12x32xf32>
}

// Elementwise and reduction groups are only inlined: upstream
// linalg-fuse-elementwise-ops fuses their generics later.
// CHECK-LABEL: func.func @elementwise
// CHECK-NOT: scf.execute_region
// CHECK-NOT: scf.forall
// CHECK: linalg.generic
// CHECK: return
func.func @elementwise(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %g = scf.execute_region -> tensor<4x4xf32> no_inline {
    %0 = "graph.exp"(%x) : (tensor<4x4xf32>) -> tensor<4x4xf32>
    %1 = "graph.neg"(%0) : (tensor<4x4xf32>) -> tensor<4x4xf32>
    scf.yield %1 : tensor<4x4xf32>
  } {graph.fusion = "elementwise"}
  return %g : tensor<4x4xf32>
}

// A conv_epilogue group whose root reaches no contraction through linalg
// ops is lowered unfused (inlined, not tiled), not rejected.
// CHECK-LABEL: func.func @negative_no_contraction
// CHECK-NOT: scf.execute_region
// CHECK-NOT: scf.forall
// CHECK: return
func.func @negative_no_contraction(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> {
  %g = scf.execute_region -> tensor<1x2x4x4xf32> no_inline {
    %0 = "graph.relu"(%x) : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
    %1 = "graph.neg"(%0) : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
    scf.yield %1 : tensor<1x2x4x4xf32>
  } {graph.fusion = "conv_epilogue"}
  return %g : tensor<1x2x4x4xf32>
}

// An execute_region without graph.fusion is not a group: left alone.
// CHECK-LABEL: func.func @negative_not_a_group
// CHECK: scf.execute_region
func.func @negative_not_a_group(%x: tensor<4xf32>) -> tensor<4xf32> {
  %g = scf.execute_region -> tensor<4xf32> no_inline {
    %0 = "graph.exp"(%x) : (tensor<4xf32>) -> tensor<4xf32>
    scf.yield %0 : tensor<4xf32>
  }
  return %g : tensor<4xf32>
}

// BAD-ROWS
// expected-error@+1 {{kiln-fuse-groups: tile options must be positive (conv-window-tiles at least 0), got conv-tile-rows=0 matmul-tile-rows=8 conv-tile-channels=32 conv-tile-pixels=256 depthwise-tasks=16 conv-window-tiles=4}}
func.func @bad_rows(%x: tensor<3xf32>) -> tensor<3xf32> {
  return %x : tensor<3xf32>
}
// END-BAD-ROWS

// BAD-PIXELS
// expected-error@+1 {{kiln-fuse-groups: tile options must be positive (conv-window-tiles at least 0), got conv-tile-rows=1 matmul-tile-rows=8 conv-tile-channels=32 conv-tile-pixels=0 depthwise-tasks=16 conv-window-tiles=4}}
func.func @bad_pixels(%x: tensor<3xf32>) -> tensor<3xf32> {
  return %x : tensor<3xf32>
}
// END-BAD-PIXELS

// BAD-TASKS
// expected-error@+1 {{kiln-fuse-groups: tile options must be positive (conv-window-tiles at least 0), got conv-tile-rows=1 matmul-tile-rows=8 conv-tile-channels=32 conv-tile-pixels=256 depthwise-tasks=0 conv-window-tiles=4}}
func.func @bad_tasks(%x: tensor<3xf32>) -> tensor<3xf32> {
  return %x : tensor<3xf32>
}
// END-BAD-TASKS

// BAD-WINDOW
// expected-error@+1 {{kiln-fuse-groups: tile options must be positive (conv-window-tiles at least 0), got conv-tile-rows=1 matmul-tile-rows=8 conv-tile-channels=32 conv-tile-pixels=256 depthwise-tasks=16 conv-window-tiles=-1}}
func.func @bad_window(%x: tensor<3xf32>) -> tensor<3xf32> {
  return %x : tensor<3xf32>
}
// END-BAD-WINDOW

// A depthwise conv's group is tiled by blocks of channels with whole
// planes: 96 channels in 16 tasks of 6, each computing its own bias
// initialization, conv and clip. (By rows, a 7x7 plane would give 7 tasks
// of one row each.)
// IM2COL-LABEL: func.func @depthwise_epilogue
// IM2COL: scf.forall (%{{.*}}) in (16)
// IM2COL: linalg.generic {{.*}} ins(%{{.*}} : tensor<6xf32>) outs(%{{.*}} : tensor<1x6x7x7xf32>)
// IM2COL: linalg.depthwise_conv_2d_nchw_chw {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x6x9x9xf32>, tensor<6x3x3xf32>) outs(%{{.*}} : tensor<1x6x7x7xf32>)
// IM2COL: tensor.parallel_insert_slice {{.*}} [1, 6, 7, 7] [1, 1, 1, 1] : tensor<1x6x7x7xf32> into tensor<1x96x7x7xf32>
// IM2COL-NOT: linalg.depthwise_conv_2d_nchw_chw
// IM2COL: return
// Fewer channels than tasks: one channel per task.
// IM2COL-LABEL: func.func @depthwise_few_channels
// IM2COL: scf.forall (%{{.*}}, %{{.*}}) in (2, 5)
// IM2COL: linalg.depthwise_conv_2d_nchw_chw {{.*}} outs(%{{.*}} : tensor<1x1x12x12xf32>)
func.func @depthwise_epilogue(%x: tensor<1x96x7x7xf32>, %w: tensor<96x1x3x3xf32>, %b: tensor<96xf32>) -> tensor<1x96x7x7xf32> {
  %lo = "graph.constant"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
  %hi = "graph.constant"() {value = dense<6.0> : tensor<f32>} : () -> tensor<f32>
  %g = scf.execute_region -> tensor<1x96x7x7xf32> no_inline {
    %0 = "graph.conv"(%x, %w, %b) {group = 96 : i64, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x96x7x7xf32>, tensor<96x1x3x3xf32>, tensor<96xf32>) -> tensor<1x96x7x7xf32>
    %1 = "graph.clip"(%0, %lo, %hi) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<1x96x7x7xf32>, tensor<f32>, tensor<f32>) -> tensor<1x96x7x7xf32>
    scf.yield %1 : tensor<1x96x7x7xf32>
  } {graph.fusion = "conv_epilogue"}
  return %g : tensor<1x96x7x7xf32>
}

func.func @depthwise_few_channels(%x: tensor<2x5x12x12xf32>, %w: tensor<5x1x3x3xf32>) -> tensor<2x5x12x12xf32> {
  %g = scf.execute_region -> tensor<2x5x12x12xf32> no_inline {
    %0 = "graph.conv"(%x, %w) {group = 5 : i64, pads = array<i64: 1, 1, 1, 1>} : (tensor<2x5x12x12xf32>, tensor<5x1x3x3xf32>) -> tensor<2x5x12x12xf32>
    %1 = "graph.relu"(%0) : (tensor<2x5x12x12xf32>) -> tensor<2x5x12x12xf32>
    scf.yield %1 : tensor<2x5x12x12xf32>
  } {graph.fusion = "conv_epilogue"}
  return %g : tensor<2x5x12x12xf32>
}

// With convs as im2col contractions (the default lowering), a group's tile
// is a block of output channels (64 = 2 x 32) and of whole output rows of
// at most 256 pixels (here 16 rows of 16: the whole image; the unit loop
// folds away). The contraction computes flattened pixels;
// the slice of the expand_shape that unflattens them is swapped with it so
// the contraction and its bias broadcast are fused into the tile, and the
// residual add and relu follow on the tile.
// IM2COL-LABEL: func.func @im2col_epilogue
// IM2COL: %[[OUT:.*]] = tensor.empty() : tensor<1x64x16x16xf32>
// IM2COL: scf.forall (%{{.*}}) in (2) shared_outs(%{{.*}} = %[[OUT]])
// IM2COL: linalg.generic {{.*}} ins(%{{.*}} : tensor<32xf32>) outs(%{{.*}} : tensor<1x32x256xf32>)
// IM2COL: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "reduction"]
// IM2COL-SAME: outs(%{{.*}} : tensor<1x32x256xf32>)
// IM2COL: tensor.expand_shape {{.*}} output_shape [1, 32, 16, 16] : tensor<1x32x256xf32> into tensor<1x32x16x16xf32>
// IM2COL: tensor.parallel_insert_slice {{.*}} [1, 32, 16, 16] [1, 1, 1, 1] : tensor<1x32x16x16xf32> into tensor<1x64x16x16xf32>
// IM2COL-NOT: iterator_types = ["parallel", "parallel", "parallel", "reduction"]
// IM2COL: return
// Rows of 40 pixels: 6 rows (240 pixels) per tile, the largest divisor of
// 12 not above 256 / 40; 24 channels in one block.
// IM2COL-LABEL: func.func @im2col_rows
// IM2COL: scf.forall (%{{.*}}) in (2)
// IM2COL: outs(%{{.*}} : tensor<1x24x240xf32>)
// IM2COL: tensor.parallel_insert_slice {{.*}} [1, 24, 6, 40] [1, 1, 1, 1]
// Rows of 17 pixels (17 rows: a prime): one row per tile would be one
// vector of 16 and a remainder column of 1; the tile takes all 17 rows
// (289 pixels = 18 x 16 + 1), over the 256-pixel cap.
// IM2COL-LABEL: func.func @im2col_odd_rows
// IM2COL: scf.forall (%{{.*}}) in (2)
// IM2COL: outs(%{{.*}} : tensor<1x24x289xf32>)
// IM2COL: tensor.parallel_insert_slice {{.*}} [1, 24, 17, 17] [1, 1, 1, 1]
func.func @im2col_epilogue(%x: tensor<1x16x16x16xf32>, %w: tensor<64x16x3x3xf32>, %b: tensor<64xf32>, %r: tensor<1x64x16x16xf32>) -> tensor<1x64x16x16xf32> {
  %g = scf.execute_region -> tensor<1x64x16x16xf32> no_inline {
    %0 = "graph.conv"(%x, %w, %b) {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x16x16x16xf32>, tensor<64x16x3x3xf32>, tensor<64xf32>) -> tensor<1x64x16x16xf32>
    %1 = "graph.add"(%0, %r) : (tensor<1x64x16x16xf32>, tensor<1x64x16x16xf32>) -> tensor<1x64x16x16xf32>
    %2 = "graph.relu"(%1) : (tensor<1x64x16x16xf32>) -> tensor<1x64x16x16xf32>
    scf.yield %2 : tensor<1x64x16x16xf32>
  } {graph.fusion = "conv_epilogue"}
  return %g : tensor<1x64x16x16xf32>
}

func.func @im2col_rows(%x: tensor<1x8x12x40xf32>, %w: tensor<24x8x1x1xf32>, %b: tensor<24xf32>) -> tensor<1x24x12x40xf32> {
  %g = scf.execute_region -> tensor<1x24x12x40xf32> no_inline {
    %0 = "graph.conv"(%x, %w, %b) : (tensor<1x8x12x40xf32>, tensor<24x8x1x1xf32>, tensor<24xf32>) -> tensor<1x24x12x40xf32>
    %1 = "graph.relu"(%0) : (tensor<1x24x12x40xf32>) -> tensor<1x24x12x40xf32>
    scf.yield %1 : tensor<1x24x12x40xf32>
  } {graph.fusion = "conv_epilogue"}
  return %g : tensor<1x24x12x40xf32>
}

func.func @im2col_odd_rows(%x: tensor<1x8x17x17xf32>, %w: tensor<48x8x1x7xf32>, %b: tensor<48xf32>) -> tensor<1x48x17x17xf32> {
  %g = scf.execute_region -> tensor<1x48x17x17xf32> no_inline {
    %0 = "graph.conv"(%x, %w, %b) {pads = array<i64: 0, 3, 0, 3>} : (tensor<1x8x17x17xf32>, tensor<48x8x1x7xf32>, tensor<48xf32>) -> tensor<1x48x17x17xf32>
    %1 = "graph.relu"(%0) : (tensor<1x48x17x17xf32>) -> tensor<1x48x17x17xf32>
    scf.yield %1 : tensor<1x48x17x17xf32>
  } {graph.fusion = "conv_epilogue"}
  return %g : tensor<1x48x17x17xf32>
}

// A unit-stride conv on an image of at least 4 row blocks (32 rows of 32
// pixels: blocks of 8 rows) takes all output channels per tile (48, not 32)
// and computes its own rows of the window tensor: the window generic is
// fused into the tile, reading 8 + 2 rows of the padded input.
// With conv-window-tiles=0 the window tensor is built whole, before the
// tiles, which are blocks of output channels (24 of 48) x rows.
// WHOLE-LABEL: func.func @im2col_window
// WHOLE: linalg.generic {{.*}} outs(%{{.*}} : tensor<1x4x3x3x32x32xf32>)
// WHOLE: scf.forall (%{{.*}}, %{{.*}}) in (2, 4)
// WHOLE-NOT: tensor<1x4x3x3x8x32xf32>
// WHOLE: tensor.parallel_insert_slice {{.*}} [1, 24, 8, 32] [1, 1, 1, 1]
// IM2COL-LABEL: func.func @im2col_window
// IM2COL: scf.forall (%{{.*}}) in (4)
// IM2COL: tensor.extract_slice %{{.*}}[0, 0, %{{.*}}, 0] [1, 4, 10, 34] [1, 1, 1, 1] : tensor<1x4x34x34xf32> to tensor<1x4x10x34xf32>
// IM2COL: %[[WIN:.*]] = linalg.generic {{.*}} ins(%{{.*}} : tensor<1x4x10x34xf32>) outs(%{{.*}} : tensor<1x4x3x3x8x32xf32>)
// IM2COL: tensor.collapse_shape %[[WIN]] {{.*}} into tensor<1x36x256xf32>
// IM2COL: iterator_types = ["parallel", "parallel", "parallel", "reduction"]
// IM2COL-SAME: outs(%{{.*}} : tensor<1x48x256xf32>)
// IM2COL: tensor.parallel_insert_slice {{.*}} [1, 48, 8, 32] [1, 1, 1, 1]
func.func @im2col_window(%x: tensor<1x4x32x32xf32>, %w: tensor<48x4x3x3xf32>, %b: tensor<48xf32>) -> tensor<1x48x32x32xf32> {
  %g = scf.execute_region -> tensor<1x48x32x32xf32> no_inline {
    %0 = "graph.conv"(%x, %w, %b) {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x4x32x32xf32>, tensor<48x4x3x3xf32>, tensor<48xf32>) -> tensor<1x48x32x32xf32>
    %1 = "graph.relu"(%0) : (tensor<1x48x32x32xf32>) -> tensor<1x48x32x32xf32>
    scf.yield %1 : tensor<1x48x32x32xf32>
  } {graph.fusion = "conv_epilogue"}
  return %g : tensor<1x48x32x32xf32>
}

// A 3-D conv whose planes exceed conv-tile-pixels (20 x 18 = 360) is tiled
// by rows of one plane (10 rows, 180 pixels: 3 depth slices x 2 row blocks),
// all output channels per tile, and each tile computes its own columns of
// the window tensor, reading 3 planes of 10 + 2 rows of the padded input.
// IM2COL-LABEL: func.func @im2col_window_3d
// IM2COL: scf.forall (%{{.*}}, %{{.*}}) in (3, 2)
// IM2COL: tensor.extract_slice %{{.*}}[0, 0, %{{.*}}, %{{.*}}, 0] [1, 4, 3, 12, 20] [1, 1, 1, 1, 1] : tensor<1x4x5x22x20xf32> to tensor<1x4x3x12x20xf32>
// IM2COL: %[[WIN3:.*]] = linalg.generic {{.*}} ins(%{{.*}} : tensor<1x4x3x12x20xf32>) outs(%{{.*}} : tensor<1x4x3x3x3x1x10x18xf32>)
// IM2COL: tensor.collapse_shape %[[WIN3]] {{.*}} into tensor<1x108x180xf32>
// IM2COL: iterator_types = ["parallel", "parallel", "parallel", "reduction"]
// IM2COL-SAME: outs(%{{.*}} : tensor<1x24x180xf32>)
// IM2COL: tensor.parallel_insert_slice {{.*}} [1, 24, 1, 10, 18] [1, 1, 1, 1, 1]
func.func @im2col_window_3d(%x: tensor<1x4x3x20x18xf32>, %w: tensor<24x4x3x3x3xf32>, %b: tensor<24xf32>) -> tensor<1x24x3x20x18xf32> {
  %g = scf.execute_region -> tensor<1x24x3x20x18xf32> no_inline {
    %0 = "graph.conv"(%x, %w, %b) {pads = array<i64: 1, 1, 1, 1, 1, 1>} : (tensor<1x4x3x20x18xf32>, tensor<24x4x3x3x3xf32>, tensor<24xf32>) -> tensor<1x24x3x20x18xf32>
    %1 = "graph.relu"(%0) : (tensor<1x24x3x20x18xf32>) -> tensor<1x24x3x20x18xf32>
    scf.yield %1 : tensor<1x24x3x20x18xf32>
  } {graph.fusion = "conv_epilogue"}
  return %g : tensor<1x24x3x20x18xf32>
}

// A strided 3-D conv with small planes (13 x 11) is tiled by whole planes:
// its window is one gather generic (not tap copies), each tile's part
// fused into the tile.
// IM2COL-LABEL: func.func @im2col_window_3d_strided
// IM2COL: scf.forall (%{{.*}}) in (5)
// IM2COL: %[[WIN3S:.*]] = linalg.generic {{.*}} ins(%{{.*}} : tensor<1x8x3x27x23xf32>) outs(%{{.*}} : tensor<1x8x3x3x3x1x13x11xf32>)
// IM2COL: tensor.collapse_shape %[[WIN3S]] {{.*}} into tensor<1x216x143xf32>
// IM2COL: tensor.parallel_insert_slice {{.*}} [1, 16, 1, 13, 11] [1, 1, 1, 1, 1]
func.func @im2col_window_3d_strided(%x: tensor<1x8x9x26x22xf32>, %w: tensor<16x8x3x3x3xf32>, %b: tensor<16xf32>) -> tensor<1x16x5x13x11xf32> {
  %g = scf.execute_region -> tensor<1x16x5x13x11xf32> no_inline {
    %0 = "graph.conv"(%x, %w, %b) {pads = array<i64: 1, 1, 1, 1, 1, 1>, strides = array<i64: 2, 2, 2>} : (tensor<1x8x9x26x22xf32>, tensor<16x8x3x3x3xf32>, tensor<16xf32>) -> tensor<1x16x5x13x11xf32>
    %1 = "graph.relu"(%0) : (tensor<1x16x5x13x11xf32>) -> tensor<1x16x5x13x11xf32>
    scf.yield %1 : tensor<1x16x5x13x11xf32>
  } {graph.fusion = "conv_epilogue"}
  return %g : tensor<1x16x5x13x11xf32>
}

// Negative: 2 planes of 13 x 11 are too few blocks, and 13 rows of 11
// pixels too short to split them: the window tensor is built whole, the
// tiles are blocks of output channels (20 of 40) x planes.
// IM2COL-LABEL: func.func @im2col_3d_few_blocks
// IM2COL: linalg.generic {{.*}} outs(%{{.*}} : tensor<1x8x3x3x3x2x13x11xf32>)
// IM2COL: scf.forall (%{{.*}}, %{{.*}}) in (2, 2)
// IM2COL-NOT: tensor<1x8x3x3x3x1x13x11xf32>
// IM2COL: tensor.parallel_insert_slice {{.*}} [1, 20, 1, 13, 11] [1, 1, 1, 1, 1]
func.func @im2col_3d_few_blocks(%x: tensor<1x8x2x13x11xf32>, %w: tensor<40x8x3x3x3xf32>, %b: tensor<40xf32>) -> tensor<1x40x2x13x11xf32> {
  %g = scf.execute_region -> tensor<1x40x2x13x11xf32> no_inline {
    %0 = "graph.conv"(%x, %w, %b) {pads = array<i64: 1, 1, 1, 1, 1, 1>} : (tensor<1x8x2x13x11xf32>, tensor<40x8x3x3x3xf32>, tensor<40xf32>) -> tensor<1x40x2x13x11xf32>
    %1 = "graph.relu"(%0) : (tensor<1x40x2x13x11xf32>) -> tensor<1x40x2x13x11xf32>
    scf.yield %1 : tensor<1x40x2x13x11xf32>
  } {graph.fusion = "conv_epilogue"}
  return %g : tensor<1x40x2x13x11xf32>
}

// An epilogue DAG (SiLU: x * sigmoid(x)) reads the contraction twice: the
// two tiles' slices of it are merged, so it is fused into each tile once
// (consumers are fused before their producers) and never computed whole.
// IM2COL-LABEL: func.func @im2col_silu
// IM2COL: scf.forall (%{{.*}}) in (2) shared_outs
// IM2COL: iterator_types = ["parallel", "parallel", "parallel", "reduction"]
// IM2COL-NOT: iterator_types = ["parallel", "parallel", "parallel", "reduction"]
// IM2COL: tensor.parallel_insert_slice
// IM2COL-NOT: iterator_types = ["parallel", "parallel", "parallel", "reduction"]
// IM2COL: return
func.func @im2col_silu(%x: tensor<1x16x16x16xf32>, %w: tensor<64x16x3x3xf32>, %b: tensor<64xf32>) -> tensor<1x64x16x16xf32> {
  %g = scf.execute_region -> tensor<1x64x16x16xf32> no_inline {
    %0 = "graph.conv"(%x, %w, %b) {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x16x16x16xf32>, tensor<64x16x3x3xf32>, tensor<64xf32>) -> tensor<1x64x16x16xf32>
    %1 = "graph.sigmoid"(%0) : (tensor<1x64x16x16xf32>) -> tensor<1x64x16x16xf32>
    %2 = "graph.mul"(%0, %1) : (tensor<1x64x16x16xf32>, tensor<1x64x16x16xf32>) -> tensor<1x64x16x16xf32>
    scf.yield %2 : tensor<1x64x16x16xf32>
  } {graph.fusion = "conv_epilogue"}
  return %g : tensor<1x64x16x16xf32>
}

// A 1-D im2col conv: its contraction computes the result's pixels
// directly (no expand_shape); tiles of 32 channels x 250 of the 1000
// pixels (the largest divisor not above 256). A 3-D one: tiles of whole
// output depth slices (4 x 6 = 24 pixels each, 256 / 24 = 10 slices at
// most: all 5, one tile, whose loop folds away), the contraction's pixels
// unflattened to depth x rows x columns for the epilogue.
// IM2COL-LABEL: func.func @im2col_1d
// IM2COL: scf.forall (%{{.*}}, %{{.*}}) in (2, 4)
// IM2COL: iterator_types = ["parallel", "parallel", "parallel", "reduction"]
// IM2COL-SAME: outs(%{{.*}} : tensor<1x32x250xf32>)
// IM2COL: tensor.parallel_insert_slice {{.*}} [1, 32, 250] [1, 1, 1] : tensor<1x32x250xf32> into tensor<1x64x1000xf32>
// A 1-D conv of prime length (997): the largest dividing block (1) is too
// short to vectorize, so a tile takes the whole length.
// IM2COL-LABEL: func.func @im2col_1d_prime
// IM2COL: scf.forall (%{{.*}}) in (2)
// IM2COL: tensor.parallel_insert_slice {{.*}} [1, 32, 997] [1, 1, 1]
// IM2COL-LABEL: func.func @im2col_3d
// IM2COL: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "reduction"]
// IM2COL-SAME: outs(%{{.*}} : tensor<1x8x120xf32>)
// IM2COL: tensor.expand_shape {{.*}} output_shape [1, 8, 5, 4, 6] : tensor<1x8x120xf32> into tensor<1x8x5x4x6xf32>
// IM2COL: arith.select
func.func @im2col_1d(%x: tensor<1x16x1000xf32>, %w: tensor<64x16x3xf32>, %b: tensor<64xf32>) -> tensor<1x64x1000xf32> {
  %g = scf.execute_region -> tensor<1x64x1000xf32> no_inline {
    %0 = "graph.conv"(%x, %w, %b) {pads = array<i64: 1, 1>} : (tensor<1x16x1000xf32>, tensor<64x16x3xf32>, tensor<64xf32>) -> tensor<1x64x1000xf32>
    %1 = "graph.relu"(%0) : (tensor<1x64x1000xf32>) -> tensor<1x64x1000xf32>
    scf.yield %1 : tensor<1x64x1000xf32>
  } {graph.fusion = "conv_epilogue"}
  return %g : tensor<1x64x1000xf32>
}

func.func @im2col_1d_prime(%x: tensor<1x16x997xf32>, %w: tensor<64x16x3xf32>) -> tensor<1x64x997xf32> {
  %g = scf.execute_region -> tensor<1x64x997xf32> no_inline {
    %0 = "graph.conv"(%x, %w) {pads = array<i64: 1, 1>} : (tensor<1x16x997xf32>, tensor<64x16x3xf32>) -> tensor<1x64x997xf32>
    %1 = "graph.relu"(%0) : (tensor<1x64x997xf32>) -> tensor<1x64x997xf32>
    scf.yield %1 : tensor<1x64x997xf32>
  } {graph.fusion = "conv_epilogue"}
  return %g : tensor<1x64x997xf32>
}

func.func @im2col_3d(%x: tensor<1x2x5x4x6xf32>, %w: tensor<8x2x3x3x3xf32>) -> tensor<1x8x5x4x6xf32> {
  %g = scf.execute_region -> tensor<1x8x5x4x6xf32> no_inline {
    %0 = "graph.conv"(%x, %w) {pads = array<i64: 1, 1, 1, 1, 1, 1>} : (tensor<1x2x5x4x6xf32>, tensor<8x2x3x3x3xf32>) -> tensor<1x8x5x4x6xf32>
    %1 = "graph.relu"(%0) : (tensor<1x8x5x4x6xf32>) -> tensor<1x8x5x4x6xf32>
    scf.yield %1 : tensor<1x8x5x4x6xf32>
  } {graph.fusion = "conv_epilogue"}
  return %g : tensor<1x8x5x4x6xf32>
}

// A grouped conv (4 groups of 8): tiles of whole groups, one per tile to
// leave as many tiles as it can (4, under 8) on a one-row-block image; each computes its group's 8
// channels of the window tensor (groups read disjoint channels), its slice
// of the grouped contraction (1 group x 8 channels x 196 pixels, K = 72)
// through the group merge, and the residual Add + Relu.
// IM2COL-LABEL: func.func @grouped_window
// IM2COL: scf.forall (%{{.*}}) in (4)
// IM2COL: %[[GWIN:.*]] = linalg.generic {{.*}} ins(%{{.*}} : tensor<1x8x16x16xf32>) outs(%{{.*}} : tensor<1x8x3x3x14x14xf32>)
// IM2COL: %[[GCOL:.*]] = tensor.collapse_shape %[[GWIN]] {{\[\[}}0], [1, 2, 3], [4, 5]] : tensor<1x8x3x3x14x14xf32> into tensor<1x72x196xf32>
// IM2COL: tensor.expand_shape %[[GCOL]] {{\[\[}}0], [1, 2], [3]] output_shape [1, 1, 72, 196]
// IM2COL: %[[GY:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]
// IM2COL-SAME: outs(%{{.*}} : tensor<1x1x8x196xf32>)
// IM2COL: tensor.collapse_shape %[[GY]] {{\[\[}}0], [1, 2], [3]] : tensor<1x1x8x196xf32> into tensor<1x8x196xf32>
// IM2COL: arith.addf
// IM2COL: arith.select
// IM2COL: tensor.parallel_insert_slice {{.*}} [1, 8, 14, 14] [1, 1, 1, 1] : tensor<1x8x14x14xf32> into tensor<1x32x14x14xf32>
// IM2COL-NOT: linalg.generic
// IM2COL: return
func.func @grouped_window(%x: tensor<1x32x14x14xf32>, %w: tensor<32x8x3x3xf32>, %b: tensor<32xf32>, %r: tensor<1x32x14x14xf32>) -> tensor<1x32x14x14xf32> {
  %g = scf.execute_region -> tensor<1x32x14x14xf32> no_inline {
    %0 = "graph.conv"(%x, %w, %b) {group = 4 : i64, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x32x14x14xf32>, tensor<32x8x3x3xf32>, tensor<32xf32>) -> tensor<1x32x14x14xf32>
    %1 = "graph.add"(%0, %r) : (tensor<1x32x14x14xf32>, tensor<1x32x14x14xf32>) -> tensor<1x32x14x14xf32>
    %2 = "graph.relu"(%1) : (tensor<1x32x14x14xf32>) -> tensor<1x32x14x14xf32>
    scf.yield %2 : tensor<1x32x14x14xf32>
  } {graph.fusion = "conv_epilogue"}
  return %g : tensor<1x32x14x14xf32>
}

// A strided grouped conv: its window tensor is copied tap by tap (strided
// slices of the padded input), not one generic; each tile copies its own
// group's taps (8 channels x 9 taps, rows 0, 1, 2 with stride 2) and no
// whole window tensor is left. The contraction and the Relu are tiled by
// whole groups as above.
// IM2COL-LABEL: func.func @grouped_strided
// IM2COL-NOT: tensor<1x16x3x3x8x8xf32>
// IM2COL: scf.forall (%{{.*}}) in (2)
// IM2COL: tensor.empty() : tensor<1x8x3x3x8x8xf32>
// IM2COL: tensor.extract_slice %{{.*}}[0, %[[C0:.*]], 0, 0] [1, 8, 8, 8] [1, 1, 2, 2] : tensor<1x16x17x17xf32> to tensor<1x8x8x8xf32>
// IM2COL-COUNT-8: tensor.extract_slice %{{.*}}[0, %[[C0]], {{[012]}}, {{[012]}}] [1, 8, 8, 8] [1, 1, 2, 2]
// IM2COL: tensor.collapse_shape %{{.*}} {{\[\[}}0], [1, 2, 3], [4, 5]] : tensor<1x8x3x3x8x8xf32> into tensor<1x72x64xf32>
// IM2COL: iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]
// IM2COL-SAME: outs(%{{.*}} : tensor<1x1x8x64xf32>)
// IM2COL: arith.select
// IM2COL: tensor.parallel_insert_slice {{.*}} [1, 8, 8, 8] [1, 1, 1, 1] : tensor<1x8x8x8xf32> into tensor<1x16x8x8xf32>
// IM2COL-NOT: tensor<1x16x3x3x8x8xf32>
// IM2COL: return
func.func @grouped_strided(%x: tensor<1x16x15x15xf32>, %w: tensor<16x8x3x3xf32>) -> tensor<1x16x8x8xf32> {
  %g = scf.execute_region -> tensor<1x16x8x8xf32> no_inline {
    %0 = "graph.conv"(%x, %w) {group = 2 : i64, strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x16x15x15xf32>, tensor<16x8x3x3xf32>) -> tensor<1x16x8x8xf32>
    %1 = "graph.relu"(%0) : (tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32>
    scf.yield %1 : tensor<1x16x8x8xf32>
  } {graph.fusion = "conv_epilogue"}
  return %g : tensor<1x16x8x8xf32>
}

// A conv in no group (DenseNet's 3x3 convs, written into the block's
// concat): tiled like an epilogue group with an empty epilogue, its
// contraction by blocks of 8 rows with all 20 channels, each tile
// building its rows of the window tensor (8 + 2 rows of the padded input)
// and starting from its slice of the fill; the pixels are unflattened
// after the tile loop, whose result the concat reads.
// IM2COL-LABEL: func.func @lone_conv_window
// IM2COL: %[[LOOP:.*]] = scf.forall (%{{.*}}) in (4) shared_outs(%{{.*}} = %{{.*}}) -> (tensor<1x20x1024xf32>)
// IM2COL: tensor.extract_slice %{{.*}}[0, 0, %{{.*}}, 0] [1, 5, 10, 34] [1, 1, 1, 1] : tensor<1x5x34x34xf32> to tensor<1x5x10x34xf32>
// IM2COL: %[[WIN:.*]] = linalg.generic {{.*}} ins(%{{.*}} : tensor<1x5x10x34xf32>) outs(%{{.*}} : tensor<1x5x3x3x8x32xf32>)
// IM2COL: tensor.collapse_shape %[[WIN]] {{.*}} into tensor<1x45x256xf32>
// IM2COL: linalg.fill {{.*}} -> tensor<1x20x256xf32>
// IM2COL: iterator_types = ["parallel", "parallel", "parallel", "reduction"]
// IM2COL-SAME: outs(%{{.*}} : tensor<1x20x256xf32>)
// IM2COL: tensor.parallel_insert_slice {{.*}} [1, 20, 256] [1, 1, 1] : tensor<1x20x256xf32> into tensor<1x20x1024xf32>
// IM2COL: tensor.expand_shape %[[LOOP]]
// IM2COL: tensor.insert_slice
func.func @lone_conv_window(%x: tensor<1x5x32x32xf32>, %w: tensor<20x5x3x3xf32>) -> tensor<1x25x32x32xf32> {
  %0 = "graph.conv"(%x, %w) {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x5x32x32xf32>, tensor<20x5x3x3xf32>) -> tensor<1x20x32x32xf32>
  %1 = "graph.concat"(%x, %0) {axis = 1 : i64} : (tensor<1x5x32x32xf32>, tensor<1x20x32x32xf32>) -> tensor<1x25x32x32xf32>
  return %1 : tensor<1x25x32x32xf32>
}

// Left alone: a lone conv on an image of fewer than 4 row blocks (14 x 14:
// one block of 14 rows; kiln-tile-and-vectorize threads it), a lone 1x1
// conv (no window tensor) and a strided one (tap copies).
// IM2COL-LABEL: func.func @lone_conv_negative
// IM2COL-NOT: scf.forall
// IM2COL: return
func.func @lone_conv_negative(%x: tensor<1x5x14x14xf32>, %w: tensor<20x5x3x3xf32>, %w1: tensor<20x5x1x1xf32>, %y: tensor<1x5x32x32xf32>) -> (tensor<1x20x14x14xf32>, tensor<1x20x14x14xf32>, tensor<1x20x16x16xf32>) {
  %0 = "graph.conv"(%x, %w) {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x5x14x14xf32>, tensor<20x5x3x3xf32>) -> tensor<1x20x14x14xf32>
  %1 = "graph.conv"(%x, %w1) : (tensor<1x5x14x14xf32>, tensor<20x5x1x1xf32>) -> tensor<1x20x14x14xf32>
  %2 = "graph.conv"(%y, %w) {pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x5x32x32xf32>, tensor<20x5x3x3xf32>) -> tensor<1x20x16x16xf32>
  return %0, %1, %2 : tensor<1x20x14x14xf32>, tensor<1x20x14x14xf32>, tensor<1x20x16x16xf32>
}

// Two convs with the same bias (cse merges their broadcasts: all-zero
// biases of an untrained export look alike): the grouped conv's init,
// made outside its group, is cloned into it, so each block broadcasts its
// own slice of the bias rather than copying a slice of a whole tensor.
// IM2COL-LABEL: func.func @im2col_shared_bias
// IM2COL: %[[B:.*]] = arith.constant dense<5.000000e-01> : tensor<24xf32>
// IM2COL: linalg.generic {{.*}} ins(%[[B]] : tensor<24xf32>) outs(%{{.*}} : tensor<1x24x480xf32>)
// IM2COL: scf.forall
// IM2COL: %[[I:.*]] = linalg.generic {{.*}} ins(%[[B]] : tensor<24xf32>) outs(%{{.*}} : tensor<1x24x240xf32>)
// IM2COL: linalg.generic {{.*}} outs(%[[I]] : tensor<1x24x240xf32>)
func.func @im2col_shared_bias(%x: tensor<1x8x12x40xf32>, %w: tensor<24x8x1x1xf32>, %w2: tensor<24x24x1x1xf32>) -> tensor<1x24x12x40xf32> {
  %b = arith.constant dense<0.5> : tensor<24xf32>
  %0 = "graph.conv"(%x, %w, %b) : (tensor<1x8x12x40xf32>, tensor<24x8x1x1xf32>, tensor<24xf32>) -> tensor<1x24x12x40xf32>
  %g = scf.execute_region -> tensor<1x24x12x40xf32> no_inline {
    %1 = "graph.conv"(%0, %w2, %b) : (tensor<1x24x12x40xf32>, tensor<24x24x1x1xf32>, tensor<24xf32>) -> tensor<1x24x12x40xf32>
    %2 = "graph.add"(%0, %1) : (tensor<1x24x12x40xf32>, tensor<1x24x12x40xf32>) -> tensor<1x24x12x40xf32>
    scf.yield %2 : tensor<1x24x12x40xf32>
  } {graph.fusion = "conv_epilogue"}
  return %g : tensor<1x24x12x40xf32>
}

// A strided conv whose tiles build their own window rows (4 blocks of 8
// rows) takes the one gather generic, fused into each tile; the same conv
// with a schedule record that says conv-window-tiles = 0 (kiln-tune's
// "window built whole") is lowered to tap copies of a whole window tensor,
// and its tiles read slices of it: the lowering and kiln-fuse-groups read
// the same record.
// IM2COL-LABEL: func.func @strided_window
// IM2COL: scf.forall (%{{.*}}) in (4)
// IM2COL: linalg.generic {{.*}} ins(%{{.*}} : tensor<1x4x17x65xf32>)
// IM2COL-LABEL: func.func @strided_window_whole
// IM2COL-COUNT-9: tensor.insert_slice {{.*}} into tensor<1x4x3x3x32x32xf32>
// IM2COL: scf.forall (%{{.*}}) in (4)
// IM2COL-NOT: tensor<1x4x17x65xf32>
// IM2COL: return
func.func @strided_window(%x: tensor<1x4x64x64xf32>, %w: tensor<16x4x3x3xf32>, %b: tensor<16xf32>) -> tensor<1x16x32x32xf32> {
  %g = scf.execute_region -> tensor<1x16x32x32xf32> no_inline {
    %0 = "graph.conv"(%x, %w, %b) {pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x4x64x64xf32>, tensor<16x4x3x3xf32>, tensor<16xf32>) -> tensor<1x16x32x32xf32>
    %1 = "graph.relu"(%0) : (tensor<1x16x32x32xf32>) -> tensor<1x16x32x32xf32>
    scf.yield %1 : tensor<1x16x32x32xf32>
  } {graph.fusion = "conv_epilogue"}
  return %g : tensor<1x16x32x32xf32>
}

func.func @strided_window_whole(%x: tensor<1x4x64x64xf32>, %w: tensor<16x4x3x3xf32>, %b: tensor<16xf32>) -> tensor<1x16x32x32xf32> {
  %g = scf.execute_region -> tensor<1x16x32x32xf32> no_inline {
    %0 = "graph.conv"(%x, %w, %b) {pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x4x64x64xf32>, tensor<16x4x3x3xf32>, tensor<16xf32>) -> tensor<1x16x32x32xf32> loc(#whole)
    %1 = "graph.relu"(%0) : (tensor<1x16x32x32xf32>) -> tensor<1x16x32x32xf32> loc(#whole)
    scf.yield %1 : tensor<1x16x32x32xf32>
  } {graph.fusion = "conv_epilogue"} loc(#whole)
  return %g : tensor<1x16x32x32xf32>
}
#whole = loc(fused<{kiln.schedule = {"kiln-fuse-groups" = {"conv-window-tiles" = 0 : i64}}}>["conv"])
