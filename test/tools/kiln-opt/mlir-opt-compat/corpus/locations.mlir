// Explicit locations: names, fused, call sites, for debuginfo printing.
func.func @f(%a: i32 loc("arg")) -> i32 {
  %b = arith.addi %a, %a : i32 loc("add"("file.c":3:4))
  %c = arith.muli %b, %b : i32 loc(fused["x.c":1:2, "y.c":5:6])
  %d = arith.subi %c, %a : i32 loc(callsite("callee"("a.c":1:1) at "b.c":2:2))
  return %d : i32 loc(unknown)
}
