// graph-verify sees through compile-time shape computations: operands that
// are chains of shape/size/slice/concat/gather/arithmetic/... over static
// shapes and constants give static result types (const_eval.c). Each
// positive function declares the exact static types; each negative_ one
// declares a wrong static type, and the error shows the static type that
// inference derived.
// RUN: kiln-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(func.func(graph-verify))'

// LayerNormalization's expansion: Y = Reshape(Y2D, Shape(X)) and the
// reduced shape Concat(Slice(Shape(X), 0, axis), ConstantOfShape(Size(...)
// - axis)).
func.func @layer_norm_shapes(%x: tensor<2x3x5xf32>, %y: tensor<2x15xf32>, %m: tensor<2x1xf32>) -> (tensor<2x3x5xf32>, tensor<2x1x1xf32>) {
  %s = "graph.shape"(%x) : (tensor<2x3x5xf32>) -> tensor<3xi64>
  %rank = "graph.size"(%s) : (tensor<3xi64>) -> tensor<i64>
  %zero = "graph.constant"() {value = dense<0> : tensor<1xi64>} : () -> tensor<1xi64>
  %axis = "graph.constant"() {value = dense<1> : tensor<1xi64>} : () -> tensor<1xi64>
  %prefix = "graph.slice"(%s, %zero, %axis) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0>} : (tensor<3xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<1xi64>
  %n = "graph.sub"(%rank, %axis) : (tensor<i64>, tensor<1xi64>) -> tensor<1xi64>
  %suffix = "graph.constant_of_shape"(%n) {value = dense<1> : tensor<1xi64>} : (tensor<1xi64>) -> tensor<2xi64>
  %reduced = "graph.concat"(%prefix, %suffix) {axis = 0 : i64} : (tensor<1xi64>, tensor<2xi64>) -> tensor<3xi64>
  %0 = "graph.reshape"(%y, %s) : (tensor<2x15xf32>, tensor<3xi64>) -> tensor<2x3x5xf32>
  %1 = "graph.reshape"(%m, %reduced) : (tensor<2x1xf32>, tensor<3xi64>) -> tensor<2x1x1xf32>
  return %0, %1 : tensor<2x3x5xf32>, tensor<2x1x1xf32>
}

// -----

func.func @negative_reshape_static(%x: tensor<2x3x5xf32>, %y: tensor<2x15xf32>) {
  %s = "graph.shape"(%x) : (tensor<2x3x5xf32>) -> tensor<3xi64>
  %b = "graph.constant"() {value = dense<[-2]> : tensor<1xi64>} : () -> tensor<1xi64>
  %e = "graph.constant"() {value = dense<[3]> : tensor<1xi64>} : () -> tensor<1xi64>
  %tail = "graph.slice"(%s, %b, %e) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0>} : (tensor<3xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<2xi64>
  %m1 = "graph.constant"() {value = dense<[-1]> : tensor<1xi64>} : () -> tensor<1xi64>
  %shape = "graph.concat"(%m1, %tail) {axis = 0 : i64} : (tensor<1xi64>, tensor<2xi64>) -> tensor<3xi64>
  // expected-error @+1 {{'graph.reshape' op result #0 has type tensor<2x15x1xf32>, but its operands and attributes imply tensor<2x3x5xf32>}}
  %0 = "graph.reshape"(%y, %shape) : (tensor<2x15xf32>, tensor<3xi64>) -> tensor<2x15x1xf32>
  return
}

// -----

// Expand's shape: the data's shape with its first dim taken from another
// tensor (Gather with a negative index) and a Where on a comparison.
func.func @expand_gather_where(%x: tensor<4x6xf32>, %b: tensor<6xf32>) -> tensor<4x6xf32> {
  %s = "graph.shape"(%x) : (tensor<4x6xf32>) -> tensor<2xi64>
  %i = "graph.constant"() {value = dense<[-2, -1]> : tensor<2xi64>} : () -> tensor<2xi64>
  %g = "graph.gather"(%s, %i) : (tensor<2xi64>, tensor<2xi64>) -> tensor<2xi64>
  %six = "graph.constant"() {value = dense<6> : tensor<i64>} : () -> tensor<i64>
  %one = "graph.constant"() {value = dense<1> : tensor<i64>} : () -> tensor<i64>
  %is6 = "graph.equal"(%g, %six) : (tensor<2xi64>, tensor<i64>) -> tensor<2xi1>
  %shape = "graph.where"(%is6, %one, %g) : (tensor<2xi1>, tensor<i64>, tensor<2xi64>) -> tensor<2xi64>
  %0 = "graph.expand"(%b, %shape) : (tensor<6xf32>, tensor<2xi64>) -> tensor<4x6xf32>
  return %0 : tensor<4x6xf32>
}

// -----

func.func @negative_expand_static(%x: tensor<4x6xf32>, %b: tensor<1xf32>) {
  %s = "graph.shape"(%x) : (tensor<4x6xf32>) -> tensor<2xi64>
  %two = "graph.constant"() {value = dense<2> : tensor<i64>} : () -> tensor<i64>
  %shape = "graph.mul"(%s, %two) : (tensor<2xi64>, tensor<i64>) -> tensor<2xi64>
  // expected-error @+1 {{'graph.expand' op result #0 has type tensor<4x6xf32>, but its operands and attributes imply tensor<8x12xf32>}}
  %0 = "graph.expand"(%b, %shape) : (tensor<1xf32>, tensor<2xi64>) -> tensor<4x6xf32>
  return
}

// -----

// A computed shape that contradicts the data is now an error at compile
// time (it used to be a dynamic result).
func.func @negative_expand_incompatible(%x: tensor<4x6xf32>, %b: tensor<6xf32>) {
  %s = "graph.shape"(%x) : (tensor<4x6xf32>) -> tensor<2xi64>
  %two = "graph.constant"() {value = dense<2> : tensor<i64>} : () -> tensor<i64>
  %shape = "graph.mul"(%s, %two) : (tensor<2xi64>, tensor<i64>) -> tensor<2xi64>
  // expected-error @+1 {{'graph.expand' op input of type tensor<6xf32> cannot be broadcast to shape [8, 12]}}
  %0 = "graph.expand"(%b, %shape) : (tensor<6xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  return
}

// -----

// Tile's repeats: Concat(Constant, Div(Shape, 2)) after a Cast to i32 and
// back (values survive both casts).
func.func @tile_div_cast(%x: tensor<4x6xf32>) -> tensor<8x18xf32> {
  %s = "graph.shape"(%x) : (tensor<4x6xf32>) -> tensor<2xi64>
  %s32 = "graph.cast"(%s) {to = i32} : (tensor<2xi64>) -> tensor<2xi32>
  %two = "graph.constant"() {value = dense<2> : tensor<i32>} : () -> tensor<i32>
  %half = "graph.div"(%s32, %two) : (tensor<2xi32>, tensor<i32>) -> tensor<2xi32>
  %h64 = "graph.cast"(%half) {to = i64} : (tensor<2xi32>) -> tensor<2xi64>
  %b = "graph.constant"() {value = dense<[1]> : tensor<1xi64>} : () -> tensor<1xi64>
  %e = "graph.constant"() {value = dense<[2]> : tensor<1xi64>} : () -> tensor<1xi64>
  %last = "graph.slice"(%h64, %b, %e) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0>} : (tensor<2xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<1xi64>
  %first = "graph.slice"(%h64, %b, %b) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0>} : (tensor<2xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<0xi64>
  %lf = "graph.concat"(%first, %last) {axis = 0 : i64} : (tensor<0xi64>, tensor<1xi64>) -> tensor<1xi64>
  %reps = "graph.concat"(%h64, %lf) {axis = 0 : i64} : (tensor<2xi64>, tensor<1xi64>) -> tensor<3xi64>
  %k = "graph.constant"() {value = dense<[0, 1]> : tensor<2xi64>} : () -> tensor<2xi64>
  %rk = "graph.gather"(%reps, %k) : (tensor<3xi64>, tensor<2xi64>) -> tensor<2xi64>
  %0 = "graph.tile"(%x, %rk) : (tensor<4x6xf32>, tensor<2xi64>) -> tensor<8x18xf32>
  return %0 : tensor<8x18xf32>
}

// -----

// Range(0, Size(x), 1) and ConstantOfShape(ReduceProd(Shape) ++ Max(...)).
func.func @range_constant_of_shape(%x: tensor<4x6xf32>) -> (tensor<24xi64>, tensor<24x6xi32>) {
  %zero = "graph.constant"() {value = dense<0> : tensor<i64>} : () -> tensor<i64>
  %one = "graph.constant"() {value = dense<1> : tensor<i64>} : () -> tensor<i64>
  %n = "graph.size"(%x) : (tensor<4x6xf32>) -> tensor<i64>
  %0 = "graph.range"(%zero, %n, %one) : (tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<24xi64>
  %s = "graph.shape"(%x) : (tensor<4x6xf32>) -> tensor<2xi64>
  %p = "graph.reduce_prod"(%s) : (tensor<2xi64>) -> tensor<1xi64>
  %m = "graph.reduce_sum"(%s) {keepdims = 0 : i64} : (tensor<2xi64>) -> tensor<i64>
  %neg = "graph.neg"(%m) : (tensor<i64>) -> tensor<i64>
  %abs = "graph.abs"(%neg) : (tensor<i64>) -> tensor<i64>
  %ax = "graph.constant"() {value = dense<[0]> : tensor<1xi64>} : () -> tensor<1xi64>
  %u = "graph.unsqueeze"(%abs, %ax) : (tensor<i64>, tensor<1xi64>) -> tensor<1xi64>
  %lim = "graph.constant"() {value = dense<6> : tensor<1xi64>} : () -> tensor<1xi64>
  %c = "graph.min"(%u, %lim) : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xi64>
  %d = "graph.concat"(%p, %c) {axis = 0 : i64} : (tensor<1xi64>, tensor<1xi64>) -> tensor<2xi64>
  %1 = "graph.constant_of_shape"(%d) {value = dense<3> : tensor<1xi32>} : (tensor<2xi64>) -> tensor<24x6xi32>
  return %0, %1 : tensor<24xi64>, tensor<24x6xi32>
}

// -----

func.func @negative_constant_of_shape_static(%x: tensor<4x6xf32>) {
  %s = "graph.shape"(%x) : (tensor<4x6xf32>) -> tensor<2xi64>
  %k = "graph.constant"() {value = dense<5> : tensor<i64>} : () -> tensor<i64>
  %lt = "graph.less"(%s, %k) : (tensor<2xi64>, tensor<i64>) -> tensor<2xi1>
  %gt = "graph.greater"(%s, %k) : (tensor<2xi64>, tensor<i64>) -> tensor<2xi1>
  %n = "graph.not"(%lt) : (tensor<2xi1>) -> tensor<2xi1>
  %d = "graph.cast"(%n) {to = i64} : (tensor<2xi1>) -> tensor<2xi64>
  %g = "graph.cast"(%gt) {to = i64} : (tensor<2xi1>) -> tensor<2xi64>
  %sum = "graph.add"(%d, %g) : (tensor<2xi64>, tensor<2xi64>) -> tensor<2xi64>
  // expected-error @+1 {{'graph.constant_of_shape' op result #0 has type tensor<1x1xi64>, but its operands and attributes imply tensor<0x2xi64>}}
  %0 = "graph.constant_of_shape"(%sum) {value = dense<0> : tensor<1xi64>} : (tensor<2xi64>) -> tensor<1x1xi64>
  return
}

// -----

// Values that are not compile-time ones leave dims dynamic, as before.
func.func @dynamic_stays_dynamic(%x: tensor<?x6xf32>, %y: tensor<24xf32>) -> tensor<?x6xf32> {
  %s = "graph.shape"(%x) : (tensor<?x6xf32>) -> tensor<2xi64>
  %0 = "graph.reshape"(%y, %s) : (tensor<24xf32>, tensor<2xi64>) -> tensor<?x6xf32>
  return %0 : tensor<?x6xf32>
}


// -----

// torchvision Swin's window padding as torch 1.13 exports it: the pad to a
// multiple of the window, (7 - H % 7) % 7, built as PyTorch's pad list,
// reshaped to [n, 2] pairs, reversed by a Slice of step -1 along axis 0 and
// transposed into ONNX's begins-then-ends order. H = 9 and W = 10 pad to 14.
func.func @swin_window_pad(%x: tensor<1x9x10x4xf32>) -> tensor<1x14x14x4xf32> {
  %s = "graph.shape"(%x) : (tensor<1x9x10x4xf32>) -> tensor<4xi64>
  %i1 = "graph.constant"() {value = dense<1> : tensor<i64>} : () -> tensor<i64>
  %i2 = "graph.constant"() {value = dense<2> : tensor<i64>} : () -> tensor<i64>
  %h = "graph.gather"(%s, %i1) {axis = 0 : i64} : (tensor<4xi64>, tensor<i64>) -> tensor<i64>
  %w = "graph.gather"(%s, %i2) {axis = 0 : i64} : (tensor<4xi64>, tensor<i64>) -> tensor<i64>
  %seven = "graph.constant"() {value = dense<7> : tensor<i64>} : () -> tensor<i64>
  %hm = "graph.mod"(%h, %seven) {fmod = 0 : i64} : (tensor<i64>, tensor<i64>) -> tensor<i64>
  %hs = "graph.sub"(%seven, %hm) : (tensor<i64>, tensor<i64>) -> tensor<i64>
  %pb = "graph.mod"(%hs, %seven) {fmod = 0 : i64} : (tensor<i64>, tensor<i64>) -> tensor<i64>
  %wm = "graph.mod"(%w, %seven) {fmod = 0 : i64} : (tensor<i64>, tensor<i64>) -> tensor<i64>
  %ws = "graph.sub"(%seven, %wm) : (tensor<i64>, tensor<i64>) -> tensor<i64>
  %pr = "graph.mod"(%ws, %seven) {fmod = 0 : i64} : (tensor<i64>, tensor<i64>) -> tensor<i64>
  %ax = "graph.constant"() {value = dense<0> : tensor<1xi64>} : () -> tensor<1xi64>
  %pb1 = "graph.unsqueeze"(%pb, %ax) : (tensor<i64>, tensor<1xi64>) -> tensor<1xi64>
  %pr1 = "graph.unsqueeze"(%pr, %ax) : (tensor<i64>, tensor<1xi64>) -> tensor<1xi64>
  %z3 = "graph.constant"() {value = dense<0> : tensor<3xi64>} : () -> tensor<3xi64>
  %z2 = "graph.constant"() {value = dense<0> : tensor<2xi64>} : () -> tensor<2xi64>
  %c0 = "graph.concat"(%z3, %pr1) {axis = 0 : i64} : (tensor<3xi64>, tensor<1xi64>) -> tensor<4xi64>
  %c1 = "graph.concat"(%c0, %ax) {axis = 0 : i64} : (tensor<4xi64>, tensor<1xi64>) -> tensor<5xi64>
  %c2 = "graph.concat"(%c1, %pb1) {axis = 0 : i64} : (tensor<5xi64>, tensor<1xi64>) -> tensor<6xi64>
  %c3 = "graph.concat"(%c2, %z2) {axis = 0 : i64} : (tensor<6xi64>, tensor<2xi64>) -> tensor<8xi64>
  %pairs = "graph.constant"() {value = dense<[-1, 2]> : tensor<2xi64>} : () -> tensor<2xi64>
  %r = "graph.reshape"(%c3, %pairs) {allowzero = 0 : i64} : (tensor<8xi64>, tensor<2xi64>) -> tensor<4x2xi64>
  %m1 = "graph.constant"() {value = dense<-1> : tensor<1xi64>} : () -> tensor<1xi64>
  %big = "graph.constant"() {value = dense<-9223372036854775807> : tensor<1xi64>} : () -> tensor<1xi64>
  %rev = "graph.slice"(%r, %m1, %big, %ax, %m1) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1>} : (tensor<4x2xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<4x2xi64>
  %t = "graph.transpose"(%rev) {perm = array<i64: 1, 0>} : (tensor<4x2xi64>) -> tensor<2x4xi64>
  %pads = "graph.reshape"(%t, %m1) {allowzero = 0 : i64} : (tensor<2x4xi64>, tensor<1xi64>) -> tensor<8xi64>
  %0 = "graph.pad"(%x, %pads) {mode = "constant", operandSegmentSizes = array<i32: 1, 1, 0, 0>} : (tensor<1x9x10x4xf32>, tensor<8xi64>) -> tensor<1x14x14x4xf32>
  return %0 : tensor<1x14x14x4xf32>
}

// -----

// Pads through a 2-D Slice on both axes (rows 2 and 1, reversed; column 2
// alone, by a step past the end) and a Transpose without perm (dims
// reversed): [[4], [5]], then [[4, 5]]; the error shows the evaluated
// shape.
func.func @negative_slice_2d_transpose_static(%x: tensor<1x9x10x4xf32>) {
  %p = "graph.constant"() {value = dense<[[9, 0, 0], [9, 0, 5], [9, 0, 4]]> : tensor<3x3xi64>} : () -> tensor<3x3xi64>
  %st = "graph.constant"() {value = dense<[-1, 2]> : tensor<2xi64>} : () -> tensor<2xi64>
  %en = "graph.constant"() {value = dense<[0, 3]> : tensor<2xi64>} : () -> tensor<2xi64>
  %ax = "graph.constant"() {value = dense<[0, 1]> : tensor<2xi64>} : () -> tensor<2xi64>
  %sp = "graph.constant"() {value = dense<[-1, 5]> : tensor<2xi64>} : () -> tensor<2xi64>
  %s = "graph.slice"(%p, %st, %en, %ax, %sp) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1>} : (tensor<3x3xi64>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<2x1xi64>
  %t = "graph.transpose"(%s) : (tensor<2x1xi64>) -> tensor<1x2xi64>
  %z = "graph.constant"() {value = dense<0> : tensor<1x6xi64>} : () -> tensor<1x6xi64>
  %c = "graph.concat"(%z, %t) {axis = 1 : i64} : (tensor<1x6xi64>, tensor<1x2xi64>) -> tensor<1x8xi64>
  %m1 = "graph.constant"() {value = dense<-1> : tensor<1xi64>} : () -> tensor<1xi64>
  %pads = "graph.reshape"(%c, %m1) {allowzero = 0 : i64} : (tensor<1x8xi64>, tensor<1xi64>) -> tensor<8xi64>
  // expected-error @+1 {{'graph.pad' op result #0 has type tensor<1x9x10x4xf32>, but its operands and attributes imply tensor<1x9x14x9xf32>}}
  %0 = "graph.pad"(%x, %pads) {mode = "constant", operandSegmentSizes = array<i32: 1, 1, 0, 0>} : (tensor<1x9x10x4xf32>, tensor<8xi64>) -> tensor<1x9x10x4xf32>
  return
}

// -----

// Mod's two signs: fmod = 0 takes the divisor's, fmod = 1 the dividend's.
// [Mod(-7, 3), FMod(7, -3), FMod(-7, 3) + 5, Mod(7, -3) + 5] = [2, 1, 4, 3].
func.func @mod_signs() -> tensor<2x1x4x3xi32> {
  %a = "graph.constant"() {value = dense<[-7, 7, -7, 7]> : tensor<4xi64>} : () -> tensor<4xi64>
  %b = "graph.constant"() {value = dense<[3, -3, 3, -3]> : tensor<4xi64>} : () -> tensor<4xi64>
  %m = "graph.mod"(%a, %b) {fmod = 0 : i64} : (tensor<4xi64>, tensor<4xi64>) -> tensor<4xi64>
  %f = "graph.mod"(%a, %b) {fmod = 1 : i64} : (tensor<4xi64>, tensor<4xi64>) -> tensor<4xi64>
  %sel = "graph.constant"() {value = dense<[true, false, false, true]> : tensor<4xi1>} : () -> tensor<4xi1>
  %add = "graph.constant"() {value = dense<[0, 0, 5, 5]> : tensor<4xi64>} : () -> tensor<4xi64>
  %w = "graph.where"(%sel, %m, %f) : (tensor<4xi1>, tensor<4xi64>, tensor<4xi64>) -> tensor<4xi64>
  %d = "graph.add"(%w, %add) : (tensor<4xi64>, tensor<4xi64>) -> tensor<4xi64>
  %0 = "graph.constant_of_shape"(%d) {value = dense<1> : tensor<1xi32>} : (tensor<4xi64>) -> tensor<2x1x4x3xi32>
  return %0 : tensor<2x1x4x3xi32>
}

// -----

func.func @negative_mod_static() {
  %a = "graph.constant"() {value = dense<[-7, 7]> : tensor<2xi64>} : () -> tensor<2xi64>
  %b = "graph.constant"() {value = dense<[3, -3]> : tensor<2xi64>} : () -> tensor<2xi64>
  %m = "graph.mod"(%a, %b) {fmod = 0 : i64} : (tensor<2xi64>, tensor<2xi64>) -> tensor<2xi64>
  %f = "graph.mod"(%a, %b) {fmod = 1 : i64} : (tensor<2xi64>, tensor<2xi64>) -> tensor<2xi64>
  %n = "graph.neg"(%m) : (tensor<2xi64>) -> tensor<2xi64>
  %d = "graph.concat"(%f, %n) {axis = 0 : i64} : (tensor<2xi64>, tensor<2xi64>) -> tensor<4xi64>
  %k = "graph.constant"() {value = dense<2> : tensor<i64>} : () -> tensor<i64>
  %p = "graph.add"(%d, %k) : (tensor<4xi64>, tensor<i64>) -> tensor<4xi64>
  // [FMod(-7, 3), FMod(7, -3), -Mod(-7, 3), -Mod(7, -3)] + 2 = [1, 3, 0, 4]
  // expected-error @+1 {{'graph.constant_of_shape' op result #0 has type tensor<1x1x1x1xi32>, but its operands and attributes imply tensor<1x3x0x4xi32>}}
  %0 = "graph.constant_of_shape"(%p) {value = dense<1> : tensor<1xi32>} : (tensor<4xi64>) -> tensor<1x1x1x1xi32>
  return
}

// -----

// Mod by zero is not a compile-time value: the dims stay dynamic.
func.func @mod_by_zero_stays_dynamic() -> tensor<?xi32> {
  %a = "graph.constant"() {value = dense<7> : tensor<1xi64>} : () -> tensor<1xi64>
  %b = "graph.constant"() {value = dense<0> : tensor<1xi64>} : () -> tensor<1xi64>
  %m = "graph.mod"(%a, %b) {fmod = 0 : i64} : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xi64>
  %0 = "graph.constant_of_shape"(%m) {value = dense<1> : tensor<1xi32>} : (tensor<1xi64>) -> tensor<?xi32>
  return %0 : tensor<?xi32>
}

// -----

// ScatterND replaces the last dim of a shape (index -1 counts from the
// back): Reshape(y, ScatterND(Shape(x), [[-1]], [2])) is 4x6x2.
func.func @scatter_nd_shape(%x: tensor<4x6x8xf32>, %y: tensor<48xf32>) -> tensor<4x6x2xf32> {
  %s = "graph.shape"(%x) : (tensor<4x6x8xf32>) -> tensor<3xi64>
  %i = "graph.constant"() {value = dense<[[-1]]> : tensor<1x1xi64>} : () -> tensor<1x1xi64>
  %u = "graph.constant"() {value = dense<[2]> : tensor<1xi64>} : () -> tensor<1xi64>
  %n = "graph.scatter_nd"(%s, %i, %u) : (tensor<3xi64>, tensor<1x1xi64>, tensor<1xi64>) -> tensor<3xi64>
  %0 = "graph.reshape"(%y, %n) : (tensor<48xf32>, tensor<3xi64>) -> tensor<4x6x2xf32>
  return %0 : tensor<4x6x2xf32>
}

// -----

func.func @negative_scatter_nd_static(%x: tensor<4x6x8xf32>, %y: tensor<48xf32>) {
  %s = "graph.shape"(%x) : (tensor<4x6x8xf32>) -> tensor<3xi64>
  %i = "graph.constant"() {value = dense<[[0], [2]]> : tensor<2x1xi64>} : () -> tensor<2x1xi64>
  %u = "graph.constant"() {value = dense<[2, 4]> : tensor<2xi64>} : () -> tensor<2xi64>
  %n = "graph.scatter_nd"(%s, %i, %u) : (tensor<3xi64>, tensor<2x1xi64>, tensor<2xi64>) -> tensor<3xi64>
  // expected-error @+1 {{'graph.reshape' op result #0 has type tensor<4x6x2xf32>, but its operands and attributes imply tensor<2x6x4xf32>}}
  %0 = "graph.reshape"(%y, %n) : (tensor<48xf32>, tensor<3xi64>) -> tensor<4x6x2xf32>
  return
}

// -----

// A reduction other than "none", or an index out of range, is not
// evaluated: the dims stay dynamic.
func.func @scatter_nd_unknown_stays_dynamic(%x: tensor<4x6x8xf32>, %y: tensor<48xf32>) -> (tensor<?x?x?xf32>, tensor<?x?x?xf32>) {
  %s = "graph.shape"(%x) : (tensor<4x6x8xf32>) -> tensor<3xi64>
  %i = "graph.constant"() {value = dense<[[2]]> : tensor<1x1xi64>} : () -> tensor<1x1xi64>
  %o = "graph.constant"() {value = dense<[[3]]> : tensor<1x1xi64>} : () -> tensor<1x1xi64>
  %u = "graph.constant"() {value = dense<[2]> : tensor<1xi64>} : () -> tensor<1xi64>
  %n = "graph.scatter_nd"(%s, %i, %u) {reduction = "mul"} : (tensor<3xi64>, tensor<1x1xi64>, tensor<1xi64>) -> tensor<3xi64>
  %m = "graph.scatter_nd"(%s, %o, %u) : (tensor<3xi64>, tensor<1x1xi64>, tensor<1xi64>) -> tensor<3xi64>
  %0 = "graph.reshape"(%y, %n) : (tensor<48xf32>, tensor<3xi64>) -> tensor<?x?x?xf32>
  %1 = "graph.reshape"(%y, %m) : (tensor<48xf32>, tensor<3xi64>) -> tensor<?x?x?xf32>
  return %0, %1 : tensor<?x?x?xf32>, tensor<?x?x?xf32>
}

// -----

// A shape known only in part (dynamic-axes exports split heads this way:
// Concat(Gather(Shape(x), 0), Gather(Shape(x), 1), 4, 64)): the reshape's
// result is static where the shape's entries are (kilnGraphEvalPartialInts):
// a declared 63 where the shape says 64 is an error.
func.func @negative_reshape_partial_shape_heads(%x: tensor<?x?x256xf32>) -> tensor<?x?x4x64xf32> {
  %s = "graph.shape"(%x) : (tensor<?x?x256xf32>) -> tensor<3xi64>
  %i0 = "graph.constant"() {value = dense<0> : tensor<i64>} : () -> tensor<i64>
  %i1 = "graph.constant"() {value = dense<1> : tensor<i64>} : () -> tensor<i64>
  %b = "graph.gather"(%s, %i0) : (tensor<3xi64>, tensor<i64>) -> tensor<i64>
  %q = "graph.gather"(%s, %i1) : (tensor<3xi64>, tensor<i64>) -> tensor<i64>
  %ax = "graph.constant"() {value = dense<0> : tensor<1xi64>} : () -> tensor<1xi64>
  %b1 = "graph.unsqueeze"(%b, %ax) : (tensor<i64>, tensor<1xi64>) -> tensor<1xi64>
  %q1 = "graph.unsqueeze"(%q, %ax) : (tensor<i64>, tensor<1xi64>) -> tensor<1xi64>
  %heads = "graph.constant"() {value = dense<[4, 64]> : tensor<2xi64>} : () -> tensor<2xi64>
  %bq = "graph.concat"(%b1, %q1) {axis = 0 : i64} : (tensor<1xi64>, tensor<1xi64>) -> tensor<2xi64>
  %shape = "graph.concat"(%bq, %heads) {axis = 0 : i64} : (tensor<2xi64>, tensor<2xi64>) -> tensor<4xi64>
  %0 = "graph.reshape"(%x, %shape) : (tensor<?x?x256xf32>, tensor<4xi64>) -> tensor<?x?x4x64xf32>
  // expected-error @+1 {{'graph.reshape' op result #0 has type tensor<?x?x4x63xf32>, but its operands and attributes imply tensor<?x?x4x64xf32>}}
  %1 = "graph.reshape"(%x, %shape) : (tensor<?x?x256xf32>, tensor<4xi64>) -> tensor<?x?x4x63xf32>
  return %0 : tensor<?x?x4x64xf32>
}

// -----

// Back to the input's shape: Shape(x) of a partly static x.
func.func @negative_reshape_partial_shape(%x: tensor<?x?x4x64xf32>, %y: tensor<?x?x256xf32>) {
  %s = "graph.shape"(%y) : (tensor<?x?x256xf32>) -> tensor<3xi64>
  // expected-error @+1 {{'graph.reshape' op result #0 has type tensor<?x?x255xf32>, but its operands and attributes imply tensor<?x?x256xf32>}}
  %0 = "graph.reshape"(%x, %s) : (tensor<?x?x4x64xf32>, tensor<3xi64>) -> tensor<?x?x255xf32>
  return
}

// -----

// PyTorch's own MultiheadAttention splits its packed in-projection with
// Slice ends computed from the last dim, (576 + 2) / 3, and its heads with
// Gather(Shape(x), 2) / 6: arithmetic on the known entries of a partly
// static shape is known (the slices are 192 wide, the heads 32).
func.func @negative_packed_projection_chunks(%x: tensor<?x?x576xf32>) -> tensor<?x?x32xf32> {
  %s = "graph.shape"(%x) : (tensor<?x?x576xf32>) -> tensor<3xi64>
  %last = "graph.constant"() {value = dense<-1> : tensor<1xi64>} : () -> tensor<1xi64>
  %zero = "graph.constant"() {value = dense<0> : tensor<1xi64>} : () -> tensor<1xi64>
  %two = "graph.constant"() {value = dense<2> : tensor<1xi64>} : () -> tensor<1xi64>
  %three = "graph.constant"() {value = dense<3> : tensor<1xi64>} : () -> tensor<1xi64>
  %d = "graph.gather"(%s, %last) : (tensor<3xi64>, tensor<1xi64>) -> tensor<1xi64>
  %d2 = "graph.add"(%d, %two) : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xi64>
  %chunk = "graph.div"(%d2, %three) : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xi64>
  %q = "graph.slice"(%x, %zero, %chunk, %last) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 0>} : (tensor<?x?x576xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<?x?x192xf32>
  %qs = "graph.shape"(%q) : (tensor<?x?x192xf32>) -> tensor<3xi64>
  %i0 = "graph.constant"() {value = dense<0> : tensor<i64>} : () -> tensor<i64>
  %i1 = "graph.constant"() {value = dense<1> : tensor<i64>} : () -> tensor<i64>
  %i2 = "graph.constant"() {value = dense<2> : tensor<i64>} : () -> tensor<i64>
  %heads = "graph.constant"() {value = dense<6> : tensor<i64>} : () -> tensor<i64>
  %b = "graph.gather"(%qs, %i0) : (tensor<3xi64>, tensor<i64>) -> tensor<i64>
  %n = "graph.gather"(%qs, %i1) : (tensor<3xi64>, tensor<i64>) -> tensor<i64>
  %e = "graph.gather"(%qs, %i2) : (tensor<3xi64>, tensor<i64>) -> tensor<i64>
  %nh = "graph.mul"(%n, %heads) : (tensor<i64>, tensor<i64>) -> tensor<i64>
  %hd = "graph.div"(%e, %heads) : (tensor<i64>, tensor<i64>) -> tensor<i64>
  %b1 = "graph.unsqueeze"(%b, %zero) : (tensor<i64>, tensor<1xi64>) -> tensor<1xi64>
  %nh1 = "graph.unsqueeze"(%nh, %zero) : (tensor<i64>, tensor<1xi64>) -> tensor<1xi64>
  %hd1 = "graph.unsqueeze"(%hd, %zero) : (tensor<i64>, tensor<1xi64>) -> tensor<1xi64>
  %bnh = "graph.concat"(%b1, %nh1) {axis = 0 : i64} : (tensor<1xi64>, tensor<1xi64>) -> tensor<2xi64>
  %shape = "graph.concat"(%bnh, %hd1) {axis = 0 : i64} : (tensor<2xi64>, tensor<1xi64>) -> tensor<3xi64>
  %0 = "graph.reshape"(%q, %shape) : (tensor<?x?x192xf32>, tensor<3xi64>) -> tensor<?x?x32xf32>
  // expected-error @+1 {{'graph.slice' op result #0 has type tensor<?x?x191xf32>, but its operands and attributes imply tensor<?x?x192xf32>}}
  %1 = "graph.slice"(%x, %zero, %chunk, %last) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 0>} : (tensor<?x?x576xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<?x?x191xf32>
  // expected-error @+1 {{'graph.reshape' op result #0 has type tensor<?x?x31xf32>, but its operands and attributes imply tensor<?x?x32xf32>}}
  %2 = "graph.reshape"(%q, %shape) : (tensor<?x?x192xf32>, tensor<3xi64>) -> tensor<?x?x31xf32>
  return %0 : tensor<?x?x32xf32>
}

// -----

// An entry computed from a dynamic dim stays unknown; the others are known.
func.func @negative_unknown_entries(%x: tensor<?x8xf32>, %y: tensor<16xf32>) {
  %s = "graph.shape"(%x) : (tensor<?x8xf32>) -> tensor<2xi64>
  %two = "graph.constant"() {value = dense<2> : tensor<2xi64>} : () -> tensor<2xi64>
  %d = "graph.mul"(%s, %two) : (tensor<2xi64>, tensor<2xi64>) -> tensor<2xi64>
  // expected-error @+1 {{'graph.reshape' op result #0 has type tensor<?x15xf32>, but its operands and attributes imply tensor<?x16xf32>}}
  %0 = "graph.reshape"(%x, %d) : (tensor<?x8xf32>, tensor<2xi64>) -> tensor<?x15xf32>
  return
}
