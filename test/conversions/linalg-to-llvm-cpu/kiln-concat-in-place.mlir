// RUN: kiln-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(kiln-concat-in-place))' \
// RUN:   | FileCheck %s
// As in linalg-to-llvm-cpu: bufferization then copies only what is not
// computed in place (function arguments, a slice that cannot be flattened):
// RUN: kiln-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(kiln-concat-in-place),eliminate-empty-tensors,one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map},cse,canonicalize)' \
// RUN:   | FileCheck %s --check-prefix=BUF
// Without the pass, the second producer (defined before the concat's
// tensor.empty) gets a buffer of its own and a copy:
// RUN: kiln-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(eliminate-empty-tensors,one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map},cse,canonicalize)' \
// RUN:   | FileCheck %s --check-prefix=COPY

// Two producers concatenated: the concat's tensor.empty moves before the
// first, each writes an extract_slice of the chain, each insert follows
// its producer.
// CHECK-LABEL: func.func @flat
// CHECK: %[[E:.*]] = tensor.empty() : tensor<1x8x8x8xf32>
// CHECK: %[[S0:.*]] = tensor.extract_slice %[[E]][0, 0, 0, 0] [1, 4, 8, 8]
// CHECK: %[[A:.*]] = linalg.generic {{.*}} outs(%[[S0]] : tensor<1x4x8x8xf32>)
// CHECK: %[[C1:.*]] = tensor.insert_slice %[[A]] into %[[E]][0, 0, 0, 0]
// CHECK: %[[S1:.*]] = tensor.extract_slice %[[C1]][0, 4, 0, 0] [1, 4, 8, 8]
// CHECK: %[[B:.*]] = linalg.generic {{.*}} outs(%[[S1]] : tensor<1x4x8x8xf32>)
// CHECK: %[[C2:.*]] = tensor.insert_slice %[[B]] into %[[C1]][0, 4, 0, 0]
// CHECK: return %[[C2]]
// BUF-LABEL: func.func @flat
// BUF-NOT: memref.copy
// BUF: return
// COPY-LABEL: func.func @flat
// COPY: memref.copy
// COPY: return

#id = affine_map<(n, c, h, w) -> (n, c, h, w)>
#id3 = affine_map<(n, c, p) -> (n, c, p)>

func.func @flat(%x: tensor<1x4x8x8xf32>) -> tensor<1x8x8x8xf32> {
  %e0 = tensor.empty() : tensor<1x4x8x8xf32>
  %a = linalg.generic {indexing_maps = [#id, #id],
      iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x : tensor<1x4x8x8xf32>) outs(%e0 : tensor<1x4x8x8xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = arith.addf %v, %v : f32
    linalg.yield %r : f32
  } -> tensor<1x4x8x8xf32>
  %e1 = tensor.empty() : tensor<1x4x8x8xf32>
  %b = linalg.generic {indexing_maps = [#id, #id],
      iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x : tensor<1x4x8x8xf32>) outs(%e1 : tensor<1x4x8x8xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = arith.mulf %v, %v : f32
    linalg.yield %r : f32
  } -> tensor<1x4x8x8xf32>
  %c = tensor.empty() : tensor<1x8x8x8xf32>
  %c1 = tensor.insert_slice %a into %c[0, 0, 0, 0] [1, 4, 8, 8] [1, 1, 1, 1]
      : tensor<1x4x8x8xf32> into tensor<1x8x8x8xf32>
  %c2 = tensor.insert_slice %b into %c1[0, 4, 0, 0] [1, 4, 8, 8] [1, 1, 1, 1]
      : tensor<1x4x8x8xf32> into tensor<1x8x8x8xf32>
  return %c2 : tensor<1x8x8x8xf32>
}

// -----

// A concat of a concat whose result another op reads (DenseNet's layers):
// one chain into the outer result; the reader reads its first 8 channels.
// CHECK-LABEL: func.func @nested
// CHECK: %[[E:.*]] = tensor.empty() : tensor<1x12x8x8xf32>
// CHECK: %[[C1:.*]] = tensor.insert_slice %arg0 into %[[E]][0, 0, 0, 0]
// CHECK: %[[S1:.*]] = tensor.extract_slice %[[C1]][0, 4, 0, 0] [1, 4, 8, 8]
// CHECK: linalg.generic {{.*}} outs(%[[S1]] : tensor<1x4x8x8xf32>)
// CHECK: %[[C2:.*]] = tensor.insert_slice %{{.*}} into %[[C1]][0, 4, 0, 0]
// CHECK: %[[INNER:.*]] = tensor.extract_slice %[[C2]][0, 0, 0, 0] [1, 8, 8, 8]
// CHECK: linalg.generic {{.*}} ins(%[[INNER]] : tensor<1x8x8x8xf32>)
// CHECK: %[[S2:.*]] = tensor.extract_slice %[[C2]][0, 8, 0, 0] [1, 4, 8, 8]
// CHECK: linalg.generic {{.*}} outs(%[[S2]] : tensor<1x4x8x8xf32>)
// CHECK: %[[C3:.*]] = tensor.insert_slice %{{.*}} into %[[C2]][0, 8, 0, 0]
// CHECK-NOT: tensor.insert_slice
// CHECK: return %{{.*}}, %[[C3]]
// Only the argument is copied:
// BUF-LABEL: func.func @nested
// BUF: memref.copy %arg0
// BUF-NOT: memref.copy
// BUF: return
#id = affine_map<(n, c, h, w) -> (n, c, h, w)>
func.func @nested(%x: tensor<1x4x8x8xf32>)
    -> (tensor<1x8x8x8xf32>, tensor<1x12x8x8xf32>) {
  %e0 = tensor.empty() : tensor<1x4x8x8xf32>
  %a = linalg.generic {indexing_maps = [#id, #id],
      iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x : tensor<1x4x8x8xf32>) outs(%e0 : tensor<1x4x8x8xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = arith.addf %v, %v : f32
    linalg.yield %r : f32
  } -> tensor<1x4x8x8xf32>
  %c = tensor.empty() : tensor<1x8x8x8xf32>
  %c1 = tensor.insert_slice %x into %c[0, 0, 0, 0] [1, 4, 8, 8] [1, 1, 1, 1]
      : tensor<1x4x8x8xf32> into tensor<1x8x8x8xf32>
  %c2 = tensor.insert_slice %a into %c1[0, 4, 0, 0] [1, 4, 8, 8] [1, 1, 1, 1]
      : tensor<1x4x8x8xf32> into tensor<1x8x8x8xf32>
  %e2 = tensor.empty() : tensor<1x8x8x8xf32>
  %read = linalg.generic {indexing_maps = [#id, #id],
      iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c2 : tensor<1x8x8x8xf32>) outs(%e2 : tensor<1x8x8x8xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = arith.mulf %v, %v : f32
    linalg.yield %r : f32
  } -> tensor<1x8x8x8xf32>
  %e1 = tensor.empty() : tensor<1x4x8x8xf32>
  %b = linalg.generic {indexing_maps = [#id, #id],
      iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x : tensor<1x4x8x8xf32>) outs(%e1 : tensor<1x4x8x8xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = arith.subf %v, %v : f32
    linalg.yield %r : f32
  } -> tensor<1x4x8x8xf32>
  %d = tensor.empty() : tensor<1x12x8x8xf32>
  %d1 = tensor.insert_slice %c2 into %d[0, 0, 0, 0] [1, 8, 8, 8] [1, 1, 1, 1]
      : tensor<1x8x8x8xf32> into tensor<1x12x8x8xf32>
  %d2 = tensor.insert_slice %b into %d1[0, 8, 0, 0] [1, 4, 8, 8] [1, 1, 1, 1]
      : tensor<1x4x8x8xf32> into tensor<1x12x8x8xf32>
  return %read, %d2 : tensor<1x8x8x8xf32>, tensor<1x12x8x8xf32>
}

// -----

// An im2col conv's result is unflattened by an expand_shape: the producer
// writes the slice flattened back, its shared fill init cloned onto it.
// CHECK-LABEL: func.func @expanded
// CHECK: %[[E:.*]] = tensor.empty() : tensor<1x8x8x8xf32>
// CHECK: %[[S:.*]] = tensor.extract_slice %[[E]][0, 4, 0, 0] [1, 4, 8, 8]
// CHECK: %[[F:.*]] = tensor.collapse_shape %[[S]] {{\[}}[0], [1], [2, 3]]
// CHECK: %[[FILL:.*]] = linalg.fill {{.*}} outs(%[[F]] : tensor<1x4x64xf32>)
// CHECK: linalg.generic {{.*}} outs(%[[FILL]] : tensor<1x4x64xf32>)
// BUF-LABEL: func.func @expanded
// BUF: memref.copy %expand_shape
// BUF-NOT: memref.copy
// BUF: return
#id3 = affine_map<(n, c, p) -> (n, c, p)>
func.func @expanded(%x: tensor<1x4x64xf32>)
    -> (tensor<1x4x64xf32>, tensor<1x8x8x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x4x64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x4x64xf32>) -> tensor<1x4x64xf32>
  %a = linalg.generic {indexing_maps = [#id3, #id3],
      iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x : tensor<1x4x64xf32>) outs(%f : tensor<1x4x64xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = arith.addf %v, %o : f32
    linalg.yield %r : f32
  } -> tensor<1x4x64xf32>
  %other = linalg.generic {indexing_maps = [#id3, #id3],
      iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x : tensor<1x4x64xf32>) outs(%f : tensor<1x4x64xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = arith.subf %v, %o : f32
    linalg.yield %r : f32
  } -> tensor<1x4x64xf32>
  %ax = tensor.expand_shape %a [[0], [1], [2, 3]] output_shape [1, 4, 8, 8]
      : tensor<1x4x64xf32> into tensor<1x4x8x8xf32>
  %c = tensor.empty() : tensor<1x8x8x8xf32>
  %c1 = tensor.insert_slice %ax into %c[0, 4, 0, 0] [1, 4, 8, 8] [1, 1, 1, 1]
      : tensor<1x4x8x8xf32> into tensor<1x8x8x8xf32>
  %xx = tensor.expand_shape %x [[0], [1], [2, 3]] output_shape [1, 4, 8, 8]
      : tensor<1x4x64xf32> into tensor<1x4x8x8xf32>
  %c2 = tensor.insert_slice %xx into %c1[0, 0, 0, 0] [1, 4, 8, 8] [1, 1, 1, 1]
      : tensor<1x4x8x8xf32> into tensor<1x8x8x8xf32>
  return %other, %c2 : tensor<1x4x64xf32>, tensor<1x8x8x8xf32>
}

// -----

// Concatenated along the last axis, the slice's rows are not contiguous:
// the flattened producer keeps its own buffer (one copy).
// CHECK-LABEL: func.func @negative_expanded_last_axis
// CHECK-NOT: tensor.collapse_shape
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<1x4x64xf32>)
// CHECK: tensor.expand_shape
#id3 = affine_map<(n, c, p) -> (n, c, p)>
func.func @negative_expanded_last_axis(%x: tensor<1x4x64xf32>)
    -> tensor<1x4x8x16xf32> {
  %e = tensor.empty() : tensor<1x4x64xf32>
  %a = linalg.generic {indexing_maps = [#id3, #id3],
      iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x : tensor<1x4x64xf32>) outs(%e : tensor<1x4x64xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = arith.addf %v, %v : f32
    linalg.yield %r : f32
  } -> tensor<1x4x64xf32>
  %ax = tensor.expand_shape %a [[0], [1], [2, 3]] output_shape [1, 4, 8, 8]
      : tensor<1x4x64xf32> into tensor<1x4x8x8xf32>
  %c = tensor.empty() : tensor<1x4x8x16xf32>
  %c1 = tensor.insert_slice %ax into %c[0, 0, 0, 8] [1, 4, 8, 8] [1, 1, 1, 1]
      : tensor<1x4x8x8xf32> into tensor<1x4x8x16xf32>
  return %c1 : tensor<1x4x8x16xf32>
}

// -----

// A concat into a padded tensor is not spliced into the padding's chain
// (its readers would read a strided interior).
// CHECK-LABEL: func.func @negative_pad
// CHECK: %[[C:.*]] = tensor.insert_slice %{{.*}} into %{{.*}}[0, 4, 0, 0] [1, 4, 8, 8] {{.*}} into tensor<1x8x8x8xf32>
// CHECK: tensor.insert_slice %[[C]] into %{{.*}}[0, 0, 1, 1]
#id = affine_map<(n, c, h, w) -> (n, c, h, w)>
func.func @negative_pad(%x: tensor<1x4x8x8xf32>) -> tensor<1x8x10x10xf32> {
  %e0 = tensor.empty() : tensor<1x4x8x8xf32>
  %a = linalg.generic {indexing_maps = [#id, #id],
      iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x : tensor<1x4x8x8xf32>) outs(%e0 : tensor<1x4x8x8xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = arith.addf %v, %v : f32
    linalg.yield %r : f32
  } -> tensor<1x4x8x8xf32>
  %c = tensor.empty() : tensor<1x8x8x8xf32>
  %c1 = tensor.insert_slice %x into %c[0, 0, 0, 0] [1, 4, 8, 8] [1, 1, 1, 1]
      : tensor<1x4x8x8xf32> into tensor<1x8x8x8xf32>
  %c2 = tensor.insert_slice %a into %c1[0, 4, 0, 0] [1, 4, 8, 8] [1, 1, 1, 1]
      : tensor<1x4x8x8xf32> into tensor<1x8x8x8xf32>
  %zero = arith.constant 0.0 : f32
  %p = tensor.empty() : tensor<1x8x10x10xf32>
  %pf = linalg.fill ins(%zero : f32) outs(%p : tensor<1x8x10x10xf32>) -> tensor<1x8x10x10xf32>
  %p1 = tensor.insert_slice %c2 into %pf[0, 0, 1, 1] [1, 8, 8, 8] [1, 1, 1, 1]
      : tensor<1x8x8x8xf32> into tensor<1x8x10x10xf32>
  return %p1 : tensor<1x8x10x10xf32>
}
