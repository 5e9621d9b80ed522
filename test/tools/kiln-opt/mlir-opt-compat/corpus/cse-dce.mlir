// Redundant and dead computations for cse, canonicalize and DCE.
func.func @redundant(%x: index, %y: index) -> (index, index) {
  %a = arith.addi %x, %y : index
  %b = arith.addi %x, %y : index
  %c = arith.muli %a, %b : index
  %dead = arith.muli %c, %c : index
  %d = arith.muli %a, %b : index
  return %c, %d : index, index
}

func.func @nested(%x: index, %n: index) -> index {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x) -> index {
    %t = arith.addi %x, %x : index
    %u = arith.addi %x, %x : index
    %s = arith.addi %t, %u : index
    %v = arith.addi %acc, %s : index
    scf.yield %v : index
  }
  return %r : index
}
