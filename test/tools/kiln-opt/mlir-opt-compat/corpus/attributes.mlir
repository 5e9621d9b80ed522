// Aliased attributes and types, dictionaries and arrays, for printing flags.
#tbl = {kind = "table", values = [1, 2, 3]}
!vec = vector<4xf32>
func.func @attrs(%v: !vec) -> !vec attributes {meta = #tbl, llvm.emit_c_interface} {
  %c = arith.constant dense<[0.5, 1.5, 2.5, 3.5]> : !vec
  %r = arith.addf %v, %c : !vec
  return %r : !vec
}

func.func @weights() -> tensor<2x8xf32> {
  %w = arith.constant dense<[[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0], [8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0]]> : tensor<2x8xf32>
  return %w : tensor<2x8xf32>
}
