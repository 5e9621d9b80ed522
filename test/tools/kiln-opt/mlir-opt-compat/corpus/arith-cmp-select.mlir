// Comparisons, selects, casts and vectors of arith ops.
func.func @cmp(%a: i32, %b: i32) -> i32 {
  %p = arith.cmpi slt, %a, %b : i32
  %r = arith.select %p, %a, %b : i32
  %t = arith.constant true
  %q = arith.andi %p, %t : i1
  %s = arith.select %q, %r, %a : i32
  return %s : i32
}

func.func @casts(%x: i8, %y: f16) -> (i64, f32, i32) {
  %e = arith.extsi %x : i8 to i64
  %f = arith.extf %y : f16 to f32
  %g = arith.fptosi %f : f32 to i32
  return %e, %f, %g : i64, f32, i32
}

func.func @vec(%v: vector<4xf32>) -> vector<4xf32> {
  %c = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : vector<4xf32>
  %m = arith.maximumf %v, %c : vector<4xf32>
  %n = arith.negf %m : vector<4xf32>
  return %n : vector<4xf32>
}
