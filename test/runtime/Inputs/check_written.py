"""Loads each .npy that kiln-test-tensor-io wrote (OUTDIR/written.txt lists
"WRITTEN REFERENCE") with numpy and compares it with numpy's own file:
same dtype, shape and bytes. Usage: check_written.py OUTDIR"""
import os
import sys

import numpy as np

out = sys.argv[1]
total = bad = 0
for line in open(os.path.join(out, "written.txt")):
    written, ref = line.split()
    a, b = np.load(written), np.load(ref)
    total += 1
    if a.dtype != b.dtype or a.shape != b.shape or a.tobytes() != b.tobytes():
        print("DIFFERS: %s vs %s" % (written, ref))
        bad += 1
print("numpy loaded %d written files, %d differ" % (total, bad))
