// Constant folding and canonicalization of arith ops.
func.func @fold() -> (i32, f32, index) {
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %s = arith.addi %c1, %c2 : i32
  %m = arith.muli %s, %c2 : i32
  %f1 = arith.constant 1.5 : f32
  %f2 = arith.constant 2.0 : f32
  %fm = arith.mulf %f1, %f2 : f32
  %i = arith.constant 7 : index
  %j = arith.addi %i, %i : index
  return %m, %fm, %j : i32, f32, index
}

func.func @identities(%x: i32, %y: f32) -> (i32, i32, f32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %a = arith.addi %x, %c0 : i32
  %b = arith.muli %a, %c1 : i32
  %d = arith.subi %b, %b : i32
  %z = arith.constant 0.0 : f32
  %e = arith.addf %y, %z : f32
  return %b, %d, %e : i32, i32, f32
}
