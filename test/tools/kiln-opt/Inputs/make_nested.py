#!/usr/bin/env python3
"""Writes deeply nested MLIR for deep-nesting.test.

usage: make_nested.py KIND DEPTH
  regions   DEPTH nested scf.execute_region ops, one a line
  brackets  an attribute of DEPTH nested arrays
  parens    a type of DEPTH nested tuple parentheses
  split     a good chunk, then a chunk of DEPTH nested regions
  verify    DEPTH nested regions with the expected error annotated
  strings   DEPTH parentheses inside a string and a comment (not nesting)
"""
import sys


def regions(n):
    # Each region ends in scf.yield: the innermost, and each after the
    # execute_region nested in it.
    return ("func.func @f() {\n" + "scf.execute_region {\n" * n +
            "scf.yield\n}\n" + "scf.yield\n}\n" * (n - 1) + "return\n}\n")


def main():
    kind, n = sys.argv[1], int(sys.argv[2])
    if kind == "regions":
        out = regions(n)
    elif kind == "brackets":
        out = ("func.func @f() attributes\n  {a = " + "[" * n + "]" * n +
               "} {\n  return\n}\n")
    elif kind == "parens":
        out = ("func.func private @f(" + "tuple<" * 0 + "(" * n + ")" * n +
               ")\n")
    elif kind == "split":
        out = ("func.func @ok() {\n  return\n}\n\n// -----\n" + regions(n))
    elif kind == "verify":
        out = ("// expected-error@+1001 {{input nests deeper than 1000 "
               "brackets and regions}}\n" + regions(n))
    elif kind == "strings":
        out = ('func.func @f() attributes {test.s = "' + "(" * n + '"} {\n'
               "  // " + "[" * n + "\n  return\n}\n")
    else:
        sys.exit("make_nested.py: unknown kind " + kind)
    sys.stdout.write(out)


if __name__ == "__main__":
    main()
