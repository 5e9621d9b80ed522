// An explicit top-level module with a nested module and attributes.
module @outer attributes {test.attr = 1 : i32} {
  func.func @f() -> i32 {
    %c = arith.constant 42 : i32
    return %c : i32
  }
  module @inner {
    func.func private @g() -> i32 {
      %c = arith.constant 7 : i32
      %d = arith.addi %c, %c : i32
      return %d : i32
    }
  }
}
