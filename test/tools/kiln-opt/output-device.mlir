// -o onto a device writes to it instead of renaming a temporary over it: the
// atomic rename once replaced /dev/null with a regular file (as root).
// RUN: kiln-opt %s -o /dev/null
// RUN: test -c /dev/null
// Concurrent runs onto one output each use their own temporary file.
// RUN: rm -f %t.mlir
// RUN: kiln-opt %s -o %t.mlir & kiln-opt %s -o %t.mlir & wait
// RUN: FileCheck %s < %t.mlir
// RUN: not ls %t.mlir.tmp-kiln*

// CHECK: func.func @f
func.func @f(%x: tensor<2xf32>) -> tensor<2xf32> {
  return %x : tensor<2xf32>
}
