// RUN: kiln-opt %s --pass-pipeline='builtin.module(linalg-tile-and-fuse{target-triple=x86_64-unknown-linux-gnu target-features=+avx512f})' \
// RUN:   | FileCheck %s
// The pipeline's parameters reach every kiln-tile-and-vectorize in it: on
// an AArch64 target the register tiles are 8 x 8.
// RUN: kiln-opt %s --pass-pipeline='builtin.module(linalg-tile-and-fuse{target-triple=aarch64-unknown-linux-gnu})' \
// RUN:   | FileCheck %s --check-prefix=A64
// A64-LABEL: func.func @bias_matmul_relu
// A64: arith.mulf {{.*}} fastmath<contract> : vector<8x8xf32>
// A64: arith.maximumf {{.*}} : vector<8xf32>
// Parameters the pipeline does not take are refused, naming it.
// RUN: not kiln-opt %s --pass-pipeline='builtin.module(linalg-tile-and-fuse{rows=4})' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BADPARAM
// BADPARAM: named pipeline 'linalg-tile-and-fuse' has no parameter 'rows'

// The named pipeline of Kiln's CPU schedules on tensors: the matmul is
// tiled for threads (blocks of 32 x 256) with its bias broadcast fused into
// each block and written to the block's slice of the output, its long
// reduction split into cache blocks (1152 = 6 x 192), register tiles of
// broadcast FMAs two vectors wide; the relu after it becomes 16-wide vector
// code.
// CHECK-LABEL: func.func @bias_matmul_relu
// CHECK: scf.forall (%{{.*}}, %{{.*}}) in (2, 2) shared_outs(%[[O:.*]] = %{{.*}})
// CHECK: tensor.extract_slice %[[O]]
// CHECK: scf.for %{{.*}} = %c0 to %c1152 step %c192
// CHECK: arith.mulf {{.*}} fastmath<contract> : vector<8x32xf32>
// CHECK: scf.forall.in_parallel
// CHECK: arith.maximumf {{.*}} : vector<16xf32>
// CHECK-NOT: linalg.matmul
// CHECK-NOT: linalg.generic
// CHECK: return
// The target is pinned by the pipeline's parameters (the session gives them
// from --target/--cpu): AVX-512, 8 x 32 register tiles (two zmm vectors per
// row).
module {
func.func @bias_matmul_relu(%a: tensor<64x1152xf32>, %b: tensor<1152x512xf32>,
                            %bias: tensor<512xf32>) -> tensor<64x512xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x512xf32>
  %c = linalg.generic {indexing_maps = [affine_map<(i, j) -> (j)>,
                                        affine_map<(i, j) -> (i, j)>],
      iterator_types = ["parallel", "parallel"]}
      ins(%bias : tensor<512xf32>) outs(%e : tensor<64x512xf32>) {
  ^bb0(%v: f32, %o: f32):
    linalg.yield %v : f32
  } -> tensor<64x512xf32>
  %m = linalg.matmul ins(%a, %b : tensor<64x1152xf32>, tensor<1152x512xf32>)
                     outs(%c : tensor<64x512xf32>) -> tensor<64x512xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>,
                                        affine_map<(i, j) -> (i, j)>],
      iterator_types = ["parallel", "parallel"]}
      ins(%m : tensor<64x512xf32>) outs(%e : tensor<64x512xf32>) {
  ^bb0(%v: f32, %o: f32):
    %p = arith.maximumf %v, %zero : f32
    linalg.yield %p : f32
  } -> tensor<64x512xf32>
  return %r : tensor<64x512xf32>
}
}
