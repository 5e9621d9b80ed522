// Command-line behaviour of kiln-opt: help, version, pass listing, output
// files, pass flags, and every flag error.

// RUN: kiln-opt --help | FileCheck %s --check-prefix=HELP
// HELP: USAGE: kiln-opt [options] [input-file|-]
// HELP: --pass-pipeline=PIPELINE
// HELP: --split-input-file
// HELP: --verify-diagnostics

// RUN: kiln-opt --version | FileCheck %s --check-prefix=VERSION
// VERSION: Kiln kiln-opt version {{[0-9]+\.[0-9]+\.[0-9]+}}

// RUN: kiln-opt --list-passes | FileCheck %s --check-prefix=LIST
// LIST-LABEL: Kiln passes:
// LIST: graph-verify {{ *}}Check graph ops' attributes and shapes
// LIST-LABEL: Upstream MLIR passes:
// LIST: canonicalize {{ *}}Canonicalize operations
// LIST: convert-scf-to-openmp
// LIST-LABEL: Upstream MLIR pipelines:
// LIST: buffer-deallocation-pipeline

// Single-dash long options work as in mlir-opt; -o writes the file.
// RUN: rm -f %t.out
// RUN: kiln-opt -pass-pipeline='builtin.module(canonicalize)' %s -o %t.out
// RUN: FileCheck %s --check-prefix=OUT < %t.out
// OUT-LABEL: func.func @f
// OUT-NEXT: return

// Passes as flags, with options in quotes.
// RUN: kiln-opt %s --canonicalize="max-iterations=2" --graph-verify | FileCheck %s --check-prefix=OUT
// Reading standard input.
// RUN: kiln-opt < %s | FileCheck %s --check-prefix=OUT

// RUN: not kiln-opt --bogus-flag %s 2>&1 | FileCheck %s --check-prefix=BADFLAG
// BADFLAG: kiln-opt: Unknown command line argument '--bogus-flag'.  Try: 'kiln-opt --help'
// RUN: not kiln-opt %s %s 2>&1 | FileCheck %s --check-prefix=TWO
// TWO: kiln-opt: Too many positional arguments specified!
// RUN: not kiln-opt %t.does-not-exist 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: kiln-opt: error: cannot open input file '{{.*}}does-not-exist': No such file or directory
// RUN: not kiln-opt --pass-pipeline=cse --canonicalize %s 2>&1 | FileCheck %s --check-prefix=BOTH
// BOTH: error: '-pass-pipeline' option can't be used with individual pass options

// A failing run writes no output file.
// RUN: rm -f %t.none
// RUN: not kiln-opt --pass-pipeline='builtin.module(nope)' %s -o %t.none
// RUN: not test -e %t.none
// An output that cannot be written is reported.
// RUN: not kiln-opt %s -o %t.no-such-dir/out.mlir 2>&1 | FileCheck %s --check-prefix=UNWRITABLE
// UNWRITABLE: kiln-opt: error: cannot write '{{.*}}out.mlir'

func.func @f() {
  return
}
