// RUN: kiln-opt %s --split-input-file --pass-pipeline='builtin.module(kiln-profile-nodes)' | FileCheck %s

// FLOPs: 2 x M x N x K of a matmul (2 x 6 x 5 x 3 = 180), of a contraction
// tiled in a loop (4 trips x 2 x 2 x 7 x 3 = 336) counted for the node of
// the contraction, 0 for elementwise ops. Output types: the top-level op's
// result through an expand_shape (the matmul's 6x5 as 2x3x5); every node
// of a tile loop gets the loop's result.

#f = loc("m.onnx":0:0)
#mm = loc("mm (MatMul)"(#f))
#conv = loc("conv (Conv)"(#f))
#relu = loc("relu (Relu)"(#f))
#id = affine_map<(d0, d1) -> (d0, d1)>
#a = affine_map<(d0, d1, d2) -> (d0, d2)>
#b = affine_map<(d0, d1, d2) -> (d2, d1)>
#c = affine_map<(d0, d1, d2) -> (d0, d1)>
module attributes {kiln.profile} {
  func.func @main_graph(%x: tensor<6x3xf32>, %w: tensor<3x5xf32>, %p: tensor<8x3xf32>, %q: tensor<3x7xf32>) -> (tensor<2x3x5xf32>, tensor<8x7xf32>) {
    %zero = arith.constant 0.0 : f32 loc(#f)
    %e = tensor.empty() : tensor<6x5xf32> loc(#mm)
    %fill = linalg.fill ins(%zero : f32) outs(%e : tensor<6x5xf32>) -> tensor<6x5xf32> loc(#mm)
    %m = linalg.matmul ins(%x, %w : tensor<6x3xf32>, tensor<3x5xf32>) outs(%fill : tensor<6x5xf32>) -> tensor<6x5xf32> loc(#mm)
    %r = tensor.expand_shape %m [[0, 1], [2]] output_shape [2, 3, 5] : tensor<6x5xf32> into tensor<2x3x5xf32> loc(#relu)
    %e2 = tensor.empty() : tensor<8x7xf32> loc(#conv)
    %g = scf.forall (%i) in (4) shared_outs(%o = %e2) -> (tensor<8x7xf32>) {
      %off = affine.apply affine_map<(d0) -> (d0 * 2)>(%i) loc(#conv)
      %ps = tensor.extract_slice %p[%off, 0] [2, 3] [1, 1] : tensor<8x3xf32> to tensor<2x3xf32> loc(#conv)
      %os = tensor.extract_slice %o[%off, 0] [2, 7] [1, 1] : tensor<8x7xf32> to tensor<2x7xf32> loc(#conv)
      %acc = linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]} ins(%ps, %q : tensor<2x3xf32>, tensor<3x7xf32>) outs(%os : tensor<2x7xf32>) {
      ^bb0(%u: f32, %v: f32, %acc0: f32):
        %mul = arith.mulf %u, %v : f32
        %add = arith.addf %acc0, %mul : f32
        linalg.yield %add : f32
      } -> tensor<2x7xf32> loc(#conv)
      %act = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%acc : tensor<2x7xf32>) outs(%os : tensor<2x7xf32>) {
      ^bb0(%u: f32, %o2: f32):
        %mx = arith.maximumf %u, %zero : f32
        linalg.yield %mx : f32
      } -> tensor<2x7xf32> loc(#relu)
      scf.forall.in_parallel {
        tensor.parallel_insert_slice %act into %o[%off, 0] [2, 7] [1, 1] : tensor<2x7xf32> into tensor<8x7xf32>
      } loc(#conv)
    } loc(#conv)
    return %r, %g : tensor<2x3x5xf32>, tensor<8x7xf32>
  }
}

// CHECK: module attributes {kiln.profile, kiln.profile.nodes = {
// CHECK-SAME: "conv (Conv)" = {flops = 336 : i64, type = tensor<8x7xf32>}
// CHECK-SAME: "mm (MatMul)" = {flops = 180 : i64, type = tensor<2x3x5xf32>}
// CHECK-SAME: "relu (Relu)" = {flops = 0 : i64, type = tensor<8x7xf32>}

// -----

// negative_not_requested: nothing without kiln.profile.
#f = loc("m.onnx":0:0)
module {
  func.func @main_graph(%x: tensor<6x3xf32>, %w: tensor<3x5xf32>, %o: tensor<6x5xf32>) -> tensor<6x5xf32> {
    %m = linalg.matmul ins(%x, %w : tensor<6x3xf32>, tensor<3x5xf32>) outs(%o : tensor<6x5xf32>) -> tensor<6x5xf32> loc("mm (MatMul)"(#f))
    return %m : tensor<6x5xf32>
  }
}

// CHECK-LABEL: module {
// CHECK-NOT: kiln.profile

// -----

// negative_dynamic: a contraction with a dynamic dim has no countable
// FLOPs (0), and a dynamic output type is kept as it is.
#f = loc("m.onnx":0:0)
module attributes {kiln.profile} {
  func.func @main_graph(%x: tensor<?x3xf32>, %w: tensor<3x5xf32>, %o: tensor<?x5xf32>) -> tensor<?x5xf32> {
    %m = linalg.matmul ins(%x, %w : tensor<?x3xf32>, tensor<3x5xf32>) outs(%o : tensor<?x5xf32>) -> tensor<?x5xf32> loc("mm (MatMul)"(#f))
    return %m : tensor<?x5xf32>
  }
}

// CHECK: module attributes {kiln.profile, kiln.profile.nodes = {"mm (MatMul)" = {flops = 0 : i64, type = tensor<?x5xf32>}}}
