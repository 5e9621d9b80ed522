// The LLVM dialect: functions, globals, pointers and intrinsics.
llvm.mlir.global internal constant @str("hi\00") {addr_space = 0 : i32}

llvm.func @add(%a: i32, %b: i32) -> i32 {
  %c = llvm.add %a, %b : i32
  %z = llvm.mlir.constant(0 : i32) : i32
  %d = llvm.add %c, %z : i32
  llvm.return %d : i32
}

llvm.func @mem(%p: !llvm.ptr, %n: i64) -> f32 {
  %g = llvm.getelementptr %p[%n] : (!llvm.ptr, i64) -> !llvm.ptr, f32
  %v = llvm.load %g : !llvm.ptr -> f32
  %w = llvm.intr.fabs(%v) : (f32) -> f32
  llvm.store %w, %g : f32, !llvm.ptr
  llvm.return %w : f32
}

llvm.func @branch(%c: i1, %a: i64) -> i64 {
  llvm.cond_br %c, ^bb1, ^bb2
^bb1:
  llvm.return %a : i64
^bb2:
  %k = llvm.mlir.constant(1 : i64) : i64
  llvm.return %k : i64
}
