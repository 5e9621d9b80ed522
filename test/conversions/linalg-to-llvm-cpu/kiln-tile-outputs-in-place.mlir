// RUN: kiln-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(kiln-tile-outputs-in-place))' \
// RUN:   | FileCheck %s
// After the pass, bufferization needs no scratch buffer in the block:
// RUN: kiln-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(kiln-tile-outputs-in-place),one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map})' \
// RUN:   | FileCheck %s --check-prefix=BUF
// With eliminate-empty-tensors, as in linalg-to-llvm-cpu (cse and canonicalize
// drops the copy of the interior onto itself):
// RUN: kiln-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(kiln-tile-outputs-in-place),eliminate-empty-tensors,one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map},cse,canonicalize)' \
// RUN:   | FileCheck %s --check-prefix=ELIM
// Without it, each block allocates its own:
// RUN: kiln-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map})' \
// RUN:   | FileCheck %s --check-prefix=SCRATCH

// A thread block of a matmul with a bias broadcast and a relu epilogue, as
// tiling, fusion and linalg-fuse-elementwise-ops leave it: the broadcast
// and the relu write tensor.empty inits. The broadcast now writes the
// block's slice of the output, the matmul accumulates into it and the relu
// overwrites the matmul's result.
// CHECK-LABEL: func.func @bias_matmul_relu
// CHECK: scf.forall (%[[I:.*]]) in (4) shared_outs(%[[O:.*]] = %{{.*}})
// CHECK: %[[S:.*]] = tensor.extract_slice %[[O]][%{{.*}}, 0] [8, 32] [1, 1]
// CHECK: %[[B:.*]] = linalg.generic {{.*}} outs(%[[S]] : tensor<8x32xf32>)
// CHECK: %[[M:.*]] = linalg.matmul {{.*}} outs(%[[B]] : tensor<8x32xf32>)
// CHECK: linalg.generic {{.*}} ins(%[[M]] : tensor<8x32xf32>) outs(%[[M]] : tensor<8x32xf32>)
// BUF-LABEL: func.func @bias_matmul_relu
// BUF-NOT: memref.alloc
// BUF: return
// SCRATCH-LABEL: func.func @bias_matmul_relu
// SCRATCH: scf.forall
// SCRATCH: memref.alloc
#bcast = affine_map<(i, j) -> (j)>
#id = affine_map<(i, j) -> (i, j)>
func.func @bias_matmul_relu(%a: tensor<32x16xf32>, %w: tensor<16x32xf32>,
                            %bias: tensor<32xf32>,
                            %out: tensor<32x32xf32>) -> tensor<32x32xf32> {
  %zero = arith.constant 0.0 : f32
  %r = scf.forall (%i) in (4) shared_outs(%o = %out) -> (tensor<32x32xf32>) {
    %off = affine.apply affine_map<(i) -> (i * 8)>(%i)
    %as = tensor.extract_slice %a[%off, 0] [8, 16] [1, 1]
        : tensor<32x16xf32> to tensor<8x16xf32>
    %e0 = tensor.empty() : tensor<8x32xf32>
    %b = linalg.generic {indexing_maps = [#bcast, #id],
        iterator_types = ["parallel", "parallel"]}
        ins(%bias : tensor<32xf32>) outs(%e0 : tensor<8x32xf32>) {
    ^bb0(%v: f32, %x: f32):
      linalg.yield %v : f32
    } -> tensor<8x32xf32>
    %m = linalg.matmul ins(%as, %w : tensor<8x16xf32>, tensor<16x32xf32>)
                       outs(%b : tensor<8x32xf32>) -> tensor<8x32xf32>
    %e1 = tensor.empty() : tensor<8x32xf32>
    %y = linalg.generic {indexing_maps = [#id, #id],
        iterator_types = ["parallel", "parallel"]}
        ins(%m : tensor<8x32xf32>) outs(%e1 : tensor<8x32xf32>) {
    ^bb0(%v: f32, %x: f32):
      %p = arith.maximumf %v, %zero : f32
      linalg.yield %p : f32
    } -> tensor<8x32xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %y into %o[%off, 0] [8, 32] [1, 1]
          : tensor<8x32xf32> into tensor<32x32xf32>
    }
  }
  return %r : tensor<32x32xf32>
}

// -----

// An im2col conv's block: the contraction computes flattened pixels
// [1, C, P], the epilogue and the output are [1, C, H, W]. The broadcast
// writes the output slice collapsed to [1, C, P].
// CHECK-LABEL: func.func @flattened_pixels
// CHECK: scf.forall (%{{.*}}) in (2) shared_outs(%[[O:.*]] = %{{.*}})
// CHECK: %[[S:.*]] = tensor.extract_slice %[[O]][0, %{{.*}}, 0, 0] [1, 4, 3, 5] [1, 1, 1, 1]
// CHECK: %[[C:.*]] = tensor.collapse_shape %[[S]] {{\[\[}}0], [1], [2, 3]] : tensor<1x4x3x5xf32> into tensor<1x4x15xf32>
// CHECK: linalg.generic {{.*}} outs(%[[C]] : tensor<1x4x15xf32>)
// CHECK: %[[X:.*]] = tensor.expand_shape
// CHECK: linalg.generic {{.*}} ins(%[[X]] : tensor<1x4x3x5xf32>) outs(%[[X]] : tensor<1x4x3x5xf32>)
// BUF-LABEL: func.func @flattened_pixels
// BUF-NOT: memref.alloc
// BUF: return
#b3 = affine_map<(n, c, p) -> (c)>
#id3 = affine_map<(n, c, p) -> (n, c, p)>
#w = affine_map<(n, c, p, k) -> (c, k)>
#col = affine_map<(n, c, p, k) -> (n, k, p)>
#y = affine_map<(n, c, p, k) -> (n, c, p)>
#id4 = affine_map<(n, c, h, w) -> (n, c, h, w)>
func.func @flattened_pixels(%wt: tensor<8x6xf32>, %col: tensor<1x6x15xf32>,
                            %bias: tensor<4xf32>,
                            %out: tensor<1x8x3x5xf32>) -> tensor<1x8x3x5xf32> {
  %zero = arith.constant 0.0 : f32
  %r = scf.forall (%i) in (2) shared_outs(%o = %out) -> (tensor<1x8x3x5xf32>) {
    %c0 = affine.apply affine_map<(i) -> (i * 4)>(%i)
    %ws = tensor.extract_slice %wt[%c0, 0] [4, 6] [1, 1]
        : tensor<8x6xf32> to tensor<4x6xf32>
    %e0 = tensor.empty() : tensor<1x4x15xf32>
    %b = linalg.generic {indexing_maps = [#b3, #id3],
        iterator_types = ["parallel", "parallel", "parallel"]}
        ins(%bias : tensor<4xf32>) outs(%e0 : tensor<1x4x15xf32>) {
    ^bb0(%v: f32, %x: f32):
      linalg.yield %v : f32
    } -> tensor<1x4x15xf32>
    %m = linalg.generic {indexing_maps = [#w, #col, #y],
        iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
        ins(%ws, %col : tensor<4x6xf32>, tensor<1x6x15xf32>)
        outs(%b : tensor<1x4x15xf32>) {
    ^bb0(%p: f32, %q: f32, %acc: f32):
      %t = arith.mulf %p, %q : f32
      %s = arith.addf %acc, %t : f32
      linalg.yield %s : f32
    } -> tensor<1x4x15xf32>
    %x = tensor.expand_shape %m [[0], [1], [2, 3]] output_shape [1, 4, 3, 5]
        : tensor<1x4x15xf32> into tensor<1x4x3x5xf32>
    %e1 = tensor.empty() : tensor<1x4x3x5xf32>
    %yv = linalg.generic {indexing_maps = [#id4, #id4],
        iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
        ins(%x : tensor<1x4x3x5xf32>) outs(%e1 : tensor<1x4x3x5xf32>) {
    ^bb0(%v: f32, %z: f32):
      %p = arith.maximumf %v, %zero : f32
      linalg.yield %p : f32
    } -> tensor<1x4x3x5xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %yv into %o[0, %c0, 0, 0] [1, 4, 3, 5] [1, 1, 1, 1]
          : tensor<1x4x3x5xf32> into tensor<1x8x3x5xf32>
    }
  }
  return %r : tensor<1x8x3x5xf32>
}

// -----

// Left alone: an op that reads its init (it accumulates into a value from
// outside) and a block whose empty init has no output-shaped slice to take
// (a 2x2 scratch tile in a block of 4x4).
// CHECK-LABEL: func.func @negative
// CHECK: %[[ACC:.*]] = tensor.extract_slice %arg1
// CHECK: linalg.generic {{.*}} outs(%[[ACC]] : tensor<4x4xf32>)
// CHECK: scf.forall (%{{.*}}) in (2) shared_outs(%{{.*}} = %{{.*}}) -> (tensor<2x2xf32>)
// CHECK: %[[E:.*]] = tensor.empty() : tensor<2x2xf32>
// CHECK: linalg.generic {{.*}} outs(%[[E]] : tensor<2x2xf32>)
#id2 = affine_map<(i, j) -> (i, j)>
func.func @negative(%x: tensor<8x4xf32>, %acc: tensor<8x4xf32>,
                    %out: tensor<8x4xf32>) -> (tensor<8x4xf32>, tensor<2x2xf32>) {
  %r:2 = scf.forall (%i) in (2) shared_outs(%o = %out, %o2 = %out) -> (tensor<8x4xf32>, tensor<8x4xf32>) {
    %off = affine.apply affine_map<(i) -> (i * 4)>(%i)
    %xs = tensor.extract_slice %x[%off, 0] [4, 4] [1, 1]
        : tensor<8x4xf32> to tensor<4x4xf32>
    %as = tensor.extract_slice %acc[%off, 0] [4, 4] [1, 1]
        : tensor<8x4xf32> to tensor<4x4xf32>
    %s = linalg.generic {indexing_maps = [#id2, #id2],
        iterator_types = ["parallel", "parallel"]}
        ins(%xs : tensor<4x4xf32>) outs(%as : tensor<4x4xf32>) {
    ^bb0(%v: f32, %a: f32):
      %t = arith.addf %v, %a : f32
      linalg.yield %t : f32
    } -> tensor<4x4xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %s into %o[%off, 0] [4, 4] [1, 1]
          : tensor<4x4xf32> into tensor<8x4xf32>
      tensor.parallel_insert_slice %s into %o2[%off, 0] [4, 4] [1, 1]
          : tensor<4x4xf32> into tensor<8x4xf32>
    }
  }
  %e = tensor.empty() : tensor<2x2xf32>
  %f = scf.forall (%i) in (2) shared_outs(%o = %e) -> (tensor<2x2xf32>) {
    %e2 = tensor.empty() : tensor<2x2xf32>
    %c = arith.constant 1.0 : f32
    %t = linalg.generic {indexing_maps = [#id2],
        iterator_types = ["parallel", "parallel"]}
        outs(%e2 : tensor<2x2xf32>) {
    ^bb0(%z: f32):
      linalg.yield %c : f32
    } -> tensor<2x2xf32>
    %sl = tensor.extract_slice %t[0, %i] [2, 1] [1, 1]
        : tensor<2x2xf32> to tensor<2x1xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %sl into %o[0, %i] [2, 1] [1, 1]
          : tensor<2x1xf32> into tensor<2x2xf32>
    }
  }
  return %r#0, %f : tensor<8x4xf32>, tensor<2x2xf32>
}

// -----

// A padded tensor: the fill of the padded buffer comes after the producer
// of its interior. The fill (and its tensor.empty) move before the
// producer, so eliminate-empty-tensors can make the producer write the
// interior in place: after bufferization no copy into the padded buffer
// is left.
// CHECK-LABEL: func.func @padding
// CHECK: tensor.empty() : tensor<1x4x10x10xf32>
// CHECK: %[[F:.*]] = linalg.fill
// CHECK: %[[P:.*]] = linalg.generic
// CHECK: tensor.insert_slice %[[P]] into %[[F]][0, 0, 1, 1] [1, 4, 8, 8] [1, 1, 1, 1]
// ELIM-LABEL: func.func @padding
// ELIM: %[[PAD:.*]] = memref.alloc() {{.*}} : memref<1x4x10x10xf32>
// ELIM: linalg.fill {{.*}} outs(%[[PAD]] : memref<1x4x10x10xf32>)
// ELIM: %[[IN:.*]] = memref.subview %[[PAD]][0, 0, 1, 1] [1, 4, 8, 8] [1, 1, 1, 1]
// ELIM: linalg.generic {{.*}} outs(%[[IN]] :
// ELIM-NOT: memref.copy
// ELIM: return
#id4 = affine_map<(n, c, h, w) -> (n, c, h, w)>
func.func @padding(%x: tensor<1x4x8x8xf32>) -> tensor<1x4x10x10xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x4x8x8xf32>
  %p = linalg.generic {indexing_maps = [#id4, #id4],
      iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x : tensor<1x4x8x8xf32>) outs(%e : tensor<1x4x8x8xf32>) {
  ^bb0(%v: f32, %o: f32):
    %m = arith.maximumf %v, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x4x8x8xf32>
  %pe = tensor.empty() : tensor<1x4x10x10xf32>
  %f = linalg.fill ins(%zero : f32) outs(%pe : tensor<1x4x10x10xf32>)
      -> tensor<1x4x10x10xf32>
  %r = tensor.insert_slice %p into %f[0, 0, 1, 1] [1, 4, 8, 8] [1, 1, 1, 1]
      : tensor<1x4x8x8xf32> into tensor<1x4x10x10xf32>
  return %r : tensor<1x4x10x10xf32>
}

// -----

// An im2col conv's block whose result becomes the interior of a padded
// tensor (the next conv's input). The output slice's rows are 5 of a
// 7-wide plane, so its [1, C, P] flattening would be no view: bufferization
// would copy the slice into a scratch buffer and back. The bias and the
// contraction keep their scratch tile; the chain starts at the epilogue,
// which writes the output slice. After eliminate-empty-tensors and
// bufferization: one scratch tile per block, no copy into it, and the
// epilogue writes the padded buffer's interior.
// CHECK-LABEL: func.func @flattened_into_padding
// CHECK: scf.forall (%{{.*}}) in (2) shared_outs(%[[O:.*]] = %{{.*}})
// CHECK-NOT: tensor.collapse_shape
// CHECK: %[[E:.*]] = tensor.empty() : tensor<1x4x15xf32>
// CHECK: %[[B:.*]] = linalg.generic {{.*}} outs(%[[E]] : tensor<1x4x15xf32>)
// CHECK: %[[M:.*]] = linalg.generic {{.*}} outs(%[[B]] : tensor<1x4x15xf32>)
// CHECK: %[[X:.*]] = tensor.expand_shape %[[M]]
// CHECK: %[[S:.*]] = tensor.extract_slice %[[O]][0, %{{.*}}, 0, 0] [1, 4, 3, 5] [1, 1, 1, 1]
// CHECK: linalg.generic {{.*}} ins(%[[X]] : tensor<1x4x3x5xf32>) outs(%[[S]] : tensor<1x4x3x5xf32>)
// ELIM-LABEL: func.func @flattened_into_padding
// ELIM: %[[PAD:.*]] = memref.alloc() {{.*}} : memref<1x8x5x7xf32>
// ELIM: scf.forall
// ELIM: %[[T:.*]] = memref.alloc() {{.*}} : memref<1x4x15xf32>
// ELIM-NOT: memref.copy
// ELIM: linalg.generic {{.*}} outs(%{{.*}} : memref<1x4x3x5xf32, strided<[280, 35, 7, 1], offset: ?>>)
// ELIM-NOT: memref.copy
// ELIM: return
#b3 = affine_map<(n, c, p) -> (c)>
#id3 = affine_map<(n, c, p) -> (n, c, p)>
#w = affine_map<(n, c, p, k) -> (c, k)>
#col = affine_map<(n, c, p, k) -> (n, k, p)>
#y = affine_map<(n, c, p, k) -> (n, c, p)>
#id4 = affine_map<(n, c, h, w) -> (n, c, h, w)>
func.func @flattened_into_padding(%wt: tensor<8x6xf32>, %col: tensor<1x6x15xf32>,
                                  %bias: tensor<4xf32>) -> tensor<1x8x5x7xf32> {
  %zero = arith.constant 0.0 : f32
  %pe = tensor.empty() : tensor<1x8x5x7xf32>
  %f = linalg.fill ins(%zero : f32) outs(%pe : tensor<1x8x5x7xf32>)
      -> tensor<1x8x5x7xf32>
  %out = tensor.empty() : tensor<1x8x3x5xf32>
  %r = scf.forall (%i) in (2) shared_outs(%o = %out) -> (tensor<1x8x3x5xf32>) {
    %c0 = affine.apply affine_map<(i) -> (i * 4)>(%i)
    %ws = tensor.extract_slice %wt[%c0, 0] [4, 6] [1, 1]
        : tensor<8x6xf32> to tensor<4x6xf32>
    %e0 = tensor.empty() : tensor<1x4x15xf32>
    %b = linalg.generic {indexing_maps = [#b3, #id3],
        iterator_types = ["parallel", "parallel", "parallel"]}
        ins(%bias : tensor<4xf32>) outs(%e0 : tensor<1x4x15xf32>) {
    ^bb0(%v: f32, %x: f32):
      linalg.yield %v : f32
    } -> tensor<1x4x15xf32>
    %m = linalg.generic {indexing_maps = [#w, #col, #y],
        iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
        ins(%ws, %col : tensor<4x6xf32>, tensor<1x6x15xf32>)
        outs(%b : tensor<1x4x15xf32>) {
    ^bb0(%p: f32, %q: f32, %acc: f32):
      %t = arith.mulf %p, %q : f32
      %s = arith.addf %acc, %t : f32
      linalg.yield %s : f32
    } -> tensor<1x4x15xf32>
    %x = tensor.expand_shape %m [[0], [1], [2, 3]] output_shape [1, 4, 3, 5]
        : tensor<1x4x15xf32> into tensor<1x4x3x5xf32>
    %e1 = tensor.empty() : tensor<1x4x3x5xf32>
    %yv = linalg.generic {indexing_maps = [#id4, #id4],
        iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
        ins(%x : tensor<1x4x3x5xf32>) outs(%e1 : tensor<1x4x3x5xf32>) {
    ^bb0(%v: f32, %o2: f32):
      %mx = arith.maximumf %v, %zero : f32
      linalg.yield %mx : f32
    } -> tensor<1x4x3x5xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %yv into %o[0, %c0, 0, 0] [1, 4, 3, 5] [1, 1, 1, 1]
          : tensor<1x4x3x5xf32> into tensor<1x8x3x5xf32>
    }
  }
  %p = tensor.insert_slice %r into %f[0, 0, 1, 1] [1, 8, 3, 5] [1, 1, 1, 1]
      : tensor<1x8x3x5xf32> into tensor<1x8x5x7xf32>
  return %p : tensor<1x8x5x7xf32>
}

// -----

// A residual Add whose first input is the block's slice of another
// block's result (the residual) and whose second is the matmul's: it
// overwrites the matmul's result, not the residual (which bufferization
// would copy into a scratch tile, and the sum back into the output).
// CHECK-LABEL: func.func @residual_first
// CHECK: %[[M:.*]] = linalg.matmul
// CHECK: linalg.generic {{.*}} ins(%{{.*}}, %[[M]] : tensor<8x32xf32>, tensor<8x32xf32>) outs(%[[M]] : tensor<8x32xf32>)
// BUF-LABEL: func.func @residual_first
// BUF-NOT: memref.alloc
// BUF: return
// SCRATCH-LABEL: func.func @residual_first
// SCRATCH: memref.alloc
#bcast = affine_map<(i, j) -> (j)>
#id = affine_map<(i, j) -> (i, j)>
func.func @residual_first(%a: tensor<32x16xf32>, %w: tensor<16x32xf32>,
                          %bias: tensor<32xf32>, %res: tensor<32x32xf32>,
                          %out: tensor<32x32xf32>) -> tensor<32x32xf32> {
  %r = scf.forall (%i) in (4) shared_outs(%o = %out) -> (tensor<32x32xf32>) {
    %off = affine.apply affine_map<(i) -> (i * 8)>(%i)
    %as = tensor.extract_slice %a[%off, 0] [8, 16] [1, 1]
        : tensor<32x16xf32> to tensor<8x16xf32>
    %rs = tensor.extract_slice %res[%off, 0] [8, 32] [1, 1]
        : tensor<32x32xf32> to tensor<8x32xf32>
    %e0 = tensor.empty() : tensor<8x32xf32>
    %b = linalg.generic {indexing_maps = [#bcast, #id],
        iterator_types = ["parallel", "parallel"]}
        ins(%bias : tensor<32xf32>) outs(%e0 : tensor<8x32xf32>) {
    ^bb0(%v: f32, %x: f32):
      linalg.yield %v : f32
    } -> tensor<8x32xf32>
    %m = linalg.matmul ins(%as, %w : tensor<8x16xf32>, tensor<16x32xf32>)
                       outs(%b : tensor<8x32xf32>) -> tensor<8x32xf32>
    %e1 = tensor.empty() : tensor<8x32xf32>
    %s = linalg.generic {indexing_maps = [#id, #id, #id],
        iterator_types = ["parallel", "parallel"]}
        ins(%rs, %m : tensor<8x32xf32>, tensor<8x32xf32>)
        outs(%e1 : tensor<8x32xf32>) {
    ^bb0(%x: f32, %y: f32, %z: f32):
      %t = arith.addf %x, %y : f32
      linalg.yield %t : f32
    } -> tensor<8x32xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %s into %o[%off, 0] [8, 32] [1, 1]
          : tensor<8x32xf32> into tensor<32x32xf32>
    }
  }
  return %r : tensor<32x32xf32>
}
