// Independent chunks for --split-input-file, one of them invalid.
func.func @one() -> i32 {
  %c = arith.constant 1 : i32
  return %c : i32
}

// -----

func.func @two(%a: f32) -> f32 {
  %b = arith.mulf %a, %a : f32
  return %b : f32
}

// -----

func.func @three(%a: i32) -> i64 {
  return %a : i32
}
