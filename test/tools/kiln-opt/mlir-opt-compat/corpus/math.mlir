// math ops: folding of constants, expansion and lowering candidates.
func.func @math(%x: f32, %v: vector<8xf32>) -> (f32, f32, vector<8xf32>, f32) {
  %a = math.exp %x : f32
  %b = math.tanh %a : f32
  %c = math.sqrt %b : f32
  %two = arith.constant 2.0 : f32
  %p = math.powf %c, %two : f32
  %e = math.erf %v : vector<8xf32>
  %four = arith.constant 4.0 : f32
  %r = math.sqrt %four : f32
  return %p, %c, %e, %r : f32, f32, vector<8xf32>, f32
}

func.func @ipow(%x: i32) -> i32 {
  %n = arith.constant 3 : i32
  %r = math.ipowi %x, %n : i32
  return %r : i32
}
