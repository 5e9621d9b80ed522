// A reproducer in mlir-opt's format: --run-reproducer runs the stored
// pipeline, which replaces the one given on the command line.
func.func @f(%a: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %b = arith.addi %a, %c0 : i32
  %c = arith.addi %a, %c0 : i32
  %d = arith.muli %b, %c : i32
  return %d : i32
}

{-#
  external_resources: {
    mlir_reproducer: {
      pipeline: "builtin.module(func.func(cse),canonicalize{max-iterations=2})",
      disable_threading: true,
      verify_each: true
    }
  }
#-}
