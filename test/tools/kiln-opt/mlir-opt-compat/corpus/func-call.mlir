// Calls between functions: inlining, symbol DCE, private functions.
func.func private @helper(%x: i32) -> i32 {
  %c = arith.constant 3 : i32
  %r = arith.muli %x, %c : i32
  return %r : i32
}

func.func private @unused(%x: i32) -> i32 {
  return %x : i32
}

func.func @caller(%x: i32) -> i32 {
  %a = func.call @helper(%x) : (i32) -> i32
  %b = func.call @helper(%a) : (i32) -> i32
  return %b : i32
}

func.func private @external(f32) -> f32
