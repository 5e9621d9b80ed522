// Pipeline errors name the offending text, point at it, and suggest close
// names. Each is a non-zero exit with nothing on stdout.

// RUN: not kiln-opt %s --pass-pipeline='builtin.module(func.func(graph-verfy))' 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// UNKNOWN: kiln-opt: error: invalid pass pipeline: unknown pass or pipeline 'graph-verfy'; did you mean 'graph-verify'?
// UNKNOWN-NEXT: {{^}}  builtin.module(func.func(graph-verfy))
// UNKNOWN-NEXT: {{^}}                           ^

// RUN: not kiln-opt %s --pass-pipeline='builtin.module(canonicalise)' 2>&1 | FileCheck %s --check-prefix=UPSTREAM
// UPSTREAM: unknown pass or pipeline 'canonicalise'; did you mean 'canonicalize'?

// RUN: not kiln-opt %s --pass-pipeline='builtin.module(graph-verify{max-eror=1})' 2>&1 | FileCheck %s --check-prefix=KOPT
// KOPT: unknown option 'max-eror' for pass 'graph-verify'; did you mean 'max-errors'?

// RUN: not kiln-opt %s --pass-pipeline='builtin.module(canonicalize{max-iteratons=1})' 2>&1 | FileCheck %s --check-prefix=UOPT
// UOPT: unknown option 'max-iteratons' for pass 'canonicalize'; did you mean 'max-iterations'?
// UOPT-NOT: Pass-Options-Parser

// RUN: not kiln-opt %s --pass-pipeline='builtin.module(cse{aggressive=1})' 2>&1 | FileCheck %s --check-prefix=UNOPT
// UNOPT: unknown option 'aggressive' for pass 'cse' (it takes no options)

// A bad value for a real option is MLIR's to judge; the message names the pass.
// RUN: not kiln-opt %s --pass-pipeline='builtin.module(canonicalize{max-iterations=many})' 2>&1 | FileCheck %s --check-prefix=UVAL
// UVAL: invalid use of pass 'canonicalize': {{.*}}max-iterations=many

// RUN: not kiln-opt %s --pass-pipeline='builtin.module(func.func(cse)' 2>&1 | FileCheck %s --check-prefix=PAREN
// PAREN: expected ')' to close 'builtin.module('

// RUN: not kiln-opt %s --pass-pipeline='builtin.module(cse,,cse)' 2>&1 | FileCheck %s --check-prefix=EMPTY
// EMPTY: expected a pass or anchor name

// RUN: not kiln-opt %s --pass-pipeline='builtin.module(canonicalize{max-iterations=1)' 2>&1 | FileCheck %s --check-prefix=BRACE
// BRACE: unbalanced '{' in options of 'canonicalize'

// RUN: not kiln-opt %s --pass-pipeline='builtin.module(cse));' 2>&1 | FileCheck %s --check-prefix=TRAIL
// TRAIL: error: expected pass pipeline to be wrapped with the anchor operation type, e.g. 'builtin.module(...)'

// An anchor that does not match the input's ops runs nothing but is legal.
// RUN: kiln-opt %s --pass-pipeline='builtin.module(gpu.module(cse))' | FileCheck %s --check-prefix=OK
// OK: func.func @f

func.func @f() {
  return
}

// A Kiln pass without options says so.
// RUN: not kiln-opt %s --pass-pipeline='builtin.module(graph-dce{x=1})' 2>&1 | FileCheck %s --check-prefix=NOOPT
// NOOPT: unknown option 'x' for pass 'graph-dce' (it takes no options)
