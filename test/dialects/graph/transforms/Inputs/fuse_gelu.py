"""Inputs and NumPy's reference output for fuse-matmul-gelu.mlir:
DIR/gelu.{x,w,b,y}.npy."""
import math
import sys

import numpy as np

rng = np.random.default_rng(3)
x = rng.standard_normal((2, 24, 32)).astype(np.float32)
w = (rng.standard_normal((32, 40)) * 0.2).astype(np.float32)
b = rng.standard_normal(40).astype(np.float32)
h = x.astype(np.float64) @ w + b
erf = np.vectorize(math.erf)
y = (0.5 * h * (1 + erf(h / math.sqrt(2)))).astype(np.float32)
for name, a in (("x", x), ("w", w), ("b", b), ("y", y)):
    np.save(f"{sys.argv[1]}/gelu.{name}.npy", a)
