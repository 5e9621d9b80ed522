// mlir-opt's generic flags in kiln-opt: implicit nesting of pass flags,
// the pipeline dump, output forms, reproducers, and the flags kiln-opt
// refuses (with the reason) or does not know (with a suggestion).
// mlir-opt-compat.test checks the same flags against mlir-opt-22 itself.

// A pass restricted to func.func given as a flag nests under the module,
// each flag in its own func.func(...) as in mlir-opt; op-agnostic passes
// and Kiln's any-op passes stay at the module level.
// RUN: kiln-opt %S/Inputs/affine-loop.mlir -affine-loop-tile="tile-size=32" --canonicalize --affine-loop-normalize --graph-dce --graph-fold-constants --dump-pass-pipeline 2>&1 >/dev/null | FileCheck %s --check-prefix=NEST
// NEST:      Pass Manager with 5 passes:
// NEST-NEXT: builtin.module(
// NEST-NEXT:   func.func(
// NEST-NEXT:     affine-loop-tile{cache-size=512 separate=false tile-size=32 }
// NEST-NEXT:   ),
// NEST-NEXT:   canonicalize{{.*}}
// NEST-NEXT:   func.func(
// NEST-NEXT:     affine-loop-normalize{promote-single-iter=false}
// NEST-NEXT:   ),
// NEST-NEXT:   graph-dce,
// NEST-NEXT:   func.func(
// NEST-NEXT:     graph-fold-constants
// NEST-NEXT:   )
// NEST-NEXT: )
// RUN: kiln-opt %S/Inputs/affine-loop.mlir -affine-loop-tile="tile-size=32" | FileCheck %s --check-prefix=TILED
// TILED: affine.for %{{.*}} = 0 to 64 step 32
// TILED: affine.for %{{.*}} = #map(%{{.*}}) to #map1(%{{.*}})

// An empty pipeline dumps as mlir-opt's does.
// RUN: kiln-opt %s --dump-pass-pipeline 2>&1 >/dev/null | FileCheck %s --check-prefix=EMPTY
// EMPTY:      Pass Manager with 0 passes:
// EMPTY-NEXT: builtin.module(
// EMPTY-EMPTY:
// EMPTY-NEXT: )

// --pass-pipeline must name its anchor; one for another op is an error at
// the root, as in mlir-opt.
// RUN: not kiln-opt %s --pass-pipeline=cse 2>&1 | FileCheck %s --check-prefix=UNANCHORED
// UNANCHORED: <unknown>:0: error: expected pass pipeline to be wrapped with the anchor operation type, e.g. 'builtin.module(...)'
// RUN: not kiln-opt %s --pass-pipeline='func.func(cse)' 2>&1 | FileCheck %s --check-prefix=WRONGROOT
// WRONGROOT: error: can't run 'func.func' pass manager on 'builtin.module' op
// RUN: kiln-opt %s --pass-pipeline='any(cse)' | FileCheck %s --check-prefix=OUT
// With --no-implicit-module, the single top-level op is the root.
// RUN: kiln-opt %S/Inputs/affine-loop.mlir --no-implicit-module --pass-pipeline='func.func(affine-loop-normalize)' | FileCheck %s --check-prefix=NOMODULE
// NOMODULE-NOT: module
// NOMODULE: func.func @f

// Output forms.
// RUN: kiln-opt %s --mlir-elide-elementsattrs-if-larger=2 | FileCheck %s --check-prefix=ELIDE
// ELIDE: dense_resource<__elided__>
// RUN: kiln-opt %s --mlir-print-local-scope --mlir-disable-threading --verify-each=false --cse | FileCheck %s --check-prefix=OUT
// RUN: kiln-opt %s --emit-bytecode | kiln-opt | FileCheck %s --check-prefix=OUT
// OUT-LABEL: func.func @f
// RUN: kiln-opt %s --emit-bytecode -o %t.mlirbc
// RUN: head -c 4 %t.mlirbc | FileCheck %s --check-prefix=MAGIC
// MAGIC: ML{{.}}R
// Statistics are compiled out of Debian's LLVM (no LLVM_ENABLE_STATS): the
// report is empty, as mlir-opt-22's.
// RUN: kiln-opt %s --mlir-pass-statistics --cse 2>&1 >/dev/null | FileCheck %s --check-prefix=STATS
// STATS: Pass statistics report

// Under --verify-diagnostics the IR is printed too (as by mlir-opt).
// RUN: kiln-opt %s --verify-diagnostics | FileCheck %s --check-prefix=OUT

// Reproducers: the input and the pipeline, in mlir-opt's format (each tool
// runs the other's). A pipeline that fails writes one and says so.
// RUN: kiln-opt %s --cse --mlir-generate-reproducer=%t.repro.mlir > /dev/null
// RUN: FileCheck %s --check-prefix=REPRO < %t.repro.mlir
// REPRO: "func.func"()
// REPRO: mlir_reproducer: {
// REPRO-NEXT: pipeline: "builtin.module(cse)",
// REPRO-NEXT: disable_threading: false,
// REPRO-NEXT: verify_each: true
// RUN: kiln-opt %t.repro.mlir --run-reproducer | FileCheck %s --check-prefix=OUT
// RUN: mlir-opt %t.repro.mlir --run-reproducer | FileCheck %s --check-prefix=OUT
// RUN: not kiln-opt %S/mlir-opt-compat/corpus/arith-fold.mlir --canonicalize="max-iterations=1 test-convergence=true" --mlir-pass-pipeline-crash-reproducer=%t.crash.mlir 2>&1 | FileCheck %s --check-prefix=CRASH
// CRASH: error: Failures have been detected while processing an MLIR pass pipeline; reproducer generated at `{{.*}}crash.mlir`
// RUN: not kiln-opt %t.crash.mlir --run-reproducer
// RUN: not mlir-opt %S/mlir-opt-compat/corpus/arith-fold.mlir --canonicalize="max-iterations=1 test-convergence=true" --mlir-pass-pipeline-crash-reproducer=%t.upstream.mlir
// RUN: not kiln-opt %t.upstream.mlir --run-reproducer 2>&1 | FileCheck %s --check-prefix=SILENT
// SILENT: error: the pass pipeline failed: a pass signalled failure without a diagnostic
// Without a stored configuration, --run-reproducer runs the flags.
// RUN: kiln-opt %s --run-reproducer --cse | FileCheck %s --check-prefix=OUT

// negative_: unknown flags get mlir-opt's words and the closest name.
// RUN: not kiln-opt %s --mlir-disable-threadin 2>&1 | FileCheck %s --check-prefix=TYPO
// TYPO: kiln-opt: Unknown command line argument '--mlir-disable-threadin'.  Try: 'kiln-opt --help'
// TYPO-NEXT: kiln-opt: Did you mean '--mlir-disable-threading'?
// A prefix is not the flag (getopt would take it).
// RUN: not kiln-opt %s --verify-diag 2>&1 | FileCheck %s --check-prefix=PREFIX
// PREFIX: Did you mean '--verify-diagnostics'?
// RUN: not kiln-opt %s -canonicalise 2>&1 | FileCheck %s --check-prefix=PASSTYPO
// PASSTYPO: kiln-opt: Did you mean '-canonicalize'?

// negative_: flags the C API cannot honour are refused with the reason.
// RUN: not kiln-opt %s --mlir-print-ir-after=cse 2>&1 | FileCheck %s --check-prefix=REFUSED
// REFUSED: kiln-opt: error: '--mlir-print-ir-after' is not supported by kiln-opt: MLIR's C API prints the IR around all passes or none; use --mlir-print-ir-after-all (docs/kiln-opt.md)
// RUN: not kiln-opt %s --mlir-print-value-users 2>&1 | FileCheck %s --check-prefix=REFUSED2
// REFUSED2: '--mlir-print-value-users' is not supported by kiln-opt: MLIR's C API has no printing flag for it
// RUN: not kiln-opt %s --mlir-timing-display=tree 2>&1 | FileCheck %s --check-prefix=TREE
// TREE: '--mlir-timing-display=tree' is not supported by kiln-opt
// RUN: not kiln-opt %s --verify-diagnostics=only-expected 2>&1 | FileCheck %s --check-prefix=ONLYEXP
// ONLYEXP: '--verify-diagnostics=only-expected' is not supported by kiln-opt

// negative_: bad values, in LLVM's words.
// RUN: not kiln-opt %s --verify-each=maybe 2>&1 | FileCheck %s --check-prefix=BOOL
// BOOL: kiln-opt: for the --verify-each option: 'maybe' is invalid value for boolean argument! Try 0 or 1
// RUN: not kiln-opt %s --mlir-elide-elementsattrs-if-larger=x 2>&1 | FileCheck %s --check-prefix=UINT
// UINT: kiln-opt: for the --mlir-elide-elementsattrs-if-larger option: 'x' value invalid for uint argument!
// RUN: not kiln-opt %s --mlir-pass-statistics-display=tree 2>&1 | FileCheck %s --check-prefix=DISPLAY
// DISPLAY: Cannot find option named 'tree'!
// RUN: not kiln-opt %s --pass-pipeline 2>&1 | FileCheck %s --check-prefix=NOVALUE
// NOVALUE: kiln-opt: error: option '--pass-pipeline' needs a value

func.func @f() -> tensor<4xf32> {
  %c = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  return %c : tensor<4xf32>
}
