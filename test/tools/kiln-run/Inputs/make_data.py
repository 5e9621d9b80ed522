"""Writes kiln-run's test data into the directory given: inputs and
numpy/libm reference outputs for Inputs/math.mlir and Inputs/pad.mlir, and
broken files for the bad-input tests."""
import math
import os
import sys

import numpy as np

out = sys.argv[1]
os.makedirs(out, exist_ok=True)


def save(name, array):
    np.save(os.path.join(out, name), array)


a = np.array([-1.5, -0.25, 0.0, 0.5, 2.0], dtype=np.float32)
b = np.array([0.5, 1.0, 2.0, 3.0, 4.0], dtype=np.float32)
n = np.array([0, 1, 2, 3, -1], dtype=np.int32)
save("a.npy", a)
save("b.npy", b)
save("n.npy", n)
a64 = a.astype(np.float64)
refs = [
    [math.erf(v) for v in a64],
    np.tanh(a64),
    np.arctan(a64),
    np.power(b.astype(np.float64), a64),
    np.exp(a64),
    np.log(b.astype(np.float64)),
    np.sin(a64),
    [float(x) ** int(k) for x, k in zip(a64, n)],
]
for i, r in enumerate(refs):
    save("math%d.npy" % i, np.asarray(r, dtype=np.float32))
# ipowi: k**k in i32, 0**0 = 1 and (-1)**(-1) = -1.
save("math8.npy", np.array([1, 1, 4, 27, -1], dtype=np.int32))

x = np.arange(6, dtype=np.float32).reshape(2, 3)
p = np.full((4, 7), 0.5, dtype=np.float32)
p[1:3, 2:5] = x
save("x.npy", x)
save("pad.npy", p)
wrong = p.copy()
wrong[2, 3] = 9.0
wrong[3, 6] = 0.51
save("pad-wrong.npy", wrong)
save("x-f64.npy", x.astype(np.float64))
save("x-3x2.npy", x.reshape(3, 2))
with open(os.path.join(out, "truncated.npy"), "wb") as f:
    f.write(open(os.path.join(out, "x.npy"), "rb").read()[:-5])
with open(os.path.join(out, "garbage.pb"), "wb") as f:
    f.write(b"\xff\xff\xff\xff not a tensor proto")
