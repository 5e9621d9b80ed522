// RUN: kiln-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(kiln-hoist-operand-prologues))' \
// RUN:   | FileCheck %s
// The numerical check of the same products through the CPU pipeline:
// RUN: rm -rf %t && mkdir -p %t
// RUN: /usr/bin/python3 %S/Inputs/operand_prologues.py %t
// RUN: kiln-run %S/Inputs/operand_prologues.mlir --input %t/bq.npy \
// RUN:   --input %t/q.npy --input %t/bk.npy --input %t/k.npy \
// RUN:   --input %t/p.npy --input %t/bv.npy --input %t/v.npy \
// RUN:   --input %t/x.npy --input %t/w.npy --input %t/am.npy \
// RUN:   --input %t/bm.npy --expected %t/scores.npy --expected %t/av.npy \
// RUN:   --expected %t/proj.npy --expected %t/mbn.npy --rtol 1e-5 --atol 1e-5

// Attention's scores after shard-partition and elementwise fusion: the
// queries and keys with their biases added inside the reduction, the keys
// read across the output's innermost loop (j). Both sides are hoisted;
// the keys are laid out [b, h, d, j], j innermost.
// CHECK-LABEL: func.func @scores
// CHECK-SAME: %[[BQ:[a-z0-9]+]]: tensor<4x32xf32>, %[[Q:[a-z0-9]+]]: tensor<2x64x4x32xf32>, %[[BK:[a-z0-9]+]]: tensor<4x32xf32>, %[[K:[a-z0-9]+]]: tensor<2x64x4x32xf32>
// CHECK: %[[QB:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%[[BQ]], %[[Q]] : {{.*}}) outs({{.*}} : tensor<2x64x4x32xf32>)
// CHECK-NEXT: ^bb0(
// CHECK-NEXT: arith.addf
// CHECK-NEXT: linalg.yield
// CHECK: %[[KT:.*]] = linalg.generic {{.*}} ins(%[[BK]], %[[K]] : {{.*}}) outs({{.*}} : tensor<2x4x32x64xf32>)
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%[[QB]], %[[KT]] : tensor<2x64x4x32xf32>, tensor<2x4x32x64xf32>) outs({{.*}} : tensor<2x4x64x64xf32>) attrs = {kiln.keep}
// CHECK-NEXT: ^bb0(%[[X:.*]]: f32, %[[Y:.*]]: f32, %[[A:.*]]: f32):
// CHECK-NEXT: %[[M:.*]] = arith.mulf %[[X]], %[[Y]] fastmath<contract>
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[A]], %[[M]] fastmath<contract>
// CHECK-NEXT: linalg.yield %[[S]]
#bias = affine_map<(b, h, i, j, d) -> (h, d)>
#q = affine_map<(b, h, i, j, d) -> (b, i, h, d)>
#k = affine_map<(b, h, i, j, d) -> (b, j, h, d)>
#s = affine_map<(b, h, i, j, d) -> (b, h, i, j)>
func.func @scores(%bq: tensor<4x32xf32>, %q: tensor<2x64x4x32xf32>, %bk: tensor<4x32xf32>, %k: tensor<2x64x4x32xf32>) -> tensor<2x4x64x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x4x64x64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4x64x64xf32>) -> tensor<2x4x64x64xf32>
  %r = linalg.generic {indexing_maps = [#bias, #q, #bias, #k, #s], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%bq, %q, %bk, %k : tensor<4x32xf32>, tensor<2x64x4x32xf32>, tensor<4x32xf32>, tensor<2x64x4x32xf32>) outs(%f : tensor<2x4x64x64xf32>) attrs = {kiln.keep} {
  ^bb0(%a: f32, %b: f32, %c: f32, %d: f32, %acc: f32):
    %x = arith.addf %b, %a : f32
    %y = arith.addf %d, %c : f32
    %m = arith.mulf %x, %y fastmath<contract> : f32
    %s = arith.addf %acc, %m fastmath<contract> : f32
    linalg.yield %s : f32
  } -> tensor<2x4x64x64xf32>
  return %r : tensor<2x4x64x64xf32>
}

// -----

// The probabilities times the values with their bias: only the values'
// side is hoisted (the probabilities are a bare input, read as before),
// in the values' own layout (their innermost dim is already the output's).
// The prologue's ops come along in order, shared values once.
// CHECK-LABEL: func.func @values
// CHECK-SAME: %[[P:[a-z0-9]+]]: tensor<2x4x64x64xf32>, %[[BV:[a-z0-9]+]]: tensor<4x32xf32>, %[[V:[a-z0-9]+]]: tensor<2x64x4x32xf32>
// CHECK: %[[VB:.*]] = linalg.generic {{.*}} ins(%[[BV]], %[[V]] : {{.*}}) outs({{.*}} : tensor<2x64x4x32xf32>)
// CHECK-NEXT: ^bb0(%[[A:.*]]: f32, %[[B:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[T:.*]] = arith.addf %[[B]], %[[A]]
// CHECK-NEXT: %[[U:.*]] = arith.mulf %[[T]], %[[T]]
// CHECK-NEXT: linalg.yield %[[U]]
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #{{.*}}, #{{.*}}], {{.*}} ins(%[[P]], %[[VB]] :
// CHECK-NOT: linalg.generic
#p = affine_map<(b, h, i, d, j) -> (b, h, i, j)>
#vb = affine_map<(b, h, i, d, j) -> (h, d)>
#v = affine_map<(b, h, i, d, j) -> (b, j, h, d)>
#o = affine_map<(b, h, i, d, j) -> (b, h, i, d)>
func.func @values(%p: tensor<2x4x64x64xf32>, %bv: tensor<4x32xf32>, %v: tensor<2x64x4x32xf32>, %init: tensor<2x4x64x32xf32>) -> tensor<2x4x64x32xf32> {
  %r = linalg.generic {indexing_maps = [#p, #vb, #v, #o], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%p, %bv, %v : tensor<2x4x64x64xf32>, tensor<4x32xf32>, tensor<2x64x4x32xf32>) outs(%init : tensor<2x4x64x32xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32, %acc: f32):
    %t = arith.addf %c, %b : f32
    %u = arith.mulf %t, %t : f32
    %m = arith.mulf %a, %u : f32
    %s = arith.addf %m, %acc : f32
    linalg.yield %s : f32
  } -> tensor<2x4x64x32xf32>
  return %r : tensor<2x4x64x32xf32>
}

// -----

// Left alone: a product of bare inputs (nothing to hoist); sides that
// share an input; a side whose inputs no one input covers (an outer
// product, i with k: it would be a tensor larger than its inputs); a body
// that reads the accumulator twice; a max instead of a sum.
// CHECK-LABEL: func.func @left_alone
// CHECK-COUNT-5: linalg.generic
// CHECK-NOT: linalg.generic
// CHECK: return
#a = affine_map<(i, j, k) -> (i, k)>
#b = affine_map<(i, j, k) -> (k, j)>
#ai = affine_map<(i, j, k) -> (i)>
#ak = affine_map<(i, j, k) -> (k)>
#c = affine_map<(i, j, k) -> (i, j)>
func.func @left_alone(%x: tensor<8x16xf32>, %y: tensor<16x32xf32>, %u: tensor<8xf32>, %w: tensor<16xf32>, %init: tensor<8x32xf32>) -> (tensor<8x32xf32>, tensor<8x32xf32>, tensor<8x32xf32>, tensor<8x32xf32>, tensor<8x32xf32>) {
  %plain = linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x, %y : tensor<8x16xf32>, tensor<16x32xf32>) outs(%init : tensor<8x32xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<8x32xf32>
  %shared = linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x, %y : tensor<8x16xf32>, tensor<16x32xf32>) outs(%init : tensor<8x32xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %t = arith.addf %a, %b : f32
    %m = arith.mulf %t, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<8x32xf32>
  %outer = linalg.generic {indexing_maps = [#ai, #ak, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]} ins(%u, %w, %y : tensor<8xf32>, tensor<16xf32>, tensor<16x32xf32>) outs(%init : tensor<8x32xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32, %acc: f32):
    %t = arith.mulf %a, %b : f32
    %m = arith.mulf %t, %c : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<8x32xf32>
  %twice = linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x, %y : tensor<8x16xf32>, tensor<16x32xf32>) outs(%init : tensor<8x32xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %t = arith.addf %a, %acc : f32
    %m = arith.mulf %t, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<8x32xf32>
  %max = linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x, %y : tensor<8x16xf32>, tensor<16x32xf32>) outs(%init : tensor<8x32xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %t = arith.addf %a, %a : f32
    %m = arith.mulf %t, %b : f32
    %s = arith.maximumf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<8x32xf32>
  return %plain, %shared, %outer, %twice, %max : tensor<8x32xf32>, tensor<8x32xf32>, tensor<8x32xf32>, tensor<8x32xf32>, tensor<8x32xf32>
}
