// RUN: kiln-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(kiln-split-reductions))' \
// RUN:   | FileCheck %s
// RUN: kiln-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(kiln-split-reductions{lanes=8 min-length=16}))' \
// RUN:   | FileCheck %s --check-prefix=LANES8
// RUN: sed -n '/^\/\/ BAD-LANES/,/^\/\/ END-BAD-LANES/p' %s > %t.lanes.mlir
// RUN: kiln-opt %t.lanes.mlir --pass-pipeline='builtin.module(func.func(kiln-split-reductions{lanes=1}))' --verify-diagnostics

#sum4 = affine_map<(n, c, h, w) -> (n, c, h, w)>
#out4 = affine_map<(n, c, h, w) -> (n, c)>

// A global average pool's sum over H x W = 3136 = 196 x 16: the two
// reduced dims are collapsed into one row, read as 196 steps of 16 lanes
// into partial sums [1, 96, 16] (k reduction, j parallel), which a second
// generic adds into the original output. No remainder.
// CHECK-LABEL: func.func @pool_sum
// CHECK: %[[C:.*]] = tensor.collapse_shape %arg0 {{\[}}[0], [1], [2, 3]] : tensor<1x96x56x56xf32> into tensor<1x96x3136xf32>
// CHECK: %[[E:.*]] = tensor.expand_shape %[[C]] {{\[}}[0], [1], [2, 3]] output_shape [1, 96, 196, 16]
// CHECK: %[[Z:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<1x96x16xf32>)
// CHECK: %[[P:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction", "parallel"]
// CHECK-SAME: ins(%[[E]] : tensor<1x96x196x16xf32>) outs(%[[Z]] : tensor<1x96x16xf32>)
// CHECK: arith.addf
// CHECK: %[[R:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction"]
// CHECK-SAME: ins(%[[P]] : tensor<1x96x16xf32>) outs(%arg1 : tensor<1x96xf32>)
// CHECK: return %[[R]]
func.func @pool_sum(%x: tensor<1x96x56x56xf32>, %init: tensor<1x96xf32>) -> tensor<1x96xf32> {
  %0 = linalg.generic {indexing_maps = [#sum4, #out4], iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%x : tensor<1x96x56x56xf32>) outs(%init : tensor<1x96xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %out, %in : f32
    linalg.yield %s : f32
  } -> tensor<1x96xf32>
  return %0 : tensor<1x96xf32>
}

// -----

#row = affine_map<(i, j) -> (i, j)>
#col = affine_map<(i, j) -> (i)>

// Softmax's sum of exp(x - max): the row maximum (a broadcast input that
// does not read the reduced dim) is read as before. A row of 100 = 6 x 16
// + 4: the last 4 elements are combined by the original body into the
// lanes' result. The max combiner starts from -inf.
// CHECK-LABEL: func.func @softmax_sum_remainder
// CHECK: %[[MAIN:.*]] = tensor.extract_slice %arg0[0, 0] [12, 96] [1, 1]
// CHECK: %[[E:.*]] = tensor.expand_shape %[[MAIN]] {{\[}}[0], [1, 2]] output_shape [12, 6, 16]
// CHECK: %[[TAIL:.*]] = tensor.extract_slice %arg0[0, 96] [12, 4] [1, 1]
// CHECK: %[[P:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "reduction", "parallel"]
// CHECK-SAME: ins(%[[E]], %arg1 : tensor<12x6x16xf32>, tensor<12xf32>)
// CHECK: math.exp
// CHECK: %[[L:.*]] = linalg.generic {{.*}} ins(%[[P]] : tensor<12x16xf32>) outs(%arg2 : tensor<12xf32>)
// CHECK: %[[R:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]
// CHECK-SAME: ins(%[[TAIL]], %arg1 : tensor<12x4xf32>, tensor<12xf32>) outs(%[[L]] : tensor<12xf32>)
// CHECK: math.exp
// CHECK: return %[[R]]
// CHECK-LABEL: func.func @row_max
// CHECK: arith.constant 0xFF800000 : f32
// CHECK: arith.maximumf
// LANES8-LABEL: func.func @softmax_sum_remainder
// LANES8: tensor.extract_slice %arg0[0, 0] [12, 96] [1, 1]
// LANES8: output_shape [12, 12, 8]
func.func @softmax_sum_remainder(%x: tensor<12x100xf32>, %max: tensor<12xf32>, %init: tensor<12xf32>) -> tensor<12xf32> {
  %0 = linalg.generic {indexing_maps = [#row, #col, #col], iterator_types = ["parallel", "reduction"]}
      ins(%x, %max : tensor<12x100xf32>, tensor<12xf32>) outs(%init : tensor<12xf32>) {
  ^bb0(%in: f32, %m: f32, %out: f32):
    %d = arith.subf %in, %m : f32
    %e = math.exp %d : f32
    %s = arith.addf %out, %e : f32
    linalg.yield %s : f32
  } -> tensor<12xf32>
  return %0 : tensor<12xf32>
}

func.func @row_max(%x: tensor<12x100xf32>, %init: tensor<12xf32>) -> tensor<12xf32> {
  %0 = linalg.generic {indexing_maps = [#row, #col], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<12x100xf32>) outs(%init : tensor<12xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.maximumf %out, %in : f32
    linalg.yield %s : f32
  } -> tensor<12xf32>
  return %0 : tensor<12xf32>
}

// -----

// A row of dynamic length R (a sequence's): q = R / 16 and the remainder
// computed at run time; the partial results' rows are dynamic too.
// CHECK-LABEL: func.func @dynamic_row
// CHECK: %[[R:.*]] = tensor.dim %arg0, %{{.*}} : tensor<?x?xf32>
// CHECK: %[[Q:.*]] = arith.divui %[[R]], %{{.*}} : index
// CHECK: %[[QL:.*]] = arith.muli %[[Q]], %{{.*}} : index
// CHECK: %[[REM:.*]] = arith.subi %[[R]], %[[QL]] : index
// CHECK: tensor.expand_shape {{.*}} output_shape [%{{.*}}, %[[Q]], 16] : tensor<?x?xf32> into tensor<?x?x16xf32>
// CHECK: tensor.extract_slice %arg0[0, %[[QL]]] [%{{.*}}, %[[REM]]] [1, 1]
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "reduction", "parallel"]
// CHECK-SAME: outs(%{{.*}} : tensor<?x16xf32>)
// CHECK: linalg.generic {{.*}} ins(%{{.*}} : tensor<?x16xf32>) outs(%arg1 : tensor<?xf32>)
// CHECK: linalg.generic {{.*}} ins(%{{.*}} : tensor<?x?xf32>) outs(%{{.*}} : tensor<?xf32>)
func.func @dynamic_row(%x: tensor<?x?xf32>, %init: tensor<?xf32>) -> tensor<?xf32> {
  %0 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>,
                                        affine_map<(i, j) -> (i)>],
      iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<?x?xf32>) outs(%init : tensor<?xf32>) {
  ^bb0(%v: f32, %o: f32):
    %m = arith.maximumf %o, %v : f32
    linalg.yield %m : f32
  } -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

#in3 = affine_map<(a, b, c) -> (a, b, c)>
#keep3 = affine_map<(a, b, c) -> (a, c)>
#row2 = affine_map<(i, j) -> (i, j)>
#col2 = affine_map<(i, j) -> (i)>

// Left alone: a reduction over a middle dim (its innermost dim is
// parallel: kiln-tile-and-vectorize vectorizes it as it is), a body that
// reads the output twice (not combine(out, f(ins))), a row shorter than
// min-length (32 by default), an integer sum, and an op inside a thread
// block.
// CHECK-LABEL: func.func @negative
// CHECK-NOT: tensor.expand_shape
// CHECK-NOT: tensor.collapse_shape
// CHECK-NOT: tensor.extract_slice
// CHECK: return
func.func @negative(%x: tensor<4x256x64xf32>, %i2: tensor<4x64xf32>,
                    %y: tensor<8x256xf32>, %i1: tensor<8xf32>,
                    %s: tensor<8x31xf32>, %n: tensor<8x256xi32>, %ni: tensor<8xi32>) -> (tensor<4x64xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xi32>, tensor<8xf32>) {
  %0 = linalg.generic {indexing_maps = [#in3, #keep3], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%x : tensor<4x256x64xf32>) outs(%i2 : tensor<4x64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.addf %out, %in : f32
    linalg.yield %r : f32
  } -> tensor<4x64xf32>
  %1 = linalg.generic {indexing_maps = [#row2, #col2], iterator_types = ["parallel", "reduction"]}
      ins(%y : tensor<8x256xf32>) outs(%i1 : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.mulf %out, %out : f32
    %r = arith.addf %m, %in : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %2 = linalg.generic {indexing_maps = [#row2, #col2], iterator_types = ["parallel", "reduction"]}
      ins(%s : tensor<8x31xf32>) outs(%i1 : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.addf %out, %in : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %3 = linalg.generic {indexing_maps = [#row2, #col2], iterator_types = ["parallel", "reduction"]}
      ins(%n : tensor<8x256xi32>) outs(%ni : tensor<8xi32>) {
  ^bb0(%in: i32, %out: i32):
    %r = arith.addi %out, %in : i32
    linalg.yield %r : i32
  } -> tensor<8xi32>
  %4 = scf.forall (%t) in (1) shared_outs(%o = %i1) -> (tensor<8xf32>) {
    %r = linalg.generic {indexing_maps = [#row2, #col2], iterator_types = ["parallel", "reduction"]}
        ins(%y : tensor<8x256xf32>) outs(%o : tensor<8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %a = arith.addf %out, %in : f32
      linalg.yield %a : f32
    } -> tensor<8xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %r into %o[0] [8] [1] : tensor<8xf32> into tensor<8xf32>
    }
  }
  return %0, %1, %2, %3, %4 : tensor<4x64xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xi32>, tensor<8xf32>
}

// -----

// BAD-LANES
// expected-error @+1 {{kiln-split-reductions: lanes must be at least 2 and min-length at least 1, got lanes=1 min-length=32}}
func.func @bad_lanes() {
  return
}
// END-BAD-LANES

// -----

#row = affine_map<(i, j) -> (i, j)>
#col = affine_map<(i, j) -> (i)>

// A tuned workload's record (kiln-tune) sets the lanes of its own
// reductions: 32 here (100 = 3 x 32 + 4), the pass's 16 elsewhere.
// CHECK-LABEL: func.func @tuned_lanes
// CHECK: output_shape [12, 3, 32]
// CHECK: output_shape [12, 6, 16]
func.func @tuned_lanes(%x: tensor<12x100xf32>, %init: tensor<12xf32>) -> (tensor<12xf32>, tensor<12xf32>) {
  %0 = linalg.generic {indexing_maps = [#row, #col], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<12x100xf32>) outs(%init : tensor<12xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.maximumf %out, %in : f32
    linalg.yield %s : f32
  } -> tensor<12xf32> loc(#tuned)
  %1 = linalg.generic {indexing_maps = [#row, #col], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<12x100xf32>) outs(%init : tensor<12xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.maximumf %out, %in : f32
    linalg.yield %s : f32
  } -> tensor<12xf32>
  return %0, %1 : tensor<12xf32>, tensor<12xf32>
}
#tuned = loc(fused<{kiln.schedule = {"kiln-split-reductions" = {lanes = 32 : i64}}}>["max"])
