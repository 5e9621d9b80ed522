"""Inputs and float64 NumPy references for operand_prologues.mlir
(kiln-hoist-operand-prologues.mlir's numerical check)."""
import sys

import numpy as np

out = sys.argv[1]
rng = np.random.default_rng(0)
t = {
    "bq": (3, 20), "q": (2, 37, 3, 20), "bk": (3, 20), "k": (2, 29, 3, 20),
    "p": (2, 3, 37, 29), "bv": (3, 20), "v": (2, 29, 3, 20),
    "x": (2, 37, 29), "w": (29, 3, 20), "am": (3, 37, 29), "bm": (3, 29, 20),
}
t = {n: rng.standard_normal(s).astype(np.float32) for n, s in t.items()}
for n, x in t.items():
    np.save("%s/%s.npy" % (out, n), x)
d = {n: x.astype(np.float64) for n, x in t.items()}
scores = np.einsum("bihd,bjhd->bhij", d["q"] + d["bq"], d["k"] + d["bk"])
av = np.einsum("bhij,bjhd->bhid", d["p"], (d["v"] + d["bv"]) ** 2)
np.save(out + "/scores.npy", scores.astype(np.float32))
np.save(out + "/av.npy", av.astype(np.float32))
proj = np.einsum("tsk,khc->tshc", d["x"], d["w"])
np.save(out + "/proj.npy", proj.astype(np.float32))
mbn = np.einsum("bmk,bkn->mbn", d["am"], d["bm"])
np.save(out + "/mbn.npy", mbn.astype(np.float32))
