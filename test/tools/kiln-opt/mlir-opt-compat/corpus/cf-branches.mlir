// Unstructured control flow with cf branches and block arguments.
func.func @branches(%p: i1, %a: i32, %b: i32) -> i32 {
  cf.cond_br %p, ^bb1(%a : i32), ^bb2(%b : i32)
^bb1(%x: i32):
  cf.br ^bb3(%x : i32)
^bb2(%y: i32):
  %z = arith.addi %y, %y : i32
  cf.br ^bb3(%z : i32)
^bb3(%r: i32):
  return %r : i32
}

func.func @trivial(%a: i32) -> i32 {
  cf.br ^bb1
^bb1:
  cf.br ^bb2(%a : i32)
^bb2(%v: i32):
  return %v : i32
}

func.func @switch(%f: i32, %a: i32) -> i32 {
  cf.switch %f : i32, [
    default: ^bb1(%a : i32),
    42: ^bb2
  ]
^bb1(%x: i32):
  return %x : i32
^bb2:
  %c = arith.constant 0 : i32
  return %c : i32
}
