"""Writes the models of runtime-checks.test into DIR: one per op that
indexes with data-dependent indices (Gather as an embedding lookup,
GatherElements, GatherND with batch_dims, ScatterElements, ScatterND), each
with indices in range (negatives included) and the NumPy result, and
indices one past each end (s and -s-1). Also `two`: two gathers whose ids
are both out of range, for which the first check must be the one reported.
Lists "NAME NODE" per model in DIR/models.txt."""
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

d = sys.argv[1]
rng = np.random.default_rng(7)
models = []


def save(name, node, data, idx, extra_inputs, expected, bad):
    """data is an initializer; idx (and its bad versions) are the input."""
    inits = [numpy_helper.from_array(data, "data")]
    inits += [numpy_helper.from_array(v, k) for k, v in extra_inputs.items()]
    g = helper.make_graph(
        [node], name,
        [helper.make_tensor_value_info("idx", TensorProto.INT64, idx.shape)],
        [helper.make_tensor_value_info("out", TensorProto.FLOAT,
                                       expected.shape)], inits)
    onnx.save(helper.make_model(
        g, opset_imports=[helper.make_opsetid("", 16)]), f"{d}/{name}.onnx")
    np.save(f"{d}/{name}.ok.npy", idx)
    np.save(f"{d}/{name}.expected.npy", expected.astype(np.float32))
    for k, b in enumerate(bad):
        np.save(f"{d}/{name}.bad{k}.npy", b)
    models.append(f"{name} {node.name}")


def with_value(a, pos, v):
    b = a.copy()
    b[pos] = v
    return b


# Gather axis 0 as an embedding: 50 x 8 table, 3 x 4 token ids.
table = rng.standard_normal((50, 8)).astype(np.float32)
ids = rng.integers(-50, 50, (3, 4)).astype(np.int64)
save("gather", helper.make_node("Gather", ["data", "idx"], ["out"],
                                name="embed", axis=0),
     table, ids, {}, table[ids],
     [with_value(ids, (1, 2), 50), with_value(ids, (2, 3), -51)])

# Gather on axis 1 (of 7) of a 3-D tensor.
x = rng.standard_normal((2, 7, 3)).astype(np.float32)
gi = np.array([[0, -7], [6, 3]], np.int64)
save("gather_axis1", helper.make_node("Gather", ["data", "idx"], ["out"],
                                      name="pick", axis=-2),
     x, gi, {}, np.take(x, gi, axis=1),
     [with_value(gi, (0, 0), 7), with_value(gi, (1, 1), -8)])

# GatherElements along axis 1 of a 4 x 5.
e = rng.standard_normal((4, 5)).astype(np.float32)
ei = rng.integers(-5, 5, (4, 3)).astype(np.int64)
save("gather_elements", helper.make_node(
    "GatherElements", ["data", "idx"], ["out"], name="ge", axis=1),
     e, ei, {}, np.take_along_axis(e, ei % 5, axis=1),
     [with_value(ei, (3, 2), 5), with_value(ei, (0, 0), -6)])

# GatherND, batch_dims 1: data 2 x 3 x 4, tuples of 2 indexing dims 1, 2.
n = rng.standard_normal((2, 3, 4)).astype(np.float32)
ni = np.array([[[0, 3], [2, -4]], [[-3, 1], [1, 2]]], np.int64)
nexp = np.stack([n[b][tuple((ni[b] % [3, 4]).T)] for b in range(2)])
save("gather_nd", helper.make_node("GatherND", ["data", "idx"], ["out"],
                                   name="gnd", batch_dims=1),
     n, ni, {}, nexp,
     # Entry 0 is bounded by 3, entry 1 by 4: 3 is in range for the second
     # entry only.
     [with_value(ni, (0, 1, 0), 3), with_value(ni, (1, 0, 1), -5)])

# ScatterElements on axis 0 of a 6 x 3 (unique positions per column).
s = rng.standard_normal((6, 3)).astype(np.float32)
si = np.array([[0, -1, 2], [5, 3, -6]], np.int64)
su = rng.standard_normal((2, 3)).astype(np.float32)
sexp = s.copy()
for r in range(2):
    for c in range(3):
        sexp[si[r, c] % 6, c] = su[r, c]
save("scatter_elements", helper.make_node(
    "ScatterElements", ["data", "idx", "upd"], ["out"], name="se", axis=0),
     s, si, {"upd": su}, sexp,
     [with_value(si, (1, 1), 6), with_value(si, (0, 2), -7)])

# ScatterND of rows into a 5 x 4.
t = rng.standard_normal((5, 4)).astype(np.float32)
ti = np.array([[4], [-5]], np.int64)
tu = rng.standard_normal((2, 4)).astype(np.float32)
texp = t.copy()
texp[4], texp[0] = tu[0], tu[1]
save("scatter_nd", helper.make_node(
    "ScatterND", ["data", "idx", "upd"], ["out"], name="snd"),
     t, ti, {"upd": tu}, texp,
     [with_value(ti, (0, 0), 5), with_value(ti, (1, 0), -6)])

# Two gathers of the same ids: both out of range, the first is reported.
g = helper.make_graph(
    [helper.make_node("Gather", ["data", "idx"], ["a"], name="first", axis=0),
     helper.make_node("Gather", ["a", "idx"], ["out"], name="second",
                      axis=1)],
    "two",
    [helper.make_tensor_value_info("idx", TensorProto.INT64, [2])],
    [helper.make_tensor_value_info("out", TensorProto.FLOAT, [2, 2])],
    [numpy_helper.from_array(rng.standard_normal((4, 4)).astype(np.float32),
                             "data")])
onnx.save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 16)]),
          f"{d}/two.onnx")
np.save(f"{d}/two.bad.npy", np.array([1, 9], np.int64))

with open(f"{d}/models.txt", "w") as f:
    f.write("\n".join(models) + "\n")
