#!/usr/bin/python3
"""Checks kiln-classify's printed top scores against a reference output.

usage: kiln-classify ... | check_top.py EXPECTED.npy [RTOL ATOL]

Every printed "N. class C  score S" must match EXPECTED's score for class C
within atol + rtol * |expected|, and the classes must be the reference's
top ones: each printed class's expected score is at least the K-th largest
expected score minus the tolerance (ties within tolerance may swap).
Exits 1 with a message on the first mismatch, 0 otherwise.
"""
import re
import sys

import numpy as np

expected = np.load(sys.argv[1]).astype(np.float64).reshape(-1)
rtol = float(sys.argv[2]) if len(sys.argv) > 2 else 1e-3
atol = float(sys.argv[3]) if len(sys.argv) > 3 else 1e-5
rows = [(int(m.group(1)), float(m.group(2))) for m in
        re.finditer(r"class (\d+)\)?\s+score (\S+)", sys.stdin.read())]
if not rows:
    sys.exit("check_top: no scores in the input")
kth = np.sort(expected)[::-1][len(rows) - 1]
for cls, score in rows:
    want = expected[cls]
    tol = atol + rtol * abs(want)
    if abs(score - want) > tol:
        sys.exit(f"check_top: class {cls}: score {score}, expected {want}")
    if want < kth - tol:
        sys.exit(f"check_top: class {cls} (expected {want}) is not among the "
                 f"top {len(rows)} (the {len(rows)}th is {kth})")
print(f"check_top: {len(rows)} classes match")
