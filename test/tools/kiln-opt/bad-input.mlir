// Bad input: one located error, a non-zero exit, never a crash.

// Garbage bytes.
// RUN: not kiln-opt %S/Inputs/garbage.bin 2>&1 | FileCheck %s --check-prefix=GARBAGE
// GARBAGE: garbage.bin:{{[0-9]+}}:{{[0-9]+}}: error:

// A truncated file.
// RUN: head -c 600 %S/Inputs/model.mlir > %t.trunc.mlir
// RUN: not kiln-opt %t.trunc.mlir 2>&1 | FileCheck %s --check-prefix=TRUNC
// TRUNC: trunc.mlir:{{[0-9]+}}:{{[0-9]+}}: error:

// Graph ops in custom syntax, which IRDL cannot parse (upstream fails with
// no diagnostic at all).
// RUN: not kiln-opt %S/Inputs/custom-syntax.mlir 2>&1 | FileCheck %s --check-prefix=CUSTOM
// CUSTOM: custom-syntax.mlir:3:8: error: cannot parse 'graph.relu %arg0 : tensor<4xf32>': graph ops must be written in generic form

// An op the graph dialect does not define.
// RUN: not kiln-opt %S/Inputs/unknown-op.mlir 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// UNKNOWN: unknown-op.mlir:2:8: error: unregistered operation 'graph.frobnicate' found in dialect ('graph')

// An empty file is an empty module.
// RUN: kiln-opt %S/Inputs/empty.mlir | FileCheck %s --check-prefix=EMPTY
// EMPTY: module {
// EMPTY-NEXT: }

// A directory is not a file.
// RUN: not kiln-opt %S 2>&1 | FileCheck %s --check-prefix=DIR
// DIR: kiln-opt: error: cannot open input file

// The silent-parse-failure error is a real diagnostic: -verify-diagnostics
// sees it, and without an annotation it fails the run.
// RUN: kiln-opt %S/Inputs/custom-syntax-verify.mlir --verify-diagnostics
// RUN: not kiln-opt %S/Inputs/custom-syntax.mlir --verify-diagnostics 2>&1 | FileCheck %s --check-prefix=UNEXPECTED
// UNEXPECTED: error: unexpected error: cannot parse 'graph.relu
