// scf.if with results, scf.while and scf.index_switch.
func.func @select(%p: i1, %a: f32, %b: f32) -> f32 {
  %r = scf.if %p -> f32 {
    %s = arith.addf %a, %b : f32
    scf.yield %s : f32
  } else {
    scf.yield %b : f32
  }
  return %r : f32
}

func.func @constant_cond(%a: f32) -> f32 {
  %t = arith.constant true
  %r = scf.if %t -> f32 {
    scf.yield %a : f32
  } else {
    %z = arith.constant 0.0 : f32
    scf.yield %z : f32
  }
  return %r : f32
}

func.func @count(%n: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r = scf.while (%i = %c0) : (i32) -> i32 {
    %p = arith.cmpi slt, %i, %n : i32
    scf.condition(%p) %i : i32
  } do {
  ^bb0(%i: i32):
    %j = arith.addi %i, %c1 : i32
    scf.yield %j : i32
  }
  return %r : i32
}

func.func @switch(%k: index) -> i32 {
  %r = scf.index_switch %k -> i32
  case 2 {
    %c = arith.constant 10 : i32
    scf.yield %c : i32
  }
  default {
    %d = arith.constant 0 : i32
    scf.yield %d : i32
  }
  return %r : i32
}
