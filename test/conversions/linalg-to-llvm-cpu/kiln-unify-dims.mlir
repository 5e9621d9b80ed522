// RUN: kiln-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(kiln-unify-dims),cse,canonicalize)' \
// RUN:   | FileCheck %s

// Input dims that share an ONNX name are one value: every read of the mask's
// `batch` and `seq` becomes the ids', after an assert that they are equal;
// the broadcast's test of one against the other then folds away. The
// unnamed dim and the dim named differently stay.
// CHECK-LABEL: func.func @shared_names
// CHECK-DAG: %[[B:.*]] = tensor.dim %arg0, %c0
// CHECK-DAG: %[[S:.*]] = tensor.dim %arg0, %c1
// CHECK-DAG: %[[MB:.*]] = tensor.dim %arg1, %c0
// CHECK-DAG: %[[MS:.*]] = tensor.dim %arg1, %c1
// CHECK-DAG: %[[EQB:.*]] = arith.cmpi eq, %[[MB]], %[[B]]
// CHECK-DAG: cf.assert %[[EQB]], "input 'mask' dim 0 ('batch') differs from input 'ids' dim 0, which shares its name"
// CHECK-DAG: %[[EQS:.*]] = arith.cmpi eq, %[[MS]], %[[S]]
// CHECK-DAG: cf.assert %[[EQS]], "input 'mask' dim 1 ('seq') differs from input 'ids' dim 1, which shares its name"
// CHECK-DAG: %[[O:.*]] = tensor.dim %arg2, %c0
// CHECK-DAG: %[[OK:.*]] = arith.cmpi eq, %[[O]], %[[B]]
// CHECK-NOT: cf.assert
// CHECK: return %[[B]], %[[S]], %[[OK]]
func.func @shared_names(%ids: tensor<?x?xi64> {onnx.dim_names = ["batch", "seq"], onnx.name = "ids"},
                        %mask: tensor<?x?xi64> {onnx.dim_names = ["batch", "seq"], onnx.name = "mask"},
                        %other: tensor<?x?xf32> {onnx.dim_names = ["rows", ""], onnx.name = "other"})
    -> (index, index, i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %b = tensor.dim %ids, %c0 : tensor<?x?xi64>
  %mb = tensor.dim %mask, %c0 : tensor<?x?xi64>
  %ms = tensor.dim %mask, %c1 : tensor<?x?xi64>
  %o = tensor.dim %other, %c0 : tensor<?x?xf32>
  // numpy's size of ids' batch against the mask's: one value now.
  %is1 = arith.cmpi eq, %b, %c1 : index
  %size = arith.select %is1, %mb, %b : index
  %same = arith.cmpi eq, %o, %b : index
  return %size, %ms, %same : index, index, i1
}

// -----

// A broadcast's size between a dim and a slice of a table that the dim
// sizes (pos[:seq], 384 rows: min(max(seq, 0), 384)) is the dim, in either
// order of the operands: the slice's length is 1 whenever seq is.
// CHECK-LABEL: func.func @table_slice
// CHECK: %[[S:.*]] = tensor.dim %arg0, %c1
// CHECK-NOT: arith.select %{{.*}}, %{{.*}}, %[[S]] : index
// CHECK: return %[[S]], %[[S]]
func.func @table_slice(%ids: tensor<?x?xi64>) -> (index, index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c384 = arith.constant 384 : index
  %s = tensor.dim %ids, %c1 : tensor<?x?xi64>
  %neg = arith.cmpi slt, %s, %c0 : index
  %lo = arith.select %neg, %c0, %s : index
  %big = arith.cmpi sgt, %lo, %c384 : index
  %len = arith.select %big, %c384, %lo : index
  %is1 = arith.cmpi eq, %s, %c1 : index
  %size = arith.select %is1, %len, %s : index
  %len1 = arith.cmpi eq, %len, %c1 : index
  %size2 = arith.select %len1, %s, %len : index
  return %size, %size2 : index, index
}

// -----

// A causal mask sliced to the sequence (max(min(seq, 256), 0) rows of a
// 256-row table; a range's length, whose negative branch is never 1)
// broadcast against the sequence: asserted to be seq or 1, and 1 only when
// seq is, so it is seq. Its stretch branch goes and its slice takes seq
// rows; the assert keeps its own comparisons (the shape function's check
// that the sequence fits the table).
// CHECK-LABEL: func.func @asserted_stretch
// CHECK: %[[S:.*]] = tensor.dim %arg0, %c1
// CHECK: %[[LEN:.*]] = arith.select %{{.*}}, %{{.*}}, %c0 : index
// CHECK: %[[MASK:.*]] = tensor.extract_slice %arg1[0, 0] [%[[S]], %[[S]]] [1, 1]
// CHECK: %[[EQ:.*]] = arith.cmpi eq, %[[LEN]], %[[S]]
// CHECK: %[[ONE:.*]] = arith.cmpi eq, %[[LEN]], %c1
// CHECK: %[[OK:.*]] = arith.ori %[[EQ]], %[[ONE]]
// CHECK: cf.assert %[[OK]]
// CHECK: %[[RANGE:.*]] = tensor.empty(%[[S]])
// CHECK: cf.assert
// CHECK-NEXT: return %[[MASK]], %[[RANGE]]
func.func @asserted_stretch(%ids: tensor<?x?xi64>, %table: tensor<256x256xf32>) -> (tensor<?x?xf32>, tensor<?xi64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  %s = tensor.dim %ids, %c1 : tensor<?x?xi64>
  %big = arith.cmpi sgt, %s, %c256 : index
  %hi = arith.select %big, %c256, %s : index
  %pos = arith.cmpi sgt, %hi, %c0 : index
  %len = arith.select %pos, %hi, %c0 : index
  %mask = tensor.extract_slice %table[0, 0] [%len, %len] [1, 1] : tensor<256x256xf32> to tensor<?x?xf32>
  %eq = arith.cmpi eq, %len, %s : index
  %one = arith.cmpi eq, %len, %c1 : index
  %ok = arith.ori %eq, %one : i1
  cf.assert %ok, "inputs that broadcast together have dims of different sizes at run time, neither of them 1"
  %m = scf.if %eq -> (tensor<?x?xf32>) {
    scf.yield %mask : tensor<?x?xf32>
  } else {
    %e = tensor.empty(%s, %s) : tensor<?x?xf32>
    scf.yield %e : tensor<?x?xf32>
  }
  %s64 = arith.index_cast %s : index to i64
  %c0_i64 = arith.constant 0 : i64
  %neg = arith.subi %c0_i64, %s64 : i64
  %up = arith.cmpi sgt, %s64, %c0_i64 : i64
  %r64 = arith.select %up, %s64, %neg : i64
  %r = arith.index_cast %r64 : i64 to index
  %range = tensor.empty(%r) : tensor<?xi64>
  %req = arith.cmpi eq, %r, %s : index
  %rone = arith.cmpi eq, %r, %c1 : index
  %rok = arith.ori %req, %rone : i1
  cf.assert %rok, "inputs that broadcast together have dims of different sizes at run time, neither of them 1"
  return %m, %range : tensor<?x?xf32>, tensor<?xi64>
}

// -----

// Negative: a dim that can be 1 while the size is not (the slice's length
// is at least 1: max(seq, 1)), or computed otherwise (seq + 1): the
// stretch branches stay (the canonicalizer makes them selects).
// CHECK-LABEL: func.func @possible_stretch
// CHECK-COUNT-2: arith.select %{{.*}}, %arg1, %{{.*}} : tensor<?xf32>
func.func @possible_stretch(%ids: tensor<?x?xi64>, %x: tensor<?xf32>) -> (tensor<?xf32>, tensor<?xf32>) {
  %c1 = arith.constant 1 : index
  %s = tensor.dim %ids, %c1 : tensor<?x?xi64>
  %d1 = arith.maxsi %s, %c1 : index
  %d2 = arith.addi %s, %c1 : index
  %r1 = func.call @stretch(%x, %d1, %s) : (tensor<?xf32>, index, index) -> tensor<?xf32>
  %eq1 = arith.cmpi eq, %d1, %s : index
  %one1 = arith.cmpi eq, %d1, %c1 : index
  %ok1 = arith.ori %eq1, %one1 : i1
  cf.assert %ok1, "broadcast"
  %a = scf.if %eq1 -> (tensor<?xf32>) {
    scf.yield %x : tensor<?xf32>
  } else {
    scf.yield %r1 : tensor<?xf32>
  }
  %eq2 = arith.cmpi eq, %d2, %s : index
  %one2 = arith.cmpi eq, %d2, %c1 : index
  %ok2 = arith.ori %eq2, %one2 : i1
  cf.assert %ok2, "broadcast"
  %b = scf.if %eq2 -> (tensor<?xf32>) {
    scf.yield %x : tensor<?xf32>
  } else {
    scf.yield %r1 : tensor<?xf32>
  }
  return %a, %b : tensor<?xf32>, tensor<?xf32>
}
func.func private @stretch(tensor<?xf32>, index, index) -> tensor<?xf32>

// -----

// Negative: the other dim is not computed from this one (another input's,
// or a value read from memory), or is not 1 when it is (2 * seq - 1 is,
// seq + 1 is not): the selects stay.
// CHECK-LABEL: func.func @not_implied
// CHECK-COUNT-3: arith.select
// CHECK: return
func.func @not_implied(%x: tensor<?xf32>, %y: tensor<?xf32>, %n: tensor<index>) -> (index, index, index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = tensor.dim %x, %c0 : tensor<?xf32>
  %b = tensor.dim %y, %c0 : tensor<?xf32>
  %r = tensor.extract %n[] : tensor<index>
  %a1 = arith.addi %a, %c1 : index
  %is1 = arith.cmpi eq, %a, %c1 : index
  %s0 = arith.select %is1, %b, %a : index
  %s1 = arith.select %is1, %r, %a : index
  %s2 = arith.select %is1, %a1, %a : index
  return %s0, %s1, %s2 : index, index, index
}

// -----

// Arithmetic that keeps 1 at 1 (2 * seq - 1, seq / 1, max(seq, 1)) is
// followed; a select other than numpy's size (a test against 2) is not
// touched.
// CHECK-LABEL: func.func @arithmetic
// CHECK: %[[S:.*]] = tensor.dim %arg0, %c0
// CHECK: %[[T:.*]] = arith.cmpi eq, %[[S]], %c2
// CHECK: %[[O:.*]] = arith.select %[[T]]
// CHECK: return %[[S]], %[[O]]
func.func @arithmetic(%x: tensor<?xf32>) -> (index, index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %s = tensor.dim %x, %c0 : tensor<?xf32>
  %t = arith.muli %s, %c2 : index
  %u = arith.subi %t, %c1 : index
  %v = arith.divsi %u, %c1 : index
  %w = arith.maxsi %v, %c1 : index
  %is1 = arith.cmpi eq, %s, %c1 : index
  %size = arith.select %is1, %w, %s : index
  %is2 = arith.cmpi eq, %s, %c2 : index
  %other = arith.select %is2, %w, %s : index
  return %size, %other : index, index
}

// -----

// A slice that takes all of its source (offsets 0, strides 1, each size the
// dim its source's producer names: a tensor.empty's size, through the
// linalg op that wrote it, or a reshape's shape element) is its source, so
// the two adds read each other directly and can fuse. A slice of an
// argument (whose dims nothing names), one of fewer rows, one at an
// offset, and one whose sizes are not the source's dims stay.
// CHECK-LABEL: func.func @whole_slices
// CHECK: tensor.extract_slice %arg0[0, 0] [%arg1, %arg2] [1, 1]
// CHECK: %[[ADD:.*]] = linalg.generic
// CHECK: %[[RESHAPED:.*]] = tensor.reshape
// CHECK-NOT: tensor.extract_slice
// CHECK: linalg.generic {{.*}} ins(%[[ADD]], %[[RESHAPED]] : tensor<?x?xf32>, tensor<?x?xf32>)
// CHECK: tensor.extract_slice %[[ADD]][0, 0] [%arg3, %arg2] [1, 1]
// CHECK: tensor.extract_slice %[[ADD]][1, 0] [%arg1, %arg2] [1, 1]
// CHECK: tensor.extract_slice %[[ADD]][0, 0] [%arg2, %arg1] [1, 1]
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @whole_slices(%x: tensor<?x?xf32>, %r: index, %c: index, %fewer: index, %flat: tensor<?xf32>)
    -> (tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>) {
  %e = tensor.empty(%r, %c) : tensor<?x?xf32>
  %xs = tensor.extract_slice %x[0, 0] [%r, %c] [1, 1] : tensor<?x?xf32> to tensor<?x?xf32>
  %add = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%xs, %xs : tensor<?x?xf32>, tensor<?x?xf32>) outs(%e : tensor<?x?xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<?x?xf32>
  %shape = tensor.from_elements %r, %c : tensor<2xindex>
  %y = tensor.reshape %flat(%shape) : (tensor<?xf32>, tensor<2xindex>) -> tensor<?x?xf32>
  %as = tensor.extract_slice %add[0, 0] [%r, %c] [1, 1] : tensor<?x?xf32> to tensor<?x?xf32>
  %ys = tensor.extract_slice %y[0, 0] [%r, %c] [1, 1] : tensor<?x?xf32> to tensor<?x?xf32>
  %sum = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%as, %ys : tensor<?x?xf32>, tensor<?x?xf32>) outs(%e : tensor<?x?xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<?x?xf32>
  %part = tensor.extract_slice %add[0, 0] [%fewer, %c] [1, 1] : tensor<?x?xf32> to tensor<?x?xf32>
  %shifted = tensor.extract_slice %add[1, 0] [%r, %c] [1, 1] : tensor<?x?xf32> to tensor<?x?xf32>
  %swapped = tensor.extract_slice %add[0, 0] [%c, %r] [1, 1] : tensor<?x?xf32> to tensor<?x?xf32>
  return %sum, %part, %shifted, %swapped : tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>
}
