"""Writes small models of the ops whose output shape depends on the data
(NonZero, Compress, Unique, NonMaxSuppression), inputs for the awkward cases
and numpy's outputs for them, into OUTDIR:

  MODEL.onnx                   the op on inputs of fixed shape
  MODEL-CASE-in-NAME.npy       an input of a case
  MODEL-CASE-out-NAME.npy      numpy's output for it

The cases: NonZero on an all-zero input (output [rank, 0]), on one element
(zero and not), on a 3-D input; Compress with an all-false condition and a
shorter one; Unique on one element and on all-equal elements (all four
outputs), and of rows in the order of first occurrence; NMS where no box passes the score threshold, and where some do.

usage: make_data_dependent.py OUTDIR   (Debian's /usr/bin/python3)
"""
import os
import sys

import numpy as np
from onnx import TensorProto, helper, numpy_helper

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
ELEM = {np.dtype(np.float32): TensorProto.FLOAT,
        np.dtype(np.int32): TensorProto.INT32,
        np.dtype(np.int64): TensorProto.INT64,
        np.dtype(np.bool_): TensorProto.BOOL}


def model(name, op, inputs, outputs, attrs=None, inits=()):
    """inputs: [(name, numpy array giving dtype and shape)]; outputs:
    [(name, dtype, rank)] (every output dim symbolic)."""
    ins = [helper.make_tensor_value_info(n, ELEM[a.dtype], list(a.shape))
           for n, a in inputs]
    outs = [helper.make_tensor_value_info(n, ELEM[np.dtype(t)],
                                          [f"{n}_{d}" for d in range(r)])
            for n, t, r in outputs]
    node = helper.make_node(op, [n for n, _ in inputs] + [n for n, _ in inits],
                            [n for n, _, _ in outputs], **(attrs or {}))
    g = helper.make_graph([node], name, ins, outs,
                          [numpy_helper.from_array(a, n) for n, a in inits])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])
    with open(os.path.join(out, name + ".onnx"), "wb") as f:
        f.write(m.SerializeToString())


def case(model_name, case_name, inputs, outputs):
    for n, a in inputs:
        np.save(os.path.join(out, f"{model_name}-{case_name}-in-{n}.npy"), a)
    for n, a in outputs:
        np.save(os.path.join(out, f"{model_name}-{case_name}-out-{n}.npy"), a)


def nonzero(x):
    return np.array(np.nonzero(x), dtype=np.int64).reshape(x.ndim, -1)


rng = np.random.default_rng(7)

# NonZero: 3-D f32 (all zero, some zero), 1 element i32 (zero, not).
x = rng.integers(-1, 2, (2, 3, 4)).astype(np.float32)
model("nonzero3d", "NonZero", [("x", x)], [("y", np.int64, 2)])
for name, v in [("zero", np.zeros_like(x)), ("mixed", x)]:
    case("nonzero3d", name, [("x", v)], [("y", nonzero(v))])
one = np.array([0], np.int32)
model("nonzero1", "NonZero", [("x", one)], [("y", np.int64, 2)])
for name, v in [("zero", one), ("five", np.array([5], np.int32))]:
    case("nonzero1", name, [("x", v)], [("y", nonzero(v))])

# Compress along axis 1 with a condition of 3 entries for 4 columns.
x = rng.standard_normal((2, 4)).astype(np.float32)
cond = np.array([True, False, True])
model("compress", "Compress", [("x", x), ("c", cond)],
      [("y", np.float32, 2)], {"axis": 1})
for name, c in [("none", np.zeros(3, np.bool_)), ("some", cond)]:
    case("compress", name, [("x", x), ("c", c)],
         [("y", np.compress(c, x, axis=1))])


def unique(v):
    y, idx, inv, cnt = np.unique(v, return_index=True, return_inverse=True,
                                 return_counts=True)
    return [("y", y), ("indices", idx.astype(np.int64)),
            ("inverse", inv.reshape(-1).astype(np.int64)),
            ("counts", cnt.astype(np.int64))]


# Unique, sorted, all four outputs: one element; five equal elements.
outs = [("y", np.float32, 1), ("indices", np.int64, 1),
        ("inverse", np.int64, 1), ("counts", np.int64, 1)]
v = np.array([2.5], np.float32)
model("unique1", "Unique", [("x", v)], outs, {"sorted": 1})
case("unique1", "one", [("x", v)], unique(v))
v = np.full(5, -3, np.float32)
model("unique5", "Unique", [("x", v)], outs, {"sorted": 1})
case("unique5", "equal", [("x", v)], unique(v))
v = np.array([3, 1, 3, 0, 1], np.float32)
case("unique5", "mixed", [("x", v)], unique(v))

# Unique of rows (axis 0), in the order of first occurrence (sorted=0).
rows = np.array([[1, 2], [0, 5], [1, 2], [0, 5], [3, 3], [0, 4]], np.int64)
model("unique_rows", "Unique", [("x", rows)],
      [("y", np.int64, 2)] + outs[1:], {"axis": 0, "sorted": 0})
y, idx, inv, cnt = np.unique(rows, axis=0, return_index=True,
                             return_inverse=True, return_counts=True)
order = np.argsort(idx, kind="stable")
place = np.empty_like(order)
place[order] = np.arange(len(order))
case("unique_rows", "first", [("x", rows)],
     [("y", y[order]), ("indices", idx[order].astype(np.int64)),
      ("inverse", place[inv.reshape(-1)].astype(np.int64)),
      ("counts", cnt[order].astype(np.int64))])

# NMS: 3 boxes, 1 class; score threshold 0.5 (strict), IoU 0.5, at most 3.
boxes = np.array([[[0, 0, 1, 1], [0, 0.1, 1, 1.1], [0, 2, 1, 3]]],
                 np.float32)
inits = [("max", np.array([3], np.int64)), ("iou", np.array([0.5], np.float32)),
         ("score", np.array([0.5], np.float32))]
low = np.array([[[0.1, 0.5, 0.2]]], np.float32)
model("nms", "NonMaxSuppression", [("boxes", boxes), ("scores", low)],
      [("selected", np.int64, 2)], inits=inits)
case("nms", "none", [("boxes", boxes), ("scores", low)],
     [("selected", np.zeros((0, 3), np.int64))])
# box 1 overlaps box 0 (IoU 0.82) and scores higher: box 0 is suppressed
high = np.array([[[0.7, 0.9, 0.6]]], np.float32)
case("nms", "some", [("boxes", boxes), ("scores", high)],
     [("selected", np.array([[0, 0, 1], [0, 0, 2]], np.int64))])
